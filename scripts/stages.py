"""The generate, render and finish stages in a row, for a build outside `make site`
(tests that build a site of their own, into their own folders).

`make site` runs the same three commands (after extract); each stage stays runnable alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Built:
    ok: bool
    output: str  # every stage's stdout and stderr, for a failure message


def build(site_dir: Path, build_dir: Path, *, generator: str = "mkdocs",
          env: Mapping[str, str] | None = None, timeout: float = 900) -> Built:
    run_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "TABLESIDE_QUIET": "1", **(env or {})}
    out: list[str] = []
    for cmd in (["scripts.generate", str(build_dir)],
                ["scripts.render", generator, str(build_dir), str(site_dir)],
                ["scripts.finish", str(site_dir), str(build_dir)]):
        proc = subprocess.run([sys.executable, "-m", *cmd], cwd=ROOT, env=run_env,
                              capture_output=True, text=True, timeout=timeout)
        out.append(f"$ python -m {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
        if proc.returncode != 0:
            return Built(False, "\n".join(out))
    return Built(True, "\n".join(out))
