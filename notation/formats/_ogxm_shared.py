"""What OGXM's reader and writer share: the variants, the names of what the model keeps for rewriting,
the absolute board (OGXM's) against the model's two boards, plays as text, and the units of analysis
figures.  See :mod:`notation.formats.ogxm`."""

from __future__ import annotations

import base64
from typing import Any

from .._term import utf8
from . import _ogxm_wire as W

VARIANTS = {0: "standard", 1: "nackgammon", 2: "hypergammon3"}
"""OGXM's variant numbers this toolkit plays (3 is LongGammon)."""
VARIANT_NUMBERS = {v: k for k, v in VARIANTS.items()}
LONGGAMMON = 3
SOURCES = {0: "play", 1: "mat", 2: "xg", 3: "transcribed", 4: "bgblitz"}
PRODUCERS = {"xg": "eXtreme Gammon", "gnubg": "GNU Backgammon", "bgblitz": "BGBlitz", "snowie": "Snowie"}
"""Names of the programs a block's ``model_id`` names."""
VERDICTS = ("No double", "Double", "Take", "Pass", "Too good", "Beaver", "Raccoon")
"""The cube verdicts (0-6) as the model's verdict text."""
CURRENCY_MONEY, CURRENCY_MATCH = 1, 2
END_KEY = "ogxm.end"
"""Action property: the plies that ended the game as the file has them, where the writer would not
derive them (a forfeit, a missing or unusual marker)."""
PLY_KEY = "ogxm.ply"
"""Action property: the ply itself as the file has it (hex), where the writer would not make that ply (a
resignation of the match where the game's resignation would do)."""
PLIES_KEY = "ogxm.plies"
"""Action (or game) property: plies the model cannot hold (a settlement, a cube set by hand, a null ply,
an action nobody here knows), hex-encoded, kept for rewriting after the action (at the game's start)."""
PLAY_KEY = "x-gammon-notation-play"
"""The annotation our writer adds to an illegal play's set-position ply: the play as recorded."""
SETUP_KEY = "x-gammon-notation-setup"
"""The annotation our writer adds to a set-position ply with dice that stands for a position set by hand
after a roll (not a play): the cell as written."""
MORE_KEY = "x-gammon-notation-more"
"""The annotation our writer continues a value longer than OGXM's strings (4096 bytes) with: the first
part is the annotation itself, each further part is one of these on the same target, its value
``LABEL\nPART``, LABEL naming the annotation it continues (``k`` and the key as written, or ``c`` and
the 0-based number of the unkeyed annotation, a comment, among the target's unkeyed ones)."""
GV_ILLEGAL_KEY = "x-gammonview-illegal-ply"
"""GammonView's annotation on the same ply: the steps as recorded (``1:from/pips,...``)."""
OWN_PREFIX = "x-gammon-notation."
"""The annotation key of a tag or property whose name is one of OGXM's field names (a key may not be)."""
RAW_KEY = "ogxm.sections"
"""Match property: the file's sections (base64), for writing an unchanged record back byte for byte."""
KEEP_KEY = "ogxm.keep"
"""Match property: sections the model does not hold (signatures, the clock, the video, unknown
ancillary sections, further analysis blocks), base64 with what they followed, written back as they came."""


def parts(text: str, room: int) -> list[str]:
    """``text`` cut into pieces of at most ``room`` bytes of UTF-8, at character boundaries (one piece,
    perhaps empty, when it fits)."""
    raw = utf8(text)
    if len(raw) <= room:
        return [text]
    out = []
    while raw:
        cut = min(room, len(raw))
        while cut < len(raw) and (raw[cut] & 0xC0) == 0x80:  # not inside a character
            cut -= 1
        out.append(raw[:cut].decode("utf-8"))
        raw = raw[cut:]
    return out


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode("ascii")


def end_plies(ended: str | None, winner: int | None, complete: bool) -> list[int]:
    """The plies our writer ends a game with, after its last real ply: none after a resignation (the
    resignation ends it), 26 (final) after the game that ends the match, 24 (game over) after any other;
    none when the game has no winner."""
    if winner is None or ended == "resign":
        return []
    return [W.FINAL if complete else W.GAME_OVER]


def producer_of(info: dict[str, Any]) -> str | None:
    """The producer an analysis block (``ANAL``) names: its ``model_name``, else its ``model_id`` (a known one
    by its name); ``""`` for a block that names it empty, None for one that does not name it."""
    name = info.get("model_name")
    if name:
        return str(name)
    mid = info.get("model_id")
    return PRODUCERS.get(mid, mid) if mid else name


def first_to_move(plies: list[W.Ply]) -> int:
    """The side on roll at the start of a game, as the reader takes it (OGXM's start of a game holds only the
    board and the cube): the seat of the first roll, set-position ply or double, the side to move next for a
    set-position ply with dice (a play restated: it is seated on the side to move after it); White (0) when
    there is none."""
    return next((p[1] if p[0] != W.SET_POSITION or "dice" not in (p[3] or {}) else 1 - p[1]
                 for p in plies if p[0] <= 20 or p[0] in (W.SET_POSITION, W.DOUBLE)), 0)


def opening(variant: int) -> tuple[int, ...]:
    """The opening board of an OGXM variant, absolute (+White, -Black; 0 White's bar, 25 Black's)."""
    white = {1: {1: 2, 2: 2, 12: 4, 17: 3, 19: 4}, 2: {1: 1, 2: 1, 3: 1}, 3: {1: 15}}.get(
        variant, {1: 2, 12: 5, 17: 3, 19: 5})
    b = [0] * 26
    for p, n in white.items():
        b[p] = n
        b[25 - p] = -n
    return tuple(b)


def model_boards(b: list[int] | tuple[int, ...], variant: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """An absolute board as the model's two boards, each in its owner's numbering (White's point ``p`` is
    absolute ``25 - p``), borne-off checkers counted from the variant's number of checkers."""
    from ..rules import get_rules

    total = get_rules(variant).checkers
    w = [0] * 26
    k = [0] * 26
    for i in range(1, 25):
        v = b[i]
        if v > 0:
            w[25 - i] = v
        elif v < 0:
            k[i] = -v
    w[25] = max(b[0], 0)
    k[25] = max(-b[25], 0)
    w[0] = max(total - sum(w), 0)
    k[0] = max(total - sum(k), 0)
    return tuple(w), tuple(k)


def absolute_board(boards: tuple[tuple[int, ...], tuple[int, ...]]) -> list[int]:
    """The model's boards (player 0 White) as an absolute board."""
    w, k = boards
    b = [0] * 26
    for p in range(1, 25):
        b[25 - p] += w[p]
        b[p] -= k[p]
    b[0] = w[25]
    b[25] = -k[25]
    return b


_TOKENS: dict[tuple[int, int, bool], str] = {}


def token(f: int, t: int, hit: bool) -> str:
    tok = _TOKENS.get((f, t, hit))
    if tok is None:
        tok = _TOKENS[(f, t, hit)] = f"{f}/{t}{'*' if hit else ''}"
    return tok


def own_point(i: int, player: int) -> int:
    """Absolute point ``i`` (0-25) in ``player``'s numbering (bars are 25)."""
    return (25 - i if i else 25) if player == 0 else i


def diff_play(before: list[int], after: list[int], mover: int) -> str:
    """A play that takes ``mover``'s checkers from ``before`` to ``after`` (both absolute): the points
    they left, highest first, paired with the points they reached, highest first, hits marked where the
    opponent lost a checker.  ``""`` when the mover's checkers did not move."""
    sign = 1 if mover == 0 else -1
    left: list[int] = []
    reached: list[int] = []
    for i in range(26):
        if (mover == 0 and i == 25) or (mover == 1 and i == 0):
            continue
        d = max(sign * after[i], 0) - max(sign * before[i], 0)
        own = own_point(i, mover)
        if d < 0:
            left += [own] * -d
        elif d > 0:
            reached += [own] * d
    off = len(left) - len(reached)
    if off > 0:
        reached += [0] * off
    hits = set()
    for i in range(1, 25):
        theirs_before = -sign * before[i]
        theirs_after = -sign * after[i]
        if theirs_before == 1 and theirs_after <= 0:
            hits.add(own_point(i, mover))
    left.sort(reverse=True)
    reached.sort(reverse=True)
    return " ".join(token(f, t, t in hits and t != 0) for f, t in zip(left, reached, strict=False))


class Units:
    """Wire numbers (millionths of the block's currency) as the model's figures: money equities as they
    are, match-winning chances normalised through a frame ``(mid, half)``."""

    __slots__ = ("mid", "half")

    def __init__(self, fr: tuple[float, float] | None) -> None:
        self.mid, self.half = fr if fr is not None else (0.0, 1.0)

    def eq(self, n: int) -> float:
        return round((n / 1e6 - self.mid) / self.half, 8)

    def delta(self, n: int) -> float:
        return round(n / 1e6 / self.half, 8)


def level_text(lv: dict[str, Any]) -> str | None:
    """A level record as the model's label: its preset (the producer's own name for it, which our writer
    states), else ``N-ply`` (``checker_ply``, counted as gnubg counts), else ``Rollout``."""
    if "preset" in lv:
        return lv["preset"]  # type: ignore[no-any-return]
    if "rollout" in lv:
        return "Rollout"
    if "checker_ply" in lv:
        return f"{lv['checker_ply']}-ply"
    if "cube_ply" in lv:
        return f"{lv['cube_ply']}-ply"
    return None


def implied_level(points: int | None, cube: int) -> int | None:
    """The level of the resignation a result implies (``points`` with the cube at ``cube``): the one it is
    worth, else the least worth more (the points capped at what the winner needed to win the match, as
    Galaxy writes them: 3 points with the cube at 2 is a gammon); None for more points than any resignation
    gives (a forfeit)."""
    if not points or not cube:
        return 1
    return next((k for k in (1, 2, 3) if cube * k >= points), None)
