"""Terminal output helpers: control characters made visible, colour, plural words.

Record text (player names, comments, cells) may hold escape sequences; written raw, they would move the
cursor or change the terminal's colours.  :func:`safe` shows every control character as an escape
(``\\x1b``), so what a record says can never act on the terminal.
"""

from __future__ import annotations

import os
import re
import sys
from typing import IO

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def echo(message: str = "", *, err: bool = False) -> None:
    """``message`` and a line break on standard output (standard error with ``err``), flushed: what
    ``click.echo`` writes for plain text, for the commands that run without importing click."""
    stream = sys.stderr if err else sys.stdout
    stream.write(message + "\n")
    stream.flush()


def safe(text: str) -> str:
    """``text`` with control characters (other than tab and line feed) written as escapes."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


def safe_line(text: str) -> str:
    """One line for the terminal: control characters and line breaks escaped."""
    return safe(text).replace("\n", "\\n").replace("\t", "\\t")


def plural(n: int, word: str) -> str:
    """``1 game``, ``2 games``, ``0 errors``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def use_colour(choice: str, stream: IO[str]) -> bool:
    """``--color auto|always|never``: auto colours a terminal unless ``NO_COLOR`` is set
    (https://no-color.org) or ``TERM`` is ``dumb``."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


COLOURS = {"error": "\x1b[1;31m", "warning": "\x1b[1;35m", "note": "\x1b[1;36m", "bold": "\x1b[1m",
           "caret": "\x1b[1;32m", "reset": "\x1b[0m"}
