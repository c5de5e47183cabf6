"""notation.decisions: every decision of a replayed match with its analysis (the walk that statistics and
problem sets share)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.decisions import Decision, decisions, legal_choices, mark
from notation.matchio import parse_match, read_match
from notation.replay import replay_match

DATA = Path(__file__).resolve().parent / "data"
GALAXY = DATA / "stats" / "galaxy_1093632.sgf"
"""A Galaxy match (8 points, one game) analysed by gnubg 1.07 at 0-ply (``../shared/tools/gnubg-analysed``)."""


@pytest.fixture(scope="module")
def galaxy() -> list[Decision]:
    return list(decisions(read_match(GALAXY)))


def test_every_roll_and_every_analysed_cube_decision_is_a_decision(galaxy: list[Decision]) -> None:
    match = read_match(GALAXY)
    moves = [a for g in match.games for a in g.actions if a.kind == "move"]
    checker = [d for d in galaxy if d.kind == "checker"]
    assert len(checker) == len(moves) == 15
    assert [d.source for d in checker] == moves
    assert [d.move for d in checker] == [a.move_number for a in moves]
    cube = [d for d in galaxy if d.kind == "cube"]
    assert [d.action for d in cube].count("double") == 1
    assert [d.action for d in cube].count("pass") == 1
    # the no-double decisions gnubg analysed: one on each roll after the opening one but the last two
    assert sum(1 for d in cube if d.action == "no double") == 14


def test_a_decision_reads_the_producer_figures(galaxy: list[Decision]) -> None:
    # game 1, move 3: nopnop (player 1) played 10/4(2) 8/2* 8/2 with 66; gnubg's best was 21/15(2) 15/9(2)
    d = next(d for d in galaxy if d.kind == "checker" and d.move == 3 and d.player == 1)
    assert d.dice == (6, 6)
    assert d.analysed and not d.forced and not d.missing
    assert d.best == "21/15 21/15 15/9 15/9"
    assert d.played == "10/4 10/4 8/2* 8/2"
    assert d.error == pytest.approx(0.250582, abs=1e-6)
    assert d.mark == "very bad"
    assert d.error_mwc is not None and 0 < d.error_mwc < d.error
    assert d.luck == pytest.approx(0.58346)
    assert d.luck_mark == "lucky"
    assert d.producer == "GNU Backgammon"
    assert d.position.dice == (6, 6) and d.position.turn == 1


def test_cube_decisions_carry_gnubg_categories(galaxy: list[Decision]) -> None:
    missed = [d for d in galaxy if d.cube_error is not None and d.cube_error.startswith("missed")]
    assert [(d.move, d.player, d.cube_error) for d in missed] == [
        (5, 1, "missed double above CP"), (6, 1, "missed double below CP"), (7, 1, "missed double below CP")]
    assert sum(d.error or 0 for d in missed if "below" in (d.cube_error or "")) == pytest.approx(0.1997, abs=5e-4)
    double = next(d for d in galaxy if d.action == "double")
    assert double.cube_error == "wrong double above TG" and double.close
    assert double.best == "too good, pass"
    assert double.error == pytest.approx(0.0307, abs=1e-4)
    assert double.equities is not None and double.equities.double_pass == pytest.approx(1.0, abs=1e-6)
    # the answer reads the same analysis, from the taker's side: passing was right
    answer = next(d for d in galaxy if d.action == "pass")
    assert answer.player == 1 - double.player and answer.error == 0.0 and answer.cube_error is None
    assert answer.cube == double.cube == 1


def test_a_record_without_analysis_gives_decisions_without_figures() -> None:
    m = parse_match(" 1 point match\n\n Game 1\n A : 0      B : 0\n  1) 31: 8/5 6/5      52: 13/11 13/8\n"
                    "  2) 66: 24/18 24/18 13/7 13/7\n", name="t.mat")
    ds = list(decisions(m))
    assert [d.kind for d in ds] == ["checker"] * 3
    assert all(not d.analysed and d.error is None and d.error_mwc is None and d.mark is None for d in ds)
    assert [d.played for d in ds] == ["8/5 6/5", "13/11 13/8", "24/18 24/18 13/7 13/7"]
    assert not any(d.forced for d in ds)
    assert all(d.position is not None for d in ds)


def test_decisions_after_an_impossible_play_are_kept_without_a_position() -> None:
    m = parse_match(" 1 point match\n\n Game 1\n A : 0      B : 0\n  1) 31: 8/5 6/5      52: 13/11 24/19\n"
                    "  2) 66: 24/18 24/18 13/7 13/7\n", name="t.mat")
    ds = list(decisions(m))
    assert [d.move for d in ds] == [1, 1, 2]
    assert ds[0].position is not None and ds[2].position is None
    assert ds[2].cube == 1 and ds[2].match_length == 1 and not ds[2].forced


def test_a_forced_play_is_found_by_the_rules_when_not_analysed(galaxy: list[Decision]) -> None:
    d = next(d for d in galaxy if d.kind == "checker" and d.move == 8 and d.player == 1)
    assert d.played == "" and not d.analysed and d.forced and d.error is None
    assert legal_choices(d) == 0
    played = next(d for d in galaxy if d.kind == "checker" and d.move == 3 and d.player == 1)
    assert legal_choices(played) == played.candidates > 1


def test_a_replay_gives_the_same_decisions_as_its_match() -> None:
    m = read_match(GALAXY)
    assert list(decisions(replay_match(m))) == list(decisions(m))


def test_marks_are_gnubg_thresholds() -> None:
    assert [mark(x) for x in (None, 0.0, 0.029, 0.031, 0.061, 0.121)] == [
        None, None, None, "doubtful", "bad", "very bad"]


def test_match_play_errors_convert_to_mwc_through_the_table() -> None:
    m = read_match(DATA / "stats" / "fibs_pghpete_crawford_double.sgf")
    for d in decisions(m):
        if d.error:
            assert d.error_mwc is not None and d.error_mwc > 0
            assert d.error_cost == d.error_mwc
