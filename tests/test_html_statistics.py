"""The match page's statistics panel: both players' PR and gnubg's figures, and the largest errors, each a
link to its position; nothing for a record without analysis; in a browser at 360 px and 1400 px."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.ids import xgid
from notation.matchio import read_match
from notation.replay import replay_match
from notation.statistics import statistics
from render.html import match_page

DATA = Path(__file__).resolve().parent / "data"
GALAXY = DATA / "stats" / "galaxy_1093632.sgf"
CHROMIUM = os.environ.get("GAMMON_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


def _panel(html: str) -> str:
    m = re.search(r"<details class=stats>.*?</details>", html, re.S)
    assert m is not None
    return m.group(0)


def test_panel_holds_the_statistics_and_links_to_positions() -> None:
    m = read_match(GALAXY)
    html = match_page(m)
    panel = _panel(html)
    st = statistics(m)
    assert f"{st.match.xg[0].pr:.2f}" in panel and f"{st.match.xg[1].pr:.2f}" in panel
    assert "Awful!" in panel and "Intermediate" in panel
    data = json.loads(re.search(r"<script type=application/json id=data>(.*?)</script>", html, re.S).group(1))
    links = re.findall(r'<a href="#([^"]+)">', panel)
    assert len(links) == 8 and all(a in data["anchors"] for a in links)
    assert links[0] == "g1m3-2"  # nopnop's 66 at move 3, the largest error (0.251)


def test_no_panel_without_analysis() -> None:
    assert "<details class=stats>" not in match_page(read_match(DATA / "gnubg_7p_crawford.mat"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (pip install playwright)")
    exe = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=exe, args=ARGS, timeout=60_000)
        except Exception as e:  # noqa: BLE001 - any launch failure means no usable browser here
            pytest.skip(f"Chromium at {exe} does not start: {e}")
        yield b
        b.close()


@pytest.mark.parametrize("width", [360, 1400])
def test_panel_in_a_browser(browser: Any, tmp_path: Path, width: int) -> None:
    m = read_match(GALAXY)
    rep = replay_match(m)
    path = tmp_path / "m.html"
    path.write_text(match_page(m, rep), encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_function("document.getElementById('board').dataset.xgid !== ''")
    page.click("details.stats summary")
    assert page.is_visible("table.stats")
    # the panel fits the page: nothing wider than the viewport
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.eval_on_selector("details.stats", "e => e.getBoundingClientRect().right")
    assert box <= width
    page.click("ol.worst li:first-child a")
    page.wait_for_function("location.hash === '#g1m3-2'")
    step = next(s for g in rep.games for s in g.steps if s.action.move_number == 3 and s.action.player == 1
                and s.action.kind == "move")
    page.wait_for_function(f"document.getElementById('board').dataset.xgid === {json.dumps(xgid(step.before))}")
    assert not errors
    page.close()


def test_archive_report_has_the_players_table(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from notation.cli import main

    report = tmp_path / "r.html"
    files = [str(DATA / "stats" / "galaxy_1093632.sgf"), str(DATA / "stats" / "fibs_pghpete_crawford_double.sgf"),
             str(DATA / "gnubg_7p_crawford.mat")]
    r = CliRunner().invoke(main, ["validate", "-q", "--html", str(report), *files])
    assert r.exit_code in (0, 1), r.output
    html = report.read_text(encoding="utf-8")
    section = re.search(r"<section id=players>.*?</section>", html, re.S)
    assert section is not None
    names = re.findall(r"<tr><td>([^<]+)</td>", section.group(0))
    assert sorted(names) == ["PghPete", "lasse", "nopnop", "nori"]  # the .mat holds no analysis: no row


def test_no_players_table_without_analysis(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from notation.cli import main

    report = tmp_path / "r.html"
    CliRunner().invoke(main, ["validate", "-q", "--html", str(report), str(DATA / "gnubg_7p_crawford.mat")])
    assert "<section id=players>" not in report.read_text(encoding="utf-8")
