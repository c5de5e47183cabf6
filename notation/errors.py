"""The project's error family.

Every error the library raises for bad input derives from :class:`NotationError`, which derives
from :class:`ValueError`, so callers may catch either.  Each carries where the problem is: the file
(if known), the 1-based line and column, and the offending text.
"""

from __future__ import annotations

import re

_LONG_QUOTE = re.compile(r"'([^'\n]{100,})'")


def cut_quotes(message: str) -> str:
    """A message with every quoted piece of more than 100 characters cut to its start and end (a
    100 MB line must not make a 100 MB message)."""
    if len(message) < 200:
        return message
    return _LONG_QUOTE.sub(lambda m: f"'{m.group(1)[:60]}...{m.group(1)[-20:]}' ({len(m.group(1))} characters)",
                           message)


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
        self.text = text

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


class InvalidPositionError(NotationError):
    """A position that cannot exist (too many checkers, both colours on one point, ...)."""


class IllegalPlayError(NotationError):
    """A play that the rules do not allow for the position and roll."""


class AmbiguousPlayError(NotationError):
    """A play written so that more than one legal play fits it."""
