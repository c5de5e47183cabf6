"""Loading the lark grammars shipped in ``notation/grammars`` (the repository's ``grammars/``).

Building an LALR parser from a grammar takes a few tens of milliseconds, as long as a whole
``gammon validate`` of a match.  Built parsers are therefore kept, with lark's own ``cache`` option, in
``$XDG_CACHE_HOME/gammon-notation`` (``~/.cache/gammon-notation``), one file per grammar, start
symbols, options, Python version and grammar hash; lark checks the hash again before reusing one.  A
file is written under a temporary name and renamed, so a process never reads a half-written one, and
the files of older versions of the same grammar are removed.  ``GAMMON_NO_CACHE=1`` turns this off; an
unwritable directory, or no home directory, just means no cache.
"""

from __future__ import annotations

import glob
import hashlib
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
    if not os.path.isabs(base):  # no home directory ("~" unexpanded) or a relative setting: no cache
        return None
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
    text = grammar_text(name)
    lark_start = start if isinstance(start, str) else list(start)
    d = cache_dir()
    if d is None:
        return Lark(text, start=lark_start, **opts)
    starts = start if isinstance(start, str) else "+".join(start)
    tag = "-".join([name, starts, *(f"{k}={v}" for k, v in sorted(options.items())),
                    f"py{sys.version_info[0]}{sys.version_info[1]}"])
    digest = hashlib.sha256(f"{text}\n{sorted(opts.items())!r}".encode()).hexdigest()[:16]
    path = d / f"{tag}-{digest}.lark-cache"
    if path.exists():
        return Lark(text, start=lark_start, cache=str(path), **opts)
    tmp = d / f"{tag}-{digest}.{os.getpid()}.tmp"
    built = Lark(text, start=lark_start, cache=str(tmp), **opts)
    try:
        os.replace(tmp, path)
        for old in d.glob(f"{glob.escape(tag)}-*.lark-cache"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass
    return built
