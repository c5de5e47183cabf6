"""``gammon show POSITION``: a position read from any ID format, shown with its board and written in
every ID format."""

from __future__ import annotations

import sys
from typing import Any

import click

from .._term import fail, safe, safe_json
from ..errors import NotationError
from ..ids import GAME_STATES, all_ids, ascii_board
from ..position import PLAYER_LETTERS, RESIGN_NAMES, Position

__all__ = ["command", "describe", "FORMAT_NAMES"]

FORMAT_NAMES = {"xgid": "XGID", "gnubg": "GNUbg ID (PositionID:MatchID)", "position_id": "Position ID",
                "fibs": "FIBS board", "snowie": "Snowie text", "ascii": "text board", "ogid": "OGID (OGXM)"}


def _who(p: Position, player: int) -> str:
    name = p.names[player]
    return f"{PLAYER_LETTERS[player]} (player {player}{', ' + name if name else ''})"


def _state_line(p: Position) -> str:
    if p.double_offered:
        what = {1: "doubled and was beavered", 2: "doubled, was beavered and raccooned"}.get(
            p.beaver, f"doubles to {p.cube * 2}")
        return f"{_who(p, p.turn)} {what}; {_who(p, 1 - p.turn)} to decide"
    line = f"{_who(p, p.turn)} " + (f"rolled {p.dice[0]}{p.dice[1]}" if p.dice else "to roll")
    if p.resign_offered:
        resigner = p.resigner if p.resigner is not None else p.turn
        line += (f"; {_who(p, resigner)} offers to resign "
                 f"{RESIGN_NAMES.get(p.resign_offered, str(p.resign_offered))}")
    return line


def _cube_line(p: Position) -> str:
    if p.match_length == 0 and p.max_cube == 0:
        return "not used (cubeless: max cube 0)"
    owner = "centred" if p.cube_owner is None else f"owned by {_who(p, p.cube_owner)}"
    return f"{p.cube}, {owner}"


def _match_line(p: Position) -> str:
    score = f"O {p.score[0]} - X {p.score[1]}"
    if p.match_length:
        extra = " (Crawford game)" if p.crawford else " (post-Crawford)" if p.post_crawford else ""
        return f"{p.match_length}-point match, score {score}{extra}"
    rules = [r for r, on in (("Jacoby", p.jacoby), ("beavers", p.beavers)) if on]
    return f"money session, score {score}" + (f" ({', '.join(rules)})" if rules else "")


def _analysis_rows(record: Any) -> list[tuple[str, str]]:
    a = record.analysis
    if a is None:
        return []
    rows: list[tuple[str, str]] = [("Analysis", a.producer)] if a.producer else []
    if a.checker is not None:
        for i, c in enumerate(a.checker.candidates, 1):
            eq = "" if c.equity is None else f"{c.equity:+.3f}"
            level = f"  [{c.level}]" if c.level else ""
            rows.append((f"Play {i}" if i > 1 else "Best play", f"{c.play:<24} {eq}{level}"))
    if a.cube is not None:
        c = a.cube
        def f(v: float | None) -> str:
            return "?" if v is None else f"{v:+.3f}"
        rows.append(("Cube", f"no double {f(c.no_double)}, double/take {f(c.double_take)}, "
                                   f"double/pass {f(c.double_pass)}" + (f": {c.verdict}" if c.verdict else "")))
    return rows


def describe(p: Position, fmt: str, source: str) -> dict[str, Any]:
    """Everything ``gammon show --json`` prints."""
    ids = all_ids(p)
    on_roll, opponent = p.pip_counts
    return {
        "input": source,
        "format": fmt,
        "xgid": ids["xgid"],
        "gnubg_id": ids["gnubg_id"],
        "position_id": ids["position_id"],
        "match_id": ids["match_id"],
        "fibs": ids["fibs"],
        "snowie": ids["snowie"],
        "ogid": ids["ogid"],
        "pips": {"on_roll": on_roll, "opponent": opponent, "O": p.pips(0), "X": p.pips(1)},
        "turn": p.turn,
        "on_roll": PLAYER_LETTERS[p.turn],
        "dice": f"{p.dice[0]}{p.dice[1]}" if p.dice else None,
        "cube": {"value": p.cube, "owner": p.cube_owner, "max_cube": p.max_cube},
        "double_offered": p.double_offered,
        "beaver": p.beaver,
        "resign_offered": p.resign_offered,
        "resigner": p.resigner if p.resign_offered else None,
        "match_length": p.match_length,
        "score": list(p.score),
        "crawford": p.crawford,
        "jacoby": p.jacoby,
        "beavers": p.beavers,
        "game_state": GAME_STATES.get(p.game_state, str(p.game_state)),
        "names": list(p.names),
        "variant": p.variant,
        "board": ascii_board(p),
        "problems": p.problems(),
        "notes": [v for k, v in p.extras if k == "note"],
    }


@click.command("show", context_settings={"ignore_unknown_options": True})
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def command(position: str, as_json: bool) -> None:
    """Show POSITION, given in any supported format (recognised by its shape): an XGID, a GNU
    Backgammon PositionID:MatchID (or a Position ID alone: player 0 on roll), a FIBS 'board:' line,
    a Snowie text position, or a board as gnubg's 'show board' prints it; or a file holding one, or
    an eXtreme Gammon or BGBlitz text export (its ID gives the position; its names and ranked plays
    or cube decision are shown too).  '-' reads it from standard input.

    Players, as in `gammon render`: X is Black, player 1 (the black checkers of a diagram, XGID
    upper case, the right column of a .mat score line); O is White, player 0 (the white checkers,
    XGID lower case, the left column).  The board is gnubg's, with X at the bottom; points are
    numbered from the side of the player on roll (`render` puts that player at the bottom unless
    --bottom says otherwise, and numbers the points for the bottom player).

    Prints the board, the pip counts, the side on roll, the dice, cube and score, and the position
    in every ID format.  A position that cannot exist is shown with its problems and the exit status
    is 2, as for text that cannot be read.
    """
    from ..positionio import position_source

    try:
        record = position_source(position)
    except NotationError as e:
        if as_json:
            import json

            _write(safe_json(json.dumps({"error": e.message, "input": position if position != "-" else "<stdin>",
                                         "line": e.line, "column": e.column}, ensure_ascii=False)) + "\n")
        fail(e.message)
    except OSError as e:
        fail(f"{position}: cannot read: {e.strerror or e}")
    pos, fmt = record.position, record.format
    info = describe(pos, fmt, record.source or position.strip())
    if record.analysis is not None:
        from ..analysis import analysis_to_dict

        info["analysis"] = analysis_to_dict(record.analysis)
    info["normalisations"] = [n.message for n in record.normalisations]
    from ..ids import lost_by

    info["not_held"] = lost_by(pos)
    if as_json:
        import json

        _write(safe_json(json.dumps(info, ensure_ascii=False)) + "\n")
    else:
        pips = info["pips"]
        rows = [
            ("Format", FORMAT_NAMES.get(fmt, fmt)),
            ("On roll", _state_line(pos)),
            ("Pips", f"{pips['on_roll']} on roll ({PLAYER_LETTERS[pos.turn]}), {pips['opponent']} opponent "
                     f"({PLAYER_LETTERS[1 - pos.turn]})"),
            ("Cube", _cube_line(pos)),
            ("Match", _match_line(pos)),
        ]
        if pos.variant != "standard":
            rows.append(("Variant", pos.variant))
        rows += [("XGID", info["xgid"]), ("GNUbg ID", info["gnubg_id"]), ("Position ID", info["position_id"]),
                 ("Match ID", info["match_id"]), ("FIBS", info["fibs"]), ("Snowie", info["snowie"]),
                 ("OGID", info["ogid"])]
        rows += [("Note", n) for n in info["notes"] + info["normalisations"]]
        if info["not_held"]:
            held = {"xgid": "XGID", "gnubg_id": "GNUbg ID", "fibs": "FIBS", "snowie": "Snowie", "ogid": "OGID"}
            rows.append(("Not held", "; ".join(f"{held[k]}: {', '.join(v)}" for k, v in info["not_held"].items())))
        rows += _analysis_rows(record)
        rows += [("Problem", s) for s in info["problems"]]
        _write(safe(info["board"] + "\n\n" + "".join(  # (names and notes may hold control characters)
            f"{label + ':':<13}{value if value is not None else '(cannot be written)'}\n" for label, value in rows)))
    if info["problems"]:
        fail("impossible position: " + "; ".join(info["problems"]))


def _write(text: str) -> None:
    """``text`` on standard output, at once (before any message on stderr)."""
    sys.stdout.write(text)
    sys.stdout.flush()
