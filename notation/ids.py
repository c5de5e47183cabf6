"""Position identifiers: read and write XGID, GNU Backgammon Position/Match IDs, FIBS ``board:``
lines, Snowie text positions, and gnubg's ASCII board.

Every format has a python-chess style pair: a reader ``parse_<format>(text) -> Position`` and a writer
``<format>(position) -> str``.  :func:`parse_position` recognises the format by itself.

* ``parse_xgid`` / ``xgid``
* ``parse_gnubg_id`` / ``gnubg_id`` (``PositionID:MatchID``), ``parse_position_id`` / ``position_id``,
  ``parse_match_id`` / ``match_id``
* ``parse_fibs`` / ``fibs_board``
* ``parse_snowie`` / ``snowie`` (alias ``snowie_id``)
* ``parse_ascii_board`` / ``ascii_board``
* ``parse_ogid`` / ``ogid``: OGXM's position string (:mod:`notation.ogid`)

The gnubg ID's writers (:func:`position_id`, :func:`match_id`, :func:`gnubg_id`) and :func:`ascii_board`
are defined in :mod:`notation.position`, with the :class:`Position` that shows itself with them, and are
importable from here with the rest.

The syntax of each ID is defined once, in its lark grammar ``grammars/ids_*.lark``.  A reader matches the
ID against the grammar's start rule made a regular expression (:func:`notation._grammar.regexes`, generated
from the grammar by scripts/generate.py, so reading an ID never imports lark), splits it into its fields and gives
each field its meaning.  Bad text raises :class:`~notation.errors.ParseError` whose ``column`` is the 1-based column of
the offending character and whose message names the field (``XGID field 5 (dice): '7x' at column 39
is not a roll``).  A well-formed ID of a position that cannot exist raises
:class:`~notation.errors.InvalidPositionError` listing :meth:`Position.problems` (pass
``validate=False`` to get the position anyway).

Players follow gnubg: player 0 is O, the *top* (lowercase) player of an XGID; player 1 is X, the
bottom (uppercase) player, and "You" (the first name) of a FIBS board as gnubg writes it.

Where formats disagree the readers keep what was written and the writers say what they do:

* Dice order.  ``Position.dice`` keeps the dice in the order read.  gnubg's Match ID writer puts the
  higher die first, BGBlitz writes them as rolled; :func:`match_id` writes the higher die first (so it
  agrees with gnubg) unless ``dice_as_rolled=True``.  XGID, FIBS, Snowie and the ASCII board are
  written in the stored order.
* A pending double.  XGID ``D``/``B``/``R`` and the Match ID "doubled" bit set
  ``Position.double_offered`` (and ``Position.beaver`` = 1 or 2 for ``B``/``R``); ``turn`` is the
  player who doubled (gnubg's ``fMove``) and the opponent must act (``fTurn``).
* Values a format carries but the model does not (FIBS colour/direction/can-move, Snowie's unknown
  fields, a Match ID's ``fTurn`` when it disagrees with the rest) are kept in ``Position.extras``
  for information; writers never read ``extras``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, NamedTuple

from .errors import InvalidPositionError, NotationError, ParseError
from .ogid import is_ogid, ogid, parse_ogid
from .position import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    Board,
    Position,
    _board_key,
    _log2,
    _no_waiting,
    ascii_board,
    b64_keys,
    gnubg_id,
    match_id,
    match_key,
    position_id,
    position_key,
)
from .rules import get_rules

if TYPE_CHECKING:  # pragma: no cover
    from lark.exceptions import UnexpectedInput


_SHAPES: dict[tuple[str, str], re.Pattern[str]] = {}


def _shape(grammar: str, rule: str = "start") -> re.Pattern[str]:
    """The rule ``rule`` of ``grammars/<grammar>.lark`` as a compiled regular expression, derived from the
    grammar (:func:`notation._grammar.regexes`)."""
    key = (grammar, rule)
    pattern = _SHAPES.get(key)
    if pattern is None:
        from ._grammar import regexes

        pattern = _SHAPES[key] = re.compile(regexes(grammar)[rule])
    return pattern


_STARTS: dict[str, str | tuple[str, ...]] = {"ids_gnubg": ("gnubg_id", "position_id", "match_id")}
"""The start symbols of the grammars that have several."""


def _grammar_error(text: str, grammar: str, rule: str = "start") -> UnexpectedInput | None:
    """Where ``text``, which the grammar's regular expression does not match, goes wrong: lark's parser of
    the grammar says (imported only here, for bad input).  None if the parser reads it after all."""
    from lark.exceptions import UnexpectedInput

    from ._grammar import parser

    try:
        parser(grammar, _STARTS.get(grammar, "start")).parse(text, start=rule)
    except UnexpectedInput as e:
        return e
    return None  # pragma: no cover - the regular expression is the grammar's own


class _Tok(str):
    """A token of an ID: its text, and ``start_pos``, its 0-based position in the line."""

    __slots__ = ("start_pos",)
    start_pos: int

    def __new__(cls, text: str, start_pos: int) -> _Tok:
        tok = super().__new__(cls, text)
        tok.start_pos = start_pos
        return tok


def _tokens(text: str, sep: str, at: int = 0) -> list[_Tok]:
    """The fields of ``text`` between the separators ``sep``, each with its position (``text`` starting
    at ``at``)."""
    toks = []
    for part in text.split(sep):
        toks.append(_Tok(part, at))
        at += len(part) + 1
    return toks


__all__ = [
    "FORMATS",
    "all_ids",
    "ascii_board",
    "detect_format",
    "fibs_board",
    "gnubg_id",
    "match_id",
    "match_key",
    "ogid",
    "parse_ascii_board",
    "parse_fibs",
    "parse_gnubg_id",
    "parse_match_id",
    "parse_ogid",
    "parse_position",
    "parse_position_id",
    "parse_snowie",
    "parse_xgid",
    "position_id",
    "position_key",
    "snowie",
    "snowie_id",
    "xgid",
]

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_VALUE = {c: i for i, c in enumerate(_B64)}
GAME_STATES = {GAME_NONE: "no game", GAME_PLAYING: "playing", GAME_OVER: "game over",
               GAME_RESIGNED: "resigned", GAME_DROPPED: "dropped"}


# =========================================================================== shared helpers


@dataclass(frozen=True, slots=True)
class _Fields:
    """A separator-delimited ID being read: turns positions in ``text`` into field-aware errors.

    ``start`` is where the first field begins in ``text`` (after a prefix such as ``XGID=``);
    ``column`` is the 1-based column of ``text[0]`` in what the caller was given.
    """

    fmt: str
    sep: str
    names: Sequence[str]
    descs: Sequence[str]
    charsets: Sequence[str | None]
    """Per field, the characters it may hold (to find the offending one), or None."""
    text: str
    start: int = 0
    column: int = 1

    def index(self, pos: int) -> int:
        """The (0-based) field holding ``pos``; a separator belongs to the field it ends."""
        return self.text.count(self.sep, self.start, max(pos, self.start))

    def span(self, k: int) -> tuple[int, int]:
        a = self.start
        for _ in range(k):
            a = self.text.index(self.sep, a) + 1
        b = self.text.find(self.sep, a)
        return a, (len(self.text) if b < 0 else b)

    def name(self, k: int) -> str:
        return f"{self.fmt} field {k + 1} ({self.names[k]})"

    def error(self, pos: int, k: int | None = None, desc: str | None = None,
              refine: bool = False) -> ParseError:
        """``'<field>' at column C is not <desc>``, C being the column of ``text[pos]`` (with
        ``refine``: of the field's first character outside its character set, when there is one)."""
        if k is None:
            k = self.index(pos)
        a, b = self.span(k)
        allowed = self.charsets[k]
        if refine and allowed is not None:
            pos = next((i for i in range(a, b) if self.text[i] not in allowed), pos)
        col = self.column + pos
        what = desc if desc is not None else self.descs[k]
        field = self.text[a:b]
        shown = repr(field) if len(field) <= 40 else f"{field[:20]!r}...{field[-10:]!r} ({len(field)} characters)"
        return ParseError(f"{self.name(k)}: {shown} at column {col} is not {what}", column=col,
                          text=self.text if len(self.text) <= 200 else self.text[max(0, pos - 40):pos + 40])

    def from_lark(self, e: UnexpectedInput) -> ParseError:
        pos = _lark_pos(e, self.text)
        n = len(self.names)
        k = self.index(pos)
        if pos >= len(self.text):
            if k < n - 1:
                got = k + 1
                return ParseError(f"{self.fmt} has {got} field{'s' if got != 1 else ''}, {n} needed "
                                  f"(it ends at column {self.column + pos})",
                                  column=self.column + pos, text=self.text)
            return self.error(pos, k, refine=True)
        if self.text[pos] == self.sep and k >= n - 1:
            return ParseError(f"{self.fmt} has more than {n} fields: an extra '{self.sep}' at column "
                              f"{self.column + pos}", column=self.column + pos, text=self.text)
        return self.error(pos, min(k, n - 1), refine=True)



MAX_CHECKERS = 15
"""No variant has more checkers a side: a larger count on a point is refused where it is read."""
MAX_DIGITS = 9
"""No field of an ID needs more digits; longer numbers are refused before they are converted."""

def _lark_pos(e: UnexpectedInput, text: str) -> int:
    """The 0-based position in ``text`` where lark gave up."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(e, UnexpectedCharacters):
        return e.pos_in_stream  # type: ignore[return-value]  # (lark declares it None on the base class; this sets it)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        if tok.type == "$END" or tok.start_pos is None:
            return len(text)
        return tok.start_pos
    if isinstance(e, UnexpectedEOF):
        return len(text)
    return e.pos_in_stream or 0  # pragma: no cover - other lark errors


def _one_line(text: str, fmt: str) -> tuple[str, int]:
    """``text`` without surrounding blanks and anything after its first line; and the 1-based column
    of its first kept character."""
    if not isinstance(text, str):
        raise TypeError(f"a {fmt} must be a str, not {type(text).__name__}")
    lead = len(text) - len(text.lstrip())
    line = text[lead:].split("\n", 1)[0].rstrip()
    if not line:
        raise ParseError(f"empty {fmt}", column=1, text=text)
    # a column counts from the start of the line the ID is on
    last_nl = text.rfind("\n", 0, lead)
    return line, lead - last_nl


def _finish(pos: Position, validate: bool, fmt: str, text: str) -> Position:
    if validate:
        problems = pos.problems()
        if problems:
            raise InvalidPositionError(f"impossible position in {fmt}: " + "; ".join(problems), text=text)
    return pos


def _fill_off(board: list[int], checkers: int) -> Board:
    board[0] = max(0, checkers - sum(board[1:26]))
    return tuple(board)


# =========================================================================== GNU Backgammon IDs


def _b64_to_int(chars: str, nbytes: int) -> tuple[int, int]:
    """Standard Base64 ``chars`` → (little-endian integer of the first ``nbytes`` bytes, leftover bits)."""
    stream = 0
    for ch in chars:
        stream = (stream << 6) | _B64_VALUE[ch]
    extra_bits = 6 * len(chars) - 8 * nbytes
    data = (stream >> extra_bits).to_bytes(nbytes, "big")
    return int.from_bytes(data, "little"), stream & ((1 << extra_bits) - 1)


def _char_of_bit(bit: int) -> int:
    """Which Base64 character (0-based) carries bit ``bit`` of a little-endian key."""
    return (8 * (bit // 8) + 7 - bit % 8) // 6


def boards_position_id(on_roll: Board, opponent: Board) -> str:
    """The Position ID of two boards (the first on roll), without making a :class:`Position`: the
    same as :func:`position_id` for a position with no checker waiting to enter (Acey-Deucey)."""
    return b64_keys((_board_key(on_roll, opponent),))[0]


def _decode_boards(key: int, checkers: int, text: str, column: int) -> tuple[Board, Board]:
    """(on roll, opponent) from an 80-bit key."""
    boards: list[Board] = []
    bit = 0
    for _side in range(2):
        b = [0] * 26
        for p in range(1, 26):
            n = 0
            while bit < 80 and (key >> bit) & 1:
                n += 1
                bit += 1
            if bit >= 80:
                raise InvalidPositionError("the Position ID holds more than 30 checkers: it runs out of "
                                           "bits before the last point", column=column, text=text)
            bit += 1
            b[p] = n
        boards.append(_fill_off(b, checkers))
    rest = key >> bit
    if rest:
        stray = bit + ((rest & -rest).bit_length() - 1)
        col = column + _char_of_bit(stray)
        raise ParseError(f"Position ID: {text[col - column]!r} at column {col} sets bits after the last "
                         "point", column=col, text=text)
    return boards[1], boards[0]


_GNUBG_SPEC = {"position_id": ("Position ID", 14), "match_id": ("Match ID", 12)}


def _b64_pieces(text: str, start: str, column: int) -> tuple[str, ...]:
    """The Base64 characters of each ID in ``text`` (a Position ID, a Match ID, or both for
    ``gnubg_id``): the start rule ``start`` of ``grammars/ids_gnubg.lark``; where ``text`` does not
    follow it, an error saying where."""
    if _shape("ids_gnubg", start).fullmatch(text) is not None:
        return tuple(text.split(":"))
    e = _grammar_error(text, "ids_gnubg", start)
    pos = len(text) if e is None else _lark_pos(e, text)
    raise _b64_error(text, start, pos, column)


def _b64_error(text: str, start: str, pos: int, column: int) -> ParseError:
    """Why ``text`` is not a Position ID, Match ID or ``PositionID:MatchID`` (lark failed at ``pos``)."""
    col = column + pos
    ch = text[pos] if pos < len(text) else None
    colon = text.find(":")
    if start == "gnubg_id" and 0 <= colon < pos:
        name, first = "match_id", colon + 1
    elif start == "gnubg_id":
        name, first = "position_id", 0
    else:
        name, first = start, 0
    what, size = _GNUBG_SPEC[name]
    piece = text[first:].split(":", 1)[0]
    if ch is not None and ch not in _B64_VALUE and ch != ":":
        return ParseError(f"{what}: {ch!r} at column {col} is not a Base64 character (A-Z a-z 0-9 + /)",
                          column=col, text=text)
    if ch == ":" and (name == "match_id" or start != "gnubg_id") and len(piece) == size:
        return ParseError(f"unexpected ':' at column {col} after the {what}", column=col, text=text)
    if len(piece) > size:
        return ParseError(f"{what} {piece!r} at column {column + first} has more than {size} characters "
                          f"(column {column + first + size})", column=column + first + size, text=text)
    if start == "gnubg_id" and colon < 0 and len(piece) == size:
        return ParseError(f"GNUbg ID {text!r} has no ':' and Match ID after its Position ID (column {col})",
                          column=col, text=text)
    return ParseError(f"{what} {piece!r} has {len(piece)} characters, {size} needed (column {col}: character "
                      f"{len(piece) + 1} is missing)", column=col, text=text)


def parse_position_id(text: str, *, turn: int = 0, variant: str = "standard",
                      validate: bool = True) -> Position:
    """A Position ID alone.  It does not say who is on roll: ``turn`` (default player 0) is."""
    line, column = _one_line(text, "Position ID")
    (chars,) = _b64_pieces(line, "position_id", column)
    key, _extra = _b64_to_int(chars, 10)
    _check_extra(line, column, _extra)
    rules = get_rules(variant)
    on_roll, opponent = _decode_boards(key, rules.checkers, line, column)
    boards = (on_roll, opponent) if turn == 0 else (opponent, on_roll)
    pos = Position(boards=boards, turn=turn, variant=rules.name)
    return _finish(pos, validate, "Position ID", line)


def _check_extra(line: str, column: int, extra: int) -> None:
    if extra:
        raise ParseError(f"Position ID: {line[13]!r} at column {column + 13} is not a possible last "
                         "character (its last 4 bits must be 0: A, Q, g or w)", column=column + 13, text=line)


class _MatchFields(NamedTuple):
    """The fields of a Match ID key, as gnubg packs them (a named tuple: made once per Match ID read, and
    its class costs a tenth of a frozen dataclass's at start-up)."""

    cube_log: int
    owner: int
    move: int
    crawford: bool
    state: int
    turn: int
    doubled: bool
    resign: int
    dice: tuple[int, int]
    length: int
    score: tuple[int, int]
    no_jacoby: bool


def _match_fields(key: int) -> _MatchFields:
    def bits(start: int, n: int) -> int:
        return (key >> start) & ((1 << n) - 1)

    return _MatchFields(bits(0, 4), bits(4, 2), bits(6, 1), bool(bits(7, 1)), bits(8, 3), bits(11, 1),
                        bool(bits(12, 1)), bits(13, 2), (bits(15, 3), bits(18, 3)), bits(21, 15),
                        (bits(36, 15), bits(51, 15)), bool(bits(66, 1)))


def _apply_match(base: Position, line: str, column: int, chars: str) -> Position:
    key, _ = _b64_to_int(chars, 9)
    f = _match_fields(key)
    d1, d2 = f.dice
    extras = list(base.extras)
    if d1 > 6 or d2 > 6:
        col = column + _char_of_bit(15 if d1 > 6 else 18)
        raise ParseError(f"Match ID: dice {d1} and {d2} (bits 15-20, column {col}) are not a roll",
                         column=col, text=line)
    if (d1 == 0) != (d2 == 0):
        extras.append(("note", f"Match ID dice {d1} and {d2} read as not rolled, as gnubg does"))
        d1 = d2 = 0
    if f.state > GAME_DROPPED:
        col = column + _char_of_bit(8)
        raise ParseError(f"Match ID: game state {f.state} (bits 8-10, column {col}) is not 0-4",
                         column=col, text=line)
    owner = None if f.owner >= 2 else f.owner
    if f.owner == 2:
        extras.append(("gnubg_cube_owner_bits", "2"))
    resigner = (1 - f.turn) if f.resign else None
    pos = base.replace(
        turn=f.move, dice=(d1, d2) if d1 else None, cube=1 << f.cube_log, cube_owner=owner,
        double_offered=f.doubled, beaver=0, resign_offered=f.resign, resigner=resigner,
        match_length=f.length, score=f.score, crawford=f.crawford, jacoby=not f.no_jacoby,
        game_state=f.state)
    if pos.to_act != f.turn:
        extras.append(("gnubg_fturn", str(f.turn)))
    if extras:
        pos = pos.replace(extras=tuple(extras))
    return pos


def parse_match_id(text: str, *, board: Position | None = None, variant: str = "standard",
                   validate: bool = True) -> Position:
    """A Match ID alone, applied to the checkers of ``board`` (default: the variant's starting position)."""
    line, column = _one_line(text, "Match ID")
    (chars,) = _b64_pieces(line, "match_id", column)
    base = board if board is not None else Position.initial(variant)
    pos = _apply_match(base, line, column, chars)
    return _finish(pos, validate, "Match ID", line)


def parse_gnubg_id(text: str, *, variant: str = "standard", validate: bool = True) -> Position:
    """``PositionID:MatchID`` as gnubg prints it (``4HPwATDgc/ABMA:cAkAAAAAAAAA``)."""
    line, column = _one_line(text, "GNUbg ID")
    pid, mid = _b64_pieces(line, "gnubg_id", column)
    key, extra = _b64_to_int(pid, 10)
    _check_extra(line, column, extra)
    rules = get_rules(variant)
    pos = _apply_match(Position(variant=rules.name), line, column + 15, mid)
    on_roll, opponent = _decode_boards(key, rules.checkers, line, column)
    boards = (on_roll, opponent) if pos.turn == 0 else (opponent, on_roll)
    pos = pos.replace(boards=boards)
    return _finish(pos, validate, "GNUbg ID", line)


# =========================================================================== XGID

_XGID_NAMES = ("position", "cube", "cube owner", "turn", "dice", "score 1", "score 2",
               "Crawford/Jacoby", "match length", "max cube")
_XGID_DESCS = ("26 points of '-', A-P or a-p", "a cube exponent (0-15)", "1, 0 or -1", "1 or -1",
               "a roll (00, two dice 1-6, D, B or R)", "a score", "a score", "0-3", "a match length",
               "a number")
_DIGITS = "0123456789"
_XGID_CHARS = ("-ABCDEFGHIJKLMNOPabcdefghijklmnop", _DIGITS, "-+" + _DIGITS, "-+" + _DIGITS, "0123456DBR",
               _DIGITS, _DIGITS, _DIGITS, _DIGITS, _DIGITS)
_SLOT_LETTERS_X = "ABCDEFGHIJKLMNOP"
_SLOT_LETTERS_O = _SLOT_LETTERS_X.lower()


def _xgid_tokens(line: str, start: int, column: int, fields: _Fields) -> tuple[list[_Tok], list[_Tok]]:
    """(the 26 slot tokens, the 9 field tokens) of an XGID line (``start``: where its position begins,
    after an ``XGID=``), each with its position; where the line does not follow ``grammars/ids_xgid.lark``,
    an error saying where."""
    if _shape("ids_xgid").fullmatch(line) is not None:
        board, *toks = _tokens(line[start:], ":", start)
        return [_Tok(ch, start + i) for i, ch in enumerate(board)], toks
    e = _grammar_error(line, "ids_xgid")
    if e is None:  # pragma: no cover - the regular expression is the grammar's own
        raise ParseError("not an XGID", column=column, text=line)
    pos = _lark_pos(e, line)
    if fields.index(pos) == 0:
        col = column + pos
        if pos - start >= 26:
            board_text = line[start:].split(":", 1)[0]
            raise ParseError(f"XGID position {board_text!r} at column {column + start} has more than 26 "
                             f"points (column {col})", column=col, text=line)
        if pos < len(line) and line[pos] not in ":":
            raise ParseError(f"XGID position: {line[pos]!r} at column {col} is not '-', A-P or a-p",
                             column=col, text=line)
        got = pos - start
        raise ParseError(f"XGID position {line[start:pos]!r} at column {column + start} has {got} "
                         f"point{'s' if got != 1 else ''}, 26 needed (column {col})", column=col, text=line)
    raise fields.from_lark(e)


def parse_xgid(text: str, *, variant: str = "standard", validate: bool = True) -> Position:
    """An XGID, with or without ``XGID=`` (anything after the first line is ignored, as gnubg does)."""
    line, column = _one_line(text, "XGID")
    prefix = _shape("ids_xgid", "PREFIX").match(line)
    start = 0 if prefix is None else prefix.end()
    fields = _Fields("XGID", ":", _XGID_NAMES, _XGID_DESCS, _XGID_CHARS, line, start, column)
    slots, toks = _xgid_tokens(line, start, column, fields)
    cube_t, owner_t, turn_t, dice_t, s1_t, s2_t, rules_t, len_t, max_t = toks

    def num(tok: _Tok, k: int, lo: int | None = None, hi: int | None = None,
            allowed: Sequence[int] | None = None) -> int:
        if len(str(tok).lstrip("+-")) > MAX_DIGITS:  # (no int() of thousands of digits: Python refuses it)
            raise fields.error(tok.start_pos or 0, k, f"a number of at most {MAX_DIGITS} digits")
        v = int(tok)
        if ((lo is not None and v < lo) or (hi is not None and v > hi)
                or (allowed is not None and v not in allowed)):
            raise fields.error(tok.start_pos or 0, k)
        return v


    rules = get_rules(variant)
    b0 = [0] * 26
    b1 = [0] * 26
    for i, tok in enumerate(slots):
        ch = str(tok)
        if ch == "-":
            continue
        col = column + (tok.start_pos or 0)
        if ch.isupper():
            if i == 0:
                raise ParseError(f"XGID position: {ch!r} at column {col} is in slot 0, the top player's "
                                 "(O's) bar, where only lowercase letters can be", column=col, text=line)
            b1[i] = ord(ch) - 64
        else:
            if i == 25:
                raise ParseError(f"XGID position: {ch!r} at column {col} is in slot 25, the bottom player's "
                                 "(X's) bar, where only uppercase letters can be", column=col, text=line)
            b0[25 - i] = ord(ch) - 96
    cube_log = num(cube_t, 1, 0, 15)
    owner = num(owner_t, 2, allowed=(-1, 0, 1))
    turn = num(turn_t, 3, allowed=(-1, 1))
    dice: tuple[int, int] | None = None
    double_offered = False
    beaver = 0
    d = str(dice_t)
    if d in ("D", "B", "R"):
        double_offered = True
        beaver = "DBR".index(d)
    elif d != "00":
        if not all(c in "123456" for c in d):
            first_bad = next(i for i, c in enumerate(d) if c not in "123456")
            raise fields.error((dice_t.start_pos or 0) + first_bad, 4)
        dice = (int(d[0]), int(d[1]))
    score1 = num(s1_t, 5)
    score2 = num(s2_t, 6)
    length = num(len_t, 8)
    flags = num(rules_t, 7)
    if flags > (1 if length else 3):
        raise fields.error(rules_t.start_pos or 0, 7, "0 or 1 (the Crawford flag of a match)" if length
                           else "0-3 (money: Jacoby 1 + beavers 2)")
    max_cube = num(max_t, 9)
    pos = Position(
        boards=(_fill_off(b0, rules.checkers), _fill_off(b1, rules.checkers)),
        turn=1 if turn == 1 else 0, dice=dice, cube=1 << cube_log,
        cube_owner={1: 1, -1: 0, 0: None}[owner], double_offered=double_offered, beaver=beaver,
        match_length=length, score=(score2, score1),
        crawford=bool(length and flags == 1), jacoby=bool(not length and flags & 1),
        beavers=bool(not length and flags & 2), max_cube=max_cube, variant=rules.name)
    return _finish(pos, validate, "XGID", line)


def xgid(position: Position) -> str:
    """The XGID (with the ``XGID=`` prefix).  Dice are written in the stored order."""
    p = position
    _no_waiting(p, "XGID")
    b0, b1 = p.boards
    slots = []
    for i in range(26):
        n1 = b1[i] if i >= 1 else 0
        n0 = b0[25 - i] if i <= 24 else 0
        if n1 and n0:
            raise InvalidPositionError(f"both players have checkers on X's {i}-point: not writable as "
                                       "an XGID")
        n = n1 or n0
        if n < 0 or n > 16:
            raise InvalidPositionError(f"{n} checkers on one point cannot be written in an XGID (1-16)")
        slots.append("-" if n == 0 else (_SLOT_LETTERS_X if n1 else _SLOT_LETTERS_O)[n - 1])
    cube = _log2(p.cube, "cube value")
    owner = {None: 0, 1: 1, 0: -1}[p.cube_owner]
    turn = 1 if p.turn == 1 else -1
    if p.double_offered or p.beaver:
        dice = "DBR"[min(max(p.beaver, 0), 2)]
    elif p.dice is not None:
        dice = f"{p.dice[0]}{p.dice[1]}"
    else:
        dice = "00"
    flags = int(p.crawford) if p.match_length else int(p.jacoby) | (int(p.beavers) << 1)
    return (f"XGID={''.join(slots)}:{cube}:{owner}:{turn}:{dice}:{p.score[1]}:{p.score[0]}:{flags}:"
            f"{p.match_length}:{p.max_cube}")


# =========================================================================== FIBS board

_FIBS_NAMES = (
    ("board", "player's name", "opponent's name", "match length", "player's score", "opponent's score")
    + tuple(f"board[{i}]" for i in range(26))
    + ("turn", "player's die 1", "player's die 2", "opponent's die 1", "opponent's die 2", "cube",
       "player may double", "opponent may double", "was doubled", "colour", "direction", "home", "bar",
       "player's borne off", "opponent's borne off", "player's bar", "opponent's bar", "can move",
       "forced move", "did Crawford", "redoubles")
)
_FIBS_DESCS = (("'board'", "a name", "a name", "a number", "a number", "a number")
               + ("a number",) * 26 + ("1, -1 or 0",) + ("a die 0-6",) * 4 + ("a number",) * 16)
_FIBS_CHARS = ("board", None, None) + (" \t-+" + _DIGITS,) * 50
_FIBS_UNLIMITED = 9999


def parse_fibs(text: str, *, variant: str = "standard", validate: bool = True) -> Position:
    """A FIBS CLIP ``board:`` line (53 fields; stray spaces inside fields are accepted).

    "You" (the first name) becomes player 1 (X) and the opponent player 0, as gnubg writes it.
    A match length of 9999 (unlimited) reads as money play (0).  A pending double is taken from the
    "was doubled" field (any non-zero value): the player whose turn it is has doubled.  The cube
    owner comes from the two may-double fields (only with a cube above 1); the Crawford game is a
    1-away score with neither field 52 nor 53 set (as gnubg reads it).  Borne-off checkers are the
    ones not on the board; fields 44-53 (home, bar, borne off, can move, ...) are kept in
    ``extras``, as are dice fields that are not a full roll (read as not rolled).
    """
    line, column = _one_line(text, "FIBS board")
    fields = _Fields("FIBS board", ":", _FIBS_NAMES, _FIBS_DESCS, _FIBS_CHARS, line, 0, column)
    read = _split_fields(line, ":", "ids_fibs", (1, 2), fields)
    (name_you, name_opp), toks = read
    def bad(n: int, desc: str | None = None) -> ParseError:
        tok = toks[n - 4]
        start = tok.start_pos or 0
        lead = len(str(tok)) - len(str(tok).lstrip())
        return fields.error(start + lead, n - 1, desc)

    for k, t in enumerate(toks):  # no number of a board line needs more digits (nor costs more to read)
        if len(str(t).strip().lstrip("+-")) > MAX_DIGITS:
            raise bad(k + 4, f"a number of at most {MAX_DIGITS} digits")
    vals = [int(str(t).strip()) for t in toks]

    def f(n: int) -> int:  # 1-based FIBS field number
        return vals[n - 4]

    for n in range(7, 33):  # the bars and points: a count no variant exceeds
        if abs(f(n)) > MAX_CHECKERS:
            raise bad(n, f"a checker count -{MAX_CHECKERS}..{MAX_CHECKERS}")

    for n in (4, 5, 6, 38):
        if f(n) < 0:
            raise bad(n, "a number 0 or more")
    colour, direction, turn_f = f(42), f(43), f(33)
    if colour not in (1, -1):
        raise bad(42, "1 or -1")
    if direction not in (1, -1):
        raise bad(43, "1 or -1")
    if turn_f not in (1, -1, 0):
        raise bad(33)
    for n in (34, 35, 36, 37):
        if not 0 <= f(n) <= 6:
            raise bad(n)
    rules = get_rules(variant)
    you = [0] * 26  # player 1
    opp = [0] * 26  # player 0
    for i in range(1, 25):
        v = f(7 + i)
        if v * colour > 0:
            you[i if direction == -1 else 25 - i] += abs(v)
        elif v:
            opp[25 - i if direction == -1 else i] += abs(v)
    you_bar, opp_bar = (25, 0) if direction == -1 else (0, 25)
    you[25] = abs(f(7 + you_bar))
    opp[25] = abs(f(7 + opp_bar))
    extras: list[tuple[str, str]] = [("fibs_colour", str(colour)), ("fibs_direction", str(direction)),
                                     ("fibs_dice", ":".join(str(f(n)) for n in (34, 35, 36, 37))),
                                     ("fibs_may_double", f"{f(39)}:{f(40)}")]
    for n, key in ((46, "fibs_player_off"), (47, "fibs_opponent_off"), (48, "fibs_player_bar"),
                   (49, "fibs_opponent_bar"), (50, "fibs_can_move"), (51, "fibs_forced_move"),
                   (52, "fibs_did_crawford"), (53, "fibs_redoubles")):
        extras.append((key, str(f(n))))
    length = f(4)
    if length == _FIBS_UNLIMITED:
        extras.append(("fibs_match_length", str(length)))
        length = 0
    game_state = GAME_PLAYING
    if turn_f == 0:
        game_state = GAME_OVER
        turn = 1
    else:
        turn = 1 if turn_f == colour else 0
    mine = (f(34), f(35)) if turn == 1 else (f(36), f(37))
    other = (f(36), f(37)) if turn == 1 else (f(34), f(35))
    dice_pair = mine if all(mine) else other if all(other) else (0, 0)
    if any(mine + other) and not dice_pair[0]:
        raw = ":".join(str(f(n)) for n in (34, 35, 36, 37))
        extras.append(("note", f"FIBS dice fields {raw} are not a full roll: read as not rolled"))
    may_you, may_opp = f(39), f(40)
    owner: int | None = None
    if bool(may_you) != bool(may_opp) and f(38) > 1:
        owner = 1 if may_you else 0
    doubled = f(41) != 0
    crawford = False
    score = (f(6), f(5))
    if length and (length - 1 in score) and not (f(52) or f(53)):
        crawford = True
    pos = Position(
        boards=(_fill_off(opp, rules.checkers), _fill_off(you, rules.checkers)),
        turn=turn, dice=dice_pair if dice_pair[0] else None, cube=f(38) or 1, cube_owner=owner,
        double_offered=doubled, match_length=length, score=score, crawford=crawford,
        game_state=game_state, names=(name_opp, name_you), variant=rules.name, extras=tuple(extras))
    return _finish(pos, validate, "FIBS board", line)


assert len(_FIBS_NAMES) == len(_FIBS_DESCS) == len(_FIBS_CHARS) == 53


def _split_fields(line: str, sep: str, grammar: str, name_fields: tuple[int, ...], fields: _Fields
                  ) -> tuple[list[str], list[_Tok]]:
    """(the names, the number tokens) of a FIBS or Snowie line, each token with its position; where the
    line does not follow ``grammars/<grammar>.lark``, an error saying where."""
    if _shape(grammar).fullmatch(line) is None:
        e = _grammar_error(line, grammar)
        if e is None:  # pragma: no cover - the regular expression is the grammar's own
            raise ParseError(f"not a {fields.fmt} line", column=fields.column, text=line)
        raise fields.from_lark(e)
    names: list[str] = []
    toks: list[_Tok] = []
    parts = _tokens(line, sep)
    if sep == ";" and parts[-1] == "":  # Snowie's last ';' (optional)
        parts.pop()
    for k, part in enumerate(parts):
        if k in name_fields:
            names.append(str(part))
        elif sep == ";" or k:  # FIBS's field 0 is the keyword
            toks.append(part)
    return names, toks


def _gnubg_post_crawford(p: Position) -> bool:
    """gnubg's post-Crawford flag: a match, not the Crawford game, and someone 1-away."""
    return p.match_length > 0 and not p.crawford and p.match_length - 1 in p.score


def fibs_board(position: Position) -> str:
    """The FIBS ``board:`` line.  A position read from a FIBS board is written back as FIBS wrote it:
    the same side's colour and direction, the dice in the pair of the player who rolled as the source
    had them, and the fields the model has no place for (can-move, forced move, Crawford, redoubles)
    kept, so that board → board is exact.  Any other position is written as gnubg writes it (``set
    output rawboard on``): from player 1's side ("You" = player 1, colour +1, direction -1), both dice
    pairs filled, field 52 = post-Crawford, field 53 = not the Crawford game.  ``:`` in names becomes
    ``_``."""
    p = position
    _no_waiting(p, "FIBS board")
    b0, b1 = p.boards
    kept = dict(p.extras)
    from_fibs = "fibs_colour" in kept and "fibs_direction" in kept
    colour = int(kept["fibs_colour"]) if from_fibs else 1
    direction = int(kept["fibs_direction"]) if from_fibs else -1
    cells = [0] * 26
    for i in range(1, 25):  # i: You's (player 1's) point
        if b1[i] and b0[25 - i]:
            raise InvalidPositionError(f"both players have checkers on X's {i}-point: not writable as FIBS")
        k = i if direction == -1 else 25 - i
        cells[k] = colour * (b1[i] if b1[i] else -b0[25 - i])
    you_bar, opp_bar = (25, 0) if direction == -1 else (0, 25)
    cells[you_bar] = colour * b1[25]
    cells[opp_bar] = -colour * b0[25]
    if p.game_state == GAME_OVER:
        turn = 0
    else:
        turn = colour if p.turn == 1 else -colour
    d1, d2 = p.dice if p.dice is not None else (0, 0)
    may1 = int(p.cube_owner != 0)
    may0 = int(p.cube_owner != 1)
    doubled = 0
    if p.double_offered:
        doubled = 1 if p.to_act == 0 else -1
    names = [n.replace(":", "_").replace("\n", " ") for n in p.names]
    out = ["board", names[1], names[0], str(p.match_length), str(p.score[1]), str(p.score[0])]
    out += [str(c) for c in cells]
    dice = [d1, d2, d1, d2]
    tail = [str(int(_gnubg_post_crawford(p))), str(int(not p.crawford))]
    state = ["0", "0", "0", "0"]
    home_bar = ["0", "25"] if direction == -1 else ["25", "0"]
    if from_fibs:
        raw = kept.get("fibs_dice", "").split(":")
        if len(raw) == 4 and all(x.isascii() and x.isdigit() and len(x) <= 2 for x in raw):
            rawd = [int(x) for x in raw]
            mine, other = (rawd[:2], rawd[2:]) if p.turn == 1 else (rawd[2:], rawd[:2])
            if tuple(mine) == (d1, d2) or (not d1 and not any(mine)) or tuple(other) == (d1, d2):
                dice = rawd
        state = [kept.get("fibs_player_bar", "0"), kept.get("fibs_opponent_bar", "0"),
                 kept.get("fibs_can_move", "0"), kept.get("fibs_forced_move", "0")]
        tail = [kept.get("fibs_did_crawford", tail[0]), kept.get("fibs_redoubles", tail[1])]
    off = [str(b1[0]), str(b0[0])]
    if from_fibs:
        if "fibs_match_length" in kept and p.match_length == 0:
            out[3] = kept["fibs_match_length"]  # FIBS's "unlimited" session
        may = kept.get("fibs_may_double", "").split(":")
        if len(may) == 2 and may != [str(may1), str(may0)]:
            owner = (1 if may[0] != "0" else 0) if (may[0] != "0") != (may[1] != "0") else None
            if owner == p.cube_owner or p.cube == 1 or (may == ["0", "0"] and p.cube_owner is None):
                may1, may0 = int(may[0]), int(may[1])  # neither may double (Crawford, a dead cube)
        if (kept.get("fibs_player_off"), kept.get("fibs_opponent_off")) != (None, None):
            off = [kept.get("fibs_player_off", off[0]), kept.get("fibs_opponent_off", off[1])]
    out += [str(turn), *map(str, dice), str(p.cube), str(may1), str(may0), str(doubled),
            str(colour), str(direction), *home_bar, *off, *state, *tail]
    return ":".join(out)


# =========================================================================== Snowie text

_SNOWIE_NAMES = (
    ("match length", "Jacoby", "unknown (2)", "unknown (3)", "player on roll", "name on roll",
     "opponent's name", "Crawford", "score on roll", "opponent's score", "cube value", "cube owner",
     "opponent's bar")
    + tuple(f"point {i}" for i in range(1, 25))
    + ("bar on roll", "die 1", "die 2")
)
_SNOWIE_DESCS = (("a number",) * 4 + ("0 or 1", "a name", "a name", "0 or 1") + ("a number",) * 30
                 + ("a die 0-6",) * 2)


_SNOWIE_CHARS = (" \t-+" + _DIGITS,) * 5 + (None, None) + (" \t-+" + _DIGITS,) * 33


def parse_snowie(text: str, *, variant: str = "standard", validate: bool = True) -> Position:
    """A Snowie text position: 40 ``;``-terminated fields, as gnubg's ``export position snowietxt``."""
    line, column = _one_line(text, "Snowie position")
    fields = _Fields("Snowie", ";", _SNOWIE_NAMES, _SNOWIE_DESCS, _SNOWIE_CHARS, line, 0, column)
    read = _split_fields(line, ";", "ids_snowie", (5, 6), fields)
    names = {5: read[0][0], 6: read[0][1]}
    toks: dict[int, _Tok] = dict(zip((k for k in range(40) if k not in (5, 6)), read[1], strict=True))

    def f(k: int) -> int:
        return int(str(toks[k]).strip())

    def bad(k: int, desc: str | None = None) -> ParseError:
        tok = toks[k]
        lead = len(str(tok)) - len(str(tok).lstrip())
        return fields.error((tok.start_pos or 0) + lead, k, desc)

    for k, tok in toks.items():
        if len(str(tok).strip().lstrip("+-")) > MAX_DIGITS:
            raise bad(k, f"a number of at most {MAX_DIGITS} digits")
    for k in range(12, 38):  # the points and bars: a count no variant exceeds
        if k in toks and abs(f(k)) > MAX_CHECKERS:
            raise bad(k, f"a checker count -{MAX_CHECKERS}..{MAX_CHECKERS}")

    if f(4) not in (0, 1):
        raise bad(4)
    if f(7) not in (0, 1):
        raise bad(7)
    if f(11) not in (-1, 0, 1):
        raise bad(11, "1, 0 or -1")
    for k in (0, 8, 9, 10):
        if f(k) < 0:
            raise bad(k, "a number 0 or more")
    for k in (38, 39):
        if not 0 <= f(k) <= 6:
            raise bad(k)
    d1, d2 = f(38), f(39)
    if (d1 == 0) != (d2 == 0):
        raise bad(38 if d1 == 0 else 39, "a roll (both dice 1-6, or both 0)")
    turn = f(4)
    rules = get_rules(variant)
    me = [0] * 26
    them = [0] * 26
    for i in range(1, 25):
        v = f(12 + i)
        if v > 0:
            me[i] = v
        elif v < 0:
            them[25 - i] = -v
    them[25] = abs(f(12))
    me[25] = abs(f(37))
    mine = _fill_off(me, rules.checkers)
    theirs = _fill_off(them, rules.checkers)
    owner_rel = f(11)
    owner = None if owner_rel == 0 else (turn if owner_rel == 1 else 1 - turn)
    length = f(0)
    score_me, score_them = f(8), f(9)
    nm = names.get(5, ""), names.get(6, "")
    pos = Position(
        boards=(mine, theirs) if turn == 0 else (theirs, mine), turn=turn,
        dice=(d1, d2) if d1 else None, cube=f(10) or 1, cube_owner=owner, match_length=length,
        score=(score_me, score_them) if turn == 0 else (score_them, score_me),
        crawford=bool(f(7)), jacoby=bool(f(1)) and not length,
        names=(nm[0], nm[1]) if turn == 0 else (nm[1], nm[0]), variant=rules.name,
        extras=(("snowie_field2", str(f(2))), ("snowie_field3", str(f(3)))))
    return _finish(pos, validate, "Snowie position", line)


assert len(_SNOWIE_NAMES) == len(_SNOWIE_DESCS) == len(_SNOWIE_CHARS) == 40


def snowie(position: Position) -> str:
    """The Snowie text position as gnubg writes it (``export position snowietxt``).

    Field 3 is 1 in money play and 0 in a match, as gnubg writes it.  ``;`` in names becomes ``_``.
    """
    p = position
    _no_waiting(p, "Snowie position")
    t = p.turn
    me, them = p.boards[t], p.boards[1 - t]
    points = []
    for i in range(1, 25):
        if me[i] and them[25 - i]:
            raise InvalidPositionError(f"both players have checkers on point {i}: not writable as "
                                       "Snowie text")
        points.append(me[i] if me[i] else -them[25 - i])
    owner = 0 if p.cube_owner is None else (1 if p.cube_owner == t else -1)
    d1, d2 = p.dice if p.dice is not None else (0, 0)
    names = [n.replace(";", "_").replace("\n", " ") for n in p.names]
    out = [p.match_length, int(p.jacoby and not p.match_length), 0, int(not p.match_length), t,
           names[t], names[1 - t], int(p.crawford), p.score[t], p.score[1 - t], p.cube, owner, -them[25],
           *points, me[25], d1, d2]
    return "".join(f"{v};" for v in out)


snowie_id = snowie


# =========================================================================== ASCII board ("show board")

_ID_LINES: dict[str, re.Pattern[str]] = {}


def _id_line(rule: str) -> re.Pattern[str]:
    """A board's ``Position ID: <id>`` (``rule`` ``position_id``, group ``pid``) or ``Match ID: <id>`` line
    (``match_id``, group ``mid``; BGBlitz writes ``Position-ID:``): the label, and the ID as the rule of
    ``grammars/ids_gnubg.lark`` says."""
    pattern = _ID_LINES.get(rule)
    if pattern is None:
        label, group = {"position_id": ("Position", "pid"), "match_id": ("Match", "mid")}[rule]
        pattern = _ID_LINES[rule] = re.compile(
            rf"{label}[- ]ID\s*:\s*(?P<{group}>{_shape('ids_gnubg', rule).pattern})\b")
    return pattern


_NAME_LINE = re.compile(r"\s(?P<who>[OX]): (?P<name>.*?)(?: \(Cube: (?P<cube>[0-9]+)\))?\s*$")


def parse_ascii_board(text: str, *, variant: str = "standard", validate: bool = True) -> Position:
    """Read a board as :func:`ascii_board` or gnubg's ``show board`` prints it.

    The Position ID and Match ID lines (gnubg's or BGBlitz's ``Position-ID:``/``Match-ID:``) give the
    position; names come from the ``O:``/``X:`` lines.  Without ID lines the drawing itself is read
    (checkers, bar, borne-off, side on roll, dice, cube and score from the annotations).
    """
    lines = text.splitlines()
    pid = next((m for m in (_id_line("position_id").search(s) for s in lines) if m), None)
    mid = next((m for m in (_id_line("match_id").search(s) for s in lines) if m), None)
    names = ["", ""]
    for s in lines:
        m = _NAME_LINE.search(s)
        if m and ("+" in s[:3] or s.lstrip().startswith("+")):
            names["OX".index(m.group("who"))] = m.group("name").rstrip()
    if pid and mid:
        pos = parse_gnubg_id(f"{pid.group('pid')}:{mid.group('mid')}", variant=variant, validate=validate)
        rolled = re.search(r"\| [ OX]{3} Rolled ([0-9])([0-9])", text)
        if rolled and pos.dice is not None:  # the drawing keeps the order the dice were rolled in
            shown = (int(rolled.group(1)), int(rolled.group(2)))
            if sorted(shown) == sorted(pos.dice):
                pos = pos.replace(dice=shown)
        return pos.replace(names=(names[0], names[1]))
    return _read_drawing(lines, names, variant, validate)


def _read_drawing(lines: list[str], names: list[str], variant: str, validate: bool) -> Position:
    labels = [i for i, s in enumerate(lines) if re.match(r"^\s*\+(13|12)-", s)]
    if len(labels) < 2:
        raise ParseError("not a board: no '+13-14-...' / '+12-11-...' label lines", line=1, column=1)
    top, bottom = labels[0], labels[1]
    if bottom - top != 12:
        raise ParseError("a board has 5 rows, the BAR line and 5 rows between its label lines",
                         line=bottom + 1, column=1)
    base = lines[top].index("+") - 1
    rules = get_rules(variant)
    o = [0] * 26
    x = [0] * 26
    bar_line = lines[top + 6]
    if "BAR" not in bar_line:
        raise ParseError("the middle line of the board has no BAR", line=top + 7, column=1)
    turn = 1 if bar_line[base:base + 1] == "v" else 0 if bar_line[base:base + 1] == "^" else (
        1 if lines[top].lstrip().startswith("+13") else 0)

    def char_at(row: int, col: int) -> str:
        s = lines[row]
        return s[base + col] if base + col < len(s) else " "

    def read_point(rows: list[int], col: int) -> tuple[str, int]:
        who, count = "", 0
        for k, r in enumerate(rows):
            c = char_at(r, col)
            if c in "XO":
                who = c
                count = k + 1
            elif c.strip() and k == 4:
                if c.isascii() and c.isdigit():  # (not '²', which isdigit takes and int does not)
                    count = int(c)
                elif c.isalpha():
                    count = ord(c.upper()) - 55
                else:
                    raise ParseError(f"{c!r} is not a checker count", line=r + 1, column=base + col + 1)
            elif c.strip():
                raise ParseError(f"{c!r} is not a checker", line=r + 1, column=base + col + 1)
        return who, count

    top_rows = [top + 1 + k for k in range(5)]
    bottom_rows = [bottom - 1 - k for k in range(5)]
    for k in range(6):
        for rows, xp, col in ((top_rows, 13 + k, 3 + 3 * k), (top_rows, 19 + k, 26 + 3 * k),
                              (bottom_rows, 12 - k, 3 + 3 * k), (bottom_rows, 6 - k, 26 + 3 * k)):
            who, cnt = read_point(rows, col)
            if who == "X" or (not who and cnt and rows is bottom_rows):
                x[xp] = cnt
            elif who == "O" or cnt:
                o[25 - xp] = cnt
    _, o[25] = read_point(top_rows, 22)
    _, x[25] = read_point(bottom_rows, 22)
    off_o = sum(1 for r in top_rows for c in (45, 46, 47) if char_at(r, c) == "O")
    off_x = sum(1 for r in bottom_rows for c in (45, 46, 47) if char_at(r, c) == "X")
    body = "\n".join(lines[top:bottom + 1])
    o[0] = off_o
    x[0] = off_x
    for side, board in (("O", o), ("X", x)):
        if sum(board[1:]) > rules.checkers:
            raise ParseError(f"{side} has {sum(board[1:])} checkers on the board, more than the "
                             f"{rules.checkers} of {rules.name}", line=top + 1, column=1)
        if sum(board) != rules.checkers:
            board[0] = rules.checkers - sum(board[1:])
    dice = None
    m = re.search(r"Rolled ([0-9])([0-9])", body)
    if m:
        dice = (int(m.group(1)), int(m.group(2)))
    cube, owner = 1, None
    m = re.search(r"\(Cube: ([0-9]+)\)", bar_line)
    if m:
        cube = int(m.group(1))
    for row, seat in ((top, 0), (bottom, 1)):
        m = re.search(r"\(Cube: ([0-9]+)\)\s*$", lines[row])
        if m:
            cube, owner = int(m.group(1)), seat
    length = 0
    m = re.search(r"([0-9]+) points? match", bar_line)
    if m:
        length = int(m.group(1))
    scores = [0, 0]
    for row, seat in ((top + 1, 0), (bottom - 1, 1)):
        m = re.search(r"([0-9]+) points?\s*$", lines[row])
        if m:
            scores[seat] = int(m.group(1))
    pos = Position(boards=(tuple(o), tuple(x)), turn=turn, dice=dice, cube=cube, cube_owner=owner,
                   match_length=length, score=(scores[0], scores[1]), crawford="Crawford game" in bar_line,
                   names=(names[0], names[1]), variant=rules.name)
    return _finish(pos, validate, "board", body)


# =========================================================================== detection and all formats

FORMATS: dict[str, tuple[Callable[..., Position], Callable[[Position], str]]] = {
    "xgid": (parse_xgid, xgid),
    "gnubg": (parse_gnubg_id, gnubg_id),
    "position_id": (parse_position_id, position_id),
    "match_id": (parse_match_id, match_id),
    "fibs": (parse_fibs, fibs_board),
    "snowie": (parse_snowie, snowie),
    "ascii": (parse_ascii_board, ascii_board),
    "ogid": (parse_ogid, ogid),
}
"""Format name → (reader, writer)."""

_XGID_SHAPE = re.compile(r"^[-A-Za-z]{20,32}:")
"""What looks like an XGID without its ``XGID=``: wider than the grammar's 26 ``SLOT``s, so that a broken one
is read as an XGID and its error says where it breaks."""


def detect_format(text: str) -> str:
    """The name (a key of :data:`FORMATS`) of the format ``text`` looks like.

    Raises :class:`ParseError` when it looks like none of them.
    """
    s = text.strip()
    if not s:
        raise ParseError("empty position", column=1, text=text)
    if "\n" in s and ("|BAR|" in s or _id_line("position_id").search(s)):
        return "ascii"
    first = s.split("\n", 1)[0].strip()
    keyword = _shape("ids_fibs", "KEYWORD").match(first)
    if keyword is not None and first[keyword.end():keyword.end() + 1] == ":":
        return "fibs"
    if _shape("ids_xgid", "PREFIX").match(first):
        return "xgid"
    if is_ogid(first):
        return "ogid"
    if first.count(";") >= 10:
        return "snowie"
    if _XGID_SHAPE.match(first):
        return "xgid"
    if ":" in first:
        return "gnubg"
    if _shape("ids_gnubg", "match_id").fullmatch(first):
        return "match_id"
    if _id_line("position_id").search(s):
        return "ascii"
    if len(first) <= 16 and not any(c.isspace() for c in first):
        return "position_id"
    raise ParseError(f"{first[:40]!r} is not a position ID: expected an XGID, PositionID:MatchID, a Position "
                     "ID, a FIBS 'board:' line, a Snowie text position or a gnubg text board",
                     column=1 + len(text) - len(text.lstrip()), text=text)


def parse_position(text: str, *, variant: str = "standard", validate: bool = True) -> Position:
    """Any supported position format, recognised by its shape: XGID (with or without ``XGID=``),
    ``PositionID:MatchID``, a Position ID alone (player 0 on roll), a FIBS ``board:`` line, a Snowie
    text position, or a board drawn as gnubg's ``show board``.  A Match ID alone is refused."""
    fmt = detect_format(text)
    if fmt == "match_id":
        s = text.strip()
        raise ParseError(f"{s!r} looks like a Match ID alone, which does not give the checkers: "
                         "give PositionID:MatchID", column=1 + len(text) - len(text.lstrip()), text=text)
    reader = FORMATS[fmt][0]
    return reader(text, variant=variant, validate=validate)


def lost_by(position: Position) -> dict[str, list[str]]:
    """What each ID format cannot hold of ``position``: the fields that differ after writing it and
    reading it back (names, a money option, the cube limit ...), by format; formats that keep
    everything are left out.  ``gammon show`` prints it, so no writer loses anything silently."""
    pairs: dict[str, tuple[Callable[[Position], str], Callable[..., Position]]] = {
        "xgid": (xgid, parse_xgid), "gnubg_id": (gnubg_id, parse_gnubg_id), "fibs": (fibs_board, parse_fibs),
        "snowie": (snowie, parse_snowie), "ogid": (ogid, parse_ogid)}
    want = position._identity()
    names = [f.name for f in fields(Position) if f.name != "extras"]
    out: dict[str, list[str]] = {}
    for fmt, (write, read) in pairs.items():
        try:
            back = read(write(position), variant=position.variant, validate=False)
        except (NotationError, ValueError, KeyError, IndexError):
            continue
        got = back._identity()
        lost = [names[k] for k in range(len(want)) if want[k] != got[k]]
        if lost:
            out[fmt] = lost
    return out


def all_ids(position: Position) -> dict[str, str | None]:
    """Every ID of ``position`` (None where the position cannot be written in that format)."""
    out: dict[str, str | None] = {}
    writers: dict[str, Callable[[Position], str]] = {
        "xgid": xgid, "gnubg_id": gnubg_id, "position_id": position_id, "match_id": match_id,
        "fibs": fibs_board, "snowie": snowie, "ogid": ogid}
    for name, writer in writers.items():
        try:
            out[name] = writer(position)
        except (NotationError, ValueError, KeyError, IndexError):
            out[name] = None
    return out
