"""Benchmark: `gammon convert` of gnubg-written .mat files to SGF and to JSON, against GNU Backgammon
importing the same files and saving each as SGF (``import mat`` + ``save match``).

    python benchmarks/convert.py DIR_WITH_MAT_FILES [--runs N]

(``/work/shared/tools/gnubg-corpus DIR 120`` makes 120 matches in DIR/mat.)  Whole processes, taking
turns so that each sees the same machine, each writing into a fresh directory; the best and the
median of the rounds are printed, with the ratios (ours / gnubg).  A second column gives our work in
this Python process (read, replay, write; no start-up).  The command runs as a user runs it, so it
also replays each record and reports its findings (``--quiet`` would skip that).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import cli_env, gnubg_convert_script, wall

ROOT = Path(__file__).resolve().parents[1]
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")


def in_process(files: list[str], fmt: str, out: Path) -> float:
    """The command's work for each file (``notation.batch.convert_file``: read, replay for the findings it
    reports, write), without its start-up and without its writing 16 files at a time; the cycle
    collector paused, as the command pauses it."""
    sys.path.insert(0, str(ROOT))
    from notation.batch import convert_file
    from notation.parallel import collector_paused

    with collector_paused():  # as the command runs its work
        t = time.perf_counter()
        for f in files:
            convert_file(f, str(out / (Path(f).stem + "." + fmt)), fmt, force=True)
        return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("directory")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    files = sorted(str(p) for p in Path(args.directory).glob("*.mat"))
    env = cli_env()
    gammon = [sys.executable, "-m", "notation", "convert"]  # as a user runs it: validated on the way
    times: dict[str, list[float]] = {"gnubg": [], "sgf": [], "json": []}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for i in range(args.runs + 1):  # the first round warms the caches and is not counted
            round_t: dict[str, float] = {}
            for what in ("gnubg", "sgf", "json"):
                out = base / f"{what}{i}"
                out.mkdir()
                if what == "gnubg":
                    script = base / f"g{i}.txt"
                    script.write_text(gnubg_convert_script(files, out))
                    round_t[what] = wall([GNUBG, "-t", "-q"], stdin=script, check=False)[0]
                else:
                    round_t[what] = wall([*gammon, "--to", what, *files, str(out)], env=env, cwd=ROOT)[0]
                written = len(list(out.iterdir()))
                if written != len(files):
                    print(f"{what}: {written} of {len(files)} files written", file=sys.stderr)
                shutil.rmtree(out)
            if i:
                for k, v in round_t.items():
                    times[k].append(v)
        inproc = {}
        for fmt in ("sgf", "json"):
            out = base / f"in-{fmt}"
            out.mkdir()
            inproc[fmt] = min(in_process(files, fmt, out) for _ in range(3))
    g, g_mid = min(times["gnubg"]), statistics.median(times["gnubg"])
    print(f"{len(files)} files, {args.runs} rounds")
    print(f"gnubg import mat + save match (whole process): best {g:.3f} s, median {g_mid:.3f} s")
    for fmt in ("sgf", "json"):
        lo, mid = min(times[fmt]), statistics.median(times[fmt])
        print(f"gammon convert --to {fmt} (whole process): best {lo:.3f} s, median {mid:.3f} s; "
              f"ratio {lo / g:.2f}x (medians {mid / g_mid:.2f}x); in-process {inproc[fmt]:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
