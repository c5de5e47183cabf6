"""Loading the lark grammars shipped in ``notation/grammars`` (the repository's ``grammars/``).

Building an LALR parser from a grammar takes a few tens of milliseconds, as long as a whole
``gammon validate`` of a match.  Built parsers are therefore kept, with lark's own ``cache`` option, in
``$XDG_CACHE_HOME/gammon-notation`` (``~/.cache/gammon-notation``); lark checks the grammar's and the
options' SHA-256 before reusing one.  ``GAMMON_NO_CACHE=1`` turns this off; an unwritable directory
just means no cache.
"""

from __future__ import annotations

import os
import sys
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


def cache_dir() -> Path | None:
    """Where built parsers are kept, created if needed; None when caching is off or impossible."""
    if os.environ.get("GAMMON_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    d = Path(base) / "gammon-notation"
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return d if os.access(d, os.W_OK) else None


@cache
def parser(name: str, start: str | tuple[str, ...] = "start", **options: Any) -> Lark:
    """A cached LALR parser for ``grammars/<name>.lark`` (options as for :class:`lark.Lark`); several
    start symbols are given as a tuple (then ``parse`` needs ``start=``)."""
    opts: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}
    opts.update(options)
    d = cache_dir()
    if d is not None:
        # One file per grammar, start symbol and Python version; lark replaces it when the grammar or
        # the options change (their hash is in the file).
        starts = start if isinstance(start, str) else "+".join(start)
        tag = "-".join([name, starts, *(f"{k}={v}" for k, v in sorted(options.items()))])
        opts["cache"] = str(d / f"{tag}-py{sys.version_info[0]}{sys.version_info[1]}.lark-cache")
    return Lark(grammar_text(name), start=start if isinstance(start, str) else list(start), **opts)
