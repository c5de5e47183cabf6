"""Constructors that skip a frozen record class's ``__init__``.

A frozen record class (:mod:`notation._struct`, or a dataclass) sets each field through
``object.__setattr__``, which costs several times a plain slot write.  Readers and the replay make a
small object for nearly every cell and play (spans, plays), so they use :func:`unchecked`: a function
generated once per class that writes the slots directly.  It checks nothing; callers pass values of
the right types, in field order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ._struct import MISSING, fields

T = TypeVar("T")


def unchecked(cls: type[T]) -> Callable[..., T]:
    """``make(*fields)`` building ``cls`` (a record class or dataclass with slots) without its
    ``__init__``; fields with a default may be left out."""
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    params, body = [], []
    for f in fields(cls):
        env[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is not MISSING:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        else:
            params.append(f.name)
        body.append(f"    _set_{f.name}(obj, {f.name})")
    source = "\n".join([f"def make({', '.join(params)}):", "    obj = _new(_cls)", *body, "    return obj"])
    exec(source, env)  # noqa: S102 - fixed, generated source
    make: Callable[..., T] = env["make"]
    make.__name__ = make.__qualname__ = f"new_{cls.__name__.lower()}"
    return make
