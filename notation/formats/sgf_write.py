"""SGF writing: :func:`write_sgf`, the writer of :mod:`notation.formats.sgf` (which reads SGF); what the two
share is in :mod:`notation.formats._sgf_shared`.

Writing (:func:`write_sgf` returns ``(text, dropped)``) follows gnubg 1.07's ``save match`` byte for
byte where the record came from gnubg (only ``AP`` differs):

* The single-die steps of each play come from :func:`notation.replay.replay_match` (in the written order
  when the record already writes single steps), so ``.mat`` plays such as ``24/18/13`` or
  ``13/9(2)`` are written as gnubg expects.  A play the replay cannot make is written as recorded.
* A set-up is written as the nodes gnubg writes for what it changes: ``PL+AE[a:y]+AW+AB`` for the
  board (or the player on roll), ``CV``, ``CP``, ``PL+DI``.  A position given from the mover's side
  (Snowie's "Illegal play" in ``.mat``) is written as the replay oriented it.
* A beaver or raccoon is a ``double``; gnubg needs the original doubler's ``take`` after it, which is
  added when the record leaves it implicit (as ``.mat`` does).  An empty play at the end of a game
  that could have been played is a roll (``PL``/``DI``), as gnubg reads such a ``.mat`` cell.
* ``RE`` carries ``R`` when the game ended neither by bearing off nor by a dropped double.
* An action's analysis is written as gnubg's ``DA``, ``A``, ``LU``, ``GB``/``GW`` — its recorded
  properties when they still say what the analysis says, otherwise made from the analysis in gnubg's
  form and order.  Analysis by another program (XG, BGBlitz) has no gnubg form and is reported dropped.
* What SGF cannot hold is kept where possible in private root properties that gnubg ignores —
  ``XT[name:value]`` for header tags with no SGF property, ``XR[beavers][raccoons][cubelimit:N]
  [autodoubles:N][variant:NAME]`` for rules SGF cannot state — and every such item, and everything
  not written at all (rejected resignations, Galaxy's ``loss``, comments on results, a roll's dice in
  a set-up, the wording of empty plays, properties with names gnubg cannot read), is one message in
  ``dropped``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, cast

from ..errors import ParseError
from ..losses import action_items, dropped, names_loss
from ..play import parse_play, plain_legs
from ..position import Position
from ..record import Action, Game, Match
from ..rules import Step, get_rules
from ._sgf_shared import ANALYSIS_PROPS as _ANALYSIS_PROPS
from ._sgf_shared import COLOURS as _COLOUR
from ._sgf_shared import GNUBG, SGF_TAGS, producer_of, resign_level
from ._sgf_shared import LETTERS as _LETTERS
from ._sgf_shared import SETUP_PROPS as _SETUP
from ._sgf_shared import VARIANT_RULES as _VARIANT_RULES
from ._sgf_shared import BoardState as _State
from ._sgf_shared import analysis_props as _analysis_props
from ._sgf_shared import escape as _escape
from ._sgf_shared import letter as _letter
from ._sgf_shared import read_analysis as _read_analysis
from .registry import WriteResult

if TYPE_CHECKING:
    from ..replay import GameReplay, MatchReplay, ReplayStep

__all__ = ["write_sgf", "write", "REASONS"]

REASONS = {
    "comment:action": "on a result, which SGF writes as a property of the game's root (no node of its own), "
                      "or on an action that could not be written",
    "analysis:GNU Backgammon": "not written: it lacks figures gnubg's analysis properties need, or is on a "
                               "result (no node of its own)",
    "analysis": "gnubg's SGF analysis properties hold GNU Backgammon's own evaluations only; not written "
                "(convert to json keeps it)",
    "property:match": "written on the first game's root node where SGF can name them (read back as game "
                      "properties), else not written",
    "property:game": "not written: SGF names a property with one or two capitals, and the writer sets some "
                     "itself",
    "property": "not written: SGF names a property with one or two capitals, on a node the action has",
    "thumbnail": "SGF has no place for it",
}
"""Why SGF cannot hold what :func:`notation.losses.lost` says it lost (by kind)."""

_RULE_OF_VARIANT = {v: k for k, v in _VARIANT_RULES.items()}


_ROOT_WRITTEN = frozenset({"FF", "GM", "CA", "AP", "MI", "PW", "PB", "WR", "BR", "DT", "EV", "RO", "PC", "AN",
                           "GC", "RU", "CV", "RE", "C", "XT", "XR"})


_NODE_WRITTEN = frozenset({"B", "W", "C", *_SETUP})


_RESULTS = frozenset({"resign", "accept", "reject", "win", "loss"})


_PROP_NAME = re.compile(r"[A-Z]{1,2}")


def _letters(pairs: Iterable[tuple[int, int]], player: int) -> str:
    """The letters of single steps (from, to) in ``player``'s own numbering: ``_letter`` of each point."""
    tab = _LETTERS[player]
    return "".join([(tab.get(s) or _letter(s, player)) + (tab.get(t) or _letter(t, player)) for s, t in pairs])


def _escape_compose_name(name: str) -> str:
    return _escape(name).replace(":", "\\:")


# --------------------------------------------------------------------------- writing


def _crawford_games(match: Match) -> list[bool | None]:
    """Which games are the Crawford game, from the scores, when the record does not say; None where
    the scores cannot tell (a record that starts with a side already at match point minus one: the
    Crawford game may have been played before it)."""
    out: list[bool | None] = []
    done = False
    L = match.length
    score = (0, 0)
    for i, g in enumerate(match.games):
        if g.score is not None:
            score = g.score
        c: bool | None = False
        if L > 0 and match.rules.crawford and not done and (score[0] == L - 1) != (score[1] == L - 1):
            c = done = True
            if i == 0 and g.crawford is None and score != (0, 0):
                c = None
        out.append(c)
        res = g.result
        if res is not None and g.score is None:
            s = list(score)
            s[res[0]] += res[1]
            score = (s[0], s[1])
    return out


def _what(where: str, a: Action) -> str:
    """An action as a report names it: ``game 2, move 29`` (its play), ``game 1, move 16, the double``,
    ``game 3, the win`` (move numbered as ``gammon validate`` numbers them)."""
    out = where if a.move_number is None else f"{where}, move {a.move_number}"
    return out if a.kind == "move" else f"{out}, the {a.kind}"


class _Writer:
    def __init__(self, match: Match, rep: MatchReplay | None = None) -> None:
        self.m = match
        self.dropped: list[str] = []
        self.rep: MatchReplay | None = rep
        self.extra_tags: list[tuple[str, str]] = []
        self.steps: dict[int, ReplayStep] = {}
        self.hit_marks = 0
        """Plays whose written hit marks are not the hits they make (SGF keeps no hit marks)."""
        self.notes: list[str] = []
        """What is kept in a form of our own (private properties gnubg does not read): not lost."""
        self.written: Counter[tuple[str, ...]] = Counter()
        """What was written of what :func:`notation.losses.holdings` counts (its keys): what the record
        holds beyond it is reported as dropped (:func:`notation.convert.render_match`)."""
        self.fast = True
        """Common moves are written by the fast path in :meth:`actions` (tests turn it off to compare)."""
        if rep is None:
            try:
                from ..replay import replay_match

                self.rep = replay_match(match)
            except Exception as e:  # noqa: BLE001 - writing must not depend on the replay working
                self.drop(f"the record could not be replayed ({e}); plays are written as recorded")
        if self.rep is not None:
            for gr in self.rep.games:
                for st in gr.steps:
                    self.steps[id(st.action)] = st

    def drop(self, message: str) -> None:
        if message not in self.dropped:
            self.dropped.append(message)

    def write(self) -> tuple[str, list[str]]:
        m = self.m
        games = m.games
        if not games:
            self.drop("the match has no games; SGF needs a game tree, so an empty game 1 is written")
            games = [Game(1, score=(0, 0))]
        lost_names = names_loss(m, "SGF")
        if lost_names:
            self.drop(lost_names)
        crawford = _crawford_games(m)
        out = []
        for i, g in enumerate(games):
            out.append(self.game(i, g, crawford[i] if i < len(crawford) else False))
        self.losses()
        if self.hit_marks:
            self.dropped.append(f"{self.hit_marks} play{'s' if self.hit_marks > 1 else ''}: the hit marks as "
                                f"written (SGF keeps none; read back, every hit is marked and no other)")
        return "".join(out), self.dropped + dropped(m, self.written, REASONS)

    # ------------------------------------------------------------------ root
    def game(self, i: int, g: Game, crawford: bool | None) -> str:
        m = self.m
        rules = m.rules
        where = f"game {g.number}"
        root = [f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(producer_of(g.properties.get('AP')))}]"]
        score = g.score
        if score is None:
            if self.rep is not None and i < len(self.rep.games):
                score = self.rep.games[i].start.score
            else:
                score = (0, 0)
                self.drop(f"{where}: its score is not known; ws:0 bs:0 is written")
        number = g.number - 1 if g.number >= 1 else i
        root.append(f"MI[length:{m.length}][game:{number}][ws:{score[0]}][bs:{score[1]}]")
        names = g.names or m.names
        root.append(f"PW[{_escape(names[0])}]PB[{_escape(names[1])}]")
        for k, r in zip(("WR", "BR"), g.ratings, strict=True):
            if r:
                root.append(f"{k}[{_escape(r)}]")
        if i == 0:
            root.append(self.tags())
        tokens = []
        if not rules.cube:
            tokens.append("NoCube")
        if m.length > 0 and rules.crawford:
            tokens.append("Crawford")
        if g.crawford is None and crawford is None:
            self.drop(f"game {g.number}: whether it is the Crawford game is not known (the record starts at "
                      f"{g.score[0] if g.score else 0}-{g.score[1] if g.score else 0}); RU says nothing about it")
        elif g.crawford if g.crawford is not None else crawford:
            tokens.append("CrawfordGame")
        if rules.jacoby:
            tokens.append("Jacoby")
        if rules.variant in _RULE_OF_VARIANT:
            tokens.append(_RULE_OF_VARIANT[rules.variant])
        if tokens:
            root.append(f"RU[{':'.join(tokens)}]")
        try:
            state = _State.start(rules.variant)
        except ValueError:
            self.drop(f"the variant {rules.variant!r} is unknown; its board is followed as standard")
            state = _State.start("standard")
        start_nodes: list[str] = []
        if g.start is not None:
            try:
                initial = Position.initial(g.start.variant)
            except ValueError:
                initial = Position()
            if g.start.cube > 1 and not g.start.cube & (g.start.cube - 1):
                root.append(f"CV[{g.start.cube}]")
                state.cube = g.start.cube
            if (g.start.boards != initial.boards or g.start.dice is not None or g.start.turn != 0
                    or g.start.cube_owner is not None):
                self.drop(f"{where}: its starting position is written as set-up nodes (read back as set-up "
                          f"actions)")
                start_nodes = self.setup_nodes(state, g.start, where)
        body = start_nodes + self.actions(g, state, where)
        result = self.result(g, where, state)
        root.append(result)
        for k, vals in g.properties.items():
            if k == "AP":  # the program that wrote the original: in our AP (producer_of), read back as its AP
                self.written["property", "game", k] += 1
                if len(vals) > 1:
                    self.drop(f"{where}: the property AP[{']['.join(vals)}] (the programs that wrote the original): "
                              "AP names one program; the first is kept in ours")
                continue
            if k == "RE" and not result:
                written = self.prop(k, vals)  # a result the reader kept as written
            elif k in _ROOT_WRITTEN:
                written = ""  # it clashes with a property the writer sets
            else:
                written = self.prop(k, vals)
            root.append(written)
            self.written["property", "game", k] += 1 if written else 0
        if i == 0:
            for k, vals in self.m.properties.items():
                if k not in _ROOT_WRITTEN:  # where it can: read back as a game property (so not counted)
                    root.append(self.prop(k, vals))
        if g.comments:
            root.append("C" + "".join(f"[{_escape(c)}]" for c in g.comments))  # one value a comment: kept apart
            self.written["comment", "game"] += sum(1 for c in g.comments if c)
        if i == 0:
            root.append(self.private())
        return "".join(root) + "".join(body) + ")\n"

    def tags(self) -> str:
        out = []
        seen: set[str] = set()
        extra: list[tuple[str, str]] = []
        by_tag = {tag: code for code, tag in SGF_TAGS}
        values: dict[str, str] = {}
        for k, v in self.m.tags:
            code = by_tag.get(k) or next((c for t, c in by_tag.items() if t.lower() == k.lower()), None)
            if code is not None and code not in seen and v:
                seen.add(code)
                values[code] = v
            else:
                extra.append((k, v))
        for code, _tag in SGF_TAGS:
            if code in values:
                v = values[code]
                if code == "DT":
                    dm = re.fullmatch(r"([0-9]{1,4})[.\-/]([0-9]{1,2})[.\-/]([0-9]{1,2})", v.strip())
                    if dm:
                        v = f"{int(dm.group(1)):04d}-{int(dm.group(2)):02d}-{int(dm.group(3)):02d}"
                out.append(f"{code}[{_escape(v)}]")
        if self.m.comments:
            out.append(f"GC[{_escape(chr(10).join(self.m.comments))}]")
            self.written["comment", "match"] += sum(1 for c in self.m.comments if c)
        for k, _ in self.m.tags:
            self.written["tag", k] += 1
        self.extra_tags = extra
        return "".join(out)

    def private(self) -> str:
        out = []
        extra = self.extra_tags
        if extra:
            out.append("XT" + "".join(f"[{_escape_compose_name(k)}:{_escape(v)}]" for k, v in extra))
            names = ", ".join(sorted({k for k, _ in extra}))
            self.notes.append(f"header tags with no SGF property ({names}): kept as XT, a property of our own "
                              f"that gnubg does not read")
        rules = self.m.rules
        xr: list[str] = []
        what: list[str] = []
        kinds = {a.kind for g in self.m.games for a in g.actions}
        if rules.beavers and "beaver" not in kinds:  # a recorded beaver says it (the reader infers the rule)
            xr.append("beavers")
            what.append("beavers")
        if rules.raccoons and "raccoon" not in kinds:
            xr.append("raccoons")
            what.append("raccoons")
        if rules.cube_limit is not None:
            xr.append(f"cubelimit:{rules.cube_limit}")
            what.append(f"cube limit {rules.cube_limit}")
        seen_auto = max((g.start.cube.bit_length() - 1 for g in self.m.games if g.start is not None),
                        default=0)
        if rules.auto_doubles > seen_auto:
            xr.append(f"autodoubles:{rules.auto_doubles}")
            what.append(f"at most {rules.auto_doubles} automatic doubles")
        if rules.variant != "standard" and rules.variant not in _RULE_OF_VARIANT:
            xr.append(f"variant:{rules.variant}")
            what.append(f"variant {rules.variant} (gnubg will load it as standard backgammon)")
        if xr:
            out.append("XR" + "".join(f"[{_escape(v)}]" for v in xr))
            self.notes.append(f"rules SGF cannot state ({', '.join(what)}) are kept in the private property XR, "
                              f"which gnubg ignores")
        return "".join(out)

    def prop(self, name: str, values: list[str]) -> str:
        """``name[value]...``, or "" for a name SGF cannot have (one or two capitals): not written (the
        caller counts what is written; :mod:`notation.losses` reports the rest)."""
        if not _PROP_NAME.fullmatch(name):
            return ""
        return name + "".join(f"[{_escape(v)}]" for v in (values or [""]))

    def result(self, g: Game, where: str, end: _State) -> str:
        """``RE[W+2]``; ``R`` when the game did not end by bearing off or a dropped double (``end`` is the
        board after the game's last node)."""
        win = next((a for a in reversed(g.actions) if a.kind == "win"), None)
        loss = next((a for a in reversed(g.actions) if a.kind == "loss"), None)
        if win is None and loss is None:
            return ""
        if win is not None:
            winner, points = win.player, win.value
            if loss is not None:
                self.drop(f"{where}: the loss ('{loss.text or 'loss'}', Galaxy's 'Losses' line) is not written: SGF "
                          "says a result only as the winner's (RE)")
        else:
            assert loss is not None
            winner, points = 1 - loss.player, loss.value
            self.drop(f"{where}: the loss ('{loss.text or 'loss'}') is written as a win for the other player")
        if points is None and self.rep is not None:
            gr = next((gr for gr in self.rep.games if gr.game is g), None)
            points = gr.points if gr is not None else None
        if points is None:
            self.drop(f"{where}: the result gives no points; no RE is written")
            return ""
        resigned = not end.dropped and end.boards[winner][0] < end.checkers
        if resigned and not any(a.kind == "resign" for a in g.actions):
            self.drop(f"{where}: the game ends before it is played out with no resignation written (an "
                      f"implied resignation); SGF says it as one (RE[...R]), read back as a resignation "
                      f"and its acceptance")
        return f"RE[{_COLOUR[winner]}+{points}{'R' if resigned else ''}]"

    # ------------------------------------------------------------------ nodes
    def actions(self, g: Game, state: _State, where: str) -> list[str]:
        nodes: list[str] = []
        acts = g.actions
        fast = self.fast
        for k, a in enumerate(acts):
            if fast:
                node = self._common_move(k, a, acts, state)
                if node is not None:
                    nodes.append(node)
                    continue
            what = _what(where, a)
            written: list[str] = []
            if a.player not in (0, 1) or (a.dice is not None and not all(1 <= d <= 6 for d in a.dice)):
                self.drop(f"{what}: player {a.player} with dice {a.dice} cannot be written; dropped")
                continue
            before = [list(b) for b in state.boards] if a.analysis is not None else state.boards
            if a.kind == "move":
                if a.dice is None:
                    self.drop(f"{what}: a move without dice cannot be written; dropped")
                elif (not (a.play or "").strip() and all(b.kind in _RESULTS for b in acts[k + 1:])
                      and self.can_play(state, a.player, a.dice)):
                    # Nothing written at the end although the roll can be played: rolled, then resigned or
                    # stopped (gnubg's reading of such a .mat cell); SGF says so with PL/DI.
                    state.turn, state.dice = a.player, a.dice
                    written.append(f";PL[{_COLOUR[a.player]}]DI[{a.dice[0]}{a.dice[1]}]")
                    self.drop(f"{what}: an empty play at the end of the game although the roll can be played: "
                              f"written as the roll alone (PL/DI), read back as a roll not played")
                else:
                    pairs = self.pairs(a, what)
                    state.move(a.player, pairs)
                    letters = _letters(pairs, a.player)
                    written.append(f";{_COLOUR[a.player]}[{a.dice[0]}{a.dice[1]}{letters}]")
            elif a.kind == "roll":
                if a.dice is None:
                    self.drop(f"{what}: a roll without dice cannot be written; dropped")
                else:
                    state.turn, state.dice = a.player, a.dice
                    written.append(f";PL[{_COLOUR[a.player]}]DI[{a.dice[0]}{a.dice[1]}]")
            elif a.kind in ("double", "beaver", "raccoon"):
                written.append(f";{_COLOUR[a.player]}[double]")
                answers = bool(state.chain)
                implied = state.cube_action(a.kind, a.player)
                if a.kind != "double" and not answers:
                    self.drop(f"{what}: a {a.kind} that answers no double: written as a double (SGF says a "
                              f"{a.kind} only as a double answering one), read back as a double")
                if a.value is not None and implied is not None and a.value != implied:
                    self.drop(f"{what}: the cube value {a.value} as written (SGF writes a {a.kind} without its "
                              f"value; read back, the cube goes to {implied})")
            elif a.kind in ("take", "drop"):
                written.append(f";{_COLOUR[a.player]}[{a.kind}]")
                state.cube_action(a.kind, a.player)
            elif a.kind == "setup":
                if a.setup is None:
                    self.drop(f"{what}: a set-up without a position cannot be written; dropped")
                else:
                    pos = a.setup
                    st = self.steps.get(id(a))
                    if st is not None and (st.after.boards, st.after.turn) != (pos.boards, pos.turn):
                        # Given from the mover's side (Snowie's "Illegal play"): the replay has oriented it.
                        pos = st.after
                    if a.dice is not None:
                        self.drop(f"{what}: the roll {a.dice[0]}{a.dice[1]} that led to this set-up is not "
                                  f"kept (SGF sets the position only)")
                    written.extend(self.setup_nodes(state, pos, what, a.text))
            elif a.kind in _RESULTS:
                if a.kind == "resign" and any(b.kind == "reject" for b in acts[k + 1:]):
                    self.drop(f"{what}: a rejected resignation offer; SGF has no node for it")
                elif a.kind == "resign" and not any(b.kind in ("accept", "win", "loss") for b in acts[k + 1:]):
                    self.drop(f"{what}: a resignation offer with no answer and no result; SGF says a "
                              f"resignation only as the game's result (RE[...R])")
                elif a.kind == "reject":
                    self.drop(f"{what}: SGF has no node for a rejected resignation")
                elif a.kind == "resign" and a.value in (1, 2, 3):
                    win = next((b for b in acts[k + 1:] if b.kind == "win"), None)
                    if win is None or resign_level(win.value, state.cube) != a.value:
                        # RE[...R] says the level only as points over the cube, which give another here (a
                        # result cut to what the match needed): Gibbon's resign node keeps it (gnubg reads RE)
                        written.append(f";{_COLOUR[a.player]}[resign:{a.value * max(state.cube, 1)}]")
                        answer = next((b for b in acts[k + 1:] if b.kind in ("accept", "win", "loss")), None)
                        if answer is not None and answer.kind == "accept":
                            written.append(f";{_COLOUR[answer.player]}[accept]")
                if a.kind == "resign" and next((b.kind for b in acts[k + 1:] if b.kind in ("accept", "reject", "win",
                                                                                           "loss")), None) == "win":
                    self.drop(f"{what}: a resignation followed by the result with no acceptance written: SGF says it "
                              f"as the result (RE[...R]), read back as the resignation and its acceptance")
                if not written:
                    continue  # its comment, properties and analysis have no node to go on (reported as lost)
            if not written:
                continue
            # A beaver or raccoon left unanswered in the record: gnubg needs the (silent) take.
            if a.kind in ("beaver", "raccoon") and len(state.chain) > 1 and not (
                    k + 1 < len(acts) and acts[k + 1].kind in ("take", "drop", "raccoon")):
                written.append(f";{_COLOUR[1 - a.player]}[take]")
                state.cube_action("take", 1 - a.player)
            parts = []
            for n, v in self.node_props(a, before, what):
                if n in _NODE_WRITTEN:
                    continue  # it clashes with the node's own properties
                text = self.prop(n, v)
                if text:
                    parts.append(text)
                    if n in a.properties:
                        self.written["property", "action", n] += 1
            extra = "".join(parts)
            comment = f"C[{_escape(a.comment)}]" if a.comment else ""
            if a.comment:
                self.written["comment", "action"] += 1
            if (a.kind in ("beaver", "raccoon") and len(written) > 1 and written[-1].endswith("[take]")
                    or a.kind == "resign" and len(written) > 1):
                written[-2] += extra + comment
            else:
                written[-1] += extra + comment
            nodes.extend("\n" + w for w in written)
        return nodes

    def _common_move(self, k: int, a: Action, acts: list[Action], state: _State) -> str | None:
        """The common move (see :func:`_move_node`) written from the cache, the board moved as the
        general path in :meth:`actions` moves it and its node returned; None for any other action,
        which the general path writes."""
        if a.kind == "move" and a.analysis is None and not a.properties and not a.comment:
            st = self.steps.get(id(a))
            play = a.play
            dice = a.dice
            if (st is not None and st.play is not None and type(play) is str
                    # a blank play is the general path's when only results follow (see below)
                    and (play.strip() or (k + 1 < len(acts) and acts[k + 1].kind not in _RESULTS))
                    and type(dice) is tuple and len(dice) == 2
                    and type(dice[0]) is int and type(dice[1]) is int and 1 <= dice[0] <= 6
                    and 1 <= dice[1] <= 6 and (player := a.player) in (0, 1) and type(player) is int):
                key = (play, st.play.steps, player, dice)
                made = _MOVE_NODES.get(key)
                if made is None:
                    made = _move_node(play, st.play.steps, player, dice)
                    if made is not None and len(_MOVE_NODES) < 8192:
                        _MOVE_NODES[key] = made
                if made is not None:
                    node, pairs, marks = made
                    self.hit_marks += marks
                    mine, theirs = state.boards[player], state.boards[1 - player]
                    for s, t in pairs:
                        mine[s] -= 1
                        if 1 <= t <= 24 and theirs[25 - t] == 1:
                            theirs[25 - t] = 0
                            theirs[25] += 1
                        mine[t] += 1
                    state.turn = 1 - player
                    state.dice = None
                    if state.chain:
                        state.chain = []
                    return node
        return None

    def node_props(self, a: Action, before: list[list[int]], what: str) -> list[tuple[str, list[str]]]:
        """The properties written on ``a``'s node besides the move: its own, with its analysis as gnubg's
        ``DA``, ``A``, ``LU``, ``GB``/``GW`` (as recorded when they still say what the analysis says)."""
        props = list(a.properties.items())
        ana = a.analysis
        if ana is None or ana.is_empty():
            return props
        money = self.m.length == 0
        recorded = {k: v for k, v in props if k in _ANALYSIS_PROPS}
        items = Counter({k: n for k, n in action_items(a).items() if k[0] == "analysis"})
        if recorded and _read_analysis(recorded, a.player, before, money) == ana:
            self.written.update(items)
            return props
        others = [(k, v) for k, v in props if k not in _ANALYSIS_PROPS]
        if recorded:
            self.drop(f"{what}: its SGF analysis properties ({', '.join(recorded)}) disagree with its analysis; "
                      f"written from the analysis")
        if ana.producer != GNUBG:
            return others  # no gnubg form: reported as lost
        made, lost = _analysis_props(ana, a.player, money)
        kinds = {"DA": "cube", "A": "checker", "LU": "luck", "GB": "luck", "GW": "luck"}
        held = {kinds[k] for k, _ in made if k in kinds}
        self.written.update(Counter({k: n for k, n in items.items() if k[1] in held}))
        del lost  # each lost item is counted as not written
        names = {k for k, _ in made}
        rest = dict(others)
        out: list[tuple[str, list[str]]] = []
        for k, v in made:  # gnubg's order: DA CR A MR LU G?, then the node's other properties
            out.append((k, v))
            follow = {"DA": "CR", "A": "MR"}.get(k)
            if follow in rest:
                out.append((follow, rest.pop(follow)))
        out.extend((k, v) for k, v in rest.items() if k not in names)
        return out

    def can_play(self, state: _State, player: int, dice: tuple[int, int]) -> bool:
        try:
            rules = get_rules(self.m.rules.variant)
            mine, theirs = tuple(state.boards[player]), tuple(state.boards[1 - player])
            return bool(rules.plays_for(mine, theirs, dice[0], dice[1]))
        except (ValueError, IndexError):
            return False

    def pairs(self, a: Action, what: str) -> list[tuple[int, int]]:
        """The single-die steps of a move as (from, to) in the mover's numbering, in the written order
        where the record writes single steps."""
        written = _written_pairs(a.play or "")
        st = self.steps.get(id(a))
        if st is not None and st.play is not None:
            steps = [(s, t) for s, t, _ in st.play.steps]
            if a.play and a.play.count("*") != sum(1 for *_, hit in st.play.steps if hit):
                self.hit_marks += 1
            if written is not None and (written == steps or sorted(written) == sorted(steps)):
                return written
            return steps
        if written is None:
            self.drop(f"{what}: the play {a.play!r} cannot be read; written as a dance")
            return []
        if st is None or not st.legal:
            dice = a.dice or (0, 0)
            singles = {dice[0], dice[1]}
            if any(x - y not in singles and y != 0 for x, y in written):
                self.drop(f"{what}: the play {a.play!r} could not be split into single-die steps; written as "
                          f"recorded")
        return written

    def setup_nodes(self, state: _State, pos: Position, what: str, hint: str = "") -> list[str]:
        """The nodes that set ``pos`` after ``state``: one per thing changed, as gnubg writes them.
        A set-up that changes nothing is written as the kind of node ``hint`` (its source text) shows."""
        if len(pos.boards) != 2 or any(len(b) != 26 for b in pos.boards):
            self.drop(f"{what}: the set-up's boards are not 26 points each; not written")
            return []
        if any(c < 0 for b in pos.boards for c in b[1:]):
            self.drop(f"{what}: negative checker counts cannot be written; written as none")
        turn_ok = pos.turn in (0, 1)
        cube_ok = pos.cube >= 1 and not pos.cube & (pos.cube - 1)
        owner_ok = pos.cube_owner in (None, 0, 1)
        dice_ok = pos.dice is None or all(1 <= d <= 6 for d in pos.dice)
        for ok, thing in ((turn_ok, f"player on roll {pos.turn}"), (cube_ok, f"cube value {pos.cube}"),
                          (owner_ok, f"cube owner {pos.cube_owner}"), (dice_ok, f"dice {pos.dice}")):
            if not ok:
                self.drop(f"{what}: the {thing} cannot be written; not written")
        new_turn = pos.turn if turn_ok else state.turn
        new_dice = pos.dice if dice_ok else state.dice
        nodes: list[str] = []
        board = not state.same_board(pos)
        dice_node = new_dice is not None and new_dice != state.dice
        turn = new_turn != state.turn
        cube = cube_ok and pos.cube != state.cube
        owner = owner_ok and pos.cube_owner != state.owner
        if not (board or dice_node or turn or cube or owner):
            head = hint.lstrip(";").upper()[:2]
            cube = cube_ok and head == "CV"
            owner = owner_ok and head in ("CP", "CO")
            dice_node = head in ("DI", "PL") and "DI[" in hint.upper() and new_dice is not None
            board = not (cube or owner or dice_node)
        if pos.dice is None and state.dice is not None:
            self.drop(f"{what}: SGF cannot take the dice back; the set-up keeps "
                      f"{state.dice[0]}{state.dice[1]}")
        if pos.double_offered or pos.resign_offered:
            self.drop(f"{what}: a pending double or resignation in a set-up position cannot be written")
        if pos.variant != self.m.rules.variant:
            self.drop(f"{what}: the set-up is {pos.variant}, the match {self.m.rules.variant}; SGF cannot "
                      f"change variant")
        if board or (turn and not dice_node):
            aw = "".join(f"[{_letter(p, 0)}]" * pos.boards[0][p] for p in range(1, 26))
            ab = "".join(f"[{_letter(p, 1)}]" * pos.boards[1][p] for p in range(1, 26))
            nodes.append(f";PL[{_COLOUR[new_turn]}]AE[a:y]" + (f"AW{aw}" if aw else "")
                         + (f"AB{ab}" if ab else ""))
        if cube:
            nodes.append(f";CV[{pos.cube}]")
        if owner:
            nodes.append(f";CP[{'c' if pos.cube_owner is None else 'wb'[pos.cube_owner]}]")
        if dice_node:
            assert new_dice is not None
            nodes.append(f";PL[{_COLOUR[new_turn]}]DI[{new_dice[0]}{new_dice[1]}]")
        state.boards = [[max(c, 0) for c in b] for b in pos.boards]
        state.fix_off()
        state.turn, state.dice = new_turn, new_dice
        if cube_ok:
            state.cube = pos.cube
        if owner_ok:
            state.owner = pos.cube_owner
        state.chain = []
        return nodes

    def losses(self) -> None:
        wordings = sorted({a.no_move for g in self.m.games for a in g.actions if a.no_move})
        if wordings:
            self.drop(f"the wording of empty plays ({', '.join(repr(w) for w in wordings)}) is not kept: SGF "
                      f"writes a dance as the dice alone")


def _written_pairs(text: str) -> list[tuple[int, int]] | None:
    """The single-die steps written in ``text`` as (from, to), in the written order, as
    :func:`~notation.play.parse_play` reads them; None when it cannot.  Plain moves (``13/8``,
    ``25/20*``, ``6/0``: what gnubg and most programs write) by :func:`~notation.play.plain_legs`,
    anything else by parse_play."""
    legs = plain_legs(text)
    if legs is not None:
        return [(s, t) for s, t, _h in legs]
    try:
        parsed = parse_play(text)
    except ParseError:
        return None
    return [(x, y) for seg in parsed.segments for _ in range(seg.count) for x, y in itertools.pairwise(seg.points)]


_MOVE_NODES: dict[tuple[str, tuple[Step, ...], int, tuple[int, int]],
                  tuple[str, tuple[tuple[int, int], ...], int]] = {}
""":func:`_move_node` of the moves already written, by (written play, the replay's steps, player, dice)."""


def _move_node(play: str, steps: tuple[Step, ...], player: int, dice: tuple[int, int]
               ) -> tuple[str, tuple[tuple[int, int], ...], int] | None:
    """The node of a move the replay played as ``steps``, as ``_Writer.actions`` writes it (with its
    ``pairs`` and ``state.move``): the node's text with its leading line break, the single steps
    (from, to) applied to the board, and 1 when the written hit marks are not the hits made (else 0).
    None when a step leaves the board's points 0..25 (the general path writes it).  A blank ``play``
    is written so only when more than results follow it (the caller's check).  The result depends on
    the arguments only, so the writer keeps it (:data:`_MOVE_NODES`)."""
    written = _written_pairs(play)
    made = [(s, t) for s, t, _ in steps]
    if written is not None and written != made and sorted(written) == sorted(made):
        made = written  # the same steps, in the order written
    tab = _LETTERS[player]
    letters = []
    for s, t in made:
        a, b = tab.get(s), tab.get(t)  # None outside the points 0..25
        if a is None or b is None:
            return None
        letters.append(a + b)
    marks = 1 if play and play.count("*") != sum([hit for _, _, hit in steps]) else 0
    return f"\n;{_COLOUR[player]}[{dice[0]}{dice[1]}{''.join(letters)}]", tuple(made), marks


def write_sgf(match: Match, rep: MatchReplay | None = None) -> tuple[str, list[str]]:
    """Write ``match`` as SGF in gnubg's dialect; return ``(text, dropped)``.

    ``dropped`` lists, one human-readable item each, what the SGF file cannot hold or holds only in a
    private property gnubg ignores (``XT`` for header tags, ``XR`` for rules).  ``rep``, when given, is
    ``replay_match(match)`` already made (the caller's, not made again); it must be the replay of ``match``
    as it is now.
    """
    return _Writer(match, rep).write()


def write(match: Match, rep: MatchReplay | None = None) -> WriteResult:
    """:func:`write_sgf` as every writer returns it (:mod:`notation.formats.registry`): the text, what it
    dropped, and the notes on what it keeps in SGF's private properties (which gnubg does not read)."""
    w = _Writer(match, rep)
    text, lost = w.write()
    return WriteResult(text, list(lost), list(w.notes))


def write_games(match: Match, games: Iterator[tuple[Game, GameReplay | None]], emit: Callable[[str], None]
                ) -> WriteResult:
    """:func:`write` one game at a time (:meth:`notation.formats.registry.Format.write_games`): each game
    comes with its replay; the writer sees only the current game's."""
    w = _GameByGame(match, games, emit)
    text, lost = w.write()
    emit(text)
    return WriteResult("", list(lost), list(w.notes))


class _CurrentGame:
    """``MatchReplay.games`` as :class:`_GameByGame` shows it to the writer: game ``i``'s replay at ``i``,
    nothing kept."""

    __slots__ = ("i", "gr")

    def __init__(self) -> None:
        self.i = -1
        self.gr: GameReplay | None = None

    def __len__(self) -> int:
        return self.i + 1

    def __getitem__(self, k: int) -> GameReplay:
        if k != self.i or self.gr is None:
            raise IndexError(k)
        return self.gr

    def __iter__(self) -> Iterator[GameReplay]:
        if self.gr is not None:
            yield self.gr


class _ReplayView:
    __slots__ = ("games",)

    def __init__(self, games: _CurrentGame) -> None:
        self.games = games


class _GameByGame(_Writer):
    """The writer over a match of stand-ins, each swapped for the game ``games`` yields as it is written."""

    def __init__(self, match: Match, games: Iterator[tuple[Game, GameReplay | None]],
                 emit: Callable[[str], None]) -> None:
        self.current = _CurrentGame()
        super().__init__(match, cast("MatchReplay", _ReplayView(self.current)))
        self.games_in = games
        self.emit = emit

    def game(self, i: int, g: Game, crawford: bool | None) -> str:
        real, gr = next(self.games_in)
        if gr is None:
            raise ValueError("the SGF writer needs each game's replay")
        self.current.i, self.current.gr = i, gr
        self.steps = {id(st.action): st for st in gr.steps}
        self.emit(super().game(i, real, crawford))
        self.current.gr = None
        self.steps = {}
        return ""
