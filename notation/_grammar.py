"""Loading the lark grammars shipped in ``notation/grammars`` (the repository's ``grammars/``)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark


def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``, from the installed package or the source tree."""
    try:
        return resources.files("notation.grammars").joinpath(f"{name}.lark").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        path = Path(__file__).resolve().parent.parent / "grammars" / f"{name}.lark"
        return path.read_text(encoding="utf-8")


@cache
def parser(name: str, start: str = "start", **options: Any) -> Lark:
    """A cached LALR parser for ``grammars/<name>.lark`` (options as for :class:`lark.Lark`)."""
    opts: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}
    opts.update(options)
    return Lark(grammar_text(name), start=start, **opts)
