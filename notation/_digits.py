"""Numbers as records write them: runs of ASCII digits of a bounded length.

``str.isdigit`` and the ``\\d`` of a regular expression also take ``²``, Arabic-Indic ``٣``, fullwidth ``７``
and Devanagari ``३`` (``int`` refuses the first and reads the others silently), and ``int`` of thousands of
digits is past Python's limit.  Every reader asks these questions here, in one way."""

from __future__ import annotations

__all__ = ["ascii_digits", "ascii_number", "foreign_digit"]


def ascii_digits(text: str, most: int = 9) -> bool:
    """``text`` is 1 to ``most`` ASCII digits (``0``-``9``), nothing else."""
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


def ascii_number(text: str, most: int = 9) -> int | None:
    """The number ``text`` writes in 1 to ``most`` ASCII digits (blanks around it allowed), or None."""
    t = text.strip()
    return int(t) if ascii_digits(t, most) else None


def foreign_digit(text: str) -> str | None:
    """Why a number in ``text`` was not read, when ``text`` holds a digit that is not ASCII (``٣``, ``７``):
    ``"'٣' is not an ASCII digit (0-9)"``; None when it holds none."""
    for ch in text:
        if ch.isdigit() and not ch.isascii():
            return f"{ch!r} (U+{ord(ch):04X}) is not an ASCII digit: numbers are written 0-9"
    return None
