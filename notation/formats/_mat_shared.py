"""What the ``.mat`` reader (:mod:`notation.formats.mat`) and writer (:mod:`notation.formats.mat_write`)
share: Snowie's set-up cell, the header tags that set a rule, and the level a reader gives a resignation."""

from __future__ import annotations

import re

from ..record import Action, Game, MatchRules, rule_number

_setup: re.Pattern[str] | None = None


def setup_position(text: str, *, anywhere: bool = False) -> tuple[int, str] | None:
    """The Snowie position of a set-up cell ``Illegal play (<position>)`` (the terminal ``SETUP`` of
    ``grammars/mat.lark``) at the start of ``text`` (with ``anywhere``, the first in it): where it starts in
    ``text``, and its text, what the parentheses hold.  None when there is none."""
    global _setup
    if _setup is None:
        from .._grammar import regexes

        _setup = re.compile(regexes("mat")["SETUP"])
    m = _setup.search(text) if anywhere else _setup.match(text)
    if m is None:
        return None
    start = text.index("(", m.start()) + 1
    return start, text[start:m.end() - 1]


RULE_TAGS = {"variation": "variant", "crawford": "crawford", "jacoby": "jacoby", "beaver": "beavers",
             "beavers": "beavers", "raccoon": "raccoons", "raccoons": "raccoons", "cubelimit": "cube",
             "autodoubles": "auto_doubles", "automaticdoubles": "auto_doubles"}
"""The header tags that set a rule (their names lowercased, without blanks), and the rule each sets
(:func:`rule_tag`; ``cube``: the cube limit, 1 or less meaning no cube)."""


def rule_tag(r: MatchRules, key: str, value: str) -> str | None:
    """Set the rule header tag ``key`` says (Variation, Crawford, Jacoby, Beaver, Raccoon, CubeLimit,
    AutoDoubles; any other tag sets none) in ``r``.  Returns what was not taken (a normalisation), or None;
    raises ValueError for a variation that is not known."""
    rule = RULE_TAGS.get(key.lower().replace(" ", ""))
    if rule == "variant":
        v = value.strip()
        if v.lower() in ("backgammon", "standard", ""):
            r.variant = "standard"
            return None
        from ..rules import get_rules

        try:
            r.variant = get_rules(v).name
        except ValueError:
            raise ValueError(f"unknown variation {value!r} in the [Variation] tag") from None
    elif rule in ("crawford", "jacoby", "beavers", "raccoons"):
        on = _on_off(value)
        if on is None:
            return f"[{key} {value!r}] is neither On nor Off; ignored"
        setattr(r, rule, on)
    elif rule in ("cube", "auto_doubles"):
        if not rule_number(value):
            shown = value if len(value) <= 40 else f"{value[:20]}...({len(value)} characters)"
            return f"[{key} {shown!r}] is not a number of at most 9 digits; ignored"
        if rule == "cube":
            r.cube_limit = int(value)
            if r.cube_limit <= 1:
                r.cube = False
        else:
            r.auto_doubles = int(value)
    return None


def _on_off(value: str) -> bool | None:
    v = value.strip().lower()
    if v in ("on", "yes", "true", "1"):
        return True
    if v in ("off", "no", "false", "0"):
        return False
    return None


LEVEL_WORDS = ("resigns",)
"""The resignation cells whose level a reader takes from the result that follows (GammonView's ``Resigns``);
XG's ``Concedes`` and GammonView's ``Forfeits`` say none."""


def resignation_levels(game: Game, length: int) -> list[tuple[Action, int]]:
    """The level a ``.mat`` reader gives each ``Resigns`` cell of ``game`` (it says none): the points of the
    other player's ``Wins`` line that follows, over the cube (the value of the last double taken, beaver or
    raccoon), when that is a single, gammon or backgammon, and the points are not exactly what the winner
    needed to win the match (some producers cut them to that).  Otherwise
    it stays unknown, and the replay checks the points against the cube as for any resignation.  The
    ``.mat`` writer says a level this does not give back."""
    actions = game.actions
    out = []
    cube = 1
    offered: int | None = None
    for i, a in enumerate(actions):
        kind = a.kind
        if kind == "double":
            offered = a.value
        elif kind == "take":
            cube, offered = offered or cube, None
        elif kind in ("beaver", "raccoon"):
            cube, offered = a.value or cube, None
        elif kind == "drop":
            offered = None
        elif kind == "resign" and (a.text or "").strip().lower() in LEVEL_WORDS:
            win = next((b for b in actions[i + 1:] if b.kind == "win"), None)
            if win is None or win.player == a.player or not win.value or win.value % cube:
                continue
            if length > 0 and (game.score is None or game.score[win.player] + win.value == length):
                continue
            if 1 <= win.value // cube <= 3:
                out.append((a, win.value // cube))
    return out
