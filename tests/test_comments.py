"""Comments: XG's (``temp.xgc``, on the match, a game, a decision) read onto what they are about, and
every comment kept where it belongs by every writer that can hold it: JSON, SGF ``C``/``GC`` on the
right node, ``.mat`` comment lines (a decision's right after its row, read back onto it), the text
record and the page; non-ASCII text survives every round trip, and gnubg reads the ``.mat`` with
comment lines as the same match."""

from __future__ import annotations

import struct
import subprocess
from html import escape
from pathlib import Path

import pytest
from conftest import CORPUS, DATA, GNUBG, have_gnubg
from xg_container import container, records, rtf

import notation
from notation.convert import render_match
from notation.formats.json_format import from_json
from notation.formats.sgf import read_sgf
from notation.formats.xg import CUBE, HEADER_GAME, MOVE, read_xg
from notation.matchio import parse_any

WITH_COMMENT = CORPUS / "xg" / "match_with_comment.xg"

TEXTS = ["Match notes: Kévin Unger (France) — «entraînement»", "the end: 7-3",
         "Game 1, Jørgen's opening\nsecond line", "game over: 日本語 ✓",
         "coup assez difficile à trouver", "doubler ? ça se discute", "no double: ¡ok!"]


def commented_file() -> tuple[bytes, dict[str, int]]:
    """tests/data/xg_ronde3.xg with a comment at every level XG has one: the match (its header and its
    end), game 1 (its header and its end), a play, a double, and a decision not to double."""
    recs = [bytearray(r) for r in records((DATA / "xg_ronde3.xg").read_bytes())]
    struct.pack_into("<2i", recs[0], 576, 0, 1)
    game = next(i for i, r in enumerate(recs) if r[8] == HEADER_GAME)
    struct.pack_into("<2i", recs[game], 56, 2, 3)
    move = next(i for i, r in enumerate(recs) if i > game + 6 and r[8] == MOVE)
    struct.pack_into("<i", recs[move], 2524, 4)
    double = next(i for i, r in enumerate(recs) if r[8] == CUBE and struct.unpack_from("<i", r, 16)[0] == 1)
    struct.pack_into("<i", recs[double], 292, 5)
    nodouble = next(i for i, r in enumerate(recs) if i > move + 2 and r[8] == CUBE
                    and struct.unpack_from("<i", r, 16)[0] == 0 and recs[i + 1][8] == MOVE)
    struct.pack_into("<i", recs[nodouble], 292, 6)
    xgc = b"".join(rtf(t) for t in TEXTS)
    return container(b"".join(recs), thumbnail=b"\xff\xd8\xff\xd9", comments=xgc), {
        "move": move, "double": double, "nodouble": nodouble}


def _action_comments(m: notation.Match) -> list[tuple[int, str, str]]:
    return [(g.number, a.kind, a.comment) for g in m.games for a in g.actions if a.comment]


def test_xg_comments_are_read_onto_what_they_are_about() -> None:
    data, at = commented_file()
    (m,) = read_xg(data, name="c.xg")
    assert m.comments == [TEXTS[0], TEXTS[1]]
    assert m.games[0].comments == [TEXTS[2], TEXTS[3]]
    by_record = {a.span.line - 1: a for g in m.games for a in g.actions if a.comment and a.span}
    assert by_record[at["move"]].comment == TEXTS[4] and by_record[at["move"]].kind == "move"
    assert by_record[at["double"]].comment == TEXTS[5] and by_record[at["double"]].kind == "double"
    # the decision not to double is the turn's: with the roll that follows
    assert by_record[at["nodouble"] + 1].comment == TEXTS[6] and by_record[at["nodouble"] + 1].kind == "move"
    assert not [n for n in m.normalisations if "temp.xgc" in n.message]


def test_the_corpus_comments() -> None:
    if not WITH_COMMENT.exists():
        pytest.skip("../shared/corpus/xg is not available")
    m = notation.read_match(WITH_COMMENT)
    assert [(n, k, c) for n, k, c in _action_comments(m)] == [
        (1, "move", "coup assez difficile"), (1, "move", "les double 66 sont toujpurs difficiles à trouver")]
    plays = [a.text for g in m.games for a in g.actions if a.comment]
    assert plays == ["54: 18/14* 13/8", "66: 13/7 13/7 13/7 24/18"]


def test_xg_comments_as_xgdatatools_finds_them(tmp_path: Path) -> None:
    """xgdatatools hands over temp.xgc and the records' comment indexes: each RTF document is one of
    our comments, and each index names the comment we put there."""
    try:
        from ankigammon.thirdparty.xgdatatools import xgimport, xgstruct  # type: ignore[import-not-found]
    except ImportError:
        pytest.skip("the oracle xgdatatools (pip install --no-deps ankigammon) is not installed")
    data, at = commented_file()
    path = tmp_path / "c.xg"
    path.write_bytes(data)
    docs = 0
    named: dict[int, int] = {}
    for seg in xgimport.Import(str(path)).getfilesegment():
        if seg.type == xgimport.Import.Segment.XG_COMMENT:
            seg.fd.seek(0)
            docs = seg.fd.read().count(b"{\\rtf1")
        elif seg.type == xgimport.Import.Segment.XG_GAMEFILE:
            seg.fd.seek(0)
            version, k = -1, 0
            while (r := xgstruct.GameFileRecord(version=version).fromstream(seg.fd)) is not None:
                if isinstance(r, xgstruct.HeaderMatchEntry):
                    version = r.Version
                if isinstance(r, xgstruct.MoveEntry) and r.CommentMove >= 0:
                    named[k] = r.CommentMove
                elif isinstance(r, xgstruct.CubeEntry) and r.CommentCube >= 0:
                    named[k] = r.CommentCube
                k += 1
    assert docs == len(TEXTS)
    (m,) = read_xg(data, name="c.xg")
    ours = {a.span.line - 1: a.comment for g in m.games for a in g.actions if a.comment and a.span}
    assert {k: TEXTS[i] for k, i in named.items() if k != at["nodouble"]} == \
        {k: v for k, v in ours.items() if k != at["nodouble"] + 1}


def _levels(m: notation.Match) -> tuple[str, list[str], list[str]]:
    return ("\n".join(m.comments), ["\n".join(g.comments) for g in m.games],
            [a.comment or "" for g in m.games for a in g.actions if a.comment])


@pytest.mark.parametrize("fmt", ["json", "sgf", "mat"])
def test_every_writer_keeps_every_comment_where_it_belongs(fmt: str) -> None:
    data, _ = commented_file()
    (m,) = read_xg(data, name="c.xg")
    text, dropped = render_match(m, fmt)
    # .mat holds a comment of several lines as several comment lines, read back as several comments of
    # the game (said): the text is all there
    assert not [d for d in dropped if "comment" in d and "of several lines" not in d], dropped
    (back,) = parse_any(text.encode("utf-8"), name=f"c.{fmt}")
    assert _levels(back) == _levels(m)
    assert _action_comments(back) == _action_comments(m)  # each on the same action, non-ASCII as written


def test_the_text_record_and_the_page_show_every_comment() -> None:
    from render.html import match_page

    data, _ = commented_file()
    (m,) = read_xg(data, name="c.xg")
    text, dropped = render_match(m, "txt")
    assert not [d for d in dropped if "comment" in d]
    page = match_page(m)
    for t in TEXTS:
        for line in t.split("\n"):
            assert f"; {line}" in text, line
        assert escape(t) in page, t
    # beside the move: in the move's row of the list
    row = next(r for r in page.split("<tr ") if escape(TEXTS[4]) in r)
    assert "class=comment" in row and "data-a=" in row


def test_mat_comment_lines_round_trip_and_gnubg_reads_the_same_match(tmp_path: Path) -> None:
    """A comment on the left cell of a row is written after that cell, the right cell following in a
    row of the same number: our reader puts each comment back on its action, gnubg reads the moves as
    without comments."""
    m = notation.read_match(DATA / "sgf_gnubg_selfplay.mat")
    moves = [a for a in m.games[0].actions if a.kind == "move"]
    moves[2].comment = "left cell: à voir"
    moves[5].comment = "right cell\ntwo lines"
    text, dropped = render_match(m, "mat")
    assert not [d for d in dropped if "comment" in d]
    back = notation.parse_match(text)
    assert _action_comments(back) == _action_comments(m)
    assert [a.move_number for a in back.games[0].actions] == [a.move_number for a in m.games[0].actions]
    if not have_gnubg():
        pytest.skip("gnubg is not installed")
    plain, _ = render_match(notation.read_match(DATA / "sgf_gnubg_selfplay.mat"), "mat")
    outs = []
    for name, body in (("with", text), ("without", plain)):
        src = tmp_path / f"{name}.mat"
        src.write_text(body, encoding="utf-8")
        out = tmp_path / f"{name}-back.mat"
        subprocess.run([GNUBG, "-t", "-q"], input=f"import mat {src}\nexport match mat {out}\n", text=True,
                       capture_output=True, timeout=120)
        outs.append(out.read_text())
    assert outs[0] == outs[1]


def test_sgf_comments_of_gnubg_files_survive_json_and_mat() -> None:
    path = DATA / "sgf_gnubg_analysed.sgf"
    m = read_sgf(path)
    m.games[0].actions[3].comment = "Ελληνικά και русский"
    assert from_json(render_match(m, "json")[0]) == m
    back = notation.parse_match(render_match(m, "mat")[0])
    assert _action_comments(back) == _action_comments(m)


def test_sgf_keeps_a_games_comments_apart() -> None:
    """Issue 35 item 11: a game's two comments were written as one C (joined by a line break) and read back as
    one; each is a value of the root's C now, read back as its own comment (gnubg reads no root C at all:
    ``load match`` then ``save match`` drops it, one value or several)."""
    from notation.formats.sgf import read_sgf
    from notation.formats.sgf_write import write_sgf

    m = notation.read_match(Path(__file__).parent / "data" / "mat_galaxy_dialect.txt")
    m.games[0].comments = ["one\nline two", "three"]
    text, dropped = write_sgf(m)
    assert read_sgf(text).games[0].comments == ["one\nline two", "three"]
    assert not [d for d in dropped if "comment" in d]
