"""Damaged OGXM files: each is one error naming the byte offset (a ParseError, never another exception),
whatever the damage: truncation, a bad checksum, a bad varint, an overlong length, an unknown critical
section, random bytes.  What the command line says of them is in test_cli_ogxm.py."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.errors import NotationError, ParseError
from notation.formats import _ogxm_wire as W
from notation.formats.ogxm import read_ogxm, write_ogxm, write_ogxms
from notation.matchio import read_match
from notation.replay import replay_match

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def good() -> bytes:
    return write_ogxm(read_match(DATA / "sgf_gnubg_analysed.sgf"))[0]


def offset(e: ParseError) -> int:
    m = re.search(r"\(byte (\d+)\)", e.message)
    assert m is not None, e.message
    return int(m.group(1))


def with_checksum(data: bytes) -> bytes:
    """``data`` (a v2 file whose bytes before CSUM were changed) with its checksum made right again, so
    that the damage reaches the records."""
    at = data.rindex(b"CSUM")
    return data[:at + 13] + struct.pack("<I", zlib.crc32(data[:at]) & 0xFFFFFFFF) + data[at + 17:]


def test_every_truncation_is_an_error_at_or_before_the_cut(good: bytes) -> None:
    for n in range(0, len(good), 7):
        with pytest.raises(ParseError) as e:
            read_ogxm(good[:n], name="cut.ogxm")
        assert offset(e.value) <= n and e.value.file == "cut.ogxm"


def test_a_bad_checksum_names_the_checksum_section(good: bytes) -> None:
    at = good.rindex(b"CSUM")
    damaged = bytearray(good)
    damaged[at // 2] ^= 0x10
    with pytest.raises(ParseError, match=rf"bad checksum: the CSUM section at byte {at} says [0-9a-f]{{8}}"):
        read_ogxm(bytes(damaged))


def test_a_bad_varint_names_its_offset(good: bytes) -> None:
    # the first GAME's record length, written overlong (0x83 0x00 for 3): refused where it starts
    at = good.index(b"GAME") + 9
    n = good[at]
    damaged = good[:at] + bytes((n | 0x80, 0)) + good[at + 1:]
    size = struct.unpack_from("<I", good, 12)[0] + 1
    sec_len = struct.unpack_from("<I", good, at - 5)[0] + 1
    damaged = (damaged[:12] + struct.pack("<I", size) + damaged[16:at - 5] + struct.pack("<I", sec_len)
               + damaged[at - 1:])
    with pytest.raises(ParseError, match=rf"bad varint: overlong encoding \(not minimal\) \(byte {at}\)"):
        read_ogxm(with_checksum(damaged))


def test_overlong_lengths_are_refused_where_they_are(good: bytes) -> None:
    at = good.index(b"GAME")
    damaged = bytearray(good)
    struct.pack_into("<I", damaged, at + 4, 1 << 30)
    with pytest.raises(ParseError, match=rf"section 'GAME' claims 1073741824 bytes.*\(byte {at + 4}\)"):
        read_ogxm(bytes(damaged))
    # a record claiming more than its section holds (MTCH's, right after the header)
    rec = W.HEADER + W.SECTION_HEADER
    damaged = bytearray(good)
    damaged[rec] = 0x7F
    with pytest.raises(ParseError, match=rf"a record of 127 bytes runs past its section.*\(byte {rec}\)"):
        read_ogxm(with_checksum(bytes(damaged)))
    damaged = bytearray(good)
    struct.pack_into("<I", damaged, 12, len(good) + 100)
    with pytest.raises(ParseError, match=rf"truncated OGXM file: the header says {len(good) + 100} bytes"):
        read_ogxm(bytes(damaged))


def test_more_plies_than_a_game_holds(good: bytes) -> None:
    secs = [s.raw() for s in W.split(good, "x").sections if s.kind in (b"MTCH",)]
    game = W.record(b"", {}) + bytes([W.GAME_OVER]) * (W.MAX_PLIES + 1)
    data = W.assemble([*secs, W.section(b"GAME", game, True)])
    with pytest.raises(ParseError, match="more than 1500 plies in one game"):
        read_ogxm(data)


def test_a_stream_with_a_damaged_member(good: bytes) -> None:
    data, _ = write_ogxms([read_match(DATA / "mat_gnubg_selfplay_1p.mat")] * 3)
    size = len(data) // 3
    damaged = bytearray(data)
    damaged[size + 40] ^= 0xFF
    got = []
    with pytest.raises(ParseError, match=rf"bad checksum.*\(byte {size + data[size:].index(b'CSUM')}\)"):
        got.extend(read_ogxm_iter(bytes(damaged)))
    assert len(got) == 1
    unchecked = W.assemble([s.raw() for s in W.split(good, "x").sections])
    bare = unchecked[:unchecked.rindex(b"CSUM")] + b"END!"
    bare = bare[:12] + struct.pack("<I", len(bare)) + bare[16:]
    with pytest.raises(ParseError, match="stream member 2 has no CRC-32 checksum"):
        read_ogxm(good + bare)


def read_ogxm_iter(data: bytes) -> object:
    from notation.formats.ogxm import iter_ogxm

    return iter_ogxm(data, name="s.ogxms")


def _read(data: bytes) -> None:
    try:
        for m in read_ogxm(data, name="x"):
            replay_match(m)
    except NotationError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_after_the_magic(tail: bytes) -> None:
    _read(b"OGXM" + tail)
    _read(b"OGXM\x02\x00" + tail)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_damage_to_a_real_file(good: bytes, data: st.DataObject) -> None:
    """Bytes changed anywhere, the checksum made right again (so that the damage reaches the records):
    the file reads, or is one ParseError."""
    damaged = bytearray(good)
    for _ in range(data.draw(st.integers(1, 6))):
        damaged[data.draw(st.integers(0, len(good) - 1))] = data.draw(st.integers(0, 255))
    _read(bytes(damaged))
    if bytes(damaged[:4]) == b"OGXM" and b"CSUM" in damaged:
        _read(with_checksum(bytes(damaged)))


@pytest.mark.parametrize("suffix", ["²", "1" * 12])
def test_an_annotation_key_whose_number_is_not_one_int_reads_is_read_as_it_is(suffix: str) -> None:
    """An annotation key ``key~N`` continues the values of ``key``; ``N`` that ``str.isdigit`` takes and
    ``int`` does not ('²') was an internal error of the reader.  Such a key, or one whose ``N`` has more than 9
    digits, is a key of its own."""
    from notation.formats.ogxm import read_ogxm, write_ogxm
    from notation.matchio import read_match

    m = read_match(Path(__file__).resolve().parents[1] / "samples" / "illegal_plays.mat")
    m.properties["x~" + suffix] = ["v"]
    back = read_ogxm(write_ogxm(m)[0])[0]
    assert ("x~" + suffix, "v") in back.tags


def test_a_damaged_ogxm_in_a_directory_walk_is_reported(tmp_path: Path) -> None:
    """A file named as an OGXM record is always read and reported (issue 38): one whose bytes did not
    look like OGXM was skipped in a walk as "not a match record", with exit status 0."""
    from conftest import gammon_in_process

    good = (DATA / "ogxm_gammonview_charlot_7p.ogxm").read_bytes()
    (tmp_path / "good.ogxm").write_bytes(good)
    (tmp_path / "garbage.ogxm").write_bytes(bytes(range(256)) * 2)
    (tmp_path / "text.ogxms").write_text("hello")
    (tmp_path / "empty.ogxm").write_bytes(b"")
    proc = gammon_in_process("validate", "-q", ".", text=True, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    for name in ("garbage.ogxm", "text.ogxms", "empty.ogxm"):
        assert f"./{name}: cannot be read or parsed" in proc.stdout
    assert "skipped" not in proc.stdout + proc.stderr
