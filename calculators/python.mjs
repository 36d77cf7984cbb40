// @ts-check
// Python for the calculators: PyScript loading our own Pyodide (self-hosted, no CDN), once
// per visit; it survives Material's instant navigation, because the elements it needs live
// outside the swapped container. The start's state is <html data-ts-python>:
// (unset) -> "loading" -> "ready" | "failed" (a changed runtime file, a missing bridge,
// PyScript's own failure). `loadPython()` is the one promise of the engine's `run`.

import { manifestP, warmUp } from "./warm.mjs";
import { h } from "./dom.mjs";
import { modulesBeside, unverified, verifiedModules } from "./integrity.mjs";

const HERE = new URL(".", import.meta.url);
const root = document.documentElement;
// Pyodide stalls (no error) when its wasm fails to download, but a slow phone can take
// ~45 s cold: after this long the page says it may have failed, and keeps waiting.
export const PY_SLOW_MS = 30000;

/** @typedef {(calc: string, payload: string) => string} Run  bridge.py's tablesideRun */

/** @type {Promise<Run> | null} */
let pythonP = null;

/** Start Python once per visit; resolves with the bridge's run function.
 * @returns {Promise<Run>} */
export function loadPython() {
  if (pythonP) return pythonP;
  root.dataset.tsPython = "loading";
  pythonP = (async () => {
    const m = await manifestP;
    const ready = Promise.race([new Promise((resolve, reject) => {
      addEventListener("tableside:python-ready", resolve, { once: true });
      addEventListener("tableside:python-failed",
        (/** @type {any} */ e) => reject(new Error(String(e.detail))),
        { once: true });
    }), unverified.then((r) => { throw new Error(r.message); })]);
    ready.catch(() => {}); // awaited below
    const bundle = new URL(m.bundle, HERE);
    bundle.searchParams.set("v", m.bundle_sha256.slice(0, 16));
    // JSON config (no TOML parser), our own Pyodide (no CDN), no `packages` (no micropip),
    // and none of PyScript's optional plugins: they would load code we do not use.
    const config = {
      interpreter: new URL(m.pyodide, HERE).href,
      files: { [bundle.href]: "./tableside.zip" },
      plugins: ["!error", "!codemirror", "!deprecations-manager", "!donkey", "!py-editor",
        "!py-game", "!py-terminal"],
    };
    // Appended to <body> outside Material's container: instant navigation keeps them.
    // PyScript loads its plugins once per type (py and mpy): both configs must opt out.
    document.body.append(h("py-config", { hidden: true, text: JSON.stringify(config) }),
      h("mpy-config", { hidden: true, text: JSON.stringify({ plugins: config.plugins }) }));
    warmUp(m); // if the page did not already (it had no calculators when it opened)
    const bridgeURL = new URL(m.bridge, HERE);
    const bridgeSrc = fetch(bridgeURL).then((r) => {
      if (!r.ok) throw new Error(`${bridgeURL}: HTTP ${r.status}`);
      return r.text();
    });
    bridgeSrc.catch(() => {}); // reported below, when it is needed
    // Python's modules (PyScript, the interpreter module, Pyodide) get in only checked
    // (integrity.mjs): a changed one stops here, before any of them runs.
    const coreURL = new URL(m.pyscript, HERE);
    await Promise.race([ready, verifiedModules([new URL(m.pyodide, HERE),
      ...modulesBeside(coreURL), ...modulesBeside(new URL(m.pyodide_plain || m.pyodide, HERE))])]);
    const core = await import(coreURL.href);
    // PyScript builds its *worker* hooks with Function() (eval) whenever it starts Python,
    // even on the main thread; its one default worker hook is for workers we never start.
    // Emptying them keeps the site working under a CSP without 'unsafe-eval' (H11).
    for (const set of Object.values(core.hooks.worker)) set.clear();
    // The bridge runs in PyScript's onReady hook, straight in the interpreter PyScript has
    // just loaded (config, files and all). PyScript would next run the <py-script>'s code
    // behind its own Python package (pyscript/*.py: ~4,000 lines compiled and imported
    // before any script, 0.2 s on a desktop and ~0.8 s on a phone, blocking the page),
    // which the bridge never uses. So our element carries no code, and the hook never
    // hands it back to PyScript: that run, and the package with it, never happen.
    const trigger = h("py-script", { hidden: true, text: "# Tableside: see bridge.py" });
    core.hooks.main.onReady.add(async (/** @type {any} */ wrap, /** @type {Element} */ element) => {
      if (element !== trigger) return;
      try {
        wrap.interpreter.runPython(await bridgeSrc, { filename: "bridge.py" });
      } catch (e) { // bridge.py reports its own errors; this is a missing or broken file
        dispatchEvent(new CustomEvent("tableside:python-failed", { detail: String(e) }));
      }
      await new Promise(() => {}); // see above: the element's (empty) run never starts
    });
    document.body.append(trigger);
    await ready;
    if (typeof /** @type {any} */ (window).tablesideRun !== "function") throw new Error("bridge missing");
    root.dataset.tsPython = "ready";
    return /** @type {any} */ (window).tablesideRun;
  })();
  pythonP.catch((e) => {
    root.dataset.tsPython = "failed";
    console.warn("Tableside: the rules engine could not load:", e);
  });
  return pythonP;
}

addEventListener("py:progress", (/** @type {any} */ e) => {
  for (const el of document.querySelectorAll(".ts-calc .ts-status[data-loading]")) {
    el.textContent = `Loading the rules engine… (${e.detail})`;
  }
});
