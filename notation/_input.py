"""Reading an input's bytes with a bound on its size: a file, standard input, a device or a FIFO.

Every reader of the library and every command takes its bytes through :func:`read_bytes`, so that no
input (``/dev/zero``, ``yes | gammon show -``, a runaway pipe) can take all the memory: past the bound
the reading stops with :class:`~notation.errors.InputTooLargeError`, one line naming the input.

A regular file is measured before it is read (its size alone refuses it); anything else (standard
input, a FIFO, a device) is read as a stream, a FIFO waiting for its writer as ``cat`` does, and
refused as soon as it has given more than the bound.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from typing import BinaryIO

from .errors import InputTooLargeError

MAX_RECORD_BYTES = 64 << 20
"""The most a match record (``.mat``, SGF, JSON, ``.xg``) or a list of positions may hold: 64 MiB, about
a hundred thousand games of ``.mat`` text (the largest real records are well under 1 MiB; reading and
replaying one takes several times its size in memory)."""

MAX_POSITION_BYTES = 1 << 20
"""The most a file or standard input holding one position (an ID, an XG or BGBlitz text export, an
``.xgp`` file) may hold: 1 MiB (a text export is a few kilobytes)."""

_CHUNK = 1 << 20


def size_text(n: int) -> str:
    """``64 MiB``, ``1 MiB``, ``512 KiB``: a bound as the messages and the README say it."""
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10} KiB"
    return f"{n} bytes"


def too_large(name: str, limit: int, what: str = "an input") -> InputTooLargeError:
    """The error of an input past ``limit`` bytes."""
    return InputTooLargeError(f"larger than {size_text(limit)}, the limit for {what}: not read", file=name)


def read_bytes(path: str | os.PathLike[str], *, limit: int = MAX_RECORD_BYTES, what: str = "an input",
               name: str | None = None) -> bytes:
    """The bytes of ``path`` (``"-"`` is standard input), at most ``limit`` of them.

    Raises :class:`OSError` as the operating system says it (a missing file, a directory, no
    permission) and :class:`~notation.errors.InputTooLargeError` for an input of more than ``limit``
    bytes (``what`` names the kind of input in its message, ``name`` the input; by default ``path``, or
    ``<stdin>``)."""
    if name is None:
        name = "<stdin>" if str(path) == "-" else os.fspath(path)
    if str(path) == "-":
        return read_stream(sys.stdin.buffer, name, limit=limit, what=what)
    with open(path, "rb") as f:  # a FIFO waits here for its writer, as cat does
        return read_stream(f, name, limit=limit, what=what)


def read_stream(f: BinaryIO, name: str, *, limit: int = MAX_RECORD_BYTES, what: str = "an input") -> bytes:
    """The bytes of the open binary file ``f``, at most ``limit`` of them (see :func:`read_bytes`)."""
    try:
        st: os.stat_result | None = os.fstat(f.fileno())
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        st = None  # a stream with no file behind it (io.BytesIO, a test's standard input)
    chunks: list[bytes] = []
    n = 0
    if st is not None and stat.S_ISREG(st.st_mode):
        if st.st_size > limit:
            raise too_large(name, limit, what)
        data = f.read(st.st_size + 1)  # (one read of the right size, as f.read() does)
        if len(data) <= st.st_size:
            return data
        chunks.append(data)  # it grew while it was read (or says no size, as /proc's files): held to the bound
        n = len(data)
        if n > limit:
            raise too_large(name, limit, what)
    while True:
        chunk = f.read(min(_CHUNK, limit + 1 - n))
        if not chunk:
            break
        chunks.append(chunk)
        n += len(chunk)
        if n > limit:
            raise too_large(name, limit, what)
    return b"".join(chunks)


def is_readable_file(path: str) -> tuple[bool, str | None]:
    """Whether ``path`` (found by walking a directory or by a pattern) may be opened: (True, None) for a
    regular file (or a link to one); (False, what it is) for a FIFO, a device or a socket, which are
    never opened there (a FIFO would wait for a writer, a device never end); (True, None) too for a
    path that cannot be examined, so that its reading says why."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True, None
    if stat.S_ISREG(mode):
        return True, None
    if stat.S_ISFIFO(mode):
        return False, "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return False, "a device"
    if stat.S_ISSOCK(mode):
        return False, "a socket"
    if stat.S_ISDIR(mode):
        return False, "a directory"
    return False, "not a regular file"


_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32-LE"), (b"\x00\x00\xfe\xff", "UTF-32-BE"), (b"\xef\xbb\xbf", "UTF-8"),
         (b"\xff\xfe", "UTF-16-LE"), (b"\xfe\xff", "UTF-16-BE"))


def byte_order_mark(data: bytes) -> tuple[str, int] | None:
    """(encoding, length) of the byte order mark ``data`` starts with (UTF-8, UTF-16 or UTF-32, either
    byte order), or None: how every reader of text knows a file's encoding before anything else."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    return None


def decode_bom(data: bytes) -> tuple[str, str] | None:
    """The text of ``data`` that starts with a UTF-16 or UTF-32 byte order mark, and its encoding; a unit
    that is not text (an odd byte at the end, a lone surrogate) is read as U+FFFD.  None for any other
    ``data`` (a UTF-8 mark included: the reader decodes UTF-8 its own way)."""
    bom = byte_order_mark(data)
    if bom is None or bom[0] == "UTF-8":
        return None
    encoding, n = bom
    return data[n:].decode(encoding, "replace"), encoding[:6]


def bad_bytes(data: bytes, encoding: str, most: int = 5) -> tuple[str, list[tuple[int, int, int]], int]:
    """``data`` read as ``encoding`` with each byte that is not ``encoding`` read as U+FFFD; where the
    first ``most`` of them are (offset, line, column: the column counts characters as read); and how
    many places there are in all."""
    places: list[tuple[int, int, int]] = []
    pos = 0
    while len(places) < most:
        try:
            data[pos:].decode(encoding)
            break
        except UnicodeDecodeError as e:
            bad = pos + e.start
            pos += e.end
            start = data.rfind(b"\n", 0, bad) + 1
            places.append((bad, data.count(b"\n", 0, bad) + 1, len(data[start:bad].decode(encoding, "replace")) + 1))
    text = data.decode(encoding, "replace")
    count = text.count("\ufffd") - data.count("\ufffd".encode(encoding)) if places else 0
    return text, places, max(count, len(places))


_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
                            rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
                            rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}")


def mostly_utf8(data: bytes, bad: int) -> bool:
    """Whether ``data``, with ``bad`` places that are not UTF-8, is UTF-8 with stray bytes (it holds at
    least as many well-formed UTF-8 characters beyond ASCII) rather than text in a one-byte encoding
    such as Windows-1252 (whose letters beyond ASCII are never well-formed UTF-8)."""
    return len(_UTF8_SEQUENCE.findall(data)) >= bad


__all__ = ["MAX_RECORD_BYTES", "MAX_POSITION_BYTES", "read_bytes", "read_stream", "is_readable_file", "too_large",
           "size_text", "byte_order_mark", "decode_bom", "bad_bytes",
           "mostly_utf8"]


_NOT_CHARSETS = frozenset({"punycode", "idna", "unicode-escape", "raw-unicode-escape", "undefined", "mbcs",
                           "oem", "utf-7"})
"""Codecs Python decodes bytes to text with that are no character set a record is written in: they read
``\\ud800`` as a lone surrogate, fail on any ``]`` (punycode), or always fail (undefined)."""


def text_codec(name: str) -> str | None:
    """The codec a record's declared character set (SGF ``CA[...]``, RTF ``\\ansicpgN``) names, when it is
    one that decodes bytes to text: None for an unknown name (``cp0``, ``cp99999999``), a codec between
    bytes (``base64``, ``zlib``) or between texts (``rot13``), and the codecs of :data:`_NOT_CHARSETS`."""
    import codecs

    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError, TypeError):  # ValueError: a name with a NUL character
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name.replace("_", "-") in _NOT_CHARSETS:
        return None
    return info.name
