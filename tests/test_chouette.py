"""Chouettes: the box against a team, one cube per member, the rotation, results and totals."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from notation import parse_match, read_any, replay_match
from notation.chouette import (
    Chouette,
    ChouetteGame,
    ChouetteMatch,
    next_roles,
    replay_chouette,
    results_of,
)
from notation.cli import main
from notation.errors import ParseError
from notation.formats.chouette_json import chouette_to_json, read_chouette_json
from notation.position import Position
from notation.record import Action, Game, MatchRules

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "chouette_4players.json"


def load() -> dict[str, Any]:
    return json.loads(SAMPLE.read_text())


def check(doc: dict[str, Any]) -> list[str]:
    m = read_chouette_json(json.dumps(doc))
    return [f.message for f in replay_match(m).findings if f.severity == "error"]


def test_sample_validates() -> None:
    (m,) = read_any(str(SAMPLE))
    assert isinstance(m, ChouetteMatch) and m.chouette is not None
    rep = replay_match(m)
    assert not [f for f in rep.findings if f.severity != "note"]
    assert len(rep.games) == len(m.chouette.games) >= 5
    assert rep.plays > 100
    kinds = {(a.kind, a.player) for g in m.chouette.games for a in g.game.actions}
    assert {("double", 0), ("double", 1), ("take", 1), ("drop", 1), ("take", 0)} <= kinds


def test_cli_validate_chouette(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["validate", str(SAMPLE)])
    assert res.exit_code == 0, res.output
    assert "0 errors" in res.output
    doc = load()
    doc["chouette"]["games"][1]["box"], doc["chouette"]["games"][1]["team"][0] = \
        doc["chouette"]["games"][1]["team"][0], doc["chouette"]["games"][1]["box"]
    bad = tmp_path / "chouette_bad.json"
    bad.write_text(json.dumps(doc))
    res = runner.invoke(main, ["validate", str(bad)])
    assert res.exit_code == 1 and "by the rotation" in res.output


def test_json_round_trip() -> None:
    m = read_chouette_json(SAMPLE.read_text())
    assert m.chouette is not None
    text = chouette_to_json(m.chouette)
    assert text == SAMPLE.read_text()
    again = read_chouette_json(text)
    assert again.chouette == m.chouette
    assert parse_match(text).chouette == m.chouette  # type: ignore[attr-defined]


def test_rotation_rule() -> None:
    assert next_roles("Ann", ["Ben", "Cid", "Dee"], captain_won=True) == ("Ben", ["Cid", "Dee", "Ann"])
    assert next_roles("Ann", ["Ben", "Cid", "Dee"], captain_won=False) == ("Ann", ["Cid", "Dee", "Ben"])


def test_wrong_rotation_is_caught() -> None:
    doc = load()
    g = doc["chouette"]["games"][2]
    g["team"] = g["team"][1:] + g["team"][:1]  # the wrong captain
    errs = check(doc)
    assert any("by the rotation, game 3" in e for e in errs)
    doc["chouette"]["rotation"] = "none"  # roles as written: no rotation check
    assert not any("rotation" in e for e in check(doc))


def test_member_result_and_totals_are_checked() -> None:
    doc = load()
    g = doc["chouette"]["games"][3]
    member = g["team"][2]
    g["results"][member] -= 2
    g["results"][g["box"]] += 2
    errs = check(doc)
    assert any(f"{member}'s result is written as" in e for e in errs)
    assert not any("total is written" in e for e in errs)  # totals are checked against the games
    doc = load()
    doc["chouette"]["totals"]["Ann"] += 1
    errs = check(doc)
    assert errs == [e for e in errs if "total" in e] and any("Ann's total" in e for e in errs)
    doc = load()
    doc["chouette"]["games"][0]["results"]["Ann"] += 1
    assert any("add up to" in e for e in check(doc))


def test_unanswered_and_stray_answers() -> None:
    doc = load()
    g = doc["chouette"]["games"][0]
    i = next(k for k, a in enumerate(g["actions"]) if a["kind"] == "take" and a["player"] == 1)
    removed = g["actions"].pop(i)
    errs = check(doc)
    assert any(f"{removed['member']} has not answered" in e for e in errs)
    doc = load()
    g = doc["chouette"]["games"][0]
    g["actions"].insert(i, {"kind": "take", "player": 1, "member": "Zed"})
    assert any("Zed is not in the team" in e for e in check(doc))
    doc = load()
    g = doc["chouette"]["games"][0]
    g["actions"][i].pop("member")
    assert any("must name the member" in e for e in check(doc))


def test_member_double_rules() -> None:
    doc = load()
    g = doc["chouette"]["games"][1]
    i = next(k for k, a in enumerate(g["actions"]) if a["kind"] == "double" and a["player"] == 1)
    member = g["actions"][i]["member"]
    # the box took: it owns that member's cube, so the member cannot double again
    j = i + 1
    again = [{"kind": "double", "player": 1, "member": member, "value": 4},
             {"kind": "take", "player": 0, "member": member}]
    nxt = next(k for k in range(j + 1, len(g["actions"])) if g["actions"][k]["kind"] == "move"
               and g["actions"][k]["player"] == 1)
    g["actions"][nxt:nxt] = again
    assert any(f"{box_owns(member)}" in e for e in check(doc))
    # a double by the team when it is the box's turn
    doc = load()
    g = doc["chouette"]["games"][1]
    nxt0 = next(k for k in range(i + 2, len(g["actions"])) if g["actions"][k]["kind"] == "move"
                and g["actions"][k]["player"] == 0)
    other = next(m for m in g["team"] if m != member)
    g["actions"][nxt0:nxt0] = [{"kind": "double", "player": 1, "member": other, "value": 2},
                               {"kind": "take", "player": 0, "member": other}]
    assert any("not the team's turn" in e for e in check(doc))


def box_owns(member: str) -> str:
    return f"owns {member}'s cube"


# ---------------------------------------------------------------- hand-made games


def mini(actions: list[Action], *, winner_value: tuple[int, int] | None = None, jacoby: bool = False,
         start: Position | None = None) -> Chouette:
    acts = list(actions)
    if winner_value is not None:
        acts.append(Action("win", winner_value[0], value=winner_value[1]))
    g = Game(1, actions=acts, start=start)
    return Chouette(players=["Box", "Cap", "Two", "Three"], rules=MatchRules(jacoby=jacoby),
                    games=[ChouetteGame(1, "Box", ["Cap", "Two", "Three"], g)])


def opening() -> list[Action]:
    return [Action("move", 0, dice=(3, 1), play="8/5 6/5"), Action("move", 1, dice=(6, 4), play="24/14")]


def M(member: str) -> dict[str, list[str]]:  # noqa: N802
    return {"member": [member]}


def test_captain_drops_the_next_member_plays_on() -> None:
    acts = opening() + [
        Action("double", 0, value=2),
        Action("drop", 1, properties=M("Cap")),
        Action("take", 1, properties=M("Two")),
        Action("drop", 1, properties=M("Three")),
        Action("move", 0, dice=(5, 2), play="13/8 13/11"),
        Action("resign", 1, value=1), Action("accept", 0),
    ]
    ch = mini(acts, winner_value=(0, 1))
    rep = replay_chouette(ch)
    assert not [f for f in rep.findings if f.severity == "error"], [f.format() for f in rep.findings]
    (res,) = results_of(ch)
    assert res == {"Box": 4, "Cap": -1, "Two": -2, "Three": -1}
    # the captain lost (dropped): the box stays, the captain goes to the end
    ch.games.append(ChouetteGame(2, "Box", ["Two", "Three", "Cap"], Game(2, actions=opening() + [
        Action("resign", 0, value=1), Action("win", 1, value=1)])))
    assert not [f for f in replay_chouette(ch).findings if f.severity == "error"]
    ch.games[1].box, ch.games[1].team = "Cap", ["Two", "Three", "Box"]
    assert any("by the rotation" in f.message for f in replay_chouette(ch).findings)


def test_every_member_drops() -> None:
    acts = opening() + [Action("double", 0, value=2)] + [Action("drop", 1, properties=M(m))
                                                        for m in ("Cap", "Two", "Three")]
    ch = mini(acts)
    assert not [f for f in replay_chouette(ch).findings if f.severity != "note"]
    assert results_of(ch) == [{"Box": 3, "Cap": -1, "Two": -1, "Three": -1}]
    ch.games[0].game.actions.append(Action("move", 0, dice=(6, 5), play="24/13"))
    assert any("every team member is out" in f.message for f in replay_chouette(ch).findings)


def test_box_drops_one_member() -> None:
    acts = opening() + [Action("move", 0, dice=(4, 2), play="8/4 6/4"),
                        Action("double", 1, value=2, properties=M("Two")),
                        Action("drop", 0, properties=M("Two")),
                        Action("double", 1, value=2, properties=M("Cap")),
                        Action("take", 0, properties=M("Cap")),
                        Action("move", 1, dice=(5, 3), play="13/8 13/10"),
                        Action("resign", 0, value=1), Action("accept", 1)]
    ch = mini(acts, winner_value=(1, 1))
    assert not [f for f in replay_chouette(ch).findings if f.severity == "error"]
    assert results_of(ch) == [{"Box": -4, "Cap": 2, "Two": 1, "Three": 1}]


def test_jacoby_per_member() -> None:
    """A gammon counts single for a member whose cube was never turned (Jacoby), double for one
    whose cube was."""
    start = Position(boards=(tuple([14, 1] + [0] * 24), tuple([0] * 6 + [10, 0, 5] + [0] * 17)), turn=0)
    acts = [Action("move", 1, dice=(2, 1), play="8/6 8/7"),
            Action("double", 0, value=2), Action("take", 1, properties=M("Cap")),
            Action("take", 1, properties=M("Two")), Action("take", 1, properties=M("Three")),
            Action("move", 0, dice=(2, 1), play="1/off")]
    ch = mini(acts, winner_value=(0, 2), jacoby=True, start=start)
    assert results_of(ch) == [{"Box": 12, "Cap": -4, "Two": -4, "Three": -4}]
    # without the double every cube is centred: Jacoby makes the gammon single
    ch2 = mini([acts[0], acts[-1]], winner_value=(0, 2), jacoby=True, start=start)
    assert results_of(ch2) == [{"Box": 3, "Cap": -1, "Two": -1, "Three": -1}]
    assert not [f for f in replay_chouette(ch2).findings if f.severity == "error"]
    ch3 = mini([acts[0], acts[-1]], winner_value=(0, 2), jacoby=False, start=start)
    assert results_of(ch3) == [{"Box": 6, "Cap": -2, "Two": -2, "Three": -2}]


def test_illegal_checker_play_in_a_chouette_is_caught() -> None:
    doc = load()
    g = doc["chouette"]["games"][0]
    mv = next(a for a in g["actions"] if a["kind"] == "move" and a["player"] == 1)
    mv["play"] = "13/1"
    errs = check(doc)
    assert errs and any("13/1" in e or "pips" in e for e in errs)


def test_roster_errors() -> None:
    doc = load()
    doc["chouette"]["games"][0]["team"].append("Ann")
    assert any("sits twice" in e for e in check(doc))
    doc = load()
    doc["chouette"]["games"][0]["team"].pop()
    assert any("neither box nor in the team" in e for e in check(doc))
    doc = load()
    doc["chouette"]["games"][0]["actions"].insert(8, {"kind": "beaver", "player": 1, "member": "Ben"})
    assert any("beavers are not used" in e for e in check(doc))


def test_bad_documents_raise_parse_errors() -> None:
    doc = load()
    doc["chouette"]["games"][0]["box"] = 3
    with pytest.raises(ParseError, match=r"chouette\.games\[0\]\.box"):
        read_chouette_json(json.dumps(doc))
    doc = load()
    del doc["chouette"]["players"]
    with pytest.raises(ParseError, match="players"):
        read_chouette_json(json.dumps(doc))


def test_chouette_match_is_a_record() -> None:
    m = read_chouette_json(SAMPLE.read_text())
    assert m.names == (m.chouette.games[0].box, m.chouette.games[0].team[0])  # type: ignore[union-attr]
    assert len(m.games) == len(m.chouette.games)  # type: ignore[union-attr]
    plain = copy.copy(m)
    assert replay_match(plain).games
