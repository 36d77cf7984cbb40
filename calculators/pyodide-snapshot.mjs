// @ts-check
// PyScript's `interpreter` module when the build made a Pyodide memory snapshot.
//
// PyScript imports the module named by `interpreter` and calls its `loadPyodide` (it also
// reads `version`), passing `indexURL` = this module's folder. We re-export Pyodide's
// `version`, point `indexURL` at the pinned Pyodide files, and hand Pyodide the snapshot
// made at build time (scripts/snapshot/make_snapshot.mjs): Python then starts with
// rules_pkg and its data already imported. The snapshot is shipped gzipped (static hosts
// do not compress .bin); snapshot.mjs fetches and inflates it in a worker, usually
// already started by tableside.js. If anything about the snapshot fails, Python starts
// the plain way: slower, same answers; except a snapshot that is not this build's
// (integrity.mjs): then Python does not start at all.
// @ts-expect-error: the site's copy of node_modules/pyodide (scripts/site/runtime.py), no types
import { loadPyodide as plainLoad, version } from "../runtime/pyodide/pyodide.mjs";
import { snapshotURL, startSnapshot } from "./snapshot.mjs";
import { IntegrityError } from "./integrity.mjs";

export { version };

const INDEX_URL = new URL("../runtime/pyodide/", import.meta.url).href;

export async function loadPyodide(options = {}) {
  const base = { ...options, indexURL: INDEX_URL };
  const snapshot = startSnapshot(snapshotURL(import.meta.url));
  if (!snapshot) return plainLoad(base);
  try {
    // A slow link: wait for the (quick) cache answer; else hand Pyodide the promise, so
    // it fetches and compiles its wasm while the snapshot arrives.
    const bytes = snapshot.onlyIfCached ? await snapshot.bytes : snapshot.bytes;
    if (bytes === null) return plainLoad(base);
    return await plainLoad({ ...base, _loadSnapshot: bytes });
  } catch (e) {
    if (e instanceof IntegrityError) throw e;
    console.warn("Tableside: the Python snapshot could not be used; starting plainly:", e);
    return plainLoad(base);
  }
}
