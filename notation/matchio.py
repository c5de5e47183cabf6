"""Reading match records in any supported format, recognised by content (and extension).

Paths and text are kept apart:

- :func:`read_any` and :func:`read_match` take a *path* (``str`` or :class:`~pathlib.Path`; ``"-"`` is
  standard input).  A missing file raises :class:`FileNotFoundError`, never "expected the 'N point
  match' line, found 'typo.mat'".  FIFOs and ``/dev/stdin`` are read as streams.
- :func:`parse_any` and :func:`parse_match` take the record's *text* (or bytes).

The format is recognised from the content: SGF ``(;``, JSON ``{``, eXtreme Gammon's ``RGMH`` magic, a
``.mat`` transcript's ``N point match`` line.  An empty file is "empty file"; binary data or text in no
known format is "unrecognised format" (both :class:`~notation.errors.ParseError`).
"""

from __future__ import annotations

import os
import re
import sys

from .errors import ParseError
from .record import Match

FORMATS = ("mat", "sgf", "json", "txt")

XG_MAGIC = b"RGMH"
"""The first bytes of an eXtreme Gammon ``.xg``/``.xgp`` file (RichGameFormat)."""

_MAT_SIGNATURE = re.compile(rb"^[ \t]*\d+[ \t]+point[ \t]+match|^[ \t]*Game[ \t]+\d+|^[ \t]*[;#][ \t]*\[",
                            re.I | re.M)
_TEXT_RECORD = re.compile(rb"(?:\A|\n)Game \d+\r?\nThe score \(after \d+ games?\) is: ")
"""A text record for people (gnubg's export, ours: its header tags and comments come first)."""
_TEXT_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of ``path``; ``"-"`` is standard input.  Raises :class:`OSError` (missing file,
    directory, no permission) as the operating system says it."""
    if str(path) == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:  # works for FIFOs and /dev/stdin too: read as a stream
        return f.read()


def detect_format(path: str | None, data: bytes | str | None = None) -> str:
    """``mat``, ``sgf``, ``json`` or ``xg``: from the content where it is given, else from the file name.

    Raises :class:`ParseError` for an empty file and for content in no known format.
    """
    if data is None:
        ext = os.path.splitext(path)[1].lower().lstrip(".") if path else ""
        return ext if ext in ("sgf", "json", "xg", "xgp") else "mat"
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if raw[:4] == XG_MAGIC:
        return "xg"
    head = raw[:4096]
    for bom in _TEXT_BOMS:
        if head.startswith(bom):
            if bom != b"\xef\xbb\xbf":  # UTF-16: look at the text itself
                enc = "utf-16"
                head = head.decode(enc, "ignore").encode("utf-8")
            else:
                head = head[len(bom):]
            break
    stripped = head.lstrip(b" \t\r\n\x00")
    if not stripped and not raw[4096:].strip():
        raise ParseError("empty file", file=path, line=1, column=1)
    if stripped.startswith(b"(;") or stripped.startswith(b"("):
        return "sgf"
    if stripped.startswith(b"{"):
        return "json"
    if b"\x00" in head or head.startswith(b"\x89PNG") or head.startswith(b"%PDF") or head.startswith(b"PK\x03\x04"):
        raise ParseError("unrecognised format: binary data, not a match record (.mat, SGF, JSON or .xg)",
                         file=path, line=1, column=1)
    if _TEXT_RECORD.search(stripped):
        raise ParseError("a text record for people (gammon convert --to txt, gnubg's 'export match text'): it "
                         "is written to be read, not read back; convert from the original record", file=path,
                         line=1, column=1)
    if _MAT_SIGNATURE.search(head):
        return "mat"
    ext = os.path.splitext(path)[1].lower() if path else ""
    if ext in (".mat", ".txt", ".gam"):
        return "mat"  # the .mat reader says exactly what is wrong, and where
    raise ParseError("unrecognised format: not a .mat transcript, SGF or JSON record", file=path, line=1,
                     column=1)


def _decode(data: bytes, name: str | None = None) -> str:
    """A JSON document's text: UTF-8 (as JSON requires; a UTF-8 BOM is skipped), or UTF-16 / UTF-32
    with a byte order mark.  A byte that is not UTF-8 is an error naming its line, column and byte
    offset, never a silent Latin-1 reading of the whole file."""
    boms = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xef\xbb\xbf", "utf-8-sig"),
            (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
    enc = next((e for bom, e in boms if data.startswith(bom)), "utf-8")
    try:
        return data.decode(enc)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise ParseError(f"byte 0x{data[e.start]:02x} (offset {e.start}) is not {enc.upper().replace('-SIG', '')}: "
                         "a JSON document is UTF-8", file=name, line=line, column=col) from None


def parse_any(data: str | bytes, *, name: str | None = None, packed: bool = False) -> list[Match]:
    """Every match in a record given as text or bytes (format recognised by content).  ``packed``: for a
    findings-only replay and the JSON writer, nothing else (``.mat`` plain plays as
    :class:`~notation.record.PlainRun`)."""
    fmt = detect_format(name, data)
    if fmt in ("xg", "xgp"):
        try:
            from .formats import xg  # type: ignore[attr-defined]
        except ImportError:
            raise ParseError("an eXtreme Gammon file (.xg/.xgp): not readable by this version", file=name,
                             line=1, column=1) from None
        raw = data if isinstance(data, bytes) else data.encode("latin-1")
        matches: list[Match] = list(xg.read_xg(raw, name=name))
    elif fmt == "mat":
        from .formats.mat import parse_matches

        return parse_matches(data, name=name, packed=packed)
    elif fmt == "sgf":  # decoded as its CA[] says, by the SGF reader
        from .formats.sgf import read_sgf

        matches = [read_sgf(data, name=name)]
    else:
        text = _decode(data, name) if isinstance(data, bytes) else data
        from .chouette import is_chouette_json, read_chouette_json

        if is_chouette_json(text):  # a chouette: replayed by notation.chouette
            matches = [read_chouette_json(text, source=name)]
        else:
            from .formats.json_format import from_json

            try:
                matches = [from_json(text)]
            except ParseError as e:
                raise e.located(file=name) from None
    for m in matches:
        m.source = name
    return matches


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


def expand_inputs(args: tuple[str, ...] | list[str]) -> tuple[list[str], list[str]]:
    """Command-line inputs as files: directories are walked (records recognised by content, in
    sorted order), a pattern that the shell did not expand is expanded here, ``-`` stays.  Returns
    (files, problems) where each problem is a one-line message."""
    import glob

    files: list[str] = []
    problems: list[str] = []
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
            found = []
            for root, dirs, names in os.walk(arg):
                dirs.sort()
                for n in sorted(names):
                    f = os.path.join(root, n)
                    if _looks_like_record(f):
                        found.append(f)
            if not found:
                problems.append(f"{arg}: no match records in this directory")
            files.extend(found)
        elif not os.path.lexists(arg) and glob.has_magic(arg):
            matched = sorted(glob.glob(arg, recursive=True))
            if not matched:
                problems.append(f"{arg}: no file matches this pattern")
            files.extend(m for m in matched if not os.path.isdir(m))
        else:
            files.append(arg)
    return files, problems


def _looks_like_record(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    try:
        detect_format(path, head)
    except ParseError:
        return False
    return True
