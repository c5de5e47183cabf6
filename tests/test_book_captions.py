"""Book captions (``gammon render --caption auto``, :func:`render.captions.book_caption`): the game, who is
on roll and what is asked, as a book prints them above a problem; and a caption stays inside the image at
every size, whatever script it is written in."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DATA

import render
from notation.cli import main
from notation.ids import parse_xgid
from notation.matchio import read_match
from notation.position import Position
from notation.replay import replay_match
from render import _font
from render.captions import WORDS, book_caption
from render.display import Glyphs, Group

XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:0:0:7:10"


def test_the_game_and_the_question() -> None:
    pos = Position.initial()
    assert book_caption(pos.replace(dice=(2, 5))) == "Money game. White to play 52."
    assert book_caption(pos.replace(turn=1)) == "Money game. Black on roll. Cube action?"
    assert book_caption(pos.replace(match_length=7, score=(3, 0), dice=(5, 2))) == \
        "Match to 7, White leads 3-0. White to play 52."
    assert book_caption(pos.replace(match_length=7, score=(1, 4), turn=0)) == \
        "Match to 7, Black leads 4-1. White on roll. Cube action?"
    assert book_caption(pos.replace(match_length=5, score=(2, 2), turn=1, double_offered=True)) == \
        "Match to 5, 2-2. Black doubles. Take or pass?"
    assert book_caption(pos.replace(match_length=7, score=(6, 4), crawford=True, dice=(6, 6))) == \
        "Match to 7, White leads 6-4, Crawford game. White to play 66."
    assert book_caption(pos.replace(match_length=7, score=(3, 6), turn=0)) == \
        "Match to 7, Black leads 6-3, post-Crawford. White on roll. Cube action?"
    assert book_caption(pos.replace(match_length=7, score=(3, 6)), crawford_rule=False) == \
        "Match to 7, Black leads 6-3. White on roll. Cube action?"
    assert book_caption(pos.replace(match_length=7, score=(6, 6))) == \
        "Match to 7, 6-6. White on roll. Cube action?"  # double match point: no post-Crawford


def test_who_may_double_and_how_the_cube_is_offered() -> None:
    pos = Position.initial(match_length=0)
    assert book_caption(pos.replace(cube=2, cube_owner=1)) == "Money game. White on roll."  # Black's cube
    assert book_caption(pos.replace(cube=2, cube_owner=0)) == "Money game. White on roll. Cube action?"
    assert book_caption(pos.replace(max_cube=0)) == "Money game. White on roll."  # cubeless
    assert book_caption(pos.replace(cube=2, cube_owner=0, double_offered=True)) == \
        "Money game. White redoubles. Take or pass?"
    assert book_caption(pos.replace(double_offered=True, beavers=True)) == \
        "Money game. White doubles. Take, pass or beaver?"
    assert book_caption(pos.replace(match_length=7, score=(6, 2), crawford=True)) == \
        "Match to 7, White leads 6-2, Crawford game. White on roll."
    assert book_caption(pos.replace(resign_offered=2, resigner=1)) == \
        "Money game. Black offers to resign a gammon. Accept or reject?"


def test_names_where_known_and_pips_on_request() -> None:
    pos = Position.initial(match_length=7, score=(0, 3), dice=(4, 3), names=("Ann", "Ben"))
    assert book_caption(pos) == "Match to 7, Ben leads 3-0. Ann to play 43."
    assert book_caption(pos, pips=True) == "Match to 7, Ben leads 3-0. Ann to play 43. Pips: Ann 167, Ben 167."
    assert book_caption(pos.replace(names=("", "Ben"))) == "Match to 7, Ben leads 3-0. White to play 43."


def test_the_words_are_one_table() -> None:
    """Every word comes from WORDS (or the table given): a caption in another language changes them all."""
    shouting = {k: re.sub(r"(?<!\{)\b[a-zA-Z]+\b(?!\})", lambda m: m.group().upper(), v) for k, v in WORDS.items()}
    pos = Position.initial(match_length=7, score=(6, 4), crawford=True, dice=(5, 2))
    assert book_caption(pos, words=shouting, pips=True) == \
        "MATCH TO 7, WHITE LEADS 6-4, CRAWFORD GAME. WHITE TO PLAY 52. PIPS: WHITE 167, BLACK 167."
    tree = ast.parse((Path(render.__file__).parent / "captions.py").read_text(encoding="utf-8"))
    funcs = [f for f in tree.body if isinstance(f, ast.FunctionDef)
             and f.name in ("_side", "game_words", "_may_double", "question_words", "book_caption")]
    assert len(funcs) == 5
    texts = [n.value for f in funcs for n in ast.walk(f) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and n is not f.body[0].value]  # type: ignore[attr-defined]
    assert not [t for t in texts if re.search(r"[A-Za-z]{2,}\W", t)], "a word written outside WORDS"


def _expected(match: Any, game: Any, step: Any, crawford: bool) -> str:
    """The caption, from the record itself (not from the replay's positions): the match length and the
    game's score line, the player who acts and what he does."""
    names = [n or c for n, c in zip(match.names, ("White", "Black"), strict=True)]
    a, b = game.score
    if a == b:
        head = f"Match to {match.length}, {a}-{b}"
    else:
        head = f"Match to {match.length}, {names[0 if a > b else 1]} leads {max(a, b)}-{min(a, b)}"
    if crawford:
        head += ", Crawford game"
    elif (a == match.length - 1) != (b == match.length - 1):
        head += ", post-Crawford"
    act = step.action
    who = names[act.player]
    if act.kind == "move":
        return f"{head}. {who} to play {max(act.dice)}{min(act.dice)}."
    if act.kind == "double":
        return f"{head}. {who} on roll. Cube action?"
    # take / drop: the doubler asks, redoubling where a double of this game was taken before
    redoubles = any(a.kind == "take" for a in game.actions[:next(i for i, a in enumerate(game.actions) if a is act)])
    return f"{head}. {names[1 - act.player]} {'redoubles' if redoubles else 'doubles'}. Take or pass?"


@pytest.mark.parametrize("name", ["xg_ronde3.xg", "sgf_gnubg_analysed.sgf"])
def test_captions_of_twenty_positions_agree_with_the_record(name: str) -> None:
    match = read_match(DATA / name)
    rep = replay_match(match)
    checked = 0
    for gi, (game, g) in enumerate(zip(match.games, rep.games, strict=True)):
        for step in g.steps:
            if step.action.kind not in ("move", "double", "take", "drop") or checked >= 20:
                continue
            if step.action.kind == "move" and step.action.dice is None:
                continue
            got = book_caption(step.before, crawford_rule=match.rules.crawford)
            assert got == _expected(match, game, step, rep.crawford[gi]), (gi, step.action)
            checked += 1
    assert checked == 20


def test_render_caption_auto(tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    r = CliRunner().invoke(main, ["render", XGID, "--caption", "auto", "--caption-pips", "-o", str(out)])
    assert r.exit_code == 0, r.output
    pos = parse_xgid(XGID)
    assert "Match to 7, Black leads 3-0. Black to play 52. Pips: Black 167, White 167." == \
        book_caption(pos, pips=True)
    assert out.read_text(encoding="utf-8") == render.svg(pos, caption=book_caption(pos, pips=True), score=True)
    r = CliRunner().invoke(main, ["render", XGID, "--caption-pips", "-o", str(tmp_path / "x.svg")])
    assert r.exit_code == 2 and "--caption auto" in r.stderr


def test_render_caption_auto_on_a_match_move(tmp_path: Path) -> None:
    src = DATA / "xg_ronde3.xg"
    out = tmp_path / "m.svg"
    r = CliRunner().invoke(main, ["render", str(src), "--game", "2", "--move", "3", "--caption", "auto",
                                  "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert "<title>" in text
    auto = CliRunner().invoke(main, ["render", str(src), "--game", "2", "--move", "3", "-o",
                                     str(tmp_path / "d.svg")])
    assert auto.exit_code == 0 and (tmp_path / "d.svg").read_text(encoding="utf-8") != text  # default unchanged


# --------------------------------------------------------------------------- inside the image


def _glyph_boxes(group: Group, dx: float = 0.0, dy: float = 0.0) -> list[tuple[str, float, float, float, float]]:
    """Every character drawn, with the box its outline fills (output pixels)."""
    font = _font.default_font()
    out = []
    dx, dy = dx + group.dx, dy + group.dy
    for it in group.items:
        if isinstance(it, Group):
            out += _glyph_boxes(it, dx, dy)
        elif isinstance(it, Glyphs):
            scale = it.size / font.units_per_em
            for ch, x, y in it.chars:
                pts = [p for poly in font.glyph(ch).polygons(2) for p in poly]
                if not pts:
                    continue
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                out.append((ch, dx + x + min(xs) * scale, dy + y - max(ys) * scale,
                            dx + x + max(xs) * scale, dy + y - min(ys) * scale))
    return out


SCRIPTS = {
    "latin": "Ørsted-Kowalczyk leads Łódź Zürich Ångström, Müller to play 52 and then some more words",
    "greek": "Ο Παπαδόπουλος προηγείται 3-0, παίζει ο Κωνσταντινόπουλος",
    "cyrillic": "Жора Александрович ведёт 3-0, ходит Константинопольский",
    "armenian": "Հայաստանի առաջնությունը յոթ միավորով, Սպիտակը առաջատար է",
    "georgian": "საქართველოს ჩემპიონატი შვიდ ქულამდე, თეთრი ლიდერობს",
    "cjk": "七点マッチ、白が三対零でリード。白の手番、五二を打つ。" * 5,
    "one_long_word": "Supercalifragilisticexpialidocious" * 4,
    "hebrew": "אליפות ישראל עד שבע נקודות, הלבן מוביל שלוש לאפס, תור השחור",
    "arabic": "بطولة الطاولة حتى سبع نقاط، الأبيض يتقدم ثلاثة مقابل صفر، دور الأسود",
}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("size", [{"size": "small"}, {"size": "medium"}, {"size": "large"}, {"size": "print"},
                                  {"width": 64}, {"width": 300}])
def test_a_caption_stays_inside_the_image(script: str, size: dict[str, Any]) -> None:
    pos = parse_xgid(XGID).replace(names=("Ørsted", "Жора"))
    caption = book_caption(pos, pips=True) + " " + SCRIPTS[script]
    table = [("1.", "13/8 13/11 " + SCRIPTS[script][:30], "+0.123", ""), ("2.", "24/22 13/8", "-0.045", "-0.168")]
    for extra in ({}, {"names": True, "score": True, "pips": True}, {"play": ["13/8 13/11", "24/22 13/8"]},
                  {"heading": "Problem 12 " + SCRIPTS[script], "table": table, "play": "13/8 13/11",
                   "ghost_play": "24/22 13/8"}):
        d = render.drawing(pos, caption=caption, **size, **extra)
        boxes = _glyph_boxes(d.root)
        assert boxes
        outside = [b for b in boxes if b[1] < -0.01 or b[2] < -0.01 or b[3] > d.width + 0.01
                   or b[4] > d.height + 0.01]
        assert not outside, (d.width, d.height, outside[:3])


def test_a_word_wider_than_the_board_is_broken() -> None:
    """The check above can fail: before words were broken, a long one ran off the image."""
    pos = parse_xgid(XGID)
    d = render.drawing(pos, caption="W" * 200, size="small")
    boxes = _glyph_boxes(d.root)
    assert max(b[3] for b in boxes) <= d.width
    assert len({round(b[2]) for b in boxes if b[0] == "W"}) >= 3  # on three lines or more


def test_render_all_with_caption_auto(tmp_path: Path) -> None:
    src = DATA / "mat_gnubg_selfplay_1p.mat"
    out = tmp_path / "all"
    r = CliRunner().invoke(main, ["render", str(src), "--all", "--caption", "auto", "--format", "svg", "--jobs", "1",
                                  "-o", str(out)])
    assert r.exit_code == 0, r.output
    rep = replay_match(read_match(src))
    first = rep.games[0].steps[0]
    svg = (out / "game01_move001.svg").read_text(encoding="utf-8")
    assert f"<title>{book_caption(first.before)}</title>" in svg
    assert all("<title>Match to 1, 0-0. " in f.read_text(encoding="utf-8") for f in out.iterdir())


def _text(group: Group) -> str:
    """The text drawn (without its spaces, which are not drawn), a Glyphs item a line."""
    out = []
    for it in group.items:
        if isinstance(it, Group):
            out.append(_text(it))
        elif isinstance(it, Glyphs):
            out.append("".join(ch for ch, _, _ in it.chars))
    return "\n".join(out)


@pytest.mark.parametrize("length", [7, 0])
def test_the_game_is_said_once(length: int) -> None:
    """Where long names leave no room for the match length above the board, it goes into the caption, but
    not when the caption already says the game (a book caption said '7-point match. Match to 7, ...')."""
    long = ("Kévin UNGER Nicolas HARMAND", "Johan HUYCK Michael LARSEN")
    pos = parse_xgid(XGID).replace(names=long, match_length=length, score=(0, 0) if length == 0 else (2, 1))
    said = "7-pointmatch" if length else "Moneygame"  # spaces are not drawn
    plain = _text(render.drawing(pos, names=True, score=True, caption="White to play 52.").root)
    assert said in plain  # the length has no room above the board: the caption says it
    book = _text(render.drawing(pos, names=True, score=True, caption=book_caption(pos)).root)
    assert book.count("7-pointmatch") == 0 and book.count("Matchto7" if length else "Moneygame") == 1, book
