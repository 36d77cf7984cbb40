// @ts-check
// Fetches and inflates the Pyodide memory snapshot off the page's main thread
// (started by calculators/python/snapshot.mjs; a dedicated worker is controlled by the page's
// service worker, so this works offline too).
//
// Inflating the ≈31 MB snapshot costs ~0.2 s of CPU on a desktop and about four times that
// on a mid-range phone. So this also keeps the inflated bytes in Cache Storage (the cache
// `rawCache`, keyed by the snapshot's URL, which carries its hash), where python/snapshot.mjs
// finds them on later visits: a file read, no decompression, no worker. Only the current
// build's snapshot is kept. Without Cache Storage (an insecure origin) each visit inflates.
//
// Message in:  {url, onlyIfCached, rawCache, keep}  (onlyIfCached: a slow link; use the
//              snapshot only if the browser already has it; keep: the file's SRI when no
//              service worker saw the page's downloads, so the file is kept for offline)
// Message out: {ok: true, bytes: ArrayBuffer (the memory, expanded), from: "network",
//               transferSize} |
//              {ok: false, missing: bool, message}; then {closed: true} and the worker
//              closes itself.
import { expand, fetchInflated, keepRaw, openRaw } from "./snapshot.mjs";

self.onmessage = async ({ data: { url, onlyIfCached, rawCache, keep } }) => {
  try {
    const packed = await fetchInflated(url, onlyIfCached, keep);
    if (!packed) {
      self.postMessage({ ok: false, missing: true, message: "not cached" });
      return;
    }
    const memory = expand(new Uint8Array(packed));
    // A worker's downloads are not in the page's Resource Timing: say what this one cost.
    const entry = /** @type {PerformanceResourceTiming | undefined} */ (
      performance.getEntriesByName(url).pop());
    const transferSize = entry ? entry.transferSize : 0;
    // (typed as a Worker: a worker's own scope posts the same way)
    const scope = /** @type {Worker} */ (/** @type {unknown} */ (self));
    scope.postMessage({ ok: true, bytes: memory.buffer, from: "network", transferSize },
      [memory.buffer]);
    // Opened only now: a visit whose download failed leaves no (empty) cache behind.
    const cache = await openRaw(rawCache);
    if (cache) await keepRaw(cache, url, new Response(packed)); // kept as it came: sparse
  } catch (e) {
    self.postMessage({ ok: false, missing: false, message: String((e && e.message) || e) });
  } finally {
    self.postMessage({ closed: true }); // the raw copy is written: the page may drop it
    self.close(); // one snapshot per worker; the page does not terminate us mid-write
  }
};
