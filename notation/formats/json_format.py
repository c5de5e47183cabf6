"""The versioned JSON form of a match record: everything the readers keep, and the replay's findings.

``to_json(match, findings)`` writes ``{"format": "gammon-notation", "version": 1, "match": {...}}``
(plus ``"findings"`` when findings are given); ``from_json(text)`` reads it back, so that
``from_json(to_json(m)) == m`` for every :class:`~notation.record.Match`.  The schema, every key
with its type and meaning, is in ``docs/json-format.md``.

Output is deterministic: keys in a fixed order (the order of the model's fields), two-space
indentation, lists of plain values on one line, UTF-8 text not escaped.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, get_args

from ..analysis import Analysis, analysis_from_dict, analysis_to_dict
from ..errors import ParseError
from ..position import Position
from ..record import Action, ActionKind, Game, Match, MatchRules, Normalisation, Span
from .registry import WriteResult

if TYPE_CHECKING:
    from ..replay import Finding, GameReplay, MatchReplay

__all__ = ["FORMAT", "VERSION", "to_json", "from_json", "findings_from_json", "match_to_dict",
           "match_from_dict", "write"]

FORMAT = "gammon-notation"
VERSION = 3
"""2 added ``analysis`` on actions (:mod:`notation.analysis`); 3 added rollouts (``rollout`` on a
candidate and a cube decision) and made ``move_number`` the ``.mat`` row in every format
(:mod:`notation.rows`; version 2 gave an SGF node's index, and an ``.xg`` file's count of rolls).
Version 1 and 2 documents are still read."""
_KINDS = frozenset(get_args(ActionKind))

# --------------------------------------------------------------------------- writing


def _span(s: Span | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {"line": s.line, "column": s.column, "end_line": s.end_line, "end_column": s.end_column}


def _pair(t: tuple[Any, Any] | None) -> list[Any] | None:
    return None if t is None else [t[0], t[1]]


def _ids(pos: Position) -> tuple[str | None, str | None]:
    """The XGID and gnubg ID of a position, when it can be encoded (informational only)."""
    try:
        from .. import ids
    except ImportError:
        return None, None
    out: list[str | None] = []
    for fn in ("xgid", "gnubg_id"):
        try:
            out.append(getattr(ids, fn)(pos))
        except Exception:  # noqa: BLE001 - an impossible position simply has no ID
            out.append(None)
    return out[0], out[1]


def position_to_dict(pos: Position) -> dict[str, Any]:
    xgid, gnubg_id = _ids(pos)
    return {
        "boards": [list(pos.boards[0]), list(pos.boards[1])],
        "turn": pos.turn,
        "dice": _pair(pos.dice),
        "cube": pos.cube,
        "cube_owner": pos.cube_owner,
        "double_offered": pos.double_offered,
        "beaver": pos.beaver,
        "resign_offered": pos.resign_offered,
        "resigner": pos.resigner,
        "match_length": pos.match_length,
        "score": _pair(pos.score),
        "crawford": pos.crawford,
        "jacoby": pos.jacoby,
        "beavers": pos.beavers,
        "max_cube": pos.max_cube,
        "game_state": pos.game_state,
        "names": _pair(pos.names),
        "variant": pos.variant,
        "extras": [[k, v] for k, v in pos.extras],
        "xgid": xgid,
        "gnubg_id": gnubg_id,
    }


def _properties(p: Mapping[str, list[str]]) -> dict[str, list[str]]:
    return {k: list(v) for k, v in p.items()}


def action_to_dict(a: Action) -> dict[str, Any]:
    return {
        "kind": a.kind,
        "player": a.player,
        "dice": _pair(a.dice),
        "play": a.play,
        "no_move": a.no_move,
        "value": a.value,
        "text": a.text,
        "span": _span(a.span),
        "move_number": a.move_number,
        "comment": a.comment,
        "setup": None if a.setup is None else position_to_dict(a.setup),
        "properties": _properties(a.properties),
        "analysis": None if a.analysis is None else analysis_to_dict(a.analysis),
    }


class _Actions:
    """A game's actions, written by :func:`_text` straight from the objects (:func:`_action_text`), not
    through a dict each: what :func:`to_json` puts where ``game_to_dict`` puts the list of dicts."""

    __slots__ = ("actions",)

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions


def game_to_dict(g: Game, *, _lazy_actions: bool = False) -> dict[str, Any]:
    return {
        "number": g.number,
        "score": _pair(g.score),
        "names": _pair(g.names),
        "ratings": _pair(g.ratings),
        "crawford": g.crawford,
        "start": None if g.start is None else position_to_dict(g.start),
        "span": _span(g.span),
        "score_span": _span(g.score_span),
        "comments": list(g.comments),
        "properties": _properties(g.properties),
        "actions": _Actions(g.actions) if _lazy_actions else [action_to_dict(a) for a in g.actions],
    }


def match_to_dict(m: Match, *, _lazy_actions: bool = False) -> dict[str, Any]:
    r = m.rules
    return {
        "length": m.length,
        "names": _pair(m.names),
        "format": m.format,
        "source": m.source,
        "span": _span(m.span),
        "tags": [[k, v] for k, v in m.tags],
        "comments": list(m.comments),
        "rules": {
            "variant": r.variant,
            "crawford": r.crawford,
            "jacoby": r.jacoby,
            "beavers": r.beavers,
            "raccoons": r.raccoons,
            "auto_doubles": r.auto_doubles,
            "cube": r.cube,
            "cube_limit": r.cube_limit,
        },
        "properties": _properties(m.properties),
        "normalisations": [{"message": n.message, "line": n.line, "column": n.column}
                           for n in m.normalisations],
        "games": [game_to_dict(g, _lazy_actions=_lazy_actions) for g in m.games],
    }


def finding_to_dict(f: Finding) -> dict[str, Any]:
    return {
        "severity": f.severity,
        "message": f.message,
        "file": f.file,
        "line": f.line,
        "column": f.column,
        "game": f.game,
        "move": f.move,
        "player": f.player,
        "roll": f.roll,
        "text": f.text,
        "xgid": f.xgid,
        "legal": list(f.legal),
    }


def _is_scalar(v: object) -> bool:
    return v is None or isinstance(v, str | int | float | bool)


def _flat(v: object) -> bool:
    """A list written on one line: plain values only (a list of lists gets one line per inner list)."""
    return isinstance(v, list) and all(map(_is_scalar, v))


_encode_str = json.encoder.encode_basestring  # json.dumps(s, ensure_ascii=False) of a str (in C)


def _null(_: object) -> str:
    return "null"


def _true_false(v: object) -> str:
    return "true" if v else "false"


_PLAIN: dict[type, Callable[[Any], str]] = {type(None): _null, str: _encode_str, int: int.__repr__, bool: _true_false}
"""The JSON text of a value of each plain type, by its exact type (a float, a subclass: json's encoder)."""
_plain_of = _PLAIN.get


def _scalar(v: object) -> str:
    """``json.dumps(v, ensure_ascii=False)`` of a plain value, without an encoder object per call."""
    f = _plain_of(type(v))
    return _ENCODER.encode(v) if f is None else f(v)  # floats, subclasses: as json writes them


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
"""What ``json.dumps(v, ensure_ascii=False, separators=(", ", ": "))`` makes for every call."""


def _dump(v: object, level: int, out: list[str]) -> None:
    """Append the JSON text of ``v``: ``json.dumps``'s text of every value, laid out with two spaces a
    level; a dict of at most four plain values (a span, a normalisation) and a list of plain values on
    one line (``tests/json_reference.py`` writes the same layout with ``json.dumps`` for every value)."""
    out.append(_text(v, level))


_PADS = ["  " * n for n in range(64)]
_HEADS: list[dict[str, str]] = [{} for _ in range(16)]
"""Per nesting level, the text before each key's value (indentation, the key, ': '), made once."""


def _text(v: object, level: int) -> str:
    """The JSON text of ``v`` at nesting ``level``, made bottom-up by joins (no json.dumps per value).
    Each level joins its pieces once: a big record's text (a game's actions) is copied once a level,
    not once a ``+``."""
    t = type(v)
    f = _plain_of(t)
    if f is not None:
        return f(v)
    if level + 2 >= len(_PADS):
        _PADS.extend("  " * n for n in range(len(_PADS), level + 3))
    if t is _Actions:
        acts = v.actions  # type: ignore[attr-defined]
        if not acts:
            return "[]"
        pad = _PADS[level + 1]
        texts = [_action_json(a, level + 1) for a in acts]
        sep = ",\n" + pad
        return f"[\n{pad}{sep.join(texts)}\n{_PADS[level]}]"
    if isinstance(v, dict):
        if len(v) <= 4 and all(map(_is_scalar, v.values())):  # spans, normalisations: one line
            return "{" + ", ".join([_scalar(k) + ": " + _scalar(x) for k, x in v.items()]) + "}"
        heads = _HEADS[level] if level < len(_HEADS) else {}
        parts = ["{\n"]
        append = parts.append
        for k, x in v.items():
            if len(parts) > 1:
                append(",\n")
            head = heads.get(k)
            if head is None:
                head = _PADS[level + 1] + _scalar(k) + ": "
                if type(k) is str and len(heads) < 512:
                    heads[k] = head
            append(head)
            f = _plain_of(type(x))
            append(_text(x, level + 1) if f is None else f(x))
        append("\n")
        append(_PADS[level])
        append("}")
        return "".join(parts)
    if isinstance(v, list):
        if v and not _flat(v):
            pad = _PADS[level + 1]
            parts = ["[\n"]
            for x in v:
                if len(parts) > 1:
                    parts.append(",\n")
                parts.append(pad)
                parts.append(_text(x, level + 1))
            parts.append("\n")
            parts.append(_PADS[level])
            parts.append("]")
            return "".join(parts)
        return _ENCODER.encode(v)  # one line, by json's C encoder
    return _scalar(v)


def _json_plain(x: object) -> str | None:
    """The JSON of a str, an int, a bool or None (exact types), else None."""
    f = _plain_of(type(x))
    return None if f is None else f(x)


def _action_json(a: Action, level: int) -> str:
    """The text of an action at nesting ``level`` (in a game's list of actions): by its template where it
    is a common one (:func:`_action_text`), else by the general path."""
    return _action_text(a, level) or _text(action_to_dict(a), level)


def _action_text(a: Action, level: int) -> str | None:
    """``_text(action_to_dict(a), level)`` for the common action (no set-up, no analysis, no
    properties, plain values), written directly by one ``%`` of a template per level; None for any
    other (the caller takes the general path).  ``tests/test_convert_writers_fast_path.py`` holds it
    equal to the general path."""
    if a.setup is not None or a.analysis is not None or a.properties:
        return None
    kind, player, dice, span = a.kind, a.player, a.dice, a.span
    play, no_move, value, text, move_number, comment = a.play, a.no_move, a.value, a.text, a.move_number, a.comment
    if type(kind) is not str or type(player) is not int:
        return None
    if type(play) is str and type(text) is str and value is None and comment is None and span is not None \
            and type(dice) is tuple and (no_move is None or type(no_move) is str) \
            and (move_number is None or type(move_number) is int):
        # a play as a reader makes it (most actions): its numbers and texts into one template
        line, column, end_line, end_column = span.line, span.column, span.end_line, span.end_column
        if len(dice) == 2 and type(dice[0]) is int and type(dice[1]) is int and type(line) is int \
                and type(column) is int and type(end_line) is int and type(end_column) is int:
            while level >= len(_PLAY_TEMPLATES):
                _PLAY_TEMPLATES.append(_action_template(len(_PLAY_TEMPLATES), play=True))
            enc = _encode_str
            return _PLAY_TEMPLATES[level] % (
                enc(kind), player, dice[0], dice[1], enc(play), "null" if no_move is None else enc(no_move),
                enc(text), line, column, end_line, end_column, "null" if move_number is None else move_number)
    if dice is None:
        d = "null"
    elif type(dice) is tuple and len(dice) == 2 and type(dice[0]) is int and type(dice[1]) is int:
        d = f"[{dice[0]}, {dice[1]}]"
    else:
        return None
    if span is None:
        sp = "null"
    else:
        line, column, end_line, end_column = span.line, span.column, span.end_line, span.end_column
        if type(line) is int and type(column) is int and type(end_line) is int and type(end_column) is int:
            sp = f'{{"line": {line}, "column": {column}, "end_line": {end_line}, "end_column": {end_column}}}'
        else:
            parts = [_json_plain(x) for x in (line, column, end_line, end_column)]
            if None in parts:
                return None
            sp = f'{{"line": {parts[0]}, "column": {parts[1]}, "end_line": {parts[2]}, "end_column": {parts[3]}}}'
    plain = _json_plain
    play, no_move, value, text, move_number, comment = (plain(play), plain(no_move), plain(value), plain(text),
                                                        plain(move_number), plain(comment))
    if play is None or no_move is None or value is None or text is None or move_number is None or comment is None:
        return None  # (a value of another type)
    while level >= len(_ACTION_TEMPLATES):
        _ACTION_TEMPLATES.append(_action_template(len(_ACTION_TEMPLATES)))
    return _ACTION_TEMPLATES[level] % (_encode_str(kind), player, d, play, no_move, value, text, sp, move_number,
                                       comment)


def _action_template(level: int, *, play: bool = False) -> str:
    """The text of a common action at nesting ``level``, its values left as ``%`` fields (``play``: of a play
    as a reader makes it, its dice and span as numbers, no value and no comment)."""
    p, end = "  " * (level + 1), "  " * level
    keys = ("kind", "player", "dice", "play", "no_move", "value", "text", "span", "move_number", "comment")
    fields = [f'{p}"{k}": {"%d" if k == "player" else "%s"}' for k in keys]
    if play:
        fields[2] = f'{p}"dice": [%d, %d]'
        fields[5] = f'{p}"value": null'
        fields[7] = f'{p}"span": {{"line": %d, "column": %d, "end_line": %d, "end_column": %d}}'
        fields[9] = f'{p}"comment": null'
    fields += [f'{p}"setup": null', f'{p}"properties": {{}}', f'{p}"analysis": null']
    return "{\n" + ",\n".join(fields) + "\n" + end + "}"


_ACTION_TEMPLATES: list[str] = []
""":func:`_action_template` of each level, made when first needed."""
_PLAY_TEMPLATES: list[str] = []
""":func:`_action_template` of each level for a play, made when first needed."""


def to_json(match: Match, findings: Iterable[Finding] | None = None) -> str:
    """The match (and the replay's findings, when given) as versioned JSON text, ending with a newline."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "match": match_to_dict(match, _lazy_actions=True)}
    if findings is not None:
        doc["findings"] = [finding_to_dict(f) for f in findings]
    out: list[str] = []
    _dump(doc, 0, out)
    out.append("\n")
    return "".join(out)


# --------------------------------------------------------------------------- reading


class _Bad(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


_MISSING = object()


def _get(d: Mapping[str, Any], key: str, path: str, check: Callable[[Any, str], Any], default: Any = _MISSING,
         ) -> Any:
    if key not in d:
        if default is _MISSING:
            raise _Bad(f"{path}.{key}", "missing")
        return default() if callable(default) else default
    return check(d[key], f"{path}.{key}")


def _type_name(v: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", int: "a number",
            float: "a number", type(None): "null"}.get(type(v), type(v).__name__)


COUNT_MAX = 999_999_999
"""The largest count the document may hold (a match length, a score, a cube value, a game or line
number): nine digits, the bound of the transcript and SGF readers."""


def _int(v: Any, path: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Bad(path, f"expected an integer, found {_type_name(v)}")
    return v


def _shown(n: int) -> str:
    """An out-of-range number as a message quotes it: at most a short piece of a long one."""
    if abs(n) < 10 ** 30:
        return str(n)
    return f"a {'negative ' if n < 0 else ''}number of {len(str(abs(n)))} digits"


def _ranged(lo: int, hi: int, what: str = "") -> Callable[[Any, str], int]:
    """An integer from ``lo`` to ``hi`` (``what`` names it in the message)."""
    def check(v: Any, path: str) -> int:
        n = _int(v, path)
        if not lo <= n <= hi:
            raise _Bad(path, f"{what or 'the value'} must be {lo:,} to {hi:,}, not {_shown(n)}")
        return n
    return check


_count = _ranged(0, COUNT_MAX, "a count")
_signed = _ranged(-COUNT_MAX, COUNT_MAX, "a number of points")
_place = _ranged(0, COUNT_MAX, "a line or column")
_die = _ranged(1, 6, "a die")
_side = _ranged(0, 1, "a player")
_checkers = _ranged(0, 15, "a number of checkers")


def _player(v: Any, path: str) -> int:
    p = _int(v, path)
    if p not in (0, 1):
        raise _Bad(path, f"a player is 0 or 1, not {_shown(p)}")
    return p


def _number(v: Any, path: str) -> float:
    """A finite number (an equity, a chance, luck): an integer or a fraction, never NaN or infinite (the
    producer's figure as it gave it: the other readers keep any finite figure, so this one does too)."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise _Bad(path, f"expected a number, found {_type_name(v)}")
    try:
        f = float(v)
    except OverflowError:
        f = math.inf
    if not math.isfinite(f):
        raise _Bad(path, "a figure must be a finite number")
    return f


_chance = _number


def _variant(v: Any, path: str) -> str:
    name = _str(v, path)
    from ..rules import get_rules

    try:
        return get_rules(name).name
    except ValueError as e:
        raise _Bad(path, str(e)) from None


def _str(v: Any, path: str) -> str:
    if not isinstance(v, str):
        raise _Bad(path, f"expected a string, found {_type_name(v)}")
    return v


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise _Bad(path, f"expected true or false, found {_type_name(v)}")
    return v


def _obj(v: Any, path: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise _Bad(path, f"expected an object, found {_type_name(v)}")
    return v


def _list(v: Any, path: str) -> list[Any]:
    if not isinstance(v, list):
        raise _Bad(path, f"expected a list, found {_type_name(v)}")
    return v


def _opt(check: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    return lambda v, path: None if v is None else check(v, path)


def _pair_of(check: Callable[[Any, str], Any]) -> Callable[[Any, str], tuple[Any, Any]]:
    def f(v: Any, path: str) -> tuple[Any, Any]:
        lst = _list(v, path)
        if len(lst) != 2:
            raise _Bad(path, f"expected 2 items, found {len(lst)}")
        return check(lst[0], f"{path}[0]"), check(lst[1], f"{path}[1]")
    return f


def _list_of(check: Callable[[Any, str], Any]) -> Callable[[Any, str], list[Any]]:
    return lambda v, path: [check(x, f"{path}[{i}]") for i, x in enumerate(_list(v, path))]


def _span_of(v: Any, path: str) -> Span:
    d = _obj(v, path)
    return Span(_get(d, "line", path, _place), _get(d, "column", path, _place),
                _get(d, "end_line", path, _opt(_place), None), _get(d, "end_column", path, _opt(_place), None))


def _props(v: Any, path: str) -> dict[str, list[str]]:
    d = _obj(v, path)
    return {k: _list_of(_str)(x, f"{path}.{k}") for k, x in d.items()}


def _board(v: Any, path: str) -> tuple[int, ...]:
    board = tuple(_list_of(_checkers)(v, path))
    if len(board) != 26:
        raise _Bad(path, f"a board has 26 counts (off, points 1 to 24, bar), not {len(board)}")
    return board  # (more checkers in all than the variant has: the replay says so, as for every format)


def _position(v: Any, path: str) -> Position:
    d = _obj(v, path)
    boards = _get(d, "boards", path, _pair_of(_board))
    return Position(
        boards=boards,
        turn=_get(d, "turn", path, _side, 0),
        dice=_get(d, "dice", path, _opt(_pair_of(_die)), None),
        cube=_get(d, "cube", path, _ranged(1, COUNT_MAX, "a cube value"), 1),
        cube_owner=_get(d, "cube_owner", path, _opt(_side), None),
        double_offered=_get(d, "double_offered", path, _bool, False),
        beaver=_get(d, "beaver", path, _ranged(0, 2, "beaver"), 0),
        resign_offered=_get(d, "resign_offered", path, _ranged(0, 3, "a resignation"), 0),
        resigner=_get(d, "resigner", path, _opt(_side), None),
        match_length=_get(d, "match_length", path, _count, 0),
        score=_get(d, "score", path, _pair_of(_count), (0, 0)),
        crawford=_get(d, "crawford", path, _bool, False),
        jacoby=_get(d, "jacoby", path, _bool, False),
        beavers=_get(d, "beavers", path, _bool, False),
        max_cube=_get(d, "max_cube", path, _ranged(0, 30, "the cube limit (log2)"), 10),
        game_state=_get(d, "game_state", path, _ranged(0, 4, "the game state"), Position().game_state),
        names=_get(d, "names", path, _pair_of(_str), ("", "")),
        variant=_get(d, "variant", path, _str, "standard"),
        extras=tuple(_get(d, "extras", path, _list_of(_pair_of(_str)), ())),
    )


def _kind(v: Any, path: str) -> ActionKind:
    s = _str(v, path)
    if s not in _KINDS:
        raise _Bad(path, f"unknown action kind {s!r} (known: {', '.join(sorted(_KINDS))})")
    return s  # type: ignore[return-value]


def _fields(d: Mapping[str, Any], path: str, schema: Mapping[str, tuple[Callable[[Any, str], Any], Any]]
            ) -> dict[str, Any]:
    """A record's fields read from the object ``d`` (at ``path``) by :func:`_get`, as its constructor's keywords:
    ``schema`` gives each field its check and its default (``_MISSING``: it must be there)."""
    return {key: _get(d, key, path, check, default) for key, (check, default) in schema.items()}


def _action(v: Any, path: str) -> Action:
    return Action(**_fields(_obj(v, path), path, _ACTION))


def _analysis_of(v: Any, path: str) -> Analysis:
    """An analysis: every figure finite and in range, every word a string, ``played`` an index into the
    candidates (the schema of :func:`~notation.analysis.analysis_to_dict`)."""
    d = _obj(v, path)
    if d.get("checker") is not None:
        cp = f"{path}.checker"
        c = _obj(d["checker"], cp)
        candidates = _get(c, "candidates", cp, _list, list)
        for i, cand in enumerate(candidates):
            _candidate(cand, f"{cp}.candidates[{i}]")
        played = _get(c, "played", cp, _opt(_ranged(0, max(len(candidates) - 1, 0), "the index of the play made")),
                      None)
        if played is not None and not candidates:
            raise _Bad(f"{cp}.played", "no candidates to index")
    if d.get("cube") is not None:
        cp = f"{path}.cube"
        c = _obj(d["cube"], cp)
        for key in ("no_double", "double_take", "double_pass", "cubeless_equity", "double_cubeless_equity"):
            _get(c, key, cp, _opt(_number), None)
        for key in ("verdict", "level"):
            _get(c, key, cp, _opt(_str), None)
        for key in ("probabilities", "double_probabilities"):
            _get(c, key, cp, _opt(_probabilities), None)
        _get(c, "rollout", cp, _opt(_rollout), None)
    _get(d, "luck", path, _opt(_number), None)
    for key in ("luck_rating", "producer"):
        _get(d, key, path, _opt(_str), None)
    extra = _get(d, "extra", path, _opt(_obj), None) or {}
    for k, x in extra.items():
        _str(x, f"{path}.extra.{k}")
    return analysis_from_dict(d)


def _candidate(v: Any, path: str) -> None:
    c = _obj(v, path)
    _get(c, "play", path, _str)
    for key in ("equity", "cubeless_equity"):
        _get(c, key, path, _opt(_number), None)
    _get(c, "level", path, _opt(_str), None)
    _get(c, "probabilities", path, _opt(_probabilities), None)
    _get(c, "rollout", path, _opt(_rollout), None)


def _rollout(v: Any, path: str) -> None:
    """A rollout (:func:`~notation.analysis.rollout_to_dict`): counts of games and plies, finite error bounds,
    the levels and the settings as text."""
    d = _obj(v, path)
    for key in ("trials", "truncation", "double_trials"):
        _get(d, key, path, _opt(_count), None)
    for key in ("error", "double_error"):
        _get(d, key, path, _opt(_number), None)
    for key in ("checker_level", "cube_level"):
        _get(d, key, path, _opt(_str), None)
    _get(d, "settings", path, _list_of(_pair_of(_str)), list)


def _probabilities(v: Any, path: str) -> None:
    d = _obj(v, path)
    _get(d, "win", path, _chance)
    for key in ("win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"):
        _get(d, key, path, _chance, 0.0)


_SEVERITIES = ("error", "warning", "note")


def _severity(v: Any, path: str) -> str:
    s = _str(v, path)
    if s not in _SEVERITIES:
        raise _Bad(path, f"a severity is error, warning or note, not {s[:40]!r}")
    return s


_ACTION: dict[str, tuple[Callable[[Any, str], Any], Any]] = {
    "kind": (_kind, _MISSING),
    "player": (_player, _MISSING),
    "dice": (_opt(_pair_of(_die)), None),
    "play": (_opt(_str), None),
    "no_move": (_opt(_str), None),
    "value": (_opt(_count), None),
    "text": (_str, ""),
    "span": (_opt(_span_of), None),
    "move_number": (_opt(_count), None),
    "comment": (_opt(_str), None),
    "setup": (_opt(_position), None),
    "properties": (_props, dict),
    "analysis": (_opt(_analysis_of), None),
}
"""An action's fields (:func:`_action`)."""

_FINDING: dict[str, tuple[Callable[[Any, str], Any], Any]] = {
    "severity": (_severity, _MISSING),
    "message": (_str, _MISSING),
    "file": (_opt(_str), None),
    "line": (_opt(_place), None),
    "column": (_opt(_place), None),
    "game": (_opt(_count), None),
    "move": (_opt(_count), None),
    "player": (_opt(_str), None),
    "roll": (_opt(_str), None),
    "text": (_str, ""),
    "xgid": (_opt(_str), None),
    "legal": (_list_of(_str), list),
}
"""A stored finding's fields (:func:`findings_from_json`)."""


def _game(v: Any, path: str) -> Game:
    d = _obj(v, path)
    return Game(
        number=_get(d, "number", path, _count),
        score=_get(d, "score", path, _opt(_pair_of(_signed)), None),  # as the record says it (the replay judges)
        names=_get(d, "names", path, _opt(_pair_of(_str)), None),
        ratings=_get(d, "ratings", path, _pair_of(_opt(_str)), (None, None)),
        actions=_get(d, "actions", path, _list_of(_action), list),
        start=_get(d, "start", path, _opt(_position), None),
        crawford=_get(d, "crawford", path, _opt(_bool), None),
        span=_get(d, "span", path, _opt(_span_of), None),
        score_span=_get(d, "score_span", path, _opt(_span_of), None),
        comments=_get(d, "comments", path, _list_of(_str), list),
        properties=_get(d, "properties", path, _props, dict),
    )


def _rules(v: Any, path: str) -> MatchRules:
    d = _obj(v, path)
    dflt = MatchRules()
    return MatchRules(
        variant=_get(d, "variant", path, _variant, dflt.variant),
        crawford=_get(d, "crawford", path, _bool, dflt.crawford),
        jacoby=_get(d, "jacoby", path, _bool, dflt.jacoby),
        beavers=_get(d, "beavers", path, _bool, dflt.beavers),
        raccoons=_get(d, "raccoons", path, _bool, dflt.raccoons),
        auto_doubles=_get(d, "auto_doubles", path, _ranged(0, 30, "automatic doubles"), dflt.auto_doubles),
        cube=_get(d, "cube", path, _bool, dflt.cube),
        cube_limit=_get(d, "cube_limit", path, _opt(_ranged(1, COUNT_MAX, "a cube limit")), dflt.cube_limit),
    )


def _normalisation(v: Any, path: str) -> Normalisation:
    d = _obj(v, path)
    return Normalisation(_get(d, "message", path, _str), _get(d, "line", path, _opt(_place), None),
                         _get(d, "column", path, _opt(_place), None))


def match_from_dict(d: Mapping[str, Any], path: str = "match") -> Match:
    """The :class:`Match` of a ``"match"`` object (raises :class:`ParseError` naming the bad key)."""
    try:
        return _match(d, path)
    except _Bad as e:
        raise ParseError(f"bad gammon-notation JSON: {e}", text=e.path) from None


def _match(v: Any, path: str) -> Match:
    d = _obj(v, path)
    return Match(
        length=_get(d, "length", path, _count, 0),
        names=_get(d, "names", path, _pair_of(_str), ("", "")),
        games=_get(d, "games", path, _list_of(_game), list),
        tags=[tuple(t) for t in _get(d, "tags", path, _list_of(_pair_of(_str)), list)],
        comments=_get(d, "comments", path, _list_of(_str), list),
        rules=_get(d, "rules", path, _rules, MatchRules),
        source=_get(d, "source", path, _opt(_str), None),
        format=_get(d, "format", path, _str, ""),
        span=_get(d, "span", path, _opt(_span_of), None),
        normalisations=_get(d, "normalisations", path, _list_of(_normalisation), list),
        properties=_get(d, "properties", path, _props, dict),
    )


def _document(text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        lines = text.split("\n")
        line = lines[e.lineno - 1] if 0 < e.lineno <= len(lines) else ""
        raise ParseError(f"not valid JSON: {e.msg}", line=e.lineno, column=e.colno, text=line) from None
    except RecursionError:
        raise ParseError("not valid JSON: nested too deeply") from None
    except ValueError as e:  # Python refuses integers of more than 4,300 digits
        raise ParseError(f"not valid JSON: a number is too long ({e})".split(";")[0] + ")", line=1, column=1) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ParseError(f'not a gammon-notation JSON document (no "format": "{FORMAT}")', line=1, column=1)
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ParseError('"version" must be an integer', line=1, column=1)
    if version > VERSION:
        raise ParseError(f"JSON version {version} is newer than this program reads ({VERSION})", line=1,
                         column=1)
    if version < 1:
        raise ParseError(f"JSON version {version} does not exist", line=1, column=1)
    return doc


def from_json(text: str) -> Match:
    """Read a match written by :func:`to_json` (``findings`` are read by :func:`findings_from_json`)."""
    doc = _document(text)
    if "match" not in doc:
        raise ParseError('bad gammon-notation JSON: "match" is missing', line=1, column=1)
    return match_from_dict(doc["match"])


def findings_from_json(text: str) -> list[Finding]:
    """The findings stored by :func:`to_json` (an empty list when none were stored)."""
    from ..replay import Finding

    doc = _document(text)
    out: list[Finding] = []
    try:
        for i, v in enumerate(_get(doc, "findings", "", _list, list)):
            path = f"findings[{i}]"
            out.append(Finding(**_fields(_obj(v, path), path, _FINDING)))
    except _Bad as e:
        raise ParseError(f"bad gammon-notation JSON: {e}", text=e.path) from None
    return out


def write(match: Match, rep: MatchReplay | None = None) -> WriteResult:
    """:func:`to_json`: the JSON text holds the whole record, and drops nothing."""
    return WriteResult(to_json(match))


_GAMES_END = '"games": []\n  }\n}\n'


_ACTIONS_HERE = -0x5EC12E7
"""What a game's text holds where its actions go, for :func:`_emit_game`."""


def _emit_game(g: Game, emit: Callable[[str], None]) -> None:
    """The text of game ``g`` in a list of games (:func:`_text` of its dict at level 3), given to ``emit`` an
    action at a time: a game of 3,000 actions of 999 properties each was one string of 8.8 MB, copied again
    by its join and its bytes."""
    d = game_to_dict(g, _lazy_actions=True)
    acts = d["actions"].actions
    d["actions"] = _ACTIONS_HERE
    text = _text(d, 3)
    mark = "\n" + _PADS[4] + '"actions": ' + str(_ACTIONS_HERE)  # (a JSON string holds no raw line break)
    at = text.index(mark) + len(mark) - len(str(_ACTIONS_HERE))
    emit("      " + text[:at])
    if not acts:
        emit("[]")
    else:
        pad = _PADS[5]
        sep = ",\n" + pad
        emit("[\n" + pad)
        first = True
        for a in acts:
            emit(("" if first else sep) + _action_json(a, 5))
            first = False
        emit("\n" + _PADS[4] + "]")
    emit(text[at + len(str(_ACTIONS_HERE)):])


def write_games(match: Match, games: Iterator[tuple[Game, GameReplay | None]], emit: Callable[[str], None]
                ) -> WriteResult:
    """:func:`write` one game at a time (:meth:`notation.formats.registry.Format.write_games`): the
    header's text with each game's put where the list of games goes."""
    header = copy.copy(match)
    header.games = []
    head = to_json(header)
    if not head.endswith(_GAMES_END):
        raise RuntimeError("the JSON document does not end with the list of games")
    first = True
    for g, _ in games:
        if first:
            emit(head[:-len(_GAMES_END)] + '"games": [\n')
            first = False
        else:
            emit(",\n")
        _emit_game(g, emit)
    emit(head if first else "\n    ]\n  }\n}\n")
    return WriteResult("")
