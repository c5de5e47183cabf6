"""Every drop announced: for every reader (``.xg``, SGF, ``.mat``, JSON) and every writer (``.mat``, SGF,
JSON, the text record, the page), on real files, what the written file lacks of the record (header
tags, comments on the match, a game or an action, each producer's analysis, properties, XG's thumbnail)
is exactly what the ``dropped:`` report says: the ``.mat``, SGF and JSON outputs are read back and
compared with the record, the text record and the page are searched for each item.  ``--strict``
refuses a conversion whose report is not empty, and writes nothing."""

from __future__ import annotations

import functools
import re
from collections import Counter
from html import escape
from pathlib import Path

import pytest
from conftest import CORPUS, DATA, sampled
from test_comments import commented_file
from test_xg_rollouts import rolled_out_file

import notation
from notation.convert import render_match
from notation.losses import THUMBNAIL, dropped, holdings
from notation.matchio import parse_any

Item = tuple[str, ...]


def _corpus(sub: str, pattern: str) -> list[Path]:
    d = CORPUS / sub
    return sorted(d.glob(pattern)) if d.is_dir() else []


SOURCES: list[Path | str] = [
    *sorted(DATA.glob("*.xg")), *sampled(_corpus("xg", "*.xg"), 2), "commented.xg", "rolled.xg", "commented.json",
    DATA / "sgf_gnubg_analysed.sgf", DATA / "sgf_gibbon_7point.sgf", DATA / "sgf_gnubg_setup.sgf",
    *sampled(_corpus("sgf", "*.sgf"), 2),
    DATA / "mat_xg_dialect.txt", DATA / "mat_galaxy_dialect.txt", DATA / "mat_bgstudio_latin1.txt",
    *sampled(_corpus("mat/xg", "*.txt")[:4], 2), *sampled(_corpus("mat", "xg_*")[:3], 2),
]
"""Every reader, on our own files and a sample of the corpus's (half of each kind; all with
GAMMON_FULL_CORPUS=1)."""


def read(source: Path | str) -> notation.Match:
    if source == "commented.xg":
        data = commented_file()[0]
    elif source == "rolled.xg":
        data = rolled_out_file()[0]
    elif source == "commented.json":
        (m,) = parse_any(commented_file()[0], name="c.xg")
        data = render_match(m, "json")[0].encode("utf-8")
    else:
        data = Path(source).read_bytes()
    (m, *_) = parse_any(data, name=str(source))
    return m


pytestmark = pytest.mark.xdist_group("written")  # one worker: this file and test_header_tags.py share written()


@functools.cache
def written(source: Path | str, fmt: str) -> tuple[str, list[str]]:
    """What the writer of ``fmt`` writes of ``source``'s record (:func:`read`) and its report (the page's: what
    it lacks of what it was given), made once a worker: the tests here and in ``test_header_tags.py`` read the
    same outputs.  (Only the outputs are shared: each test reads its own record.)"""
    m = read(source)
    if fmt == "html":
        from render.html import match_page

        shown: Counter[Item] = Counter()
        page = match_page(m, written=shown)
        return page, dropped(m, shown, "html")
    return render_match(m, fmt)  # type: ignore[arg-type]


def _norm(text: str) -> str:
    return " ".join(text.split())


def reported(lines: list[str]) -> set[Item]:
    """The kinds of item a report says are lost (its lines about what is held, not about rewrites)."""
    out: set[Item] = set()
    for line in lines:
        if m := re.match(r"header tags \((.*?)\): ", line):
            out |= {("tag", n) for n in m.group(1).split(", ")}
        elif m := re.match(r"\d+ (move |game )?comments?: ", line):
            out.add(("comment", {"move ": "action", "game ": "game", None: "match"}[m.group(1)]))
        elif m := re.match(r"the analysis by (.*?) \(", line):
            out.add(("analysis", m.group(1)))
        elif m := re.match(r"(match|game|action) properties (.*?): ", line):
            out |= {("property", m.group(1), re.sub(r" \(\d+\)$", "", n)) for n in m.group(2).split(", ")}
        elif line.startswith("XG's thumbnail"):
            out.add(("thumbnail",))
    return out


def _items(m: notation.Match) -> Counter[Item]:
    return holdings(m)


def lacks_read_back(m: notation.Match, back: notation.Match) -> set[Item]:
    """What ``back`` (the written file, read) lacks of ``m``."""
    out: set[Item] = set()
    names = {k for k, _ in back.tags}
    out |= {("tag", k) for k, _ in m.tags if k not in names}
    if _norm("\n".join(m.comments)) not in _norm("\n".join(back.comments)):
        out.add(("comment", "match"))
    for gi, g in enumerate(m.games):
        there = _norm("\n".join(back.games[gi].comments)) if gi < len(back.games) else ""
        if _norm("\n".join(g.comments)) not in there:
            out.add(("comment", "game"))
    said = Counter((gi, a.move_number, a.player, _norm(a.comment or "")) for gi, g in enumerate(back.games)
                   for a in g.actions if a.comment)
    for gi, g in enumerate(m.games):
        for a in g.actions:
            if a.comment:
                key = (gi, a.move_number, a.player, _norm(a.comment))
                if said[key]:
                    said[key] -= 1
                else:
                    out.add(("comment", "action"))
    ours, theirs = _items(m), _items(back)
    for k, n in ours.items():
        if k[0] == "analysis" and theirs[k] < n:
            out.add(("analysis", k[2]))
        elif k[0] in ("property", "thumbnail") and theirs[k] < n:
            out.add(k)
    if THUMBNAIL in m.properties and back.properties.get(THUMBNAIL) != m.properties[THUMBNAIL]:
        out.add(("thumbnail",))
    return out


def lacks_in_text(m: notation.Match, text: str, page: bool) -> set[Item]:
    """What the text record or the page lacks of ``m``, found by searching it for each item."""
    out: set[Item] = set()
    e = escape if page else (lambda s: s)
    for k, v in m.tags:
        shown = f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" if page else f"{k}: {v}\n"
        if shown not in text:
            out.add(("tag", k))

    def has(comment: str) -> bool:
        return all(e(line) in text for line in comment.split("\n"))

    if not all(has(c) for c in m.comments):
        out.add(("comment", "match"))
    if not all(has(c) for g in m.games for c in g.comments):
        out.add(("comment", "game"))
    if not all(has(a.comment) for g in m.games for a in g.actions if a.comment):
        out.add(("comment", "action"))
    for k in _items(m):
        if k[0] == "analysis":
            if not page or (k[1] == "rollout" and "rollout: " not in text) or "class=an" not in text:
                out.add(("analysis", k[2]))
        elif k[0] in ("property", "thumbnail"):
            out.add(k)  # neither shows them
    return out


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json", "txt", "html"])
@pytest.mark.parametrize("source", SOURCES, ids=lambda s: Path(s).name)
def test_what_the_written_file_lacks_is_what_the_report_says(source: Path | str, fmt: str) -> None:
    m = read(source)
    text, report = written(source, fmt)
    if fmt == "html":
        lacks = lacks_in_text(m, text, page=True)
    else:
        if fmt == "txt":
            lacks = lacks_in_text(m, text, page=False)
        else:
            (back, *_) = parse_any(text.encode("utf-8"), name=f"out.{fmt}")
            lacks = lacks_read_back(m, back)
    assert reported(report) == lacks, (report, lacks)
    if fmt == "json":
        assert report == []


def test_every_kind_is_met() -> None:
    """The sources above hold every kind of item some writer drops (the test can fail)."""
    kinds: set[tuple[str, str]] = set()
    for s in SOURCES:
        if isinstance(s, Path) and not s.exists():
            continue
        kinds |= {(k[0], k[1] if len(k) > 1 else "") for k in holdings(read(s))}
    assert {("comment", "match"), ("comment", "game"), ("comment", "action"), ("analysis", "checker"),
            ("analysis", "cube"), ("analysis", "luck"), ("analysis", "rollout"), ("property", "game"),
            ("property", "action"), ("thumbnail", "")} <= kinds, kinds


def _cli(*args: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from notation.cli import main

    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stderr


def test_strict_refuses_any_drop_and_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "c.xg"
    src.write_bytes(commented_file()[0])
    for fmt in ("mat", "sgf", "txt", "html"):
        out = tmp_path / f"c.{fmt}"
        code, err = _cli("convert", "--strict", str(src), str(out))
        assert code == 1 and not out.exists(), (fmt, err)
        assert "error: XG's thumbnail" in err, err
        assert ("error: the analysis by eXtreme Gammon" in err) == (fmt != "html"), err  # the page shows it
    code, err = _cli("convert", "--strict", str(src), str(tmp_path / "c.json"))
    assert code == 0 and (tmp_path / "c.json").exists() and "error" not in err
    # a gnubg SGF to SGF holds everything: --strict writes it (the private XT/XR are notes, not drops)
    code, err = _cli("convert", "--strict", str(DATA / "sgf_gnubg_analysed.sgf"), str(tmp_path / "g.sgf"))
    assert code == 0 and (tmp_path / "g.sgf").exists(), err


def test_drop_messages_say_the_truth() -> None:
    """Issue 27: no garbled "move (move 29)", and no drop of a spelling the source never had (an .xg
    spells no play: the bar as 25 and off as 0, as XG's own .mat export writes them)."""
    path = DATA / "xg_hsbt-paris-2023_job-unger.xg"
    m = notation.read_match(path)
    _, report = render_match(m, "mat")
    assert not [d for d in report if "spell" in d], report
    assert any("25/" in (a.play or "") for g in m.games for a in g.actions)
    _, sgf_report = render_match(notation.read_match(DATA / "mat_xg_dialect.txt"), "sgf")
    assert not [d for d in sgf_report if re.search(r"\(move \d+\)", d)], sgf_report
    assert "game 3, move 2, the roll: a roll without dice cannot be written; dropped" in sgf_report
