// Source of the Tableside service worker; scripts/sw/build_sw.mjs bundles it (Rollup, the
// Workbox modules inlined: nothing from a CDN) and injects the precache manifest.
//
// Workbox precaching as generateSW would set it up (see build_sw.mjs for why each option),
// plus one plugin:
// - it stores only the bytes this build was made with: every precached file's SHA-256 is
//   written in here at build time, and a response that differs is fetched once more from
//   the network (an older deploy still fresh in the HTTP cache), then refused: the
//   install fails, nothing of it is kept, and the pages work online as before;
// - the first visit's page has just downloaded Python's big files (≈20 MB: Pyodide's
//   wasm, its standard library and JS, the memory snapshot), and Workbox would download
//   them all again for the precache (it bypasses the HTTP cache for revisioned files).
//   For those files the worker takes the browser's HTTP-cached copy (then checked as
//   above).
import { clientsClaim, setCacheNameDetails } from "workbox-core";
import { addPlugins, cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";

// Filled in by build_sw.mjs: site-relative URL -> {fetch: the URL the page itself
// requests (the snapshot carries ?snap=<hash>), sha256: hex of the file in this build}.
const REUSE = self.__TABLESIDE_REUSE;
// Filled in by build_sw.mjs: site-relative URL -> hex SHA-256, for every precached file.
const SHA256 = self.__TABLESIDE_SHA256;

setCacheNameDetails({ prefix: "tableside" });

// A new build never takes over an open page by itself: the page asks (offline.js).
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});
clientsClaim();

const reuse = new Map(Object.entries(REUSE).map(([rel, v]) => [
  new URL(rel, self.location.href).href,
  { fetch: new URL(v.fetch, self.location.href).href, sha256: v.sha256 },
]));
const bare = (url) => {
  const u = new URL(url);
  u.search = ""; // ?__WB_REVISION__=, ?snap=: the file is the same
  return u.href;
};
const expected = new Map(Object.entries(SHA256).map(([rel, hex]) => [
  bare(new URL(rel, self.location.href).href), hex]));

async function sha256(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

addPlugins([{
  // The browser's copy, if it has one, instead of a second download.
  requestWillFetch: async ({ request }) => {
    const r = reuse.get(request.url);
    return r ? new Request(r.fetch, { credentials: "same-origin", cache: "default" }) : request;
  },
  // Only the bytes this build was made with (see above).
  fetchDidSucceed: async ({ request, response }) => {
    const want = expected.get(bare(request.url));
    if (!want || !response.ok || (await sha256(response)) === want) return response;
    const again = await fetch(request.url, { credentials: "same-origin", cache: "reload" });
    if (again.ok && (await sha256(again)) === want) return again;
    throw new Error(`Tableside: ${request.url} is not the file this site was built with `
      + `(SHA-256 ${want}); not cached`);
  },
}]);

precacheAndRoute(self.__WB_MANIFEST, {
  directoryIndex: "index.html",
  ignoreURLParametersMatching: [/.*/],
});
cleanupOutdatedCaches();

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
