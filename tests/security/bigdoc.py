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
