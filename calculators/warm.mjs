// @ts-check
// Python's downloads, started as early as a calculator page can start them.
//
// On a calculator page the head loads this module `async` (overrides/main.html), so it
// runs while the page is still being parsed and rendered, not after it as tableside.js
// does (a module script waits for the whole document; on a phone that is ~1 s). It reads
// runtime.json and starts, in parallel, what Python's start will wait for: Pyodide's
// module, wasm and standard library (preloads with the same URL and credentials mode as
// Pyodide's own fetch() and import(), so the browser reuses the responses) and the memory
// snapshot (snapshot.mjs: read back from Cache Storage, or fetched and inflated in a
// worker; it skips a slow link). tableside.js imports this same module (same URL, same
// instance) for the manifest, and calls warmUp() itself on a page reached by instant
// navigation from one without calculators.
// Every file is checked against this build's hashes (integrity.mjs, imported first: it
// guards fetch() before anything here fetches).
import { sriFor } from "./integrity.mjs";
import { FRAMED } from "./guards.mjs";
import { snapshotURL, startSnapshot } from "./snapshot.mjs";

const HERE = new URL(".", import.meta.url);

export const fetchJSON = (url) => fetch(url).then((r) => {
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.json();
});

export const manifestP = fetchJSON(new URL("runtime.json", HERE));
manifestP.catch(() => {}); // tableside.js reports it when it needs the manifest

function link(attrs) {
  const el = document.createElement("link");
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  document.head.append(el);
}

let warm = false;

export function warmUp(m) {
  if (warm || FRAMED) return; // another site's frame gets no engine (guards.mjs)
  warm = true;
  // PyScript imports `interpreter` (m.pyodide: its URL carries the snapshot's hash) only
  // once its own modules have run; the partial preloads PyScript itself.
  const module = (href) => link({ rel: "modulepreload", href, integrity: sriFor(href) || "" });
  module(new URL(m.pyodide, HERE));
  const dir = new URL(".", new URL(m.pyodide_plain || m.pyodide, HERE));
  module(new URL("pyodide.asm.mjs", dir));
  for (const f of ["pyodide.asm.wasm", "python_stdlib.zip"]) {
    link({ rel: "preload", as: "fetch", crossorigin: "", href: new URL(f, dir) });
  }
  if (m.snapshot && m.pyodide !== m.pyodide_plain) {
    startSnapshot(snapshotURL(new URL(m.pyodide, HERE)));
  }
}

// The head's marker says this page has calculators (its body may not be parsed yet).
if (document.querySelector('meta[name="tableside:calculators"]')) {
  manifestP.then(warmUp, () => {});
}
