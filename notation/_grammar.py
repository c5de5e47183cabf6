"""The lark grammars shipped in ``notation/grammars`` (the repository's ``grammars/``): their parsers, and
the regular expressions the readers run.

Every token and structure of the formats read here is defined once, in ``grammars/*.lark``.  Readers use
a grammar in one of two ways:

* :func:`parser`: lark's LALR parser of the grammar (the ``.mat`` file structure of an unusual file;
  a malformed ID, to say where it goes wrong);
* :func:`regexes`: the grammar's terminals, and each of its rules that does not recurse, as regular
  expressions exactly as lark compiles them from the grammar (the ``.mat`` rows and line terminals, the
  IDs, SGF's tokens, play notation).  These are generated from the grammars by ``scripts/generate.py``
  into :mod:`notation._terminals` (``.ci/run`` and ``tests/test_generated.py`` check that it is current),
  never copied by hand, so that reading well-formed input never imports lark.

Building an LALR parser takes a few tens of milliseconds and importing lark about as long again, as much
as a whole ``gammon validate`` of a match.  A built parser is therefore kept in ``$XDG_CACHE_HOME/
gammon-notation`` (``~/.cache/gammon-notation``), one file per grammar, start symbols, options, Python and
lark versions and grammar hash, as lark saves it (``.lark-cache``).  A cached file is opened
only when its SHA-256 equals the one written apart from it (``<file>.sha256``) and both files and the
directory belong to the user and nobody else can write them (a parser is a pickle); links and FIFOs are
refused without blocking.  Files are written under a temporary name and renamed, so a process never reads
a half-written one, and the files of older versions of the same grammar are removed.  ``GAMMON_NO_CACHE=1``
turns this off; an unwritable directory, or no home directory, just means no cache.
"""

from __future__ import annotations

import os
import stat
import sys
from functools import cache
from typing import TYPE_CHECKING, Any

try:  # CPython's own SHA-256: importing hashlib loads OpenSSL, 5 ms of every start-up
    from _sha256 import sha256  # type: ignore[import-not-found]  # Python 3.11 (typeshed has no stub for it)
except ImportError:  # pragma: no cover - the module's name and presence depend on the Python
    try:
        from _sha2 import sha256  # type: ignore[import-not-found, no-redef]  # Python 3.12+
    except ImportError:
        from hashlib import sha256  # type: ignore[assignment]

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

_HERE = os.path.dirname(os.path.abspath(__file__))


def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``: beside the installed package, in the source tree, or (a
    zipped package) through :mod:`importlib.resources`."""
    for d in (os.path.join(_HERE, "grammars"), os.path.join(os.path.dirname(_HERE), "grammars")):
        try:
            with open(os.path.join(d, f"{name}.lark"), encoding="utf-8") as f:
                return f.read()
        except FileNotFoundError:
            continue
    from importlib import resources

    return resources.files("notation.grammars").joinpath(f"{name}.lark").read_text(encoding="utf-8")


def cache_dir() -> str | None:
    """Where built parsers are kept, created if needed; None when caching is off or impossible."""
    if os.environ.get("GAMMON_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):  # no home directory ("~" unexpanded) or a relative setting: no cache
        return None
    d = os.path.join(base, "gammon-notation")
    try:
        os.makedirs(d, exist_ok=True)
    except OSError:
        return None
    return d if os.access(d, os.W_OK) else None


_DEFAULTS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}


def _key(name: str, start: str | tuple[str, ...], options: dict[str, Any]) -> tuple[str, dict[str, Any], str]:
    """(the grammar's text, lark's options, the cache files' name without extension) of a parser."""
    opts = dict(_DEFAULTS)
    opts.update(options)
    text = grammar_text(name)
    starts = start if isinstance(start, str) else "+".join(start)
    tag = "-".join([name, starts, *(f"{k}={v}" for k, v in sorted(options.items())),
                    f"py{sys.version_info[0]}{sys.version_info[1]}", f"lark{_lark_version()}"])
    digest = sha256(f"{text}\n{sorted(opts.items())!r}".encode()).hexdigest()[:16]
    return text, opts, f"{tag}-{digest}"


def _lark_version() -> str:
    """lark's version, read from its ``__init__.py`` without importing it (lark's import alone costs a
    start-up tens of milliseconds, and so would :mod:`importlib.metadata`'s)."""
    import importlib.util

    spec = importlib.util.find_spec("lark")
    if spec is not None and spec.origin:
        try:
            with open(spec.origin, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("__version__"):
                        return line.split("=", 1)[1].strip().strip("'\"")
        except OSError:
            pass
    import lark

    return lark.__version__


@cache
def parser(name: str, start: str | tuple[str, ...] = "start", **options: Any) -> Lark:
    """A cached LALR parser for ``grammars/<name>.lark`` (options as for :class:`lark.Lark`); several
    start symbols are given as a tuple (then ``parse`` needs ``start=``)."""
    import io

    from lark import Lark

    text, opts, stem = _key(name, start, options)
    lark_start = start if isinstance(start, str) else list(start)
    d = cache_dir()
    if d is None:
        return Lark(text, start=lark_start, **opts)
    path = os.path.join(d, stem + ".lark-cache")
    data = _read_verified(path)
    if data is not None:
        try:
            return Lark.load(io.BytesIO(data))
        except Exception:  # noqa: BLE001 - verified but unusable (another lark): rebuild
            pass
    built = Lark(text, start=lark_start, **opts)
    buf = io.BytesIO()
    try:
        built.save(buf)
    except Exception:  # noqa: BLE001 - a parser lark cannot save is simply not cached
        return built
    _save(buf.getvalue(), d, path, stem.rsplit("-", 1)[0], ".lark-cache")
    return built


def grammar_digest(text: str) -> str:
    """The short SHA-256 of a grammar's text that :mod:`notation._terminals` records for it."""
    return sha256(text.encode()).hexdigest()[:16]


@cache
def regexes(name: str) -> dict[str, str]:
    """The regular expressions of ``grammars/<name>.lark``: each terminal by its name, as lark compiles it
    (``TerminalDef.pattern.to_regexp()``, flags included; also the terminals that only other terminals
    use, such as ``_PLAIN_POINT``), and each rule that does not recurse by its name (lower case), as the
    concatenations and alternatives lark's compiled rules make of those terminals (``[x]``, ``x?``,
    ``x~n`` included; anonymous terminals such as ``":"`` as their literal; no ``%ignore`` terminal in
    between, so only for grammars without one).

    They are generated from the grammars by ``scripts/generate.py`` into :mod:`notation._terminals`
    (CI checks that it is current), so reading never imports lark.  That table is used only when it was
    made from this very grammar text (its SHA-256): a grammar edited since is derived here, with lark."""
    text = grammar_text(name)
    from ._terminals import GRAMMARS

    made = GRAMMARS.get(name)
    if made is not None and made[0] == grammar_digest(text):
        return made[1]
    return derive_regexes(text)


def derive_regexes(text: str) -> dict[str, str]:
    """:func:`regexes` of a grammar's text, with lark (every rule a start symbol, every terminal kept)."""
    from lark.load_grammar import load_grammar

    grammar, _files = load_grammar(text, "<grammar>", None, False)
    built_terminals, built_rules, ignored_names = grammar.compile([n for n, *_ in grammar.rule_defs], "*")
    terms = {str(t.name): t.pattern.to_regexp() for t in built_terminals}
    ignored = set(ignored_names)
    alternatives: dict[str, list[list[tuple[bool, str]]]] = {}
    for built in built_rules:
        alternatives.setdefault(str(built.origin.name), []).append(
            [(sym.is_term, str(sym.name)) for sym in built.expansion])
    out: dict[str, str] = dict(terms)
    done: dict[str, str | None] = {}

    def rule(name: str, active: frozenset[str]) -> str | None:
        if name in done:
            return done[name]
        if name in active or ignored:
            return None  # it recurses (or tokens may be separated by ignored text): no regular expression
        alts = []
        for expansion in alternatives[name]:
            parts = []
            for is_term, sym in expansion:
                part = terms[sym] if is_term else rule(sym, active | {name})
                if part is None:
                    done[name] = None
                    return None
                parts.append(f"(?:{part})" if is_term and len(expansion) > 1 else part)
            alts.append("".join(_repeats(parts)))
        pattern = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        done[name] = pattern
        return pattern

    for name in alternatives:
        pattern = rule(name, frozenset())
        if pattern is not None and not name.startswith("_"):
            out[name] = pattern
    return out


def _repeats(parts: list[str]) -> list[str]:
    """``parts`` with each run of a repeated group of up to :data:`_PERIOD` parts written once with its
    count: ``x~26`` as ``(?:x){26}``, ``(num ";")~32`` as ``(?:num;){32}`` (a regular expression with
    the group written out 32 times is 2 KB and takes milliseconds to compile)."""
    out: list[str] = []
    i = 0
    while i < len(parts):
        best_k, best_m = 1, 1
        for k in range(1, _PERIOD + 1):
            m = 1
            while parts[i + m * k:i + (m + 1) * k] == parts[i:i + k]:
                m += 1
            if m > 1 and m * k > best_m * best_k:
                best_k, best_m = k, m
        group = "".join(parts[i:i + best_k])
        out.append(group if best_m == 1 else f"(?:{group}){{{best_m}}}")
        i += best_k * best_m
    return out


_PERIOD = 4
"""The longest repeated group :func:`_repeats` looks for."""


MAX_CACHE_BYTES = 16 << 20
"""A cached parser is a few tens of kilobytes; anything far larger is not one of ours."""


def _trusted(st: os.stat_result) -> bool:
    """A regular file (or directory) of this user that nobody else may write."""
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read_trusted(path: str, limit: int) -> bytes | None:
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


def _read_verified(path: str) -> bytes | None:
    """The bytes of a cache file, only when their SHA-256 equals the one kept apart from them (in
    ``<file>.sha256``, written by the same process that wrote the file) and both files, and their
    directory, belong to this user and nobody else can write them.  A cached parser (a pickle) is never
    opened otherwise: a planted or damaged file costs the build time, and runs nothing."""
    try:
        if not _trusted(os.stat(os.path.dirname(path))):
            return None
    except OSError:
        return None
    expected = _read_trusted(path + ".sha256", 128)
    if expected is None:
        return None
    data = _read_trusted(path, MAX_CACHE_BYTES)
    if data is None or sha256(data).hexdigest() != expected.decode("ascii", "replace").strip():
        return None
    return data


def _load_verified(path: str | os.PathLike[str]) -> Lark | None:
    """A cached parser, when :func:`_read_verified` accepts its file."""
    import io

    from lark import Lark

    data = _read_verified(os.fspath(path))
    if data is None:
        return None
    try:
        return Lark.load(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - verified but unusable (another lark)
        return None


def _save(data: bytes, d: str, path: str, tag: str, suffix: str) -> None:
    """Write ``data`` to ``path`` and, apart from it, its SHA-256; each through a temporary file and a
    rename, readable and writable by this user only.  Older versions of the same file are removed."""
    import glob

    try:
        for target, payload in ((path, data), (path + ".sha256", sha256(data).hexdigest().encode() + b"\n")):
            tmp = os.path.join(d, f".{os.path.basename(target)}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            os.replace(tmp, target)
        keep = (os.path.basename(path), os.path.basename(path) + ".sha256")
        for old in glob.glob(os.path.join(glob.escape(d), f"{glob.escape(tag)}-*{suffix}*")):
            if os.path.basename(old) not in keep:
                os.unlink(old)
    except OSError:
        pass
