"""eXtreme Gammon .xg matches: read into the record model, every position checked against the one XG
stored, converted to .mat that gnubg reads as the same match, analysis kept, bad input refused."""

from __future__ import annotations

import json
import random
import struct
import subprocess
import zlib
from dataclasses import fields
from pathlib import Path

import pytest
from conftest import deflated_zeros, gammon_in_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.errors import ParseError
from notation.formats.json_format import from_json, to_json
from notation.formats.xg import HEADER_SIZE, RECORD_SIZE, read_xg, unpack
from notation.matchio import parse_any
from notation.replay import replay_match

ROOT = Path(__file__).resolve().parents[1]
DATA_XG = ROOT / "tests" / "data" / "xg_ronde3.xg"
CORPUS = ROOT.parent / "shared" / "corpus" / "xg"
CORPUS_FILES = sorted(CORPUS.glob("*.xg")) if CORPUS.is_dir() else []
ALL = [DATA_XG, *CORPUS_FILES]


def corpus_files() -> list[Path]:
    if not CORPUS_FILES:
        pytest.skip("../shared/corpus/xg is not available (a fresh clone has only tests/data)")
    return CORPUS_FILES


def xg_boards(pos: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A move record's stored position (XG's player 1 frame) as this model's boards: XG's player 1 is
    player 0 here (the left column of a .mat score line, as XG's own .mat export writes it)."""
    p1 = [0] * 26
    p2 = [0] * 26
    for n in range(1, 25):
        if pos[n] > 0:
            p1[n] = pos[n]
        elif pos[n] < 0:
            p2[25 - n] = -pos[n]
    p1[25], p2[25] = max(pos[25], 0), max(-pos[0], 0)
    p1[0], p2[0] = 15 - sum(p1[1:]), 15 - sum(p2[1:])
    return tuple(p1), tuple(p2)


def check_positions(path: Path) -> int:
    """Every position before a play equals the position XG stored in that move record."""
    blob = unpack(path.read_bytes())
    rep = replay_match(notation.read_match(path))
    n = 0
    for g in rep.games:
        for s in g.steps:
            if s.action.kind != "move":
                continue
            r = s.action.span.line - 1  # the record number
            rec = blob[r * RECORD_SIZE:(r + 1) * RECORD_SIZE]
            assert rec[8] == 3
            assert tuple(map(tuple, s.before.boards)) == xg_boards(struct.unpack_from("<26b", rec, 9)), (path, r)
            n += 1
    return n


def test_bundled_file_reads_and_validates() -> None:
    m = notation.read_match(DATA_XG)
    assert m.format == "xg" and m.length == 7
    assert m.names == ("Kévin UNGER Nicolas HARMAND", "Johan HUYCK Peter LARSEN") or "Kévin UNGER" in m.names[0] + \
        m.names[1]
    assert len(m.games) == 4
    rep = replay_match(m)
    assert not [f for f in rep.findings if f.severity != "note"]
    assert rep.plays == 180
    assert check_positions(DATA_XG) == 180


def test_recognised_by_content_not_extension(tmp_path: Path) -> None:
    disguised = tmp_path / "match.mat"
    disguised.write_bytes(DATA_XG.read_bytes())
    assert len(notation.read_match(disguised).games) == 4
    r = gammon_in_process("validate", disguised, text=True)
    assert r.returncode == 0 and "4 games, 180 plays, 0 errors" in r.stdout


def test_corpus_positions_equal_what_xg_stored() -> None:
    total = sum(check_positions(p) for p in corpus_files())
    assert total >= 1700


def test_corpus_validates_and_the_one_illegal_play_is_xgs_own() -> None:
    for path in corpus_files():
        m = notation.read_match(path)
        errors = [f for f in replay_match(m).findings if f.severity == "error"]
        invalid = [n for n in m.normalisations if "marks the play" in n.message]
        if path.name.startswith("Squire"):
            # XG itself flags this play invalid (a 4-3 played as 14/11 8/5): a real finding, not ours
            assert len(errors) == 1 and "needs 3 + 3 pips" in errors[0].message
            assert len(invalid) == 1 and "14/11 8/5" in invalid[0].message
            assert errors[0].line == invalid[0].line
        else:
            assert errors == [] and invalid == [], path.name


def test_roll_then_resign_is_a_roll_not_a_finding() -> None:
    path = CORPUS / "match_with_comment.xg"
    if not path.exists():
        pytest.skip("../shared/corpus/xg is not available")
    m = notation.read_match(path)
    rolls = [(g.number, a) for g in m.games for a in g.actions if a.kind == "roll"]
    assert len(rolls) == 3
    for number, a in rolls:
        g = next(g for g in m.games if g.number == number)
        kinds = [x.kind for x in g.actions[g.actions.index(a):]]
        assert kinds == ["roll", "resign", "accept", "win"]
    assert not [f for f in replay_match(m).findings if f.severity != "note"]


def test_analysis_is_read_and_survives_json() -> None:
    m = notation.read_match(DATA_XG)
    analysed = [a for g in m.games for a in g.actions if a.analysis is not None]
    assert len(analysed) > 100
    checker = [a for a in analysed if a.analysis and a.analysis.checker]
    a = checker[0]
    ch = a.analysis.checker
    assert ch.candidates and ch.played is not None
    assert sorted(ch.candidates[ch.played].play.split()) == sorted((a.play or "").split())
    assert all(c.equity is not None for c in ch.candidates)
    assert ch.error is not None and ch.error >= 0
    eqs = [c.equity for c in ch.candidates]
    assert eqs == sorted(eqs, reverse=True)  # ranked best first
    assert any(x.analysis and x.analysis.cube and x.analysis.cube.no_double is not None for x in analysed)
    text = to_json(m)
    again = from_json(text)
    assert again == m
    assert to_json(again) == text
    assert json.loads(text)["version"] == 3


def test_conversions_report_what_they_drop(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from notation.cli import main

    r = CliRunner().invoke(main, ["convert", str(DATA_XG), str(tmp_path / "m.mat")])
    assert r.exit_code == 0
    assert "dropped: the analysis by eXtreme Gammon" in r.stderr
    r = CliRunner().invoke(main, ["convert", "--strict", str(DATA_XG), str(tmp_path / "s.sgf")])
    assert r.exit_code == 1 and "error: the analysis" in r.stderr and not (tmp_path / "s.sgf").exists()


@pytest.mark.parametrize("path", ALL[:1] + CORPUS_FILES, ids=lambda p: p.name)
def test_converted_mat_is_read_by_gnubg_as_the_same_match(path: Path, tmp_path: Path) -> None:
    from test_mat_reader import _gnubg_import, _gnubg_view, _ours

    from notation.convert import render_match

    m = notation.read_match(path)
    text, _ = render_match(m, "mat")
    out = tmp_path / "m.mat"
    out.write_text(text, encoding="utf-8")
    # gnubg reads our .mat as the match the .xg holds, the rolls before resignations included.  XG
    # writes a checker's two dice as one span (24/13 for 6-5), which gnubg splits (24/18 18/13), and
    # the split can take the dice in either order: compare where checkers left and arrived.
    assert _net(_gnubg_view(_gnubg_import(out))) == _net(_ours(m))
    # our reader too, where the roll before a resignation is an empty move
    xg_view = [[x if x[1] != "set" else (x[0], "move", x[2], ()) for x in g] for g in _ours(m)]
    assert _ours(notation.read_match(out)) == xg_view


def _net(view: list[list[tuple]]) -> list[list[tuple]]:
    from collections import Counter

    def net(steps: tuple) -> tuple:
        c: Counter[int] = Counter()
        for a, b in steps:
            c[a] += 1
            c[b] -= 1
        return tuple(sorted((k, v) for k, v in c.items() if v))

    return [[(x[0], x[1], x[2], net(x[3])) if x[1] == "move" else x for x in g] for g in view]


def _cli(data: bytes, tmp_path: Path, name: str = "bad.xg") -> subprocess.CompletedProcess[str]:
    p = tmp_path / name
    p.write_bytes(data)
    return gammon_in_process("validate", p, text=True)  # (the command in this process: what it does)


def test_bad_containers_get_one_line_with_the_byte_offset(tmp_path: Path) -> None:
    good = DATA_XG.read_bytes()
    thumb = struct.unpack_from("<I", good, 20)[0]
    start = HEADER_SIZE + thumb
    blob = unpack(good)
    cases = {
        "truncated header": good[:4000],
        "truncated stream": good[:start + 5000],
        "damaged zlib": good[:start + 10] + bytes(b ^ 0x5A for b in good[start + 10:start + 60]) + good[start + 60:],
        "wrong record size": good[:start] + zlib.compress(blob[:-100]),
        "random binary": b"RGMH" + random.Random(1).randbytes(20000),
        "thumbnail past the end": good[:20] + struct.pack("<I", 10**9) + good[24:],
    }
    for what, data in cases.items():
        with pytest.raises(ParseError) as e:
            read_xg(data, name="x.xg")
        assert "byte" in str(e.value), what
        r = _cli(data, tmp_path, "bad.mat")  # named .mat, recognised by content
        assert r.returncode == 2, (what, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr + r.stdout and "byte" in r.stdout, what


def test_zip_bomb_is_bounded() -> None:
    good = DATA_XG.read_bytes()
    bomb = good[:HEADER_SIZE] + deflated_zeros(300 << 20)
    bomb = bomb[:20] + struct.pack("<I", 0) + bomb[24:]
    with pytest.raises(ParseError, match="unpacks to more than"):
        read_xg(bomb)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_mutated_records_raise_only_parse_errors(data: st.DataObject) -> None:
    """Random changes inside the game file: the reader and the replay raise only ParseError."""
    good = DATA_XG.read_bytes()
    thumb = struct.unpack_from("<I", good, 20)[0]
    blob = bytearray(unpack(good))
    for _ in range(data.draw(st.integers(1, 8))):
        i = data.draw(st.integers(0, len(blob) - 1))
        blob[i] = data.draw(st.integers(0, 255))
    raw = good[:HEADER_SIZE + thumb] + zlib.compress(bytes(blob), 1)
    try:
        (m,) = parse_any(raw, name="fuzz.xg")
    except ParseError:
        return
    replay_match(m)
    to_json(m)  # the analysis, decoded when first used, decodes without raising


def test_analysis_decoded_on_first_use_behaves_as_plain_objects() -> None:
    """The reader decodes XG's candidates and cube figures when first used (validation never needs
    them): such an object equals, hashes, shows, copies and pickles as the plain one."""
    import copy
    import pickle

    from notation.analysis import CheckerAnalysis, CubeAnalysis

    m = notation.read_match(DATA_XG)
    checkers = [a.analysis.checker for g in m.games for a in g.actions if a.analysis and a.analysis.checker]
    cubes = [a.analysis.cube for g in m.games for a in g.actions if a.analysis and a.analysis.cube]
    for lazy in (checkers[5], cubes[5]):
        cls = CheckerAnalysis if isinstance(lazy, CheckerAnalysis) else CubeAnalysis
        plain = cls(*(getattr(lazy, f.name) for f in fields(cls)))
        assert type(lazy) is not cls and lazy == plain and plain == lazy and hash(lazy) == hash(plain)
        assert repr(lazy) == repr(plain)
        for back in (pickle.loads(pickle.dumps(lazy)), copy.deepcopy(lazy), copy.copy(lazy)):
            assert type(back) is cls and back == lazy
    assert checkers[5] != checkers[6] and cubes[5] != checkers[5]
