"""Legal-play generation speed: ours (``Rules.plays_for``) against GNU Backgammon's ``findbestmoves``.

Every one of the 21 rolls over the fixed set of real positions in ``tests/data/movegen_positions.tsv``
(3,000 positions from human and gnubg self-play games, see ``tests/data/movegen_generate.py``)::

    /tmp/venv/bin/python benchmarks/movegen.py [--rounds 3] [--positions N] [--chunk 50]

*Cold*: each round starts with our caches cleared (``notation.rules.clear_caches()``, which includes
``_cached_plays.cache_clear()``) and gnubg's evaluation cache cleared (``clear cache``).  The two
generators run on the same positions in the same process, interleaved chunk by chunk (who goes
first alternates) so that load from other processes hits both alike.  gnubg's figure includes its
0-ply evaluation of every play, which ``findbestmoves`` always does; it is the fastest complete
list of legal plays its Python bindings offer.

*Warm* (reported separately): each position's 21 rolls are asked twice and only the second pass
is timed, so our answers come from the play cache (it keeps the last 32 queries, which is what a
replay asking about the same roll again needs) and gnubg's evaluations from its own cache.

Times are CPU time of this process (``time.process_time``), which other jobs on a shared machine
disturb far less than the wall clock; the wall-clock ratio is printed too.  The ratio is
ours_time / gnubg_time: below 1.0 means we are faster.  Both sides must find the same
number of plays, or the benchmark says so and exits with status 1.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from notation.rules import ALL_ROLLS, clear_caches, get_rules  # noqa: E402

_spec = importlib.util.spec_from_file_location("movegen_data", ROOT / "tests" / "data" / "movegen_data.py")
assert _spec is not None and _spec.loader is not None
movegen_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(movegen_data)

try:
    import gnubg
except ImportError:  # pragma: no cover - the comparison needs the bindings
    gnubg = None

Board = tuple[int, ...]
Pair = tuple[Board, Board]


def run_ours(chunk: list[Pair]) -> tuple[float, float, int]:
    plays_for = get_rules("standard").plays_for
    n = 0
    t, w = time.process_time(), time.perf_counter()
    for mine, theirs in chunk:
        for d1, d2 in ALL_ROLLS:
            n += len(plays_for(mine, theirs, d1, d2))
    return time.process_time() - t, time.perf_counter() - w, n


def run_gnubg(chunk: list[object]) -> tuple[float, float, int]:
    assert gnubg is not None
    find = gnubg.findbestmoves
    ci, ec = gnubg.cubeinfo(), gnubg.evalcontext()
    n = 0
    t, w = time.process_time(), time.perf_counter()
    for board in chunk:
        for roll in ALL_ROLLS:
            n += len(find(board, ci, ec, roll))
    return time.process_time() - t, time.perf_counter() - w, n


def chunks(seq: list, size: int) -> list[list]:
    return [seq[i:i + size] for i in range(0, len(seq), size)]


def one_round(ours: list[Pair], theirs: list[object], size: int, warm: bool) -> dict[str, float]:
    clear_caches()
    if gnubg is not None:
        gnubg.command("clear cache")
    tot = {"ours": 0.0, "gnubg": 0.0, "wall_ours": 0.0, "wall_gnubg": 0.0, "n_ours": 0, "n_gnubg": 0}
    gc.collect()
    for i, (co, cg) in enumerate(zip(chunks(ours, size), chunks(theirs, size), strict=True)):
        order = ("ours", "gnubg") if i % 2 == 0 else ("gnubg", "ours")
        for who in order:
            if who == "gnubg" and gnubg is None:
                continue
            run = run_ours if who == "ours" else run_gnubg
            arg = co if who == "ours" else cg
            if warm:
                run(arg)  # type: ignore[arg-type]
            dt, wall, n = run(arg)  # type: ignore[arg-type]
            tot[who] += dt
            tot["wall_" + who] += wall
            tot["n_" + who] += n
    return tot


def report(label: str, rounds: list[dict[str, float]], pairs: int) -> bool:
    ok = True
    print(f"\n{label}: {pairs} (position, roll) pairs per round")
    ratios = []
    for r, tot in enumerate(rounds, 1):
        line = f"  round {r}: ours {tot['ours']:.3f}s, {tot['n_ours'] / tot['ours']:,.0f} plays/s"
        if gnubg is not None:
            ratio = tot["ours"] / tot["gnubg"]
            ratios.append(ratio)
            line += (f"; gnubg {tot['gnubg']:.3f}s, {tot['n_gnubg'] / tot['gnubg']:,.0f} plays/s;"
                     f" ratio ours/gnubg {ratio:.2f} (wall clock {tot['wall_ours'] / tot['wall_gnubg']:.2f})")
            if tot["n_ours"] != tot["n_gnubg"]:
                line += f"  PLAY COUNTS DIFFER: {tot['n_ours']} vs {tot['n_gnubg']}"
                ok = False
        print(line)
    print(f"  plays per round: {int(rounds[0]['n_ours']):,}")
    if ratios:
        print(f"  median ratio ours/gnubg: {statistics.median(ratios):.2f}")
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--positions", type=int, default=0, help="use only the first N positions")
    ap.add_argument("--chunk", type=int, default=50, help="positions per interleaved chunk")
    ap.add_argument("--no-warm", action="store_true", help="skip the warm measurement")
    args = ap.parse_args(argv)

    rows = movegen_data.load_positions()
    if args.positions:
        rows = rows[:args.positions]
    ours = [(mine, theirs) for _pid, mine, theirs, _src in rows]
    theirs = [gnubg.positionfromid(pid) for pid, *_ in rows] if gnubg is not None else [None] * len(rows)
    if gnubg is None:
        print("gnubg Python bindings not installed: timing ours only")
    pairs = len(rows) * len(ALL_ROLLS)
    print(f"{len(rows)} real positions x {len(ALL_ROLLS)} rolls; chunks of {args.chunk} positions, "
          f"interleaved")
    ok = report("COLD (caches cleared at the start of each round)",
                [one_round(ours, theirs, args.chunk, warm=False) for _ in range(args.rounds)], pairs)
    if not args.no_warm:
        ok &= report("WARM (each position's 21 rolls asked twice, the second pass timed)",
                     [one_round(ours, theirs, 1, warm=True) for _ in range(args.rounds)], pairs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
