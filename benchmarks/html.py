"""Benchmark: the match page (``gammon convert MATCH out.html``): size, write time, browser time to the
first position; GNU Backgammon's ``export match html`` in the same run.

    python benchmarks/html.py [MATCH_FILE] [--runs 3] [--screenshots] [--against REF]
    python benchmarks/html.py --archive [DIR] [--runs 1]

Default match: a 25-point match of 865 actions (791 plays, 22 games) from ../shared/corpus.

* page size in bytes, of that match and of a 17-point match of 717 actions (743 positions; target: at
  most 400 KB); with ``--against REF`` (a git revision, e.g. ``main``), the pages the code of REF writes
  for the same matches, side by side (REF is unpacked with ``git archive`` into a temporary folder);
* ``gammon convert MATCH out.html`` as a whole process (start-up, read, replay, layout of every
  position, write), best and median of ``--runs`` (target: under 2 s); the same work in this process;
* headless Chromium (Debian's, driven by Playwright): from ``goto`` to the board carrying the first
  position's XGID, and the page's own timing (DOMContentLoaded: the script that draws the first
  position has run; first contentful paint), median of ``--runs`` fresh pages (target: under 1 s);
* gnubg: one ``gnubg -t -q`` process that imports the match and runs ``export match html``, minus the
  same process without the export; its output size (the HTML files and the images it writes beside them).

``--archive [DIR]`` measures ``gammon validate --html`` on an archive instead (default: every .mat
transcript of ../shared/corpus/mat, whatever its extension; 147 files), each command as a whole process,
best and median of ``--runs``, side by side in one run: plain ``gammon validate -q DIR``; with ``--html
r.html`` (a page for every file, each written by the worker process that checked it); and with
``--html-only-findings`` (pages only for the files with an error printed, ``-q``); with the pages'
count and size (target: ``--html`` at most 5x plain ``validate``).

Measured 2026-11-27 16:52-17:03 UTC on the 2-core machine while the full test suite and other helpers
ran (load average 4-7; figures to be taken again on a quiet machine), 147 files: plain ``validate -q``
3.3-3.7 s in three runs (11.0 s in the benchmark's own round, a load spike); ``--html`` 375 s, 148 pages,
24.6 MB: about 100x plain ``validate`` (34x against the spiked round); target 5x **not met**; before
this change (every page written by the main process after the checking), 321 s against 3.1 s, also
loaded.  ``-q --html-only-findings`` 4.6-6.3 s, 4 pages, 0.3 MB: 1.7x.  Where the time goes: a
match page costs about 10 ms a position, 60% of it in ``render.arrows`` routing the arrows around
checkers and each other, most of the rest in ``render.layout``; the pages are written by the worker
processes, so the time divides by the free cores, not more.

Measured again 2026-11-27 20:24-20:29 UTC (load average about 2 on the 2 cores), the same 147 files, each
command once or twice in turn: ``--html`` 83 s and 89 s against 134 s for the code of main (52e9b4b), the
same 148 pages byte for byte (24.6 MB); plain ``validate -q`` 0.9-1.4 s: about 65x, target 5x still
**not met**.  In-process, the 25-point match's page went from 5.6 to 3.1 ms a position: the empty board,
stacks, dice, cube and texts are made once per page and found again by identity (``render.layout._Parts``),
and arrow routing costs a candidate curve only when its search reaches it, with its obstacles, crossings
and flattened curves made once (``render.arrows``).  Memoising whole routes does not pay: of 6,452 routes
in 30 files, 6,307 had distinct inputs (the play's steps and the stacks near its path, 6,304).  What is
left: routing is about half of a page (``Arrows._over`` its largest part), the page's SVG units
(``render.html._shapes``) about a fifth.

Measured 2026-12-02 05:40-06:05 UTC (load average 8-14 on the 2 cores), issue 37's page budget: the
routing search bounds a candidate curve's cost from 4 of its 17 samples before testing the rest (a third
of the candidates reached stop there), asks whether two candidates cross and which samples of one run
close to the other once per pair (later rounds asked again), and makes an arrow's unit once per board
geometry (a quarter of a match's arrows recur).  Routing alone, the 570 routes of the 17-point match
replayed in one process, old and new code in turn, each route's answer compared: 1.34 s to 1.05 s (best
of 5).  ``gammon convert`` as a whole process, user+sys CPU, the code before and after in turn, 5 rounds,
medians: the 17-point page 3.20 s to 3.05 s, the 25-point page 4.66 s to 4.60 s; the pages byte for
byte, and those of 10 other corpus records (Galaxy, Studio, gnubg, DailyGammon, XG text, gnubg SGF, XG
binary).  Target (under 2 s) **not met**: a page without arrows costs 0.46 s, so the arrows (routing,
their shapes, their SVG) are still about three quarters of the page; routing the same (position, play)
once does not pay inside a page either (561 distinct of 570 routes in the 17-point match).

Measured 2026-12-02 09:00-09:02 UTC (load average 8-13 on the 2 cores), issue 37's page budget again, each
side a whole ``gammon convert`` process, user+sys CPU, 6 rounds in turn against the code of ba718b9 (farm
timing, medians): the 17-point match 1.42 s against 1.63 s (0.87x, every pair under 1.0x; wall 4.0 s
against 4.5 s), the 7-game match of ``../shared/corpus/mat/dueller/002-gnubg-BGBlitz_7-pt_19_gnubg.mat``
1.03 s against 1.09 s (0.96x); started with every module compiled at each start (below), the 17-point
match 1.80 s against 2.01 s (0.91x, 4 rounds); under callgrind, one process making the 17-point page ran
6% fewer instructions than ba718b9 half-way through this work.  The change: the route search refines no
candidate's bound past the best so far and asks crossings only while under it (12% fewer samples), each
obstacle bin holds the boxes reaching into it, a curve's length and its samples close to another curve are
found in plain loops, a coordinate's page code is remembered by its text, and a board's greyness is found
only when a PNG asks.  The 17-point page is under 2 s when the modules are
compiled once, as an installed package has them: this machine's environment sets
PYTHONDONTWRITEBYTECODE, so a process started plainly compiles every module at each start (about 0.5 s of
CPU: 1.97 s against 1.49 s; the 3.0-3.6 s of the issue and of the round above were taken so), and the process
timing here now runs the command as the other benchmarks do (``_common.cli_env``), after one round not
counted.  gnubg, ``import mat`` and ``export match html`` as one process: 0.13 s CPU (17-point) and
0.11 s (7-game), medians of 5: the budget of at most 2x gnubg's export is **not met** (about 11x and
9x).  What is left: the page itself is about 1.2-1.3 s of CPU for the 17-point match, routing the arrows
half of it (the search's samples and crossings), the page's SVG units and the layout of each position
the rest.

Measured 2026-12-02 11:10-12:10 UTC (load average 3-7 on the 2 cores, so counted in instructions too), against
main as of 254fcec, the pages of 37 corpus records (.mat, .txt, SGF, XG) the same bytes: an arrow's tip, head
and shaft end found by Newton's method in a bracket instead of 40 bisections (2,912 searches a 17-point
page; 68 ms to 24 ms for 3,000), an arrow's obstacles binned only where a sample falls (a quarter of the
bins), a candidate's samples tested only until they reach the search's limit (181,098 to 170,333), a
sample's point with its weights computed once for x and y, two segments' crossing test written out, the
shaft's flattening weights made once, and ``notation.statistics`` imported for an analysed record only.
One whole ``gammon convert`` process under callgrind, bytecode cached: the 17-point match 7.27 G to 6.47 G
instructions (-11%), the 7-game match of ``dueller/002-gnubg-BGBlitz_7-pt_19_gnubg.mat`` 4.69 G to 4.20 G
(-10%); this benchmark's own run (``--against main``, half-way): ``match_page`` 0.62 s CPU against 0.69 s;
user+sys of the whole process, medians of 8 alternating with main at 12:12 (load average 3.5-4): 0.74 s
against 0.80 s (17-point) and 0.51 s against 0.54 s (7-game).  gnubg (``import mat`` and ``export match
html``, after a first run that copies its images): 0.08-0.09 s CPU and 0.07 s: about 9x and 7x, the 2x
budget **not met**.  Tried and not kept: tests of a bound in finer steps (fewer samples, more calls:
no faster), the obstacles made once per board and patched per arrow (a board has about two arrows: no
faster), a crossing test that first drops the pieces outside the other curve's box (1 ms a page).
Routing the same (position, play) once does not pay inside a page (561 distinct of 570 routes).  What is
left: in process, the 17-point page is about 0.6 s of CPU, routing a half (its samples about a quarter of
that, crossings, flattened candidates and the curves' lengths most of the rest), the page's SVG units a
fifth (each distinct arrow written as SVG and cut into its shape by regular expression), the layout of
each position most of the rest; start-up and imports about 0.15 s.

``--floor [DIR]`` lays out every page position of the archive's first 30 records in this process, as the
page does, three ways: arrows routed (what pages do), each arrow its plain arc, no arrows; and, with the
archive's count of page positions and plain ``validate``'s time, the least ``--html`` could take if a page
cost only that.  Measured 2026-11-28 (1 round of the 147 files, 38,847 page positions, 2 CPUs): see
docs/performance.md.

``--screenshots`` also writes samples/figures/html_desktop.png, html_phone.png, html_desktop_dark.png,
html_findings.png (a page with findings) and html_analysis.png (a candidate table: made-up figures), and
each kind of page at each width the pages are made to fit (360, 390, 768 and 1400 px, the top 800 px):
html_fit_match_W.png (a finding), html_fit_analysed_W.png (an eXtreme Gammon match's own analysis),
html_fit_report_W.png (``validate --html``), saved with 64 colours; each is checked for a horizontal
scroll.
The machine may be loaded by other work: compare the columns of one run, not runs of different days.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# this script's folder comes first on sys.path, and this file's name would hide the standard ``html``
sys.path[:] = [str(ROOT)] + [x for x in sys.path if Path(x or ".").resolve() != Path(__file__).parent]

from benchmarks._common import cli_env  # noqa: E402
from notation.matchio import read_match  # noqa: E402
from notation.replay import replay_match  # noqa: E402
from render.html import match_page  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "corpus" / "mat" / "bglib_nori" / "srv_Kaneko-nori-2009Jan142040.txt"
SEVENTEEN = ROOT.parent / "shared" / "corpus" / "mat" / "historic" / "seidel-dwek_florida-1981_17p.txt"
"""A 17-point match of 717 actions in 26 games (743 page positions): the issue's size target."""
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


def gammon_cmd() -> list[str]:
    exe = Path(sys.executable).parent / "gammon"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "notation.cli"]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def time_process(cmd: list[str], runs: int, env: dict[str, str] | None = None) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of ``runs`` whole processes, after one not counted: as an
    installed package runs, its modules compiled once (:func:`benchmarks._common.cli_env`; where
    PYTHONDONTWRITEBYTECODE is set, every start compiled every module: about 1 s of a page's 3)."""
    env = env or cli_env()
    subprocess.run(cmd, check=True, capture_output=True, timeout=600, env=env)
    walls, cpus = [], []
    for _ in range(runs):
        c, t = _children_cpu(), time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, timeout=600, env=env)
        walls.append(time.perf_counter() - t)
        cpus.append(_children_cpu() - c)
    return walls, cpus


def time_in_process(src: Path, out: Path, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        m = read_match(src)
        out.write_text(match_page(m, replay_match(m)), encoding="utf-8")
        times.append(time.perf_counter() - t)
    return times


_PAGE = """import sys, time
from notation.matchio import read_match
from notation.replay import replay_match
from render.html import match_page
m = read_match(sys.argv[1]); rep = replay_match(m)
best = None
for _ in range(int(sys.argv[2])):
    t = time.process_time(); page = match_page(m, rep); t = time.process_time() - t
    best = t if best is None else min(best, t)
print(len(page.encode("utf-8")), best)
"""


def page_sizes(srcs: list[Path], runs: int, against: str | None, tmp: Path) -> list[str]:
    """For each match: the page's size and the CPU time of ``match_page`` (best of ``runs``) with this
    tree's code and, with ``against``, with the code of that git revision (both in this run)."""
    trees = [("this tree", ROOT)]
    if against is not None:
        ref = tmp / "against"
        ref.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", against], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(ref)], input=archive, check=True)
        trees.append((against, ref))
    rows = []
    for src in srcs:
        cells = []
        for _name, tree in trees:
            out = subprocess.run([sys.executable, "-c", _PAGE, str(src), str(runs)], capture_output=True, text=True,
                                 check=True, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}).stdout.split()
            cells.append(f"{int(out[0]) / 1e3:,.0f} KB ({float(out[1]):.2f} s)")
        rows.append(f"  {src.name}: " + " | ".join(cells))
    return ["page size (match_page CPU time, best of the runs): " + " | ".join(name for name, _ in trees), *rows]


def browser_times(page_path: Path, runs: int, shots: Path | None) -> dict[str, float] | str:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "playwright not installed"
    if not Path(CHROMIUM).exists():
        return "no chromium"
    walls, dcl, fcp = [], [], []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(runs):
            page = b.new_page(viewport={"width": 1280, "height": 800})
            t = time.perf_counter()
            page.goto(page_path.as_uri(), wait_until="commit")
            page.wait_for_function("document.getElementById('board') && "
                                   "document.getElementById('board').dataset.xgid !== ''", polling=5)
            walls.append(time.perf_counter() - t)
            page.wait_for_load_state("load")
            nav = page.evaluate("(() => {const n = performance.getEntriesByType('navigation')[0];"
                                "const f = performance.getEntriesByName('first-contentful-paint')[0];"
                                "return [n.domContentLoadedEventEnd, f ? f.startTime : -1];})()")
            dcl.append(nav[0] / 1000)
            fcp.append(nav[1] / 1000)
            page.close()
        if shots is not None:
            for name, w, h, scheme in (("desktop", 1280, 800, "light"), ("phone", 390, 844, "light"),
                                       ("desktop_dark", 1280, 800, "dark")):
                page = b.new_page(viewport={"width": w, "height": h}, color_scheme=scheme)
                page.goto(page_path.as_uri() + "#g2m5")
                page.wait_for_function("document.getElementById('board').dataset.xgid !== ''")
                page.screenshot(path=str(shots / f"html_{name}.png"))
                page.close()
        b.close()
    return {"wall": statistics.median(walls), "dcl": statistics.median(dcl), "fcp": statistics.median(fcp)}


def more_screenshots(shots: Path, tmp: Path) -> None:
    """A page with findings (samples/illegal_plays.mat at 98:38) and one with a candidate table (made-up
    figures attached to one play of samples/gnubg_selfplay_7p.mat, labelled so)."""
    from playwright.sync_api import sync_playwright

    from notation.analysis import Analysis, Candidate, CheckerAnalysis, Probabilities
    from notation.commands.validate import check_file, write_report
    from notation.matchio import read_any

    pages = []
    m = read_match(ROOT / "samples" / "illegal_plays.mat")
    (tmp / "f.html").write_text(match_page(m), encoding="utf-8")
    pages.append(("findings", tmp / "f.html", "#L98:38"))
    m = read_match(ROOT / "samples" / "gnubg_selfplay_7p.mat")
    rep = replay_match(m)
    st = next(s for s in rep.games[0].steps[6:] if s.action.kind == "move" and s.play and s.play.steps)
    made = st.play.notation()
    st.action.analysis = Analysis(checker=CheckerAnalysis((
        Candidate("13/7 8/7" if made != "13/7 8/7" else "24/18 13/11", 0.112, Probabilities(0.54, 0.14), "4-ply"),
        Candidate(made, 0.071, Probabilities(0.53, 0.13), "4-ply"),
        Candidate("24/14", -0.035, Probabilities(0.50, 0.12), "2-ply"))),
        luck=0.12, luck_rating="lucky", producer="made-up figures (a screenshot fixture)")
    (tmp / "a.html").write_text(match_page(m, rep), encoding="utf-8")
    pages.append(("analysis", tmp / "a.html", f"#{_anchor_of(rep, st)}"))
    fit = [("match", tmp / "f.html", "#L98:38")]
    m = read_any(str(ROOT / "tests" / "data" / "xg_ronde3.xg"))[0]
    rep = replay_match(m)
    st = next(s for s in rep.games[0].steps[8:] if s.action.analysis is not None and s.action.analysis.checker)
    (tmp / "x.html").write_text(match_page(m, rep), encoding="utf-8")
    fit.append(("analysed", tmp / "x.html", f"#{_anchor_of(rep, st)}"))
    files = [str(ROOT / "samples" / n) for n in ("dutch_5point.mat", "illegal_plays.mat", "hyper1_5point.mat")]
    write_report(str(tmp / "report.html"), [check_file(f) for f in files + [str(ROOT / "tests/data/xg_ronde3.xg")]])
    fit.append(("report", tmp / "report.html", ""))
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, path, frag in pages:
            page = b.new_page(viewport={"width": 1280, "height": 900})
            page.goto(path.as_uri() + frag)
            page.wait_for_function("document.getElementById('board').dataset.xgid !== ''")
            page.screenshot(path=str(shots / f"html_{name}.png"))
            page.close()
        for name, path, frag in fit:
            for width in (360, 390, 768, 1400):
                page = b.new_page(viewport={"width": width, "height": 800})
                page.goto(path.as_uri() + frag)
                page.wait_for_load_state("load")
                wide = page.evaluate("document.documentElement.scrollWidth")
                if wide > width:
                    print(f"html_fit_{name}_{width}.png: the page is {wide} px wide")
                shot = shots / f"html_fit_{name}_{width}.png"
                page.screenshot(path=str(shot))
                page.close()
                few_colours(shot)
        b.close()


def _anchor_of(rep, step) -> str:  # type: ignore[no-untyped-def]
    from render.html import step_anchor

    seen: set[str] = set()
    for g in rep.games:
        for i, s in enumerate(g.steps, 1):
            a = step_anchor(g.game.number, s.action, i, seen)
            if s is step:
                return a
    return ""


def few_colours(path: Path) -> None:
    """A screenshot saved with 64 colours (a third of the bytes; it looks the same): twelve of them are
    kept in the repository."""
    from PIL import Image

    with Image.open(path) as im:
        q = im.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    q.save(path, optimize=True)


def gnubg_time(src: Path, tmp: Path) -> tuple[float, int, int, float, float] | str:
    if not (Path(GNUBG).exists() or shutil.which("gnubg")):
        return "gnubg not installed"
    gdir = tmp / "gnubg"
    gdir.mkdir()

    def run(export: bool) -> tuple[float, float]:
        cmds = f'import mat "{src}"\n'
        if export:
            cmds += f'export match html "{gdir / "match.html"}"\n'
        script = tmp / ("with.txt" if export else "without.txt")
        script.write_text(cmds + "quit\ny\n")
        c, t = _children_cpu(), time.perf_counter()
        subprocess.run([GNUBG, "-t", "-q", "-c", str(script)], capture_output=True, timeout=600,
                       stdin=subprocess.DEVNULL)
        return time.perf_counter() - t, _children_cpu() - c

    base = min(run(False) for _ in range(2))
    full = min(run(True) for _ in range(2))
    whole = sorted(run(True) for _ in range(3))[1]
    files = [f for f in gdir.rglob("*") if f.is_file()]
    return full[0] - base[0], sum(f.stat().st_size for f in files), len(files), whole[0], whole[1]


ARCHIVE = ROOT.parent / "shared" / "corpus" / "mat"


def archive_times(archive: Path, runs: int) -> None:
    """``validate`` against ``validate --html`` (all pages; pages of the files with errors) on an archive,
    as whole processes, the runs of each interleaved (the machine's load falls on every column alike)."""
    files = sorted(p for p in archive.rglob("*") if p.is_file())
    cmds = {"validate": [], "--html": ["--html"], "--html-only-findings": ["--html", "--html-only-findings"]}
    times: dict[str, list[float]] = {k: [] for k in cmds}
    sizes: dict[str, tuple[int, int]] = {}
    for _ in range(runs):
        for label, extra in cmds.items():
            with tempfile.TemporaryDirectory() as d:
                cmd = [*gammon_cmd(), "validate", "-q", str(archive)]
                if extra:
                    cmd += [extra[0], str(Path(d) / "r.html"), *extra[1:]]
                t = time.perf_counter()
                r = subprocess.run(cmd, capture_output=True, timeout=3600, env=cli_env())
                times[label].append(time.perf_counter() - t)
                if r.returncode not in (0, 1):
                    raise SystemExit(f"{' '.join(cmd)}: status {r.returncode}: {r.stderr.decode()[-500:]}")
                pages = list(Path(d).rglob("*.html"))
                sizes[label] = (len(pages), sum(p.stat().st_size for p in pages))
    base = statistics.median(times["validate"])
    print(f"archive: {archive} ({len(files)} files), {runs} rounds, `gammon validate -q`, whole processes")
    for label, ts in times.items():
        n, size = sizes[label]
        print(f"  {label:22s} best {min(ts):7.2f} s, median {statistics.median(ts):7.2f} s "
              f"({statistics.median(ts) / base:5.1f}x validate; best {min(ts) / min(times['validate']):5.1f}x)"
              + (f"; {n} pages, {size / 1e6:.1f} MB" if n else ""))
    print("  (target: --html at most 5x validate; one run on a shared, loaded machine)")


def floor(archive: Path, rounds: int) -> None:
    """What a match page costs a position, by part, in this process, over every page position of the
    archive's first 30 records (each laid out by :class:`render.html._Boards` as the page lays it out):
    with its arrows routed (what pages do), with each arrow its plain arc (routing switched off, as
    ``render_arrows.py`` does), and with no arrows at all; best of ``rounds``.  With the archive's count
    of page positions and plain ``validate``'s time (one process per CPU), the least ``--html`` could
    take if a page cost only that: the lower bound each way of drawing the pages puts on the 5x target."""
    import importlib

    from notation.matchio import read_match as read
    from render.html import _board_options, _Boards

    routing = importlib.import_module("render.arrows")
    files = sorted(p for p in archive.rglob("*") if p.is_file())
    positions = 0
    sample: list[tuple[object, dict[str, object]]] = []
    for k, f in enumerate(files):
        try:
            rep = replay_match(read(f))
        except ValueError:
            continue
        for g in rep.games:
            positions += len(g.steps) + 1
            if k < 30:
                sample += [(st.before, _board_options(st)) for st in g.steps]
    routed = routing.Arrows.route
    per: dict[str, float] = {}
    try:
        for label in ("routed", "plain arcs", "no arrows"):
            routing.Arrows.route = routed if label == "routed" else (lambda self, shafts, ghosts: shafts)
            jobs = sample if label != "no arrows" else [(p, {k: v for k, v in o.items() if k != "arrows"})
                                                       for p, o in sample]
            best = float("inf")
            for _ in range(rounds):
                boards = _Boards()
                t = time.process_time()
                for pos, opts in jobs:
                    boards.add(pos, opts)
                best = min(best, time.process_time() - t)
            per[label] = best / len(jobs)
    finally:
        routing.Arrows.route = routed
    cpus = os.cpu_count() or 1
    t = time.perf_counter()
    subprocess.run([*gammon_cmd(), "validate", "-q", str(archive)], capture_output=True, timeout=600, env=cli_env())
    plain = time.perf_counter() - t
    print(f"archive: {archive} ({len(files)} files, {positions} page positions); {len(sample)} positions laid "
          f"out, best of {rounds}; plain `validate -q` {plain:.2f} s ({cpus} CPUs)")
    for label, v in per.items():
        least = plain + positions * v / cpus
        print(f"  {label:11s} {v * 1e3:6.3f} ms a position: --html at least {least:6.1f} s = {least / plain:5.1f}x "
              f"plain validate (target 5x)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("match", nargs="?", default=str(DEFAULT))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--screenshots", action="store_true", help="write samples/figures/html_*.png")
    ap.add_argument("--against", metavar="REF", help="also the pages of git revision REF (e.g. main), side by side")
    ap.add_argument("--archive", nargs="?", const=str(ARCHIVE), metavar="DIR",
                    help="time `validate --html` on an archive against plain `validate` (and nothing else)")
    ap.add_argument("--floor", nargs="?", const=str(ARCHIVE), metavar="DIR",
                    help="what a page costs a position, by part, and the least --html could take on the archive")
    a = ap.parse_args()
    if a.floor is not None:
        floor(Path(a.floor), max(a.runs, 1))
        return
    if a.archive is not None:
        archive_times(Path(a.archive), a.runs)
        return
    src = Path(a.match)
    if not src.is_file():
        raise SystemExit(f"{src}: not found (give a match file)")
    m = read_match(src)
    rep = replay_match(m)
    actions = sum(len(g.steps) for g in rep.games)
    print(f"match: {src.name}: {m.length}-point, {len(rep.games)} games, {actions} actions, {rep.plays} plays")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        out = tmp / "out.html"
        proc, proc_cpu = time_process([*gammon_cmd(), "convert", str(src), str(out), "--force", "-q"], a.runs)
        size = out.stat().st_size
        inproc = time_in_process(src, tmp / "in.html", a.runs)
        shots = ROOT / "samples" / "figures" if a.screenshots else None
        br = browser_times(out, a.runs, shots)
        if shots is not None and not isinstance(br, str):
            more_screenshots(shots, tmp)
        gn = gnubg_time(src, tmp)
        more = [SEVENTEEN] if SEVENTEEN.is_file() and SEVENTEEN.resolve() != src.resolve() else []
        sizes = page_sizes([src] + more, a.runs, a.against, tmp)
    print(f"page size:            {size / 1e6:.2f} MB (target <= 3 MB)")
    print(f"convert (process):    best {min(proc):.2f} s, median {statistics.median(proc):.2f} s wall; CPU best "
          f"{min(proc_cpu):.2f} s, median {statistics.median(proc_cpu):.2f} s (target < 2 s)")
    print(f"convert (in-process): best {min(inproc):.2f} s, median {statistics.median(inproc):.2f} s")
    if isinstance(br, str):
        print(f"chromium:             skipped ({br})")
    else:
        print(f"chromium first position: {br['wall']:.2f} s from goto (DOMContentLoaded {br['dcl']:.2f} s, "
              f"first paint {br['fcp']:.2f} s) (target < 1 s)")
    if isinstance(gn, str):
        print(f"gnubg:                skipped ({gn})")
    else:
        print(f"gnubg export match html: {gn[0]:.2f} s (process minus import-only process), "
              f"{gn[2]} files, {gn[1] / 1e6:.2f} MB; the whole process (import and export) {gn[3]:.2f} s wall, "
              f"{gn[4]:.2f} s CPU (median of 3)")
    print("\n".join(sizes) + " (target for the 17-point match: <= 400 KB)")
    print("(one run on a shared, loaded machine: compare columns of the same run)")


if __name__ == "__main__":
    main()
