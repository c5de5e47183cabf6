"""Regenerate ``movegen_positions.tsv``: real positions for the move-generator oracle test and benchmark.

Not a test.  Needs the gnubg Python bindings (for position IDs) and SGF files::

    /work/shared/tools/gnubg-corpus /tmp/corpus 40      # gnubg self-play, writes /tmp/corpus/sgf/*.sgf
    /tmp/venv/bin/python tests/data/movegen_generate.py /tmp/corpus/sgf/*.sgf ../shared/corpus/sgf/*.sgf

Every position in which a player is about to play a roll is replayed from the SGF ``W[..]``/``B[..]``
move nodes with a tiny self-contained reader (no library code, so the data does not depend on what it
tests), then the gnubg position IDs in ``../shared/corpus/gnubgid/*.tsv`` are added.  Each output line
is ``<gnubg position id>\\t<source>``; the position is seen from the player on roll, as gnubg's IDs are.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import gnubg

HERE = Path(__file__).resolve().parent
OUT = HERE / "movegen_positions.tsv"
SHARED = Path(__file__).resolve().parents[3] / "shared"

START = {24: 2, 13: 5, 8: 3, 6: 5}
_PROP = re.compile(r"([A-Za-z]+)((?:\s*\[(?:\\.|[^\]\\])*\])+)", re.S)
_VAL = re.compile(r"\[((?:\\.|[^\]\\])*)\]", re.S)


def _nodes(text: str) -> list[tuple[str, object]]:
    """('(' | ')' | ';', props) events in document order; props = {NAME: [values]}."""
    out: list[tuple[str, object]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "()":
            out.append((c, None))
            i += 1
        elif c == ";":
            j = i + 1
            props: dict[str, list[str]] = {}
            while True:
                m = _PROP.match(text, j)
                if m is None:
                    k = j
                    while k < n and text[k].isspace():
                        k += 1
                    m = _PROP.match(text, k)
                    if m is None:
                        break
                name = "".join(ch for ch in m.group(1) if ch.isupper())
                props.setdefault(name, []).extend(_VAL.findall(m.group(2)))
                j = m.end()
            out.append((";", props))
            i = j
        else:
            i += 1
    return out


def _point(letter: str, player: int) -> int:
    """SGF letter to the player's own point number: 25 bar, 0 off."""
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    p = ord(letter) - 96
    return p if player == 0 else 25 - p


def _expand(value: str) -> list[str]:
    """``a:x`` ranges and single letters."""
    if ":" in value:
        a, b = value.split(":")
        return [chr(c) for c in range(ord(a), ord(b) + 1)]
    return [value]


def _gnubg_board(mine: list[int], theirs: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(theirs[1:26]), tuple(mine[1:26])


def positions_from_sgf(path: Path) -> list[tuple[str, str]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    found: list[tuple[str, str]] = []
    boards: list[list[int]] = []
    standard = True
    game = -1
    move_no = 0
    for kind, props in _nodes(text):
        if kind == "(":
            game += 1
            move_no = 0
            boards = [[0] * 26, [0] * 26]
            for pl in (0, 1):
                for p, c in START.items():
                    boards[pl][p] = c
            standard = True
            continue
        if kind != ";":
            continue
        assert isinstance(props, dict)
        rules = ":".join(props.get("RU", []))
        if any(v in rules for v in ("Nackgammon", "Hypergammon")):
            standard = False
        if not standard:
            continue
        if "AE" in props or "AW" in props or "AB" in props:
            for v in props.get("AE", []):
                for letter in _expand(v):
                    for pl in (0, 1):
                        boards[pl][_point(letter, pl)] = 0
            for key, pl in (("AW", 0), ("AB", 1)):
                for v in props.get(key, []):
                    for letter in _expand(v):
                        boards[pl][_point(letter, pl)] += 1
            for pl in (0, 1):
                boards[pl][0] = 15 - sum(boards[pl][1:26])
        for key, pl in (("W", 0), ("B", 1)):
            if key not in props:
                continue
            move = props[key][0].strip()
            if not re.fullmatch(r"[1-6]{2}([a-z]{2}){0,4}", move):
                continue  # cube action or anything else
            mine, theirs = boards[pl], boards[1 - pl]
            if min(mine) < 0 or min(theirs) < 0 or sum(mine) != 15 or sum(theirs) != 15:
                standard = False
                break
            move_no += 1
            pid = gnubg.positionid(_gnubg_board(mine, theirs))
            found.append((pid, f"{path.name}:game{game + 1}:move{move_no}:{move[:2]}"))
            pairs = move[2:]
            for k in range(0, len(pairs), 2):
                s, t = _point(pairs[k], pl), _point(pairs[k + 1], pl)
                mine[s] -= 1
                mine[t] += 1
                if 1 <= t <= 24 and theirs[25 - t] == 1:
                    theirs[25 - t] = 0
                    theirs[25] += 1
    return found


def positions_from_ids() -> list[tuple[str, str]]:
    out = []
    for tsv in sorted((SHARED / "corpus" / "gnubgid").glob("*.tsv")):
        for line in tsv.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            gid = line.split("\t")[0]
            pid = gid.split(":")[0]
            try:
                board = gnubg.positionfromid(pid)
            except Exception:  # noqa: BLE001 - skip IDs gnubg refuses
                continue
            if sum(board[0]) > 15 or sum(board[1]) > 15:
                continue
            out.append((gnubg.positionid(board), f"gnubgid:{tsv.name}"))
    return out


TARGET = 3000
"""Positions kept: every one from human games (the shared corpus) and the ID lists, then an even
sample of the self-play positions up to this many."""


def main(argv: list[str]) -> None:
    seen: dict[str, str] = {}
    selfplay: dict[str, str] = {}
    for name in argv:
        human = "/shared/" in str(Path(name).resolve())
        for pid, src in positions_from_sgf(Path(name)):
            (seen if human else selfplay).setdefault(pid, src)
    for pid, src in positions_from_ids():
        seen.setdefault(pid, src)
    rest = [(pid, src) for pid, src in selfplay.items() if pid not in seen]
    room = max(0, TARGET - len(seen))
    if rest and room:
        step = max(1, len(rest) // room)
        for pid, src in rest[::step][:room]:
            seen[pid] = src
    lines = ["# gnubg position id (player on roll's view)\tsource: SGF file:game:move:roll, or gnubgid list",
             *(f"{pid}\t{src}" for pid, src in seen.items())]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(seen)} positions -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
