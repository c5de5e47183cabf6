"""A chouette's JSON document (:mod:`notation.chouette`, its section "JSON"): ``{"format": "gammon-notation",
"version": 1, "chouette": {...}}``, read (:func:`read_chouette_json`, by :mod:`notation.formats.json_read`) and written
(:func:`chouette_to_json`) with the match document's checks and writing (:mod:`notation.formats.json_format`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..chouette import MEMBER, Chouette, ChouetteGame, ChouetteMatch, results_of, to_match
from ..errors import ParseError
from ..record import MatchRules
from . import json_format as jf

__all__ = ["is_chouette_json", "read_chouette_json", "chouette_to_json"]


def is_chouette_json(text: str) -> bool:
    """True for a gammon-notation JSON document holding a ``"chouette"`` object."""
    head = text.lstrip("\ufeff \t\r\n")
    if not head.startswith("{") or '"chouette"' not in text:
        return False
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return False
    return isinstance(doc, dict) and "chouette" in doc and "match" not in doc


def read_chouette_json(text: str, *, source: str | None = None) -> ChouetteMatch:
    """Read a chouette document (raises :class:`ParseError` naming the bad key)."""
    doc = jf._document(text)
    if "chouette" not in doc:
        raise ParseError('bad gammon-notation JSON: "chouette" is missing', line=1, column=1)
    try:
        ch = _chouette(doc["chouette"], "chouette")
    except jf._Bad as e:
        raise ParseError(f"bad gammon-notation JSON: {e}", text=e.path) from None
    ch.source = source
    m = to_match(ch)
    m.source = source
    return m


def _points_map(v: Any, path: str) -> dict[str, int]:
    d = jf._obj(v, path)
    return {k: jf._signed(x, f"{path}.{k}") for k, x in d.items()}


def _chouette(v: Any, path: str) -> Chouette:
    d = jf._obj(v, path)
    players = jf._get(d, "players", path, jf._list_of(jf._str))
    ch = Chouette(
        players=players,
        rules=jf._get(d, "rules", path, jf._rules, MatchRules),
        rotation=jf._get(d, "rotation", path, jf._str, "standard"),
        totals=jf._get(d, "totals", path, jf._opt(_points_map), None),
        tags=[tuple(t) for t in jf._get(d, "tags", path, jf._list_of(jf._pair_of(jf._str)), list)],
        comments=jf._get(d, "comments", path, jf._list_of(jf._str), list),
    )
    for i, gv in enumerate(jf._get(d, "games", path, jf._list, list)):
        gp = f"{path}.games[{i}]"
        gd = dict(jf._obj(gv, gp))
        acts = []
        for j, av in enumerate(jf._list(gd.get("actions", []), f"{gp}.actions")):
            ad = dict(jf._obj(av, f"{gp}.actions[{j}]"))
            if MEMBER in ad:
                member = jf._str(ad.pop(MEMBER), f"{gp}.actions[{j}].{MEMBER}")
                props = dict(jf._obj(ad.get("properties", {}), f"{gp}.actions[{j}].properties"))
                props[MEMBER] = [member]
                ad["properties"] = props
            acts.append(ad)
        gd["actions"] = acts
        gd.setdefault("number", i + 1)
        box = jf._get(gd, "box", gp, jf._str)
        team = jf._get(gd, "team", gp, jf._list_of(jf._str))
        results = jf._get(gd, "results", gp, jf._opt(_points_map), None)
        for k in ("box", "team", "results"):
            gd.pop(k, None)
        game = jf._game(gd, gp)
        if game.names is None and team:
            game.names = (box, team[0])
        ch.games.append(ChouetteGame(game.number, box, team, game, results))
    return ch


def _compact(d: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if v is None or v == "" or v == {} or v == [] or (k == "ratings" and v == [None, None]):
            continue
        out[k] = v
    props = out.get("properties")
    if isinstance(props, dict) and list(props.get(MEMBER, [])).__len__() == 1:
        props = dict(props)
        out[MEMBER] = props.pop(MEMBER)[0]
        if props:
            out["properties"] = props
        else:
            out.pop("properties")
    return out


def chouette_to_json(ch: Chouette, *, with_results: bool = True) -> str:
    """The chouette as JSON (deterministic; compact: keys with empty values are left out).  With
    ``with_results`` each game's results and the totals are the computed ones."""
    computed = results_of(ch) if with_results else None
    games = []
    totals: dict[str, int] = {p: 0 for p in ch.players}
    for i, cg in enumerate(ch.games):
        gd = jf.game_to_dict(cg.game)
        acts = [_compact(jf.action_to_dict(a)) for a in cg.game.actions]
        for k in ("actions", "names", "span", "score_span"):
            gd.pop(k, None)
        g: dict[str, Any] = {"number": cg.number, "box": cg.box, "team": list(cg.team)}
        g.update(_compact(gd))
        g["number"] = cg.number
        results = computed[i] if computed is not None else cg.results
        if results is not None:
            g["results"] = dict(results)
            for p, v in results.items():
                totals[p] = totals.get(p, 0) + v
        g["actions"] = acts
        games.append(g)
    r = ch.rules
    body: dict[str, Any] = {
        "players": list(ch.players),
        "rules": {"variant": r.variant, "jacoby": r.jacoby, "cube": r.cube},
        "rotation": ch.rotation,
    }
    if ch.tags:
        body["tags"] = [[k, v] for k, v in ch.tags]
    if ch.comments:
        body["comments"] = list(ch.comments)
    body["games"] = games
    if computed is not None or ch.totals is not None:
        body["totals"] = totals if computed is not None else dict(ch.totals or {})
    doc = {"format": jf.FORMAT, "version": jf.VERSION, "chouette": body}
    out: list[str] = []
    jf._dump(doc, 0, out)
    out.append("\n")
    return "".join(out)
