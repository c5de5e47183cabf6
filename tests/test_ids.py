"""Position IDs (notation.ids): every vector of ../shared/reference/vectors.md (A-E, G), error
columns, round trips of random positions (hypothesis), GNU Backgammon as an oracle on random
positions, and every ID of the ../shared corpus."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from notation.errors import InvalidPositionError, NotationError, ParseError
from notation.ids import (
    all_ids,
    ascii_board,
    detect_format,
    fibs_board,
    gnubg_id,
    match_id,
    match_key,
    parse_ascii_board,
    parse_fibs,
    parse_gnubg_id,
    parse_match_id,
    parse_position,
    parse_position_id,
    parse_snowie,
    parse_xgid,
    position_id,
    snowie,
    snowie_id,
    xgid,
)
from notation.position import GAME_NONE, GAME_PLAYING, STANDARD_START, Position, board_from_points
from notation.rules import get_rules

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
OPENING = "4HPwATDgc/ABMA"
START_XGID = "-b----E-C---eE---c-e----B-"


def pos_from(on_roll: dict[int, int], opponent: dict[int, int], turn: int = 0, **kw: Any) -> Position:
    a, b = board_from_points(on_roll), board_from_points(opponent)
    return Position(boards=(a, b) if turn == 0 else (b, a), turn=turn, **kw)


# =========================================================================== A. Position ID vectors (P1-P10)

Board = tuple[int, ...]


def _after(play: dict[int, int], removed: dict[int, int]) -> Board:
    b = list(STANDARD_START)
    for p, n in removed.items():
        b[p] -= n
    for p, n in play.items():
        b[p] += n
    return tuple(b)



POSITION_VECTORS = [
    ("P1 opening", Position(), OPENING),
    ("P2 after 31 8/5 6/5, opponent on roll",
     Position(boards=(_after({5: 2}, {8: 1, 6: 1}), STANDARD_START), turn=1), "sGfwATDgc/ABMA"),
    ("P3 after 42 8/4 6/4, opponent on roll",
     Position(boards=(_after({4: 2}, {8: 1, 6: 1}), STANDARD_START), turn=1), "mGfwATDgc/ABMA"),
    ("P4 bars", pos_from({25: 2, 12: 3, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2},
                         {20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 25: 1}), "AADYtgWAA7ZtBg"),
    ("P5 race", pos_from({1: 2, 2: 3}, {1: 1, 2: 2, 3: 3}), "7QAAgB0AAAAAAA"),
    ("P6 all off", Position(boards=(board_from_points({}), board_from_points({}))), "AAAAAAAAAAAAAA"),
    ("P7 15 on each bar", pos_from({25: 15}, {25: 15}), "AAAA/38AAAD/fw"),
    ("P8", pos_from({25: 1, 6: 4, 8: 3, 13: 5, 24: 2}, {}), "AAAAwHPwAbAAAA"),
]


@pytest.mark.parametrize(("name", "pos", "pid"), POSITION_VECTORS, ids=[v[0] for v in POSITION_VECTORS])
def test_position_id_vectors(name: str, pos: Position, pid: str) -> None:
    assert position_id(pos) == pid
    back = parse_position_id(pid, turn=pos.turn, validate=False)
    assert back.boards == pos.boards


def test_position_key_bytes() -> None:
    # P1's key is E0 73 F0 01 30 E0 73 F0 01 30; P8's (0,0,0,192,115,240,1,176,0,0)
    from notation.ids import position_key

    assert position_key(Position()).to_bytes(10, "little") == bytes.fromhex("E073F00130E073F00130")
    assert tuple(position_key(POSITION_VECTORS[-1][1]).to_bytes(10, "little")) == (
        0, 0, 0, 192, 115, 240, 1, 176, 0, 0)


# =========================================================================== A. Match ID vectors

MATCH_VECTORS = [
    ("V1", OPENING, "MIEFAAAAAAAA",
     "cube=1 owner=ctr move=0 craw=0 gs=1 turn=0 dbl=0 res=0 dice=31 len=0 score=0-0 bit66=0"),
    ("V2", "sGfwATDgc/ABMA", "cAkAAAAAAAAA",
     "cube=1 owner=ctr move=1 craw=0 gs=1 turn=1 dbl=0 res=0 dice=00 len=0 score=0-0 bit66=0"),
    ("V3", "sGfwATDgc/ABMA", "cBEAAAAAAAAA",
     "cube=1 owner=ctr move=1 craw=0 gs=1 turn=0 dbl=1 res=0 dice=00 len=0 score=0-0 bit66=0"),
    ("V4", "sGfwATDgc/ABMA", "QQkAAAAAAAAA",
     "cube=2 owner=0 move=1 craw=0 gs=1 turn=1 dbl=0 res=0 dice=00 len=0 score=0-0 bit66=0"),
    ("V5", "sGfwATDgc/ABMA", "QQkTAAAAAAAA",
     "cube=2 owner=0 move=1 craw=0 gs=1 turn=1 dbl=0 res=0 dice=64 len=0 score=0-0 bit66=0"),
    ("V6", OPENING, "MIHqAAAAAAAE",
     "cube=1 owner=ctr move=0 craw=0 gs=1 turn=0 dbl=0 res=0 dice=52 len=7 score=0-0 bit66=1"),
    ("V7", OPENING, "QYnqACAAIAAE",
     "cube=2 owner=0 move=1 craw=0 gs=1 turn=1 dbl=0 res=0 dice=52 len=7 score=2-4 bit66=1"),
    ("V8", OPENING, "8Am7AEAAEAAE",
     "cube=1 owner=ctr move=1 craw=1 gs=1 turn=1 dbl=0 res=0 dice=66 len=5 score=4-2 bit66=1"),
    ("V9", OPENING, "MAGlAEAAEAAE",
     "cube=1 owner=ctr move=0 craw=0 gs=1 turn=0 dbl=0 res=0 dice=21 len=5 score=4-2 bit66=1"),
    ("V10", "AADYtgWAA7ZtBg", "MAFuAAAAAAAE",
     "cube=1 owner=ctr move=0 craw=0 gs=1 turn=0 dbl=0 res=0 dice=43 len=3 score=0-0 bit66=1"),
    ("V11", "7QAAgB0AAAAAAA", "MAF3AAAAAAAE",
     "cube=1 owner=ctr move=0 craw=0 gs=1 turn=0 dbl=0 res=0 dice=65 len=3 score=0-0 bit66=1"),
    ("V12", "AAAAAAAAAAAAAA", "MAF3AAAAAAAE",
     "cube=1 owner=ctr move=0 craw=0 gs=1 turn=0 dbl=0 res=0 dice=65 len=3 score=0-0 bit66=1"),
    ("V13", "AAAA/38AAAD/fw", "MAF3AAAAAAAE",
     "cube=1 owner=ctr move=0 craw=0 gs=1 turn=0 dbl=0 res=0 dice=65 len=3 score=0-0 bit66=1"),
    ("V14", "mGfwATDgc/ABMA", "MEmgAAAAAAAE",
     "cube=1 owner=ctr move=0 craw=0 gs=1 turn=1 dbl=0 res=2 dice=00 len=5 score=0-0 bit66=1"),
    ("V15", OPENING, "VgkXAAAAAAAE",
     "cube=64 owner=1 move=1 craw=0 gs=1 turn=1 dbl=0 res=0 dice=65 len=0 score=0-0 bit66=1"),
    ("V16", OPENING, "VgkXADAACAAE",
     "cube=64 owner=1 move=1 craw=0 gs=1 turn=1 dbl=0 res=0 dice=65 len=0 score=3-1 bit66=1"),
    ("doc", OPENING, "QYkqASAAIAAA",
     "cube=2 owner=0 move=1 craw=0 gs=1 turn=1 dbl=0 res=0 dice=52 len=9 score=2-4 bit66=0"),
]


def _decoded(p: Position, mid: str) -> str:
    owner = "ctr" if p.cube_owner is None else str(p.cube_owner)
    dice = f"{p.dice[0]}{p.dice[1]}" if p.dice else "00"
    return (f"cube={p.cube} owner={owner} move={p.turn} craw={int(p.crawford)} gs={p.game_state} "
            f"turn={p.to_act} dbl={int(p.double_offered)} res={p.resign_offered} dice={dice} "
            f"len={p.match_length} score={p.score[0]}-{p.score[1]} bit66={int(not p.jacoby)}")


@pytest.mark.parametrize(("name", "pid", "mid", "decoded"), MATCH_VECTORS, ids=[v[0] for v in MATCH_VECTORS])
def test_match_id_vectors(name: str, pid: str, mid: str, decoded: str) -> None:
    p = parse_gnubg_id(f"{pid}:{mid}", validate=name not in ("V12",))
    assert _decoded(p, mid) == decoded
    assert gnubg_id(p) == f"{pid}:{mid}"
    assert position_id(p) == pid and match_id(p) == mid
    # the Match ID alone, on the starting board
    q = parse_match_id(mid, validate=False)
    assert _decoded(q, mid) == decoded and q.boards == (STANDARD_START, STANDARD_START)


def test_v14_resignation() -> None:
    p = parse_gnubg_id("mGfwATDgc/ABMA:MEmgAAAAAAAE")
    assert (p.turn, p.resign_offered, p.resigner, p.to_act) == (0, 2, 0, 1)
    assert p.pip_counts == (167, 167 - 6)  # player 0 is on roll; player 1 played 8/4 6/4


# =========================================================================== B. XGID -> gnubg

XGID_VECTORS = [
    ("X1", f"XGID={START_XGID}:0:0:1:00:0:0:0:7:10", "4HPwATDgc/ABMA:cAngAAAAAAAE"),
    ("X2", f"XGID={START_XGID}:0:0:1:31:0:0:0:7:10", "4HPwATDgc/ABMA:cInlAAAAAAAE"),
    ("X3", f"XGID={START_XGID}:0:0:-1:31:0:0:0:7:10", "4HPwATDgc/ABMA:MIHlAAAAAAAE"),
    ("X4", f"XGID={START_XGID}:0:0:-1:00:2:4:0:7:10", "4HPwATDgc/ABMA:MAHgAEAAEAAE"),
    ("X5", f"XGID={START_XGID}:1:1:-1:52:0:0:0:7:10", "4HPwATDgc/ABMA:EYHqAAAAAAAE"),
    ("X6", f"XGID={START_XGID}:2:-1:1:64:0:0:0:7:10", "4HPwATDgc/ABMA:QgnzAAAAAAAE"),
    ("X8", f"XGID={START_XGID}:0:0:1:66:4:2:1:5:10", "4HPwATDgc/ABMA:8Am7ACAAIAAE"),
    ("X9", f"XGID={START_XGID}:0:0:1:21:0:0:3:0:10", "4HPwATDgc/ABMA:cAkFAAAAAAAA"),
    ("X10", f"XGID={START_XGID}:1:-1:-1:00:0:0:0:0:10", "4HPwATDgc/ABMA:AQEAAAAAAAAE"),
    ("X11", "XGID=aBBBBB-----C-----bbbbb---B:0:0:1:43:0:0:0:3:10", "2LYBALRtAwcABg:cAluAAAAAAAE"),
    ("X12", "XGID=-BC-------------------cba-:0:0:1:65:0:0:0:3:10", "7QAAgB0AAAAAAA:cAl3AAAAAAAE"),
    ("X16", f"XGID={START_XGID}:1:0:-1:63:1:3:0:5:10", "4HPwATDgc/ABMA:MQGvADAACAAE"),
    ("X15", f"{START_XGID}:0:0:1:31:0:0:0:0:0", "4HPwATDgc/ABMA:cIkFAAAAAAAE"),
    # C: real-world XGIDs (XG, BGBlitz, issue reports) with gnubg's conversion
    ("C1", "XGID=---ABBA------------bbaa---:1:1:1:00:4:3:0:9:10", "1AYAANoCAAAAAA:UQkgATAAIAAE"),
    ("C2", "XGID=----AA--------------aa-a--:2:-1:-1:00:4:3:0:9:10", "KAAAkAIAAAAAAA:AgEgATAAIAAE"),
    ("C3", "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10", "b9sBCIC5bYDQAA:QQnlAGAAGAAE"),
    ("AnkiGammon#48", "XGID=--CBCBC------B--b--cabbcb-:1:1:1:21:0:0:0:0:8", "u61jAAButwMGAA:UQkFAAAAAAAE"),
    ("gnubg-android#14", "XGID=-aa---EBB---dDa--c-e----B-:0:0:1:16:0:0:3:0:8", "4HPkASjg2+ABMA:cAkHAAAAAAAA"),
]


@pytest.mark.parametrize(("name", "x", "g"), XGID_VECTORS, ids=[v[0] for v in XGID_VECTORS])
def test_xgid_vectors(name: str, x: str, g: str) -> None:
    p = parse_xgid(x)
    assert gnubg_id(p) == g
    full = x if x.startswith("XGID=") else "XGID=" + x
    assert xgid(p) == full  # lossless, dice order included ("16" stays "16")
    q = parse_gnubg_id(g)
    assert (q.boards, q.turn, q.cube, q.cube_owner, q.match_length, q.score, q.crawford) == (
        p.boards, p.turn, p.cube, p.cube_owner, p.match_length, p.score, p.crawford)


def test_xgid_semantics() -> None:
    x4 = parse_xgid(XGID_VECTORS[3][1])
    assert x4.turn == 0 and x4.score == (4, 2)  # score1 is the bottom player (1), score2 the top (0)
    x9 = parse_xgid(XGID_VECTORS[7][1])
    assert x9.jacoby and x9.beavers and x9.match_length == 0
    x15 = parse_xgid(XGID_VECTORS[12][1])
    assert x15.max_cube == 0 and not x15.jacoby
    x8 = parse_xgid(XGID_VECTORS[6][1])
    assert x8.crawford and not x8.jacoby
    # dice kept as written: "16" is (1, 6); the Match ID puts the high die first like gnubg
    a14 = parse_xgid(XGID_VECTORS[-1][1])
    assert a14.dice == (1, 6) and match_id(a14) == "cAkHAAAAAAAA"
    assert match_id(a14, dice_as_rolled=True) != "cAkHAAAAAAAA"


@pytest.mark.parametrize(("name", "x", "pips"), [
    ("C1", "XGID=---ABBA------------bbaa---:1:1:1:00:4:3:0:9:10", (27, 29)),
    ("C2", "XGID=----AA--------------aa-a--:2:-1:-1:00:4:3:0:9:10", (11, 9)),
    ("AnkiGammon#48", "XGID=--CBCBC------B--b--cabbcb-:1:1:1:21:0:0:0:0:8", (78, 63)),
])
def test_xgid_pips(name: str, x: str, pips: tuple[int, int]) -> None:
    assert parse_xgid(x).pip_counts == pips


def test_xgid_doubles_beavers_raccoons() -> None:
    # X7: D = the player on roll (bottom) has doubled; gnubg "steps back" to X1
    x7 = parse_xgid(f"XGID={START_XGID}:0:0:1:D:0:0:0:7:10")
    assert x7.double_offered and x7.turn == 1 and x7.to_act == 0 and x7.dice is None
    x1 = parse_xgid(XGID_VECTORS[0][1])
    assert match_key(x7) == match_key(x1) ^ (1 << 11) ^ (1 << 12)  # fTurn 1 -> 0, doubled bit set
    assert gnubg_id(x7.replace(double_offered=False)) == "4HPwATDgc/ABMA:cAngAAAAAAAE"
    assert xgid(x7).split(":")[4] == "D"
    # X13 / X14: gnubg rejects B and R; we keep them
    # (after a beaver the beaverer owns the cube: Position.problems() does not know that yet)
    x13 = parse_xgid(f"XGID={START_XGID}:1:-1:1:B:0:0:3:0:10", validate=False)
    assert x13.double_offered and x13.beaver == 1 and x13.cube == 2 and x13.cube_owner == 0
    x14 = parse_xgid(f"XGID={START_XGID}:2:1:1:R:0:0:3:0:10")
    assert x14.double_offered and x14.beaver == 2 and x14.cube == 4 and x14.cube_owner == 1
    for p, s in ((x13, "B"), (x14, "R")):
        assert xgid(p).split(":")[4] == s


def test_xgid_rejections() -> None:
    with pytest.raises(ParseError) as e:
        parse_xgid(f"XGID={START_XGID}:0:0:1:77:0:0:0:7:10")
    assert e.value.column == 39 and "field 5 (dice): '77' at column 39 is not a roll" in e.value.message
    with pytest.raises(InvalidPositionError) as e2:
        parse_xgid(f"XGID={START_XGID}:0:0:1:00:7:0:0:7:10")
    assert "at or above the match length" in e2.value.message
    with pytest.raises(ParseError) as e:
        parse_xgid(f"XGID={START_XGID}:0:0:1:00:0:0:0:7")
    assert "9 fields, 10 needed" in e.value.message


# =========================================================================== C. other IDs seen in the wild


def test_bgblitz_dice_order() -> None:
    # BGBlitz writes the dice as rolled (1 then 2); gnubg writes the higher die first
    p = parse_gnubg_id("b9sBCIC5bYDQAA:QYnoAGAAGAAE")
    assert p.dice == (1, 2)
    assert gnubg_id(p) == "b9sBCIC5bYDQAA:QQnlAGAAGAAE"
    assert gnubg_id(p, dice_as_rolled=True) == "b9sBCIC5bYDQAA:QYnoAGAAGAAE"
    x = parse_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10")
    assert p.replace(dice=(2, 1)) == x


def test_ids_seen_in_the_wild() -> None:
    p = parse_gnubg_id(f"{OPENING}:8IhuACAACAAE", validate=False)
    assert (p.match_length, p.score, p.crawford, p.game_state, p.dice) == (3, (2, 1), True, GAME_NONE, (5, 3))
    assert match_id(p) == "8IhuACAACAAE"
    q = parse_gnubg_id(f"{OPENING}:cInpAAAAAAAA")
    assert (q.match_length, q.score, q.turn, q.dice, q.jacoby) == (7, (0, 0), 1, (3, 2), True)


# =========================================================================== D. FIBS board

FIBS_VECTORS = [
    ("F1", "4HPwATDgc/ABMA:MIEFAAAAAAAA",
     "board:Bob:Alice:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:3:1:3:1:1:1:1:0:1:-1:0:25:"
     "0:0:0:0:0:0:0:1"),
    ("F2", "sGfwATDgc/ABMA:cAkAAAAAAAAA",
     "board:Bob:Alice:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-2:0:-4:-2:0:0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:"
     "0:0:0:0:0:0:0:1"),
    ("F3", "sGfwATDgc/ABMA:cBEAAAAAAAAA",
     "board:Bob:Alice:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-2:0:-4:-2:0:0:0:2:0:1:0:0:0:0:1:1:1:1:1:-1:0:25:"
     "0:0:0:0:0:0:0:1"),
    ("F4", "sGfwATDgc/ABMA:QQkTAAAAAAAA",
     "board:Bob:Alice:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-2:0:-4:-2:0:0:0:2:0:1:6:4:6:4:2:0:1:0:1:-1:0:25:"
     "0:0:0:0:0:0:0:1"),
    ("F5", "4HPwATDgc/ABMA:EYHqACAAIAAE",
     "board:Bob:Alice:7:4:2:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:5:2:5:2:2:1:0:0:1:-1:0:25:"
     "0:0:0:0:0:0:0:1"),
    ("F6", "AADYtgWAA7ZtBg:EQHuACAAIAAE",
     "board:Bob:Alice:7:4:2:-2:0:-2:-2:-2:-2:-2:0:0:0:0:0:0:-3:0:0:0:0:0:0:2:2:2:2:2:1:-1:4:3:4:3:2:1:0:0:1:-1:0:"
     "25:4:0:0:0:0:0:0:1"),
    ("F7", "4HPwATDgc/ABMA:8Am7AEAAEAAE",
     "board:Bob:Alice:5:2:4:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:6:6:6:1:1:1:0:1:-1:0:25:"
     "0:0:0:0:0:0:0:0"),
    ("F8", "4HPwATDgc/ABMA:cAm7AEAAEAAE",
     "board:Bob:Alice:5:2:4:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:6:6:6:1:1:1:0:1:-1:0:25:"
     "0:0:0:0:0:0:1:1"),
]


@pytest.mark.parametrize(("name", "g", "fibs"), FIBS_VECTORS, ids=[v[0] for v in FIBS_VECTORS])
def test_fibs_vectors(name: str, g: str, fibs: str) -> None:
    p = parse_gnubg_id(g).replace(names=("Alice", "Bob"))
    assert fibs_board(p) == fibs
    q = parse_fibs(fibs)
    assert q.names == ("Alice", "Bob")
    # FIBS does not carry the Jacoby rule
    assert gnubg_id(q.replace(jacoby=p.jacoby)) == g


def test_fibs_real_lines() -> None:
    # the CLIP documentation's example: You (O, colour +1) on roll with 62 in a 3-point match
    p = parse_fibs("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:"
                   "0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
    assert (p.names, p.turn, p.dice, p.match_length, p.cube_owner) == (
        ("someplayer", "You"), 1, (6, 2), 3, None)
    assert p.boards == (STANDARD_START, STANDARD_START)
    # TigerGammon: stray spaces inside fields
    q = parse_fibs("board:You:hannes:1:0:0:0:-1:0:0:0:-1:5:0:3:0:0:0:-4:5:0:0:0:-4:0:-5:0:0:0:0:2:0: 1:0:0:0:"
                   "0: 1:1:1:0: -1:1:25:0: 0:0:0:0:2:0:0:0")
    assert q.turn == 0 and q.dice is None and q.is_valid()  # You are X (colour -1); O's turn: hannes
    # colour -1, direction +1 (koltes, CocoaFIBS)
    r = parse_fibs("board:You:koltes:7:4:4:-1:0:2:0:0:0:1:1:3:1:0:0:-3:1:0:-2:0:-3:2:-2:0:-2:-2:0:0:0:-1:3:3:"
                   "0:0:1:1:1:0:-1:1:25:0:0:0:1:0:4:3:0:0")
    assert r.is_valid() and r.boards[1][25] == 1 and r.boards[0][25] == 0  # You are X; X's bar is at 0
    assert r.turn == 1 and r.dice == (3, 3)
    # unlimited match (9999) is money play; the tsgammon row with the opponent on roll
    s = parse_fibs("board:You:opponent:9999:0:0:0:2:0:0:0:0:-5:0:-3:0:0:0:5:-5:0:0:0:3:0:5:0:0:0:0:-2:0:-1:"
                   "3:1:0:0:1:1:1:0:-1:-1:0:25:0:0:0:0:2:0:0:0")
    assert s.match_length == 0 and s.turn == 1 and s.dice == (3, 1) and s.boards[0] == STANDARD_START


# =========================================================================== E/G. Snowie text

SNOWIE_VECTORS = [
    ("E1", "AADYtgWAA7ZtBg:EQFuABAAAAAE",
     "3;0;0;0;0;gnubg;root;0;1;0;2;-1;-1;-2;-2;-2;-2;-2;0;0;0;0;0;0;3;0;0;0;0;0;0;2;2;2;2;2;0;2;4;3;"),
    ("E2", "AADYtgWAA7ZtBg:UQluABAAAAAE",
     "3;0;0;0;1;root;gnubg;0;0;1;2;1;-1;-2;-2;-2;-2;-2;0;0;0;0;0;0;3;0;0;0;0;0;0;2;2;2;2;2;0;2;4;3;"),
    ("S1", "4HPwATDgc/ABMA:MIEFAAAAAAAA",
     "0;1;0;1;0;gnubg;root;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;3;1;"),
    ("S2", "sGfwATDgc/ABMA:cAkAAAAAAAAA",
     "0;1;0;1;1;root;gnubg;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-2;0;-4;-2;0;0;0;2;0;0;0;"),
    ("S3", "4HPwATDgc/ABMA:QYnqACAAIAAE",
     "7;0;0;0;1;root;gnubg;0;4;2;2;-1;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;5;2;"),
    ("S4", "4HPwATDgc/ABMA:8Am7AEAAEAAE",
     "5;0;0;0;1;root;gnubg;1;2;4;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;6;6;"),
    ("S5", "7QAAgB0AAAAAAA:8Am3AEAAEAAE",
     "5;0;0;0;1;root;gnubg;1;2;4;1;0;0;2;3;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;-3;-2;-1;0;6;5;"),
    ("S6", "4HPwATDgc/ABMA:VgkXAAAAAAAE",
     "0;0;0;1;1;root;gnubg;0;0;0;64;1;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;6;5;"),
]


@pytest.mark.parametrize(("name", "g", "text"), SNOWIE_VECTORS, ids=[v[0] for v in SNOWIE_VECTORS])
def test_snowie_vectors(name: str, g: str, text: str) -> None:
    p = parse_gnubg_id(g).replace(names=("gnubg", "root"))
    assert snowie(p) == text == snowie_id(p)
    q = parse_snowie(text)
    assert gnubg_id(q) == g and q.names == ("gnubg", "root")


def test_snowie_embedded_in_mat() -> None:
    # the 'Illegal play (...)' strings of a real transcript (../shared/corpus/other/snowie_position_strings)
    p = parse_snowie("25;0;1;0;0;Kenji;nori;0;10;8;2;1;0;3;4;2;2;2;0;0;0;0;0;0;0;0;0;0;0;0;0;-3;-3;-3;-2;-2;"
                     "-2;2;1;1;")
    assert (p.names, p.score, p.cube, p.cube_owner, p.dice, p.match_length) == (
        ("Kenji", "nori"), (10, 8), 2, 0, (1, 1), 25)
    assert p.boards[0][25] == 2 and p.boards[0][1] == 3 and dict(p.extras)["snowie_field2"] == "1"
    assert snowie(p).split(";")[2] == "0"  # writers never read extras
    q = parse_snowie("25;0;1;0;1;nori;Kenji;0;15;18;2;-1;0;3;-2;8;0;-1;3;0;0;-1;0;-1;0;0;-1;0;0;0;0;-2;-2;-3;"
                     "-2;0;1;0;4;3;")
    assert q.turn == 1 and q.names == ("Kenji", "nori") and q.score == (18, 15) and q.cube_owner == 0


# =========================================================================== ASCII board

GNUBG_BOARD_V10 = """\
 GNU Backgammon  Position ID: AADYtgWAA7ZtBg
                 Match ID   : MAFuAAAAAAAE
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     O: gnubg
 | O                | O |    X  X  X  X  X |     0 points
 | O                | O |    X  X  X  X  X |     Rolled 43
 | O                |   |                  |     \n\
 |                  |   |                  |     \n\
 |                  |   |                  |    \n\
^|                  |BAR|                  |     3 points match (Cube: 1)
 |                  |   |                  |    \n\
 |                  |   |                  | X   \n\
 |                  |   |                  | X   \n\
 |                  |   | O  O  O  O  O    | X   \n\
 |                  | X | O  O  O  O  O    | X   0 points
 +13-14-15-16-17-18------19-20-21-22-23-24-+     X: root"""


def test_ascii_board_as_gnubg() -> None:
    p = parse_gnubg_id("AADYtgWAA7ZtBg:MAFuAAAAAAAE").replace(names=("gnubg", "root"))
    assert ascii_board(p) == GNUBG_BOARD_V10
    assert str(p) == GNUBG_BOARD_V10
    assert repr(p) == "Position('AADYtgWAA7ZtBg:MAFuAAAAAAAE')"
    assert parse_ascii_board(GNUBG_BOARD_V10) == p
    assert parse_position(GNUBG_BOARD_V10) == p
    # without the ID lines the drawing itself is read
    drawing = "\n".join(GNUBG_BOARD_V10.splitlines()[2:])
    assert parse_ascii_board(drawing) == p


def test_ascii_board_counts_and_cube() -> None:
    p = pos_from({6: 12, 5: 1, 25: 2}, {1: 7, 2: 3, 3: 2}, turn=1, cube=4, cube_owner=1, dice=(6, 5),
                 match_length=0, names=("Ann", "Ben"))
    text = ascii_board(p)
    assert " C " in text and " 7 " in text and "X: Ben (Cube: 4)" in text
    assert parse_ascii_board("\n".join(text.splitlines()[2:])) == p
    assert str(Position(boards=((99,) * 26, STANDARD_START)))  # never fails, even for nonsense


# =========================================================================== errors


@pytest.mark.parametrize(("text", "column", "message"), [
    (f"XGID={START_XGID}:0:0:1:7x:0:0:0:7:10", 39, "XGID field 5 (dice): '7x' at column 39 is not a roll"),
    (f"XGID={START_XGID}:0:0:1:6x:0:0:0:7:10", 40, "XGID field 5 (dice): '6x' at column 40 is not a roll"),
    (f"XGID={START_XGID}:0:0:1:01:0:0:0:7:10", 39, "'01' at column 39 is not a roll"),
    (f"XGID={START_XGID}:0:0:2:00:0:0:0:7:10", 37, "XGID field 4 (turn): '2' at column 37 is not 1 or -1"),
    (f"XGID={START_XGID}:0:5:1:00:0:0:0:7:10", 35, "field 3 (cube owner): '5'"),
    (f"XGID={START_XGID}:0::1:00:0:0:0:7:10", 35, "field 3 (cube owner): '' at column 35"),
    (f"XGID={START_XGID}:0:0:1:00:0:0:2:7:10", 46, "(Crawford/Jacoby): '2' at column 46 is not 0 or 1"),
    (f"XGID={START_XGID}:0:0:1:00:0:0:4:0:10", 46, "field 8 (Crawford/Jacoby): '4' at column 46 is not 0-3"),
    (f"XGID={START_XGID}:0:0:1:00:0:0:0:7:10:1", 52, "more than 10 fields"),
    (f"  {START_XGID}:0:0:1:00:0:0:0:7", 46, "9 fields, 10 needed"),
    ("XGID=-b----E-C---eQ---c-e----B-:0:0:1:00:0:0:0:7:10", 19, "'Q' at column 19 is not '-', A-P or a-p"),
    ("XGID=-b----E-C---eE---c-e---B-:0:0:1:00:0:0:0:7:10", 31, "has 25 points, 26 needed"),
    ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10", 6, "slot 0, the top player's (O's) bar"),
    ("XGID=-b----E-C---eE---c-e----B--:0:0:1:00:0:0:0:7:10", 32, "has more than 26 points (column 32)"),
    ("4HPwATDgc/AB!A", 13, "'!' at column 13 is not a Base64 character"),
    ("4HPwATDgc/ABM", 14, "has 13 characters, 14 needed"),
    ("4HPwATDgc/ABMA:cAngAAAAAAA", 27,
     "Match ID 'cAngAAAAAAA' has 11 characters, 12 needed (column 27: character 12 is missing)"),
    ("4HPwATDgc/ABMA:cAng-AAAAAAE", 20, "Match ID: '-' at column 20 is not a Base64 character"),
    ("4HPwATDgc/ABMB", 14, "not a possible last character"),
    ("4HPwATDgc/ABMA:cAn/AAAAAAAE", 19, "dice 6 and 7"),
    ("4HPwATDgc/ABMA:cAkAAAAAAAAA:x", 28, "unexpected ':' at column 28 after the Match ID"),
    ("4HPwATDgc/ABMAx:cAkAAAAAAAAA", 15, "'4HPwATDgc/ABMAx' at column 1 has more than 14 characters"),
    ("board:You:x:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:"
     "0:2:0:0", 116, "FIBS board has 52 fields, 53 needed"),
    ("board:You:x:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:q:0:0:1:1:1:0:1:-1:0:25:0:0:0:"
     "0:2:0:0:0", 79, "FIBS board field 35 (player's die 2): 'q' at column 79"),
    ("board:You:x:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:7:-1:0:25:0:0:0:"
     "0:2:0:0:0", 93, "field 42 (colour): '7' at column 93 is not 1 or -1"),
    ("3;0;0;0;2;gnubg;root;0;1;0;2;-1;-1;-2;-2;-2;-2;-2;0;0;0;0;0;0;3;0;0;0;0;0;0;2;2;2;2;2;0;2;4;3;", 9,
     "Snowie field 5 (player on roll): '2' at column 9 is not 0 or 1"),
    ("3;0;0;0;0;gnubg;root;0;1;0;2;-1;-1;-2;-2;-2;-2;-2;0;0;0;0;0;0;3;0;0;0;0;0;0;2;2;2;2;2;0;2;4;", 93,
     "Snowie field 40 (die 2): '' at column 93"),
    ("hannes rolls 4 and 3.", 1, "is not a position ID"),
    ("cAngAAAAAAAE", 1, "a Match ID alone"),
])
def test_parse_errors(text: str, column: int, message: str) -> None:
    with pytest.raises(ParseError) as e:
        parse_position(text)
    assert e.value.column == column, e.value.message
    assert message in e.value.message
    assert "\n" not in e.value.message


@pytest.mark.parametrize(("text", "problem"), [
    ("IAAAgP9/AAAAAA", "has 16 checkers"),  # gnubg: Illegal position.
    ("AAAMAAMAAAAAAA", "both players have checkers on"),
    (f"XGID={START_XGID}:0:0:1:00:7:0:0:7:10", "at or above the match length"),
    ("XGID=-aBCBBDCB----d----c-c-A--A:0:0:1:53:0:0:0:7:10", "X has 20 checkers"),
    (f"{OPENING}:sIEFAAAAAAAA", "Crawford game in a money session"),
])
def test_impossible_positions(text: str, problem: str) -> None:
    with pytest.raises(InvalidPositionError) as e:
        parse_position(text)
    assert problem in e.value.message
    p = parse_position(text, validate=False)
    assert any(problem in s for s in p.problems())


def test_ids_of_impossible_positions() -> None:
    p = parse_position("AAAMAAMAAAAAAA", validate=False)
    ids = all_ids(p)
    assert ids["position_id"] == "AAAMAAMAAAAAAA" and ids["xgid"] is None and ids["fibs"] is None


def test_detect_format() -> None:
    assert detect_format(f"XGID={START_XGID}:0:0:1:00:0:0:0:7:10") == "xgid"
    assert detect_format(f"{START_XGID}:0:0:1:00:0:0:0:7:10") == "xgid"
    assert detect_format(f"{OPENING}:cAngAAAAAAAE") == "gnubg"
    assert detect_format(OPENING) == "position_id"
    assert detect_format(SNOWIE_VECTORS[0][2]) == "snowie"
    assert detect_format(FIBS_VECTORS[0][2]) == "fibs"
    assert detect_format(GNUBG_BOARD_V10) == "ascii"
    # a Position ID alone: player 0 is on roll unless told otherwise
    assert parse_position("sGfwATDgc/ABMA").turn == 0
    v2 = parse_gnubg_id("sGfwATDgc/ABMA:cAkAAAAAAAAA")
    assert parse_position_id("sGfwATDgc/ABMA", turn=1) == v2.replace(jacoby=False)


def test_variants() -> None:
    hyper = Position.initial("hypergammon3")
    pid = position_id(hyper)
    assert parse_position_id(pid, variant="hypergammon3") == hyper
    assert parse_xgid(xgid(hyper), variant="hypergammon3") == hyper
    assert parse_position(fibs_board(hyper), variant="hypergammon") == hyper.replace(jacoby=False)
    with pytest.raises(InvalidPositionError):
        parse_position_id(position_id(Position()), variant="hypergammon3")


# =========================================================================== random positions


@st.composite
def positions(draw: st.DrawFn, *, gnubg_safe: bool = False, variant: str = "standard") -> Position:
    """A random valid position with its match state.  ``gnubg_safe``: what gnubg can load unchanged
    (no pending double or resignation, dice high first, a checker on the board for both sides)."""
    n = get_rules(variant).checkers
    b0 = [0] * 26
    b1 = [0] * 26
    for _ in range(draw(st.integers(1 if gnubg_safe else 0, n))):
        b0[draw(st.integers(1, 25))] += 1
    free = [p for p in range(1, 25) if b0[25 - p] == 0] + [25]
    for _ in range(draw(st.integers(1 if gnubg_safe else 0, n))):
        b1[draw(st.sampled_from(free))] += 1
    b0[0] = n - sum(b0)
    b1[0] = n - sum(b1)
    length = draw(st.sampled_from([0, 0, 1, 3, 5, 7, 11, 25]))
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
        crawford = (length - 1 in score) and min(score) < length - 1 and draw(st.booleans())
        jacoby = beavers = False
    else:
        score = (draw(st.integers(0, 30)), draw(st.integers(0, 30)))
        crawford = False
        jacoby, beavers = draw(st.booleans()), draw(st.booleans())
    if crawford:
        cube, owner = 1, None
    else:
        log = draw(st.integers(0, 6))
        cube = 1 << log
        owner = draw(st.sampled_from([None, 0, 1])) if log else None
    turn = draw(st.integers(0, 1))
    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    if gnubg_safe and dice is not None:
        dice = (max(dice), min(dice))
    double = beaver = resign = 0
    resigner = None
    if not gnubg_safe:
        if dice is None and not crawford and owner in (None, turn) and draw(st.booleans()):
            double = 1
            if not length and beavers:
                beaver = draw(st.integers(0, 2))
        elif draw(st.booleans()):
            resign = draw(st.integers(1, 3))
            resigner = draw(st.integers(0, 1))
    names = draw(st.tuples(*(st.text("abcdefghijklmnopqrstuvwxyzABC_0123456789", max_size=10),) * 2))
    pos = Position(boards=(tuple(b0), tuple(b1)), turn=turn, dice=dice, cube=cube, cube_owner=owner,
                   double_offered=bool(double), beaver=beaver, resign_offered=resign, resigner=resigner,
                   match_length=length, score=score, crawford=crawford, jacoby=jacoby, beavers=beavers,
                   max_cube=draw(st.integers(0, 12)), names=names, variant=get_rules(variant).name)
    assume(not pos.problems())
    return pos


def _keep(p: Position, *fields: str) -> tuple[Any, ...]:
    return tuple(getattr(p, f) for f in fields)


BASE = ("boards", "turn", "cube", "cube_owner", "match_length", "score", "crawford", "variant")
CARRIED: dict[str, tuple[Callable[[Position], str], Callable[..., Position], tuple[str, ...]]] = {
    "gnubg": (gnubg_id, parse_gnubg_id, BASE + ("double_offered", "resign_offered", "resigner", "jacoby",
                                                "game_state")),
    "xgid": (xgid, parse_xgid, BASE + ("dice", "double_offered", "beaver", "jacoby", "beavers", "max_cube")),
    "fibs": (fibs_board, parse_fibs, BASE + ("dice", "double_offered", "names")),
    "snowie": (snowie, parse_snowie, BASE + ("dice", "jacoby", "names")),
    "ascii": (ascii_board, parse_ascii_board, BASE + ("dice", "double_offered", "resign_offered", "jacoby",
                                                      "names")),
}


@pytest.mark.parametrize("fmt", sorted(CARRIED))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip(fmt: str, data: st.DataObject) -> None:
    variant = data.draw(st.sampled_from(["standard", "standard", "nackgammon", "hypergammon3"]))
    pos = data.draw(positions(variant=variant))
    write, read, fields = CARRIED[fmt]
    text = write(pos)
    back = read(text, variant=variant)
    assert _keep(back, *fields) == _keep(pos, *fields)
    assert parse_position(text, variant=variant) == back
    if fmt == "gnubg":
        assert back.dice == (None if pos.dice is None else (max(pos.dice), min(pos.dice)))
        assert parse_gnubg_id(gnubg_id(pos, dice_as_rolled=True), variant=variant).dice == pos.dice
        assert position_id(back) == position_id(pos) and write(back) == text
    if fmt in ("xgid", "fibs", "snowie"):
        assert write(back) == text  # the text itself round-trips
    if fmt == "ascii" and not pos.double_offered and not pos.resign_offered:
        drawing = "\n".join(text.splitlines()[2:])
        fields_drawn = ("boards", "turn", "dice", "cube_owner", "match_length", "score", "crawford")
        if pos.match_length != 1 or pos.cube_owner is not None:  # gnubg shows no centred cube at 1 point
            fields_drawn += ("cube",)
        assert _keep(parse_ascii_board(drawing, variant=variant), *fields_drawn) == _keep(pos, *fields_drawn)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(pos=positions())
def test_position_id_and_match_id_alone_round_trip(pos: Position) -> None:
    back = parse_position_id(position_id(pos), turn=pos.turn)
    assert back.boards == pos.boards
    m = parse_match_id(match_id(pos, dice_as_rolled=True), board=pos)
    assert m == pos.replace(beaver=0)  # the Match ID has no beaver; everything else comes back


# =========================================================================== GNU Backgammon as the oracle

class Gnubg:
    """GNU Backgammon's Python bindings, driven in a separate process (tests/data/ids_gnubg_worker.py)
    so that gnubg's global match state never leaks into other tests."""

    def __init__(self) -> None:
        pytest.importorskip("gnubg")
        worker = Path(__file__).resolve().parent / "data" / "ids_gnubg_worker.py"
        self.proc = subprocess.Popen([sys.executable, str(worker)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        board = self.run(f"set gnubgid {OPENING}:cAkAAAAAAAAA")
        self.names = (re.search(r"O: (\S+)", board).group(1), re.search(r"X: (\S+)", board).group(1))  # type: ignore

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        assert ready, f"gnubg did not answer {request}"
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def run(self, cmd: str) -> str:
        return str(self.ask({"cmds": [cmd]})["out"][0])

    def positionid(self, board: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
        return str(self.ask({"positionid": board})["result"])

    def positionfromid(self, pid: str) -> list[list[int]]:
        result: list[list[int]] = self.ask({"positionfromid": pid})["result"]
        return result

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def gnubg() -> Iterator[Gnubg]:
    g = Gnubg()
    yield g
    g.close()


def _gnubg_board(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's TanBoard: [0] the player not on roll, [1] the player on roll; points 1-24 then the bar."""
    return tuple(pos.opponent[1:26]), tuple(pos.on_roll[1:26])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(pos=positions(gnubg_safe=True))
def test_position_id_agrees_with_gnubg(gnubg: Gnubg, pos: Position) -> None:
    pid = position_id(pos)
    assert gnubg.positionid(_gnubg_board(pos)) == pid
    off, on = gnubg.positionfromid(pid)
    back = parse_position_id(pid, turn=pos.turn)
    assert (tuple(back.on_roll[1:26]), tuple(back.opponent[1:26])) == (tuple(on), tuple(off))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(pos=positions(gnubg_safe=True))
def test_every_format_agrees_with_gnubg(gnubg: Gnubg, pos: Position, tmp_path_factory: pytest.TempPathFactory
                                        ) -> None:
    pos = pos.replace(names=gnubg.names, max_cube=10, beavers=False)
    gid = gnubg_id(pos)
    gnubg.run(f"set jacoby {'on' if pos.jacoby else 'off'}")  # Snowie export reads the setting
    shown = gnubg.run(f"set gnubgid {gid}")
    assert _ids_shown(shown) == gid, shown  # gnubg accepts the ID unchanged
    # the text board, exactly
    assert gnubg.run("show board").rstrip("\n") == ascii_board(pos)
    # FIBS board as gnubg writes it, and read back
    gnubg.run("set output rawboard on")
    raw = gnubg.run("show board").strip()
    gnubg.run("set output rawboard off")
    assert raw == fibs_board(pos)
    assert _keep(parse_fibs(raw), *CARRIED["fibs"][2]) == _keep(pos, *CARRIED["fibs"][2])
    # Snowie text as gnubg exports it
    out = tmp_path_factory.mktemp("snowie") / "pos.txt"
    gnubg.run(f"export position snowietxt {out}")
    assert out.read_text().strip() == snowie(pos)
    # our XGID, loaded by gnubg ("set confirm default no" keeps the top player on roll)
    assert _ids_shown(gnubg.run(f"set xgid {xgid(pos)}")) == gid


def _ids_shown(board: str) -> str:
    """``PositionID:MatchID`` from the last board gnubg printed."""
    pid = re.findall(r"Position ID: (\S+)", board)[-1]
    mid = re.findall(r"Match ID   : (\S+)", board)[-1]
    return f"{pid}:{mid}"


def test_gnubg_cli_reads_our_ids(tmp_path: Path) -> None:
    """The gnubg program (not the bindings): our IDs and XGIDs set up the position we meant."""
    exe = Path(os.environ.get("GNUBG", "/usr/games/gnubg"))
    if not exe.exists():
        pytest.skip("gnubg is not installed")
    cases = [parse_gnubg_id(g) for _, g, _ in FIBS_VECTORS] + [parse_xgid(x) for _, x, _ in XGID_VECTORS]
    for p in cases:
        script = f"set confirm default no\nset output rawboard on\nset xgid {xgid(p)}\nshow board\n"
        run = subprocess.run([str(exe), "-t", "-q"], input=script, capture_output=True, text=True, timeout=60)
        raw = re.findall(r"^board:.*$", run.stdout, re.M)[-1]
        q = parse_fibs(raw)
        assert _keep(q, *BASE) == _keep(p, *BASE), (xgid(p), raw)
        assert q.dice == (None if p.dice is None else (max(p.dice), min(p.dice)))


# =========================================================================== the corpus

CORPUS_FAILURES = {
    # AnkiGammon: X has 20 checkers (18 on the board and 2 on the bar)
    "XGID=-aBCBBDCB----d----c-c-A--A:0:0:1:53:0:0:0:7:10": (InvalidPositionError, "X has 20 checkers"),
    # AnkiGammon: a lowercase letter in slot 25 (the bottom player's bar); gnubg silently drops it
    "XGID=-BBBBBA-------------aaabba:0:0:1:64:0:0:0:7:10": (ParseError, "slot 25"),
    # bglab's empty board (used to draw a blank diagram)
    "XGID=--------------------------:1:-1:1:00:3:0:0:7:10": (InvalidPositionError, "borne off all"),
    # CocoaFIBS: a board captured in the middle of a move: 16 checkers a side
    "board:You:ain:3:0:0:0:-2:1:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:-1:2:0:1:1:1:0:0:1:1:1:0:1:-1:0:25:"
    "0:0:0:0:2:0:0:0": (InvalidPositionError, "16 checkers"),
    # TigerGammon: the server line after the board, not an ID
    "hannes rolls 4 and 3.": (ParseError, "not a position ID"),
}


def _corpus_items() -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for sub in ("xgid", "gnubgid", "fibs"):
        folder = CORPUS / sub
        if not folder.is_dir():
            continue
        for f in sorted(folder.iterdir()):
            if f.suffix == ".json":
                items += [(f.name, p["id"]) for p in json.loads(f.read_text(encoding="utf-8"))["positions"]]
            else:
                items += [(f.name, line.split("\t")[0]) for line in f.read_text(encoding="utf-8").splitlines()
                          if line.strip() and not line.startswith("#")]
    return items


def test_corpus_ids(capsys: pytest.CaptureFixture[str]) -> None:
    items = _corpus_items()
    if not items:
        pytest.skip("../shared/corpus is not present")
    parsed = 0
    failed: dict[str, str] = {}
    for name, text in items:
        try:
            p = parse_position(text)
        except NotationError as e:
            failed[text] = f"{name}: {type(e).__name__}: {e.message}"
            expected = CORPUS_FAILURES.get(text)
            assert expected is not None, failed[text]
            assert isinstance(e, expected[0]) and expected[1] in e.message, failed[text]
            continue
        parsed += 1
        fmt = detect_format(text)
        if fmt == "xgid":  # XGIDs round-trip exactly
            assert xgid(p) == (text if text.startswith("XGID=") else "XGID=" + text)
        elif fmt == "gnubg":  # gnubg IDs round-trip with the dice in the order read
            assert gnubg_id(p, dice_as_rolled=True) == text or dict(p.extras).get("note")
        elif fmt == "fibs":
            q = parse_fibs(fibs_board(p))
            assert _keep(q, *BASE, "dice", "names") == _keep(p, *BASE, "dice", "names")
    assert set(failed) == set(CORPUS_FAILURES) & {t for _, t in items}
    with capsys.disabled():
        print(f"\ncorpus IDs: {parsed} of {len(items)} parse; {len(failed)} fail:")
        for why in failed.values():
            print("  " + why)
    assert parsed >= 230


def test_blunderdb_pips() -> None:
    f = CORPUS / "xgid" / "blunderDB_xgid_corpus_extract.tsv"
    if not f.exists():
        pytest.skip("../shared/corpus is not present")
    lines = f.read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if line.startswith("XGID")]
    assert len(rows) >= 8
    for x, pips, *_ in rows:
        p = parse_xgid(x)
        black, white = map(int, pips.split(","))
        assert (p.pips(1), p.pips(0)) == (black, white), x


def test_game_state_kept() -> None:
    p = parse_gnubg_id(f"{OPENING}:MAAAAAAAAAAA", validate=False)  # bglib macro_test: gs=0
    assert p.game_state == GAME_NONE and match_id(p) == "MAAAAAAAAAAA"
    assert parse_gnubg_id(f"{OPENING}:cAkAAAAAAAAA").game_state == GAME_PLAYING


def test_fibs_board_round_trips_exactly() -> None:
    """FIBS board → FIBS board is exact: the side it is written from, the dice pair of the roller, the
    may-double flags and the fields the model does not hold are kept (issue: the roll was copied into
    the opponent's dice, can-move 2 became 0, the last field 0 became 1)."""
    from notation.ids import fibs_board, parse_fibs

    b = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:"
         "1:-1:0:25:0:0:0:0:2:0:0:0")
    assert fibs_board(parse_fibs(b)) == b
    shared = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "fibs"
    if not shared.is_dir():
        pytest.skip("../shared/corpus/fibs is not available")
    n = 0
    for f in sorted(shared.glob("*")):
        for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
            line = line.strip()
            if line.startswith("board:") and ": " not in line:  # (one sample pads fields with blanks)
                assert fibs_board(parse_fibs(line, validate=False)) == line, f.name
                n += 1
    assert n >= 35


def test_equality_means_the_same_position_and_state() -> None:
    """A position and the one read back from the XGID that `show` prints for it are equal; the Jacoby
    bit a gnubg Match ID carries in a match (where it means nothing, and an XGID cannot hold it) does
    not make them different; in money play it does."""
    from notation.ids import parse_position, xgid

    a = parse_position("4HPwATDgc/ABMA:cIkqAAAAAAAA")
    b = parse_position(xgid(a))
    assert a.match_length and a.jacoby and not b.jacoby
    assert a == b and hash(a) == hash(b)
    money = a.replace(match_length=0, score=(0, 0), crawford=False)
    assert money != money.replace(jacoby=not money.jacoby)
    assert a != a.replace(score=(1, 0))
    assert a == a.replace(extras=(("note", "x"),))


def test_every_id_writer_says_what_it_cannot_hold() -> None:
    from click.testing import CliRunner

    from notation.cli import main
    from notation.ids import lost_by, parse_position

    p = parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
    assert lost_by(p) == {"ogid": ["dice"]}  # OGID writes the lower die first, gnubg's Match ID the higher
    assert lost_by(p.replace(dice=(2, 5))) == {"gnubg_id": ["dice"]}
    assert lost_by(p.replace(dice=(5, 5))) == {}
    named = p.replace(names=("Ann", "Ben"))
    assert lost_by(named) == {"xgid": ["names"], "gnubg_id": ["names"], "ogid": ["dice", "names"]}
    r = CliRunner().invoke(main, ["show", "board:Ann:Ben:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
                                          "1:5:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1"])
    assert r.exit_code == 0 and "Not held:    XGID: names; GNUbg ID: names; OGID: dice, names" in r.output


def test_an_xgid_number_of_thousands_of_digits_is_a_field_error() -> None:
    """Found by a random run: Python refuses int() of more than 4,300 digits with a ValueError that is
    no ParseError (an internal error in every command)."""
    with pytest.raises(ParseError, match=r"XGID field 2 \(cube\): .*5000 characters\) at column 33 is not a "
                                         r"number of at most 9 digits"):
        parse_xgid("XGID=-b----E-C---eE---c-e----B-:" + "9" * 5000 + ":0:1:52:0:0:0:0:10")


_DIGIT_SAMPLES = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:1:1:7:10",
    "board:You:Them:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25"
    ":0:0:0:0:2:0:0:0",
]


@pytest.mark.parametrize("sample", _DIGIT_SAMPLES)
def test_every_number_of_thousands_of_digits_is_a_notation_error(sample: str) -> None:
    """Each number of each ID, in turn, made 5,000 digits long: a NotationError, never Python's own
    ValueError for int() of over 4,300 digits (a random run found the XGID's rules field read so)."""
    from notation.positionio import parse_position_text

    runs = list(re.finditer(r"\d+", sample))
    assert len(runs) > 5
    for m in runs:
        with pytest.raises(NotationError):
            parse_position_text(sample[:m.start()] + "9" * 5000 + sample[m.end():])
