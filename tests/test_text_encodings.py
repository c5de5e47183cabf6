"""How every reader decodes a file's bytes (issue 26, item 11): UTF-8 (its byte order mark skipped),
UTF-16 and UTF-32 with a byte order mark in either byte order, for ``.mat``, SGF, JSON and position
files alike; a UTF-8 file with a stray byte stays UTF-8, with the bad byte's place reported; only text
with no UTF-8 character beyond ASCII is read as Windows-1252, said so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA

from notation.batch import validate_file
from notation.formats.json_format import to_json
from notation.matchio import parse_any, read_any

MAT = (DATA / "gnubg_7p_crawford.mat").read_text(encoding="utf-8").replace("gnubg", "Kévin")
SGF = (DATA / "sgf_gnubg_resign.sgf").read_text(encoding="utf-8")
JSON = to_json(read_any(DATA / "gnubg_7p_crawford.mat")[0])
BOMS = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00",
        "utf-32-be": b"\x00\x00\xfe\xff", "utf-8": b"\xef\xbb\xbf"}


@pytest.mark.parametrize("encoding", sorted(BOMS))
@pytest.mark.parametrize(("text", "suffix"), [(MAT, ".mat"), (SGF, ".sgf"), (JSON, ".json")])
def test_every_unicode_encoding_with_a_byte_order_mark(tmp_path: Path, encoding: str, text: str, suffix: str) -> None:
    path = tmp_path / f"m{suffix}"
    path.write_bytes(BOMS[encoding] + text.encode(encoding))
    plain = parse_any(text.encode("utf-8"), name="plain")
    got = read_any(path)
    assert [m.games for m in got] == [m.games for m in plain]
    assert got[0].names == plain[0].names
    res = validate_file(str(path))
    assert not res["unreadable"] and res["errors"] == 0, res["findings"][:2]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-32-be"])
def test_a_position_file_with_a_byte_order_mark(tmp_path: Path, encoding: str) -> None:
    from notation.positionio import read_position

    export = (DATA / "exports" / "xg_01_checker_EN.txt").read_text(encoding="utf-8")
    path = tmp_path / "p.txt"
    path.write_bytes(BOMS[encoding] + export.encode(encoding))
    assert read_position(path).position == read_position(DATA / "exports" / "xg_01_checker_EN.txt").position


def test_a_stray_byte_in_utf8_is_read_as_utf8_and_placed(tmp_path: Path) -> None:
    data = MAT.encode("utf-8").replace("Kévin".encode(), "Kévin".encode() + b"\x93", 1)
    path = tmp_path / "stray.mat"
    path.write_bytes(data)
    m = read_any(path)[0]
    assert m.names[0] == "Kévin\ufffd"  # not 'KÃ©vin“'
    notes = [(n.message, n.line, n.column) for n in m.normalisations]
    assert ("byte 0x93 is not UTF-8: read as U+FFFD", 6, 7) in notes
    res = validate_file(str(path))
    assert any(f["message"] == "reading: byte 0x93 is not UTF-8: read as U+FFFD" and (f["line"], f["column"]) == (6, 7)
               for f in res["findings"])


def test_text_with_no_utf8_beyond_ascii_is_windows_1252() -> None:
    m = parse_any(MAT.encode("cp1252"), name="legacy.mat")[0]
    assert m.names[0] == "Kévin"
    assert any("read as Windows-1252" in n.message for n in m.normalisations)


def test_utf32_json_is_not_binary_data(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_bytes(BOMS["utf-32-le"] + JSON.encode("utf-32-le"))
    assert json.loads(JSON)["match"]["length"] == read_any(path)[0].length == 7
