"""SGF (``GM[6]``) backgammon records, in the dialect GNU Backgammon writes and reads.

:func:`read_sgf` turns an SGF collection into a :class:`~notation.record.Match` (one game tree per
game, the main line of each tree); :func:`notation.formats.sgf_write.write_sgf` writes a match back as
SGF that gnubg loads with ``load match``, and says what the SGF target cannot hold.

Reading (see ``docs/json-format.md`` for the resulting model and ``reference/formats.md`` §2.4):

* Coordinates ``a``..``x`` are White's points 1..24 (absolute), ``y`` the bar, ``z`` the tray.  A
  move ``B[52lqac]`` becomes ``Action("move", 1, dice=(5, 2), play="13/8 24/22")``: the single-die
  steps in the mover's own numbering, written plainly as gnubg's ``.mat`` export does (``25`` = bar,
  ``0`` = off, ``*`` after a step that hits: the reader follows the board as gnubg's loader does,
  without checking legality).  ``B[63]`` (a dance) has ``play=""``.  Gibbon's ``B[resign:N]``,
  ``W[accept]`` and ``W[reject]`` nodes become ``resign`` (level = N / cube), ``accept``, ``reject``.
* ``double`` / ``take`` / ``drop``: a ``double`` answering a pending double is a beaver (a third, a
  raccoon); ``value`` is the cube value offered (for a beaver/raccoon: the value after it).
* Set-up nodes (``AE`` with ``a:y`` ranges, ``AW``, ``AB``, ``PL``, ``CV``, ``CP``, ``DI``; also the
  spec's ``CO``) become ``Action("setup", setup=<the whole Position after the node>)``.  A node with
  only ``PL``/``DI`` after which nothing else happens in the game (gnubg's "rolled, then resigned") is
  an ``Action("roll", dice=...)`` instead.  ``AW`` lists White's checkers and ``AB`` Black's, both in
  White's letters, whoever is on roll (gnubg 1.07, checked by saving and reloading).
* ``RE[W+2]`` gives ``Action("win", 0, value=2)``; ``RE[B+1R]`` (resigned) gives
  ``Action("resign", 0, value=<1|2|3: points / cube>)``, ``Action("accept", 1)`` and
  ``Action("win", 1, value=1)``.  These come last in the game, with the span of the ``RE`` property.
* Root node: ``MI`` → length, game number (``game:0`` is game 1), score; ``PW``/``PB`` → names;
  ``WR``/``BR`` → :attr:`Game.ratings`; ``DT``/``EV``/``RO``/``PC``/``AN`` → the header tags
  ``EventDate`` (as ``YYYY.MM.DD``), ``Event``, ``Round``, ``Site``, ``Transcriber`` (gnubg's ``.mat``
  names for the same fields); ``GC`` → :attr:`Match.comments`; ``RU`` → :class:`MatchRules` and
  :attr:`Game.crawford`; ``CV[n]`` (automatic doubles) → :attr:`Game.start` with the cube at ``n``;
  ``C`` → :attr:`Game.comments`; anything else (``GS``, ``AP``, unknown) → :attr:`Game.properties`.
* Per node: ``C`` → :attr:`Action.comment`; analysis and other properties (``A``, ``DA``, ``LU``,
  ``MR``, ``BM``, ``GB`` ...) → :attr:`Action.properties`, in file order, so SGF → SGF is lossless.
  gnubg's analysis (``A`` ranked plays, ``DA`` cube decision, ``LU`` luck, ``GB``/``GW`` luck marks)
  is also read into :attr:`Action.analysis` (:mod:`notation.analysis`; ``docs/json-format.md`` says
  how each figure maps).
* The file is read by a streaming scanner, one game tree at a time and only its main line kept, with
  an explicit stack: time is linear, memory is the match plus one game, and game trees nested more
  than :data:`MAX_DEPTH` deep are a :class:`~notation.errors.ParseError` at the ``(``.
* The private properties ``XT[name:value]`` (header tags SGF has no property for) and ``XR[...]``
  (rules SGF cannot state) that the writer adds are read back.
* Property names in mixed case keep only their capitals (``GaMe`` → ``GM``); ``\\]`` and ``\\\\`` are
  escapes; a backslash-newline is a soft line break.  Trees without ``GM[6]`` are skipped; side
  variations are ignored (gnubg reads only the main line).  Every such interpretation is recorded as
  a :class:`~notation.record.Normalisation`.

The writer is :func:`notation.formats.sgf_write.write_sgf`, in a module of its own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .._digits import ascii_number
from ..errors import ParseError
from ..play import format_steps_plain
from ..position import Position
from ..record import Action, Bounds, Game, Match, Normalisation, Span, TextProperties
from ..rows import number_rows
from ..rules import get_rules
from ._sgf_shared import ANALYSIS_PROPS as _ANALYSIS_PROPS
from ._sgf_shared import COLOURS as _COLOUR
from ._sgf_shared import SETUP_PROPS as _SETUP
from ._sgf_shared import SGF_TAGS, original_producer, resign_level
from ._sgf_shared import VARIANT_RULES as _VARIANT_RULES
from ._sgf_shared import BoardState as _State
from ._sgf_shared import own_point as _own_point
from ._sgf_shared import read_analysis as _read_analysis
from ._sgf_shared import white_point as _white_point

__all__ = ["read_sgf", "iter_sgf", "SGF_TAGS", "read"]

_DICE = {f"{a}{b}": (a, b) for a in range(1, 7) for b in range(1, 7)}
"""One tuple per roll, shared by every action read (a big file has hundreds of thousands)."""
"""Property names gnubg's lexer can read back (it keeps at most two capitals)."""






# --------------------------------------------------------------------------- values


_ESCAPE = re.compile(r"\\(\r\n|\n\r|[\r\n]|.)", re.S)


def _unescape(raw: str) -> str:
    """SGF escapes: a backslash keeps the next character; backslash-newline is a soft line break."""
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(lambda m: "" if m.group(1) in ("\r\n", "\n\r", "\r", "\n") else m.group(1), raw)


_OTHER_SPACE = re.compile(r"[\t\v\f]")
_LINE_BREAK = re.compile(r"\r\n|\n\r|\r")
"""A line break of SGF text (FF[4]: CR LF, LF CR, CR or LF), found from the left: CR LF CR is two."""


def _text(raw: str) -> str:
    """An SGF ``Text`` value: unescaped, line breaks as LF, other white space as spaces."""
    v = _unescape(raw)
    if "\r" in v:
        v = _LINE_BREAK.sub("\n", v)
    return _OTHER_SPACE.sub(" ", v)




def _split_compose(raw: str) -> tuple[str, str | None]:
    """Split a raw ``name:value`` at the first ``:`` not escaped by a backslash."""
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c == ":":
            return raw[:i], raw[i + 1:]
        i += 1
    return raw, None




def _atoi(s: str) -> int | None:
    """The number a value starts with (C's atoi, as gnubg reads it), or None; a number of more than
    nine digits is no number at all (never cut short, never a 4,300-digit conversion)."""
    m = re.match(r"\s*([+-]?[0-9]+)", s)
    if not m or len(m.group(1).lstrip("+-")) > 9:
        return None
    return int(m.group(1))


# --------------------------------------------------------------------------- parsed SGF


@dataclass(slots=True)
class _Prop:
    name: str
    """The capitals of the identifier (``GaMe`` → ``GM``)."""
    ident: str
    raw: list[str]
    """The values as written, without brackets (escapes kept)."""
    span: Span
    text: str
    """The property as written (identifier and values)."""
    at: int = 0
    """Where it starts in the text."""

    @property
    def value(self) -> str:
        return _unescape(self.raw[0]) if self.raw else ""

    @property
    def values(self) -> list[str]:
        return [_unescape(r) for r in self.raw]


@dataclass(slots=True)
class _Node:
    props: list[_Prop]
    """The properties the reader reads: every one of a game's root; of another node a move (``B``, ``W``),
    a comment (``C``) and the set-up properties.  The others are :attr:`other`, as written."""
    span: Span
    index: int
    other: str = ""
    """The text of the node from its first property not in :attr:`props` to the last one's end (a move or
    comment between them included), read when asked for (:class:`_NodeProperties`): a node of 999 unknown
    properties cost 450 bytes each as objects, 7 as text."""
    other_at: int = 0
    """Where :attr:`other` starts in the text."""
    named: bool = False
    """Whether :attr:`other` holds a property with a name (an identifier with capitals: one without any is
    ignored)."""
    analysed: bool = False
    """Whether :attr:`other` holds gnubg's analysis (a property of ``ANALYSIS_PROPS``)."""

    def get(self, name: str) -> _Prop | None:
        for p in self.props:
            if p.name == name:
                return p
        return None

    def has(self, *names: str) -> bool:
        return any(p.name in names for p in self.props)


_KEPT_APART = frozenset({"B", "W", "C", *_SETUP})
"""The properties of a node that are not its action's :attr:`~notation.record.Action.properties`."""


def _capitals(ident: str) -> str:
    """The name of a property identifier: its capitals (``GaMe`` is ``GM``; ``xy`` none)."""
    return ident if ident.isupper() else "".join(c for c in ident if c.isupper())


def _written(text: str) -> Iterator[tuple[int, str, list[str]]]:
    """Each property of ``text``, a run of properties the scanner read (blanks between them): where it
    starts, its identifier and its values as written (escapes kept)."""
    _, _, value, prop = _tokens()
    for m in prop.finditer(text):
        yield m.start(), m.group(1), [v[1:-1] for v in value.findall(m.group(2))]


def _other_properties(text: str) -> dict[str, list[str]]:
    """An action's properties from the text of its node (:attr:`_Node.other`): every property but those
    :data:`_KEPT_APART` and those whose identifier has no capitals, values unescaped, in file order (a
    name given twice: its values joined)."""
    out: dict[str, list[str]] = {}
    _, _, value, prop = _tokens()
    for m in prop.finditer(text):
        name = _capitals(m.group(1))
        if name and name not in _KEPT_APART:
            raw = m.group(2)
            values = [_unescape(raw[1:-1])] if raw.count("[") == 1 else \
                [_unescape(v[1:-1]) for v in value.findall(raw)]
            if name in out:
                out[name].extend(values)
            else:
                out[name] = values
    return out


def _load(source: str | bytes | os.PathLike[str], name: str | None
          ) -> tuple[str, str | None, list[Normalisation]]:
    if isinstance(source, os.PathLike):
        from .._input import read_bytes

        name = name if name is not None else os.fspath(source)
        source = read_bytes(source, what="a record", name=name)
    if isinstance(source, bytes):
        text, notes = _decode(source)
        return text, name, notes
    return source, name, []


_ca: re.Pattern[bytes] | None = None


def _charset_property() -> re.Pattern[bytes]:
    """The ``CA`` property (the character set) in the bytes of a file not yet decoded: ``CA`` and a
    ``VALUE`` of ``grammars/sgf.lark``."""
    global _ca
    if _ca is None:
        from .._grammar import regexes

        _ca = re.compile(b"CA" + regexes("sgf")["VALUE"].encode())
    return _ca


def _decode(data: bytes) -> tuple[str, list[Normalisation]]:
    """The SGF text, decoded as its ``CA[]`` declares (UTF-8 when it declares none; UTF-16 with a byte
    order mark).  A byte the declared charset does not allow is read as U+FFFD and reported with its
    line and column; the rest of the file keeps its charset (never a silent Latin-1 reading of all)."""
    from .._input import decode_bom, text_codec

    notes: list[Normalisation] = []
    wide = decode_bom(data)  # UTF-16 or UTF-32
    if wide is not None:
        if "\ufffd" in wide[0]:
            notes.append(Normalisation(f"bytes that are not {wide[1]}: read as U+FFFD", None, None))
        return wide[0], notes
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    m = _charset_property().search(data[:4096])
    charset = m.group()[3:-1].decode("ascii", "replace").strip() if m else "UTF-8"
    if text_codec(charset) is None:  # (unknown, or no character set: punycode, base64 ...)
        notes.append(Normalisation(f"CA[{charset}] is not a character set this program knows: read as UTF-8", 1,
                                   None))
        charset = "UTF-8"
    try:
        return data.decode(charset), notes
    except UnicodeDecodeError as e:
        bad = 0
        pos: int | None = e.start
        while pos is not None and bad < 5:
            line = data.count(b"\n", 0, pos) + 1
            col = pos - (data.rfind(b"\n", 0, pos) + 1) + 1
            notes.append(Normalisation(f"byte 0x{data[pos]:02x} is not {charset}: read as U+FFFD", line, col))
            bad += 1
            try:
                data[pos + 1:].decode(charset)
            except UnicodeDecodeError as e2:
                pos = pos + 1 + e2.start
            else:
                pos = None
        return data.decode(charset, "replace"), notes


def _blank_outside(text: str, notes: list[Normalisation]) -> str:
    """Blank out (keeping line breaks) anything before the first ``(`` and after the last ``)``."""
    if text.startswith("\ufeff"):
        text = " " + text[1:]
    i = text.find("(")
    j = text.rfind(")")
    if i < 0:
        return text
    head, tail = text[:i], text[j + 1:] if j >= i else ""
    if re.search(r"\(\s*;", tail) or "[" in tail or "]" in tail:
        # a game tree starts there, or property values go on (the last ')' was inside a value): the file
        # is truncated, not followed by junk; the reader says where it ends
        return text
    if head.strip():
        notes.append(Normalisation("text before the first game tree was ignored", 1, 1))
    if tail.strip():
        line = _breaks(text, 0, j) + 1
        notes.append(Normalisation("text after the last game tree was ignored", line, None))
    blank = re.compile(r"[^\r\n]")  # (the line breaks kept: places are counted in lines)
    if head.strip() or tail.strip():
        text = blank.sub(" ", head) + text[i:j + 1] + blank.sub(" ", tail)
    return text


MAX_DEPTH = 10_000
"""Game trees nested deeper than this are refused with a :class:`ParseError` (gnubg writes depth 1;
editors that nest every move as a variation stay far below)."""

MAX_VALUES = 1_000
"""A property with more values than this (``AW`` with ten million ``[a]``) is refused with a
:class:`ParseError` at the value past the bound: gnubg writes at most 15 values to a set-up property
(one a checker) and a handful to any other."""

MAX_PROPERTIES = 1_000
"""A node with more properties than this is refused the same way (gnubg writes a dozen at most)."""

_lexemes: tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]] | None = None


def _tokens() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """(blanks, possibly none; a property name; a property value; a whole property): the terminals ``WS``,
    ``PROP_IDENT`` and ``VALUE`` of ``grammars/sgf.lark``, as lark compiles them
    (:func:`notation._grammar.regexes`), and the rule ``Property = PropIdent PropValue+`` of them (its name,
    group 1, and its values from the first ``[`` to the last ``]``, group 2), blanks after it included."""
    global _lexemes
    if _lexemes is None:
        from .._grammar import regexes

        t = regexes("sgf")
        ws, value = f"(?:{t['WS']})?", t["VALUE"]
        _lexemes = (re.compile(ws), re.compile(t["PROP_IDENT"]), re.compile(value),
                    re.compile(f"({t['PROP_IDENT']}){ws}({value}(?:{ws}{value})*){ws}"))
    return _lexemes


class _Scanner:
    """A streaming reader of an SGF collection: one game tree at a time, only its main line kept.

    It follows ``grammars/sgf.lark`` (Collection = GameTree+; GameTree = "(" Node+ GameTree* ")";
    Node = ";" Property*; Property = PropIdent PropValue+), with the grammar's terminals (:func:`_tokens`)
    and an explicit stack instead of recursion,
    so memory stays with the current game and nesting is bounded by :data:`MAX_DEPTH`.  Line and
    column are counted incrementally (positions only move forward), never by splitting the text.
    """

    def __init__(self, text: str, name: str | None, notes: list[Normalisation]) -> None:
        self.text = text
        self.name = name
        self.notes = notes
        self.line = 1
        self.line_start = 0
        self.counted = 0
        self.mixed_case: dict[str, tuple[int, int]] = {}
        """Each identifier not in capitals only (``GaMe``) met in a kept node, once: where it first is."""
        self.case_notes: list[str] = []
        """Those of :attr:`mixed_case` not yet said (the reader says them after each game tree)."""
        self.ws, self.ident, self.value, self.prop = (p.match for p in _tokens())

    def loc(self, pos: int) -> tuple[int, int]:
        """1-based line and column of ``pos`` (never before the last position asked for)."""
        if pos > self.counted:
            text = self.text
            n = _breaks(text, self.counted, pos)
            if n:
                self.line += n
                hi = pos - 1 if pos < len(text) and text[pos - 1] == "\r" and text[pos] == "\n" else pos
                self.line_start = max(text.rfind("\n", self.counted, hi), text.rfind("\r", self.counted, hi)) + 1
            self.counted = pos
        return self.line, pos - self.line_start + 1

    def error(self, message: str, pos: int) -> ParseError:
        line, col = self.loc(pos)
        return ParseError(message, file=self.name, line=line, column=col,
                          text=_line_at(self.text, self.line_start))

    def eof(self) -> ParseError:
        return self.error("SGF syntax: the file ends inside a game tree (a ')' is missing)", len(self.text))

    def unexpected(self, pos: int) -> ParseError:
        text = self.text
        if pos >= len(text):
            return self.eof()
        c = text[pos]
        if c == "[":
            if self.value(text, pos) is None:
                return self.error("SGF syntax: the file ends inside a property value (a ']' is missing)", pos)
            what, tok = "a property value", self.value(text, pos).group()  # type: ignore[union-attr]
        elif c in "();":
            what, tok = f"'{c}'", c
        elif "a" <= c.lower() <= "z":
            what, tok = "a property name", self.ident(text, pos).group()  # type: ignore[union-attr]
        else:
            return self.error(f"SGF syntax: unexpected character {c!r}", pos)
        return self.error(f"SGF syntax: unexpected {what} {tok[:20]!r}", pos)

    def trees(self) -> Iterator[list[_Node]]:
        """The main line of each game tree, in file order."""
        text = self.text
        end = len(text)
        pos = self.ws(text, 0).end()  # type: ignore[union-attr]
        while pos < end:
            if text[pos] != "(":
                raise self.unexpected(pos)
            nodes, pos = self.tree(pos)
            yield nodes
            pos = self.ws(text, pos).end()  # type: ignore[union-attr]

    def tree(self, pos: int) -> tuple[list[_Node], int]:
        """Read the game tree whose ``(`` is at ``pos``; return its main-line nodes and the position
        after its ``)``."""
        text = self.text
        ws = self.ws
        nodes: list[_Node] = []
        # One frame per open game tree: [on the main line, sub-trees seen, where the 2nd sub-tree starts]
        stack: list[list[Any]] = []
        while True:
            # at an opening parenthesis
            parent = stack[-1] if stack else None
            main = parent is None or (parent[0] and parent[1] == 0)
            if parent is not None:
                parent[1] += 1
                if parent[0] and parent[1] == 2:
                    parent[2] = pos
            if len(stack) >= MAX_DEPTH:
                raise self.error(f"SGF game trees nested more than {MAX_DEPTH} deep: not read", pos)
            stack.append([main, 0, None])
            pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
            if pos >= len(text):
                raise self.eof()
            if text[pos] != ";":
                raise self.unexpected(pos)
            while pos < len(text) and text[pos] == ";":
                pos = self.node(pos, nodes if main else None)
            # sub-trees, then the closing parenthesis
            while True:
                if pos >= len(text):
                    raise self.eof()
                c = text[pos]
                if c == "(":
                    break
                if c != ")":
                    raise self.unexpected(pos)
                frame = stack.pop()
                if frame[0] and frame[1] > 1:
                    line, col = self.loc(frame[2])
                    self.notes.append(Normalisation(f"{frame[1] - 1} side variation(s) ignored: only the main "
                                                    f"line is read, as gnubg does", line, col))
                pos += 1
                if not stack:
                    return nodes, pos
                pos = ws(text, pos).end()  # type: ignore[union-attr]

    def node(self, pos: int, nodes: list[_Node] | None) -> int:
        """Read the node whose ``;`` is at ``pos`` (kept in ``nodes`` unless None); return the
        position of what follows it (white space skipped).  Of a kept node other than a game's root,
        only the properties the reader reads become :class:`_Prop` objects; the others are kept as the
        node's text (:attr:`_Node.other`)."""
        text = self.text
        ws = self.ws
        keep = nodes is not None
        root = keep and not nodes
        if keep:
            semi_line, semi_col = self.loc(pos)
        props: list[_Prop] = []
        count = 0
        other_start = other_end = -1
        analysed = named = False
        last_end = pos + 1
        pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
        while True:
            m = self.prop(text, pos)
            if m is None:
                if self.ident(text, pos) is None:
                    break
                if keep and count >= MAX_PROPERTIES:
                    raise self.error(f"SGF node holds more than {MAX_PROPERTIES} properties: not read", pos)
                raise self.unexpected(ws(text, self.ident(text, pos).end()).end())  # type: ignore[union-attr]
            if keep and count >= MAX_PROPERTIES:
                raise self.error(f"SGF node holds more than {MAX_PROPERTIES} properties: not read", pos)
            count += 1
            start = pos
            first, last_end = m.span(2)
            pos = m.end()
            if not keep:
                continue
            if last_end - first > 2 * MAX_VALUES:  # (a value is two characters at least)
                self._count_values(m.group(1), first, last_end)
            ident = m.group(1)
            name = _capitals(ident)
            if ident != name and ident not in self.mixed_case:
                self.mixed_case[ident] = self.loc(start)
                self.case_notes.append(ident)
            if root or name in _KEPT_APART:
                line, col = self.loc(start)
                end_line, end_col = self.loc(last_end)
                props.append(_Prop(name, ident, self._values(first, last_end),
                                   Span(line, col, end_line, end_col), text[start:last_end], start))
            else:
                if other_start < 0:
                    other_start = start
                other_end = last_end
                if name:
                    named = True
                    analysed = analysed or name in _ANALYSIS_PROPS
        if keep:
            assert nodes is not None
            if count:
                end_line, end_col = self.loc(last_end)
                span = Span(semi_line, semi_col, end_line, end_col)
            else:
                span = Span(semi_line, semi_col, semi_line, semi_col + 1)
            nd = _Node(props, span, len(nodes))
            if other_start >= 0:
                nd.other, nd.other_at, nd.named, nd.analysed = (text[other_start:other_end], other_start, named,
                                                                 analysed)
            nodes.append(nd)
        return pos

    def _count_values(self, ident: str, pos: int, end: int) -> None:
        """Refuse the property whose values run from ``pos`` to ``end`` if it has more than
        :data:`MAX_VALUES`, at the first value past the bound."""
        values = 0
        for v in _tokens()[2].finditer(self.text, pos, end):
            values += 1
            if values > MAX_VALUES:
                raise self.error(f"SGF property {ident[:20]} holds more than {MAX_VALUES} values: not read",
                                 v.start())

    def _values(self, pos: int, end: int) -> list[str]:
        """The values, as written, of the property whose first ``[`` is at ``pos`` and whose last ``]``
        ends at ``end``."""
        text = self.text
        out: list[str] = []
        while pos < end:
            v = self.value(text, pos)
            assert v is not None
            out.append(text[v.start() + 1:v.end() - 1])
            pos = self.ws(text, v.end()).end()  # type: ignore[union-attr]
        return out


def _breaks(text: str, start: int, end: int) -> int:
    """The line breaks in ``text[start:end]``: LF, CR LF and a bare CR each end a line, as the ``.mat``
    reader, editors and ``validate``'s excerpts count them (a file with CR line ends, a value holding
    a bare CR); a CR LF that ``start`` splits is not counted again."""
    n = text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)
    if end < len(text) and end > start and text[end - 1] == "\r" and text[end] == "\n":
        n -= 1  # (its LF, in the next range, counts it)
    return n


_BREAK = re.compile(r"\r\n?|\n")


def _line_at(text: str, start: int) -> str:
    """The line that starts at ``start`` (without its line break)."""
    m = _BREAK.search(text, start)
    return text[start:m.start() if m is not None else len(text)]


def _line_of(text: str, line: int) -> str:
    pos = 0
    for _ in range(line - 1):
        m = _BREAK.search(text, pos)
        if m is None:
            return ""
        pos = m.end()
    return _line_at(text, pos)



# --------------------------------------------------------------------------- reading


class _Reader:
    def __init__(self, text: str, name: str | None, notes: list[Normalisation] | None = None) -> None:
        self.notes: list[Normalisation] = notes if notes is not None else []
        self.text = _blank_outside(text, self.notes)
        self.name = name
        self.match = Match(format="sgf", source=name)
        self.match.normalisations = self.notes
        self.count = 0
        """Backgammon game trees read so far."""
        self.first = True
        self.tags_before = 0

    def note(self, message: str, span: Span | None = None) -> None:
        self.notes.append(Normalisation(message, span.line if span else None, span.column if span else None))

    def error(self, message: str, prop: _Prop) -> ParseError:
        return ParseError(message, file=self.name, line=prop.span.line, column=prop.span.column,
                          text=prop.text)

    def read(self) -> Match:
        self.match.games.extend(self.games())
        return self.match

    def games(self) -> Iterator[Game]:
        """Each game as it is read; :attr:`match` (length, names, rules, tags, normalisations) is filled
        in on the way, and its ``games`` list is left alone."""
        if "(" not in self.text:
            raise ParseError("not an SGF file: no game tree '(' found", file=self.name, line=1, column=1,
                             text=_line_of(self.text, 1))
        bounds = Bounds(self.match)  # (each game cut and its figures checked as read: record.bound_text's work)
        scanner = _Scanner(self.text, self.name, self.notes)
        for nodes in scanner.trees():
            for ident in scanner.case_notes:
                name = _capitals(ident)
                line, col = scanner.mixed_case[ident]
                self.notes.append(Normalisation(f"property name {ident!r} read as {name!r}" if name else
                                                f"property {ident!r} has no capital letters and was ignored",
                                                line, col))
            scanner.case_notes.clear()
            for nd in nodes:
                if any(not p.name for p in nd.props):
                    nd.props = [p for p in nd.props if p.name]
            gm = nodes[0].get("GM")
            if gm is None:
                self.note("a game tree without GM[] was read as backgammon", nodes[0].span)
            elif gm.value.strip() != "6":
                self.note(f"a game tree with GM[{gm.value}] (not backgammon) was skipped", gm.span)
                continue
            yield bounds.game(self.game(nodes))
        if not self.count:
            raise ParseError("no backgammon game (GM[6]) in the SGF file", file=self.name, line=1, column=1)
        bounds.finish()

    # ------------------------------------------------------------------ root
    def game(self, nodes: list[_Node]) -> Game:
        m = self.match
        root = nodes[0]
        self.count += 1
        game = Game(self.count, span=root.span)
        length = m.length
        mi = root.get("MI")
        if mi is not None:
            game.score_span = mi.span
            score = [0, 0]
            for item in mi.values:
                key, _, val = item.partition(":")
                number = _atoi(val)
                if key not in ("length", "game", "ws", "bs") or number is None:
                    self.note(f"MI[{item}] not understood", mi.span)
                    continue
                if number < 0 and key in ("length", "game"):
                    self.note(f"MI[{item}]: a negative {key}, read as 0", mi.span)
                    number = 0
                elif ascii_number(val.lstrip("+")) is None:  # '1e3', '3 x': the number it starts with, said
                    self.note(f"MI[{item}]: read as {number}, the number it starts with (as gnubg reads it)", mi.span)
                if key == "length":
                    if self.first:
                        m.length = length = number
                        m.span = mi.span
                    elif number != m.length:
                        self.note(f"game {game.number} says the match is to {number}, not {m.length}; "
                                  f"the first game's length is kept", mi.span)
                elif key == "game":
                    game.number = number + 1
                else:
                    score[key == "bs"] = number
            game.score = (score[0], score[1])
        names = ["", ""]
        have_names = False
        ratings: list[str | None] = [None, None]
        rules_tokens: list[str] | None = None
        private_rules: list[_Prop] = []
        start_cube = 1
        result: _Prop | None = None
        self.tags_before = len(m.tags)
        for p in root.props:
            n = p.name
            if n in ("FF", "GM", "CA", "MI"):
                continue
            if n in ("PW", "PB"):
                names[n == "PB"] = _text(p.raw[0])
                have_names = True
            elif n in ("WR", "BR"):
                ratings[n == "BR"] = _text(p.raw[0])
            elif n == "RE":
                result = p
            elif n == "RU":
                rules_tokens = p.value.split(":")
            elif n == "CV":
                cube = _atoi(p.value)
                if cube is None or cube < 1 or cube & (cube - 1) or cube > 1 << 12:
                    self.note(f"CV[{p.value}] is not a cube value; ignored", p.span)
                else:
                    if ascii_number(p.value) is None:
                        self.note(f"CV[{p.value}]: read as {cube}, the number it starts with (as gnubg reads it)",
                                  p.span)
                    start_cube = cube
            elif n == "GC":
                lines = _text(p.raw[0]).split("\n")
                if not m.comments:
                    m.comments = lines
                elif lines != m.comments:
                    game.comments.append("\n".join(lines))
                    self.note("a second game comment (GC) was kept as a comment of this game", p.span)
            elif n == "C":  # (our writer gives each of a game's comments a value of its own)
                game.comments.extend(_text(raw) for raw in p.raw)
            elif n == "XT":
                for raw in p.raw:
                    k, v = _split_compose(raw)
                    self._tag(_unescape(k), _unescape(v or ""))
            elif n == "XR":
                private_rules.append(p)
            elif any(n == code for code, _ in SGF_TAGS):
                tag = dict(SGF_TAGS)[n]
                value = _text(p.raw[0])
                if n == "DT":
                    dm = re.fullmatch(r"([0-9]{1,4})-([0-9]{1,2})-([0-9]{1,2})", value.strip())
                    if dm:
                        value = f"{int(dm.group(1)):04d}.{int(dm.group(2)):02d}.{int(dm.group(3)):02d}"
                self._tag(tag, value)
            elif n == "AP":  # ours names the original's producer: that is the record's
                game.properties.setdefault(n, []).extend(original_producer(v) for v in p.values)
            else:
                game.properties.setdefault(n, []).extend(p.values)
        if have_names:
            game.names = (names[0], names[1])
            if self.first:
                m.names = game.names
        if ratings != [None, None]:
            game.ratings = (ratings[0], ratings[1])
        self._rules(game, rules_tokens, root)
        for p in private_rules:
            self._private_rules(p)
        variant = m.rules.variant
        if start_cube > 1:
            m.rules.auto_doubles = max(m.rules.auto_doubles, start_cube.bit_length() - 1)
            game.start = Position.initial(variant, cube=start_cube, match_length=length,
                                          score=game.score or (0, 0), crawford=bool(game.crawford),
                                          jacoby=m.rules.jacoby and length == 0, names=game.names or m.names,
                                          max_cube=10 if m.rules.cube else 0)
        self.first = False
        self.moves(game, nodes[1:], start_cube, result)
        number_rows(game)  # "move M" is the .mat row, in every format (notation.rows)
        return game

    def _tag(self, name: str, value: str) -> None:
        """Keep a header tag; one that an earlier game tree already gave is not repeated."""
        if (name, value) not in self.match.tags[:self.tags_before]:
            self.match.tags.append((name, value))

    def _rules(self, game: Game, tokens: list[str] | None, root: _Node) -> None:
        rules = self.match.rules
        ru = root.get("RU")
        span = ru.span if ru is not None else root.span
        toks = tokens or []
        known = {"Crawford", "CrawfordGame", "Jacoby", "NoCube", *_VARIANT_RULES}
        for t in toks:
            if t not in known and t:
                self.note(f"RU token {t!r} not understood; ignored", span)
        variant = next((_VARIANT_RULES[t] for t in toks if t in _VARIANT_RULES), "standard")
        if "Crawford" in toks:
            game.crawford = "CrawfordGame" in toks
        elif "CrawfordGame" in toks:
            game.crawford = True
        if self.first:
            rules.variant = variant
            rules.crawford = "Crawford" in toks if self.match.length > 0 else rules.crawford
            rules.jacoby = "Jacoby" in toks
            rules.cube = "NoCube" not in toks
        else:
            if variant != rules.variant:
                self.note(f"game {game.number} is played as {variant}, the match as {rules.variant}; "
                          f"the first game's variant is kept", span)
            if ("Jacoby" in toks) != rules.jacoby or ("NoCube" not in toks) != rules.cube:
                self.note(f"game {game.number}'s rules (RU) differ from the first game's; the first game's "
                          f"are kept", span)

    def _private_rules(self, p: _Prop) -> None:
        rules = self.match.rules
        for raw in p.raw:
            k, v = _split_compose(raw)
            key = _unescape(k).strip().lower()
            val = _unescape(v).strip() if v is not None else None
            n = _atoi(val) if val is not None else None
            if key == "beavers":
                rules.beavers = True
            elif key == "raccoons":
                rules.raccoons = True
            elif key == "cubelimit" and n is not None:
                rules.cube_limit = n
            elif key == "autodoubles" and n is not None:
                rules.auto_doubles = n
            elif key == "variant" and val:
                try:
                    rules.variant = get_rules(val).name
                except ValueError:
                    self.note(f"XR variant {val!r} is unknown; ignored", p.span)
            else:
                self.note(f"XR[{_unescape(raw)}] not understood; ignored", p.span)

    # ------------------------------------------------------------------ nodes
    def moves(self, game: Game, nodes: list[_Node], start_cube: int, result: _Prop | None) -> None:
        m = self.match
        variant = m.rules.variant
        state = _State.start(variant, start_cube)
        base = game.start or Position.initial(
            variant, match_length=m.length, score=game.score or (0, 0), crawford=bool(game.crawford),
            jacoby=m.rules.jacoby and m.length == 0, names=game.names or m.names,
            max_cube=10 if m.rules.cube else 0)
        later = [False] * len(nodes)
        for i in range(len(nodes) - 2, -1, -1):
            later[i] = later[i + 1] or _plays_on(nodes[i + 1])
        for i, nd in enumerate(nodes):
            comment: str | None = None
            move: _Prop | None = None
            setup: list[_Prop] = []
            for p in nd.props:
                if p.name in ("B", "W"):
                    if move is None:
                        move = p
                    else:
                        self.note(f"a second move {p.text!r} in one node was ignored (as gnubg does)", p.span)
                elif p.name in _SETUP:
                    setup.append(p)
                elif p.name == "C":
                    comment = _text(p.raw[0]) if comment is None else comment + "\n" + _text(p.raw[0])
            # the other properties are read here only for gnubg's analysis and for a node with no action; an
            # action keeps them as the node's text (TextProperties)
            props = _other_properties(nd.other) if nd.analysed or (nd.named and move is None and not setup) \
                else {}
            actions: list[Action] = []
            if setup:
                actions.append(self.setup(state, base, setup, nd, only_roll=move is None and not later[i]))
            before = [list(b) for b in state.boards] if "A" in props else state.boards
            if move is not None:
                if setup:
                    self.note("a node with both a move and set-up properties: the set-up is read first",
                              nd.span)
                actions.append(self.move(state, move, nd))
            if not actions:
                if comment is not None:
                    game.comments.append(comment)
                    self.note("a comment on a node with no move or set-up was kept as a game comment",
                              nd.span)
                for k, v in props.items():
                    game.properties.setdefault(k, []).extend(v)
                if props:
                    self.note(f"properties {', '.join(props)} on a node with no move or set-up were kept as "
                              f"game properties", nd.span)
                continue
            last = actions[-1]
            last.comment = comment
            if nd.named:
                last.properties = TextProperties(nd.other, _other_properties)
            if nd.analysed:
                last.analysis = _read_analysis(props, last.player, before, m.length == 0)
                if last.analysis is None:
                    self.note("gnubg analysis properties that could not be read are kept as properties only",
                              nd.span)
            game.actions.extend(actions)
        if result is not None:
            self.result(game, state, result)

    def move(self, state: _State, p: _Prop, nd: _Node) -> Action:
        player = _COLOUR.index(p.name)
        v = p.value.strip()
        low = v.lower()
        common: dict[str, Any] = {"span": nd.span, "text": p.text, "move_number": nd.index}
        if low in ("double", "take", "drop"):
            if v != low:
                self.note(f"{p.text!r}: cube actions are lower case in gnubg's SGF", p.span)
            kind = low
            if kind == "double" and state.chain and state.chain[-1] != player:
                kind = "beaver" if len(state.chain) == 1 else "raccoon"
            value = state.cube_action(kind, player)
            rules = self.match.rules
            if kind == "beaver" and not rules.beavers:
                rules.beavers = True
                self.note("a beaver is recorded, so beavers were allowed (SGF cannot state the rule)",
                          nd.span)
            elif kind == "raccoon" and not rules.raccoons:
                rules.raccoons = True
                self.note("a raccoon is recorded, so raccoons were allowed (SGF cannot state the rule)",
                          nd.span)
            return Action(kind, player, value=value, **common)  # type: ignore[arg-type]
        rm = re.fullmatch(r"(resign|accept|reject)(?::\s*([0-9]{1,9}))?", low)
        if rm:  # Gibbon's resignation nodes (gnubg ignores them and reads RE[...R])
            kind = rm.group(1)
            value = None
            if kind == "resign":  # Gibbon writes the points offered: the level is points / cube
                points = int(rm.group(2)) if rm.group(2) else state.cube
                value = max(1, min(3, points // max(state.cube, 1)))
            return Action(kind, player, value=value, **common)  # type: ignore[arg-type]
        if not re.fullmatch(r"[1-6][1-6](?:[a-z][a-z])*", v):
            if not re.fullmatch(r"[1-6][1-6][a-z]*", v):
                raise self.error(f"{p.text}: a move is two dice 1-6 and then pairs of letters a-z", p)
            raise self.error(f"{p.text}: the letters of a move come in pairs (from, to)", p)
        dice = _DICE[v[:2]]
        letters = v[2:]
        pairs = [(_own_point(letters[k], player), _own_point(letters[k + 1], player))
                 for k in range(0, len(letters), 2)]
        steps = state.move(player, pairs)
        return Action("move", player, dice=dice, play=format_steps_plain(steps), **common)

    def setup(self, state: _State, base: Position, props: list[_Prop], nd: _Node, *,
              only_roll: bool) -> Action:
        board_set = False
        names = {p.name for p in props}
        roll_only = only_roll and names <= {"PL", "DI"} and "DI" in names
        for p in props:
            n, v = p.name, p.value.strip()
            if n == "PL":
                if v[:1].upper() not in ("W", "B"):
                    raise self.error(f"{p.text}: the player is W or B", p)
                state.turn = "WB".index(v[:1].upper())
            elif n == "DI":
                if not re.match(r"[1-6][1-6]", v):
                    raise self.error(f"{p.text}: dice are two digits 1-6", p)
                state.dice = (int(v[0]), int(v[1]))
            elif n == "CV":
                c = _atoi(v)
                if c is None or c < 1 or c & (c - 1):
                    raise self.error(f"{p.text}: the cube value must be a power of two", p)
                state.cube = c
            elif n in ("CP", "CO"):
                owner = {"c": None, "n": None, "w": 0, "b": 1}.get(v[:1].lower(), -1)
                if owner == -1:
                    raise self.error(f"{p.text}: the cube owner is c (centred), w or b", p)
                state.owner = owner
                if n == "CO":
                    self.note(f"{p.text}: the spec's cube-owner property (gnubg reads only CP)", p.span)
            else:  # AE, AW, AB
                board_set = True
                for w in self._points(p):
                    if n == "AE":
                        if w == 25:
                            state.boards[0][25] = state.boards[1][25] = 0
                        elif w >= 1:
                            state.boards[0][w] = 0
                            state.boards[1][25 - w] = 0
                    elif w == 0:
                        self.note(f"{p.text}: checkers are not added to the tray ('z'); its count "
                                  f"follows from the others", p.span)
                    else:
                        player = 0 if n == "AW" else 1
                        q = w if player == 0 or w == 25 else 25 - w
                        state.boards[player][q] += 1
        if board_set:
            state.fix_off()
        state.chain = []
        text = "".join(p.text for p in props)
        common: dict[str, Any] = {"span": nd.span, "text": text, "move_number": nd.index}
        if roll_only:
            assert state.dice is not None
            return Action("roll", state.turn, dice=state.dice, **common)
        return Action("setup", state.turn, setup=state.position(base), **common)

    def _points(self, p: _Prop) -> list[int]:
        """The White points of a point list (``a:y`` ranges included); 25 = bar, 0 = tray."""
        out: list[int] = []
        for v in p.values:
            v = v.strip()
            if re.fullmatch(r"[a-z]:[a-z]", v):
                a, b = ord(v[0]), ord(v[2])
                if a > b:
                    raise self.error(f"{p.text}: the range {v} runs backwards", p)
                out.extend(_white_point(chr(c)) for c in range(a, b + 1))
            elif re.fullmatch(r"[a-z]", v):
                out.append(_white_point(v))
            else:
                raise self.error(f"{p.text}: {v!r} is not a point (a-y) or a range (a:y)", p)
        return out

    def result(self, game: Game, state: _State, p: _Prop) -> None:
        v = p.value.strip()
        m = re.fullmatch(r"([WwBb])\+([0-9]*)(.*)", v)
        if not m:
            game.properties.setdefault("RE", []).append(v)
            self.note(f"result RE[{v}] is not W+n or B+n; kept as a game property", p.span)
            return
        winner = "WB".index(m.group(1).upper())
        if len(m.group(2)) > 9:
            raise self.error(f"RE: a result of {len(m.group(2))} digits (at most 9)", p)
        points = int(m.group(2)) if m.group(2) else None
        suffix = m.group(3)
        resigned = suffix[:1].upper() == "R"
        if suffix and suffix not in ("R",):
            self.note(f"RE[{v}] read as {m.group(1).upper()}+{m.group(2)}{'R' if resigned else ''}"
                      f"{' (resigned)' if resigned else ''}", p.span)
        if points is None:
            self.note(f"RE[{v}] gives no points", p.span)
        common: dict[str, Any] = {"span": p.span, "text": p.text}
        if resigned and state.dropped:
            self.note(f"RE[{v}] says resigned, but the game ended with a dropped double", p.span)
            resigned = False
        offered = next((a for a in reversed(game.actions) if a.kind in ("resign", "reject")), None)
        if resigned and offered is not None and offered.kind == "resign":
            resigned = False  # the resignation is already in the record (Gibbon's resign/accept nodes)
        if resigned:
            level = resign_level(points, state.cube)
            game.actions.append(Action("resign", 1 - winner, value=level, **common))
            game.actions.append(Action("accept", winner, **common))
        game.actions.append(Action("win", winner, value=points, **common))


_RESIGN_NODE = re.compile(r"(resign|accept|reject)(?::\s*\d{1,9})?")
"""Gibbon's resignation nodes (``B[resign:2]``, ``W[accept]``)."""


def _plays_on(nd: _Node) -> bool:
    """Whether the game goes on at node ``nd``: a move, a cube action or a set-up, not only a resignation
    (a roll followed only by resignation nodes was not played)."""
    return nd.has(*_SETUP) or any(p.name in ("B", "W") and not _RESIGN_NODE.fullmatch(p.value.strip().lower())
                                  for p in nd.props)



def read_sgf(source: str | bytes | os.PathLike[str], *, name: str | None = None) -> Match:
    """Read an SGF collection: ``str`` is SGF text, ``bytes`` the file's contents (decoded as its ``CA``
    says), a path-like object a file to read.  ``name`` is the file name for errors and
    :attr:`Match.source`.  Raises :class:`~notation.errors.ParseError` with line and column for bad input.
    """
    text, name, notes = _load(source, name)
    return _Reader(text, name, notes).read()


def read(data: str | bytes, *, name: str | None = None) -> list[Match]:
    """The match of an SGF collection given as text or bytes (:func:`read_sgf`), named ``name``, as a list
    (every reader's shape, :mod:`notation.formats.registry`)."""
    m = read_sgf(data, name=name)
    m.source = name
    return [m]


def iter_sgf(source: str | bytes | os.PathLike[str], *, name: str | None = None
             ) -> tuple[Match, Iterator[Game]]:
    """Read an SGF collection one game at a time, for files too large to hold as one :class:`Match`
    (``gammon validate`` reads SGF this way, with :class:`notation.replay.Replayer`).

    Returns the match, whose ``games`` list stays empty, and an iterator over its games in order.  The
    match's length, names and rules are known once the first game has been read; its tags and
    ``normalisations`` grow as games are read and are complete when the iterator is exhausted.  Reading
    errors (:class:`~notation.errors.ParseError`) are raised by the iterator, at the game where they
    are, exactly as :func:`read_sgf` raises them."""
    text, name, notes = _load(source, name)
    reader = _Reader(text, name, notes)
    return reader.match, reader.games()


