"""Self-play for the variant samples and tests: plausible games under any registered variant.

Not library code.  A simple greedy player (make points, hit, stay safe, with a seeded random touch)
picks among :meth:`Rules.legal_plays`; the result is a :class:`~notation.record.Match` that the tests
replay and the sample files in ``samples/`` were written from::

    /tmp/venv/bin/python tests/data/variant_games.py     # rewrites samples/{hyper3,dutch,acey}_*

Acey-Deucey turns follow :mod:`notation.variants`: a fully played 1-2 is followed by a named double
(an action with ``properties={"acey_double": ["chosen"]}``), and a fully played named double by another
roll of the same player.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from notation.play import format_steps_plain, play_result  # noqa: E402
from notation.position import Position  # noqa: E402
from notation.record import Action, Game, Match, MatchRules  # noqa: E402
from notation.rules import Play, get_rules  # noqa: E402
from notation.variants import ACEY_DOUBLE  # noqa: E402


def _score(play: Play) -> float:
    m, th = play.mine, play.theirs
    made = sum(1 for p in range(1, 25) if m[p] >= 2)
    blots = sum(1 for p in range(1, 25) if m[p] == 1)
    home = sum(1 for p in range(1, 7) if m[p] >= 2)
    return 2.0 * made + 1.5 * home - 1.2 * blots + 3.0 * th[25] + 2.5 * m[0] + 0.1 * sum(m[1:26])


def pick(plays: list[Play], rng: random.Random) -> Play:
    return max(plays, key=lambda p: (_score(p) + rng.random() * 1.5, p.notation()))


def _opening(rng: random.Random) -> tuple[int, int, int]:
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            return (0 if a > b else 1), a, b


def play_game(variant: str, rng: random.Random, *, cube_at: int | None = None, max_turns: int = 400,
              plain: bool = False) -> tuple[list[Action], int, int, Position]:
    """One game: (actions, winner, multiplier 1-3, final position).  ``cube_at`` = the turn number at
    which the player on roll doubles and the opponent takes (no cube when None).  ``plain``: plays as
    gnubg writes them in ``.mat`` files (single-die moves in order, high die first)."""
    rules = get_rules(variant)
    pos = Position.initial(rules.name)
    acey = getattr(rules, "bonus_roll", None) is not None
    first, a, b = _opening(rng)
    pos = pos.replace(turn=first)
    actions: list[Action] = []
    dice: tuple[int, int] | None = (max(a, b), min(a, b)) if not acey else None
    turn_no = 0
    while turn_no < max_turns:
        player = pos.turn
        if cube_at is not None and turn_no == cube_at:
            actions.append(Action("double", player, value=pos.cube * 2))
            actions.append(Action("take", 1 - player))
            pos = pos.replace(cube=pos.cube * 2, cube_owner=1 - player)
        if dice is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = rules.legal_plays(pos, dice)
        chosen = pick(plays, rng) if plays else Play((), pos.on_roll, pos.opponent)
        shown = (max(dice), min(dice)) if plain else dice
        text = format_steps_plain(chosen.steps) if plain else chosen.notation()
        actions.append(Action("move", player, dice=shown, play=text, move_number=turn_no // 2 + 1))
        pos = play_result(pos, chosen)
        dice = None
        turn_no += 1
        if pos.boards[player][0] == rules.checkers:
            break
        if acey and (max(actions[-1].dice or (0, 0)), min(actions[-1].dice or (0, 0))) == (2, 1) \
                and chosen.dice_used == 2:
            # Name the double whose best play scores highest, play it, then roll again if it was all played.
            back = pos.replace(turn=player)
            options = []
            for d in range(1, 7):
                dp = rules.legal_plays(back, (d, d))
                if dp:
                    best = pick(dp, rng)
                    options.append((best.dice_used, _score(best), d, best))
            if not options:
                continue
            used, _s, d, best = max(options)
            actions.append(Action("move", player, dice=(d, d), play=best.notation(),
                                  move_number=actions[-1].move_number, properties={ACEY_DOUBLE: ["chosen"]}))
            pos = play_result(back, best)
            if pos.boards[player][0] == rules.checkers:
                break
            if used == 4:
                pos = pos.replace(turn=player)
    winner = 0 if pos.boards[0][0] == rules.checkers else 1
    loser = pos.boards[1 - winner]
    k = 1
    if loser[0] == 0:
        k = 3 if loser[25] or pos.waiting(1 - winner) or any(loser[19:25]) else 2
    return actions, winner, k, pos


def play_match(variant: str, seed: int, *, length: int = 0, games: int = 3, names: tuple[str, str] = ("", ""),
               cube_every: int = 2, checker_scoring: bool = False, plain: bool = False) -> Match:
    """A match (``length`` > 0) or a money session of ``games`` games, results included; every
    ``cube_every``-th game has a double and a take (never in the Crawford game)."""
    rng = random.Random(seed)
    rules = get_rules(variant)
    m = Match(length=length, names=names, rules=MatchRules(variant=rules.name), format="json")
    if checker_scoring:
        m.properties["scoring"] = ["checkers"]
    score = [0, 0]
    crawford_done = False
    n = 0
    while True:
        n += 1
        crawford = False
        if length > 0 and not crawford_done and (score[0] == length - 1) != (score[1] == length - 1):
            crawford = crawford_done = True
        cube_at = None if crawford or n % cube_every else rng.randint(6, 14)
        actions, winner, k, pos = play_game(rules.name, rng, cube_at=cube_at, plain=plain)
        cube = 2 if any(a.kind == "double" for a in actions) else 1
        if checker_scoring:
            k = rules.checkers - pos.boards[1 - winner][0]
        points = k * cube
        actions.append(Action("win", winner, value=points))
        m.games.append(Game(number=n, score=(score[0], score[1]), actions=actions))
        score[winner] += points
        if (length > 0 and max(score) >= length) or (length == 0 and n >= games):
            break
    return m


def play_chouette(seed: int, players: list[str], games: int) -> Any:
    """A chouette of ``games`` games (standard backgammon, money): the box doubles in some games and
    each member answers; in others a member doubles the box; roles rotate by the standard rule."""
    from notation.chouette import Chouette, ChouetteGame, next_roles, results_of

    rng = random.Random(seed)
    ch = Chouette(players=list(players), rules=MatchRules())
    box, team = players[0], list(players[1:])
    for n in range(1, games + 1):
        actions, winner, k, _pos = play_game("standard", rng)
        moves = [i for i, a in enumerate(actions) if a.kind == "move"]
        cube: list[Action] = []
        scenario = n % 3
        at = None
        if scenario == 1:  # the box doubles before one of its moves; each member answers
            cands = [i for i in moves[6:16] if actions[i].player == 0]
            if cands:
                at = cands[0]
                cube = [Action("double", 0, value=2)]
                for j, mem in enumerate(team):
                    kind = "take" if j == 0 or rng.random() < 0.6 else "drop"
                    cube.append(Action(kind, 1, properties={"member": [mem]}))
        elif scenario == 2:  # a member (not always the captain) doubles the box, who takes
            cands = [i for i in moves[6:16] if actions[i].player == 1]
            if cands:
                at = cands[0]
                mem = team[n % len(team)]
                cube = [Action("double", 1, value=2, properties={"member": [mem]}),
                        Action("take", 0, properties={"member": [mem]})]
        if at is not None:
            actions = actions[:at] + cube + actions[at:]
        actions.append(Action("win", winner, value=k))
        ch.games.append(ChouetteGame(n, box, list(team), Game(number=n, actions=actions)))
        results = results_of(ch)[-1]
        box, team = next_roles(box, team, results[team[0]] > 0)
    return ch


def compact_json(m: Match) -> str:
    """The gammon-notation JSON of ``m`` without the keys that hold nothing (the reader's defaults)."""
    from notation.formats import json_format as jf
    from notation.formats.chouette_json import _compact

    d = jf.match_to_dict(m)
    d = _compact(d)
    d["games"] = [dict(_compact({k: v for k, v in g.items() if k != "actions"}),
                       actions=[_compact(a) for a in g["actions"]]) for g in d["games"]]
    out: list[str] = []
    jf._dump({"format": jf.FORMAT, "version": jf.VERSION, "match": d}, 0, out)
    return "".join(out) + "\n"


def main() -> None:
    from notation.formats.mat import write_match

    out = ROOT / "samples"
    dutch = play_match("dutch", 11, length=5, names=("Anneke", "Pieter"), plain=True)
    (out / "dutch_5point.mat").write_text(write_match(dutch), encoding="utf-8")
    acey = play_match("acey-deucey", 7, games=3, names=("Chief", "Bosun"), cube_every=99)
    acey.tags.append(("Event", "Wardroom acey-deucey, money"))
    (out / "acey_money_session.json").write_text(compact_json(acey), encoding="utf-8")
    acey2 = play_match("acey-deucey", 8, games=2, names=("Chief", "Bosun"), cube_every=99,
                       checker_scoring=True)
    (out / "acey_checker_scoring.json").write_text(compact_json(acey2), encoding="utf-8")
    from notation.formats.chouette_json import chouette_to_json

    ch = play_chouette(5, ["Ann", "Ben", "Cid", "Dee"], 6)
    ch.tags.append(("Event", "Thursday club chouette"))
    (out / "chouette_4players.json").write_text(chouette_to_json(ch), encoding="utf-8")
    print("wrote", out / "dutch_5point.mat", out / "acey_money_session.json",
          out / "acey_checker_scoring.json", out / "chouette_4players.json")


if __name__ == "__main__":
    main()
