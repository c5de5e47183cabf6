"""The move generator's oracle: the plain depth-first search over single-die steps that GNU Backgammon
runs, written as simply as possible.  The product's generator (:mod:`notation.rules`, which specialises by
case for speed) must give the same plays, in the same order, with the same steps, for every variant it
plays (tests/test_rules.py, on random positions of every kind, Dutch backgammon's hits included)."""

from __future__ import annotations

from notation.rules import Play, Rules, Step

Board = tuple[int, ...]


def generate_reference(rules: Rules, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
    """The plain generator: a depth-first search over single-die steps, as GNU Backgammon generates
    moves, keeping the first sequence found for each resulting position (``hi`` >= ``lo``)."""
    blocked = [False] * 26
    blot = [False] * 26
    for p in range(1, 25):
        n = theirs[25 - p]
        if n >= 2:
            blocked[p] = True
        elif n == 1:
            blot[p] = True
    m = list(mine)
    outside = sum(m[7:26])
    best = [0]
    dutch = rules.hit_needs_home_checker

    hits_now = [0]
    outside_now = [outside]
    first_die = [0]

    def options(die: int, lowest_src: int) -> list[Step]:
        res: list[Step] = []
        srcs: range | tuple[int, ...] = (25,) if m[25] else range(min(lowest_src, 24), 0, -1)
        for s in srcs:
            if not m[s]:
                continue
            t = s - die
            if t >= 1:
                if blocked[t]:
                    continue
                hit = blot[t] and not (hits_now[0] >> t) & 1
                if hit and dutch and not any(m[1:7]):
                    continue
                res.append((s, t, hit))
            elif outside_now[0] == 0 and (t == 0 or not any(m[s + 1:7])):
                res.append((s, 0, False))
        return res

    def apply(s: int, t: int, hit: bool) -> None:
        m[s] -= 1
        m[t] += 1
        if s >= 7 and t <= 6:
            outside_now[0] -= 1
        if hit:
            hits_now[0] |= 1 << t

    def undo(s: int, t: int, hit: bool) -> None:
        m[s] += 1
        m[t] -= 1
        if s >= 7 and t <= 6:
            outside_now[0] += 1
        if hit:
            hits_now[0] &= ~(1 << t)

    found: dict[tuple[tuple[int, ...], int], tuple[tuple[Step, ...], int]] = {}

    def record(steps: tuple[Step, ...]) -> None:
        n = len(steps)
        if n < best[0]:
            return
        if n > best[0]:
            best[0] = n
            found.clear()
        key = (tuple(m), hits_now[0])
        if key not in found:
            found[key] = (steps, first_die[0])

    if hi == lo:
        def rec(depth: int, lowest: int, steps: tuple[Step, ...]) -> None:
            opts = options(hi, lowest) if depth < 4 else None
            if not opts:
                record(steps)
                return
            for s, t, hit in opts:
                apply(s, t, hit)
                # Later checkers move from no higher point than this one (a complete search for
                # the standard rules); in Dutch backgammon a checker reaching home first may
                # enable a hit further back, so every order is searched.
                rec(depth + 1, 25 if dutch else s, steps + ((s, t, hit),))
                undo(s, t, hit)

        rec(0, 25, ())
        rec = None  # type: ignore[assignment]  # a recursive closure is a reference cycle: broken here
    else:
        for first, second in ((hi, lo), (lo, hi)):
            first_die[0] = first
            for s, t, hit in options(first, 25):
                apply(s, t, hit)
                opts2 = options(second, 25)
                if opts2:
                    for s2, t2, hit2 in opts2:
                        apply(s2, t2, hit2)
                        record(((s, t, hit), (s2, t2, hit2)))
                        undo(s2, t2, hit2)
                else:
                    record(((s, t, hit),))
                undo(s, t, hit)
        if best[0] == 1:
            # Either die but not both can be played: the larger one when it can be.
            larger = {k: v for k, v in found.items() if v[1] == hi}
            if larger:
                found = larger

    plays = []
    for (board, hits), (steps, _die) in found.items():
        if not steps:
            continue
        if hits:
            th = list(theirs)
            for p in range(1, 25):
                if (hits >> p) & 1:
                    th[25 - p] -= 1
                    th[25] += 1
            theirs_after = tuple(th)
        else:
            theirs_after = theirs
        plays.append(Play(steps, board, theirs_after))
    return tuple(plays)


