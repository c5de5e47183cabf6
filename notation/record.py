"""The match record: one data model that every reader fills, the replay checks and every writer writes.

A :class:`Match` holds metadata, header tags and comments, and its :class:`Game` objects; a game holds
:class:`Action` objects in the order they happened, each with the :class:`Span` of its source text
(so findings can point at the exact line and column).  Nothing here checks the rules: that is
:mod:`notation.replay`.

Players are 0 and 1 as in :mod:`notation.position`: player 0 is the *left* column / first name of a
``.mat`` score line, White (``W``) in SGF, O in gnubg.

The records here, like :class:`~notation.position.Position`, the replay's findings and the analysis,
are dataclasses with slots: :func:`dataclasses.fields` and :func:`dataclasses.replace` work on them
(and are importable from here as :func:`fields` and :func:`replace`, as the README has long said).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import KW_ONLY, dataclass, field
from dataclasses import fields as fields  # re-exported: the README's library section names them here
from dataclasses import replace as replace
from typing import TYPE_CHECKING, Any, Literal

from ._digits import ascii_number
from .position import Position
from .positionrecord import Normalisation as Normalisation  # re-exported: a reader of a match reports these
from .positionrecord import PositionRecord as PositionRecord  # re-exported, as before

if TYPE_CHECKING:  # pragma: no cover - imported where an analysis is read or written (start-up time)
    from .analysis import Analysis

ActionKind = Literal[
    "move",     # a roll and its play ("" play = no move written); dice always set
    "roll",     # a roll that was not played: '???', '????', or an empty cell right before a resignation
    "double",   # value = the cube value offered ("Doubles => 2")
    "beaver",   # value = the cube value after the beaver ("Beavers => 4")
    "raccoon",  # value = the cube value after the raccoon
    "take",
    "drop",
    "resign",   # an offer to resign; value = 1, 2 or 3 (single, gammon, backgammon) when known
    "accept",   # the resignation is accepted
    "reject",   # the resignation is rejected
    "win",      # value = points won, as written ("Wins 2 points")
    "loss",     # Galaxy's "Losses N point": value = points lost
    "setup",    # the board was set (Snowie "Illegal play (...)", SGF AE/AB/AW/PL/CV/CP/DI)
]


@dataclass(slots=True, unsafe_hash=True)
class Span:
    """Where an item is in its source: 1-based line and column of its first character, and of the
    character after its end.  Hashable and compared by value; not frozen, because a frozen dataclass
    is four times as slow to make (its ``__init__`` sets each field through ``object.__setattr__``), and a
    reader makes one for every action it reads."""

    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None


@dataclass(slots=True)
class Action:
    """One action of a game.  Made by keyword after its kind and player (``Action("move", 0, dice=(5, 2),
    play="13/8 13/11")``): the fields after them are keyword-only."""

    kind: ActionKind
    player: int
    """The player who acts: 0 (left column, White) or 1 (right column, Black)."""
    _: KW_ONLY
    dice: tuple[int, int] | None = None
    """For moves and rolls: the dice in the order written (``"26:"`` gives (2, 6))."""
    play: str | None = None
    """For moves: the play as written after ``NN:`` (stripped); ``""`` when nothing was written."""
    no_move: str | None = None
    """How an empty play was written, when it was: ``"Cannot Move"``, ``"???"``, ``""``."""
    value: int | None = None
    text: str = ""
    """The whole cell as written."""
    span: Span | None = None
    move_number: int | None = None
    """The row number of a ``.mat`` move line (``12)``); from the other formats (SGF, ``.xg``) the row the
    ``.mat`` writer puts the action in (:mod:`notation.rows`): "game G, move M" means the same in
    every format."""
    comment: str | None = None
    setup: Position | None = None
    """For ``setup``: the position set (cube, dice and turn included)."""
    properties: dict[str, list[str]] = field(default_factory=dict)
    """Format-specific extras a reader kept for lossless round trips."""
    analysis: Analysis | None = None
    """The producer's analysis of this decision (:mod:`notation.analysis`), when the record holds one."""


_new = object.__new__


def move_action(player: int, dice: tuple[int, int], play: str, text: str, line: int, column: int, end_column: int,
                move_number: int | None) -> Action:
    """``Action("move", player, dice=dice, play=play, no_move=None if play else "", text=text, span=Span(line,
    column, line, end_column), move_number=move_number)``: a play written in a cell on one line, made at a
    third of the cost (a reader makes one for almost every play it reads: keyword arguments are what costs,
    and the generated ``__init__`` has 13 of them).  Every field of :class:`Action` and :class:`Span` is set
    here (``tests/test_record.py`` holds it so)."""
    span = _new(Span)
    span.line = line
    span.column = column
    span.end_line = line
    span.end_column = end_column
    a = _new(Action)
    a.kind = "move"
    a.player = player
    a.dice = dice
    a.play = play
    a.no_move = None if play else ""
    a.value = None
    a.text = text
    a.span = span
    a.move_number = move_number
    a.comment = None
    a.setup = None
    a.properties = {}
    a.analysis = None
    return a


ACTION_VERBS = {"double": "doubles", "beaver": "beavers", "raccoon": "raccoons", "take": "takes",
                "drop": "drops", "resign": "resigns", "accept": "accepts", "reject": "rejects",
                "win": "wins", "loss": "loses", "roll": "rolls", "setup": "sets up the board"}


def action_phrase(a: Action) -> str:
    """What an action other than a played move does, in words: ``doubles to 4``, ``wins 2 points``,
    ``rolls 5-2`` (captions of diagrams and the page)."""
    what = ACTION_VERBS.get(a.kind, a.kind)
    if a.kind in ("double", "beaver", "raccoon") and a.value:
        what += f" to {a.value}"
    elif a.kind == "win" and a.value:
        what += f" {a.value} point{'s' if a.value != 1 else ''}"
    elif a.kind == "roll" and a.dice:
        what += f" {a.dice[0]}-{a.dice[1]}"
    return what


@dataclass(slots=True)
class Game:
    number: int
    """As written (``Game 3``); SGF gives the index + 1."""
    score: tuple[int, int] | None = None
    """The score line at the start of the game, as written (None when the format has none)."""
    names: tuple[str, str] | None = None
    """The names on this game's score line, when they were written."""
    ratings: tuple[str | None, str | None] = (None, None)
    """FIBS-style ratings split off the score-line names (``zoonk,1666``)."""
    actions: list[Action] = field(default_factory=list)
    start: Position | None = None
    """A set-up starting position (SGF AE/AB/AW), or None for the variant's initial position."""
    crawford: bool | None = None
    """Explicitly marked Crawford game (SGF ``RU[...CrawfordGame]``); None when not written."""
    span: Span | None = None
    """The ``Game N`` line."""
    score_span: Span | None = None
    comments: list[str] = field(default_factory=list)
    properties: dict[str, list[str]] = field(default_factory=dict)

    def __repr__(self) -> str:
        score = f", score {self.score[0]}-{self.score[1]}" if self.score else ""
        n = len(self.actions)
        return f"<Game {self.number}{score}, {n} action{'s' if n != 1 else ''}>"

    @property
    def result(self) -> tuple[int, int] | None:
        """(winner, points) from the last ``win`` action, or None."""
        for a in reversed(self.actions):
            if a.kind == "win":
                return a.player, a.value or 0
        return None


def short_text(text: str, most: int = 40, *, tail: bool = False) -> str:
    """``text``, or its beginning and "..." when longer than ``most`` characters (``tail``: "..." and its
    end, for a file name), for a short repr."""
    if len(text) <= most:
        return text
    return "..." + text[3 - most:] if tail else text[:most - 3] + "..."


@dataclass(slots=True)
class MatchRules:
    """The rules in force, from headers, SGF ``RU`` or options."""

    variant: str = "standard"
    crawford: bool = True
    """The Crawford rule applies (matches only)."""
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    auto_doubles: int = 0
    """Automatic doubles on equal opening throws: at most this many per game (0 = none)."""
    cube: bool = True
    """False for cubeless play."""
    cube_limit: int | None = None
    """Highest cube value, when limited."""


@dataclass(slots=True)
class Match:
    length: int = 0
    """0 = money session."""
    names: tuple[str, str] = ("", "")
    games: list[Game] = field(default_factory=list)
    tags: list[tuple[str, str]] = field(default_factory=list)
    """Header tags in file order (``; [Event "..."]`` → ("Event", "...")); repeated tags are kept."""
    comments: list[str] = field(default_factory=list)
    """Free comment lines of the header, without the leading ``;``."""
    rules: MatchRules = field(default_factory=MatchRules)
    source: str | None = None
    """The file name it was read from."""
    format: str = ""
    """``mat``, ``sgf``, ``json`` ..."""
    span: Span | None = None
    """The ``N point match`` line."""
    normalisations: list[Normalisation] = field(default_factory=list)
    properties: dict[str, list[str]] = field(default_factory=dict)

    def tag(self, name: str) -> str | None:
        """The first value of a header tag (case-insensitive), or None."""
        low = name.lower()
        for k, v in self.tags:
            if k.lower() == low:
                return v
        return None

    @property
    def variant(self) -> str:
        return self.rules.variant

    def _repr_html_(self) -> str | None:
        """Jupyter: the match page (the renderer is imported on first use: :mod:`notation.notebook`)."""
        from .notebook import shown

        return shown("match_html", self)

    def __repr__(self) -> str:
        """Short, whatever the match holds (the dataclass's own repr printed every action: 41 KB for a
        7-point match)."""
        what = f"{self.length}-point match" if self.length else "money session"
        names = " vs ".join(repr(short_text(n)) for n in self.names)
        games = len(self.games)
        actions = sum(len(g.actions) for g in self.games)
        source = f", {self.format or 'read'} from {short_text(self.source, 60, tail=True)!r}" if self.source else ""
        return (f"<Match: {what}, {names}, {games} game{'s' if games != 1 else ''}, {actions} "
                f"action{'s' if actions != 1 else ''}{source}>")


def rule_number(value: str) -> bool:
    """Whether a rule header tag's ``value`` is a number the rules take (``CubeLimit``, ``AutoDoubles``): at most
    9 decimal digits (``²``, which ``isdigit`` takes and ``int`` does not, and 5,000 digits are not)."""
    return ascii_number(value) is not None


TEXT_BOUND = 4096
"""The most characters a name, a rating or a header tag keeps (OGXM's strings hold 4,096 bytes): each is
copied into every game, finding and page of the outputs, so one of megabytes made gigabytes."""


def bound_text(match: Match) -> None:
    """Cut each name, rating and header tag of ``match`` longer than :data:`TEXT_BOUND` characters to its
    first :data:`TEXT_BOUND`, each comment and property of its games and actions longer than
    :data:`COMMENT_BOUND` to that, drop its analysis figures out of range, and say so in its normalisations
    (every reader's matches go through here, :func:`notation.matchio.parse_any`, or a reader of one game at a
    time through :class:`Bounds`, :func:`notation.formats.sgf.iter_sgf`)."""
    b = Bounds(match)
    for g in match.games:
        b.game(g)
    b.finish()


COMMENT_BOUND = 1 << 18
"""The most characters a comment or a property of a game or an action keeps (262,144, as much as our OGXM
writer writes of a file's annotations, :data:`notation.formats._ogxm_write.MAX_ANNO_BYTES`): a real comment,
an annotator's essay on a move, is a few thousand; one of megabytes was copied into every output and page."""


class Bounds:
    """:func:`bound_text` of ``match`` a game at a time, for a reader that yields its games one by one
    (:func:`notation.formats.sgf.iter_sgf`): :meth:`game` cuts each game as it is read and says there its
    analysis figures out of range (a warning each, where the action is); :meth:`finish`, when the games are
    all read, cuts the header and says what was cut."""

    __slots__ = ("match", "short", "long")

    def __init__(self, match: Match) -> None:
        self.match = match
        self.short: list[str] = []
        """What was cut to :data:`TEXT_BOUND` characters."""
        self.long: list[str] = []
        """What was cut to :data:`COMMENT_BOUND` characters."""

    def _bound(self, text: str | None, what: str) -> str | None:
        if text is None or len(text) <= TEXT_BOUND:
            return text
        self.short.append(f"{what} ({len(text):,} characters)")
        return text[:TEXT_BOUND]

    def game(self, game: Game) -> Game:
        """Cut ``game``'s names and ratings, each comment and property value of it and its actions, and drop
        its analysis figures out of range (:func:`notation.analysis.drop_out_of_range`); ``game``."""
        bound, cut = self._bound, self.long
        if game.names is not None and any(len(n) > TEXT_BOUND for n in game.names):
            game.names = (bound(game.names[0], f"game {game.number}'s first name") or "",
                          bound(game.names[1], f"game {game.number}'s second name") or "")
        if any(r is not None and len(r) > TEXT_BOUND for r in game.ratings):
            game.ratings = (bound(game.ratings[0], f"game {game.number}'s first rating"),
                            bound(game.ratings[1], f"game {game.number}'s second rating"))
        if any(len(c) > COMMENT_BOUND for c in game.comments):
            game.comments = [_cut(c, f"a comment of game {game.number}", cut) for c in game.comments]
        _bound_properties(game.properties, f"game {game.number}", cut)
        for a in game.actions:
            c = a.comment
            if c is not None and len(c) > COMMENT_BOUND:
                line = f" (line {a.span.line})" if a.span is not None else ""
                a.comment = _cut(c, f"a comment in game {game.number}{line}", cut)
            if a.properties:
                _bound_properties(a.properties, f"an action of game {game.number}", cut)
            if a.analysis is not None:
                span = a.span
                note = drop_figures(a.analysis, f"game {game.number}", span.line if span is not None else None,
                                    span.column if span is not None else None)
                if note is not None:
                    self.match.normalisations.append(note)
        return game

    def finish(self) -> None:
        """Cut the match's names, header tags and comments, and say in its normalisations what was cut."""
        match, bound = self.match, self._bound
        games_short, games_long = self.short, self.long  # (the header's said first, as it comes first)
        self.short, self.long = [], []
        if any(len(n) > TEXT_BOUND for n in match.names):
            match.names = (bound(match.names[0], "the first player's name") or "",
                           bound(match.names[1], "the second player's name") or "")
        if any(len(k) > TEXT_BOUND or len(v) > TEXT_BOUND for k, v in match.tags):
            match.tags = [(bound(k, "a header tag's name") or "", bound(v, f"the header tag {k[:40]!r}") or "")
                          for k, v in match.tags]
        if any(len(c) > COMMENT_BOUND for c in match.comments):
            match.comments = [_cut(c, "a header comment", self.long) for c in match.comments]
        for cut, most, why in ((self.short + games_short, TEXT_BOUND, ""),
                               (self.long + games_long, COMMENT_BOUND, " (the longest comment kept)")):
            if cut:
                more = f" and {len(cut) - 3} more" if len(cut) > 3 else ""
                match.normalisations.append(Normalisation(
                    f"{', '.join(cut[:3])}{more}: cut to its first {most:,} characters{why}"))
        self.short, self.long = [], []


def drop_figures(a: Analysis, where: str, line: int | None = None, column: int | None = None
                 ) -> Normalisation | None:
    """Drop ``a``'s figures out of range (:func:`notation.analysis.drop_out_of_range`); the warning that says so,
    at ``where`` (``game 3``), or None when all were in range."""
    from .analysis import EQUITY_BOUND, drop_out_of_range

    bad = drop_out_of_range(a)
    if not bad:
        return None
    more = f" and {len(bad) - 3} more" if len(bad) > 3 else ""
    return Normalisation(f"{where}: analysis figures out of range dropped ({', '.join(bad[:3])}{more}): an equity "
                         f"is within \u00b1{EQUITY_BOUND:g}, a probability within 0..1", line, column, "warning")


def _cut(text: str, what: str, cut: list[str]) -> str:
    if len(text) <= COMMENT_BOUND:
        return text
    cut.append(f"{what} ({len(text):,} characters)")
    return text[:COMMENT_BOUND]


def _bound_properties(props: dict[str, list[str]], where: str, cut: list[str]) -> None:
    if isinstance(props, TextProperties) and props.text is not None and len(props.text) <= COMMENT_BOUND:
        return  # (no value of it is longer than its text)
    for k, vs in props.items():
        if any(isinstance(v, str) and len(v) > COMMENT_BOUND for v in vs):
            props[k] = [_cut(v, f"the property {k[:40]!r} of {where}", cut) if isinstance(v, str) else v
                        for v in vs]


class TextProperties(dict[str, list[str]]):
    """Properties (:attr:`Action.properties`) kept as the text they were read from, and read from it each
    time they are read (by ``read``, the reader's own): an SGF node of 999 properties nobody uses costs its
    text, 7 bytes a property, not a dict of 999 lists, 450.  Made by a reader for a text of at least one
    property (so it is true without reading it); the first change makes it an ordinary dict of them.  Python's
    own C code that reads a dict's storage directly sees it empty (``json.dumps``'s C encoder): give such code
    ``dict(props)`` (the JSON writer's ``_properties`` does)."""

    __slots__ = ("_text", "_parse")

    def __init__(self, text: str, read: Callable[[str], dict[str, list[str]]]) -> None:
        super().__init__()
        self._text: str | None = text
        self._parse = read

    @property
    def text(self) -> str | None:
        """The text, until the first change (then None)."""
        return self._text

    def _read(self) -> dict[str, list[str]] | None:
        return None if self._text is None else self._parse(self._text)

    def _own(self) -> None:
        if self._text is not None:
            read = self._parse(self._text)
            self._text = None
            dict.update(self, read)

    def __bool__(self) -> bool:
        return self._text is not None or dict.__len__(self) > 0

    def __getitem__(self, key: str) -> list[str]:
        d = self._read()
        return dict.__getitem__(self, key) if d is None else d[key]

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        d = self._read()
        return dict.get(self, key, default) if d is None else d.get(key, default)

    def __contains__(self, key: object) -> bool:
        d = self._read()
        return dict.__contains__(self, key) if d is None else key in d

    def __iter__(self) -> Iterator[str]:
        d = self._read()
        return dict.__iter__(self) if d is None else iter(d)

    def __reversed__(self) -> Iterator[str]:
        d = self._read()
        return dict.__reversed__(self) if d is None else reversed(d)

    def __len__(self) -> int:
        d = self._read()
        return dict.__len__(self) if d is None else len(d)

    def keys(self) -> Any:
        d = self._read()
        return dict.keys(self) if d is None else d.keys()

    def values(self) -> Any:
        d = self._read()
        return dict.values(self) if d is None else d.values()

    def items(self) -> Any:
        d = self._read()
        return dict.items(self) if d is None else d.items()

    def copy(self) -> dict[str, list[str]]:
        d = self._read()
        return dict(dict.items(self)) if d is None else d

    def __eq__(self, other: object) -> bool:
        d = self._read()
        return dict.__eq__(self, other) if d is None else d == other

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.copy())

    def __or__(self, other: Any) -> dict[str, list[str]]:  # type: ignore[override]  # (dict's overloads: any mapping, as dict's own)
        return self.copy() | other

    def __ror__(self, other: Any) -> dict[str, list[str]]:  # type: ignore[override]  # (dict's overloads: any mapping, as dict's own)
        return dict(other) | self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (TextProperties, (self._text, self._parse)) if self._text is not None else (dict, (self.copy(),))

    def __setitem__(self, key: str, value: list[str]) -> None:
        self._own()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self._own()
        dict.__delitem__(self, key)

    def __ior__(self, other: Any) -> TextProperties:  # type: ignore[override,misc]
        self._own()
        dict.update(self, other)
        return self

    def setdefault(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self._own()
        return dict.setdefault(self, key, default)

    def pop(self, key: str, *default: Any) -> Any:  # type: ignore[override]
        self._own()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, list[str]]:
        self._own()
        return dict.popitem(self)

    def clear(self) -> None:
        self._text = None
        dict.clear(self)

    def update(self, *args: Any, **kw: Any) -> None:
        self._own()
        dict.update(self, *args, **kw)
