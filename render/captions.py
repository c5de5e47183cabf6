"""The words of a figure that says a decision: a cube decision's caption, and names a reader can read.

* :func:`cube_caption`: the producer's verdict and the three equities, as ``gammon show`` prints them
  (``Double / Take. No double +0.580, double/take +0.689, double/pass +1.000``).  A verdict in a script
  no font in use has (XG's Japanese ``ダブル / テイク``) is said in English, read from the same three
  equities (:func:`english_verdict`), rather than drawn as ``?``.
* :func:`latin_name`: a program's default player name in a script no font in use has (XG's Japanese
  ``プレーヤー 1``, BGBlitz's ``緑``) as that program writes it in English (``Player 1``, ``Green``).
* :func:`book_caption`: the caption a book prints above a problem, from what the position knows: the
  game (``Money game``, ``Match to 7, White leads 3-0``, Crawford, post-Crawford), who is on roll and
  what is asked (``White to play 52.``, ``White on roll. Cube action?``, ``Black doubles. Take or
  pass?``), names where known, and optionally the pip counts.

Every word of these captions is in :data:`WORDS` (one table, to be translated as a whole).

Other text in such a script is drawn as ``?`` and the command line names a font to add with ``--font``
(:func:`render._font.missing_message`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from notation.analysis import CubeAnalysis, cube_equities
from notation.decisions import CubeEquities
from notation.position import Position
from notation.record import action_phrase

from ._font import default_font

if TYPE_CHECKING:  # (an annotation only: a diagram's caption does not import the replay)
    from notation.replay import ReplayStep

__all__ = ["WORDS", "book_caption", "cube_caption", "describe", "drawable", "english_verdict", "game_words",
           "latin_name", "question_words", "says_game", "title"]

WORDS: dict[str, str] = {
    # the sides, where no name is known
    "white": "White",
    "black": "Black",
    # the game
    "money": "Money game",
    "match": "Match to {length}",
    "match_label": "{length}-point match",
    "leads": "{leader} leads {high}-{low}",
    "level": "{a}-{b}",
    "crawford": "Crawford game",
    "post_crawford": "post-Crawford",
    "game_end": "{game}.",
    # who is on roll and what is asked
    "to_play": "{who} to play {roll}.",
    "cube_action": "{who} on roll. Cube action?",
    "on_roll": "{who} on roll.",
    "doubles": "{who} doubles. Take or pass?",
    "redoubles": "{who} redoubles. Take or pass?",
    "doubles_beaver": "{who} doubles. Take, pass or beaver?",
    "resigns": "{who} offers to resign {what}. Accept or reject?",
    "resign_1": "a single game",
    "resign_2": "a gammon",
    "resign_3": "a backgammon",
    "game_over": "Game over.",
    # options
    "pips": "Pips: {first} {first_pips}, {second} {second_pips}.",
    # the description of a diagram (an SVG's <title> and <desc>, for readers who do not see it)
    "title_play": "Backgammon position, {who} to play {what}",
    "title_on_roll": "Backgammon position, {who} on roll",
    "side": "{who}: {where}.",
    "side_name": "{colour} ({name})",
    "on_point": "{n} on the {point}-point",
    "on_bar": "{n} on the bar",
    "borne_off": "{n} borne off",
    "waiting": "{n} to enter",
    "no_checkers": "no checkers",
    "side_pips": "pips {n}",
    "cube_centred": "Cube {value}, centred.",
    "cube_owned": "Cube {value}, owned by {who}.",
    "cube_offered": "Cube offered at {value}.",
    "no_cube": "No cube.",
    "dice": "Dice {a}-{b}.",
    "arrows": "Arrows: {plays}.",
    "ghost_arrows": "Pale arrows: {play}.",
    # problem sets (render.problems)
    "problem": "Problem",
    "solution": "Solution",
    "game": "Game",
    "move": "move",
    "question": "Question",
    "error_heading": "Error",
    "index_title": "Problems",
    "problems_count": "problems",
    "no_move": "no move",
    "played_mark": "{play} (played)",
    "error": ", error {error}",
    "answer_checker": "Best: {best}. Played: {played}{error}.",
    "answer_cube": "Right action: {best}. Played: {played}{error}.",
    "no_double": "No double",
    "double_take": "Double, take",
    "double_pass": "Double, pass",
    "kind_checker": "checker play",
    "kind_cube": "cube decision",
    # a cube action in an answer (notation.decisions says them in English: "double, take", "too good, pass")
    "action_double": "double",
    "action_redouble": "redouble",
    "action_no_double": "no double",
    "action_no_redouble": "no redouble",
    "action_too_good": "too good",
    "action_take": "take",
    "action_pass": "pass",
    "action_beaver": "beaver",
    # a cube caption's verdict from the equities when the producer's words cannot be drawn (XG's English)
    "verdict_double": "Double / {answer}",
    "verdict_double_redouble": "Redouble / {answer}",
    "verdict_no_double": "No double / {answer}",
    "verdict_no_double_redouble": "No redouble / {answer}",
    "verdict_too_good": "Too good to double / {answer}",
    "verdict_too_good_redouble": "Too good to redouble / {answer}",
    "verdict_take": "Take",
    "verdict_pass": "Pass",
}
"""The words of :func:`book_caption`, by key; ``{...}`` are filled in.  Change the values (all of them, as
one table) to caption in another language."""

_DEFAULT_NAMES = (
    (re.compile(r"\s*(?:プレーヤー|プレイヤー)\s*([12])\s*"), r"Player \1"),  # eXtreme Gammon in Japanese
    (re.compile(r"\s*緑\s*"), "Green"),  # BGBlitz in Japanese
    (re.compile(r"\s*赤\s*"), "Red"),
)


def drawable(text: str) -> bool:
    """Every character of ``text`` is in a font in use (the shipped ones and those added)."""
    font = default_font()
    return all(c.isspace() or font.has_any(c) for c in text)


_LATIN: dict[tuple[str, tuple[object, ...]], str] = {}
""":func:`latin_name`'s answers, by the name and the fonts in use (every diagram's caption asks again)."""


def latin_name(name: str) -> str:
    """``name``, or, when it needs a font that is not in use and is a program's default name, that
    program's English default."""
    key = (name, tuple(default_font().fallbacks))
    known = _LATIN.get(key)
    if known is not None:
        return known
    out = name
    if not drawable(name):
        for pattern, latin in _DEFAULT_NAMES:
            if pattern.fullmatch(name):
                out = pattern.sub(latin, name)
                break
    if len(_LATIN) >= 4096:
        _LATIN.clear()
    _LATIN[key] = out
    return out


def english_verdict(cube: CubeAnalysis, position: Position | None = None) -> str | None:
    """The verdict the three equities say (:attr:`notation.decisions.CubeEquities.verdict`, the one
    rule, ties included), in the words eXtreme Gammon uses in English (``No double / Take``, ``Double /
    Pass``, ``Too good to redouble / Pass`` ...): :data:`WORDS`' ``verdict_*``.  ``Redouble`` when the
    doubler owns the cube.  None when an equity is missing."""
    nd, dt, dp = cube.no_double, cube.double_take, cube.double_pass
    if nd is None or dt is None or dp is None:
        return None
    v = CubeEquities(nd, dt, dp).verdict
    redouble = position is not None and position.cube_owner is not None
    key = "verdict_" + v.action.replace(" ", "_") + ("_redouble" if redouble else "")
    return WORDS[key].format(answer=WORDS["verdict_" + v.answer])


def cube_caption(cube: CubeAnalysis, position: Position | None = None) -> str:
    """The caption of a cube decision: the verdict (the producer's words, in English when no font in use
    has their script), then the three equities."""
    verdict = cube.verdict.strip() if cube.verdict else ""
    if not verdict or not drawable(verdict):
        verdict = english_verdict(cube, position) or verdict
    equities = cube_equities(cube)
    equities = equities[0].upper() + equities[1:]
    return f"{verdict}. {equities}." if verdict else f"{equities}."


def _side(position: Position, player: int, words: dict[str, str]) -> str:
    """A player as a caption names him: his name when the position knows it, else his colour."""
    names = position.names
    name = names[player].strip() if player < len(names) and names[player] else ""
    return latin_name(name) if name else words[("white", "black")[player]]


def game_words(position: Position, *, crawford_rule: bool = True, words: dict[str, str] | None = None) -> str:
    """The game, without a full stop: ``Money game``, ``Match to 7, White leads 3-0``, ``Match to 7,
    2-2``, ``Match to 7, Black leads 6-4, Crawford game`` or ``..., post-Crawford`` (a player one point
    from the match after the Crawford game; ``crawford_rule=False``: the match is played without it)."""
    w = WORDS if words is None else words
    n = position.match_length
    if n <= 0:
        return w["money"]
    a, b = position.score
    parts = [w["match"].format(length=n)]
    if a == b:
        parts.append(w["level"].format(a=a, b=b))
    else:
        leader = 0 if a > b else 1
        parts.append(w["leads"].format(leader=_side(position, leader, w), high=max(a, b), low=min(a, b)))
    if position.crawford:
        parts.append(w["crawford"])
    elif crawford_rule and n > 1 and (a == n - 1) != (b == n - 1):
        parts.append(w["post_crawford"])
    return ", ".join(parts)


def says_game(text: str, position: Position, *, words: dict[str, str] | None = None) -> bool:
    """``text`` already says the game of ``position`` as :func:`game_words` does (``Match to 7``, ``Money
    game``): a diagram then does not add the match length to it."""
    w = WORDS if words is None else words
    n = position.match_length
    return (w["match"].format(length=n) if n > 0 else w["money"]) in text


def _may_double(position: Position) -> bool:
    """The player on roll may turn the cube: it is in play, not in the Crawford game, not his opponent's,
    and not at its limit."""
    if position.max_cube == 0 or position.crawford:
        return False
    if position.cube_owner is not None and position.cube_owner != position.turn:
        return False
    return position.cube < 2 ** position.max_cube


def question_words(position: Position, *, words: dict[str, str] | None = None) -> str:
    """Who is on roll and what is asked, as a sentence: ``White to play 52.`` (the higher die first),
    ``White on roll. Cube action?``, ``Black doubles. Take or pass?`` (``redoubles`` when he owns the
    cube; ``Take, pass or beaver?`` where beavers are allowed), a resignation offered, or ``White on
    roll.`` where the cube cannot be turned."""
    from notation.position import GAME_PLAYING

    w = WORDS if words is None else words
    if position.resign_offered in (1, 2, 3) and position.resigner in (0, 1):
        return w["resigns"].format(who=_side(position, position.resigner, w),
                                   what=w[f"resign_{position.resign_offered}"])
    if position.game_state > GAME_PLAYING:
        return w["game_over"]
    who = _side(position, position.turn, w)
    if position.double_offered:
        if position.cube_owner is not None:
            return w["redoubles"].format(who=who)
        beaver = position.beavers and position.match_length == 0
        return w["doubles_beaver" if beaver else "doubles"].format(who=who)
    if position.dice is not None:
        high, low = max(position.dice), min(position.dice)
        return w["to_play"].format(who=who, roll=f"{high}{low}")
    return w["cube_action" if _may_double(position) else "on_roll"].format(who=who)


def book_caption(position: Position, *, pips: bool = False, crawford_rule: bool = True,
                 words: dict[str, str] | None = None) -> str:
    """The caption a book prints with a problem: the game, then who is on roll and what is asked, then
    (``pips``) the pip counts.  ``Match to 7, White leads 3-0. White to play 52.``  Names where the
    position knows them, else the colours.  The words are :data:`WORDS` (or ``words``)."""
    w = WORDS if words is None else words
    out = [w["game_end"].format(game=game_words(position, crawford_rule=crawford_rule, words=w)),
           question_words(position, words=w)]
    if pips:
        first = position.turn if position.turn in (0, 1) else 0
        second = 1 - first
        out.append(w["pips"].format(first=_side(position, first, w), first_pips=position.pips(first),
                                    second=_side(position, second, w), second_pips=position.pips(second)))
    return " ".join(out)


def title(position: Position, *, plays: tuple[str, ...] = (), dice: tuple[int, int] | None = None,
          words: dict[str, str] | None = None) -> str:
    """A diagram's title where nothing else names it: ``Backgammon position, Black to play 5-2`` (or the
    plays drawn), ``Backgammon position, Black on roll``.  Always the colours, as the board shows them."""
    w = WORDS if words is None else words
    who = w[("white", "black")[position.turn if position.turn in (0, 1) else 0]]
    dice = dice if dice is not None else position.dice
    if plays:
        return w["title_play"].format(who=who, what="; ".join(plays))
    if dice:
        return w["title_play"].format(who=who, what=f"{dice[0]}-{dice[1]}")
    return w["title_on_roll"].format(who=who)


def describe(position: Position, *, caption: str | None = None, names: tuple[str, str] | None = None,
             plays: tuple[str, ...] = (), dice: tuple[int, int] | None = None, ghost_play: str | None = None,
             table: tuple[tuple[str, ...], ...] = (), words: dict[str, str] | None = None) -> str:
    """A diagram in words, for a reader who cannot see it (an SVG's ``<desc>``): its caption, the book
    caption of the position with the pip counts, where each side's checkers stand (each in his own
    numbering), the cube, the dice, the plays drawn as arrows (and ``ghost_play``, pale), the rows of
    ``table``; one sentence a line.  ``names``: the
    names the diagram shows (default: the position's)."""
    w = WORDS if words is None else words
    shown = position if names is None else position.replace(names=names)
    if dice is not None and not shown.double_offered:
        shown = shown.replace(dice=dice)
    lines = [caption] if caption else []
    pips = (shown.pips(0), shown.pips(1))
    first = shown.turn if shown.turn in (0, 1) else 0
    lines.append(" ".join((book_caption(shown, crawford_rule=True, words=w), w["pips"].format(
        first=_side(shown, first, w), first_pips=pips[first], second=_side(shown, 1 - first, w),
        second_pips=pips[1 - first]))))
    checkers = shown.rules.checkers
    for player in (0, 1):
        b = shown.boards[player]
        where = [w["on_point"].format(n=b[p], point=p) for p in range(24, 0, -1) if b[p]]
        if b[25]:
            where.insert(0, w["on_bar"].format(n=b[25]))
        if b[0]:
            where.append(w["borne_off"].format(n=b[0]))
        if checkers - sum(b) > 0:
            where.append(w["waiting"].format(n=checkers - sum(b)))
        colour = w[("white", "black")[player]]
        name = shown.names[player] if player < len(shown.names) else ""
        who = w["side_name"].format(colour=colour, name=latin_name(name)) if name else colour
        lines.append(w["side"].format(who=who, where=", ".join(where + [w["side_pips"].format(n=pips[player])])
                                      if where else w["no_checkers"]))
    if shown.double_offered:
        lines.append(w["cube_offered"].format(value=2 * shown.cube))
    elif shown.max_cube == 0 or shown.crawford:
        lines.append(w["no_cube"])
    elif shown.cube_owner in (0, 1):
        lines.append(w["cube_owned"].format(value=shown.cube, who=_side(shown, shown.cube_owner, w)))
    else:
        lines.append(w["cube_centred"].format(value=shown.cube))
    if shown.dice is not None and not shown.double_offered:
        lines.append(w["dice"].format(a=shown.dice[0], b=shown.dice[1]))
    if plays:
        lines.append(w["arrows"].format(plays="; ".join(plays)))
    if ghost_play:
        lines.append(w["ghost_arrows"].format(play=ghost_play))
    lines += ["  ".join(c for c in row if c) for row in table]
    return "\n".join(lines)


def player_name(names: Sequence[str], player: int) -> str:
    """A player's name as a caption says it: the record's name, else the colour (``White``, ``Black``)."""
    name = names[player] if player < len(names) else ""
    return name or ("White", "Black")[player]


def play_words(step: ReplayStep) -> str | None:
    """A replayed move's play as a caption says it: ``13/8 13/10``, ``... (illegal, as recorded)``, ``no
    move``; None when the replay made no play of it."""
    if step.play is None:
        return None
    if not step.play.steps:
        return "no move"
    return step.play.notation() + ("" if step.legal else " (illegal, as recorded)")


def step_caption(step: ReplayStep, game_no: int, move_no: int | str) -> str:
    """The caption of the position before a replayed action (``gammon render MATCH``): ``Game 2, move 14:
    Alice to play 5-3: 13/8 13/10``, ``Game 3, move 9: Bob doubles to 2`` (and the cube decision's
    caption where the record holds its analysis)."""
    a = step.action
    head = f"Game {game_no}, move {move_no}: {player_name(step.before.names, a.player)}"
    if a.kind == "move" and a.dice:
        played = play_words(step)
        return f"{head} to play {a.dice[0]}-{a.dice[1]}" + ("" if played is None else f": {played}")
    text = f"{head} {action_phrase(a)}"
    if a.kind == "double" and a.analysis is not None and a.analysis.cube is not None:
        text += f". {cube_caption(a.analysis.cube, step.before)}"
    return text
