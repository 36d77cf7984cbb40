// What a warm start finds already done in a built site's Pyodide snapshot, and what
// python/bridge.py's prepare() would still import: restores <site>/assets/runtime/snapshot.bin.gz
// in Node (the page's own expand(), then Pyodide's loader, as python/pyodide-snapshot.mjs does),
// writes the bundle where PyScript does, runs prepare() and prints one JSON line.
// Usage: node tests/perf/snapshot_state.mjs <site> <python/bridge.py>   (tests/perf/test_snapshot.py)
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";
import { expand } from "../../calculators/python/snapshot.mjs";

const [site, bridge] = process.argv.slice(2);
const memory = expand(new Uint8Array(gunzipSync(
  readFileSync(`${site}/assets/runtime/snapshot.bin.gz`))));
// the site's standard library: the snapshot was made on it (scripts/site/stdlib.py)
const pyodide = await loadPyodide({ _loadSnapshot: memory,
  stdLibURL: `${site}/assets/runtime/pyodide/python_stdlib.zip` });
pyodide.FS.writeFile("/home/pyodide/tableside.zip",
  readFileSync(`${site}/assets/runtime/tableside.zip`));
pyodide.globals.set("BRIDGE", readFileSync(bridge, "utf8"));
console.log(pyodide.runPython(`
import json, sys
before = set(sys.modules)
from rules_pkg import registry
state = {"modules": sorted(m for m in before if m.startswith("rules_pkg")),
         "registry": sorted(registry._REGISTRY),
         "games_found": getattr(registry.game_modules, "cache_info", lambda: None)()}
if state["games_found"] is not None:
    state["games_found"] = state["games_found"].currsize
bridge = {"__name__": "tableside_bridge"}  # its prepare() only: no js here
exec(compile(BRIDGE, "python/bridge.py", "exec"), bridge)
bridge["prepare"]()
state["imported_by_prepare"] = sorted(set(sys.modules) - before)
json.dumps(state)
`));
