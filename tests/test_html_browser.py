"""The match page in a real browser: headless Debian Chromium driven by Playwright (no browser is
downloaded).  Keyboard stepping through a whole match against the replay's positions, a click on a
finding, deep links, the hostile-name page (no dialog, no foreign element), screenshots."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.ids import xgid
from notation.matchio import read_any, read_match
from notation.replay import replay_match
from render.html import match_page

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CHROMIUM = os.environ.get("GAMMON_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
HOSTILE = ("<script>alert(1)</script>", "</svg><img src=x onerror=alert(1)>")

pytestmark = pytest.mark.xdist_group("browser")
"""The module's tests on one test worker: one browser started (the module's fixture), not one a worker."""


def _chromium() -> str | None:
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (pip install playwright)")
    exe = _chromium()
    if exe is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=exe, args=ARGS, timeout=60_000)
        except Exception as e:  # noqa: BLE001 - any launch failure means no usable browser here
            pytest.skip(f"Chromium at {exe} does not start: {e}")
        yield b
        b.close()


_PAGES: dict[str, tuple[str, Any]] = {}


def _write(tmp_path: Path, source: Path | str, name: str = "m.html") -> tuple[str, Any]:
    """The match page of ``source`` (a record's path, or ``"hostile"``: test_html's match of hostile names)
    written in ``tmp_path``, and its replay; each page is made once for the module (a page takes up to a
    second to lay out, and several tests open the same one)."""
    key = str(source)
    if key not in _PAGES:
        if source == "hostile":
            from test_html import hostile_match

            match = hostile_match()
        else:
            match = read_match(source) if Path(source).suffix == ".mat" else read_any(str(source))[0]
        rep = replay_match(match)
        _PAGES[key] = (match_page(match, rep), rep)
    text, rep = _PAGES[key]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path.as_uri(), rep


def _open(browser: Any, url: str, width: int = 1280, height: int = 800) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append("dialog: " + d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_function("document.getElementById('board').dataset.xgid !== ''")
    return page, errors


def _xgid(page: Any) -> str:
    return page.get_attribute("#board", "data-xgid")


def _expected(rep: Any) -> list[str]:
    out = []
    for g in rep.games:
        out += [xgid(s.before) for s in g.steps]
        out.append(xgid(g.end))
    return out


def test_keyboard_through_a_whole_match(browser: Any, tmp_path: Path) -> None:
    # a match of two games with a double and a drop, 112 positions (a key takes 50 ms: the 265 of the 7-point
    # sample took 18 s, and the page's steps are one list whatever the length)
    url, rep = _write(tmp_path, ROOT / "tests" / "data" / "mat_gnubg_selfplay_3p.mat")
    exp = _expected(rep)
    page, errors = _open(browser, url)
    assert _xgid(page) == exp[0]
    # step with the keyboard, comparing each position with the replay's
    seen = [_xgid(page)]
    for _ in range(len(exp) - 1):
        page.keyboard.press("ArrowRight")
        seen.append(_xgid(page))
    assert seen == exp
    page.keyboard.press("ArrowRight")  # past the end: stays
    assert _xgid(page) == exp[-1]
    page.keyboard.press("Home")
    assert _xgid(page) == exp[0]
    page.keyboard.press("ArrowDown")  # next game: its first position
    assert _xgid(page) == xgid(rep.games[1].steps[0].before)
    page.keyboard.press("ArrowUp")
    assert _xgid(page) == exp[0]
    page.keyboard.press("End")
    assert _xgid(page) == exp[-1]
    page.keyboard.press("ArrowLeft")
    assert _xgid(page) == exp[-2]
    # a click on a move shows it
    page.click("#moves tr[data-i='5'] td.a")
    assert _xgid(page) == exp[5]
    assert page.evaluate("location.hash") == "#" + page.evaluate("JSON.parse(document.getElementById('data')"
                                                                ".textContent).anchors[5]")
    assert errors == []
    page.close()


def _elements(svg: str) -> list[tuple[str, dict[str, str]]]:
    """Every element of an SVG fragment in document order: its tag and attributes (``xlink:href`` read as
    ``href``)."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
                         f"{svg}</svg>")
    out = []
    for el in root.iter():
        attrs = {k.replace("{http://www.w3.org/1999/xlink}", ""): v for k, v in el.attrib.items()}
        out.append((el.tag.split("}")[-1], attrs))
    return out[1:]


def test_the_board_drawn_is_the_render_svg(browser: Any, tmp_path: Path) -> None:
    """What the page's script draws from its compact data is ``render.svg`` of the same step with the same
    options, element for element and attribute for attribute (the arrows, the texts, the stacks)."""
    import render
    from render.html import _board_options

    url, rep = _write(tmp_path, SAMPLES / "illegal_plays.mat")
    page, errors = _open(browser, url)
    steps = [x for g in rep.games for x in [(s.before, s) for s in g.steps] + [(g.end, None)]]
    for i in sorted({0, 1, 2, 5, 17, len(rep.games[0].steps), len(steps) // 2, len(steps) - 1}):
        pos, st = steps[i]
        page.evaluate(f"location.hash = '#' + JSON.parse(document.getElementById('data').textContent).anchors[{i}]")
        page.wait_for_function(f"document.getElementById('board').dataset.step === '{i}'")
        drawn = page.evaluate("document.getElementById('static').innerHTML + document.getElementById('dyn').innerHTML")
        doc = str(render.svg(pos, **_board_options(st)))
        body = doc.split("</defs>", 1)[1].rsplit("</svg>", 1)[0]
        body = "".join(ln for ln in body.split("\n") if not ln.strip().startswith("<rect width="))
        assert _elements(drawn) == _elements(body), i
    assert errors == []
    page.close()


def test_findings_click_keys_and_deep_links(browser: Any, tmp_path: Path) -> None:
    url, rep = _write(tmp_path, SAMPLES / "illegal_plays.mat")
    page, errors = _open(browser, url)
    f = next(f for f in rep.findings if f.line == 98)  # game 3 move 2 (root 42): 13/9 with a checker on the bar
    page.click("#moves .finding:has-text('must enter before 13')")
    assert _xgid(page) == f.xgid
    assert "98:38" in page.inner_text("#caption")
    assert "error" in page.inner_text("#caption").lower()
    # n / p walk the findings in order
    page.keyboard.press("Home")
    page.keyboard.press("n")
    first = next(x for x in rep.findings if x.line == 51)  # game 1 move 44
    assert _xgid(page) == first.xgid
    page.keyboard.press("n")
    page.keyboard.press("p")
    assert _xgid(page) == first.xgid
    # deep links, numbered as validate numbers them: each a new load of the page (from a blank one: not a
    # change of the fragment of the page already there)
    for frag, want in (("g3m2-2", f.xgid), ("L98:38", f.xgid), ("g1m44", first.xgid),
                       ("g3", xgid(rep.games[2].steps[0].before)), ("g2end", xgid(rep.games[1].end)),
                       ("g3m99", xgid(rep.games[2].steps[0].before))):
        page.goto("about:blank")
        page.goto(f"{url}#{frag}")
        page.wait_for_function("document.getElementById('board').dataset.xgid !== ''")
        assert _xgid(page) == want, frag
        assert page.evaluate("window.scrollY") == 0, f"#{frag} scrolled the page away from its header"
    page.close()
    assert errors == []


def test_hostile_names_run_nothing(browser: Any, tmp_path: Path) -> None:
    url, rep = _write(tmp_path, "hostile")
    page, errors = _open(browser, url)
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Home")
    page.wait_for_timeout(200)
    assert errors == []  # no dialog, no script error
    assert page.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0
    assert page.evaluate("document.scripts.length") == 2
    assert page.evaluate("Array.from(document.querySelectorAll('*')).filter(e => Array.from(e.attributes)"
                         ".some(a => a.name.startsWith('on'))).length") == 0
    assert HOSTILE[0] in page.inner_text("h1")
    assert HOSTILE[1] in page.inner_text("header")
    assert _xgid(page) == xgid(rep.games[0].steps[0].before)
    page.close()


def test_screenshots_desktop_and_phone(browser: Any, tmp_path: Path) -> None:
    """Screenshots at desktop and phone width (for people to look at: samples/figures/html_*.png are made
    by ``benchmarks/html.py --screenshots``); here they must be made and not be blank."""
    from PIL import Image

    url, _ = _write(tmp_path, SAMPLES / "illegal_plays.mat")
    for name, w, h in (("desktop", 1280, 800), ("phone", 390, 844)):
        page, errors = _open(browser, url + "#L98:38", w, h)
        out = tmp_path / f"{name}.png"
        page.screenshot(path=str(out))
        assert errors == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= w, f"{name}: the page is wider than the screen ({width} > {w})"
        page.close()
        im = Image.open(out).convert("L")
        lo, hi = im.getextrema()
        assert hi - lo > 100


WIDTHS = (360, 390, 768, 1400)


def test_every_page_fits_every_width(browser: Any, tmp_path: Path) -> None:
    """A match page, an analysed match page and the validation report fit a phone (360, 390 px), a tablet
    and a desktop: no horizontal scroll (a table wider than the screen reflows or scrolls in its own box)."""
    from notation.commands.validate import check_file, write_report

    pages = [(_write(tmp_path, SAMPLES / "illegal_plays.mat", "m.html")[0], "#L98:38")]
    xg = ROOT / "tests" / "data" / "xg_ronde3.xg"
    url, rep = _write(tmp_path, xg, "a.html")
    st = next(i for i, s in enumerate(rep.games[0].steps) if s.action.analysis is not None and
              s.action.analysis.checker is not None and len(s.action.analysis.checker.candidates) > 2)
    pages.append((url, "#" + page_anchor(rep, rep.games[0].steps[st])))
    long_name = tmp_path / ("a_tournament_directors_archive_of_matches_" * 3 + "final.mat")
    long_name.write_bytes((SAMPLES / "illegal_plays.mat").read_bytes())
    files = [str(SAMPLES / "dutch_5point.mat"), str(long_name), str(xg)]
    write_report(str(tmp_path / "report.html"), [check_file(f) for f in files])
    pages.append(((tmp_path / "report.html").as_uri(), ""))
    pages.append((_write(tmp_path, "hostile", "h.html")[0], ""))
    for url, frag in pages:
        # each page opened once, at the first width, then the window resized to the others (the layout is
        # CSS alone, no script measures the window: a resized page is laid out as one opened at that width)
        page = browser.new_page(viewport={"width": WIDTHS[0], "height": 800})
        page.goto(url + frag)
        page.wait_for_load_state("load")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            assert page.evaluate("innerWidth") == width
            if "report" not in url:
                page.wait_for_function("document.getElementById('board').dataset.xgid !== ''")
                if url.endswith("a.html"):
                    assert page.is_visible("table.cand")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= page.evaluate("innerWidth"), f"{url.rsplit('/', 1)[1]} at {width} px is {wide} px wide"
        page.close()


def page_anchor(rep: Any, step: Any) -> str:
    from render.html import step_anchor

    seen: set[str] = set()
    for g in rep.games:
        for i, s in enumerate(g.steps, 1):
            a = step_anchor(g.game.number, s.action, i, seen)
            if s is step:
                return a
    raise AssertionError("no such step")


def test_pages_in_a_notebook_work(browser: Any, tmp_path: Path) -> None:
    """Two match pages as a notebook shows them (``_repr_html_``: each in its own iframe) in one document:
    each draws, steps with its buttons and keys, and raises no error (the iframe cannot take a URL
    fragment: the page keeps going without one)."""
    import render  # noqa: F401 - registers the drawing of the reprs

    reps = [replay_match(read_match(SAMPLES / n)) for n in ("illegal_plays.mat", "dutch_5point.mat")]
    host = tmp_path / "notebook.html"
    host.write_text("<!DOCTYPE html><html><body>" + "".join(f"<div class=cell>{r._repr_html_()}</div>" for r in reps)
                    + "</body></html>", encoding="utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(host.as_uri())
    frames = page.frames[1:]
    assert len(frames) == 2
    for frame, rep in zip(frames, reps, strict=True):
        frame.wait_for_function("document.getElementById('board').dataset.xgid !== ''")
        exp = _expected(rep)
        assert frame.get_attribute("#board", "data-xgid") == exp[0]
        frame.click("#next")
        assert frame.get_attribute("#board", "data-xgid") == exp[1]
        frame.press("body", "ArrowRight")
        assert frame.get_attribute("#board", "data-xgid") == exp[2]
    assert errors == []
    page.close()


def test_print_is_one_position_on_one_page(browser: Any, tmp_path: Path) -> None:
    url, rep = _write(tmp_path, SAMPLES / "illegal_plays.mat")
    page, errors = _open(browser, url + "#L98:38")
    pdf = page.pdf(format="A4")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 1
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.moves')).display") == "none"
    assert page.is_visible("#board svg") and "98:38" in page.inner_text("#caption")
    assert errors == []
    page.close()


def test_policy_stops_what_escaping_would_miss(browser: Any, tmp_path: Path) -> None:
    """Defence in depth: the page's Content-Security-Policy lets only its own script run, so even markup
    planted in the page raw (as if escaping failed) runs nothing, while the page itself still works."""
    url, rep = _write(tmp_path, SAMPLES / "dutch_5point.mat")
    path = tmp_path / "m.html"
    text = path.read_text(encoding="utf-8")
    planted = "<img src=x onerror=alert(1)><script>alert(2)</script><svg onload=alert(3)></svg>"
    path.write_text(text.replace("<header>", "<header>" + planted, 1), encoding="utf-8")
    page, errors = _open(browser, url)
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(200)
    assert not [e for e in errors if e.startswith("dialog")]
    assert _xgid(page) == xgid(rep.games[0].steps[1].before)
    page.close()


def test_report_sorts_and_links(browser: Any, tmp_path: Path) -> None:
    from notation.commands.validate import check_file, write_report

    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", "illegal_plays.mat", "hyper1_5point.mat")]
    report = tmp_path / "report.html"
    write_report(str(report), [check_file(f) for f in files])
    page, errors = _open_plain(browser, report.as_uri())
    first = "document.querySelector('#files tbody tr td').textContent"
    page.click("#files th:has-text('Errors')")  # ascending
    page.click("#files th:has-text('Errors')")  # descending: the file with errors first
    assert page.evaluate(first).endswith("illegal_plays.mat")
    page.click("#files th:has-text('File')")
    assert page.evaluate(first).endswith("dutch_5point.mat")
    page.click("#files tbody a:has-text('illegal_plays.mat')")
    page.wait_for_function("document.getElementById('board') && document.getElementById('board').dataset.xgid")
    rep = replay_match(read_match(SAMPLES / "illegal_plays.mat"))
    assert _xgid(page) == xgid(rep.games[0].steps[0].before)
    assert errors == []
    page.close()


def _open_plain(browser: Any, url: str) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append("dialog: " + d.message), d.dismiss()))
    page.goto(url)
    return page, errors
