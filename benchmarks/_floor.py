"""A floor for `gammon convert` in pure Python: the least work a `.mat` to SGF conversion can do.

:func:`convert_floor` reads gnubg's `.mat` rows with one regular expression each, moves the checkers on
two lists and writes each play as gnubg's SGF move node (the single-die steps as letters), and nothing
more: no check of any rule (a wrong play is written as it is), no cube or result node, no data model,
no span, no finding, no note of what was dropped.  It is not a converter anyone should use: it is
what `benchmarks/convert_profile.py` times to show how little of the gap to gnubg pure Python can
close, and `tests/test_bench_floor.py` holds its move nodes to the real writer's on a sample match,
so that it does the work it claims to do.
"""

from __future__ import annotations

import re

_ROW = re.compile(r" *\d+\) ")
_MOVE = re.compile(r"(\d+|bar)/(\d+|off)(\*?)(?:\((\d)\))?")
_DICE = {f"{a}{b}": (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)}
_POINT = {str(i): i for i in range(26)} | {"bar": 25, "off": 0}
_LETTERS = (("z", *"abcdefghijklmnopqrstuvwx", "y"), ("z", *"xwvutsrqponmlkjihgfedcba", "y"))
"""gnubg's SGF letters of each player's points 0 (off, ``z``) to 25 (the bar, ``y``)."""
_RIGHT = 20
"""A cell whose dice start at this column or later is the second player's."""


def convert_floor(text: str) -> str:
    """The SGF move nodes of each game of the `.mat` ``text``, one game tree each (see the module)."""
    out: list[str] = []
    boards: list[list[int]] | None = None
    for line in text.splitlines():
        row = _ROW.match(line)
        if row is None:
            if line.startswith(" Game "):
                if boards is not None:
                    out.append(")")
                boards = [[0] * 26, [0] * 26]
                for b in boards:
                    b[24], b[13], b[8], b[6] = 2, 5, 3, 5
                out.append("(;FF[4]GM[6]")
            continue
        if boards is None:
            continue
        c1 = line.find(":", row.end())
        if c1 < 0:
            continue
        c2 = line.find(":", c1 + 1)
        if c2 < 0:
            cells = [(0 if c1 - 2 < _RIGHT else 1, line[c1 - 2:c1], line[c1 + 1:])]
        else:
            cells = [(0, line[c1 - 2:c1], line[c1 + 1:c2 - 2]), (1, line[c2 - 2:c2], line[c2 + 1:])]
        for player, dice, play in cells:
            big, small = _DICE[dice]
            mine, theirs = boards[player], boards[1 - player]
            letter = _LETTERS[player]
            letters = []
            for a, b, hit, n in _MOVE.findall(play):
                f, t = _POINT[a], _POINT[b]
                for _ in range(int(n) if n else 1):
                    if f - t <= big or f - t == small:  # one die
                        letters.append(letter[f] + letter[t])
                        mine[f] -= 1
                        if t:
                            mine[t] += 1
                            if hit and theirs[25 - t] == 1:
                                theirs[25 - t] = 0
                                theirs[25] += 1
                        continue
                    # a step a die, the larger first
                    here = f
                    while here != t:
                        d = big if here - t > big and here - t != small else here - t
                        nxt = max(here - d, t)
                        letters.append(letter[here] + letter[nxt])
                        mine[here] -= 1
                        if nxt:
                            mine[nxt] += 1
                            if theirs[25 - nxt] == 1:
                                theirs[25 - nxt] = 0
                                theirs[25] += 1
                        here = nxt
            out.append(f";{'WB'[player]}[{dice}{''.join(letters)}]")
    if boards is not None:
        out.append(")")
    return "\n".join(out)
