"""The ID readers' fast paths (well-formed XGIDs and GNU Backgammon IDs read by a regular expression,
without lark) against the grammars: the same tokens at the same places, the same positions and the
same errors; and start-up without lark."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import ids
from notation.errors import NotationError
from notation.ids import _b64_pieces, _b64_pieces_lark, _Fields, _xgid_tokens, _xgid_tokens_lark

ROOT = Path(__file__).resolve().parents[1]
XGIDS = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10",
    "xgid=-b----E-C---eE---c-e----B-:1:-1:-1:D:3:12:1:13:8",
    "-------------D-----bbbbbbA:0:0:1:64:0:0:0:0:10",
    "XGID=---ABBA------------bbaa---:1:1:1:00:4:3:0:9:10",
]
GNUBG = ["4HPwATDgc/ABMA:cIkqAAAAAAAA", "4HPwATDgc/ABMA", "cIkqAAAAAAAA", "jGfkASjg8wcBMA:8AnyAAAAAAAE"]
XGID_CHARS = "-ABCDPabcp:0123456789+DBRxgidXGID= "
B64_CHARS = "AQgwBMa09+/:-= "


def _edits(base: str, alphabet: str) -> st.SearchStrategy[str]:
    """``base`` with a few characters replaced, inserted or deleted."""
    def apply(ops: list[tuple[int, int, str]]) -> str:
        s = base
        for kind, at, ch in ops:
            i = at % (len(s) + 1)
            if kind == 0:
                s = s[:i] + ch + s[i + 1:]
            elif kind == 1:
                s = s[:i] + ch + s[i:]
            else:
                s = s[:i] + s[i + 1:]
        return s

    return st.lists(st.tuples(st.integers(0, 2), st.integers(0, 80), st.sampled_from(alphabet)),
                    max_size=3).map(apply)


def _toks(toks: list) -> list[tuple[str, int]]:  # type: ignore[type-arg]
    return [(str(t), t.start_pos) for t in toks]


def _fields(line: str) -> _Fields:
    start = 5 if line[:5].lower() == "xgid=" else 0
    return _Fields("XGID", ":", ids._XGID_NAMES, ids._XGID_DESCS, ids._XGID_CHARS, line, start, 1)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(XGIDS).flatmap(lambda x: _edits(x, XGID_CHARS)))
def test_xgid_tokens_are_the_grammars(line: str) -> None:
    fast = _xgid_tokens(line)
    start = 5 if line[:5].lower() == "xgid=" else 0
    try:
        slow = _xgid_tokens_lark(line, start, 1, _fields(line))
    except NotationError:
        assert fast is None
        return
    assert fast is not None
    assert _toks(fast[0]) == _toks(slow[0]) and _toks(fast[1]) == _toks(slow[1])


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GNUBG).flatmap(lambda x: _edits(x, B64_CHARS)),
       st.sampled_from(["position_id", "match_id", "gnubg_id"]))
def test_base64_pieces_are_the_grammars(line: str, start: str) -> None:
    try:
        slow: tuple[str, ...] | str = _b64_pieces_lark(line, start, 1)
    except NotationError as e:
        slow = str(e)
    try:
        fast: tuple[str, ...] | str = _b64_pieces(line, start, 1)
    except NotationError as e:
        fast = str(e)
    assert fast == slow


FIBS = [
    "board:::7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:5:2:5:2:1:1:1:0:1:-1:0:25:0:0:0:0:0:"
    "0:0:1",
    "board:You:some one:5:1: 2:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:5:2:5:2:1:1:1:0:1:-1:0:25"
    ":0:0:0:0:0:0:0:1",
]
SNOWIE = [
    "7;0;0;0;1;;;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;5;2;",
    "0;1;0;0;0;Ann B;c:d;0;3;2;4;-1;-1;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2; 1 ;0;0",
]
NUM_CHARS = "0123456789-+ ;:\tab"


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([(f, ":") for f in FIBS] + [(x, ";") for x in SNOWIE]).flatmap(
    lambda b: st.tuples(_edits(b[0], NUM_CHARS), st.just(b[1]))))
def test_fibs_and_snowie_fields_are_the_grammars(case: tuple[str, str]) -> None:
    line, sep = case
    if sep == ":":
        fields = _Fields("FIBS board", ":", ids._FIBS_NAMES, ids._FIBS_DESCS, ids._FIBS_CHARS, line, 0, 1)
        fast = ids._split_fields(line, ":", ids._FIBS_FULL, (1, 2))
        lark = ids._fibs_fields_lark
    else:
        fields = _Fields("Snowie", ";", ids._SNOWIE_NAMES, ids._SNOWIE_DESCS, ids._SNOWIE_CHARS, line, 0, 1)
        fast = ids._split_fields(line, ";", ids._SNOWIE_FULL, (5, 6))
        lark = ids._snowie_fields_lark
    try:
        slow = lark(line, fields)
    except NotationError:
        assert fast is None
        return
    assert fast is not None
    assert fast[0] == slow[0] and _toks(fast[1]) == _toks(slow[1])


def _read(text: str) -> str:
    try:
        return repr(ids.parse_position(text))
    except NotationError as e:
        return f"error: {e}"


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(XGIDS + GNUBG + FIBS + SNOWIE).flatmap(
    lambda x: _edits(x, XGID_CHARS + B64_CHARS + NUM_CHARS)))
def test_positions_and_errors_are_the_same_without_the_fast_paths(text: str) -> None:
    fast = _read(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ids, "_xgid_tokens", lambda line: None)
        mp.setattr(ids, "_b64_pieces", ids._b64_pieces_lark)
        mp.setattr(ids, "_split_fields", lambda *args: None)
        slow = _read(text)
    assert fast == slow


def test_show_and_moves_start_without_lark() -> None:
    code = ("import sys\nfrom notation.cli import run\nimport atexit\n"
            "atexit.register(lambda: sys.stderr.write('LARK' if 'lark' in sys.modules else 'NO-LARK'))\nrun()\n")
    for args in (["show", XGIDS[0]], ["show", GNUBG[0]], ["show", FIBS[1]], ["moves", GNUBG[0], "--dice", "31"],
                 ["moves", XGIDS[0]], ["--version"]):
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0 and r.stderr.endswith("NO-LARK"), (args, r.stderr)


EXPORTS = sorted((ROOT / "tests" / "data" / "exports").glob("*"))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([p.read_text(encoding="utf-8", errors="replace") for p in EXPORTS] or [""]).flatmap(
    lambda t: st.tuples(st.integers(0, max(len(t) - 1, 0)), st.integers(0, 400), st.just(t))))
def test_maybe_export_is_needed_for_an_export(cut: tuple[int, int, str]) -> None:
    """Reading an ID skips the export reader when maybe_export says no: only right if every text
    looks_like_export accepts passes maybe_export (pieces of real exports, cut anywhere)."""
    from notation.formats.xgtext import looks_like_export
    from notation.positionio import maybe_export

    a, n, text = cut
    for piece in (text, text[a:a + n], text[a:], text[:a]):
        if looks_like_export(piece):
            assert maybe_export(piece)
    assert len(EXPORTS) > 3
