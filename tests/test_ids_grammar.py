"""The ID readers follow their grammars: each reads an ID with the start rule of its
``grammars/ids_*.lark`` made a regular expression (:func:`notation._grammar.regexes`, generated), which must accept
exactly what lark's parser of the grammar accepts; and they start without lark."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation._grammar import parser, regexes

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


GRAMMARS = {"ids_xgid": ("start",), "ids_gnubg": ("gnubg_id", "position_id", "match_id"), "ids_fibs": ("start",),
            "ids_snowie": ("start",)}
SAMPLES = {"ids_xgid": XGIDS, "ids_gnubg": GNUBG, "ids_fibs": FIBS, "ids_snowie": SNOWIE}
CHARS = {"ids_xgid": XGID_CHARS, "ids_gnubg": B64_CHARS, "ids_fibs": NUM_CHARS, "ids_snowie": NUM_CHARS}


def _lark_reads(grammar: str, rule: str, text: str) -> bool:
    from lark.exceptions import UnexpectedInput

    starts = GRAMMARS[grammar]
    try:
        parser(grammar, starts if len(starts) > 1 else "start").parse(text, start=rule)
    except UnexpectedInput:
        return False
    return True


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(GRAMMARS)).flatmap(lambda g: st.tuples(
    st.just(g), st.sampled_from(GRAMMARS[g]), st.sampled_from(SAMPLES[g]).flatmap(lambda x: _edits(x, CHARS[g])))))
def test_the_regular_expressions_are_the_grammars(case: tuple[str, str, str]) -> None:
    """The regular expression made of a start rule matches exactly the lines lark's parser of the
    grammar reads (well-formed IDs and edits of them: a character replaced, inserted or removed)."""
    grammar, rule, text = case
    pattern = re.compile(regexes(grammar)[rule])
    assert bool(pattern.fullmatch(text)) == _lark_reads(grammar, rule, text), (grammar, rule, text)


def test_the_samples_are_well_formed() -> None:
    for grammar, samples in SAMPLES.items():
        rule = GRAMMARS[grammar][0]
        for text in samples:
            if grammar == "ids_gnubg" and ":" not in text:
                continue
            assert _lark_reads(grammar, rule, text), text


def test_show_and_moves_start_without_lark() -> None:
    """Reading an ID imports no parser library: the grammars' regular expressions are generated
    (notation/_terminals.py), not derived at run time, so not even a first run without a cache needs lark."""
    code = ("import sys\nfrom notation.cli import run\nimport atexit\n"
            "atexit.register(lambda: sys.stderr.write('LARK' if 'lark' in sys.modules else 'NO-LARK'))\nrun()\n")
    env = {**os.environ, "GAMMON_NO_CACHE": "1"}
    for args in (["show", XGIDS[0]], ["show", GNUBG[0]], ["show", FIBS[1]], ["show", SNOWIE[0]],
                 ["moves", GNUBG[0], "--dice", "31"], ["moves", XGIDS[0]], ["--version"]):
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                           timeout=120)
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
