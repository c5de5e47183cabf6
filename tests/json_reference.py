"""The JSON writer's layout written plainly, with :func:`json.dumps` for every value: the oracle that
``notation.formats.json_format._dump`` (which joins each level's pieces once, without ``json.dumps`` per
value) is held to."""

from __future__ import annotations

import json


def _is_scalar(v: object) -> bool:
    return v is None or isinstance(v, str | int | float | bool)


def dump_reference(v: object, level: int, out: list[str]) -> None:
    """Append the JSON text of ``v`` at nesting ``level`` to ``out``: two spaces a level; a dict of at most
    four plain values (spans, normalisations) and a list of plain values on one line."""
    pad = "  " * (level + 1)
    if isinstance(v, dict):
        if len(v) <= 4 and all(map(_is_scalar, v.values())):
            items = (json.dumps(k, ensure_ascii=False) + ": " + json.dumps(x, ensure_ascii=False)
                     for k, x in v.items())
            out.append("{" + ", ".join(items) + "}")
            return
        out.append("{\n")
        for i, (k, x) in enumerate(v.items()):
            out.append(pad + json.dumps(k, ensure_ascii=False) + ": ")
            dump_reference(x, level + 1, out)
            out.append(",\n" if i < len(v) - 1 else "\n")
        out.append("  " * level + "}")
    elif isinstance(v, list) and v and not all(map(_is_scalar, v)):
        out.append("[\n")
        for i, x in enumerate(v):
            out.append(pad)
            dump_reference(x, level + 1, out)
            out.append(",\n" if i < len(v) - 1 else "\n")
        out.append("  " * level + "]")
    else:
        out.append(json.dumps(v, ensure_ascii=False, separators=(", ", ": ")))
