// PyScript's `interpreter` module when the build made a Pyodide memory snapshot.
//
// PyScript imports the module named by `interpreter` and calls its `loadPyodide` (it also
// reads `version`), passing `indexURL` = this module's folder. We re-export Pyodide's
// `version`, point `indexURL` at the pinned Pyodide files, and hand Pyodide the snapshot
// made at build time (scripts/snapshot/make_snapshot.mjs): Python then starts with
// rules_pkg and its data already imported. The snapshot is shipped gzipped (static hosts
// do not compress .bin) and inflated here by the browser. If anything about the snapshot
// fails, Python starts the plain way: slower, same answers.
import { loadPyodide as plainLoad, version } from "../runtime/pyodide/pyodide.mjs";

export { version };

const HERE = new URL(import.meta.url);
const INDEX_URL = new URL("../runtime/pyodide/", HERE).href;
// `?snap=<hash>` on this module's URL (see runtime.json) versions the snapshot too.
const SNAPSHOT_URL = new URL(`../runtime/snapshot.bin.gz${HERE.search}`, HERE).href;

async function snapshotBytes() {
  const r = await fetch(SNAPSHOT_URL);
  if (!r.ok || !r.body) throw new Error(`${SNAPSHOT_URL}: HTTP ${r.status}`);
  const raw = r.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(raw).arrayBuffer());
}

export async function loadPyodide(options = {}) {
  const base = { ...options, indexURL: INDEX_URL };
  if (typeof DecompressionStream !== "function") return plainLoad(base);
  try {
    return await plainLoad({ ...base, _loadSnapshot: snapshotBytes() });
  } catch (e) {
    console.warn("Tableside: the Python snapshot could not be used; starting plainly:", e);
    return plainLoad(base);
  }
}
