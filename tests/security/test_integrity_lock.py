"""Supply chain: the Python packages come from a hash-pinned lock made from pyproject.toml,
installed with --require-hashes; the CI container is pinned by digest."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scripts.lock import group_requirements

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "test.lock"
ENTRY = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+) \\\n((?:    --hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)",
                   re.MULTILINE)


def locked() -> dict[str, tuple[str, list[str]]]:
    text = LOCK.read_text("utf-8")
    return {canonicalize_name(m[1]): (m[2], re.findall(r"[0-9a-f]{64}", m[3]))
            for m in ENTRY.finditer(text)}


def test_every_locked_package_is_pinned_with_hashes() -> None:
    text = LOCK.read_text("utf-8")
    pins = locked()
    # every requirement line of the file was parsed: none without a hash, none unpinned
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith((" ", "#"))]
    assert len(lines) == len(pins) >= 40
    for name, (_version, hashes) in pins.items():
        assert hashes, name


def test_lock_satisfies_every_requirement_of_the_test_group() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    pins = locked()
    for line in group_requirements(pyproject, "test"):
        req = Requirement(line)
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is in pyproject.toml but not in {LOCK.name}: make lock"
        assert req.specifier.contains(pins[name][0], prereleases=True), (
            f"{LOCK.name} pins {req.name}=={pins[name][0]}, pyproject.toml wants {req}: make lock")


def test_makefile_installs_from_the_lock_with_require_hashes() -> None:
    makefile = (ROOT / "Makefile").read_text("utf-8")
    rule = makefile.split("$(VENV)/.stamp: ", 1)[1].split("\n\n", 1)[0]
    assert rule.startswith("requirements/test.lock")
    installs = [ln for ln in rule.splitlines() if "pip install" in ln]
    assert installs and all("--require-hashes" in ln and "-r requirements/test.lock" in ln
                            for ln in installs), installs


def test_ci_container_is_pinned_by_digest() -> None:
    images = [(workflow.name, image)
              for workflow in (ROOT / ".github" / "workflows").glob("*.y*ml")
              for image in re.findall(r"^\s*(?:container|image):\s*(\S+)",
                                      workflow.read_text("utf-8"), re.MULTILINE)]
    assert images  # the jobs run in a container (Debian, the README's platform)
    for workflow, image in images:
        assert re.fullmatch(r"[\w./:-]+@sha256:[0-9a-f]{64}", image), (workflow, image)
