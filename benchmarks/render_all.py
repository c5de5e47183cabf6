"""Benchmark: `gammon render MATCH --all -o DIR/` as a whole process, per image, against GNU Backgammon
drawing the same positions with ``export position png``.

    python benchmarks/render_all.py [MATCH_FILE] [--rounds 5] [--jobs N] [--gnubg /usr/games/gnubg]

Both sides run as a user runs them, taking turns in the same run (``--rounds`` rounds; best and median):

* ours: ``gammon render MATCH --all -o DIR`` (read, replay, then a PNG of the position before every
  action of every game and of each game's end, 600x486 by default), as it runs by default (one process
  per CPU for 8 diagrams or more) and with ``--jobs 1``;
* gnubg: one ``gnubg -t -q`` process fed ``set board <Position ID>`` and ``export position png FILE``
  for each of the same positions (its default 432x328).

Each side's time per image is its whole process time divided by the number of images (start-up
included).  The in-process column is ``render.png`` for the same positions in this Python process.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import cli_env, gnubg_board_script, wall  # noqa: E402

import render  # noqa: E402
from notation.ids import position_id  # noqa: E402
from notation.matchio import read_match  # noqa: E402
from notation.replay import replay_match  # noqa: E402

GAMMON = [sys.executable, "-m", "notation"]



def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("match", nargs="?", default=str(ROOT / "tests" / "data" / "render_match_7p.mat"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--gnubg", default=os.environ.get("GNUBG", "/usr/games/gnubg"))
    args = ap.parse_args()
    rep = replay_match(read_match(args.match))
    positions = [s.before for g in rep.games for s in g.steps] + [g.end for g in rep.games]
    n = len(positions)
    gnubg = args.gnubg if Path(args.gnubg).exists() else shutil.which("gnubg")
    env = cli_env()
    ours, ours1, theirs = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "gnubg.cmd"
        (Path(tmp) / "g").mkdir()
        script.write_text(gnubg_board_script([position_id(p) for p in positions], Path(tmp) / "g"))
        made = 0
        for r in range(args.rounds):
            for label, times, jobs in (("default", ours, None), ("one", ours1, "1")):
                out = Path(tmp) / f"o{r}{label}"
                cmd = [*GAMMON, "render", args.match, "--all", "-o", str(out)]
                if jobs:
                    cmd += ["--jobs", jobs]
                times.append(wall(cmd, env=env)[0])
                made = len(list(out.iterdir()))
                shutil.rmtree(out)
            if gnubg:
                theirs.append(wall([gnubg, "-t", "-q"], stdin=script)[0])
        g_made = len(list((Path(tmp) / "g").iterdir()))
    t = time.perf_counter()
    for pos in positions:
        render.png(pos)
    inproc = time.perf_counter() - t

    def per(ts: list[float]) -> str:
        return f"best {min(ts) / n * 1000:.2f} ms, median {statistics.median(ts) / n * 1000:.2f} ms an image " \
               f"(process {min(ts):.2f} s, median {statistics.median(ts):.2f} s)"

    print(f"{n} positions from {args.match}; ours wrote {made} files a run")
    print(f"gammon render --all (default):  {per(ours)}")
    print(f"gammon render --all --jobs 1:   {per(ours1)}")
    print(f"in-process render.png:          {inproc / n * 1000:.2f} ms an image")
    if theirs:
        print(f"gnubg export position png:      {per(theirs)}; {g_made} files")
        print(f"ratio (ours / gnubg, per image): default {min(ours) / min(theirs):.2f}x "
              f"(median {statistics.median(ours) / statistics.median(theirs):.2f}x), --jobs 1 "
              f"{min(ours1) / min(theirs):.2f}x (median {statistics.median(ours1) / statistics.median(theirs):.2f}x)"
              f"; target 0.5x")
    else:
        print("gnubg: not found, no comparison")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
