"""The match equity tables OGXM's analysis is converted through: as GNU Backgammon ships them, and, for a
block that names no table, the same normalisation frames as the reference codec."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from notation.met import KAZAROSS_XG2, REFERENCE, ROCKWELL_KAZAROSS, Met, frame, met_named

GNUBG_METS = [Path("/usr/share/gnubg/met"), *Path("/").glob("work/*/.venv/lib/python3*/site-packages/gnubg/data/met")]


def _xml(name: str) -> str:
    for d in GNUBG_METS:
        p = d / f"{name}.xml"
        if p.exists():
            return p.read_text(encoding="utf-8")
    pytest.skip("GNU Backgammon's match equity tables are not installed")


@pytest.mark.parametrize(("met", "file"), [(KAZAROSS_XG2, "Kazaross-XG2"), (ROCKWELL_KAZAROSS, "Rockwell-Kazaross")])
def test_the_tables_are_gnubg_s(met: Met, file: str) -> None:
    xml = _xml(file)
    pre = xml.split("<pre-crawford-table")[1].split("</pre-crawford-table>")[0]
    rows = [[float(v) for v in re.findall(r"<me>\s*([^<\s]+)\s*</me>", r)] for r in pre.split("<row>")[1:]]
    post = xml.split("<post-crawford-table")[1].split("</post-crawford-table>")[0]
    assert [list(r) for r in met.pre] == rows
    assert list(met.post) == [float(v) for v in re.findall(r"<me>\s*([^<\s]+)\s*</me>", post)]


def test_frames() -> None:
    assert met_named("kazaross-xg2") is KAZAROSS_XG2 and met_named(None) is REFERENCE
    mid, half = frame(KAZAROSS_XG2, 7, 7, 1)  # type: ignore[misc]
    assert (round(mid, 6), round(mid + half, 5)) == (0.5, 0.56261)  # winning a point at 7-away all
    assert frame(KAZAROSS_XG2, 0, 3, 1) is None and frame(KAZAROSS_XG2, 3, 0, 2) is None
    mid, half = frame(KAZAROSS_XG2, 1, 4, 1, crawford=True)  # type: ignore[misc]
    assert round(mid + half, 6) == 1.0  # the leader wins the match by winning the Crawford game


def test_the_reference_codec_normalises_through_the_same_frames(corpus: Path) -> None:
    """The reference codec's ``emg_anchors`` (the chances after losing and after winning the game at the
    ply's cube) are our frames of :data:`REFERENCE` (Rockwell-Kazaross before the Crawford game,
    Kazaross-XG2 after), for every analysed ply of our OGXM of the corpus's analysed matches."""
    ogxm = pytest.importorskip("ogxm")
    from notation.formats.ogxm import write_ogxm
    from notation.matchio import read_match

    checked = 0
    for path in sorted(corpus.glob("xg/*.xg")):
        doc = ogxm.binary_to_json(write_ogxm(read_match(path))[0])
        length = doc["match_length"]
        for g in doc["games"]:
            for ply in g["plies"]:
                anchors = (ply.get("analysis") or {}).get("emg_anchors")
                if not anchors or ply["action_id"] > 21:
                    continue
                f = ply["ogid_before"].split(":")
                cube = 1 << int(f[2][1:-1])
                crawford = f[8].endswith("C")
                white = ply["color"] == 1  # the decider: the player of a roll or a double
                mine, theirs = (int(f[6]), int(f[7])) if white else (int(f[7]), int(f[6]))
                mid, half = frame(REFERENCE, length - mine, length - theirs, cube, crawford)  # type: ignore[misc]
                assert anchors == pytest.approx([round(mid - half, 6), round(mid + half, 6)], abs=2e-6), path.name
                checked += 1
    assert checked > 1000
