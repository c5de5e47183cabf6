"""Reading OGXM v2 into the match model (see :mod:`notation.formats.ogxm`)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .._digits import ascii_digits
from ..losses import THUMBNAIL
from ..position import Position
from ..record import Action, Game, Match, MatchRules, Normalisation, Span
from ..rows import number_rows
from . import _ogxm_wire as W
from ._ogxm_shared import (
    END_KEY,
    GV_ILLEGAL_KEY,
    KEEP_KEY,
    LONGGAMMON,
    MORE_KEY,
    OWN_PREFIX,
    PLAY_KEY,
    PLIES_KEY,
    PLY_KEY,
    RAW_KEY,
    SETUP_KEY,
    VARIANTS,
    VERDICTS,
    Units,
    b64,
    diff_play,
    end_plies,
    first_to_move,
    level_text,
    model_boards,
    opening,
    own_point,
    producer_of,
    token,
)

if TYPE_CHECKING:  # (imported where a file holds analysis: most files read for validation hold none)
    from ..analysis import CheckerAnalysis, CubeAnalysis, Probabilities

CURRENCY_MONEY, CURRENCY_MATCH = 1, 2


def _iso(ms: int) -> str:
    """An instant (milliseconds since 1970, UTC) as ISO 8601: ``2024-08-10``, ``2024-08-10T14:05:00Z``,
    ``2024-08-10T14:05:00.250Z``."""
    from datetime import UTC, datetime

    try:
        d = datetime.fromtimestamp(ms // 1000, UTC)
    except (OverflowError, OSError, ValueError):
        return str(ms)
    if ms % 86_400_000 == 0:
        return d.strftime("%Y-%m-%d")
    text = d.strftime("%Y-%m-%dT%H:%M:%S")
    if ms % 1000:
        text += f".{ms % 1000:03d}"
    return text + "Z"


def _tag_text(key: str, value: Any) -> str:
    if key in ("started_at", "completed_at"):
        return _iso(value)
    if key in ("score_start", "score_final"):
        return f"{value[0]}-{value[1]}"
    if value is True:
        return "yes"
    return str(value)


@dataclass(slots=True, eq=False)
class _Ply:
    """What the analysis of one ply needs: the action it is about, its seat, the cube before it, the game,
    the board before it (absolute) and the roll."""

    action: Action | None
    seat: int
    cube: int
    game: int
    board: list[int] | None
    dice: tuple[int, int] | None
    decider: int
    """The seat whose equities the ply's decisions hold (the doubler on a take or a pass)."""


class _At:
    """Where a game's record starts (what an error about the record names)."""

    __slots__ = ("start",)

    def __init__(self, start: int) -> None:
        self.start = start


class Reader:
    def __init__(self, data: bytes, name: str | None, base: int, keep: bool, member: int = 0) -> None:
        self.data = data
        self.member = member
        """The file's number in the stream it is a member of (0: a file alone)."""
        self.name = name
        self.base = base
        """The file's offset in the stream it is a member of (added to every offset an error names)."""
        self.keep = keep
        self.match = Match(format="ogxm", source=name)
        self.plies: list[_Ply] = []
        self.notes = self.match.normalisations
        self.analysed = False
        self.game_scores: list[tuple[int, int]] = []
        self.crawford_game: int | None = None
        self.checksum: str | None = None
        """``crc32`` when the file's checksum was verified (another algorithm's name, or None)."""
        self.restated: dict[int, tuple[int, ...]] = {}
        """The set-position plies that restate a play (by ply_ref): the board they set."""
        self.annos: list[list[dict[str, Any]]] = []
        self.setup_refs: dict[int, str] = {}
        """The set-position plies with dice that our writer marks as positions set by hand after a roll (not
        plays), by ply_ref: the cell as written."""
        self.variant_number = 0

    def fail(self, message: str, at: int) -> None:
        W.fail(message, at, self.name)

    def note(self, message: str, line: int | None = None, severity: Literal["note", "warning"] = "note") -> None:
        self.notes.append(Normalisation(message, line, 1 if line is not None else None, severity))

    # ------------------------------------------------------------------ the file

    def read(self) -> Match:
        c = W.split(self.data, self.name, self.base)
        m = self.match
        if self.member <= 1:  # (said once for a stream, not for each of its members)
            self.note("an OGXM file has no lines: locations are ply numbers (FILE:PLY:1), counted across the games")
        if c.checksum is None:
            self.note("the file has no checksum (CSUM)")
        elif c.checksum != "crc32":
            self.note(f"the checksum ({c.checksum}) is not CRC-32: not verified", severity="warning")
        self.checksum = c.checksum
        secs = c.sections
        self.analysed = any(s.kind == b"ANAL" for s in secs)
        self._mtch(W.decode_mtch(secs[0].payload, secs[0].start, self.name))
        games = [s for s in secs if s.kind == b"GAME"]
        if len(games) > W.MAX_GAMES:
            self.fail(f"{len(games)} games (OGXM allows {W.MAX_GAMES})", games[W.MAX_GAMES].at)
        self.annos = [W.decode_anno(s.payload, s.start, self.name) for s in secs if s.kind == b"ANNO"]
        self.setup_refs = {r["ref"]: r["value"] for rs in self.annos for r in rs
                           if r["scope"] == W.SCOPE_PLY and r.get("key") == SETUP_KEY}
        self._score_walk(games)
        for i, s in enumerate(games):
            self._game(i, s)
        kept: list[str] = []
        blocks = 0
        anchor = "MTCH"
        i = 1
        while i < len(secs):
            s = secs[i]
            kind = s.kind
            if kind == b"GAME":
                anchor = "GAME"
            elif kind == b"ANAL":
                if i + 1 >= len(secs) or secs[i + 1].kind != b"DECS":
                    self.fail("an ANAL section without its DECS section after it", s.at)
                decs = secs[i + 1]
                blocks += 1
                if not self._block(s, decs, blocks):
                    kept += [f"ANAL:{anchor}:{len(self.plies)}:{b64(s.payload)}",
                             f"DECS:{anchor}:{len(self.plies)}:{b64(decs.payload)}"]
                anchor = f"block{blocks}"
                i += 2
                continue
            elif kind == b"DECS":
                self.fail("a DECS section without its ANAL section before it", s.at)
            elif kind == b"ANNO":
                self._anno(self.annos.pop(0))
                anchor = "ANNO"
            else:
                if kind == b"SIGN" and not anchor.startswith("block"):
                    self.fail("a SIGN section that follows no analysis block", s.at)
                covered = str(len(self.plies))
                if kind in (b"SIGN", b"MSIG"):
                    block = secs[i - 2].payload + secs[i - 1].payload if kind == b"SIGN" else None
                    covered = self._signature(s, blocks, secs, block)
                kept.append(f"{kind.decode('latin-1')}:{anchor}:{covered}:{b64(s.payload)}")
                if kind != b"SIGN":
                    anchor = kind.decode("latin-1")
            i += 1
        if kept:
            m.properties[KEEP_KEY] = kept
        if self.keep:
            m.properties[RAW_KEY] = [b64(self.data)]
        return m

    # ------------------------------------------------------------------ MTCH

    def _mtch(self, f: dict[str, Any]) -> None:
        m = self.match
        m.length = f["match_length"]
        variant = f["variant"]
        name = VARIANTS.get(variant)
        if name is None:
            self.note(f"variant {variant} ({'LongGammon' if variant == LONGGAMMON else 'unknown'}) is not "
                      "played here: read under the standard rules")
            name = "standard"
            m.properties["ogxm.variant"] = [str(variant)]
        self.variant_number = variant
        m.names = (f.get("white_name", ""), f.get("black_name", ""))
        rules = f.get("rules", 0)
        m.rules = MatchRules(variant=name, crawford=bool(rules & 1) if m.length else True, jacoby=bool(rules & 2),
                             beavers=bool(rules & 4), raccoons=bool(rules & 8), auto_doubles=1 if rules & 16 else 0,
                             cube_limit=f.get("cube_limit"))
        if rules & ~0x1F:
            m.tags.append(("rules", str(rules)))
        self.mtch = f
        for key in W.MTCH_FIELDS.values():
            if key in ("white_name", "black_name", "rules", "cube_limit", "score_start", "white_profile",
                       "black_profile", "crawford_before_start") or key not in f:
                continue
            m.tags.append((key, _tag_text(key, f[key])))
        for side in ("white_profile", "black_profile"):
            for k, v in f.get(side, {}).items():
                if k != "_more":
                    m.tags.append((f"{side}.{k}", str(v)))
            if "_more" in f.get(side, {}):
                self.note(f"MTCH {side} holds fields unknown here: kept for rewriting")
        if "_more" in f:
            self.note("MTCH holds fields unknown here: kept for rewriting")

    def _score_walk(self, games: list[W.Section]) -> None:
        """Decode the games, then each one's starting score and the Crawford game, derived as OGXM derives
        them: from the starting score and each game's winner and points (capped at the match length)."""
        self.records: list[tuple[dict[str, Any], list[W.Ply]]] = []
        total = 0
        for s in games:
            rec, plies = W.decode_game(s.payload, s.start, self.name)
            total += len(plies)
            if total > W.MAX_TOTAL_PLIES:
                self.fail(f"more than {W.MAX_TOTAL_PLIES} plies in the match (OGXM allows {W.MAX_TOTAL_PLIES})", s.at)
            self.records.append((rec, plies))
        self._scores()

    def _scores(self) -> None:
        length = self.match.length
        w, b = self.mtch.get("score_start", (0, 0))
        crawford_rule = self.match.rules.crawford and length > 1 and not self.mtch.get("crawford_before_start")
        for i, (rec, _plies) in enumerate(self.records):
            self.game_scores.append((w, b))
            if crawford_rule and self.crawford_game is None and (w == length - 1 or b == length - 1) \
                    and max(w, b) < length:
                self.crawford_game = i
            winner, points = rec.get("winner"), rec.get("points_won")
            if winner in (0, 1) and points is not None:
                if winner == 0:
                    w += min(points, length - w) if length > 0 else points
                else:
                    b += min(points, length - b) if length > 0 else points

    # ------------------------------------------------------------------ GAME

    def _game(self, gi: int, s: W.Section | _At) -> None:
        rec, plies = self.records[gi]
        m = self.match
        score = self.game_scores[gi]
        game = Game(number=gi + 1, score=score, names=m.names)
        if gi == 0 and self.mtch.get("crawford_before_start"):
            game.crawford = False
        m.games.append(game)
        actions = game.actions
        first_ref = len(self.plies)
        game.span = Span(first_ref + 1, 1)
        board = list(opening(self.variant_number))
        cube = rec.get("initial_cube_value", 1)
        if cube < 1 or cube & (cube - 1):
            self.fail(f"game {gi + 1}: an initial cube of {cube}", s.start)
        owner = rec.get("initial_cube_owner")
        if owner is not None and owner not in (0, 1):
            self.fail(f"game {gi + 1}: an initial cube owner {owner}", s.start)
        if "initial_board" in rec or cube != 1 or owner is not None or self.variant_number not in VARIANTS:
            if "initial_board" in rec:
                board = list(rec["initial_board"])
            game.start = Position(boards=model_boards(board, m.rules.variant), turn=first_to_move(plies), cube=cube,
                                  cube_owner=owner, match_length=m.length, score=score, names=m.names,
                                  variant=m.rules.variant)
            self.note(f"game {gi + 1} starts from a set-up position", first_ref + 1)
        for key in ("termination", "auto_doubles", "is_last_game"):
            if key in rec:
                game.properties[key] = [str(rec[key]) if rec[key] is not True else "yes"]
        if "_more" in rec:
            self.note(f"game {gi + 1}: its record holds fields unknown here (kept for rewriting)", first_ref + 1)
        track = self.analysed
        ended: str | None = None
        ends: list[str] = []
        """The plies after the last real one (markers, a forfeit), hex."""
        last_ref = first_ref
        winner, points = rec.get("winner"), rec.get("points_won")
        if winner is not None and winner not in (0, 1):
            self.fail(f"game {gi + 1}: winner {winner} is neither White (0) nor Black (1)", s.start)
        complete = winner is not None and m.length > 0 and score[winner] + (points or 0) >= m.length
        for action, seat, steps, extras, at in plies:
            ref = len(self.plies)
            last_ref = ref
            line = ref + 1
            span = Span(line, 1)
            if ends and action not in W.MARKERS and action != W.FORFEIT:
                for raw in ends:  # markers before the game's end: kept where they are
                    self._odd_ply(game, bytes.fromhex(raw), line - 1)
                ends = []
            if action <= 20:
                lo, hi = W.DICE[action]
                before = board[:] if track else None
                if steps and not _fits(steps, lo, hi, seat):
                    text = self._respell(board, seat, steps, lo, hi, line)
                else:
                    text = _apply(board, seat, steps)
                a = Action("move", seat, dice=(hi, lo), play=text, no_move=None if text else "",
                           text=f"{hi}{lo}: {text}".rstrip(), span=span)
                actions.append(a)
                self.plies.append(_Ply(a, seat, cube, gi, before, (hi, lo), seat))
                continue
            if action == W.SET_POSITION:
                x = extras or {}
                if "board" not in x:
                    self.fail("a set-position ply without its board", at)
                new = list(x["board"])
                if "dice" in x and ref in self.setup_refs:  # a position set by hand after a roll (Snowie's
                    d1, d2 = x["dice"]                       # "Illegal play" edit): the cell as written
                    pos = Position(boards=model_boards(new, m.rules.variant), turn=seat, cube=cube, cube_owner=owner,
                                   match_length=m.length, score=score, names=m.names, variant=m.rules.variant)
                    a = Action("setup", 1 - seat, dice=(d1, d2), setup=pos, text=self.setup_refs[ref], span=span)
                    self.plies.append(_Ply(a, seat, cube, gi, None, None, seat))
                elif "dice" in x:
                    mover = 1 - seat
                    d1, d2 = x["dice"]
                    before = board[:]
                    text = diff_play(board, new, mover)
                    a = Action("move", mover, dice=(d1, d2), play=text, no_move=None if text else "",
                               text=f"{d1}{d2}: {text}".rstrip(), span=span)
                    self.restated[ref] = tuple(new)
                    if not x.get("illegal"):
                        self.note(f"ply {line}: a set-position ply with dice but not marked illegal", line)
                    self.plies.append(_Ply(a, mover, cube, gi, before if track else None, (d1, d2), mover))
                else:
                    pos = Position(boards=model_boards(new, m.rules.variant), turn=seat, cube=cube, cube_owner=owner,
                                   match_length=m.length, score=score, names=m.names, variant=m.rules.variant)
                    a = Action("setup", seat, setup=pos, text="set position", span=span)
                    self.plies.append(_Ply(a, seat, cube, gi, None, None, seat))
                board = new
                actions.append(a)
                continue
            if action == W.DOUBLE:
                a = Action("double", seat, value=cube * 2, text="Doubles", span=span)
                self.plies.append(_Ply(a, seat, cube, gi, None, None, seat))
            elif action == W.TAKE:
                a = Action("take", seat, text="Takes", span=span)
                self.plies.append(_Ply(a, seat, cube, gi, None, None, 1 - seat))
                cube *= 2
                owner = seat
            elif action == W.DROP:
                a = Action("drop", seat, text="Drops", span=span)
                self.plies.append(_Ply(a, seat, cube, gi, None, None, 1 - seat))
                ended = "drop"
            elif action == W.BEAVER:
                a = Action("beaver", seat, value=cube * 4, text="Beavers", span=span)
                self.plies.append(_Ply(a, seat, cube, gi, None, None, 1 - seat))
                cube *= 4
                owner = 1 - seat
            elif action == W.RACCOON:
                a = Action("raccoon", seat, value=cube * 2, text="Raccoons", span=span)
                self.plies.append(_Ply(a, seat, cube, gi, None, None, 1 - seat))
                cube *= 2
                owner = 1 - seat
            elif action in (W.RESIGN_GAME, W.RESIGN_MATCH):
                value = (extras or {}).get("resign_value")
                if actions and self.plies[-1].action is actions[-1]:
                    self._rolled_then_resigned(actions[-1], seat)
                a = Action("resign", seat, value=value, text="Resigns", span=span)
                self.plies.append(_Ply(a, seat, cube, gi, None, None, seat))
                if action != (W.RESIGN_MATCH if complete else W.RESIGN_GAME) or set(extras or {}) != {"resign_value"}:
                    a.properties[PLY_KEY] = [W.encode_ply(action, seat, (), extras).hex()]
                actions.append(a)
                a = Action("accept", 1 - seat, text="Accepts", span=span)
                ended = "resign"
            elif action in W.MARKERS or action == W.FORFEIT:
                if action == W.FORFEIT and actions and self.plies and self.plies[-1].action is actions[-1]:
                    self._rolled_then_resigned(actions[-1], seat)  # (a forfeit after a roll: the roll not played)
                self.plies.append(_Ply(None, seat, cube, gi, None, None, seat))
                if action == W.NULL:
                    self._odd_ply(game, W.encode_ply(action, seat, (), extras), line)
                else:
                    ends.append(W.encode_ply(action, seat, (), extras).hex())
                continue
            elif action == W.CUBE_SET and actions and actions[-1].kind == "setup" and extras \
                    and set(extras) <= {"cube_value", "cube_owner"} and _power_of_two(extras.get("cube_value", 0)) \
                    and extras.get("cube_owner", 0) in (0, 1):
                # the cube a set-up position sets (written after its set-position ply)
                cube, owner = extras["cube_value"], extras.get("cube_owner")
                prev = actions[-1]
                assert prev.setup is not None
                prev.setup = prev.setup.replace(cube=cube, cube_owner=owner)
                self.plies.append(_Ply(None, seat, cube, gi, None, None, seat))
                continue
            else:
                self.plies.append(_Ply(None, seat, cube, gi, None, None, seat))
                self._odd_ply(game, W.encode_ply(action, seat, (), extras), line)
                continue
            actions.append(a)
        _beaver_takes(actions)
        want = [W.encode_ply(x, 0, (), None).hex() for x in end_plies(ended, winner, complete)]
        if winner is not None:
            win = Action("win", winner, value=points, text=f"Wins {points} point{'s' if points != 1 else ''}",
                         span=Span(last_ref + 1, 1))
            if ends != want:
                win.properties[END_KEY] = ends or ["none"]
            actions.append(win)
        elif ends:
            game.properties[END_KEY] = ends
        number_rows(game)  # "move M" is the .mat row, in every format (notation.rows), not the count of rolls

    def _rolled_then_resigned(self, a: Action, seat: int) -> None:
        """A dice ply with no steps right before its roller's resignation: the player rolled, then resigned
        without moving (an ``.xg`` record's roll with no move; a ``.mat`` roll with no move right before the
        other player's ``Wins``), read as that roll (kind ``roll``), not as an empty play."""
        if a.kind == "move" and a.player == seat and a.play == "" and a.dice is not None \
                and len(self.plies) - 1 not in self.restated:  # (not a set-position ply restating a play)
            a.kind, a.play, a.no_move = "roll", None, None

    def _respell(self, board: list[int], seat: int, steps: tuple[int, ...], lo: int, hi: int, line: int) -> str:
        """A dice ply whose hops do not each use a die of the roll (GammonView writes a bear-off as the
        distance to go, and may split a play so): the legal play that reaches the same position, spelled
        one die a step; the steps as stored when no legal play does (the replay then says why)."""
        from ..rules import get_rules

        before = board[:]
        text = _apply(board, seat, steps)
        variant = self.match.rules.variant
        mine, theirs = model_boards(before, variant)[seat], model_boards(before, variant)[1 - seat]
        want = model_boards(board, variant)
        for play in get_rules(variant).plays_for(mine, theirs, hi, lo):
            if (play.mine, play.theirs) == (want[seat], want[1 - seat]):
                self.note(f"ply {line}: the steps {text} do not each use a die of {hi}{lo}; read as the legal "
                          "play that reaches the same position", line)
                return " ".join(token(f, t, h) for f, t, h in play.steps)
        return text

    def _odd_ply(self, game: Game, raw: bytes, line: int) -> None:
        """A ply the model cannot hold: kept (hex) for rewriting, after the action before it."""
        holder = game.actions[-1].properties if game.actions else game.properties
        holder.setdefault(PLIES_KEY, []).append(raw.hex())
        action = raw[0] & 0x3F
        what = {W.NULL: "a null ply", W.SETTLE: "a settlement", W.CUBE_SET: "a cube set by hand",
                W.PASS: "a pass", W.FORFEIT: "a forfeit", W.GAME_OVER: "a game-over marker",
                W.MATCH_OVER: "a match-over marker", W.FINAL: "a final marker"}.get(action, f"action {action}")
        self.note(f"ply {line}: {what} is kept for rewriting, not read into the record", line)

    # ------------------------------------------------------------------ ANNO

    def _anno(self, records: list[dict[str, Any]]) -> None:
        m = self.match
        illegal: dict[int, str] = {}
        # A key's further values are key~1, key~2 ... (a target holds a key once): gathered in that order.
        items: list[tuple[int, int, str | None, list[tuple[int, str]]]] = []
        groups: dict[tuple[int, int, str], list[tuple[int, str]]] = {}
        more = _continuations(records)
        unkeyed: dict[tuple[int, int], int] = {}
        for r in records:
            scope, ref, key, value = r["scope"], r["ref"], r.get("key"), r["value"]
            if set(r) - {"scope", "ref", "value", "key", "_at"} or scope > W.SCOPE_PLY:
                m.properties.setdefault("ogxm.anno", []).append(b64(W.encode_anno(r)))
                continue
            limit = 1 if scope == W.SCOPE_MATCH else len(m.games) if scope == W.SCOPE_GAME else len(self.plies)
            if ref >= limit:
                what = f"{'game' if scope == W.SCOPE_GAME else 'ply'} {ref + 1}"
                self.fail(f"an annotation on {what}, which the file does not hold", r["_at"])
            if scope == W.SCOPE_PLY and self.plies[ref].action is None:
                m.properties.setdefault("ogxm.anno", []).append(b64(W.encode_anno(r)))
                continue
            if key is None:
                k = unkeyed.get((scope, ref), 0)
                unkeyed[(scope, ref)] = k + 1
                items.append((scope, ref, None, [(0, value + more.pop((scope, ref, f"c{k}"), ""))]))
                continue
            if _split_key(key)[0] == MORE_KEY:
                continue
            value += more.pop((scope, ref, f"k{key}"), "")
            base, n = _split_key(key)
            if base.startswith(OWN_PREFIX):
                base = base[len(OWN_PREFIX):]
            group = groups.get((scope, ref, base))
            if group is None:
                group = groups[(scope, ref, base)] = []
                items.append((scope, ref, base, group))
            group.append((n, value))
        for scope, ref, label in more:
            if scope == W.SCOPE_PLY and ref < len(self.plies) and self.plies[ref].action is None:
                continue  # kept with the ply's other annotations
            line = ref + 1 if scope == W.SCOPE_PLY and ref < len(self.plies) else None
            self.note(f"the continuation of an annotation the file does not hold ({MORE_KEY}, {label[:40]!r}) "
                      "is not read", line)
        for scope, ref, key, values in items:
            values.sort(key=lambda t: t[0])
            for _n, value in values:
                if scope == W.SCOPE_MATCH:
                    if key is not None:
                        if key == THUMBNAIL:  # XG's thumbnail: the match property it came from
                            m.properties.setdefault(key, []).append(value)
                        else:
                            m.tags.append((key, value))
                    else:
                        m.comments.append(value)
                elif scope == W.SCOPE_GAME:
                    g = m.games[ref]
                    if key is not None:
                        g.properties.setdefault(key, []).append(value)
                    else:
                        g.comments.append(value)
                    continue
                if scope != W.SCOPE_PLY:
                    continue
                a = self.plies[ref].action
                assert a is not None
                if key == PLAY_KEY and ref in self.restated:
                    illegal[ref] = value
                elif key == SETUP_KEY and ref in self.setup_refs:
                    pass
                elif key is not None:
                    if key == GV_ILLEGAL_KEY and ref in self.restated and ref not in illegal:
                        text = _gv_steps(value, a.player)
                        if text is not None:
                            a.play = text
                            a.text = f"{a.dice[0]}{a.dice[1]}: {text}" if a.dice else text
                    a.properties.setdefault(key, []).append(value)
                elif a.comment is None:
                    a.comment = value
                else:
                    a.comment += "\n" + value
        for ref, text in illegal.items():
            a = self.plies[ref].action
            assert a is not None and a.dice is not None
            a.play = text
            a.text = f"{a.dice[0]}{a.dice[1]}: {text}".rstrip()

    # ------------------------------------------------------------------ signatures

    def _signature(self, s: W.Section, blocks: int, secs: list[W.Section], block: bytes | None) -> str:
        """Report a signature (``SIGN`` of an analysis block, ``MSIG`` of the match): verified when the
        optional ``cryptography`` package is installed and the signature carries its public key, else
        present and not verified.  Returns the SHA-256 (hex) of the bytes it signs, by which the writer
        tells whether it still holds."""
        import hashlib

        what = f"analysis block {blocks}" if s.kind == b"SIGN" else "the match"
        digest = match_digest(secs)
        covers = 0
        cur = W.cursor(s.payload, s.start, self.name)
        body, mask = cur.record()
        algorithm = body.varint()
        signature = body.take(_count(body))
        if mask & 1:
            body.take(_count(body))  # key_id
        key = body.take(_count(body)) if mask >> 1 & 1 else None
        if s.kind == b"MSIG":
            if mask >> 2 & 1:
                body.varint(64)  # signed_at
            if mask >> 3 & 1:
                covers = body.varint()
        if block is not None:
            payload = b"OGXM-ANAL-SIG-v2" + digest + hashlib.sha256(block).digest()
        else:
            payload = b"OGXM-MTCH-SIG-v2" + digest
        signed = hashlib.sha256(payload).hexdigest()
        why = None
        if algorithm != 1:
            why = f"algorithm {algorithm} is not Ed25519"
        elif key is None or len(key) != 32 or len(signature) != 64:
            why = "it names its key without carrying it: only the publisher's key can check it"
        elif covers:
            why = "it also signs the clock, which this reader does not check"
        if why is None:
            try:
                from cryptography.exceptions import InvalidSignature
                from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
            except ImportError:
                why = "the optional 'cryptography' package, which checks it, is not installed"
            else:
                assert key is not None
                try:
                    Ed25519PublicKey.from_public_bytes(key).verify(signature, payload)
                except (InvalidSignature, ValueError):
                    self.note(f"{what} is signed ({s.kind.decode()}), and the signature does NOT verify: the "
                              "signed bytes changed since", severity="warning")
                else:
                    self.note(f"{what} is signed ({s.kind.decode()}): the signature verifies with the key it "
                              f"carries ({key.hex()[:16]}...), which proves the bytes are intact, not who signed")
                return signed
        self.note(f"{what} is signed ({s.kind.decode()}): the signature is present, not verified ({why})")
        return signed

    # ------------------------------------------------------------------ analysis

    def _block(self, anal_s: W.Section, decs_s: W.Section, k: int) -> bool:
        """Read analysis block ``k`` onto the actions; False when it is kept whole instead (a block whose
        decisions are already analysed by an earlier one: the record holds one analysis of each)."""
        from ..analysis import Analysis as new_analysis
        from ..met import frame, met_named

        m = self.match
        info = W.decode_anal(anal_s.payload, anal_s.start, self.name)
        decs = W.decode_decs(decs_s.payload, decs_s.start, self.name)
        producer = producer_of(info)
        prev: tuple[int, int] = (-1, -1)
        for d in decs:
            ref, kind = d["ply_ref"], d["kind"]
            if (ref, kind) <= prev:
                self.fail("DECS records out of order (sorted by ply and kind, one of each)", d["_at"])
            prev = (ref, kind)
            if ref >= len(self.plies):
                self.fail(f"a decision on ply {ref + 1}, which the file does not hold", d["_at"])
            a = self.plies[ref].action
            if k > 1 and a is not None and a.analysis is not None and a.analysis.producer != producer:
                self.note(f"analysis block {k} ({producer or 'no producer named'}) is kept for rewriting, not read: "
                          "the record holds one analysis of each decision")
                return False
        currency = info.get("currency", CURRENCY_MATCH if m.length else CURRENCY_MONEY)
        met_id = info.get("met_id")
        met = met_named(met_id)
        if currency == CURRENCY_MATCH and m.length > 0 and met_id and met.name != str(met_id).lower():
            self.note(f"analysis block {k} ({producer or 'no producer named'}) names the match equity table "
                      f"{met_id!r}, which is not one we know: its match-winning chances are read as equities through "
                      f"the {met.name}'s table")
        block_level = info.get("level", {})
        m.properties.setdefault("ogxm.analysis", []).append(_block_info(info))
        length = m.length
        frames: dict[tuple[int, int, int, int], tuple[float, float] | None] = {}
        for d in decs:
            ref, kind = d["ply_ref"], d["kind"]
            p = self.plies[ref]
            a = p.action
            if a is None or "_raw" in d:
                m.properties.setdefault("ogxm.decisions", []).append(b64(W.encode_decision(d)))
                continue
            conv = Units(None)
            if currency == CURRENCY_MATCH and length > 0:
                sw, sb = self.game_scores[p.game]
                mine, theirs = (sw, sb) if p.decider == 0 else (sb, sw)
                key = (length - mine, length - theirs, p.cube, self.crawford_game == p.game)
                if key not in frames:
                    frames[key] = frame(met, *key[:3], key[3])
                conv = Units(frames[key])
                if frames[key] is None:
                    self.note(f"ply {ref + 1}: no match equity frame at this score; the figures are kept as "
                              "match-winning chances", ref + 1)
            an = a.analysis
            if an is None:
                an = a.analysis = new_analysis(producer=producer)
            if kind == W.KIND_CHECKER:
                an.checker = _checker(d, p, block_level, conv, an.extra)
            elif kind == W.KIND_CUBE:
                an.cube = _cube(d, block_level, conv, an.extra)
            elif kind == W.KIND_ROLL:
                an.luck = conv.delta(d["luck"])
                _keep(d, "luck_", _LUCK_KEPT, conv, an.extra)
            else:  # a resignation's analysis: the model has no field for it; kept as text
                _keep(d, "resign_", _RESIGN_KEPT, conv, an.extra)
        return True


def _apply(board: list[int], seat: int, steps: tuple[int, ...]) -> str:
    """Play the steps (bytes ``from | pips << 5``, absolute) of ``seat`` on the absolute ``board``, in place;
    the play in the mover's numbering, one step per die, hits marked (``24/20* 24/23``)."""
    if not steps:
        return ""
    out = []
    if seat == 0:
        for s in steps:
            f = s & 31
            t = f + (s >> 5)
            board[f] -= 1
            if t > 24:
                out.append(token(25 - f, 0, False))
                continue
            hit = board[t] == -1
            if hit:
                board[t] = 0
                board[25] -= 1
            board[t] += 1
            out.append(token(25 - f, 25 - t, hit))
    else:
        for s in steps:
            f = s & 31
            t = f - (s >> 5)
            board[f] += 1
            if t < 1:
                out.append(token(f, 0, False))
                continue
            hit = board[t] == 1
            if hit:
                board[t] = 0
                board[0] += 1
            board[t] -= 1
            out.append(token(f, t, hit))
    return " ".join(out)


def _fits(steps: tuple[int, ...], lo: int, hi: int, seat: int) -> bool:
    """Each step uses a die of the roll (a bear-off may use a larger die than the distance)."""
    dice = [lo, hi] if lo != hi else [lo] * 4
    for s in steps:
        k = s >> 5
        if k in dice:
            dice.remove(k)
            continue
        f = s & 31
        t = f + k if seat == 0 else f - k
        bigger = [d for d in dice if d > k]
        if (t > 24 if seat == 0 else t < 1) and bigger:
            dice.remove(min(bigger))
            continue
        return False
    return True


def match_digest(secs: list[W.Section]) -> bytes:
    """OGXM's match digest: SHA-256 of the MTCH and GAME payloads, each after its length (u32)."""
    import hashlib  # (only a signed file needs it: its import is a few milliseconds of every command)

    h = hashlib.sha256()
    for sec in secs:
        if sec.kind in (b"MTCH", b"GAME"):
            h.update(struct.pack("<I", len(sec.payload)))
            h.update(sec.payload)
    return h.digest()


def _count(cur: W.In) -> int:
    """A byte string's length, refused when it runs past what is left."""
    at = cur.pos
    n = cur.varint()
    if n > cur.end - cur.pos:
        cur.fail(f"a field of {n} bytes runs past its record", at)
    return n


def _power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def _continuations(records: list[dict[str, Any]]) -> dict[tuple[int, int, str], str]:
    """The continuations (:data:`MORE_KEY`) of long values, by target and label (``k`` and the key as
    written, or ``c`` and the number of the unkeyed annotation among its target's), joined in order."""
    pieces: dict[tuple[int, int, str], list[tuple[int, str]]] = {}
    for r in records:
        key = r.get("key")
        if key is None or set(r) - {"scope", "ref", "value", "key", "_at"}:
            continue
        base, n = _split_key(key)
        if base != MORE_KEY:
            continue
        label, sep, text = r["value"].partition("\n")
        if sep:
            pieces.setdefault((r["scope"], r["ref"], label), []).append((n, text))
    return {k: "".join(t for _n, t in sorted(v)) for k, v in pieces.items()}


def _split_key(key: str) -> tuple[str, int]:
    """``key~3`` → (``key``, 3): the further values of one key; any other key → (key, 0)."""
    base, sep, n = key.rpartition("~")
    if sep and base and ascii_digits(n) and n[0] != "0":
        return base, int(n)
    return key, 0


def _gv_steps(value: str, player: int) -> str | None:
    """GammonView's ``x-gammonview-illegal-ply`` value (``1:from/pips,...``, absolute) as a play in the
    mover's numbering, or None when it is not that."""
    if not value.startswith("1:"):
        return None
    out = []
    for part in value[2:].split(","):
        if not part:
            continue
        try:
            f, k = (int(x) for x in part.split("/"))
        except ValueError:
            return None
        t = f + k if player == 0 else f - k
        own_f = own_point(f, player)
        own_t = 0 if t > 24 or t < 1 else own_point(t, player)
        out.append(token(own_f, own_t, False))
    return " ".join(out)


def _prob(p: tuple[int, ...] | None) -> Probabilities | None:
    if p is None:
        return None
    from ..analysis import Probabilities

    return Probabilities(p[0] / 1e4, p[1] / 1e4, p[2] / 1e4, p[3] / 1e4, p[4] / 1e4)


def _more_text(more: tuple[int, bytes]) -> str:
    return f"{more[0]}:{more[1].hex()}"


_Kept = tuple[tuple[str, Callable[[Any, Units], str | None]], ...]
"""Fields of a record the model has no place for, each with how its value is kept as text (None: not kept)."""


def _text(v: Any, conv: Units) -> str:
    return str(v)


def _yes(v: Any, conv: Units) -> str | None:
    return "yes" if v else None


def _eq(v: Any, conv: Units) -> str:
    return repr(conv.eq(v))


def _delta(v: Any, conv: Units) -> str:
    return repr(conv.delta(v))


def _more(v: Any, conv: Units) -> str:
    return _more_text(v)


def _level(v: Any, conv: Units) -> str | None:
    return level_text(v)


def _numbers(v: Any, conv: Units) -> str:
    return ",".join(str(x) for x in v)


def _keep(d: dict[str, Any], prefix: str, kept: _Kept, conv: Units, extra: dict[str, str]) -> None:
    """Each field of ``d`` that ``kept`` names, as text in ``extra`` under ``ogxm:{prefix}{key}`` (``_more``:
    ``more``), in the order of ``kept`` (what the writer states again)."""
    for key, how in kept:
        if key in d:
            text = how(d[key], conv)
            if text is not None:
                extra[f"ogxm:{prefix}{key.lstrip('_')}"] = text


_CHECKER_KEPT: _Kept = (
    ("alternatives_total", _text), ("rollouts_done", _text), ("deep_searched", _text), ("position_tags", _text),
    ("producer_ref", _text), ("source_band", _text), ("best_equity", _eq), ("equity_loss", _delta),
    ("_more", _more))
_CUBE_KEPT: _Kept = (
    ("take_point", _text), ("window_searched", _yes), ("is_optional", _yes), ("is_free_cube", _yes),
    ("currency", _text), ("producer_ref", _text), ("equity_loss", _delta), ("cubeful_take_value", _eq),
    ("_more", _more))
_LUCK_KEPT: _Kept = (("level", _level), ("producer_ref", _text), ("_more", _more))
_RESIGN_KEPT: _Kept = (
    ("correct_value", _text), ("producer_ref", _text), ("resign_error", _delta), ("take_resign_error", _delta),
    ("equity_loss", _delta), ("probs", _numbers), ("level", _level), ("_more", _more))


def _block_info(info: dict[str, Any]) -> str:
    """An ANAL record as text (its fields, the identifier in hex): what the writer states again."""
    return b64(W.encode_anal(info))


def _checker(d: dict[str, Any], p: _Ply, block_level: dict[str, Any], conv: Units,
             extra: dict[str, str]) -> CheckerAnalysis:
    from ..analysis import Candidate, CheckerAnalysis

    dec_level = _resolve(block_level, d.get("level"))
    cands = []
    played = None
    board = p.board
    alts = d.get("alternatives", [])
    for i, alt in enumerate(alts):
        level = _resolve(dec_level, alt.get("level"))
        text = _apply(board[:], p.seat, alt["steps"]) if board is not None else _steps_text(alt["steps"], p.seat)
        cands.append(Candidate(text, conv.eq(alt["equity"]), _prob(alt.get("probs")), level_text(level),
                               conv.eq(alt["cubeless_equity"]) if "cubeless_equity" in alt else None))
        if alt.get("is_played"):
            if played is not None:
                extra[f"ogxm:{i}:is_played"] = "yes"
            else:
                played = i
        if "rollout_se" in alt:
            extra[f"ogxm:{i}:rollout_se"] = repr(conv.delta(alt["rollout_se"]))
        if "_more" in alt:
            extra[f"ogxm:{i}:more"] = _more_text(alt["_more"])
    _keep(d, "", _CHECKER_KEPT, conv, extra)
    return CheckerAnalysis(tuple(cands), played)


def _steps_text(steps: tuple[int, ...], seat: int) -> str:
    """Steps as a play without a board (hits cannot be marked)."""
    out = []
    for s in steps:
        f = s & 31
        t = f + (s >> 5) if seat == 0 else f - (s >> 5)
        out.append(token(own_point(f, seat), 0 if t > 24 or t < 1 else own_point(t, seat), False))
    return " ".join(out)


def _resolve(parent: dict[str, Any], child: dict[str, Any] | None) -> dict[str, Any]:
    """The level in force: each field from the innermost tier that states it (a tier's ``no_rollout``
    drops an inherited rollout)."""
    if not child:
        return parent
    out = dict(parent)
    for k in ("preset", "checker_ply", "cube_ply", "_more"):
        if k in child:
            out[k] = child[k]
    if child.get("no_rollout"):
        out.pop("rollout", None)
    if "rollout" in child:
        inherited = {} if child.get("no_rollout") else out.get("rollout", {})
        out["rollout"] = {**inherited, **child["rollout"]}
    return out


def _cube(d: dict[str, Any], block_level: dict[str, Any], conv: Units, extra: dict[str, str]) -> CubeAnalysis:
    from ..analysis import CubeAnalysis

    verdict = d["verdict"]
    level = _resolve(block_level, d.get("level"))
    _keep(d, "cube_", _CUBE_KEPT, conv, extra)
    return CubeAnalysis(no_double=conv.eq(d["no_double"]) if "no_double" in d else None,
                        double_take=conv.eq(d["double_take"]) if "double_take" in d else None,
                        double_pass=conv.eq(d["double_pass"]) if "double_pass" in d else None,
                        verdict=VERDICTS[verdict] if verdict < len(VERDICTS) else f"verdict {verdict}",
                        probabilities=_prob(d.get("probs")), level=level_text(level))


# --------------------------------------------------------------------------- v1


def read_v1(data: bytes, name: str | None) -> Match:
    """An OGXM v1 file (GammonView's older layout): the match and its games, read as a v2 file's are; its
    analysis chunks are not read (said)."""
    return _V1Reader(data, name).read()


class _V1Reader(Reader):
    """v1: a 20-byte header (``OGXM``, u16 1, u16 minor, u16 and u16 the reader it needs, u32 size, u32
    flags), chunks (u32 type, u32 length, u16 flags, u16 reserved, payload), ``END!`` and the size.  The
    ``MHDR`` chunk is 24 fixed bytes (length, games, rule flags, scores, result, source, time, plies, the
    cube limit) and the names, the event and the site as strings of a byte's length; a ``GAME`` chunk is
    8 bytes (index, plies, winner, points, flags, first to move), the board (``FF FF`` when it is the
    opening one), and the plies: ``action | colour << 5`` (colour 1 White) and 2 or 4 step bytes padded
    with zeros; a set-position ply (31) has its board, after the dice when bit 6 says so."""

    def __init__(self, data: bytes, name: str | None) -> None:
        super().__init__(data, name, 0, False)

    def read(self) -> Match:
        data, name = self.data, self.name
        n = len(data)
        if n < 28:
            W.fail(f"truncated OGXM v1 file: {n} bytes", n, name)
        major, minor, need_major, need_minor, size, _flags = struct.unpack_from("<HHHHII", data, 4)
        if need_major > 1 or (need_major == 1 and need_minor > 3):
            W.fail(f"the file needs an OGXM {need_major}.{need_minor} reader; this one reads v1 up to 1.3", 8, name)
        if size != n:
            W.fail(f"truncated OGXM v1 file: the header says {size} bytes, there are {n}" if size > n else
                   f"the header says the file is {size} bytes, but {n - size} more follow", min(size, n), name)
        if data[n - 8:n - 4] != W.END:
            W.fail("OGXM v1 file without its 'END!' marker", n - 8, name)
        chunks: list[tuple[bytes, bytes, int]] = []
        pos = 20
        checked = False
        while pos < n - 8:
            if pos + 12 > n - 8:
                W.fail("truncated chunk header", pos, name)
            kind, length, flags, _r = struct.unpack_from("<4sIHH", data, pos)
            start = pos + 12
            if length > n - 8 - start:
                W.fail(f"chunk {kind.decode('latin-1')!r} claims {length} bytes; {n - 8 - start} are left", pos + 4,
                       name)
            if kind == b"CSUM":
                if length < 8:
                    W.fail("a CSUM chunk too short for its checksum", pos, name)
                algorithm, want = struct.unpack_from("<II", data, start)
                if algorithm == 0:
                    got = zlib.crc32(memoryview(data)[:pos]) & 0xFFFFFFFF
                    if want != got:
                        W.fail(f"bad checksum: the CSUM chunk at byte {pos} says {want:08x}, the {pos} bytes before "
                               f"it give {got:08x}", pos, name)
                    checked = True
            elif kind not in _V1_KNOWN and flags & 1:
                W.fail(f"unknown critical chunk {kind.decode('latin-1')!r}: this reader cannot read the file", pos,
                       name)
            chunks.append((kind, data[start:start + length], start))
            pos = start + length
        m = self.match
        self.checksum = "crc32" if checked else None
        self.note(f"an OGXM v{major}.{minor} file: read as version 2 is; locations are ply numbers (FILE:PLY:1)")
        mhdr = next(((c, at) for k, c, at in chunks if k == b"MHDR"), None)
        if mhdr is None:
            W.fail("no MHDR chunk", 20, name)
        self._mtch(_v1_header(*mhdr, name))
        games = [(c, at) for k, c, at in chunks if k == b"GAME"]
        if len(games) > W.MAX_GAMES:
            W.fail(f"{len(games)} games (OGXM allows {W.MAX_GAMES})", games[W.MAX_GAMES][1], name)
        self.annos = []
        self.setup_refs = {}
        self.records = [_v1_game(c, at, name) for c, at in games]
        self._scores()
        for i, (_c, at) in enumerate(games):
            self._game(i, _At(at))
        skipped = sorted({k.decode("latin-1") for k, _c, _at in chunks if k not in (b"MHDR", b"GAME", b"CSUM")})
        if skipped:
            self.note(f"the v1 chunks {', '.join(skipped)} (analysis, GammonView's own) are not read")
        return m


_V1_KNOWN = frozenset((b"MHDR", b"GAME", b"ANAL", b"EVAL", b"ALTS", b"CUBE", b"GVAN", b"CSUM", b"SIGN", b"CLCK",
                       b"VIDO"))


def _v1_string(c: bytes, pos: int, at: int, name: str | None) -> tuple[str, int]:
    if pos >= len(c):
        return "", pos
    k = c[pos]
    if pos + 1 + k > len(c):
        W.fail("a name runs past its chunk", at + pos, name)
    return c[pos + 1:pos + 1 + k].decode("utf-8", "replace"), pos + 1 + k


def _v1_header(c: bytes, at: int, name: str | None) -> dict[str, Any]:
    if len(c) < 24:
        W.fail(f"an MHDR chunk of {len(c)} bytes (it has 24 and the names)", at, name)
    length, _games, flags, _sw, _sb, result, source, stamp, _plies = struct.unpack_from("<HBBHHBBIH", c, 0)
    limit = struct.unpack_from("<H", c, 16)[0]
    pos = 24
    white, pos = _v1_string(c, pos, at, name)
    black, pos = _v1_string(c, pos, at, name)
    event, pos = _v1_string(c, pos, at, name)
    site, pos = _v1_string(c, pos, at, name)
    f: dict[str, Any] = {"match_length": length, "variant": 0}
    if white:
        f["white_name"] = white
    if black:
        f["black_name"] = black
    if flags & 0x0F:
        f["rules"] = flags & 0x0F
    if limit and limit & (limit - 1) == 0:
        f["cube_limit"] = limit
    if result:
        f["result"] = result
    if source:
        f["source"] = source
    if stamp:
        f["started_at"] = stamp * 1000
    if event:
        f["event"] = event
    if site:
        f["Site"] = site
    return f


def _v1_game(c: bytes, at: int, name: str | None) -> tuple[dict[str, Any], list[W.Ply]]:
    if len(c) < 10:
        W.fail(f"a GAME chunk of {len(c)} bytes", at, name)
    _index, count, winner, points, gflags, _first, _r = struct.unpack_from("<BHBBBBB", c, 0)
    rec: dict[str, Any] = {}
    if winner in (0, 1):
        rec["winner"] = 0 if winner == 0 else 1
        rec["points_won"] = points
    if gflags & 2:
        rec["is_last_game"] = True
    pos = 8
    if c[pos] == 0xFF:
        pos += 2
    else:
        if pos + 27 > len(c):
            W.fail("a game's board runs past its chunk", at + pos, name)
        rec["initial_board"] = struct.unpack_from("<26b", c, pos)
        pos += 27
    plies: list[W.Ply] = []
    for _ in range(count):
        if pos >= len(c):
            W.fail(f"the game ends after {len(plies)} of its {count} plies", at + pos, name)
        b0 = c[pos]
        action = b0 & 0x1F
        seat = 0 if b0 >> 5 & 1 else 1
        start = pos
        pos += 1
        if action == W.SET_POSITION:
            x: dict[str, Any] = {}
            if b0 & 0x40:
                if pos >= len(c):
                    W.fail("a set-position ply ends early", at + pos, name)
                d = c[pos]
                x["dice"] = (d & 0x0F, d >> 4)
                x["illegal"] = True
                pos += 1
                seat = 1 - seat  # v1 seats a restated play on its mover; v2 on the side to move next
            if pos + 26 > len(c):
                W.fail("a set-position ply ends early", at + pos, name)
            x["board"] = struct.unpack_from("<26b", c, pos)
            pos += 26
            plies.append((action, seat, (), x, at + start))
        elif action <= 20:
            k = 4 if W.DICE[action][0] == W.DICE[action][1] else 2
            raw = c[pos:pos + k]
            if len(raw) < k:
                W.fail("a ply's steps run past the game", at + pos, name)
            steps = tuple(b for b in raw if b)
            for i, b in enumerate(steps):
                if b & 0x1F > 25 or not 1 <= b >> 5 <= 7:
                    W.fail(f"step byte 0x{b:02x} is not a move", at + pos + i, name)
            plies.append((action, seat, steps, None, at + start))
            pos += k
        else:
            plies.append((action, 0 if action in W.MARKERS else seat, (), None, at + start))
    return rec, plies


def _beaver_takes(actions: list[Action]) -> None:
    """OGXM's beaver and raccoon plies hold their take (the reference codec refuses a take ply after one):
    the take, by the player the beaver or raccoon was offered to, is put back after each one that no raccoon
    or take follows, as the other formats record it."""
    i = 0
    while i < len(actions):
        a = actions[i]
        nxt = actions[i + 1].kind if i + 1 < len(actions) else None
        if a.kind in ("beaver", "raccoon") and nxt not in ("raccoon", "take"):
            actions.insert(i + 1, Action("take", 1 - a.player, text="Takes", span=a.span))
            i += 1
        i += 1
