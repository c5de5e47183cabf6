"""The rules of a match (``MatchRules``: Crawford, Jacoby, beavers, raccoons, automatic doubles, the cube and
its limit, the variant) and its names through every writer: each is kept, or its loss is said.  (A sweep that
changed one rule at a time in a record's JSON, converted it and read it back found ``.mat`` losing raccoons and
automatic doubles without a word, and a record's header tag that says a rule otherwise, an ``.xg``'s
``[CubeLimit "1024"]`` or ``[Crawford "On"]``, hiding the rule it had been changed to; and SGF and ``.mat``
losing the match's names where the first game has names of its own.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.convert import render_match
from notation.matchio import parse_any, read_match

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def _back(text: str | bytes, fmt: str) -> object:
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    return parse_any(data, name=f"back.{fmt}")[0].rules


@pytest.mark.parametrize(("rule", "value"), [("raccoons", True), ("auto_doubles", 2), ("auto_doubles", 1)])
def test_mat_keeps_raccoons_and_automatic_doubles_in_header_tags(rule: str, value: object) -> None:
    m = read_match(DATA / "mat_gnubg_selfplay_money.mat")
    setattr(m.rules, rule, value)
    text, dropped = render_match(m, "mat")
    assert getattr(_back(text, "mat"), rule) == value
    assert not [d for d in dropped if "rules" in d]
    assert ('; [Raccoon "On"]' if rule == "raccoons" else f'; [AutoDoubles "{value}"]') in str(text)


def test_a_mat_tag_that_says_a_rule_otherwise_is_reported() -> None:
    """An ``.xg`` record has the tags ``[Crawford "On"]`` and ``[CubeLimit "1024"]``: a rule changed since is
    written as the tag says (the tag is the record's too), and said."""
    m = read_match(DATA / "xg_ronde3.xg")
    assert m.tag("CubeLimit") == "1024" and m.tag("Crawford") == "On"
    m.rules.cube_limit = 8
    m.rules.crawford = False
    text, dropped = render_match(m, "mat")
    back = _back(text, "mat")
    assert (back.cube_limit, back.crawford) == (1024, True)  # type: ignore[attr-defined]
    assert ('the rules: the Crawford rule off: the header tag [Crawford "On"] says on, which a reader of the .mat '
            'takes') in dropped
    assert ('the rules: the cube limit 8: the header tag [CubeLimit "1024"] says limit 1024, which a reader of the '
            '.mat takes') in dropped


def test_rules_a_mat_says_alike_are_not_reported() -> None:
    """No cube and a cube limit of 1 are one rule in ``.mat`` (``[CubeLimit "1"]``), and the Crawford rule is
    a match's: neither is a loss."""
    m = read_match(DATA / "mat_gnubg_selfplay_money.mat")
    m.rules.cube = False
    m.rules.crawford = False
    assert not [d for d in render_match(m, "mat")[1] if "rules" in d]


@pytest.mark.parametrize("fmt", ["sgf", "mat"])
def test_the_match_s_names_that_the_first_game_s_hide_are_reported(fmt: str) -> None:
    """SGF and ``.mat`` name the players of each game (``PW``/``PB``, the score line), and a reader takes the
    first game's names for the match's: the match's own names, when the first game has others, are lost."""
    m = read_match(DATA / "xg_ronde3.xg")
    assert not [d for d in render_match(m, fmt)[1] if "the match's names" in d]
    m.names = ("Ann", "Bo")
    text, dropped = render_match(m, fmt)
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    assert parse_any(data, name=f"back.{fmt}")[0].names == m.games[0].names
    assert [d for d in dropped if d.startswith("the match's names (Ann, Bo): ")] == [
        f"the match's names (Ann, Bo): {'SGF' if fmt == 'sgf' else '.mat'} names the players of each game, and a "
        "reader takes the first game's (Kévin UNGER Nicolas HARMAND, Johan HUYCK Michael LARSEN) for the match's"]
