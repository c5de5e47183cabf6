"""Terminal output helpers: control characters made visible, colour, plural words, and the one-line
endings of the ``gammon`` commands (:func:`fail`, :func:`stdout_failed`).

Record text (player names, comments, cells) may hold escape sequences; written raw, they would move the
cursor or change the terminal's colours.  :func:`safe` shows every control character as an escape
(``\\x1b``), so what a record says can never act on the terminal.
"""

from __future__ import annotations

import os
import re
import sys
from typing import IO, NoReturn

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Control characters, and lone surrogates (no character: a JSON ``"\\ud800"``, a file name that is not
UTF-8), which no output can encode: each is shown as its escape."""

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def utf8(text: str) -> bytes:
    """``text`` as UTF-8 for an output (a file, a page, a stream member): a lone surrogate, which UTF-8
    cannot hold, is written as its escape (``\\ud800``) rather than ending the run; :func:`unencodable`
    says which text held one."""
    return text.encode("utf-8", "backslashreplace")


def unencodable(text: str) -> str | None:
    """What :func:`utf8` wrote as an escape in ``text`` (the first lone surrogate, with a few characters
    around it, escaped), or None when all of ``text`` is UTF-8."""
    m = _SURROGATE.search(text)
    if m is None:
        return None
    n = len(_SURROGATE.findall(text))
    around = safe_line(text[max(0, m.start() - 12):m.end() + 12])
    return (f"{n} lone surrogate{'s' if n > 1 else ''} (no character, as in '{around}'): UTF-8 holds none, "
            f"written as escapes (\\u{ord(m.group()):04x})")


def safe(text: str) -> str:
    """``text`` with control characters (other than tab and line feed) written as escapes."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


def safe_json(text: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with the control characters it
    leaves raw (C1 controls such as U+009B, the single-byte CSI; line and paragraph separators; bidi
    overrides) written as ``\\uXXXX`` escapes: the same JSON value, harmless on a terminal.  (JSON text
    holds such characters only inside strings, and ``json.dumps`` escapes those below U+0020 itself.)"""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def safe_line(text: str) -> str:
    """One line for the terminal: control characters and line breaks escaped."""
    return safe(text).replace("\n", "\\n").replace("\t", "\\t")


def plural(n: int, word: str) -> str:
    """``1 game``, ``2 games``, ``0 errors``, ``10 matches``."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}es" if word.endswith(("s", "x", "ch", "sh")) else f"{n} {word}s"


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


def fail(message: str, code: int = 2) -> NoReturn:
    """End a command: ``message`` as one line on stderr (``gammon: ...``) and exit status ``code``
    (2 = bad input)."""
    import click

    click.echo(f"gammon: {safe_line(message)}", err=True)
    sys.exit(code)


def stdout_failed(e: OSError) -> NoReturn:
    """End a command whose standard output failed (a full disk, ``> /dev/full``): one line on stderr and
    status 2; standard output is pointed at the null device so that nothing fails again at exit."""
    import click

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    import errno

    why = "it is closed" if e.errno == errno.EBADF else (e.strerror or str(e))
    click.echo(f"gammon: cannot write to standard output: {why}", err=True)
    sys.exit(2)


def guard_standard_streams() -> None:
    """Give each closed standard stream (``>&-``, ``2>&-``, ``<&-``: Python then sets ``sys.stdout`` and
    the others to None) a descriptor that fails: the null device opened the wrong way round, so that a
    write to standard output or a read of standard input fails as an :class:`OSError` (``EBADF``), which
    the commands report in one line with a failing status, and so that no file the command opens later
    takes descriptor 0, 1 or 2 (its content would then be mixed with the command's output).  A closed
    standard error is given the null device: the messages are lost, the exit status says it."""
    for fd, name, flags in ((0, "stdin", os.O_WRONLY), (1, "stdout", os.O_RDONLY), (2, "stderr", os.O_WRONLY)):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        try:
            got = os.open(os.devnull, flags)
        except OSError:
            continue
        if got != fd:
            os.dup2(got, fd)
            os.close(got)
        mode = "r" if fd == 0 else "w"
        stream = open(fd, mode, encoding="utf-8", errors="backslashreplace" if fd == 2 else "strict",
                      closefd=False)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
