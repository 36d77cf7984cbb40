"""The hostile corpus: tests/security/hostile/* plus the files that cannot (or should not)
live in git as they are: hostile file names, other encodings and line endings, empty,
binary and undecodable files. `write_corpus(dest)` writes all of them into dest."""

from __future__ import annotations

import shutil
from pathlib import Path

HOSTILE = Path(__file__).with_name("hostile")
ROOT = Path(__file__).resolve().parents[2]

# file name -> why it is refused (extraction reports it with this reason and skips it)
REFUSED = {
    "empty.md": "the file is empty",
    "blank.txt": "the file is empty",
    "binary.txt": "binary data (NUL byte)",
    "latin1.txt": "not valid UTF-8 (byte 0xe9)",
}
MARKUP_NAME = "<svg onload=alert(1)>.txt"  # no heading inside: the title comes from the name


# C0 (ESC, BEL), C1 (U+0080, NEL U+0085, CSI U+009B), bidi overrides, a zero-width space,
# a Unicode tag character and a form feed: removed (or made a space) and reported by line.
CONTROLS = ("# Controls\x80 in a \x1b[31mheading\x1b[0m\n\n"
            "Body with a bell\x07, a C1 \x85 next-line, a \u202e reversed \u202c span, a "
            "zero\u200bwidth space and a tag \U000e0041 character.\n\n"
            "## Second\x9b heading\n\nText\x0c with a form feed.\n")
CONTROL_LINES = (1, 3, 5, 7)


def generated() -> dict[str, bytes]:
    rules = "Encoded rules\n\nRoll two dice.\nAdd your skill.\n\n- Hit on 7\n- Miss on 6\n"
    return {
        MARKUP_NAME: (HOSTILE / "no-heading.txt").read_bytes(),
        "controls.md": CONTROLS.encode("utf-8"),
        "utf16-bom.txt": rules.replace("Encoded", "UTF-16").encode("utf-16"),
        "utf8-bom.md": b"\xef\xbb\xbf" + rules.replace("Encoded", "# UTF-8 BOM").encode(),
        "crlf.md": rules.replace("Encoded", "# CRLF").replace("\n", "\r\n").encode(),
        "cr-only.txt": rules.replace("Encoded", "CR only").replace("\n", "\r").encode(),
        "empty.md": b"",
        "blank.txt": b" \n\t\n",
        "binary.txt": b"PK\x03\x04\x00\x00binary",
        "latin1.txt": "Caf\u00e9 rules\n".encode("latin-1"),
        # a source named like the site's own folder gets a folder of its own (game-data/)
        "data.md": b"# Data\n\nA document called data.md.\n",
    }


def write_corpus(dest: Path, with_real: bool = True) -> Path:
    """dest/ holding the real sources (unless with_real=False) and the whole corpus."""
    dest.mkdir(parents=True, exist_ok=True)
    if with_real:
        for p in sorted((ROOT / "sources").iterdir()):
            if p.is_file():
                shutil.copyfile(p, dest / p.name)
    for p in sorted(HOSTILE.iterdir()):
        if p.suffix in {".md", ".txt"} and p.name != "no-heading.txt":
            shutil.copyfile(p, dest / p.name)
    for name, data in generated().items():
        (dest / name).write_bytes(data)
    return dest
