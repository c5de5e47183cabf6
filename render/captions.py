"""The words of a figure that says a decision: a cube decision's caption, and names a reader can read.

* :func:`cube_caption`: the producer's verdict and the three equities, as ``gammon show`` prints them
  (``Double / Take. No double +0.580, double/take +0.689, double/pass +1.000``).  A verdict in a script
  no font in use has (XG's Japanese ``ダブル / テイク``) is said in English, read from the same three
  equities (:func:`english_verdict`), rather than drawn as ``?``.
* :func:`latin_name`: a program's default player name in a script no font in use has (XG's Japanese
  ``プレーヤー 1``, BGBlitz's ``緑``) as that program writes it in English (``Player 1``, ``Green``).

Other text in such a script is drawn as ``?`` and the command line names a font to add with ``--font``
(:func:`render._font.missing_message`).
"""

from __future__ import annotations

import re

from notation.analysis import CubeAnalysis, cube_equities
from notation.position import Position

from ._font import default_font

__all__ = ["cube_caption", "english_verdict", "latin_name", "drawable"]

_DEFAULT_NAMES = (
    (re.compile(r"\s*(?:プレーヤー|プレイヤー)\s*([12])\s*"), r"Player \1"),  # eXtreme Gammon in Japanese
    (re.compile(r"\s*緑\s*"), "Green"),  # BGBlitz in Japanese
    (re.compile(r"\s*赤\s*"), "Red"),
)


def drawable(text: str) -> bool:
    """Every character of ``text`` is in a font in use (the shipped ones and those added)."""
    font = default_font()
    return all(c.isspace() or font.has_any(c) for c in text)


def latin_name(name: str) -> str:
    """``name``, or, when it needs a font that is not in use and is a program's default name, that
    program's English default."""
    if drawable(name):
        return name
    for pattern, latin in _DEFAULT_NAMES:
        if pattern.fullmatch(name):
            return pattern.sub(latin, name)
    return name


def english_verdict(cube: CubeAnalysis, position: Position | None = None) -> str | None:
    """The verdict the three equities say, in the words eXtreme Gammon uses in English (``No double /
    Take``, ``Double / Pass``, ``Too good to redouble / Pass`` ...), from the doubler's side: the
    opponent takes when taking costs him less (double/take <= double/pass); the doubler doubles when
    doubling gains (the lesser of the two beats no double).  ``Redouble`` when the doubler owns the
    cube.  None when an equity is missing."""
    nd, dt, dp = cube.no_double, cube.double_take, cube.double_pass
    if nd is None or dt is None or dp is None:
        return None
    double = "redouble" if position is not None and position.cube_owner is not None else "double"
    answer = "Take" if dt <= dp else "Pass"
    if nd < min(dt, dp):
        return f"{double.capitalize()} / {answer}"
    if answer == "Pass" and nd > dp:
        return f"Too good to {double} / Pass"
    return f"No {double} / {answer}"


def cube_caption(cube: CubeAnalysis, position: Position | None = None) -> str:
    """The caption of a cube decision: the verdict (the producer's words, in English when no font in use
    has their script), then the three equities."""
    verdict = cube.verdict.strip() if cube.verdict else ""
    if not verdict or not drawable(verdict):
        verdict = english_verdict(cube, position) or verdict
    equities = cube_equities(cube)
    equities = equities[0].upper() + equities[1:]
    return f"{verdict}. {equities}." if verdict else f"{equities}."
