// Rules figures inside Pyodide under Node (the engine the browser runs), for `make bench`.
// Usage: node scripts/bench/pyodide_node.mjs [bundle.zip]   (default: site/assets/runtime/tableside.zip,
// else a bundle zipped from rules_pkg/ by Python). Prints: Pyodide start, import rules_pkg,
// rules_pkg.calculators(), first and repeated big-pool odds (horizon.skill_test, 100 dice).
import { existsSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
let zipPath = process.argv[2] || join(repo, "site/assets/runtime/tableside.zip");
let bundle;
if (existsSync(zipPath)) {
  bundle = readFileSync(zipPath);
} else {  // no built site: zip rules_pkg the way the build does
  zipPath = "(rules_pkg via scripts.site.bundle.bundle_bytes)";
  bundle = execFileSync(join(repo, ".venv/bin/python"), ["-c",
    "import sys; from scripts.site.bundle import bundle_bytes; sys.stdout.buffer.write(bundle_bytes())"],
    { cwd: repo, maxBuffer: 1 << 26 });
}

const ms = (t) => `${(performance.now() - t).toFixed(0)} ms`;
let t = performance.now();
const pyodide = await loadPyodide();
console.log(`Pyodide ${pyodide.version} start: ${ms(t)}`);
pyodide.FS.writeFile("/home/pyodide/tableside.zip", bundle);
pyodide.runPython(`import os, sys, time; sys.path.insert(0, "/home/pyodide/tableside.zip")`);
const step = (label, code) => {
  const t0 = performance.now();
  const out = pyodide.runPython(code);
  console.log(`${label}: ${ms(t0)}${out !== undefined ? ` (${out})` : ""}`);
};
step("import rules_pkg", "import rules_pkg");
step("rules_pkg.calculators()", "len(rules_pkg.calculators())");
step("horizon.profile_row (first, loads horizon data)",
  "rules_pkg.get('horizon.profile_row').run(weapon='rusty-pistol', ap=10).summary[:60]");
step("big pool: horizon.skill_test 100 dice (first)",
  "len(rules_pkg.get('horizon.skill_test').run(dice=100, bonus=0).odds[0].rows)");
step("big pool: horizon.skill_test 100 dice (x5)",
  "[rules_pkg.get('horizon.skill_test').run(dice=100, bonus=i) for i in range(5)] and 5");
console.log(`bundle: ${zipPath}`);
