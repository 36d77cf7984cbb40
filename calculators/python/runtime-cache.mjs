// @ts-check
// The Python runtime's cache (assets/runtime/**), shared by the service worker
// (scripts/sw/sw-src.mjs, which bundles this module) and the page (python/integrity.mjs stores
// what a first, uncontrolled visit has just downloaded and checked; offline.js asks).
// Entries are keyed by the URL without its query (?snap=, ?v= only bust caches) and carry
// the build's hash of their bytes in HASH_HEADER, so a new build knows what is stale.

export const RUNTIME_CACHE = "tableside-runtime";
export const HASH_HEADER = "X-Tableside-SRI";
/** The site-relative folder whose files are cached here, not in the reading precache. */
export const RUNTIME_DIR = "assets/runtime/";

/** @param {string | URL} url @returns {string} the cache key: the URL without query or hash */
export function runtimeKey(url) {
  const u = new URL(url);
  u.search = "";
  u.hash = "";
  return u.href;
}

/**
 * Store a checked body under `url`, its hash in the header (its other headers kept:
 * application/wasm for the streaming compiler).
 * @param {Cache} cache @param {string} url @param {ArrayBuffer} body @param {string} sri
 * @param {Headers} [headers]
 */
export async function putRuntime(cache, url, body, sri, headers) {
  const h = new Headers(headers);
  h.set(HASH_HEADER, sri);
  h.set("Content-Length", String(body.byteLength));
  await cache.put(runtimeKey(url), new Response(body, { status: 200, headers: h }));
}
