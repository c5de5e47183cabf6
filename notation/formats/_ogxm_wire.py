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
from typing import Any, NoReturn

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


class In:
    """A cursor over ``data[pos:end]``; offsets are the file's (``data`` is the whole file)."""

    __slots__ = ("data", "pos", "end", "name", "base")

    def __init__(self, data: bytes, pos: int, end: int, name: str | None, base: int = 0) -> None:
        self.data = data
        self.pos = pos
        self.end = end
        self.name = name
        self.base = base
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


class Section:
    """One section of a file: its type, flags, payload, and where its header starts."""

    __slots__ = ("kind", "flags", "payload", "at")

    def __init__(self, kind: bytes, flags: int, payload: bytes, at: int) -> None:
        self.kind = kind
        self.flags = flags
        self.payload = payload
        self.at = at

    @property
    def start(self) -> int:
        """The byte offset of the payload."""
        return self.at + SECTION_HEADER

    def raw(self) -> bytes:
        return section(self.kind, self.payload, bool(self.flags & CRITICAL))


class Container:
    """A v2 file split into sections (``CSUM`` and ``END!`` checked and left out)."""

    __slots__ = ("major", "minor", "need_major", "need_minor", "size", "sections", "checksum")

    def __init__(self, major: int, minor: int, need_major: int, need_minor: int, size: int,
                 sections: list[Section], checksum: str | None) -> None:
        self.major = major
        self.minor = minor
        self.need_major = need_major
        self.need_minor = need_minor
        self.size = size
        self.sections = sections
        self.checksum = checksum
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


def decode_mtch(payload: bytes, at: int, name: str | None) -> dict[str, Any]:
    body, mask = _whole(payload, at, name)
    m: dict[str, Any] = {"match_length": body.varint(), "variant": body.varint()}
    for bit in range(26):
        if not mask >> bit & 1:
            continue
        key = MTCH_FIELDS[bit]
        if bit in _MTCH_STRINGS:
            m[key] = body.string()
        elif bit in _MTCH_INTS:
            m[key] = body.varint()
        elif bit in _MTCH_LONGS:
            m[key] = body.varint(64)
        elif bit in _MTCH_FLAGS:
            m[key] = True
        elif bit in _MTCH_PAIRS:
            m[key] = (body.varint(), body.varint())
        else:
            pb, pmask = body.record()
            pr: dict[str, Any] = {}
            for b2, k2 in PROFILE_FIELDS.items():
                if pmask >> b2 & 1:
                    pr[k2] = pb.varint() if b2 in (1, 4) else pb.string()
            more = pb.more(pmask, 5)
            if more:
                pr["_more"] = more
            m[key] = pr
    more = body.more(mask, 26)
    if more:
        m["_more"] = more
    return m


def encode_mtch(m: dict[str, Any]) -> bytes:
    fields: dict[int, bytes] = {}
    for key, value in m.items():
        bit = MTCH_BITS.get(key)
        if bit is None:
            continue
        if bit in _MTCH_STRINGS:
            fields[bit] = string(value)
        elif bit in _MTCH_INTS or bit in _MTCH_LONGS:
            fields[bit] = varint(value)
        elif bit in _MTCH_FLAGS:
            if value:
                fields[bit] = b""
        elif bit in _MTCH_PAIRS:
            fields[bit] = varint(value[0]) + varint(value[1])
        else:
            pf: dict[int, bytes] = {}
            for b2, k2 in PROFILE_FIELDS.items():
                if k2 in value:
                    pf[b2] = varint(value[k2]) if b2 in (1, 4) else string(value[k2])
            fields[bit] = record(b"", pf, value.get("_more"), 5)
    return record(varint(m["match_length"]) + varint(m["variant"]), fields, m.get("_more"), 26)


def cursor(payload: bytes, at: int, name: str | None) -> In:
    """A cursor over a section's payload (``at``: the payload's offset in the file, for errors)."""
    return In(payload, 0, len(payload), name, at)


# --------------------------------------------------------------------------- GAME

_EXTRAS_KNOWN = 9
GAME_FIELDS = {0: "winner", 1: "points_won", 2: "is_last_game", 3: "initial_board", 4: "initial_cube_value",
               5: "initial_cube_owner", 6: "auto_doubles", 7: "termination"}
_STEP_OK = bytes(1 if (b & 0x1F) <= 25 and 1 <= b >> 5 <= 6 else 0 for b in range(256))
"""Which step bytes are a move: from 0-25, 1-6 pips (v2 refuses 0 and 7 pips and a start past 25)."""
_MOVE_BYTES = tuple(4 if a == b else 2 for a, b in DICE)


def decode_game(payload: bytes, at: int, name: str | None) -> tuple[dict[str, Any], list[Ply]]:
    cur = cursor(payload, at, name)
    body, mask = cur.record()
    g: dict[str, Any] = {}
    for bit in range(8):
        if not mask >> bit & 1:
            continue
        key = GAME_FIELDS[bit]
        if bit == 2:
            g[key] = True
        elif bit == 3:
            g[key] = body.board()
        else:
            g[key] = body.varint()
    more = body.more(mask, 8)
    if more:
        g["_more"] = more
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
    x: dict[str, Any] = {}
    if 38 <= action <= 62:  # an action nobody here assigns: its extras are its producer's, kept whole
        x["_raw"] = cur.data[first:cur.pos]
        return x
    if mask & 1:
        d1, d2 = body.u8(), body.u8()
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            body.fail(f"dice {d1}-{d2} are not a roll", body.pos - 2)
        x["dice"] = (d1, d2)
    if mask >> 1 & 1:
        x["resign_value"] = body.varint()
    if mask >> 2 & 1:
        x["cube_value"] = body.varint()
    if mask >> 3 & 1:
        x["illegal"] = True
    if mask >> 4 & 1:
        x["settle_value"] = body.equity()
    if mask >> 5 & 1:
        n = body.varint()
        raw = body.take(n)
        for i, b in enumerate(raw):
            if not _STEP_OK[b]:
                body.fail(f"step byte 0x{b:02x} is not a move", body.pos - n + i)
        x["steps"] = tuple(raw)
    if mask >> 6 & 1:
        x["board"] = body.board()
    if mask >> 7 & 1:
        x["action_ext"] = body.varint()
    if mask >> 8 & 1:
        x["cube_owner"] = body.varint()
    more = body.more(mask, _EXTRAS_KNOWN)
    if more:
        x["_more"] = more
    return x


def encode_game(g: dict[str, Any], plies: list[Any]) -> bytes:
    fields: dict[int, bytes] = {}
    for bit, key in GAME_FIELDS.items():
        if key not in g:
            continue
        v = g[key]
        if bit == 2:
            if v:
                fields[bit] = b""
        elif bit == 3:
            fields[bit] = board(v)
        else:
            fields[bit] = varint(v)
    out = [record(b"", fields, g.get("_more"), 8)]
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
    f: dict[int, bytes] = {}
    if "dice" in x:
        f[0] = bytes(x["dice"])
    if "resign_value" in x:
        f[1] = varint(x["resign_value"])
    if "cube_value" in x:
        f[2] = varint(x["cube_value"])
    if x.get("illegal"):
        f[3] = b""
    if "settle_value" in x:
        f[4] = i32(x["settle_value"])
    if "steps" in x:
        f[5] = varint(len(x["steps"])) + bytes(x["steps"])
    if "board" in x:
        f[6] = board(x["board"])
    if "action_ext" in x:
        f[7] = varint(x["action_ext"])
    if "cube_owner" in x:
        f[8] = varint(x["cube_owner"])
    return record(b"", f, x.get("_more"), _EXTRAS_KNOWN)


# --------------------------------------------------------------------------- levels

_ROLLOUT = {0: "trials", 1: "truncation_depth", 2: "move_ply", 3: "variance_reduction", 4: "seed", 5: "budget_ms",
            6: "match_policy"}


def decode_level(cur: In) -> dict[str, Any]:
    body, mask = cur.record()
    lv: dict[str, Any] = {}
    if mask & 1:
        lv["preset"] = body.string()
    if mask >> 1 & 1:
        lv["checker_ply"] = body.varint()
    if mask >> 2 & 1:
        lv["cube_ply"] = body.varint()
    if mask >> 3 & 1:
        rb, rmask = body.record()
        r: dict[str, Any] = {}
        for bit, key in _ROLLOUT.items():
            if rmask >> bit & 1:
                r[key] = rb.u64() if bit == 4 else rb.varint()
        more = rb.more(rmask, 7)
        if more:
            r["_more"] = more
        lv["rollout"] = r
    if mask >> 4 & 1:
        lv["no_rollout"] = True
    more = body.more(mask, 5)
    if more:
        lv["_more"] = more
    return lv


def encode_level(lv: dict[str, Any]) -> bytes:
    f: dict[int, bytes] = {}
    if "preset" in lv:
        f[0] = string(lv["preset"])
    if "checker_ply" in lv:
        f[1] = varint(lv["checker_ply"])
    if "cube_ply" in lv:
        f[2] = varint(lv["cube_ply"])
    if "rollout" in lv:
        r = lv["rollout"]
        rf = {bit: (struct.pack("<Q", r[key]) if bit == 4 else varint(r[key]))
              for bit, key in _ROLLOUT.items() if key in r}
        f[3] = record(b"", rf, r.get("_more"), 7)
    if lv.get("no_rollout"):
        f[4] = b""
    return record(b"", f, lv.get("_more"), 5)


# --------------------------------------------------------------------------- ANAL

_ANAL_STRINGS = {5: "model_id", 6: "model_name", 8: "engine_build", 11: "met_id", 12: "tables"}
_ANAL_INTS = {1: "producer", 9: "currency", 16: "duration_ms"}
_ANAL_LONGS = {14: "started_at", 15: "completed_at"}
_DIALS = {0: "jacoby_resolved", 1: "jacoby_mode", 2: "cube_limit_resolved", 3: "cube_limit_mode",
          4: "exact_bearoff", 5: "race_order", 6: "top_deep", 7: "top_deep_threshold", 8: "rollout_budget_on",
          9: "cube_rule", 10: "top_deep_keep", 11: "top_deep_accept"}
_DIAL_FLAGS = (0, 4, 5, 6, 8)


def decode_anal(payload: bytes, at: int, name: str | None) -> dict[str, Any]:
    body, mask = _whole(payload, at, name)
    a: dict[str, Any] = {"analysis_id": body.take(16)}
    for bit in range(18):
        if not mask >> bit & 1:
            continue
        if bit == 0:
            a["match_digest"] = body.take(32)
        elif bit == 2:
            a["level"] = decode_level(body)
        elif bit == 3:
            a["complete"] = True
        elif bit == 4:
            a["coverage"] = tuple(body.varint() for _ in range(_count(body, 1)))
        elif bit == 7:
            a["model_digest"] = body.take(32)
        elif bit == 10:
            a["cube_efficiency"] = body.u16()
        elif bit == 13:
            db, dmask = body.record()
            d: dict[str, Any] = {}
            for b2, k2 in _DIALS.items():
                if dmask >> b2 & 1:
                    d[k2] = True if b2 in _DIAL_FLAGS else (db.u32() if b2 == 7 else db.varint())
            more = db.more(dmask, 12)
            if more:
                d["_more"] = more
            a["dials"] = d
        elif bit == 17:
            a["sources"] = tuple(body.take(16) for _ in range(_count(body, 16)))
        elif bit in _ANAL_STRINGS:
            a[_ANAL_STRINGS[bit]] = body.string()
        elif bit in _ANAL_INTS:
            a[_ANAL_INTS[bit]] = body.varint()
        else:
            a[_ANAL_LONGS[bit]] = body.varint(64)
    more = body.more(mask, 18)
    if more:
        a["_more"] = more
    return a


def _count(cur: In, size: int) -> int:
    """A list's length, refused when its items could not fit in what is left."""
    at = cur.pos
    n = cur.varint()
    if n * size > cur.end - cur.pos:
        cur.fail(f"a list of {n} items cannot fit in the {cur.end - cur.pos} bytes left", at)
    return n


def encode_anal(a: dict[str, Any]) -> bytes:
    f: dict[int, bytes] = {}
    for bit in range(18):
        if bit == 0 and "match_digest" in a:
            f[0] = a["match_digest"]
        elif bit == 2 and "level" in a:
            f[2] = encode_level(a["level"])
        elif bit == 3 and a.get("complete"):
            f[3] = b""
        elif bit == 4 and "coverage" in a:
            f[4] = varint(len(a["coverage"])) + b"".join(varint(v) for v in a["coverage"])
        elif bit == 7 and "model_digest" in a:
            f[7] = a["model_digest"]
        elif bit == 10 and "cube_efficiency" in a:
            f[10] = struct.pack("<H", a["cube_efficiency"])
        elif bit == 13 and "dials" in a:
            d = a["dials"]
            df = {b2: (b"" if b2 in _DIAL_FLAGS else (u32(d[k2]) if b2 == 7 else varint(d[k2])))
                  for b2, k2 in _DIALS.items() if k2 in d and (d[k2] is not False)}
            f[13] = record(b"", df, d.get("_more"), 12)
        elif bit == 17 and "sources" in a:
            f[17] = varint(len(a["sources"])) + b"".join(a["sources"])
        elif bit in _ANAL_STRINGS and _ANAL_STRINGS[bit] in a:
            f[bit] = string(a[_ANAL_STRINGS[bit]])
        elif bit in _ANAL_INTS and _ANAL_INTS[bit] in a:
            f[bit] = varint(a[_ANAL_INTS[bit]])
        elif bit in _ANAL_LONGS and _ANAL_LONGS[bit] in a:
            f[bit] = varint(a[_ANAL_LONGS[bit]])
    return record(a["analysis_id"], f, a.get("_more"), 18)


def _whole(payload: bytes, at: int, name: str | None) -> tuple[In, int]:
    cur = cursor(payload, at, name)
    body, mask = cur.record()
    if cur.pos != cur.end:
        cur.fail(f"{cur.end - cur.pos} bytes after the record")
    return body, mask


# --------------------------------------------------------------------------- DECS

_CHECKER_INTS = {1: "alternatives_total", 5: "rollouts_done", 6: "deep_searched", 7: "position_tags",
                 8: "producer_ref", 9: "source_band"}
_CUBE_EQ = {0: "no_double", 1: "double_take", 2: "double_pass", 10: "cubeful_take_value"}
_CUBE_FLAGS = {6: "window_searched", 8: "is_optional", 9: "is_free_cube"}


def decode_decs(payload: bytes, at: int, name: str | None) -> list[dict[str, Any]]:
    """The decision records of a DECS section, in file order; each keeps its offset (``_at``)."""
    cur = cursor(payload, at, name)
    out: list[dict[str, Any]] = []
    while cur.pos < cur.end:
        start = cur.pos
        body, mask = cur.record()
        d: dict[str, Any] = {"ply_ref": body.varint(), "kind": body.varint(), "_at": at + start}
        kind = d["kind"]
        if kind == KIND_CHECKER:
            if mask & 1:
                d["alternatives"] = _decode_alternatives(body)
            for bit in range(1, 10):
                if not mask >> bit & 1:
                    continue
                if bit == 2:
                    d["best_equity"] = body.equity()
                elif bit == 3:
                    d["equity_loss"] = body.u32()
                elif bit == 4:
                    d["level"] = decode_level(body)
                else:
                    d[_CHECKER_INTS[bit]] = body.varint()
            known = 10
        elif kind == KIND_CUBE:
            d["verdict"] = body.varint()
            for bit in range(13):
                if not mask >> bit & 1:
                    continue
                if bit in _CUBE_EQ:
                    d[_CUBE_EQ[bit]] = body.equity()
                elif bit == 3:
                    d["probs"] = body.probs()
                elif bit == 4:
                    d["equity_loss"] = body.u32()
                elif bit == 5:
                    d["take_point"] = body.u16()
                elif bit == 7:
                    d["level"] = decode_level(body)
                elif bit in _CUBE_FLAGS:
                    d[_CUBE_FLAGS[bit]] = True
                elif bit == 11:
                    d["currency"] = body.varint()
                else:
                    d["producer_ref"] = body.varint()
            known = 13
        elif kind == KIND_RESIGN:
            for bit in range(7):
                if not mask >> bit & 1:
                    continue
                if bit == 0:
                    d["correct_value"] = body.varint()
                elif bit == 1:
                    d["resign_error"] = body.equity()
                elif bit == 2:
                    d["take_resign_error"] = body.equity()
                elif bit == 3:
                    d["probs"] = body.probs()
                elif bit == 4:
                    d["equity_loss"] = body.u32()
                elif bit == 5:
                    d["level"] = decode_level(body)
                else:
                    d["producer_ref"] = body.varint()
            known = 7
        elif kind == KIND_ROLL:
            d["luck"] = body.equity()
            if mask & 1:
                d["level"] = decode_level(body)
            if mask >> 1 & 1:
                d["producer_ref"] = body.varint()
            known = 2
        else:  # a kind nobody here knows: kept whole
            d["_raw"] = cur.data[start:cur.pos]
            out.append(d)
            continue
        more = body.more(mask, known)
        if more:
            d["_more"] = more
        out.append(d)
    return out


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
        raw = ab.take(k)
        for i, b in enumerate(raw):
            if not _STEP_OK[b]:
                ab.fail(f"step byte 0x{b:02x} is not a move", ab.pos - k + i)
        alt: dict[str, Any] = {"steps": tuple(raw), "equity": ab.equity()}
        if amask:
            if amask & 1:
                alt["probs"] = ab.probs()
            if amask >> 1 & 1:
                alt["level"] = decode_level(ab)
            if amask >> 2 & 1:
                alt["is_played"] = True
            if amask >> 3 & 1:
                alt["rollout_se"] = ab.equity()
            if amask >> 4 & 1:
                alt["cubeless_equity"] = ab.equity()
        more = ab.more(amask, 5)
        if more:
            alt["_more"] = more
        alts.append(alt)
    return alts


def encode_alternative(alt: dict[str, Any]) -> bytes:
    f: dict[int, bytes] = {}
    if "probs" in alt:
        f[0] = probs(alt["probs"])
    if "level" in alt:
        f[1] = encode_level(alt["level"])
    if alt.get("is_played"):
        f[2] = b""
    if "rollout_se" in alt:
        f[3] = i32(alt["rollout_se"])
    if "cubeless_equity" in alt:
        f[4] = i32(alt["cubeless_equity"])
    steps = alt["steps"]
    return record(varint(len(steps)) + bytes(steps) + i32(alt["equity"]), f, alt.get("_more"), 5)


def encode_decision(d: dict[str, Any]) -> bytes:
    if "_raw" in d:
        return d["_raw"]  # type: ignore[no-any-return]
    kind = d["kind"]
    head = varint(d["ply_ref"]) + varint(kind)
    f: dict[int, bytes] = {}
    if kind == KIND_CHECKER:
        if "alternatives" in d:
            alts = d["alternatives"]
            f[0] = varint(len(alts)) + b"".join(encode_alternative(a) for a in alts)
        for bit, key in _CHECKER_INTS.items():
            if key in d:
                f[bit] = varint(d[key])
        if "best_equity" in d:
            f[2] = i32(d["best_equity"])
        if "equity_loss" in d:
            f[3] = u32(d["equity_loss"])
        if "level" in d:
            f[4] = encode_level(d["level"])
        return record(head, f, d.get("_more"), 10)
    if kind == KIND_CUBE:
        for bit, key in _CUBE_EQ.items():
            if key in d:
                f[bit] = i32(d[key])
        if "probs" in d:
            f[3] = probs(d["probs"])
        if "equity_loss" in d:
            f[4] = u32(d["equity_loss"])
        if "take_point" in d:
            f[5] = struct.pack("<H", d["take_point"])
        if "level" in d:
            f[7] = encode_level(d["level"])
        for bit, key in _CUBE_FLAGS.items():
            if d.get(key):
                f[bit] = b""
        if "currency" in d:
            f[11] = varint(d["currency"])
        if "producer_ref" in d:
            f[12] = varint(d["producer_ref"])
        return record(head + varint(d["verdict"]), f, d.get("_more"), 13)
    if kind == KIND_RESIGN:
        if "correct_value" in d:
            f[0] = varint(d["correct_value"])
        if "resign_error" in d:
            f[1] = i32(d["resign_error"])
        if "take_resign_error" in d:
            f[2] = i32(d["take_resign_error"])
        if "probs" in d:
            f[3] = probs(d["probs"])
        if "equity_loss" in d:
            f[4] = u32(d["equity_loss"])
        if "level" in d:
            f[5] = encode_level(d["level"])
        if "producer_ref" in d:
            f[6] = varint(d["producer_ref"])
        return record(head, f, d.get("_more"), 7)
    if "level" in d:
        f[0] = encode_level(d["level"])
    if "producer_ref" in d:
        f[1] = varint(d["producer_ref"])
    return record(head + i32(d["luck"]), f, d.get("_more"), 2)


# --------------------------------------------------------------------------- ANNO

SCOPE_MATCH, SCOPE_GAME, SCOPE_PLY, SCOPE_DECISION, SCOPE_ALTERNATIVE = range(5)
_ANNO_STRINGS = {0: "key", 3: "lang", 4: "author"}


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
        for bit in range(8):
            if not mask >> bit & 1:
                continue
            if bit in _ANNO_STRINGS:
                r[_ANNO_STRINGS[bit]] = body.string()
            elif bit in (1, 2):
                r["kind" if bit == 1 else "alt_index"] = body.varint()
            elif bit == 5:
                r["at"] = body.varint(64)
            elif bit == 6:
                drawings = []
                for _ in range(_count(body, 3)):
                    db, dmask = body.record()
                    dr: dict[str, Any] = {"shape": db.varint(), "at": db.u8()}
                    if dmask & 1:
                        dr["to"] = db.u8()
                    if dmask >> 1 & 1:
                        dr["color"] = db.varint()
                    more = db.more(dmask, 2)
                    if more:
                        dr["_more"] = more
                    drawings.append(dr)
                r["drawings"] = drawings
            else:
                r["analysis"] = body.take(16)
        more = body.more(mask, 8)
        if more:
            r["_more"] = more
        out.append(r)
    return out


def encode_anno(r: dict[str, Any]) -> bytes:
    f: dict[int, bytes] = {}
    for bit, key in _ANNO_STRINGS.items():
        if key in r:
            f[bit] = string(r[key])
    if "kind" in r:
        f[1] = varint(r["kind"])
    if "alt_index" in r:
        f[2] = varint(r["alt_index"])
    if "at" in r:
        f[5] = varint(r["at"])
    if "drawings" in r:
        parts = [varint(len(r["drawings"]))]
        for d in r["drawings"]:
            df: dict[int, bytes] = {}
            if "to" in d:
                df[0] = bytes((d["to"],))
            if "color" in d:
                df[1] = varint(d["color"])
            parts.append(record(varint(d["shape"]) + bytes((d["at"],)), df, d.get("_more"), 2))
        f[6] = b"".join(parts)
    if "analysis" in r:
        f[7] = r["analysis"]
    return record(varint(r["scope"]) + varint(r["ref"]) + string(r["value"]), f, r.get("_more"), 8)
