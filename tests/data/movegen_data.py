"""Loader for ``movegen_positions.tsv`` (shared by the oracle test and ``benchmarks/movegen.py``).

Self-contained on purpose (no library code, no gnubg): a gnubg position ID is 80 bits, base64, read
least significant bit first; for the player *not* on roll and then the player on roll, each of the 25
slots (points 1..24, then the bar) is written as that many 1 bits and a 0 bit.
"""

from __future__ import annotations

import base64
from pathlib import Path

POSITIONS_FILE = Path(__file__).resolve().parent / "movegen_positions.tsv"

Board = tuple[int, ...]


def decode_position_id(pid: str) -> tuple[Board, Board]:
    """(on roll, opponent) as 26-slot boards in their owners' numbering: [0] off, [25] bar."""
    raw = base64.b64decode(pid + "==")
    if len(pid) != 14 or len(raw) != 10:
        raise ValueError(f"{pid!r} is not a 14-character position ID")
    bits = int.from_bytes(raw, "little")
    boards: list[list[int]] = []
    for _player in range(2):
        b = [0] * 26
        for slot in range(1, 26):
            while bits & 1:
                b[slot] += 1
                bits >>= 1
            bits >>= 1
        b[0] = 15 - sum(b)
        boards.append(b)
    opponent, on_roll = boards
    return tuple(on_roll), tuple(opponent)


def load_positions(path: Path = POSITIONS_FILE) -> list[tuple[str, Board, Board, str]]:
    """(position ID, on roll, opponent, source) for every line of the file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pid, source = line.split("\t", 1)
        mine, theirs = decode_position_id(pid)
        out.append((pid, mine, theirs, source))
    return out
