"""The project's error family.

Every error the library raises for bad input derives from :class:`NotationError`, which derives
from :class:`ValueError`, so callers may catch either.  Each carries where the problem is: the file
(if known), the 1-based line and column, and the offending text.
"""

from __future__ import annotations

import re

_LONG_QUOTE = re.compile(r"(?<!\w)'([^'\n]{100,})'(?!\w)|\"([^\"\n]{100,})\"|\[([^\]\n]{100,})\]")
"""A long quoted piece.  A ``'`` opens a quotation only where no letter or digit stands before it and closes
one only where none follows it: an apostrophe (``rollouts'``, ``OGXM's``) is no quotation mark."""

MESSAGE_MAX = 1000
"""The most characters a message may have (:func:`cut_quotes`): what it quotes is cut first."""

TEXT_MAX = 200
"""The most characters of a record's text that a finding or an error quotes (:func:`cut_text`)."""


def _cut_piece(m: re.Match[str]) -> str:
    piece = next(g for g in m.groups() if g is not None)
    open_, close = m.group()[0], m.group()[-1]
    return f"{open_}{piece[:60]}...{piece[-20:]}{close} ({len(piece)} characters)"


def cut_quotes(message: str) -> str:
    """A message with every quoted piece (in '', "" or []) of more than 100 characters cut to its start
    and end, and the whole cut to :data:`MESSAGE_MAX` characters, its start and end kept (a 100 MB line
    or a 5 MB SGF value must not make a message of that size)."""
    if len(message) < 200:
        return message
    message = _LONG_QUOTE.sub(_cut_piece, message)
    if len(message) > MESSAGE_MAX:
        message = f"{message[:MESSAGE_MAX - 400]}... ({len(message)} characters) ...{message[-300:]}"
    return message


def cut_text(text: str | None, limit: int = TEXT_MAX) -> str | None:
    """A record's text as a finding quotes it: at most ``limit`` characters, its start and end kept."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit - 60]}...{text[-20:]} ({len(text)} characters)"


def message_line(message: str) -> str:
    """A message as a command reports it: one line, control characters escaped
    (:func:`notation._term.safe_line`), what it quotes cut to a bound (:func:`cut_quotes`)."""
    from ._term import safe_line

    return safe_line(cut_quotes(message))


class NotationError(ValueError):
    """Base class: bad input, with its location."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
    ) -> None:
        message = cut_quotes(message)
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.text = cut_text(text)

    def located(self, *, file: str | None = None, line: int | None = None,
                column_offset: int = 0) -> NotationError:
        """Return the same error placed in a file / at a line (columns shift by ``column_offset``)."""
        if file is not None and self.file is None:
            self.file = file
        if line is not None and self.line is None:
            self.line = line
        if self.column is not None:
            self.column += column_offset
        return self

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(self.file)
        if self.line is not None:
            where.append(str(self.line))
            if self.column is not None:
                where.append(str(self.column))
        elif self.column is not None and f"column {self.column}" not in self.message:
            where.append(f"column {self.column}")  # (once: not again where the message says it)
        prefix = ":".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message


class ParseError(NotationError):
    """Text that does not follow the format's syntax."""


class InputTooLargeError(NotationError):
    """An input larger than the bound its reader sets (see :mod:`notation._input`)."""


class InvalidPositionError(NotationError):
    """A position that cannot exist (too many checkers, both colours on one point, ...)."""


class IllegalPlayError(NotationError):
    """A play that the rules do not allow for the position and roll."""


class AmbiguousPlayError(NotationError):
    """A play written so that more than one legal play fits it."""
