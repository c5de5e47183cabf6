"""Reading match records in any supported format, recognised by content (and extension).

Paths and text are kept apart:

- :func:`read_any` and :func:`read_match` take a *path* (``str`` or :class:`~pathlib.Path`; ``"-"`` is
  standard input).  A missing file raises :class:`FileNotFoundError`, never "expected the 'N point
  match' line, found 'typo.mat'".  FIFOs and ``/dev/stdin`` are read as streams.
- :func:`parse_any` and :func:`parse_match` take the record's *text* (or bytes).

The format is recognised from the content: SGF ``(;``, JSON ``{``, eXtreme Gammon's ``RGMH`` magic, OGXM's
``OGXM`` magic (a file or a stream of files), a ``.mat`` transcript's ``N point match`` line.  An empty file
is "empty file"; binary data or text in no known format is "unrecognised format" (both
:class:`~notation.errors.ParseError`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NamedTuple

from . import _input
from ._input import MAX_RECORD_BYTES
from .errors import ParseError
from .formats.registry import FORMATS, Format, by_name, for_extension, record_extensions
from .record import Match, bound_text


def read_bytes(path: str | os.PathLike[str], *, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of ``path``; ``"-"`` is standard input.  Raises :class:`OSError` (missing file,
    directory, no permission) as the operating system says it, and
    :class:`~notation.errors.InputTooLargeError` past ``limit`` bytes (see :mod:`notation._input`)."""
    return _input.read_bytes(path, limit=limit, what="a record")


def detect_format(path: str | None, data: bytes | str | None = None) -> str:
    """The name of the format (:data:`notation.formats.registry.FORMATS`) of a record: ``mat``, ``sgf``,
    ``json``, ``xg`` or ``ogxm``, from the content where it is given (each format's magic bytes, the start
    of its text, its signature), else from the file name.

    Raises :class:`ParseError` for an empty file, for content in no known format and for a record that is
    not read back (a text record for people).
    """
    if data is None:
        ext = os.path.splitext(path)[1] if path else ""
        found = for_extension(ext) if ext else None
        return found.name if found is not None else "mat"
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    for f in FORMATS:
        if f.magic and raw.startswith(f.magic):
            return f.name
    head = raw[:4096]
    bom = _input.byte_order_mark(head)
    if bom is not None:  # UTF-16 or UTF-32: look at the text itself
        enc, n = bom
        head = head[n:].decode(enc, "ignore").encode("utf-8") if enc != "UTF-8" else head[n:]
    stripped = head.lstrip(b" \t\r\n\x00")
    if not stripped and not raw[4096:].strip():
        raise ParseError("empty file", file=path, line=1, column=1)
    for f in FORMATS:
        if f.starts and stripped.startswith(f.starts):
            return f.name
    if b"\x00" in head or head.startswith(b"\x89PNG") or head.startswith(b"%PDF") or head.startswith(b"PK\x03\x04"):
        raise ParseError("unrecognised format: binary data, not a match record (.mat, SGF, JSON, .xg or OGXM)",
                         file=path, line=1, column=1)
    for f in sorted((f for f in FORMATS if f.signature is not None), key=lambda f: f.refused is None):
        if f.signature is not None and f.signature()(head):
            if f.refused is not None:
                raise ParseError(f.refused, file=path, line=1, column=1)
            return f.name
    ext = os.path.splitext(path)[1].lower() if path else ""
    for f in FORMATS:
        if ext and ext in f.guess:
            return f.name  # its reader says exactly what is wrong, and where
    raise ParseError("unrecognised format: not a .mat transcript, SGF or JSON record", file=path, line=1,
                     column=1)


def parse_any(data: str | bytes, *, name: str | None = None, keep: bool = True,
              fmt: Format | None = None) -> list[Match]:
    """Every match in a record given as text or bytes (format recognised by content, read by its reader:
    :mod:`notation.formats.registry`; ``fmt``: the format, where the caller has recognised it already).
    Without ``keep`` (for a findings-only replay), an OGXM file's own bytes are not kept for writing it
    back (:meth:`~notation.formats.registry.Format.read`)."""
    matches = (fmt or by_name(detect_format(name, data))).read(data, name=name, keep=keep)
    for m in matches:
        bound_text(m)
    return matches


def iter_matches(data: bytes, *, name: str | None = None, keep: bool = True) -> Iterator[Match]:
    """:func:`parse_any`'s matches one at a time: a stream's members (of a format whose registry line has
    ``members``: OGXM) are read as they are taken (memory is one member, whatever their number); a damaged
    member raises after the complete ones before it."""
    fmt = by_name(detect_format(name, data))
    if fmt.members is None:
        yield from parse_any(data, name=name, keep=keep, fmt=fmt)
        return
    for m in fmt.iter_members(data, name=name, keep=keep):
        m.source = name
        bound_text(m)
        yield m


def read_any(path: str | os.PathLike[str]) -> list[Match]:
    """Every match in the file at ``path`` (``"-"`` is standard input; a ``.mat`` file may hold
    several).  Raises :class:`OSError` when the file cannot be read and
    :class:`~notation.errors.ParseError` when it is not a record."""
    name = "<stdin>" if str(path) == "-" else str(path)
    return parse_any(read_bytes(path), name=name)


def _first(matches: list[Match], name: str | None) -> Match:
    if not matches:
        raise ParseError("no match in the record", file=name)
    return matches[0]


def read_match(path: str | os.PathLike[str]) -> Match:
    """The (first) match in the file at ``path`` (``.mat``, SGF, JSON ...).  Text is never taken for
    a path: use :func:`parse_match` for a record held in a string."""
    return _first(read_any(path), str(path))


def parse_match(text: str | bytes, *, name: str | None = None) -> Match:
    """The (first) match in a record given as text or bytes."""
    return _first(parse_any(text, name=name), name)


RECORD_EXTENSIONS = record_extensions()
"""File name extensions that say a file is a match record: such a file found in a directory or by a
pattern is always read (and reported, however damaged), whatever its content."""


class Inputs(NamedTuple):
    """Command-line inputs as files (:func:`find_inputs`)."""

    files: list[str]
    """The files to read, in order (``-`` is standard input)."""
    problems: list[str]
    """One-line messages: a directory with no record, a pattern that matches nothing ..."""
    skipped: list[tuple[str, str]]
    """(path, why) for each file found by walking a directory or by a pattern and not read: a FIFO, a
    device or a socket (never opened), or a file that is neither named nor made like a record."""
    walked: bool = False
    """Whether a directory or a pattern was among the arguments (``convert`` then writes a directory,
    however many records it found)."""


def find_inputs(args: tuple[str, ...] | list[str]) -> Inputs:
    """Command-line inputs as files: a directory is walked (in sorted order), a pattern that the shell
    did not expand is expanded here, ``-`` and a file named on the command line (a FIFO too: read as a
    stream) stay.  A file found by walking or by a pattern is read when its extension says it is a
    record (:data:`RECORD_EXTENSIONS`) or its content does; anything else is skipped, with the reason:
    a FIFO or a device is never opened there."""
    import glob

    files: list[str] = []
    problems: list[str] = []
    skipped: list[tuple[str, str]] = []
    walked = False
    for arg in args:
        if arg == "-":
            files.append(arg)
            continue
        if "://" in arg and not arg.startswith("file://"):  # a URL, read through fsspec (notation.batch)
            if glob.has_magic(arg):
                try:
                    import fsspec  # type: ignore[import-untyped]

                    fs, _, paths = fsspec.get_fs_token_paths(arg)
                    matched = sorted(fs.unstrip_protocol(p) for p in paths)
                except ImportError:
                    problems.append(f"{arg}: a URL pattern needs fsspec (pip install fsspec)")
                    continue
                except Exception as e:  # noqa: BLE001 - any filesystem's failure is this argument's problem
                    problems.append(f"{arg}: cannot list: {e}")
                    continue
                if not matched:
                    problems.append(f"{arg}: no file matches this pattern")
                files.extend(matched)
            else:
                files.append(arg)
            continue
        if os.path.isdir(arg):
            walked = True
            found: list[str] = []
            for root, dirs, names in os.walk(arg):
                dirs.sort()
                for n in sorted(names):
                    _sort_found(os.path.join(root, n), found, skipped)
            if not found:
                problems.append(f"{arg}: no match records in this directory")
            files.extend(found)
        elif not os.path.lexists(arg) and glob.has_magic(arg):
            walked = True
            matched = sorted(glob.glob(arg, recursive=True))
            if not matched:
                problems.append(f"{arg}: no file matches this pattern")
            for m in matched:
                if not os.path.isdir(m):
                    _sort_found(m, files, skipped)
        else:
            files.append(arg)
    return Inputs(files, problems, skipped, walked)


SKIPPED_NAMES = 3
""":func:`skipped_summary` names this many files of each reason (then says how many more)."""


def skipped_summary(skipped: list[tuple[str, str]]) -> str | None:
    """One line for the files :func:`find_inputs` skipped: how many, and why, with the first few names
    of each reason: ``skipped 3 files: 2 not a match record (notes.txt, pic.png); 1 a FIFO, not opened
    (pipe.mat)``; None when none was skipped."""
    if not skipped:
        return None
    by: dict[str, list[str]] = {}
    for path, why in skipped:
        by.setdefault(why, []).append(path)
    parts = []
    for why, paths in by.items():
        names = ", ".join(paths[:SKIPPED_NAMES]) + (f" and {len(paths) - SKIPPED_NAMES} more"
                                                   if len(paths) > SKIPPED_NAMES else "")
        parts.append(f"{len(paths)} {why} ({names})")
    n = len(skipped)
    return f"skipped {n} file{'' if n == 1 else 's'}: " + "; ".join(parts)


def expand_inputs(args: tuple[str, ...] | list[str]) -> tuple[list[str], list[str]]:
    """(files, problems) of :func:`find_inputs` (the files it skipped are left out)."""
    found = find_inputs(args)
    return found.files, found.problems


def _sort_found(path: str, files: list[str], skipped: list[tuple[str, str]]) -> None:
    """A file found by walking or by a pattern: into ``files`` or, with its reason, ``skipped``."""
    readable, what = _input.is_readable_file(path)
    if not readable:
        skipped.append((path, f"{what}, not opened"))
    elif os.path.splitext(path)[1].lower() in RECORD_EXTENSIONS or _looks_like_record(path):
        files.append(path)
    else:
        skipped.append((path, "not a match record"))


def _looks_like_record(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return True  # its reading says why it cannot be read
    try:
        detect_format(None, head)  # by its content alone: the extension was looked at before
    except ParseError:
        return False
    return True
