"""Notebooks: a Position shows as its diagram (``_repr_svg_``), a Match and a replay as the match page
(``_repr_html_``), as python-chess shows its boards.  The library does not import the renderer: the
renderer registers its drawing when imported (notation.notebook), and until then Jupyter shows text."""

from __future__ import annotations

import ast
import html
import re
import subprocess
import sys
from pathlib import Path

import render
from notation.matchio import read_match
from notation.position import Position
from notation.replay import replay
from render.html import match_page

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


def test_a_position_shows_as_its_diagram() -> None:
    pos = Position(dice=(3, 1), names=("Ann", "Ben"), match_length=7, score=(2, 3))
    svg = pos._repr_svg_()
    assert svg == str(render.svg(pos, names=True, score=True, on_roll=True))
    assert svg.startswith("<?xml") and "<svg" in svg
    money = Position()
    assert money._repr_svg_() == str(render.svg(money, on_roll=True))


def _srcdoc(frame: str) -> str:
    m = re.fullmatch(r'<iframe srcdoc="([^"]*)" sandbox="allow-scripts" title="[^"]*" style="[^"]*"></iframe>', frame)
    assert m is not None, frame[:200]
    return html.unescape(m.group(1))


def test_a_match_and_a_replay_show_as_the_match_page() -> None:
    m = read_match(SAMPLES / "illegal_plays.mat")
    rep = replay(m)
    assert _srcdoc(m._repr_html_()) == match_page(m)
    assert _srcdoc(rep._repr_html_()) == match_page(m, rep)
    assert "98:38" in _srcdoc(rep._repr_html_())  # the replay's findings are on it


def test_without_the_renderer_a_notebook_shows_text() -> None:
    """In a process that has not imported ``render``, the reprs give None (Jupyter then shows the text
    representation) and the library imports nothing of the renderer; ``import render`` turns them on."""
    script = (
        "import sys\n"
        "from notation.matchio import read_match\nfrom notation.position import Position\n"
        "from notation.replay import replay\n"
        f"m = read_match({str(SAMPLES / 'dutch_5point.mat')!r})\n"
        "print(Position()._repr_svg_(), m._repr_html_(), replay(m)._repr_html_())\n"
        "print(sorted(k for k in sys.modules if k == 'render' or k.startswith('render.')))\n"
        "import render\n"
        "print(Position()._repr_svg_()[:5], m._repr_html_()[:7])\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.splitlines()
    assert out == ["None None None", "[]", "<?xml <iframe"]


def test_the_library_never_imports_the_renderer() -> None:
    """render/ imports notation/, never the reverse (imports inside functions counted); the command layer
    (notation/commands/), which joins the two for the command line, is the one place that may."""
    offenders = []
    for path in sorted((ROOT / "notation").rglob("*.py")):
        if "commands" in path.relative_to(ROOT / "notation").parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in names
                          if n == "render" or n.startswith("render.")]
    assert offenders == []
