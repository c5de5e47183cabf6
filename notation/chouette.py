"""Chouettes: one player (the *box*) against a team led by a *captain*, each team member with a cube.

The data model
==============

A :class:`Chouette` has its players, its rules (:class:`~notation.record.MatchRules`: variant, Jacoby,
cube on/off) and its games.  Each :class:`ChouetteGame` names the box and the team in order, captain
first, and holds an ordinary :class:`~notation.record.Game` whose actions are those of the board game
between the box (player 0) and the team (player 1, the captain's checker plays), plus the cube actions,
each naming the team member it concerns in ``Action.properties["member"]``:

* The box doubles (``double`` by player 0): every team member who is still in and may be doubled (cube
  centred or owned by the box) answers for themselves: ``take``/``drop`` by player 1 with ``member``.
* A team member doubles the box (``double`` by player 1 with ``member``) with their own cube (centred
  or theirs); the box answers that member alone (``take``/``drop`` by player 0 with ``member``).
  Several members may double at the same turn; each is answered separately.
* A member who drops, or whose double the box drops, is out of the game for the value of their cube.
  When the playing captain is out, the next member in team order still in plays on for the team.  The
  game ends when the board game ends (bear-off or accepted resignation: the ``win`` action's value is
  the game's multiplier, 1 single, 2 gammon, 3 backgammon, not points) or when no member is left in.
* Each member still in at the end wins or loses their cube value times the multiplier; under the Jacoby
  rule a member whose cube was never turned counts a gammon or backgammon as single.  The box wins or
  loses the opposite of the team's total.  Beavers are not used in chouettes.

``ChouetteGame.results`` (the points each player won or lost in that game, box included) and
``Chouette.totals`` are checked when written.

The rotation (``Chouette.rotation``)
====================================

``"standard"`` (the default), judged by the *original* captain's own result against the box:

* the captain beat the box: the captain becomes the box, the old box goes to the end of the team, and
  the next member becomes captain;
* the box beat the captain (a captain who dropped has lost): the box stays, the captain goes to the end
  of the team and the next member becomes captain.

``"none"``: the roles are whatever each game says (no rotation check).

JSON
====

``{"format": "gammon-notation", "version": 1, "chouette": {...}}`` with ``players``, ``rules``,
``rotation``, ``tags``, ``comments``, ``games`` (each: ``number``, ``box``, ``team``, ``actions`` in
the form of :mod:`notation.formats.json_format`, optional ``results``) and optional ``totals``.  An
action may name its member with ``"member": "Ben"`` instead of ``"properties": {"member": ["Ben"]}``.
:func:`~notation.matchio.read_any` returns such a document as a :class:`ChouetteMatch`, whose replay is
:func:`replay_chouette`, so ``gammon validate`` checks chouettes like any record.  The document is read and
written by :mod:`notation.formats.chouette_json`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .record import Action, Game, Match, MatchRules
from .replay import Finding, MatchReplay, Severity, replay_match

__all__ = ["Chouette", "ChouetteGame", "ChouetteMatch", "ChouetteReplay", "replay_chouette", "next_roles", "results_of",
           "to_match", "MEMBER"]

MEMBER = "member"
ROTATIONS = ("standard", "none")
_BOARD_KINDS = ("move", "roll", "resign", "accept", "reject", "win", "loss", "setup")


@dataclass(slots=True)
class ChouetteGame:
    number: int
    box: str
    team: list[str]
    """Captain first."""
    game: Game
    results: dict[str, int] | None = None
    """Points won (+) or lost (-) by each player in this game, as written."""

    @property
    def captain(self) -> str:
        return self.team[0] if self.team else ""


@dataclass(slots=True)
class Chouette:
    players: list[str]
    games: list[ChouetteGame] = field(default_factory=list)
    rules: MatchRules = field(default_factory=MatchRules)
    rotation: str = "standard"
    totals: dict[str, int] | None = None
    tags: list[tuple[str, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    source: str | None = None


@dataclass(slots=True)
class ChouetteMatch(Match):
    """A chouette seen as a record: ``gammon validate`` and :func:`notation.replay.replay_match` use
    :meth:`replay_override`, which checks it as a chouette."""

    chouette: Chouette | None = None

    def replay_override(self) -> MatchReplay:
        assert self.chouette is not None
        self.chouette.source = self.source
        return replay_chouette(self.chouette, match=self)


def next_roles(box: str, team: list[str], captain_won: bool) -> tuple[str, list[str]]:
    """The box and team of the next game under the standard rotation."""
    if not team:
        return box, []
    captain, rest = team[0], list(team[1:])
    if captain_won:
        return captain, rest + [box]
    return box, rest + [captain]


# =========================================================================== replay


@dataclass(slots=True)
class ChouetteReplay:
    """What the replay computed for one game."""

    number: int
    results: dict[str, int]
    captain_won: bool | None


@dataclass(slots=True)
class _Cube:
    value: int = 1
    owner: str | None = None
    """None = centred; "box" or the member's name."""
    out: bool = False
    """The member dropped (or was dropped) and is out of this game."""


class _ChouetteRunner:
    def __init__(self, ch: Chouette, cg: ChouetteGame, rep: MatchReplay) -> None:
        self.ch, self.cg, self.rep = ch, cg, rep
        self.cubes = {m: _Cube() for m in cg.team}
        self.results: dict[str, int] = {p: 0 for p in [cg.box, *cg.team]}

    def find(self, severity: Severity, action: Action | None, message: str, who: str | None = None) -> None:
        span = action.span if action is not None else self.cg.game.span
        self.rep.findings.append(Finding(
            severity, message, self.ch.source, span.line if span else None, span.column if span else None,
            self.cg.number, action.move_number if action is not None else None, who,
            None, action.text if action is not None else ""))

    def member_of(self, action: Action) -> str | None:
        vals = action.properties.get(MEMBER)
        return vals[0] if vals else None

    def run(self) -> ChouetteReplay:
        cg, ch = self.cg, self.ch
        game = cg.game
        actions = game.actions
        box = cg.box
        # Who acts on the board before and after each action (for the timing of doubles).
        board_players = [a.player if a.kind in ("move", "roll") else None for a in actions]
        pending_box: set[str] = set()      # members who must answer the box's double
        pending_team: list[str] = []       # members whose doubles the box must answer
        all_out_at: int | None = None
        board_actions: list[Action] = []
        for i, a in enumerate(actions):
            member = self.member_of(a)
            who = member or (box if a.player == 0 else self.captain_now())
            if a.kind in _BOARD_KINDS:
                if pending_box and a.kind in ("move", "roll"):
                    has = "has" if len(pending_box) == 1 else "have"
                    names = ", ".join(sorted(pending_box))
                    self.find("error", a, f"{names} {has} not answered {box}'s double", who)
                    pending_box.clear()
                if pending_team and a.kind in ("move", "roll"):
                    self.find("error", a, f"{box} has not answered the double of {', '.join(pending_team)}",
                              box)
                    pending_team.clear()
                if all_out_at is not None:
                    if a.kind in ("move", "roll"):
                        self.find("error", a, "every team member is out of this game, yet the record goes on",
                                  who)
                        break
                    continue  # a result line after the last drop says nothing new
                board_actions.append(a)
                continue
            if a.kind in ("beaver", "raccoon"):
                self.find("error", a, f"{a.kind}s are not used in chouettes", who)
                continue
            prev = next((p for p in reversed(board_players[:i]) if p is not None), None)
            nxt = next((p for p in board_players[i + 1:] if p is not None), None)
            if a.kind == "double":
                if not ch.rules.cube:
                    self.find("error", a, "the cube is not in use in this chouette", who)
                if prev is None:
                    self.find("error", a, "a double before the first roll of the game", who)
                elif prev == a.player or (nxt is not None and nxt != a.player):
                    side = box if a.player == 0 else "the team"
                    self.find("error", a, f"{who} doubles, but it is not {side}'s turn to roll", who)
                if a.player == 0:
                    eligible = {m for m, c in self.cubes.items() if not c.out and c.owner in (None, "box")}
                    if not eligible:
                        self.find("error", a, f"{box} doubles, but holds no cube that can be turned "
                                              f"(every member still in owns theirs)", box)
                    captain = self.captain_now()
                    cv = self.cubes[captain].value
                    if a.value is not None and captain in eligible and a.value != cv * 2:
                        self.find("error", a, f"{box} doubles {captain}'s cube at {cv} to {cv * 2}, "
                                              f"not {a.value}", box)
                    pending_box = eligible
                else:
                    if member is None or member not in self.cubes:
                        msg = ("a team member's double must name the member (\"member\")" if member is None
                               else f"{member} is not in the team of game {cg.number}")
                        self.find("error", a, msg, who)
                        continue
                    c = self.cubes[member]
                    if c.out:
                        self.find("error", a, f"{member} is out of this game and cannot double", member)
                    elif c.owner not in (None, member):
                        self.find("error", a, f"{member} doubles, but {box} owns {member}'s cube", member)
                    elif a.value is not None and a.value != c.value * 2:
                        self.find("error", a, f"{member}'s cube is at {c.value}, so a double is to "
                                              f"{c.value * 2}, not {a.value}", member)
                    pending_team.append(member)
                continue
            if a.kind in ("take", "drop"):
                if a.player == 1:
                    if member is None:
                        if len(pending_box) == 1:
                            member = next(iter(pending_box))
                        else:
                            self.find("error", a, "a team member's answer must name the member (\"member\")",
                                      who)
                            continue
                    if member not in pending_box:
                        msg = (f"{member} answers, but {box} has not doubled {member}" if member in self.cubes
                               else f"{member} is not in the team of game {cg.number}")
                        self.find("error", a, msg, member)
                        continue
                    pending_box.discard(member)
                    c = self.cubes[member]
                    if a.kind == "take":
                        c.value *= 2
                        c.owner = member
                    else:
                        self.settle(member, won=False, points=c.value)
                else:
                    if member is None and len(pending_team) == 1:
                        member = pending_team[0]
                    if member is None or member not in pending_team:
                        self.find("error", a, f"{box} answers a double that {member or 'no member'} has not "
                                              f"offered", box)
                        continue
                    pending_team.remove(member)
                    c = self.cubes[member]
                    if a.kind == "take":
                        c.value *= 2
                        c.owner = "box"
                    else:
                        self.settle(member, won=True, points=c.value)
                if all(c.out for c in self.cubes.values()) and all_out_at is None:
                    all_out_at = i
                continue
            self.find("warning", a, f"unknown chouette action {a.kind!r}; ignored", who)
        if pending_box:
            self.find("error", actions[-1] if actions else None,
                      f"{', '.join(sorted(pending_box))} never answered {box}'s double")
        if pending_team:
            self.find("error", actions[-1] if actions else None,
                      f"{box} never answered the double of {', '.join(pending_team)}")
        self.board(board_actions, all_out_at is not None)
        return ChouetteReplay(cg.number, self.results, self.captain_won())

    def captain_now(self) -> str:
        for m in self.cg.team:
            if not self.cubes[m].out:
                return m
        return self.cg.captain

    def settle(self, member: str, *, won: bool, points: int) -> None:
        c = self.cubes[member]
        c.out = True
        sign = 1 if won else -1
        self.results[member] += sign * points
        self.results[self.cg.box] -= sign * points

    def captain_won(self) -> bool | None:
        r = self.results.get(self.cg.captain)
        return None if r is None or r == 0 else r > 0

    def board(self, actions: list[Action], over_by_cube: bool) -> None:
        """Replay the board game (checker plays, resignations, the result) as a money game with an
        untouched cube, so a ``win`` action's value is the multiplier; then settle every member in."""
        cg, ch = self.cg, self.ch
        rules = copy.copy(ch.rules)
        rules.jacoby = False  # applied per member below
        game = Game(number=cg.number, actions=actions, names=(cg.box, cg.captain), span=cg.game.span,
                    start=cg.game.start)
        inner = Match(length=0, names=(cg.box, cg.captain), games=[game], rules=rules, source=ch.source)
        r = replay_match(inner)
        gr = r.games[0] if r.games else None
        for f in r.findings:
            if over_by_cube and "without a result" in f.message:
                continue
            self.rep.findings.append(f)
        if gr is not None:
            self.rep.games.append(gr)
        if over_by_cube:
            return
        if gr is None or gr.winner is None:
            self.find("warning", None, f"game {cg.number} has no result for "
                                       f"{', '.join(m for m, c in self.cubes.items() if not c.out)}")
            return
        k = gr.points or 1
        team_won = gr.winner == 1
        for m, c in self.cubes.items():
            if c.out:
                continue
            km = 1 if ch.rules.jacoby and c.owner is None and k in (2, 3) else k
            self.settle(m, won=team_won, points=c.value * km)


def replay_chouette(ch: Chouette, *, match: Match | None = None) -> MatchReplay:
    """Check a chouette: every board game under the rules, every member's cube, each game's results,
    the rotation of box and captain, and the totals.  Never raises for rule problems."""
    m = match if match is not None else to_match(ch)
    rep = MatchReplay(m)

    def chouette_finding(severity: Severity, cg: ChouetteGame | None, message: str) -> None:
        span = cg.game.span if cg is not None else None
        rep.findings.append(Finding(severity, message, ch.source, span.line if span else None,
                                    span.column if span else None, cg.number if cg else None))

    if ch.rotation not in ROTATIONS:
        chouette_finding("error", None, f"unknown rotation {ch.rotation!r} (known: {', '.join(ROTATIONS)})")
    if len(set(ch.players)) != len(ch.players):
        chouette_finding("error", None, "a player is listed twice")
    totals = {p: 0 for p in ch.players}
    expect: tuple[str, list[str]] | None = None
    for cg in ch.games:
        seats = [cg.box, *cg.team]
        if len(set(seats)) != len(seats):
            chouette_finding("error", cg, f"game {cg.number}: a player sits twice "
                                          f"({cg.box} | {', '.join(cg.team)})")
        unknown = [p for p in seats if p not in totals]
        if unknown:
            chouette_finding("error", cg, f"game {cg.number}: {', '.join(unknown)} "
                                          f"{'is' if len(unknown) == 1 else 'are'} not among the players")
            for p in unknown:
                totals[p] = 0
        missing = [p for p in ch.players if p not in seats]
        if missing:
            chouette_finding("error", cg, f"game {cg.number}: {', '.join(missing)} "
                                          f"{'is' if len(missing) == 1 else 'are'} neither box nor in the "
                                          f"team")
        if not cg.team:
            chouette_finding("error", cg, f"game {cg.number} has no team")
            continue
        if expect is not None and ch.rotation == "standard" and (cg.box, cg.team) != expect:
            chouette_finding("error", cg, f"by the rotation, game {cg.number} has {expect[0]} in the box and "
                                          f"the team {', '.join(expect[1])} (captain first), not {cg.box} "
                                          f"and {', '.join(cg.team)}")
        runner = _ChouetteRunner(ch, cg, rep)
        res = runner.run()
        if cg.results is not None:
            order = seats + sorted(set(cg.results) - set(seats))
            for p in order:
                got, written = res.results.get(p, 0), cg.results.get(p, 0)
                if got != written:
                    chouette_finding("error", cg, f"game {cg.number}: {p}'s result is written as "
                                                  f"{written:+d}, but the game and the cubes give {got:+d}")
            if sum(cg.results.values()) != 0:
                chouette_finding("error", cg, f"game {cg.number}: the written results add up to "
                                              f"{sum(cg.results.values()):+d}, not 0")
        for p, v in res.results.items():
            totals[p] = totals.get(p, 0) + v
        if res.captain_won is None:
            expect = None
        else:
            expect = next_roles(cg.box, cg.team, res.captain_won)
    if ch.totals is not None:
        for p in sorted(set(totals) | set(ch.totals), key=str):
            if totals.get(p, 0) != ch.totals.get(p, 0):
                chouette_finding("error", None, f"{p}'s total is written as {ch.totals.get(p, 0):+d}, but "
                                                f"the games give {totals.get(p, 0):+d}")
    rep.findings.sort(key=lambda f: (f.game or 0, f.line or 0))
    return rep


def results_of(ch: Chouette) -> list[dict[str, int]]:
    """Each game's computed results (for writers and tests)."""
    rep = MatchReplay(to_match(ch))
    return [_ChouetteRunner(ch, cg, rep).run().results for cg in ch.games]


# =========================================================================== the record


def to_match(ch: Chouette) -> ChouetteMatch:
    """The chouette as a record (names = the first game's box and captain)."""
    first = ch.games[0] if ch.games else None
    names = (first.box, first.captain) if first else ("", "")
    return ChouetteMatch(length=0, names=names, games=[cg.game for cg in ch.games], tags=list(ch.tags),
                         comments=list(ch.comments), rules=ch.rules, source=ch.source, format="json",
                         chouette=ch)
