"""Arrows of a play: which checker goes where, and a route for each arrow around what the board shows.

A play is a list of steps ``(from, to, hit)`` in the mover's numbering.  :class:`Arrows` chains the
steps of one checker into a path, picks which checker of a stack leaves first and which slot of a point
each arrival takes (the order with the fewest crossing arrows), marks where the moved checkers land
(dashed "ghosts") and the blots hit, then bends each arrow's curve around checkers, counts, dice and the
bar (:meth:`Arrows.route`) and draws it with a halo.  Deterministic: no randomness, a fixed search.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from math import hypot
from typing import Any, Protocol

from notation.position import Position

from ._font import Font
from .display import Circle, Color, Glyphs, Group, Part, Point, Polygon, Polyline, Rect, close_group
from .geometry import ARROW_HEAD, ARROW_WIDTH, BAR_MAX, POINT_MAX, Box, Geo, pos_checkers
from .themes import Theme

Arrow = tuple[int, int, bool]
"""(from, to, hit) in the mover's numbering: 25 = bar, 0 = off."""
_Shaft = tuple[Point, Point, Point, float, float]
"""An arrow's curve (start, control, end), how far short of the end its tip stops, its head's scale."""
_Ghost = tuple[str, float, float, str]
"""Where a moved checker lands: (kind, x, y, count), kind ``disc`` (a dashed checker), ``slab`` (a dashed
slab in the tray), ``gap`` (beyond a full stack) or ``over`` (on a full stack's top checker); count:
the checkers on the point after the play, for the last two."""
_Sim = tuple[list[_Shaft], list[_Ghost], list[Point]]
"""Arrows, ghosts, hit blots."""
_Column = tuple[float, float, float]
"""A column with checkers: centre x, where the top stack ends (-inf: no top stack), where the bottom stack
starts (inf: no bottom stack)."""
_SOME_SAMPLES = (2, 6, 10, 14)
"""The samples (of 0-16, :meth:`_Curve.span`) that bound a candidate curve's cost from below before all are
tested (:meth:`Arrows._refiner`)."""
_SAMPLES = _SOME_SAMPLES + tuple(k for k in range(17) if k not in _SOME_SAMPLES)
"""The samples of a shaft :meth:`Arrows._hits` tests, in the order it tests them."""
_EVERY = 2 * len(_SAMPLES) + 1
"""More than the samples of a shaft can count (:meth:`Arrows._hits`'s ``enough`` when all are to be tested)."""
_HW = 0.12
"""Half an arrow's shaft with its halo, and a little air, in u."""


class Text(Protocol):
    """How the board writes text (:class:`render.layout._Text`)."""

    font: Font

    def glyphs(self, s: str, x: float, y: float, size: float, fill: Color, *, anchor: str = "mm",
               bold: float = 0.0) -> Glyphs: ...


class Parts(Protocol):
    """What the boards drawn with one geometry, theme and text share (:class:`render.layout._Parts`)."""

    units: dict[tuple[Any, ...], Part]

    def keep(self, key: tuple[Any, ...], part: Part) -> Part: ...


class Board(Protocol):
    """What the arrows need of the board they are drawn on (:class:`render.layout._Board`)."""

    pos: Position
    g: Geo
    th: Theme
    u: float
    lw: float
    items: list[Part]

    @property
    def t(self) -> Text: ...

    @property
    def parts(self) -> Parts: ...

    def side(self, player: int) -> bool: ...

    def to_bottom_numbering(self, player: int, p: int) -> int: ...

    def checker(self, out: list[Part], x: float, y: float, player: int, *, r: float | None = None) -> None: ...

    def count(self, out: list[Part], x: float, y: float, n: int, player: int) -> None: ...

    def dice_box(self) -> Box | None: ...


class Arrows:
    """The arrows of one play (``steps`` of the player ``mover``) on one board."""

    def __init__(self, board: Board, steps: Sequence[Arrow], mover: int, theme: Theme | None = None) -> None:
        self.board = board
        self.th = board.th if theme is None else theme
        """The colours of the arrows, ghosts and bursts (the board's, unless given)."""
        self.pos, self.g, self.u = board.pos, board.g, board.u
        self.arrows = steps
        self.mover = mover
        self.counted: set[Point] = set()
        """Checkers with a count on them that an arrow leaves from."""
        self.chained: set[Point] = set()
        """Where a step of a chain starts (where the step before it landed)."""
        self.stacks: tuple[list[int], list[int]] | None = None
        """How many checkers are drawn in each screen column, at the top and at the bottom."""
        self.crossing: dict[tuple[_Arc, _Arc], bool] = {}
        """Whether two arcs cross, for the pairs asked (:func:`_crossings`)."""

    def draw(self, out: list[Part], checkers_at: int, show_ghosts: bool, show_hits: bool = True) -> None:
        """Add the arrows, the ghosts (with ``show_ghosts``) and, under the checkers (which start at index
        ``checkers_at`` of ``out``), a burst behind each blot hit (with ``show_hits``)."""
        if not self.arrows:
            return
        pos, g, th, u = self.pos, self.g, self.th, self.u
        mover = self.mover
        mside = self.board.side(mover)
        total = pos_checkers(pos)
        # One path per checker: a step from where an earlier step of the play landed continues it.
        paths: list[list[Arrow]] = []
        for step in self.arrows:
            for path in reversed(paths):
                if path[-1][1] == step[0] and step[0] != 0:
                    path.append(step)
                    break
            else:
                paths.append([step])
        # Which checker of a stack leaves first, and which slot of a point each arrival takes, decide
        # whether arrows cross: try the orders (a play has at most four paths) and keep the first
        # with the fewest crossings, starting from "shorter paths leave from the top and land lowest".
        base = sorted(range(len(paths)), key=lambda i: (paths[i][0][0] - paths[i][-1][1], i))
        orders = [tuple(base)]
        if 1 < len(paths) <= 4:
            orders += [tuple(base[k] for k in perm) for perm in itertools.permutations(range(len(paths)))][1:]
        best: tuple[int, int] | None = None
        chosen: _Sim | None = None
        for n, order in enumerate(orders):
            sim = self._simulate(paths, order, list(pos.boards[mover]), list(pos.boards[1 - mover]),
                                 mover, mside, total)
            score = (_crossings([(a, c, b) for a, c, b, _s, _k in sim[0]], self.crossing), n)
            if best is None or score < best:
                best, chosen = score, sim
            if score[0] == 0:
                break
        assert chosen is not None
        shafts, ghosts, hits = chosen
        shafts = self.route(shafts, ghosts)
        lw = ARROW_WIDTH * u
        halo = max(0.05 * u, 1.2 * self.board.lw)
        if show_ghosts:
            slab = g.slab_h(total)
            w = (g.tray_box(True)[2] - g.tray_box(True)[0]) - 0.14 * u
            for kind, x, y, label in ghosts:
                start = len(out)
                self.ghost(out, kind, x, y, label, w, slab)
                close_group(out, start)
        # the bursts go under the checkers, above the board
        for k, (x, y) in enumerate(hits if show_hits else ()):
            out.insert(checkers_at + k, self.hit_mark(x, y))
        # Each arrow with its own halo: where two cross, the one drawn later cuts a clean gap in the other.
        # An arrow depends on its curve and colours only: made once for the boards sharing ``parts``.
        units = self.board.parts.units
        for p0, c, p1, stop, scale in shafts:
            counted = p0 in self.counted
            key = ("arrow", p0, c, p1, stop, scale, counted, th.arrow, th.arrow_halo)
            arrow = units.get(key)
            if arrow is None:
                if counted:  # start at the checker's rim, leaving its count readable
                    t = 1.0 - _param_at_distance(p1, c, p0, 1.0, 0.36 * u)
                    p0, c = _quad(p0, c, p1, t), (c[0] + (p1[0] - c[0]) * t, c[1] + (p1[1] - c[1]) * t)
                line, curve, head = self.arrow_shape(p0, c, p1, stop, scale)
                arrow = self.board.parts.keep(key, Group(0.0, 0.0, (
                    Polyline(line, th.arrow_halo, lw + 2 * halo, curve=curve),
                    Polygon(head, th.arrow_halo, th.arrow_halo, 2 * halo),
                    Polyline(line, th.arrow, lw, curve=curve),
                    Polygon(head, th.arrow, th.arrow, lw * 0.5))))
            out.append(arrow)

    def ghost(self, out: list[Part], kind: str, x: float, y: float, label: str, w: float, slab: float) -> None:
        """Where a moved checker lands (see :data:`_Ghost`); ``w``, ``slab``: a tray slab's size."""
        th, u, mover, lw = self.th, self.u, self.mover, self.board.lw
        if kind == "slab":  # a checker borne off: a dashed slab where it lands in the tray
            sw, sh = w - lw, slab - lw
            r = min(slab / 2, 0.12 * u)
            perimeter = 2 * (sw + sh - 4 * r) + 2 * math.pi * r
            out.append(Rect(x - w / 2 + lw / 2, y - slab / 2 + lw / 2, sw, sh, None, th.arrow,
                            lw * 1.2, radius=r, dashes=max(6, round(perimeter / (0.22 * u)))))
            return
        if kind == "over":  # no room beyond the stack: the count after the play, ringed
            self.board.checker(out, x, y, mover)
            self.board.count(out, x, y, int(label), mover)
            out.append(Circle(x, y, u / 2 + lw, None, th.arrow, lw * 1.3, dashes=12))
            return
        if label:  # beyond a stack of five: the checker in the gap, with the count after the play
            out.append(Circle(x, y, u / 2 - lw, th.field, None))
        out.append(Circle(x, y, u / 2 - lw, None, th.arrow, lw * 1.3, dashes=12))
        if label:
            size = 0.5 * u if len(label) < 2 else 0.46 * u
            out.append(self.board.t.glyphs(label, x, y, size, th.text, bold=0.03 * u))

    def _simulate(self, paths: list[list[Arrow]], order: Sequence[int], mine: list[int], theirs: list[int],
                  mover: int, mside: bool, total: int
                  ) -> _Sim:
        g, u = self.g, self.u
        shafts: list[_Shaft] = []
        ghosts: list[_Ghost] = []
        hits: list[Point] = []
        keys: list[tuple[int, int]] = []
        raw: list[tuple[Point, Point, bool, float, float]] = []
        beyond: dict[int, int] = {}  # index in ghosts of the ghost beyond a full stack, by point
        n_off = 0
        for i in order:
            path = paths[i]
            landed: Point | None = None
            for j, (s, t, hit) in enumerate(path):
                if landed is not None:  # a step of a chain leaves from where the one before landed
                    src = landed
                    self.chained.add(src)
                elif s == 25:
                    src = g.bar_slot(mside, max(mine[25] - 1, 0))
                    if mine[25] > BAR_MAX:
                        self.counted.add(src)
                else:
                    src = g.slot(self.board.to_bottom_numbering(mover, s), max(mine[s] - 1, 0))
                    if mine[s] > POINT_MAX:
                        self.counted.add(src)  # the arrow leaves from a checker with the count on it
                mine[s] = max(mine[s] - 1, 0)
                stop, scale = 0.42 * u, 1.0
                kind = "disc"
                if t == 0:
                    # The ghost slab is where the checker lands; the arrow stops at the tray's edge,
                    # successive arrows 0.45u apart so that their heads do not merge.
                    ghost = g.off_slot(mside, mine[0], total)
                    mine[0] += 1
                    tx0, _y0, tx1, _y1 = g.tray_box(mside)
                    edge = tx0 - 0.06 * u if g.home_right else tx1 + 0.06 * u
                    dy = -0.45 * u * n_off if mside else 0.45 * u * n_off
                    n_off += 1
                    dst = (edge, ghost[1] + dy)
                    stop, scale = 0.0, 0.8
                    kind = "slab"
                else:
                    opp = theirs[25 - t]
                    if opp == 1 or hit:
                        hit = True
                        theirs[25 - t] = max(opp - 1, 0)
                        theirs[25] += 1
                    bp = self.board.to_bottom_numbering(mover, t)
                    if mine[t] >= POINT_MAX:
                        # The stack is full: the checker is drawn beyond it, in the gap, with the count
                        # after the play; where the dice stand there, over the top checker.
                        dst, kind = self.beyond_slot(bp)
                    else:
                        dst = g.slot(bp, mine[t])
                    mine[t] += 1
                keys.append((s, t))
                raw.append((src, dst, t == 0, stop, scale))
                if j == len(path) - 1:
                    if t == 0:
                        ghosts.append(("slab", ghost[0], ghost[1], ""))
                    elif kind != "disc":
                        if t not in beyond:
                            beyond[t] = len(ghosts)
                            ghosts.append((kind, dst[0], dst[1], ""))
                    else:
                        ghosts.append(("disc", dst[0], dst[1], ""))
                if hit:
                    hits.append(dst)
                landed = dst if t != 0 else None
        for t, k in beyond.items():  # the count on the point after the play
            kind, x, y, _ = ghosts[k]
            ghosts[k] = (kind, x, y, str(mine[t]))
        # Checkers making the same move leave a stack top first and land bottom first; along one row
        # that makes parallel arrows cross, so pair them the other way round when that is better.
        groups: dict[tuple[int, int], list[int]] = {}
        for k, key in enumerate(keys):
            groups.setdefault(key, []).append(k)
        dsts = [r[1] for r in raw]
        for members in groups.values():
            if len(members) > 1:
                natural = [self.arc(raw[k][0], raw[k][1], raw[k][2]) for k in members]
                swapped = [self.arc(raw[k][0], raw[m][1], raw[k][2])
                           for k, m in zip(members, reversed(members), strict=True)]
                if _crossings(swapped, self.crossing) < _crossings(natural, self.crossing):
                    for k, m in zip(members, reversed(members), strict=True):
                        dsts[k] = raw[m][1]
        for (src, _dst, to_tray, stop, scale), dst in zip(raw, dsts, strict=True):
            a, c, b = self.arc(src, dst, to_tray)
            shafts.append((a, c, b, stop, scale))
        return shafts, ghosts, hits

    def beyond_slot(self, bp: int) -> tuple[Point, str]:
        """Where a checker arriving on a full stack (five drawn) of the bottom player's point ``bp`` is
        drawn: the sixth slot, reaching into the gap ("gap"), unless the dice stand there ("over": on
        the top checker)."""
        g, u = self.g, self.u
        col, top = g.point_col(bp)
        x = g.col_x(col)
        y = g.fy0 + (POINT_MAX + 0.5) * u if top else g.fy1 - (POINT_MAX + 0.5) * u
        box = self.board.dice_box()
        if box is not None and box[0] - 0.05 * u < x + u / 2 and x - u / 2 < box[2] + 0.05 * u:
            return g.slot(bp, POINT_MAX - 1), "over"
        return (x, y), "gap"

    # ------------------------------------------------------------ arrow routing
    def obstacles(self, exclude: set[tuple[int, bool]]) -> _Obstacles:
        """What an arrow should not run over: the checkers of each screen column (how many are drawn at
        the top and at the bottom, except in the columns ``exclude`` names), and boxes for the bar's
        checkers, the dice or an offered cube, the cube, the trays' counts and their checkers; in the
        form :meth:`_over` reads (:data:`_Obstacles`), made once for all the curves tried for an arrow."""
        pos, g, u = self.pos, self.g, self.u
        if self.stacks is None:  # a column's half shows one point's checkers: of one player
            self.stacks = [0] * 12, [0] * 12
            for player in (0, 1):
                board = pos.boards[player]
                for p in range(1, 25):
                    if board[p] > 0:
                        col, is_top = g.point_col(self.board.to_bottom_numbering(player, p))
                        self.stacks[0 if is_top else 1][col] = min(board[p], POINT_MAX)
        top, bottom = list(self.stacks[0]), list(self.stacks[1])
        for col, is_top in exclude:
            if 0 <= col < 12:
                (top if is_top else bottom)[col] = 0
        boxes: list[Box] = []
        for player in (0, 1):
            n = min(pos.boards[player][25], BAR_MAX)
            if n and (12, self.board.side(player)) not in exclude:
                (x0, y0), (_x1, y1) = g.bar_slot(self.board.side(player), 0), g.bar_slot(self.board.side(player), n - 1)
                boxes.append((x0 - u / 2, min(y0, y1) - u / 2, x0 + u / 2, max(y0, y1) + u / 2))
            off = pos.boards[player][0]
            if off:
                x0, y0, x1, y1 = g.tray_box(self.board.side(player))
                ly = y0 + 0.3 * u if self.board.side(player) else y1 - 0.3 * u
                boxes.append((x0, ly - 0.25 * u, x1, ly + 0.25 * u))  # the count
        box = self.board.dice_box()
        if box is not None:
            boxes.append(box)
        # The columns with checkers, each with where its stacks end, left to right; for each width u of
        # the board from its left edge, the columns a sample there may be within reach of (a few more).
        cols = [(g.col_x(col), g.fy0 + top[col] * u if top[col] else -math.inf,
                 g.fy1 - bottom[col] * u if bottom[col] else math.inf) if top[col] or bottom[col] else None
                for col in range(12)]
        hw = _HW * u
        return _Obstacles(cols, [(x0 - hw, y0 - hw, x1 + hw, y1 + hw) for x0, y0, x1, y1 in boxes], g, u)

    def route(self, shafts: list[_Shaft], ghosts: list[_Ghost]) -> list[_Shaft]:
        """Bend each arrow around checkers, counts, dice and the bar's checkers where it can, and away
        from the other arrows: each arrow's curve is chosen among gentle and deeper bends on either
        side and bends through the gap between the rows, by the length it runs over something, a
        penalty per crossing and a small one for leaving the plain arc; a few rounds, one arrow at a
        time (deterministic)."""
        if not shafts:
            return shafts
        arcs = [(a, c, b) for a, c, b, _s, _k in shafts]
        curves = [_Curve(*sh[:4]) for sh in shafts]
        # The arrow's own columns are not in its way (it leaves the top checker of one and lands on
        # the other), unless it starts where an earlier step landed beyond a full stack.
        obsts = [self.obstacles({self._column_of(b)} | (set() if a in self.chained else {self._column_of(a)}))
                 for a, _c, b in arcs]
        plain = [2.0 * self._over(cv, ob) for cv, ob in zip(curves, obsts, strict=True)]
        tangled = len(arcs) > 1 and (_crossings(arcs, self.crossing) > 0 or self._alongside(curves))
        if not tangled and not any(plain):
            return shafts  # the plain arcs are clear: nothing to do (the common case, and fast)
        cands: list[list[tuple[Point, float]]] = []
        ranked: list[_Ranking] = []
        for cv, ob, cost0 in zip(curves, obsts, plain, strict=True):
            if cost0 == 0 and not tangled:
                cands.append([(cv.c, 0.0)])
                ranked.append(_Ranking([0.0], None))
                continue
            options = cv.options(self)
            cands.append(options)
            ranked.append(_Ranking([cost0] + [dev for _cc, dev in options[1:]], self._refiner(cv, ob)))
        u = self.u
        current = [0] * len(arcs)  # the plain arc is the first candidate

        def other(j: int) -> tuple[list[Point], tuple[float, float, float, float], list[_Segment], list[Point],
                                   tuple[float, float, float, float]]:
            return curves[j].other(current[j], cands[j][current[j]][0], u)

        # Whether two candidates of two arrows cross (the same either way round), and which samples of
        # one's middle run close to the other's: asked again in later rounds and for other orders.
        crossed: dict[tuple[int, int, int, int], bool] = {}
        close: dict[tuple[int, int, int, int], int] = {}
        d2 = (0.4 * u) * (0.4 * u)
        for _round in range(3):
            changed = False
            for i in range(len(arcs)):
                others = [(j, current[j], other(j)) for j in range(len(arcs)) if j != i]
                best_k, best_cost = current[i], math.inf
                rank = ranked[i]
                curve = curves[i]
                n_th = 0
                # the candidates in order while they cost less than the best so far before any crossing is
                # counted (no bound of the others refined past that)
                while (k := rank.at(n_th, best_cost)) is not None:
                    n_th += 1
                    cost = rank.cost[k]
                    mine, mine_near, mine_box = curve.flat(k, cands[i][k][0])
                    # Each crossing adds to the cost: counted inside the bound, the others' crossings are
                    # not asked once this one costs more than the best (nor whether it runs alongside).
                    n = 0
                    for j, m, (f, fb, fs, _near, _nb) in others:
                        pair = (i, k, j, m) if i < j else (j, m, i, k)
                        x = crossed.get(pair)
                        if x is None:
                            x = crossed[pair] = _polylines_cross(mine, f, mine_box, fb, fs)
                        if x:
                            n += 1
                            if cost + 3.0 * n >= best_cost:
                                break
                    cost += 3.0 * n
                    if cost >= best_cost:
                        continue
                    # running alongside another arrow (closer than 0.4 u) reads as one thick arrow
                    bits = 0
                    for j, m, (_f, _fb, _fs, near, nb) in others:
                        pair = (i, k, j, m)
                        mask = close.get(pair)
                        if mask is None:
                            mask = close[pair] = _close_mask(mine_near, near, nb, d2)
                        bits |= mask
                    cost += 0.15 * bits.bit_count()
                    if cost < best_cost - 1e-9:
                        best_k, best_cost = k, cost
                if best_k != current[i]:
                    current[i], changed = best_k, True
            if not changed:
                break
        return [(a, cands[i][current[i]][0], b, stop, scale)
                for i, (a, _c, b, stop, scale) in enumerate(shafts)]

    def _refiner(self, curve: _Curve, ob: _Obstacles) -> Callable[[int, float], tuple[float, bool]]:
        """For :class:`_Ranking`: a candidate's cost (twice the length it runs over obstacles, as
        :meth:`_over` measures it, and its penalty), in two steps: a lower bound from a few of its samples
        (:data:`_SOME_SAMPLES`), then, if the order reaches that, the cost, from the other samples; either
        step stops as soon as the samples found over something make the bound ``limit`` or more (the count
        so far kept for when the order reaches the candidate again)."""
        partial: dict[int, tuple[tuple[float, float, float], int, int]] = {}
        a, b, options = curve.a, curve.b, curve.options(self)

        def refine(k: int, limit: float) -> tuple[float, bool]:
            cc, penalty = options[k]
            known = partial.get(k)
            if known is None:
                span = curve.span(k, cc, self.u)
                if span is None:
                    return 2.0 * 0.0 + penalty, True
                hits, done = 0, 0
            else:
                span, hits, done = known
            step = span[2]
            # how many more samples over something reach the limit (a bound that falls short by rounding
            # is refined again when the order reaches it)
            more = math.ceil((limit - penalty - 2.0 * (hits * step)) / (2.0 * step)) if limit < math.inf else _EVERY
            found, done = self._hits(a, cc, b, span, ob, done, len(_SOME_SAMPLES) if done == 0 else len(_SAMPLES),
                                     max(more, 1))
            hits += found
            partial[k] = span, hits, done
            return 2.0 * (hits * step) + penalty, done == len(_SAMPLES)

        return refine

    def _alongside(self, curves: Sequence[_Curve]) -> bool:
        """Whether an arrow runs closer than 0.4 u to another one for part of its length (their plain arcs)."""
        flats = [cv.flat(0, cv.c)[1] for cv in curves]
        return any(_close_samples(f, [h for j, h in enumerate(flats) if j != i], 0.4 * self.u)
                   for i, f in enumerate(flats))

    def _column_of(self, p: Point) -> tuple[int, bool]:
        """The screen column (12: the bar) and half (True: top) of a point of the board."""
        g, u = self.g, self.u
        top = p[1] < g.cy
        if g.bar_x <= p[0] < g.right_field:
            return 12, top
        if g.left_field <= p[0] < g.bar_x:
            return min(int((p[0] - g.left_field) / u), 5), top
        if g.right_field <= p[0] < g.right_field + 6 * u:
            return 6 + min(int((p[0] - g.right_field) / u), 5), top
        return -1, top

    def _candidates(self, a: Point, c: Point, b: Point) -> list[tuple[Point, float]]:
        """Control points for an arrow from a to b, each with its penalty (in u) for leaving the plain
        arc (control c): the plain arc first, then bends of the curve's middle along the normal, and
        curves whose middle is in the gap between the rows."""
        g, u = self.g, self.u
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        m0 = ((mid[0] + c[0]) / 2, (mid[1] + c[1]) / 2)
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / d, dx / d
        targets: list[Point] = []
        for bend in (-3.0, -2.2, -1.5, -1.0, -0.6, -0.3, 0.3, 0.6, 1.0, 1.5, 2.2, 3.0):
            targets.append((m0[0] + nx * bend * u, m0[1] + ny * bend * u))
        for shift in (-2.0, -1.0, 0.0, 1.0, 2.0):
            for lane in (-0.3, 0.0, 0.3):
                targets.append((mid[0] + shift * u, g.cy + lane * u))
        out: list[tuple[Point, float]] = [(c, 0.0)]
        for m in targets:
            cc = (2 * m[0] - mid[0], 2 * m[1] - mid[1])
            dev = math.hypot(m[0] - m0[0], m[1] - m0[1]) / u
            out.append((cc, 0.12 + 0.1 * dev))
        return out

    def _over(self, curve: _Curve, obst: _Obstacles) -> float:
        """How long (in u) the shaft of the curve's plain arc runs over obstacles or out of the board."""
        span = curve.span(0, curve.c, self.u)
        if span is None:
            return 0.0
        return self._hits(curve.a, curve.c, curve.b, span, obst, 0, len(_SAMPLES), _EVERY)[0] * span[2]

    def _hits(self, a: Point, c: Point, b: Point, span: tuple[float, float, float], obst: _Obstacles,
              start: int, stop: int, enough: int) -> tuple[int, int]:
        """How many of the samples ``_SAMPLES[start:stop]`` (:meth:`_Curve.span`) of the curve from a to b
        (control c) run over an obstacle (one each) or out of the board (two each), counted until
        ``enough``; and where in :data:`_SAMPLES` the count stopped."""
        g, u = self.g, self.u
        ax, ay = a
        qx, qy = c
        ex, ey = b
        t0, dt, _step = span
        hits = 0
        hw = _HW * u
        bins = obst.bins
        reach = hw + u / 2
        # A sample within reach of a column's centre and inside one of its stacks runs over it.
        bx0, bx1, ylo, yhi = g.bx0, g.bx1, g.fy0 - 0.1 * u, g.fy1 + 0.1 * u
        for i in range(start, stop):
            t = t0 + dt * _SAMPLES[i] / 16
            s = 1 - t
            ka, kc, kb = s * s, 2 * s * t, t * t  # _quad(a, c, b, t): the same products in the same order
            x = ka * ax + kc * qx + kb * ex
            y = ka * ay + kc * qy + kb * ey
            if not (bx0 <= x <= bx1 and ylo <= y <= yhi):
                hits += 2
                if hits >= enough:
                    return hits, i + 1
                continue
            k = int((x - bx0) / u)
            lowest, highest, near_cols, boxes = bins[k] or obst.make(k)
            y0 = y - hw
            y1 = y + hw
            if not (lowest <= y0 and y1 <= highest):  # not clear of every stack near
                over = False
                for cx, top_end, bottom_end in near_cols:
                    if (y0 < top_end or y1 > bottom_end) and abs(x - cx) <= reach:
                        over = True
                        break
                if over:
                    hits += 1
                    if hits >= enough:
                        return hits, i + 1
                    continue
            for x0, by0, x1, by1 in boxes:
                if x0 < x < x1 and by0 < y < by1:
                    hits += 1
                    if hits >= enough:
                        return hits, i + 1
                    break
        return hits, stop

    def arc(self, a: Point, b: Point, to_tray: bool) -> tuple[Point, Point, Point]:
        """A quadratic arc from a to b bowing towards the middle of the board."""
        g, u = self.g, self.u
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        nx, ny = -dy / d, dx / d
        # bow towards the board's centre line
        cx_board = (g.left_field + g.right_field + 6 * u) / 2
        if (g.cy - my) * ny + (cx_board - mx) * nx < 0:
            nx, ny = -nx, -ny
        same_row = abs(dy) < 0.6 * d
        bow = min(0.28 * d, 2.2 * u) if same_row else min(0.12 * d, 1.0 * u)
        if to_tray:
            bow = min(0.5 * d, 3.5 * u)
        return a, (mx + nx * bow, my + ny * bow), b

    def arrow_shape(self, p0: Point, c: Point, p1: Point, stop: float, scale: float = 1.0
                    ) -> tuple[tuple[Point, ...], tuple[Point, Point, Point], tuple[Point, ...]]:
        """The shaft (flattened, and as a quadratic curve) and the head polygon of an arc whose tip
        is ``stop`` short of p1."""
        u = self.u
        head_len = ARROW_HEAD * u * scale
        half = 0.2 * u * scale
        t_tip = _param_at_distance(p0, c, p1, 1.0, stop)
        tip = _quad(p0, c, p1, t_tip)
        t_base = _param_at_distance(p0, c, p1, t_tip, head_len)
        base = _quad(p0, c, p1, t_base)
        dx, dy = tip[0] - base[0], tip[1] - base[1]
        d = math.hypot(dx, dy) or 1.0
        ux, uy = dx / d, dy / d
        head = ((tip[0], tip[1]),
                (tip[0] - ux * head_len - uy * half, tip[1] - uy * head_len + ux * half),
                (tip[0] - ux * head_len * 0.78, tip[1] - uy * head_len * 0.78),
                (tip[0] - ux * head_len + uy * half, tip[1] - uy * head_len - ux * half))
        t_end = _param_at_distance(p0, c, p1, t_tip, head_len * 0.7)
        sub = _split(p0, c, p1, t_end)
        line = tuple(_flat_at(*sub, _SHAFT_W))
        return line, sub, head

    def hit_mark(self, x: float, y: float) -> Polygon:
        """A star burst behind a hit blot: its points stick out around the checker."""
        th, u = self.th, self.u
        r_out, r_in = 0.74 * u, 0.53 * u
        pts = []
        for i in range(28):
            a = math.pi * i / 14
            r = r_out if i % 2 == 0 else r_in
            pts.append((x + r * math.cos(a), y + r * math.sin(a)))
        return Polygon(tuple(pts), th.arrow_halo, th.hit, self.board.lw * 1.3)



class _Obstacles:
    """What an arrow should not run over (:meth:`Arrows.obstacles`), binned by x: for each width u of the
    board from its left edge (``bins``), the lowest top stack's end and the highest bottom stack's start of
    the columns with checkers near it, those columns (:data:`_Column`), and the boxes (grown by half the
    shaft, :data:`_HW`) reaching into it.  A bin is made when a sample first falls in it (:meth:`make`): an
    arrow's candidate curves reach about a quarter of them."""

    __slots__ = ("bins", "_cols", "_grown", "_which", "_nears", "_made", "_edge", "_u")

    def __init__(self, cols: list[_Column | None], grown: list[Box], g: Geo, u: float) -> None:
        self._which, self._nears = _near_columns(g)
        self.bins: list[tuple[float, float, list[_Column], list[Box]] | None] = [None] * len(self._which)
        self._cols, self._grown, self._edge, self._u = cols, grown, g.bx0, u
        self._made: list[tuple[float, float, list[_Column]] | None] = [None] * len(self._nears)

    def make(self, k: int) -> tuple[float, float, list[_Column], list[Box]]:
        """Bin k: the columns near it (each set of them made once) and the boxes reaching into it."""
        n = self._which[k]
        made = self._made[n]
        if made is None:
            near_cols = [c for c in (self._cols[j] for j in self._nears[n]) if c is not None]
            made = self._made[n] = (max([c[1] for c in near_cols], default=-math.inf),
                                    min([c[2] for c in near_cols], default=math.inf), near_cols)
        grown, edge, u = self._grown, self._edge, self._u
        air = 1e-6 * u  # a sample in bin k has k <= (x - edge) / u < k + 1, give or take rounding
        boxes = [bx for bx in grown if bx[0] < edge + (k + 1) * u + air and edge + k * u - air < bx[2]] if grown \
            else grown
        b = self.bins[k] = (*made, boxes)
        return b


_NEAR: dict[tuple[float, ...], tuple[list[int], list[tuple[int, ...]]]] = {}


def _near_columns(g: Geo) -> tuple[list[int], list[tuple[int, ...]]]:
    """For each width u of the board from its left edge, the screen columns (0-11) whose centre is within
    reach of an arrow's sample there (:meth:`Arrows._over`), and a little more: the sets of columns (each
    once), and each width's set (its index in them); once per geometry."""
    u = g.u
    key = (u, g.bx0, g.bx1, g.left_field, g.right_field)
    made = _NEAR.get(key)
    if made is None:
        near = _HW * u + u / 2 + 1.0
        xs = [g.col_x(col) for col in range(12)]
        bins = [tuple(col for col in range(12) if g.bx0 + k * u - near <= xs[col] <= g.bx0 + (k + 1) * u + near)
                for k in range(int((g.bx1 - g.bx0) / u) + 2)]
        nears = list(dict.fromkeys(bins))
        made = [nears.index(b) for b in bins], nears
        if len(_NEAR) >= 64:
            _NEAR.clear()
        _NEAR[key] = made
    return made


class _Curve:
    """An arrow's plain arc (a, c, b, its tip ``stop`` short of b) and what its routing asks of its candidate
    curves (:meth:`Arrows._candidates`, candidate 0 the plain arc) that depends on neither the checkers nor
    the other arrows, each thing made when first asked.  (Kept for the boards sharing parts, where two arcs
    in five recur, they saved no time and held 20 MB more for a 17-point match's page.)"""

    __slots__ = ("a", "c", "b", "stop", "_options", "_spans", "_flats", "_others")

    def __init__(self, a: Point, c: Point, b: Point, stop: float) -> None:
        self.a, self.c, self.b, self.stop = a, c, b, stop
        self._options: list[tuple[Point, float]] | None = None
        self._spans: dict[int, tuple[float, float, float] | None] = {}
        self._flats: dict[int, tuple[list[Point], list[Point], tuple[float, float, float, float]]] = {}
        self._others: dict[int, tuple[list[Point], tuple[float, float, float, float], list[_Segment], list[Point],
                                      tuple[float, float, float, float]]] = {}

    def options(self, arrows: Arrows) -> list[tuple[Point, float]]:
        """The candidates' control points, each with its penalty (:meth:`Arrows._candidates`)."""
        if self._options is None:
            self._options = arrows._candidates(self.a, self.c, self.b)
        return self._options

    def span(self, k: int, cc: Point, u: float) -> tuple[float, float, float] | None:
        """Where :meth:`Arrows._over` samples the shaft of candidate k (control ``cc``): the first sample's t,
        the t from one sample to the last, and the length (in u) a sample stands for; None for a curve of
        no length."""
        if k in self._spans:
            return self._spans[k]
        ax, ay = self.a
        qx, qy = cc
        ex, ey = self.b
        # the curve's length (:func:`_curve_length`, the same numbers, inline: the same sums in the same order)
        length = 0.0
        px, py = ax, ay  # the first weights are (1, 0, 0)
        for ka, kc, kb in _EIGHTHS_W[1:]:
            x = ka * ax + kc * qx + kb * ex
            y = ka * ay + kc * qy + kb * ey
            length += hypot(x - px, y - py)
            px, py = x, y
        span = None
        if length > 0:
            t0 = min(0.45 * u / length, 0.4)
            dt = 1.0 - min((self.stop + 0.25 * u) / length, 0.4) - t0
            span = t0, dt, length * dt / 16 / u
        self._spans[k] = span
        return span

    def flat(self, k: int, cc: Point) -> tuple[list[Point], list[Point], tuple[float, float, float, float]]:
        """Candidate k (control ``cc``) flattened to 8 pieces, its middle's samples, its box."""
        f = self._flats.get(k)
        if f is None:
            flat = _flat_at(self.a, cc, self.b, _EIGHTHS_W)
            f = self._flats[k] = (flat, _flat_at(self.a, cc, self.b, _INNER_W), _bbox(flat))
        return f

    def other(self, k: int, cc: Point, u: float) -> tuple[list[Point], tuple[float, float, float, float],
                                                           list[_Segment], list[Point],
                                                           tuple[float, float, float, float]]:
        """Candidate k as another arrow's curve: flattened, its box, segments, middle samples and their box
        grown by 0.4 u."""
        o = self._others.get(k)
        if o is None:
            f, near, box = self.flat(k, cc)
            o = self._others[k] = (f, box, _segments(f), near, _near_boxes([near], 0.4 * u)[0])
        return o


class _Ranking:
    """An arrow's candidate curves in order of their cost (and of their number, between equal costs), each
    cost computed only when the order reaches it: the search stops at the first candidate that costs more
    than the best so far, and most candidates are never reached.  A candidate's known part of the cost
    (its penalty for leaving the plain arc) is a lower bound of its cost, and ``refine(k, limit)`` gives a
    closer bound (refined no further once it reaches ``limit``) or the cost itself (with True) for a
    candidate whose bound the order reaches; as every bound is at most the cost, the order is the one
    sorting all the costs would give."""

    def __init__(self, bounds: list[float], refine: Callable[[int, float], tuple[float, bool]] | None) -> None:
        self.cost: dict[int, float] = {0: bounds[0]}
        """The costs computed: candidate 0 (the plain arc) is known."""
        self._refine = refine
        self._order: list[int] = []
        self._heap = [(bounds[0], 0, True)] + [(v, k, False) for k, v in enumerate(bounds[1:], 1)]
        heapq.heapify(self._heap)

    def __iter__(self) -> Iterator[int]:
        n = 0
        while (k := self.at(n, math.inf)) is not None:
            yield k
            n += 1

    def at(self, n: int, limit: float) -> int | None:
        """The n-th candidate in the order (from 0), or None if there are fewer or it costs ``limit`` or more:
        then no bound is refined past ``limit``, where the search stops anyway."""
        order, heap = self._order, self._heap
        while n >= len(order):
            if not heap or heap[0][0] >= limit:
                return None
            v, k, exact = heapq.heappop(heap)
            if exact:
                order.append(k)
            else:
                assert self._refine is not None
                v, exact = self._refine(k, limit)
                if exact:
                    self.cost[k] = v
                heapq.heappush(heap, (v, k, exact))
        k = order[n]
        return k if self.cost[k] < limit else None


_Arc = tuple[Point, Point, Point]


def _crossings(arcs: Sequence[_Arc], memo: dict[tuple[_Arc, _Arc], bool] | None = None) -> int:
    """How many pairs of arcs cross (each flattened to 8 pieces; touching ends do not count); ``memo``: the
    answers for pairs asked before (the orders of a play's checkers tried share most of their arcs)."""
    if memo is None:
        memo = {}
    flat: dict[_Arc, list[Point]] = {}
    n = 0
    for i in range(len(arcs)):
        for j in range(i + 1, len(arcs)):
            key = (arcs[i], arcs[j])
            cross = memo.get(key)
            if cross is None:
                p = flat.get(arcs[i])
                if p is None:
                    p = flat[arcs[i]] = _flat_at(*arcs[i], _EIGHTHS_W)
                q = flat.get(arcs[j])
                if q is None:
                    q = flat[arcs[j]] = _flat_at(*arcs[j], _EIGHTHS_W)
                cross = memo[key] = _polylines_cross(p, q)
            if cross:
                n += 1
    return n


def _bbox(p: Sequence[Point]) -> tuple[float, float, float, float]:
    xs = [x for x, _ in p]
    ys = [y for _, y in p]
    return min(xs), min(ys), max(xs), max(ys)


_Segment = tuple[Point, Point, float, float, float, float]
"""A piece of a polyline: its ends and its bounding box (x0, x1, y0, y1)."""


def _segments(q: Sequence[Point]) -> list[_Segment]:
    return [(q[j], q[j + 1], min(q[j][0], q[j + 1][0]), max(q[j][0], q[j + 1][0]), min(q[j][1], q[j + 1][1]),
             max(q[j][1], q[j + 1][1])) for j in range(len(q) - 1)]


def _polylines_cross(p: Sequence[Point], q: Sequence[Point],
                     pb: tuple[float, float, float, float] | None = None,
                     qb: tuple[float, float, float, float] | None = None,
                     qs: list[_Segment] | None = None) -> bool:
    """Whether two polylines cross (``pb``, ``qb``: their bounding boxes, ``qs``: the :func:`_segments` of
    ``q``, when known)."""
    px0, py0, px1, py1 = pb or _bbox(p)
    qx0, qy0, qx1, qy1 = qb or _bbox(q)
    if px1 < qx0 or qx1 < px0 or py1 < qy0 or qy1 < py0:
        return False
    if qs is None:
        qs = _segments(q)
    for i in range(len(p) - 1):
        a, b = p[i], p[i + 1]
        ax0, ax1 = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
        ay0, ay1 = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
        for c, d, cx0, cx1, cy0, cy1 in qs:
            if ax1 < cx0 or cx1 < ax0 or ay1 < cy0 or cy1 < ay0:
                continue
            if _segments_cross(a, b, c, d):
                return True
    return False


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the segments ab and cd cross: each one's ends strictly on either side of the other's line
    (the orientations, written out)."""
    ax, ay = a
    bx, by = b
    cx, cy = c
    dx, dy = d
    d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)  # orient(c, d, a)
    d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
    if not ((d1 > 1e-9 and d2 < -1e-9) or (d1 < -1e-9 and d2 > 1e-9)):
        return False
    d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)  # orient(a, b, c)
    d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
    return (d3 > 1e-9 and d4 < -1e-9) or (d3 < -1e-9 and d4 > 1e-9)


def _near_boxes(others: Sequence[Sequence[Point]], dist: float) -> list[tuple[float, float, float, float]]:
    """Each polyline's bounding box grown by ``dist`` (for :func:`_close_samples`)."""
    boxes = [_bbox(f) for f in others]
    return [(x0 - dist, y0 - dist, x1 + dist, y1 + dist) for x0, y0, x1, y1 in boxes]


def _close_samples(pts: Sequence[Point], others: Sequence[Sequence[Point]], dist: float,
                   boxes: list[tuple[float, float, float, float]] | None = None) -> int:
    """How many of ``pts`` are closer than ``dist`` to a point of one of ``others`` (``boxes``: their
    :func:`_near_boxes`, when known)."""
    d2 = dist * dist
    n = 0
    if boxes is None:
        boxes = _near_boxes(others, dist)
    for x, y in pts:
        for f, (x0, y0, x1, y1) in zip(others, boxes, strict=True):
            if x0 <= x <= x1 and y0 <= y <= y1 and any((x - qx) ** 2 + (y - qy) ** 2 < d2 for qx, qy in f):
                n += 1
                break
    return n


def _close_mask(pts: Sequence[Point], other: Sequence[Point], box: tuple[float, float, float, float],
                d2: float) -> int:
    """Which of ``pts`` (bit k: ``pts[k]``) are closer than the square root of ``d2`` to a point of ``other``
    (``box``: its :func:`_near_boxes`): the samples :func:`_close_samples` counts, for one other curve."""
    x0, y0, x1, y1 = box
    mask = 0
    for k, (x, y) in enumerate(pts):
        if x0 <= x <= x1 and y0 <= y <= y1:
            for qx, qy in other:
                if (x - qx) ** 2 + (y - qy) ** 2 < d2:
                    mask |= 1 << k
                    break
    return mask


def _curve_length(a: Point, c: Point, b: Point) -> float:
    pts = _flat_at(a, c, b, _EIGHTHS_W)
    return sum([math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(pts, pts[1:], strict=False)])


def _quad(a: Point, c: Point, b: Point, t: float) -> Point:
    s = 1 - t
    return (s * s * a[0] + 2 * s * t * c[0] + t * t * b[0], s * s * a[1] + 2 * s * t * c[1] + t * t * b[1])


def _weights(ts: Sequence[float]) -> tuple[tuple[float, float, float], ...]:
    """The weights of a curve's three points at each of ``ts`` as :func:`_quad` computes them (the same
    numbers: ``s * s * ax`` is ``(s * s) * ax``, ``2 * s * t * cx`` is ``((2 * s) * t) * cx``)."""
    return tuple(((1 - t) * (1 - t), 2 * (1 - t) * t, t * t) for t in ts)


def _flat_at(a: Point, c: Point, b: Point, weights: Sequence[tuple[float, float, float]]) -> list[Point]:
    """The points of the curve at the parameters whose :func:`_weights` are given."""
    ax, ay = a
    cx, cy = c
    bx, by = b
    return [(ka * ax + kc * cx + kb * bx, ka * ay + kc * cy + kb * by) for ka, kc, kb in weights]


_EIGHTHS_W = _weights(tuple(k / 8 for k in range(9)))
"""A curve flattened to 8 pieces (crossings, length): the weights (:func:`_flat_at`)."""
_SHAFT_W = _weights(tuple(k / 24 for k in range(25)))
"""An arrow's shaft as drawn, flattened to 24 pieces: the weights (:func:`_flat_at`)."""
_INNER_W = _weights(tuple(0.1 + 0.8 * k / 10 for k in range(11)))
"""Samples of a curve's middle 80% (running alongside another): the weights (:func:`_flat_at`)."""


def _param_at_distance(a: Point, c: Point, b: Point, t1: float, dist: float) -> float:
    """The largest t <= t1 whose point is ``dist`` (straight line) from the point at t1 (0 if none).

    With s = t1 - t, the point at t is s |P - s w| from the one at t1 (P the curve's derivative at t1, w the
    second difference a - 2c + b): where that grows with s over [0, t1] (the arcs of arrows), the one s
    found by Newton's method, kept inside a bracket; otherwise by bisection."""
    end = _quad(a, c, b, t1)
    if math.hypot(a[0] - end[0], a[1] - end[1]) <= dist:
        return 0.0
    ax, ay = a
    cx, cy = c
    bx, by = b
    wx, wy = ax - 2 * cx + bx, ay - 2 * cy + by
    px, py = 2 * (cx - ax) + 2 * t1 * wx, 2 * (cy - ay) + 2 * t1 * wy
    pp, pw, ww = px * px + py * py, px * wx + py * wy, wx * wx + wy * wy
    # d/ds (s |P - s w|) = (pp - 3 s pw + 2 s^2 ww) / |P - s w|: positive on [0, t1] at both ends and at the
    # vertex between them
    sv = 0.75 * pw / ww if ww > 0 else -1.0
    margin = 1e-9 * pp
    if pp > margin and pp - 3 * t1 * pw + 2 * t1 * t1 * ww > margin and \
            not (0 < sv < t1 and pp - 3 * sv * pw + 2 * sv * sv * ww <= margin):
        lo, hi = 0.0, t1
        s = min(dist / math.sqrt(pp), t1)
        for _ in range(60):
            r = math.sqrt(pp - 2 * s * pw + s * s * ww)
            h = s * r - dist
            if h > 0:
                hi = s
            elif h < 0:
                lo = s
            else:
                break
            nxt = s - h * r / (pp - 3 * s * pw + 2 * s * s * ww)
            if not lo < nxt < hi:
                nxt = (lo + hi) / 2
            if abs(nxt - s) <= 1e-15 * s:
                s = nxt
                break
            s = nxt
        return t1 - s
    lo, hi = 0.0, t1
    ex, ey = end
    for _ in range(40):
        mid = (lo + hi) / 2
        s = 1 - mid  # _quad(a, c, b, mid)
        if math.hypot(s * s * ax + 2 * s * mid * cx + mid * mid * bx - ex,
                      s * s * ay + 2 * s * mid * cy + mid * mid * by - ey) > dist:
            lo = mid
        else:
            hi = mid
    return lo


def _split(a: Point, c: Point, b: Point, t: float) -> tuple[Point, Point, Point]:
    """The part of a quadratic curve from 0 to t (de Casteljau)."""
    c1 = (a[0] + (c[0] - a[0]) * t, a[1] + (c[1] - a[1]) * t)
    return a, c1, _quad(a, c, b, t)

