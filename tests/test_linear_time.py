"""Every reader's time grows linearly with its input: a run of one kind (blanks, digits, repeated cells,
nesting, long names, long values), inserted anywhere in a real record, costs about eight times more
when it is eight times longer, never the square (issue 26: 20,000 blanks in a ``.mat`` row took 36 s).

A complexity check, not a speed benchmark: each side is the least processor time of a few readings
(``time.process_time``: other processes on a loaded machine do not count), the growth is measured over
the reading of the record without the run, and the bound is generous (three times linear, or a few tens
of milliseconds in all, whichever is larger).  A reading that takes seconds is stopped by a timer on the
process's own time and fails at once."""

from __future__ import annotations

import gc
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import DATA
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from notation.errors import NotationError
from notation.formats.json_format import to_json
from notation.formats.mat import read_match
from notation.matchio import parse_any
from notation.positionio import parse_position_text

ROOT = Path(__file__).resolve().parents[1]
SIZE = 5000
"""Characters of the shorter run; the longer is eight times as long."""
GROWTH = 8
RATIO = 3 * GROWTH
FLOOR = 0.04
"""Seconds of growth that pass whatever the ratio (too little to measure on a loaded machine)."""
TOO_SLOW = 5.0
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
"""A failure is reported as found (its example is simple; shrinking it would read slow inputs again)."""


class _TooSlow(Exception):
    pass


def _stop(signum: int, frame: object) -> None:
    raise _TooSlow


def _cost(read: Callable[[object], object], data: object) -> float:
    """The least processor time of three readings of ``data`` (the cycle collector paused); a reading
    that takes more than :data:`TOO_SLOW` seconds of processor time is stopped, and costs infinity."""
    best = float("inf")
    gc.disable()
    old = signal.signal(signal.SIGVTALRM, _stop)
    try:
        for _ in range(3):
            start = time.process_time()
            signal.setitimer(signal.ITIMER_VIRTUAL, TOO_SLOW)
            try:
                read(data)
            except (NotationError, ValueError):
                pass
            except _TooSlow:
                return float("inf")
            finally:
                signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            best = min(best, time.process_time() - start)
    finally:
        signal.signal(signal.SIGVTALRM, old)
        gc.enable()
    return best


def _grows_linearly(read: Callable[[object], object], base: str, at: int, unit: str) -> None:
    def with_run(n: int) -> str:
        return base[:at] + (unit * (n // len(unit) + 1))[:n] + base[at:]

    t0 = _cost(read, base)
    t1 = _cost(read, with_run(SIZE))
    t8 = _cost(read, with_run(GROWTH * SIZE))
    grew1, grew8 = max(t1 - t0, 0.0), max(t8 - t0, 0.0)
    where = f"{unit!r} x {GROWTH * SIZE} characters at {at}: {base[max(at - 30, 0):at]!r} ^ {base[at:at + 30]!r}"
    assert t1 < TOO_SLOW and t8 < TOO_SLOW, f"more than {TOO_SLOW} s of processor time for {where}"
    assert grew8 <= max(FLOOR, RATIO * grew1), (
        f"{grew1 * 1e3:.1f} ms for {SIZE} characters, {grew8 * 1e3:.1f} ms for {GROWTH * SIZE}: {where}")


# --------------------------------------------------------------------------- the records and their places


def _after(text: str, marker: str, offset: int = 0) -> int:
    return text.index(marker) + len(marker) + offset


MAT = (ROOT / "samples" / "gnubg_selfplay_7p.mat").read_text(encoding="utf-8")
MAT_XG = (DATA / "mat_xg_dialect.txt").read_text(encoding="utf-8-sig")
MAT_PLACES = {
    "blanks": [_after(MAT, "  2) 64: 8/2 6/2"), _after(MAT, "  Wins"), _after(MAT, "Wins 4 points"),
               _after(MAT, "Doubles"), _after(MAT, "  1)"), _after(MAT, "7 point match\n"), 0, len(MAT)],
    "digits": [_after(MAT, "  2) 64: 8/2 6/2 "), _after(MAT, "  2) 64: 8/"), _after(MAT, "  2)"),
               _after(MAT, "Wins 4 points"), _after(MAT, " 7"), _after(MAT, " Game 1")],
    "cells": [_after(MAT, "  2) 64: 8/2 6/2 "), _after(MAT, "7 point match\n"), _after(MAT, "  3) 61: 13/7 8/7"),
              _after(MAT, "31: 6/5 8/5 \n")],
    "nesting": [_after(MAT, "  2) 64: "), _after(MAT, "; [EventDate "), _after(MAT, "  3) 61: 13/7 8/7"),
                _after(MAT, "Doubles => ")],
    "names": [_after(MAT, " gnubg"), _after(MAT, "gnubg : 0 "), _after(MAT, "root")],
    "values": [_after(MAT, '[EventDate "'), _after(MAT, "; [EventDate"), _after(MAT, "7 point match\n"),
               _after(MAT, "  2) 64: 8/2 6/2")],
}
MAT_UNITS = {
    "blanks": [" ", "\t", "  \t", "\n", "\r\n", " \n"],
    "digits": ["7", "1", "0", "13/", "1)"],
    "cells": ["13/8 ", "  9) 52: 13/8 24/22             64: 24/18 13/9\n", "  9)  Doubles => 2      Takes\n",
              "; a comment\n", "\ufeff\n", "52: ", "Wins 1 point ", "????", "*", "/"],
    "nesting": ["(", ")", "[", "((", "(2)"],
    "names": ["a", "a ", "é", ",", ", 1", " : ", "  "],
    "values": ["a", '"', "\\", "]", "\\\"", "x y "],
}

SGF = (DATA / "sgf_gnubg_resign.sgf").read_text(encoding="utf-8")
SGF_PLACES = {
    "blanks": [_after(SGF, ";B[", -3), _after(SGF, "PW["), _after(SGF, "(;"), 0, len(SGF)],
    "digits": [_after(SGF, ";B[", -1), _after(SGF, "MI[length:"), _after(SGF, "PW[")],
    "cells": [_after(SGF, ";B[", -3), _after(SGF, "(;FF[4]"), len(SGF) - 1, len(SGF)],
    "nesting": [_after(SGF, ";B[", -3), len(SGF) - 1, 0, _after(SGF, "(")],
    "names": [_after(SGF, "PW["), _after(SGF, "PB["), _after(SGF, ";B[", -3)],
    "values": [_after(SGF, "PW["), _after(SGF, "MI["), _after(SGF, ";B["), _after(SGF, "RE[")],
}
SGF_UNITS = {
    "blanks": [" ", "\n", "\r\n", "\t"],
    "digits": ["7", "0"],
    "cells": [";B[52lqac]", ";W[double]", "AB[a]", "[x]", "C[x]", ";", "A[b]"],
    "nesting": ["(", "(;", ")", "(;C[x])"],
    "names": ["a", "a ", "é", "\\]", "\\"],
    "values": ["a", "\\\\", "\\]", "\\\n", "[", ":"],
}

JSON = to_json(read_match(ROOT / "samples" / "gnubg_selfplay_7p.mat"))
JSON_PLACES = {
    "blanks": [1, _after(JSON, '"names":'), _after(JSON, '"actions": ['), len(JSON)],
    "digits": [_after(JSON, '"length": '), _after(JSON, '"dice": ['), _after(JSON, '"names": ["')],
    "cells": [_after(JSON, '"actions": ['), _after(JSON, '"tags": ['), _after(JSON, "{")],
    "nesting": [_after(JSON, '"length": '), _after(JSON, '"actions": ['), 1],
    "names": [_after(JSON, '"names": ["'), _after(JSON, '"play": "')],
    "values": [_after(JSON, '"play": "'), _after(JSON, '"text": "'), _after(JSON, '"names": ["')],
}
JSON_UNITS = {
    "blanks": [" ", "\n", "\t"],
    "digits": ["7", "0", "1e", "-1"],
    "cells": ['{"kind": "take", "player": 0}, ', "1, ", '"a": 1, ', "[], "],
    "nesting": ["[", "{", '{"a": ', "[["],
    "names": ["a", "a ", "é", "\\u00e9", "\\\\"],
    "values": ["a", "\\\"", "\\n", "13/8 "],
}

XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
GNUBG = "4HPwATDgc/ABMA:cIkqAAAAAAAA"
FIBS = ("board:You:some one:5:1: 2:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:5:2:5:2:1:1:1:0:1:-1:"
        "0:25:0:0:0:0:0:0:0:1")
SNOWIE = "0;1;0;0;0;Ann B;c:d;0;3;2;4;-1;-1;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2; 1 ;0;0"
IDS = [XGID, GNUBG, FIBS, SNOWIE]
ID_UNITS = {
    "blanks": [" ", "\t", "\n"],
    "digits": ["7", "0"],
    "cells": [":0", ";0", "-", "A", ":"],
    "nesting": ["(", "["],
    "names": ["a", "a ", ":", ";"],
    "values": ["a", "/", "+"],
}

EXPORTS = [p.read_text(encoding="utf-8") for p in sorted((DATA / "exports").glob("*.txt"))]
EXPORT_UNITS = {
    "blanks": [" ", "  ", "\t", "\n"],
    "digits": ["7", "0", "1.", "0.1 "],
    "cells": ["    1. 4-ply       19/18 14/12                  eq:-0.491\n", "19/18 ", "  1.   0.124 mwp / ",
              ": 0.4 ", "X:", "% "],
    "nesting": ["(", "(G:", "["],
    "names": ["a", "a ", "a  ", "X: a  O: b "],
    "values": ["a", "eq:", "-0.5", "mwp"],
}

KINDS = ["blanks", "digits", "cells", "nesting", "names", "values"]


def _line_places(text: str) -> list[int]:
    """The start, middle and end of every line."""
    out = []
    at = 0
    for line in text.split("\n"):
        out += [at, at + len(line) // 2, at + len(line)]
        at += len(line) + 1
    return out


# --------------------------------------------------------------------------- the properties


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=NO_SHRINK)
@given(data=st.data())
def test_mat(kind: str, data: st.DataObject) -> None:
    base = data.draw(st.sampled_from([MAT, MAT_XG]))
    places = MAT_PLACES[kind] if base is MAT else _line_places(base)
    at = data.draw(st.sampled_from(places) | st.integers(0, len(base)))
    _grows_linearly(parse_any, base, at, data.draw(st.sampled_from(MAT_UNITS[kind])))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=NO_SHRINK)
@given(data=st.data())
def test_sgf(kind: str, data: st.DataObject) -> None:
    at = data.draw(st.sampled_from(SGF_PLACES[kind]) | st.integers(0, len(SGF)))
    _grows_linearly(parse_any, SGF, at, data.draw(st.sampled_from(SGF_UNITS[kind])))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=NO_SHRINK)
@given(data=st.data())
def test_json(kind: str, data: st.DataObject) -> None:
    at = data.draw(st.sampled_from(JSON_PLACES[kind]) | st.integers(0, len(JSON)))
    _grows_linearly(parse_any, JSON, at, data.draw(st.sampled_from(JSON_UNITS[kind])))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=NO_SHRINK)
@given(data=st.data())
def test_ids_and_position_text(kind: str, data: st.DataObject) -> None:
    from notation.ids import ascii_board, parse_position

    base = data.draw(st.sampled_from([*IDS, ascii_board(parse_position(XGID))]))
    at = data.draw(st.integers(0, len(base)))
    _grows_linearly(parse_position_text, base, at, data.draw(st.sampled_from(ID_UNITS[kind])))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=NO_SHRINK)
@given(data=st.data())
def test_text_exports(kind: str, data: st.DataObject) -> None:
    assert len(EXPORTS) >= 4
    base = data.draw(st.sampled_from(EXPORTS))
    at = data.draw(st.sampled_from(_line_places(base)))
    _grows_linearly(parse_position_text, base, at, data.draw(st.sampled_from(EXPORT_UNITS[kind])))


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=NO_SHRINK)
@given(data=st.data())
def test_xg(data: st.DataObject) -> None:
    """The ``.xg`` reader: a game file with a run of its records repeated (whole games, or the records of
    one game), in eXtreme Gammon's container."""
    from xg_container import container, records

    from notation.formats.xg import read_xg

    recs = records((DATA / "xg_ronde3.xg").read_bytes())
    a = data.draw(st.integers(1, len(recs) - 2))
    b = data.draw(st.integers(a + 1, min(a + 40, len(recs) - 1)))
    unit = recs[a:b]
    small = 32

    def file_of(k: int) -> bytes:
        return container(b"".join(recs[:b] + unit * k + recs[b:]))

    t0 = _cost(read_xg, file_of(0))
    grew1 = max(_cost(read_xg, file_of(small)) - t0, 0.0)
    grew8 = max(_cost(read_xg, file_of(GROWTH * small)) - t0, 0.0)
    assert grew8 <= max(FLOOR, RATIO * grew1), (a, b, grew1, grew8)


@pytest.mark.parametrize("unit", [" ", "\t"])
def test_blanks_before_every_text_export(unit: str) -> None:
    """Found by a random run: blanks before an XG export's first line took the chances line's regular
    expression quadratic time (40,000 blanks: 1.3 s)."""
    for base in EXPORTS:
        _grows_linearly(parse_position_text, base, 0, unit)
