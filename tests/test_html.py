"""The match page (render.html) without a browser: self-contained, escaped, the same boards as `render`,
positions and findings where the replay puts them, analysis tables; `convert OUT.html`, `validate --html`."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import gammon_in_process

import render
from notation.analysis import Analysis, Candidate, CheckerAnalysis, CubeAnalysis, Probabilities
from notation.ids import xgid
from notation.matchio import read_match
from notation.replay import replay_match
from render.html import BOARD_OPTIONS, _board_options, batch_page, match_page

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
HOSTILE = ("<script>alert(1)</script>", "</svg><img src=x onerror=alert(1)>")


def _data(page: str) -> dict:
    m = re.search(r"<script type=application/json id=data>(.*?)</script>", page, re.S)
    assert m is not None
    return json.loads(m.group(1))


B64 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"


def _units(data: dict, toks: str) -> str:
    """What the page's script draws for a list of units (written again here, from the page's data)."""
    out = []
    for k in range(0, len(toks), 3):
        entry = data["table"][int(toks[k:k + 3], 36)]
        if entry.startswith("*"):
            out.append(_units(data, entry[1:]))
            continue
        shape, coords = entry.split(":", 1)
        parts = re.split(r"\$(\d+)", data["shapes"][int(shape, 36)])
        for j in range(1, len(parts), 2):
            c = coords[3 * int(parts[j]):3 * int(parts[j]) + 3]
            v = (B64.index(c[0]) * 64 + B64.index(c[1])) * 64 + B64.index(c[2]) - 64 ** 3 // 2
            parts[j] = str(v // 100) if v % 100 == 0 else repr(v / 100)  # JavaScript's String(v / 100)
        out.append("".join(parts))
    return "".join(out)


def _board_svg(data: dict, i: int) -> str:
    s = data["steps"][i]
    return data["statics"][s[1]] + _units(data, s[2])


def expected_steps(rep):
    """(xgid, step or None) for every page position: each action's position before it, then the game's end."""
    out = []
    for g in rep.games:
        for st in g.steps:
            out.append((xgid(st.before), st))
        out.append((xgid(g.end), None))
    return out


def hostile_match():
    m = read_match(SAMPLES / "gnubg_selfplay_7p.mat")
    m.names = HOSTILE
    for g in m.games:
        g.names = None
    m.tags = [("Event", HOSTILE[1]), ("Site", HOSTILE[0])]
    m.comments = [HOSTILE[1]]
    m.games[0].comments = [HOSTILE[0]]
    a = m.games[0].actions[0]
    a.comment = HOSTILE[0] + " & " + HOSTILE[1]
    a.analysis = Analysis(checker=CheckerAnalysis((Candidate(HOSTILE[1], 0.1, level=HOSTILE[0]),)),
                          producer=HOSTILE[0], extra={HOSTILE[1]: HOSTILE[0]})
    return m


def test_positions_are_the_replays():
    m = read_match(SAMPLES / "gnubg_selfplay_7p.mat")
    rep = replay_match(m)
    data = _data(match_page(m, rep))
    exp = expected_steps(rep)
    assert [s[3] for s in data["steps"]] == [x for x, _ in exp]
    assert len(data["anchors"]) == len(set(data["anchors"])) == len(exp)


def test_board_is_the_render_svg():
    """A page position is `render.svg` of the same step with the same options, element for element."""
    m = read_match(SAMPLES / "gnubg_selfplay_7p.mat")
    rep = replay_match(m)
    data = _data(match_page(m, rep))
    exp = expected_steps(rep)
    for i in (0, 7, 30, len(exp) - 1):
        st = exp[i][1]
        pos = st.before if st is not None else rep.games[-1].end
        doc = str(render.svg(pos, **_board_options(st)))
        body = doc.split("</defs>", 1)[1].split("\n")
        body = [ln.strip() for ln in body if ln.strip() and not ln.strip().startswith(("<rect width=", "</svg"))]
        assert _board_svg(data, i) == "".join(body).replace("xlink:href=", "href=")


def test_deep_link_anchors_use_validate_numbers():
    m = read_match(SAMPLES / "illegal_plays.mat")
    rep = replay_match(m)
    page = match_page(m, rep)
    data = _data(page)
    for f in rep.findings:
        if f.move is not None:
            assert f'data-a="g{f.game}m{f.move}"' in page
    # the finding at 98:38 (game 3 move 2) is on the step of that action, with its position
    f = next(f for f in rep.findings if f.line == 98)
    i = data["anchors"].index("g3m2-2")  # root's 42, the second play of move 2
    assert data["steps"][i][3] == f.xgid
    assert data["anchors"][i - 1] == "g3m2" and "root 42" in data["steps"][i][4]
    assert any(c[1] == "98:38" and c[0] == "error" for c in data["captions"][str(i)])
    assert i in data["findings"]


def test_self_contained():
    page = match_page(read_match(SAMPLES / "gnubg_selfplay_7p.mat"))
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert not re.search(r"\ssrc=", page)
    assert set(re.findall(r"https?://[^\s\"']+", page)) <= {"http://www.w3.org/2000/svg"}


def test_hostile_strings_are_escaped():
    m = hostile_match()
    page = match_page(m)
    assert page.count("<script") == 2
    assert "<img" not in page and "</svg><" not in page.replace("</svg></div>", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("&lt;/svg&gt;&lt;img src=x onerror=alert(1)&gt;") >= 4  # name, event, comments, analysis
    # nothing raw in the JSON block either
    block = re.search(r"<script type=application/json id=data>(.*?)</script>", page, re.S).group(1)
    assert "<" not in block and ">" not in block
    assert HOSTILE[0] in _data(page)["steps"][0][4] or HOSTILE[0] in page.replace("&lt;", "<").replace("&gt;", ">")
    rep = batch_page([{"file": HOSTILE[1], "games": 1, "plays": 2, "errors": 1, "warnings": 0, "notes": 0,
                       "findings": [{"severity": "error", "line": 1, "column": 2, "game": 1, "move": 1,
                                     "message": HOSTILE[0]}]}], {HOSTILE[1]: 'x" onclick="alert(1)'})
    assert "<img" not in rep and "alert(1)</script>" not in rep and 'onclick="' not in rep


def test_analysis_table_highlights_the_played_move():
    m = read_match(SAMPLES / "gnubg_selfplay_7p.mat")
    rep = replay_match(m)
    st = next(s for s in rep.games[0].steps if s.action.kind == "move" and s.play and s.play.steps)
    made = st.play.notation()
    st.action.analysis = Analysis(
        checker=CheckerAnalysis((Candidate("24/18 13/11", 0.123, Probabilities(0.55, 0.15), "4-ply"),
                                 Candidate(made, 0.050, Probabilities(0.52, 0.12), "4-ply"),
                                 Candidate("8/2 6/2", -0.2, None, "2-ply"))),
        cube=CubeAnalysis(no_double=0.1, double_take=-0.2, double_pass=1.0, verdict="No double, take"),
        luck=0.25, luck_rating="lucky", producer="GNU Backgammon")
    page = match_page(m, rep)
    assert re.search(r"<tr class=played><td>2</td><td>" + re.escape(made) + r"</td><td>\+0\.050</td>"
                     r"<td>-0\.073</td>", page)
    assert page.count("<tr class=played>") == 1
    assert "No double, take" in page and "lucky" in page
    data = _data(page)
    assert sum(s[6] for s in data["steps"]) == 1


def test_board_options_match_render_defaults():
    assert BOARD_OPTIONS["bottom"] == 0  # the board does not flip between moves


def _gammon(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return gammon_in_process(*args, cwd=cwd, text=True)  # (what the commands write, not their start)


def test_convert_to_html(tmp_path: Path):
    out = tmp_path / "m.html"
    r = _gammon("convert", str(SAMPLES / "illegal_plays.mat"), str(out), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "98:38" in page
    r = _gammon("convert", str(SAMPLES / "dutch_5point.mat"), str(tmp_path / "x.out"), "--to", "html", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "x.out").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_validate_html_report(tmp_path: Path):
    files = [str(SAMPLES / "illegal_plays.mat"), str(SAMPLES / "dutch_5point.mat")]
    report = tmp_path / "r" / "report.html"
    report.parent.mkdir()
    r = _gammon("validate", *files, "--html", str(report), cwd=tmp_path)
    assert r.returncode == 1  # illegal_plays has errors
    assert "illegal_plays.mat: 3 games" in r.stdout
    page = report.read_text(encoding="utf-8")
    assert 'href="report_matches/illegal_plays.html"' in page
    assert 'href="report_matches/illegal_plays.html#L98:38"' in page
    assert (tmp_path / "r" / "report_matches" / "dutch_5point.html").is_file()
    assert "<th data-t=s>File</th>" in page


def test_cli_module_runs():
    # the CLI module is importable as `python -m notation.cli` (tests/test_cli_validate.py runs it)
    assert (ROOT / "notation" / "cli.py").is_file()


@pytest.mark.parametrize("name", ["acey_money_session.json", "chouette_4players.json", "hyper3_3point.mat"])
def test_variants_make_a_page(name: str):
    m = read_match(SAMPLES / name)
    page = match_page(m)
    assert _data(page)["steps"]


def test_sgf_input_and_several_inputs(tmp_path: Path):
    sgf = ROOT / "tests" / "data" / "sgf_gibbon_7point.sgf"
    r = _gammon("convert", "-q", str(sgf), str(tmp_path / "g.html"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    m = read_match(sgf)
    assert [s[3] for s in _data((tmp_path / "g.html").read_text(encoding="utf-8"))["steps"]] == [
        x for x, _ in expected_steps(replay_match(m))]
    out = tmp_path / "pages"
    out.mkdir()
    r = _gammon("convert", "-q", "--to", "html", str(SAMPLES / "dutch_5point.mat"), str(SAMPLES / "hyper1_5point.mat"),
                str(out), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["dutch_5point.html", "hyper1_5point.html"]


def test_policy_allows_only_the_pages_script():
    import base64
    import hashlib

    page = match_page(read_match(SAMPLES / "dutch_5point.mat"))
    csp = re.search(r'Content-Security-Policy content="([^"]*)"', page).group(1)
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert "default-src 'none'" in csp and "unsafe" not in script_src
    script = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(script) == 1
    digest = base64.b64encode(hashlib.sha256(script[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp


def test_report_pages_are_readable_by_others(tmp_path: Path):
    import os
    import stat

    from notation.commands.validate import check_file, write_report

    old = os.umask(0o022)
    try:
        written = write_report(str(tmp_path / "new" / "r.html"), [check_file(str(SAMPLES / "dutch_5point.mat")),
                                                                  check_file(str(tmp_path / "missing.mat"))])
    finally:
        os.umask(old)
    assert len(written) == 2
    for w in written:
        assert stat.S_IMODE(os.stat(w).st_mode) == 0o644
    page = Path(written[-1]).read_text(encoding="utf-8")
    assert "missing.mat" in page and 'class="unreadable"' in page


SEVENTEEN = ROOT.parent / "shared" / "corpus" / "mat" / "historic" / "seidel-dwek_florida-1981_17p.txt"


def test_pages_are_compact():
    """Each position is carried compactly (units stored once, placed by coordinates): a 17-point match of
    743 positions in at most 400 KB (1.6 MB when each position's SVG was stored whole); the 7-point
    sample (265 positions) in at most 200 KB (730 KB before)."""
    m = read_match(SAMPLES / "gnubg_selfplay_7p.mat")
    assert len(match_page(m).encode("utf-8")) <= 200_000
    if not SEVENTEEN.is_file():
        pytest.skip("the 17-point match is in ../shared/corpus, which is not here")
    m = read_match(SEVENTEEN)
    rep = replay_match(m)
    assert sum(len(g.steps) + 1 for g in rep.games) == 743
    assert len(match_page(m, rep).encode("utf-8")) <= 400_000


def test_legal_plays_are_all_or_n_of_m():
    """A finding's list of legal plays is the whole list, or says how much of it is shown ("5 of 8"); it
    never passes the first five of eight for the whole list."""
    from notation.ids import parse_position

    m = read_match(SAMPLES / "illegal_plays.mat")
    rep = replay_match(m)
    f = next(f for f in rep.findings if f.line == 98)  # 13/9 with a checker on the bar, roll 42
    pos = parse_position(f.xgid)
    every = sorted(p.notation() for p in pos.rules.plays_for(pos.on_roll, pos.opponent, 4, 2))
    assert f.legal == every and len(every) == 8
    page = match_page(m, rep)
    assert "(5 of 8 legal plays: " + ", ".join(every[:5]) + ", ...)" in page
    one = next(f for f in rep.findings if f.line == 51)
    assert one.legal == ["1/off(2)"] and "(legal: 1/off(2))" in page
