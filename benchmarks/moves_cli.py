"""`gammon moves - --all-rolls` as a whole process, next to GNU Backgammon listing the same plays.

gnubg's side is a Python process that imports the gnubg bindings, reads the same Position IDs and
calls ``findbestmoves`` for each of the 21 rolls (it also scores each play at 0-ply): start-up
included, as ours is.  Both sides run in turns, several rounds; best and median are printed.  Ours
runs as a user runs it (one process per CPU for an input this large) and with ``--jobs 1`` (one
process; the output must be the same bytes).  A second column gives our library in-process (no
start-up, no output).

    python benchmarks/moves_cli.py [N_POSITIONS] [ROUNDS]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import cli_env, wall

ROOT = Path(__file__).resolve().parents[1]
GAMMON = [sys.executable, "-m", "notation"]
GNUBG_SCRIPT = r"""
import sys, gnubg
ci, ec = gnubg.cubeinfo(), gnubg.evalcontext()
rolls = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]
n = 0
for line in open(sys.argv[1]):
    pid = line.strip()
    if not pid:
        continue
    board = gnubg.positionfromid(pid)
    for d in rolls:
        n += len(gnubg.findbestmoves(board, ci, ec, d))
print(n)
"""


def timed(cmd: list[str], stdin: Path | None = None) -> tuple[float, bytes]:
    return wall(cmd, stdin=stdin, env=cli_env())


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rows = [ln.split("\t")[0] for ln in (ROOT / "tests" / "data" / "movegen_positions.tsv").read_text().splitlines()
            if ln and not ln.startswith("#")][:n]
    with tempfile.TemporaryDirectory() as d:
        ids = Path(d) / "ids.txt"
        ids.write_text("\n".join(rows) + "\n")
        script = Path(d) / "g.py"
        script.write_text(GNUBG_SCRIPT)
        try:
            import gnubg  # noqa: F401
            have_gnubg = True
        except ImportError:
            have_gnubg = False
        ours, ours_json, theirs = [], [], []
        one, one_json = [], []
        for _ in range(rounds):
            t, out = timed([*GAMMON, "moves", "-", "--all-rolls"], ids)
            ours.append(t)
            plays = sum(1 for ln in out.decode().splitlines() if ln.startswith("  "))
            t, out_json = timed([*GAMMON, "moves", "-", "--all-rolls", "--json"], ids)
            ours_json.append(t)
            t, out1 = timed([*GAMMON, "moves", "-", "--all-rolls", "--jobs", "1"], ids)
            one.append(t)
            t, out1_json = timed([*GAMMON, "moves", "-", "--all-rolls", "--json", "--jobs", "1"], ids)
            one_json.append(t)
            if (out, out_json) != (out1, out1_json):
                raise SystemExit("the output by default differs from --jobs 1's")
            if have_gnubg:
                t, out = timed([sys.executable, str(script), str(ids)])
                theirs.append(t)
                their_plays = int(out.decode().strip())
    sys.path.insert(0, str(ROOT))
    from notation import moves
    from notation.ids import b64_keys, parse_position
    from notation.moves import listed, written_plays
    from notation.rules import ALL_ROLLS, clear_caches

    t = time.perf_counter()
    for pid in rows:
        pos = parse_position(pid)
        for roll in ALL_ROLLS:
            written_plays(pos, roll)
    inproc_general = time.perf_counter() - t
    moves._ENTRIES.clear()  # as the command starts: no play listed before
    clear_caches()
    t = time.perf_counter()
    for pid in rows:
        pos = parse_position(pid)
        for roll in ALL_ROLLS:
            listed(pos.on_roll, pos.opponent, roll, pos.rules)
    inproc = time.perf_counter() - t
    moves._JSON_ENTRIES.clear()
    clear_caches()
    t = time.perf_counter()
    for pid in rows:
        pos = parse_position(pid)
        k16, table = moves._id_table(pos.on_roll, pos.opponent)
        for roll in ALL_ROLLS:
            entries = listed(pos.on_roll, pos.opponent, roll, pos.rules, moves._json_entry)
            b64_keys(moves._result_keys(k16, table, entries))
    inproc_json = time.perf_counter() - t
    print(f"{len(rows)} positions x 21 rolls = {len(rows) * 21} pairs, {plays} plays listed")
    print(f"gammon moves --all-rolls (whole process): best {min(ours):.2f} s, median {statistics.median(ours):.2f} s")
    print(f"  with --json:                          best {min(ours_json):.2f} s, median "
          f"{statistics.median(ours_json):.2f} s")
    print(f"  --jobs 1 (one process):               best {min(one):.2f} s, median {statistics.median(one):.2f} s; "
          f"--json best {min(one_json):.2f} s, median {statistics.median(one_json):.2f} s")
    print(f"  in-process, no start-up, no output: the command's listing (cold, as the command runs it) {inproc:.2f} s; "
          f"Play objects sorted by play_order (written_plays) {inproc_general:.2f} s")
    print(f"  in-process, the same with each result's Position ID (--json's listing, cold): {inproc_json:.2f} s")
    if theirs:
        print(f"gnubg findbestmoves (whole process):      best {min(theirs):.2f} s, median "
              f"{statistics.median(theirs):.2f} s ({their_plays} plays)")
        print(f"ratio (ours / gnubg): text {min(ours) / min(theirs):.2f}x, json {min(ours_json) / min(theirs):.2f}x "
              f"(medians {statistics.median(ours) / statistics.median(theirs):.2f}x, "
              f"{statistics.median(ours_json) / statistics.median(theirs):.2f}x)")
        print(f"  --jobs 1: text {min(one) / min(theirs):.2f}x, json {min(one_json) / min(theirs):.2f}x "
              f"(medians {statistics.median(one) / statistics.median(theirs):.2f}x, "
              f"{statistics.median(one_json) / statistics.median(theirs):.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
