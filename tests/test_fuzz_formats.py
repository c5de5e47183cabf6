"""Fuzzing every reader and every writer (a fixed budget, so it runs in CI).

Readers: random byte-level edits of real files of every format (.mat dialects, SGF, JSON, .xg, XG and
BGBlitz text exports, one-line IDs), and random bytes, go through the reading a user's command does
(``notation.matchio.parse_any`` for records, ``notation.positionio.parse_position_text`` for positions).
Each may be refused, with a NotationError that says where, or read; nothing else may escape, and the
memory a reading takes stays within a bound of the input's size (the bound, not a speed, is tested;
speed is measured in benchmarks/).

Writers: random matches written as .mat, SGF, JSON and the text record, then read back, give the same
match, or the conversion lists what it dropped.  Writing what was read back gives the same bytes.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_mat_writer import matches

from notation.convert import render_match
from notation.errors import NotationError
from notation.formats.mat import format_play_text
from notation.matchio import parse_any
from notation.positionio import parse_position_text
from notation.record import Match

RECORDS = [DATA / n for n in ("gnubg_7p_crawford.mat", "mat_xg_dialect.txt", "mat_galaxy_dialect.txt",
                              "mat_fibs_dialect.txt", "mat_dailygammon_dialect.txt", "mat_snowie_setup.txt",
                              "mat_bgstudio_latin1.txt", "sgf_gnubg_resign.sgf", "sgf_gibbon_7point.sgf",
                              "sgf_gnubg_setup.sgf")]
SEEDS: list[bytes] = [p.read_bytes() for p in RECORDS]
SMALL_XG = (DATA / "xg_ronde3.xg").read_bytes()


def _json_seed() -> bytes:
    from notation.formats.json_format import to_json
    from notation.matchio import read_match

    return to_json(read_match(DATA / "sgf_gnubg_resign.mat")).encode()


SEEDS.append(_json_seed())
POSITIONS = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
    "4HPwATDgc/ABMA:cIkWAAAAAAAA",
    "board:You:Them:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25"
    ":0:0:0:0:2:0:0:0",
]
EXPORTS = sorted((DATA / "exports").glob("*.txt"))
POSITIONS += [p.read_text(encoding="utf-8", errors="replace") for p in EXPORTS[:4]]

MEMORY_FACTOR = 40
"""A reading may take at most this many times its input's size in traced memory, plus MEMORY_BASE
(parsers are built before measuring).  The SGF bound of the issue (10x) is measured in benchmarks/."""
MEMORY_BASE = 3 << 20


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 8))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["flip", "delete", "insert", "truncate", "duplicate", "byte"]))
        if kind == "flip":
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "delete":
            del data[i:i + draw(st.integers(1, 40))]
        elif kind == "insert":
            data[i:i] = draw(st.sampled_from([b"(", b")", b"[", b"]", b";", b"\\", b"\n", b"\x00", b"\xff\xfe",
                                              b"9" * 30, b"-", b"{", b"}", b'"', b"Game 1\n", b"(;", b"\r"]))
        elif kind == "truncate":
            del data[i:]
        elif kind == "duplicate":
            j = min(len(data), i + draw(st.integers(1, 200)))
            data[i:i] = data[i:j]
        else:
            data[i] = draw(st.integers(0, 255))
    return bytes(data)


def read_bounded(data: bytes) -> list[Match] | None:
    """Read as ``gammon validate -`` does; only a NotationError may escape; memory stays bounded."""
    tracemalloc.start()
    try:
        try:
            return parse_any(data, name="fuzz")
        except NotationError as e:
            assert e.message
            return None
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert peak <= MEMORY_FACTOR * len(data) + MEMORY_BASE, f"{peak} bytes for a {len(data)}-byte input"


@pytest.fixture(autouse=True, scope="module")
def _parsers_built() -> None:
    """Build every parser once, in each process that runs these tests, so that the memory bounds below
    measure the reading alone: the readers' fast paths on the seeds, and lark's parsers, which a reader
    builds (importing lark) when a damaged file first falls through to them: each seed damaged at its
    start, an OGXM file cut after its magic (a random run: 4.3 MB for the 4 bytes ``OGXM``, the OGXM
    reader's import), and a damaged ID."""
    for d in SEEDS + [SMALL_XG, b"OGXM"]:  # (a damaged OGXM file: the OGXM reader's modules, imported on first use)
        for data in (d, b": " + d):
            try:
                parse_any(data, name="warm-up")
            except NotationError:
                pass
    for p in POSITIONS + ["XGID=-b----E-C---eE---c-e----B-:0:0:1:5x:0:0:3:0:10", "4HPwATDgc/ABMA:cIkW!AAAAAAA"]:
        try:
            parse_position_text(p)
        except NotationError:
            pass


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SEEDS))
def test_record_readers_refuse_or_read(data: bytes) -> None:
    got = read_bounded(data)
    if got:
        from notation.replay import replay_match

        for m in got:
            replay_match(m)  # and the replay of whatever was read never raises


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated([SMALL_XG]))
def test_xg_reader_refuses_or_reads(data: bytes) -> None:
    read_bounded(data)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_are_refused_with_a_reason(data: bytes) -> None:
    read_bounded(data)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated([p.encode() for p in POSITIONS]))
def test_position_readers_refuse_or_read(data: bytes) -> None:
    text = data.decode("utf-8", errors="replace")
    try:
        rec = parse_position_text(text)
    except NotationError as e:
        assert e.message
        return
    # positions are read as written (``show`` draws an impossible one and names its problem, exit 2):
    # what is impossible must be said by the position's own check
    if any(sum(side) > 15 for side in rec.position.boards):
        assert any("checkers" in p for p in rec.position.problems())


# ---------------------------------------------------------------------------------------- writers

def view(m: Match) -> Any:
    """What every writer must keep (or report dropping): the games, their actions and the players."""
    games = []
    for g in m.games:
        acts = []
        for a in g.actions:
            if a.kind == "loss":  # Galaxy's "Losses": the "Wins" says it
                continue
            play = format_play_text(a.play) if a.play else (a.play or None)
            acts.append((a.kind, a.player, a.dice, play, a.value if a.kind != "move" else None))
        games.append((g.score, acts))
    return (m.length, tuple(n.strip() for n in m.names), games)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches(), st.sampled_from(["mat", "sgf", "json"]))
def test_writers_keep_the_match_or_say_what_they_drop(m: Match, fmt: str) -> None:
    text, dropped = render_match(m, fmt)
    try:
        again = parse_any(text, name=f"written.{fmt}")[0]
    except NotationError as e:  # a writer must never write what its own reader refuses
        raise AssertionError(f"{fmt} writer wrote what its reader refuses: {e}\n{text}") from None
    if view(again) != view(m):
        assert dropped, f"{fmt}: the match changed and nothing was reported dropped:\n{view(m)}\n{view(again)}"
    again.source = m.source  # (JSON keeps where a record was read from)
    assert render_match(again, fmt)[0] == text or dropped


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_text_record_says_what_it_cannot_give_back(m: Match) -> None:
    text, dropped = render_match(m, "txt")
    assert isinstance(text, str)
    try:
        parse_any(text, name="written.txt")
    except NotationError as e:  # the text record is for reading by people; our reader says so
        assert e.message
    if m.games and any(g.actions for g in m.games):
        assert text.strip()


def test_gnubg_written_records_survive_every_writer() -> None:
    """Real records through every writer and back (the property above, on real data)."""
    from notation.matchio import read_match

    for p in (DATA / "gnubg_7p_crawford.mat", DATA / "sgf_gnubg_beaver.sgf", DATA / "mat_xg_dialect.txt"):
        m = read_match(p)
        for fmt in ("mat", "sgf", "json"):
            text, dropped = render_match(m, fmt)
            again = parse_any(text, name=f"x.{fmt}")[0]
            assert view(again) == view(m) or dropped, (p.name, fmt)


def test_memory_bound_is_a_real_check() -> None:
    """The bound can fail: a reading that keeps 100 copies of its input breaks it."""
    data = SEEDS[0]
    tracemalloc.start()
    keep = [bytearray(data) for _ in range(100)]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert keep and peak > MEMORY_FACTOR * len(data)
    assert Path(RECORDS[0]).exists()
