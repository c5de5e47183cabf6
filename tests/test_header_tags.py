"""Header tags: every field of an ``.xg`` match header is kept as the tag XG's own ``.mat`` export names
it (the same tags, in the same order, as XG's export of the same match), and the tags of every reader
(XG, gnubg's SGF, ``.mat`` files from other producers) are written wherever the target can hold them:
``.mat`` tag lines, SGF properties (the private ``XT`` for those SGF has none for), JSON, the text
record and the page."""

from __future__ import annotations

from html import escape
from pathlib import Path

import pytest
from conftest import CORPUS, DATA, sampled_per_kind
from test_drops import read, written

import notation
from notation.convert import render_match
from notation.formats.sgf import read_sgf
from notation.matchio import parse_any

XG_EXPORTS = [
    (DATA / "xg_ronde3.xg", CORPUS / "mat" / "xg_aachen-2024_consultation_huyck-larsen_vs_unger-harmand.txt"),
    (DATA / "xg_hsbt-paris-2023_job-unger.xg", CORPUS / "mat" / "xg_hsbt-paris-2023_job-unger.mat"),
]


@pytest.mark.parametrize(("xg", "export"), XG_EXPORTS, ids=lambda p: p.name)
def test_xg_header_fields_are_the_tags_of_xgs_own_export(xg: Path, export: Path) -> None:
    if not export.exists():
        pytest.skip("../shared/corpus is not available")
    ours = notation.read_match(xg)
    theirs = notation.read_match(export)
    assert ours.tags == theirs.tags
    assert [k for k, _ in ours.tags] == ["Site", "Match ID", "Event", "Round", "Player 1", "Player 2", "Player 1 Elo",
                                         "Player 2 Elo", "EventDate", "EventTime", "Variation", "Unrated",
                                         "Crawford", "CubeLimit", "Transcriber"]
    assert ours.names == theirs.names and ours.rules == theirs.rules


def test_every_xg_file_has_its_header_fields() -> None:
    files = [*sorted(DATA.glob("*.xg")), *(sorted((CORPUS / "xg").glob("*.xg")) if (CORPUS / "xg").is_dir() else [])]
    for path in files:
        m = notation.read_match(path)
        tags = dict(m.tags)
        # the text fields (Site, Event, Round, Transcriber) are there when XG's are not empty
        assert {"Match ID", "Player 1", "Player 2", "Player 1 Elo", "Player 2 Elo", "EventDate", "EventTime",
                "Variation", "Unrated", "Crawford", "CubeLimit"} <= set(tags), path.name
        assert (tags["Player 2"], tags["Player 1"]) == m.names  # "Player 1" is the right column
        assert tags["Player 1 Elo"].endswith("/0") and tags["CubeLimit"] == "1024"


def _sources() -> list[Path]:
    out = [*sorted(DATA.glob("*.xg")), DATA / "sgf_gnubg_analysed.sgf", DATA / "mat_xg_dialect.txt",
           DATA / "mat_galaxy_dialect.txt", DATA / "mat_dailygammon_dialect.txt"]
    if (CORPUS / "mat").is_dir():
        out += sorted((CORPUS / "mat" / "xg").glob("*.txt"))[:3] + sorted((CORPUS / "mat" / "gammonsite").glob("*"))[:1]
    if (CORPUS / "sgf").is_dir():  # half of each kind (every program that wrote them; all with GAMMON_FULL_CORPUS=1)
        out += sampled_per_kind(sorted((CORPUS / "sgf").glob("*.sgf")), 2)
    return out


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.name)
@pytest.mark.xdist_group("written")  # on the worker that writes test_drops.py's outputs: written() makes each once
def test_tags_are_written_wherever_the_target_holds_them(path: Path) -> None:
    m = read(path)
    if not m.tags:
        pytest.skip("no tags")
    for fmt in ("mat", "sgf", "json"):
        text, dropped = written(path, fmt)
        assert not [d for d in dropped if d.startswith("header tags")], (fmt, dropped)
        (back, *_) = parse_any(text.encode("utf-8"), name=f"x.{fmt}")
        assert {k for k, _ in back.tags} >= {k for k, _ in m.tags}, fmt
        if fmt != "mat":  # .mat writes a tag on one line (a line break in a value is said)
            assert all(t in back.tags for t in m.tags), fmt
    text, dropped = written(path, "txt")
    assert all(f"{k}: {v}\n" in text for k, v in m.tags) and not [d for d in dropped if "tags" in d]
    page, _ = written(path, "html")
    assert all(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" in page for k, v in m.tags)


def test_gnubg_sgf_root_properties_round_trip() -> None:
    """gnubg's root properties (its statistics GS, ...) come back; AP names the program that wrote the
    file, so it is ours."""
    m = read_sgf(DATA / "sgf_gnubg_analysed.sgf")
    text, dropped = render_match(m, "sgf")
    back = read_sgf(text)
    assert back.tags == m.tags and not dropped
    for g, h in zip(m.games, back.games, strict=True):
        assert set(h.properties) == set(g.properties)
        assert {k: v for k, v in h.properties.items() if k != "AP"} == {k: v for k, v in g.properties.items()
                                                                          if k != "AP"}


@pytest.mark.parametrize("value", ["²", "3²", "9" * 5000, "99999999999999999999", "abc", "-1", ""])
@pytest.mark.parametrize("tag", ["AutoDoubles", "CubeLimit"])
def test_a_rule_tag_that_is_no_number_is_ignored_and_said_not_an_error(tag: str, value: str) -> None:
    """A rule tag holds a number of at most 9 ASCII digits: a digit ``isdigit`` takes and ``int`` does not (``²``)
    refused the whole ``.mat`` file with ``int``'s message, and an ``AutoDoubles`` tag of 5,000 digits in a record
    read from JSON was an internal error of the replay (and of every writer that replays).  Each is now ignored,
    as the ``.mat`` reader ignores a tag that is no number, and the reader says so."""
    from notation.formats.json_format import from_json, to_json
    from notation.replay import replay_match

    text = (Path(__file__).resolve().parents[1] / "samples" / "illegal_plays.mat").read_text()
    m = parse_any(f'; [{tag} "{value}"]\n{text}')[0]
    assert m.rules.auto_doubles == 0 and m.rules.cube_limit is None
    assert any(f"[{tag} " in n.message and "ignored" in n.message for n in m.normalisations)
    m = from_json(to_json(m))
    replay_match(m)
    for fmt in ("mat", "sgf", "txt", "ogxm"):
        render_match(m, fmt)
