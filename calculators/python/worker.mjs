// @ts-check
// Python off the page's main thread (issue 26): this module worker downloads, compiles and
// starts Pyodide (from the build's memory snapshot, or plainly), runs python/bridge.py, and then
// answers the page's calls. Started by python/client.mjs for python/boot.mjs; nothing here ever
// blocks the page: a 2-4 s start on a phone, or a long calculation, runs beside it.
//
// Checked as on the page: the page hands over its hashes (python/integrity.mjs setPins), and this
// scope's fetch() refuses any runtime file that is not this build's (wasm, standard
// library, rules bundle, bridge, lock file); Pyodide's two modules are read through that
// checked fetch() before they are imported (the worker's own script, the same way, by the
// page). The snapshot's memory is checked before Pyodide gets it (python/snapshot.mjs).
//
// Messages in:  {start: Start} once, then {id, calc, payload} (a calculator) or
//               {id, encounter} (the encounter tracker's JSON request).
// Messages out: {state: "snapshot" | "plain"} (python/boot.mjs's states), {snapshot: {from,
//               transferSize}} (how the snapshot's bytes came),
//               {ready: true, resources} (this worker's downloads: resources()),
//               {failed: message}, {refused: {file, why}},
//               {id, reply} (the bridge's JSON reply) or {id, error}.
import { guardFetch, IntegrityError, setPins, sriFor, unverified } from "./integrity.mjs";
import { snapshotHere } from "./snapshot.mjs";

/** What the page sends to start Python (absolute URLs).
 * @typedef {{pins: import("./integrity.mjs").Pins, keep: boolean, pyodide: string,
 *   snapshot: string | null, onlyIfCached: boolean, bundle: string, bridge: string}} Start */

/** @typedef {(arg: string) => string} PyCall  a Python function taking and giving JSON */

const scope = /** @type {Worker} */ (/** @type {unknown} */ (self));
const post = (/** @type {any} */ msg) => scope.postMessage(msg);
unverified.then((r) => post({ refused: { file: r.file, why: r.why } }));

/** @type {Promise<{run: (calc: string, payload: string) => string, encounter: PyCall}> | null} */
let engine = null;

/** Import a module only after its bytes passed the checked fetch().
 * @param {string} url */
async function checkedImport(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return import(url);
}

/** @param {string} url */
async function fetchChecked(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r;
}

/** This worker's downloads, on the page's clock: a worker's are not in the page's
 * Resource Timing, and the tests and the bench read them (python/client.mjs marks them). */
function resources() {
  const shift = performance.timeOrigin;
  return performance.getEntriesByType("resource").map((e) => {
    const r = /** @type {PerformanceResourceTiming} */ (e);
    return { name: r.name, initiatorType: r.initiatorType, startTime: r.startTime + shift,
      responseEnd: r.responseEnd + shift, transferSize: r.transferSize };
  });
}

/** @param {Start} s */
async function start(s) {
  setPins(s.pins, s.keep);
  guardFetch();
  const memoryP = s.snapshot
    ? snapshotHere(s.snapshot, s.onlyIfCached, s.keep ? sriFor(s.snapshot) : null)
    : Promise.resolve(null);
  memoryP.catch(() => {}); // awaited below
  const bundleP = fetchChecked(s.bundle).then((r) => r.arrayBuffer());
  const bridgeP = fetchChecked(s.bridge).then((r) => r.text());
  bundleP.catch(() => {});
  bridgeP.catch(() => {});
  const indexURL = new URL(".", s.pyodide).href;
  await fetchChecked(new URL("pyodide.asm.mjs", indexURL).href); // imported by loadPyodide
  const { loadPyodide } = await checkedImport(s.pyodide);
  let pyodide = null;
  if (s.snapshot) {
    post({ state: "snapshot" });
    try {
      const got = await memoryP;
      if (got) {
        post({ snapshot: { from: got.from, transferSize: got.transferSize } });
        pyodide = await loadPyodide({ indexURL, _loadSnapshot: got.memory });
      }
    } catch (e) {
      if (e instanceof IntegrityError) throw e;
      console.warn("Tableside: the Python snapshot could not be used; starting plainly:", e);
    }
  }
  if (!pyodide) {
    post({ state: "plain" });
    pyodide = await loadPyodide({ indexURL });
  }
  // The rules bundle where the snapshot maker put it (./tableside.zip in Pyodide's home).
  pyodide.FS.writeFile("/home/pyodide/tableside.zip", new Uint8Array(await bundleP));
  // python/bridge.py under another name than __main__: its prepare() and run_json(), no page hooks.
  const ns = pyodide.toPy({ __name__: "tableside_bridge" });
  pyodide.runPython(await bridgeP, { globals: ns, filename: "bridge.py" });
  ns.get("prepare")();
  const run = ns.get("run_json");
  const encounter = pyodide.pyimport("rules_pkg.encounter.api").handle_json;
  post({ ready: true, resources: resources() });
  return { run, encounter };
}

scope.onmessage = async ({ data }) => {
  if (data.start) {
    engine ??= start(data.start);
    engine.catch((e) => {
      if (!(e instanceof IntegrityError)) post({ failed: String((e && e.message) || e) });
    });
    return;
  }
  const { id } = data;
  try {
    if (!engine) throw new Error("Python has not been started");
    const { run, encounter } = await engine;
    const t0 = performance.now();
    const reply = "encounter" in data ? encounter(data.encounter) : run(data.calc, data.payload);
    // `ms`: Python's own time for it. The benches read it: Chromium's CPU throttling (their
    // phone profile) slows the page's thread only, never a worker's (scripts/bench/odds.py)
    post({ id, reply, ms: performance.now() - t0 });
  } catch (e) {
    post({ id, error: String((e && e.message) || e) });
  }
};
