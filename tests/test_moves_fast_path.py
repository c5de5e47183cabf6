"""``gammon moves``'s fast paths against the general ones.

The command lists plays from :meth:`Rules.play_steps` (no :class:`Play` objects), sorts them by a
remembered string key (:func:`notation.moves.listed`), writes new notation with
:func:`notation.play._format_default` and its JSON by hand.  Each must give exactly what the general
code gives: :meth:`Rules.plays_for`, :func:`written_plays` (sorted by :func:`play_order`),
:func:`notation.play._format_play` and :func:`json.dumps`.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rules import ROLLS, positions

from notation import moves
from notation.cli import main
from notation.ids import parse_position, position_id, xgid
from notation.moves import listed, play_order, result_boards, result_ids, written_plays
from notation.play import format_play, play_result
from notation.playtext import _format_default, _format_play
from notation.position import Position
from notation.rules import ALL_ROLLS, Rules, get_rules, variant_names

DATA = Path(__file__).resolve().parent / "data"
R = get_rules("standard")


def _real_positions(n: int) -> list[Position]:
    rows = [ln.split("\t")[0] for ln in (DATA / "movegen_positions.tsv").read_text().splitlines()
            if ln and not ln.startswith("#")]
    return [parse_position(pid) for pid in rows[:n]]


def _walked_positions(variant: str, games: int = 3, moves_per_game: int = 40) -> list[Position]:
    """Positions of ``variant`` reached by random legal plays from its start (seeded)."""
    rng = random.Random(variant)
    rules = get_rules(variant)
    out = []
    for _ in range(games):
        pos = Position.initial(variant)
        for _ in range(moves_per_game):
            roll = rng.choice(ALL_ROLLS)
            plays = rules.plays_for(pos.on_roll, pos.opponent, *roll)
            out.append(pos)
            if plays:
                if any(p.mine[0] == rules.checkers for p in plays):
                    break  # the game ends
                pos = play_result(pos, rng.choice(plays))
            else:
                pos = pos.replace(turn=1 - pos.turn, dice=None)
    return out


def _same_listing(mine: tuple[int, ...], theirs: tuple[int, ...], roll: tuple[int, int], rules: Rules) -> int:
    pos = Position(boards=(mine, theirs), turn=0, variant=rules.name)
    general = written_plays(pos, roll)
    by_order = sorted(rules.plays_for(mine, theirs, *roll), key=play_order)
    assert [p for _, p in general] == by_order
    fast = listed(mine, theirs, roll, rules)
    assert [(text, steps) for _, text, steps in fast] == [(text, p.steps) for text, p in general]
    for (_, text, steps), (_, p) in zip(fast, general, strict=True):
        assert text == _format_play(steps)
        if not rules.checkers_start_off_board:  # Acey-Deucey's entering: the command uses the plays
            assert result_boards(mine, theirs, steps) == (p.mine, p.theirs)
    if not rules.checkers_start_off_board:
        assert result_ids(mine, theirs, fast) == [position_id(play_result(pos, p)) for _, p in general]
    return len(fast)


def test_listing_equals_the_general_path_on_real_positions() -> None:
    moves._ENTRIES.clear()
    n = 0
    for pos in _real_positions(120):
        for roll in ALL_ROLLS:
            n += _same_listing(pos.on_roll, pos.opponent, roll, pos.rules)
    assert n > 20_000


@pytest.mark.parametrize("variant", variant_names())
def test_listing_equals_the_general_path_in_every_variant(variant: str) -> None:
    rules = get_rules(variant)
    n = 0
    for pos in _walked_positions(variant):
        for roll in ALL_ROLLS:
            n += _same_listing(pos.on_roll, pos.opponent, roll, rules)
    assert n > 100, variant


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS)
def test_listing_equals_the_general_path_on_random_positions(pos: tuple[tuple[int, ...], tuple[int, ...]],
                                                            roll: tuple[int, int]) -> None:
    _same_listing(pos[0], pos[1], roll, R)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS, st.randoms(use_true_random=False))
def test_default_notation_equals_the_general_one(pos: tuple[tuple[int, ...], tuple[int, ...]],
                                                 roll: tuple[int, int], rnd: random.Random) -> None:
    """In any order of the steps (the replay formats steps as they were written)."""
    for p in R.plays_for(pos[0], pos[1], *roll):
        steps = list(p.steps)
        rnd.shuffle(steps)
        assert _format_default(tuple(steps)) == _format_play(steps)
        assert format_play(tuple(steps)) == _format_play(steps)


def test_default_notation_of_every_step_shape() -> None:
    """Every sequence of up to three steps over a few points, hits anywhere, in every order."""
    pts = (25, 13, 8, 7, 6, 3, 0)
    steps = [(s, t, h) for s in pts for t in pts if t < s for h in (False, True) if not (h and t == 0)]
    n = 0
    for k in (1, 2, 3):
        for combo in itertools.product(steps, repeat=k):
            assert _format_default(combo) == _format_play(combo), combo
            n += 1
    assert n > 40_000
    assert _format_default(((3, -1, False),)) == _format_play([(3, -1, False)])  # outside the table


def _general_json(text: str, pos: Position) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for roll in ALL_ROLLS:
        rows.append({"position": text, "dice": f"{roll[0]}{roll[1]}", "plays": [
            {"play": t, "position_id": position_id(play_result(pos, p))} for t, p in written_plays(pos, roll)]})
    return rows


def test_json_output_is_json_dumps_of_the_general_path() -> None:
    texts = [xgid(p) for p in _real_positions(40)]
    texts.append("  XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10  ")  # read without its blanks
    result = CliRunner().invoke(main, ["moves", "--json", "--all-rolls", "-"], input="\n".join(texts) + "\n")
    assert result.exit_code == 0, result.stderr
    want = "".join(json.dumps(row) + "\n" for t in texts for row in _general_json(t.strip(), parse_position(t)))
    assert result.stdout == want


def test_json_output_in_the_variants() -> None:
    for variant in ("hypergammon", "nackgammon", "dutch", "acey-deucey"):
        walked = [p for p in _walked_positions(variant, games=2, moves_per_game=15)
                  if not p.rules.checkers_start_off_board or not (p.waiting(0) or p.waiting(1))]
        for pos in walked[:8]:
            text = xgid(pos)
            result = CliRunner().invoke(main, ["moves", "--json", "--all-rolls", "--variant", variant, text])
            assert result.exit_code == 0, (variant, result.output)
            mine = parse_position(text, variant=get_rules(variant).name).replace(variant=get_rules(variant).name)
            want = "".join(json.dumps(row) + "\n" for row in _general_json(text, mine))
            assert result.stdout == want, variant


def test_result_ids_where_a_play_hits_and_bears_off_several_times() -> None:
    """The key terms below zero (hits, checkers borne off) and at the top slot: plays with up to four
    hits, up to four checkers borne off, and both."""
    # The mover: checkers on the bar and in the home board; the opponent: blots everywhere the mover lands.
    mine = (0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    theirs = (0,) + tuple(1 if 25 - p in (21, 17, 13, 9, 4, 3) else 0 for p in range(1, 25)) + (0,)
    theirs = (15 - sum(theirs[1:]),) + theirs[1:]
    bearing = (9, 3, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    opp_blots = (9, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0)
    n = 0
    for m, t in ((mine, theirs), (bearing, opp_blots), (opp_blots, bearing)):
        for roll in ALL_ROLLS:
            n += _same_listing(m, t, roll, R)
    assert n > 100
