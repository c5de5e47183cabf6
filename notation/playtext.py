"""A play as text, without a position: the single-die :data:`Step`, the records a written play is read
into (:class:`Segment`, :class:`ParsedPlay`; :func:`notation.play.parse_play` reads them), and gnubg's
canonical writer (:func:`format_play`).

It is the lowest layer of play notation: :class:`notation.rules.Play` writes itself with
:func:`format_play`, and Acey-Deucey's rules (:class:`notation.rules.AceyDeucey`) match a
:class:`ParsedPlay` against the legal plays; :mod:`notation.play`, which needs the position, reads and
checks written plays above both.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Step = tuple[int, int, bool]
"""One checker moved by one die: (from, to, hit) in the mover's numbering; 25 = bar, 0 = off."""

# --------------------------------------------------------------------------- writing


def point_name(p: int, *, bar: str = "bar", off: str = "off") -> str:
    if p == 25:
        return bar
    if p <= 0:
        return off
    return str(p)


_WRITTEN: dict[tuple[Step, ...], str] = {}
"""Canonical notation of step tuples already written (plays repeat across positions and rolls)."""
_WRITTEN_MAX = 200_000


def format_play(steps: Iterable[Step], *, bar: str = "bar", off: str = "off", hits: bool = True) -> str:
    """gnubg's canonical notation (see :func:`_format_play`), remembered for the default options."""
    if type(steps) is tuple and hits and bar == "bar" and off == "off":
        text = _WRITTEN.get(steps)
        if text is None:
            if len(_WRITTEN) >= _WRITTEN_MAX:
                _WRITTEN.clear()
            text = _WRITTEN[steps] = _format_default(steps)
        return text
    return _format_play(steps, bar=bar, off=off, hits=hits)


_NAMES: tuple[str, ...] = ("off", *(str(p) for p in range(1, 25)), "bar")


def _format_default(steps: tuple[Step, ...]) -> str:
    """:func:`_format_play` with the default options, in fewer operations (``format_play`` writes every
    new play with it; ``tests/test_play_notation.py`` holds the two equal on every play of real and
    random positions)."""
    for s, t, _h in steps:
        if not (0 <= t <= 25 and 0 <= s <= 25):
            return _format_play(steps)
    ordered = sorted(steps, reverse=True)  # by source, then destination, highest first (hits do not matter)
    names = _NAMES
    if len(ordered) == 1:
        s, t, h = ordered[0]
        return f"{names[s]}/{names[t]}*" if h else f"{names[s]}/{names[t]}"
    hit_points = [t for _s, t, h in ordered if h]
    n = len(ordered)
    used = [False] * n
    counts: dict[tuple[int, ...], int] = {}
    for i in range(n):
        if used[i]:
            continue
        s, last, _h = ordered[i]
        pts = [s, last]
        for j in range(i + 1, n):
            if not used[j] and last > 0 and ordered[j][0] == last:
                used[j] = True
                last = ordered[j][1]
                if pts[-1] in hit_points:
                    pts.append(last)
                else:
                    pts[-1] = last
        path = tuple(pts)
        counts[path] = counts.get(path, 0) + 1
    marked: list[int] = []
    out = []
    for path, k in counts.items():
        text = names[path[0]]
        for mid in path[1:-1]:
            text += "/" + names[mid] + "*"
            marked.append(mid)
        dest = path[-1]
        text += "/" + names[dest]
        if dest in hit_points and dest not in marked:
            text += "*"
        marked.append(dest)
        out.append(f"{text}({k})" if k > 1 else text)
    return " ".join(out)


def _format_play(steps: Iterable[Step], *, bar: str = "bar", off: str = "off", hits: bool = True) -> str:
    """gnubg's canonical notation for a play given as single-die steps (in any order).

    As GNU Backgammon writes it: moves sorted by source (highest first); one checker's consecutive
    steps joined, showing an intermediate point only where a blot stood (``24/21*/20``, else
    ``24/20``); identical checker paths counted (``13/9(2)``, ``6/4*(2)``); a landing on a point where a
    blot stood marked ``*`` once, the first time it is written (``8/4* 6/4``).  ``hits=False`` leaves
    out the marks (and so the intermediate points)."""
    ordered = sorted(steps, key=lambda st: (-st[0], -st[1]))
    hit_points = {t for _s, t, h in ordered if h} if hits else set()
    # One checker's path: its source, the blot points it passes, its destination.
    paths: list[tuple[int, ...]] = []
    used = [False] * len(ordered)
    for i, (s, t, _h) in enumerate(ordered):
        if used[i]:
            continue
        used[i] = True
        pts = [s, t]
        for j in range(i + 1, len(ordered)):
            if not used[j] and ordered[j][0] == pts[-1] and pts[-1] > 0:
                used[j] = True
                if pts[-1] in hit_points:
                    pts.append(ordered[j][1])
                else:
                    pts[-1] = ordered[j][1]
        paths.append(tuple(pts))
    counts: dict[tuple[int, ...], int] = {}
    for path in paths:
        counts[path] = counts.get(path, 0) + 1
    marked: set[int] = set()
    out = []
    for path, n in counts.items():
        parts = [point_name(path[0], bar=bar, off=off)]
        for mid in path[1:-1]:
            parts.append(point_name(mid, bar=bar, off=off) + "*")
            marked.add(mid)
        dest = path[-1]
        star = dest in hit_points and dest not in marked
        marked.add(dest)
        parts.append(point_name(dest, bar=bar, off=off) + ("*" if star else ""))
        out.append("/".join(parts) + (f"({n})" if n > 1 else ""))
    return " ".join(out)


def format_steps_plain(steps: Iterable[Step], *, bar: str = "25", off: str = "0", hits: bool = True) -> str:
    """Steps one by one in the order played, as gnubg writes them in ``.mat`` files (``24/18 18/13``)."""
    return " ".join(
        f"{point_name(s, bar=bar, off=off)}/{point_name(t, bar=bar, off=off)}{'*' if h and hits else ''}"
        for s, t, h in steps
    )


# --------------------------------------------------------------------------- a written play, read


@dataclass(frozen=True, slots=True)
class Segment:
    """One checker path as written: points (25 bar, 0 off), hit marks per point, repeat count."""

    points: tuple[int, ...]
    marks: tuple[bool, ...]
    """``marks[k]`` is True when points[k] carries a ``*``."""
    count: int
    column: int
    """1-based column of the segment in the parsed text."""
    text: str


@dataclass(frozen=True, slots=True)
class ParsedPlay:
    segments: tuple[Segment, ...]
    text: str
    upward: bool = False
    """The points were written counting upward (FIBS absolute numbering) and have been mirrored."""
    normalisations: tuple[str, ...] = ()
    maybe_upward: bool = False
    """Only entries on 1..6 or bear-offs from 19..24 hint at upward numbering (``bar-2``, or ``bar/5``
    which 55 can also play in the mover's own numbering): :func:`notation.play.resolve_play` tries the mirror
    image when the play as written is illegal."""
