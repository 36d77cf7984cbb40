// Source of the Tableside service worker; scripts/sw/build_sw.mjs bundles it (Rollup, the
// Workbox modules and calculators/python/runtime-cache.mjs inlined: nothing from a CDN) and
// injects the precache manifest.
//
// Two caches (issue #13, "offline by choice"):
// - the reading precache (Workbox, as generateSW would set it up; see build_sw.mjs for
//   each option): every file but the Python runtime, on any visit. A plugin keeps only the
//   bytes this build was made with, taken from the browser's HTTP cache when it has them
//   (the page has just downloaded most of them): a response that differs is fetched once more from the
//   network (an older deploy still fresh in the HTTP cache), then refused: the install
//   fails, nothing of it is kept, and the pages work online as before;
// - the runtime cache (RUNTIME_CACHE): each file under assets/runtime/ when a page first
//   needs it, from that same download (checked against this build's SHA-256, stored,
//   returned), or all of them when the reader asks (SAVE_EVERYTHING). A changed file is
//   returned unstored: the page's own check (python/integrity.mjs) refuses it, visibly.
import { clientsClaim, setCacheNameDetails } from "workbox-core";
import { addPlugins, cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { HASH_HEADER, RUNTIME_CACHE, putRuntime, runtimeKey } from "../../calculators/python/runtime-cache.mjs";

// Filled in by build_sw.mjs: site-relative URL -> hex SHA-256, for every precached file.
const SHA256 = self.__TABLESIDE_SHA256;
// Filled in by build_sw.mjs: site-relative URL -> {sri, bytes}, for every runtime file.
const RUNTIME = self.__TABLESIDE_RUNTIME;
// Filled in by build_sw.mjs: site-relative URL -> the URL the page requests (?snap=…).
const PAGE_URLS = self.__TABLESIDE_PAGE_URLS;

setCacheNameDetails({ prefix: "tableside" });
clientsClaim();

const bare = (url) => runtimeKey(url); // ?__WB_REVISION__=, ?snap=, ?v=: the same file
const here = (rel) => new URL(rel, self.location.href).href;
/** The URL the page asks for, so the browser's copy of it is reused. */
const pageURL = (rel) => here(PAGE_URLS[rel] || rel);
const asked = new Map(Object.keys(PAGE_URLS).map((rel) => [here(rel), pageURL(rel)]));
const expected = new Map(Object.entries(SHA256).map(([rel, hex]) => [
  bare(new URL(rel, self.location.href).href), hex]));
/** @type {Map<string, {sri: string, bytes: number, fetch: string}>} fetch: the page's URL */
const runtime = new Map(Object.entries(RUNTIME).map(([rel, v]) => [
  bare(new URL(rel, self.location.href).href),
  { ...v, fetch: pageURL(rel) }]));
const RUNTIME_BYTES = [...runtime.values()].reduce((t, f) => t + f.bytes, 0);

async function digest(buffer, encode) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return encode(d);
}
const hex = (d) => [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
const sri = (d) => `sha256-${btoa(String.fromCharCode(...d))}`;

addPlugins([{
  // The copy the page has just downloaded, if the browser has it, instead of a second
  // download: the URL the page asked for (dir/, not dir/index.html; no revision
  // parameter), through the HTTP cache. Checked below like any other response.
  requestWillFetch: async ({ request }) => {
    const file = bare(request.url);
    const url = asked.get(file) || file.replace(/\/index\.html$/, "/");
    return new Request(url, { credentials: "same-origin", cache: "default" });
  },
  // Only the bytes this build was made with (see above).
  fetchDidSucceed: async ({ request, response }) => {
    // (the request as sent above: dir/ is dir/index.html)
    const want = expected.get(bare(request.url).replace(/\/$/, "/index.html"));
    if (!want || !response.ok
        || (await digest(await response.clone().arrayBuffer(), hex)) === want) return response;
    const again = await fetch(request.url, { credentials: "same-origin", cache: "reload" });
    if (again.ok && (await digest(await again.clone().arrayBuffer(), hex)) === want) return again;
    throw new Error(`Tableside: ${request.url} is not the file this site was built with `
      + `(SHA-256 ${want}); not cached`);
  },
}]);

precacheAndRoute(self.__WB_MANIFEST, {
  directoryIndex: "index.html",
  ignoreURLParametersMatching: [/.*/],
});
cleanupOutdatedCaches();

// --- the runtime cache ---------------------------------------------------------------------
/** This build's copy of `key` from the runtime cache, if it has it. */
async function cached(key) {
  const cache = await caches.open(RUNTIME_CACHE);
  const hit = await cache.match(key);
  return hit && hit.headers.get(HASH_HEADER) === runtime.get(key).sri ? hit : null;
}

/** @type {Map<string, Promise<Response>>} one download per file, however many ask */
const inFlight = new Map();

/** Fetch `url` (a runtime file), check it, store it; the response, stored or not. */
function download(key, url, cache = "default") {
  let p = inFlight.get(key);
  if (!p) {
    p = (async () => {
      const want = runtime.get(key).sri;
      let r = await fetch(url, { credentials: "same-origin", cache });
      let body = r.ok ? await r.arrayBuffer() : null;
      if (body && (await digest(body, sri)) !== want) {
        // maybe an older deploy's copy, still fresh in the HTTP cache: once from the network
        r = await fetch(url, { credentials: "same-origin", cache: "reload" });
        body = r.ok ? await r.arrayBuffer() : null;
      }
      if (!body) return r;
      if ((await digest(body, sri)) === want) {
        await putRuntime(await caches.open(RUNTIME_CACHE), key, body, want, r.headers);
      } // else returned unstored: the page refuses it (python/integrity.mjs)
      return new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers });
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  return p.then((r) => r.clone());
}

registerRoute(({ url }) => runtime.has(bare(url.href)), async ({ request }) => {
  const key = bare(request.url);
  return (await cached(key)) || download(key, request.url);
});

/** {saved, total} bytes of this build's runtime in the cache. */
async function status() {
  const cache = await caches.open(RUNTIME_CACHE);
  let saved = 0;
  for (const [key, f] of runtime) {
    const hit = await cache.match(key);
    if (hit && hit.headers.get(HASH_HEADER) === f.sri) saved += f.bytes;
  }
  return { saved, total: RUNTIME_BYTES };
}

let saving = null;

/** Every missing runtime file, through the same download (a copy the browser already has
 * is reused: force-cache); progress in bytes to `tell`. */
function saveEverything(tell) {
  saving ??= (async () => {
    let done = (await status()).saved;
    tell({ type: "SAVE_PROGRESS", done, total: RUNTIME_BYTES });
    const missing = [];
    for (const key of runtime.keys()) if (!(await cached(key))) missing.push(key);
    let failed = 0;
    // A few at a time: the biggest (the wasm) starts first, the small ones fill in.
    missing.sort((a, b) => runtime.get(b).bytes - runtime.get(a).bytes);
    const next = async () => {
      for (let key = missing.shift(); key; key = missing.shift()) {
        try {
          await download(key, runtime.get(key).fetch, "force-cache");
          if (!(await cached(key))) failed += 1;
        } catch {
          failed += 1;
        }
        done += runtime.get(key).bytes;
        tell({ type: "SAVE_PROGRESS", done, total: RUNTIME_BYTES });
      }
    };
    await Promise.all([next(), next(), next(), next()]);
    const s = await status();
    return failed || s.saved < s.total ? { type: "SAVE_FAILED", ...s } : { type: "SAVED", ...s };
  })().finally(() => { saving = null; });
  return saving;
}

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  const reply = (m) => event.source && event.source.postMessage(m);
  // A new build never takes over an open page by itself: the page asks (offline.js).
  if (type === "SKIP_WAITING") self.skipWaiting();
  else if (type === "RUNTIME_STATUS") {
    event.waitUntil(status().then((s) => reply({ type: "RUNTIME_STATUS", ...s })));
  } else if (type === "SAVE_EVERYTHING") {
    event.waitUntil(saveEverything(reply).then(reply, (e) => reply(
      { type: "SAVE_FAILED", saved: 0, total: RUNTIME_BYTES, message: String(e) })));
  }
});

// A new build's worker drops the runtime files that are not its own (an older build's).
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(RUNTIME_CACHE);
    for (const req of await cache.keys()) {
      const f = runtime.get(bare(req.url));
      const hit = f && await cache.match(req);
      if (!hit || hit.headers.get(HASH_HEADER) !== f.sri) await cache.delete(req);
    }
  })());
});

// An address this build does not have (a mistyped or outdated link), opened offline: the
// site's own 404 page, with a 404 status, instead of the browser's error page (issue #11).
// Precached pages matched above; anything else goes to the network as before.
registerRoute(({ request }) => request.mode === "navigate", async ({ request }) => {
  try {
    return await fetch(request);
  } catch (e) {
    const page = await matchPrecache("404.html");
    if (!page) throw e;
    return new Response(page.body, { status: 404, statusText: "Not Found", headers: page.headers });
  }
});
