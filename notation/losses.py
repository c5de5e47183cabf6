"""What a record holds, and what a written file lost of it: the ``dropped:`` report of every writer.

:func:`holdings` counts what a match holds that a target format may not: its header tags (by name),
its comments on the match, on each game and on each action, each producer's analysis (ranked plays,
cube decisions, luck, rollouts), format-specific properties (of the match, a game, an action) and XG's
thumbnail.  Each writer tallies, as it writes, the same items it wrote (a :class:`~collections.Counter`
with the same keys); :func:`lost` says, one line a kind, everything of the record the written file does
not hold, with the writer's reason.  ``gammon convert`` prints each line as ``dropped:``, and
``--strict`` refuses a conversion with any.  ``tests/test_drops.py`` reads every written file back
(or searches the page and the text record) and holds the report to what it lacks, for every reader
and writer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from .record import Action, Game, Match

__all__ = ["THUMBNAIL", "Key", "holdings", "action_items", "lost", "dropped", "crawford_mark", "names_loss"]

THUMBNAIL = "xg:thumbnail"
"""The match property that keeps XG's thumbnail (the JPEG of the board it shows), in Base64."""

Key = tuple[str, ...]
"""An item kind: ``("tag", NAME)``, ``("comment", "match" | "game" | "action")``, ``("analysis", "checker"
| "cube" | "luck" | "rollout", PRODUCER)``, ``("property", "match" | "game" | "action", NAME)`` or
``("thumbnail",)``."""


def action_items(a: Action) -> Counter[Key]:
    """What one action holds of the kinds :func:`holdings` counts."""
    c: Counter[Key] = Counter()
    if a.comment:
        c["comment", "action"] += 1
    for k in a.properties:
        c["property", "action", k] += 1
    an = a.analysis
    if an is not None:
        by = an.producer or "an unnamed program"
        if an.checker is not None and an.checker.candidates:
            c["analysis", "checker", by] += 1
            rolled = sum(1 for x in an.checker.candidates if x.rollout is not None)
            if rolled:
                c["analysis", "rollout", by] += rolled
        if an.cube is not None:
            c["analysis", "cube", by] += 1
            if an.cube.rollout is not None:
                c["analysis", "rollout", by] += 1
        if an.luck is not None or an.luck_rating is not None:
            c["analysis", "luck", by] += 1
    return c


def holdings(match: Match) -> Counter[Key]:
    """Everything ``match`` holds of the kinds a writer may drop, counted."""
    c: Counter[Key] = Counter()
    for k, _ in match.tags:
        c["tag", k] += 1
    c["comment", "match"] += sum(1 for x in match.comments if x)
    for k in match.properties:
        if k == THUMBNAIL:
            c["thumbnail",] += 1
        else:
            c["property", "match", k] += 1
    for g in match.games:
        c["comment", "game"] += sum(1 for x in g.comments if x)
        for k in g.properties:
            c["property", "game", k] += 1
        for a in g.actions:
            if a.comment or a.properties or a.analysis is not None:
                c.update(action_items(a))
    return +c


_ANALYSIS_WORDS = {"checker": "ranked plays of {n} roll{s}", "cube": "{n} cube decision{s}",
                   "luck": "the luck of {n} roll{s}", "rollout": "{n} rollout{s}"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def lost(record: Counter[Key], written: Counter[Key], reasons: Mapping[str, str], *,
         thumbnail_size: int | None = None) -> list[str]:
    """One line for each kind of item ``record`` holds more of than ``written``: what is lost and why
    (``reasons`` by kind: ``tag``, ``comment``, ``analysis``, ``property``, ``thumbnail``; a kind's
    reason may be more precise by its second word, ``comment:action``)."""
    missing = record - written
    if not missing:
        return []
    out: list[str] = []

    def why(*keys: str) -> str:
        for k in keys:
            if k in reasons:
                return reasons[k]
        return "the target has no place for it"

    tags = [k[1] for k in missing if k[0] == "tag"]
    if tags:
        names = ", ".join(dict.fromkeys(tags))
        out.append(f"header tags ({names}): {why('tag')}")
    for level in ("match", "game", "action"):
        n = missing.get(("comment", level), 0)
        if n:
            what = {"match": "comment", "game": "game comment", "action": "move comment"}[level]
            out.append(f"{_plural(n, what)}: {why('comment:' + level, 'comment')}")
    producers = list(dict.fromkeys(k[2] for k in missing if k[0] == "analysis"))
    for by in producers:
        parts = [_ANALYSIS_WORDS[kind].format(n=n, s="" if n == 1 else "s")
                 for kind in ("checker", "cube", "luck", "rollout") if (n := missing.get(("analysis", kind, by), 0))]
        out.append(f"the analysis by {by} ({', '.join(parts)}): {why('analysis:' + by, 'analysis')}")
    for level in ("match", "game", "action"):
        props = [k[2] for k in missing if k[0] == "property" and k[1] == level]
        if props:
            counts = ", ".join(f"{n} ({missing['property', level, n]})" if missing["property", level, n] > 1 else n
                               for n in dict.fromkeys(props))
            out.append(f"{level} properties {counts}: {why('property:' + level, 'property')}")
    if missing.get(("thumbnail",)):
        size = f" ({thumbnail_size:,} bytes)" if thumbnail_size else ""
        out.append(f"XG's thumbnail, a JPEG of the board{size}: {why('thumbnail')}")
    return out


def thumbnail_size(match: Match) -> int | None:
    """The size in bytes of the thumbnail a match keeps (:data:`THUMBNAIL`), or None."""
    v = match.properties.get(THUMBNAIL)
    if not v:
        return None
    text = v[0]
    return len(text) * 3 // 4 - text.count("=", -2)


def dropped(match: Match, written: Counter[Key], reasons: Mapping[str, str]) -> list[str]:
    """:func:`lost`: what of ``match`` a writer did not write (``written``, its tally), with its ``reasons``
    (the writer's ``REASONS``, :mod:`notation.formats.registry`)."""
    return lost(holdings(match), written, reasons, thumbnail_size=thumbnail_size(match))


def crawford_mark(game: Game, crawford: bool, why: str) -> str | None:
    """The ``dropped:`` line of a format that finds the Crawford game from the score, for ``game`` whose own
    mark (``game.crawford``) the score does not make (``crawford``: what it makes); ``why``: how the
    format finds it.  None where the game has no mark, or the score makes it."""
    if game.crawford is None or game.crawford == crawford:
        return None
    return (f"game {game.number}: marked {'' if game.crawford else 'not '}the Crawford game, which the score does "
            f"not make it: {why}")


def names_loss(match: Match, fmt: str) -> str | None:
    """The match's names, when the first game has names of its own: ``fmt`` (``.mat``, SGF) writes a game's
    names on it and none for the match, and a reader takes the first game's for the match's."""
    first = match.games[0].names if match.games else None
    if first is None or tuple(first) == tuple(match.names):
        return None
    return (f"the match's names ({match.names[0]}, {match.names[1]}): {fmt} names the players of each game, and a "
            f"reader takes the first game's ({first[0]}, {first[1]}) for the match's")
