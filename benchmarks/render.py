"""Benchmark: PNG diagrams per second at the default size, against GNU Backgammon's ``export position png``.

    python benchmarks/render.py [MATCH_FILE] [--count 100] [--gnubg /usr/games/gnubg]

The positions are real: the position before each of ``--count`` moves spread evenly over a match
(default: ``tests/data/render_match_7p.mat``, a 7-point match played and written by gnubg).  Both
programs draw the same positions in the same run and write one PNG file per position:

* ours: ``render.png(position)`` in this process, default options (medium, 36 px checkers), with
  the file written; the best of three passes, and the first pass (cold caches) on its own;
* gnubg: one ``gnubg -t -q`` process that sets each position (``set board <position ID>``) and
  exports it (``export position png``, its default 432x328); its time per diagram is the time of
  that process minus the time of the same process without the exports, divided by the count.
"""

from __future__ import annotations

import argparse
import base64
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import gnubg_board_script  # noqa: E402

import render  # noqa: E402
from notation.matchio import read_match  # noqa: E402
from notation.position import Position  # noqa: E402
from notation.replay import replay_match  # noqa: E402


def positions_from(path: Path, count: int) -> list[Position]:
    rep = replay_match(read_match(path))
    moves = [s.before for g in rep.games for s in g.steps if s.action.kind == "move"]
    if len(moves) < count:
        raise SystemExit(f"{path} has only {len(moves)} moves")
    step = len(moves) / count
    return [moves[int(i * step)] for i in range(count)]


def gnubg_position_id(pos: Position) -> str:
    """gnubg's Position ID: the opponent's then the roller's 25 slots (points 1..24, bar) in unary."""
    bits: list[int] = []
    for player in (1 - pos.turn, pos.turn):
        b = pos.boards[player]
        for slot in list(range(1, 25)) + [25]:
            bits.extend([1] * b[slot] + [0])
    bits.extend([0] * (80 - len(bits)))
    data = bytes(sum(bits[8 * i + k] << k for k in range(8)) for i in range(10))
    return base64.b64encode(data).decode("ascii")[:14]


def time_ours(positions: list[Position], out: Path) -> tuple[float, float, list[float]]:
    """(first pass, best later pass) in seconds for all positions, and the per-diagram times of the
    best pass."""
    runs: list[tuple[float, list[float]]] = []
    for _ in range(4):
        times = []
        t0 = time.perf_counter()
        for i, pos in enumerate(positions):
            t = time.perf_counter()
            (out / f"ours_{i:03d}.png").write_bytes(render.png(pos))
            times.append(time.perf_counter() - t)
        runs.append((time.perf_counter() - t0, times))
    best = min(runs[1:], key=lambda r: r[0])
    return runs[0][0], best[0], best[1]


def time_gnubg(gnubg: str, ids: list[str], out: Path, export: bool) -> float:
    script = gnubg_board_script(ids, out if export else None, "gnubg_{i:03d}.png")
    t = time.perf_counter()
    subprocess.run([gnubg, "-t", "-q"], input=script, text=True, capture_output=True, check=True)
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("match", nargs="?", default=str(ROOT / "tests" / "data" / "render_match_7p.mat"))
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--gnubg", default=os.environ.get("GNUBG", "/usr/games/gnubg"))
    args = ap.parse_args()
    positions = positions_from(Path(args.match), args.count)
    n = len(positions)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        cold, best, per = time_ours(positions, out)
        size = render.drawing(positions[0]).width, render.drawing(positions[0]).height
        svg_t = time.perf_counter()
        for pos in positions:
            render.svg(pos)
        svg_s = time.perf_counter() - svg_t
        print(f"positions: {n} from {args.match}")
        print(f"ours   PNG {size[0]}x{size[1]}: {best / n * 1000:6.2f} ms a diagram "
              f"({n / best:6.0f} per second; median {statistics.median(per) * 1000:.2f} ms, "
              f"max {max(per) * 1000:.2f} ms; first pass {cold / n * 1000:.2f} ms)")
        print(f"ours   SVG          : {svg_s / n * 1000:6.2f} ms a diagram")
        gnubg = args.gnubg if Path(args.gnubg).exists() else shutil.which("gnubg")
        if not gnubg:
            print("gnubg: not found, no comparison")
            return 0
        ids = [gnubg_position_id(p) for p in positions]
        with_export = min(time_gnubg(gnubg, ids, out, True) for _ in range(3))
        without = min(time_gnubg(gnubg, ids, out, False) for _ in range(3))
        made = len(list(out.glob("gnubg_*.png")))
        g_ms = (with_export - without) / n * 1000
        print(f"gnubg  PNG 432x328: {g_ms:6.2f} ms a diagram ({1000 / g_ms:6.0f} per second; "
              f"process {with_export:.2f} s with exports, {without:.2f} s without; {made} files)")
        print(f"ratio: ours is {g_ms / (best / n * 1000):.1f}x faster per diagram than gnubg "
              f"(and draws {size[0] * size[1] / (432 * 328):.1f}x the pixels)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
