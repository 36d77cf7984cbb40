// @ts-check
// The page's side of python/worker.mjs: starts the worker once per visit (it lives as long
// as the document, so across Material's instant navigation) and turns its messages into
// promises. An adapter of python/boot.mjs, which owns the start-up's states; like python/pyscript.mjs,
// it holds none of them.
import { refuse, sriFor } from "./integrity.mjs";

/** The worker could not run here (no module workers, or its script would not load):
 * python/boot.mjs then starts Python on the page instead, and says so. */
export class NoWorker extends Error {}

/** @typedef {{run: (calc: string, payload: string) => Promise<string>,
 *   encounter: (request: string) => Promise<string>}} Engine */

const WORKER = new URL("worker.mjs", import.meta.url);
/** The mark whose detail lists the worker's downloads, once Python is ready there. */
export const WORKER_READY = "tableside:python-worker-ready";

/**
 * Start Python in the worker with `start` (python/worker.mjs's Start, pins and absolute
 * URLs). `onState` hears "snapshot" or "plain"; resolves once python/bridge.py has run there.
 * Rejects with NoWorker when the worker cannot run, with an Error when Python fails in it.
 * @param {import("./worker.mjs").Start} start
 * @param {(state: "snapshot" | "plain") => void} onState
 * @returns {Promise<Engine>}
 */
export async function startWorker(start, onState) {
  // A worker's script cannot carry `integrity`: read it first through the page's checked
  // fetch() (python/integrity.mjs), so a changed one is refused; the worker then gets the same
  // bytes from the HTTP cache (its own imports are the page's checked modules).
  if (!sriFor(WORKER)) throw new NoWorker("python/worker.mjs is not part of this build");
  const r = await fetch(WORKER);
  if (!r.ok) throw new NoWorker(`python/worker.mjs: HTTP ${r.status}`);
  let worker;
  try { // a browser without module workers runs it as a classic script: its import fails
    worker = new Worker(WORKER, { type: "module", name: "tableside-python" });
  } catch (e) {
    throw new NoWorker(String(e));
  }
  /** @type {Map<number, {resolve: (v: string) => void, reject: (e: Error) => void,
   *   queued: boolean}>} */
  const pending = new Map();
  // Calculator runs go to the worker one at a time, the others waiting here; the encounter
  // tracker's requests are posted at once. So a tap, or the odds panel, waits for one
  // calculation at most, not for every calculator of the Encounter page's sheet checking
  // its answer worked out ahead once Python is ready (issues #25, #28: 25 of them in
  // Cyberpunk RED held the tracker's first state back by up to 2 s on the phone profile).
  /** @type {(() => void)[]} */
  const waiting = [];
  let running = 0; // calculator runs posted and not answered yet
  let next = 0;
  let heard = false;
  /** @type {Error | null} */
  let stopped = null; // the worker crashed: every later call fails at once, never hangs
  /** @param {Record<string, string>} message @param {boolean} [queued] a calculator run
   * @returns {Promise<string>} */
  const call = (message, queued = false) => new Promise((resolve, reject) => {
    const post = () => {
      if (stopped) {
        reject(stopped);
        return;
      }
      const id = ++next;
      pending.set(id, { resolve, reject, queued });
      if (queued) running++;
      worker.postMessage({ id, ...message });
    };
    if (queued && running) waiting.push(post);
    else post();
  });
  /** @type {Engine} */
  const engine = {
    run: (calc, payload) => call({ calc, payload }, true),
    encounter: (request) => call({ encounter: request }),
  };
  return new Promise((resolve, reject) => {
    worker.onerror = (e) => { // its script did not load or run: no worker here
      e.preventDefault();
      worker.terminate();
      const why = stopped = new Error(`the Python worker stopped: ${e.message || "no message"}`);
      for (const p of pending.values()) p.reject(why);
      for (const post of waiting.splice(0)) post(); // each fails at once: stopped
      reject(heard ? why : new NoWorker(e.message || "module workers are not supported"));
    };
    worker.onmessage = ({ data }) => {
      heard = true;
      if (data.id) {
        const p = pending.get(data.id);
        pending.delete(data.id);
        if (p?.queued) {
          running--;
          waiting.shift()?.();
        }
        if (data.error !== undefined) p?.reject(new Error(data.error));
        else p?.resolve(data.reply);
      } else if (data.state) onState(data.state);
      else if (data.snapshot) { // which way the bytes came, and what they cost (tests, bench)
        performance.mark(`tableside:snapshot-from-${data.snapshot.from}`,
          { detail: { transferSize: data.snapshot.transferSize || 0 } });
      } else if (data.ready) {
        // The worker's downloads, on this page's clock (read by tests and the bench).
        const resources = data.resources.map((/** @type {any} */ r) => ({ ...r,
          startTime: r.startTime - performance.timeOrigin,
          responseEnd: r.responseEnd - performance.timeOrigin }));
        performance.mark(WORKER_READY, { detail: { resources } });
        resolve(engine);
      } else if (data.failed) reject(new Error(data.failed));
      else if (data.refused) reject(refuse(data.refused.file, data.refused.why));
    };
    worker.postMessage({ start });
  });
}
