// Run rules_pkg's test suite inside Pyodide under Node: the same code the browser runs.
// Usage: node tests/pyodide/run.mjs [pytest args...]   (default: tests/rules)
// Needs: node_modules/pyodide (npm ci) and build/pyodide-wheels/*.whl (make test fetches them).
import { readdirSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// Its real path: in a worktree build/pyodide-wheels may be a symlink that Pyodide cannot follow.
const wheelDir = realpathSync(join(repo, "build/pyodide-wheels"));
const wheels = readdirSync(wheelDir).filter((f) => f.endsWith(".whl"));
if (!wheels.length) {
  console.error(`no wheels in ${wheelDir}: run 'make test' (it fetches them)`);
  process.exit(2);
}

const t0 = performance.now();
const pyodide = await loadPyodide();
console.log(`Pyodide ${pyodide.version} (Python ${pyodide.runPython("import sys; sys.version.split()[0]")}) loaded in ${((performance.now() - t0) / 1000).toFixed(2)} s`);

// The repository, read-only in spirit: tests read rules_pkg and its data from here.
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");

pyodide.FS.mkdirTree("/wheels");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: wheelDir }, "/wheels");
pyodide.globals.set("wheels", wheels.map((w) => `/wheels/${w}`));
pyodide.globals.set("args", process.argv.slice(2));
const rc = pyodide.runPython(`
import os, site, sys, zipfile
target = site.getsitepackages()[0]
for wheel in wheels:  # a wheel is a zip: unpacking it is installing it
    zipfile.ZipFile(wheel).extractall(target)
os.chdir("/repo")
sys.path.insert(0, "/repo")
import pytest
argv = list(args) or ["tests/rules"]
int(pytest.main(["-c", "tests/pyodide/pytest.ini", "--rootdir", "/repo", "-q", *argv]))
`);
process.exit(rc);
