"""The replay's fast lane (:meth:`notation.replay._GameRunner.fast_moves`, plain plays judged by the rules'
:func:`notation.rules.play_legs`) where it hands over to ``do_move``, and the findings-only replay
(``Replayer(steps=False)``) on hit marks and opening doubles.  play_legs itself is tested in
test_play_legs.py.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from replay_general import one_play_at_a_time
from test_fuzz_validate import SOURCES, edited

replay_module = importlib.import_module("notation.replay")


def test_fast_moves_stop_where_do_move_takes_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of plays broken by what the fast lane leaves to ``do_move``: a cube action, the wrong player,
    a play written in another notation, an illegal play, an opening double, a bear-off that ends the game,
    plays after the end; the same replay with the run taken at once as one play at a time."""
    from notation.formats.mat import read_match

    rows = [
        "  1)                             31: 8/5 6/5",
        "  2) 64: 24/18 13/9              52: 13/8 13/11",
        "  3) 33: 13/10(2) 6/3(2)          Doubles => 2",
        "  4) Takes                        42: 8/4 6/4",
        "  5) 61: 13/7 8/7                 55: 13/3 13/3",
        "  6) 21: 13/11 24/23             21: 13/11 24/23",
        "  7) 43: 13/9 13/10               43: 13/9 13/10",
        "  8) 11: 6/5 6/5 6/5 6/5         66: 24/18 24/18 13/7 13/7",
    ]
    body = " 3 point match\n\n Game 1\n a : 0                 b : 0\n" + "\n".join(rows) + "\n"
    for text in (body, body.replace("  1)                             31: 8/5 6/5", "  1) 33: 8/5 6/5"),
                 body.replace("52: 13/8 13/11", "52: 13/8 13/13")):
        m = read_match(text)
        fast = replay_module.replay_match(m)
        with monkeypatch.context() as mp:
            one_play_at_a_time(mp)
            slow = replay_module.replay_match(m)
        assert [f.to_dict() for f in fast.findings] == [f.to_dict() for f in slow.findings]
        assert [(s.action, s.before, s.after, s.play, s.legal) for g in fast.games for s in g.steps] == [
            (s.action, s.before, s.after, s.play, s.legal) for g in slow.games for s in g.steps]
        assert fast.findings  # each of these records has something to say


# ------------------------------------------------------------------ findings only (Replayer(steps=False))

def _lean_and_full(match: object) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What ``gammon validate`` reads of a replay: the findings, the games and the plays, from the
    findings-only replay and from the whole one."""
    full = replay_module.replay_match(match)
    r = replay_module.Replayer(match, keep=False, steps=False)
    for g in match.games:  # type: ignore[attr-defined]
        r.feed(g)
    lean = r.finish()
    return ((lean.findings, r.games, r.plays, lean.games),
            (full.findings, len(full.games), full.plays, []))


@pytest.mark.parametrize("edit", [
    None,                               # every hit marked
    ("7/5*", "7/5"),                    # one hit not marked, the others marked: a note for it
    ("*", ""),                          # no hit marked at all: one note for the file
    ("  1) 41:", "  1) 44:"),           # an opening double, before any other play
])
def test_findings_only_replay_on_hit_marks_and_opening_doubles(monkeypatch: pytest.MonkeyPatch,
                                                               edit: tuple[str, str] | None) -> None:
    from notation.formats.mat import read_match

    rows = [
        "  1) 41: 24/20 24/23             62: 13/7 7/5*",
        "  2) 61: 25/24 24/18             53: 13/8 5/2*",
        "  3) 64: 25/21 21/15             42: 13/9 9/7*",
        "  4) 31: 25/22 22/21             65: 24/18 18/13",
    ]
    body = " 3 point match\n\n Game 1\n a : 0                 b : 0\n" + "\n".join(rows) + "\n"
    if edit is not None:
        body = body.replace(*edit)
    m = read_match(body)
    lean, full = _lean_and_full(m)
    assert lean == full
    notes = [f.message for f in full[0] if "hit" in f.message or "opening" in f.message]
    assert len(notes) == (0 if edit is None else 1), notes
    with monkeypatch.context() as mp:
        one_play_at_a_time(mp)
        assert _lean_and_full(m)[0] == full


def _readable(text: str) -> list[Any]:
    """The matches of an edited ``.mat`` text, none where the edit made it unreadable."""
    from notation.errors import NotationError
    from notation.formats.mat import parse_matches

    try:
        return parse_matches(text, name="x.mat")
    except NotationError:
        return []


@pytest.mark.parametrize("edit", ["no results", "cut", "bear-off", "after the end"])
def test_findings_only_replay_of_games_that_end_oddly(monkeypatch: pytest.MonkeyPatch, edit: str) -> None:
    """Games that end in a run of plain plays: no result line (the finding points at the last play), a file
    cut in the middle of a game, a game borne off with plays after it, plays (a dance among them) after the
    result line.  Each has something to say, and the findings-only replay, the whole one and the whole one
    a play at a time say the same."""
    from conftest import DATA

    text = (DATA / "gnubg_7p_crawford.mat").read_text()
    lines = text.split("\n")
    if edit == "no results":
        variants = ["\n".join(x for x in lines if "Wins" not in x)]
    elif edit == "cut":
        rows = [i for i, x in enumerate(lines) if x.strip()[:1].isdigit() and ")" in x[:6]]
        variants = ["\n".join(lines[:i + 1]) + "\n" for i in rows[::7]]
    elif edit == "bear-off":  # the Wins line dropped and the bear-off's row doubled
        wins = [i for i, x in enumerate(lines) if "Wins" in x]
        variants = ["\n".join(lines[:i - 1] + [lines[i - 1], lines[i - 1]] + lines[i + 1:]) for i in wins]
    else:  # plays written after the result, a dance first or not
        wins = [i for i, x in enumerate(lines) if "Wins" in x]
        dance = [" 99) 66:                           52: 13/8 24/22",
                 "100) 41: 24/23 13/9                 31: 8/5 6/5"]
        variants = ["\n".join(lines[:i + 1] + extra + lines[i + 1:]) for i in wins
                    for extra in (lines[i - 3:i - 1], dance)]
    for v in variants:
        for m in _readable(v):
            lean, full = _lean_and_full(m)
            assert lean == full
            assert full[0]  # each of these records has something to say
            with monkeypatch.context() as mp:
                one_play_at_a_time(mp)
                assert _lean_and_full(m)[1] == full


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited(SOURCES))
def test_findings_only_replay_of_edited_files(text: str) -> None:
    """Random edits (wrong dice and points, lines swapped or cut, cube actions and results inserted) stop
    the fast lane anywhere: the findings-only replay still says what the whole replay says."""
    for m in _readable(text):
        lean, full = _lean_and_full(m)
        assert lean == full
