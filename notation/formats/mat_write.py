"""Writing Jellyfish ``.mat`` transcripts (the reader is :mod:`notation.formats.mat`), and saying what a
written ``.mat`` cannot hold (:func:`write`: the text and the drop reports).

:func:`write_match` writes the layout GNU Backgammon 1.07 writes (``export match mat``) byte for byte:
``%3d) %-27s `` rows, move cells ``NN: a/b c/d `` (a space after each move but the fourth), cube
cells indented by one space, ``Wins N point(s)`` 6 spaces in for the left player and 34 for the
right (or in the right cell after a left ``Drops``), tags first, a blank line, the ``N point
match`` line, a blank line after every game.  It avoids gnubg's bugs: a roll that was not played
gets its own cell (gnubg glues the next cell to it); ``"`` and ``\\`` in tag values are escaped
(``\\"``, ``\\\\``; the reader undoes it); a first ``name : score`` of 31 characters or more keeps a
space before the second name; the last row of a game without a result ends with a line break.
Rules not said by a tag are added as tags (``Variation``, ``Crawford "Off"``, ``Jacoby``,
``Beaver``, ``Raccoon``, ``CubeLimit``, ``AutoDoubles``; a tag that says a rule otherwise than the
record's rules is kept, and :func:`notation.convert.render_match` reports the rule it hides).  Written
as gnubg would: ``Cannot Move`` as an empty cell; not written: Galaxy's ``Losses`` (the ``Wins`` says
it); kept although gnubg never writes them: ratings after the names (``zoonk,1666``), ``???`` rolls,
``Concedes``/``Accepts``/``Rejects``, Snowie set-ups.

Plays are re-written from their text with :func:`notation.play.parse_play`: ``bar``/``off`` as
chosen, repeat counts and chains expanded into single moves (``13/11(2)`` → ``13/11 13/11``,
``24/18/13`` → ``24/18 18/13``).  Splitting a compressed move (``24/15`` for 63) or adding a
missing hit mark needs the position: that is the replay's job.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import NotationError
from ..losses import crawford_mark, dropped, names_loss
from ..record import Action, Game, Match, MatchRules
from ..rows import mat_rows
from ._mat_shared import RULE_TAGS, resignation_levels, rule_tag, setup_position
from .registry import WriteResult

if TYPE_CHECKING:
    from ..replay import GameReplay, MatchReplay

__all__ = ["write_match", "dump_match", "format_play_text", "write", "REASONS"]

REASONS = {
    "comment:action": "written as ';' lines after the last row of an unfinished game or after a result, "
                      "where they are read back as comments of the game",
    "analysis": "the .mat writer does not write it (convert to json keeps it)",
    "property": ".mat has no place for them",
    "thumbnail": ".mat has no place for it",
}
"""Why a ``.mat`` file cannot hold what :func:`notation.losses.lost` says it lost (by kind)."""


_VARIATION_TAGS = {
    "nackgammon": "NackGammon",
    "hypergammon1": "HyperGammon (1)",
    "hypergammon2": "HyperGammon (2)",
    "hypergammon3": "HyperGammon (3)",
    "dutch": "Dutch",
}


_BREAKS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\u2028\u2029\x85]")
"""Line breaks and control characters: record text never becomes a line (a row, a game) of its own."""


def one_line(value: str) -> str:
    """``value`` with line breaks and control characters made spaces (a tag value or a name is one line
    of a ``.mat`` file; :func:`notation.convert.render_match` reports each such change)."""
    return _BREAKS.sub(" ", value) if _BREAKS.search(value) else value


def header_tags(m: Match) -> list[tuple[str, str]]:
    """The header tags the writer writes: the record's, and a tag for each rule none of them says."""
    tags = list(m.tags)
    have = {k.lower().replace(" ", "") for k, _ in tags}
    r = m.rules
    if r.variant != "standard" and "variation" not in have:
        value = _VARIATION_TAGS.get(r.variant, r.variant)
        at = len(tags)
        for i, (k, _) in enumerate(tags):
            if k.lower() == "transcriber":
                at = i
                break
        tags.insert(at, ("Variation", value))
    if m.length > 0 and not r.crawford and "crawford" not in have:
        tags.append(("Crawford", "Off"))
    if r.jacoby and "jacoby" not in have:
        tags.append(("Jacoby", "On"))
    if r.beavers and not have & {"beaver", "beavers"}:
        tags.append(("Beaver", "On"))
    if r.raccoons and not have & {"raccoon", "raccoons"}:
        tags.append(("Raccoon", "On"))
    if r.auto_doubles and not have & {"autodoubles", "automaticdoubles"}:
        tags.append(("AutoDoubles", str(r.auto_doubles)))
    if "cubelimit" not in have:
        if not r.cube:
            tags.append(("CubeLimit", "1"))
        elif r.cube_limit is not None:
            tags.append(("CubeLimit", str(r.cube_limit)))
    return tags


def mat_name(name: str) -> str:
    """A player's name as a score line can hold it: one line, no ``:`` (it separates name and score),
    no blanks around it, never empty (``-``).  :func:`notation.convert.render_match` reports each
    change."""
    n = one_line(name).replace(":", ";").strip()
    return n or "-"


def mat_rating(rating: str | None) -> str | None:
    """A player's rating as a score line can hold it after the name (``1650`` or ``1650.5``: what the
    reader splits off a name), or None: anything else is not written (:func:`notation.convert.render_match`
    reports it)."""
    return rating if rating and re.fullmatch(r"[0-9]{1,9}(?:[.,][0-9]+)?", rating) else None


def _escape(value: str) -> str:
    return one_line(value).replace("\\", "\\\\").replace('"', '\\"')


def format_play_text(play: str, *, bar: str = "25", off: str = "0", hit_marks: bool = True) -> str:
    """A written play re-written as gnubg's ``.mat`` moves, from the text alone: one ``from/to`` per
    checker step as written, ``bar``/``off`` as chosen, repeat counts and chains expanded.  Moves
    that skip points (``24/15`` for 63) are kept: splitting them needs the position.  Text that is
    not a play is returned unchanged."""
    from ..play import parse_play

    try:
        parsed = parse_play(play)
    except NotationError:
        return play
    return " ".join(_plain_moves(parsed.segments, bar=bar, off=off, hit_marks=hit_marks))


def _point(p: int, bar: str, off: str) -> str:
    if p == 25:
        return bar
    if p <= 0:
        return off
    return str(p)


def _plain_moves(segments: Iterable[Any], *, bar: str, off: str, hit_marks: bool) -> list[str]:
    out: list[str] = []
    for seg in segments:
        pts, marks = seg.points, seg.marks
        for copy in range(seg.count):
            for k in range(1, len(pts)):
                star = "*" if hit_marks and marks[k] and copy == 0 else ""
                out.append(f"{_point(pts[k - 1], bar, off)}/{_point(pts[k], bar, off)}{star}")
    return out


def _plays_plain(play: str, bar: str, off: str, hit_marks: bool) -> list[str] | None:
    """The moves of ``play`` as the ``.mat`` writer writes them; None when ``play`` is no play (words,
    ``:``, ``=>``: a cell holding them would not read back, or would read as something else)."""
    from ..play import parse_play, plain_legs

    if bar == "25" and off == "0" and hit_marks and plain_legs(play, words=False) is not None:
        return play.split()  # already gnubg's form (most plays)
    try:
        parsed = parse_play(play)
    except NotationError:
        return None
    return _plain_moves(parsed.segments, bar=bar, off=off, hit_marks=hit_marks)


def writable_play(play: str) -> bool:
    """Whether the ``.mat`` writer writes ``play`` as moves (it is a play), not as the dice alone."""
    return _plays_plain(play, "25", "0", True) is not None


def unwritable_plays(match: Match) -> list[Action]:
    """The moves of ``match`` whose play text is no play (:func:`writable_play`): the ``.mat`` writer
    writes each of their cells as the dice alone, and the conversion says so."""
    return [a for g in match.games for a in g.actions if a.kind == "move" and a.play and not writable_play(a.play)]


def _comment_line(text: str) -> str:
    """A comment as ``;`` lines, one for each of its lines (trailing blanks are not kept: the reader
    drops them): no line of a comment can become a row."""
    out = []
    for line in re.split(r"\r\n|[\r\n\u2028\u2029\x85]", text.rstrip()):
        line = one_line(line).rstrip()
        out.append(f"; {line}\n" if line else ";\n")
    return "".join(out)


def _points_word(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def resign_word(a: Action) -> str:
    """The word the ``.mat`` writer writes for a resignation: the cell's own (``Resigns``, ``Concedes``,
    ``Forfeits``) when it was read from one; else ``Resigns`` for one of known level (a reader takes it from
    the result that follows, :func:`resignation_levels`) and XG's ``Concedes`` for one of unknown level."""
    word = (a.text or "").strip()
    if word.lower() in ("resigns", "concedes", "forfeits"):
        return word.capitalize()
    return "Resigns" if a.value in (1, 2, 3) else "Concedes"


_CUBE_WORDS = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}
"""The word of a cube action in a .mat cell, before ``=> N`` (the cube's new value)."""
_WORDS = {"take": " Takes", "drop": " Drops", "accept": " Accepts", "reject": " Rejects"}
"""The .mat cell of an action that is one word."""


class _Writer:
    def __init__(self, match: Match, bar: str, off: str, hit_marks: bool) -> None:
        self.m = match
        self.bar, self.off, self.hit_marks = bar, off, hit_marks
        self.out: list[str] = []
        self.written: Counter[tuple[str, ...]] = Counter()
        """What was written of what :func:`notation.losses.holdings` counts (its keys)."""

    def write(self) -> str:
        m, out = self.m, self.out
        for k, v in self._tags():
            out.append(f'; [{k} "{_escape(v)}"]\n')
        for k, _ in m.tags:
            self.written["tag", k] += 1
        if m.comments:
            out.append("\n")
            for c in m.comments:
                out.append(_comment_line(c))
                self.written["comment", "match"] += 1 if c else 0
        else:
            out.append("\n")
        out.append(f" {m.length} point match\n\n")
        score = [0, 0]
        for game in m.games:
            self._game(game, score)
            res = game.result
            if res is not None:
                score[res[0]] += res[1]
        return "".join(out)

    def _tags(self) -> list[tuple[str, str]]:
        return header_tags(self.m)

    def _names(self, game: Game) -> tuple[str, str]:
        names = game.names or self.m.names
        out = []
        for i in (0, 1):
            n = mat_name(names[i])
            r = mat_rating(game.ratings[i]) if game.ratings else None
            out.append(f"{n},{r}" if r else n)
        return out[0], out[1]

    def _cell(self, a: Action) -> str:
        k = a.kind
        if k in ("move", "roll"):
            d = a.dice
            head = f"{d[0]}{d[1]}: " if d else ""
            if k == "roll":
                # "???" is kept (gnubg reads it); an empty cell would read back as a dance unless a
                # result follows.
                q = a.no_move if a.no_move and a.no_move.startswith("?") else ""
                return f"{head}{q}" if head else (q or "????")
            moves = _plays_plain(a.play, self.bar, self.off, self.hit_marks) if a.play else []
            if not moves:  # (no play, or text that is no play: the dice alone, said by unwritable_plays)
                return head
            return head + " ".join(moves) + (" " if len(moves) < 4 else "")
        if k in _CUBE_WORDS:
            return f" {_CUBE_WORDS[k]} => {a.value}"
        if k in _WORDS:
            return _WORDS[k]
        if k == "resign":
            return f" {resign_word(a)}"
        if k == "setup":
            return self._setup_cell(a)
        raise ValueError(f"cannot write a {k!r} action in a .mat row")

    def _setup_cell(self, a: Action) -> str:
        d = a.dice
        head = f"{d[0]}{d[1]}: " if d else ""
        s = setup_position(a.text or "", anywhere=True)
        if s is not None:
            return f"{head}Illegal play ({s[1]}) "
        if a.setup is not None:
            from ..ids import snowie

            return f"{head}Illegal play ({snowie(a.setup)}) "
        raise ValueError("a set-up position without a Snowie text cannot be written to .mat")

    def _game(self, game: Game, running: list[int]) -> None:
        out = self.out
        out.append(f" Game {game.number}\n")
        n0, n1 = self._names(game)
        sc = game.score if game.score is not None else (running[0], running[1])
        if sc[0] < 0 or sc[1] < 0:  # (an .xg record can say so; a .mat score line has digits only)
            raise NotationError(f"game {game.number}: the score {sc[0]}-{sc[1]} is negative: a .mat score line "
                                "cannot say it")
        first = f"{n0} : {sc[0]}"
        # gnubg pads to 31 characters and glues a longer first part to the second name: keep a space.
        out.append(f" {first:<31}{'' if len(first) < 31 else ' '}{n1} : {sc[1]}\n")
        start = next((a.move_number for a in game.actions if a.move_number is not None), None) or 1
        actions = game.actions
        if game.start is not None:   # a set-up starting position: a Snowie "Illegal play" cell
            actions = [Action(kind="setup", player=game.start.turn, dice=game.start.dice,
                              setup=game.start), *actions]
        rows = mat_rows(actions, start)
        for r, (number, left, right, win) in enumerate(rows):
            lcell = "" if left is None else self._cell(left)
            followed = r + 1 < len(rows)
            if number is None:  # a result on its own line
                assert win is not None
                pts = _points_word(win.value or 0)
                out.append(f"      Wins {pts}\n" if win.player == 0 else f"{' ' * 34}Wins {pts}\n")
            elif win is not None:
                pts = _points_word(win.value or 0)
                if win.player == 1 and left is not None and left.comment:
                    # the left cell's comment between its row and the result, on its own line
                    out.append(f"{number:3d}) {lcell:<27} \n")
                    self._comment(left, True)
                    out.append(f"{' ' * 34}Wins {pts}\n")
                elif win.player == 1:
                    if lcell == " Drops":
                        out.append(f"{number:3d})  Drops{' ' * 23}Wins {pts} \n")
                    elif left is not None and left.kind == "roll" and lcell.endswith(": "):
                        # gnubg: the roll is not padded, then 24 spaces
                        out.append(f"{number:3d}) {lcell}{' ' * 24}Wins {pts}\n")
                    else:
                        out.append(f"{number:3d}) {lcell:<27}  Wins {pts}\n")
                else:  # the row, its action's comment, then the result on its own line
                    out.append(f"{number:3d}) {lcell:<27} \n")
                    self._comment(left, True)
                    out.append(f"      Wins {pts}\n")
            elif right is not None:
                if left is not None and left.comment:
                    # the left cell's comment after it, then the right cell in a row of the same number
                    # (gnubg and the reader read the two rows as one)
                    out.append(f"{number:3d}) {lcell:<27} \n")
                    self._comment(left, True)
                    lcell = ""
                out.append(f"{number:3d}) {lcell:<27} {self._cell(right)}\n")
                self._comment(right, followed)
            else:
                out.append(f"{number:3d}) {lcell:<27} \n")
                self._comment(left, followed)
            if win is not None:
                self._comment(win, False)  # after the result: read back as the game's
        for c in game.comments:
            out.append(_comment_line(c))
            self.written["comment", "game"] += 1 if c else 0
        out.append("\n")

    def _comment(self, a: Action | None, followed: bool) -> None:
        """An action's comment as ``;`` lines after its cell's row.  The reader gives comment lines
        between two lines of a game to the action before them: it is kept when another line of the game
        follows (a next row, or the result on its own line); otherwise (the last row of an unfinished
        game, a result's comment) it is written all the same and counted as lost (read back, the game's)."""
        if a is None or not a.comment:
            return
        self.out.append(_comment_line(a.comment))
        if followed:
            self.written["comment", "action"] += 1


def write_match(match: Match, *, bar: str = "25", off: str = "0", hit_marks: bool = True) -> str:
    """``match`` as a ``.mat`` transcript in GNU Backgammon's layout (see the module docstring).

    ``bar`` / ``off`` name the bar and the tray in moves (gnubg: ``25`` and ``0``; BG Studio:
    ``bar``/``off``); ``hit_marks=False`` drops the ``*`` marks.  Galaxy's ``Losses`` cells are not
    written (the ``Wins`` line says the same)."""
    return _Writer(match, bar, off, hit_marks).write()


def dump_match(match: Match, path: str | os.PathLike[str], **options: Any) -> None:
    """Write ``match`` to ``path`` (UTF-8) as :func:`write_match` formats it."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(write_match(match, **options))


# --------------------------------------------------------------------------- what a .mat cannot hold


def mat_losses(match: Match) -> list[str]:
    """What the ``.mat`` writer writes otherwise than the record says it (the items it cannot hold at
    all are said by :func:`notation.losses.lost`)."""
    out: list[str] = []
    broken = [f"tag {k}" for k, v in match.tags if one_line(v) != v]
    if broken:
        out.append(f"line breaks or control characters in {', '.join(broken)}: written as spaces")
    lost_names = names_loss(match, ".mat")
    if lost_names:
        out.append(lost_names)
    names = {n for g in match.games for n in (g.names or ())} | set(match.names)
    for n in sorted(names):
        if mat_name(n) != n:
            out.append(f"the name {n!r} is written {mat_name(n)!r} (a .mat score line holds one line, no ':', "
                       "no blanks around a name, and no empty name)")
    odd = sorted({r for g in match.games for r in (g.ratings or ()) if r and mat_rating(r) is None})
    if odd:
        out.append(f"ratings that are not numbers ({', '.join(repr(r) for r in odd[:3])}"
                   f"{', ...' if len(odd) > 3 else ''}): .mat holds a rating as a number after the name")
    multi = sum(1 for c in [*match.comments, *(c for g in match.games for c in g.comments)] if "\n" in c.strip())
    if multi:
        out.append(f"{multi} comment{'s' if multi > 1 else ''} of several lines: written as one ';' line a line, "
                   "read back as separate comments")
    losses = sum(1 for g in match.games for a in g.actions if a.kind == "loss")
    if losses:
        out.append(f"{losses} 'Losses N points' result{'s' if losses > 1 else ''} (Galaxy): not written; .mat "
                   f"says a result only as the winner's 'Wins' line")
    setups = sum(1 for g in match.games for a in g.actions if a.kind == "setup") + sum(
        1 for g in match.games if g.start is not None)
    if setups:
        out.append(f"{setups} set-up positions are written as Snowie 'Illegal play' cells, which keep the board, "
                   f"cube and dice but not the player names")
    levels = level_losses(match)
    if levels:
        out.append(f"the level of {levels} resignation{'s' if levels > 1 else ''} (single game, gammon or "
                   "backgammon): .mat says a level only through the points of the 'Wins' line after it, which "
                   "give another or none here")
    return out + rule_losses(match)


def level_losses(match: Match) -> int:
    """How many resignations of ``match`` a reader of the written ``.mat`` takes at another level than the
    record's (or at none): it has only the written word and the points of the result that follows
    (:func:`notation.formats._mat_shared.resignation_levels`)."""
    from dataclasses import replace

    lost = 0
    running = [0, 0]
    for g in match.games:
        known = [a for a in g.actions if a.kind == "resign" and a.value in (1, 2, 3)]
        if known:
            written = [replace(a, text=resign_word(a)) if a.kind == "resign" else a for a in g.actions]
            score = g.score if g.score is not None else (running[0], running[1])
            read = {id(a): level for a, level in
                    resignation_levels(Game(g.number, score=score, actions=written), match.length)}
            lost += sum(1 for a, w in zip(g.actions, written, strict=True)
                        if a.kind == "resign" and a.value in (1, 2, 3) and read.get(id(w)) != a.value)
        if g.result is not None and g.result[0] in (0, 1):
            running[g.result[0]] += g.result[1]
    return lost


_RULE_WORDS = {"variant": "the variant", "crawford": "the Crawford rule", "jacoby": "the Jacoby rule",
               "beavers": "beavers", "raccoons": "raccoons", "auto_doubles": "automatic doubles",
               "cube": "the cube"}
def rule_losses(match: Match) -> list[str]:
    """The rules a reader of the written ``.mat`` takes otherwise than the record's: its header tags say the
    rules (the writer adds one for each rule no tag says), so a tag of the record that says a rule otherwise
    hides the record's rule."""
    read = MatchRules()
    said: dict[str, tuple[str, str]] = {}
    for k, v in header_tags(match):
        rule = RULE_TAGS.get(k.lower().replace(" ", ""))
        try:
            if rule_tag(read, k, v) is None and rule is not None:
                said[rule] = (k, v)
        except ValueError:  # an unknown variation (the reader refuses the file)
            said["variant"] = (k, v)
    mine, theirs = _rule_values(match.rules, match.length), _rule_values(read, match.length)
    out = []
    for name, value in mine.items():
        if theirs[name] != value:
            tag = said.get(name)
            shown = f'the header tag [{tag[0]} "{tag[1]}"] says' if tag else "no header tag can say it, read back as"
            out.append(f"the rules: {_RULE_WORDS[name]} {_rule_text(value)}: {shown} {_rule_text(theirs[name])}, "
                       "which a reader of the .mat takes")
    return out


def _rule_values(r: MatchRules, length: int) -> dict[str, object]:
    """The rules as a ``.mat`` can say them: the Crawford rule only in a match, a cube limit of 1 as no cube."""
    out: dict[str, object] = {"variant": r.variant}
    if length > 0:
        out["crawford"] = r.crawford
    nocube = not r.cube or (r.cube_limit is not None and r.cube_limit <= 1)
    out.update(jacoby=r.jacoby, beavers=r.beavers, raccoons=r.raccoons, auto_doubles=r.auto_doubles,
               cube="none" if nocube else f"limit {r.cube_limit}" if r.cube_limit is not None else "no limit")
    return out


def _rule_text(v: object) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


def crawford_losses(match: Match, rep: MatchReplay | None) -> list[str]:
    """The Crawford marks a ``.mat`` file cannot say: it marks no game, and a reader finds the Crawford game
    from the score, so a mark is lost where the score does not make the game so (the replay's error)."""
    if match.length <= 0 or all(g.crawford is None for g in match.games):
        return []
    if rep is None or len(rep.crawford) != len(match.games):
        from ..replay import Replayer

        r = Replayer(match, keep=False, steps=False)  # (the findings-only replay: what the score makes)
        for game in match.games:
            r.feed(game)
        rep = r.rep
    return [x for x in (crawford_mark(g, c, _MAT_CRAWFORD) for g, c in zip(match.games, rep.crawford, strict=True))
            if x]


_MAT_CRAWFORD = ".mat marks none (a reader finds the Crawford game from the score)"


def crawford_loss(game: Game, gr: GameReplay | None) -> str | None:
    """What :func:`crawford_losses` says of one game (``gr``: its replay), or None."""
    return None if gr is None else crawford_mark(game, gr.crawford, _MAT_CRAWFORD)


def rewrites(match: Match, bar: str = "25", off: str = "0", hit_marks: bool = True) -> list[str]:
    """How the .mat writer spells what the source spelled otherwise (never silently)."""
    from ..play import point_words

    out = []
    junk = unwritable_plays(match)
    unwritten = {id(a) for a in junk}
    moves = [a for g in match.games for a in g.actions if a.kind == "move" and id(a) not in unwritten]
    named = [point_words(a.play) for a in moves if a.play]
    for name, point, target in (("bar", 25, bar), ("off", 0, off)):
        if target == str(point):
            n = sum(1 for words in named if point in words)
            if n:
                out.append(f"{n} plays spell the {name} as a word: written {target!r} as gnubg writes it "
                           f"(--{name} {name} keeps the word)")
    if junk:
        from .._term import safe_line

        first = safe_line(junk[0].play or "")
        first = first if len(first) <= 40 else first[:39] + "…"
        out.append(f"{len(junk)} play{'s' if len(junk) > 1 else ''} that {'are' if len(junk) > 1 else 'is'} no "
                   f"play ('{first}'{', ...' if len(junk) > 1 else ''}): written as the dice alone (no move), "
                   ".mat holds no other text in a move")
    cannot = sum(1 for a in moves if (a.no_move or "").strip().lower() == "cannot move")
    if cannot:
        out.append(f"{cannot} 'Cannot Move' cells: written empty, as gnubg writes a roll with no move")
    if not hit_marks:
        n = sum(1 for a in moves if a.play and "*" in a.play)
        if n:
            out.append(f"the hit marks of {n} plays (--no-hit-marks)")
    return out


def roll_losses(match: Match) -> list[str]:
    """The rolls not played (the player resigned, or the record stops there): a ``.mat`` cell holds each
    as an empty move."""
    resigned = stops = 0
    for g in match.games:
        for i, a in enumerate(g.actions):
            if a.kind != "roll":
                continue
            rest = [b.kind for b in g.actions[i + 1:] if b.kind not in ("win", "loss", "accept")]
            if rest or any(b.kind in ("win", "loss") for b in g.actions[i + 1:]):
                resigned += 1
            else:
                stops += 1
    out = []
    if resigned:
        out.append(f"{resigned} roll{'s' if resigned > 1 else ''} after which the player resigned without moving: "
                   f".mat writes {'each' if resigned > 1 else 'it'} as an empty move")
    if stops:
        out.append(f"{stops} roll{'s' if stops > 1 else ''} after which the record stops, not played: .mat writes "
                   f"{'each' if stops > 1 else 'it'} as an empty move")
    return out


def write(match: Match, rep: MatchReplay | None = None, *, bar: str = "25", off: str = "0",
          hit_marks: bool = True) -> WriteResult:
    """``match`` as a ``.mat`` transcript, and what the written text does not hold of it, one item each:
    what it writes otherwise (names, ratings, comments, rules, resignation levels, Crawford marks, plays),
    and what the record holds beyond what was written (:func:`notation.losses.dropped`).  ``rep``: the
    replay of ``match`` as it is, when the caller has it (for the Crawford marks)."""
    w = _Writer(match, bar, off, hit_marks)
    text = w.write()
    return WriteResult(text, mat_losses(match) + crawford_losses(match, rep) + rewrites(match, bar, off, hit_marks)
                       + roll_losses(match) + dropped(match, w.written, REASONS))


def write_games(match: Match, games: Iterator[tuple[Game, GameReplay | None]], emit: Callable[[str], None], *,
                bar: str = "25", off: str = "0", hit_marks: bool = True) -> WriteResult:
    """:func:`write` one game at a time (:meth:`notation.formats.registry.Format.write_games`); the
    Crawford marks are reckoned game by game, from each game's replay when it comes with one."""
    w = _GameByGame(match, bar, off, hit_marks, games, emit)
    emit(w.write())
    return WriteResult("", mat_losses(match) + w.marks + rewrites(match, bar, off, hit_marks) + roll_losses(match)
                       + dropped(match, w.written, REASONS))


class _GameByGame(_Writer):
    """The writer over a match of stand-ins, each swapped for the game ``games`` yields as it is written."""

    def __init__(self, match: Match, bar: str, off: str, hit_marks: bool,
                 games: Iterator[tuple[Game, GameReplay | None]], emit: Callable[[str], None]) -> None:
        super().__init__(match, bar, off, hit_marks)
        self.games_in = games
        self.emit = emit
        self.marks: list[str] = []
        """What :func:`crawford_loss` says of each game written."""

    def _game(self, game: Game, running: list[int]) -> None:
        real, gr = next(self.games_in)
        mark = crawford_loss(real, gr) if self.m.length > 0 else None
        if mark:
            self.marks.append(mark)
        super()._game(real, running)
        self.emit("".join(self.out))
        self.out.clear()
