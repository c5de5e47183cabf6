"""Build eXtreme Gammon containers for tests: no real ``.xgp`` file is in the corpus, so position files
are made by re-packing records of a real ``.xg`` into a one-position container.

The layout follows XG's published format description (extremegammon.com/xgformat.aspx): a
RichGameFormat header of 8,232 bytes (``RGMH``, version 1, header size, thumbnail offset and size, a
GUID and four UTF-16 strings of 1,024 units), the thumbnail, then a ZlibArchive: each file compressed
on its own, a registry of 532-byte file records (name and path as short strings, original size,
compressed size, start, CRC-32, a "stored" flag and the level), compressed, and a 36-byte archive
record at the very end (CRC-32 of everything before it, file count, version, registry size, archive
size, "registry compressed").  The game file ``temp.xg`` comes first, as XG writes it; ``temp.xgi``
holds the first and last records.
"""

from __future__ import annotations

import struct
import zlib

from notation.formats.xg import CUBE, HEADER_GAME, HEADER_SIZE, MOVE, RECORD_SIZE, unpack


def _short(text: str, size: int = 256) -> bytes:
    raw = text.encode("latin-1")
    return bytes([len(raw)]) + raw + bytes(size - 1 - len(raw))


def archive(files: list[tuple[str, bytes]]) -> bytes:
    """A ZlibArchive holding ``files`` (name, content), in that order."""
    data = b""
    registry = b""
    for name, content in files:
        packed = zlib.compress(content, 2)
        registry += (_short(name) + _short("")
                     + struct.pack("<iiiIBBxx", len(content), len(packed), len(data), zlib.crc32(content), 0, 2))
        data += packed
    reg = zlib.compress(registry)
    body = data + reg
    return body + struct.pack("<Iiiiii12x", zlib.crc32(body), len(files), 1, len(reg), len(data), 1)


def container(game_file: bytes, thumbnail: bytes = b"", comments: bytes | None = None,
              rollouts: bytes | None = None) -> bytes:
    """A whole ``.xg``/``.xgp`` file around ``game_file`` (records of 2,560 bytes), with the comment file
    ``temp.xgc`` and the rollout file ``temp.xgr`` when given."""
    header = bytearray(HEADER_SIZE)
    struct.pack_into("<4siiIII", header, 0, b"RGMH", 1, HEADER_SIZE, 0, 0, len(thumbnail))
    header[24:40] = bytes(range(16))  # a GUID
    name = "gammon-notation test".encode("utf-16-le")
    header[40:40 + len(name)] = name
    files = [("temp.xg", game_file), ("temp.xgi", game_file[:RECORD_SIZE] + game_file[-RECORD_SIZE:])]
    if comments is not None:
        files.append(("temp.xgc", comments))
    if rollouts is not None:
        files.append(("temp.xgr", rollouts))
    return bytes(header) + thumbnail + archive(files)


def rtf(text: str) -> bytes:
    """One comment of ``temp.xgc`` as XG writes it: an RTF document (code page 1252, ``\\'xx`` for
    the other Latin-1 characters, ``\\uN?`` beyond), line breaks inside as bytes 1 and 2, then CR LF."""
    body = []
    for ch in text:
        if ch == "\n":
            body.append("\\par\x01\x02")
        elif ch in "\\{}":
            body.append("\\" + ch)
        elif ord(ch) < 128:
            body.append(ch)
        elif ord(ch) < 256:
            body.append(f"\\'{ord(ch):02x}")
        else:
            body.append(f"\\u{ord(ch) if ord(ch) < 32768 else ord(ch) - 65536}?")
    head = ("{\\rtf1\\ansi\\ansicpg1252\\uc1\\deff0\\deflang1033\\deflangfe1033{\\fonttbl{\\f0\\fcharset0 Arial;}}"
            "\x01\x02{\\colortbl;}\x01\x02{\\*\\generator Wine Riched20 2.0;}\x01\x02\\pard\\sl-240\\slmult1 "
            "\\lang1033\\fs20\\f0 ")
    return (head + "".join(body) + "\\par\x01\x02}\r\n").encode("latin-1")


ROLLOUT = struct.Struct("<BB2xii4xdiiiiBBB1xiiIiiiB3xfiBBB1xiB7x")
"""The head of a rollout record of ``temp.xgr`` (2,184 bytes; xgdatatools' RolloutContextEntry)."""


def rollout(*, rolled: int, error1: float, truncate: int | None = None, level1: int = 1000, level1c: int = 1000,
            seed: int = 12345, rolled2: int = 0, error2: float = 0.0, result1: tuple[float, ...] = (0.0,) * 7,
            duration: int = 60) -> bytes:
    """A rollout record of ``temp.xgr`` with these figures (the rest as XG leaves them)."""
    rec = bytearray(2184)
    ROLLOUT.pack_into(rec, 0, truncate is not None, 0, truncate or 0, 0, 0.0, rolled, level1, level1, 0, 1, 0, 0,
                      level1c, level1c, 0, 0, seed, seed, rolled2 > 0, 1.0, 0, 0, 0, 0, rolled, 0)
    struct.pack_into("<ff7f", rec, 2020, error1, error2, *result1)
    struct.pack_into("<iii", rec, 2132, duration, 0, rolled2)
    struct.pack_into("<HH", rec, 2170, 2, 10)
    return bytes(rec)


def records(xg: bytes) -> list[bytes]:
    blob = unpack(xg)
    return [blob[i:i + RECORD_SIZE] for i in range(0, len(blob), RECORD_SIZE)]


def xgp_from_xg(xg: bytes, record: int) -> bytes:
    """A position file for the decision in ``record`` (0-based) of ``xg``'s game file: the match
    header, that game's header, and the decision's records: for a move record, the cube record of the
    same turn right before it (when there is one) and the move record; for a cube record, that one."""
    recs = records(xg)
    kind = recs[record][8]
    assert kind in (CUBE, MOVE), kind
    game = max(i for i in range(record) if recs[i][8] == HEADER_GAME)
    keep = [0, game]
    active = struct.unpack_from("<i", recs[record], 64 if kind == MOVE else 12)[0]
    if kind == MOVE and recs[record - 1][8] == CUBE and struct.unpack_from("<i", recs[record - 1], 12)[0] == active:
        keep.append(record - 1)
    keep.append(record)
    return container(b"".join(recs[i] for i in keep), thumbnail=b"\xff\xd8\xff\xd9")
