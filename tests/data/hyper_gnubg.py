"""Hypergammon through GNU Backgammon itself: our generator picks each play, gnubg checks and records it.

Debian's gnubg has no Hypergammon database, so it cannot *choose* hypergammon plays, but with both
players set to ``human`` it plays the variant, refuses illegal moves and exports the match.  This
module drives gnubg's Python module in-process (a test-only oracle, never imported by library code):

* :func:`gnubg_hyper_match` plays a whole match, each play chosen by :mod:`variant_games`'s greedy
  player from :meth:`Rules.legal_plays`, and checks after every play that gnubg accepted it and that
  gnubg's board equals ours.  It returns gnubg's own ``.mat`` export.
* Run as a script it rewrites ``samples/hyper{1,2,3}_*.mat``::

      /tmp/venv/bin/python tests/data/hyper_gnubg.py
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for p in (str(ROOT), str(Path(__file__).resolve().parent)):
    if p not in sys.path:
        sys.path.insert(0, p)

from variant_games import pick  # noqa: E402

from notation.play import play_result  # noqa: E402
from notation.position import Position  # noqa: E402
from notation.rules import get_rules  # noqa: E402

GNUBG_VARIATION = {"hypergammon1": "1-chequer-hypergammon", "hypergammon2": "2-chequer-hypergammon",
                   "hypergammon3": "3-chequer-hypergammon"}


class GnubgRefused(AssertionError):
    pass


def run(cmd: str) -> str:
    import gnubg

    f = io.StringIO()
    with contextlib.redirect_stdout(f):
        gnubg.command(cmd)
    return f.getvalue()


def _ours(variant: str) -> Position:
    """gnubg's board (player on roll's view) as our Position."""
    import gnubg

    rules = get_rules(variant)
    opp, me = gnubg.board()
    info = gnubg.posinfo()

    def conv(b: tuple[int, ...]) -> tuple[int, ...]:
        pts = tuple(b[:24])
        return (rules.checkers - sum(b), *pts, b[24])

    turn = info["turn"]
    boards = [conv(opp), conv(opp)]
    boards[turn] = conv(me)
    boards[1 - turn] = conv(opp)
    return Position(boards=(boards[0], boards[1]), turn=turn, variant=rules.name)


def gnubg_hyper_match(variant: str, seed: int, length: int, **options: object) -> tuple[str, int]:
    """:func:`_hyper_match`, leaving gnubg's settings as they were for other tests in the process."""
    try:
        return _hyper_match(variant, seed, length, **options)  # type: ignore[arg-type]
    finally:
        for cmd in ("set variation standard", "set automatic roll on", "set player 0 gnubg",
                    "set player 1 human"):
            run(cmd)


def _hyper_match(variant: str, seed: int, length: int, *, names: tuple[str, str] = ("Alice", "Bob"),
                      double_every: int = 3, check_refusals: bool = True, sgf: list[str] | None = None,
                      ) -> tuple[str, int]:
    """Play a ``length``-point hypergammon match in gnubg with our plays; return (gnubg's .mat export,
    number of plays checked); gnubg's SGF of the match is appended to ``sgf`` when given.  Raises
    :class:`GnubgRefused` if gnubg refuses a play we call legal or
    accepts one we call illegal, or if the boards disagree."""
    import gnubg

    rules = get_rules(variant)
    rng = random.Random(seed)
    for cmd in ("set confirm new off", f"set seed {seed}", f"set variation {GNUBG_VARIATION[rules.name]}",
                "set player 0 human", "set player 1 human", "set automatic roll off", "set automatic game on",
                f"set player 0 name {names[0]}", f"set player 1 name {names[1]}", f"new match {length}"):
        run(cmd)
    checked = 0
    turns = 0
    while True:
        info = gnubg.posinfo()
        if info["gamestate"] != 1:
            break
        turns += 1
        if turns > 3000:
            raise GnubgRefused("the match does not end")
        if info["dice"] == (0, 0):
            pos = _ours(rules.name)
            if pos.cube == 1 and double_every and turns % (double_every * 7) == 0:
                run("double")
                if gnubg.posinfo()["doubled"]:
                    run("take")
            run(f"set dice {rng.randint(1, 6)} {rng.randint(1, 6)}")
            info = gnubg.posinfo()
        pos = _ours(rules.name).replace(dice=info["dice"])
        plays = rules.legal_plays(pos)
        if not plays:
            if gnubg.posinfo()["dice"] != (0, 0) and gnubg.posinfo()["turn"] == pos.turn:
                raise GnubgRefused(f"gnubg waits for a play in {pos!r} {info['dice']}, we find none")
            continue
        chosen = pick(list(plays), rng)
        if check_refusals and rng.random() < 0.3:
            bad = _illegal_variant(rules, pos, plays)
            if bad is not None:
                run(f"move {bad}")
                if gnubg.posinfo()["dice"] == (0, 0) or gnubg.posinfo()["turn"] != pos.turn:
                    raise GnubgRefused(f"gnubg accepted {bad!r}, which is illegal in {pos!r} {info['dice']}")
        run(f"move {chosen.notation()}")
        info2 = gnubg.posinfo()
        after = play_result(pos, chosen)
        ends = after.boards[pos.turn][0] == rules.checkers  # then gnubg starts the next game at once
        if not ends and info2["gamestate"] == 1 and info2["dice"] != (0, 0) and info2["turn"] == pos.turn:
            raise GnubgRefused(f"gnubg refused {chosen.notation()!r} in {pos!r} with {info['dice']}")
        checked += 1
        if not ends and info2["gamestate"] == 1:
            theirs = _ours(rules.name)
            if theirs.boards != after.boards:
                raise GnubgRefused(f"after {chosen.notation()} gnubg has {theirs.boards}, "
                                   f"we have {after.boards}")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "m.mat"
        run(f'export match mat "{path}"')
        if sgf is not None:
            run(f'save match "{Path(d) / "m.sgf"}"')
            sgf.append((Path(d) / "m.sgf").read_text(encoding="utf-8"))
        return path.read_text(encoding="utf-8"), checked


def _illegal_variant(rules: object, pos: Position, plays: object) -> str | None:
    """A play that uses fewer dice than the legal plays do (illegal by the must-use-both rule)."""
    legal = list(plays)  # type: ignore[call-overload]
    most = max(p.dice_used for p in legal)
    if most < 2:
        return None
    for p in legal:
        if p.dice_used == most:
            s, t, _h = p.steps[0]
            part = f"{'bar' if s == 25 else s}/{'off' if t == 0 else t}"
            legal_one = {(q.steps[0][0], q.steps[0][1]) for q in legal if q.dice_used == 1}
            if (s, t) not in legal_one:
                return part
    return None


def main() -> None:
    out = ROOT / "samples"
    for variant, seed, length, fname in (("hypergammon3", 3, 7, "hyper3_7point.mat"),
                                         ("hypergammon3", 4, 3, "hyper3_3point.mat"),
                                         ("hypergammon2", 5, 5, "hyper2_5point.mat"),
                                         ("hypergammon1", 6, 5, "hyper1_5point.mat")):
        text, n = gnubg_hyper_match(variant, seed, length)
        # gnubg stamps today's date; samples stay reproducible without it.
        text = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("; [EventDate"))
        (out / fname).write_text(text, encoding="utf-8")
        print(f"{fname}: {n} plays checked by gnubg")


if __name__ == "__main__":
    main()
