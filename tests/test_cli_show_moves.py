"""``gammon show`` and ``gammon moves``: output, JSON, auto-detection, bad input (one line on stderr,
exit status 2, no traceback), through click's CliRunner and once as ``python -m notation.cli``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import main
from notation.ids import ascii_board, fibs_board, parse_position, position_id, snowie
from notation.play import play_result, resolve_play
from notation.rules import ALL_ROLLS

ROOT = Path(__file__).resolve().parents[1]
OPENING_31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10"
C1 = "XGID=---ABBA------------bbaa---:1:1:1:00:4:3:0:9:10"
DANCE = "XGID=-------------D-----bbbbbbA:0:0:1:64:0:0:0:0:10"  # X on the bar against a closed board


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# =========================================================================== show


def test_show_text() -> None:
    code, out, err = run("show", OPENING_31)
    assert code == 0 and err == ""
    p = parse_position(OPENING_31)
    assert out.startswith(ascii_board(p) + "\n\n")
    lines = dict(line.split(":", 1) for line in out.splitlines()[16:])
    assert lines["Format"].strip() == "XGID"
    assert lines["On roll"].strip() == "X (player 1) rolled 31"
    assert lines["Pips"].strip() == "167 on roll (X), 167 opponent (O)"
    assert lines["Cube"].strip() == "1, centred"
    assert lines["Match"].strip() == "7-point match, score O 0 - X 0"
    assert lines["GNUbg ID"].strip() == "4HPwATDgc/ABMA:cInlAAAAAAAE"
    assert lines["XGID"].strip() == OPENING_31


def test_show_json() -> None:
    code, out, err = run("show", "--json", C1)
    assert code == 0 and err == "" and out.count("\n") == 1
    info = json.loads(out)
    for key in ("xgid", "gnubg_id", "position_id", "match_id", "fibs", "snowie", "pips", "problems"):
        assert key in info
    assert info["gnubg_id"] == "1AYAANoCAAAAAA:UQkgATAAIAAE"  # vectors.md C1
    assert info["position_id"] == "1AYAANoCAAAAAA" and info["match_id"] == "UQkgATAAIAAE"
    assert info["pips"]["on_roll"] == 27 and info["pips"]["opponent"] == 29  # as the XG export says
    assert info["problems"] == [] and info["xgid"] == C1 and info["format"] == "xgid"
    assert info["score"] == [3, 4] and info["match_length"] == 9 and info["cube"] == {
        "value": 2, "owner": 1, "max_cube": 10}


@pytest.mark.parametrize("fmt", ["xgid", "gnubg", "position_id", "fibs", "snowie", "ascii"])
def test_show_detects_every_format(fmt: str) -> None:
    p = parse_position("b9sBCIC5bYDQAA:QQnlAGAAGAAE").replace(names=("Ann", "Bob"))
    text = {"xgid": "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10",
            "gnubg": "b9sBCIC5bYDQAA:QQnlAGAAGAAE", "position_id": "b9sBCIC5bYDQAA", "fibs": fibs_board(p),
            "snowie": snowie(p), "ascii": ascii_board(p)}[fmt]
    code, out, _ = run("show", "--json", "-", stdin=text)
    assert code == 0
    info = json.loads(out)
    assert info["position_id"] == "b9sBCIC5bYDQAA"
    if fmt != "position_id":  # a Position ID alone has no match state (player 0 on roll)
        assert info["gnubg_id"] == "b9sBCIC5bYDQAA:QQnlAGAAGAAE"


@pytest.mark.parametrize(("arg", "message"), [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:7x:0:0:0:7:10",
     "gammon: XGID field 5 (dice): '7x' at column 39 is not a roll"),
    ("4HPwATDgc/AB!A", "gammon: Position ID: '!' at column 13 is not a Base64 character"),
    ("cAkAAAAAAAAA", "gammon: 'cAkAAAAAAAAA' looks like a Match ID alone"),
    ("not an id at all", "gammon: 'not an id at all' is not a position ID"),
    ("no-such-position.txt", "gammon: no-such-position.txt: cannot read: No such file or directory"),
    ("exports/missing.xgp", "gammon: exports/missing.xgp: cannot read: No such file or directory"),
])
def test_show_bad_input(arg: str, message: str) -> None:
    code, out, err = run("show", arg)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1 and "Traceback" not in err


def test_show_impossible_position() -> None:
    code, out, err = run("show", "--json", "IAAAgP9/AAAAAA")  # 16 checkers: gnubg says "Illegal position."
    assert code == 2
    info = json.loads(out)
    assert info["problems"] == ["O has 16 checkers (at most 15)"]
    assert err == "gammon: impossible position: O has 16 checkers (at most 15)\n"


def test_show_json_of_unreadable_input_is_an_error_object() -> None:
    """With --json, text that cannot be read is still one JSON object on standard output (what is wrong,
    the input, where) besides the one line on stderr."""
    code, out, err = run("show", "--json", "XGID=bad")
    assert code == 2 and err.count("\n") == 1 and err.startswith("gammon: XGID position 'bad'")
    assert json.loads(out) == {"error": err[len("gammon: "):-1], "input": "XGID=bad", "line": None, "column": 9}
    code, out, _ = run("show", "--json", "-", stdin="XGID=bad\n")
    assert code == 2 and json.loads(out)["input"] == "<stdin>"


# =========================================================================== moves


def test_moves_text() -> None:
    code, out, err = run("moves", OPENING_31)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Roll 31: 16 legal plays"
    plays = [s.strip() for s in lines[1:]]
    assert len(plays) == 16 == len(set(plays))
    assert "8/5 6/5" in plays and "24/23 13/10" in plays and plays[0] == "24/23 24/21"


def test_moves_json_and_order() -> None:
    code, out, _ = run("moves", "--json", "--dice", "64", "4HPwATDgc/ABMA")
    assert code == 0 and out.count("\n") == 1
    row = json.loads(out)
    assert row["position"] == "4HPwATDgc/ABMA" and row["dice"] == "64"
    names = [p["play"] for p in row["plays"]]
    assert "24/14" in names and "8/2 6/2" in names and "24/18 13/9" in names
    pos = parse_position("4HPwATDgc/ABMA")
    for entry in row["plays"]:  # each play, read back, gives the position_id written beside it
        play = resolve_play(pos, entry["play"], (6, 4)).play
        assert position_id(play_result(pos, play)) == entry["position_id"]
    assert len({p["position_id"] for p in row["plays"]}) == len(names)
    # deterministic: the same order every time, sorted by moves from the highest point down
    assert run("moves", "--json", "--dice", "64", "4HPwATDgc/ABMA")[1] == out
    assert names.index("24/14") < names.index("13/9 13/7") < names.index("8/2 6/2")


def test_moves_no_legal_play() -> None:
    code, out, _ = run("moves", "--json", DANCE)
    assert code == 0 and json.loads(out) == {"position": DANCE, "dice": "64", "plays": []}
    assert run("moves", DANCE)[1] == "Roll 64: no legal play\n"


def test_moves_all_rolls_and_stdin() -> None:
    code, out, _ = run("moves", "--json", "--all-rolls", "4HPwATDgc/ABMA")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["dice"] for r in rows] == [f"{a}{b}" for a, b in ALL_ROLLS]
    assert all(r["plays"] for r in rows)
    stdin = f"{OPENING_31}\n\n# a comment\n{DANCE}\n"
    code, out, _ = run("moves", "--json", "-", stdin=stdin)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [(r["position"], r["dice"], len(r["plays"])) for r in rows] == [
        (OPENING_31, "31", 16), (DANCE, "64", 0)]
    code, out, _ = run("moves", "-", "--dice", "21", stdin=f"{OPENING_31}\n")
    assert code == 0 and out.splitlines()[:2] == [f"Position {OPENING_31}", "Roll 21: 15 legal plays"]


def test_moves_variant() -> None:
    code, out, _ = run("moves", "--json", "--variant", "hypergammon", "--dice", "21",
                       "XGID=-aaa------------------AAA-:0:0:1:00:0:0:0:0:10")
    assert code == 0 and json.loads(out)["plays"]


@pytest.mark.parametrize(("given", "roll"), [("64", (6, 4)), ("6-4", (6, 4)), (" 4/6 ", (4, 6)), ("6,4", (6, 4)),
                                             ("6 4", (6, 4)), ("1 - 1", (1, 1)), ((5, 3), (5, 3)), ([2, 6], (2, 6))])
def test_one_dice_parser_reads_every_way_of_giving_a_roll(given: object, roll: tuple[int, int]) -> None:
    """``moves --dice``, ``render --dice`` and ``render.png(dice=...)`` read a roll with one parser."""
    from notation.position import parse_dice

    assert parse_dice(given) == roll


@pytest.mark.parametrize(("given", "message"), [
    ("7x", "--dice '7x': '7' at column 1 is not a die 1-6"), ("6²", "--dice '6²': '²' at column 2 is not a die 1-6"),
    ("664", "--dice '664' is not two dice 1-6, such as 64 or 6-4"), ("", "--dice '' is not two dice"),
    ("6--4", "--dice '6--4' is not two dice"), ((7, 1), "--dice (7, 1) is not two dice 1-6"),
    ((True, 2), "--dice (True, 2) is not"), (53, "--dice 53 is not"), ((6, 4, 1), "--dice (6, 4, 1) is not")])
def test_the_dice_parser_says_what_is_wrong(given: object, message: str) -> None:
    from notation.position import parse_dice

    with pytest.raises(ValueError) as e:
        parse_dice(given, "--dice")
    assert str(e.value).startswith(message)


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (["moves", "4HPwATDgc/ABMA"], None, "gammon: the position has no dice: give --dice AB or --all-rolls"),
    (["moves", "--dice", "7x", "4HPwATDgc/ABMA"], None, "gammon: --dice '7x': '7' at column 1 is not a die"),
    (["moves", "--dice", "64", "--all-rolls", "4HPwATDgc/ABMA"], None, "gammon: give either --dice or"),
    (["moves", "--variant", "chess", "--dice", "64", "4HPwATDgc/ABMA"], None, "gammon: unknown variant"),
    (["moves", OPENING_31.replace(":31:", ":3x:")], None, "gammon: XGID field 5 (dice): '3x' at column 40"),
    (["moves", "-"], f"{OPENING_31}\nXGID=oops\n", "gammon: <stdin>:2: XGID"),
    (["moves", "--dice", "11", "IAAAgP9/AAAAAA"], None, "gammon: impossible position in Position ID: O has"),
    (["moves", "--all-rolls", "positions.txt"], None, "gammon: positions.txt: cannot read: No such file"),
])
def test_moves_bad_input(args: list[str], stdin: str | None, message: str) -> None:
    code, _out, err = run(*args, stdin=stdin)
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err
    assert "Traceback" not in err


# =========================================================================== as a program


def test_python_m_notation_cli() -> None:
    def prog(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "notation.cli", *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)

    ok = prog("show", "--json", OPENING_31)
    assert ok.returncode == 0 and json.loads(ok.stdout)["gnubg_id"] == "4HPwATDgc/ABMA:cInlAAAAAAAE"
    bad = prog("show", OPENING_31.replace(":31:", ":7x:"))
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == ("gammon: XGID field 5 (dice): '7x' at column 39 is not a roll (00, two dice 1-6, "
                          "D, B or R)\n")
    moves = prog("moves", "--json", OPENING_31)
    assert moves.returncode == 0 and len(json.loads(moves.stdout)["plays"]) == 16
    nodice = prog("moves", "4HPwATDgc/ABMA")
    assert nodice.returncode == 2 and nodice.stderr.count("\n") == 1 and "Traceback" not in nodice.stderr


def test_moves_fast_paths_equal_the_general_ones() -> None:
    """The remembered notation and the board-only Position ID give what the general code gives."""
    from notation.ids import boards_position_id, parse_position, position_id
    from notation.moves import written_plays
    from notation.play import play_result
    from notation.playtext import _format_play
    from notation.rules import ALL_ROLLS

    rows = [ln.split("\t")[0] for ln in (Path(__file__).parent / "data" / "movegen_positions.tsv").read_text()
            .splitlines() if ln and not ln.startswith("#")][:60]
    n = 0
    for pid in rows:
        pos = parse_position(pid)
        for roll in ALL_ROLLS:
            for text, play in written_plays(pos, roll):
                assert text == _format_play(play.steps)
                assert boards_position_id(play.theirs, play.mine) == position_id(play_result(pos, play))
                n += 1
    assert n > 10_000
