"""Speed and size figures for the calculators (issue "Fast start"): `make bench`.

Usage: python -m scripts.bench [--site site] [--runs 5] [--phone-runs 3] [--quick]
                               [--no-phone-cold] [--next-only] [--encounter-only] [--replay]
                               [--json bench-out/bench.json] [--lighthouse] [--lighthouse-runs 1]

Serves the built site from 127.0.0.1 the way GitHub Pages does (scripts/bench/server.py:
gzip by content type, `Cache-Control: max-age=600`) and drives Debian's
Chromium headless (Playwright, sync). For each page kind it measures, median of N runs:

* ready   navigation start → first calculator result on screen (the page's
          `performance.mark("tableside:first-result")`, set by calculators/tableside.js;
          the bench clicks Compute as soon as the form exists, as a reader would). For the
          static page: navigation start → load event (the floor of any page).
* answer  navigation start → first answer on screen: the one worked out at build time
          for the form's starting inputs (issue 13, calculators/forms/ahead.mjs: the page's
          `performance.mark("tableside:first-answer")`), or the first live result if it
          came first; "ready" above stays the first live result. MicroPython: its result.
* LCP     largest contentful paint (PerformanceObserver).
* bytes   bytes over the wire for the visit (Resource Timing transferSize, page + resources,
          plus what Python's worker downloads: calculators/python/client.mjs's mark).
* task ms the longest main-thread task (Long Tasks API) from the first answer to the
          first live result, while Python starts: issue 26's target is none over 50 ms
          from Python (it runs in a worker; on the page its restore was such a task).

Plus two first visits with the service worker allowed, the bytes the server sends: to a
reading page until its pages are saved offline (no Python runtime), and to a calculator
page until the runtime it downloaded is saved too (the worker takes the browser's copy
rather than download it again).

Cold = a new browser profile (empty disk cache); warm = a second visit with the same
profile (service workers blocked unless --with-sw: the comparison is of the HTTP cache
alone). "next" = click an internal link to another profile page (Material's instant
navigation) until that page's calculator answers, as a reader does it: the link is
clicked READ_S (1 s) after the first page's result (the reader reads the answer first;
the first page's leftover work, its hidden tab panels built while idle and the result's
paint, is over within 0.5 s: `python -m scripts.bench.next_page --leftover 3`; a click at
once meets it, which `scripts.bench.next_page --delays 0` measures); on the next page the
calculator's tab is clicked as soon as it is there (that click builds its form at once),
then Compute. The next page is a weapon profile page like the first, never the game's
Encounter page (the tracker and all of the game's calculators in one sheet, picked by
name order from issue 12 until issue 13 without anyone choosing it): `python -m
scripts.bench.next_page --next horizon/encounter/` measures that one. Profiles: desktop (no
throttling) and phone (CDP CPU throttling 4x and Chrome's own "Slow 4G" preset: 1.6 Mbps
x 0.9 down, 750 kbps x 0.9 up, 150 ms x 3.75 = 562.5 ms latency, the values DevTools and
Lighthouse use). Phone warm visits are primed by one unthrottled visit; phone cold runs once (it
takes minutes: Pyodide is megabytes). Variants: "snapshot" (the site as built, if its
runtime.json names a snapshot) and "plain" (the same site with runtime.json rewritten to
plain pyodide.mjs); on the phone only the site as built unless --phone-all. Note: on a
slow connection (navigator.connection says 2g/3g, as under Slow 4G) the site starts
Python plainly unless the snapshot is already cached (calculators/python/pyodide-snapshot.mjs),
so "phone cold pyodide-snapshot" downloads no snapshot. Beside them: a static page of
the site (no calculator), and a MicroPython page (PyScript `<script type="mpy">`, npm
micropython 1.27.0) doing the same table look-up on the same extracted data (rules_pkg
cannot run there: MicroPython has no fractions or dataclasses, so the page carries the
closest equivalent code, and the bench checks both give the same summary line).

Prints what scripts/bench/ahead.py measures on the built site: the bytes the answers
worked out ahead add per page (median, largest; gzip) and the share of sampled one-input
changes they answer before Python (issue 26). Also runs `python -m scripts.bench.rules`
(CPython rules figures) when it exists and `node scripts/bench/pyodide_node.mjs`
(rules_pkg import and big-pool odds in Pyodide), and the Encounter page's two figures on
the phone profile: a tap's effect (`python -m scripts.bench.tap`, issue #25: p95 ≤ 100 ms)
and the odds panel's first answer (`python -m scripts.bench.odds`, issue #28: ≤ 200 ms).
`--encounter-only` prints those two alone. With --replay, also the encounter
tracker's replay on the phone profile (`python -m scripts.bench.replay --browser SITE`: a
5,000-event import and reload; minutes, so not by default).

With --lighthouse (`make bench` passes it, having installed Lighthouse into build/lighthouse):
Lighthouse mobile on home, a weapon page, a cheat sheet and an Encounter page
(scripts/bench/lighthouse.py), last, on its own: its table against issue 26's targets.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from scripts.bench import ahead
from scripts.bench.pages import INSTRUMENT, NEXT_PAGE, READ_VISIT, write_mpy_page
from scripts.bench.report import Series, Visit, ratios, table, verdicts
from scripts.bench.server import SERVED, VARIANT, serve
from scripts.page_states import PYTHON, SAVED, SW, expect

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
CALC = "horizon.profile_row"  # a table look-up on a Horizon weapon profile page
MPY_DIR = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
PYSCRIPT_DIR = ROOT / "node_modules" / "@pyscript" / "core" / "dist"
# Chrome DevTools' "Slow 4G" preset (= Lighthouse's mobile throttling, applied by DevTools).
SLOW_4G = {"offline": False, "latency": 150 * 3.75,
           "downloadThroughput": 1.6e6 / 8 * 0.9, "uploadThroughput": 750e3 / 8 * 0.9}
CPU_SLOWDOWN = 4
READ_S = 1.0  # a reader reads the first result before following a link (see above)
PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2.625,
         "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}

# --- the site -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SitePlan:
    profile: str  # first page with CALC
    next: str  # another page with CALC (instant navigation target)
    static: str  # a page of the same game with no calculator
    weapon: str
    ap: int
    port: int  # the port site_url (sitemap.xml) names: instant navigation needs it
    snapshot: bool


def plan(site: Path) -> SitePlan:
    pages = []
    static = None
    for page in sorted(site.glob("horizon/*/index.html")):
        text = page.read_text("utf-8")
        rel = page.parent.relative_to(site).as_posix() + "/"
        if f'data-calc="{CALC}"' in text and 'class="ts-encounter"' not in text:
            pages.append((rel, text))  # a weapon profile page (not the Encounter page)
        elif "ts-calc" not in text and static is None:
            static = rel
    if len(pages) < 2 or static is None:
        sys.exit(f"bench: {site} has no two pages with {CALC} and one without calculators: "
                 "run `make site` first")
    m = re.search(rf'data-calc="{re.escape(CALC)}" data-preset=\'([^\']*)\'', pages[0][1])
    preset = json.loads(html.unescape(m.group(1))) if m else {}
    registry = json.loads((site / "assets/calculators/registry.json").read_text("utf-8"))
    inputs = {i["name"]: i for c in registry if c["id"] == CALC for i in c["inputs"]}
    weapon = str(preset.get("weapon", inputs["weapon"]["default"]))
    ap = int(preset.get("ap", inputs["ap"]["default"]))
    sm = site / "sitemap.xml"
    pm = re.search(r"<loc>https?://[^/<]*?:(\d+)/", sm.read_text("utf-8")) if sm.is_file() else None
    manifest = json.loads((site / "assets/calculators/runtime.json").read_text("utf-8"))
    return SitePlan(pages[0][0], pages[1][0], static, weapon, ap,
                    int(pm.group(1)) if pm else 8000, "snapshot" in manifest)


# --- measuring ----------------------------------------------------------------------------
def _throttle(cdp: Any, phone: bool) -> None:
    if phone:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        cdp.send("Network.emulateNetworkConditions", SLOW_4G)


def visit(ctx: Any, url: str, phone: bool, kind: str, timeout_s: float) -> tuple[Visit, Any]:
    """One page visit in ctx; returns the figures and the open page (caller closes it)."""
    page = ctx.new_page()
    if phone:  # network emulation needs CDP's Network domain: keep its body buffers tiny
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable", {"maxTotalBufferSize": 1024, "maxResourceBufferSize": 1024})
        _throttle(cdp, phone)
    page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
    if kind == "static":
        page.wait_for_load_state("load", timeout=timeout_s * 1000)
        page.wait_for_timeout(200)  # let LCP settle
    else:
        page.wait_for_function(
            "() => performance.getEntriesByName('tableside:first-result').length > 0 "
            "|| (window.__bench && window.__bench.result > 0) "
            f"|| {PYTHON.is_('failed')}",
            timeout=timeout_s * 1000, polling=50)
        if PYTHON.of(page) == "failed":
            raise RuntimeError(f"Python failed to load on {url}")
    r = page.evaluate(READ_VISIT)
    ready = r["load"] if kind == "static" else r["result"]
    return Visit(ready / 1000, r["lcp"] / 1000, r["bytes"], r["py"] / 1000, r["summary"],
                 r["answer"] / 1000, r.get("blocked", 0.0)), page


def new_context(pw: Any, user_dir: str, phone: bool, variant: str, calc: str,
                with_sw: bool = False) -> Any:
    """A browser with its own profile on disk: a real HTTP disk cache for warm visits
    (Playwright's incognito contexts keep a small in-memory cache that drops the wasm)."""
    ctx = pw.chromium.launch_persistent_context(
        user_dir, executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS,
        # A service worker would answer runtime.json from its cache (no plain variant).
        service_workers="allow" if with_sw else "block", **(PHONE if phone else DESKTOP))
    ctx.add_init_script(INSTRUMENT % json.dumps(calc))
    return ctx


def run_series(pw: Any, base: str, p: SitePlan, label: str, kind: str, variant: str,
               phone: bool, runs: int, cold: bool, with_next: bool, timeout_s: float,
               log: Callable[[str], None], with_sw: bool = False) -> Series:
    """Cold: a new profile per run. Warm: one profile primed by an unthrottled visit (not
    counted), then `runs` visits, each in a new tab (as a reader coming back)."""
    url = base + {"pyodide": p.profile, "static": p.static, "mpy": "__bench__/mpy.html"}[kind]
    s = Series(label)
    user_dir, ctx = "", None
    VARIANT["plain"] = variant == "plain"

    def fresh() -> Any:
        nonlocal user_dir, ctx
        close()
        user_dir = tempfile.mkdtemp(prefix="tableside-bench-profile-")
        ctx = new_context(pw, user_dir, phone, variant, CALC, with_sw)
        return ctx

    def close() -> None:
        if ctx is not None:
            ctx.close()
            shutil.rmtree(user_dir, ignore_errors=True)

    try:
        if not cold:
            _, page = visit(fresh(), url, False, kind, 120)
            page.close()
        for i in range(runs):
            try:
                v, page = visit(fresh() if cold else ctx, url, phone, kind, timeout_s)
                s.visits.append(v)
                if with_next:
                    page.wait_for_timeout(READ_S * 1000)
                    r = page.evaluate(NEXT_PAGE, [base + p.next, CALC])
                    if not r["instant"]:
                        s.errors.append("next page was a full reload, not instant navigation "
                                        f"(is the site built for port {p.port}?)")
                    s.next_ms.append(r["ms"])
                page.close()
                log(f"  {label} run {i + 1}/{runs}: {v.ready:.2f} s (answer {v.answer:.2f} s)")
            except Exception as e:  # keep the other figures; say what failed
                msg = str(e).splitlines()[0][:160] if str(e) else ""
                s.errors.append(f"run {i + 1}: {type(e).__name__}: {msg}")
                log(f"  {label} run {i + 1}/{runs}: failed")
    except Exception as e:
        s.errors.append(f"priming visit: {type(e).__name__}: {str(e)[:160]}")
    finally:
        close()
        VARIANT["plain"] = False
    return s


def cpu_calibration_ms() -> float:
    """A fixed pure-Python loop (median of 3, ms): how fast this machine is right now.
    Shared machines drift by tens of per cent within an hour; the static and MicroPython
    floors drift with it, and this figure makes two reports comparable."""
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        sum(i * i for i in range(2_000_000))
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


# What each first visit waits for (calculators/offline.js's states): a reading page until
# its pages are saved offline (the worker's precache, no runtime); a calculator page until
# Python answers and the runtime it downloaded is saved too ("Offline ready").
READING_DONE = expect(SW.is_("ready"))
CALC_DONE = expect(PYTHON.is_("ready"), SW.is_("ready"), SAVED.is_("all"))


def first_visit_bytes(pw: Any, base: str, path: str, done: str, label: str,
                      log: Callable[[str], None]) -> float:
    """MB the server sends for a first visit to `path` with the service worker allowed,
    until `done` holds: the page's own downloads plus the worker's (each file should come
    once: the worker takes the browser's copy)."""
    user_dir = tempfile.mkdtemp(prefix="tableside-bench-profile-")
    ctx = new_context(pw, user_dir, False, "snapshot", CALC, with_sw=True)
    try:
        before = SERVED["wire"]
        page = ctx.new_page()
        page.goto(base + path)
        page.wait_for_function(done, timeout=300_000, polling=100)
        mb = (SERVED["wire"] - before) / 1e6
        log(f"  first visit to {label} with the service worker: {mb:.1f} MB on the wire")
        return mb
    finally:
        ctx.close()
        shutil.rmtree(user_dir, ignore_errors=True)


def encounter_benches(site: Path, log: Callable[[str], None]) -> dict[str, str]:
    """The Encounter page's tap and odds figures (their own modules, each serving the site)."""
    out: dict[str, str] = {}
    for mod, label, extra in (("scripts.bench.tap", "a tap's effect (#25)", []),
                              ("scripts.bench.odds", "the odds' first answer (#28)",
                               ["--runs", "5"])):
        proc = subprocess.run([sys.executable, "-m", mod, "--site", str(site), *extra],
                              cwd=ROOT, capture_output=True, text=True, timeout=1800)
        out[f"Encounter page: {label}, python -m {mod}"] = (proc.stdout + proc.stderr).strip()
        log(f"{mod}: done")
    return out


def sub_benches(log: Callable[[str], None], site: Path | None = None) -> dict[str, str]:
    """The CPython and Pyodide rules figures; with `site`, the encounter replay in the
    browser too (scripts/bench/replay.py)."""
    out: dict[str, str] = {}
    if (ROOT / "scripts" / "bench" / "rules.py").is_file():
        proc = subprocess.run([sys.executable, "-m", "scripts.bench.rules"], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
        out["bench.rules (CPython)"] = (proc.stdout + proc.stderr).strip()
    else:
        out["bench.rules (CPython)"] = "scripts/bench/rules.py not present"
    node = shutil.which("node")
    if node:
        proc = subprocess.run([node, "scripts/bench/pyodide_node.mjs"], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
        out["rules in Pyodide under Node"] = (proc.stdout + proc.stderr).strip()
    if site is not None:
        proc = subprocess.run(
            [sys.executable, "-m", "scripts.bench.replay", "--browser", str(site)],
            cwd=ROOT, capture_output=True, text=True, timeout=3600)
        out["encounter replay (CPython, then the page on the phone profile)"] = (
            proc.stdout + proc.stderr).strip()
    log("rules benches: done")
    return out


def lighthouse(site: Path, runs: int, log: Callable[[str], None]) -> str:
    """`python -m scripts.bench.lighthouse`'s table (its own process, as the rules benches)."""
    log("lighthouse: one page of each kind, mobile")
    proc = subprocess.run([sys.executable, "-m", "scripts.bench.lighthouse", "--site",
                           str(site), "--runs", str(runs)], cwd=ROOT, text=True,
                          stdout=subprocess.PIPE, timeout=1800)
    return proc.stdout.strip() + ("" if proc.returncode == 0 else
                                  f"\nERROR lighthouse exited {proc.returncode}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.bench", description=__doc__.split("\n")[0])
    ap.add_argument("--site", type=Path, default=ROOT / "site")
    ap.add_argument("--runs", type=int, default=5, help="desktop runs per series (median)")
    ap.add_argument("--phone-runs", type=int, default=3, help="phone warm runs per series")
    ap.add_argument("--no-phone-cold", action="store_true", help="skip the slow phone cold runs")
    ap.add_argument("--phone-all", action="store_true",
                    help="phone runs for the plain variant too (minutes more: Python's plain "
                         "start at 4x CPU)")
    ap.add_argument("--no-sub", action="store_true", help="skip the rules benches")
    ap.add_argument("--replay", action="store_true",
                    help="also the encounter tracker's replay in the browser (phone profile, "
                         "minutes: scripts/bench/replay.py)")
    ap.add_argument("--with-sw", action="store_true",
                    help="let the site's service worker run (no plain variant then)")
    ap.add_argument("--quick", action="store_true", help="2 runs, 1 phone run, no phone cold")
    ap.add_argument("--next-only", action="store_true",
                    help="only the desktop warm visits and their next pages (no floors, "
                         "phone, first visits or rules benches): to iterate on the next page")
    ap.add_argument("--encounter-only", action="store_true",
                    help="only the Encounter page's tap and odds figures (phone profile)")
    ap.add_argument("--lighthouse", action="store_true",
                    help="then Lighthouse mobile on each page kind (installed by make bench)")
    ap.add_argument("--lighthouse-runs", type=int, default=1, help="Lighthouse runs per page")
    ap.add_argument("--json", type=Path, default=ROOT / "bench-out" / "bench.json")
    args = ap.parse_args(argv)
    if args.quick:
        args.runs, args.phone_runs, args.no_phone_cold = 2, 1, True
    site = args.site.resolve()
    if not (site / "assets" / "calculators" / "runtime.json").is_file():
        sys.exit(f"bench: no built site with calculators in {site}: run `make site`")
    exe = shutil.which("chromium")
    if not exe:
        sys.exit("bench: Debian's chromium is not on PATH (make setup)")
    if args.encounter_only:
        for k, v in encounter_benches(site, lambda m: print(m, file=sys.stderr)).items():
            print(f"== {k} ==\n{v}\n")
        return 0
    p = plan(site)
    t_start = time.monotonic()
    load_start = os.getloadavg()[0]  # other work on the machine skews every figure
    calib_start = cpu_calibration_ms()

    def log(msg: str) -> None:
        print(f"[{time.monotonic() - t_start:6.1f} s] {msg}", file=sys.stderr, flush=True)

    variants = ["snapshot", "plain"] if p.snapshot else ["plain"]
    if args.with_sw:
        variants = variants[:1]
    from playwright.sync_api import sync_playwright

    series: list[Series] = []
    with tempfile.TemporaryDirectory(prefix="tableside-bench-") as tmp, \
            serve(site, {"/__bench__/mpy/": MPY_DIR, "/__bench__/pyscript/": PYSCRIPT_DIR,
                         "/__bench__/": Path(tmp)}, p.port) as base, \
            sync_playwright() as pw:
        write_mpy_page(Path(tmp), CALC, p.weapon, p.ap, site)
        if not base.endswith(f":{p.port}/"):
            log(f"port {p.port} (the site's site_url) is busy: instant navigation may reload")
        log(f"serving {site} at {base}; profile page {p.profile}, next {p.next}, "
            f"static {p.static}; variants {variants}")

        def add(label: str, kind: str, variant: str, phone: bool, runs: int, cold: bool,
                with_next: bool = False, timeout_s: float = 120) -> None:
            if runs <= 0:
                return
            series.append(run_series(pw, base, p, label, kind, variant, phone, runs,
                                     cold, with_next, timeout_s, log, args.with_sw))

        for temp in () if args.next_only else ("cold", "warm"):
            add(f"desktop {temp} static", "static", "", False, args.runs, temp == "cold")
            add(f"desktop {temp} micropython", "mpy", "", False, args.runs, temp == "cold")
            for var in variants:
                add(f"desktop {temp} pyodide-{var}", "pyodide", var, False, args.runs,
                    temp == "cold", with_next=temp == "warm")
        if args.next_only:  # the desktop warm visits with their next pages, nothing else
            for var in variants:
                add(f"desktop warm pyodide-{var}", "pyodide", var, False, args.runs, False,
                    with_next=True)
            args.phone_runs, args.no_phone_cold, args.no_sub = 0, True, True
        add("phone warm static", "static", "", True, args.phone_runs, False)
        add("phone warm micropython", "mpy", "", True, args.phone_runs, False)
        phone_variants = variants if args.phone_all else variants[:1]  # the site as built
        for var in phone_variants:
            add(f"phone warm pyodide-{var}", "pyodide", var, True, args.phone_runs, False,
                timeout_s=240)
        first_visits: dict[str, float | None] = {}
        for label, path, done in () if args.next_only else (
                ("a reading page", p.static, READING_DONE),
                ("a calculator page", p.profile, CALC_DONE)):
            try:
                first_visits[label] = first_visit_bytes(pw, base, path, done, label, log)
            except Exception as err:  # keep the other figures; say what failed
                first_visits[label] = None
                log(f"  first visit to {label}: failed: {str(err)[:160]}")
        if not args.no_phone_cold:
            add("phone cold static", "static", "", True, 1, True, timeout_s=120)
            add("phone cold micropython", "mpy", "", True, 1, True, timeout_s=120)
            for var in phone_variants:
                add(f"phone cold pyodide-{var}", "pyodide", var, True, 1, True, timeout_s=300)

    subs = {} if args.no_sub else {**sub_benches(log, site if args.replay else None),
                                   **encounter_benches(site, log)}
    if args.lighthouse:  # alone, after the rest: its Chromium must not share the machine
        subs["Lighthouse mobile (issue 26)"] = lighthouse(site, args.lighthouse_runs, log)
    by = {s.label: s for s in series}
    print(f"Tableside bench: {site} ({'snapshot built' if p.snapshot else 'no snapshot'}); "
          f"calculator {CALC} ({p.weapon}, {p.ap} AP) on /{p.profile}; next page /{p.next}; "
          f"static /{p.static}")
    print(f"medians; desktop n={args.runs}, phone warm n={args.phone_runs}, phone cold n=1; "
          f"phone = CPU x{CPU_SLOWDOWN} + Slow 4G ({SLOW_4G['downloadThroughput'] * 8 / 1e6:.2f} "
          f"Mbps down, {SLOW_4G['latency']:.0f} ms latency); served as GitHub Pages serves "
          f"(gzip by type, max-age=600: scripts/bench/server.py); "
          f"service worker {'on' if args.with_sw else 'blocked (HTTP cache only)'}; "
          f"next page: its link clicked {READ_S:g} s after the first result\n")
    print(table(series))
    print("\nratios (ready time):")
    for line in ratios(by):
        print("  " + line)
    for var in variants:
        print(f"\ntargets ({var}), as ratios to this run's floors:")
        for line in verdicts(by, var):
            print("  " + line)
    pys = {s.summary for x in series for s in x.visits if s.summary and "pyodide" in x.label}
    mps = {s.summary for x in series for s in x.visits if s.summary and "micropython" in x.label}
    same = ("not measured" if not mps else "same" if pys == mps
            else f"DIFFERENT: {sorted(pys)} vs {sorted(mps)}")
    print(f"\nresult line, Pyodide vs MicroPython: {same}")
    for line in ahead.report(site, p.profile):
        print(line)
    for label, mb in first_visits.items():
        fv = "failed" if mb is None else f"{mb:.1f} MB"
        print(f"first visit to {label} with the service worker, until saved offline, "
              f"bytes on the wire: {fv}")
    for s in series:
        for e in s.errors:
            print(f"ERROR {s.label}: {e}")
    for k, v in subs.items():
        print(f"\n== {k} ==\n{v}")
    print(f"\nbench time {time.monotonic() - t_start:.0f} s; load average (1 min) "
          f"{load_start:.1f} at start, {os.getloadavg()[0]:.1f} at end, "
          f"{os.cpu_count()} CPUs; CPU calibration (a fixed Python loop) "
          f"{calib_start:.0f} ms at start, {cpu_calibration_ms():.0f} ms at end")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "plan": asdict(p), "first_visit_mb": first_visits,
        "series": [{"label": s.label, "visits": [asdict(v) for v in s.visits],
                                       "next_ms": s.next_ms, "errors": s.errors} for s in series],
        "sub": subs}, indent=1), "utf-8")
    return 1 if any(s.errors for s in series) else 0


if __name__ == "__main__":
    sys.exit(main())
