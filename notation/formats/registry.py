"""The record formats: one :class:`Format` line each, which reading (:mod:`notation.matchio`), conversion
(:mod:`notation.convert`, :mod:`notation.batch`, :mod:`notation.stream`) and the commands consult.

A format is a module of :mod:`notation.formats` and one line of :data:`FORMATS`:

* its reader module has ``read(data, *, name=None) -> list[Match]`` (text or bytes; the matches named
  ``name`` in their ``source``), and ``keep=True`` too when the format has ``private`` properties (its own
  bytes, kept for writing it back: ``keep=False`` when only the replay's findings are wanted);
* its writer module has ``write(match, rep=None, **options) -> WriteResult`` (``rep``: the match's replay
  when the caller has made it) and ``REASONS``, why the target cannot hold each kind of item
  :func:`notation.losses.lost` says it lost;
* a writer that ``streams`` also has ``write_games(match, games, emit, **options) -> WriteResult``: the
  same text, written one game at a time (:meth:`Format.write_games`, used by :mod:`notation.stream`);
* the line says its extensions (the first is the one written), how its content is recognised (``magic``
  bytes, what the text ``starts`` with, a ``signature`` found near the top, or ``guess``: extensions read
  as it when the content says nothing) and what the conversion must know of its writer.

Adding a format is adding its module and its line: nothing else names it (``docs/architecture.md``).
This module imports no format: each is imported when it is first used to read or write.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..record import Game, Match
    from ..replay import GameReplay, MatchReplay

__all__ = ["Format", "FORMATS", "WriteResult", "by_name", "readable", "writable", "for_extension",
           "record_extensions", "write"]


@dataclass(slots=True)
class WriteResult:
    """What every writer returns: the written ``data`` (text, or bytes for a binary format), what the
    target could not hold of the record (``dropped``: one line each, said as ``dropped:``, refused by
    ``--strict``), and ``notes`` on what it kept in a form of its own (not lost, but worth saying)."""

    data: str | bytes
    dropped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Format:
    """One record format (see the module docstring)."""

    name: str
    """What ``--to`` and :func:`notation.matchio.detect_format` call it."""
    extensions: tuple[str, ...]
    """Its file name extensions, lowercase with the dot; the first is the one a written file gets."""
    reader: str | None = None
    """The module of :mod:`notation.formats` that reads it (``read``), or None."""
    writer: str | None = None
    """The module of :mod:`notation.formats` that writes it (``write`` and ``REASONS``), or None."""
    magic: bytes = b""
    """The first bytes of every file of the format (a binary format)."""
    starts: tuple[bytes, ...] = ()
    """What the text starts with, after a byte order mark and blanks."""
    signature: Callable[[], Callable[[bytes], object]] | None = None
    """The test (made on first use) of the first 4 KiB of the text that says the format, true when it is
    found there (looked for after ``magic`` and ``starts``)."""
    refused: str | None = None
    """Why a file that has the ``signature`` is not read (a record written for people), or None."""
    guess: tuple[str, ...] = ()
    """Extensions of files read as this format when their content is in no known format (its reader
    then says exactly what is wrong, and where)."""
    aliases: tuple[str, ...] = ()
    """Other names ``--to`` takes for it."""
    options: tuple[str, ...] = ()
    """The keyword options its ``write`` takes (from the command line)."""
    replays: bool = False
    """Its writer uses the whole replay's steps (the others are given the findings-only replay)."""
    games: str | None = None
    """The reader module's function that reads a file one game at a time, ``f(data, *, name) -> (Match,
    Iterator[Game])`` (the match without its games, then each game as it is read): ``validate`` reads the
    format so, in the memory of one game whatever the file's size (:meth:`iter_games`)."""
    members: str | None = None
    """The reader module's function that reads the matches of a file that may hold several back to back (a
    stream) one at a time, ``f(data, *, name, keep) -> Iterator[Match]`` (``keep``: what writing the record
    back needs, as :meth:`read` takes it; a damaged match after complete ones raises when it is reached):
    ``validate`` and :func:`notation.matchio.iter_matches` read the format so (:meth:`iter_members`).  The reader
    module then also has ``is_stream(data) -> bool``: the file holds more than one match (:meth:`several`)."""
    collects: bool = False
    """A file of it is files of one match each, back to back (a stream): ``convert --to`` it (or to an output
    named with its extension) writes every match of every input into one, each written by ``write``."""
    streams: bool = False
    """Its writer writes one game at a time (``write_games``): an SGF collection is converted to it so
    (:mod:`notation.stream`)."""
    private: tuple[str, ...] = ()
    """Match properties only this format writes back (the conversion to another format removes them
    before writing: no other target holds them, and none says so)."""

    def module(self, role: str) -> ModuleType:
        """Its ``reader`` or ``writer`` module, imported on first use."""
        mod = self.reader if role == "reader" else self.writer
        if mod is None:
            raise ValueError(f"{self.name}: {'not readable' if role == 'reader' else 'not writable'}")
        return importlib.import_module(f"{__package__}.{mod}")

    def read(self, data: str | bytes, *, name: str | None = None, keep: bool = True) -> list[Match]:
        """Every match in ``data``, read by the format's reader; without ``keep``, without the bytes of the
        file a format with ``private`` properties keeps for writing it back."""
        read = self.module("reader").read
        matches: list[Match] = read(data, name=name) if keep or not self.private else read(data, name=name, keep=False)
        return matches

    def iter_games(self, data: str | bytes, *, name: str | None = None) -> tuple[Match, Iterator[Game]]:
        """The match in ``data`` without its games, and its games one at a time (the ``games`` function of
        the format's reader).  Only for a format read so."""
        if self.games is None:
            raise ValueError(f"{self.name}: not read one game at a time")
        read: Callable[..., tuple[Match, Iterator[Game]]] = getattr(self.module("reader"), self.games)
        return read(data, name=name)

    def iter_members(self, data: bytes, *, name: str | None = None, keep: bool = True) -> Iterator[Match]:
        """The matches in ``data`` one at a time (the ``members`` function of the format's reader; ``keep``:
        as :meth:`read` takes it).  Only for a format read so."""
        if self.members is None:
            raise ValueError(f"{self.name}: not read one match at a time")
        read: Callable[..., Iterator[Match]] = getattr(self.module("reader"), self.members)
        return read(data, name=name, keep=keep)

    def several(self, data: bytes) -> bool:
        """``data`` holds more than one match, read one at a time (:meth:`iter_members`): always False for a
        format without ``members``."""
        if self.members is None:
            return False
        several: bool = self.module("reader").is_stream(data)
        return several

    def write(self, match: Match, rep: MatchReplay | None = None, **options: Any) -> WriteResult:
        """``match`` written by the format's writer (only the ``options`` it takes are passed)."""
        given = {k: v for k, v in options.items() if k in self.options}
        result: WriteResult = self.module("writer").write(match, rep, **given)
        return result

    def write_games(self, match: Match, games: Iterator[tuple[Game, GameReplay | None]], emit: Callable[[str], None],
                    **options: Any) -> WriteResult:
        """``match`` written as :meth:`write` writes it, one game at a time: ``match.games`` stand in for the
        games (stubs: what the writer's whole-match questions read, :func:`notation.stream.stub_game`), and
        ``games`` yields each game, with its replay when the format ``replays``, when the writer comes to it.
        The text goes to ``emit`` piece by piece (the result's ``data`` is empty); what is dropped and noted
        is reckoned on ``match`` once every game is written.  Only for a format that ``streams``."""
        if not self.streams:
            raise ValueError(f"{self.name}: not written one game at a time")
        given = {k: v for k, v in options.items() if k in self.options}
        result: WriteResult = self.module("writer").write_games(match, games, emit, **given)
        return result

    @property
    def reasons(self) -> Mapping[str, str]:
        """Why the format cannot hold each kind of item (its writer's ``REASONS``; none for a writer that
        holds everything)."""
        reasons: Mapping[str, str] = getattr(self.module("writer"), "REASONS", {})
        return reasons


_mat_head: re.Pattern[bytes] | None = None


def _mat_signature() -> Callable[[bytes], object]:
    """The start of a line that makes a file a ``.mat`` transcript: the terminal ``MAT_HEAD`` of
    ``grammars/mat.lark`` (a match line, a Game line or a header tag) at the start of a line."""
    global _mat_head
    if _mat_head is None:
        from .._grammar import regexes

        _mat_head = re.compile(b"^" + regexes("mat")["MAT_HEAD"].encode(), re.M)
    return _mat_head.search


_TEXT_GAME = re.compile(rb"Game \d+\r?\nThe score \(after \d+ games?\) is: ")


def _text_record(head: bytes) -> bool:
    """A text record for people (gnubg's export, ours: its header tags and comments come first): a game's
    first two lines at the start of a line (after blanks only, or a newline).  (The pattern starts with
    its literal, which the regular-expression engine looks for fast: an alternative of the line's start
    before it made every .mat file's recognition scan 4 KiB, 18 µs of its 20.)"""
    for m in _TEXT_GAME.finditer(head):
        i = m.start()
        if i == 0 or head[i - 1] == 10 or not head[:i].strip(b" \t\r\n"):
            return True
    return False


_WORDS = ("a text record for people (gammon convert --to txt, gnubg's 'export match text'): it is written to be "
          "read, not read back; convert from the original record")

FORMATS: tuple[Format, ...] = (
    Format("mat", (".mat", ".gam"), "mat", "mat_write", signature=_mat_signature, guess=(".mat", ".txt", ".gam"),
           options=("bar", "off", "hit_marks"), streams=True),
    Format("sgf", (".sgf",), "sgf", "sgf_write", starts=(b"(",), games="iter_sgf", replays=True, streams=True),
    Format("json", (".json",), "json_read", "json_format", starts=(b"{",), streams=True),
    Format("txt", (".txt",), None, "text", signature=lambda: _text_record, refused=_WORDS, aliases=("text",),
           replays=True),
    Format("xg", (".xg", ".xgp"), "xg", magic=b"RGMH"),
    Format("ogxm", (".ogxm",), "ogxm", "ogxm", magic=b"OGXM", members="iter_ogxm", replays=True,
           private=("ogxm.sections",)),
    Format("ogxms", (".ogxms",), "ogxm", "ogxm", members="iter_ogxm", replays=True, collects=True,
           private=("ogxm.sections",)),
)
"""Every format, one line each.  The order is the order of the lists shown to people, and of recognition:
magic bytes, then the start of the text, then the signatures (the refused ones first)."""

_BY_NAME = {f.name: f for f in FORMATS}


def by_name(name: str) -> Format:
    """The format called ``name`` (or one of its aliases), any case, with or without a dot; raises
    :class:`ValueError`, naming the writable formats, when there is none."""
    n = name.lower().lstrip(".")
    f = _BY_NAME.get(n) or next((f for f in FORMATS if n in f.aliases), None)
    if f is None:
        raise ValueError(f"unknown format {name!r} (known: {', '.join(writable())})")
    return f


def writable() -> tuple[str, ...]:
    """The names of the formats that can be written, in :data:`FORMATS` order."""
    return tuple(f.name for f in FORMATS if f.writer is not None)


def readable() -> tuple[Format, ...]:
    """The formats that can be read."""
    return tuple(f for f in FORMATS if f.reader is not None)


def for_extension(ext: str, *, writing: bool = False) -> Format | None:
    """The format a file named ``*ext`` is in, or None: among those read, the first with the extension;
    ``writing``: among those written, the one whose written extension (its first) it is."""
    e = ext.lower()
    if not e.startswith("."):
        e = "." + e
    if writing:
        return next((f for f in FORMATS if f.writer is not None and f.extensions[:1] == (e,)), None)
    return next((f for f in FORMATS if f.reader is not None and e in f.extensions), None)


def record_extensions() -> tuple[str, ...]:
    """The extensions that say a file is a match record (of a format that is read)."""
    return tuple(dict.fromkeys(e for f in FORMATS if f.reader is not None for e in f.extensions))


def write(match: Match, fmt: str, rep: MatchReplay | None = None, **options: Any) -> WriteResult:
    """``match`` written as the format ``fmt``: :meth:`Format.write`."""
    return by_name(fmt).write(match, rep, **options)
