// Build-time Pyodide memory snapshot for the calculators (issue "Fast start").
//
// Usage: node scripts/snapshot/make_snapshot.mjs <bundle.zip> <out.bin.gz> [<python_stdlib.zip>]
//
// Loads the pinned npm Pyodide with `_makeSnapshot: true` (on the standard library the
// site ships, trimmed by scripts/site/stdlib.py: the snapshot holds zipimport's index of
// that very zip, and a module missing from it fails here, at build time), puts the site's own bundle
// (tableside.zip, the very bytes the browser will fetch) where PyScript will write it
// (./tableside.zip in Pyodide's home directory), runs the bridge's prepare()
// (calculators/python/bridge.py: every module it needs, the registry built), loads every game's
// data, then writes
// `pyodide.makeMemorySnapshot()` without its zero pages (sparse.mjs), gzipped: static
// hosts do not compress .bin files, and the browser inflates it with DecompressionStream
// (calculators/python/snapshot.mjs).
// Private Pyodide API (underscore options): the version is pinned by
// scripts/runtime_hashes.json and the build falls back to the plain start if this fails.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";
import { sparse } from "./sparse.mjs";

const BRIDGE = new URL("../../calculators/python/bridge.py", import.meta.url);

const [bundlePath, outPath, stdLibURL] = process.argv.slice(2);
if (!bundlePath || !outPath) {
  console.error("usage: node scripts/snapshot/make_snapshot.mjs <bundle.zip> <out.bin.gz>");
  process.exit(2);
}

const t0 = performance.now();
const pyodide = await loadPyodide({ _makeSnapshot: true, ...(stdLibURL ? { stdLibURL } : {}) });
pyodide.FS.writeFile("/home/pyodide/tableside.zip", readFileSync(bundlePath));
// python/bridge.py's own prepare() (calculators/python/bridge.py: rules_pkg, every game, the encounter
// tracker, the registry), run under another __name__ so that nothing else of it runs: no
// `js` import and no JS proxy alive at snapshot time (a snapshot holds only Python's
// memory, not JS objects). The browser then finds all of it done.
pyodide.globals.set("BRIDGE", readFileSync(BRIDGE, "utf8"));
const games = pyodide.runPython(`
import os, sys, json, typing
# Nothing for PyScript's own Python package: calculators/tableside.js runs the bridge in
# PyScript's onReady hook, and that package is never imported.
os.chdir("/home/pyodide")
bridge = {"__name__": "tableside_bridge"}
exec(compile(BRIDGE, "python/bridge.py", "exec"), bridge)
bridge["prepare"]()
del bridge, BRIDGE
import pyodide.ffi
import rules_pkg
from rules_pkg import data
games = sorted({c.id.split(".")[0] for c in rules_pkg.calculators()})
for g in games:
    data.tables(g)  # parse each game's JSON now, not on the first click
for calc in rules_pkg.calculators():
    calc.run().to_dict()  # and what each rule reads lazily (e.g. Horizon's weapon profiles)
",".join(games)
`);
const raw = pyodide.makeMemorySnapshot();
const packed = sparse(raw); // without its all-zero pages: less to read and inflate
const gz = gzipSync(packed, { level: 9 });
writeFileSync(outPath, gz);
const mb = (n) => (n / 1e6).toFixed(1);
console.log(`snapshot: ${games}; ${mb(raw.length)} MB memory, ${mb(packed.length)} MB ` +
  `without zero pages, ${mb(gz.length)} MB gzip, ` +
  `${((performance.now() - t0) / 1000).toFixed(1)} s`);
