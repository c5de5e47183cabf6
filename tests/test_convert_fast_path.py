"""``gammon convert``'s fast paths against the general ones: the JSON writer's value-by-value layout
(:func:`notation.formats.json_format._dump`) against the oracle ``tests/json_reference.py`` (``json.dumps``
for every value), and the output checks with the inputs' identities gathered once (:class:`notation.convert.InputSet`)
against the check of each input in turn."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st
from json_reference import dump_reference

from notation.convert import InputSet, check_target
from notation.formats import json_format
from notation.formats.json_format import to_json
from notation.matchio import read_any
from notation.replay import replay_match

ROOT = Path(__file__).resolve().parents[1]


def _reference_json(value: object) -> str:
    out: list[str] = []
    dump_reference(value, 0, out)
    return "".join(out)


def _fast_json(value: object) -> str:
    out: list[str] = []
    json_format._dump(value, 0, out)
    return "".join(out)


def _records() -> list[Path]:
    files = sorted(p for p in (ROOT / "samples").iterdir() if p.suffix in (".mat", ".json", ".sgf"))
    if CORPUS.is_dir():  # ../shared/corpus where present: real records of many dialects
        files += sorted(p for p in CORPUS.rglob("*") if p.suffix in (".mat", ".sgf"))[:60]
    return files


def test_json_writer_equals_the_reference_on_records() -> None:
    n = 0
    for path in _records():
        try:
            matches = read_any(str(path))
        except Exception:  # noqa: BLE001 - records this reader refuses are not this test's business
            continue
        for match in matches[:2]:
            rep = replay_match(match)
            doc = {"format": json_format.FORMAT, "version": json_format.VERSION,
                   "match": json_format.match_to_dict(match),
                   "findings": [json_format.finding_to_dict(f) for f in rep.findings]}
            assert _fast_json(doc) + "\n" == to_json(match, rep.findings)
            assert _fast_json(doc) == _reference_json(doc), path
            n += 1
    assert n >= 10


SCALARS = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"])))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=6)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=6)
                      | st.tuples(inner, inner), max_leaves=40)


@settings(max_examples=800, deadline=None)
@given(VALUES)
def test_json_writer_equals_the_reference_on_any_value(value: object) -> None:
    assert _fast_json(value) == _reference_json(value)


def _outcome(path: Path, inputs: object, force: bool) -> str:
    try:
        check_target(path, force=force, inputs=inputs)  # type: ignore[arg-type]
        return "ok"
    except FileExistsError as e:
        return str(e)


def test_input_set_checks_as_each_input_in_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = tmp_path / "a.mat"
    a.write_text("x")
    b = tmp_path / "b.mat"
    b.write_text("y")
    (tmp_path / "d").mkdir()
    (tmp_path / "link.mat").symlink_to(a)
    (tmp_path / "dangling.mat").symlink_to(tmp_path / "nowhere.mat")
    os.link(b, tmp_path / "hard.mat")
    inputs = [str(a), str(tmp_path / "d" / ".." / "b.mat"), "-", str(tmp_path / "missing.mat")]
    targets = [a, b, tmp_path / "link.mat", tmp_path / "hard.mat", tmp_path / "d", tmp_path / "new.json",
               tmp_path / "dangling.mat", tmp_path / "missing.mat", tmp_path / "d" / ".." / "a.mat",
               tmp_path / "nodir" / ".." / "a.mat", Path("-")]
    (tmp_path / "dlink").symlink_to(tmp_path / "d")
    (tmp_path / "d" / "c.mat").write_text("z")
    (tmp_path / "to_missing.mat").symlink_to(tmp_path / "missing.mat")
    (tmp_path / "to_link.mat").symlink_to(tmp_path / "link.mat")
    (tmp_path / "to_d").symlink_to(tmp_path / "d")
    # (directories too, as a caller of check_target may pass them)
    inputs += [str(tmp_path / "dlink" / "c.mat"), str(tmp_path / "to_d"), str(tmp_path)]
    targets += [tmp_path / "d" / "c.mat", tmp_path / "dlink" / "c.mat", tmp_path / "dlink" / "new.sgf",
                tmp_path / "to_missing.mat", tmp_path / "to_link.mat", tmp_path / "to_d", tmp_path / "d" / ".",
                tmp_path / "d" / "..", tmp_path / "nodir" / "..", Path("a.mat"), Path("new.mat"),
                Path("d") / ".." / "b.mat", Path(".")]
    monkeypatch.chdir(tmp_path)
    fast = InputSet(inputs)
    for _ in range(2):  # the directories resolved, then remembered
        for t in targets:
            for force in (False, True):
                assert _outcome(t, fast, force) == _outcome(t, inputs, force), (t, force)
    assert _outcome(a, fast, True) != "ok" and _outcome(tmp_path / "new.json", fast, False) == "ok"
    assert "input" in _outcome(tmp_path / "to_missing.mat", fast, True)
