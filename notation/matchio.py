"""Reading and writing match records in any supported format, chosen by extension or content."""

from __future__ import annotations

from pathlib import Path

from .record import Match

FORMATS = ("mat", "sgf", "json", "txt")


def detect_format(path: str | None, text: str | None = None) -> str:
    """``mat``, ``sgf`` or ``json`` from the file name, else from the first characters of the text."""
    if path:
        ext = Path(path).suffix.lower().lstrip(".")
        if ext in ("sgf", "json"):
            return ext
    if text is not None:
        head = text.lstrip("\ufeff \t\r\n")[:20]
        if head.startswith("(;"):
            return "sgf"
        if head.startswith("{"):
            return "json"
    return "mat"


def _read_text(path: str) -> str:
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_any(path: str) -> list[Match]:
    """Every match in the file at ``path`` (a ``.mat`` file may hold several)."""
    fmt = detect_format(path)
    if fmt == "mat":
        from .formats.mat import read_matches

        return read_matches(path)
    text = _read_text(path)
    fmt = detect_format(path, text)
    if fmt == "sgf":
        from .formats.sgf import read_sgf

        m = read_sgf(text)
    elif fmt == "json":
        from .chouette import is_chouette_json, read_chouette_json

        if is_chouette_json(text):  # a chouette: replayed by notation.chouette
            m = read_chouette_json(text, source=path)
        else:
            from .formats.json_format import from_json

            m = from_json(text)
    else:
        from .formats.mat import read_matches

        return read_matches(path)
    m.source = path
    return [m]


def read_match(source: str | Path) -> Match:
    """The (first) match in a file, or in text given directly (``.mat``, SGF or JSON)."""
    s = str(source)
    if "\n" not in s and len(s) < 4096 and Path(s).exists():
        matches = read_any(s)
        if not matches:
            from .errors import ParseError

            raise ParseError("no match in file", file=s)
        return matches[0]
    fmt = detect_format(None, s)
    if fmt == "sgf":
        from .formats.sgf import read_sgf

        return read_sgf(s)
    if fmt == "json":
        from .chouette import is_chouette_json, read_chouette_json

        if is_chouette_json(s):
            return read_chouette_json(s)
        from .formats.json_format import from_json

        return from_json(s)
    from .formats.mat import read_match as read_mat

    return read_mat(s)
