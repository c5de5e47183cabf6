"""What the match page's speed rests on changes nothing drawn: the units :mod:`render.layout` reuses from
one board to the next (:class:`render.layout._Parts`, laid-out texts) give the display list made from
nothing, and the arrows' search that costs a candidate curve only when it reaches it
(:class:`render.arrows._Ranking`) visits the candidates in the order sorting all their costs gives."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from notation.matchio import read_match
from notation.replay import replay_match
from render import arrows as arrows_module
from render.html import _board_options, match_page
from render.layout import layout

layout_module = importlib.import_module("render.layout")  # render.layout is also the function
DATA = Path(__file__).parent / "data"
MATCHES = [DATA / "render_match_7p.mat", DATA / "mat_gnubg_charlot_7p.mat"]


def _forget() -> None:
    layout_module._SHARED.clear()
    layout_module._TEXTS.clear()


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_reused_units_give_the_display_list_made_from_nothing(path: Path) -> None:
    rep = replay_match(read_match(path))
    steps = [(st.before, _board_options(st)) for g in rep.games for st in g.steps]
    assert sum(1 for _pos, opts in steps if "arrows" in opts) > 20
    _forget()
    warm = [layout(pos, **opts) for pos, opts in steps]  # each board reuses what the boards before made
    shared = 0
    for (pos, opts), d in zip(steps, warm, strict=True):
        _forget()
        cold = layout(pos, **opts)
        assert cold == d
        shared += sum(1 for it in d.root.items if any(it is x for x in warm[0].root.items))
    assert shared > len(steps) * 30  # the empty board and most stacks are the same objects


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_the_page_is_the_same_whatever_was_laid_out_before(path: Path) -> None:
    m = read_match(path)
    _forget()
    first = match_page(m)
    layout(replay_match(m).games[0].steps[3].before, size="large", names=True)  # other boards in between
    assert match_page(m) == first
    _forget()
    assert match_page(m) == first


def test_the_lazy_ranking_is_the_sorted_order(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[arrows_module._Ranking, list[float], Any]] = []
    real = arrows_module._Ranking.__init__

    def record(self: arrows_module._Ranking, bounds: list[float], refine: Any) -> None:
        real(self, bounds, refine)
        made.append((self, list(bounds), refine))

    def cost(refine: Any, k: int, bound: float) -> float:
        """The candidate's cost, refining its bound until it is exact, asking a little past the bound each time
        as the search does: each bound at least the one before."""
        limit = bound + 0.25
        v, exact = refine(k, limit)
        while not exact:
            assert v >= bound
            bound, limit = v, v + 0.25
            v, exact = refine(k, limit)
        assert v >= bound
        return float(v)

    monkeypatch.setattr(arrows_module._Ranking, "__init__", record)
    _forget()
    match_page(read_match(MATCHES[0]))
    searched = [(r, b, e) for r, b, e in made if e is not None]
    assert len(searched) > 20
    for ranking, bounds, refine in searched:
        costs = [bounds[0]] + [cost(refine, k, bounds[k]) for k in range(1, len(bounds))]
        assert all(c >= b for c, b in zip(costs, bounds, strict=True))
        assert list(ranking) == sorted(range(len(costs)), key=lambda k: (costs[k], k))
        assert all(ranking.cost[k] == costs[k] for k in ranking.cost)
