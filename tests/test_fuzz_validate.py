"""Fuzzing: random edits of real transcripts never raise anything but the project's own errors.

Each edited file goes through the whole `validate` path (read, replay, findings).  A reader may
refuse the text (a NotationError with a location) or the replay may report findings; any other
exception is a bug.  A runaway search is stopped by the tests' time bound (pytest-timeout); how a
reader's time grows with its input is tests/test_linear_time.py's, and speed is measured in benchmarks/.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.errors import NotationError
from notation.formats.mat import read_matches
from notation.formats.sgf import read_sgf
from notation.replay import replay_match

DATA = Path(__file__).resolve().parent / "data"
SOURCES = [
    (DATA / "gnubg_7p_crawford.mat").read_text(),
    (DATA / "mat_xg_dialect.txt").read_text(encoding="utf-8-sig"),
    (DATA / "mat_galaxy_dialect.txt").read_text(),
    (DATA / "mat_fibs_dialect.txt").read_text(),
]
SGF_SOURCES = sorted(DATA.glob("sgf_gnubg_*.sgf"))

# Pieces of notation that matter to the reader and the replay.
FRAGMENTS = ["/", "*", "(2)", "bar", "off", "25", "0", "13", "24/", "Doubles => 2", "Takes", "Drops",
             "Wins 1 point", " Game 2\n", ":", "66: ", "12: ", "\n", "  ", "Beavers => 4", "???", "Cannot Move",
             "Illegal play (", ")", "; [Variation \"Nackgammon\"]\n", "7 point match", "é", "\t", "-"]


@st.composite
def edited(draw: st.DrawFn, sources: list[str]) -> str:
    text = draw(st.sampled_from(sources))
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap_lines", "digit"]))
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        if kind == "delete":
            j = min(len(text), i + draw(st.integers(1, 12)))
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + draw(st.sampled_from(FRAGMENTS)) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(st.characters(codec="utf-8")) + text[i + 1:]
        elif kind == "digit":
            text = text[:i] + str(draw(st.integers(0, 9))) + text[i + 1:]
        else:
            lines = text.split("\n")
            a = draw(st.integers(0, len(lines) - 1))
            b = draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
    return text


def check(read, text: str) -> None:  # type: ignore[no-untyped-def]
    try:
        matches = read(text)
    except NotationError as e:
        assert e.line is not None or e.column is not None or e.message
        return
    for m in matches if isinstance(matches, list) else [matches]:
        rep = replay_match(m)
        for f in rep.findings:
            assert f.severity in ("error", "warning", "note") and f.message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited(SOURCES))
def test_mat_edits_raise_only_project_errors(text: str) -> None:
    check(read_matches, text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited([p.read_text() for p in SGF_SOURCES]))
def test_sgf_edits_raise_only_project_errors(text: str) -> None:
    check(read_sgf, text)
