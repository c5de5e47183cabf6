"""No record text ever becomes structure: comments, names and tag values with line breaks, brackets or
backslashes are escaped (or written on lines of their own) by every writer, and reported where changed."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from notation import parse_match
from notation.convert import render_match
from notation.formats.sgf import read_sgf

ROOT = Path(__file__).resolve().parents[1]
BASE = (ROOT / "tests" / "data" / "gnubg_7p_crawford.mat").read_text(encoding="utf-8")
PIECES = [*"ab :,;[]\\\"()\n\r\t\x1b", "  3)   31: 8/5 6/5", " Game 9", " 7 point match", "Wins 3 points"]
HOSTILE = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


def _shape(m: object) -> list[list[tuple[str, int, object]]]:
    return [[(a.kind, a.player, a.play if a.kind == "move" else a.value) for a in g.actions]
            for g in m.games]  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(comment=HOSTILE, tag=HOSTILE, name=HOSTILE, game_comment=HOSTILE)
def test_mat_writer_never_makes_rows_from_text(comment: str, tag: str, name: str, game_comment: str) -> None:
    m = parse_match(BASE)
    m.comments.append(comment)
    m.tags.append(("Event", tag))
    m.games[0].comments.append(game_comment)
    m.names = (name, m.names[1])  # blank, ':', spaces around it, line breaks: all must read back
    for g in m.games:
        g.names = None
    text, dropped = render_match(m, "mat")
    again = parse_match(text)
    assert _shape(again) == _shape(m)
    assert len(again.games) == len(m.games)
    if any(c in tag for c in "\n\r\x1b"):
        assert any("tag Event" in d for d in dropped)
    from notation.formats.mat import mat_name

    assert again.games[0].names[0] == mat_name(name)  # type: ignore[index]
    assert (mat_name(name) == name) or any(repr(name) in d for d in dropped)


PLAY_PIECES = [*PIECES, "13/7", " 8/7", "*", "bar/22", ":", "=>", " Doubles => 2", " Takes", "1)", "61:",
               "gnubg : 3    root : 2"]


@settings(max_examples=80, deadline=None)
@given(play=st.lists(st.sampled_from(PLAY_PIECES), min_size=1, max_size=10).map("".join))
def test_mat_writer_never_writes_a_play_that_is_no_play(play: str) -> None:
    """A move's play text holding ':', '=>', words or line breaks never makes a score line, a cube cell or
    an unreadable row: the cell is the dice alone, and the conversion says so (``--strict`` refuses)."""
    from notation.formats.mat import unwritable_plays

    m = parse_match(BASE)
    a = next(x for x in m.games[0].actions if x.kind == "move" and x.play)
    a.play = play
    text, dropped = render_match(m, "mat")
    again = parse_match(text)  # always read back, whatever the play held
    assert len(again.games) == len(m.games)
    assert [(x.kind, x.player) for x in again.games[0].actions] == [(x.kind, x.player) for x in m.games[0].actions]
    same = next(x for x in again.games[0].actions if x.span is not None and a.span is not None
                and x.span.line == a.span.line and x.player == a.player)
    if unwritable_plays(m):
        assert not same.play
        assert any("that is no play" in d and "written as the dice alone" in d for d in dropped), dropped
    else:  # a play (or one of no moves: blanks, a comma), written as one
        from notation.play import parse_play

        assert bool(same.play) == bool(parse_play(play).segments) and not any("no play" in d for d in dropped)


def test_a_play_holding_a_score_line_is_reported_and_dropped() -> None:
    m = parse_match(BASE)
    a = next(x for x in m.games[0].actions if x.kind == "move" and x.play)
    a.play = "13/7 8/7\n gnubg : 3    root : 2"
    text, dropped = render_match(m, "mat")
    assert "root : 2" not in text
    assert [d for d in dropped if "no play" in d] == [
        "1 play that is no play ('13/7 8/7\\n gnubg : 3    root : 2'): written as the dice alone (no move), .mat "
        "holds no other text in a move"]
    assert not any("as a word" in d for d in dropped)  # (its 'b' is no bar: the text is not written)
    assert len(parse_match(text).games) == len(m.games)


@settings(max_examples=60, deadline=None)
@given(comment=HOSTILE, name=HOSTILE)
@example(comment="a\r\n\ra", name="")  # read as one line break, where FF[4] finds two (CR LF, then CR)
def test_sgf_writer_escapes_brackets_and_backslashes(comment: str, name: str) -> None:
    m = parse_match(BASE)
    m.games[0].actions[0].comment = comment
    m.games[0].actions[0].comment = comment or None
    text, _ = render_match(m, "sgf")
    again = read_sgf(text)
    def plays(x: object) -> list[list[tuple[str, int]]]:  # (a result implied in .mat is explicit in SGF)
        return [[t[:2] for t in g if t[0] not in ("resign", "accept")] for g in _shape(x)]

    assert plays(again) == plays(m)
    if comment:
        assert again.games[0].actions[0].comment is not None
        def norm(c: str) -> str:  # SGF text: line breaks kept, other white space is a space (FF[4])
            return re.sub(r"\r\n|\n\r|\r", "\n", c).replace("\t", " ").strip()

        assert norm(again.games[0].actions[0].comment) == norm(comment)


def test_a_comment_holding_a_row_stays_a_comment() -> None:
    m = parse_match(BASE)
    m.comments.append("note\n  3)   31: 8/5 6/5")
    text, dropped = render_match(m, "mat")
    again = parse_match(text)
    assert sum(len(g.actions) for g in again.games) == sum(len(g.actions) for g in m.games)
    assert "; note\n;   3)   31: 8/5 6/5\n" in text
    assert any("1 comment of several lines" in d for d in dropped)


def test_a_rating_that_is_not_a_number_never_makes_a_row() -> None:
    """Issue 26 (found by tests/test_extreme_values.py): a rating "\\r" was written raw after the name."""
    m = parse_match(BASE)
    m.games[0].ratings = ("\r", "1650\n Game 9")
    text, dropped = render_match(m, "mat")
    again = parse_match(text)
    assert _shape(again) == _shape(m) and again.games[0].ratings == (None, None)
    assert any("ratings that are not numbers" in d for d in dropped)


@settings(max_examples=40, deadline=None)
@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from(
    ["\x00", "\x01", "\x1b", "\ufffe", "\uffff", "\ud800", "&", "<", ">"]), max_size=30))
def test_svg_titles_stay_well_formed(title: str) -> None:
    """Issue 26: ``render --title $'\\x01'`` (or U+FFFE) made an SVG that no XML parser reads."""
    import xml.dom.minidom

    import render
    from notation.ids import parse_position

    svg = render.svg(parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"), heading=title,
                     names=(title, "b"))
    xml.dom.minidom.parseString(svg.encode("utf-8"))
