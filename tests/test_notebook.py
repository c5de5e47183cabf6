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
from notation import notebook
from notation.matchio import read_match
from notation.position import Position
from notation.record import replace
from notation.replay import replay_match
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
    rep = replay_match(m)
    assert _srcdoc(m._repr_html_()) == match_page(m)
    assert _srcdoc(rep._repr_html_()) == match_page(m, rep)
    assert "98:38" in _srcdoc(rep._repr_html_())  # the replay's findings are on it


def test_import_notation_is_enough_and_the_renderer_comes_when_shown() -> None:
    """In a fresh process, ``import notation`` alone: the library imports nothing of the renderer, not
    even when reading and replaying a match; the first ``_repr_svg_`` / ``_repr_html_`` imports it and
    draws (as python-chess's boards after ``import chess``)."""
    script = (
        "import sys\n"
        "import notation\n"
        f"m = notation.read_match({str(SAMPLES / 'dutch_5point.mat')!r})\n"
        "rep = notation.replay_match(m)\n"
        "print(sorted(k for k in sys.modules if k == 'render' or k.startswith('render.')))\n"
        "print(notation.Position()._repr_svg_()[:5], m._repr_html_()[:7], rep._repr_html_()[:7])\n"
        "print('render' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=ROOT, timeout=120).stdout.splitlines()
    assert out == ["[]", "<?xml <iframe <iframe", "True"]


def test_without_the_renderer_a_notebook_shows_text() -> None:
    """Where the renderer cannot be imported, the reprs give None (Jupyter then shows the text)."""
    script = (
        "import sys\n"
        "sys.modules['render'] = None  # what Python does with a package that cannot be imported\n"
        "import notation\n"
        f"m = notation.read_match({str(SAMPLES / 'dutch_5point.mat')!r})\n"
        "print(notation.Position()._repr_svg_(), m._repr_html_(), notation.replay_match(m)._repr_html_())\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=ROOT, timeout=120).stdout.splitlines()
    assert out == ["None None None"]


def test_repr_of_a_match_and_a_replay_is_short() -> None:
    """A plain REPL prints repr(): it was 41 KB for a match and 149 KB for its replay."""
    m = read_match(SAMPLES / "illegal_plays.mat")
    rep = replay_match(m)
    for obj in (m, rep, m.games[0], rep.games[0]):
        assert len(repr(obj)) < 400, repr(obj)[:500]
    assert repr(m).startswith("<Match: ") and "games" in repr(m) and "illegal_plays.mat" in repr(m)
    assert "error" in repr(rep) and repr(m) in repr(rep)
    long = replace(m, names=("x" * 5000, "y"), source="/" + "d/" * 3000 + "f.mat")
    assert len(repr(long)) < 400 and repr(long).count("...") == 2 and "f.mat" in repr(long)


def test_the_library_never_imports_the_renderer() -> None:
    """render/ imports notation/, never the reverse (imports inside functions counted); the command layer
    (notation/commands/), which joins the two for the command line, is the one place that may.  The
    notebook finds the renderer as an entry point of its group, declared in pyproject.toml."""
    offenders = []
    for path in sorted((ROOT / "notation").rglob("*.py")):
        if "commands" in path.relative_to(ROOT / "notation").parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in names
                          if n == "render" or n.startswith("render.")]
    assert offenders == []
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'[project.entry-points."{notebook.GROUP}"]\nrender = "render"' in pyproject


def test_the_renderer_is_an_installed_entry_point_of_the_notebook_group() -> None:
    """The installed package declares the renderer in the group the notebook loads (what a pip install
    makes of pyproject.toml)."""
    from importlib.metadata import entry_points

    assert [ep.value for ep in entry_points(group=notebook.GROUP)] == ["render"]
