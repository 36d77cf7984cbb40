"""Big documents for the scale tests, generated at test time (never committed)."""

from __future__ import annotations


def headings_doc(n: int) -> str:
    """A Markdown document of n headings (##, some ###), each with a short rule and every
    tenth with a small table."""
    out = ["# Big rules", "", "A document with many sections.", ""]
    for i in range(1, n + 1):
        level = "###" if i % 4 == 0 else "##"
        out += [f"{level} Rule {i}", "", f"Rule {i}: roll 2d6 and add {i % 7}; on {i % 12 + 1} "
                "or more you succeed.", ""]
        if i % 10 == 0:
            out += ["| Roll | Result |", "|---|---|", f"| {i % 6 + 1} | Hit |",
                    f"| {i % 6 + 2} | Miss |", ""]
    return "\n".join(out) + "\n"


def sized_doc(size: int) -> str:
    """A Markdown document of about `size` bytes: sections of ~520 bytes like the issue's
    5 MB file (9,563 headings)."""
    para = ("The attacker rolls a pool of dice and counts every six as a success; each extra "
            "success adds one to the damage, and a defender who parries spends an action. ")
    out, total, i = ["# Huge rules", ""], 0, 0
    while total < size:
        i += 1
        block = f"## Section {i}\n\n{para}{para}{para[: (i * 37) % len(para)]}\n\n"
        out.append(block)
        total += len(block.encode())
    return "\n".join(out)


def small_doc(i: int, headings: int = 40) -> str:
    """A small game document (~0.9 kB): a title and `headings` short rules, a page each."""
    out = [f"# Game {i}", "", f"Rules of game {i}.", ""]
    for j in range(1, headings + 1):
        out += [f"## Rule {j}", "", f"Roll {j % 6 + 1}d6.", ""]
    return "\n".join(out)


# Link titles and a lint flag that quote markup (issue #24): Material's tooltips wrote a
# title into innerHTML, so hovering the first link left for another site.
REFRESH = "<meta http-equiv=refresh content='1;url=https://example.invalid/'>"
TITLES_DOC = f"""# Titled links

Read [the map](#top "{REFRESH}") first,
then [the picture](#top "<img src=x onerror=alert(1)>")
and [the drawing](#top '<svg><a href="https://example.invalid/"><text>x</text></a></svg>').
An [entity title](#top "&lt;iframe src=https://example.invalid/&gt;")
and [a script](#top "<script>alert(2)</script>").

## Flagged table

| Weapon | Damage |
|---|---|
| Knife | 3 |
| Sword | 4 |
| Axe | 5 |
| Spear | <img src=x onerror=alert(3)> |
"""
