"""eXtreme Gammon match files (``.xg``) and position files (``.xgp``): a match is read into the same
:class:`~notation.record.Match` model as every other reader (:func:`read_xg`), a position file into a
:class:`~notation.record.PositionRecord` (:func:`read_xgp`), with XG's analysis as
:mod:`notation.analysis` objects (decoded from their records when first used).

The container (XG's "RichGameFormat"):

- a fixed header of 8,232 bytes that starts with the magic ``RGMH``; the little-endian 32-bit word at
  byte 20 is the size of the JPEG thumbnail that follows the header;
- after the thumbnail, a ZlibArchive: each file compressed on its own, the game file ``temp.xg``
  first (then ``temp.xgi``, and ``temp.xgc`` comments or ``temp.xgr`` rollouts, which are not read),
  a registry and a 36-byte archive record at the end.  The first zlib stream is the game file:
  records of 2,560 bytes each, whose byte 8 is the record type: 0 match header, 1 game header, 2 cube
  decision, 3 checker move, 4 game footer, 5 match footer.  An ``.xgp`` holds a match header, one
  game header and the records of one decision.

Players: XG's player 1 is the bottom player (XGID upper case), which is this model's player 1 (X,
the right column of a ``.mat`` score line); XG's player 2 is player 0.  Positions in a record are in
player 1's numbering, player 1's checkers positive.  A move record's played move is eight 32-bit
integers at byte 68: from/to pairs, 0-based in the mover's own numbering, 24 the bar, a negative
"to" bearing off, -1 where the move ends.

Where a finding must be located, an ``.xg`` file has no lines: each action's :class:`Span` holds the
*record number* (1-based) as its line, and the match's normalisations say so, so that ``FILE:LINE:COL``
reads as ``FILE:RECORD:COL`` (the column counts within the action as written, ``43: 14/11 8/5``).
Errors in the container name the byte offset and the record number.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Callable
from dataclasses import fields
from datetime import datetime, timedelta
from typing import Any, TypeVar

from ..analysis import Analysis, Candidate, CheckerAnalysis, CubeAnalysis, Probabilities
from ..errors import ParseError
from ..position import Position
from ..record import Action, Game, Match, MatchRules, Normalisation, PositionRecord, Span

__all__ = ["MAGIC", "read_xg", "read_xg_match", "read_xgp"]

T = TypeVar("T")

MAGIC = b"RGMH"
HEADER_SIZE = 8232
RECORD_SIZE = 2560
MAX_UNPACKED = 256 << 20
"""A real match unpacks to a few megabytes; a stream that unpacks to more than this is refused (a zip
bomb must not take the machine's memory)."""
_CHUNK = 16384
"""Compressed bytes fed to zlib at a time while looking for where a damaged stream fails."""

HEADER_MATCH, HEADER_GAME, CUBE, MOVE, FOOTER_GAME, FOOTER_MATCH = range(6)
UNLIMITED = 99999
"""The match length of a money session ("unlimited")."""
VARIATIONS = {0: "standard", 1: "nackgammon", 2: "hypergammon3"}
"""The match header's variation: 0 backgammon, 1 nackgammon, 2 hypergammon, 3 LongGammon (not known here)."""
NOT_ANALYSED = -1000.0

LEVELS = {0: "1-ply", 1: "2-ply", 2: "3-ply", 3: "4-ply", 4: "5-ply", 5: "6-ply", 6: "7-ply", 100: "Rollout",
          998: "Book", 999: "Book", 1000: "XG Roller", 1001: "XG Roller+", 1002: "XG Roller++"}


def _err(message: str, name: str | None, offset: int, record: int | None = None, *,
         before: bool = False) -> ParseError:
    """An error naming the byte offset in the file (or in the game file, for a record's field) and the
    record of the game file (1-based); ``before``: the damage is in the container, before that record."""
    where = f"byte {offset}"
    if record is not None:
        where += f", before record {record}" if before else f", record {record}"
    return ParseError(f"{message} ({where})", file=name)


def _rec_err(message: str, name: str | None, offset: int, record: int) -> ParseError:
    """An error in a record of the game file: its number (1-based) and the byte offset in the unpacked
    game file (records of 2,560 bytes: record ``r`` starts at ``(r - 1) * 2560``)."""
    return ParseError(f"{message} (record {record}, byte {offset} of the unpacked game file)", file=name)


def _unicode(rec: bytes, offset: int, units: int = 129) -> str:
    """A Delphi short Unicode string: UTF-16LE code units up to the first zero."""
    raw = rec[offset:offset + 2 * units]
    text = raw.decode("utf-16-le", "replace")
    return text.split("\x00", 1)[0]


def _ansi(rec: bytes, offset: int) -> str:
    n = rec[offset]
    return rec[offset + 1:offset + 1 + n].decode("cp1252", "replace")


def _date(value: float) -> str | None:
    if not value or value != value or not 0 < value < 2_958_466:  # Delphi TDateTime, up to 9999-12-31
        return None
    day = datetime(1899, 12, 30) + timedelta(days=value)
    return day.strftime("%Y.%m.%d")


def unpack(data: bytes, name: str | None = None) -> bytes:
    """The game file inside an ``.xg``/``.xgp`` container (raises :class:`ParseError` naming the byte
    offset, and the record of the game file where the damage is, for a wrong magic, a truncated header
    or a damaged zlib stream)."""
    if data[:4] != MAGIC:
        raise _err("not an eXtreme Gammon file: it does not start with 'RGMH'", name, 0, 1, before=True)
    if len(data) < HEADER_SIZE:
        raise _err(f"truncated eXtreme Gammon header: {len(data)} bytes of {HEADER_SIZE}", name, len(data), 1,
                   before=True)
    thumb = struct.unpack_from("<I", data, 20)[0]
    start = HEADER_SIZE + thumb
    if start > len(data):
        raise _err(f"the thumbnail's size ({thumb} bytes) runs past the end of the file", name, 20, 1, before=True)
    d = zlib.decompressobj()
    try:
        blob = d.decompress(data[start:], MAX_UNPACKED)
    except zlib.error as e:
        at, size = _damage(data, start)
        raise _err(f"damaged compressed data: {e}", name, at, size // RECORD_SIZE + 1) from None
    if d.unconsumed_tail:
        raise _err(f"the compressed game file unpacks to more than {MAX_UNPACKED >> 20} MB", name, start,
                   MAX_UNPACKED // RECORD_SIZE + 1)
    if not d.eof:
        raise _err("the compressed game file is truncated", name, len(data), len(blob) // RECORD_SIZE + 1)
    if not blob or len(blob) % RECORD_SIZE:
        raise _err(f"the game file is {len(blob)} bytes, not a whole number of {RECORD_SIZE}-byte records",
                   name, start, len(blob) // RECORD_SIZE + 1)
    return blob


def _damage(data: bytes, start: int) -> tuple[int, int]:
    """Where a damaged zlib stream that starts at ``start`` fails: the byte offset in ``data`` and how
    many bytes it unpacked before (fed a chunk at a time, the failing chunk a byte at a time)."""
    d = zlib.decompressobj()
    size = 0
    pos = start
    while pos < len(data) and not d.eof:
        chunk = data[pos:pos + _CHUNK]
        saved = d.copy()
        try:
            size += len(d.decompress(chunk))
        except zlib.error:
            return pos + _bad_byte(saved, chunk), size
        pos += len(chunk)
    return pos, size


def _bad_byte(d: zlib._Decompress, chunk: bytes) -> int:
    """Where in ``chunk`` the stream ``d`` (a copy taken before it) fails: fed one byte at a time."""
    for i in range(len(chunk)):
        try:
            d.decompress(chunk[i:i + 1])
        except zlib.error:
            return i
    return 0


def read_xg(data: bytes, *, name: str | None = None) -> list[Match]:
    """The match in an ``.xg`` file's bytes (a list, as every reader of files returns)."""
    return [read_xg_match(data, name=name)]


def read_xg_match(data: bytes, *, name: str | None = None) -> Match:
    return _Reader(unpack(data, name), name).read()


def read_xgp(data: bytes, source: str | None = None) -> PositionRecord:
    """The position in an eXtreme Gammon position file (``.xgp``): the same container and game file as
    an ``.xg``, holding a match header, one game header and the records of one decision: a cube record
    (the doubling decision, analysed) and, for a checker play, the move record (the roll and its ranked
    candidates).

    The position is the one stored in the last decision record, with the dice of a move record, the
    cube as that record holds it, the score and Crawford flag of the game header and the match length,
    rules and names of the match header.  The analysis is read as from an ``.xg``: the ranked plays of
    the move record, the no-double / double-take / double-pass equities of the cube record.  A damaged
    file raises :class:`ParseError` naming the byte offset and the record."""
    blob = unpack(data, source)
    n = len(blob) // RECORD_SIZE
    reader = _Reader(blob, source)
    if blob[8] != HEADER_MATCH:
        raise _rec_err("the game file does not start with a match header", source, 8, 1)
    reader._match_header(blob[:RECORD_SIZE])
    game_rec: int | None = None
    decisions: list[int] = []
    for i in range(1, n):
        kind = blob[i * RECORD_SIZE + 8]
        if kind == HEADER_GAME:
            if game_rec is not None:
                raise _rec_err("a second game header: this is a match (.xg), not a position file; use gammon "
                               "validate, convert or render --game/--move", source, i * RECORD_SIZE + 8, i + 1)
            game_rec = i
        elif kind in (CUBE, MOVE):
            if game_rec is None:
                raise _rec_err("a decision record before the game header", source, i * RECORD_SIZE + 8, i + 1)
            decisions.append(i)
        elif kind not in (FOOTER_GAME, FOOTER_MATCH):
            raise _rec_err(f"unknown record type {kind}", source, i * RECORD_SIZE + 8, i + 1)
    if game_rec is None:
        raise _rec_err("no game header: the file holds no position", source, len(blob), n)
    if not decisions:
        raise _rec_err("no cube or move record: the file holds no position", source, len(blob), n)
    match = reader.match
    variant = match.rules.variant
    notes = [n for n in match.normalisations if n.message.startswith("record 1: variation")]
    g = blob[game_rec * RECORD_SIZE:(game_rec + 1) * RECORD_SIZE]
    s1, s2 = struct.unpack_from("<2i", g, 12)
    for value, off in ((s1, 12), (s2, 16)):
        if not 0 <= value <= 1 << 16:
            raise _rec_err(f"score {value} is out of range", source, game_rec * RECORD_SIZE + off, game_rec + 1)
    last = decisions[-1]
    rec = blob[last * RECORD_SIZE:(last + 1) * RECORD_SIZE]
    base = last * RECORD_SIZE
    if rec[8] == MOVE:
        board_at, active_at, cube_at = 9, 64, 108
        d1, d2 = struct.unpack_from("<2i", rec, 100)
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise _rec_err(f"dice {d1}-{d2} are not a roll", source, base + 100, last + 1)
        dice: tuple[int, int] | None = (d1, d2)
    else:
        board_at, active_at, cube_at = 36, 12, 32
        dice = None
    active = struct.unpack_from("<i", rec, active_at)[0]
    if active not in (1, -1):
        raise _rec_err(f"unknown player on roll {active}", source, base + active_at, last + 1)
    cube_code = struct.unpack_from("<i", rec, cube_at)[0]
    if not -12 <= cube_code <= 12:
        raise _rec_err(f"cube {cube_code} is out of range", source, base + cube_at, last + 1)
    limit = struct.unpack_from("<i", blob, 612)[0]
    boards = _boards(struct.unpack_from("<26b", rec, board_at), variant, source, base + board_at, last + 1)
    rules = match.rules
    position = Position(
        boards=boards, turn=1 if active == 1 else 0, dice=dice, cube=1 << abs(cube_code),
        cube_owner=None if cube_code == 0 else (1 if cube_code > 0 else 0), match_length=match.length,
        score=(s2, s1), crawford=bool(match.length and g[20]), jacoby=rules.jacoby, beavers=rules.beavers,
        max_cube=limit if 0 <= limit <= 15 else 10, names=match.names, variant=variant)
    analysis = Analysis(producer="eXtreme Gammon")
    cube_rec = last if rec[8] == CUBE else (last - 1 if last - 1 in decisions else None)
    if cube_rec is not None:
        c = blob[cube_rec * RECORD_SIZE:(cube_rec + 1) * RECORD_SIZE]
        if struct.unpack_from("<i", c, 12)[0] == active:
            if rec[8] == MOVE and struct.unpack_from("<i", c, 16)[0] == 1:  # doubled, then rolled: as in an .xg,
                notes.append(Normalisation(  # the analysis is the double's, not this position's
                    f"record {cube_rec + 1}: the player doubled before this roll; that cube decision and its "
                    "analysis are not part of the position", cube_rec + 1, 1))
            else:
                analysis.cube = _cube_analysis(c)
    if rec[8] == MOVE:
        analysis.checker = _checker_analysis(rec)
        luck = struct.unpack_from("<d", rec, 2320)[0]
        if luck != NOT_ANALYSED and luck == luck and abs(luck) < 100 and analysis.checker is not None:
            analysis.luck = round(luck, 6)
    if len(decisions) > 2 or (len(decisions) == 2 and cube_rec is None):
        notes.append(Normalisation(f"the file holds {len(decisions)} decision records; the position is the "
                                   f"last one (record {last + 1})", last + 1, 1))
    return PositionRecord(position=position, names=match.names, analysis=None if analysis.is_empty() else analysis,
                          format="xgp", source=source, tags=list(match.tags), normalisations=notes)


def _boards(pos: tuple[int, ...], variant: str, name: str | None, offset: int,
            record: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A record's position (XG player 1's frame: index n = point n, player 1 positive, 0 player 2's
    bar, 25 player 1's bar) as this model's boards (player 0, player 1), each in its owner's numbering."""
    from ..rules import get_rules

    total = get_rules(variant).checkers
    p0 = [0] * 26
    p1 = [0] * 26
    for n in range(1, 25):
        if pos[n] > 0:
            p1[n] = pos[n]
        elif pos[n] < 0:
            p0[25 - n] = -pos[n]
    p1[25], p0[25] = max(pos[25], 0), max(-pos[0], 0)
    if pos[25] < 0 or pos[0] > 0:
        raise _rec_err("a checker on the wrong bar", name, offset, record)
    for board, who in ((p0, "O"), (p1, "X")):
        on = sum(board)
        if on > total:
            raise _rec_err(f"{who} has {on} checkers on the board (at most {total})", name, offset, record)
        board[0] = total - on
    return tuple(p0), tuple(p1)


class _Reader:
    def __init__(self, blob: bytes, name: str | None) -> None:
        self.blob = blob
        self.name = name
        self.match = Match(format="xg", source=name)
        self.match.normalisations.append(Normalisation(
            "an .xg file has no lines: locations are record numbers (FILE:RECORD:1)"))
        self.game: Game | None = None
        self.cube = 1
        self.pending_cube: CubeAnalysis | None = None
        self.moves_in_game = 0
        self.first_decision = False

    def records(self) -> list[tuple[int, bytes]]:
        n = len(self.blob) // RECORD_SIZE
        return [(i, self.blob[i * RECORD_SIZE:(i + 1) * RECORD_SIZE]) for i in range(n)]

    def read(self) -> Match:
        recs = self.records()
        if not recs or recs[0][1][8] != HEADER_MATCH:
            raise _rec_err("the game file does not start with a match header", self.name, 0, 1)
        for k, (i, rec) in enumerate(recs):
            kind = rec[8]
            if kind == HEADER_MATCH:
                if i:
                    raise _rec_err("a second match header", self.name, i * RECORD_SIZE, i + 1)
                self._match_header(rec)
            elif kind == HEADER_GAME:
                self._game_header(rec, i)
            elif kind in (CUBE, MOVE, FOOTER_GAME):
                if self.game is None:
                    raise _rec_err("a game record before any game header", self.name, i * RECORD_SIZE, i + 1)
                nxt = recs[k + 1][1] if k + 1 < len(recs) else None
                if kind == CUBE:
                    self._cube(rec, i)
                elif kind == MOVE:
                    self._move(rec, i, nxt)
                else:
                    self._footer(rec, i)
            elif kind == FOOTER_MATCH:
                continue
            else:
                raise _rec_err(f"unknown record type {kind}", self.name, i * RECORD_SIZE + 8, i + 1)
        return self.match

    # ------------------------------------------------------------------ records

    def _match_header(self, rec: bytes) -> None:
        m = self.match
        p1 = _unicode(rec, 880) or _ansi(rec, 9)
        p2 = _unicode(rec, 1138) or _ansi(rec, 50)
        m.names = (p2, p1)
        length = struct.unpack_from("<i", rec, 92)[0]
        if length == UNLIMITED:
            length = 0
        if not 0 <= length <= 999:
            raise _rec_err(f"match length {length} is out of range", self.name, 92, 1)
        m.length = length
        variation = struct.unpack_from("<i", rec, 96)[0]
        variant = VARIATIONS.get(variation)
        if variant is None:
            m.normalisations.append(Normalisation(
                f"record 1: variation {variation} (3 is LongGammon) is not known here; read under the standard rules",
                1, 1))
            variant = "standard"
        m.rules = MatchRules(variant=variant, crawford=bool(rec[100]), jacoby=bool(rec[101]), beavers=bool(rec[102]))
        event = _unicode(rec, 622) or _ansi(rec, 136)
        place = _unicode(rec, 1396)
        date = _date(struct.unpack_from("<d", rec, 128)[0])
        for tag, value in (("Event", event), ("Site", place), ("EventDate", date)):
            if value:
                m.tags.append((tag, value))

    def _game_header(self, rec: bytes, i: int) -> None:
        s1, s2 = struct.unpack_from("<2i", rec, 12)
        number = struct.unpack_from("<i", rec, 48)[0]
        game = Game(number=number if number > 0 else len(self.match.games) + 1, score=(s2, s1),
                    names=self.match.names, span=Span(i + 1, 1))
        if self.match.length:
            game.crawford = bool(rec[20])
        self.match.games.append(game)
        self.game = game
        self.cube = 1
        self.pending_cube = None
        self.moves_in_game = 0
        self.first_decision = True

    def _set_up(self, rec: bytes, i: int, board_at: int, active_at: int, cube_at: int) -> None:
        """A game whose first decision is not at the starting position (a game begun from a set-up
        position, or the one position of an ``.xgp``): that position becomes the game's start."""
        self.first_decision = False
        assert self.game is not None
        variant = self.match.rules.variant
        boards = _boards(struct.unpack_from("<26b", rec, board_at), variant, self.name,
                         i * RECORD_SIZE + board_at, i + 1)
        code = struct.unpack_from("<i", rec, cube_at)[0]
        if not -12 <= code <= 12:
            raise _rec_err(f"cube {code} is out of range", self.name, i * RECORD_SIZE + cube_at, i + 1)
        start = Position.initial(variant)
        if boards == start.boards and code == 0:
            return
        turn = 1 if struct.unpack_from("<i", rec, active_at)[0] == 1 else 0
        self.cube = 1 << abs(code)
        self.game.start = start.replace(boards=boards, turn=turn, cube=self.cube,
                                        cube_owner=None if code == 0 else (1 if code > 0 else 0),
                                        names=self.match.names)
        self.match.normalisations.append(Normalisation(
            f"record {i + 1}: game {self.game.number} starts from a set-up position", i + 1, 1))

    def _action(self, kind: str, player: int, i: int, **kw: object) -> Action:
        a = Action(kind, player, span=Span(i + 1, 1),  # type: ignore[arg-type]
                   move_number=self.moves_in_game or None, **kw)  # type: ignore[arg-type]
        assert self.game is not None
        self.game.actions.append(a)
        return a

    def _cube(self, rec: bytes, i: int) -> None:
        if self.first_decision:
            self._set_up(rec, i, 36, 12, 32)
        actif, doubled, take = struct.unpack_from("<3i", rec, 12)
        player = 1 if actif == 1 else 0
        analysis = _cube_analysis(rec)
        if doubled != 1:
            self.pending_cube = analysis  # the decision not to double: analysed with the next move
            return
        a = self._action("double", player, i, value=self.cube * 2)
        if analysis is not None:
            a.analysis = Analysis(cube=analysis, producer="eXtreme Gammon")
        if take == 1:
            self.cube *= 2
            self._action("take", 1 - player, i)
        elif take == 2:
            self.cube *= 4
            self._action("beaver", 1 - player, i, value=self.cube)
        elif take == 0:
            self._action("drop", 1 - player, i)
        else:
            raise _rec_err(f"unknown answer {take} to a double", self.name, i * RECORD_SIZE + 20, i + 1)

    def _move(self, rec: bytes, i: int, nxt: bytes | None) -> None:
        if self.first_decision:
            self._set_up(rec, i, 9, 64, 108)
        head = _MOVE_HEAD.unpack_from(rec, 64)  # active player, 8 from/to steps, the dice
        actif, steps, d1, d2 = head[0], head[1:9], head[9], head[10]
        player = 1 if actif == 1 else 0
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise _rec_err(f"dice {d1}-{d2} are not a roll", self.name, i * RECORD_SIZE + 100, i + 1)
        play = _play_text(steps, 0, _BOARD.unpack_from(rec, 9), actif == 1)
        self.moves_in_game += 1
        if not play and nxt is not None and nxt[8] == FOOTER_GAME:
            winner, _, term = struct.unpack_from("<3i", nxt, 24)
            loser = 0 if winner == 1 else 1
            if term >= 100 and loser == player:  # rolled, then resigned instead of moving: legal
                self._action("roll", player, i, dice=(d1, d2), text=f"{d1}{d2}: (resigned)")
                return
        a = self._action("move", player, i, dice=(d1, d2), play=play, no_move=None if play else "",
                         text=f"{d1}{d2}: {play}".rstrip())
        if struct.unpack_from("<i", rec, 2480)[0] == 2:
            self.match.normalisations.append(Normalisation(
                f"record {i + 1}: eXtreme Gammon marks the play {play or '(none)'} with {d1}{d2} as invalid",
                i + 1, 1))
        analysis = Analysis(producer="eXtreme Gammon")
        analysis.checker = _checker_analysis(rec)
        luck = struct.unpack_from("<d", rec, 2320)[0]
        if luck != NOT_ANALYSED and luck == luck and abs(luck) < 100 and analysis.checker is not None:
            analysis.luck = round(luck, 6)
        if self.pending_cube is not None:
            analysis.cube = self.pending_cube
            self.pending_cube = None
        if not analysis.is_empty():
            a.analysis = analysis

    def _footer(self, rec: bytes, i: int) -> None:
        winner, points, term = struct.unpack_from("<3i", rec, 24)
        if winner not in (1, -1):
            raise _rec_err(f"unknown winner {winner}", self.name, i * RECORD_SIZE + 24, i + 1)
        if not 0 <= points <= 1 << 16:
            raise _rec_err(f"{points} points is out of range", self.name, i * RECORD_SIZE + 28, i + 1)
        player = 1 if winner == 1 else 0
        if term >= 100:
            self._action("resign", 1 - player, i, value=max(1, min(3, term - 100)))
            self._action("accept", player, i)
        self._action("win", player, i, value=points)
        self.pending_cube = None


_POINT = tuple(str(p + 1) for p in range(24)) + ("bar",)
_STEP = {(f, t): f"{_POINT[f]}/{'off' if t < 0 else t + 1}" for f in range(25) for t in range(-1, 24)}
"""The text of one step, by XG's (from, to); ``to`` -1 is off."""
_HIT = {k: v + "*" for k, v in _STEP.items()}
_MOVE_HEAD = struct.Struct("<i8i2i")
_BOARD = struct.Struct("<26b")
_MOVES = [struct.Struct(f"<{8 * n}b") for n in range(33)]
_LEVELS = [struct.Struct(f"<{2 * n}h") for n in range(33)]
_EVALS = [struct.Struct(f"<{7 * n}f") for n in range(33)]


def _play_text(moves: tuple[int, ...], k0: int, before: tuple[int, ...], p1: bool) -> str:
    """A play (``moves[k0:k0 + 8]``, XG's from/to pairs: 0-based in the mover's numbering, 24 the bar,
    a negative "to" off, -1 or 0/0 where it ends) in the mover's numbering, hits marked; ``before`` is
    the record's position (player 1's frame)."""
    board = list(before)
    sign = 1 if p1 else -1
    parts = []
    for k in range(k0, k0 + 8, 2):
        f, t = moves[k], moves[k + 1]
        if f == -1 or (f == 0 and t == 0) or not 0 <= f <= 24 or t > 23:
            break
        board[(0 if p1 else 25) if f == 24 else (f + 1 if p1 else 24 - f)] -= sign
        if t < 0:
            parts.append(_STEP[f, -1])
            continue
        idx = t + 1 if p1 else 24 - t
        if board[idx] == -sign:
            board[idx] = sign
            parts.append(_HIT[f, t])
        else:
            board[idx] += sign
            parts.append(_STEP[f, t])
    return " ".join(parts)


def _probs(ev: tuple[float, ...], k: int = 0) -> Probabilities | None:
    """XG's evaluation ``ev[k:k + 7]`` (lose backgammon, lose gammon, lose, win, win gammon, win
    backgammon, equity) as probabilities for the player who acts."""
    win = ev[k + 3]
    if not 0 <= win <= 1 or not all(map(math.isfinite, ev[k:k + 6])):  # (NaN and infinities: no figure)
        return None
    return Probabilities(round(win, 6), round(ev[k + 4], 6), round(ev[k + 5], 6), round(ev[k + 1], 6),
                              round(ev[k], 6))


def _checker_analysis(rec: bytes) -> CheckerAnalysis | None:
    """The ranked candidates of a move record, or None when it holds no analysed candidate.  They
    are decoded when first used (:class:`_RecordCheckerAnalysis`): validating a match never needs
    them, and they are most of the work of reading an analysed file."""
    n = struct.unpack_from("<i", rec, 120)[0]
    if not 0 < n <= 32:
        return None
    evs = _EVALS[n].unpack_from(rec, 1408)
    for k in range(6, 7 * n, 7):
        if evs[k] > NOT_ANALYSED + 1:  # NaN is never greater: as in _decode_candidates
            return _RecordCheckerAnalysis(rec)
    return None


def _decode_candidates(rec: bytes) -> tuple[tuple[Candidate, ...], int | None]:
    """The analysed candidates of a move record, best first, and the index of the play made: the
    candidate whose position after it (XG's ``PosPlayed``) is the record's position after the move."""
    n = struct.unpack_from("<i", rec, 120)[0]
    cands = []
    index = None
    before = struct.unpack_from("<26b", rec, 9)
    p1 = struct.unpack_from("<i", rec, 64)[0] == 1
    end = rec[35:61]
    moves = _MOVES[n].unpack_from(rec, 1024)
    levels = _LEVELS[n].unpack_from(rec, 1280)
    evs = _EVALS[n].unpack_from(rec, 1408)
    for c in range(n):
        k = 7 * c
        eq = evs[k + 6]
        if not NOT_ANALYSED + 1 < eq < math.inf:  # not analysed, NaN or infinite
            continue
        if index is None and rec[192 + 26 * c:218 + 26 * c] == end:
            index = len(cands)
        level = levels[2 * c]
        cands.append(Candidate(_play_text(moves, 8 * c, before, p1), round(eq, 6), _probs(evs, k),
                                    LEVELS.get(level) or f"level {level}"))
    return tuple(cands), index


def _lazy(cls: type[T], decode: Callable[[bytes], tuple[object, ...]]) -> Callable[[bytes], T]:
    """``make(rec)``: a ``cls`` (a frozen record class with slots) whose fields are ``decode(rec)``,
    computed when a field is first read.  It is equal to (and hashes as) the plain object with the same
    fields, shows as one, and copies and pickles as one."""
    names = [f.name for f in fields(cls)]
    slots = [cls.__dict__[n] for n in names]

    def fill(self: T) -> None:
        for slot, value in zip(slots, decode(self._rec), strict=True):  # type: ignore[attr-defined]
            slot.__set__(self, value)

    def field(slot: Any) -> property:
        def get(self: T) -> object:
            try:
                return slot.__get__(self)
            except AttributeError:
                fill(self)
                return slot.__get__(self)
        return property(get)

    def values(self: T) -> tuple[object, ...]:
        return tuple(getattr(self, n) for n in names)

    def plain(self: T) -> T:
        return cls(*values(self))

    def eq(self: T, other: object) -> bool:
        if not isinstance(other, cls):
            return NotImplemented
        return values(self) == tuple(getattr(other, n) for n in names)

    def init(self: T, rec: bytes) -> None:
        object.__setattr__(self, "_rec", rec)

    body: dict[str, Any] = {n: field(sl) for n, sl in zip(names, slots, strict=True)}
    body.update(__slots__=("_rec",), __init__=init, __eq__=eq, __hash__=lambda self: hash(plain(self)),
                __repr__=lambda self: repr(plain(self)), __reduce__=lambda self: (cls, values(self)),
                __doc__=f"A {cls.__name__} decoded from its record when first used.")
    return type(f"_Record{cls.__name__}", (cls,), body)  # type: ignore[return-value]


_RecordCheckerAnalysis = _lazy(CheckerAnalysis, _decode_candidates)


def _cube_analysis(rec: bytes) -> CubeAnalysis | None:
    """The doubling decision analysed in a cube record, or None (decoded when first used)."""
    nd, dt, dp = struct.unpack_from("<3f", rec, 152)
    if not (-100 <= nd <= 100 and -100 <= dt <= 100 and -100 <= dp <= 100):
        return None
    return _RecordCubeAnalysis(rec)


def _decode_cube(rec: bytes) -> tuple[object, ...]:
    base = 64
    level = struct.unpack_from("<i", rec, base + 28)[0]
    nd, dt, dp = struct.unpack_from("<3f", rec, base + 88)
    ev = struct.unpack_from("<7f", rec, base + 60)
    return (round(nd, 6), round(dt, 6), round(dp, 6), None, _probs(ev), LEVELS.get(level, f"level {level}"), None)


_RecordCubeAnalysis = _lazy(CubeAnalysis, _decode_cube)
