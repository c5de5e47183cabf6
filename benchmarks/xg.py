"""Benchmark: reading and validating eXtreme Gammon ``.xg`` matches against our ``.mat`` time for the
same matches.

    python benchmarks/xg.py [FILE.xg ...] [--runs N]

Without files it takes ../shared/corpus/xg/*.xg (or tests/data/xg_ronde3.xg).  Each match is first
converted to ``.mat`` with our own converter (``gammon convert``'s ``render_match``), so both sides
hold the same games, rolls, plays and cube actions (the ``.mat`` without XG's analysis).  Then, in
the same run, taking turns for ``--runs`` rounds:

* whole process: ``gammon validate --quiet --jobs 1`` on all the ``.xg`` files, and on all the
  ``.mat`` files (one process each: start-up, reading, replay, every check);
* in-process: ``notation.commands.validate.check_file`` on each file (no start-up).

The best and the median of each are printed, with the ratio .xg / .mat (target: at most 1.5).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import notation  # noqa: E402
from notation.commands.validate import check_file  # noqa: E402
from notation.convert import render_match  # noqa: E402


def default_files() -> list[Path]:
    corpus = sorted((ROOT.parent / "shared" / "corpus" / "xg").glob("*.xg"))
    return corpus or [ROOT / "tests" / "data" / "xg_ronde3.xg"]


def to_mat(files: list[Path], out: Path) -> list[Path]:
    mats = []
    for f in files:
        text, _ = render_match(notation.read_match(f), "mat")
        p = out / (f.stem + ".mat")
        p.write_text(text, encoding="utf-8")
        mats.append(p)
    return mats


def _env() -> dict[str, str]:
    """As an installed package runs: compiled modules cached."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "gammon-bench-pycache")
    return env


def whole(files: list[Path]) -> float:
    cmd = [sys.executable, "-m", "notation", "validate", "--quiet", "--jobs", "1", *map(str, files)]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, cwd=ROOT, env=_env(), check=False)
    dt = time.perf_counter() - t0
    if r.returncode not in (0, 1):
        raise SystemExit(f"gammon validate failed ({r.returncode}): {r.stderr.decode()[:300]}")
    return dt


def inproc(files: list[Path]) -> tuple[float, int, int]:
    plays = errors = 0
    t0 = time.perf_counter()
    for f in files:
        r = check_file(str(f))
        plays += r["plays"]
        errors += r["errors"]
    return time.perf_counter() - t0, plays, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    files = args.files or default_files()
    with tempfile.TemporaryDirectory() as tmp:
        mats = to_mat(files, Path(tmp))
        _, plays_xg, err_xg = inproc(files)  # warm-up (parsers built and cached, modules imported)
        _, plays_mat, err_mat = inproc(mats)
        whole(files)
        whole(mats)
        t: dict[str, list[float]] = {"xg whole": [], "mat whole": [], "xg in-process": [], "mat in-process": []}
        for _ in range(args.runs):
            t["xg whole"].append(whole(files))
            t["mat whole"].append(whole(mats))
            t["xg in-process"].append(inproc(files)[0])
            t["mat in-process"].append(inproc(mats)[0])
    size_xg = sum(f.stat().st_size for f in files)
    print(f"{len(files)} matches: {plays_xg} plays counted in the .xg, {plays_mat} in the .mat (a roll before a "
          f"resignation is a play there); {err_xg} errors in the .xg, {err_mat} in the .mat; "
          f".xg files {size_xg / 1024:.0f} KB; {args.runs} rounds")
    print(f"{'':16}{'best':>10}{'median':>10}")
    for k, v in t.items():
        print(f"{k:16}{min(v):9.3f}s{statistics.median(v):9.3f}s")
    for kind in ("whole", "in-process"):
        xs, ms = t[f"xg {kind}"], t[f"mat {kind}"]
        print(f"ratio .xg/.mat, {kind}: best {min(xs) / min(ms):.2f}x, median "
              f"{statistics.median(xs) / statistics.median(ms):.2f}x (target <= 1.5)")
    print(f"in-process: .xg {plays_xg / min(t['xg in-process']):,.0f} plays/s, .mat "
          f"{plays_mat / min(t['mat in-process']):,.0f} plays/s")


if __name__ == "__main__":
    main()
