// Which standard-library modules Python imports in the page (scripts/site/stdlib.py).
//
// Usage: node scripts/site/stdlib_probe.mjs <tableside.zip> [<python_stdlib.zip>]
//
// Starts the pinned Pyodide with its *full* standard library (or the one given: the
// site's, to check that nothing the page does misses a module), does what a page does
// with it, and prints one JSON line: every module then in sys.modules, rules_pkg's aside.
// What a page does: the bridge's prepare(), run_json on every calculator (starting inputs,
// rolled with a seed, and refused inputs), the encounter tracker's requests for every
// game (good and bad), and the modules PyScript's own Python code imports.
import { readdirSync, readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const BRIDGE = new URL("../../calculators/python/bridge.py", import.meta.url);
const PYSCRIPT = new URL("../../node_modules/@pyscript/core/dist/", import.meta.url);

const [bundlePath, stdLibURL] = process.argv.slice(2);
if (!bundlePath) {
  console.error("usage: node scripts/site/stdlib_probe.mjs <tableside.zip>");
  process.exit(2);
}

// PyScript ships Python code as strings in its bundle: the modules it names, by any
// `import x` / `from x import` in it (those Pyodide lacks are skipped below).
const pyscriptImports = new Set();
for (const name of readdirSync(PYSCRIPT)) {
  if (!/^core.*\.js$/.test(name)) continue;
  const text = readFileSync(new URL(name, PYSCRIPT), "utf8");
  for (const m of text.matchAll(/(?:^|\\n|\n)\s*(?:import|from)\s+([A-Za-z_][\w.]*)/g)) {
    pyscriptImports.add(m[1]);
  }
}

const pyodide = await loadPyodide(stdLibURL ? { stdLibURL } : {});
pyodide.FS.writeFile("/home/pyodide/tableside.zip", readFileSync(bundlePath));
pyodide.globals.set("BRIDGE", readFileSync(BRIDGE, "utf8"));
pyodide.globals.set("PYSCRIPT_IMPORTS", [...pyscriptImports].sort().join(" "));
console.log(pyodide.runPython(`
import importlib, json, os, sys
os.chdir("/home/pyodide")
bridge = {"__name__": "tableside_bridge"}
exec(compile(BRIDGE, "python/bridge.py", "exec"), bridge)
bridge["prepare"]()
run = bridge["run_json"]
import rules_pkg
from rules_pkg.encounter import api

for calc in rules_pkg.calculators():
    run(calc.id, "{}")
    if calc.rolls:
        run(calc.id, json.dumps({"roll": True, "seed": "7"}))
    for name in [i.name for i in calc.inputs][:1]:
        run(calc.id, json.dumps({name: "not a number"}))
run("no.such", "{}")
run("horizon.profile_row", "[1]")
games = sorted({c.id.split(".")[0] for c in rules_pkg.calculators()})
for game in games:
    for req in ({"op": "sheet"}, {"op": "fold", "events": []}, {"op": "export", "events": []},
                {"op": "inputs", "events": [], "calc": ""}, {"op": "nope"}):
        reply = json.loads(api.handle_json(json.dumps({"game": game, **req})))
        if req["op"] == "export":
            api.handle_json(json.dumps({"op": "import", "text": reply.get("text", "")}))
api.handle_json("{not json")
api.handle_json(json.dumps({"op": "import", "text": "garbage"}))

for name in PYSCRIPT_IMPORTS.split():
    try:
        importlib.import_module(name)
    except ImportError:
        pass  # PyScript's own modules, or MicroPython's (ujson, uio...)

json.dumps(sorted(m for m in sys.modules
                  if m.split(".")[0] not in ("rules_pkg", "__main__", "tableside_bridge")))
`));
