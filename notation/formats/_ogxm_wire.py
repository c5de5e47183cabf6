"""OGXM at the level of bytes: the v2 container, its primitives and its records as plain data.

This module knows the layout and nothing of the match model (:mod:`notation.formats.ogxm` maps the two).
A record decodes to a ``dict`` keyed by OGXM's own field names, and encodes back from one, so that
``encode_x(decode_x(b)) == b`` for every record a conforming writer makes.  Fields a record's presence
mask announces beyond the ones known here are kept whole (``"_more"``: their mask bits and bytes, which
follow the known fields) and written back as they came.

The container (v2): a 16-byte header (``OGXM``, u16 major = 2, u16 minor, u16 and u16 the version a
reader needs, u32 the file's size), then sections (four letters, u32 length, u8 flags whose bit 0 says
*critical*, the payload), a ``CSUM`` section holding a CRC-32 of every byte before its own header, and
the trailer ``END!``.  Integers are little-endian.  Primitives: a minimal unsigned LEB128 varint (at most
32 bits, 64 for masks and instants), a record (varint length, then a varint presence mask, the mandatory
fields and the present optional fields by ascending bit), a string (varint length and UTF-8, at most
4,096 bytes), an equity (i32, millionths), a loss (u32, millionths), a probability (u16, ten-thousandths).

Every decoding error is a :class:`~notation.errors.ParseError` naming the byte offset in the file.
Nothing here reads more than the bytes it was given or allocates more than a few times their size.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, NoReturn

from .._term import utf8
from ..errors import ParseError

MAGIC = b"OGXM"
HEADER = 16
SECTION_HEADER = 9
END = b"END!"
MAX_STRING = 4096
MAX_ALTERNATIVES = 1024
MAX_GAMES = 1000
MAX_PLIES = 1500
"""Plies in one game (v2's limit)."""
MAX_TOTAL_PLIES = 100_000
MAX_ANNOTATIONS = 4096
MAX_FILE = 16 << 20
"""The largest OGXM file read (a real match with its analysis is a few hundred kilobytes)."""
MAX_SECTIONS = 8192
CRITICAL = 1

KNOWN_SECTIONS = frozenset((b"MTCH", b"GAME", b"ANAL", b"DECS", b"SIGN", b"CLCK", b"VIDO", b"ANNO", b"MSIG",
                            b"CSUM"))
CRITICAL_SECTIONS = frozenset((b"MTCH", b"GAME", b"CSUM"))

DICE = ((1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 3), (3, 4),
        (3, 5), (3, 6), (4, 4), (4, 5), (4, 6), (5, 5), (5, 6), (6, 6))
"""The roll of each dice action id (0-20), low die first."""
DICE_ACTION = {d: i for i, d in enumerate(DICE)} | {(b, a): i for i, (a, b) in enumerate(DICE)}
"""The action id of a roll, either order."""

DOUBLE, TAKE, DROP, GAME_OVER, MATCH_OVER, FINAL, RESIGN_GAME, RESIGN_MATCH, FORFEIT, NULL, SET_POSITION = (
    21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)
BEAVER, RACCOON, SETTLE, RESERVED, CUBE_SET, PASS, ESCAPE = 32, 33, 34, 35, 36, 37, 63
MARKERS = (GAME_OVER, MATCH_OVER, FINAL, NULL)
"""Plies that nobody makes (their seat is always 0)."""

KIND_CHECKER, KIND_CUBE, KIND_RESIGN, KIND_ROLL = range(4)

FIELD_NAMES = frozenset((
    "action action_ext algorithm alt_index alternatives alternatives_total analysis analysis_id at author "
    "auto_doubles best_equity black_name black_profile board budget_ms checker_ply city color complete "
    "completed_at correct_value country coverage covers crawford_before_start cube_efficiency cube_limit "
    "cube_limit_mode cube_limit_resolved cube_owner cube_ply cube_rule cube_value cubeful_take_value "
    "cubeless_equity currency date_precision deep_searched dials dice digest double_pass_equity "
    "double_take_equity drawings duration_ms engine_build equity equity_loss event event_url event_year "
    "exact_bearoff illegal initial_board initial_cube_owner initial_cube_value is_free_cube is_last_game "
    "is_optional is_played jacoby_mode jacoby_resolved key key_id kind lang level luck match_digest match_length "
    "match_policy match_ref met_id model_digest model_id model_name move_ply no_double_equity no_rollout "
    "player_seat ply_ref points_won position_tags preset probs producer producer_ref public_key race_order rated "
    "rating rating_system ref resign_error resign_value result rollout rollout_budget_on rollout_se rollouts_done "
    "round rules scope score_final score_start seat seed settle_value shape signature signed_at site source "
    "source_band sources stage started_at steps table tables take_point take_resign_error termination to "
    "top_deep top_deep_accept top_deep_keep top_deep_threshold trials truncation_depth user_id value "
    "variance_reduction variant verdict white_name white_profile window_searched winner").split())
"""OGXM's field names, which an annotation key may not be (the reference codec refuses such a record)."""

Ply = tuple[int, int, tuple[int, ...], "dict[str, Any] | None", int]
"""One ply: its action id, its seat (0 White, 1 Black), its step bytes (``from | pips << 5``), its
extras record (or None) and its byte offset in the file."""


# --------------------------------------------------------------------------- errors


def fail(message: str, at: int, name: str | None) -> NoReturn:
    raise ParseError(f"{message} (byte {at})", file=name)


# --------------------------------------------------------------------------- reading primitives


@dataclass(slots=True, eq=False)
class In:
    """A cursor over ``data[pos:end]``; offsets are the file's (``data`` is the whole file)."""

    data: bytes
    pos: int
    end: int
    name: str | None
    base: int = 0
    """Added to every offset an error names (``data``'s offset in the file)."""

    def fail(self, message: str, at: int | None = None) -> NoReturn:
        fail(message, self.base + (self.pos if at is None else at), self.name)

    def u8(self) -> int:
        p = self.pos
        if p >= self.end:
            self.fail("the record ends early: a byte is missing")
        self.pos = p + 1
        return self.data[p]

    def take(self, n: int) -> bytes:
        p = self.pos
        if n > self.end - p:
            self.fail(f"the record ends early: {n} bytes are needed, {self.end - p} are left")
        self.pos = p + n
        return self.data[p:p + n]

    def varint(self, bits: int = 32) -> int:
        data, p, end = self.data, self.pos, self.end
        start = p
        value = shift = 0
        while True:
            if p >= end:
                self.fail("bad varint: the record ends inside it", start)
            b = data[p]
            p += 1
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                if b == 0 and p - start > 1:
                    self.fail("bad varint: overlong encoding (not minimal)", start)
                break
            shift += 7
            if shift >= bits + 7:
                self.fail(f"bad varint: longer than {bits} bits", start)
        if value >> bits:
            self.fail(f"bad varint: {value} does not fit in {bits} bits", start)
        self.pos = p
        return value

    def i32(self) -> int:
        return int.from_bytes(self.take(4), "little", signed=True)

    def u32(self) -> int:
        return int.from_bytes(self.take(4), "little")

    def u16(self) -> int:
        return int.from_bytes(self.take(2), "little")

    def u64(self) -> int:
        return int.from_bytes(self.take(8), "little")

    def string(self) -> str:
        at = self.pos
        n = self.varint()
        if n > MAX_STRING:
            self.fail(f"a string of {n} bytes (OGXM allows {MAX_STRING})", at)
        raw = self.take(n)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            self.fail(f"a string that is not UTF-8 (byte 0x{raw[e.start]:02x})", at + (self.pos - at - n) + e.start)

    def equity(self) -> int:
        return self.i32()

    def probs(self) -> tuple[int, int, int, int, int]:
        return struct.unpack("<5H", self.take(10))  # type: ignore[return-value]

    def board(self) -> tuple[int, ...]:
        return struct.unpack("<26b", self.take(26))

    def record(self) -> tuple[In, int]:
        """A record: a cursor over its body (after the mask) and its presence mask."""
        at = self.pos
        n = self.varint()
        if n > self.end - self.pos:
            self.fail(f"a record of {n} bytes runs past its section ({self.end - self.pos} bytes are left)", at)
        body = In(self.data, self.pos, self.pos + n, self.name, self.base)
        self.pos += n
        mask = body.varint(64)
        return body, mask

    def more(self, mask: int, known: int) -> tuple[int, bytes] | None:
        """The fields past bit ``known - 1`` (unknown here): their mask bits and bytes (the rest of the record)."""
        high = mask >> known
        if not high:
            if self.pos != self.end:
                self.fail(f"{self.end - self.pos} bytes left over at the end of a record")
            return None
        rest = self.data[self.pos:self.end]
        self.pos = self.end
        return high, rest


# --------------------------------------------------------------------------- writing primitives


def varint(n: int) -> bytes:
    if n < 0:
        raise ValueError(f"a varint cannot hold {n}")
    if n < 0x80:
        return bytes((n,))
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


_VARINT1 = [bytes((i,)) for i in range(128)]


def record(mandatory: bytes, fields: dict[int, bytes], more: tuple[int, bytes] | None = None,
           known: int = 64) -> bytes:
    """A record: the mask, the mandatory bytes and ``fields`` (bit → bytes) by ascending bit; ``more``
    (from :meth:`In.more`) after them."""
    mask = 0
    parts = [mandatory]
    for bit in sorted(fields):
        mask |= 1 << bit
        parts.append(fields[bit])
    if more is not None:
        mask |= more[0] << known
        parts.append(more[1])
    body = varint(mask) + b"".join(parts)
    return varint(len(body)) + body


def string(s: str) -> bytes:
    raw = utf8(s)
    if len(raw) > MAX_STRING:
        raise ValueError(f"a string of {len(raw)} bytes (OGXM allows {MAX_STRING})")
    return varint(len(raw)) + raw


def i32(n: int) -> bytes:
    return struct.pack("<i", max(-0x80000000, min(0x7FFFFFFF, n)))


def u32(n: int) -> bytes:
    return struct.pack("<I", max(0, min(0xFFFFFFFF, n)))


def probs(p: tuple[int, ...]) -> bytes:
    return struct.pack("<5H", *p)


def board(b: tuple[int, ...] | list[int]) -> bytes:
    return struct.pack("<26b", *b)


def section(kind: bytes, payload: bytes, critical: bool) -> bytes:
    return kind + struct.pack("<IB", len(payload), CRITICAL if critical else 0) + payload


# --------------------------------------------------------------------------- the container


@dataclass(slots=True, eq=False)
class Section:
    """One section of a file: its type, flags, payload, and where its header starts."""

    kind: bytes
    flags: int
    payload: bytes
    at: int

    @property
    def start(self) -> int:
        """The byte offset of the payload."""
        return self.at + SECTION_HEADER

    def raw(self) -> bytes:
        return section(self.kind, self.payload, bool(self.flags & CRITICAL))


@dataclass(slots=True, eq=False)
class Container:
    """A v2 file split into sections (``CSUM`` and ``END!`` checked and left out)."""

    major: int
    minor: int
    need_major: int
    need_minor: int
    size: int
    sections: list[Section]
    checksum: str | None
    """``crc32`` (verified), the name of another algorithm (not verified), or None (no CSUM)."""


READER_MAJOR = 2
READER_MINOR = 2
"""The newest v2 this reader knows (a file that needs a newer reader is refused)."""


def file_size(data: bytes | bytearray | memoryview, at: int = 0) -> int | None:
    """The size a v2 header at ``at`` announces, or None when fewer than 16 bytes are there."""
    if len(data) - at < HEADER:
        return None
    return int.from_bytes(data[at + 12:at + 16], "little")


def split(data: bytes, name: str | None, base: int = 0) -> Container:
    """The sections of the v2 file ``data`` (``base``: its offset in a stream, added to every offset an
    error names).  Checks the header, the framing, the order of the critical sections, the critical
    bit of every unknown section (refused) and the checksum (a mismatch names the ``CSUM`` section)."""
    n = len(data)

    def bad(message: str, at: int) -> NoReturn:
        fail(message, base + at, name)

    if n < HEADER:
        bad(f"truncated OGXM file: {n} bytes, the header alone is {HEADER}", n)
    if n > MAX_FILE:
        bad(f"an OGXM file of {n} bytes: this reader reads files up to {MAX_FILE >> 20} MB", 12)
    if data[:4] != MAGIC:
        bad("not an OGXM file: it does not start with 'OGXM'", 0)
    major, minor, need_major, need_minor, size = struct.unpack_from("<HHHHI", data, 4)
    if major != 2:
        bad(f"OGXM version {major}.{minor}: this reader reads version 2 here", 4)
    if need_major > READER_MAJOR or (need_major == READER_MAJOR and need_minor > READER_MINOR):
        bad(f"the file needs an OGXM {need_major}.{need_minor} reader; this one reads up to "
            f"{READER_MAJOR}.{READER_MINOR}", 8)
    if size != n:
        if size > n:
            bad(f"truncated OGXM file: the header says {size} bytes, there are {n}", n)
        bad(f"the header says the file is {size} bytes, but {n - size} more follow", 12)
    pos = HEADER
    sections: list[Section] = []
    checksum: str | None = None
    seen_body = False
    while True:
        if n - pos < 4:
            bad("truncated OGXM file: the 'END!' trailer is missing", pos)
        kind = data[pos:pos + 4]
        if kind == END:
            if pos + 4 != n:
                bad(f"{n - pos - 4} bytes after the 'END!' trailer", pos + 4)
            break
        if n - pos < SECTION_HEADER:
            bad("truncated section header", pos)
        length, flags = struct.unpack_from("<IB", data, pos + 4)
        start = pos + SECTION_HEADER
        if length > n - start:
            bad(f"section {_kind(kind)} claims {length} bytes; {n - start} are left in the file", pos + 4)
        if checksum is not None:
            bad(f"section {_kind(kind)} after the checksum (CSUM must be last)", pos)
        if kind == b"CSUM":
            checksum = _verify_csum(data, pos, start, length, name, base)
        elif kind not in KNOWN_SECTIONS:
            if flags & CRITICAL:
                bad(f"unknown critical section {_kind(kind)}: this reader cannot read the file", pos)
            if not all(0x20 < c < 0x7F for c in kind):
                bad(f"not a section type: {_kind(kind)}", pos)
        elif kind == b"MTCH":
            if sections or seen_body:
                bad("the MTCH section must come first", pos)
        elif kind == b"GAME":
            if not sections or any(s.kind not in (b"MTCH", b"GAME") and s.kind in KNOWN_SECTIONS
                                   for s in sections):
                bad("a GAME section out of place (GAME sections follow MTCH)", pos)
        seen_body = True
        if kind in CRITICAL_SECTIONS and not flags & CRITICAL:
            bad(f"section {_kind(kind)} is not marked critical", pos + 8)
        if kind != b"CSUM":
            if len(sections) == MAX_SECTIONS:
                bad(f"more than {MAX_SECTIONS} sections", pos)
            sections.append(Section(kind, flags, data[start:start + length], base + pos))
        pos = start + length
    if not sections or sections[0].kind != b"MTCH":
        bad("no MTCH section", HEADER)
    return Container(major, minor, need_major, need_minor, size, sections, checksum)


def _kind(kind: bytes) -> str:
    return repr(kind.decode("latin-1"))


def _verify_csum(data: bytes, at: int, start: int, length: int, name: str | None, base: int) -> str:
    body, mask = In(data, start, start + length, name).record()
    algorithm = body.varint()
    dlen = body.varint()
    digest = body.take(dlen)
    if algorithm != 0:
        return f"algorithm {algorithm}"
    if dlen != 4:
        fail(f"a CRC-32 checksum of {dlen} bytes (it has 4)", base + start, name)
    want = int.from_bytes(digest, "little")
    got = zlib.crc32(memoryview(data)[:at]) & 0xFFFFFFFF
    if want != got:
        fail(f"bad checksum: the CSUM section at byte {base + at} says {want:08x}, the {at} bytes before it "
             f"give {got:08x}", base + at, name)
    return "crc32"


def assemble(sections: list[bytes], minor: int = 0, need_minor: int = 0) -> bytes:
    """A v2 file of the framed ``sections`` (each made by :func:`section`), with a CRC-32 ``CSUM`` and
    the trailer."""
    csum_len = SECTION_HEADER + 1 + 1 + 1 + 1 + 4 + len(END)  # record: length, mask, algorithm, length, u32
    size = HEADER + sum(len(s) for s in sections) + csum_len
    body = b"".join([MAGIC, struct.pack("<HHHHI", 2, minor, 2, need_minor, size), *sections])
    crc = zlib.crc32(body) & 0xFFFFFFFF
    csum = section(b"CSUM", record(b"\x00\x04" + struct.pack("<I", crc), {}), True)
    out = body + csum + END
    assert len(out) == size
    return out


# --------------------------------------------------------------------------- records as tables


class Field(NamedTuple):
    """One optional field of a record: its key in the record's ``dict``, how it is read, and how it is
    written (None: the field is left out, as a flag that is not set)."""

    key: str
    read: Callable[[In], Any]
    write: Callable[[Any], bytes | None]


Schema = dict[int, Field]
"""A record's optional fields by bit, in ascending order (the order they follow one another)."""


def _schema(fields: dict[int, Field]) -> Schema:
    return dict(sorted(fields.items()))


def read_fields(body: In, mask: int, schema: Schema, known: int, out: dict[str, Any]) -> dict[str, Any]:
    """Read into ``out`` the fields of ``schema`` that ``mask`` announces; the fields past bit ``known - 1``
    are kept whole (``"_more"``)."""
    for bit, f in schema.items():
        if mask >> bit & 1:
            out[f.key] = f.read(body)
    more = body.more(mask, known)
    if more:
        out["_more"] = more
    return out


def write_record(mandatory: bytes, d: dict[str, Any], schema: Schema, known: int) -> bytes:
    """The record of ``d``: ``mandatory``, the fields of ``schema`` that ``d`` holds, then ``d``'s
    ``"_more"`` (see :func:`read_fields`)."""
    fields: dict[int, bytes] = {}
    for bit, f in schema.items():
        if f.key in d:
            raw = f.write(d[f.key])
            if raw is not None:
                fields[bit] = raw
    return record(mandatory, fields, d.get("_more"), known)


Codec = tuple[Callable[[In], Any], Callable[[Any], "bytes | None"]]


def _set(cur: In) -> bool:
    return True


def _flag(v: Any) -> bytes | None:
    return b"" if v else None


def _u16(v: int) -> bytes:
    return struct.pack("<H", v)


def _u64(v: int) -> bytes:
    return struct.pack("<Q", v)


def _same(v: bytes) -> bytes:
    return v


def _long(cur: In) -> int:
    return cur.varint(64)


def _raw(n: int) -> Codec:
    """``n`` bytes kept as they are (digests, identifiers)."""
    return (lambda cur: cur.take(n)), _same


def _pair_read(cur: In) -> tuple[int, int]:
    return cur.varint(), cur.varint()


def _pair_write(v: tuple[int, int]) -> bytes:
    return varint(v[0]) + varint(v[1])


FLAG: Codec = (_set, _flag)
VARINT: Codec = (In.varint, varint)
LONG: Codec = (_long, varint)
STRING: Codec = (In.string, string)
EQUITY: Codec = (In.equity, i32)
LOSS: Codec = (In.u32, u32)
U16: Codec = (In.u16, _u16)
U64: Codec = (In.u64, _u64)
PROBS: Codec = (In.probs, probs)
BOARD: Codec = (In.board, board)
PAIR: Codec = (_pair_read, _pair_write)


def _table(fields: dict[int, tuple[str, Codec]]) -> Schema:
    return _schema({bit: Field(key, *codec) for bit, (key, codec) in fields.items()})


def _sub(schema: Schema, known: int) -> Codec:
    """A record inside a record, with no mandatory fields."""

    def read(cur: In) -> dict[str, Any]:
        body, mask = cur.record()
        return read_fields(body, mask, schema, known, {})

    def write(v: dict[str, Any]) -> bytes:
        return write_record(b"", v, schema, known)

    return read, write


def _count(cur: In, size: int) -> int:
    """A list's length, refused when its items could not fit in what is left."""
    at = cur.pos
    n = cur.varint()
    if n * size > cur.end - cur.pos:
        cur.fail(f"a list of {n} items cannot fit in the {cur.end - cur.pos} bytes left", at)
    return n


def _list(size: int, item: Codec) -> Codec:
    """A list: its length, then its items (each at least ``size`` bytes), as a tuple."""
    read_item, write_item = item

    def read(cur: In) -> tuple[Any, ...]:
        return tuple(read_item(cur) for _ in range(_count(cur, size)))

    def write(v: Any) -> bytes:
        return varint(len(v)) + b"".join(write_item(x) or b"" for x in v)

    return read, write


def _steps(cur: In, n: int) -> tuple[int, ...]:
    raw = cur.take(n)
    for i, b in enumerate(raw):
        if not _STEP_OK[b]:
            cur.fail(f"step byte 0x{b:02x} is not a move", cur.pos - n + i)
    return tuple(raw)


# --------------------------------------------------------------------------- MTCH

_MTCH_STRINGS = {0: "white_name", 1: "black_name", 12: "event", 15: "stage", 17: "table", 18: "city",
                 19: "country", 20: "event_url", 21: "site", 22: "match_ref"}
_MTCH_INTS = {2: "rules", 3: "cube_limit", 6: "result", 7: "source", 10: "player_seat", 13: "event_year",
              14: "date_precision", 16: "round"}
_MTCH_LONGS = {8: "started_at", 9: "completed_at"}
_MTCH_FLAGS = {11: "crawford_before_start", 25: "rated"}
_MTCH_PAIRS = {4: "score_start", 5: "score_final"}
_MTCH_PROFILES = {23: "white_profile", 24: "black_profile"}
MTCH_FIELDS: dict[int, str] = {**_MTCH_STRINGS, **_MTCH_INTS, **_MTCH_LONGS, **_MTCH_FLAGS, **_MTCH_PAIRS,
                               **_MTCH_PROFILES}
"""MTCH's optional fields by bit."""
MTCH_BITS = {v: k for k, v in MTCH_FIELDS.items()}
PROFILE_FIELDS = {0: "user_id", 1: "rating", 2: "rating_system", 3: "country", 4: "kind"}
_PROFILE = _table({bit: (key, VARINT if bit in (1, 4) else STRING) for bit, key in PROFILE_FIELDS.items()})
_MTCH_CODECS: list[tuple[dict[int, str], Codec]] = [
    (_MTCH_STRINGS, STRING), (_MTCH_INTS, VARINT), (_MTCH_LONGS, LONG), (_MTCH_FLAGS, FLAG), (_MTCH_PAIRS, PAIR),
    (_MTCH_PROFILES, _sub(_PROFILE, 5))]
_MTCH = _table({bit: (key, codec) for keys, codec in _MTCH_CODECS for bit, key in keys.items()})


def decode_mtch(payload: bytes, at: int, name: str | None) -> dict[str, Any]:
    body, mask = _whole(payload, at, name)
    return read_fields(body, mask, _MTCH, 26, {"match_length": body.varint(), "variant": body.varint()})


def encode_mtch(m: dict[str, Any]) -> bytes:
    return write_record(varint(m["match_length"]) + varint(m["variant"]), m, _MTCH, 26)


def cursor(payload: bytes, at: int, name: str | None) -> In:
    """A cursor over a section's payload (``at``: the payload's offset in the file, for errors)."""
    return In(payload, 0, len(payload), name, at)


# --------------------------------------------------------------------------- GAME

_EXTRAS_KNOWN = 9
GAME_FIELDS = {0: "winner", 1: "points_won", 2: "is_last_game", 3: "initial_board", 4: "initial_cube_value",
               5: "initial_cube_owner", 6: "auto_doubles", 7: "termination"}
_GAME = _table({bit: (key, FLAG if bit == 2 else BOARD if bit == 3 else VARINT) for bit, key in GAME_FIELDS.items()})
_STEP_OK = bytes(1 if (b & 0x1F) <= 25 and 1 <= b >> 5 <= 6 else 0 for b in range(256))
"""Which step bytes are a move: from 0-25, 1-6 pips (v2 refuses 0 and 7 pips and a start past 25)."""
_MOVE_BYTES = tuple(4 if a == b else 2 for a, b in DICE)


def _dice_read(cur: In) -> tuple[int, int]:
    d1, d2 = cur.u8(), cur.u8()
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        cur.fail(f"dice {d1}-{d2} are not a roll", cur.pos - 2)
    return d1, d2


def _steps_read(cur: In) -> tuple[int, ...]:
    return _steps(cur, cur.varint())


def _steps_write(v: tuple[int, ...]) -> bytes:
    return varint(len(v)) + bytes(v)


_EXTRAS = _table({0: ("dice", (_dice_read, bytes)), 1: ("resign_value", VARINT), 2: ("cube_value", VARINT),
                  3: ("illegal", FLAG), 4: ("settle_value", EQUITY), 5: ("steps", (_steps_read, _steps_write)),
                  6: ("board", BOARD), 7: ("action_ext", VARINT), 8: ("cube_owner", VARINT)})


def decode_game(payload: bytes, at: int, name: str | None) -> tuple[dict[str, Any], list[Ply]]:
    cur = cursor(payload, at, name)
    body, mask = cur.record()
    g = read_fields(body, mask, _GAME, 8, {})
    plies: list[Ply] = []
    data, end = payload, len(payload)
    pos = cur.pos
    ok = _STEP_OK
    move_bytes = _MOVE_BYTES
    while pos < end:
        if len(plies) == MAX_PLIES:
            fail(f"more than {MAX_PLIES} plies in one game (OGXM allows {MAX_PLIES})", at + pos, name)
        start = pos
        b0 = data[pos]
        pos += 1
        action = b0 & 0x3F
        steps: tuple[int, ...] = ()
        if action <= 20:
            n = move_bytes[action]
            got = data[pos:pos + n]
            k = got.find(0)
            if k >= 0:
                got = got[:k]
                used = k + 1
            else:
                used = n
            if pos + used > end:
                fail("the game ends inside a ply's steps", at + end, name)
            for i, b in enumerate(got):
                if not ok[b]:
                    fail(f"step byte 0x{b:02x} is not a move (from {b & 0x1F}, {b >> 5} pips)", at + pos + i, name)
            steps = tuple(got)
            pos += used
        elif action == RESERVED:
            fail("action 35 is reserved", at + start, name)
        extras = None
        if b0 & 0x80:
            cur.pos = pos
            extras = _decode_extras(cur, action)
            pos = cur.pos
            if action == ESCAPE:
                if "action_ext" not in extras:
                    fail("an escaped action (63) without its id", at + start, name)
        plies.append((action, b0 >> 6 & 1, steps, extras, at + start))
    return g, plies


def _decode_extras(cur: In, action: int) -> dict[str, Any]:
    first = cur.pos
    body, mask = cur.record()
    if 38 <= action <= 62:  # an action nobody here assigns: its extras are its producer's, kept whole
        return {"_raw": cur.data[first:cur.pos]}
    return read_fields(body, mask, _EXTRAS, _EXTRAS_KNOWN, {})


def encode_game(g: dict[str, Any], plies: list[Any]) -> bytes:
    out = [write_record(b"", g, _GAME, 8)]
    for ply in plies:  # a ply (action, seat, steps, extras), or its bytes
        out.append(ply if isinstance(ply, bytes) else encode_ply(ply[0], ply[1], ply[2], ply[3]))
    return b"".join(out)


def encode_ply(action: int, seat: int, steps: tuple[int, ...], extras: dict[str, Any] | None) -> bytes:
    head = (action if action < 64 else ESCAPE) | seat << 6 | (0x80 if extras else 0)
    out = bytes((head,))
    if action <= 20:
        out += bytes(steps)
        if len(steps) < _MOVE_BYTES[action]:
            out += b"\x00"
    if extras:
        out += encode_extras(extras)
    return out


def encode_extras(x: dict[str, Any]) -> bytes:
    if "_raw" in x:
        return x["_raw"]  # type: ignore[no-any-return]
    return write_record(b"", x, _EXTRAS, _EXTRAS_KNOWN)


# --------------------------------------------------------------------------- levels

_ROLLOUT = {0: "trials", 1: "truncation_depth", 2: "move_ply", 3: "variance_reduction", 4: "seed", 5: "budget_ms",
            6: "match_policy"}
_LEVEL = _table({0: ("preset", STRING), 1: ("checker_ply", VARINT), 2: ("cube_ply", VARINT),
                 3: ("rollout", _sub(_table({bit: (key, U64 if bit == 4 else VARINT) for bit, key in _ROLLOUT.items()}),
                                     7)),
                 4: ("no_rollout", FLAG)})
LEVEL = _sub(_LEVEL, 5)
decode_level, encode_level = LEVEL


# --------------------------------------------------------------------------- ANAL

_ANAL_STRINGS = {5: "model_id", 6: "model_name", 8: "engine_build", 11: "met_id", 12: "tables"}
_ANAL_INTS = {1: "producer", 9: "currency", 16: "duration_ms"}
_ANAL_LONGS = {14: "started_at", 15: "completed_at"}
_DIALS = {0: "jacoby_resolved", 1: "jacoby_mode", 2: "cube_limit_resolved", 3: "cube_limit_mode",
          4: "exact_bearoff", 5: "race_order", 6: "top_deep", 7: "top_deep_threshold", 8: "rollout_budget_on",
          9: "cube_rule", 10: "top_deep_keep", 11: "top_deep_accept"}
_DIAL_FLAGS = (0, 4, 5, 6, 8)


def _unless_false(codec: Codec) -> Codec:
    """A dial is left out when it is ``False`` (whatever its kind), and written otherwise."""
    read, write = codec
    return read, lambda v: None if v is False else write(v)


_DIAL_TABLE = _table({bit: (key, _unless_false((_set, lambda v: b"") if bit in _DIAL_FLAGS else
                                               (In.u32, u32) if bit == 7 else VARINT))
                      for bit, key in _DIALS.items()})
_ANAL = _table({0: ("match_digest", _raw(32)), 2: ("level", LEVEL), 3: ("complete", FLAG),
                4: ("coverage", _list(1, VARINT)), 7: ("model_digest", _raw(32)), 10: ("cube_efficiency", U16),
                13: ("dials", _sub(_DIAL_TABLE, 12)), 17: ("sources", _list(16, _raw(16))),
                **{bit: (key, STRING) for bit, key in _ANAL_STRINGS.items()},
                **{bit: (key, VARINT) for bit, key in _ANAL_INTS.items()},
                **{bit: (key, LONG) for bit, key in _ANAL_LONGS.items()}})


def decode_anal(payload: bytes, at: int, name: str | None) -> dict[str, Any]:
    body, mask = _whole(payload, at, name)
    return read_fields(body, mask, _ANAL, 18, {"analysis_id": body.take(16)})


def encode_anal(a: dict[str, Any]) -> bytes:
    return write_record(a["analysis_id"], a, _ANAL, 18)


def _whole(payload: bytes, at: int, name: str | None) -> tuple[In, int]:
    cur = cursor(payload, at, name)
    body, mask = cur.record()
    if cur.pos != cur.end:
        cur.fail(f"{cur.end - cur.pos} bytes after the record")
    return body, mask


# --------------------------------------------------------------------------- DECS

_ALTERNATIVE = _table({0: ("probs", PROBS), 1: ("level", LEVEL), 2: ("is_played", FLAG), 3: ("rollout_se", EQUITY),
                       4: ("cubeless_equity", EQUITY)})


def _decode_alternatives(body: In) -> list[dict[str, Any]]:
    at = body.pos
    n = _count(body, 2)
    if n > MAX_ALTERNATIVES:
        body.fail(f"{n} alternatives (OGXM allows {MAX_ALTERNATIVES})", at)
    alts = []
    for _ in range(n):
        ab, amask = body.record()
        k = ab.varint()
        if k > 8:
            ab.fail(f"an alternative of {k} steps")
        steps = _steps(ab, k)
        alts.append(read_fields(ab, amask, _ALTERNATIVE, 5, {"steps": steps, "equity": ab.equity()}))
    return alts


def encode_alternative(alt: dict[str, Any]) -> bytes:
    steps = alt["steps"]
    return write_record(varint(len(steps)) + bytes(steps) + i32(alt["equity"]), alt, _ALTERNATIVE, 5)


def _alternatives_write(alts: list[dict[str, Any]]) -> bytes:
    return varint(len(alts)) + b"".join(encode_alternative(a) for a in alts)


_CHECKER_INTS = {1: "alternatives_total", 5: "rollouts_done", 6: "deep_searched", 7: "position_tags",
                 8: "producer_ref", 9: "source_band"}
_CUBE_EQ = {0: "no_double", 1: "double_take", 2: "double_pass", 10: "cubeful_take_value"}
_CUBE_FLAGS = {6: "window_searched", 8: "is_optional", 9: "is_free_cube"}
_DECISIONS: dict[int, tuple[Schema, int]] = {
    KIND_CHECKER: (_table({0: ("alternatives", (_decode_alternatives, _alternatives_write)),
                           2: ("best_equity", EQUITY), 3: ("equity_loss", LOSS), 4: ("level", LEVEL),
                           **{bit: (key, VARINT) for bit, key in _CHECKER_INTS.items()}}), 10),
    KIND_CUBE: (_table({3: ("probs", PROBS), 4: ("equity_loss", LOSS), 5: ("take_point", U16), 7: ("level", LEVEL),
                        11: ("currency", VARINT), 12: ("producer_ref", VARINT),
                        **{bit: (key, EQUITY) for bit, key in _CUBE_EQ.items()},
                        **{bit: (key, FLAG) for bit, key in _CUBE_FLAGS.items()}}), 13),
    KIND_RESIGN: (_table({0: ("correct_value", VARINT), 1: ("resign_error", EQUITY), 2: ("take_resign_error", EQUITY),
                          3: ("probs", PROBS), 4: ("equity_loss", LOSS), 5: ("level", LEVEL),
                          6: ("producer_ref", VARINT)}), 7),
    KIND_ROLL: (_table({0: ("level", LEVEL), 1: ("producer_ref", VARINT)}), 2),
}
"""Each decision kind's optional fields, and how many bits are known."""


def decode_decs(payload: bytes, at: int, name: str | None) -> list[dict[str, Any]]:
    """The decision records of a DECS section, in file order; each keeps its offset (``_at``)."""
    cur = cursor(payload, at, name)
    out: list[dict[str, Any]] = []
    while cur.pos < cur.end:
        start = cur.pos
        body, mask = cur.record()
        d: dict[str, Any] = {"ply_ref": body.varint(), "kind": body.varint(), "_at": at + start}
        kind = d["kind"]
        spec = _DECISIONS.get(kind)
        if spec is None:  # a kind nobody here knows: kept whole
            d["_raw"] = cur.data[start:cur.pos]
            out.append(d)
            continue
        if kind == KIND_CUBE:
            d["verdict"] = body.varint()
        elif kind == KIND_ROLL:
            d["luck"] = body.equity()
        out.append(read_fields(body, mask, spec[0], spec[1], d))
    return out


def encode_decision(d: dict[str, Any]) -> bytes:
    if "_raw" in d:
        return d["_raw"]  # type: ignore[no-any-return]
    kind = d["kind"]
    head = varint(d["ply_ref"]) + varint(kind)
    if kind == KIND_CUBE:
        head += varint(d["verdict"])
    elif kind not in (KIND_CHECKER, KIND_RESIGN):
        kind = KIND_ROLL
        head += i32(d["luck"])
    schema, known = _DECISIONS[kind]
    return write_record(head, d, schema, known)


# --------------------------------------------------------------------------- ANNO

SCOPE_MATCH, SCOPE_GAME, SCOPE_PLY, SCOPE_DECISION, SCOPE_ALTERNATIVE = range(5)
_ANNO_STRINGS = {0: "key", 3: "lang", 4: "author"}
_DRAWING = _table({0: ("to", (In.u8, lambda v: bytes((v,)))), 1: ("color", VARINT)})


def _drawing_read(cur: In) -> dict[str, Any]:
    body, mask = cur.record()
    return read_fields(body, mask, _DRAWING, 2, {"shape": body.varint(), "at": body.u8()})


def _drawing_write(d: dict[str, Any]) -> bytes:
    return write_record(varint(d["shape"]) + bytes((d["at"],)), d, _DRAWING, 2)


_DRAWINGS = _list(3, (_drawing_read, _drawing_write))


def _drawings_read(cur: In) -> list[dict[str, Any]]:
    return list(_DRAWINGS[0](cur))


_ANNO = _table({1: ("kind", VARINT), 2: ("alt_index", VARINT), 5: ("at", LONG),
                6: ("drawings", (_drawings_read, _DRAWINGS[1])),
                7: ("analysis", _raw(16)), **{bit: (key, STRING) for bit, key in _ANNO_STRINGS.items()}})


def decode_anno(payload: bytes, at: int, name: str | None) -> list[dict[str, Any]]:
    cur = cursor(payload, at, name)
    out: list[dict[str, Any]] = []
    while cur.pos < cur.end:
        if len(out) == MAX_ANNOTATIONS:
            cur.fail(f"more than {MAX_ANNOTATIONS} annotations (OGXM allows {MAX_ANNOTATIONS})")
        start = cur.pos
        body, mask = cur.record()
        r: dict[str, Any] = {"scope": body.varint(), "ref": body.varint(), "value": body.string(),
                             "_at": at + start}
        out.append(read_fields(body, mask, _ANNO, 8, r))
    return out


def encode_anno(r: dict[str, Any]) -> bytes:
    return write_record(varint(r["scope"]) + varint(r["ref"]) + string(r["value"]), r, _ANNO, 8)
