"""The versioned JSON form: lossless for every match (generated and real), deterministic, strict on input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest
from conftest import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.errors import ParseError
from notation.formats.json_format import FORMAT, VERSION, findings_from_json, from_json, to_json
from notation.formats.sgf import read_sgf
from notation.position import Position
from notation.record import Action, ActionKind, Game, Match, MatchRules, Normalisation, Span
from notation.replay import replay_match
from notation.rules import variant_names

# --------------------------------------------------------------------------- generated matches

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
small = st.integers(0, 70)  # every count the document holds is 0 to 999,999,999 (see the ranges below)
maybe_int = st.none() | small
pair_int = st.tuples(small, small)
dice = st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))
spans = st.none() | st.builds(Span, st.integers(1, 9999), st.integers(1, 300), maybe_int, maybe_int)
props = st.dictionaries(st.text(alphabet="ABCDEFGHLMRUW", min_size=1, max_size=3), st.lists(text, max_size=3),
                        max_size=3)
boards = st.tuples(*[st.integers(0, 15)] * 26)
positions = st.builds(
    Position,
    boards=st.tuples(boards, boards),
    turn=st.integers(0, 1),
    dice=dice,
    cube=st.sampled_from([1, 2, 4, 8, 64, 3]),
    cube_owner=st.none() | st.integers(0, 1),
    double_offered=st.booleans(),
    beaver=st.integers(0, 2),
    resign_offered=st.integers(0, 3),
    resigner=st.none() | st.integers(0, 1),
    match_length=st.integers(0, 25),
    score=pair_int,
    crawford=st.booleans(),
    jacoby=st.booleans(),
    beavers=st.booleans(),
    max_cube=st.integers(0, 12),
    game_state=st.integers(0, 4),
    names=st.tuples(text, text),
    variant=st.sampled_from(variant_names()),
    extras=st.lists(st.tuples(text, text), max_size=2).map(tuple),
)
actions = st.builds(
    Action,
    kind=st.sampled_from(get_args(ActionKind)),
    player=st.integers(0, 1),
    dice=dice,
    play=st.none() | text,
    no_move=st.none() | text,
    value=maybe_int,
    text=text,
    span=spans,
    move_number=maybe_int,
    comment=st.none() | text,
    setup=st.none() | positions,
    properties=props,
)
games = st.builds(
    Game,
    number=small,
    score=st.none() | pair_int,
    names=st.none() | st.tuples(text, text),
    ratings=st.tuples(st.none() | text, st.none() | text),
    actions=st.lists(actions, max_size=5),
    start=st.none() | positions,
    crawford=st.none() | st.booleans(),
    span=spans,
    score_span=spans,
    comments=st.lists(text, max_size=2),
    properties=props,
)
rules = st.builds(MatchRules, variant=st.sampled_from(variant_names()), crawford=st.booleans(),
                  jacoby=st.booleans(), beavers=st.booleans(), raccoons=st.booleans(),
                  auto_doubles=st.integers(0, 3), cube=st.booleans(), cube_limit=st.none() | st.integers(1, 70))
matches = st.builds(
    Match,
    length=st.integers(0, 25),
    names=st.tuples(text, text),
    games=st.lists(games, max_size=3),
    tags=st.lists(st.tuples(text, text), max_size=3),
    comments=st.lists(text, max_size=2),
    rules=rules,
    source=st.none() | text,
    format=st.sampled_from(["mat", "sgf", "json", ""]),
    span=spans,
    normalisations=st.lists(st.builds(Normalisation, text, maybe_int, maybe_int), max_size=2),
    properties=props,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_every_match_round_trips(m: Match) -> None:
    j = to_json(m)
    back = from_json(j)
    assert back == m
    assert to_json(back) == j  # also covers Position.extras, which == ignores
    assert json.loads(j)["format"] == FORMAT


# --------------------------------------------------------------------------- real matches


def sgf_files() -> list[Path]:
    files = sorted(DATA.glob("sgf_*.sgf"))
    shared = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "sgf"
    if shared.is_dir():
        files += sorted(shared.glob("*.sgf"))
    return files


@pytest.mark.parametrize("path", sgf_files(), ids=lambda p: p.name)
def test_sgf_matches_and_findings_round_trip(path: Path) -> None:
    m = read_sgf(path)
    findings = replay_match(m).findings
    j = to_json(m, findings)
    assert from_json(j) == m
    assert findings_from_json(j) == findings
    assert to_json(from_json(j), findings_from_json(j)) == j
    assert to_json(m, findings) == j  # deterministic


def test_layout_is_fixed() -> None:
    m = read_sgf(DATA / "sgf_gnubg_setup.sgf")
    j = to_json(m)
    doc = json.loads(j)
    assert list(doc) == ["format", "version", "match"] and doc["version"] == VERSION == 3
    assert list(doc["match"]) == ["length", "names", "format", "source", "span", "tags", "comments", "rules",
                                  "properties", "normalisations", "games"]
    game = doc["match"]["games"][0]
    assert list(game) == ["number", "score", "names", "ratings", "crawford", "start", "span", "score_span",
                          "comments", "properties", "actions"]
    assert list(game["actions"][0])[-2:] == ["properties", "analysis"]  # version 2: analysis last
    setup = game["actions"][-1]["setup"]
    assert setup["boards"][1][25] == 1 and setup["turn"] == 1
    assert '\n        "span": {"line": 1, "column": 2, "end_line": 1, "end_column": 507},\n' in j
    assert j.endswith("}\n") and "\t" not in j


def test_findings_are_written_only_when_given() -> None:
    m = read_sgf(DATA / "sgf_gibbon_edited_position.sgf")
    assert "findings" not in json.loads(to_json(m))
    assert findings_from_json(to_json(m)) == []
    fs = replay_match(m).findings
    assert fs and json.loads(to_json(m, fs))["findings"][0]["severity"] == fs[0].severity


def test_minimal_hand_written_document() -> None:
    doc = {"format": FORMAT, "version": 1, "match": {"length": 3, "games": [
        {"number": 1, "actions": [{"kind": "move", "player": 0, "dice": [3, 1], "play": "8/5 6/5"},
                                  {"kind": "setup", "player": 1,
                                   "setup": {"boards": [[0] * 26, [0] * 26]}}]}]}}
    m = from_json(json.dumps(doc))
    a, s = m.games[0].actions
    assert m.length == 3 and m.rules == MatchRules() and a.dice == (3, 1) and a.play == "8/5 6/5"
    assert s.setup is not None and s.setup.boards == ((0,) * 26, (0,) * 26) and s.setup.cube == 1


@pytest.mark.parametrize(("text", "words", "line"), [
    ('{"format": "gammon-notation", "version": 1,\n "match": {]}', "not valid JSON", 2),
    ('{"format": "something", "version": 1, "match": {}}', "not a gammon-notation", 1),
    ('{"format": "gammon-notation", "version": 4, "match": {}}', "newer", 1),
    ('{"format": "gammon-notation", "version": "1", "match": {}}', "integer", 1),
    ('{"format": "gammon-notation", "version": 1}', '"match" is missing', 1),
    ('[1, 2]', "not a gammon-notation", 1),
])
def test_bad_documents(text: str, words: str, line: int) -> None:
    with pytest.raises(ParseError) as e:
        from_json(text)
    assert words in e.value.message and e.value.line == line


@pytest.mark.parametrize(("match", "where"), [
    ({"length": "7"}, "match.length: expected an integer"),
    ({"games": [{"number": 1, "actions": [{"kind": "jump", "player": 0}]}]},
     "match.games[0].actions[0].kind: unknown action kind 'jump'"),
    ({"games": [{"number": 1, "actions": [{"player": 0}]}]}, "match.games[0].actions[0].kind: missing"),
    ({"names": ["a"]}, "match.names: expected 2 items"),
    ({"games": [{"number": 1, "score": [0, True]}]}, "match.games[0].score[1]"),
    ({"tags": [["Event", 3]]}, "match.tags[0][1]: expected a string"),
    ({"rules": {"cube": 1}}, "match.rules.cube: expected true or false"),
])
def test_type_errors_name_the_key(match: dict[str, object], where: str) -> None:
    with pytest.raises(ParseError) as e:
        from_json(json.dumps({"format": FORMAT, "version": 1, "match": match}))
    assert where in e.value.message


def test_mat_corpus_round_trips(corpus: Path) -> None:
    """Every match the .mat reader gets from the corpus survives JSON unchanged."""
    mat = pytest.importorskip("notation.formats.mat")
    files = sorted(p for p in (corpus / "mat").rglob("*") if p.is_file())
    count = 0
    for f in files:
        try:
            matches = mat.read_matches(f)
        except ParseError:
            continue
        for m in matches:
            j = to_json(m)
            assert from_json(j) == m, f.name
            assert to_json(from_json(j)) == j, f.name
            count += 1
    assert count >= 100


# ---------------------------------------------------------------- every number within its range (issue 26, item 7)

_MOVE = {"kind": "move", "player": 0, "dice": [3, 1], "play": "8/5 6/5"}
_BOARDS = {"boards": [[0] * 6 + [5] + [0] + [3] + [0] * 4 + [5] + [0] * 10 + [2, 0]] * 2}


def _game(**changes: object) -> dict[str, object]:
    return {"number": 1, "actions": [dict(_MOVE)], **changes}


def _action(**changes: object) -> dict[str, object]:
    return {"games": [_game(actions=[{**_MOVE, **changes}])]}


@pytest.mark.parametrize(("match", "where"), [
    (_action(dice=[7, 0]), "match.games[0].actions[0].dice[0]: a die must be 1 to 6, not 7"),
    (_action(dice=[-1, -2]), "match.games[0].actions[0].dice[0]: a die must be 1 to 6, not -1"),
    (_action(dice=[1 << 40, 1]), "dice[0]: a die must be 1 to 6, not 1099511627776"),
    (_action(dice=[3, 0]), "dice[1]: a die must be 1 to 6, not 0"),
    ({"length": 10 ** 30}, "match.length: a count must be 0 to 999,999,999, not a number of 31 digits"),
    ({"length": -3}, "match.length: a count must be 0 to 999,999,999, not -3"),
    ({"games": [_game(number=10 ** 12)]}, "match.games[0].number"),
    ({"games": [_game(score=[10 ** 12, 0])]},
     "match.games[0].score[0]: a number of points must be -999,999,999 to 999,999,999"),
    (_action(kind="double", value=1 << 40, dice=None), "actions[0].value: a count"),
    (_action(move_number=-1), "actions[0].move_number: a count"),
    (_action(span={"line": -5, "column": 1}), "actions[0].span.line: a line or column"),
    ({"rules": {"auto_doubles": 10 ** 9}}, "match.rules.auto_doubles: automatic doubles must be 0 to 30"),
    ({"rules": {"cube_limit": -3}}, "match.rules.cube_limit: a cube limit must be 1 to"),
    ({"games": [_game(start={**_BOARDS, "turn": 5})]}, "match.games[0].start.turn: a player must be 0 to 1, not 5"),
    ({"games": [_game(start={**_BOARDS, "dice": [9, 99]})]}, "match.games[0].start.dice[0]: a die must be 1 to 6"),
    ({"games": [_game(start={**_BOARDS, "match_length": 10 ** 30})]}, "match.games[0].start.match_length: a count"),
    ({"games": [_game(start={**_BOARDS, "cube": 0})]}, "match.games[0].start.cube: a cube value must be 1 to"),
    ({"games": [_game(start={"boards": [[0] * 25 + [10 ** 8], [0] * 26]})]},
     "match.games[0].start.boards[0][25]: a number of checkers must be 0 to 15, not 100000000"),
    ({"games": [_game(start={"boards": [[0] * 25, [0] * 26]})]}, "start.boards[0]: a board has 26 counts"),
    (_action(kind="setup", dice=None, setup={"boards": [[0] * 24 + [10 ** 8, 0], [0] * 26]}),
     "match.games[0].actions[0].setup.boards[0][24]: a number of checkers must be 0 to 15"),
    (_action(analysis={"luck": float("nan")}), "actions[0].analysis.luck: a figure must be a finite number"),
    (_action(analysis={"checker": {"candidates": [{"play": "8/5 6/5", "equity": float("-inf")}]}}),
     "analysis.checker.candidates[0].equity: a figure must be a finite number"),
    (_action(analysis={"checker": {"candidates": [{"play": "8/5 6/5"}], "played": 3}}),
     "analysis.checker.played: the index of the play made must be 0 to 0, not 3"),
    (_action(analysis={"cube": {"probabilities": {"win": float("inf")}}}),
     "analysis.cube.probabilities.win: a figure must be a finite number"),
    (_action(analysis={"luck": 10 ** 400}), "analysis.luck: a figure must be a finite number"),
    (_action(analysis={"cube": {"level": 3}}), "analysis.cube.level: expected a string"),
])
def test_every_number_is_checked_against_its_range(match: dict[str, object], where: str) -> None:
    with pytest.raises(ParseError) as e:
        from_json(json.dumps({"format": FORMAT, "version": 2, "match": match}))
    assert where in e.value.message


def test_more_checkers_than_the_variant_has_is_the_replays_finding() -> None:
    doc = {"format": FORMAT, "version": 2, "match": {"games": [_game(start={"boards": [[15] * 26, [0] * 26]})]}}
    m = from_json(json.dumps(doc))
    assert any("starts from an impossible position: O has 390 checkers" in f.message for f in replay_match(m).findings)


def test_dice_of_1e20_are_refused_not_an_internal_error(tmp_path: Path) -> None:
    from notation.batch import convert_file, validate_file

    p = tmp_path / "m.json"
    p.write_text('{"format": "gammon-notation", "version": 2, "match": {"games": [{"number": 1, "actions": '
                 '[{"kind": "move", "player": 0, "dice": [1e20, 1], "play": "8/5"}]}]}}')
    res = validate_file(str(p))
    assert res["unreadable"] and "dice[0]: expected an integer" in res["findings"][0]["message"]
    out = convert_file(str(p), str(tmp_path / "m.sgf"), "sgf")
    assert out["status"] == 2 and "internal error" not in out["messages"][0]


def test_chouette_points_are_bounded() -> None:
    from notation.formats.chouette_json import read_chouette_json

    doc = json.loads((Path(__file__).resolve().parents[1] / "samples" / "chouette_4players.json").read_text())
    doc["chouette"]["totals"] = {k: 10 ** 40 for k in doc["chouette"]["players"]}
    with pytest.raises(ParseError, match=r"chouette.totals.\w+: a number of points must be"):
        read_chouette_json(json.dumps(doc))


@pytest.mark.parametrize("where", ["candidate", "cube"])
@pytest.mark.parametrize(("rollout", "words"), [
    ("abc", "rollout: expected an object"),
    ({"trials": "abc"}, "rollout.trials: expected an integer"),
    ({"trials": -5}, "rollout.trials: a count must be"),
    ({"trials": 10 ** 30}, "rollout.trials: a count must be"),
    ({"truncation": 2.5}, "rollout.truncation: expected an integer"),
    ({"error": "abc"}, "rollout.error: expected a number"),
    ({"error": 1e400}, "rollout.error: a figure must be a finite number"),
    ({"double_error": [1]}, "rollout.double_error: expected a number"),
    ({"checker_level": 5}, "rollout.checker_level: expected a string"),
    ({"settings": "xy"}, "rollout.settings: expected a list"),
    ({"settings": [["a"]]}, "rollout.settings[0]: expected 2 items"),
    ({"settings": [[1, 2]]}, "rollout.settings[0][0]: expected a string"),
])
def test_a_bad_rollout_is_refused_naming_its_key_not_an_internal_error(where: str, rollout: object,
                                                                        words: str) -> None:
    """A rollout's fields were not checked by the schema: a word for a count or an error bound, a setting that is
    no pair, were internal errors (TypeError, ValueError) of the model's constructor, and a negative count, an
    enormous one or a setting of numbers were read as they stood."""
    analysis: dict[str, object] = (
        {"checker": {"candidates": [{"play": "8/5 6/5", "equity": 0.1, "rollout": rollout}], "played": 0}}
        if where == "candidate" else {"cube": {"no_double": 0.1, "rollout": rollout}})
    doc = {"format": FORMAT, "version": 3, "match": {"games": [
        {"number": 1, "actions": [{"kind": "move", "player": 0, "dice": [3, 1], "play": "8/5 6/5",
                                   "analysis": analysis}]}]}}
    with pytest.raises(ParseError) as e:
        from_json(json.dumps(doc).replace("Infinity", "1e400"))
    assert words in e.value.message
