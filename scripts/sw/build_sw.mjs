// Tableside service worker: `node scripts/sw/build_sw.mjs <site_dir>` writes <site_dir>/sw.js.
//
// Two parts (issue #13, "offline by choice"):
// - the reading precache: every file of the built site except the Python runtime
//   (assets/runtime/**): pages, their assets, the search index, the calculators' own
//   small files. Workbox precaches it on any visit, with a content revision per file;
// - the runtime (Pyodide, PyScript, the snapshot, the rules bundle, ~20 MB): not
//   precached. Its files' SHA-256 and sizes are written into the worker
//   (self.__TABLESIDE_RUNTIME), which caches each one when a calculator page first needs
//   it, or all of them when the reader asks ("Save everything for offline").
// The worker's source is scripts/sw/sw-src.mjs, bundled here with Rollup (the Workbox
// modules and calculators/python/runtime-cache.mjs inlined: nothing is loaded from a CDN);
// Workbox's injectManifest then writes the file list into it. Manifest URLs are relative
// to sw.js, so the site works under a sub-path (a GitHub Pages project site). Prints one
// JSON line: {"files": n, "bytes": reading precache, "budget": bytes, "runtime_files": n,
// "runtime_bytes": bytes, "warnings": [...]}.
//
// The reading precache has a size budget (PRECACHE_BUDGET_MB, or
// $TABLESIDE_PRECACHE_BUDGET_MB): a phone downloads all of it on the first visit, so a
// site past it fails the build, saying by how much and where the bytes are.
import { injectManifest } from "workbox-build";
import { rollup } from "rollup";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import replace from "@rollup/plugin-replace";
import terser from "@rollup/plugin-terser";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), "sw-src.mjs");
// Cached on demand, not precached (calculators/python/runtime-cache.mjs says the same to the page).
const RUNTIME_DIR = "assets/runtime/";

// Workbox skips files above 2 MiB by default, silently; pyodide.asm.wasm is ~9.6 MB and
// python_stdlib.zip ~2.5 MB. 64 MiB leaves room for a Pyodide upgrade.
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

// The reading precache (the runtime is not in it): the five games' site is a few MB; a
// 2,000-heading source adds ~5 MB, a 5 MB source ~30 MB (its pages and search index).
export const PRECACHE_BUDGET_MB = 60;

/** @param {NodeJS.ProcessEnv} env */
export function budgetBytes(env = process.env) {
  const raw = env.TABLESIDE_PRECACHE_BUDGET_MB;
  const mb = raw === undefined || raw === "" ? PRECACHE_BUDGET_MB : Number(raw);
  if (!Number.isFinite(mb) || mb <= 0) {
    throw new Error(`TABLESIDE_PRECACHE_BUDGET_MB=${raw} is not a positive number of MB`);
  }
  return mb * 1e6;
}

/** Bytes under each top-level entry of siteDir, largest first, the runtime left out (it is
 * not precached): for the budget message. */
function largest(siteDir, n = 5) {
  const runtime = path.join(siteDir, RUNTIME_DIR);
  /** @param {string} p @returns {number} */
  const size = (p) => {
    if (`${p}${path.sep}` === runtime) return 0;
    const st = statSync(p);
    return st.isDirectory() ? readdirSync(p).reduce((t, f) => t + size(path.join(p, f)), 0)
      : st.size;
  };
  return readdirSync(siteDir).map((f) => [f, size(path.join(siteDir, f))])
    .sort((a, b) => b[1] - a[1]).slice(0, n);
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Throws when the precache is over budget, naming the excess and the biggest folders. */
export function checkBudget(siteDir, bytes, budget = budgetBytes()) {
  if (bytes <= budget) return;
  const where = largest(siteDir).map(([f, b]) => `${f} ${mb(b)}`).join(", ");
  throw new Error(`the precache is ${mb(bytes)}, ${mb(bytes - budget)} over its budget of `
    + `${mb(budget)} (PRECACHE_BUDGET_MB in scripts/sw/build_sw.mjs, or `
    + `TABLESIDE_PRECACHE_BUDGET_MB); largest: ${where}`);
}

export function swConfig(siteDir, swSrc = SRC) {
  return {
    swSrc,
    globDirectory: siteDir,
    globPatterns: ["**/*"],
    // Source maps are for developers, the gzipped sitemap for crawlers; sw.js is the worker;
    // the runtime is cached on demand (sw-src.mjs). Anything else is needed offline.
    globIgnores: ["**/*.map", "sitemap.xml.gz", "sw.js", `${RUNTIME_DIR}**`],
    swDest: path.join(siteDir, "sw.js"),
    maximumFileSizeToCacheInBytes: MAX_FILE_BYTES,
    // In sw-src.mjs, as generateSW would set them: cache names prefixed "tableside"; a new
    // build never takes over an open page by itself (the page asks, calculators/offline.js,
    // then posts SKIP_WAITING); the first visit's page is claimed at once, so instant
    // navigation in that tab already works offline; outdated precaches are cleaned up;
    // dir/ serves dir/index.html (MkDocs pages); and query strings never change a static
    // file here (?v=<hash> on the rules bundle, ?calc=…&… links), so they are ignored.
    // Material's fingerprinted bundles need no cache-busting revision parameter.
    dontCacheBustURLsMatching: /\.[0-9a-f]{8}\.min\.(?:js|css)$/,
  };
}

const digest = (file) => createHash("sha256").update(readFileSync(file));
const sha256 = (file) => digest(file).digest("hex");

/** Site-relative paths of every file under siteDir, but source maps, the gzipped sitemap
 * and sw.js itself (the same files as swConfig's globbing, the runtime included). */
function siteFiles(siteDir) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else {
        const rel = path.relative(siteDir, file).split(path.sep).join("/");
        if (!rel.endsWith(".map") && rel !== "sitemap.xml.gz" && rel !== "sw.js") out.push(rel);
      }
    }
  };
  walk(siteDir);
  return out.sort();
}

// Site-relative URL -> hex SHA-256 of every file the worker precaches.
export function fileHashes(siteDir) {
  return Object.fromEntries(siteFiles(siteDir).filter((rel) => !rel.startsWith(RUNTIME_DIR))
    .map((rel) => [rel, sha256(path.join(siteDir, rel))]));
}

// Site-relative URL -> {sri: "sha256-<base64>", bytes} of every runtime file: what the
// worker caches on demand, and the size "Save everything for offline" announces.
export function runtimeFiles(siteDir) {
  return Object.fromEntries(siteFiles(siteDir).filter((rel) => rel.startsWith(RUNTIME_DIR))
    .map((rel) => {
      const file = path.join(siteDir, rel);
      return [rel, { sri: `sha256-${digest(file).digest("base64")}`, bytes: statSync(file).size }];
    }));
}

// Site-relative file -> the URL the page itself requests, where the two differ: the
// snapshot and its wrapper carry ?snap=<hash> (calculators/python/snapshot.mjs). The worker asks
// for that URL, so the browser's copy is reused.
export function pageURLs(siteDir) {
  const manifest = path.join(siteDir, "assets", "calculators", "runtime.json");
  if (!existsSync(manifest)) return {};
  const m = JSON.parse(readFileSync(manifest, "utf-8"));
  if (!m.snapshot || m.pyodide === m.pyodide_plain) return {};
  const snap = new URL(m.pyodide, "https://x/").search;
  const out = {};
  for (const rel of [`assets/calculators/${m.pyodide.split("?")[0]}`,
    `${RUNTIME_DIR}snapshot.bin.gz`]) {
    if (existsSync(path.join(siteDir, rel))) out[rel] = `${rel}${snap}`;
  }
  return out;
}

// sw-src.mjs with Workbox inlined and the hashes written in, as one classic script.
async function bundle(siteDir, runtime, dest) {
  const b = await rollup({
    input: SRC,
    plugins: [
      nodeResolve({ browser: true }),
      replace({
        preventAssignment: true,
        values: {
          "process.env.NODE_ENV": JSON.stringify("production"),
          "self.__TABLESIDE_RUNTIME": JSON.stringify(runtime),
          "self.__TABLESIDE_PAGE_URLS": JSON.stringify(pageURLs(siteDir)),
          "self.__TABLESIDE_SHA256": JSON.stringify(fileHashes(siteDir)),
        },
      }),
      terser(),
    ],
  });
  try {
    await b.write({ file: dest, format: "iife", sourcemap: false });
  } finally {
    await b.close();
  }
}

export async function buildSW(siteDir) {
  if (!existsSync(path.join(siteDir, "index.html"))) {
    throw new Error(`${siteDir} holds no built site (no index.html)`);
  }
  const tmp = mkdtempSync(path.join(tmpdir(), "tableside-sw-"));
  try {
    const src = path.join(tmp, "sw.js");
    const runtime = runtimeFiles(siteDir);
    await bundle(siteDir, runtime, src);
    const { count, size, warnings } = await injectManifest(swConfig(siteDir, src));
    // A skipped file would mean a silent hole in airplane mode: fail the build instead.
    if (warnings.length) throw new Error(`workbox-build: ${warnings.join("; ")}`);
    const budget = budgetBytes();
    checkBudget(siteDir, size, budget);
    return {
      files: count, bytes: size, budget, runtime_files: Object.keys(runtime).length,
      runtime_bytes: Object.values(runtime).reduce((t, f) => t + f.bytes, 0), warnings,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const siteDir = path.resolve(process.argv[2] || "site");
  buildSW(siteDir).then(
    (r) => console.log(JSON.stringify(r)),
    (e) => { console.error(`build_sw: ${e.message}`); process.exit(1); },
  );
}
