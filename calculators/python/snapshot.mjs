// @ts-check
// The Pyodide memory snapshot's bytes, fetched and inflated once per page, off the main
// thread (python/snapshot-worker.mjs), with Python's other downloads.
//
// An adapter of python/boot.mjs (same URL, so the same instance and the same download): python/boot.mjs
// starts the download with the others (its warmUp), and the bytes are picked up later,
// when PyScript calls the `interpreter` adapter python/pyodide-snapshot.mjs. Inflating the
// ≈31 MB snapshot is ~0.2 s of CPU on a desktop and about four times that on a mid-range
// phone: on the main thread it blocked the page and Pyodide's start; in a worker it runs
// beside both. Whichever way the bytes come (worker, Cache Storage, this page), the page
// checks the memory against this build's hash before Pyodide gets it (python/integrity.mjs).
import { IntegrityError, sriFor, sriOf, verifyMemory } from "./integrity.mjs";
import { RUNTIME_CACHE, putRuntime } from "./runtime-cache.mjs";

// On a slow or metered connection an uncached snapshot (≈7 MB) costs more time than it
// saves (Python's plain start is a few CPU seconds): use it only if the browser already
// has it; the service worker caches it for the next visit. The one place this rule lives.
export function slowNetwork() {
  const c = navigator.connection;
  return Boolean(c && (c.saveData || /(^|-)(2g|3g)$/.test(c.effectiveType || "")));
}

// The snapshot file holds the memory without its all-zero pages (the layout is written
// by scripts/snapshot/sparse.mjs at build time): put them back into a zeroed buffer.
export function expand(bytes) {
  const magic = new TextDecoder().decode(bytes.subarray(0, 8));
  if (magic !== "TSSPARS1") throw new Error("the snapshot file has an unknown format");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const total = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const out = new Uint8Array(total);
  let p = 16 + count * 8;
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(16 + i * 8, true);
    const len = view.getUint32(20 + i * 8, true);
    if (offset + len > total || p + len > bytes.length) {
      throw new Error("the snapshot file is truncated or corrupt");
    }
    out.set(bytes.subarray(p, p + len), offset);
    p += len;
  }
  return out;
}

/** The snapshot that goes with the wrapper module at `wrapperURL` (its `?snap=<hash>`
 * versions the snapshot too; see scripts/snapshot/hook.py). */
export function snapshotURL(wrapperURL) {
  const u = new URL(wrapperURL);
  return new URL(`../../runtime/snapshot.bin.gz${u.search}`, u).href;
}

// The inflated (still sparse) snapshot of the current build, kept by python/snapshot-worker.mjs
// after the first visit: later visits read it back (a file read) instead of inflating
// (~0.2 s of CPU, ~1 s on a phone) or starting a worker.
const RAW_CACHE = "tableside-snapshot-raw";

// Cache Storage takes ~0.1 s to answer the first time on a page: on a calculator page
// (the head's marker, see python/boot.mjs) ask it now, while runtime.json loads.
// has() and match(): looking creates nothing (a never-used site keeps no cache at all).
let rawCacheP = null;
function rawCacheExists() {
  rawCacheP ??= (async () => caches.has(RAW_CACHE))().catch(() => false);
  return rawCacheP;
}
if (globalThis.document?.querySelector('meta[name="tableside:calculators"], .ts-calc')) {
  rawCacheExists();
}

/** @param {string} url */
async function fromRawCache(url) {
  try {
    if (!(await rawCacheExists())) return null;
    const r = await caches.match(url, { cacheName: RAW_CACHE });
    return r ? expand(new Uint8Array(await r.arrayBuffer())) : null;
  } catch {
    return null; // no Cache Storage here (an insecure origin), or a damaged copy: inflate
  }
}

const started = new Map(); // snapshot URL -> {bytes: Promise<Uint8Array|null>, onlyIfCached}

/** Snapshot URL -> resolves when its worker has closed (its raw copy written, or not). */
const workerDone = new Map();

function inWorker(url, onlyIfCached) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL("snapshot-worker.mjs", import.meta.url), { type: "module" });
    /** @type {(v?: unknown) => void} */
    let closed = () => {};
    workerDone.set(url, new Promise((r) => { closed = r; }));
    w.onmessage = ({ data }) => { // the worker closes itself once it has stored the bytes
      if (data.closed) closed();
      else if (data.ok) {
        // Which way the bytes came, and what they cost (read by tests and the bench).
        performance.mark(`tableside:snapshot-from-${data.from}`,
          { detail: { transferSize: data.transferSize || 0 } });
        resolve(new Uint8Array(data.bytes));
      } else if (data.missing) resolve(null);
      else reject(new Error(data.message));
    };
    w.onerror = (e) => { // the worker could not start (or crashed): do it on the page
      w.terminate();
      closed();
      console.info("Tableside: no snapshot worker, inflating on the page:", e.message);
      resolve(onMainThread(url, onlyIfCached));
    };
    w.postMessage({ url, onlyIfCached, rawCache: RAW_CACHE, keep: keepSri(url) });
  });
}

// A worker's script cannot carry `integrity`: read it first through the page's checked
// fetch() (python/integrity.mjs), so a changed one is refused; the worker then gets the same
// bytes from the HTTP cache. (Its result, the memory, is checked as well.)
async function checkWorker() {
  const r = await fetch(new URL("snapshot-worker.mjs", import.meta.url));
  if (!r.ok) throw new Error(`snapshot-worker.mjs: HTTP ${r.status}`);
}

/** Store the snapshot file in the runtime cache (python/runtime-cache.mjs) if it is `sri`. */
async function keepRuntime(url, file, sri, headers) {
  try {
    if ((await sriOf(file)) !== sri) return; // the memory check then refuses it, visibly
    await putRuntime(await caches.open(RUNTIME_CACHE), url, file, sri, headers);
  } catch {
    // storage blocked or full: the service worker saves it later, if it can
  }
}

/** The snapshot's hash, when this page's download is to be kept: no worker controls it. */
const keepSri = (url) => (globalThis.navigator?.serviceWorker?.controller ? null : sriFor(url));

/** Fetch the snapshot file and inflate it: its (sparse) bytes, or null when
 * `onlyIfCached` and the browser does not have it. Run in python/snapshot-worker.mjs, or on the
 * page by onMainThread(). */
export async function fetchInflated(url, onlyIfCached, keep = null) {
  let r;
  try {
    r = await fetch(url, onlyIfCached ? { cache: "only-if-cached", mode: "same-origin" } : {});
  } catch (e) {
    if (onlyIfCached) return null; // not cached: fetch() rejects in only-if-cached mode
    throw e;
  }
  if (!r.ok || !r.body) throw new Error(`${url}: HTTP ${r.status}`);
  let body = r.body;
  if (keep) { // no service worker saw this download: keep the file if it is this build's
    const file = await r.arrayBuffer();
    await keepRuntime(url, file, keep, r.headers);
    body = /** @type {any} */ (new Response(file).body);
  }
  const raw = body.pipeThrough(new DecompressionStream("gzip"));
  return new Response(raw).arrayBuffer();
}

/** Open the cache of inflated snapshots (null: storage disabled, inflate every time).
 * @param {string} name */
export async function openRaw(name) {
  try {
    return self.caches ? await self.caches.open(name) : null;
  } catch {
    return null;
  }
}

/** Keep `body` (the inflated, still sparse, snapshot) as the one of this build.
 * @param {Cache} cache @param {string} url @param {Response} body */
export async function keepRaw(cache, url, body) {
  try {
    for (const old of await cache.keys()) {
      if (old.url !== url) await cache.delete(old); // an earlier build's snapshot
    }
    await cache.put(url, body);
  } catch {
    // quota or private mode: the next visit inflates again, nothing else changes
  }
}

/**
 * The snapshot's memory, got and checked in this very scope (python/worker.mjs: it is off
 * the page's main thread already): read back inflated from Cache Storage, or fetched,
 * inflated and kept there. Null when `onlyIfCached` and the browser does not have it.
 * `keep`: the file's SRI, when no service worker saw the download (kept for offline).
 * @param {string} url @param {boolean} onlyIfCached @param {string | null} keep
 * @returns {Promise<{memory: Uint8Array<ArrayBuffer>, from: string, transferSize?: number}
 *   | null>}
 */
export async function snapshotHere(url, onlyIfCached, keep) {
  const raw = await fromRawCache(url);
  if (raw) return { memory: await verifyMemory(raw), from: "raw-cache" };
  const packed = await fetchInflated(url, onlyIfCached, keep);
  if (!packed) return null;
  const memory = await verifyMemory(expand(new Uint8Array(packed)));
  const cache = await openRaw(RAW_CACHE); // opened only now: a failed download leaves none
  if (cache) await keepRaw(cache, url, new Response(packed)); // kept as it came: sparse
  // A worker's downloads are not in the page's Resource Timing: say what this one cost.
  const entry = /** @type {PerformanceResourceTiming | undefined} */ (
    performance.getEntriesByName(url).pop());
  return { memory, from: "network", transferSize: entry ? entry.transferSize : 0 };
}

// The same on the main thread, for a browser that cannot start the worker.
async function onMainThread(url, onlyIfCached) {
  const packed = await fetchInflated(url, onlyIfCached, keepSri(url));
  if (!packed) return null;
  const memory = expand(new Uint8Array(packed));
  performance.mark("tableside:snapshot-from-page"); // read by tests
  return memory;
}

/**
 * Start (or join) the download of the snapshot at `url`. Returns null when this browser
 * cannot inflate it (no DecompressionStream: Python starts plainly), else
 * `{bytes, onlyIfCached}`: `bytes` resolves to the snapshot, or to null when the link is
 * slow and the snapshot is not cached; it rejects if the download fails.
 */
export function startSnapshot(url) {
  if (typeof DecompressionStream !== "function") return null;
  if (started.has(url)) return started.get(url);
  const onlyIfCached = slowNetwork();
  const bytes = fromRawCache(url).then((raw) => {
    if (raw) {
      performance.mark("tableside:snapshot-from-raw-cache"); // read by tests and the bench
      return raw;
    }
    return checkWorker().then(() => (typeof Worker === "function"
      ? inWorker(url, onlyIfCached)
      : onMainThread(url, onlyIfCached)), (e) => { // no workers: do its work on the page
      if (e instanceof IntegrityError) throw e; // a changed worker script is refused
      console.info("Tableside: no snapshot worker, inflating on the page:", e.message);
      return onMainThread(url, onlyIfCached); // a missing one: do its work here
    });
  }).then((memory) => (memory === null ? null : verifyMemory(memory)))
    .catch((e) => {
      // a changed snapshot must not come back from the cache on the next visit either
      // (once its worker has written it: it does so after answering)
      if (e instanceof IntegrityError) {
        Promise.resolve(workerDone.get(url)).then(() => caches.delete(RAW_CACHE))
          .catch(() => {});
      }
      throw e;
    });
  bytes.catch(() => {}); // the wrapper reports it, then starts Python plainly
  const s = { bytes, onlyIfCached };
  started.set(url, s);
  return s;
}
