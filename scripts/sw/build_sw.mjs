// Tableside service worker: `node scripts/sw/build_sw.mjs <site_dir>` writes <site_dir>/sw.js.
//
// Workbox precaches every file of the built site (pages, assets, the search index, the
// Pyodide runtime, PyScript, the rules bundle, the calculator registry) with a content
// revision per file, so one visit online is enough for airplane mode. The worker's source is
// scripts/sw/sw-src.mjs, bundled here with Rollup (the Workbox modules inlined: nothing is
// loaded from a CDN); Workbox's injectManifest then writes the file list into it. Manifest
// URLs are relative to sw.js, so the site works under a sub-path (a GitHub Pages project
// site). Prints one JSON line: {"files": n, "bytes": total, "budget": bytes, "reused": n,
// "warnings": [...]}.
//
// The precache has a size budget (PRECACHE_BUDGET_MB, or $TABLESIDE_PRECACHE_BUDGET_MB): a
// phone downloads all of it on the first visit, so a site past it fails the build, saying
// by how much and where the bytes are.
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
// Python's big files, which the first visit's page has just downloaded itself: the worker
// precaches the browser's copy of these when its SHA-256 matches (see sw-src.mjs).
const PYODIDE_REUSED = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"];

// Workbox skips files above 2 MiB by default, silently; pyodide.asm.wasm is ~9.6 MB and
// python_stdlib.zip ~2.5 MB. 64 MiB leaves room for a Pyodide upgrade.
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

// The whole precache: the runtime is ~18 MB of the five games' site; a 2,000-heading source
// adds ~5 MB, a 5 MB source ~30 MB (its pages and search index).
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

/** Bytes under each top-level entry of siteDir, largest first (for the budget message). */
function largest(siteDir, n = 5) {
  /** @param {string} p @returns {number} */
  const size = (p) => {
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
    // Source maps are for developers, the gzipped sitemap for crawlers; sw.js is the worker.
    // Anything else (e.g. assets/runtime/snapshot.bin.gz) is needed offline.
    globIgnores: ["**/*.map", "sitemap.xml.gz", "sw.js"],
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

const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

// Site-relative URL -> {fetch, sha256} of the files the worker may take from the HTTP
// cache: the URL the page itself requests (the snapshot carries its ?snap=<hash>, see
// calculators/snapshot.mjs) and the bytes this build has.
export function reusable(siteDir) {
  const out = {};
  const add = (rel, fetchRel = rel) => {
    const file = path.join(siteDir, rel);
    if (existsSync(file)) out[rel] = { fetch: fetchRel, sha256: sha256(file) };
  };
  for (const f of PYODIDE_REUSED) add(`assets/runtime/pyodide/${f}`);
  const manifest = path.join(siteDir, "assets", "calculators", "runtime.json");
  if (existsSync(manifest)) {
    const m = JSON.parse(readFileSync(manifest, "utf-8"));
    if (m.snapshot && m.pyodide !== m.pyodide_plain) {
      const snap = new URL(m.pyodide, "https://x/").search; // "?snap=<hash>"
      add("assets/runtime/snapshot.bin.gz", `assets/runtime/snapshot.bin.gz${snap}`);
    }
  }
  return out;
}

// Site-relative URL -> hex SHA-256 of every file the worker precaches (the same globbing
// as swConfig: everything but source maps, the gzipped sitemap and sw.js itself).
export function fileHashes(siteDir) {
  const out = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else {
        const rel = path.relative(siteDir, file).split(path.sep).join("/");
        if (!rel.endsWith(".map") && rel !== "sitemap.xml.gz" && rel !== "sw.js") {
          out[rel] = sha256(file);
        }
      }
    }
  };
  walk(siteDir);
  return out;
}

// sw-src.mjs with Workbox inlined and the reusable files written in, as one classic script.
async function bundle(siteDir, dest) {
  const b = await rollup({
    input: SRC,
    plugins: [
      nodeResolve({ browser: true }),
      replace({
        preventAssignment: true,
        values: {
          "process.env.NODE_ENV": JSON.stringify("production"),
          "self.__TABLESIDE_REUSE": JSON.stringify(reusable(siteDir)),
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
    await bundle(siteDir, src);
    const { count, size, warnings } = await injectManifest(swConfig(siteDir, src));
    // A skipped file would mean a silent hole in airplane mode: fail the build instead.
    if (warnings.length) throw new Error(`workbox-build: ${warnings.join("; ")}`);
    const budget = budgetBytes();
    checkBudget(siteDir, size, budget);
    return {
      files: count, bytes: size, budget, reused: Object.keys(reusable(siteDir)).length, warnings,
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
