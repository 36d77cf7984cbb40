"""Write requirements/<group>.lock: every Python package of a pyproject.toml dependency
group, pinned with the SHA-256 of each of its files on PyPI (pip-tools' pip-compile
--generate-hashes). `make setup` installs the test group from it with --require-hashes.

`make lock` runs this after a change to pyproject.toml's groups. pip-compile reads
requirement lines, not PEP 735 groups, so this flattens a group (with its
`include-group`s) and hands the lines to pip-compile on its standard input. PyPI only:
local wheel folders and extra indexes in pip's config would add hashes CI cannot check.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "requirements"


def group_requirements(pyproject: dict[str, object], group: str) -> list[str]:
    """The requirement strings of `group`, its included groups expanded in place."""
    groups = pyproject["dependency-groups"]
    assert isinstance(groups, dict)
    out: list[str] = []
    for item in groups[group]:
        if isinstance(item, dict):
            out.extend(group_requirements(pyproject, item["include-group"]))
        else:
            out.append(item)
    return out


def lock(group: str, pip_compile: str) -> Path:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    lines = group_requirements(pyproject, group)
    OUT_DIR.mkdir(exist_ok=True)
    out = OUT_DIR / f"{group}.lock"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull  # PyPI only (see above)
    env["CUSTOM_COMPILE_COMMAND"] = "make lock"
    subprocess.run([pip_compile, "--quiet", "--generate-hashes", "--allow-unsafe",
                    "--strip-extras", "--no-emit-index-url", "--newline", "LF",
                    "--index-url", "https://pypi.org/simple", "--output-file", str(out), "-"],
                   input="\n".join(lines) + "\n", text=True, env=env, check=True, cwd=ROOT)
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python scripts/lock.py GROUP PATH-TO-pip-compile")
    print(f"wrote {lock(sys.argv[1], sys.argv[2]).relative_to(ROOT)}")
