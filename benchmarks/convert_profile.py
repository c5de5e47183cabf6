"""Where `gammon convert`'s time goes, stage by stage, against the budget gnubg's time leaves it.

    python benchmarks/convert_profile.py DIR_WITH_MAT_FILES [--rounds N] [--profile]

(``/work/shared/tools/gnubg-corpus DIR 120`` makes 120 matches in DIR/mat.)  Prints, for the same files:

* gnubg's whole process (``import mat`` + ``save match`` for each file) and its start-up alone (an empty
  script), hence its time for the work itself;
* our start-up (``gammon --version``) and whole ``convert`` processes, to SGF and to JSON;
* each stage of our work in this process, in seconds and in microseconds an action: reading the
  records (``read_source``), replaying them (findings only, as for JSON; whole, as the SGF writer needs),
  writing the text (SGF, JSON) and putting the files in place (temporary file, data synced, rename);
* a *floor*: the least a pure-Python ``.mat`` to SGF conversion can do (``_floor.py``: one regular
  expression a row, the board as two lists, no check at all, no data model), to show what is left to
  gain in Python at all;
* the budget: the work time a whole process may take, with two processes sharing the files, to match
  gnubg's time, in microseconds an action.

With ``--profile``, the functions that take the most time in each stage (``cProfile``, own time).  The
best of the rounds is printed; the machine is shared, so compare the lines of one run only.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import cli_env, gnubg_convert_script, wall
from _floor import convert_floor

ROOT = Path(__file__).resolve().parents[1]
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")


def best(fn: Callable[[], Any], rounds: int) -> float:
    """The best time of ``fn`` with the cycle collector paused, as the command runs its work."""
    from notation.parallel import collector_paused

    times = []
    for _ in range(rounds):
        with collector_paused():
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
    return min(times)


def top(fn: Callable[[], Any], n: int = 8) -> str:
    """The ``n`` functions of ``fn`` with the most own time (cycle collector paused)."""
    from notation.parallel import collector_paused

    prof = cProfile.Profile()
    with collector_paused():
        prof.enable()
        fn()
        prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(n)
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls"))
    return "\n".join("      " + ln.replace(str(ROOT) + "/", "") for ln in lines[start:])


def processes(files: list[str], rounds: int, base: Path) -> dict[str, list[float]]:
    env = cli_env()
    gammon = [sys.executable, "-m", "notation"]
    times: dict[str, list[float]] = {k: [] for k in ("gnubg", "gnubg start-up", "start-up", "sgf", "json",
                                                      "sgf --jobs 1", "json --jobs 1")}
    empty = base / "empty.txt"
    empty.write_text("")
    for i in range(rounds + 1):  # the first round warms the caches and is not counted
        for what in times:
            out = base / f"out{i}"
            out.mkdir()
            if what == "gnubg":
                script = base / f"g{i}.txt"
                script.write_text(gnubg_convert_script(files, out))
                t = wall([GNUBG, "-t", "-q"], stdin=script, check=False)[0]
            elif what == "gnubg start-up":
                t = wall([GNUBG, "-t", "-q"], stdin=empty, check=False)[0]
            elif what == "start-up":
                t = wall([*gammon, "--version"], env=env, cwd=ROOT)[0]
            else:
                fmt, *jobs = what.split(" ", 1)
                t = wall([*gammon, "convert", "--to", fmt, *(jobs[0].split() if jobs else []), *files, str(out)],
                         env=env, cwd=ROOT)[0]
            shutil.rmtree(out)
            if i:
                times[what].append(t)
    return times


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("directory")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    files = sorted(str(p) for p in Path(args.directory).glob("*.mat"))
    if not files:
        print(f"{args.directory}: no .mat file", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    from notation.batch import _findings, read_source
    from notation.convert import OutputBatch, render_match
    from notation.replay import replay_match

    matches = {f: read_source(f)[0] for f in files}
    actions = sum(len(g.actions) for m in matches.values() for g in m.games)
    plays = sum(1 for m in matches.values() for g in m.games for a in g.actions if a.kind == "move")
    reps = {f: replay_match(m) for f, m in matches.items()}
    texts = {"sgf": {f: render_match(m, "sgf", rep=reps[f])[0] for f, m in matches.items()},
             "json": {f: render_match(m, "json")[0] for f, m in matches.items()}}
    tmp = Path(tempfile.mkdtemp(prefix="gammon-convert-profile-"))
    try:
        def put(fmt: str) -> None:
            out = tmp / "put"
            out.mkdir(exist_ok=True)
            with OutputBatch() as batch:
                for k, f in enumerate(files):
                    batch.add(str(out / (Path(f).stem + "." + fmt)), texts[fmt][f], force=True)
                    if k % 16 == 15:
                        batch.finish()
                batch.finish()

        def floor() -> None:
            out = tmp / "floor"
            out.mkdir(exist_ok=True)
            for f in files:
                (out / (Path(f).stem + ".sgf")).write_text(convert_floor(Path(f).read_text(encoding="utf-8")))

        stages: dict[str, Callable[[], Any]] = {
            "SGF: read (ordinary actions)": lambda: [read_source(f) for f in files],
            "SGF: replay, whole": lambda: [replay_match(m) for m in matches.values()],
            "SGF: write the text": lambda: [render_match(m, "sgf", rep=reps[f]) for f, m in matches.items()],
            "SGF: files in place (16 synced at a time)": lambda: put("sgf"),
            "JSON: replay, findings only": lambda: [_findings(m) for m in matches.values()],
            "JSON: write the text": lambda: [render_match(m, "json") for m in matches.values()],
            "JSON: files in place (16 synced at a time)": lambda: put("json"),
            "floor: .mat to SGF file, no checks": floor,
        }
        cost = {name: best(fn, args.rounds) for name, fn in stages.items()}
        times = processes(files, args.rounds, tmp)
        profiles = {name: top(fn) for name, fn in stages.items() if not name.startswith("floor")} \
            if args.profile else {}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def us(s: float) -> str:
        return f"{s * 1e6 / actions:5.1f} µs an action"

    g = {k: min(v) for k, v in times.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{len(files)} files, {actions:,} actions ({plays:,} moves and rolls), best of {args.rounds} rounds\n")
    print("whole processes")
    print(f"  gnubg import mat + save match   {g['gnubg']:.3f} s (median {med['gnubg']:.3f} s)")
    print(f"  gnubg start-up alone            {g['gnubg start-up']:.3f} s; its work: "
          f"{g['gnubg'] - g['gnubg start-up']:.3f} s, {us(g['gnubg'] - g['gnubg start-up'])}")
    print(f"  gammon --version                {g['start-up']:.3f} s")
    for fmt in ("sgf", "json"):
        print(f"  gammon convert --to {fmt:<4}       {g[fmt]:.3f} s (median {med[fmt]:.3f} s), "
              f"{g[fmt] / g['gnubg']:.2f}x gnubg; --jobs 1 {g[fmt + ' --jobs 1']:.3f} s, "
              f"{g[fmt + ' --jobs 1'] / g['gnubg']:.2f}x")
    print("\nthe work in this process")
    for name, s in cost.items():
        print(f"  {name:<42} {s:.3f} s  {us(s)}")
    need = {fmt: sum(v for k, v in cost.items() if k.startswith(fmt.upper() + ":")) for fmt in ("sgf", "json")}
    budget = 2 * (g["gnubg"] - g["start-up"])
    print(f"  {'sum, to SGF / to JSON':<42} {need['sgf']:.3f} s / {need['json']:.3f} s  "
          f"{us(need['sgf']).strip()} / {us(need['json']).strip()}")
    print(f"\nbudget: two processes matching gnubg's whole time, less our start-up: 2 x ({g['gnubg']:.3f} - "
          f"{g['start-up']:.3f}) = {budget:.3f} s of work, {us(budget).strip()} (no forking or reporting counted)")
    print(f"  our work is {need['sgf'] / budget:.1f}x (SGF) and {need['json'] / budget:.1f}x (JSON) that budget; "
          f"the floor alone is {cost['floor: .mat to SGF file, no checks'] / budget:.1f}x it")
    if profiles:
        print("\nwhere each stage's time goes (cProfile, own time; profiling slows it down about 3x)")
        for name, text in profiles.items():
            print(f"  {name}\n{text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
