"""The round-trip matrix (issue 35): every reader (``.xg``, ``.mat``, SGF, JSON, OGXM, ``.ogxms``) into
every writer (``.mat``, SGF, JSON, OGXM, the text record, the page), on real files: the conversion is made
with the library (:func:`notation.batch.convert_file`, what ``gammon convert`` runs), the written file is
read back and compared with its source field by field (:mod:`round_trip_facts`), and every difference must
be said by one of the conversion's ``dropped:`` lines about that aspect; ``--strict`` must refuse exactly
the conversions that say a drop.  The text record and the page cannot be read back: what the source holds
(names, ratings, header tags, comments) must appear in them or be said.

By default the sources are a small sample of the corpus (``../shared``, skipped cleanly without it) and
a few files of tests/data; ``GAMMON_FULL_CORPUS=1`` takes every file of the corpus.  A place still known to
fail is marked, with the issue item that fixes it, in :data:`KNOWN` (strict: it turns red once fixed, to be
unmarked)."""

from __future__ import annotations

import functools
import re
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, DATA, FULL, sampled, sampled_per_kind
from round_trip_facts import differences, facts

import notation
from notation.batch import convert_file
from notation.matchio import parse_any

WRITERS = ("mat", "sgf", "json", "ogxm", "txt", "html")
READABLE = ("mat", "sgf", "json", "ogxm")
READERS = ("xg", "mat", "sgf", "json", "ogxm", "ogxms")

ASPECTS: dict[str, tuple[str, ...]] = {
    # aspect: the dropped: lines that say a difference of it (regular expressions, searched)
    "matches": (r"matches",),
    "length": (r"match length",),
    "names": (r"\bnames?\b",),
    "rules": (r"the rules", r"Crawford rule", r"cube limit", r"automatic doubles", r"\bvariant\b", r"Jacoby",
              r"beaver"),
    "tags": (r"header tags?", r"\btag\b"),
    "comments": (r"comments?\b",),
    "games": (r"\bgames?\b.*(not written|dropped)",),
    "score": (r"\bscores?\b",),
    "ratings": (r"ratings?\b",),
    "crawford": (r"Crawford",),
    "setup": (r"set-up|setup|position",),
    "dice": (r"dice|die\b|rolls?\b",),
    "plays": (r"\bplays?\b", r"rolls? after which"),
    "actions": (r"\broll\b|rolls? after which|resigned without moving|\bdoubles?\b|\btakes?\b|\bdrops?\b|Losses|"
                r"beaver|raccoon|\bwins?\b|\bresult",),
    "resign": (r"resign", r"concede"),
    "result": (r"result|\bwins?\b|points?\b",),
    "numbering": (r"move numbers?|numbered|\brows?\b", r"rolls? after which", r"read back as a roll"),
    "analysis": (r"analysis", r"rollouts?\b", r"luck", r"cube decisions?"),
    "cube_figures": (r"cubeless", r"double/take-line", r"\d+ cube (decisions?|analys[ie]s)\b"),
    "properties": (r"properties", r"property"),
    "thumbnail": (r"thumbnail",),
    "findings": (r"\billegal\b", r"\berrors?\b", r"\breplay\b"),
}
"""Every aspect compared (:func:`round_trip_facts.facts`), and the words of a ``dropped:`` line about it."""

TEXT_ASPECTS = ("names", "ratings", "tags", "comments")
"""What the text record and the page are searched for."""


# --------------------------------------------------------------------------------------------- the sources

def _corpus(sub: str, pattern: str) -> list[Path]:
    d = CORPUS / sub
    return sorted(p for p in d.rglob(pattern) if p.is_file()) if d.is_dir() else []


@functools.cache
def _made() -> Path:
    """A folder for the sources made here (JSON, OGXM and ``.ogxms`` written from real files)."""
    return Path(tempfile.mkdtemp(prefix="gammon-matrix-"))


def _write(base: Path, fmt: str, name: str) -> Path | None:
    if not base.exists():
        return None
    r = convert_file(str(base), "-", fmt, quiet=True)
    if r["status"] != 0:
        return None
    out = _made() / f"{name}.{fmt}"
    data = r["text"]
    out.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return out


def _stream(bases: list[Path], name: str) -> Path | None:
    from notation.formats.ogxm import write_ogxms

    bases = [b for b in bases if b.exists()]
    if len(bases) < 2:
        return None
    data, _ = write_ogxms([notation.read_match(b) for b in bases])
    out = _made() / f"{name}.ogxms"
    out.write_bytes(data)
    return out


TINY_MAT = DATA / "mat_fibs_ratings_4games.txt"
TINY_XG = DATA / "xg_ronde3.xg"
TINY_SGF = DATA / "sgf_gnubg_resign.sgf"


@functools.cache
def sources(reader: str) -> tuple[Path, ...]:
    """The files read by ``reader``: a few of tests/data (always there) and a sample of the corpus (all of
    it with GAMMON_FULL_CORPUS=1)."""
    xgs = [TINY_XG, *sampled(_corpus("xg", "*.xg"), 7)]
    mats = [TINY_MAT, DATA / "mat_galaxy_dialect.txt", DATA / "mat_xg_dialect.txt",
            *sampled_per_kind(_corpus("mat", "*"), 1 if FULL else 1000)]
    sgfs = [TINY_SGF, DATA / "sgf_gibbon_7point.sgf", *sampled(_corpus("sgf", "*.sgf"), 3)]
    found: list[Path | None]
    if reader == "xg":
        found = list(xgs)
    elif reader == "mat":
        found = list(mats)
    elif reader == "sgf":
        found = list(sgfs)
    elif reader == "json":
        found = [_write(TINY_MAT, "json", "tiny_mat"), _write(TINY_XG, "json", "tiny_xg"),
                 *[_write(p, "json", f"c{i}") for i, p in enumerate(xgs[1:] + mats[3:] if FULL else [])]]
    elif reader == "ogxm":
        found = [DATA / "ogxm_gammonview_charlot_7p.ogxm", _write(TINY_MAT, "ogxm", "tiny_mat"),
                 _write(TINY_XG, "ogxm", "tiny_xg"),
                 *[_write(p, "ogxm", f"c{i}") for i, p in enumerate(xgs[1:] + mats[3:] if FULL else [])]]
    else:
        found = [_stream([TINY_MAT, DATA / "mat_galaxy_dialect.txt", DATA / "ogxm_gammonview_charlot_7p.ogxm"],
                         "tiny")]
    return tuple(p for p in found if p is not None and p.exists())


# --------------------------------------------------------------------------------------------- converting

@dataclass
class Converted:
    drops: list[str]
    """The conversion's ``dropped:`` lines (what follows ``dropped: ``)."""
    back: dict[str, Any] | None
    """The facts of the written file read back (None for the text record and the page)."""
    text: str | None
    """The text record or the page."""
    refused: bool = False
    """Refused whole (issue 35 item 1: a stream of several matches into one file of a one-match format)."""


def _page(match: notation.Match, rep: Any, written: Any) -> str:
    from render.html import match_page

    return match_page(match, rep, written=written)


@functools.cache
def source_facts(src: Path) -> tuple[dict[str, Any], int, notation.Match]:
    """The facts of the first match of ``src``, how many matches it holds, and that match."""
    matches = parse_any(src.read_bytes(), name=str(src))
    return facts(matches[0]), len(matches), matches[0]


@functools.cache
def converted(src: Path, fmt: str) -> Converted:
    page: Callable[..., str] | None = _page if fmt == "html" else None
    r = convert_file(str(src), "-", fmt, page=page)
    if r["status"] == 2 and source_facts(src)[1] > 1:  # a stream into one file of a one-match format: refused
        assert any("holds" in line and "not converted" in line for line in r["messages"]), r["messages"]
        return Converted([], None, None, refused=True)
    assert r["status"] == 0, r["messages"]
    drops = [m.split(": dropped: ", 1)[1] for m in r["messages"] if ": dropped: " in m]
    text = r["text"]
    back = None
    if fmt in READABLE:
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        matches = parse_any(data, name=f"out.{fmt}")
        back = facts(matches[0])
        back["matches"] = Counter([len(matches)])
        text = None
    return Converted(drops, back, text)


def strict_status(src: Path, fmt: str) -> int:
    """The status of the conversion with ``--strict``."""
    return convert_file(str(src), "-", fmt, page=_page if fmt == "html" else None, strict=True, quiet=True)["status"]


def announced(aspect: str, drops: list[str]) -> bool:
    return any(re.search(rx, d, re.I) for rx in ASPECTS[aspect] for d in drops)


def _in_text(aspect: str, m: notation.Match, text: str, page: bool) -> list[str]:
    """What of ``aspect`` the text record or the page lacks of ``m``."""
    e = escape if page else (lambda s: s)
    missing: list[str] = []
    if aspect == "names":
        missing += [n for n in m.names if n and e(n) not in text]
    elif aspect == "ratings":
        missing += [f"game {gi + 1} rating {r}" for gi, g in enumerate(m.games) for r in (g.ratings or ())
                    if r and not re.search(rf"\b{re.escape(e(r))}\b", text)]
    elif aspect == "tags":
        missing += [f"tag {k}" for k, v in m.tags if v and e(v) not in text]
    elif aspect == "comments":
        comments = [*m.comments, *(c for g in m.games for c in g.comments),
                    *(a.comment for g in m.games for a in g.actions if a.comment)]
        missing += [c for c in comments for line in c.split("\n") if line.strip() and e(line) not in text]
    return missing


# --------------------------------------------------------------------------------------------- known places

KNOWN: dict[tuple[str, str, str], str] = {}
"""(reader, writer, aspect): the issue item that still fails there (xfail, strict)."""


def _params() -> list[Any]:
    out = []
    for reader in READERS:
        for writer in WRITERS:
            for aspect in (ASPECTS if writer in READABLE else TEXT_ASPECTS):
                item = KNOWN.get((reader, writer, aspect))
                marks = [pytest.mark.xfail(strict=True, reason=item)] if item else []
                out.append(pytest.param(reader, writer, aspect, marks=marks, id=f"{reader}-{writer}-{aspect}"))
    return out


PAGES = 2
"""How many sources of each reader are made into a page (a board drawn for every step takes a while)."""


def _sources(reader: str, writer: str) -> tuple[Path, ...]:
    found = sources(reader)
    if not found:
        pytest.skip(f"no {reader} source here")
    return found[:PAGES] if writer == "html" else found


@pytest.mark.parametrize(("reader", "writer", "aspect"), _params())
def test_every_difference_is_said(reader: str, writer: str, aspect: str) -> None:
    failures = []
    for src in _sources(reader, writer):
        source, n_matches, m = source_facts(src)
        c = converted(src, writer)
        if c.refused:
            continue
        if c.back is not None:
            source = {**source, "matches": Counter([n_matches])}
            d = differences(source, c.back, [aspect])
            if d and not announced(aspect, c.drops):
                lost, extra = d[aspect]
                failures.append(f"{src.name}: {aspect}: lost {list(lost)[:4]}, new {list(extra)[:4]}; "
                                f"said: {c.drops}")
        else:
            assert c.text is not None
            missing = _in_text(aspect, m, c.text, writer == "html")
            if missing and not announced(aspect, c.drops):
                failures.append(f"{src.name}: {aspect}: not shown {missing[:4]}; said: {c.drops}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("reader", READERS)
def test_strict_refuses_exactly_what_is_said(reader: str, writer: str) -> None:
    for src in _sources(reader, writer)[:1 if writer == "html" else None]:
        c = converted(src, writer)
        assert strict_status(src, writer) == (2 if c.refused else 1 if c.drops else 0), (src.name, c.drops)


def test_the_tiny_sources_are_always_here() -> None:
    """Every reader has a source without ../shared."""
    for reader in READERS:
        assert any(not str(p).startswith(str(CORPUS)) for p in sources(reader)), reader
