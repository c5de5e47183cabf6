"""Record classes made without :mod:`dataclasses`.

The classes every command loads (a match and its games and actions, a position, a play, a replay's
findings) are plain records.  Made with :func:`dataclasses.dataclass`, they cost a command about 17 ms
before it reads a byte (2026-11-26, ``gammon validate`` of one file: 8 ms to import :mod:`dataclasses`,
which imports :mod:`inspect`, and about 0.7 ms to generate each class), a quarter of its start-up.
:func:`struct` makes the same classes for a small part of that: the same ``__init__`` (its signature,
defaults and factories), ``__repr__``, ``__eq__``, ``__hash__`` (frozen classes), frozen assignment
refused, ``__slots__``, ``__match_args__`` and pickling, with one generated function per class.

A ``ClassVar`` annotation is a class attribute, not a field, as with dataclasses.  A ``__post_init__``
or an ``InitVar`` is refused (it would be ignored); ordering and keyword-only fields are not made.  The
functions of :mod:`dataclasses` (``fields``, ``replace``, ``asdict``) do not apply to these classes;
:func:`fields` and :func:`replace` here do, and take dataclasses as well.
"""

from __future__ import annotations

from _thread import get_ident
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""No default (the value of :attr:`Field.default` and :attr:`Field.default_factory` when none is set)."""


class _Factory:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY: Any = _Factory()
"""The default an ``__init__`` shows for a field made by a factory (as dataclasses shows it)."""


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a frozen record (an :class:`AttributeError`, as with dataclasses)."""


class Field:
    """One field of a record class: its name, default or default factory, and whether it takes part in
    comparison and ``repr``."""

    __slots__ = ("name", "type", "default", "default_factory", "compare", "repr")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, compare: bool = True,
                 repr: bool = True) -> None:  # noqa: A002 - the name dataclasses uses
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("a field cannot have both a default and a default factory")
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r})"


def field(*, default: Any = MISSING, default_factory: Any = MISSING, compare: bool = True,
          repr: bool = True) -> Any:  # noqa: A002 - the name dataclasses uses
    """A field's settings, as :func:`dataclasses.field` takes them (``default``, ``default_factory``,
    ``compare``, ``repr``)."""
    return Field(default, default_factory, compare, repr)


@overload
def struct(cls: type[T], /) -> type[T]: ...


@overload
def struct(*, frozen: bool = False, repr: bool = True) -> Callable[[type[T]], type[T]]: ...  # noqa: A002


@dataclass_transform(field_specifiers=(field, Field))
def struct(cls: type[T] | None = None, /, *, frozen: bool = False,
           repr: bool = True) -> type[T] | Callable[[type[T]], type[T]]:  # noqa: A002
    """The record class of ``cls``, like ``@dataclass(slots=True)`` (``frozen`` and ``repr`` as there).
    Methods ``cls`` defines itself (``__eq__``, ``__hash__``, ``__repr__``) are kept."""
    def wrap(c: type[T]) -> type[T]:
        return _make(c, frozen, repr)

    return wrap if cls is None else wrap(cls)


def _make(cls: type[T], frozen: bool, want_repr: bool) -> type[T]:
    own = cls.__dict__
    inherited: list[Field] = []
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__struct_fields__", ()):
            inherited = [g for g in inherited if g.name != f.name] + [f]
    new: list[Field] = []
    if "__post_init__" in own:
        raise TypeError(f"{cls.__name__}: a record class made by struct has no __post_init__")
    for name, annotation in own.get("__annotations__", {}).items():
        kind = (annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")).strip()
        if kind.startswith(("ClassVar", "typing.ClassVar")):
            continue  # a class attribute
        if kind.startswith(("InitVar", "dataclasses.InitVar")):
            raise TypeError(f"{cls.__name__}.{name}: a record class made by struct has no InitVar")
        value = own.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        if isinstance(f.default, list | dict | set):
            raise ValueError(f"mutable default {type(f.default).__name__} for field {name}: use default_factory")
        f.name = name
        f.type = annotation
        new.append(f)
    fields = tuple(inherited + new)
    names = [f.name for f in fields]
    seen_default = False
    for f in fields:
        if f.default is MISSING and f.default_factory is MISSING:
            if seen_default:
                raise TypeError(f"non-default field {f.name!r} follows a field with a default")
        else:
            seen_default = True

    declared = {f.name for f in new}
    body = {k: v for k, v in own.items() if k not in declared and k not in ("__dict__", "__weakref__")}
    body["__slots__"] = tuple(f.name for f in new)
    body["__struct_fields__"] = fields
    body["__match_args__"] = tuple(names)
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if not explicit_hash:
        body.pop("__hash__", None)
    out = type(cls)(cls.__name__, cls.__bases__, body)
    out.__qualname__ = cls.__qualname__

    compared = tuple(f.name for f in fields if f.compare)
    setters = tuple(_slot_setter(out, n) for n in names) if frozen else ()
    env: dict[str, Any] = {"_FACTORY": _FACTORY}
    params = []
    lines = []
    for i, f in enumerate(fields):
        n = f.name
        if frozen:
            env[f"_set_{n}"] = setters[i]
            assign = f"_set_{n}(self, {{}})"
        else:
            assign = f"self.{n} = {{}}"
        if f.default_factory is not MISSING:
            env[f"_factory_{n}"] = f.default_factory
            params.append(f"{n}=_FACTORY")
            lines.append("    " + assign.format(f"_factory_{n}() if {n} is _FACTORY else {n}"))
        else:
            if f.default is not MISSING:
                env[f"_default_{n}"] = f.default
                params.append(f"{n}=_default_{n}")
            else:
                params.append(n)
            lines.append("    " + assign.format(n))
    exec("\n".join([f"def __init__(self, {', '.join(params)}):", *lines, "    pass"]), env)  # noqa: S102
    init = env["__init__"]
    init.__annotations__ = {f.name: f.type for f in fields} | {"return": None}
    values = _getter(compared)
    all_values = _getter(tuple(names))
    init.__qualname__ = f"{out.__qualname__}.__init__"
    out.__init__ = init  # type: ignore[misc]

    if want_repr and "__repr__" not in own:
        shown = tuple(f.name for f in fields if f.repr)
        out.__repr__ = _repr_of(shown)  # type: ignore[method-assign]
    if "__eq__" not in own:
        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return values(self) == values(other)
            return NotImplemented
        out.__eq__ = __eq__  # type: ignore[method-assign]
    if not explicit_hash:
        if frozen:
            out.__hash__ = lambda self: hash(values(self))  # type: ignore[method-assign]
        else:
            out.__hash__ = None  # type: ignore[assignment]
    if frozen:
        def __setattr__(self: Any, name: str, value: Any) -> None:
            if type(self) is out or name in names:
                raise FrozenInstanceError(f"cannot assign to field {name!r}")
            super(out, self).__setattr__(name, value)

        def __delattr__(self: Any, name: str) -> None:
            if type(self) is out or name in names:
                raise FrozenInstanceError(f"cannot delete field {name!r}")
            super(out, self).__delattr__(name)

        def __getstate__(self: Any) -> tuple[Any, ...]:
            return all_values(self)

        def __setstate__(self: Any, state: tuple[Any, ...]) -> None:
            for put, v in zip(setters, state, strict=True):
                put(self, v)

        out.__setattr__ = __setattr__  # type: ignore[method-assign,assignment]
        out.__delattr__ = __delattr__  # type: ignore[method-assign,assignment]
        out.__getstate__ = __getstate__  # type: ignore[attr-defined]
        out.__setstate__ = __setstate__  # type: ignore[attr-defined]
    return out


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The slot descriptor's ``__set__`` of field ``name`` (from the class that declares it)."""
    for c in cls.__mro__:
        d = c.__dict__.get(name)
        if d is not None and hasattr(d, "__set__"):
            return d.__set__  # type: ignore[no-any-return]
    raise TypeError(f"{cls.__name__} has no slot {name!r}")  # pragma: no cover - made by _make


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the values of ``names`` of an object, as a tuple."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _repr_of(names: tuple[str, ...]) -> Callable[[Any], str]:
    active: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = (id(self), get_ident())
        if key in active:  # a record that holds itself
            return "..."
        active.add(key)
        try:
            inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        finally:
            active.discard(key)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def fields(cls_or_obj: Any) -> tuple[Any, ...]:
    """The fields of a record class made by :func:`struct` (or of a dataclass), in order; each has
    ``name``, ``default`` and ``default_factory`` (:data:`MISSING` when not set)."""
    cls = cls_or_obj if isinstance(cls_or_obj, type) else type(cls_or_obj)
    got = getattr(cls, "__struct_fields__", None)
    if got is not None:
        return got  # type: ignore[no-any-return]
    import dataclasses

    out = []
    for f in dataclasses.fields(cls):
        g = Field(MISSING if f.default is dataclasses.MISSING else f.default,
                  MISSING if f.default_factory is dataclasses.MISSING else f.default_factory, f.compare, f.repr)
        g.name = f.name
        out.append(g)
    return tuple(out)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with some fields changed (like :func:`dataclasses.replace`)."""
    for f in fields(obj):
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
