// @ts-check
// The calculators' start-up, in this one file: one promise, `python()`, and the states it
// goes through, each in <html data-ts-boot> (and, for people, tests and offline.js, in
// <html data-ts-python>: "loading" while it starts, then "ready" or "failed").
//
// Python runs in a module worker (python/worker.mjs, through python/client.mjs): nothing it
// does (download, compile, restore, import, calculate) blocks the page. A browser that
// cannot run that worker gets the same start on the page, through PyScript (python/pyscript.mjs),
// and is told so (engineNote()). <html data-ts-engine> says which: "worker" or "page".
//
//   idle ──python()──▶ fetching ──┬─(snapshot start)──▶ snapshot ──┬──────────▶ ready
//                                 │                       │ unusable┘(bridge ran)
//                                 │                       ▼
//                                 └─(plain start)─────▶ plain ──────────────▶ ready
//   fetching | snapshot | plain ──(no runtime.json, a changed file, PyScript or the
//                                   bridge failing)──▶ failed: failure() says why
//
// - fetching: once the page's first frame is drawn (settled), runtime.json (read here: the
//   one reader of that contract, RuntimeManifest), then the worker, which downloads what
//   Python needs itself (on the page: the downloads (warmUp), the bridge, and PyScript's
//   and Pyodide's modules); each file checked against this build's hashes (python/integrity.mjs);
// - snapshot or plain: Pyodide starts, from the build's memory snapshot or plainly. The
//   choice is runtime.json's; a snapshot that turns out unusable (not cached on a slow
//   link, a failed download, no DecompressionStream) falls back to plain: same answers;
// - ready: python/bridge.py has run, and `python()` resolves with its run function (async: a
//   message to the worker and back, ~0.2 ms), and `encounter()` answers the tracker.
// A file that is not this build's stops the start in any state (python/integrity.mjs refuses it).
//
// The adapters hold no start-up state: python/pyscript.mjs (PyScript: its config, hooks and
// elements), python/pyodide-snapshot.mjs (PyScript's `interpreter` in a snapshot build: hands
// Pyodide's loader to startPyodide() here) and python/snapshot.mjs (the snapshot's bytes).
//
// On a calculator page the head loads this module `async` (overrides/main.html): it runs
// while the page is still parsed and fetches runtime.json; the downloads start once the
// page's first frame with its forms is drawn (settled). tableside.js imports the same
// module (same URL, same instance) and calls python().
import { IntegrityError, modulesBeside, pagePins, refusal, sriFor, unverified,
  verifiedModules } from "./integrity.mjs";
import { painted } from "../dom.mjs";
import { FRAMED } from "../guards.mjs";
import { slowNetwork, snapshotURL, startSnapshot } from "./snapshot.mjs";
import { startPyScript } from "./pyscript.mjs";
import { NoWorker, startWorker } from "./client.mjs";

/** python/bridge.py's run_json, wherever Python runs: (calculator id, inputs JSON) -> reply JSON.
 * @typedef {(calc: string, payload: string) => Promise<string>} Run */

/** runtime.json: which files Python starts with (URLs relative to this folder). Written
 * once at build time; its type is generated from scripts/site/runtime.py's RuntimeManifest
 * (scripts/types_gen.py), the one declaration of that contract.
 * @typedef {Runtime.Manifest} RuntimeManifest */

/** @typedef {"idle" | "fetching" | "snapshot" | "plain" | "ready" | "failed"} BootState */

/** Each state and the states it may go to. */
const NEXT = /** @type {Record<BootState, BootState[]>} */ ({
  idle: ["fetching"],
  fetching: ["snapshot", "plain", "failed"],
  snapshot: ["plain", "ready", "failed"],
  plain: ["ready", "failed"],
  ready: [],
  failed: [],
});

const HERE = new URL("../", import.meta.url);
const root = document.documentElement;
// Pyodide stalls (no error) when its wasm fails to download, but a slow phone can take
// ~45 s cold: after this long the page says it may have failed, and keeps waiting.
export const PY_SLOW_MS = 30000;
const CANNOT_LOAD = "The rules engine could not be loaded, so this calculator is off. "
  + "The tables on this page still work.";
const ON_THE_PAGE = "This browser cannot run the rules engine in the background, so the "
  + "page may pause for a moment while it works.";

/** @type {BootState} */
let state = "idle";
/** @type {string | null} */
let failedWith = null;
/** @type {string | null} */
let note = null;
/** @type {((request: string) => Promise<string>) | null} */
let encounterCall = null;

/** @param {BootState} to */
function enter(to) {
  if (to === state || state === "failed") return; // a refusal may overtake a fallback
  if (!NEXT[state].includes(to)) throw new Error(`boot: no way from ${state} to ${to}`);
  state = to;
  root.dataset.tsBoot = to;
  root.dataset.tsPython = to === "ready" || to === "failed" ? to : "loading";
}

/** The start-up's state now. */
export const bootState = () => state;

/** Why the calculators are off, in the reader's words (null unless failed): a changed
 * runtime file says so (python/integrity.mjs), anything else "could not be loaded". */
export const failure = () => failedWith;

/** What the reader should know about how the engine runs here (null: in the background). */
export const engineNote = () => note;

/** @param {string | URL} url @returns {Promise<any>} */
export const fetchJSON = (url) => fetch(url).then((r) => {
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.json();
});

/** runtime.json, read once per visit (its URL is preloaded from the head).
 * @type {Promise<RuntimeManifest>} */
const manifestP = fetchJSON(new URL("runtime.json", HERE));
manifestP.catch(() => {}); // python() reports it, when a page needs Python

/** Whether runtime.json says to start from the snapshot (the bench's "plain" variant
 * points `pyodide` back at Pyodide's own module). @param {RuntimeManifest} m */
const snapshotBuild = (m) => Boolean(m.snapshot) && m.pyodide !== m.pyodide_plain;

// --- fetching: the downloads, once a calculator page has drawn its first frame -------------
/** @param {Record<string, string | URL>} attrs */
function link(attrs) {
  const el = document.createElement("link");
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  document.head.append(el);
}

/** The rules bundle's URL, with its hash as a cache buster. @param {RuntimeManifest} m */
function bundleURL(m) {
  const url = new URL(m.bundle, HERE);
  url.searchParams.set("v", m.bundle_sha256.slice(0, 16));
  return url;
}

let warm = false;

/** Start, in parallel, what Python's start will wait for: Pyodide's modules, wasm and
 * standard library, the rules bundle (preloads with the same URL and credentials mode as
 * Pyodide's and PyScript's own fetch() and import(), so the browser reuses the responses)
 * and the snapshot. PyScript itself asks for the bundle only once Python has started: on
 * a phone's first visit (Slow 4G) that request came ~10 s after the wasm arrived, and
 * Python then waited ~2 s for it. Asked for here it arrives within the wasm's download.
 * @param {RuntimeManifest} m */
function warmUp(m) {
  if (warm || FRAMED || root.dataset.tsEngine !== "page") return; // FRAMED: no engine (guards.mjs)
  warm = true;
  // PyScript imports `interpreter` (its URL carries the snapshot's hash) only once its
  // own modules have run; the partial preloads PyScript itself.
  const module = (/** @type {URL} */ href) =>
    link({ rel: "modulepreload", href, integrity: sriFor(href) || "" });
  module(new URL(m.pyodide, HERE));
  const dir = new URL(".", new URL(m.pyodide_plain || m.pyodide, HERE));
  module(new URL("pyodide.asm.mjs", dir));
  for (const href of [new URL("pyodide.asm.wasm", dir), new URL("python_stdlib.zip", dir),
    bundleURL(m)]) {
    link({ rel: "preload", as: "fetch", crossorigin: "", href });
  }
  if (snapshotBuild(m)) startSnapshot(snapshotURL(new URL(m.pyodide, HERE)));
}

/** Resolves once the page's first frame with its forms has been drawn: DOMContentLoaded
 * (tableside.js builds the forms and the answers worked out ahead then), then a frame.
 * Python's downloads and start wait for it: reading a cached 10 MB runtime, hashing and
 * compiling it is main-thread work, and done earlier it held the page's parsing and so its
 * first answer back (bench A/B, warm: phone 2.22 -> 1.70 s, desktop 0.73 -> 0.52 s; the
 * first live result: phone +0.4 s, desktop the same). No frame coming (a hidden tab, rAF
 * paused): at once, or after 1 s. */
const settled = (contentLoaded()
  ? Promise.resolve()
  : new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }))
).then(painted);

/** Whether DOMContentLoaded has fired. Not `readyState !== "loading"`: the state is
 * "interactive" while the deferred scripts run (tableside.js, which imports this module
 * when the head's async copy has not run yet), and a frame may be drawn between them and
 * DOMContentLoaded, before any form is built. */
function contentLoaded() {
  const nav = /** @type {PerformanceNavigationTiming | undefined} */ (
    performance.getEntriesByType("navigation")[0]);
  return nav ? nav.domContentLoadedEventEnd > 0 : document.readyState === "complete";
}


/** Rejects with the first refusal of a runtime file (python/integrity.mjs): raced with each step. */
const refused = unverified.then((r) => { throw new IntegrityError(r.message); });
refused.catch(() => {});

/** @param {URL} url @returns {Promise<string>} */
function fetchText(url) {
  const text = fetch(url).then((r) => {
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return r.text();
  });
  text.catch(() => {}); // reported when it is needed
  return text;
}

// --- the one promise ----------------------------------------------------------------------
/** @type {Promise<Run> | null} */
let pythonP = null;
/** @type {Set<(what: string) => void>} */
const progressListeners = new Set();

/** Hear what the start is loading now (PyScript's progress words). */
export function onProgress(/** @type {(what: string) => void} */ listener) {
  progressListeners.add(listener);
}

/** Start Python once per visit; resolves with the bridge's run function.
 * @returns {Promise<Run>} */
export function python() {
  if (pythonP) return pythonP;
  enter("fetching");
  pythonP = (async () => {
    await settled; // the page's first frame comes first (see settled)
    const m = await Promise.race([refused, manifestP]);
    if (!FRAMED) { // another site's frame gets no engine (guards.mjs)
      try {
        root.dataset.tsEngine = "worker";
        return await Promise.race([refused, inWorker(m)]);
      } catch (e) {
        if (!(e instanceof NoWorker)) throw e;
        console.info("Tableside: no Python worker here, starting Python on the page:", e.message);
        note = ON_THE_PAGE;
        root.dataset.tsEngine = "page";
      }
    }
    return onThePage(m);
  })();
  pythonP.catch((e) => {
    failedWith = refusal()?.message ?? CANNOT_LOAD;
    enter("failed");
    console.warn("Tableside: the rules engine could not load:", e);
  });
  return pythonP;
}

/** The encounter tracker's entry point (rules_pkg.encounter.api): a JSON request, its JSON
 * reply. Starts Python if need be; rejects when it cannot start.
 * @param {string} request @returns {Promise<string>} */
export async function encounter(request) {
  await python();
  if (!encounterCall) throw new Error("no encounter entry point");
  return encounterCall(request);
}

/** Python in the worker (python/worker.mjs): it downloads, checks and starts everything
 * itself, off this thread. @param {RuntimeManifest} m @returns {Promise<Run>} */
async function inWorker(m) {
  const pins = pagePins();
  if (!pins) throw new NoWorker("this page lists no runtime hashes");
  const sw = navigator.serviceWorker;
  const swOff = ["off", "failed"].includes(root.dataset.tsSw || ""); // offline.js
  const snap = snapshotBuild(m) ? snapshotURL(new URL(m.pyodide, HERE)) : null;
  const engine = await startWorker({
    pins, keep: Boolean(sw && !sw.controller && !swOff),
    pyodide: new URL(m.pyodide_plain || m.pyodide, HERE).href,
    snapshot: snap && typeof DecompressionStream === "function" ? snap : null,
    onlyIfCached: slowNetwork(), bundle: bundleURL(m).href, bridge: new URL(m.bridge, HERE).href,
  }, (to) => enter(to));
  encounterCall = engine.encounter;
  enter("ready");
  return engine.run;
}

/** Python on the page, through PyScript: where the worker cannot run.
 * @param {RuntimeManifest} m @returns {Promise<Run>} */
async function onThePage(m) {
  warmUp(m);
  const bridge = fetchText(new URL(m.bridge, HERE));
  const core = new URL(m.pyscript, HERE);
  const interpreter = new URL(m.pyodide, HERE);
  // Python's modules (PyScript, the interpreter module, Pyodide) get in only checked: a
  // changed one stops here, before any of them runs.
  await Promise.race([refused, verifiedModules([interpreter, ...modulesBeside(core),
    ...modulesBeside(new URL(m.pyodide_plain || m.pyodide, HERE))])]);
  enter(snapshotBuild(m) ? "snapshot" : "plain");
  const bundle = bundleURL(m);
  const start = await Promise.race([refused, startPyScript({ core, interpreter, bundle,
    bridge, onProgress: (what) => { for (const f of progressListeners) f(what); } })]);
  encounterCall = async (request) => start.encounter(request);
  enter("ready");
  return async (calc, payload) => start.run(calc, payload);
}

/**
 * Pyodide's start in a snapshot build: called by PyScript through the `interpreter`
 * adapter (python/pyodide-snapshot.mjs) with Pyodide's own loader. From the snapshot while it is
 * usable, else plainly (state plain); a snapshot that is not this build's stops Python.
 * @template T
 * @param {(options: object) => Promise<T>} load  Pyodide's loadPyodide
 * @param {object} options  PyScript's options, `indexURL` set
 * @returns {Promise<T>}
 */
export async function startPyodide(load, options) {
  const m = await manifestP;
  const snapshot = state === "snapshot" ? startSnapshot(snapshotURL(new URL(m.pyodide, HERE)))
    : null;
  if (!snapshot) { // no DecompressionStream here (or not a snapshot start)
    enter("plain");
    return load(options);
  }
  try {
    // A slow link: wait for the (quick) cache answer; else hand Pyodide the promise, so
    // it fetches and compiles its wasm while the snapshot arrives.
    const bytes = snapshot.onlyIfCached ? await snapshot.bytes : snapshot.bytes;
    if (bytes === null) { // a slow link, and the snapshot not cached
      enter("plain");
      return load(options);
    }
    return await load({ ...options, _loadSnapshot: bytes });
  } catch (e) {
    if (e instanceof IntegrityError) throw e;
    console.warn("Tableside: the Python snapshot could not be used; starting plainly:", e);
    enter("plain");
    return load(options);
  }
}
