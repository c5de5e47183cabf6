"""Differential test of the legal-play generator and the play notation against GNU Backgammon.

The oracle is gnubg's own move generator through its Python bindings (test-only):
``gnubg.findbestmoves(board, cubeinfo, evalcontext, dice)`` lists every legal play as a tuple of
single-die steps (1-based points, 25 = bar).  The bindings stop a tuple at its first bear-off (the
0 that means "off" ends the list), so:

* the number of plays is compared for every (position, roll);
* a complete tuple (even length) is applied to the board and must give one of our results, and our
  notation for that play must equal ``gnubg.movetupletostring``;
* every tuple, complete or cut, must equal the start of one of our plays' step lists (we keep the
  first sequence gnubg's search finds for each result, so the steps are the same);
* for the rolls with cut tuples, the gnubg program itself (``hint`` at 0 ply lists every legal play)
  must write exactly our set of plays, which checks the bear-offs' results and notation (an even
  sample of 1,000 such rolls by default: the program needs about 8 ms a roll).

Positions: the real ones in ``data/movegen_positions.tsv`` (human and gnubg self-play games, see
``data/movegen_generate.py``) and seeded random ones: general, bar-heavy, bear-off, blocked.  By
default the first 1,000 real positions and 600 random ones, each with all 21 rolls (33,600 pairs);
``GAMMON_ORACLE_ALL=1`` uses all 3,000 real positions and sends every cut roll to the program.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import kept, oracle_stamp

from notation.play import format_play
from notation.rules import ALL_ROLLS, Play, get_rules

gnubg = pytest.importorskip("gnubg")
pytestmark = pytest.mark.xdist_group("rules_oracle")  # one worker builds the tallies the tests share

DATA = Path(__file__).resolve().parent / "data"
_spec = importlib.util.spec_from_file_location("movegen_data", DATA / "movegen_data.py")
assert _spec is not None and _spec.loader is not None
movegen_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(movegen_data)

GNUBG_PROGRAM = os.environ.get("GNUBG", "/usr/games/gnubg")
RULES = get_rules("standard")
Board = tuple[int, ...]

ALL = bool(os.environ.get("GAMMON_ORACLE_ALL"))
N_REAL = 0 if ALL else 1000
N_PROGRAM = 0 if ALL else 1000
N_RANDOM_EACH = 120
RANDOM_KINDS = ("general", "bar", "bearoff", "blocked", "contact_bearoff")


# --------------------------------------------------------------------------- random positions


def _place(rng: random.Random, n: int, points: list[int], taken: set[int], b: list[int]) -> None:
    """Put ``n`` checkers on ``points`` (own numbering), avoiding points in ``taken`` (own numbering)."""
    free = [p for p in points if p not in taken]
    for _ in range(n):
        p = rng.choice(free)
        b[p] += 1


def random_position(rng: random.Random, kind: str) -> tuple[Board, Board]:
    """(mine, theirs) of the kind asked, always a position that can exist."""
    mine = [0] * 26
    theirs = [0] * 26
    if kind == "general":
        mine[25] = rng.choice((0, 0, 0, 1, 2))
        mine[0] = rng.choice((0, 0, 0, 2, 5))
        _place(rng, 15 - mine[25] - mine[0], list(range(1, 25)), set(), mine)
        theirs[25] = rng.choice((0, 0, 0, 1))
        theirs[0] = rng.choice((0, 0, 3))
        _place(rng, 15 - theirs[25] - theirs[0], list(range(1, 25)),
               {25 - p for p in range(1, 25) if mine[p]}, theirs)
    elif kind == "bar":
        mine[25] = rng.randint(1, 4)
        _place(rng, 15 - mine[25], list(range(1, 25)), set(), mine)
        # the opponent holds several points of its home board, where we enter
        for q in rng.sample(range(1, 7), rng.randint(2, 6)):
            if not mine[25 - q] and sum(theirs) <= 12:
                theirs[q] = rng.randint(2, 3)
        rest = 15 - sum(theirs)
        _place(rng, rest, list(range(1, 25)), {25 - p for p in range(1, 25) if mine[p]}, theirs)
    elif kind == "bearoff":
        mine[0] = rng.randint(0, 12)
        outside = rng.choice((0, 0, 0, 1, 1, 2))
        _place(rng, outside, list(range(7, 13)), set(), mine)
        _place(rng, 15 - mine[0] - outside, list(range(1, 7)), set(), mine)
        theirs[0] = rng.randint(0, 10)
        _place(rng, 15 - theirs[0], list(range(1, 7)), set(), theirs)
    elif kind == "contact_bearoff":
        # bearing off with the opponent still in our home board, maybe after being hit
        mine[25] = rng.choice((0, 0, 1))
        mine[0] = rng.randint(0, 8)
        _place(rng, 15 - mine[0] - mine[25], list(range(1, 7)), set(), mine)
        taken = {25 - p for p in range(1, 25) if mine[p]}
        for q in rng.sample(range(19, 25), 2):
            if q not in taken:
                theirs[q] = rng.choice((1, 1, 2))
        theirs[0] = rng.randint(0, 6)
        _place(rng, 15 - sum(theirs), list(range(1, 19)), taken, theirs)
    elif kind == "blocked":
        # our back checkers behind a prime of 4 to 6 points
        back = rng.randint(2, 4)
        start = rng.randint(13, 18)
        length = rng.randint(4, 6)
        prime = [p for p in range(start, start + length) if p <= 24]
        for p in range(start + length, 25):
            if back and rng.random() < 0.5:
                mine[p] += 1
                back -= 1
        mine[24] += back
        mine[25] = rng.choice((0, 0, 1))
        _place(rng, 15 - sum(mine), list(range(1, 13)), {*prime}, mine)
        for p in prime:
            if not mine[p]:
                theirs[25 - p] = 2
        taken = {25 - p for p in range(1, 25) if mine[p]}
        _place(rng, 15 - sum(theirs), list(range(1, 25)), taken | {25 - p for p in prime}, theirs)
    else:  # pragma: no cover
        raise ValueError(kind)
    mine[0] += 15 - sum(mine)
    theirs[0] += 15 - sum(theirs)
    return tuple(mine), tuple(theirs)


# --------------------------------------------------------------------------- comparison


def _apply(mine: Board, theirs: Board, pairs: tuple[tuple[int, int], ...]) -> tuple[Board, Board]:
    m, th = list(mine), list(theirs)
    for f, t in pairs:
        m[f] -= 1
        m[t] += 1
        if 1 <= t <= 24 and th[25 - t] == 1:
            th[25 - t] = 0
            th[25] += 1
    return tuple(m), tuple(th)


def _as_gnubg_tuple(play: Play) -> tuple[int, ...]:
    """Our steps as the bindings write them: from, to, from, to ... cut at the first bear-off."""
    out: list[int] = []
    for s, t, _h in play.steps:
        out.append(s)
        if t == 0:
            break
        out.append(t)
    return tuple(out)


@dataclass
class Tally:
    pairs: int = 0
    plays: int = 0
    complete: int = 0
    cut: int = 0
    notation_checked: int = 0
    problems: list[str] = field(default_factory=list)
    cut_pairs: list[tuple[str, tuple[int, int], set[str]]] = field(default_factory=list)


CI = gnubg.cubeinfo()
EC = gnubg.evalcontext()


Answer = tuple[str, list[list[tuple[tuple[int, ...], str | None]]]]


def gnubg_answers(boards: list[tuple[Board, Board]]) -> list[Answer]:
    """gnubg's answer for each position (mine, theirs): its position ID and, for each of ``ALL_ROLLS``, its
    plays as step tuples, each complete one with how gnubg writes it.  Kept between runs by the positions
    and the bindings' bytes (:func:`conftest.kept`): only our side is computed anew."""

    def ask() -> list[Answer]:
        out = []
        for mine, theirs in boards:
            board = (theirs[1:26], mine[1:26])
            rolls = []
            for roll in ALL_ROLLS:
                moves = [tuple(m["move"]) for m in gnubg.findbestmoves(board, CI, EC, roll)]
                rolls.append([(mv, None if len(mv) % 2 else gnubg.movetupletostring(mv, board)) for mv in moves])
            out.append((gnubg.positionid(board), rolls))
        return out

    return kept("gnubg-movegen", (boards, ALL_ROLLS, oracle_stamp(gnubg)), ask)


def compare(label: str, mine: Board, theirs: Board, answer: Answer, tally: Tally) -> None:
    pid, by_roll = answer
    for roll, gnubg_plays in zip(ALL_ROLLS, by_roll, strict=True):
        tally.pairs += 1
        theirs_moves = [mv for mv, _ in gnubg_plays]
        ours = RULES.plays_for(mine, theirs, *roll)
        tally.plays += len(ours)
        where = f"{label} roll {roll[0]}{roll[1]}"
        if len(theirs_moves) != len(ours):
            tally.problems.append(f"{where}: gnubg has {len(theirs_moves)} plays, we have {len(ours)}: "
                                  f"{sorted(p.notation() for p in ours)}")
            continue
        by_result = {(p.mine, p.theirs): p for p in ours}
        if len(by_result) != len(ours):
            tally.problems.append(f"{where}: two of our plays have the same result")
        if Counter(theirs_moves) != Counter(_as_gnubg_tuple(p) for p in ours):
            tally.problems.append(f"{where}: steps differ: gnubg {sorted(theirs_moves)} ours "
                                  f"{sorted(_as_gnubg_tuple(p) for p in ours)}")
        any_cut = False
        for mv, want in gnubg_plays:
            if want is None:
                tally.cut += 1
                any_cut = True
                continue
            tally.complete += 1
            result = _apply(mine, theirs, tuple(zip(mv[::2], mv[1::2], strict=True)))
            play = by_result.get(result)
            if play is None:
                tally.problems.append(f"{where}: gnubg's {want} {mv} is not among our plays")
                continue
            tally.notation_checked += 1
            if format_play(play.steps) != want:
                tally.problems.append(f"{where}: we write {format_play(play.steps)!r}, gnubg {want!r}")
        if any_cut:
            tally.cut_pairs.append((pid, roll, {format_play(p.steps) for p in ours}))


def _random_positions() -> list[tuple[str, Board, Board]]:
    rng = random.Random(20240611)
    out = []
    for kind in RANDOM_KINDS:
        for i in range(N_RANDOM_EACH):
            mine, theirs = random_position(rng, kind)
            out.append((f"random {kind} #{i}", mine, theirs))
    return out


@pytest.fixture(scope="module")
def real_tally() -> Tally:
    rows = movegen_data.load_positions()
    if N_REAL:
        rows = rows[:N_REAL]
    tally = Tally()
    answers = gnubg_answers([(mine, theirs) for _, mine, theirs, _ in rows])
    for (pid, mine, theirs, source), answer in zip(rows, answers, strict=True):
        compare(f"{pid} ({source})", mine, theirs, answer, tally)
    return tally


@pytest.fixture(scope="module")
def random_tally() -> Tally:
    tally = Tally()
    rows = _random_positions()
    answers = gnubg_answers([(mine, theirs) for _, mine, theirs in rows])
    for (label, mine, theirs), answer in zip(rows, answers, strict=True):
        compare(f"{label} {mine} {theirs}", mine, theirs, answer, tally)
    return tally


# --------------------------------------------------------------------------- tests


def test_the_position_set_is_real_and_large_enough() -> None:
    rows = movegen_data.load_positions()
    assert len(rows) >= 1000
    assert len({pid for pid, *_ in rows}) == len(rows)
    sources = Counter(src.split(":")[0] for *_, src in rows)
    human = sum(n for s, n in sources.items() if not re.fullmatch(r"g\d+\.sgf|gnubgid", s))
    assert human >= 1000, sources
    for _pid, mine, theirs, _src in rows:
        assert sum(mine) == sum(theirs) == 15
        assert not any(mine[p] and theirs[25 - p] for p in range(1, 25))


def test_random_positions_can_exist() -> None:
    kinds = Counter()
    for label, mine, theirs in _random_positions():
        kinds[label.split()[1]] += 1
        assert min(mine) >= 0 and min(theirs) >= 0, label
        assert sum(mine) == sum(theirs) == 15, label
        assert not any(mine[p] and theirs[25 - p] for p in range(1, 25)), label
    assert set(kinds) == set(RANDOM_KINDS)
    # the kinds do what they say
    rows = _random_positions()
    assert sum(1 for label, m, _ in rows if "bar" in label and m[25]) == N_RANDOM_EACH
    assert all(sum(m[7:26]) <= 2 for label, m, _ in rows if "random bearoff" in label)


def test_real_positions_agree_with_gnubg(real_tally: Tally) -> None:
    t = real_tally
    assert t.pairs >= 21000 or N_REAL == 0
    assert t.complete > 100000 and t.cut > 1000 and t.notation_checked == t.complete
    assert not t.problems, f"{len(t.problems)} disagreements in {t.pairs} pairs:\n" + "\n".join(
        t.problems[:20])


def test_random_positions_agree_with_gnubg(random_tally: Tally) -> None:
    t = random_tally
    assert t.pairs == N_RANDOM_EACH * len(RANDOM_KINDS) * 21
    assert t.cut > 1000
    assert not t.problems, f"{len(t.problems)} disagreements in {t.pairs} pairs:\n" + "\n".join(
        t.problems[:20])


def test_at_least_ten_thousand_pairs(real_tally: Tally, random_tally: Tally) -> None:
    assert real_tally.pairs + random_tally.pairs >= 10000


_HINT_LINE = re.compile(r"^\s*\d+\.\s+\S+\s+\d+-ply\s+(.+?)\s+Eq\.:", re.M)


def gnubg_hints(queries: list[tuple[str, tuple[int, int]]]) -> list[set[str]]:
    """Every legal play as the gnubg program writes it (``hint`` at 0 ply, no pruning), per query."""
    cmds = ["set player 0 human", "set player 1 human",
            "set evaluation chequerplay evaluation plies 0",
            "set evaluation chequerplay evaluation prune off", "set display off", "new game"]
    for pid, (d1, d2) in queries:
        cmds += [f"set board {pid}", f"set dice {d1} {d2}", "hint 10000"]
    program = Path(shutil.which(GNUBG_PROGRAM) or GNUBG_PROGRAM).resolve()
    out = kept("gnubg-hints", (cmds, oracle_stamp(program)),  # by the commands and the program's bytes
               lambda: subprocess.run([str(program), "-t", "-q"], input="\n".join(cmds) + "\n",
                                      capture_output=True, text=True, timeout=1200).stdout)
    blocks = out.split("The dice have been set to")[1:]
    assert len(blocks) == len(queries), out[-2000:]
    return [set(_HINT_LINE.findall(b)) for b in blocks]


@pytest.mark.skipif(not Path(GNUBG_PROGRAM).exists() and shutil.which("gnubg") is None,
                    reason="the gnubg program is not installed")
def test_bear_offs_agree_with_the_gnubg_program(real_tally: Tally, random_tally: Tally) -> None:
    """The rolls whose tuples the bindings cut at a bear-off: the program lists all plays in full."""
    queries = real_tally.cut_pairs + random_tally.cut_pairs
    assert len(queries) > 1000
    if N_PROGRAM:
        queries = queries[::len(queries) // N_PROGRAM][:N_PROGRAM]
    hints = gnubg_hints([(pid, roll) for pid, roll, _ in queries])
    problems = []
    for (pid, roll, ours), theirs in zip(queries, hints, strict=True):
        if ours != theirs:
            problems.append(f"{pid} {roll}: only gnubg {sorted(theirs - ours)}, "
                            f"only ours {sorted(ours - theirs)}")
    assert not problems, f"{len(problems)} of {len(queries)} rolls differ:\n" + "\n".join(problems[:20])
