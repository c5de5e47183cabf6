"""Problem sets (``gammon problems``, :func:`render.problems.problems`): exactly the analysed decisions over
the threshold, each a question and an answer drawn from the record, written as diagrams, an index page,
problems.json, a PDF and an Anki CSV, the same bytes for the same input."""

from __future__ import annotations

import csv
import json
import re
import struct
import xml.dom.minidom
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, DATA

from notation.cli import main
from notation.decisions import decisions
from notation.matchio import read_match
from render.captions import book_caption
from render.problems import Problem, pdf, problems, write_problem_set

ANALYSED = sorted(CORPUS.glob("xg/*.xg")) + sorted(CORPUS.glob("sgf/gnubg_*.sgf"))
XG = DATA / "xg_ronde3.xg"


def _f32(x: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


def _checker_errors(match: object) -> list[tuple[int, int | None, float]]:
    """(game, move, error) of every checker play, from the ranked plays the record holds: the best's
    equity less the played one's (as single precision, as gnubg and XG hold them)."""
    out = []
    for g in match.games:  # type: ignore[attr-defined]
        for a in g.actions:
            an = a.analysis
            if a.kind != "move" or an is None or an.checker is None or an.checker.played is None:
                continue
            cands = an.checker.candidates
            best, made = cands[0].equity, cands[an.checker.played].equity
            if best is not None and made is not None:
                out.append((g.number, a.move_number, _f32(best) - _f32(made)))
    return out


def _xg_cube_errors(match: object) -> list[tuple[int, int | None, str, float]]:
    """(game, move, action, error) of every cube decision of an .xg record, from its three equities (money
    equivalents, from the doubler's side): a missed or wrong double against the best of no double and
    min(double/take, double/pass); a take costs double/take less double/pass, a pass the reverse."""
    out = []
    for g in match.games:  # type: ignore[attr-defined]
        last = None
        for a in g.actions:
            c = a.analysis.cube if a.analysis is not None else None
            if a.kind == "double":
                last = c
            if a.kind in ("take", "drop") and c is None:
                c = last
            if c is None or c.no_double is None or c.double_take is None:
                continue
            nd, dt, dp = _f32(c.no_double), _f32(c.double_take), _f32(c.double_pass if c.double_pass else 1.0)
            best = max(nd, min(dt, dp))
            if a.kind == "move":
                out.append((g.number, a.move_number, "no double", best - nd))
            elif a.kind == "double":
                out.append((g.number, a.move_number, "double", best - min(dt, dp)))
            elif a.kind == "take":
                out.append((g.number, a.move_number, "take", max(0.0, dt - dp)))
            elif a.kind == "drop":
                out.append((g.number, a.move_number, "pass", max(0.0, dp - dt)))
    return out


@pytest.mark.skipif(not ANALYSED, reason="the corpus (../shared/corpus) is not here")
@pytest.mark.parametrize("path", ANALYSED, ids=lambda p: p.name)
def test_the_problems_are_exactly_the_decisions_over_the_threshold(path: Path) -> None:
    match = read_match(path)
    ps = problems(match)
    checker = [(g, m) for g, m, e in _checker_errors(match) if e >= 0.08]
    assert [(p.decision.game, p.decision.move) for p in ps if p.kind == "checker"] == checker
    cube = [p for p in ps if p.kind == "cube"]
    if path.suffix == ".xg":  # equities in EMG: checked from the record's figures
        expected = [(g, m, act) for g, m, act, e in _xg_cube_errors(match) if e >= 0.08]
        assert [(p.decision.game, p.decision.move, p.decision.action) for p in cube] == expected
    else:  # gnubg stores match-winning chances: the decisions' normalisation (tested against gnubg) decides
        assert [p.decision for p in cube] == [d for d in decisions(match)
                                              if d.kind == "cube" and d.error is not None and d.error >= 0.08]
    assert [p.number for p in ps] == list(range(1, len(ps) + 1))
    assert all(p.error is not None and p.error >= 0.08 for p in ps)


@pytest.mark.skipif(not ANALYSED, reason="the corpus (../shared/corpus) is not here")
def test_twenty_captions_state_the_record() -> None:
    """Each caption states the score and length of the game's score line, Crawford or post-Crawford, the
    side on roll and the question of the decision's kind (a redouble's too), as the record gives them:
    every problem of every analysed file at 0.02 (they were the first twenty of one file)."""
    from types import SimpleNamespace

    from test_book_captions import _expected

    from notation.replay import replay_match

    checked: dict[str, int] = {}
    questions = set()
    for path in ANALYSED:
        match = read_match(path)
        rep = replay_match(match)
        for p in problems(rep, 0.02):
            d = p.decision
            game = match.games[d.game_index]
            act = d.source if d.action != "no double" else SimpleNamespace(kind="double", player=d.player)
            assert p.caption == _expected(match, game, SimpleNamespace(action=act), rep.crawford[d.game_index])
            checked[path.name] = checked.get(path.name, 0) + 1
            questions.update(w for w in ("to play", "Cube action?", " doubles.", "redoubles.", "Crawford game",
                                         "post-Crawford") if w in p.caption)
    assert sum(checked.values()) >= 20 and len(checked) >= 5, checked
    assert len(questions) == 6, questions  # every kind of question, and both Crawford captions


@pytest.fixture(scope="module")
def ronde3() -> list[Problem]:
    return problems(read_match(XG))


def test_solutions_draw_the_best_play_and_the_play_made(ronde3: list[Problem]) -> None:
    checker = [p for p in ronde3 if p.kind == "checker"]
    assert checker
    for p in checker:
        a = p.decision.source
        cands = a.analysis.checker.candidates  # type: ignore[union-attr]
        made = cands[a.analysis.checker.played]  # type: ignore[union-attr, index]
        opts = p.solution_options()
        assert opts["play"] == cands[0].play and opts["ghost_play"] == made.play
        desc = xml.dom.minidom.parseString(str(p.solution_svg()).encode()).getElementsByTagName("desc")[0]
        text = desc.firstChild.data  # type: ignore[union-attr]
        assert f"Arrows: {cands[0].play}." in text and f"Pale arrows: {made.play}." in text
        assert p.table[0][:3] == ("1.", cands[0].play, f"{cands[0].equity:+.3f}")
        assert any(row[1] == f"{made.play} (played)" for row in p.table)
        assert "Arrows" not in xml.dom.minidom.parseString(str(p.problem_svg()).encode()).getElementsByTagName(
            "desc")[0].firstChild.data  # type: ignore[union-attr]  # the problem gives no answer


def test_a_cube_solution_gives_the_equities_and_the_right_action(ronde3: list[Problem]) -> None:
    p = next(p for p in ronde3 if p.kind == "cube")
    eq = p.decision.equities
    assert eq is not None
    assert [r[2] for r in p.table] == [f"{eq.no_double:+.3f}", f"{eq.double_take:+.3f}", f"{eq.double_pass:+.3f}"]
    assert p.answer.startswith(f"Right action: {eq.best}. Played: {p.decision.action}, error ")
    assert p.caption == book_caption(p.position)


def test_options_filter_and_number_stably() -> None:
    match = read_match(XG)
    every = problems(match)
    assert [p.kind for p in problems(match, kind="cube")] == ["cube"] * sum(p.kind == "cube" for p in every)
    first = match.names[0]
    mine = problems(match, player=first)
    assert mine and all(p.decision.player == 0 for p in mine)
    assert [p.decision for p in problems(match, player="black")] == [p.decision for p in every
                                                                      if p.decision.player == 1]
    top = problems(match, limit=3)
    errors = sorted((p.error for p in every), reverse=True)[:3]  # type: ignore[arg-type]
    assert sorted((p.error for p in top), reverse=True) == errors  # type: ignore[arg-type]
    assert [p.number for p in top] == [1, 2, 3]
    order = [(p.decision.game, p.decision.move) for p in top]
    assert order == sorted(order)  # numbered in the order of play
    assert [p.decision for p in problems(match, limit=3)] == [p.decision for p in top]  # the same every run
    with pytest.raises(ValueError):
        problems(match, kind="resign")


def test_marked_decisions_are_the_marks_and_comments() -> None:
    """gnubg's marks (here four doubtful plays or doubles and a very bad play) select the decision of the
    action they are on: a move's its checker play, a double's the double."""
    match = read_match(DATA / "stats" / "galaxy_1093632.sgf")
    ps = problems(match, marked=True)
    marked = [(g.number, a.move_number, a.player, "play" if a.kind == "move" else a.kind)
              for g in match.games for a in g.actions
              if {"BM", "DO", "IT"} & set(a.properties) or (a.comment or "").strip()]
    assert len(marked) == 5
    assert [(p.decision.game, p.decision.move, p.decision.player, p.decision.action) for p in ps] == marked


def _pdf_pages(data: bytes) -> list[tuple[float, float]]:
    """The size of each page (points), read by Pillow's PDF parser (the PDF opens)."""
    from PIL import PdfParser

    doc = PdfParser.PdfParser(buf=data)
    return [(float(box[2]), float(box[3])) for box in (doc.read_indirect(ref)[b"MediaBox"] for ref in doc.pages)]


def test_pdf_pages_are_print_size(ronde3: list[Problem]) -> None:
    ps = ronde3[:2]
    data = pdf(ps, dpi=100)
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    pages = _pdf_pages(data)
    assert len(pages) == 2 * len(ps) + 1  # the index, the problems, the solutions
    mm = [(w / 72 * 25.4, h / 72 * 25.4) for w, h in pages]
    assert all(abs(w - 120) < 0.6 for w, _ in mm), mm  # the print size: 120 mm wide
    assert abs(mm[0][1] / mm[0][0] - 297 / 210) < 0.01  # the index: A4's proportions
    assert pdf(ps, dpi=100) == data  # no date: the same bytes


def test_a_long_pdf_is_written_a_group_of_pages_at_a_time(ronde3: list[Problem],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import render.problems

    monkeypatch.setattr(render.problems, "PDF_CHUNK", 3)
    pages = _pdf_pages(pdf(ronde3[:4], dpi=40, size="small"))
    assert len(pages) == 9


def test_the_set_is_written_and_the_same_bytes_twice(tmp_path: Path) -> None:
    runs = []
    for k in (1, 2):
        out = tmp_path / f"set{k}"
        r = CliRunner().invoke(main, ["problems", str(XG), "-o", str(out), "--pdf", "--dpi", "72", "--anki",
                                      str(out / "cards.csv"), "--size", "small"])
        assert r.exit_code == 0, r.output
        runs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert runs[0] == runs[1]
    files = runs[0]
    data = json.loads(files["problems.json"])
    assert data["count"] == len(data["problems"]) == 6
    first = data["problems"][0]
    assert set(first) >= {"files", "game", "move", "player", "kind", "error", "caption", "xgid"}
    assert first["xgid"].startswith("XGID=")
    assert first["files"] == {"problem": "problem-001.png", "solution": "solution-001.png"}
    assert all(name in files for p in data["problems"] for name in p["files"].values())
    assert len(_pdf_pages(files["problems.pdf"])) == 2 * 6 + 1
    page = files["index.html"].decode()
    assert page.count('href="solution-') == 6 and "<script" not in page and "http" not in page


def test_anki_csv_reads_back(tmp_path: Path) -> None:
    """Anki's text import: file headers (#separator, #html, #columns, #tags column), then one note a row,
    fields quoted as CSV; the images it names are beside it, each the diagram of its problem."""
    ps = problems(read_match(XG))[:3]
    cards = tmp_path / "deck" / "cards.csv"
    write_problem_set(ps, tmp_path / "set", anki_path=str(cards), options={"size": "small"})
    lines = cards.read_text(encoding="utf-8").splitlines()
    headers = [x for x in lines if x.startswith("#")]
    assert headers == ["#separator:Comma", "#html:true", "#columns:Front,Back,Tags", "#tags column:3"]
    rows = list(csv.reader(x for x in lines if not x.startswith("#")))
    assert len(rows) == 3 and all(len(r) == 3 for r in rows)
    for p, (front, back, tags) in zip(ps, rows, strict=True):
        image = re.fullmatch(r'<img src="([^"/]+)"><br>(.*)', front)
        answer = re.fullmatch(r'<img src="([^"/]+)"><br>(.*)', back)
        assert image and answer and image.group(2) == p.caption.replace("&", "&amp;")
        drawn = tmp_path / "set"
        assert (cards.parent / image.group(1)).read_bytes() == (drawn / f"problem-{p.number:03d}.png").read_bytes()
        assert (cards.parent / answer.group(1)).read_bytes() == (drawn / f"solution-{p.number:03d}.png").read_bytes()
        assert tags == f"backgammon {p.kind}"


def test_anki_images_of_two_sets_do_not_take_each_others_place(tmp_path: Path) -> None:
    """Anki keeps every deck's images in one folder without subfolders (collection.media): two sets' cards
    name different files for different images (both sets had problem-001.png), the same file for the same
    image; a set written again is the same files."""
    every = problems(read_match(XG), options={"size": "small"})
    media = tmp_path / "media"
    first, second = every[:2], [replace(p, number=k) for k, p in enumerate(every[2:4], 1)]

    def names(ps: list[Problem], k: int) -> list[str]:
        write_problem_set(ps, tmp_path / f"set{k}", anki_path=str(media / f"cards{k}.csv"))
        text = (media / f"cards{k}.csv").read_text(encoding="utf-8")
        return re.findall(r'<img src=""([^"]+)"">', text)

    one, two = names(first, 1), names(second, 2)
    assert len(set(one + two)) == 8
    for ps, k, named in ((first, 1, one), (second, 2, two)):
        for p, problem in zip(ps, named[::2], strict=True):
            drawn = tmp_path / f"set{k}" / f"problem-{p.number:03d}.png"
            assert (media / problem).read_bytes() == drawn.read_bytes()
    assert names(first, 3) == one  # again, elsewhere: the same names, the files left as they are


def test_bad_input_and_existing_files_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text("this is not a match\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["problems", str(bad), "-o", str(tmp_path / "o")])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.output
    out = tmp_path / "set"
    assert CliRunner().invoke(main, ["problems", str(XG), "-o", str(out), "--size", "small",
                                     "--kind", "checker"]).exit_code == 0
    r = CliRunner().invoke(main, ["problems", str(XG), "-o", str(out), "--kind", "checker"])
    assert r.exit_code == 2 and "exists" in r.stderr and r.stderr.count("\n") == 1
    r = CliRunner().invoke(main, ["problems", str(XG), "-o", str(XG)])
    assert r.exit_code == 2 and "directory" in r.stderr


def test_a_problem_shows_itself_in_a_notebook(ronde3: list[Problem]) -> None:
    svg = ronde3[0]._repr_svg_()
    assert svg.startswith("<?xml") and "Problem 1" in svg
    assert len(repr(ronde3[0])) < 200


def test_the_pdf_index_is_paged_and_stays_on_its_pages(ronde3: list[Problem]) -> None:
    """An entry wraps to two lines or more; the index starts a page where the next entry does not fit
    (before, its last entries ran off the bottom of the page)."""
    from test_book_captions import _glyph_boxes

    from render.problems import INDEX_LINES, _index_drawings

    many = [replace(p, number=k) for k, p in enumerate(ronde3 * 10, 1)]
    pages = _index_drawings(many, 700, 100)
    assert len(pages) >= 2 and len(pages) >= 2 * len(many) / INDEX_LINES
    for d in pages:
        boxes = _glyph_boxes(d.root)
        assert boxes and max(b[4] for b in boxes) <= d.height and max(b[3] for b in boxes) <= d.width


def _flagged_xg() -> tuple[bytes, dict[str, int]]:
    """tests/data/xg_ronde3.xg with eXtreme Gammon's flags set (no real file has one): on an analysed play,
    on a double, and on a decision not to double (XG keeps that one on a cube record of its own)."""
    from xg_container import container, records

    from notation.formats.xg import CUBE, MOVE

    recs = [bytearray(r) for r in records(XG.read_bytes())]
    move = next(i for i, r in enumerate(recs) if i > 10 and r[8] == MOVE)
    double = next(i for i, r in enumerate(recs) if r[8] == CUBE and struct.unpack_from("<i", r, 16)[0] == 1)
    nodouble = next(i for i, r in enumerate(recs) if i > move + 2 and r[8] == CUBE
                    and struct.unpack_from("<i", r, 16)[0] == 0 and recs[i + 1][8] == MOVE)
    recs[move][2520] = recs[double][288] = recs[nodouble][288] = 1
    return container(b"".join(recs)), {"move": move, "double": double, "nodouble": nodouble}


def test_xg_flags_are_marks(tmp_path: Path) -> None:
    from notation.formats.xg import read_xg

    data, at = _flagged_xg()
    try:  # the offsets, as xgdatatools reads the records
        from ankigammon.thirdparty.xgdatatools import xgimport, xgstruct  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:
        path = tmp_path / "f.xg"
        path.write_bytes(data)
        flagged = set()
        for seg in xgimport.Import(str(path)).getfilesegment():
            if seg.type == xgimport.Import.Segment.XG_GAMEFILE:
                seg.fd.seek(0)
                version, k = -1, 0
                while (r := xgstruct.GameFileRecord(version=version).fromstream(seg.fd)) is not None:
                    if isinstance(r, xgstruct.HeaderMatchEntry):
                        version = r.Version
                    if (isinstance(r, xgstruct.MoveEntry) and r.Flagged) or \
                            (isinstance(r, xgstruct.CubeEntry) and r.FlaggedDouble):
                        flagged.add(k)
                    k += 1
        assert flagged == set(at.values())
    (m,) = read_xg(data, name="f.xg")
    got = [(p.decision.source.span.line - 1, p.decision.action) for p in problems(m, marked=True)]  # type: ignore[union-attr]
    assert got == sorted([(at["double"], "double"), (at["nodouble"] + 1, "no double"), (at["move"], "play")])


def test_the_command_line_filters(tmp_path: Path) -> None:
    match = read_match(XG)
    every = problems(match)
    out = tmp_path / "s"
    r = CliRunner().invoke(main, ["problems", str(XG), "-o", str(out), "--size", "small", "--player", "white",
                                  "--kind", "cube", "--limit", "2", "--min-error", "0.1"])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "problems.json").read_text(encoding="utf-8"))
    want = sorted((p for p in every if p.kind == "cube" and p.decision.player == 0 and p.error >= 0.1),  # type: ignore[operator]
                  key=lambda p: -p.error)[:2]  # type: ignore[operator]
    assert sorted((p["game"], p["move"]) for p in data["problems"]) == sorted(
        (p.decision.game, p.decision.move) for p in want)
    assert want and r.stderr.startswith(f"{len(want)} problem")


def test_a_record_without_analysis_is_said(tmp_path: Path) -> None:
    """A record without analysis has no errors: one line saying so and nothing written (it was an empty set
    and exit status 0); beside an analysed one, a warning."""
    bare = DATA / "mat_gnubg_selfplay_1p.mat"
    out = tmp_path / "set"
    r = CliRunner().invoke(main, ["problems", str(bare), "-o", str(out)])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert "holds no analysis" in r.stderr and str(bare) in r.stderr and not out.exists()
    r = CliRunner().invoke(main, ["problems", str(bare), str(XG), "-o", str(out), "--size", "small", "--kind", "cube"])
    assert r.exit_code == 0, r.output
    assert f"warning: {bare}: the record holds no analysis" in r.stderr
    assert json.loads((out / "problems.json").read_text(encoding="utf-8"))["count"] > 0


def test_a_player_is_named_as_a_person_would_type_it() -> None:
    """--player compares names without case, accents or extra spaces (composed or decomposed); a name that
    plays in none of the records is an error naming the players (it was an empty set)."""
    import unicodedata

    match = read_match(XG)
    name = match.names[0]
    assert name == "Kévin UNGER Nicolas HARMAND"
    want = [p.decision for p in problems(match, player=name)]
    assert want
    for typed in ("kevin unger nicolas harmand", unicodedata.normalize("NFD", name), "  KÉVIN  UNGER Nicolas Harmand"):
        assert [p.decision for p in problems(match, player=typed)] == want, typed
    with pytest.raises(ValueError, match="Johan HUYCK Michael LARSEN"):
        problems(match, player="nobody")
    r = CliRunner().invoke(main, ["problems", str(XG), "-o", "unused", "--player", "nobody"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "Kévin UNGER" in r.stderr, r.output


def test_the_answers_and_the_index_are_in_the_words_table(ronde3: list[Problem],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Every word of an answer and of the index's entries comes from render.captions.WORDS (the cube actions
    were notation's English: 'Right action: double, take. Played: no double'); a redouble is said so."""
    from render.captions import WORDS
    from render.problems import index_page

    for k, v in list(WORDS.items()):
        monkeypatch.setitem(WORDS, k, re.sub(r"(?<!\{)\b[a-zA-Z]+\b(?!\})", lambda m: m.group().upper(), v))
    for p in ronde3:
        words = re.sub(r"\d+/\d+|\*", "", p.answer)  # the plays are notation, not words
        assert not re.search(r"[a-z]{2,}", words), p.answer
    page = index_page(ronde3)
    assert "CHECKER PLAY" in page and "CUBE DECISION" in page and ", cube<" not in page
    redoubled = [p for p in ronde3 if p.kind == "cube" and p.position.cube_owner is not None
                 and p.decision.action in ("double", "no double")]
    assert len(redoubled) == 2 and all("REDOUBLE" in p.answer for p in redoubled)


def test_the_pdf_index_names_the_record_of_each_entry_when_there_are_several(ronde3: list[Problem]) -> None:
    """Problems from several records: 'Game 2, move 3' alone did not say which match an entry is from."""
    from test_book_captions import _text

    from render.problems import _index_drawings

    if not (CORPUS / "xg" / "match_with_comment.xg").is_file():
        pytest.skip("the corpus (../shared/corpus) is not here")
    other = problems(read_match(CORPUS / "xg" / "match_with_comment.xg"), sources=["a/match_with_comment.xg"])
    one = "".join(_text(d.root) for d in _index_drawings(ronde3, 700, 100))
    assert "xg_ronde3" not in one
    both = [replace(p, number=k) for k, p in enumerate([*ronde3, *other[:2]], 1)]
    text = "".join(_text(d.root) for d in _index_drawings(both, 700, 100))
    assert text.count("xg_ronde3.xg,") == len(ronde3) and text.count("match_with_comment.xg,") == 2
    assert "a/match" not in text


def test_a_solution_keeps_the_best_play_when_the_play_made_cannot_be_drawn() -> None:
    """eXtreme Gammon records 14/11 8/5 played with 43 (game 7, move 14 of a corpus match): the solution
    lost the best play's arrows with the pale ones; now only the play made goes without them."""
    path = CORPUS / "xg" / "Squire-Jørgensen-Harmand-Unger_7_point_match_18-08-2024.xg"
    if not path.is_file():
        pytest.skip("the corpus (../shared/corpus) is not here")
    (p,) = [p for p in problems(read_match(path), 0.0) if (p.decision.game, p.decision.move, p.decision.player)
            == (7, 14, 1) and p.kind == "checker"]
    assert p.decision.dice == (4, 3) and p.decision.played == "14/11 8/5"
    desc = xml.dom.minidom.parseString(str(p.solution_svg()).encode()).getElementsByTagName("desc")[0]
    text = desc.firstChild.data  # type: ignore[union-attr]
    assert f"Arrows: {p.decision.best}." in text and "Pale arrows" not in text


def test_a_smaller_set_over_a_larger_one_says_what_is_left(tmp_path: Path) -> None:
    """--force over an earlier, larger set: its other diagrams stay, and the command says so (it said
    nothing, and the folder held diagrams its index does not list)."""
    out = tmp_path / "set"
    assert CliRunner().invoke(main, ["problems", str(XG), "-o", str(out), "--size", "small"]).exit_code == 0
    r = CliRunner().invoke(main, ["problems", str(XG), "-o", str(out), "--size", "small", "--limit", "2", "--force"])
    assert r.exit_code == 0, r.output
    assert "warning" in r.stderr and "8 diagrams of an earlier set" in r.stderr and "problem-003.png" in r.stderr
    r = CliRunner().invoke(main, ["problems", str(XG), "-o", str(tmp_path / "new"), "--size", "small"])
    assert "warning" not in r.stderr


def test_a_take_or_pass_is_answered_take_or_pass(ronde3: list[Problem]) -> None:
    """'Take or pass?' is answered 'pass' (it was the doubler's 'Right action: double, pass' or 'too good,
    pass' for the player who took)."""
    answers = [p for p in ronde3 if p.decision.action in ("take", "pass")]
    assert answers
    for p in answers:
        eq = p.decision.equities
        assert eq is not None
        right = "take" if eq.double_take <= eq.double_pass else "pass"
        assert p.caption.endswith("Take or pass?") and p.answer.startswith(f"Right action: {right}. Played: "), p.answer


def test_a_record_read_from_standard_input_is_called_stdin(tmp_path: Path) -> None:
    """`-` reads the record from standard input; the set calls it <stdin>, as the other commands do (it was
    '-: Game 2, move 5')."""
    out = tmp_path / "set"
    r = CliRunner().invoke(main, ["problems", "-", "-o", str(out), "--size", "small", "--kind", "cube"],
                           input=XG.read_bytes())
    assert r.exit_code == 0, r.output
    data = json.loads((out / "problems.json").read_text(encoding="utf-8"))
    assert data["count"] and {p["source"] for p in data["problems"]} == {"<stdin>"}
    assert "&lt;stdin&gt;: Game" in (out / "index.html").read_text(encoding="utf-8")


def test_a_comment_of_several_lines_keeps_its_lines_on_the_card(ronde3: list[Problem]) -> None:
    """Anki reads the fields as HTML, where a line break is a space: a comment's lines are <br>-separated
    (they ran together into one line)."""
    from copy import copy

    from render.problems import anki_csv

    action = copy(ronde3[0].decision.source)
    action.comment = "Hit or not?\nHitting is right: <b> is not bold"  # type: ignore[union-attr]
    p = replace(ronde3[0], decision=replace(ronde3[0].decision, source=action))
    rows = list(csv.reader(x for x in anki_csv([p]).splitlines(keepends=True) if not x.startswith("#")))
    assert rows[0][1].endswith("<br>Hit or not?<br>Hitting is right: &lt;b&gt; is not bold")
