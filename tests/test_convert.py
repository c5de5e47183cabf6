"""`gammon convert`: round trips compared as data, refusals, atomic writes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import sampled_per_kind

from notation.cli import main
from notation.convert import atomic_write, render_match
from notation.formats.json_format import from_json
from notation.formats.mat import read_match
from notation.formats.sgf import read_sgf
from notation.replay import replay_match

DATA = Path(__file__).resolve().parent / "data"
ROOT = DATA.parents[1]
MAT = DATA / "gnubg_7p_crawford.mat"


def invoke(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["convert", *args])
    return r.exit_code, r.stdout, r.stderr


def shape(match):  # type: ignore[no-untyped-def]
    """What must survive any conversion: games, actions (as replayed), results, names and length."""
    rep = replay_match(match)
    games = []
    for g in rep.games:
        acts = []
        for s in g.steps:
            a = s.action
            if a.kind in ("move", "roll") and a.dice:
                # A roll not played (before a resignation) and a dance both leave the board as it was.
                acts.append(("move", a.player, tuple(sorted(a.dice or ())),
                             tuple(sorted(s.play.steps)) if s.play else ()))
            elif a.kind in ("double", "take", "drop", "win", "beaver", "raccoon"):
                acts.append((a.kind, a.player, a.value if a.kind == "win" else None))
        games.append((g.winner, g.points, tuple(acts)))
    return match.length, tuple(match.names), tuple(games)


@pytest.mark.parametrize("fmt", ["json", "sgf", "mat"])
def test_mat_round_trip_as_data(fmt: str) -> None:
    m = read_match(MAT)
    text, _dropped = render_match(m, fmt)
    back = {"json": from_json, "sgf": read_sgf, "mat": read_match}[fmt](text)
    assert shape(back) == shape(m)


def test_convert_writes_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "m.sgf"
    code, _, _ = invoke(str(MAT), str(out))
    assert code == 0 and out.read_text().startswith("(;FF[4]GM[6]")
    before = out.read_text()
    code, _, err = invoke(str(MAT), str(out))
    assert code == 2 and "exists" in err
    assert out.read_text() == before
    code, _, _ = invoke("--force", str(MAT), str(out))
    assert code == 0


def test_never_overwrites_its_input(tmp_path: Path) -> None:
    src = tmp_path / "in.mat"
    src.write_text(MAT.read_text())
    code, _, err = invoke("--force", str(src), str(src))
    assert code == 2 and "input" in err
    assert src.read_text() == MAT.read_text()


def test_unwritable_directory(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        target = Path("/proc/gammon-test.json")  # not writable even for root
    else:
        d = tmp_path / "ro"
        d.mkdir()
        d.chmod(stat.S_IRUSR | stat.S_IXUSR)
        target = d / "out.json"
    code, _, err = invoke(str(MAT), str(target))
    assert code == 2 and "cannot write" in err
    assert not target.exists()


def test_interrupted_write_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.json"

    def boom(*_a: object, **_k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, "data")
    assert list(tmp_path.iterdir()) == []


def test_stdout_and_several_inputs(tmp_path: Path) -> None:
    code, out, _ = invoke("--to", "json", str(MAT), "-")
    assert code == 0 and '"format": "gammon-notation"' in out
    code, _, _ = invoke(str(MAT), str(DATA / "gnubg_larger_die.mat"), str(tmp_path))
    assert code == 2  # no --to and a directory: the format cannot be told
    code, _, _ = invoke("--to", "sgf", str(MAT), str(DATA / "gnubg_larger_die.mat"), str(tmp_path))
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gnubg_7p_crawford.sgf", "gnubg_larger_die.sgf"]


def test_command_line_refusals(tmp_path: Path) -> None:
    """--to in any case; an output is needed, and its format must be known."""
    code, out, _ = invoke(str(MAT), "-", "--to", "JSON")
    assert code == 0 and '"format": "gammon-notation"' in out
    assert invoke(str(MAT)) == (2, "", "gammon: convert needs at least one input and an output (IN... OUT)\n")
    code, _, err = invoke(str(MAT), str(tmp_path / "x.unknown"))
    assert code == 2 and err.endswith("x.unknown' from its extension; use --to\n") and not list(tmp_path.iterdir())


def test_lossy_conversion_is_reported_and_strict_refuses(tmp_path: Path) -> None:
    src = tmp_path / "tagged.mat"
    src.write_text('; [Player 1 "Alice Example"]\n; [TimeControl "*0"]\n' + MAT.read_text())
    code, _, err = invoke(str(src), str(tmp_path / "o.sgf"))
    assert code == 0 and "dropped" in err
    code, _, err = invoke("--strict", str(src), str(tmp_path / "o2.sgf"))
    assert code == 1 and not (tmp_path / "o2.sgf").exists()


def test_findings_reported_but_illegal_record_converted(tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    code, _, err = invoke(str(ROOT / "samples" / "illegal_plays.mat"), str(out))
    assert code == 0 and out.exists()
    assert "error: game 1 move 44" in err


def test_text_record(tmp_path: Path) -> None:
    out = tmp_path / "o.txt"
    code, _, _ = invoke(str(MAT), str(out))
    assert code == 0
    text = out.read_text()
    assert "Move number 1:" in text and "+13-14-15-16-17-18" in text


def test_bad_input_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(" 5 point match\n\n Game 1\n a : 0      b : 0\n  1) 71: 13/6\n")
    code, _, err = invoke(str(bad), str(tmp_path / "o.json"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and ":5:" in err


def _corpus_mats() -> list[Path]:
    base = ROOT.parent / "shared" / "corpus" / "mat"
    return sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else []


@pytest.mark.skipif(not _corpus_mats(), reason="../shared/corpus is not present")
def test_corpus_round_trips_as_data() -> None:
    """Corpus transcripts: .mat -> JSON -> .mat and .mat -> SGF -> .mat give the same match (half of each
    kind's; all with GAMMON_FULL_CORPUS=1)."""
    from notation.formats.mat import read_matches

    failures = []
    for path in sampled_per_kind(_corpus_mats(), 2):
        for m in read_matches(path):
            want = shape(m)
            for fmt, reader in (("json", from_json), ("sgf", read_sgf)):
                text, _ = render_match(m, fmt)
                back = reader(text)
                mat_text, _ = render_match(back, "mat")
                again = read_match(mat_text)
                if shape(again) != want:
                    failures.append(f"{path.name} via {fmt}")
    assert not failures, failures


def test_gnubg_sgf_round_trip(gnubg_corpus: Path) -> None:
    """SGF written by gnubg -> .mat -> SGF keeps the match; the .mat equals gnubg's own .mat as data."""
    for sgf in sorted((gnubg_corpus / "sgf").glob("*.sgf")):
        m = read_sgf(sgf.read_text())
        mat_text, _ = render_match(m, "mat")
        via = read_match(mat_text)
        assert shape(via) == shape(m), sgf.name
        sgf2, _ = render_match(via, "sgf")
        assert shape(read_sgf(sgf2)) == shape(m), sgf.name
        gnubg_mat = read_match(gnubg_corpus / "mat" / (sgf.stem + ".mat"))
        if m.length == 0:
            # gnubg's .mat export leaves automatic doubles out of 'Wins' (its SGF has them right).
            assert _no_results(shape(gnubg_mat)) == _no_results(shape(m)), sgf.name
        else:
            assert shape(gnubg_mat) == shape(m), sgf.name


def _no_results(sh):  # type: ignore[no-untyped-def]
    length, names, games = sh
    return length, names, tuple((w, tuple(a for a in acts if a[0] != "win")) for w, _p, acts in games)


def test_mat_dialect_options() -> None:
    code, out, _ = invoke("-q", "--to", "mat", "--bar", "bar", "--off", "off", "--no-hit-marks", str(MAT), "-")
    assert code == 0
    assert "bar/" in out and "/off" in out and "*" not in out and "25/" not in out
    assert shape(read_match(out)) == shape(read_match(MAT))


def test_canonical_rewrites_plays_with_hit_marks(tmp_path: Path) -> None:
    """--canonical writes legal plays as gnubg does (hit marks added) and says how many it rewrote."""
    src = tmp_path / "nomarks.mat"
    src.write_text(MAT.read_text().replace("*", ""))
    out = tmp_path / "canon.mat"
    code, _, err = invoke("--canonical", str(src), str(out))
    assert code == 0 and "plays rewritten in canonical form" in err
    assert out.read_text().count("*") == MAT.read_text().count("*")
    assert shape(read_match(out)) == shape(read_match(MAT))


def test_sgf_never_states_an_unknown_crawford_game() -> None:
    """A record that starts at 6-5 in a 7-point match cannot say whether game 1 is the Crawford game:
    the SGF must not claim it is (RU[...CrawfordGame]); the unknown is reported as dropped."""
    from notation import parse_match
    from notation.convert import render_match

    m = parse_match(" 7 point match\n\n Game 1\n a : 6                          b : 5\n"
                    "  1) 52: 13/11 13/8                 Doubles => 2\n  2)  Takes\n")
    text, dropped = render_match(m, "sgf")
    assert "CrawfordGame" not in text
    assert any("whether it is the Crawford game is not known" in d for d in dropped)
    m0 = parse_match(" 7 point match\n\n Game 1\n a : 0                          b : 0\n  1) 52: 13/11 13/8\n")
    assert not any("Crawford" in d for d in render_match(m0, "sgf")[1])


def test_rewrites_and_text_losses_are_reported(tmp_path: Path) -> None:
    from notation.convert import render_match

    m = read_match(Path(__file__).parent / "data" / "mat_xg_dialect.txt")
    _, dropped = render_match(m, "mat")
    assert any("spell the bar as a word" in d for d in dropped)
    assert any("'Cannot Move' cells" in d for d in dropped)
    _, kept = render_match(m, "mat", bar="bar")
    assert not any("spell the bar" in d for d in kept)
    sample = read_match(Path(__file__).parents[1] / "samples" / "illegal_plays.mat")
    text, lost = render_match(sample, "txt")  # the text record writes the header tags
    assert all(f"{k}: {v}\n" in text for k, v in sample.tags) and sample.tags
    assert not any("header tags" in d for d in lost)


def test_text_record_is_refused_as_input(tmp_path: Path) -> None:
    from notation.convert import render_match
    from notation.errors import ParseError

    text, _ = render_match(read_match(MAT), "txt")
    p = tmp_path / "t.txt"
    p.write_text(text)
    import notation

    with pytest.raises(ParseError, match="text record for people"):
        notation.read_match(p)
