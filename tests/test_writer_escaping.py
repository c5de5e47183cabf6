"""No record text ever becomes structure: comments, names and tag values with line breaks, brackets or
backslashes are escaped (or written on lines of their own) by every writer, and reported where changed."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
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


@settings(max_examples=60, deadline=None)
@given(comment=HOSTILE, name=HOSTILE)
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
