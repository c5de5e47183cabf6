"""The Jellyfish ``.mat`` reader: every real file, every dialect quirk, exact errors.

Oracles: the real files in ../shared/corpus/mat (games, cells and spans are counted against the raw
text; scores must add up from game to game) and GNU Backgammon itself (its Python module imports
the files it wrote and must see the same players, dice, moves and cube actions).
"""

from __future__ import annotations

import contextlib
import io
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS, DATA

from notation.errors import NotationError, ParseError
from notation.formats.mat import read_match, read_matches
from notation.play import parse_play
from notation.record import Match

MAT_CORPUS = CORPUS / "mat"
CORPUS_FILES = sorted(p for p in MAT_CORPUS.rglob("*") if p.is_file()) if MAT_CORPUS.is_dir() else []
GNUBG_DATA = sorted(DATA.glob("mat_gnubg_*.mat"))

ROW = re.compile(r"^\s*\d+\)")
DICE = re.compile(r"(?<![\d.])\d\d:")
GAME = re.compile(r"^\s*Game\s+\d+\s*$")


def decoded_lines(path: Path) -> list[str]:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252")
    return text.replace("\r\n", "\n").split("\n")


def notes(m: Match) -> list[str]:
    return [n.message for n in m.normalisations]


def kinds(m: Match, game: int = 0) -> list[tuple[str, int]]:
    return [(a.kind, a.player) for a in m.games[game].actions]


HEADER = " 5 point match\n\n Game 1\n a : 0                          b : 0\n"


def mat(body: str, header: str = HEADER) -> Match:
    return read_match(header + body)


# --------------------------------------------------------------------------- the real corpus


def test_corpus_is_present_or_skipped() -> None:
    if not CORPUS_FILES:
        pytest.skip("../shared/corpus/mat is not present")
    assert len(CORPUS_FILES) >= 100


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: str(p.relative_to(MAT_CORPUS)))
def test_corpus_file(path: Path) -> None:
    """Every real file reads; its games, cells and spans agree with the raw text."""
    matches = read_matches(path)
    lines = decoded_lines(path)
    assert matches
    assert sum(len(m.games) for m in matches) == sum(1 for line in lines if GAME.match(line))
    dice_cells = sum(len(DICE.findall(line)) for line in lines if ROW.match(line))
    assert dice_cells == sum(1 for m in matches for g in m.games for a in g.actions if a.dice is not None)
    for m in matches:
        assert m.format == "mat" and m.source == str(path)
        assert all(m.names) and m.span is not None
        for g in m.games:
            assert g.names and all(g.names) and g.score is not None and g.span is not None
            for a in g.actions:
                assert a.span is not None and a.text
                assert lines[a.span.line - 1][a.span.column - 1:].startswith(a.text), (a, a.span)
                assert a.span.end_column == a.span.column + len(a.text)
                if a.kind == "move":
                    assert a.dice is not None and a.play is not None
                    parse_play(a.play)  # the play text is well formed
                if a.kind in ("double", "beaver", "raccoon", "win", "loss"):
                    assert a.value and a.value > 0
            assert sum(1 for a in g.actions if a.kind == "win") <= 1
        for n in m.normalisations:
            assert n.message and (n.line is None or 1 <= n.line <= len(lines))


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: str(p.relative_to(MAT_CORPUS)))
def test_corpus_results_add_up(path: Path) -> None:
    """Who won each game (the column of 'Wins', Galaxy's 'Losses' ...) agrees with the next score line."""
    for m in read_matches(path):
        if m.length == 0:
            continue  # money sessions: the score lines are not cumulative
        for g, nxt in zip(m.games, m.games[1:], strict=False):
            assert g.result is not None and g.score is not None
            winner, points = g.result
            expected = list(g.score)
            expected[winner] += points
            assert tuple(expected) == nxt.score, f"game {g.number}"


def test_corpus_producers() -> None:
    """A few facts per producer, from the real files."""
    if not CORPUS_FILES:
        pytest.skip("../shared/corpus/mat is not present")
    m = read_match(MAT_CORPUS / "xg" / "xg_chicago-2022_nowell-trencher_11p.txt")
    assert m.names == ("Justin Nowell", "Chris Trencher") and m.length == 11
    assert m.tag("Player 1") == "Chris Trencher" and m.rules.cube_limit == 1024
    last = m.games[-1].actions
    assert [(a.kind, a.player, a.no_move) for a in last[-2:]] == [("roll", 0, "????"), ("win", 1, None)]
    assert any(a.kind == "resign" for g in m.games for a in g.actions)  # "Concedes"
    m = read_match(MAT_CORPUS / "bgstudio" / "bgstudio_aref91777-sahlen_13p.txt")
    assert "Sahlén" in (m.tag("Player 2") or "") + (m.tag("Player 1") or "")
    assert any("not UTF-8" in n for n in notes(m))
    m = read_match(MAT_CORPUS / "galaxy" / "match2900236.txt")
    assert any("repeated" in n for n in notes(m))
    assert m.games[-1].result == (0, 2)
    m = read_match(MAT_CORPUS / "bglib_nori" / "live_Nori-Kenji081229.txt")
    setups = [a for g in m.games for a in g.actions if a.kind == "setup"]
    assert len(setups) == 3 and setups[0].dice == (1, 1)


# --------------------------------------------------------------------------- GNU Backgammon as oracle


def _ours(m: Match) -> list[list[tuple]]:
    games = []
    for g in m.games:
        seq: list[tuple] = []
        for a in g.actions:
            if a.kind == "move":
                steps = []
                for s in parse_play(a.play or "").segments:
                    legs = list(zip(s.points, s.points[1:], strict=False))
                    steps += legs * s.count
                seq.append((a.player, "move", a.dice, tuple(sorted(steps))))
            elif a.kind in ("double", "beaver", "take", "drop"):
                seq.append((a.player, "double" if a.kind == "beaver" else a.kind))
            elif a.kind == "roll":
                seq.append((a.player, "set", a.dice))
        games.append(seq)
    return games


def _gnubg_view(gm: dict) -> list[list[tuple]]:
    player = {"X": 0, "O": 1}  # gnubg's Python match(): X is the first (left) player
    games = []
    for g in gm["games"]:
        seq: list[tuple] = []
        for a in g["game"]:
            p, k = player.get(a.get("player"), -1), a["action"]
            if k == "move":
                seq.append((p, "move", tuple(a["dice"]), tuple(sorted(tuple(x) for x in a.get("move", [])))))
            elif k in ("double", "take", "drop"):
                seq.append((p, k))
            elif k == "set" and "dice" in a:
                seq.append((p, "set", tuple(a["dice"])))
        games.append(seq)
    return games


def _gnubg_import(path: Path) -> dict:
    gnubg = pytest.importorskip("gnubg")
    with contextlib.redirect_stdout(io.StringIO()):
        gnubg.command(f'import mat "{path}"')
    return gnubg.match(analysis=False, boards=False, statistics=False)


@pytest.mark.parametrize("path", GNUBG_DATA, ids=lambda p: p.name)
def test_gnubg_reads_the_same(path: Path) -> None:
    assert _ours(read_match(path)) == _gnubg_view(_gnubg_import(path))


def test_gnubg_corpus_reads_the_same(gnubg_corpus: Path) -> None:
    files = sorted((gnubg_corpus / "mat").glob("*.mat"))
    assert files
    for path in files:
        m = read_match(path)
        assert _ours(m) == _gnubg_view(_gnubg_import(path)), path.name
        assert not [n for n in notes(m) if "runs into" not in n and "not played" not in n], path.name
    for path in sorted((gnubg_corpus / "snowie").glob("*.txt")):
        assert _ours(read_match(path)) == _ours(read_match(gnubg_corpus / "mat" / (path.stem + ".mat")))


# --------------------------------------------------------------------------- dialect files


def test_gnubg_export_dialect() -> None:
    """gnubg's own .mat export (1.07: ``import mat`` of a record, then ``export match mat``, which is how
    tests/data/gnubg_export_long_names.mat was written): a first column of 31 characters or more is not padded,
    so the score runs into the second name (``... HARMAND : 0Johan HUYCK ...``), and a game that ends with
    a roll not played (no result) leaves the roll's cell open, so the next ``Game 2`` is on its row."""
    path = DATA / "gnubg_export_long_names.mat"
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[9] == " Kévin UNGER Nicolas HARMAND : 0Johan HUYCK Michael LARSEN : 0"
    assert lines[36] == " 27) 11:  Game 2"
    m = read_match(path)
    assert [g.number for g in m.games] == [1, 2]
    assert [g.names for g in m.games] == [("Kévin UNGER Nicolas HARMAND", "Johan HUYCK Michael LARSEN")] * 2
    assert [g.score for g in m.games] == [(0, 0), (0, 0)]
    last = m.games[0].actions[-1]
    assert (last.kind, last.player, last.dice, last.move_number) == ("move", 0, (1, 1), 27)
    assert last.span is not None and last.span.line == 37
    g2 = m.games[1]
    assert g2.span is not None and (g2.span.line, g2.span.column) == (37, 11)
    assert g2.actions[0].move_number == 1 and g2.actions[-1].kind == "win"
    said = notes(m)
    assert sum("no blank between the first score and the second name" in n for n in said) == 2
    assert "'Game 2' at the end of a row's line, after a roll not played (gnubg's .mat export), read as a Game " \
           "line of its own" in said
    # gnubg reads every play and cube action alike, but for the roll on the Game line, which it loses (it
    # takes any line holding 'Game ' for a Game line); so this file is not one of GNUBG_DATA
    theirs = _gnubg_view(_gnubg_import(path))
    ours = _ours(m)
    assert ours[0][-1] == (0, "move", (1, 1), ()) and theirs == [ours[0][:-1], ours[1]]


def test_xg_dialect() -> None:
    m = read_match(DATA / "mat_xg_dialect.txt")
    assert notes(m)[:2] == ["UTF-8 byte order mark skipped", "CR LF line ends read as LF"]
    assert m.length == 11 and m.span is not None and m.span.column == 1
    assert m.tags[0] == ("Event", "40th Chicago Open Backgammon Tournament") and ("Round", "") in m.tags
    assert m.rules.crawford and m.rules.cube_limit == 1024 and m.rules.variant == "standard"
    g1, g2, g3 = m.games
    assert g1.names == ("Justin Nowell", "Chris Trencher")
    a = g1.actions
    assert (a[0].player, a[0].dice, a[0].play, a[0].move_number) == (1, (5, 2), "24/22 13/8", 1)
    assert a[0].span is not None and (a[0].span.line, a[0].span.column) == (15, 40)
    assert a[4].play == "Bar/21* 24/20 8/4(2)"
    assert [(x.kind, x.player, x.value) for x in a[6:9]] == [("double", 1, 2), ("take", 0, None),
                                                             ("move", 1, None)]
    assert a[6].text == "Doubles => 2" and a[6].span is not None and a[6].span.column == 41
    assert (a[9].play, a[9].no_move) == ("", "Cannot Move")
    assert (a[11].kind, a[11].dice, a[11].no_move, a[11].play) == ("roll", (6, 3), "???", None)
    assert (a[12].kind, a[12].player, a[12].value) == ("win", 1, 2)
    assert kinds(m, 1)[-2:] == [("resign", 0), ("win", 1)]
    assert g2.actions[-1].text == "Wins 1 point"
    assert g3.actions[1].play == "8/3(2) 6/1*(2)"
    assert (g3.actions[2].kind, g3.actions[2].dice, g3.actions[2].no_move) == ("roll", None, "????")
    assert g3.actions[3].text == "Wins 1 point and the match" and g3.actions[3].player == 1
    assert "'????' without dice read as a turn given up" in notes(m)


def test_galaxy_losses_and_repeated_numbers() -> None:
    m = read_match(DATA / "mat_galaxy_dialect.txt")
    assert m.tag("player 1 elo") == "0,00/0"
    # a Losses cell in the right column, then the left player's Wins
    assert [(a.kind, a.player, a.value) for a in m.games[0].actions[-2:]] == [("loss", 1, 2), ("win", 0, 2)]
    # a standalone, unindented Losses line: the player who does not win on the next result line
    assert [(a.kind, a.player, a.value) for a in m.games[1].actions[-2:]] == [("loss", 1, 1), ("win", 0, 1)]
    assert m.games[1].actions[-2].move_number is None
    # a Losses cell in the left column, Wins far to the right
    assert kinds(m, 2)[-2:] == [("loss", 0), ("win", 1)]
    # the row number repeated before the right column; the Wins in a third column
    last = m.games[3].actions
    assert [(a.kind, a.player, a.move_number) for a in last[-3:]] == [("move", 0, 2), ("loss", 1, 2),
                                                                      ("win", 0, 2)]
    found = notes(m)
    assert "row number 2) repeated before the right column (Galaxy)" in found
    assert "Galaxy 'Losses 1 point' line read as the loss of player 1" in found
    assert [n for n in m.normalisations if "repeated" in n.message][0].column == 35
    assert [g.result for g in m.games] == [(0, 2), (0, 1), (1, 1), (0, 2)]


def test_fibs_client_dialect() -> None:
    m = read_match(DATA / "mat_fibs_dialect.txt")
    assert "no line break at the end of the file" in notes(m)
    g1, g2 = m.games
    assert m.names == ("akaBOB", "nori") and g1.ratings == ("1810", "1722")
    assert "rating 1810 split off the name 'akaBOB,1810'" in notes(m)
    a = g1.actions
    assert a[2].dice == (1, 2) and a[2].play == "25/24 5/3"  # roll order kept as written
    # left cells that overflow into the right column
    assert (a[6].play, a[7].player, a[7].play) == ("13/10* 13/10 10/7* 10/7*", 1, "8/2 5/3")
    assert (a[8].play, a[9].player, a[9].play) == ("13/11 20/18 18/16* 16/14*", 1, "2/0 1/0")
    splits = [n for n in m.normalisations if "runs into the right column" in n.message]
    assert [(n.line, n.column) for n in splits] == [(8, 35), (9, 36)]
    assert (a[10].kind, a[10].play, a[10].no_move) == ("move", "", "")  # a dance, mid-game
    assert kinds(m, 0)[-3:] == [("double", 1), ("drop", 0), ("win", 1)]
    assert g2.actions[0].player == 1 and g2.actions[0].dice == (4, 6)
    # an empty roll right before the other player's Wins: rolled, then resigned
    assert [(x.kind, x.player, x.dice) for x in g2.actions[-2:]] == [("roll", 1, (5, 1)), ("win", 0, None)]


def test_bgstudio_latin1() -> None:
    m = read_match(DATA / "mat_bgstudio_latin1.txt")
    n = m.normalisations[0]
    assert (n.message, n.line, n.column) == ("the text is not UTF-8 (byte 0xe9); read as Windows-1252", 5, 18)
    assert m.tag("Player 2") == "Sahlén" and m.names == ("pedro roca", "Sahlén")
    a = m.games[0].actions
    assert a[1].span is not None and a[1].span.column == 41
    assert [x.play for x in a[2:6]] == ["bar/17*", "bar/21 24/21", "17/5 6/off(2)", "13/9(2)"]
    assert (a[-1].kind, a[-1].player, a[-1].value, a[-1].move_number) == ("win", 0, 4, 5)
    assert len(a) == 7  # the row with only its number holds nothing


def test_dailygammon_dialect() -> None:
    m = read_match(DATA / "mat_dailygammon_dialect.txt")
    assert m.normalisations[0].message == "Game line without a leading space"
    assert (m.normalisations[0].line, m.normalisations[0].column) == (3, 1)
    assert m.games[0].actions[1].span is not None and m.games[0].actions[1].span.column == 38
    assert kinds(m, 0)[-3:] == [("double", 1), ("drop", 0), ("win", 1)]
    assert m.games[1].result == (1, 2)


def test_snowie_illegal_play() -> None:
    m = read_match(DATA / "mat_snowie_setup.txt")
    a = m.games[0].actions
    assert (a[2].kind, a[2].player, a[2].dice, a[2].move_number) == ("setup", 0, (1, 1), 2)
    assert a[2].text.startswith("11: Illegal play (25;0;1;0;0;Kenji;nori;") and a[2].text.endswith(";1;1;)")
    assert (a[3].kind, a[3].player, a[3].dice, a[3].play) == ("move", 1, (1, 1), "")
    try:
        from notation.ids import parse_snowie  # noqa: F401
    except ImportError:
        return
    # the Snowie text names Kenji (the right player) first: its sides are swapped to the score line's
    pos = a[2].setup
    assert pos is not None and pos.dice == (1, 1) and pos.match_length == 25
    assert (pos.turn, pos.names, pos.score, pos.cube, pos.cube_owner) == (1, ("nori", "Kenji"), (8, 10), 2, 1)
    assert "the Snowie position names the players the other way round; its sides were swapped to match " \
           "the score line" in notes(m)
    with pytest.raises(ParseError) as e:
        read_match((DATA / "mat_snowie_setup.txt").read_text().replace(";-3;-3;-3;", ";-3;x;-3;"))
    assert e.value.line == 6 and e.value.column is not None and e.value.column > 40


def test_money_session_cube_and_several_matches() -> None:
    first, second = read_matches(DATA / "mat_multi_money.mat")
    assert first.length == 0 and first.comments == ["a money session"]
    assert first.rules.jacoby and first.rules.beavers
    assert [(a.kind, a.player, a.value) for a in first.games[0].actions[2:6]] == [
        ("double", 0, 2), ("beaver", 1, 4), ("raccoon", 0, 8), ("take", 1, None)]
    assert first.games[0].comments == ["connection lost"]
    assert second.tags == [("Match ID", "second"), ("Variation", "NackGammon"), ("CubeLimit", "1")]
    assert second.rules.variant == "nackgammon" and not second.rules.cube and second.length == 1
    assert second.games[0].actions[-1].player == 1
    m = read_match(DATA / "mat_multi_money.mat")
    assert m.tag("Match ID") == "money"
    assert "the file holds 2 matches; only the first was read (use read_matches)" in notes(m)


def test_roll_then_resign() -> None:
    m = read_match(DATA / "mat_gnubg_roll_then_resign_1p.mat")
    assert m.tags == [("EventDate", "2026.09.24")] and m.length == 1
    assert [(a.kind, a.player, a.dice) for a in m.games[0].actions] == [
        ("move", 1, (6, 2)), ("move", 0, (6, 2)), ("roll", 1, (5, 1)), ("win", 0, None)]


def test_scanner_agrees_with_the_grammar() -> None:
    """Rows are tokenised with the grammar's cell terminals compiled into one regular expression:
    the ``cells`` rule of mat.lark, run by lark, finds the same tokens."""
    from notation._grammar import parser
    from notation.formats import mat as mat_module

    cells = parser("mat", start="cells", lexer="contextual", propagate_positions=False)
    rows = 0
    for path in sorted(DATA.glob("mat_*")):
        for line in decoded_lines(path):
            row = line.strip()
            if not re.match(r"\d+\)|Wins|Losses", row):
                continue
            rows += 1
            ours = [(m.lastgroup, m.group(m.lastgroup or "")) for m in mat_module._cell_regex().finditer(row)]
            theirs = [(t.type, str(t)) for t in cells.parse(row).children]
            assert ours == theirs, row
    assert rows > 80


def _row_lines(path: Path) -> list[tuple[int, int, str]]:
    """Every row and result line of a file (line, column, text), as the reader takes them from its tree."""
    from notation.formats import mat as mat_module

    text, _ = mat_module._decode(path.read_bytes())
    tree = mat_module._line_tree(text)
    if tree is None:
        try:
            tree = mat_module._lark_tree(mat_module._file_parser().parse(text, start="start"))
        except Exception:  # noqa: BLE001 - a file lark refuses has no rows to compare
            return []
    out: list[tuple[int, int, str]] = []

    def walk(node: list) -> None:  # type: ignore[type-arg]
        for c in node:
            if isinstance(c, list):
                walk(c)
            elif c.type == "ROWS":
                out.extend(mat_module._rows_of(c)[0])

    walk(tree)
    return out


def _fast_row_is_general(line: int, column: int, text: str) -> bool:
    """Whether the fast reading of a row (``_rows``) takes it; if so, the general reading of its
    cells (``_row``) must read it the same: the same actions, notes, right-column starts and splits."""
    from notation.formats import mat as mat_module
    from notation.record import Game

    fast, general = (mat_module._Reader("", None, []) for _ in range(2))
    g1, g2 = Game(number=1), Game(number=1)
    left: list[str] = []
    fast._row = lambda game, text, line, column: left.append(text)  # type: ignore[method-assign]
    fast._rows(g1, [(line, column, text)])
    if left:
        return False
    try:
        general._row(g2, text.rstrip(), line, column)
    except NotationError as e:
        raise AssertionError((line, text, e)) from None
    assert g1.actions == g2.actions, (line, text)
    assert (fast.notes, fast.right_columns, fast.splits) == (general.notes, general.right_columns,
                                                              general.splits), (line, text)
    return True


def test_fast_rows_read_like_the_general_path() -> None:
    """The common row shape is read word by word; every row it takes (test data, the real corpus when
    present and the samples), the general reading of a row's cells reads the same."""
    files = sorted(DATA.glob("*.mat")) + sorted(DATA.glob("mat_*")) + sorted(
        (DATA.parent.parent / "samples").glob("*.mat")) + CORPUS_FILES
    assert len(files) > 10
    taken = 0
    for path in files:
        for line, column, text in _row_lines(path):
            taken += _fast_row_is_general(line, column, text)
    assert taken > 1000


def test_terminals_are_the_grammars() -> None:
    """The reader runs the grammar's terminals itself, generated from grammars/mat.lark: each is exactly the
    regular expression lark compiles, and the line reader's pieces (a line without its _GAP, a ROWS line's
    head and its glued Game line) are the pieces lark joins into the line terminals."""
    from notation.formats import mat as mat_module

    p = mat_module._file_parser()
    derived = mat_module._terminals()
    assert {n: derived[n] for n in mat_module._CELL_TERMINALS} == {
        n: p.get_terminal(n).pattern.to_regexp() for n in mat_module._CELL_TERMINALS}
    gap = derived["_GAP"]
    line_terminals = {t.name for t in p.terminals if gap in t.pattern.to_regexp()}
    assert line_terminals == {"TAG", "COMMENT", "MATCH_LINE", "GAME_LINE", "SCORE_LINE", "ROWS"}
    for name in (*line_terminals, "PLAIN_CELL", "SETUP"):
        assert derived[name] == p.get_terminal(name).pattern.to_regexp(), name
    for piece, name in (("_TAG", "TAG"), ("_COMMENT", "COMMENT"), ("_MATCH", "MATCH_LINE"), ("_GAME", "GAME_LINE"),
                        ("_SCORE", "SCORE_LINE")):
        assert derived[name] == derived[piece] + gap, name
    assert derived["ROWS"] == f"(?:{derived['_ROW_HEAD']}(?:{derived['_GLUED_ROW']}|{derived['_ROW_REST']}))+"


def _flat(tree: list, depth: int = 0) -> list:  # type: ignore[type-arg]
    """A tree of lines as comparable values: types, values' lines and line breaks, lines and columns of
    every token; the rows of each run of rows."""
    from notation.formats import mat as mat_module

    out: list = []  # type: ignore[type-arg]
    for c in tree:
        if isinstance(c, list):
            out.append(("(", depth))
            out.extend(_flat(c, depth + 1))
            out.append((")", depth))
        elif c.type == "ROWS":
            out.append((c.type, c.line, c.column, mat_module._rows_of(c)))
        else:
            out.append((c.type, c.line, c.column, mat_module._line_of(c), c.value.count("\n")))
    return out


def _line_tree_is_larks(text: str) -> bool:
    """Whether the line reader makes a tree of ``text``; if so, lark's parser of the grammar makes the
    same tree (the line reader takes the common shapes, and leaves the others to lark)."""
    from lark.exceptions import UnexpectedInput

    from notation.formats import mat as mat_module

    ours = mat_module._line_tree(text)
    if ours is None:
        return False
    try:
        theirs = mat_module._lark_tree(mat_module._file_parser().parse(text, start="start"))
    except UnexpectedInput as e:
        raise AssertionError(f"the line reader reads what lark refuses: {e}") from None
    assert _flat(ours) == _flat(theirs)
    return True


def test_line_tree_is_larks_tree() -> None:
    """Where the line reader makes a tree, it is lark's."""
    from notation.formats import mat as mat_module

    files = sorted(DATA.glob("*.mat")) + sorted(DATA.glob("mat_*")) + CORPUS_FILES + sorted(
        (DATA.parent.parent / "samples").glob("*.mat"))
    made = 0
    for path in files:
        text, _ = mat_module._decode(path.read_bytes())
        made += _line_tree_is_larks(text)
    assert made >= 10


@pytest.mark.parametrize("text", [
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22   64: 24/18 13/9\n",
    "\t1 point match\n\tGame 1\n\ta : 0                 b : 0\n\t  1) 52: 13/8 24/22   64: 24/18 13/9\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n\f 1) 52: 13/8 24/22\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22\n \t \n\n; c\n  2) 31: 8/5 6/5\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8\t24/22   64: 24/18 13/9\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8\x0b24/22   64: 24/18 13/9\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22\n  2) 43: 13/9 13/10\xa0\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22\n      wins 1 point\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22\n      Winsome 1 point\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22\n 3 point match\n Game 1\n"
    " a : 0   b : 0\n",
    " 1 point match\n\n Game 1\n",
    " 1 point match\n\n Game 1\n; a comment\n a : 0  b : 0\n",
    "; [Event \"x\"]\n# [Game 1, Move 3]\n;\n\n 1 point match\n; [Site \"y\"]\n game 1\n a : 0  b : 0\n",
    "  1) 52: 13/8 24/22\n 1 point match\n",
    " 1 point match\n  1) 52: 13/8 24/22\n",
    " Game 1\n a : 0  b : 0\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22\n  2) 4\u0663: 13/9\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1\u0663) 52: 13/8 24/22\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22    \n\n\n",
    " 1 point match\n\n Game 1\n a : 0                 b : 0\n  1) 52: 13/8 24/22\n  Game 2\n",
    "1 point match\n\nGame 1\na : 0 b : 0\n1) 52: 13/8 24/22\n2) 52:  13/8  24/22   11: 6/5(4)\n",
])
def test_line_tree_edge_shapes(text: str) -> None:
    """Lines at the edges of what the line reader takes (blanks other than spaces, tabs, a comment
    between the Game and score lines, a file that ends after a Game line, rows before the match line,
    other digits): where it makes a tree, it is lark's; every row the fast reading takes, the general
    reading reads the same."""
    from notation.formats import mat as mat_module

    decoded, _ = mat_module._decode(text.encode("utf-8"))
    _line_tree_is_larks(decoded)
    for k, line in enumerate(decoded.split("\n")):
        s = line.lstrip(" \t")
        if s[:1].isdigit():
            _fast_row_is_general(k + 1, len(line) - len(s) + 1, s)


def test_fast_rows_edge_shapes() -> None:
    """Rows at the edges of the fast shape: no space after the number, a long left cell pushing the
    right one, a right cell alone, a third cell, an empty left cell, bad dice."""
    rows = [
        "  1)52: 13/8 24/22                 31: 8/5 6/5",
        "  1) 52: 13/8 24/22 13/11 6/1* 24/23 8/7 24/22 21/18  64: 24/18 13/9",
        "  1)                             64: 24/18 13/9",
        "  1) 52: 13/8 24/22     64: 24/18 13/9      31: 8/5 6/5",
        "  1) 52:                         64: 24/18 13/9",
        "  1) 72: 13/6                    64: 24/18 13/9",
        "  1) 52: 13/8 24/22 junk        64: 24/18 13/9",
        "  1)  52: 13/8 24/22             64: 24/18 13/9",
        "123) 52: 13/8 24/22             64: 24/18 13/9",
        "  1) 52: Cannot Move             64: ???",
        "  123456789012345) 52: 13/8 24/22",
        "  123456789012345)  52: 13/8 24/22",
        "  1) 52: 13/8\t24/22             64: 24/18 13/9",
        "  1) 52: 13/8 24/22\t            64: 24/18 13/9",
        "  1) 52: 13/8 24/22             64: 24/18\x0c13/9",
        "  1) 52: 13/8 24/22             64: 24/18 13/9\x1f",
        "  1) 52: 13/8 24/22             64: 24/18 13/9 \u00a0",
        "  1) 52: 13/8 24/22             6\u0664: 24/18 13/9",
        "  1) 52: 13/8 24/22             64: 24/18 13/9 13/9",
        "  1) 52: 13/8 24/22             64: 24/18 13/9 13/9 1/0 2/0",
        "  1) 52: 13/8 24/22             64:",
        "  1) 52:                        64:",
        "  1) 52: 13/8 24/22 64: 24/18 13/9",
        "  1) 52: 13/8 24/22 64: 24/18 13/9 31: 8/5",
        "  1) 52: 13/8 24/22             64: 24/18 13/9   Wins 1 point",
        "  1) 52: Bar/20 off/3 b/4            64: bar/18* 13/off 6/4*(2)",
        "  1) 52: 13-8 24/22             64: 24/18 13/9",
        "  1) 52: 13/8, 24/22            64: 24/18 13/9",
        "  1) 52: 13/8 24/22             64:24/18 13/9",
        "  1) 00: 13/8 24/22             64: 24/18 13/9",
        "  1)) 52: 13/8 24/22",
        "  1234567890) 52: 13/8 24/22",
        "  0) 52: 13/8 24/22",
        "               1) 52: 13/8 24/22",
        "  1) 52: 26/20 24/22",
        "    123456789) 52: 13/8 24/22",
        "    123456789)  52: 13/8 24/22",
        "    123456789)   52: 13/8 24/22",
        "    123456789)  52: 13/8 24/22      64: 24/18 13/9",
        "  1) 52::",
        "  1) 52:: 13/8",
        "  1) 52:64: 24/18",
        "  1) 5:2: 13/8",
        "  1) 52: 13/8 :64: 24/18",
        "  1) 52: 13/8  6: 24/18",
        "  1) 52 : 13/8",
        "  1) 52:  ",
        "  1) 52: 13/8          64:    ",
        "  1) 52: 13/8          64: 24/18:",
        "  1:) 52: 13/8",
        "  1)\t52: 13/8",
        "  1) 52:\t13/8",
        "  1) 52: 13/8\x0b",
        "  1) 52: 13/8  \x0b  64: 24/18",
        "  1) 52: 13/8 24/22 8/4 6/3 64: 24/18",
    ]
    taken = 0
    for row in rows:
        s = row.lstrip(" ")
        taken += _fast_row_is_general(5, len(row) - len(s) + 1, s)
    assert 10 < taken < len(rows) - 10


# --------------------------------------------------------------------------- focused quirks


def test_sources_path_bytes_text(tmp_path: Path) -> None:
    text = (DATA / "mat_gnubg_selfplay_1p.mat").read_text()
    p = tmp_path / "x.mat"
    p.write_text(text)
    from_path = read_match(p)
    assert from_path.source == str(p)
    assert read_match(str(p)).source == str(p)
    assert read_match(text.encode()).source is None
    assert read_match(text, name="given.mat").source == "given.mat"
    assert len(read_match(text).games[0].actions) == len(from_path.games[0].actions)


def test_tags_comments_and_rules() -> None:
    m = read_match('; [Event "A \\"quoted\\" \\\\ event"]\n; [Crawford "Off"]\n; [Jacoby "On"]\n'
                   '; [Beaver "On"]\n; [CubeLimit "64"]\n; [Variation "HyperGammon (2)"]\n'
                   '; a free comment\n;no space\n# [Game 1, Move 3: Dice set to 31]\n\n 3 point match\n')
    assert m.tag("event") == 'A "quoted" \\ event'
    r = m.rules
    assert (r.crawford, r.jacoby, r.beavers, r.cube_limit, r.cube, r.variant) == (
        False, True, True, 64, True, "hypergammon2")
    assert m.comments == ["a free comment", "no space", " [Game 1, Move 3: Dice set to 31]"[1:]]
    assert m.games == []
    # gnubg writes tag values without escaping
    assert read_match('; [Event ""Test Event""]\n 1 point match\n').tag("Event") == '"Test Event"'
    assert read_match('; [Event "Test \\Event]"]\n 1 point match\n').tag("Event") == "Test \\Event]"


def test_match_line_forms() -> None:
    assert read_match("0 point match\n").length == 0
    assert read_match("   25 Point Match  \n").length == 25
    m = read_match("\n\n\n 7 point match")
    assert m.length == 7 and m.span is not None and (m.span.line, m.span.column) == (4, 2)


@pytest.mark.parametrize(("line", "names", "ratings"), [
    (" Kévin UNGER Nicolas HARMAND : 0    Johan HUYCK : 3", ("Kévin UNGER Nicolas HARMAND", "Johan HUYCK"),
     (None, None)),
    (" Torsten & Rainer : 1     Ed O'Laughlin : 0", ("Torsten & Rainer", "Ed O'Laughlin"), (None, None)),
    (" zoonk,1666 : 0     goldbach7808,1673 : 0", ("zoonk", "goldbach7808"), ("1666", "1673")),
    (" gridplayer, 1623 : 0   other : 0", ("gridplayer", "other"), ("1623", None)),
    (" X-22 : 4                        Jacobsen : 3", ("X-22", "Jacobsen"), (None, None)),
    (" pedro roca  : 0                        sam64 : 0", ("pedro roca", "sam64"), (None, None)),
])
def test_score_line_names(line: str, names: tuple[str, str], ratings: tuple) -> None:
    m = read_match(f" 5 point match\n\n Game 1\n{line}\n")
    g = m.games[0]
    assert g.names == names and g.ratings == ratings and m.names == names
    assert g.score_span is not None and g.score_span.line == 4


@pytest.mark.parametrize("width", [33, 37, 39, 40, 48])
def test_column_widths(width: int) -> None:
    def row(n: int, left: str, right: str) -> str:
        head = f"{n:3d}) {left}"
        return head + " " * max(1, width - len(head)) + right + "\n"

    body = (row(1, "", "52: 13/8 24/22") + row(2, "31: 8/5 6/5", " Doubles => 2")
            + row(3, " Takes", "61: 13/7 8/7") + row(4, "66: 24/18 24/18 13/7 13/7 8/2", "43: 24/20 13/10")
            + " " * (width + 1) + "Wins 2 points\n")
    m = mat(body)
    assert kinds(m) == [("move", 1), ("move", 0), ("double", 1), ("take", 0), ("move", 1), ("move", 0),
                        ("move", 1), ("win", 1)]
    assert m.games[0].actions[0].span is not None and m.games[0].actions[0].span.column == width + 1


def test_no_move_forms() -> None:
    m = mat("  1) 52:                         63: Cannot Move\n  2) 41: ???                      ????\n")
    a = m.games[0].actions
    assert [(x.kind, x.play, x.no_move) for x in a[:2]] == [("move", "", ""), ("move", "", "Cannot Move")]
    assert (a[2].kind, a[2].dice, a[2].no_move) == ("roll", (4, 1), "???")
    b = mat("  1) 52: 13/8 24/22             ????\n").games[0].actions[1]
    assert (b.kind, b.player, b.dice, b.no_move) == ("roll", 1, None, "????")


def test_cube_and_result_tokens() -> None:
    m = mat("  1) 52: 13/8 24/22              Doubles => 2\n  2)  Beavers => 4               Raccoons => 8\n"
            "  3)  Takes                      61: 13/7 8/7\n  4)  Concedes                   Accepts\n"
            "  5)  Rejects\n      Wins 16 points and the match\n")
    assert [(a.kind, a.player, a.value) for a in m.games[0].actions] == [
        ("move", 0, None), ("double", 1, 2), ("beaver", 0, 4), ("raccoon", 1, 8), ("take", 0, None),
        ("move", 1, None), ("resign", 0, None), ("accept", 1, None), ("reject", 0, None), ("win", 0, 16)]


def test_result_placement() -> None:
    for body, winner in [
        ("  1) 52: 13/8 24/22\n      Wins 1 point\n", 0),
        ("  1) 52: 13/8 24/22\n                                  Wins 1 point\n", 1),
        ("  1) 52: 13/8 24/22              Wins 1 point\n", 1),
        (" 14)  Drops                       Wins 1 point \n", 1),
        ("  1)  Doubles => 2                Drops\n      Wins 1 point\n", 0),
        (" 21)  Wins 2 point\n", 0),
    ]:
        assert mat(body).games[0].result[0] == winner, body  # type: ignore[index]


def test_glued_row_and_comments_inside_a_game() -> None:
    m = mat("  1) 52: 13/8 24/22             31:   2) 61: 13/7 8/7\n; a remark\n  3) 44:\n")
    a = m.games[0].actions
    assert [(x.player, x.move_number) for x in a] == [(0, 1), (1, 1), (0, 2), (0, 3)]
    assert "row 2) glued to the end of row 1)" in notes(m)
    # a comment line between rows is the comment of the action before it (as the writer writes one)
    assert m.games[0].comments == [] and [x.comment for x in a] == [None, None, "a remark", None]
    assert not any("comment line inside game 1" in n for n in notes(m))


def test_bom_in_text_and_cr_only() -> None:
    m = read_match("\ufeff 1 point match\r Game 1\r a : 0   b : 0\r  1) 52: 13/8 24/22\r")
    assert notes(m) == ["byte order mark skipped", "CR line ends read as LF"]
    assert m.games[0].actions[0].play == "13/8 24/22"
    both = (DATA / "mat_xg_dialect.txt").read_bytes() + (DATA / "mat_xg_dialect.txt").read_bytes()
    two = read_matches(both)
    assert len(two) == 2 and two[1].tags == two[0].tags
    assert "byte order mark at the start of a line removed" in notes(two[0])


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(("body", "line", "column", "message"), [
    ("  1) 52: 13/8 24/22             71: 13/6\n", 5, 33, "dice 71 are not a roll"),
    ("  1) 52: 13/8 24/22             31: 8/x 6/5\n", 5, 39, "unexpected character 'x' in play '8/x 6/5'"),
    ("  1) 52: 13/8 24/22             31: 8/5 6/55\n", 5, 43, "point 55 is not 0..25"),
    ("  1) 52: 13/8 24/22             31: 8/5 6/\n", 5, 43, "move '6/' ends without a point"),
    ("  1) 52: 13/8 24/22             Surrenders\n", 5, 33, "unknown cell text 'Surrenders'"),
    ("  1) 52: 13/8 24/22             31: 8/5 6/5  Takes\n", 5, 46, "a third cell 'Takes' on one row"),
    ("  1) 52: 13/8 24/22\nhello world\n", 6, 1, "unrecognised line 'hello world'"),
    ("  1) 52: 13/8 24/22\n  2) 00: 13/8\n", 6, 6, "dice 00 are not a roll"),
])
def test_syntax_errors(body: str, line: int, column: int, message: str) -> None:
    with pytest.raises(ParseError) as e:
        mat(body)
    assert (e.value.line, e.value.column) == (line, column)
    assert message in e.value.message and "\n" not in str(e.value)


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    (" 3 point match\n\n Game 1\n  1) 52: 13/8\n", 4, 3, "expected a score line"),
    (" Game 1\n a : 0   b : 0\n", 1, 2, "expected the 'N point match' line"),
    ("", 1, 1, "no 'N point match' line"),
    ("; only a comment\n", 1, 1, "no 'N point match' line"),
    (" 3 point match\n Game 1\n", 2, 1, "the file ends before the score line"),
    ('; [Variation "Foo"]\n 3 point match\n', 1, 1, "unknown variation 'Foo'"),
])
def test_structure_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(ParseError) as e:
        read_match(text)
    assert (e.value.line, e.value.column) == (line, column)
    assert message in e.value.message


def test_error_names_the_file(tmp_path: Path) -> None:
    p = tmp_path / "bad.mat"
    p.write_text(" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 77: 13/8\n")
    with pytest.raises(NotationError) as e:
        read_match(p)
    assert str(e.value) == f"{p}:5:6: dice 77 are not a roll"
    assert isinstance(e.value, ValueError)


def test_normalisation_kinds_on_the_corpus() -> None:
    """Every kind of normalisation shows up on the real files, each with a line."""
    if not CORPUS_FILES:
        pytest.skip("../shared/corpus/mat is not present")
    seen: Counter[str] = Counter()
    for path in CORPUS_FILES:
        for m in read_matches(path):
            for n in m.normalisations:
                seen[re.sub(r"\d+|'[^']*'", "#", n.message)] += 1
                assert n.line is not None
    text = " | ".join(seen)
    for kind in ("byte order mark", "CR LF", "not UTF-#", "no line break", "rating # split off",
                 "runs into the right column", "Game line without a leading space", "Galaxy # line",
                 "repeated", "not played"):
        assert kind in text, kind


@pytest.mark.parametrize(("text", "fmt"), [
    (b"\n\n 7 point match\n", "mat"), (b"  1234567890 POINT MATCH\n", "mat"), (b"Game 12 and more\n", "mat"),
    (b"\t; [Site \"x\"]\n", "mat"), (b"#[x\n", "mat"), (b"x\n money game\n", None), (b"x\n Games 1\n", None),
    (b"point match\n", None), (b"x 7 point match\n", None)])
def test_what_a_transcript_looks_like(text: bytes, fmt: str | None) -> None:
    """A file is taken for a .mat transcript by its content when a line starts as the grammar's MAT_HEAD
    says: a match line, a Game line or a header tag, with any number of digits (the reader then says what is
    wrong with them)."""
    from notation.errors import ParseError
    from notation.matchio import detect_format

    if fmt is None:
        with pytest.raises(ParseError, match="unrecognised format"):
            detect_format(None, text)
    else:
        assert detect_format(None, text) == fmt


def test_every_transcript_here_looks_like_one() -> None:
    from notation.matchio import detect_format

    files = sorted(DATA.glob("*.mat")) + [p for p in CORPUS_FILES if p.suffix == ".mat"]
    assert files
    for path in files:
        assert detect_format(None, path.read_bytes()) == "mat", path
