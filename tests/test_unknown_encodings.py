"""A character set a record declares that this program cannot read text with: RTF ``\\ansicpgN`` of an XG
comment with an unknown N, SGF ``CA[...]`` naming no codec or one that makes no text of bytes (punycode,
base64, rot13, unicode_escape).  Each was "internal error while reading (LookupError)" or a punycode
UnicodeError; each is now read in the usual character set (1252, UTF-8) and said."""

from __future__ import annotations

import struct

import pytest
from conftest import DATA
from xg_container import container, records

from notation._input import text_codec
from notation.formats.sgf import read_sgf
from notation.formats.xg import read_xg

SGF = (DATA / "sgf_gnubg_resign.sgf").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", [0, 1, 37, 1200, 99999999])
def test_an_unknown_rtf_code_page_is_read_as_1252_and_said(page: int) -> None:
    recs = [bytearray(r) for r in records((DATA / "xg_ronde3.xg").read_bytes())]
    struct.pack_into("<2i", recs[0], 576, 0, -1)
    doc = b"{\\rtf1\\ansi\\ansicpg%d\\uc1 caf\\'e9\\par\x01\x02}\r\n" % page
    (m,) = read_xg(container(b"".join(recs), comments=doc), name="c.xg")
    assert m.comments == ["café"]
    assert any(f"ansicpg{page}" in n.message for n in m.normalisations)


@pytest.mark.parametrize("charset", ["punycode", "idna", "base64", "hex", "zlib", "bz2", "uu", "rot13",
                                     "unicode_escape", "raw_unicode_escape", "undefined", "cp0", "cp1200",
                                     "mbcs", "utf_7", "no-such-thing", "utf\x008"])
def test_an_sgf_charset_that_makes_no_text_is_read_as_utf8_and_said(charset: str) -> None:
    m = read_sgf(SGF.replace("CA[UTF-8]", f"CA[{charset}]", 1).encode("utf-8"), name="x.sgf")
    assert m.names[0] == "gnubg" or m.games[0].names[0] == "gnubg"
    assert any("is not a character set this program knows" in n.message for n in m.normalisations)


@pytest.mark.parametrize(("name", "codec"), [("UTF-8", "utf-8"), ("ISO-8859-1", "iso8859-1"), ("cp1252", "cp1252"),
                                             ("Shift_JIS", "shift_jis"), ("cp037", "cp037")])
def test_a_character_set_is_taken(name: str, codec: str) -> None:
    assert text_codec(name) == codec
