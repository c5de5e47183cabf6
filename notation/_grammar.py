"""Loading the lark grammars shipped in ``notation/grammars`` (the repository's ``grammars/``).

Building an LALR parser from a grammar takes a few tens of milliseconds, as long as a whole
``gammon validate`` of a match.  Built parsers are therefore kept, with lark's own ``cache`` option, in
``$XDG_CACHE_HOME/gammon-notation`` (``~/.cache/gammon-notation``), one file per grammar, start
symbols, options, Python and lark versions and grammar hash.  A cached parser is a pickle, so it is
opened only when its SHA-256 equals the one written apart from it (``<file>.sha256``) and both files and
the directory belong to the user and nobody else can write them; links and FIFOs are refused without
blocking.  Files are written under a temporary name and renamed, so a process never reads a
half-written one, and the files of older versions of the same grammar are removed.
``GAMMON_NO_CACHE=1`` turns this off; an unwritable directory, or no home directory, just means no cache.
"""

from __future__ import annotations

import glob
import hashlib
import io
import os
import stat
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import lark
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
                    f"py{sys.version_info[0]}{sys.version_info[1]}", f"lark{lark.__version__}"])
    digest = hashlib.sha256(f"{text}\n{sorted(opts.items())!r}".encode()).hexdigest()[:16]
    path = d / f"{tag}-{digest}.lark-cache"
    built = _load_verified(path)
    if built is not None:
        return built
    built = Lark(text, start=lark_start, **opts)
    _save(built, d, path, tag)
    return built


def _trusted(st: os.stat_result) -> bool:
    """A regular file (or directory) of this user that nobody else may write."""
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read_trusted(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` when it is a regular file of this user, writable by nobody else, not a link,
    and at most ``limit`` bytes; else None.  Never blocks (a FIFO planted there is refused)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _trusted(st) or st.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _load_verified(path: Path) -> Lark | None:
    """A parser from the cache, only when the file's SHA-256 equals the one kept apart from it (in
    ``<file>.sha256``, written by the same process that wrote the file) and both files, and their
    directory, belong to this user and nobody else can write them.  The pickle inside is never
    opened otherwise: a planted or damaged file costs the build time, and runs nothing."""
    try:
        if not _trusted(os.stat(path.parent)):
            return None
    except OSError:
        return None
    expected = _read_trusted(path.with_name(path.name + ".sha256"), 128)
    if expected is None:
        return None
    data = _read_trusted(path, MAX_CACHE_BYTES)
    if data is None or hashlib.sha256(data).hexdigest() != expected.decode("ascii", "replace").strip():
        return None
    try:
        return Lark.load(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - verified but unusable (another lark): rebuild
        return None


MAX_CACHE_BYTES = 16 << 20
"""A cached parser is a few tens of kilobytes; anything far larger is not one of ours."""


def _save(built: Lark, d: Path, path: Path, tag: str) -> None:
    """Write the parser and, apart from it, its SHA-256; each through a temporary file and a rename,
    readable and writable by this user only.  Older versions of the same grammar are removed."""
    buf = io.BytesIO()
    try:
        built.save(buf)
    except Exception:  # noqa: BLE001 - a parser lark cannot save is simply not cached
        return
    data = buf.getvalue()
    try:
        for target, payload in ((path, data), (path.with_name(path.name + ".sha256"),
                                               hashlib.sha256(data).hexdigest().encode() + b"\n")):
            tmp = d / f".{target.name}.{os.getpid()}.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            os.replace(tmp, target)
        for old in d.glob(f"{glob.escape(tag)}-*.lark-cache*"):
            if old.name not in (path.name, path.name + ".sha256"):
                old.unlink(missing_ok=True)
    except OSError:
        pass
