"""Text in diagrams: every Latin, Greek and Cyrillic character is drawn from the shipped fonts, never
replaced by '?'; other scripts come from --font; a character no font has is reported, not hidden."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import render
from notation.cli import main
from notation.ids import parse_xgid
from render import _font

XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
WORLD = "Kévin Zürich ½ Łódź Ørsted Κέβιν Жора"
JAPANESE_FONTS = [Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"),
                  Path("/usr/share/fonts/truetype/fonts-japanese-gothic.ttf")]


def test_latin_greek_cyrillic_have_real_glyphs() -> None:
    font = _font.default_font()
    question = font.glyph("?")
    _font.MISSING.clear()
    for ch in WORLD.replace(" ", ""):
        assert font.has_any(ch), ch
        assert font.glyph(ch).contours != question.contours, ch
    assert not _font.MISSING


def test_svg_and_png_draw_the_accented_name() -> None:
    pos = parse_xgid(XGID).replace(names=("Kévin", "Жора"))
    _font.MISSING.clear()
    svg = str(render.svg(pos, names=True, caption=WORLD))
    png = render.png(pos, names=True, caption=WORLD)
    plain = render.png(pos, names=True, caption=WORLD.replace("é", "?"))
    assert png != plain  # 'é' is not drawn as '?'
    assert "1/2" not in svg and not _font.MISSING


def test_a_missing_script_is_reported_on_stderr(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["render", XGID, "--caption", "日本", "-o", str(tmp_path / "j.png")])
    assert r.exit_code == 0
    assert "no font in use has '日' (U+65E5), '本' (U+672C)" in r.stderr


@pytest.fixture
def fonts_restored():  # type: ignore[no-untyped-def]
    d = _font.default_font()
    saved = list(d.fallbacks)
    yield
    d.fallbacks[:] = saved
    d._from_fallback.clear()
    d._advances.clear()


def test_font_option_draws_other_scripts(tmp_path: Path, fonts_restored: None) -> None:
    font = next((p for p in JAPANESE_FONTS if p.exists()), None)
    if font is None:
        pytest.skip("no Japanese TrueType font installed (Debian fonts-ipafont-gothic)")
    r = CliRunner().invoke(main, ["render", XGID, "--caption", "日本", "--font", str(font), "-o",
                                  str(tmp_path / "j.png")])
    assert r.exit_code == 0 and "no font in use" not in r.stderr


def test_a_file_that_is_not_a_font_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.ttf"
    bad.write_bytes(b"not a font at all" * 10)
    r = CliRunner().invoke(main, ["render", XGID, "--font", str(bad), "-o", str(tmp_path / "j.png")])
    assert r.exit_code == 2 and "--font" in r.stderr and "Traceback" not in r.output


CJK_FONT = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_cjk_title_and_names_are_well_formed_and_said(tmp_path: Path, fmt: str) -> None:
    """A Chinese or Japanese title and names (issue 26): the SVG stays well-formed XML with the title as
    written in its <title>; with no CJK font in use, each format says which characters were drawn as '?'
    and names a font to give (this machine's, by path, where there is one)."""
    import xml.dom.minidom

    out = tmp_path / f"cjk.{fmt}"
    _font.MISSING.clear()
    r = CliRunner().invoke(main, ["render", XGID, "--title", "日本語のタイトル", "--names", "山田,李", "-o", str(out)])
    assert r.exit_code == 0, r.output
    if fmt == "svg":
        doc = xml.dom.minidom.parse(str(out))
        titles = doc.getElementsByTagName("title")
        assert titles and titles[0].firstChild.data == "日本語のタイトル"  # type: ignore[union-attr]
    else:
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert r.stderr.count("\n") == 1 and "'山' (U+5C71)" in r.stderr and "'日' (U+65E5)" in r.stderr
    assert (f"give --font {CJK_FONT}" in r.stderr) if CJK_FONT.is_file() else \
        ("Droid Sans Fallback (DroidSansFallbackFull.ttf" in r.stderr)


@pytest.mark.skipif(not CJK_FONT.is_file(), reason="no Droid Sans Fallback here (Debian: fonts-droid-fallback)")
@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_cjk_title_with_a_cjk_font_is_drawn(tmp_path: Path, fmt: str, fonts_restored: None) -> None:
    import xml.dom.minidom

    out = tmp_path / f"cjk.{fmt}"
    r = CliRunner().invoke(main, ["render", XGID, "--title", "日本語のタイトル", "--names", "山田,李", "--font",
                                  str(CJK_FONT), "-o", str(out)])
    assert r.exit_code == 0 and "no font in use" not in r.stderr, r.output
    if fmt == "svg":
        xml.dom.minidom.parse(str(out))


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_text_drawn_again_is_said_again(fmt: str) -> None:
    """Laid-out texts are reused between diagrams (render.layout._Text): a character no font has is
    noted each time it is drawn, not only the first (found when the CJK test ran after another drawing
    of the same title in its process)."""
    draw = render.svg if fmt == "svg" else render.png
    for _ in range(2):
        _font.MISSING.clear()
        draw(XGID, names=("山田", "李"), caption="日本語")
        assert {"山", "田", "李", "日", "本", "語"} <= _font.MISSING


@pytest.mark.skipif(not CJK_FONT.is_file(), reason="no Droid Sans Fallback here (Debian: fonts-droid-fallback)")
def test_texts_laid_out_with_one_added_font_are_not_reused_with_another(fonts_restored: None) -> None:
    """The reused layout of texts (render.layout._text) is kept per set of fonts, not per number of fonts:
    a font added in place of another lays the text out again."""
    d = _font.default_font()
    saved = list(d.fallbacks)
    render.add_font(CJK_FONT)
    _font.MISSING.clear()
    render.png(XGID, caption="日本語")
    assert not {"日", "本", "語"} & _font.MISSING
    d.fallbacks[:] = saved
    d._from_fallback.clear()
    d._advances.clear()
    render.add_font(Path(render.__file__).parent / "fonts" / "DejaVuSans.ttf")  # as many fonts, none with CJK
    _font.MISSING.clear()
    render.png(XGID, caption="日本語")
    assert {"日", "本", "語"} <= _font.MISSING
