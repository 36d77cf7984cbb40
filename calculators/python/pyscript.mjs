// @ts-check
// PyScript, behind this one adapter: the only module that knows its config, its hooks and
// its elements. python/boot.mjs owns the start-up (states, checks, the snapshot or plain start)
// and calls startPyScript() once, with PyScript's modules already checked.
//
// Our own Pyodide (no CDN), once per visit; it survives Material's instant navigation,
// because the elements PyScript needs are appended to <body>, outside the swapped container.
import { h } from "../dom.mjs";

/** python/bridge.py's entry points on the page: tablesideRun and tablesideEncounter.
 * @typedef {{run: (calc: string, payload: string) => string,
 *   encounter: (request: string) => string}} Bridge */

/**
 * Start Python with PyScript's core module `core`, `interpreter` as Pyodide's module and
 * the rules bundle written to ./tableside.zip, then run python/bridge.py (`bridge`, its source)
 * in it. Resolves with the bridge's entry points; rejects when PyScript or the bridge fails.
 * @param {{core: URL, interpreter: URL, bundle: URL, bridge: Promise<string>,
 *   onProgress: (what: string) => void}} start
 * @returns {Promise<Bridge>}
 */
export async function startPyScript({ core, interpreter, bundle, bridge, onProgress }) {
  const ready = new Promise((resolve, reject) => { // python/bridge.py dispatches one of them
    addEventListener("tableside:python-ready", resolve, { once: true });
    addEventListener("tableside:python-failed",
      (/** @type {any} */ e) => reject(new Error(String(e.detail))), { once: true });
  });
  addEventListener("py:progress", (/** @type {any} */ e) => onProgress(String(e.detail)));
  // JSON config (no TOML parser), our own Pyodide (no CDN), no `packages` (no micropip),
  // and none of PyScript's optional plugins: they would load code we do not use.
  const config = {
    interpreter: interpreter.href,
    files: { [bundle.href]: "./tableside.zip" },
    plugins: ["!error", "!codemirror", "!deprecations-manager", "!donkey", "!py-editor",
      "!py-game", "!py-terminal"],
  };
  // PyScript loads its plugins once per type (py and mpy): both configs must opt out.
  document.body.append(h("py-config", { hidden: true, text: JSON.stringify(config) }),
    h("mpy-config", { hidden: true, text: JSON.stringify({ plugins: config.plugins }) }));
  const pyscript = await import(core.href);
  // PyScript builds its *worker* hooks with Function() (eval) whenever it starts Python,
  // even on the main thread; its one default worker hook is for workers we never start.
  // Emptying them keeps the site working under a CSP without 'unsafe-eval' (H11).
  for (const set of Object.values(pyscript.hooks.worker)) set.clear();
  // The bridge runs in PyScript's onReady hook, straight in the interpreter PyScript has
  // just loaded (config, files and all). PyScript would next run the <py-script>'s code
  // behind its own Python package (pyscript/*.py: ~4,000 lines compiled and imported
  // before any script, 0.2 s on a desktop and ~0.8 s on a phone, blocking the page),
  // which the bridge never uses. So our element carries no code, and the hook never
  // hands it back to PyScript: that run, and the package with it, never happen.
  const trigger = h("py-script", { hidden: true, text: "# Tableside: see python/bridge.py" });
  pyscript.hooks.main.onReady.add(async (/** @type {any} */ wrap, /** @type {Element} */ el) => {
    if (el !== trigger) return;
    try {
      wrap.interpreter.runPython(await bridge, { filename: "bridge.py" });
    } catch (e) { // python/bridge.py reports its own errors; this is a missing or broken file
      dispatchEvent(new CustomEvent("tableside:python-failed", { detail: String(e) }));
    }
    await new Promise(() => {}); // see above: the element's (empty) run never starts
  });
  document.body.append(trigger);
  await ready;
  const { tablesideRun: run, tablesideEncounter: encounter } = /** @type {any} */ (window);
  if (typeof run !== "function" || typeof encounter !== "function") {
    throw new Error("bridge missing");
  }
  return { run, encounter };
}
