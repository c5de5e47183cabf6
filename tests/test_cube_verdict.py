"""The cube verdict: one rule (notation.decisions.CubeEquities.verdict) for what three cube equities say is
right, said in notation's words (``double, take``) and in eXtreme Gammon's English (``Double / Take``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.analysis import CubeAnalysis
from notation.decisions import CubeEquities, CubeVerdict
from notation.position import Position
from render.captions import english_verdict

CASES = [
    # (no double, double/take, double/pass) -> verdict
    ((0.3, 0.2, 1.0), "no double, take"),
    ((0.5, 0.6, 1.0), "double, take"),
    ((0.8, 1.2, 1.0), "double, pass"),
    ((1.2, 1.5, 1.0), "too good, pass"),
    # ties: doubling that loses nothing is a double (gnubg's FindBestCubeDecision); an even answer is a take
    ((0.6, 0.6, 1.0), "double, take"),
    ((1.0, 1.2, 1.0), "double, pass"),
    ((0.5, 1.0, 1.0), "double, take"),
    ((1.0, 1.0, 1.0), "double, take"),
    # no double beats double/pass but the opponent should take: not "too good"
    ((1.2, 0.9, 1.0), "no double, take"),
    ((1.2, 1.0, 1.0), "no double, take"),
    # too good needs no double strictly above double/pass
    ((1.0, 1.5, 1.0), "double, pass"),
]

XG = {"double, take": "Double / Take", "double, pass": "Double / Pass", "no double, take": "No double / Take",
      "no double, pass": "No double / Pass", "too good, pass": "Too good to double / Pass"}


@pytest.mark.parametrize(("equities", "words"), CASES)
def test_the_verdict_and_its_words(equities: tuple[float, float, float], words: str) -> None:
    eq = CubeEquities(*equities)
    assert eq.best == words == eq.verdict.words
    assert english_verdict(CubeAnalysis(*equities)) == XG[words]


def test_a_player_who_may_not_double_has_no_double() -> None:
    assert CubeEquities(0.5, 0.6, 1.0, available=False).verdict == CubeVerdict("no double", "take")
    assert CubeEquities(1.2, 1.5, 1.0, available=False).verdict == CubeVerdict("no double", "pass")


def test_redouble_words() -> None:
    owned = Position(cube=2, cube_owner=0)
    assert english_verdict(CubeAnalysis(1.2, 1.5, 1.0), owned) == "Too good to redouble / Pass"
    assert english_verdict(CubeAnalysis(0.6, 0.6, 1.0), owned) == "Redouble / Take"
    assert english_verdict(CubeAnalysis(1.2, 0.9, 1.0), owned) == "No redouble / Take"


finite = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False)


@given(finite, finite, finite)
def test_the_verdict_is_the_optimum_and_both_words_agree(nd: float, dt: float, dp: float) -> None:
    eq = CubeEquities(nd, dt, dp)
    v = eq.verdict
    assert (v.answer == "take") == (dt <= dp)
    # the verdict's equity is gnubg's optimum
    assert (min(dt, dp) if v.action == "double" else nd) == eq.optimal
    assert v.action != "too good" or (v.answer == "pass" and nd > dp)
    assert english_verdict(CubeAnalysis(nd, dt, dp)) == XG[v.words]
