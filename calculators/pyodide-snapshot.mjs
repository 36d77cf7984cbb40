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

// On a slow or metered connection an uncached snapshot (≈7 MB) costs more time than it
// saves (Python's start is a few CPU seconds): start plainly then; the service worker
// caches the snapshot for the next visit.
function slowNetwork() {
  const c = navigator.connection;
  return Boolean(c && (c.saveData || /(^|-)(2g|3g)$/.test(c.effectiveType || "")));
}

async function cachedSnapshot() {
  try {
    const r = await fetch(SNAPSHOT_URL, { cache: "only-if-cached", mode: "same-origin" });
    return r.ok ? r : null;
  } catch {
    return null; // not cached: fetch() rejects in only-if-cached mode
  }
}

async function inflate(r) {
  if (!r.ok || !r.body) throw new Error(`${SNAPSHOT_URL}: HTTP ${r.status}`);
  const raw = r.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(raw).arrayBuffer());
}

export async function loadPyodide(options = {}) {
  const base = { ...options, indexURL: INDEX_URL };
  if (typeof DecompressionStream !== "function") return plainLoad(base);
  try {
    if (!slowNetwork()) {
      // A promise: Pyodide fetches its wasm while the snapshot downloads.
      return await plainLoad({ ...base, _loadSnapshot: fetch(SNAPSHOT_URL).then(inflate) });
    }
    const cached = await cachedSnapshot();
    return await plainLoad(cached ? { ...base, _loadSnapshot: inflate(cached) } : base);
  } catch (e) {
    console.warn("Tableside: the Python snapshot could not be used; starting plainly:", e);
    return plainLoad(base);
  }
}
