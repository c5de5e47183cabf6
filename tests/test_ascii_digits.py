"""Numbers are ASCII digits.  ``\\d`` and ``str.isdigit`` also take Arabic-Indic ``٣``, fullwidth ``７`` and
Devanagari ``३`` (and ``int`` reads them): a ``.mat`` score line with one was an internal error, and a
match length, a row or game number, an SGF or OGID field with one was read as a number without a word.
Every reader now reads ASCII digits only (notation._digits) and says what it found instead."""

from __future__ import annotations

import pytest
from conftest import DATA, ROOT
from hypothesis import given
from hypothesis import strategies as st

from notation._digits import ascii_digits, ascii_number, foreign_digit
from notation.errors import NotationError
from notation.formats.sgf import read_sgf
from notation.matchio import parse_any
from notation.ogid import parse_ogid

MAT = (ROOT / "samples" / "gnubg_selfplay_7p.mat").read_text(encoding="utf-8")
FOREIGN = ["٣", "７", "३", "৩", "߃"]
"""Digits of other scripts (Arabic-Indic, fullwidth, Devanagari, Bengali, NKo): each isdigit, each read by int."""

PLACES = {
    "score left": (" gnubg : 0    ", " gnubg : {d}    "),
    "score right": ("root : 0\n", "root : {d}\n"),
    "match length": (" 7 point match", " {d} point match"),
    "row number": ("  2) 64", "  {d}) 64"),
    "game number": (" Game 1\n", " Game {d}\n"),
    "double": ("Doubles => 2 ", "Doubles => {d} "),
}


@pytest.mark.parametrize("digit", FOREIGN)
@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_mat_number_in_another_script_is_refused_in_our_words(place: str, digit: str) -> None:
    old, new = PLACES[place]
    assert old in MAT
    data = MAT.replace(old, new.format(d=digit), 1).encode("utf-8")
    with pytest.raises(NotationError) as e:
        parse_any(data, name="x.mat")
    assert "not an ASCII digit" in str(e.value) and e.value.line is not None
    assert "int()" not in str(e.value)


def test_a_match_length_of_ten_digits_is_said_as_such() -> None:
    data = b" 1234567890 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n"
    with pytest.raises(NotationError) as e:
        parse_any(data, name="x.mat")
    assert "match length of more than 9 digits" in str(e.value)


SGF = (DATA / "sgf_gnubg_resign.sgf").read_text(encoding="utf-8")


@pytest.mark.parametrize("digit", FOREIGN)
def test_an_sgf_number_in_another_script_is_not_read_as_one(digit: str) -> None:
    m = read_sgf(SGF.replace("MI[length:3]", f"MI[length:{digit}]", 1), name="x.sgf")
    assert m.length == 0
    assert any(f"MI[length:{digit}] not understood" in n.message for n in m.normalisations)


@pytest.mark.parametrize(("value", "read"), [("1e3", 1), ("3 x", 3), ("7pt", 7)])
def test_an_sgf_number_with_more_after_it_is_read_as_gnubg_reads_it_and_said(value: str, read: int) -> None:
    m = read_sgf(SGF.replace("MI[length:3]", f"MI[length:{value}]", 1), name="x.sgf")
    assert m.length == read
    assert any(f"MI[length:{value}]: read as {read}" in n.message for n in m.normalisations)


@pytest.mark.parametrize("digit", FOREIGN)
@pytest.mark.parametrize("field", [2, 6, 7, 8, 9])
def test_an_ogid_number_in_another_script_is_refused(field: int, digit: str) -> None:
    parts = "llm:2356:W1O::W:D:0:2:7:39".split(":")
    parts[field] = parts[field].replace(parts[field][-1], digit) if field != 2 else "W" + digit + "O"
    with pytest.raises(NotationError):
        parse_ogid(":".join(parts))


@given(st.text(max_size=12))
def test_the_shared_helper_takes_ascii_digits_only(text: str) -> None:
    ok = ascii_digits(text)
    assert ok == (0 < len(text) <= 9 and all(c in "0123456789" for c in text))
    assert (ascii_number(text) is not None) == ascii_digits(text.strip())
    if any(c.isdigit() and not c.isascii() for c in text):
        assert foreign_digit(text) is not None
    else:
        assert foreign_digit(text) is None
