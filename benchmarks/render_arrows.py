"""Benchmark: what routing arrows around checkers costs, per PNG with arrows.

    python benchmarks/render_arrows.py [MATCH_FILE] [--rounds 5]

The positions are real: the position before every move of a match (default
``tests/data/render_match_7p.mat``) with its play as arrows, drawn with ``render.png`` in this
process, in turns with routing and with routing switched off (each arrow its plain arc); the best
and the median of the rounds, per diagram.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from notation.matchio import read_match  # noqa: E402
from notation.replay import replay_match  # noqa: E402

routing = importlib.import_module("render.arrows")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("match", nargs="?", default=str(ROOT / "tests" / "data" / "render_match_7p.mat"))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rep = replay_match(read_match(args.match))
    jobs = [(s.before, [tuple(x) for x in s.play.steps], s.action.dice) for g in rep.games for s in g.steps
            if s.action.kind == "move" and s.play is not None and s.play.steps]
    render.png(jobs[0][0])  # fonts and caches warm
    routed = routing.Arrows.route
    times: dict[str, list[float]] = {"routed": [], "plain arcs": []}
    for _ in range(args.rounds):
        for name in times:
            routing.Arrows.route = routed if name == "routed" else (lambda self, shafts, ghosts: shafts)
            t = time.perf_counter()
            for pos, arrows, dice in jobs:
                render.png(pos, arrows=arrows, dice=dice)
            times[name].append((time.perf_counter() - t) / len(jobs) * 1000)
    routing.Arrows.route = routed
    for name, v in times.items():
        print(f"{name:>10}: best {min(v):.2f} ms, median {statistics.median(v):.2f} ms per PNG "
              f"({len(jobs)} diagrams with arrows, {args.rounds} rounds)")


if __name__ == "__main__":
    main()
