// Fetches and inflates the Pyodide memory snapshot off the page's main thread
// (started by calculators/snapshot.mjs; a dedicated worker is controlled by the page's
// service worker, so this works offline too).
//
// Inflating the ≈31 MB snapshot costs ~0.2 s of CPU on a desktop and about four times that
// on a mid-range phone, on every visit. So the first visit also keeps the inflated bytes
// in Cache Storage (RAW_CACHE, keyed by the snapshot's URL, which carries its hash), and
// later visits read them back: a file read, not a decompression. Only the current build's
// snapshot is kept. Without Cache Storage (an insecure origin) every visit inflates.
//
// Message in:  {url, onlyIfCached}  (onlyIfCached: a slow link; use the snapshot only if
//              the browser already has it)
// Message out: {ok: true, bytes: ArrayBuffer, from: "raw-cache" | "network",
//               transferSize?: bytes over the wire} |
//              {ok: false, missing: bool, message}; then the worker closes itself.
const RAW_CACHE = "tableside-snapshot-raw";

async function openRaw() {
  try {
    return self.caches ? await self.caches.open(RAW_CACHE) : null;
  } catch {
    return null; // storage disabled or full: inflate every time
  }
}

async function readRaw(cache, url) {
  try {
    const r = cache && await cache.match(url);
    return r ? await r.arrayBuffer() : null;
  } catch {
    return null;
  }
}

async function keepRaw(cache, url, body) {
  try {
    for (const old of await cache.keys()) {
      if (old.url !== url) await cache.delete(old); // an earlier build's snapshot
    }
    await cache.put(url, body);
  } catch {
    // quota or private mode: the next visit inflates again, nothing else changes
  }
}

async function inflate(url, onlyIfCached) {
  let r;
  try {
    r = await fetch(url, onlyIfCached ? { cache: "only-if-cached", mode: "same-origin" } : {});
  } catch (e) {
    if (onlyIfCached) return null; // fetch() rejects in only-if-cached mode when not cached
    throw e;
  }
  if (!r.ok || !r.body) throw new Error(`${url}: HTTP ${r.status}`);
  const raw = r.body.pipeThrough(new DecompressionStream("gzip"));
  return new Response(raw).arrayBuffer();
}

self.onmessage = async ({ data: { url, onlyIfCached } }) => {
  try {
    const cache = await openRaw();
    let bytes = await readRaw(cache, url);
    if (bytes) {
      self.postMessage({ ok: true, bytes, from: "raw-cache" }, [bytes]);
      return;
    }
    bytes = await inflate(url, onlyIfCached);
    if (!bytes) {
      self.postMessage({ ok: false, missing: true, message: "not cached" });
      return;
    }
    // A Response copies the bytes: the original can then go to the page at once.
    const body = cache ? new Response(bytes) : null;
    // A worker's downloads are not in the page's Resource Timing: say what this one cost.
    const entry = performance.getEntriesByName(url).pop();
    const transferSize = entry ? entry.transferSize : 0;
    self.postMessage({ ok: true, bytes, from: "network", transferSize }, [bytes]);
    if (body) await keepRaw(cache, url, body);
  } catch (e) {
    self.postMessage({ ok: false, missing: false, message: String((e && e.message) || e) });
  }
  self.close(); // one snapshot per worker; the page does not terminate us mid-write
};
