"""The rules-checked replay of a match record, and its findings.

:func:`replay_match` walks every game of a :class:`~notation.record.Match` from its starting position under
the match's rules and checks everything: each play is legal for its roll, the right side acts, cube
actions are allowed and answered, results equal what the final position and cube say, score lines
add up, the Crawford game is the one it must be and nothing follows the end of the match.

It never raises for a rules problem: each becomes a :class:`Finding` (error, warning or note) with
the file, line, column, game, move, player, roll, the cell's text, a message saying what is wrong
and what would have been legal, and the XGID of the position before the action.

After an illegal play the replay goes on from the position *as recorded* when that is physically
possible (a play not corrected in time stands), so one error does not cascade; otherwise the rest of
the game is marked unverifiable and the next game starts clean.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import AmbiguousPlayError, IllegalPlayError, ParseError
from .play import known_plain_legs, plain_legs
from .position import GAME_DROPPED, GAME_OVER, GAME_RESIGNED, Board, Position, play_result
from .record import Action, Game, Match, rule_number
from .rules import Play, Refusal, play_legs
from .variants import ACEY_DOUBLE, scoring_rule

Severity = Literal["error", "warning", "note"]


@dataclass(slots=True)
class Finding:
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    game: int | None = None
    move: int | None = None
    player: str | None = None
    roll: str | None = None
    text: str = ""
    xgid: str | None = None
    legal: list[str] = field(default_factory=list)
    """For an illegal play: every legal play of the roll, sorted (all of them: a reader shows part of
    the list only as "N of M")."""

    def to_dict(self) -> dict[str, object]:
        """Plain data; the texts a record gave are cut to a bound (:func:`~notation.errors.cut_quotes`)."""
        from .errors import cut_quotes, cut_text

        return {
            "severity": self.severity,
            "line": self.line,
            "column": self.column,
            "game": self.game,
            "move": self.move,
            "player": cut_text(self.player),
            "roll": cut_text(self.roll),
            "text": cut_text(self.text),
            "message": cut_quotes(self.message),
            "xgid": self.xgid,
        }

    def format(self) -> str:
        """Compiler style: ``FILE:LINE:COL: error: game G move M (NAME 52): message``."""
        loc = ":".join(str(x) for x in (self.file or "<input>", self.line, self.column) if x is not None)
        ctx = []
        if self.game is not None:
            ctx.append(f"game {self.game}")
        if self.move is not None:
            ctx.append(f"move {self.move}")
        from .errors import cut_quotes, cut_text

        who = " ".join(cut_text(x) or "" for x in (self.player, self.roll) if x)
        head = " ".join(ctx) + (f" ({who})" if who else "")

        return f"{loc}: {self.severity}: {head + ': ' if head else ''}{cut_quotes(self.message)}"


class ReplayStep:
    """One action of a game with the positions before and after it.  For moves, ``play`` is the play as
    made (legal, or as recorded when illegal but physically possible)."""

    __slots__ = ("action", "_before", "_after", "_lazy", "play", "legal")

    def __init__(self, action: Action, before: Position, after: Position, play: Play | None = None,
                 legal: bool = True) -> None:
        self.action = action
        self._before = before
        self._after = after
        self._lazy: tuple[tuple[Board, Board], int, tuple[Board, Board], tuple[int, int]] | None = None
        """For a legal play the replay's fast lane made: (boards before, player on roll, boards after,
        dice), with ``_before`` the position that holds every other field; the positions before and
        after are made from these when first asked for (a validation that finds nothing never asks)."""
        self.play = play
        self.legal = legal

    def _make(self) -> None:
        boards, turn, after, dice = self._lazy  # type: ignore[misc]
        base = self._before
        self._before = base.replace(boards=boards, turn=turn, dice=dice)
        self._after = base.replace(boards=after, turn=1 - turn)
        self._lazy = None

    @property
    def before(self) -> Position:
        """The position before the action (for a roll or move: with the dice rolled)."""
        if self._lazy is not None:
            self._make()
        return self._before

    @property
    def after(self) -> Position:
        if self._lazy is not None:
            self._make()
        return self._after

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReplayStep):
            return NotImplemented
        return (self.action, self.before, self.after, self.play, self.legal) == (
            other.action, other.before, other.after, other.play, other.legal)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"ReplayStep(action={self.action!r}, before={self.before!r}, after={self.after!r}, "
                f"play={self.play!r}, legal={self.legal!r})")


@dataclass(slots=True)
class GameReplay:
    game: Game
    start: Position
    steps: list[ReplayStep] = field(default_factory=list)
    winner: int | None = None
    points: int | None = None
    verifiable: bool = True
    crawford: bool = False

    @property
    def end(self) -> Position:
        return self.steps[-1].after if self.steps else self.start

    def __iter__(self) -> Iterator[ReplayStep]:
        """The steps of the game, in order."""
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __repr__(self) -> str:
        n = len(self.steps)
        won = "" if self.winner is None else f", won by player {self.winner} ({self.points} points)"
        return f"<GameReplay of {self.game!r}: {n} step{'s' if n != 1 else ''}{won}>"


@dataclass(slots=True)
class MatchReplay:
    match: Match
    games: list[GameReplay] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    crawford: list[bool] = field(default_factory=list)
    """Whether each game fed is the Crawford game, as the score makes it (kept even where the games'
    replays are not: a writer that cannot hold a game's own Crawford mark compares the two)."""

    @property
    def plays(self) -> int:
        return sum(1 for g in self.games for s in g.steps if s.action.kind == "move")

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def _repr_html_(self) -> str | None:
        """Jupyter: the match page with this replay's findings (the renderer is imported on first use:
        :mod:`notation.notebook`)."""
        from .notebook import shown

        return shown("match_html", self)

    def __repr__(self) -> str:
        """Short (the dataclass's own repr printed every step: 149 KB for a 7-point match)."""
        games = len(self.games)
        e, w = self.errors, self.warnings
        return (f"<MatchReplay of {self.match!r}: {games} game{'s' if games != 1 else ''} replayed, "
                f"{e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''}>")

    @property
    def errors(self) -> int:
        return self.count("error")

    @property
    def warnings(self) -> int:
        return self.count("warning")


def _xgid(pos: Position) -> str | None:
    try:
        from .ids import xgid

        return xgid(pos)
    except Exception:  # noqa: BLE001 - a finding must never fail on its context
        return None


def _roll(dice: tuple[int, int] | None) -> str | None:
    return f"{dice[0]}{dice[1]}" if dice else None


def _value_word(k: int) -> str:
    return {1: "single game", 2: "gammon", 3: "backgammon"}.get(k, f"{k}x")


class _GameRunner:
    def __init__(self, rep: MatchReplay, game: Game, start: Position, crawford: bool, *,
                 steps: bool = True) -> None:
        self.rep = rep
        self.lean = not steps
        """Findings only (``Replayer(steps=False)``): a legal play the fast lane takes is recorded as a
        step only when it hits without a mark (:class:`_HitMarks` reads those); the others are counted
        in :attr:`skipped`, and :attr:`marked` says whether one of them marked a hit."""
        self.skipped = 0
        """Plays replayed by the fast lane and not recorded as steps (``lean`` only)."""
        self.marked = False
        self.match = rep.match
        self.game = game
        self._pos = start
        self._moved: tuple[tuple[Board, Board], int] | None = None
        """Boards and player on roll after the last fast-lane plays, not yet made into ``_pos``."""
        self.gr = GameReplay(game, start, crawford=crawford)
        self.names = game.names or self.match.names
        self.ended: str | None = None  # "bearoff", "drop", "resign"
        self.end_points: int | None = None  # points the end implies (before any match cap)
        self.end_winner: int | None = None
        self.resigned: tuple[int, int | None] | None = None
        """The resignation offered and not rejected: (who resigned, its value 1-3 or None when unknown)."""
        self.started = False
        self.beaver_roller: int | None = None
        self.acey_pending: int | None = None
        """Acey-Deucey: the player who played a 1-2 in full and must now name a double."""

    @property
    def pos(self) -> Position:
        """The position now (made from the fast lane's boards when they changed)."""
        if self._moved is not None:
            boards, turn = self._moved
            self._pos = self._pos.replace(boards=boards, turn=turn)
            self._moved = None
        return self._pos

    @pos.setter
    def pos(self, value: Position) -> None:
        self._pos = value
        self._moved = None

    # ------------------------------------------------------------ findings
    def find(self, severity: Severity, action: Action | None, message: str, *, column: int | None = None,
             legal: list[str] | None = None, pos: Position | None = None) -> None:
        span = action.span if action is not None else self.game.span
        p = pos or self.pos
        player = None
        if action is not None:
            player = self.names[action.player] or ("O", "X")[action.player]
        self.rep.findings.append(Finding(
            severity, message, self.match.source,
            span.line if span else None,
            column if column is not None else (span.column if span else None),
            self.game.number,
            action.move_number if action is not None else None,
            player,
            _roll(action.dice) if action is not None else None,
            action.text if action is not None else "",
            _xgid(p), legal or []))

    def record(self, action: Action, after: Position, play: Play | None = None, legal: bool = True) -> None:
        self.gr.steps.append(ReplayStep(action, self.pos, after, play, legal))
        self.pos = after

    # ------------------------------------------------------------ checks
    def check_turn(self, action: Action) -> bool:
        """The right side acts; returns False when the replay cannot go on sensibly."""
        pos = self.pos
        if not self.started:
            self.started = True
            self.pos = pos = pos.replace(turn=action.player)
            return True
        if pos.double_offered and pos.beaver and action.player == self.beaver_roller:
            # After a beaver (or raccoon) the acceptance is not written in .mat files: the original
            # doubler's next roll accepts it.
            self.pos = pos = self._accept_redouble(pos)
        if pos.double_offered:
            self.find("error", action,
                      f"{self._name(1 - pos.turn)} has not answered the double to {pos.cube * 2}")
            self.pos = pos.replace(double_offered=False)
            return True
        if action.player != pos.turn:
            self.find("error", action,
                      f"it is {self._name(pos.turn)}'s turn, not {self._name(action.player)}'s")
            self.pos = pos.replace(turn=action.player)
        return True

    def _name(self, player: int) -> str:
        return self.names[player] or ("O", "X")[player]

    def play_column(self, action: Action) -> int | None:
        if action.span is None:
            return None
        if action.play and action.text:
            i = action.text.find(action.play)
            if i >= 0:
                return action.span.column + i
        return action.span.column

    def next_kind(self, index: int) -> str | None:
        actions = self.game.actions
        return actions[index + 1].kind if index + 1 < len(actions) else None

    # ------------------------------------------------------------ actions
    def fast_moves(self, actions: list[Action], i: int) -> int:
        """The fast lane of :meth:`do_move` for the run of plays from ``actions[i]`` on: each play it can
        take (the right player, plain notation, no cube question pending, not an opening double, legal
        by the rules' :func:`~notation.rules.play_legs`) is recorded exactly as :meth:`do_move` would,
        with no position made; returns the index of the first action it leaves (to :meth:`do_move` and
        the others).  What
        :meth:`do_move` checks of the position before the fast lane is the same for the whole run: the
        fast lane changes only the boards and the player on roll (and, at the game's first play, who
        starts).  An empty play it takes is a dance (:func:`~notation.rules.play_legs` finds no die playable), which
        :meth:`do_move` would record the same way: an empty cell it reads as a resignation is one where
        a die can be played."""
        base = self._pos  # every field but the boards and the player on roll is current
        rules = base.rules
        if base.dice is not None or base.double_offered or self.acey_pending is not None \
                or rules.bonus_roll is not None or rules.hit_needs_home_checker or rules.checkers_start_off_board:
            return i
        if self._moved is not None:
            boards, turn = self._moved
        else:
            boards, turn = base.boards, base.turn
        if not self.started:  # the game's first play: its player is on roll (as check_turn has it)
            self.started = True
            turn = actions[i].player
            self._moved = (boards, turn)
        steps = self.gr.steps
        set_up = self.game.start is not None
        checkers = rules.checkers
        known = known_plain_legs
        legal = play_legs
        new = _object_new
        lean = self.lean
        skipped = self.skipped
        marked = self.marked
        start = i
        n = len(actions)
        while i < n:
            action = actions[i]
            text = action.play
            dice = action.dice
            if action.player != turn or action.kind != "move" or text is None or dice is None \
                    or action.properties or (dice[0] == dice[1] and not steps and not skipped and not set_up):
                break
            legs = known(text, False)
            if legs is False:
                legs = plain_legs(text)
            if legs is None or (not legs and text):  # (blanks alone: do_move asks what they are)
                break
            theirs = boards[1 - turn]
            fast = legal(boards[turn], theirs, legs, dice, rules)
            if fast.__class__ is Refusal:  # (isinstance costs more: this runs for every play)
                break
            played, mine, theirs_after = fast  # type: ignore[misc]  # (a Played)
            after = (mine, theirs_after) if turn == 0 else (theirs_after, mine)
            marks = "*" in text
            if lean and (marks or theirs_after[25] == theirs[25]):
                # findings only: no step, unless the play hits without a mark (see _HitMarks)
                skipped += 1
                marked = marked or marks
            else:
                # a step whose positions are made when first asked for (ReplayStep._lazy), built in
                # place: this runs for almost every play
                step = new(ReplayStep)
                step.action = action
                step._before = step._after = base
                step._lazy = (boards, turn, after, dice)
                step.play = Play(tuple(played), mine, theirs_after)
                step.legal = True
                steps.append(step)
            boards = after
            turn = 1 - turn
            i += 1
            if mine[0] == checkers:  # the game is over: what follows is for the full path
                self._moved = (boards, turn)
                self.skipped = skipped
                self.marked = marked
                self.end_bearoff(action.player)
                return i
        if i > start:
            self._moved = (boards, turn)
            self.skipped = skipped
            self.marked = marked
        return i

    def do_move(self, action: Action, index: int) -> bool:
        """One move or roll by the full path: what :meth:`fast_moves` leaves (other notation, an illegal
        play, an opening double, a roll not played before a resignation, a variant's own rules)."""
        dice = action.dice
        chosen = ACEY_DOUBLE in action.properties
        if chosen or self.acey_pending is not None:
            self.acey_before(action, chosen)
        pos = self.pos
        if not self.started or pos.double_offered or action.player != pos.turn:
            if not self.check_turn(action):
                return False
            pos = self.pos
        if dice is None:
            if action.kind != "roll" or (action.play or "").strip():
                self.find("error", action, "a play without a roll")
                return self.unverifiable(action)
            self.record(action, pos)
            return True
        rules = pos.rules
        text = action.play or ""
        opening_double = dice[0] == dice[1] and not self.gr.steps and not self.skipped \
            and not rules.checkers_start_off_board and self.game.start is None
        pos = pos.replace(dice=dice)
        self.pos = pos
        if opening_double:
            self.find("error", action, f"the opening roll cannot be a double ({dice[0]}{dice[1]})")
        if action.kind == "roll" or not text.strip():
            nxt = self.next_kind(index)
            if action.kind == "roll" or (nxt in ("win", "resign", "loss", None) and self._has_legal(pos, dice)):
                # Rolled, then resigned: nothing to play.
                if nxt is not None and nxt not in ("win", "resign", "loss", "accept"):
                    self.find("warning", action, "a roll without a play, and the game goes on")
                self.record(action, pos)
                return True
        fast = _plain_play(pos, text, dice)
        if fast is not None:
            after = play_result(pos, fast)
            if rules.bonus_roll is not None:
                after = self.acey_after(action, pos, fast, after, chosen)
            self.record(action, after, fast)
            if fast.mine[0] == rules.checkers:
                self.end_bearoff(action.player)
            return True
        col = self.play_column(action)
        from .play import parse_play, resolve_play  # the full path: imported when first needed

        try:
            parsed = parse_play(text, column=col or 1)
        except ParseError as e:
            self.find("error", action, e.message, column=e.column)
            return self.unverifiable(action)
        try:
            res = resolve_play(pos, parsed, dice, column=col or 1)  # (every variant: its rules' play_legs)
        except AmbiguousPlayError as e:
            self.find("error", action, e.message, column=col)
            return self.unverifiable(action)
        except IllegalPlayError as e:
            legal = pos.rules.plays_for(pos.on_roll, pos.opponent, dice[0], dice[1])
            self.find("error", action, e.message, column=col, legal=sorted(p.notation() for p in legal))
            recorded = pos.rules.as_recorded(pos, parsed)
            if recorded is None:
                return self.unverifiable(action)
            after = self.acey_after(action, pos, recorded, play_result(pos, recorded), chosen)
            self.record(action, after, recorded, legal=False)
            return True
        for note in res.notes:
            if note.startswith("the hit on") and "not marked" in note:
                continue  # summarised per file by _HitMarks
            self.find("note", action, note, column=col)
        after = self.acey_after(action, pos, res.play, play_result(pos, res.play), chosen)
        self.record(action, after, res.play)
        if after.boards[action.player][0] == pos.rules.checkers:
            self.end_bearoff(action.player)
        return True

    def acey_before(self, action: Action, chosen: bool) -> None:
        """Acey-Deucey (:mod:`notation.variants`): a fully played 1-2 is followed by a double the same
        player names (a ``move`` whose properties hold ``acey_double``), then by another roll."""
        pending, self.acey_pending = self.acey_pending, None
        if chosen:
            if pending is None:
                self.find("error", action, "a named double (acey_double) must follow a fully played "
                                           "acey-deucey roll (1-2) of the same player"
                                           + ("" if getattr(self.pos.rules, "bonus_roll", None)
                                              else f" in Acey-Deucey, not in {self.pos.rules.title}"))
            elif action.player != pending:
                self.find("error", action, f"{self._name(pending)} rolled the 1-2, so {self._name(pending)} "
                                           f"names the double, not {self._name(action.player)}")
            if action.dice is None or action.dice[0] != action.dice[1]:
                self.find("error", action, "the named double after an acey-deucey roll must be a double, not "
                                           f"{_roll(action.dice) or 'no roll'}")
        elif pending is not None and action.kind in ("move", "roll"):
            self.find("error", action, f"after the acey-deucey roll (1-2) {self._name(pending)} must name a "
                                       f"double and play it, but the record has no named double here")
            self.pos = self.pos.replace(turn=action.player)

    def acey_after(self, action: Action, pos: Position, play: Play, after: Position,
                   chosen: bool) -> Position:
        """The position after a play, with the same player to roll again when Acey-Deucey says so."""
        bonus = getattr(pos.rules, "bonus_roll", None)
        if bonus is None or action.dice is None:
            return after
        if chosen:
            if play.dice_used == 4:
                return after.replace(turn=action.player)
            self.find("note", action, f"the named double is played {play.dice_used} times, not 4: the turn "
                                      f"ends without another roll")
            return after
        if (max(action.dice), min(action.dice)) == bonus:
            if play.dice_used == 2:
                self.acey_pending = action.player
                return after.replace(turn=action.player)
            self.find("note", action, "the 1-2 cannot be played in full: no double is named and the turn "
                                      "ends")
        return after

    def unverifiable(self, action: Action) -> bool:
        self.gr.verifiable = False
        self.find("warning", action,
                  "the rest of this game cannot be checked: the play cannot be made on the board")
        return False

    def do_setup(self, action: Action) -> None:
        """A position set by hand: SGF set-up, or Snowie's ``Illegal play (...)`` inside a ``.mat`` row,
        which gives the position after the mover's play with the opponent on roll."""
        setup = action.setup
        if action.dice is not None or action.text.lower().startswith(("illegal", "1", "2", "3", "4", "5", "6")):
            self.find("warning", action, "the position is set by hand here (an 'Illegal play' edit): "
                                         "this play is not checked")
        if setup is None:
            self.unverifiable(action)
            return
        for problem in setup.problems():  # more checkers than the variant has, two colours on a point ...
            self.find("error", action, f"the position set here is impossible: {problem}")
        on_roll = setup.turn
        names = self.names
        if setup.names[0] and setup.names[0] in names and setup.names[0] != setup.names[1]:
            # Orient by name: setup.names = (player 0's, player 1's) of the setup's own numbering (its
            # player 0 is ours named so; its other name need not be ours at all)
            first = names.index(setup.names[0])
            on_roll = first if setup.turn == 0 else 1 - first
        elif action.dice is not None:
            on_roll = 1 - action.player
        boards = [setup.opponent, setup.opponent]
        boards[on_roll] = setup.on_roll
        owner = setup.cube_owner
        if owner is not None:
            owner = on_roll if owner == setup.turn else 1 - on_roll
        self.started = True
        self.record(action, setup.replace(
            boards=(boards[0], boards[1]), turn=on_roll, dice=None, names=self.pos.names, cube_owner=owner,
            match_length=self.match.length, score=self.pos.score, crawford=self.pos.crawford,
            jacoby=self.pos.jacoby, beavers=self.pos.beavers, variant=self.pos.variant))

    def _has_legal(self, pos: Position, dice: tuple[int, int]) -> bool:
        return bool(pos.rules.plays_for(pos.on_roll, pos.opponent, dice[0], dice[1]))

    def end_bearoff(self, winner: int) -> None:
        pos = self.pos
        loser = pos.boards[1 - winner]
        k = 1
        if loser[0] == 0:
            k = 2
            # Backgammon: a loser's checker on the bar, waiting to enter, or in the winner's home board.
            if loser[25] or pos.waiting(1 - winner) > 0 or any(loser[p] for p in range(19, 25)):
                k = 3
            if self.match.length == 0 and self.match.rules.jacoby and pos.cube_owner is None:
                k = 1  # Jacoby rule: gammons count single while the cube has not been turned
        if scoring_rule(self.match) == "checkers":
            k = pos.rules.checkers - loser[0]  # one point per checker the loser has not borne off
        self.ended = "bearoff"
        self.end_winner = winner
        self.end_points = pos.cube * k
        self.gr.winner = winner
        self.pos = pos.replace(game_state=GAME_OVER)

    def do_double(self, action: Action) -> bool:
        pos = self.pos
        if not self.started:
            self.started = True
            self.pos = pos = pos.replace(turn=action.player)
        if pos.double_offered and action.player == 1 - pos.turn:
            # SGF writes a beaver or raccoon as another 'double' by the doubled player.
            return self.do_redouble(action, "beaver" if not pos.beaver else "raccoon")
        if pos.double_offered:
            self.find("error", action, f"a double is offered while the double to {pos.cube * 2} is unanswered")
        elif action.player != pos.turn:
            self.find("error", action,
                      f"{self._name(action.player)} doubles, but it is {self._name(pos.turn)}'s turn")
            pos = pos.replace(turn=action.player)
        rules = self.match.rules
        if not rules.cube:
            self.find("error", action, "the cube is not in use in this match")
        if self.gr.crawford:
            self.find("error", action, "a double in the Crawford game")
        if pos.cube_owner is not None and pos.cube_owner != action.player:
            self.find("error", action,
                      f"{self._name(action.player)} doubles, but {self._name(pos.cube_owner)} owns the cube")
        new = pos.cube * 2
        auto = None
        if action.value is not None and action.value > new:
            auto = self._auto_start(pos, action.value)
        if auto is not None:
            pos = auto
            new = pos.cube * 2
        if action.value is not None and action.value != new:
            self.find("error", action, f"the cube is at {pos.cube}, so a double is to {new}, not {action.value}")
        if rules.cube_limit and new > rules.cube_limit:
            self.find("error", action, f"the cube is limited to {rules.cube_limit}")
        self.record(action, pos.replace(turn=action.player, dice=None, double_offered=True, beaver=0))
        return True

    def _auto_start(self, pos: Position, value: int) -> Position | None:
        """The first double of a money game offers ``value`` with the cube untouched: the game began with
        automatic doubles that the record does not write (other producers than gnubg write the real cube)."""
        if self.match.length != 0 or pos.cube_owner is not None or any(
                s.action.kind in ("double", "take", "beaver") for s in self.gr.steps):
            return None
        allowed = auto_doubles_allowed(self.match) - (pos.cube.bit_length() - 1)
        for k in range(1, allowed + 1):
            if value == pos.cube << (k + 1):
                self.find("note", None, f"the first double is to {value}: game {self.game.number} began with "
                                        f"the cube at {pos.cube << k} after automatic doubles")
                return pos.replace(cube=pos.cube << k)
        return None

    def do_answer(self, action: Action) -> bool:
        pos = self.pos
        if not pos.double_offered:
            self.find("error", action, f"{action.kind} without a double")
            self.record(action, pos)
            return True
        if action.player != 1 - pos.turn:
            self.find("error", action, f"{self._name(action.player)} answers their own double")
        if action.kind == "take":
            if pos.beaver:
                self.record(action, self._accept_redouble(pos))
            else:
                after = pos.replace(cube=pos.cube * 2, cube_owner=1 - pos.turn, double_offered=False, beaver=0)
                self.record(action, after)
        elif action.kind == "drop":
            self.ended = "drop"
            self.end_winner = pos.turn
            self.end_points = pos.cube
            self.gr.winner = pos.turn
            self.record(action, pos.replace(double_offered=False, game_state=GAME_DROPPED))
        elif action.kind == "beaver":
            return self.do_redouble(action, "beaver")
        return True

    def do_redouble(self, action: Action, kind: str) -> bool:
        """A beaver (the doubled player takes and at once redoubles, keeping the cube) or a raccoon (the
        original doubler does the same to the beaver).  The new offer waits for an answer: an explicit
        take or drop (SGF), or, as ``.mat`` files have it, the original doubler's next roll."""
        pos = self.pos
        checked = Action(kind, action.player)  # type: ignore[arg-type]
        self._check_beaver_allowed(checked)
        if kind == "raccoon" and pos.beaver != 1:
            self.find("error", action, "a raccoon must answer a beaver")
        if kind == "beaver" and pos.beaver:
            self.find("error", action, "only one beaver is allowed")
        if action.player != 1 - pos.turn:
            self.find("error", action, f"{self._name(action.player)} cannot {kind} their own double")
        if not pos.beaver:
            self.beaver_roller = pos.turn
        new = pos.cube * 4
        if action.value is not None and action.value != new:
            self.find("error", action, f"a {kind} of a double to {pos.cube * 2} makes the cube {new}, "
                                       f"not {action.value}")
        self.record(action, pos.replace(cube=pos.cube * 2, turn=action.player, double_offered=True,
                                        beaver=pos.beaver + 1))
        return True

    def _accept_redouble(self, pos: Position) -> Position:
        """The last redouble of a beaver chain is accepted: its maker keeps the cube; the original
        doubler rolls."""
        return pos.replace(cube=pos.cube * 2, cube_owner=pos.turn, double_offered=False,
                           turn=self.beaver_roller if self.beaver_roller is not None else 1 - pos.turn)

    def _check_beaver_allowed(self, action: Action) -> None:
        rules = self.match.rules
        if self.match.length > 0:
            self.find("error", action, f"{action.kind}s are not allowed in match play")
        elif action.kind == "beaver" and not rules.beavers:
            self.find("error", action, "beavers are not allowed in this session")
        elif action.kind == "raccoon" and not (rules.raccoons or rules.beavers):
            self.find("error", action, "raccoons are not allowed in this session")

    def do_raccoon(self, action: Action) -> bool:
        return self.do_redouble(action, "raccoon")

    def do_win(self, action: Action) -> bool:
        pos = self.pos
        n = action.value
        winner = action.player
        m = self.match
        if self.ended is None:
            # A resignation (explicit or implied by the result line).
            if pos.double_offered:
                self.find("error", action, "a result while a double is unanswered")
            ks = range(1, pos.rules.checkers + 1) if scoring_rule(m) == "checkers" else (1, 2, 3)
            values = {pos.cube * k: k for k in ks}
            self.ended = "resign"
            self.end_winner = winner
            resigned = self.resigned
            if resigned is not None and resigned[0] == winner:
                self.find("error", action, f"{self._name(winner)} resigned, but is recorded as the winner")
            elif resigned is not None and resigned[1] is not None:
                full = pos.cube * resigned[1]
                if n is not None and n != full and not self._capped_ok(n, full, winner):
                    self.find("error", action,
                              f"the resignation of a {_value_word(resigned[1])} with the cube at {pos.cube} is worth "
                              f"{full} point{'s' if full != 1 else ''}, not {n}")
            elif n is not None and n >= 100 and n not in values:
                self.find("warning", action, f"a result of {n} points cannot be played for; it looks like a "
                                             f"forfeit or abandonment marker")
            elif n is not None and n not in values and not self._capped_ok(n, max(values), winner):
                self.find("error", action,
                          f"a resignation is worth {', '.join(str(v) for v in values)} points with the cube at "
                          f"{pos.cube}, not {n}")
            self.end_points = n
            self.gr.winner = winner
            self.record(action, pos.replace(game_state=GAME_RESIGNED))
        else:
            if winner != self.end_winner:
                assert self.end_winner is not None
                self.find("error", action,
                          f"{self._name(winner)} is recorded as the winner, but {self._name(self.end_winner)} won "
                          f"({'the double was dropped' if self.ended == 'drop' else 'by bearing off'})")
                winner = self.end_winner
            expected = self.end_points or 0
            if n is not None and self.ended == "bearoff" and n != expected \
                    and not self._capped_ok(n, expected, winner):
                k = expected // max(pos.cube, 1)
                self.find("error", action,
                          f"the game is a {_value_word(k)} with the cube at {pos.cube}: {expected} "
                          f"point{'s' if expected != 1 else ''}, not {n}")
            elif n is not None and self.ended == "drop" and n != expected \
                    and not self._capped_ok(n, expected, winner):
                self.find("error", action,
                          f"the double to {expected * 2} was dropped: {expected} "
                          f"point{'s' if expected != 1 else ''}, not {n}")
            self.record(action, pos)
        self.gr.winner = winner
        self.gr.points = n if n is not None else self.end_points
        return True

    def do_resign(self, action: Action) -> None:
        """An offer to resign: a legal action of either player while the game goes on (the result that
        follows is checked against it); its value, when the record gives one, is a single, gammon or
        backgammon (or, where a game is scored by checkers, a number of them)."""
        pos = self.pos
        v = action.value
        most = pos.rules.checkers if scoring_rule(self.match) == "checkers" else 3
        if v is not None and not 1 <= v <= most:
            self.find("error", action, f"a resignation of {v} {'checkers' if most > 3 else 'times the cube'}: "
                                       f"it can be 1 to {most}")
            v = None
        self.resigned = (action.player, v)
        self.record(action, pos.replace(resign_offered=v or 1, resigner=action.player))

    def _capped_ok(self, written: int, full: int, winner: int) -> bool:
        """Some producers cap the points at what the winner needed to win the match."""
        m = self.match
        if m.length <= 0:
            return False
        need = m.length - self.pos.score[winner]
        return written == min(full, need) or (written < full and written >= need)


def _plain_play(pos: Position, text: str, dice: tuple[int, int]) -> Play | None:
    """The legal :class:`Play` written as ``text`` in the common shape (:func:`~notation.play.plain_legs`),
    by the rules' :func:`~notation.rules.play_legs`; None for anything else (the full path reads and
    explains it), and for a variant with its own movement."""
    rules = pos.rules
    if rules.hit_needs_home_checker or rules.checkers_start_off_board:
        return None
    legs = plain_legs(text)
    if legs is None:
        return None
    r = play_legs(pos.on_roll, pos.opponent, legs, dice, rules)
    return None if isinstance(r, Refusal) else Play(tuple(r[0]), r[1], r[2])


_object_new = object.__new__


def replay_match(match: Match, *, keep: bool = True) -> MatchReplay:
    """Replay every game of ``match`` under its rules; never raises for rule problems.  With
    ``keep=False`` only the findings are kept, not each game's steps (see :class:`Replayer`)."""
    own = getattr(match, "replay_override", None)  # records with their own replay (chouettes)
    if own is not None:
        return own()  # type: ignore[no-any-return]
    r = Replayer(match, keep=keep)
    for game in match.games:
        r.feed(game)
    return r.finish()


class Replayer:
    """The replay of a match fed one game at a time, for a record read as a stream (a large SGF
    collection, :func:`notation.formats.sgf.iter_sgf`): ``feed`` each game in order, then ``finish``.

    :func:`replay_match` is this with every game fed at once and kept.  With ``keep=False`` no game's replay is
    kept (``feed`` still returns it): memory is then one game plus the findings and one Crawford flag a
    game (:attr:`MatchReplay.crawford`), whatever the number of games; :attr:`games` and :attr:`plays`
    count what was fed.  The match's length, names and rules are read when each game is fed, so a reader
    may still be filling them in while the first game is read.

    With ``steps=False`` (findings only, as ``gammon validate`` needs: implies ``keep=False``), most legal
    plays are replayed on the boards without recording a step: the game replays ``feed`` returns hold
    only some of their steps, and only the findings, :attr:`games` and :attr:`plays` are those of the
    full replay.
    """

    __slots__ = ("rep", "keep", "steps", "games", "plays", "_score", "_crawford_done", "_over", "_last", "_alt",
                 "_last_game", "_hits")

    def __init__(self, match: Match, *, keep: bool = True, steps: bool = True) -> None:
        self.rep = MatchReplay(match)
        self.keep = keep and steps
        self.steps = steps
        self.games = 0
        """Games fed so far."""
        self.plays = 0
        """Moves (actions of kind ``move``) replayed so far."""
        self._score = (0, 0)
        self._crawford_done = False
        self._over = False
        self._last: tuple[int, int, tuple[int, int]] | None = None  # the previous game's winner, points, score
        self._alt: tuple[int, int] | None = None  # the score as a wrong score line had it, carried forward
        self._last_game: Game | None = None
        self._hits = _HitMarks()

    def feed(self, game: Game) -> GameReplay:
        """Replay the next game of the match; its findings are added to ``rep.findings``."""
        rep = self.rep
        match = rep.match
        length = match.length
        rules = match.rules
        gi = self.games
        score = self._score
        alt = self._alt
        if game.score is not None:
            if gi > 0 and game.score != score and alt is not None and game.score == alt:
                score, alt = alt, None  # an earlier score line was right and our total was not
            elif gi > 0 and game.score != score and _auto_doubled(rep, game, self._last, score):
                score = game.score
            elif gi > 0 and game.score != score:
                span = game.score_span or game.span
                hint = ""
                if length == 0 and sum(game.score) > sum(score):
                    hint = (" (automatic doubles are not written in .mat files, and gnubg's export does not "
                            "count them in 'Wins')")
                rep.findings.append(Finding(
                    "error" if length > 0 else "warning",
                    f"the score line says {game.score[0]}-{game.score[1]}, but the games so far give "
                    f"{score[0]}-{score[1]}{hint}",
                    match.source, span.line if span else None, span.column if span else None, game.number))
                # Go on from our total; the written score is kept too, in case the next line follows it.
                alt = game.score
            elif gi == 0:
                score = game.score
        if self._over:
            span = game.span
            rep.findings.append(Finding(
                "error", f"the match was over at {score[0]}-{score[1]}, yet game {game.number} follows",
                match.source, span.line if span else None, span.column if span else None, game.number))
        crawford = False
        if length > 0 and rules.crawford and not self._crawford_done:
            if (score[0] == length - 1) != (score[1] == length - 1):
                self._crawford_done = True
                if gi == 0 and score != (0, 0) and game.crawford is not None:
                    crawford = game.crawford  # a record that starts in mid-match says so itself
                elif gi == 0 and score != (0, 0):
                    # A record that starts in mid-match: the Crawford game may already have been played.
                    span = game.score_span or game.span
                    rep.findings.append(Finding(
                        "note", f"the record starts at {score[0]}-{score[1]}: whether game {game.number} is the "
                                f"Crawford game cannot be told, so its cube actions are not checked for it",
                        match.source, span.line if span else None, span.column if span else None, game.number))
                else:
                    crawford = True
        if game.crawford is not None and game.crawford != crawford and length > 0:
            rep.findings.append(Finding(
                "error", f"game {game.number} is marked {'' if game.crawford else 'not '}the Crawford game, "
                         f"but at {score[0]}-{score[1]} it {'is' if crawford else 'is not'}",
                match.source, game.span.line if game.span else None, None, game.number))
        if game.start is not None:
            start = game.start.replace(match_length=length, score=score, crawford=crawford)
            span = game.span
            # the board alone (its score and cube are the match's, checked as such): more checkers than the
            # variant has, two colours on a point ...
            for problem in Position(boards=start.boards, variant=start.variant).problems():
                rep.findings.append(Finding("error", f"game {game.number} starts from an impossible position: "
                                                     f"{problem}", match.source, span.line if span else None,
                                            span.column if span else None, game.number))
            if start.cube > 1 and start.boards == Position.initial(start.variant).boards:
                _check_auto_start(rep, game, start.cube)
        else:
            start = Position.initial(
                rules.variant, match_length=length, score=score, crawford=crawford,
                jacoby=rules.jacoby and length == 0, beavers=rules.beavers and length == 0,
                names=game.names or match.names, max_cube=10 if rules.cube else 0)
        rep.crawford.append(crawford)
        runner = _GameRunner(rep, game, start, crawford, steps=self.steps)
        _run_game(runner)
        gr = runner.gr
        if self.keep:
            rep.games.append(gr)
        self._hits.add(gr, runner.marked)
        self.games += 1
        self.plays += sum(1 for s in gr.steps if s.action.kind == "move") + runner.skipped
        self._last_game = game
        last = None
        if gr.winner is not None and gr.points is not None:
            last = (gr.winner, gr.points, score)
            s = list(score)
            s[gr.winner] += gr.points
            score = (s[0], s[1])
            if alt is not None:
                a = list(alt)
                a[gr.winner] += gr.points
                alt = (a[0], a[1])
        if length > 0 and max(score) >= length:
            self._over = True
        self._score, self._alt, self._last = score, alt, last
        return gr

    def finish(self) -> MatchReplay:
        """The findings that need the whole match (where it stops, hit marks), and the replay."""
        rep = self.rep
        match = rep.match
        length, score = match.length, self._score
        last = self._last_game
        if length > 0 and last is not None and max(score) < length and not self._over:
            rep.findings.append(Finding(
                "note", f"the match stops at {score[0]}-{score[1]}, before either side reaches {length}",
                match.source, last.span.line if last.span else None, None, last.number))
        if last is not None:
            self._hits.summarise(rep)
        return rep


def auto_doubles_allowed(match: Match) -> int:
    """At most this many automatic doubles per game: ``MatchRules.auto_doubles`` (``--auto-doubles``, SGF
    ``CV``), else a ``; [AutoDoubles "N"]`` header tag (``.mat`` files have no standard way to say it)."""
    if match.rules.auto_doubles:
        return match.rules.auto_doubles
    for name in ("AutoDoubles", "Automatic Doubles", "AutomaticDoubles"):
        value = match.tag(name)
        if value is not None and rule_number(value):  # (as the .mat reader takes it: else it said so and ignored it)
            return int(value.strip())
    return 0


def _auto_doubled(rep: MatchReplay, game: Game, last: tuple[int, int, tuple[int, int]] | None,
                  score: tuple[int, int]) -> bool:
    """A money score line that is off because the previous game began with automatic doubles (equal
    opening throws double the cube): ``.mat`` files do not write them, and gnubg writes that game's
    cube values and 'Wins' as if they had not happened, but counts them in the next score line.
    Adds a note and returns True when ``--auto-doubles``/the rules allow that many."""
    m = rep.match
    n = auto_doubles_allowed(m)
    if m.length != 0 or n <= 0 or last is None or game.score is None:
        return False
    winner, points, before = last
    for k in range(1, n + 1):
        expect = list(before)
        expect[winner] += points << k
        if tuple(expect) == game.score:
            span = game.score_span or game.span
            rep.findings.append(Finding(
                "note", f"the score line says {game.score[0]}-{game.score[1]}: the game before began "
                        f"with {k} automatic double{'s' if k > 1 else ''} (cube {1 << k}), which the record "
                        f"does not write, so it was worth {points << k}, not {points}",
                m.source, span.line if span else None, span.column if span else None, game.number))
            return True
    return False


def _check_auto_start(rep: MatchReplay, game: Game, cube: int) -> None:
    """A game that starts from the initial position with the cube above 1 (SGF ``CV``): automatic
    doubles, which only money play has, and at most ``MatchRules.auto_doubles`` of them."""
    m = rep.match
    k = cube.bit_length() - 1
    span = game.span
    where = (m.source, span.line if span else None, span.column if span else None, game.number)
    if m.length > 0:
        rep.findings.append(Finding("error", f"game {game.number} starts with the cube at {cube}, but "
                                             f"automatic doubles are used only in money play", *where))
    elif k > auto_doubles_allowed(m):
        allowed = auto_doubles_allowed(m)
        rep.findings.append(Finding(
            "error", f"game {game.number} starts with the cube at {cube} ({k} automatic doubles), but "
                     + (f"at most {allowed} per game are allowed" if allowed
                        else "automatic doubles are off"),
            *where))


def _run_game(r: _GameRunner) -> None:
    """Replay one game: a run of plain plays by :meth:`_GameRunner.fast_moves` (the common shape), and
    whatever it leaves (a cube action, an unusual play, an illegal one) by the general methods."""
    actions = r.game.actions
    n = len(actions)
    i = 0
    while i < n:
        action = actions[i]
        kind = action.kind
        if r.ended is not None and kind not in ("win", "loss", "accept"):
            if kind == "move" and not (action.play or "").strip():
                i += 1
                continue  # an empty cell after the end
            r.find("error", action, f"the game is over ({'double dropped' if r.ended == 'drop' else r.ended}), "
                                    f"yet the record goes on")
            return
        if not r.gr.verifiable:
            if kind == "win":
                r.gr.winner = action.player
                r.gr.points = action.value
            i += 1
            continue
        if kind == "move":
            j = r.fast_moves(actions, i)
            if j > i:
                i = j
                continue
            action = actions[i]
        if kind in ("move", "roll"):
            r.do_move(action, i)
        elif kind == "double":
            r.do_double(action)
        elif kind in ("take", "drop", "beaver"):
            r.do_answer(action)
        elif kind == "raccoon":
            r.do_raccoon(action)
        elif kind == "win":
            r.do_win(action)
        elif kind == "resign":
            r.do_resign(action)
        elif kind == "setup":
            r.do_setup(action)
        else:  # loss, accept, reject: informative
            if kind == "reject":
                r.resigned = None
            r.record(action, r.pos)
        i += 1
    if r.ended is None and r.gr.verifiable and actions:
        last = actions[-1]
        r.find("warning", last, "the game ends without a result")
    elif r.ended is not None and r.gr.points is None and r.ended != "resign":
        r.gr.points = r.end_points
        r.find("warning", actions[-1] if actions else None,
               f"no result line: {r._name(r.end_winner or 0)} wins {r.end_points}")


class _HitMarks:
    """Missing hit marks are notes; a file that marks no hit at all gets one note, not hundreds.  Fed one
    game at a time; an unmarked hit keeps only its action and game, not the game's replay."""

    __slots__ = ("unmarked", "any_marked")

    def __init__(self) -> None:
        self.unmarked: list[tuple[int, tuple[str, str] | None, Action, Play]] = []
        self.any_marked = False

    def add(self, g: GameReplay, marked: bool = False) -> None:
        """The game's steps; ``marked``: a play not recorded as a step marked a hit (``Replayer(steps=False)``)."""
        if marked:
            self.any_marked = True
        for s in g.steps:
            play = s.play
            if play is None or s.action.kind != "move":
                continue
            written = s.action.play
            if written and "*" in written:
                self.any_marked = True
                continue
            for step in play.steps:
                if step[2]:
                    self.unmarked.append((g.game.number, g.game.names, s.action, play))
                    break

    def summarise(self, rep: MatchReplay) -> None:
        unmarked = self.unmarked
        if not unmarked:
            return
        if not self.any_marked:
            number, _, a, _ = unmarked[0]
            rep.findings.append(Finding(
                "note", f"this file marks no hits ({len(unmarked)} hits without '*')", rep.match.source,
                a.span.line if a.span else None, a.span.column if a.span else None, number, a.move_number))
            return
        names = rep.match.names
        for number, game_names, a, play in unmarked:
            pts = sorted({t for _, t, h in play.steps if h}, reverse=True)
            rep.findings.append(Finding(
                "note", f"the hit on {', '.join(map(str, pts))} is not marked", rep.match.source,
                a.span.line if a.span else None, a.span.column if a.span else None, number, a.move_number,
                (game_names or names)[a.player] or None, _roll(a.dice), a.text))


def __getattr__(name: str) -> Any:
    """``replay``, the function's name until 0.1.0: :func:`replay_match`, with a DeprecationWarning.
    (The function had the module's name, and the module was made callable to stand for it:
    ``notation.replay`` is the module, and the function is ``notation.replay_match``.)"""
    if name == "replay":
        import warnings

        warnings.warn("notation.replay.replay is now notation.replay.replay_match (notation.replay is the module)",
                      DeprecationWarning, stacklevel=2)
        return replay_match
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
