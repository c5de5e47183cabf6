"""Jellyfish ``.mat`` match transcripts: a reader for every dialect seen in the wild (the writer of GNU
Backgammon's canonical layout is :mod:`notation.formats.mat_write`).

Reading
=======

:func:`read_match` / :func:`read_matches` take a path, bytes or text.  The file structure (header
tags and comments, the ``N point match`` line, ``Game N``, score lines, move rows, result lines) is
parsed by the LALR grammar ``grammars/mat.lark`` (start symbol ``start``: one token per line); a line
reader (:func:`_line_tree`) makes the same tree with the grammar's own line terminals, without lark,
and leaves any file it is not sure of to lark (a well-formed file of the usual shape never needs it).
The common row (a number and one or two cells of plain moves) is read word by word; the content of
any other row is tokenised with the grammar's ``cells`` terminals, compiled into one regular
expression: ``52: 13/8 24/22``, ``61: Cannot Move``, ``63: ???``, ``Doubles => 2``,
``Takes``, ``Wins 2 points and the match``, Galaxy's ``Losses 1 point``, Snowie's
``11: Illegal play (<position>)`` ...

Which player a cell belongs to is decided here, from the layout rather than the syntax (the right
column starts at character 33, 37, 39 or 40 depending on the program; an overflowing left cell
pushes it right; Galaxy repeats the row number before the right cell; result lines have no number):

* on a numbered row, the first cell is the left player's (0) when it starts before column 16 (or
  right after a long row number), the right player's (1) otherwise; the next cell is the right
  player's, whatever its column (a long left cell pushes it right: reported);
* a row number repeated inside the row (Galaxy) starts the right column; a different number starts
  a new row glued to the end of this one (gnubg after a roll that was not played);
* a result line (``      Wins 1 point``) is the left player's when it starts before column 16
  (gnubg writes 6 spaces for the left player, 34 for the right);
* a third cell (Galaxy: ``14) 22: ...   14)  Losses 1 point   Wins 1 point and the match``) can
  only be a ``Wins`` of the player who did not lose; a standalone ``Losses`` line is the player
  who does not win on the next result line;
* an empty move cell right before the other player's ``Wins`` (the roller's own ``Concedes`` may
  come between) is a roll that was not played: kind ``roll`` (gnubg: rolled, then resigned).
  ``NN: ???`` is also a ``roll``, and ``????`` without dice a ``roll`` with no dice.  Other empty
  cells and ``Cannot Move`` are moves with an empty play (``no_move`` says how it was written).

Everything read in a non-canonical way is listed in :attr:`Match.normalisations` with its line and
column.  A syntax error raises :class:`~notation.errors.ParseError` with the exact line and column.

The writer is :mod:`notation.formats.mat_write` (its names are also reachable from here).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._digits import ascii_digits, ascii_number, foreign_digit
from ..errors import NotationError, ParseError, cut_text
from ..position import Position
from ..record import (
    Action,
    ActionKind,
    Game,
    Match,
    MatchRules,
    Normalisation,
    Span,
    move_action,
)
from ._mat_shared import RULE_TAGS, resignation_levels, rule_tag, setup_position

if TYPE_CHECKING:  # pragma: no cover
    from lark.exceptions import UnexpectedInput

__all__ = ["read_match", "read_matches", "parse_matches", "read", "RULE_TAGS", "rule_tag", "resignation_levels"]

_WRITER_NAMES = frozenset({"write_match", "dump_match", "format_play_text", "header_tags", "mat_name", "mat_rating",
                           "one_line", "writable_play", "unwritable_plays", "resign_word", "LEVEL_WORDS"})


def __getattr__(name: str) -> Any:
    """The writer's names (:mod:`notation.formats.mat_write`), as they were reachable from this module,
    imported on first use: reading a ``.mat`` file never loads the writer."""
    if name in _WRITER_NAMES:
        if name == "LEVEL_WORDS":
            from . import _mat_shared

            return _mat_shared.LEVEL_WORDS
        from . import mat_write

        return getattr(mat_write, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

Source = str | bytes | os.PathLike[str]

# Cells that start before this column are the left player's (gnubg: "after column 15").
LEFT_LIMIT = 16

_PARSER_OPTIONS: dict[str, Any] = {"lexer": "contextual", "propagate_positions": False}


def _file_parser() -> Any:
    """lark's parser of ``grammars/mat.lark`` with its three start symbols (``start`` reads the file
    structure; ``cells`` and ``fast_row`` hold the terminals of rows): one parser to load, not three.  lark
    is imported here, when a file is first left to it: reading the common files imports no parser library."""
    from .._grammar import parser

    return parser("mat", start=_STARTS, **_PARSER_OPTIONS)


_STARTS = ("start", "cells", "fast_row")


def _terminals() -> dict[str, str]:
    """The regular expression of each terminal of ``grammars/mat.lark``, exactly as lark compiles it
    (:func:`notation._grammar.regexes`: generated from the grammar)."""
    from .._grammar import regexes

    return regexes("mat")


def build_parsers() -> None:
    """Compile the regular expressions the reader uses, ahead of time: before forking workers, so that
    none derives or compiles them again.  (lark's parser is loaded by the first file that needs it.)"""
    _cell_regex()
    _line_regexes()


# (No two of these match at the same place; the most frequent come first.)
_CELL_TERMINALS = ("MOVE", "ROWNUM", "DOUBLE", "TAKE", "DROP", "WIN", "QMARKS", "BEAVER", "RACCOON",
                   "CONCEDE", "RESIGN", "FORFEIT", "ACCEPT", "REJECT", "LOSS", "SETUP")
_cell_re: re.Pattern[str] | None = None


def _cell_regex() -> re.Pattern[str]:
    """One regular expression made of the grammar's cell terminals (``cells`` in mat.lark), each a named
    group, after the blanks before a cell."""
    global _cell_re
    if _cell_re is None:
        terminals = _terminals()
        alts = [f"(?P<{name}>{terminals[name]})" for name in _CELL_TERMINALS]
        _cell_re = re.compile(r"[ \t]*(?:" + "|".join(alts) + r")")
    return _cell_re


class _LineRegexes:
    """The line terminals as :func:`_line_tree` runs them on one line, without the line break and what
    follows (the grammar's ``_GAP``): ``tag``, ``match``, ``game`` and ``score`` (the grammar's ``_TAG``,
    ``_MATCH``, ``_GAME`` and ``_SCORE``) must match a whole line, ``comment`` (``_COMMENT``) and ``rows``
    (``_ROW_HEAD``, the head of a ``ROWS`` line) its start; ``glued`` (``_GLUED_ROW``) is the rest of a row's
    line that a Game line ends (gnubg's own ``.mat`` export of a game that ends with a roll not played leaves
    the roll's cell open and writes the next ``Game N`` on the roll's row, ``27) 11:  Game 2``: read as the
    row, then the Game line); ``row_lines`` the lines of a lark ``ROWS`` token, each with its ``_GAP`` (none
    for the last when a Game line ends it); ``plain_cell`` is the grammar's ``PLAIN_CELL``."""

    def __init__(self) -> None:
        terminals = _terminals()
        self.tag = re.compile(terminals["_TAG"])
        self.comment = re.compile(terminals["_COMMENT"])
        self.match = re.compile(terminals["_MATCH"])
        self.game = re.compile(terminals["_GAME"])
        self.score = re.compile(terminals["_SCORE"])
        self.rows = re.compile(terminals["_ROW_HEAD"])
        self.glued = re.compile(terminals["_GLUED_ROW"])
        self.row_lines = re.compile(f"([^\n]+)({terminals['_GAP']}|$)")
        self.plain_cell = re.compile(terminals["PLAIN_CELL"])


_line_res: _LineRegexes | None = None


def _line_regexes() -> _LineRegexes:
    global _line_res
    if _line_res is None:
        _line_res = _LineRegexes()
    return _line_res


_ROW_WORDS: set[str] = {f"{a}{b}:" for a in range(1, 7) for b in range(1, 7)}
"""The words of common rows known to be the dice of a roll (``52:``) or a plain move (those read by
:func:`_is_move_word`, at most a few thousand)."""


def _is_move_word(word: str) -> bool:
    """A plain move (``13/8``, ``25/20*``, ``6/4(2)``, ``bar/22``): one move of the grammar's
    ``PLAIN_CELL``."""
    if not _line_regexes().plain_cell.fullmatch("11: " + word):
        return False
    if len(_ROW_WORDS) < 4096:
        _ROW_WORDS.add(word)
    return True


_CELL_KINDS: dict[str, ActionKind] = {
    "DOUBLE": "double", "BEAVER": "beaver", "RACCOON": "raccoon", "TAKE": "take", "DROP": "drop",
    "CONCEDE": "resign", "RESIGN": "resign", "FORFEIT": "resign", "ACCEPT": "accept", "REJECT": "reject",
    "WIN": "win", "LOSS": "loss",
}
"""The action kind of each cube, resignation and result cell."""
_ROLLS = {f"{a}{b}": (a, b) for a in range(1, 7) for b in range(1, 7)}
"""The 36 ways a roll is written (high-low or in roll order), each with its dice: shared tuples."""
_DICE_WORDS = {f"{r}:": dice for r, dice in _ROLLS.items()}
"""The dice of a cell as a word (``52:``), and their roll."""
_NUMBER = re.compile(r"[0-9]{1,9}")
_RATING = re.compile(r",[ \t]*([0-9]{1,9}(?:[.,][0-9]+)?)$")
"""A rating after a name (``zoonk,1666``): the first comma that the rating follows to the end."""
_UNESCAPE = re.compile(r'\\([\\"])')


# --------------------------------------------------------------------------- public API


def read_match(source: Source, *, name: str | None = None) -> Match:
    """The first match in ``source`` (a path, bytes or ``.mat`` text)."""
    matches = read_matches(source, name=name)
    if not matches:
        raise ParseError("no 'N point match' line: this is not a .mat transcript", file=name, line=1,
                         column=1)
    first = matches[0]
    if len(matches) > 1:
        first.normalisations.append(Normalisation(
            f"the file holds {len(matches)} matches; only the first was read (use read_matches)",
            matches[1].span.line if matches[1].span else None, 1))
    return first


def read_matches(source: Source, *, name: str | None = None) -> list[Match]:
    """Every match in ``source`` (a path, bytes or ``.mat`` text), in file order."""
    data, file_name = _load(source)
    return parse_matches(data, name=file_name if name is None else name)


def parse_matches(data: str | bytes, *, name: str | None = None) -> list[Match]:
    """Every match in a transcript given as text or bytes (never taken for a path)."""
    text, notes = _decode(data)
    try:
        return _Reader(text, name, notes).read()
    except NotationError as e:
        raise e.located(file=name) from None


read = parse_matches
"""Every reader's function (:mod:`notation.formats.registry`): the matches of a transcript given as text or
bytes, each named ``name``."""


# --------------------------------------------------------------------------- input


def _load(source: Source) -> tuple[str | bytes, str | None]:
    if isinstance(source, bytes | bytearray):
        return bytes(source), None
    if isinstance(source, os.PathLike):
        return _read_bytes(source), os.fspath(source)
    if isinstance(source, str):
        if "\n" in source or "\r" in source or not source.strip():  # text (parse_matches takes text only)
            return source, None
        return _read_bytes(source), source  # a path: a missing file is FileNotFoundError
    raise TypeError(f"cannot read a match from {type(source).__name__}")


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the file ``path``, within the bound of a record (:mod:`notation._input`)."""
    from .._input import read_bytes

    return read_bytes(path, what="a record")


def _where(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _decode(data: str | bytes) -> tuple[str, list[Normalisation]]:
    """The transcript's text: UTF-8 (a byte order mark skipped), UTF-16 or UTF-32 with a byte order
    mark; UTF-8 with stray bytes read as U+FFFD, each place reported; text that is no UTF-8 at all
    (no well-formed character beyond ASCII) as Windows-1252, said so.  Line ends made LF."""
    from .._input import bad_bytes, byte_order_mark, decode_bom, mostly_utf8

    notes: list[Normalisation] = []
    if isinstance(data, bytes):
        wide = decode_bom(data)
        if wide is not None:
            text, enc = wide
            notes.append(Normalisation(f"{enc} text (byte order mark) read", 1, 1))
            if "\ufffd" in text:
                line, col = _where(text, text.index("\ufffd"))
                notes.append(Normalisation(f"bytes that are not {enc}: read as U+FFFD", line, col))
        else:
            if byte_order_mark(data) is not None:
                data = data[3:]
                notes.append(Normalisation("UTF-8 byte order mark skipped", 1, 1))
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text, places, count = bad_bytes(data, "utf-8")
                if mostly_utf8(data, count):
                    for offset, line, col in places:
                        notes.append(Normalisation(f"byte 0x{data[offset]:02x} is not UTF-8: read as U+FFFD",
                                                   line, col))
                    if count > len(places):
                        notes.append(Normalisation(f"{count - len(places)} more places that are not UTF-8: read "
                                                   "as U+FFFD", None, None))
                else:
                    try:
                        text = data.decode("cp1252")
                        enc = "Windows-1252"
                    except UnicodeDecodeError:
                        text = data.decode("latin-1")
                        enc = "Latin-1"
                    offset, line, col = places[0]
                    notes.append(Normalisation(f"the text is not UTF-8 (byte 0x{data[offset]:02x}); read as {enc}",
                                               line, col))
    else:
        text = data
        if text.startswith("\ufeff"):
            text = text[1:]
            notes.append(Normalisation("byte order mark skipped", 1, 1))
    if "\n\ufeff" in text:  # files concatenated with their byte order marks
        parts = text.split("\n\ufeff")
        line = 1
        for part in parts[:-1]:
            line += part.count("\n") + 1
            notes.append(Normalisation("byte order mark at the start of a line removed", line, 1))
        text = "\n".join(parts)
    if "\r" in text:
        i = text.find("\r")
        line, _ = _where(text, i)
        if "\r\n" in text:
            text = text.replace("\r\n", "\n")
            notes.append(Normalisation("CR LF line ends read as LF", line, None))
        if "\r" in text:
            i = text.find("\r")
            notes.append(Normalisation("CR line ends read as LF", _where(text, i)[0], None))
            text = text.replace("\r", "\n")
    if text and not text.endswith("\n"):
        line, col = _where(text, len(text))
        notes.append(Normalisation("no line break at the end of the file", line, col))
        text += "\n"
    return text, notes


# --------------------------------------------------------------------------- reading


class _Tok:
    """A line token made by :func:`_line_tree`: what the reader uses of lark's ``Token``.  ``value`` is
    the line from its first character, then one line break for each line break lark's token would take
    (its own and the blank lines after it: ``breaks``); a ``ROWS`` token keeps its lines in ``rows``
    (line, column, text), and in ``value`` only the line breaks after the last one."""

    __slots__ = ("type", "text", "breaks", "line", "column", "rows", "glued")

    def __init__(self, type: str, text: str, line: int, column: int) -> None:
        self.type = type
        self.text = text
        self.breaks = 1
        self.line = line
        self.column = column
        self.rows: list[tuple[int, int, str]] = []
        self.glued = False
        """A ``GAME_LINE`` at the end of a row's line (the grammar's ``_GLUED_ROW``)."""

    @property
    def value(self) -> str:
        return self.text + "\n" * self.breaks


Tokenlike = Any
"""A lark ``Token`` or a :class:`_Tok`."""
Tree = list[Any]
"""A file, a match or a game as the reader takes it: its tokens and (file, match) its matches or games as
lists, in file order, as lark's tree for the grammar's ``start``, ``match`` and ``game`` has them."""

_AT_PRE, _AT_MATCH, _AT_SCORE, _AT_GAME = range(4)



def _line_tree(text: str) -> Tree | None:
    """The tree lark's parser makes of ``text`` (see :data:`Tree`), made line by line with the grammar's
    own line terminals; None for anything this does not follow exactly (a line that none of the terminals
    the parser would accept there matches, a tab or other blank before a line, a file that ends after a
    ``Game`` line): lark then reads the file, and says what is wrong."""
    res = _line_regexes()
    tag, comment, match_line, game_line, score_line, rows_start, glued_row = res.tag, res.comment, res.match, \
        res.game, res.score, res.rows, res.glued
    top: Tree = []
    match: Tree = top
    game: Tree = top
    state = _AT_PRE
    last: _Tok | None = None
    rows: _Tok | None = None  # the last token, when it is a run of rows
    lines = text.split("\n")
    lines.pop()  # the text ends with a line break
    number = 0
    for line in lines:
        number += 1
        s = line.lstrip(" \t")
        if not s:  # a blank line: one more line break for the token before it
            if last is not None:
                last.breaks += 1
            continue
        column = len(line) - len(s) + 1
        head = rows_start.match(s) if state == _AT_GAME else None
        if head is not None:
            # (a row a Game line ends ends in the Game line's number: only such a row is tried)
            glued = glued_row.match(s + "\n", head.end()) if s[-1] in "0123456789" and ("g" in s or "G" in s) \
                else None
            if rows is None:
                rows = _Tok("ROWS", "", number, column)
                game.append(rows)
                last = rows
            rows.rows.append((number, column, s if glued is None else s[:glued.end()]))
            rows.breaks = 1
            if glued is not None:  # gnubg's export: a roll not played, then the next game's Game line
                rows.breaks = 0
                rows = None
                last = _Tok("GAME_LINE", s[glued.end():], number, column + glued.end())
                last.glued = True
                game = [last]
                match.append(game)
                state = _AT_SCORE
            continue
        rows = None
        if comment.match(s):
            if state == _AT_SCORE:
                return None
            last = _Tok("TAG" if tag.fullmatch(s) else "COMMENT", s, number, column)
            (game if state == _AT_GAME else match if state == _AT_MATCH else top).append(last)
        elif state == _AT_SCORE:
            if not score_line.fullmatch(s):
                return None
            last = _Tok("SCORE_LINE", s, number, column)
            game.append(last)
            state = _AT_GAME
        elif match_line.fullmatch(s):
            last = _Tok("MATCH_LINE", s, number, column)
            match = [last]
            top.append(match)
            state = _AT_MATCH
        elif state != _AT_PRE and game_line.fullmatch(s):
            last = _Tok("GAME_LINE", s, number, column)
            game = [last]
            match.append(game)
            state = _AT_SCORE
        else:
            return None
    return None if state == _AT_SCORE else top


def _lark_tree(tree: Any) -> Tree:
    """lark's tree as a :data:`Tree`."""
    return [c if hasattr(c, "type") else _lark_tree(c) for c in tree.children]


def _rows_of(tok: Tokenlike) -> tuple[list[tuple[int, int, str]], int]:
    """The lines of a ``ROWS`` token (line, column, text from the first character to the line break) and
    the number of line breaks after the last one."""
    if isinstance(tok, _Tok):
        return tok.rows, tok.breaks
    line, column = tok.line, tok.column
    rows = []
    breaks = 1
    for r in _line_regexes().row_lines.finditer(tok.value):
        rows.append((line, column, r.group(1)))
        gap = r.group(2)
        breaks = gap.count("\n")
        line += breaks
        column = len(gap) - gap.rfind("\n")
    return rows, breaks


def _line_of(tok: Tokenlike) -> str:
    """The text of a line token, without its line break and what follows."""
    v = tok.value
    i = v.find("\n")
    return (v if i < 0 else v[:i]).rstrip()


@dataclass(slots=True)
class _Cell:
    kind: str           # a terminal name (MOVE, DOUBLE, ...)
    text: str
    line: int
    column: int
    end_column: int


class _Reader:
    """Builds :class:`Match` objects from the line tree of one file."""

    def __init__(self, text: str, name: str | None, notes: list[Normalisation]) -> None:
        self.text = text
        self.name = name
        self.file_notes = notes
        self.notes: list[Normalisation] = notes
        self.blank_after_last_row = False
        self.variant = "standard"
        self.length = 0
        self.game_names: tuple[str, str] | None = None
        self.right_columns: Counter[int] = Counter()
        self.splits: list[tuple[int, int, int]] = []
        self.general: list[int] = []
        """The index in its game's actions of each action :meth:`_action` made (all but the plays of common
        rows: every cube action, resignation and result among them)."""

    # ----------------------------------------------------------------- structure
    def read(self) -> list[Match]:
        tree = _line_tree(self.text)
        if tree is None:  # a file of an unusual shape: lark's parser reads it, or says where it is wrong
            from lark.exceptions import UnexpectedInput

            try:
                tree = _lark_tree(_file_parser().parse(self.text, start="start"))
            except UnexpectedInput as e:
                raise self._syntax_error(e) from None
        matches: list[Match] = []
        header: list[Tokenlike] = []
        for child in tree:
            if not isinstance(child, list):
                header.append(child)
                continue
            if matches:
                # Comment lines after the last game of the previous match: those right after its
                # last row stay with that game; from the first blank line or tag on, they are the
                # header of this match.
                cut = next((i for i, tok in enumerate(header)
                            if tok.type == "TAG" or (i == 0 and self.blank_after_last_row)
                            or (i > 0 and header[i - 1].value.count("\n") > 1)), len(header))
                self._keep_game_notes(matches[-1], header[:cut])
                header = header[cut:]
            match, trailing = self._match(child, header, first=not matches)
            matches.append(match)
            header = trailing
        if header and matches:  # comments after the last game of the last match
            self._keep_game_notes(matches[-1], header)
        elif header and not matches:
            tok = header[0]
            raise ParseError("no 'N point match' line: this is not a .mat transcript", line=tok.line,
                             column=tok.column, text=_line_of(tok))
        return matches

    def _match(self, children: Tree, header: list[Tokenlike], *, first: bool) -> tuple[Match, list[Tokenlike]]:
        m = Match(format="mat", source=self.name)
        self.notes = m.normalisations
        if first:
            self.notes.extend(self.file_notes)
        mline: Tokenlike = children[0]
        for tok in header:
            self._header_line(m, tok)
        text = _line_of(mline)
        number = _NUMBER.match(text)
        if number is None:  # GammonView's "money game"
            self.notes.append(Normalisation(f"{text!r} read as a money session (a match of length 0)",
                                            mline.line, mline.column))
        m.length = self.length = int(number.group()) if number is not None else 0
        m.span = Span(mline.line, mline.column, mline.line, mline.column + len(text))
        games: list[Tree] = []
        for child in children[1:]:
            if isinstance(child, list):
                games.append(child)
            else:
                self._header_line(m, child)
        trailing: list[Tokenlike] = []
        self.variant = m.rules.variant
        self.right_columns = Counter()
        self.splits = []
        for gi, gtree in enumerate(games):
            game, notes = self._game(gtree)
            m.games.append(game)
            if gi == len(games) - 1:
                trailing = notes
            else:
                self._keep_game_notes(m, notes)
        if m.games and m.games[0].names:
            m.names = m.games[0].names
        self._overflow_notes()
        return m, trailing

    def _keep_game_notes(self, m: Match, toks: list[Tokenlike]) -> None:
        if m.games:
            game = m.games[-1]
            for tok in toks:
                game.comments.append(_comment_text(_line_of(tok)))
        else:
            for tok in toks:
                self._header_line(m, tok)

    def _header_line(self, m: Match, tok: Tokenlike) -> None:
        text = _line_of(tok)
        if tok.type == "TAG":  # '; [Name "value"]' (the grammar's TAG): the name to the first '"'
            body = text[1:].strip(" \t")
            quote = body.index('"')
            key, value = body[1:quote].strip(), _UNESCAPE.sub(r"\1", body[quote + 1:-2])
            m.tags.append((key, value))
            self._rule_tag(m.rules, key, value, tok)
            return
        m.comments.append(_comment_text(text))

    def _rule_tag(self, r: MatchRules, key: str, value: str, tok: Tokenlike) -> None:
        """Known tags set the rules (:func:`rule_tag`)."""
        try:
            note = rule_tag(r, key, value)
        except ValueError as e:
            raise ParseError(str(e), line=tok.line, column=tok.column, text=_line_of(tok)) from None
        if note is not None:
            self.notes.append(Normalisation(note, tok.line, tok.column))

    # ----------------------------------------------------------------- games
    def _game(self, children: Tree) -> tuple[Game, list[Tokenlike]]:
        gtok: Tokenlike = children[0]
        gtext = _line_of(gtok)
        game = Game(number=int(gtext.split()[1]))
        game.span = Span(gtok.line, gtok.column, gtok.line, gtok.column + len(gtext))
        if getattr(gtok, "glued", False):
            self.notes.append(Normalisation(f"{gtext.strip()!r} at the end of a row's line, after a roll not "
                                            "played (gnubg's .mat export), read as a Game line of its own",
                                            gtok.line, gtok.column))
        elif gtok.column == 1:
            self.notes.append(Normalisation("Game line without a leading space", gtok.line, 1))
        stok: Tokenlike = children[1]
        self._score_line(game, stok)
        self.game_names = game.names
        self.general = []
        notes: list[Tokenlike] = []      # comment lines since the last row
        self.blank_after_last_row = stok.value.count("\n") > 1
        for tok in children[2:]:
            if tok.type == "ROWS":
                if notes:
                    if game.actions:  # between rows: the comment of the action before it
                        self._action_comment(game, notes)
                    else:
                        self._keep_comments(game, notes, moved=True)
                    notes = []
                # a run of row and result lines: each with its line, column and text
                rows, breaks = _rows_of(tok)
                self._rows(game, rows)
                self.blank_after_last_row = breaks > 1
            else:
                notes.append(tok)
        self._finish_game(game)
        return game, notes

    def _action_comment(self, game: Game, toks: list[Tokenlike]) -> None:
        """Comment lines between two rows (or a row and its result): the comment of the last action
        before them (the row's right cell, else its left), as the writer writes an action's comment."""
        a = game.actions[-1]
        text = "\n".join(_comment_text(_line_of(tok)) for tok in toks)
        a.comment = text if a.comment is None else f"{a.comment}\n{text}"

    def _keep_comments(self, game: Game, toks: list[Tokenlike], *, moved: bool) -> None:
        for tok in toks:
            game.comments.append(_comment_text(_line_of(tok)))
            if moved:
                self.notes.append(Normalisation(
                    f"comment line inside game {game.number} kept with the game (written after its "
                    f"last row)", tok.line, tok.column))

    def _score_line(self, game: Game, tok: Tokenlike) -> None:
        """``name : score   name : score`` (the grammar's SCORE_LINE: names hold no ``:``), split at its two
        colons; a rating after a name (``zoonk,1666``) is split off."""
        text = _line_of(tok)
        first, middle, last = text.split(":")
        rest = middle.lstrip(" \t")
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if digits > 9:  # (the grammar takes 9 and a name that starts with digits)
            raise ParseError(f"a score of more than 9 digits: {cut_text(text.strip(), 80)!r}", line=tok.line,
                             column=tok.column, text=text)
        if rest[digits] not in " \t":  # gnubg's export pads the first column to 31 characters, no further
            self.notes.append(Normalisation(
                f"no blank between the first score and the second name {rest[digits:].strip()!r} (gnubg's .mat "
                "export of a long name)", tok.line, tok.column + len(first) + 1 + len(middle) - len(rest) + digits))
        raw = (first.rstrip(" \t"), rest[digits:].strip(" \t"))
        starts = (0, len(first) + 1 + len(middle) - len(rest[digits:].lstrip(" \t")))
        names = []
        ratings: list[str | None] = []
        for i in (0, 1):
            r = _RATING.search(raw[i])
            name = raw[i][:r.start()].rstrip(" \t") if r is not None else ""
            if r is not None and name:
                names.append(name)
                ratings.append(r.group(1))
                self.notes.append(Normalisation(
                    f"rating {r.group(1)} split off the name {raw[i]!r}", tok.line, tok.column + starts[i]))
            else:
                names.append(raw[i])
                ratings.append(None)
        game.names = (names[0], names[1])
        game.ratings = (ratings[0], ratings[1])
        game.score = (int(rest[:digits]), int(last.strip(" \t")))
        game.score_span = Span(tok.line, tok.column, tok.line, tok.column + len(text))

    # ----------------------------------------------------------------- rows
    def _scan(self, text: str, line: int, col0: int) -> list[_Cell]:
        """The cells of one row line (its number included, as a ROWNUM cell), each matched where the
        last one ended (so that the time is linear in the line, however long its runs of blanks)."""
        cells: list[_Cell] = []
        pos, n = 0, len(text)
        match = _cell_regex().match
        while pos < n:
            m = match(text, pos)
            if m is None or (pos and text[pos] not in " \t" and cells[-1].kind != "ROWNUM"):
                if m is None and not text[pos:].strip():
                    break  # blanks at the end of the line
                raise self._cell_error(text, pos, cells, line, col0)
            kind = m.lastgroup or ""
            cells.append(_Cell(kind, m.group(kind), line, col0 + m.start(kind), col0 + m.end()))
            pos = m.end()
        return cells

    def _cell_error(self, text: str, pos: int, cells: list[_Cell], line: int, col0: int) -> ParseError:
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        rest = text[pos:]
        word = re.split(r"\s{2,}", rest.strip(), maxsplit=1)[0]
        column = col0 + pos
        prev = cells[-1] if cells else None
        if prev is not None and prev.kind == "MOVE" and column - prev.end_column <= 1:
            # the play of a move cell goes on with something that is not a play: say what is wrong
            from ..play import parse_play

            start = prev.column + 3 - col0
            while start < pos and text[start] in " \t":
                start += 1
            play = text[start:pos] + word
            try:
                parse_play(play, column=col0 + start)
            except ParseError as e:
                return ParseError(e.message, line=line, column=e.column, text=text)
            return ParseError(f"unexpected {word!r} in the move cell {prev.text.strip() + ' ' + word!r}",
                              line=line, column=column, text=text)
        why = foreign_digit(word)
        return ParseError(f"unknown cell text {word!r}{': ' + why if why else ''}", line=line, column=column,
                          text=text)

    def _row(self, game: Game, text: str, line: int, col0: int) -> None:
        """One row line (``  3) 52: 13/8 ...``) or result line (``      Wins 1 point``) at ``line``,
        starting at column ``col0``."""
        cells = self._scan(text, line, col0)
        number: int | None = None
        number_end = 0
        slot_player: int | None = None   # player of the previous cell on this row
        loser: int | None = None
        row_cells: list[tuple[_Cell, int]] = []
        first = True
        for cell in cells:
            if cell.kind == "ROWNUM":
                k = int(cell.text[:-1])
                if first:
                    number, number_end = k, cell.end_column
                elif k == number:
                    self.notes.append(Normalisation(
                        f"row number {k}) repeated before the right column (Galaxy)", cell.line, cell.column))
                    slot_player = 0
                    number_end = cell.end_column
                else:
                    self.notes.append(Normalisation(
                        f"row {k}) glued to the end of row {number})", cell.line, cell.column))
                    self._row_cells(game, row_cells, number)
                    row_cells, loser, slot_player = [], None, None
                    number, number_end = k, cell.end_column
                first = False
                continue
            first = False
            if slot_player is None:
                player = 0 if cell.column < max(LEFT_LIMIT, number_end + 2) else 1
            elif slot_player == 0:
                player = 1
            else:  # a third cell
                if cell.kind == "WIN" and loser is not None:
                    player = 1 - loser
                else:
                    raise ParseError(f"a third cell {cell.text.strip()!r} on one row; a row holds the "
                                     f"left and the right player's cells", line=cell.line,
                                     column=cell.column, text=text)
            if cell.kind == "LOSS":
                loser = player
            slot_player = player
            row_cells.append((cell, player))
        self._row_cells(game, row_cells, number)

    def _rows(self, game: Game, rows: list[tuple[int, int, str]]) -> None:
        """Row lines (each its line, column and text from the row number on): a common row (``  3) 52: 13/8
        24/22     64: 24/18 13/9``: the grammar's ``fast_row``, a row number and one or two ``PLAIN_CELL``)
        read here word by word, with the same result as :meth:`_scan` and :meth:`_row`, which read any other
        shape (this runs for every row: one loop, its names looked up once)."""
        append = game.actions.append
        right_columns, splits = self.right_columns, self.splits
        known, dice_of, rolls, digits, move = _ROW_WORDS, _DICE_WORDS, _ROLLS, ascii_digits, move_action
        for line, col0, text in rows:
            if not (text.isascii() and text.isprintable()):  # tabs, control characters, other blanks, digits
                self._row(game, text.rstrip(), line, col0)
                continue
            words = text.split()
            w0 = words[0]
            dice = dice_of.get(words[1]) if len(words) > 1 else None
            if dice is None or len(w0) > 10 or w0[-1] != ")" or not digits(w0[:-1]):
                # (the number's ")" must end the first word: "12)52:" is left to _row; dice that are not a
                self._row(game, text.rstrip(), line, col0)  # roll: it explains them)
                continue
            rest = words[2:]
            if not known.issuperset(rest) and not all(w in known or _is_move_word(w) for w in rest):
                self._row(game, text.rstrip(), line, col0)  # a word that is not a plain move
                continue
            colons = text.count(":")  # one a cell: the number has none, nor do moves
            a_off = text.find(":") - 2
            a_col = col0 + a_off
            player = 0 if a_col < col0 + len(w0) + 2 or a_col < LEFT_LIMIT else 1
            if colons > 2 or (colons == 2 and player == 1):
                self._row(game, text.rstrip(), line, col0)  # a third cell: the general path explains it
                continue
            # A PLAIN_CELL is the dice, then plain moves or nothing: the same Action as _action makes
            number = int(w0[:-1])
            if colons == 2:
                b_off = text.find(":", a_off + 3) - 2
                a_end = len(text[:b_off].rstrip())
                a = text[a_off:a_end]
                append(move(player, dice, a[3:].lstrip(), a, line, a_col, col0 + a_end, number))
                b_col = col0 + b_off
                right_columns[b_col] += 1
                splits.append((line, col0 + a_end, b_col))
                b_end = len(text.rstrip())
                b = text[b_off:b_end]
                append(move(1, rolls[b[:2]], b[3:].lstrip(), b, line, b_col, col0 + b_end, number))
            else:
                a_end = len(text.rstrip())
                a = text[a_off:a_end]
                append(move(player, dice, a[3:].lstrip(), a, line, a_col, col0 + a_end, number))

    def _row_cells(self, game: Game, row_cells: list[tuple[_Cell, int]], number: int | None) -> None:
        if len(row_cells) >= 2 and row_cells[0][1] == 0 and row_cells[1][1] == 1:
            left, right = row_cells[0][0], row_cells[1][0]
            if right.kind == "MOVE":
                self.right_columns[right.column] += 1
            self.splits.append((left.line, left.end_column, right.column))
        actions = game.actions
        for cell, player in row_cells:
            self.general.append(len(actions))
            actions.append(self._action(cell, player, number))

    def _action(self, cell: _Cell, player: int, number: int | None) -> Action:
        text = cell.text.strip()
        kind = cell.kind
        a = Action("move", player, text=text, span=Span(cell.line, cell.column, cell.line, cell.end_column),
                   move_number=number)
        if kind == "MOVE":  # (the common plain cells are read by _rows)
            dice = _ROLLS.get(text[:2])
            if dice is None:
                raise ParseError(f"dice {text[:2]} are not a roll", line=cell.line, column=cell.column,
                                 text=text)
            a.dice = dice
            rest = text[3:].strip()
            if not rest:
                a.play, a.no_move = "", ""
            elif rest[:6].lower() == "cannot":
                a.play, a.no_move = "", rest
            elif rest[0] == "?":
                a.kind, a.no_move = "roll", rest
            elif rest[:7].lower() == "illegal":
                a.kind = "setup"
                a.setup = self._snowie(rest, cell, text.index(rest))
            else:
                a.play = rest
        elif kind == "QMARKS":
            a.kind, a.no_move = "roll", text
            self.notes.append(Normalisation(f"{text!r} without dice read as a turn given up", cell.line,
                                            cell.column))
        elif kind == "SETUP":
            a.kind = "setup"
            a.setup = self._snowie(text, cell, 0)
        elif kind in ("DOUBLE", "BEAVER", "RACCOON"):
            a.kind = _CELL_KINDS[kind]
            a.value = int(text.rsplit(">", 1)[1])
        elif kind in ("WIN", "LOSS"):
            a.kind = _CELL_KINDS[kind]
            words = text.split()
            a.value = ascii_number(words[1]) if len(words) > 1 else None  # GammonView: "Wins"
        elif kind == "FORFEIT":
            a.kind = "resign"
            self.notes.append(Normalisation("'Forfeits' (GammonView) read as a resignation", cell.line,
                                            cell.column))
        elif kind in _CELL_KINDS:
            a.kind = _CELL_KINDS[kind]
        return a

    def _snowie(self, rest: str, cell: _Cell, offset: int) -> Position | None:
        """The position of ``Illegal play (<Snowie text>)``, with the players of the score line."""
        s = setup_position(rest)
        assert s is not None
        at, snowie_text = s
        try:
            from ..ids import parse_snowie
        except ImportError:  # pragma: no cover - notation.ids not available
            return None
        column = cell.column + offset + at
        try:
            # the position is read, not judged: the replay says whether it can exist
            pos = parse_snowie(snowie_text, variant=self.variant, validate=False)
        except NotationError as e:
            raise ParseError(f"bad Snowie position in 'Illegal play': {e.message}", line=cell.line,
                             column=column + (e.column - 1 if e.column else 0), text=cell.text) from None
        names = self.game_names
        if names is not None and all(pos.names) and pos.names != names:
            if pos.names == (names[1], names[0]):
                pos = _swap_players(pos)
                self.notes.append(Normalisation(
                    "the Snowie position names the players the other way round; its sides were "
                    "swapped to match the score line", cell.line, column))
            else:
                self.notes.append(Normalisation(
                    f"the Snowie position's players {pos.names[0]!r} and {pos.names[1]!r} are not those "
                    f"of the score line; kept as written", cell.line, column))
        return pos

    def _finish_game(self, game: Game) -> None:
        """What a game's results say of the actions before them.  Only the actions :meth:`_action` made are
        looked at (:attr:`general`): the common rows' plays, most of the game, are no result."""
        actions = game.actions
        general = [actions[i] for i in self.general]
        kinds = {a.kind for a in general}
        if "resign" in kinds:
            self._resignation_values(game)
        if "loss" in kinds:
            # A standalone "Losses N point" line is the player who does not win on the next result line.
            for i, a in enumerate(general):
                if a.kind == "loss" and a.move_number is None:
                    nxt = next((b for b in general[i + 1:] if b.kind == "win"), None)
                    if nxt is not None and nxt.player == a.player:
                        a.player = 1 - nxt.player
                    where = a.span
                    self.notes.append(Normalisation(
                        f"Galaxy 'Losses {a.value} point' line read as the loss of player {a.player}",
                        where.line if where else None, where.column if where else None))
                elif a.kind == "loss":
                    where = a.span
                    self.notes.append(Normalisation(
                        f"Galaxy 'Losses {a.value} point' cell read as the loss of player {a.player}",
                        where.line if where else None, where.column if where else None))
            # A win after the same player's loss is the other player's.
            lost: int | None = None
            for a in general:
                if a.kind == "loss":
                    lost = a.player
                elif a.kind == "win" and lost is not None and a.player == lost:
                    a.player = 1 - lost
                    where = a.span
                    self.notes.append(Normalisation(
                        f"'Wins' after player {lost}'s 'Losses' read as player {a.player}'s win",
                        where.line if where else None, where.column if where else None))
        if "win" not in kinds:
            return
        # An empty roll right before the other player's 'Wins' (the roller's own "Concedes" or "Losses" may
        # come between) is a roll that was not played.
        for w in self.general:
            win = actions[w]
            if win.kind != "win":
                continue
            i = w - 1
            while i >= 0 and actions[i].kind in ("loss", "resign"):
                i -= 1
            a = actions[i]
            if i < 0 or a.kind != "move" or a.play != "" or a.no_move != "" or a.player == win.player \
                    or any(actions[k].player != a.player for k in range(i + 1, w)):
                continue
            a.kind = "roll"
            a.play = None
            where = a.span
            self.notes.append(Normalisation(
                f"{a.text} with no move right before the other player's 'Wins' read as a roll "
                f"that was not played (a resignation)",
                where.line if where else None, where.column if where else None))

    def _resignation_values(self, game: Game) -> None:
        """The level of each ``Resigns`` cell, which says none (:func:`resignation_levels`)."""
        for a, level in resignation_levels(game, self.length):
            a.value = level

    def _overflow_notes(self) -> None:
        if not self.right_columns:
            return
        usual = self.right_columns.most_common(1)[0][0]
        for line, left_end, right_col in self.splits:
            if right_col > usual and left_end >= usual - 1:
                self.notes.append(Normalisation(
                    f"the left cell runs into the right column (which starts at column {usual}); split "
                    f"before column {right_col}", line, right_col))

    # ----------------------------------------------------------------- errors
    def _syntax_error(self, e: UnexpectedInput) -> ParseError:
        from lark import Token
        from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

        line = getattr(e, "line", None)
        column = getattr(e, "column", None)
        text = ""
        if isinstance(line, int) and line > 0:
            lines = self.text.split("\n")
            if line - 1 < len(lines):
                text = lines[line - 1]
        shown = text.strip()
        if isinstance(e, UnexpectedEOF):
            return ParseError("the file ends in the middle of a game header (a 'Game N' line needs a "
                              "score line after it)", line=self.text.count("\n"), column=1)
        expected: set[str] = set()
        if isinstance(e, UnexpectedCharacters):
            expected = set(e.allowed or ())
        elif isinstance(e, UnexpectedToken):
            expected = set(e.expected or ())
            tok = e.token
            if isinstance(tok, Token):
                line, column = tok.line, tok.column
                text = _line_of(tok)
                shown = text
                if tok.type == "$END":
                    return ParseError("the file ends before the score line of the last game",
                                      line=self.text.count("\n"), column=1)
        if expected == {"SCORE_LINE"}:
            msg = f"expected a score line 'name : score   name : score' after the Game line, found {shown!r}"
        elif "MATCH_LINE" in expected and "GAME_LINE" not in expected:
            msg = f"expected the 'N point match' line, found {shown!r}"
        elif "GAME_LINE" in expected and "ROWS" not in expected:
            msg = f"expected a 'Game N' line, found {shown!r}"
        else:
            msg = f"unrecognised line {shown!r}"
        if _too_long_length(shown):
            msg = f"a match length of more than 9 digits: {cut_text(shown, 80)!r}"
        elif (why := foreign_digit(shown)) is not None:
            msg = f"{msg}: {why}"
        return ParseError(msg, line=line, column=column, text=text)


def _too_long_length(line: str) -> bool:
    """``line`` starts as an ``N point match`` line (the grammar's ``MAT_HEAD``, ending in ``match``) whose
    number the grammar's ``_MATCH`` refuses: it has more than 9 digits."""
    terminals = _terminals()
    head = re.match(terminals["MAT_HEAD"], line)
    return head is not None and head.group().lower().endswith("match") and \
        re.fullmatch(terminals["_MATCH"], head.group().strip(" \t")) is None


def _swap_players(pos: Position) -> Position:
    """The same position with players 0 and 1 exchanged."""
    def other(p: int | None) -> int | None:
        return None if p is None else 1 - p

    return pos.replace(boards=(pos.boards[1], pos.boards[0]), turn=1 - pos.turn,
                       cube_owner=other(pos.cube_owner), resigner=other(pos.resigner),
                       score=(pos.score[1], pos.score[0]), names=(pos.names[1], pos.names[0]))


def _comment_text(line: str) -> str:
    """A ``;`` line without its ``;`` and the one space after it."""
    body = line[1:]
    return body[1:] if body.startswith(" ") else body

