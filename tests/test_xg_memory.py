"""Memory of ``.xg`` files (issue 26, item 10): a zip bomb is refused before the game file inflates
beyond the bound (at once when the archive's registry says its size; otherwise the inflation is
streamed and stops at the bound), and a large valid file converts within 10x its unpacked size.  Each
is measured in a process of its own (its peak resident size over the size it had once imported)."""

from __future__ import annotations

import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from conftest import DATA, deflated_zeros
from xg_container import archive, container, records

from notation.formats.xg import HEADER_SIZE, MAX_UNPACKED, RECORD_SIZE

ROOT = Path(__file__).resolve().parents[1]

_MEASURE = """
import resource, sys
sys.setrecursionlimit(10000)
import notation, notation.batch, notation.formats.xg, render.html
from render.html import match_page as match_html
def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
base = peak()
src, target, fmt = sys.argv[1:4]
res = notation.batch.convert_file(src, target, fmt, page=match_html if fmt == "html" else None)
print(peak() - base, res["status"], "|".join(res["messages"])[:300])
"""


def measure(src: Path, target: Path, fmt: str) -> tuple[int, int, str]:
    """(peak growth in bytes, status, messages) of converting ``src`` in a new process."""
    r = subprocess.run([sys.executable, "-c", _MEASURE, str(src), str(target), fmt], capture_output=True,
                       text=True, timeout=1800, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    grown, status, messages = r.stdout.split(" ", 2)
    return int(grown), int(status), messages


def _zeros(size: int) -> bytes:
    """``size`` zero bytes deflated (kept between runs: conftest.deflated_zeros)."""
    return deflated_zeros(size)


def test_a_zip_bomb_with_its_size_in_the_registry_is_refused_before_inflating(tmp_path: Path) -> None:
    """The archive says the game file is larger than the bound: refused, nothing inflated."""
    src = tmp_path / "bomb.xg"
    data = _bomb_with_registry(1 << 30)
    src.write_bytes(data)
    grown, status, messages = measure(src, tmp_path / "out.json", "json")
    assert status == 2 and "unpacks to more than 256 MB" in messages, messages
    assert grown < 64 << 20, grown


def test_a_zip_bomb_whose_registry_lies_stops_at_what_it_says(tmp_path: Path) -> None:
    """The registry says 1 MB, the stream makes 300 MB: refused once it passes what the archive says."""
    src = tmp_path / "bomb.xg"
    src.write_bytes(_bomb_with_registry(300 << 20, said=1 << 20))
    grown, status, messages = measure(src, tmp_path / "out.json", "json")
    assert status == 2 and "unpacks to more than the archive says (1048576 bytes)" in messages, messages
    assert grown < 64 << 20, grown


def _bomb_with_registry(size: int, said: int | None = None) -> bytes:
    """An .xg whose game file is ``size`` zero bytes, with a registry that says so (or ``said``)."""
    import struct

    header = bytearray(HEADER_SIZE)
    struct.pack_into("<4siiIII", header, 0, b"RGMH", 1, HEADER_SIZE, 0, 0, 0)
    packed = _zeros(size)
    registry = (bytes([7]) + b"temp.xg" + bytes(248) + bytes(256)
                + struct.pack("<iiiIBBxx", said or size, len(packed), 0, 0, 0, 9))
    reg = zlib.compress(registry)
    body = packed + reg
    return bytes(header) + body + struct.pack("<Iiiiii12x", zlib.crc32(body), 1, 1, len(reg), len(packed), 1)


def test_a_zip_bomb_without_a_registry_stops_at_the_bound(tmp_path: Path) -> None:
    """No registry to ask: the inflation is streamed and refused once it passes the bound, holding at
    most the bound (it held twice that, and more, when inflated whole)."""
    src = tmp_path / "bomb.xg"
    src.write_bytes(b"RGMH" + bytes(HEADER_SIZE - 4) + _zeros(MAX_UNPACKED + (64 << 20)))
    grown, status, messages = measure(src, tmp_path / "out.json", "json")
    assert status == 2 and "unpacks to more than 256 MB" in messages, messages
    assert grown < MAX_UNPACKED + (48 << 20), grown


def large_file(copies: int) -> tuple[bytes, int]:
    """A valid match of ``copies`` times the games of tests/data/xg_ronde3.xg (with its analysis), and
    its unpacked size."""
    recs = records((DATA / "xg_ronde3.xg").read_bytes())
    head, games, tail = recs[0], recs[1:-1], recs[-1]
    game_file = head + b"".join(games) * copies + tail
    return container(game_file, thumbnail=b"\xff\xd8\xff\xd9"), len(game_file)


@pytest.mark.parametrize(("fmt", "copies"), [("json", 12), ("html", 4)])
def test_a_large_file_converts_within_ten_times_its_unpacked_size(fmt: str, copies: int, tmp_path: Path) -> None:
    data, unpacked = large_file(copies)
    assert unpacked >= copies * (900 << 10) and unpacked % RECORD_SIZE == 0
    src = tmp_path / "large.xg"
    src.write_bytes(data)
    grown, status, messages = measure(src, tmp_path / f"out.{fmt}", fmt)
    assert status == 0, messages
    assert grown < 10 * unpacked, (grown, unpacked)


def test_the_archive_helper_is_the_one_the_registry_reader_reads() -> None:
    from notation.formats.xg import _registry

    data = archive([("temp.xg", b"x" * RECORD_SIZE), ("temp.xgc", b"{\\rtf1 a}")])
    files = _registry(b"RGMH" + bytes(HEADER_SIZE - 4) + data, HEADER_SIZE)
    assert files is not None and set(files) == {"temp.xg", "temp.xgc"}
    assert files["temp.xg"][2] == RECORD_SIZE
