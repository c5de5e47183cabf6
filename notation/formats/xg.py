"""eXtreme Gammon match files (``.xg``) and position files (``.xgp``): a match is read into the same
:class:`~notation.record.Match` model as every other reader (:func:`read_xg`), a position file into a
:class:`~notation.record.PositionRecord` (:func:`read_xgp`), with XG's analysis as
:mod:`notation.analysis` objects (decoded from their records when first used).

The container (XG's "RichGameFormat"):

- a fixed header of 8,232 bytes that starts with the magic ``RGMH``; the little-endian 32-bit word at
  byte 20 is the size of the JPEG thumbnail that follows the header (kept, in Base64, as the match
  property :data:`THUMBNAIL`);
- after the thumbnail, a ZlibArchive: each file compressed on its own, the game file ``temp.xg``
  first (then ``temp.xgi``, and the comments ``temp.xgc`` and rollouts ``temp.xgr`` when there are
  some), a registry of the files and a 36-byte archive record at the end.  The first zlib stream is
  the game file: records of 2,560 bytes each, whose byte 8 is the record type: 0 match header, 1 game
  header, 2 cube decision, 3 checker move, 4 game footer, 5 match footer.  An ``.xgp`` holds a match
  header, one game header and the records of one decision.  The game file is inflated a piece at a
  time and refused as soon as it makes more than :data:`MAX_UNPACKED` bytes (at once when the
  registry says it is larger).
- ``temp.xgc``: one RTF document per comment, which records name by index (the match header: its
  comment and its closing comment; a game header: the game's; a cube or move record: that
  decision's).  Each is read as plain text onto what it is about: :attr:`Match.comments`,
  :attr:`Game.comments`, the action's ``comment`` (a comment on the decision not to double goes with
  that turn's roll).
- ``temp.xgr``: rollout records of 2,184 bytes, named by index from a move record's candidates and a
  cube record: read as :class:`~notation.analysis.Rollout` (games rolled, truncation, XG's 95%
  confidence bounds, levels and settings) on the candidate or cube decision.

The match header's fields are kept as header tags named as XG's own ``.mat`` export names them
(``Site``, ``Match ID``, ``Event``, ``Round``, ``Player 1``, ``Player 2``, ``Player 1 Elo``, ``Player 2
Elo``, ``EventDate``, ``EventTime``, ``Variation``, ``Unrated``, ``Crawford``, ``CubeLimit``,
``Transcriber``; ``Jacoby`` and ``Beaver`` for a money session), so that our ``.mat`` conversion of an
``.xg`` has the header XG writes.  An analysis is read only where XG made one: a cube record whose
level of analysis is -1 (XG analysed no cube decision there: the opening roll, a dead cube) has none,
though its figures are zeros.

Players: XG's player 1 is this model's player 0 (O, White, the left column of a ``.mat`` score line)
and its player 2 is player 1 (X): as XG's own ``.mat`` export writes a match (its header's ``Player 1``
is the right column, and its Match ID is minus the game ID the file holds) and as gnubg does, so that
the same match read from the ``.xg``, XG's ``.mat`` export and gnubg's SGF has the same players,
positions and move numbers.  Positions in a record are in XG's player 1's numbering, its checkers
positive.  A move record's played move is eight 32-bit integers at byte 68: from/to pairs, 0-based in
the mover's own numbering, 24 the bar, a negative "to" bearing off, -1 where the move ends; plays are
written as XG's ``.mat`` export writes them (``25/21 6/0``: 25 the bar, 0 off).  Moves are numbered by
the ``.mat`` row (:mod:`notation.rows`).

Where a finding must be located, an ``.xg`` file has no lines: each action's :class:`Span` holds the
*record number* (1-based) as its line, and the match's normalisations say so, so that ``FILE:LINE:COL``
reads as ``FILE:RECORD:COL`` (the column counts within the action as written, ``43: 14/11 8/5``).
Errors in the container name the byte offset and the record number.
"""

from __future__ import annotations

import math
import re
import struct
import zlib
from collections.abc import Callable
from dataclasses import fields
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from .._input import text_codec
from ..analysis import (
    EQUITY_BOUND,
    Analysis,
    Candidate,
    CheckerAnalysis,
    CubeAnalysis,
    Probabilities,
    Rollout,
    figures_in_range,
)
from ..errors import ParseError
from ..losses import THUMBNAIL
from ..position import Position
from ..record import Action, Game, Match, MatchRules, Normalisation, PositionRecord, Span, drop_figures
from ..rows import number_rows

__all__ = ["MAGIC", "read_xg", "read_xg_match", "read_xgp", "read"]

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")

MAGIC = b"RGMH"
HEADER_SIZE = 8232
RECORD_SIZE = 2560
ROLLOUT_SIZE = 2184
"""A record of the rollout file ``temp.xgr``."""
MAX_UNPACKED = 256 << 20
"""A real match unpacks to a few megabytes; a stream that unpacks to more than this is refused before
more is inflated (a zip bomb must not take the machine's memory)."""
MAX_SIDE_FILE = 16 << 20
"""The comment and rollout files (``temp.xgc``, ``temp.xgr``) are refused beyond this size."""
_CHUNK = 1 << 16
"""Compressed bytes fed to zlib at a time (inflation is streamed, with a bound on what it makes)."""
_DAMAGE_CHUNK = 16384
"""Compressed bytes fed to zlib at a time while looking for where a damaged stream fails."""

HEADER_MATCH, HEADER_GAME, CUBE, MOVE, FOOTER_GAME, FOOTER_MATCH = range(6)
UNLIMITED = 99999
"""The match length of a money session ("unlimited")."""
VARIATIONS = {0: "standard", 1: "nackgammon", 2: "hypergammon3"}
"""The match header's variation: 0 backgammon, 1 nackgammon, 2 hypergammon, 3 LongGammon (not known here)."""
VARIATION_TAGS = {0: "Backgammon", 1: "Nackgammon", 2: "Hypergammon"}
"""The ``Variation`` tag XG's own ``.mat`` export writes."""
NOT_ANALYSED = -1000.0

LEVELS = {0: "1-ply", 1: "2-ply", 2: "3-ply", 3: "4-ply", 4: "5-ply", 5: "6-ply", 6: "7-ply", 100: "Rollout",
          998: "Book", 999: "Book", 1000: "XG Roller", 1001: "XG Roller+", 1002: "XG Roller++"}
"""XG's evaluation levels, in its own words (998 and 999 are its two opening books)."""


def _level(code: int) -> str:
    return LEVELS.get(code) or f"level {code}"
def _err(message: str, name: str | None, offset: int, record: int | None = None, *,
         before: bool = False) -> ParseError:
    """An error naming the byte offset in the file (or in the game file, for a record's field) and the
    record of the game file (1-based); ``before``: the damage is in the container, before that record."""
    where = f"byte {offset}"
    if record is not None:
        where += f", before record {record}" if before else f", record {record}"
    return ParseError(f"{message} ({where})", file=name)


def _rec_err(message: str, name: str | None, offset: int, record: int) -> ParseError:
    """An error in a record of the game file: its number (1-based) and the byte offset in the unpacked
    game file (records of 2,560 bytes: record ``r`` starts at ``(r - 1) * 2560``)."""
    return ParseError(f"{message} (record {record}, byte {offset} of the unpacked game file)", file=name)


def _unicode(rec: bytes, offset: int, units: int = 129) -> str:
    """A Delphi short Unicode string: UTF-16LE code units up to the first zero."""
    raw = rec[offset:offset + 2 * units]
    text = raw.decode("utf-16-le", "replace")
    return text.split("\x00", 1)[0]


def _ansi(rec: bytes, offset: int) -> str:
    n = rec[offset]
    return rec[offset + 1:offset + 1 + n].decode("cp1252", "replace")


def _start(data: bytes, name: str | None) -> int:
    """Where the archive begins (after the header and the thumbnail), the header checked."""
    if data[:4] != MAGIC:
        raise _err("not an eXtreme Gammon file: it does not start with 'RGMH'", name, 0, 1, before=True)
    if len(data) < HEADER_SIZE:
        raise _err(f"truncated eXtreme Gammon header: {len(data)} bytes of {HEADER_SIZE}", name, len(data), 1,
                   before=True)
    thumb = struct.unpack_from("<I", data, 20)[0]
    start = HEADER_SIZE + thumb
    if start > len(data):
        raise _err(f"the thumbnail's size ({thumb} bytes) runs past the end of the file", name, 20, 1, before=True)
    return start


def unpack(data: bytes, name: str | None = None) -> bytes:
    """The game file inside an ``.xg``/``.xgp`` container (raises :class:`ParseError` naming the byte
    offset, and the record of the game file where the damage is, for a wrong magic, a truncated header,
    a damaged zlib stream or one that unpacks to more than :data:`MAX_UNPACKED`)."""
    start = _start(data, name)
    files = _registry(data, start)
    size = files.get("temp.xg", (0, 0, 0, True))[2] if files else 0
    if size > MAX_UNPACKED:  # the archive says so: refused before anything is inflated
        raise _err(f"the compressed game file unpacks to more than {MAX_UNPACKED >> 20} MB (the archive says "
                   f"{size} bytes)", name, start, MAX_UNPACKED // RECORD_SIZE + 1)
    # no more than the archive says it holds (a stream that makes more is refused there), else the bound
    blob = _inflate(data, start, size if size > 0 else MAX_UNPACKED, name, declared=size > 0)
    if not blob or len(blob) % RECORD_SIZE:
        raise _err(f"the game file is {len(blob)} bytes, not a whole number of {RECORD_SIZE}-byte records",
                   name, start, len(blob) // RECORD_SIZE + 1)
    return blob


def _inflate(data: bytes, start: int, limit: int, name: str | None, what: str = "game file", *,
             declared: bool = False) -> bytes:
    """The zlib stream at ``start`` inflated a piece at a time, never holding more than ``limit`` bytes
    of it: a stream that makes more is refused as soon as it does (errors as :func:`unpack` says them;
    their record numbers count records of the game file).  ``declared``: ``limit`` is the size the
    archive's registry gives the file."""
    d = zlib.decompressobj()
    view = memoryview(data)
    pieces: list[bytes] = []
    total = 0
    pos = start
    pending: bytes | memoryview = view[pos:pos + _CHUNK]
    pos += len(pending)
    try:
        while True:
            out = d.decompress(pending, limit + 1 - total)
            total += len(out)
            pieces.append(out)
            if total > limit:
                said = (f"more than the archive says ({limit} bytes)" if declared else
                        f"more than {limit >> 20} MB")
                raise _err(f"the compressed {what} unpacks to {said}", name, start, limit // RECORD_SIZE + 1)
            if d.eof:
                break
            if d.unconsumed_tail:
                pending = d.unconsumed_tail
                continue
            if pos >= len(data):
                raise _err(f"the compressed {what} is truncated", name, len(data), total // RECORD_SIZE + 1)
            pending = view[pos:pos + _CHUNK]
            pos += len(pending)
    except zlib.error as e:
        del pieces
        at, size = _damage(data, start)
        raise _err(f"damaged compressed data: {e}", name, at, size // RECORD_SIZE + 1) from None
    finally:
        view.release()
    if len(pieces) == 1:
        return pieces[0]
    blob = b"".join(pieces)
    return blob


def _damage(data: bytes, start: int) -> tuple[int, int]:
    """Where a damaged zlib stream that starts at ``start`` fails: the byte offset in ``data`` and how
    many bytes it unpacked before (fed a chunk at a time, the failing chunk a byte at a time; what it
    unpacks is counted, not kept)."""
    d = zlib.decompressobj()
    size = 0
    pos = start
    while pos < len(data) and not d.eof:
        chunk = data[pos:pos + _DAMAGE_CHUNK]
        saved = d.copy()
        try:
            size += len(d.decompress(chunk, MAX_UNPACKED))
            while d.unconsumed_tail and size <= MAX_UNPACKED:
                size += len(d.decompress(d.unconsumed_tail, MAX_UNPACKED))
        except zlib.error:
            return pos + _bad_byte(saved, chunk), size
        pos += len(chunk)
    return pos, size


def _bad_byte(d: zlib._Decompress, chunk: bytes) -> int:
    """Where in ``chunk`` the stream ``d`` (a copy taken before it) fails: fed one byte at a time."""
    for i in range(len(chunk)):
        try:
            d.decompress(chunk[i:i + 1], 1 << 20)
        except zlib.error:
            return i
    return 0


_ARCHIVE = struct.Struct("<Iiiiii12x")
"""The 36-byte record that ends a ZlibArchive: CRC-32, file count, version, registry size, archive size,
"registry compressed"."""
_ENTRY = struct.Struct("<256s256siiiIBBxx")
"""A registry entry (532 bytes): name and path (short strings), original size, compressed size, start
(from the archive's beginning), CRC-32, "stored" flag (0: compressed), compression level."""


def _registry(data: bytes, start: int) -> dict[str, tuple[int, int, int, bool]] | None:
    """The archive's files, by name: (offset in ``data``, compressed size, original size, compressed),
    from the registry at the end of the file; None when there is none that reads (a damaged or re-made
    container: the game file is then the first stream, and nothing else is read)."""
    if len(data) < start + _ARCHIVE.size:
        return None
    end = len(data) - _ARCHIVE.size
    crc, count, _version, reg_size, arc_size, compressed = _ARCHIVE.unpack_from(data, end)
    reg_start = end - reg_size
    arc_start = reg_start - arc_size
    if not (0 < count <= 64 and 0 < reg_size and 0 <= arc_size and arc_start >= start):
        return None
    if zlib.crc32(memoryview(data)[arc_start:end]) != crc:
        return None
    raw = data[reg_start:end]
    if compressed:
        d = zlib.decompressobj()
        try:
            raw = d.decompress(raw, count * _ENTRY.size)
        except zlib.error:
            return None
    if len(raw) < count * _ENTRY.size:
        return None
    files: dict[str, tuple[int, int, int, bool]] = {}
    for k in range(count):
        name, _path, osize, csize, begin, _crc, stored, _level = _ENTRY.unpack_from(raw, k * _ENTRY.size)
        n = min(name[0], 255)
        files[name[1:1 + n].decode("latin-1")] = (arc_start + begin, csize, osize, stored == 0)
    return files


def _side_file(data: bytes, files: dict[str, tuple[int, int, int, bool]] | None, wanted: str,
               name: str | None, notes: list[Normalisation]) -> bytes | None:
    """The archive's file ``wanted`` (``temp.xgc``, ``temp.xgr``), or None when there is none; one that
    cannot be read is said in ``notes`` and left out."""
    if not files or wanted not in files:
        return None
    at, csize, osize, packed = files[wanted]
    what = {"temp.xgc": "comments", "temp.xgr": "rollouts"}.get(wanted, wanted)
    if not (0 <= at <= len(data) and 0 <= osize <= MAX_SIDE_FILE):
        notes.append(Normalisation(f"the {what} file {wanted} is damaged or too large (byte {at}): not read"))
        return None
    if not packed:
        return data[at:at + csize]
    try:
        return _inflate(data, at, osize if osize > 0 else MAX_SIDE_FILE, name, wanted, declared=osize > 0)
    except ParseError as e:
        notes.append(Normalisation(f"the {what} file {wanted} cannot be read ({e.message}): not read"))
        return None


def read_xg(data: bytes, *, name: str | None = None) -> list[Match]:
    """The match in an ``.xg`` file's bytes (a list, as every reader of files returns)."""
    return [read_xg_match(data, name=name)]


def read(data: str | bytes, *, name: str | None = None) -> list[Match]:
    """:func:`read_xg` of the file's bytes, each match named ``name``."""
    raw = data if isinstance(data, bytes) else data.encode("latin-1")
    matches = list(read_xg(raw, name=name))
    for m in matches:
        m.source = name
    return matches


def read_xg_match(data: bytes, *, name: str | None = None) -> Match:
    blob = unpack(data, name)
    extras = _Extras(data, name)
    reader = _Reader(blob, name, extras)
    del blob  # the reader holds it while it reads; the match keeps only the records its analysis needs
    return reader.read()


class _Extras:
    """What the container holds besides the game file: the comments (``temp.xgc``), the rollouts
    (``temp.xgr``) and the thumbnail's size."""

    def __init__(self, data: bytes, name: str | None) -> None:
        self.notes: list[Normalisation] = []
        start = _start(data, name)
        self.thumbnail = data[HEADER_SIZE:start]
        """The JPEG of the board XG shows for the file (empty when there is none)."""
        files = _registry(data, start)
        if files is None:
            self.notes.append(Normalisation("the archive has no readable registry: its comments and rollouts "
                                            "(temp.xgc, temp.xgr), if any, are not read"))
        xgc = _side_file(data, files, "temp.xgc", name, self.notes)
        self.comments: list[str] = _comments(xgc, self.notes) if xgc else []
        xgr = _side_file(data, files, "temp.xgr", name, self.notes)
        self.rollouts: list[bytes] = ([xgr[k:k + ROLLOUT_SIZE] for k in range(0, len(xgr) - ROLLOUT_SIZE + 1,
                                                                               ROLLOUT_SIZE)] if xgr else [])
        self.used: set[int] = set()

    def comment(self, index: int) -> str | None:
        """Comment ``index`` of ``temp.xgc`` (None for -1 or an index past the end)."""
        if 0 <= index < len(self.comments):
            self.used.add(index)
            return self.comments[index] or None
        return None

    def rollout(self, index: int, cube: bool) -> Rollout | None:
        if 0 <= index < len(self.rollouts):
            return _rollout(self.rollouts[index], cube)
        return None


# ------------------------------------------------------------------ comments (RTF)

_RTF = re.compile(rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z])|([{}])|([^\\{}]+)")
_RTF_SKIP = frozenset({b"fonttbl", b"colortbl", b"stylesheet", b"info", b"pict", b"header", b"footer", b"object",
                       b"fldinst", b"listtable", b"listoverridetable", b"rsidtbl", b"generator", b"themedata",
                       b"datastore", b"latentstyles", b"xmlnstbl", b"mmathPr"})
"""Destinations whose text is not the document's."""
_RTF_CHARS = {b"par": "\n", b"line": "\n", b"tab": "\t", b"emdash": "\u2014", b"endash": "\u2013",
              b"lquote": "\u2018", b"rquote": "\u2019", b"ldblquote": "\u201c", b"rdblquote": "\u201d",
              b"bullet": "\u2022", b"emspace": " ", b"enspace": " ", b"qmspace": " "}


def _comments(xgc: bytes, notes: list[Normalisation] | None = None) -> list[str]:
    """The comments of ``temp.xgc``: one RTF document each (XG writes its line breaks inside a document
    as bytes 1 and 2, and a CR LF between documents), as plain text.  A document in a code page this
    program does not know (``\\ansicpg0``) is read as Windows' usual (1252), and said in ``notes``."""
    docs: list[str] = []
    unknown: list[int] = []
    text = xgc.replace(b"\x01\x02", b"\r\n")
    i = 0
    n = len(text)
    while i < n:
        j = text.find(b"{", i)
        if j < 0:
            break
        end, body = _rtf_document(text, j, unknown)
        docs.append(body)
        i = end
    if unknown and notes is not None:
        pages = ", ".join(str(n) for n in sorted(set(unknown))[:5])
        notes.append(Normalisation(f"comments in a code page this program does not know (\\ansicpg{pages}): "
                                   "read as code page 1252"))
    return docs


def _rtf_document(text: bytes, i: int, unknown: list[int] | None = None) -> tuple[int, str]:
    """The RTF group that starts at ``text[i]`` (``{``): where it ends and its text (without its
    formatting; ``\\par`` a line break; ``\\'xx`` in the document's code page, ``\\uN`` as that
    character), stripped of blank lines at the ends."""
    out: list[str] = []
    raw = bytearray()  # bytes of \'xx escapes, decoded together
    codepage = "cp1252"
    depth = 0
    skip_at: int | None = None  # the depth of the destination being skipped
    uc = [1]  # characters that stand for a \uN (\ucN), per group
    pending_skip = 0  # fallback characters after a \uN still to skip
    star = False

    def flush() -> None:
        if raw:
            out.append(raw.decode(codepage, "replace"))
            raw.clear()

    for m in _RTF.finditer(text, i):
        word, num, hexa, sym, brace, plain = m.groups()
        if brace == b"{":
            depth += 1
            uc.append(uc[-1])
            star = False
            continue
        if brace == b"}":
            depth -= 1
            uc.pop()
            if skip_at is not None and depth < skip_at:
                skip_at = None
            if depth == 0:
                flush()
                return m.end(), "".join(out).replace("\r", "").strip("\n ")
            continue
        if word is not None:
            if word == b"ansicpg" and num is not None and skip_at is None:
                codepage = text_codec(f"cp{int(num)}") or "cp1252"  # (an unknown code page: Windows' usual)
                if codepage == "cp1252" and int(num) != 1252 and unknown is not None:
                    unknown.append(int(num))
            if word == b"uc" and num is not None:
                uc[-1] = max(0, int(num))
            if skip_at is not None:
                continue
            if star or word in _RTF_SKIP:
                skip_at = depth
                star = False
                continue
            if word == b"u" and num is not None:
                flush()
                code = int(num)
                out.append(chr(code + 65536 if code < 0 else code) if -65536 < code < 0x110000 else "?")
                pending_skip = uc[-1]
                continue
            ch = _RTF_CHARS.get(word)
            if ch is not None:
                flush()
                out.append(ch)
            pending_skip = 0
            continue
        if skip_at is not None:
            continue
        if hexa is not None:
            if pending_skip:
                pending_skip -= 1
                continue
            raw.append(int(hexa, 16))
            continue
        if sym is not None:
            if sym == b"*":
                star = True
                continue
            if pending_skip:
                pending_skip -= 1
                continue
            flush()
            out.append({b"~": "\u00a0", b"_": "\u2011", b"-": ""}.get(sym, sym.decode("latin-1")))
            continue
        if plain is not None:
            chunk = plain.replace(b"\r", b"").replace(b"\n", b"")
            if pending_skip:
                k = min(pending_skip, len(chunk))
                chunk = chunk[k:]
                pending_skip -= k
            raw.extend(chunk)
    flush()
    return len(text), "".join(out).replace("\r", "").strip("\n ")


# ------------------------------------------------------------------ rollouts

_ROLLOUT = struct.Struct("<BB2xii4xdiiiiBBB1xiiIiiiB3xfiBBB1xiB7x")
"""The head of a rollout record (``temp.xgr``, 2,184 bytes): Truncated, ErrorLimited, Truncate, MinRoll,
ErrorLimit, MaxRoll, Level1, Level2, LevelCut, Variance, Cubeless, Time, Level1C, Level2C, TimeLimit,
TruncateBO, RandomSeed, RandomSeedI, RollBoth, SearchInterval, met, FirstRoll, DoDouble, Extent, Rolled,
DoubleFirst (then the per-roll sums, from byte 96)."""
_ROLLOUT_TAIL = struct.Struct("<ff7f7fffi7fiiiiiiBB2xffB3xiB1xHH")
"""From byte 2020: Error1, Error2, Result1, Result2, Mwc1, Mwc2, PrevLevel, PrevEval, PrevND, PrevD,
Duration, LevelTrunc, Rolled2, MultipleMin, MultipleStopAll, MultipleStopOne, MultipleStopAllValue,
MultipleStopOneValue, AsTake, Rotation, UserInterrupted, VerMaj, VerMin."""


def _finite(x: float) -> float | None:
    return round(x, 6) if x == x and abs(x) < 1e9 else None


def _figure(x: float) -> float:
    """A figure of XG's analysis as the model holds it (six decimals); one out of range (NaN, ``3.4e38``) is
    kept as it is, for :func:`notation.analysis.drop_out_of_range` to drop and say."""
    return round(x, 6) if math.isfinite(x) else x


def _rollout(rec: bytes, cube: bool) -> Rollout:
    """A rollout record as the model's :class:`Rollout`: games rolled, truncation, the error bounds,
    the levels, and the other settings as text."""
    (truncated, error_limited, truncate, min_roll, error_limit, max_roll, level1, level2, level_cut, variance,
     cubeless, timed, level1c, level2c, time_limit, _truncate_bo, _seed, seed_i, roll_both, search, _met, first_roll,
     _do_double, extent, rolled, double_first) = _ROLLOUT.unpack_from(rec, 0)
    tail = _ROLLOUT_TAIL.unpack_from(rec, 2020)
    error1, error2 = tail[0], tail[1]
    duration, level_trunc, rolled2 = tail[28], tail[29], tail[30]
    rotation, interrupted, ver_maj, ver_min = tail[37], tail[38], tail[39], tail[40]
    settings: list[tuple[str, str]] = []

    def on(flag: int) -> str:
        return "on" if flag else "off"

    if level_cut > 0:
        settings.append(("levels after ply", f"{level_cut}: {_level(level2)} (cube {_level(level2c)})"))
    if truncated:
        settings.append(("level at truncation", _level(level_trunc)))
    settings += [("seed", str(seed_i)), ("variance reduction", on(variance)), ("cubeless", on(cubeless)),
                 ("dice rotation", {0: "36 rolls", 1: "21 rolls", 2: "30 rolls"}.get(rotation, str(rotation)))]
    if error_limited:
        settings.append(("stop at error", f"{_finite(error_limit)} (from {min_roll} to {max_roll} games)"))
    elif max_roll:
        settings.append(("games asked", str(max_roll)))
    if timed:
        settings.append(("time limit", f"{time_limit} min"))
    search_f = _finite(search)
    if search_f:
        settings.append(("search interval", f"{search_f:g}"))
    if cube:
        settings.append(("both lines rolled", on(roll_both)))
    for label, flag in (("first roll", first_roll), ("extended", extent), ("double first", double_first),
                        ("interrupted", interrupted)):
        if flag:
            settings.append((label, "on"))
    settings += [("duration", f"{duration} s"), ("engine", f"{ver_maj}.{ver_min}")]
    return Rollout(trials=rolled, truncation=truncate if truncated else None, error=_figure(error1),
                   double_trials=rolled2 if cube else None, double_error=_figure(error2) if cube else None,
                   checker_level=_level(level1), cube_level=_level(level1c), settings=tuple(settings))


def read_xgp(data: bytes, source: str | None = None) -> PositionRecord:
    """The position in an eXtreme Gammon position file (``.xgp``): the same container and game file as
    an ``.xg``, holding a match header, one game header and the records of one decision: a cube record
    (the doubling decision, analysed) and, for a checker play, the move record (the roll and its ranked
    candidates).

    The position is the one stored in the last decision record, with the dice of a move record, the
    cube as that record holds it, the score and Crawford flag of the game header and the match length,
    rules and names of the match header.  The analysis is read as from an ``.xg``: the ranked plays of
    the move record (with their rollouts), the no-double / double-take / double-pass equities of the cube
    record, where XG analysed them; the decision's comment is the record's comment.  A damaged file
    raises :class:`ParseError` naming the byte offset and the record."""
    blob = unpack(data, source)
    n = len(blob) // RECORD_SIZE
    extras = _Extras(data, source)
    reader = _Reader(blob, source, extras)
    if blob[8] != HEADER_MATCH:
        raise _rec_err("the game file does not start with a match header", source, 8, 1)
    reader._match_header(blob[:RECORD_SIZE])
    game_rec: int | None = None
    decisions: list[int] = []
    for i in range(1, n):
        kind = blob[i * RECORD_SIZE + 8]
        if kind == HEADER_GAME:
            if game_rec is not None:
                raise _rec_err("a second game header: this is a match (.xg), not a position file; use gammon "
                               "validate, convert or render --game/--move", source, i * RECORD_SIZE + 8, i + 1)
            game_rec = i
        elif kind in (CUBE, MOVE):
            if game_rec is None:
                raise _rec_err("a decision record before the game header", source, i * RECORD_SIZE + 8, i + 1)
            decisions.append(i)
        elif kind not in (FOOTER_GAME, FOOTER_MATCH):
            raise _rec_err(f"unknown record type {kind}", source, i * RECORD_SIZE + 8, i + 1)
    if game_rec is None:
        raise _rec_err("no game header: the file holds no position", source, len(blob), n)
    if not decisions:
        raise _rec_err("no cube or move record: the file holds no position", source, len(blob), n)
    match = reader.match
    variant = match.rules.variant
    notes = [n for n in match.normalisations if n.message.startswith("record 1: variation")]
    g = blob[game_rec * RECORD_SIZE:(game_rec + 1) * RECORD_SIZE]
    s1, s2 = struct.unpack_from("<2i", g, 12)
    for value, off in ((s1, 12), (s2, 16)):
        if not 0 <= value <= 1 << 16:
            raise _rec_err(f"score {value} is out of range", source, game_rec * RECORD_SIZE + off, game_rec + 1)
    last = decisions[-1]
    rec = blob[last * RECORD_SIZE:(last + 1) * RECORD_SIZE]
    base = last * RECORD_SIZE
    if rec[8] == MOVE:
        board_at, active_at, cube_at = 9, 64, 108
        d1, d2 = struct.unpack_from("<2i", rec, 100)
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise _rec_err(f"dice {d1}-{d2} are not a roll", source, base + 100, last + 1)
        dice: tuple[int, int] | None = (d1, d2)
    else:
        board_at, active_at, cube_at = 36, 12, 32
        dice = None
    active = struct.unpack_from("<i", rec, active_at)[0]
    if active not in (1, -1):
        raise _rec_err(f"unknown player on roll {active}", source, base + active_at, last + 1)
    cube_code = struct.unpack_from("<i", rec, cube_at)[0]
    if not -12 <= cube_code <= 12:
        raise _rec_err(f"cube {cube_code} is out of range", source, base + cube_at, last + 1)
    limit = struct.unpack_from("<i", blob, 612)[0]
    boards = _boards(struct.unpack_from("<26b", rec, board_at), variant, source, base + board_at, last + 1)
    rules = match.rules
    position = Position(
        boards=boards, turn=_player(active), dice=dice, cube=1 << abs(cube_code),
        cube_owner=None if cube_code == 0 else _player(cube_code), match_length=match.length,
        score=(s1, s2), crawford=bool(match.length and g[20]), jacoby=rules.jacoby, beavers=rules.beavers,
        max_cube=limit if 0 <= limit <= 15 else 10, names=match.names, variant=variant)
    analysis = Analysis(producer="eXtreme Gammon")
    comments: list[str] = []
    cube_rec = last if rec[8] == CUBE else (last - 1 if last - 1 in decisions else None)
    if cube_rec is not None:
        c = blob[cube_rec * RECORD_SIZE:(cube_rec + 1) * RECORD_SIZE]
        if struct.unpack_from("<i", c, 12)[0] == active:
            if rec[8] == MOVE and struct.unpack_from("<i", c, 16)[0] == 1:  # doubled, then rolled: as in an .xg,
                notes.append(Normalisation(  # the analysis is the double's, not this position's
                    f"record {cube_rec + 1}: the player doubled before this roll; that cube decision and its "
                    "analysis are not part of the position", cube_rec + 1, 1))
            else:
                analysis.cube = _cube_analysis(c, extras)
                comments.append(extras.comment(struct.unpack_from("<i", c, _CUBE_COMMENT)[0]) or "")
    if rec[8] == MOVE:
        analysis.checker = _checker_analysis(rec, extras)
        analysis.luck = _luck(rec)
        comments.append(extras.comment(struct.unpack_from("<i", rec, _MOVE_COMMENT)[0]) or "")
    if len(decisions) > 2 or (len(decisions) == 2 and cube_rec is None):
        notes.append(Normalisation(f"the file holds {len(decisions)} decision records; the position is the "
                                   f"last one (record {last + 1})", last + 1, 1))
    notes.extend(extras.notes)
    if not analysis.is_empty():
        note = drop_figures(analysis, f"record {last + 1}", last + 1, 1)
        if note is not None:
            notes.append(note)
    comment = "\n\n".join(c for c in comments if c) or None
    return PositionRecord(position=position, names=match.names, analysis=None if analysis.is_empty() else analysis,
                          format="xgp", source=source, comment=comment, tags=list(match.tags), normalisations=notes)


def _player(code: int) -> int:
    """This model's player for XG's +1 (player 1) and -1 (player 2), or the sign of a cube's owner: XG's
    player 1 is player 0 (the left column of a ``.mat`` score line, White), as XG's own ``.mat`` export
    and gnubg write the match."""
    return 0 if code > 0 else 1


def _boards(pos: tuple[int, ...], variant: str, name: str | None, offset: int,
            record: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A record's position (XG player 1's frame: index n = point n, player 1 positive, 0 player 2's
    bar, 25 player 1's bar) as this model's boards (player 0 = XG's player 1, player 1 = XG's player
    2), each in its owner's numbering."""
    from ..rules import get_rules

    total = get_rules(variant).checkers
    p0 = [0] * 26
    p1 = [0] * 26
    for n in range(1, 25):
        if pos[n] > 0:
            p0[n] = pos[n]
        elif pos[n] < 0:
            p1[25 - n] = -pos[n]
    p0[25], p1[25] = max(pos[25], 0), max(-pos[0], 0)
    if pos[25] < 0 or pos[0] > 0:
        raise _rec_err("a checker on the wrong bar", name, offset, record)
    for board, who in ((p0, "O"), (p1, "X")):
        on = sum(board)
        if on > total:
            raise _rec_err(f"{who} has {on} checkers on the board (at most {total})", name, offset, record)
        board[0] = total - on
    return tuple(p0), tuple(p1)


# Where the fields this reader takes are in the records (XG's published layout; xgdatatools names them)
_GAME_ID, _INVERT, _UNRATED, _MATCH_COMMENTS = 268, 548, 574, 576
_HEADER_FIELDS = (("xg:imported", 416, "<B"), ("xg:site_id", 608, "<i"), ("xg:game_mode", 412, "<i"),
                  ("xg:entered", 572, "<B"), ("xg:currency", 596, "<i"))
"""The match header's fields kept as match properties, as XG stores them (its names: ``Imported``, 1 where
the match was imported from a site's file; ``SiteId``, the site in its siteinfo.ini, -1 none; ``GameMode``;
``Entered``, 1 where the match was entered in the player's profile; ``Currency``, a code of its
Currency.ini), and ``xg:date``: the match's date and time to the second (``2024-10-24 00:40:53``), of which
the ``EventDate`` and ``EventTime`` tags (XG's export's) hold the minutes."""
_ELO, _EXP, _DATE = 104, 120, 128
_CUBE_LIMIT, _AUTO_DOUBLE_MAX, _VERSION = 612, 616, 552
_EVENT_U, _PLAYER1_U, _PLAYER2_U, _LOCATION_U, _ROUND_U, _TRANSCRIBER_U = 622, 880, 1138, 1396, 1654, 1960
_EVENT_A, _LOCATION_A, _ROUND_A = 136, 283, 417
_GAME_COMMENTS = 56
_CUBE_ANALYSED, _CUBE_ROLLOUT, _CUBE_COMMENT = 232, 224, 292
_MOVE_ROLLOUTS, _MOVE_COMMENT, _MOVE_LUCK = 2344, 2524, 2320


class _Reader:
    def __init__(self, blob: bytes, name: str | None, extras: _Extras) -> None:
        self.blob = blob
        self.name = name
        self.extras = extras
        self.match = Match(format="xg", source=name)
        self.match.normalisations.append(Normalisation(
            "an .xg file has no lines: locations are record numbers (FILE:RECORD:1)"))
        self.game: Game | None = None
        self.cube = 1
        self.pending_cube: CubeAnalysis | None = None
        self.pending_errors: dict[str, str] = {}
        """XG's stored error of the pending cube decision (:func:`_stored_errors`), for its analysis."""
        self.pending_player = 0
        """The player of the turn whose cube decision (not to double) is pending."""
        self.pending_comment: str | None = None
        self.footer_comment: str | None = None
        self.moves_in_game = 0
        self.first_decision = False

    def record(self, i: int) -> bytes:
        return self.blob[i * RECORD_SIZE:(i + 1) * RECORD_SIZE]

    def read(self) -> Match:
        n = len(self.blob) // RECORD_SIZE
        if not n or self.blob[8] != HEADER_MATCH:
            raise _rec_err("the game file does not start with a match header", self.name, 0, 1)
        for i in range(n):
            rec = self.record(i)
            kind = rec[8]
            if kind == HEADER_MATCH:
                if i:
                    raise _rec_err("a second match header", self.name, i * RECORD_SIZE, i + 1)
                self._match_header(rec)
            elif kind == HEADER_GAME:
                self._end_game()
                self._game_header(rec, i)
            elif kind in (CUBE, MOVE, FOOTER_GAME):
                if self.game is None:
                    raise _rec_err("a game record before any game header", self.name, i * RECORD_SIZE, i + 1)
                if kind == CUBE:
                    self._cube(rec, i)
                elif kind == MOVE:
                    self._move(rec, i, self.blob[(i + 1) * RECORD_SIZE + 8] if i + 1 < n else None)
                else:
                    self._footer(rec, i)
            elif kind == FOOTER_MATCH:
                continue
            else:
                raise _rec_err(f"unknown record type {kind}", self.name, i * RECORD_SIZE + 8, i + 1)
        self._end_game()
        m = self.match
        footer = self.extras.comment(self.match_footer_comment)
        if footer:
            m.comments.append(footer)
        for g in m.games:
            number_rows(g)
        unused = [k for k, c in enumerate(self.extras.comments) if c and k not in self.extras.used]
        if unused:
            m.normalisations.append(Normalisation(
                f"{len(unused)} comment{'s' if len(unused) > 1 else ''} of temp.xgc (number "
                f"{', '.join(str(k) for k in unused[:10])}{', ...' if len(unused) > 10 else ''}) "
                f"{'are' if len(unused) > 1 else 'is'} on no record of the match (XG keeps deleted ones): not read"))
        m.normalisations.extend(self.extras.notes)
        if self.extras.thumbnail:
            import base64

            m.properties[THUMBNAIL] = [base64.b64encode(self.extras.thumbnail).decode("ascii")]
        return m

    # ------------------------------------------------------------------ records

    def _match_header(self, rec: bytes) -> None:
        m = self.match
        p1 = _unicode(rec, _PLAYER1_U) or _ansi(rec, 9)
        p2 = _unicode(rec, _PLAYER2_U) or _ansi(rec, 50)
        m.names = (p1, p2)
        length = struct.unpack_from("<i", rec, 92)[0]
        if length == UNLIMITED:
            length = 0
        if not 0 <= length <= 999:
            raise _rec_err(f"match length {length} is out of range", self.name, 92, 1)
        m.length = length
        variation = struct.unpack_from("<i", rec, 96)[0]
        variant = VARIATIONS.get(variation)
        if variant is None:
            m.normalisations.append(Normalisation(
                f"record 1: variation {variation} (3 is LongGammon) is not known here; read under the standard rules",
                1, 1))
            variant = "standard"
        version = struct.unpack_from("<i", rec, _VERSION)[0]
        limit = struct.unpack_from("<i", rec, _CUBE_LIMIT)[0] if version >= 8 else 0
        auto_max = struct.unpack_from("<i", rec, _AUTO_DOUBLE_MAX)[0] if version >= 8 else 0
        auto = bool(rec[103])
        m.rules = MatchRules(variant=variant, crawford=bool(rec[100]), jacoby=bool(rec[101]), beavers=bool(rec[102]),
                             auto_doubles=(auto_max if 0 < auto_max <= 64 else 1) if auto else 0,
                             cube_limit=1 << limit if 0 < limit <= 15 else None)
        self.match_footer_comment = struct.unpack_from("<i", rec, _MATCH_COMMENTS + 4)[0]
        header_comment = self.extras.comment(struct.unpack_from("<i", rec, _MATCH_COMMENTS)[0])
        if header_comment:
            m.comments.append(header_comment)
        # The header's fields as tags, named and ordered as XG's own .mat export writes them: its
        # "Player 1" is the right column (player 1 here, XG's player 2), its Match ID minus XG's game ID.
        unicode = version >= 24
        event = (_unicode(rec, _EVENT_U) if unicode else "") or _ansi(rec, _EVENT_A)
        place = (_unicode(rec, _LOCATION_U) if unicode else "") or _ansi(rec, _LOCATION_A)
        round_ = (_unicode(rec, _ROUND_U) if unicode else "") or _ansi(rec, _ROUND_A)
        transcriber = _unicode(rec, _TRANSCRIBER_U) if version >= 30 else ""
        game_id = struct.unpack_from("<i", rec, _GAME_ID)[0]
        elo1, elo2 = struct.unpack_from("<2d", rec, _ELO)
        exp1, exp2 = struct.unpack_from("<2i", rec, _EXP)
        when = _datetime(struct.unpack_from("<d", rec, _DATE)[0])
        tags: list[tuple[str, str | None]] = [
            ("Site", place), ("Match ID", str(-game_id) if game_id else None), ("Event", event), ("Round", round_),
            ("Player 1", p2), ("Player 2", p1), ("Player 1 Elo", _elo(elo2, exp2)), ("Player 2 Elo", _elo(elo1, exp1)),
            ("EventDate", when.strftime("%Y.%m.%d") if when else None),
            ("EventTime", when.strftime("%H.%M") if when else None),
            ("Variation", VARIATION_TAGS.get(variation)), ("Unrated", "On" if rec[_UNRATED] else "Off")]
        if length:
            tags.append(("Crawford", "On" if rec[100] else "Off"))
        else:
            tags += [("Jacoby", "On" if rec[101] else "Off"), ("Beaver", "On" if rec[102] else "Off")]
        if 0 < limit <= 15:
            tags.append(("CubeLimit", str(1 << limit)))
        tags.append(("Transcriber", transcriber))
        m.tags.extend((k, v) for k, v in tags if v)
        # The header's fields XG's export has no tag for, kept as match properties (HEADER_PROPERTIES).
        for key, at, fmt in _HEADER_FIELDS:
            m.properties[key] = [str(struct.unpack_from(fmt, rec, at)[0])]
        if when is not None:  # the date to the second (EventTime has the minutes)
            m.properties["xg:date"] = [when.isoformat(sep=" ", timespec="milliseconds" if when.microsecond
                                                      else "seconds")]

    def _game_header(self, rec: bytes, i: int) -> None:
        s1, s2 = struct.unpack_from("<2i", rec, 12)
        for value, off in ((s1, 12), (s2, 16)):  # (as a position file's: 2^31 - 1 made records no reader takes)
            if not 0 <= value <= 1 << 16:
                raise _rec_err(f"score {value} is out of range", self.name, i * RECORD_SIZE + off, i + 1)
        number = struct.unpack_from("<i", rec, 48)[0]
        game = Game(number=number if 0 < number <= 999_999_999 else len(self.match.games) + 1, score=(s1, s2),
                    names=self.match.names, span=Span(i + 1, 1))
        if self.match.length:
            game.crawford = bool(rec[20])
        head, foot = struct.unpack_from("<2i", rec, _GAME_COMMENTS)
        comment = self.extras.comment(head)
        if comment:
            game.comments.append(comment)
        self.footer_comment = self.extras.comment(foot)
        self.match.games.append(game)
        self.game = game
        self.cube = 1
        self.pending_cube = None
        self.pending_comment = None
        self.moves_in_game = 0
        self.first_decision = True

    def _end_game(self) -> None:
        if self.game is not None and self.footer_comment:
            self.game.comments.append(self.footer_comment)
        self.footer_comment = None
        if self.game is not None and self.pending_comment:  # a comment on a last cube decision not followed
            self.game.comments.append(self.pending_comment)  # by a roll: the game's
        self.pending_comment = None

    def _set_up(self, rec: bytes, i: int, board_at: int, active_at: int, cube_at: int) -> None:
        """A game whose first decision is not at the starting position (a game begun from a set-up
        position, or the one position of an ``.xgp``): that position becomes the game's start."""
        self.first_decision = False
        assert self.game is not None
        variant = self.match.rules.variant
        boards = _boards(struct.unpack_from("<26b", rec, board_at), variant, self.name,
                         i * RECORD_SIZE + board_at, i + 1)
        code = struct.unpack_from("<i", rec, cube_at)[0]
        if not -12 <= code <= 12:
            raise _rec_err(f"cube {code} is out of range", self.name, i * RECORD_SIZE + cube_at, i + 1)
        start = Position.initial(variant)
        if boards == start.boards and code == 0:
            return
        turn = _player(struct.unpack_from("<i", rec, active_at)[0])
        self.cube = 1 << abs(code)
        self.game.start = start.replace(boards=boards, turn=turn, cube=self.cube,
                                        cube_owner=None if code == 0 else _player(code),
                                        names=self.match.names)
        self.match.normalisations.append(Normalisation(
            f"record {i + 1}: game {self.game.number} starts from a set-up position", i + 1, 1))

    def _action(self, kind: str, player: int, i: int, **kw: object) -> Action:
        a = Action(kind, player, span=Span(i + 1, 1), **kw)  # type: ignore[arg-type]
        assert self.game is not None
        self.game.actions.append(a)
        return a

    def _say_bad(self, i: int, bad: list[str]) -> None:
        """Say the stored errors of record ``i`` dropped out of range: a warning at the record, as the range check
        says the analysis figures it drops (:func:`notation.record.drop_figures`)."""
        if bad:
            self.match.normalisations.append(Normalisation(
                f"record {i + 1}: eXtreme Gammon's stored errors out of range dropped ({', '.join(bad)}): an equity "
                f"is within \u00b1{EQUITY_BOUND:g}", i + 1, 1, "warning"))

    def _cube(self, rec: bytes, i: int) -> None:
        if self.first_decision:
            self._set_up(rec, i, 36, 12, 32)
        actif, doubled, take = struct.unpack_from("<3i", rec, 12)
        player = _player(actif)
        analysis = _cube_analysis(rec, self.extras)
        comment = self.extras.comment(struct.unpack_from("<i", rec, _CUBE_COMMENT)[0])
        if doubled != 1:
            self.pending_cube = analysis  # the decision not to double: analysed with the next move
            bad: list[str] = []
            self.pending_errors = _stored_errors(rec, False, bad) if analysis is not None else {}
            self._say_bad(i, bad)
            self.pending_player = player
            self.pending_comment = _joined(self.pending_comment, comment)
            return
        a = self._action("double", player, i, value=self.cube * 2, comment=comment)
        if analysis is not None:
            bad = []
            a.analysis = Analysis(cube=analysis, producer="eXtreme Gammon", extra=_stored_errors(rec, True, bad))
            self._say_bad(i, bad)
        if take == 1:
            self.cube *= 2
            self._action("take", 1 - player, i)
        elif take == 2:
            self.cube *= 4
            self._action("beaver", 1 - player, i, value=self.cube)
        elif take == 0:
            self._action("drop", 1 - player, i)
        else:
            raise _rec_err(f"unknown answer {take} to a double", self.name, i * RECORD_SIZE + 20, i + 1)

    def _move(self, rec: bytes, i: int, next_kind: int | None) -> None:
        if self.first_decision:
            self._set_up(rec, i, 9, 64, 108)
        head = _MOVE_HEAD.unpack_from(rec, 64)  # active player, 8 from/to steps, the dice
        actif, steps, d1, d2 = head[0], head[1:9], head[9], head[10]
        player = _player(actif)
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise _rec_err(f"dice {d1}-{d2} are not a roll", self.name, i * RECORD_SIZE + 100, i + 1)
        play = _play_text(steps, 0, _BOARD.unpack_from(rec, 9), actif == 1)
        self.moves_in_game += 1
        comment = _joined(self.pending_comment, self.extras.comment(struct.unpack_from("<i", rec, _MOVE_COMMENT)[0]))
        self.pending_comment = None
        resigned = False
        if not play and next_kind == FOOTER_GAME:
            nxt = self.record(i + 1)
            winner, _, term = struct.unpack_from("<3i", nxt, 24)
            resigned = term >= 100 and _player(winner) != player  # rolled, then resigned instead of moving: legal
        if resigned:
            a = self._action("roll", player, i, dice=(d1, d2), text=f"{d1}{d2}: (resigned)", comment=comment)
        else:
            a = self._action("move", player, i, dice=(d1, d2), play=play, no_move=None if play else "",
                             text=f"{d1}{d2}: {play}".rstrip(), comment=comment)
        if not resigned and struct.unpack_from("<i", rec, 2480)[0] == 2:
            self.match.normalisations.append(Normalisation(
                f"record {i + 1}: eXtreme Gammon marks the play {play or '(none)'} with {d1}{d2} as invalid",
                i + 1, 1))
        analysis = Analysis(producer="eXtreme Gammon")
        analysis.checker = _checker_analysis(rec, self.extras)
        analysis.luck = _luck(rec)
        if analysis.checker is not None:
            bad: list[str] = []
            analysis.extra.update(_stored_move_error(rec, bad))
            self._say_bad(i, bad)
        if self.pending_cube is not None:
            analysis.cube = self.pending_cube
            analysis.extra.update(self.pending_errors)
            self.pending_cube = None
        if not analysis.is_empty():
            a.analysis = analysis

    def _footer(self, rec: bytes, i: int) -> None:
        winner, points, term = struct.unpack_from("<3i", rec, 24)
        if winner not in (1, -1):
            raise _rec_err(f"unknown winner {winner}", self.name, i * RECORD_SIZE + 24, i + 1)
        if not 0 <= points <= 1 << 16:
            raise _rec_err(f"{points} points is out of range", self.name, i * RECORD_SIZE + 28, i + 1)
        player = _player(winner)
        made = []
        if term >= 100:
            made.append(self._action("resign", 1 - player, i, value=max(1, min(3, term - 100))))
            made.append(self._action("accept", player, i))
        made.append(self._action("win", player, i, value=points))
        if self.pending_cube is not None or self.pending_comment:
            # the turn's cube decision, not followed by a roll (the game ended there): on that player's
            # action of the ending (the resignation, or the acceptance of the other's), else the result
            a = next((x for x in made if x.player == self.pending_player), made[-1])
            if self.pending_cube is not None:
                a.analysis = Analysis(cube=self.pending_cube, producer="eXtreme Gammon",
                                      extra=dict(self.pending_errors))
            a.comment = _joined(a.comment, self.pending_comment)
            self.pending_comment = None
        self.pending_cube = None


def _joined(a: str | None, b: str | None) -> str | None:
    """Two comments on one action (the turn's cube decision and its roll) as one, a blank line between."""
    if a and b:
        return f"{a}\n\n{b}"
    return a or b or None


def _elo(elo: float, games: int) -> str | None:
    """A player's rating as XG's ``.mat`` export writes it: ``1600.00/0`` (rating / games played)."""
    if not (elo == elo and 0 < elo < 1e6) or not 0 <= games < 1 << 30:
        return None
    return f"{elo:.2f}/{games}"


def _datetime(value: float) -> datetime | None:
    """A Delphi TDateTime (days since 1899-12-30), to the millisecond."""
    if not value or value != value or not 0 < value < 2_958_466:  # Delphi TDateTime, up to 9999-12-31
        return None
    return datetime(1899, 12, 30) + timedelta(milliseconds=round(value * 86_400_000))


_MOVE_UNUSED, _MOVE_ERROR, _CUBE_ERROR, _TAKE_ERROR = 2304, 2312, 200, 216
_MOVE_FLAGGED, _CUBE_FLAGGED = 2520, 288
"""XG's ``Flagged`` / ``FlaggedDouble`` bytes (the user flagged the play / the cube decision), just before the
comment index of the record: kept as ``xg:flagged`` / ``xg:flagged_cube`` in an analysis's ``extra``."""


def _stored_error(err: float, key: str, bad: list[str] | None) -> bool:
    """Whether XG's stored error ``err`` is one to keep: not "not analysed" (-1000), and in range (an equity:
    :func:`notation.analysis.figures_in_range`); one out of range is put in ``bad`` (said by the reader)."""
    if err == NOT_ANALYSED:
        return False
    if figures_in_range((err,)):
        return True
    if bad is not None:
        bad.append(f"{key} {err:g}")
    return False


def _stored_move_error(rec: bytes, bad: list[str] | None = None) -> dict[str, str]:
    """XG's own error of a move record (``ErrMove``, a loss <= 0) and its ``Unused`` flag ("does not count
    as a decision": a forced move), kept as text in the analysis's ``extra`` (``xg:err_move``,
    ``xg:unused``) for :mod:`notation.decisions`; nothing where XG did not analyse the move (-1000) or for
    a figure out of range (put in ``bad``); and ``xg:flagged`` where the user flagged the play."""
    flag = {"xg:flagged": "1"} if rec[_MOVE_FLAGGED] else {}
    err = struct.unpack_from("<d", rec, _MOVE_ERROR)[0]
    if not _stored_error(err, "xg:err_move", bad):
        return flag
    return {"xg:err_move": repr(err), "xg:unused": str(rec[_MOVE_UNUSED]), **flag}


def _stored_errors(rec: bytes, doubled: bool, bad: list[str] | None = None) -> dict[str, str]:
    """XG's own errors of a cube record: ``ErrCube`` (the doubling decision, ``xg:err_cube``) and, when
    the player doubled, ``ErrTake`` (the answer, ``xg:err_take``); nothing for a figure XG did not
    make (-1000) or one out of range (put in ``bad``); ``xg:flagged_cube`` where the user flagged the cube
    decision."""
    out = {}
    for key, at in (("xg:err_cube", _CUBE_ERROR), ("xg:err_take", _TAKE_ERROR)) if doubled else (
            ("xg:err_cube", _CUBE_ERROR),):
        err = struct.unpack_from("<d", rec, at)[0]
        if _stored_error(err, key, bad):
            out[key] = repr(err)
    if rec[_CUBE_FLAGGED]:
        out["xg:flagged_cube"] = "1"
    return out


def _luck(rec: bytes) -> float | None:
    """The luck XG gave a move record's roll, or None where it did not rate it (-1000)."""
    luck = struct.unpack_from("<d", rec, _MOVE_LUCK)[0]
    return None if luck == NOT_ANALYSED else _figure(luck)


_POINT = tuple(str(p + 1) for p in range(25))
_STEP = {(f, t): f"{_POINT[f]}/{0 if t < 0 else t + 1}" for f in range(25) for t in range(-1, 24)}
"""The text of one step, by XG's (from, to); ``to`` -1 is off: as XG's own ``.mat`` export writes it, 25
the bar and 0 off (gnubg's spelling)."""
_HIT = {k: v + "*" for k, v in _STEP.items()}
_MOVE_HEAD = struct.Struct("<i8i2i")
_BOARD = struct.Struct("<26b")
_MOVES = [struct.Struct(f"<{8 * n}b") for n in range(33)]
_LEVELS = [struct.Struct(f"<{2 * n}h") for n in range(33)]
_EVALS = [struct.Struct(f"<{7 * n}f") for n in range(33)]


def _play_text(moves: tuple[int, ...], k0: int, before: tuple[int, ...], p1: bool) -> str:
    """A play (``moves[k0:k0 + 8]``, XG's from/to pairs: 0-based in the mover's numbering, 24 the bar,
    a negative "to" off, -1 or 0/0 where it ends) in the mover's numbering, hits marked; ``before`` is
    the record's position (player 1's frame)."""
    board = list(before)
    sign = 1 if p1 else -1
    parts = []
    for k in range(k0, k0 + 8, 2):
        f, t = moves[k], moves[k + 1]
        if f == -1 or (f == 0 and t == 0) or not 0 <= f <= 24 or t > 23:
            break
        board[(0 if p1 else 25) if f == 24 else (f + 1 if p1 else 24 - f)] -= sign
        if t < 0:
            parts.append(_STEP[f, -1])
            continue
        idx = t + 1 if p1 else 24 - t
        if board[idx] == -sign:
            board[idx] = sign
            parts.append(_HIT[f, t])
        else:
            board[idx] += sign
            parts.append(_STEP[f, t])
    return " ".join(parts)


def _probs(ev: tuple[float, ...], k: int = 0) -> Probabilities:
    """XG's evaluation ``ev[k:k + 7]`` (lose backgammon, lose gammon, lose, win, win gammon, win
    backgammon, equity) as probabilities for the player who acts."""
    return Probabilities(_figure(ev[k + 3]), _figure(ev[k + 4]), _figure(ev[k + 5]), _figure(ev[k + 1]),
                         _figure(ev[k]))


def _analysed(eq: float) -> bool:
    """Whether a candidate's equity is a figure, not XG's "not analysed" (-1000)."""
    return not NOT_ANALYSED - 1 <= eq <= NOT_ANALYSED + 1


def _in_range(ev: tuple[float, ...], k: int = 0) -> bool:
    """Whether the figures of XG's evaluation ``ev[k:k + 7]`` the model keeps are in range (its probabilities and
    its equity: :func:`notation.analysis.figures_in_range`)."""
    return figures_in_range((ev[k + 6],), (ev[k], ev[k + 1], ev[k + 3], ev[k + 4], ev[k + 5]))


def _checker_analysis(rec: bytes, extras: _Extras | None = None) -> CheckerAnalysis | None:
    """The ranked candidates of a move record, or None when it holds no analysed candidate.  They
    are decoded when first used (:class:`_RecordCheckerAnalysis`): validating a match never needs
    them, and they are most of the work of reading an analysed file.  A record with rolled-out
    candidates (``extras``' rollouts) is decoded at once, with each candidate's rollout, and so is one
    with a figure out of range (for the range check to drop it and say so)."""
    n = struct.unpack_from("<i", rec, 120)[0]
    if not 0 < n <= 32:
        return None
    evs = _EVALS[n].unpack_from(rec, 1408)
    analysed = [k for k in range(0, 7 * n, 7) if _analysed(evs[k + 6])]  # (as in _decode_candidates)
    if not analysed:
        return None
    if (extras is not None and extras.rollouts and any(
            0 <= r < len(extras.rollouts) for r in struct.unpack_from(f"<{n}i", rec, _MOVE_ROLLOUTS))) or not all(
            _in_range(evs, k) for k in analysed):
        return CheckerAnalysis(*_decode_candidates(rec, extras))
    return _RecordCheckerAnalysis(rec)


def _decode_candidates(rec: bytes, extras: _Extras | None = None) -> tuple[tuple[Candidate, ...], int | None]:
    """The analysed candidates of a move record, best first, and the index of the play made: the
    candidate whose position after it (XG's ``PosPlayed``) is the record's position after the move;
    with ``extras``, each rolled-out candidate's rollout."""
    n = struct.unpack_from("<i", rec, 120)[0]
    cands: list[Candidate] = []
    index = None
    before = struct.unpack_from("<26b", rec, 9)
    p1 = struct.unpack_from("<i", rec, 64)[0] == 1
    end = rec[35:61]
    moves = _MOVES[n].unpack_from(rec, 1024)
    levels = _LEVELS[n].unpack_from(rec, 1280)
    evs = _EVALS[n].unpack_from(rec, 1408)
    for c in range(n):
        k = 7 * c
        eq = evs[k + 6]
        if not _analysed(eq):
            continue
        if index is None and rec[192 + 26 * c:218 + 26 * c] == end:
            index = len(cands)
        level = levels[2 * c]
        rollout = None
        if extras is not None:
            rollout = extras.rollout(struct.unpack_from("<i", rec, _MOVE_ROLLOUTS + 4 * c)[0], cube=False)
        cands.append(Candidate(_play_text(moves, 8 * c, before, p1), _figure(eq), _probs(evs, k),
                               _level(level), None, rollout))
    return tuple(cands), index


def _lazy(cls: type[T], decode: Callable[[bytes], tuple[object, ...]]) -> Callable[[bytes], T]:
    """``make(rec)``: a ``cls`` (a frozen record class with slots) whose fields are ``decode(rec)``,
    computed when a field is first read.  It is equal to (and hashes as) the plain object with the same
    fields, shows as one, and copies and pickles as one."""
    names = [f.name for f in fields(cls)]
    slots = [cls.__dict__[n] for n in names]

    def fill(self: T) -> None:
        for slot, value in zip(slots, decode(self._rec), strict=True):  # type: ignore[attr-defined]
            slot.__set__(self, value)

    def field(slot: Any) -> property:
        def get(self: T) -> object:
            try:
                return slot.__get__(self)
            except AttributeError:
                fill(self)
                return slot.__get__(self)
        return property(get)

    def values(self: T) -> tuple[object, ...]:
        return tuple(getattr(self, n) for n in names)

    def plain(self: T) -> T:
        return cls(*values(self))

    def eq(self: T, other: object) -> bool:
        if not isinstance(other, cls):
            return NotImplemented
        return values(self) == tuple(getattr(other, n) for n in names)

    def init(self: T, rec: bytes) -> None:
        object.__setattr__(self, "_rec", rec)

    body: dict[str, Any] = {n: field(sl) for n, sl in zip(names, slots, strict=True)}
    body.update(__slots__=("_rec",), __init__=init, __eq__=eq, __hash__=lambda self: hash(plain(self)),
                __repr__=lambda self: repr(plain(self)), __reduce__=lambda self: (cls, values(self)),
                __doc__=f"A {cls.__name__} decoded from its record when first used.")
    return type(f"_Record{cls.__name__}", (cls,), body)  # type: ignore[return-value]


_RecordCheckerAnalysis = _lazy(CheckerAnalysis, _decode_candidates)


def _cube_analysis(rec: bytes, extras: _Extras | None = None) -> CubeAnalysis | None:
    """The doubling decision analysed in a cube record, or None where XG did not analyse it (its
    level of analysis is -1: the opening roll, a dead cube, a decision XG was not asked about; the
    record's figures are then zeros, not an analysis).  Decoded when first used, or at once with its
    rollout when it was rolled out, or with a figure out of range (for the range check to drop it and say so)."""
    if struct.unpack_from("<i", rec, _CUBE_ANALYSED)[0] < 0:
        return None
    rollout = None if extras is None else extras.rollout(struct.unpack_from("<i", rec, _CUBE_ROLLOUT)[0], cube=True)
    if rollout is not None or not (figures_in_range(struct.unpack_from("<3f", rec, 152)) and _in_range(
            struct.unpack_from("<7f", rec, 124)) and _in_range(struct.unpack_from("<7f", rec, 168))):
        figures = _decode_cube(rec)
        # (_decode_cube's tuple is CubeAnalysis's fields in order: neither their types nor its length are in its type)
        return CubeAnalysis(*figures[:7], rollout, *figures[8:])  # type: ignore[arg-type, call-arg]
    return _RecordCubeAnalysis(rec)


def _decode_cube(rec: bytes) -> tuple[object, ...]:
    """The fields of a cube record's :class:`CubeAnalysis` (XG's ``Doubled``, an ``EngineStructDoubleAction``
    at byte 64): ``equB``, ``equDouble``, ``equDrop`` (the three equities), ``Level``, ``Eval`` (the no-double
    line: chances and cubeless equity) and ``EvalDouble`` (the double/take line's)."""
    base = 64
    level = struct.unpack_from("<i", rec, base + 28)[0]
    nd, dt, dp = struct.unpack_from("<3f", rec, base + 88)
    ev = struct.unpack_from("<7f", rec, base + 60)
    ev_double = struct.unpack_from("<7f", rec, base + 104)
    return (_figure(nd), _figure(dt), _figure(dp), None, _probs(ev), _level(level), _figure(ev[6]), None,
            _probs(ev_double), _figure(ev_double[6]))


_RecordCubeAnalysis = _lazy(CubeAnalysis, _decode_cube)
