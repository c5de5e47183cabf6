"""Colour themes.  ``print`` (the default) is black and white; ``classic`` and ``contrast`` are in colour.

A theme is a plain frozen dataclass: make a variant with :func:`dataclasses.replace`, e.g.
``replace(THEMES["print"], arrow=(200, 0, 0))`` and pass it as ``theme=``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .display import Color


def rgb(hex_colour: str) -> Color:
    """``"#c80000"`` → ``(200, 0, 0)``."""
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6:
        raise ValueError(f"colour {hex_colour!r} is not #rgb or #rrggbb")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    background: Color
    """Around the board (number and caption bands)."""
    frame: Color
    """The board's border, the side rails and the bar."""
    frame_line: Color
    field: Color
    """The playing surface."""
    point_a: Color
    """Odd columns from the left (the 12 and 13 point with home on the right)."""
    point_b: Color
    point_line: Color | None
    tray: Color
    tray_line: Color
    checker: tuple[Color, Color]
    """Fill of player 0's (White's) and player 1's (Black's) checkers."""
    checker_line: tuple[Color, Color]
    checker_ring: tuple[Color, Color] | None
    """An inner ring that makes a disc read as a checker; None for flat discs."""
    checker_text: tuple[Color, Color]
    """Ink of the count written on a stack."""
    number: Color
    """Point numbers."""
    number_alt: Color
    """The other side's point numbers (``numbers="both"``)."""
    text: Color
    """Names, pip counts, score and captions."""
    cube: Color
    cube_line: Color
    cube_text: Color
    die: tuple[Color, Color]
    """Die faces of player 0 and player 1."""
    die_line: tuple[Color, Color]
    pip: tuple[Color, Color]
    arrow: Color
    arrow_halo: Color
    """Drawn around arrows so they stay visible over checkers of the arrow's own colour."""
    hit: Color
    line: float = 1.0
    """Outline width, in units of u/36 (one pixel at the default size)."""
    digits_bold: float = 0.0
    """Extra weight of the point numbers, in units of u/36."""


PRINT = Theme(
    name="print",
    background=(255, 255, 255),
    frame=(228, 228, 228),
    frame_line=(0, 0, 0),
    field=(255, 255, 255),
    point_a=(255, 255, 255),
    point_b=(178, 178, 178),
    point_line=(0, 0, 0),
    tray=(255, 255, 255),
    tray_line=(0, 0, 0),
    checker=((255, 255, 255), (34, 34, 34)),
    checker_line=((0, 0, 0), (0, 0, 0)),
    checker_ring=((120, 120, 120), (110, 110, 110)),
    checker_text=((0, 0, 0), (255, 255, 255)),
    number=(0, 0, 0),
    number_alt=(80, 80, 80),
    text=(0, 0, 0),
    cube=(255, 255, 255),
    cube_line=(0, 0, 0),
    cube_text=(0, 0, 0),
    die=((255, 255, 255), (34, 34, 34)),
    die_line=((0, 0, 0), (0, 0, 0)),
    pip=((0, 0, 0), (255, 255, 255)),
    arrow=(0, 0, 0),
    arrow_halo=(255, 255, 255),
    hit=(0, 0, 0),
)

CLASSIC = Theme(
    name="classic",
    background=(255, 255, 255),
    frame=(104, 64, 36),
    frame_line=(58, 34, 18),
    field=(239, 226, 196),
    point_a=(170, 52, 40),
    point_b=(46, 84, 72),
    point_line=None,
    tray=(214, 196, 160),
    tray_line=(58, 34, 18),
    checker=((246, 240, 226), (40, 30, 26)),
    checker_line=((70, 52, 40), (0, 0, 0)),
    checker_ring=((196, 182, 160), (92, 78, 70)),
    checker_text=((40, 30, 26), (246, 240, 226)),
    number=(58, 34, 18),
    number_alt=(104, 72, 48),
    text=(40, 30, 26),
    cube=(250, 248, 240),
    cube_line=(40, 30, 26),
    cube_text=(40, 30, 26),
    die=((246, 240, 226), (40, 30, 26)),
    die_line=((70, 52, 40), (0, 0, 0)),
    pip=((40, 30, 26), (246, 240, 226)),
    arrow=(20, 80, 200),
    arrow_halo=(255, 255, 255),
    hit=(20, 80, 200),
)

CONTRAST = Theme(
    name="contrast",
    background=(0, 0, 0),
    frame=(0, 0, 0),
    frame_line=(255, 255, 255),
    field=(0, 0, 0),
    point_a=(0, 90, 200),
    point_b=(90, 90, 90),
    point_line=(255, 255, 255),
    tray=(0, 0, 0),
    tray_line=(255, 255, 255),
    checker=((255, 255, 255), (255, 210, 0)),
    checker_line=((0, 0, 0), (0, 0, 0)),
    checker_ring=None,
    checker_text=((0, 0, 0), (0, 0, 0)),
    number=(255, 255, 255),
    number_alt=(255, 210, 0),
    text=(255, 255, 255),
    cube=(255, 255, 255),
    cube_line=(0, 0, 0),
    cube_text=(0, 0, 0),
    die=((255, 255, 255), (255, 210, 0)),
    die_line=((0, 0, 0), (0, 0, 0)),
    pip=((0, 0, 0), (0, 0, 0)),
    arrow=(255, 60, 60),
    arrow_halo=(0, 0, 0),
    hit=(255, 60, 60),
    line=1.6,
    digits_bold=0.6,
)

THEMES: dict[str, Theme] = {t.name: t for t in (PRINT, CLASSIC, CONTRAST)}


def get_theme(theme: str | Theme) -> Theme:
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme.lower()]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r} (known: {', '.join(THEMES)})") from None
