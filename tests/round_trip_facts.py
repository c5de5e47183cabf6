"""The facts of a match record that a conversion must keep or say it lost, field by field, for the
round-trip matrix (``tests/test_round_trip_matrix.py``): each fact has an aspect (what a ``dropped:``
line about it names), and :func:`differences` lists, by aspect, what a written file read back holds
otherwise than its source."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import astuple
from typing import Any

import notation
from notation.losses import holdings

Fact = tuple[str, Any]
"""(aspect, value): one fact of a record."""


def _norm(text: str) -> str:
    return " ".join(text.split())


def facts(m: notation.Match, rep: notation.MatchReplay | None = None) -> dict[str, Counter[Any]]:
    """Every fact of ``m`` a writer must keep, by aspect, each a multiset (a fact held twice counts
    twice)."""
    out: dict[str, Counter[Any]] = {}

    def add(aspect: str, *values: Any) -> None:
        out.setdefault(aspect, Counter()).update(values)

    add("length", m.length)
    add("names", m.names)
    add("rules", astuple(m.rules))
    for fact in _tag_facts(m.tags):
        add("tags", fact)
    for c in m.comments:
        if c.strip():
            add("comments", ("match", _norm(c)))
    add("games", len(m.games))
    for gi, g in enumerate(m.games):
        if g.score is not None:
            add("score", (gi, g.score))
        if g.names is not None:
            add("names", (gi, g.names))
        for side, r in enumerate(g.ratings or ()):
            if r:
                add("ratings", (gi, side, r))
        if g.start is not None:
            add("setup", (gi, "start", g.start))
        for c in g.comments:
            if c.strip():
                add("comments", ("game", gi, _norm(c)))
        for k, v in g.properties.items():
            add("properties", ("game", gi, k, tuple(v)))
        k = 0
        for a in g.actions:
            if a.kind == "move":
                add("dice", (gi, k, a.dice))
                k += 1
            elif a.kind == "roll":
                add("actions", (gi, "roll", a.player, a.dice))
            elif a.kind == "setup":
                add("setup", (gi, a.setup))
            elif a.kind in ("resign",):
                add("resign", (gi, a.player, a.value))
            elif a.kind in ("accept", "reject"):
                add("resign", (gi, a.kind, a.player))
            else:
                add("actions", (gi, a.kind, a.player, a.value))
            if a.comment:
                add("comments", ("action", gi, a.move_number, a.player, _norm(a.comment)))
            if a.move_number is not None and a.kind == "move":
                add("numbering", (gi, a.player, a.move_number))
            for pk, pv in a.properties.items():
                add("properties", ("action", gi, pk, tuple(pv)))
            cube = a.analysis.cube if a.analysis is not None else None
            if cube is not None:  # the figures of a cube decision that a writer may not hold (issue 35 item 2)
                by = a.analysis.producer if a.analysis is not None else None
                add("cube_figures", *((name, by) for name in CUBE_FIGURES if getattr(cube, name) is not None))
    for key, n in holdings(m).items():
        if key[0] == "analysis":
            add("analysis", *([key] * n))
        elif key[0] == "thumbnail":
            add("thumbnail", key)
    for k, v in m.properties.items():
        if k != notation.losses.THUMBNAIL and k != "ogxm.sections":
            add("properties", ("match", k, tuple(v)))
    rep = rep if rep is not None else notation.replay_match(m)
    for gi, gr in enumerate(rep.games):
        k = 0
        for s in gr.steps:
            if s.action.kind == "move":
                add("plays", (gi, k, s.after.boards))
                k += 1
        add("result", (gi, gr.winner, gr.points))
        if m.length > 0:  # the Crawford game: as marked, else as the score makes it
            g = m.games[gi]
            add("crawford", (gi, g.crawford if g.crawford is not None else gr.crawford))
    for f in rep.findings:
        if f.severity == "error":
            add("findings", (f.game, _finding_text(f.message)))
    return out


CUBE_FIGURES = ("cubeless_equity", "double_probabilities", "double_cubeless_equity")
"""The figures of a cube decision counted apart (the ``holdings`` count the decision as one item)."""

_DATE = re.compile(r"(\d{4})(?:[.-](\d{1,2})(?:[.-](\d{1,2}))?)?")
_TIME = re.compile(r"(\d{1,2})[.:](\d{2})(?:[.:](\d{2}))?")


def _tag_facts(tags: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The header tags as facts: names in any case (OGXM writes ``event``), the rule tags left to the rules,
    and the date and time of the match as one fact whichever tags hold them (``EventDate`` and ``EventTime``,
    SGF's ``DT``, OGXM's ``started_at``)."""
    from notation.formats.mat import RULE_TAGS

    out = []
    date = time = None
    for k, v in tags:
        key = k.lower().replace(" ", "")
        if key in RULE_TAGS:
            continue
        if key in ("eventdate", "started_at", "dt") and (d := _DATE.match(v.strip())):
            date = "-".join(f"{int(x):02d}" for x in d.groups() if x)
            if key == "started_at" and (t := _TIME.search(v, d.end())):
                time = ":".join(x for x in t.groups() if x)
            continue
        if key == "eventtime" and (t := _TIME.match(v.strip())):
            time = ":".join(f"{int(x):02d}" for x in t.groups() if x)
            continue
        out.append((key, v))
    if date:
        out.append(("date", date))
    if time:
        out.append(("time", time))
    return out


def _finding_text(message: str) -> str:
    return re.sub(r"\s+", " ", message)


ONE_WAY = frozenset({"properties", "numbering"})
"""The aspects where only what is lost counts: a writer keeps its own extras (SGF's ``AP``, OGXM's kept
blocks), which are no change of the record."""


def differences(source: dict[str, Counter[Any]], back: dict[str, Counter[Any]],
                aspects: Iterable[str] | None = None) -> dict[str, tuple[Counter[Any], Counter[Any]]]:
    """By aspect: (what ``source`` holds that ``back`` lacks, what ``back`` holds that ``source`` lacks)."""
    out = {}
    for aspect in aspects if aspects is not None else sorted(set(source) | set(back)):
        a, b = source.get(aspect, Counter()), back.get(aspect, Counter())
        lost, extra = a - b, b - a
        if aspect in ONE_WAY:
            extra = Counter()
        if lost or extra:
            out[aspect] = (lost, extra)
    return out
