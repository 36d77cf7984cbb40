// @ts-check
// Every runtime file the calculators use is checked against the SHA-256 this build was
// made with before it runs; a changed file stops the calculators, visibly.
//
// The page is the root of trust: each page carries the build's hashes of every runtime
// file (<meta name="tableside:integrity">, written by scripts/site/runtime.py), and its
// own script and module-preload tags carry `integrity`. This module covers the rest:
// - modules imported later (PyScript, Pyodide, the snapshot wrapper): `verifiedModules()`
//   preloads each with its `integrity` and waits, so the import gets the checked copy;
// - files fetched by Pyodide and PyScript (wasm, standard library, lock file, the rules
//   bundle) and by tableside.js (bridge, registry): `guardFetch()` makes the page's fetch()
//   hash what it reads under the runtime's folders and refuse a mismatch, or a file the
//   build does not list;
// - the snapshot's memory (built in a worker, or read back from Cache Storage):
//   `verifyMemory()`.
// - a first visit's page is not yet controlled by the service worker, so it downloads the
//   runtime itself: `guardFetch()` also stores each checked runtime file it has read in
//   the runtime cache (python/runtime-cache.mjs), so the worker never downloads it again.
// Any refusal calls `refuse()`: <html data-ts-integrity="failed">, the `unverified`
// promise resolves (tableside.js turns every calculator off with the message below).
//
// Also imported in the workers (python/worker.mjs, python/snapshot-worker.mjs): there, with no
// document, nothing here runs by itself; python/worker.mjs hands it the page's hashes
// (setPins) and guards its own fetch(), so Pyodide's downloads there are checked the same way.

import { RUNTIME_CACHE, RUNTIME_DIR, putRuntime } from "./runtime-cache.mjs";

const doc = globalThis.document;
const ROOT = new URL("../../../", import.meta.url);
// Checked by runtime folder: everything the calculators fetch there must be listed.
const GUARDED = ["assets/runtime/", "assets/calculators/"].map((p) => new URL(p, ROOT).href);
// runtime.json only chooses among listed files (plain or snapshot start); not pinned.
const UNPINNED = new Set(["assets/calculators/runtime.json"].map((p) => new URL(p, ROOT).href));

/** @typedef {{files: Record<string, string>, memory: string | null}} Pins */
/** @type {Pins | null} */
let pins = (() => {
  const meta = doc?.querySelector('meta[name="tableside:integrity"]');
  try {
    return meta ? JSON.parse(meta.getAttribute("content") || "") : null;
  } catch {
    return null;
  }
})();
let byURL = byHref(pins);

/** @param {Pins | null} p */
function byHref(p) {
  return new Map(Object.entries(p?.files || {}).map(([rel, sri]) => [new URL(rel, ROOT).href, sri]));
}

/** The page's hashes (for a worker, which has no page to read them from). */
export const pagePins = () => pins;

/** Whether a checked runtime file read here is to be stored in the runtime cache: on a page,
 * when no service worker controls it (it saw no download); a worker is told by its page. */
let keeping = () => {
  const sw = globalThis.navigator?.serviceWorker;
  const off = ["off", "failed"].includes(doc?.documentElement.dataset.tsSw || ""); // offline.js
  return Boolean(doc && sw && !sw.controller && !off);
};

/** In a worker: the page's hashes, and whether to keep what is read (see keeping).
 * @param {Pins} p @param {boolean} keep */
export function setPins(p, keep) {
  pins = p;
  byURL = byHref(p);
  keeping = () => keep;
}

export class IntegrityError extends Error {}

/** @param {string | URL} url  the URL without its query (?v=, ?snap= only bust caches) */
function bare(url) {
  const u = new URL(url, doc ? doc.baseURI : ROOT);
  u.search = "";
  u.hash = "";
  return u.href;
}

/** The file's name as people know it: "pyodide.asm.wasm", "core-C9KDLldu.js", and ours
 * by their folder in calculators/ ("python/worker.mjs"). @param {string} href */
const shortName = (href) => {
  const ours = href.lastIndexOf("/assets/calculators/");
  return ours >= 0 ? href.slice(ours + "/assets/calculators/".length)
    : href.slice(href.lastIndexOf("/") + 1);
};

/** @param {string | URL} url @returns {string | null} its SRI ("sha256-…"), if listed */
export function sriFor(url) {
  return byURL.get(bare(url)) ?? null;
}

/** The listed modules in the folder of `url` (PyScript's chunks, Pyodide's two modules).
 * @param {string | URL} url */
export function modulesBeside(url) {
  const dir = new URL(".", bare(url)).href;
  return [...byURL.keys()].filter((href) => href.startsWith(dir)
    && !href.slice(dir.length).includes("/") && /\.m?js$/.test(href));
}

/** @type {(reason: {file: string, message: string}) => void} */
let settle = () => {};
/** Resolves with the first refusal (never rejects; most visits it never settles). */
export const unverified = new Promise((resolve) => { settle = resolve; });
/** @type {{file: string, why: string, message: string} | null} */
let refused = null;

/** The refusal that stopped the calculators, if one did. */
export const refusal = () => refused;

/** Stop the calculators: `file` is not this build's (or not listed).
 * @param {string} file @param {string} why */
export function refuse(file, why) {
  const message = `The calculators could not be verified: ${file} ${why}, so they are `
    + "switched off rather than run a changed file. Reload the page to try again; "
    + "the tables on this page still work.";
  if (!refused) {
    refused = { file, why, message };
    if (doc) doc.documentElement.dataset.tsIntegrity = "failed";
    console.error(`Tableside: ${message}`);
    settle(refused);
  }
  return new IntegrityError(message);
}

const NOT_THIS_BUILD = "is not the file this site was built with";

/** @param {BufferSource} bytes @returns {Promise<string>} "sha256-<base64>" */
export async function sriOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let bin = "";
  for (const b of digest) bin += String.fromCharCode(b);
  return `sha256-${btoa(bin)}`;
}

/** Check the snapshot's memory (as Pyodide will use it) against the page's hash. */
export async function verifyMemory(/** @type {Uint8Array<ArrayBuffer>} */ memory) {
  if (!pins && !doc) return memory; // python/snapshot-worker.mjs: its page checks what it sends
  if (!pins?.memory) throw refuse("the Python snapshot", "is not listed by this page");
  if ((await sriOf(memory)) !== pins.memory) throw refuse("the Python snapshot", NOT_THIS_BUILD);
  return memory;
}

// --- fetch() under the runtime's folders ----------------------------------------------------
let guarded = false;
const RUNTIME_HREF = new URL(RUNTIME_DIR, ROOT).href;

/** Keep a checked runtime file this page read itself (no worker saw the download). */
function keep(url, body, sri, headers) {
  if (!url.startsWith(RUNTIME_HREF) || !keeping() || !("caches" in globalThis)) return;
  caches.open(RUNTIME_CACHE).then((c) => putRuntime(c, url, body, sri, headers))
    .catch(() => { /* storage blocked or full: the worker saves it later, if it can */ });
}

/** Make this scope's fetch() check what it reads from the runtime's folders (a page, or
 * python/worker.mjs once it has the page's hashes). */
export function guardFetch() {
  if (guarded || (!doc && !pins)) return;
  guarded = true;
  const plain = globalThis.fetch.bind(globalThis);
  globalThis.fetch = async (input, init) => {
    const url = bare(input instanceof Request ? input.url : String(input));
    if (!GUARDED.some((p) => url.startsWith(p)) || UNPINNED.has(url)) return plain(input, init);
    const expected = byURL.get(url);
    if (!expected) throw refuse(shortName(url), "is not part of this build");
    const r = await plain(input, init); // a network error stays one (offline is not tampering)
    if (!r.ok) return r;
    const body = await r.arrayBuffer();
    if ((await sriOf(body)) !== expected) throw refuse(shortName(url), NOT_THIS_BUILD);
    keep(url, body, expected, r.headers);
    // The same response, read once: its headers stay (application/wasm for the compiler).
    return new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers });
  };
}

// --- modules ---------------------------------------------------------------------------
/** @param {string} href @param {string} sri @returns {Promise<void>} */
function preload(href, sri) {
  return new Promise((resolve, reject) => {
    const link = doc.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    link.integrity = sri;
    link.onload = () => resolve();
    link.onerror = () => reject(new Error(`${href}: could not be loaded`));
    doc.head.append(link);
  });
}

/** Why a module preload failed: a changed file, or the network (offline, 404). */
async function diagnose(href, sri) {
  let body;
  try {
    const r = await fetch(href, { cache: "no-store" }); // guarded: refuses a changed file
    if (!r.ok) return new Error(`${shortName(href)}: HTTP ${r.status}`);
    body = await r.arrayBuffer();
  } catch (e) {
    return e instanceof IntegrityError ? e : new Error(`${shortName(href)}: ${e}`);
  }
  return (await sriOf(body)) === sri ? new Error(`${shortName(href)}: could not be loaded`)
    : refuse(shortName(href), NOT_THIS_BUILD);
}

/**
 * Put each module (URL, query kept) into the page's module map through a module preload
 * with its `integrity`, and wait: a later import() of the same URL gets that checked
 * copy. Rejects with an IntegrityError for a changed or unlisted module.
 * @param {(string | URL)[]} urls
 */
export async function verifiedModules(urls) {
  if (!doc) return;
  await Promise.all(urls.map(async (u) => {
    const href = new URL(u, doc.baseURI).href;
    const sri = sriFor(href);
    if (!sri) throw refuse(shortName(bare(href)), "is not part of this build");
    try {
      await preload(href, sri);
    } catch {
      throw await diagnose(href, sri);
    }
  }));
}

// Checked from the start: python/boot.mjs's downloads and tableside.js's fetches come next.
guardFetch();
