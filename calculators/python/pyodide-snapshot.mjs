// @ts-check
// PyScript's `interpreter` module when the build made a Pyodide memory snapshot: an
// adapter. PyScript imports the module named by runtime.json's `pyodide`, reads its
// `version` and calls its `loadPyodide`; we re-export Pyodide's `version`, point
// `indexURL` at the pinned Pyodide files, and hand Pyodide's own loader to python/boot.mjs,
// which decides between the snapshot and the plain start (startPyodide()).
// @ts-expect-error: the site's copy of node_modules/pyodide (scripts/site/runtime.py), no types
import { loadPyodide as plainLoad, version } from "../../runtime/pyodide/pyodide.mjs";
import { startPyodide } from "./boot.mjs";

export { version };

const INDEX_URL = new URL("../../runtime/pyodide/", import.meta.url).href;

/** @param {object} [options] PyScript's options for Pyodide */
export function loadPyodide(options = {}) {
  return startPyodide(plainLoad, { ...options, indexURL: INDEX_URL });
}
