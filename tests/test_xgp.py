"""eXtreme Gammon position files (.xgp): the position from the decision record, its analysis, the
commands that take a position, and damaged files refused with the byte offset and the record.

No real .xgp file is in the corpus: the files here are made by re-packing records of a real .xg into
a one-position container (tests/xg_container.py).  The position each one gives is checked against the
replay of the whole match at that decision, and its analysis against the .xg reader's."""

from __future__ import annotations

import json
import random
import struct
import subprocess
from pathlib import Path

import pytest
from conftest import CORPUS as SHARED_CORPUS
from conftest import deflated_zeros, gammon_in_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xg_container import archive, container, records, xgp_from_xg

import notation
from notation.analysis import analysis_to_dict
from notation.errors import ParseError
from notation.formats.xg import CUBE, HEADER_SIZE, MOVE, RECORD_SIZE, read_xgp
from notation.ids import xgid
from notation.replay import replay_match

ROOT = Path(__file__).resolve().parents[1]
DATA_XG = ROOT / "tests" / "data" / "xg_ronde3.xg"
CORPUS = SHARED_CORPUS / "xg"


def _decisions(path: Path) -> list[tuple[int, object]]:
    """(record index, replay step) of every move and of every double in the match."""
    rep = replay_match(notation.read_match(path))
    out = []
    for g in rep.games:
        for s in g.steps:
            if s.action.kind in ("move", "double") and s.action.span is not None:
                out.append((s.action.span.line - 1, s))
    return out


def _check(xg: bytes, index: int, step: object) -> None:
    rec = read_xgp(xgp_from_xg(xg, index), "p.xgp")
    before = step.before  # type: ignore[attr-defined]
    action = step.action  # type: ignore[attr-defined]
    pos = rec.position
    assert rec.format == "xgp" and rec.names == before.names
    assert pos.boards == before.boards, index
    assert (pos.turn, pos.cube, pos.cube_owner) == (before.turn, before.cube, before.cube_owner), index
    assert (pos.match_length, pos.score, pos.crawford) == (before.match_length, before.score, before.crawford), index
    if action.kind == "move":
        assert pos.dice == action.dice
        assert rec.analysis is not None and action.analysis is not None
        assert rec.analysis.checker == action.analysis.checker
        assert rec.analysis.cube == action.analysis.cube
        assert rec.analysis.luck == action.analysis.luck
    else:
        assert pos.dice is None
        assert rec.analysis is not None and action.analysis is not None
        assert rec.analysis.cube == action.analysis.cube and rec.analysis.checker is None
    assert not pos.problems()


def test_every_decision_of_the_bundled_match_as_a_position_file() -> None:
    """Each move and each double of the bundled .xg, re-packed alone: the position, dice, cube, score
    and analysis equal what the replay of the whole match has at that point."""
    xg = DATA_XG.read_bytes()
    found = _decisions(DATA_XG)
    assert len(found) > 180
    for index, step in found:
        _check(xg, index, step)


def test_corpus_decisions_as_position_files() -> None:
    files = sorted(CORPUS.glob("*.xg")) if CORPUS.is_dir() else []
    if not files:
        pytest.skip("../shared/corpus/xg is not available (a fresh clone has only tests/data)")
    rnd = random.Random(10)
    n = 0
    for path in files:
        xg = path.read_bytes()
        found = _decisions(path)
        doubles = [d for d in found if d[1].action.kind == "double"]  # type: ignore[attr-defined]
        for index, step in rnd.sample(found, min(40, len(found))) + doubles:
            _check(xg, index, step)
            n += 1
    assert n > 280


def test_the_test_containers_are_read_by_xgdatatools(tmp_path: Path) -> None:
    """The container builder is checked by another reader: xgdatatools (inside ankigammon) verifies
    the archive's CRCs and registry, and finds the same records."""
    try:
        from ankigammon.thirdparty.xgdatatools import xgimport, xgstruct  # type: ignore[import-not-found]
    except ImportError:
        pytest.skip("xgdatatools (pip install --no-deps ankigammon) is not installed")
    xg = DATA_XG.read_bytes()
    move = next(i for i, r in enumerate(records(xg)) if r[8] == MOVE and i > 20)
    path = tmp_path / "p.xgp"
    path.write_bytes(xgp_from_xg(xg, move))
    kinds = []
    for seg in xgimport.Import(str(path)).getfilesegment():
        if seg.type == xgimport.Import.Segment.XG_GAMEFILE:
            seg.fd.seek(0)
            version = -1
            while (r := xgstruct.GameFileRecord(version=version).fromstream(seg.fd)) is not None:
                version = r.Version if r.EntryType == 0 else version
                kinds.append(r.EntryType)
                if r.EntryType == MOVE:
                    assert tuple(r.Dice) == read_xgp(path.read_bytes(), "p.xgp").position.dice
    assert kinds[:2] == [0, 1] and kinds[-1] == MOVE


def _xgp(kind: int = MOVE) -> bytes:
    xg = DATA_XG.read_bytes()
    recs = records(xg)
    index = next(i for i, r in enumerate(recs) if r[8] == kind and i > 20
                 and (kind != CUBE or struct.unpack_from("<i", r, 16)[0] == 1))
    return xgp_from_xg(xg, index)


def _run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return gammon_in_process(*args, input=stdin)  # (the command in this process: what it does, not its start)


def test_show_moves_and_render_take_a_position_file(tmp_path: Path) -> None:
    path = tmp_path / "decision.xgp"
    path.write_bytes(_xgp())
    rec = read_xgp(path.read_bytes(), str(path))
    r = _run("show", "--json", str(path))
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["format"] == "xgp" and info["xgid"] == xgid(rec.position)
    assert info["analysis"]["checker"]["candidates"][0]["level"]
    assert info["analysis"]["producer"] == "eXtreme Gammon"
    r = _run("show", "-", stdin=path.read_bytes())
    assert r.returncode == 0 and b"Best play:" in r.stdout
    r = _run("moves", str(path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().startswith(f"Roll {rec.position.dice[0]}{rec.position.dice[1]}: ")  # type: ignore[index]
    piped = _run("moves", "-", stdin=path.read_bytes()).stdout  # standard input: headed by the position
    assert piped == f"Position {xgid(rec.position)}\n".encode() + r.stdout
    out = tmp_path / "d.png"
    r = _run("render", str(path), "-o", str(tmp_path / "best.png"))  # by default, with its best play
    assert r.returncode == 0, r.stderr
    r = _run("render", str(path), "--candidate", "0", "--no-names", "-o", str(out))  # the position alone
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.read_bytes() != (tmp_path / "best.png").read_bytes()
    # the same position given as its XGID draws the same picture
    r = _run("render", xgid(rec.position), "-o", str(tmp_path / "e.png"))
    assert r.returncode == 0 and (tmp_path / "e.png").read_bytes() == out.read_bytes()


def test_a_cube_decision_file() -> None:
    rec = read_xgp(_xgp(CUBE), "c.xgp")
    assert rec.position.dice is None
    assert rec.analysis is not None and rec.analysis.checker is None
    cube = rec.analysis.cube
    assert cube is not None and None not in (cube.no_double, cube.double_take, cube.double_pass)


def test_a_match_is_not_a_position_file(tmp_path: Path) -> None:
    r = _run("show", str(DATA_XG))
    err = r.stderr.decode()
    assert r.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "second game header" in err and "record " in err and "byte " in err


def _bad_files() -> dict[str, bytes]:
    good = _xgp()
    thumb = struct.unpack_from("<I", good, 20)[0]
    start = HEADER_SIZE + thumb
    blob = b"".join(records(good))
    header = blob[:RECORD_SIZE]
    return {
        "truncated header": good[:3000],
        "truncated stream": good[:start + 900],
        "damaged zlib": good[:start + 40] + bytes(b ^ 0xA5 for b in good[start + 40:start + 90]) + good[start + 90:],
        "wrong record size": good[:start] + archive([("temp.xg", blob[:-7])]),
        "random binary": b"RGMH" + random.Random(2).randbytes(12000),
        "thumbnail past the end": good[:20] + struct.pack("<I", 1 << 30) + good[24:],
        "no decision": container(header + blob[RECORD_SIZE:2 * RECORD_SIZE]),
        "no game header": container(header + blob[2 * RECORD_SIZE:]),
        "dice out of range": container(blob[:-RECORD_SIZE + 100] + struct.pack("<i", 9) + blob[-RECORD_SIZE + 104:]),
        "17 checkers": container(blob[:-RECORD_SIZE + 9] + bytes([17]) + blob[-RECORD_SIZE + 10:]),
        "unknown record type": container(blob[:-RECORD_SIZE + 8] + b"\x09" + blob[-RECORD_SIZE + 9:]),
    }


@pytest.mark.parametrize("what", list(_bad_files()))
def test_bad_position_files_get_one_line_with_byte_and_record(what: str, tmp_path: Path) -> None:
    data = _bad_files()[what]
    with pytest.raises(ParseError) as e:
        read_xgp(data, "bad.xgp")
    assert "byte " in e.value.message and "record " in e.value.message, (what, e.value.message)
    path = tmp_path / "bad.xgp"
    path.write_bytes(data)
    for args in (["show", str(path)], ["moves", str(path)], ["render", str(path), "-o", str(tmp_path / "x.png")]):
        r = _run(*args)
        err = r.stderr.decode()
        assert r.returncode == 2, (what, args, err)
        assert err.count("\n") == 1 and "Traceback" not in err and "byte " in err and "record " in err, (what, err)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_position_files_raise_only_parse_errors(data: st.DataObject) -> None:
    """Random changes inside the game file, or to the container's bytes: read_xgp gives a position (that
    the ID writers take) or raises ParseError, nothing else."""
    good = _xgp(data.draw(st.sampled_from([MOVE, CUBE])))
    if data.draw(st.booleans()):
        blob = bytearray(b"".join(records(good)))
        for _ in range(data.draw(st.integers(1, 10))):
            blob[data.draw(st.integers(0, len(blob) - 1))] = data.draw(st.integers(0, 255))
        raw = container(bytes(blob))
    else:
        raw_b = bytearray(good)
        for _ in range(data.draw(st.integers(1, 6))):
            raw_b[data.draw(st.integers(0, len(raw_b) - 1))] = data.draw(st.integers(0, 255))
        raw = bytes(raw_b[:data.draw(st.integers(0, len(raw_b)))]) if data.draw(st.booleans()) else bytes(raw_b)
    try:
        rec = read_xgp(raw, "fuzz.xgp")
    except ParseError as e:
        assert "byte " in e.message
        return
    rec.position.problems()
    if not rec.position.problems():
        xgid(rec.position)
    if rec.analysis is not None:
        analysis_to_dict(rec.analysis)  # decoded when first used: never raises


def test_zip_bomb_in_a_position_file_is_bounded() -> None:
    bomb = container(b"")[:HEADER_SIZE] + deflated_zeros(300 << 20)
    with pytest.raises(ParseError, match="unpacks to more than"):
        read_xgp(bomb, "bomb.xgp")


def test_a_position_file_read_as_a_match_starts_from_its_position() -> None:
    """`gammon validate`/`convert` read an .xgp as a one-game record that starts from the position
    (a set-up start), so the decision replays without findings."""
    from notation.matchio import parse_any

    for kind in (MOVE, CUBE):
        data = _xgp(kind)
        m = parse_any(data, name="p.xgp")[0]
        (game,) = m.games
        assert game.start is not None and game.start.boards == read_xgp(data, "p.xgp").position.boards
        assert any("set-up position" in n.message for n in m.normalisations)
        rep = replay_match(m)
        assert not [f for f in rep.findings if f.severity == "error"], rep.findings


def _with_header(data: bytes, offset: int, value: int) -> bytes:
    blob = bytearray(b"".join(records(data)))
    struct.pack_into("<i", blob, offset, value)
    return container(bytes(blob))


def test_money_sessions_and_variations_in_the_match_header() -> None:
    from notation.matchio import parse_any

    money = _with_header(_xgp(), 92, 99999)  # XG's "unlimited" length
    assert read_xgp(money, "m.xgp").position.match_length == 0
    assert parse_any(money, name="m.xgp")[0].length == 0
    nack = _with_header(_xgp(), 96, 1)
    assert read_xgp(nack, "n.xgp").position.variant == "nackgammon"
    assert parse_any(nack, name="n.xgp")[0].rules.variant == "nackgammon"
    long_gammon = read_xgp(_with_header(_xgp(), 96, 3), "l.xgp")
    assert long_gammon.position.variant == "standard"
    assert any("LongGammon" in n.message for n in long_gammon.normalisations)
