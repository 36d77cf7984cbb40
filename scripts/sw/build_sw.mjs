// Tableside service worker: `node scripts/sw/build_sw.mjs <site_dir>` writes <site_dir>/sw.js.
//
// Workbox's generateSW precaches every file of the built site (pages, assets, the search
// index, the Pyodide runtime, PyScript, the rules bundle, the calculator registry) with a
// content revision per file, so one visit online is enough for airplane mode. The Workbox
// runtime is inlined (inlineWorkboxRuntime): nothing is loaded from a CDN. Manifest URLs are
// relative to sw.js, so the site works under a sub-path (a GitHub Pages project site).
// Prints one JSON line: {"files": n, "bytes": total, "warnings": [...]}.
import { generateSW } from "workbox-build";
import { existsSync } from "node:fs";
import path from "node:path";

// Workbox skips files above 2 MiB by default, silently; pyodide.asm.wasm is ~9.6 MB and
// python_stdlib.zip ~2.5 MB. 64 MiB leaves room for a Pyodide upgrade.
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

export function swConfig(siteDir) {
  return {
    globDirectory: siteDir,
    globPatterns: ["**/*"],
    // Source maps are for developers, the gzipped sitemap for crawlers; sw.js is the worker.
    // Anything else (e.g. assets/runtime/snapshot.bin.gz) is needed offline.
    globIgnores: ["**/*.map", "sitemap.xml.gz", "sw.js"],
    swDest: path.join(siteDir, "sw.js"),
    maximumFileSizeToCacheInBytes: MAX_FILE_BYTES,
    inlineWorkboxRuntime: true,
    mode: "production",
    sourcemap: false,
    cacheId: "tableside",
    // A new build never takes over an open page by itself: the page asks (see
    // calculators/offline.js), then posts SKIP_WAITING; generateSW adds that listener.
    skipWaiting: false,
    // The first visit's page becomes controlled at once, so instant navigation in that
    // same tab already works offline.
    clientsClaim: true,
    cleanupOutdatedCaches: true,
    // MkDocs pages are dir/index.html: /horizon/pistols/ -> /horizon/pistols/index.html.
    directoryIndex: "index.html",
    // Query strings never change a static file here (?v=<hash> on the rules bundle,
    // ?calc=…&… calculator links): ignore them all when matching the precache.
    ignoreURLParametersMatching: [/.*/],
    // Material's fingerprinted bundles need no cache-busting revision parameter.
    dontCacheBustURLsMatching: /\.[0-9a-f]{8}\.min\.(?:js|css)$/,
  };
}

export async function buildSW(siteDir) {
  if (!existsSync(path.join(siteDir, "index.html"))) {
    throw new Error(`${siteDir} holds no built site (no index.html)`);
  }
  const { count, size, warnings } = await generateSW(swConfig(siteDir));
  // A skipped file would mean a silent hole in airplane mode: fail the build instead.
  if (warnings.length) throw new Error(`workbox-build: ${warnings.join("; ")}`);
  return { files: count, bytes: size, warnings };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const siteDir = path.resolve(process.argv[2] || "site");
  buildSW(siteDir).then(
    (r) => console.log(JSON.stringify(r)),
    (e) => { console.error(`build_sw: ${e.message}`); process.exit(1); },
  );
}
