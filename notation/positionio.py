"""One position from wherever a user has it: an ID on the command line, a file, or standard input
holding an ID, an eXtreme Gammon or BGBlitz text export (:mod:`notation.formats.xgtext`), or an eXtreme
Gammon position file (``.xgp``, :func:`notation.formats.xg.read_xgp`).

:func:`read_position` takes a path (``"-"`` is standard input); :func:`parse_position_text` takes text.
Both give a :class:`~notation.record.PositionRecord`: the position (always from an ID when the text has
one, never from an ASCII board beside it), and the names and analysis the source gave.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .errors import NotationError, ParseError

if TYPE_CHECKING:  # pragma: no cover
    from .positionrecord import PositionRecord
    from .record import Match

__all__ = ["read_position", "parse_position_text", "position_source", "maybe_export", "names_file", "position_lines",
           "record_or_position"]


def parse_position_text(text: str, *, name: str | None = None) -> PositionRecord:
    """A position from text: a text export, or any ID :func:`notation.ids.parse_position` reads."""
    if maybe_export(text):
        from .formats.xgtext import looks_like_export, parse_export

        if looks_like_export(text):
            return parse_export(text, name=name)
    from .ids import detect_format, parse_position
    from .positionrecord import PositionRecord

    fmt = detect_format(text)
    pos = parse_position(text, validate=False)
    return PositionRecord(position=pos, names=None, format=fmt, source=name)


def maybe_export(text: str) -> bool:
    """False when ``text`` cannot be an XG or BGBlitz text export (it lacks what
    :func:`notation.formats.xgtext.looks_like_export` looks for: an ID line and a board frame, which
    begins ``+13``, ``+24``, ``+12`` or ``+1-``), so that reading an ID does not import that module."""
    return ("XGID=" in text or "Position-ID:" in text) and ("+1" in text or "+24" in text)


def read_position(path: str | os.PathLike[str]) -> PositionRecord:
    """A position from the file at ``path`` (``"-"``: standard input)."""
    from ._input import MAX_POSITION_BYTES, read_bytes

    name = "<stdin>" if str(path) == "-" else str(path)
    data = read_bytes(path, limit=MAX_POSITION_BYTES, what="a position")
    if data[:4] == b"RGMH":  # an eXtreme Gammon position file (.xgp), recognised by its content
        from .formats.xg import read_xgp

        return read_xgp(data, name)
    if not data.strip():
        raise ParseError("empty file", file=name, line=1, column=1)
    from ._input import decode_bom

    wide = decode_bom(data)  # UTF-16 or UTF-32, with a byte order mark
    try:
        text = wide[0] if wide is not None else data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ParseError(f"not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})", file=name) from None
    return parse_position_text(text, name=name)


def position_source(arg: str) -> PositionRecord:
    """The command line's POSITION: ``-`` (standard input), an existing file (a FIFO or a device too, read
    as a stream within the bound of a position), or the ID itself.  A file
    name that names no file is FileNotFoundError (:func:`refuse_missing_file`), not a puzzling ID error."""
    if arg == "-" or names_file(arg):
        return read_position(arg)
    refuse_missing_file(arg)
    try:
        return parse_position_text(arg)
    except ParseError as e:
        if e.message.startswith("Position ID") and not any(c in arg for c in ":=/\n ") and len(arg.strip()) != 14:
            e.message = f"{arg[:40]!r} is no file here and no position ID ({e.message})"
        raise


def refuse_missing_file(arg: str) -> None:
    """FileNotFoundError when ``arg`` is a file name that names nothing: it ends in an extension such as
    ``.txt`` or ``.xgp``, and holds none of the ``:``, ``;``, ``=`` or line breaks of the ID formats
    (whose Base64 has no ``.``)."""
    dot = arg.rfind(".")
    ext = arg[dot + 1:]
    if (0 < dot < len(arg) - 1 and len(ext) <= 5 and ext.isascii() and ext.isalnum() and not ext.isdigit()
            and not any(c in arg for c in ":;=\n") and not os.path.exists(arg)):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), arg)


def names_file(arg: str) -> bool:
    """The command line's ``arg`` names an existing path that is no folder (a FIFO or a device too: read within
    the bound of its kind, as a stream), not an ID: ``/dev/zero`` was read as a Position ID of 9 characters."""
    return len(arg) < 4096 and "\n" not in arg and os.path.exists(arg) and not os.path.isdir(arg)


def position_lines(arg: str) -> Iterator[tuple[str, str | None]]:
    """(text, where) for each position of the command line's ``arg`` (``gammon moves``): the argument itself, or
    a file (``-``: standard input) of one position a line (``#`` starts a comment), one XG/BGBlitz text export
    (whose ID gives the position), or an XG position file (.xgp)."""
    from ._input import MAX_POSITION_BYTES, bad_bytes, read_bytes

    if arg != "-" and not names_file(arg):
        refuse_missing_file(arg)
        yield arg, None
        return
    name = "<stdin>" if arg == "-" else arg
    # within the bound `show` holds a position to (`yes XGID | gammon moves -` stops at it): about
    # 20,000 IDs, one a line
    data = read_bytes(arg, limit=MAX_POSITION_BYTES, what="a list of positions", name=name)
    if data[:4] == b"RGMH":  # an eXtreme Gammon position file (.xgp)
        from .formats.xg import read_xgp
        from .ids import xgid

        yield xgid(read_xgp(data, name).position), name
        return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        _, places, count = bad_bytes(data, "utf-8", most=1)
        offset, line, column = places[0]
        raise ParseError(f"byte 0x{data[offset]:02x} is not UTF-8 (the text of positions is UTF-8)"
                         + (f"; {count - 1} more such places" if count > 1 else ""),
                         file=name, line=line, column=column) from None
    if maybe_export(text):
        from .formats.xgtext import looks_like_export, parse_export
        from .ids import xgid

        if looks_like_export(text):
            yield xgid(parse_export(text, name=name).position), name
            return
    for n, row in enumerate(text.splitlines(), 1):
        s = row.strip()
        if s and not s.startswith("#"):
            yield s, f"{name}:{n}"


def record_or_position(source: str) -> tuple[Match | None, PositionRecord | None]:
    """(a match, None) or (None, a position) for the command line's ``source`` (``gammon render``): ``-``
    (standard input) or a file holding a match record (its first match), an XG position file (.xgp), an XG or
    BGBlitz text export, or an ID (a file or a paste of at most three lines); else an ID itself.  Raises
    :class:`~notation.errors.NotationError` and :class:`OSError` as reading says them, and ValueError for a
    source that is neither a record nor a position."""
    if source == "-" or names_file(source):
        from .matchio import parse_any, read_bytes

        name = "<stdin>" if source == "-" else source
        data = read_bytes(source)
        if data[:4] == b"RGMH" and source.lower().endswith(".xgp"):  # an eXtreme Gammon position file
            from .formats.xg import read_xgp

            return None, read_xgp(data, name)
        text = data.decode("utf-8-sig", "replace") if data[:4] != b"RGMH" else ""
        from .formats.xgtext import looks_like_export

        if text and looks_like_export(text):
            return None, parse_position_text(text, name=name)
        try:
            return parse_any(data, name=name)[0], None
        except (NotationError, IndexError) as e:
            first = text.strip().splitlines()[0] if text.strip() else ""
            try:
                if first and len(text.strip().splitlines()) <= 3:  # a file or a paste holding an ID
                    return None, parse_position_text(text.strip(), name=name)
            except NotationError:
                pass
            if source == "-":
                msg = e.message if isinstance(e, NotationError) else "no games"
                raise ValueError(f"<stdin>: neither a match record nor a position ({msg})") from None
            if isinstance(e, NotationError):
                raise
            raise ValueError(f"{source}: no games") from None
    from .ids import parse_position
    from .positionrecord import PositionRecord

    refuse_missing_file(source)  # a file name that names nothing: not read as an ID
    return None, PositionRecord(position=parse_position(source), format="id", source=source)
