// @ts-check
// The fold's and the odds' figures inside Pyodide under Node (the engine the browser runs):
// scripts/bench/fold.py's own measures (fold of the bench fights, the tap, each game's odds),
// run by Pyodide on rules_pkg zipped as the build zips it.
// Usage: node scripts/bench/fold_pyodide.mjs   (prints one JSON line per figure, as fold.py)
// The phone profile is about 4 times these (Chromium's CPU x4 throttling).
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bundle = execFileSync(join(repo, ".venv/bin/python"), ["-c",
  "import sys; from scripts.site.bundle import bundle_bytes; sys.stdout.buffer.write(bundle_bytes())"],
{ cwd: repo, maxBuffer: 1 << 26 });

const pyodide = await loadPyodide();
const home = "/home/pyodide";
pyodide.FS.writeFile(`${home}/tableside.zip`, bundle);
// the bench's own modules beside it: the fights are made as in CPython
pyodide.FS.mkdirTree(`${home}/scripts/bench`);
pyodide.FS.writeFile(`${home}/scripts/__init__.py`, "");
pyodide.FS.writeFile(`${home}/scripts/bench/__init__.py`, "");
for (const file of ["scripts/bench/fold.py", "scripts/bench/replay.py", "scripts/bench/pages.py"]) {
  pyodide.FS.writeFile(`${home}/${file}`, readFileSync(join(repo, file)));
}
const rows = pyodide.runPython(`
import json, sys, time
sys.path[:0] = ["${home}/tableside.zip", "${home}"]
t = time.perf_counter()
import rules_pkg.encounter.api
from scripts.bench import fold
imported = time.perf_counter() - t
from js import process  # Node's CPU time, as fold.py's CPython figures (a shared machine)
fold.clock = lambda: (lambda u: (u.user + u.system) / 1e6)(process.cpuUsage())
json.dumps([{"pyodide": True, "import_s": round(imported, 3)}, *fold.odds(), *fold.folds(),
            *fold.page_replays()],
           ensure_ascii=False)
`);
console.log(`Pyodide ${pyodide.version}`);
for (const row of JSON.parse(rows)) console.log(JSON.stringify(row));
