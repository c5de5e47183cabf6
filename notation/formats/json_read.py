"""Reading a JSON record: a match (:func:`notation.formats.json_format.from_json`) or a chouette
(:func:`notation.formats.chouette_json.read_chouette_json`), as every reader reads
(:mod:`notation.formats.registry`)."""

from __future__ import annotations

from .. import _input
from ..errors import ParseError
from ..record import Match

__all__ = ["read"]


def _decode(data: bytes, name: str | None = None) -> str:
    """A JSON document's text: UTF-8 (as JSON requires; a UTF-8 BOM is skipped), or UTF-16 / UTF-32
    with a byte order mark.  A byte that is not UTF-8 is an error naming its line, column and byte
    offset, never a silent Latin-1 reading of the whole file."""
    bom = _input.byte_order_mark(data)
    enc, n = bom if bom is not None else ("UTF-8", 0)
    try:
        return data[n:].decode(enc)
    except UnicodeDecodeError as e:
        at = n + e.start
        line = data.count(b"\n", 0, at) + 1
        col = at - (data.rfind(b"\n", 0, at) + 1) + 1
        raise ParseError(f"byte 0x{data[at]:02x} (offset {at}) is not {enc[:6]}: a JSON document is UTF-8",
                         file=name, line=line, column=col) from None


def read(data: str | bytes, *, name: str | None = None) -> list[Match]:
    """The match (or chouette, replayed by :mod:`notation.chouette`) of a JSON record given as text or
    bytes, named ``name``."""
    text = _decode(data, name) if isinstance(data, bytes) else data
    from .chouette_json import is_chouette_json, read_chouette_json

    if is_chouette_json(text):
        m: Match = read_chouette_json(text, source=name)
    else:
        from .json_format import from_json

        try:
            m = from_json(text)
        except ParseError as e:
            raise e.located(file=name) from None
    m.source = name
    return [m]
