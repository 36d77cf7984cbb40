"""The bench's report: the series it measured, their table, ratios and targets."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field


@dataclass
class Visit:
    ready: float  # seconds: first result, or load event for the static page
    lcp: float
    bytes: int
    py: float = 0.0
    summary: str | None = None
    # seconds: the first answer on screen, worked out ahead at build time or live (issue
    # 13); `ready` stays the first live result. 0: none (the static page).
    answer: float = 0.0
    # milliseconds: the longest main-thread task from the first answer to the live result,
    # while Python starts (issue 26: Python's worker adds none over 50 ms)
    blocked: float = 0.0


@dataclass
class Series:
    label: str
    visits: list[Visit] = field(default_factory=list)
    next_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def med(self, attr: str) -> float | None:
        vals = [getattr(v, attr) for v in self.visits]
        return statistics.median(vals) if vals else None



# --- report -------------------------------------------------------------------------------
def _fmt_s(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def _fmt_mb(x: float | None) -> str:
    return "—" if x is None else f"{x / 1e6:.2f}"


def table(series: list[Series]) -> str:
    rows = [("series", "n", "ready s", "answer s", "LCP s", "MB", "py-ready s", "task ms",
             "next s")]
    for s in series:
        blocked = s.med("blocked")
        rows.append((s.label, str(len(s.visits)), _fmt_s(s.med("ready")),
                     _fmt_s(s.med("answer") or None), _fmt_s(s.med("lcp")),
                     _fmt_mb(s.med("bytes")), _fmt_s(s.med("py") or None),
                     "—" if blocked is None else f"{blocked:.0f}",
                     _fmt_s(statistics.median(s.next_ms) / 1000) if s.next_ms else ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for j, r in enumerate(rows):
        out.append("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                             for i, c in enumerate(r)))
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def ratios(by: dict[str, Series]) -> list[str]:
    lines = []
    for prof in ("desktop", "phone"):
        for temp in ("cold", "warm"):
            st = by.get(f"{prof} {temp} static")
            mp = by.get(f"{prof} {temp} micropython")
            for var in ("snapshot", "plain"):
                py = by.get(f"{prof} {temp} pyodide-{var}")
                if not py or py.med("ready") is None:
                    continue
                parts = []
                if st and st.med("ready"):
                    parts.append(f"/static {py.med('ready') / st.med('ready'):.1f}x")  # type: ignore[operator]
                if mp and mp.med("ready"):
                    parts.append(f"/MicroPython {py.med('ready') / mp.med('ready'):.1f}x")  # type: ignore[operator]
                if parts:
                    lines.append(f"{prof} {temp} pyodide-{var}: " + ", ".join(parts))
    return lines


def verdicts(by: dict[str, Series], variant: str) -> list[str]:
    """Issue #13's targets: medians as ratios to this run's own floors (a shared machine
    drifts by tens of per cent within an hour; the floors drift with it)."""
    def get(name: str, attr: str = "ready") -> float | None:
        s = by.get(name)
        return s.med(attr) if s else None

    v = f"pyodide-{variant}"
    nxt = by.get(f"desktop warm {v}")
    next_s = statistics.median(nxt.next_ms) / 1000 if nxt and nxt.next_ms else None
    checks = [  # (what, value, floor name, floor value, most times the floor)
        ("desktop warm first result", get(f"desktop warm {v}"),
         "MicroPython", get("desktop warm micropython"), 2.0),
        ("phone warm first result", get(f"phone warm {v}"),
         "MicroPython", get("phone warm micropython"), 2.5),
        ("phone first visit LCP", get(f"phone cold {v}", "lcp"),
         "static page LCP", get("phone cold static", "lcp"), 1.2),
        ("phone first visit first result", get(f"phone cold {v}"), "", 1.0, 30.0),
        ("desktop next page", next_s, "", 1.0, 0.2),
    ]
    out = []
    for name, val, floor_name, floor, most in checks:
        if val is None or floor is None:
            out.append(f"{name:31} not measured")
        elif floor_name:
            ratio = val / floor
            ok = "MET" if ratio <= most else "MISSED"
            out.append(f"{name:31} {val:6.2f} s = {ratio:4.2f}x {floor_name} ({floor:.2f} s); "
                       f"target <= {most:.1f}x {ok}")
        else:
            ok = "MET" if val <= most else "MISSED"
            out.append(f"{name:31} {val:6.2f} s; target <= {most:.1f} s {ok}")
    return out
