"""A command's common command lines read without click.

Importing click costs a command about 30 ms (2026-11-26: ``python -c 'import click'`` 44 ms against
11 ms for ``python -c pass``), more than ``gammon validate`` of a small file takes.  So ``gammon`` reads
the common command lines of ``validate``, ``convert``, ``show``, ``moves`` and ``render`` (their inputs
and their most used options) with :func:`read`, from a small table of those options, and leaves
everything else to click: other options, ``--help``, ``--``, a bad value, a missing one.  The tests hold
:func:`read` to click's own reading of each command (``tests/test_cli_quick_args.py``), so the two
cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Option = tuple[str, str, Any]
"""An option as :func:`read` takes it: the parameter's name, its kind (``flag``; ``str``, any value not
starting with ``-`` but ``-`` itself; ``int``, with the inclusive range as a pair; ``choice``, with the
choices, matched without regard to case as click's ``Choice(case_sensitive=False)`` does; ``exact``, the
same matched exactly, as click's ``Choice()``), and that range or those choices."""


def read(args: list[str], options: Mapping[str, Option], defaults: Mapping[str, Any],
         positional: str, *, one: bool = False) -> dict[str, Any] | None:
    """The parameters of ``args`` as click reads them, or None for anything but words (``-`` included;
    they go to ``positional``: a tuple of at least one, or with ``one`` exactly one word) and the
    ``options`` (each spelling of an option a key; a value as the next word or after ``=`` in a long
    option; an int in at most two ASCII digits)."""
    words: list[str] = []
    params = dict(defaults)
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "-" or not a.startswith("-"):
            words.append(a)
            continue
        name, eq, inline = a.partition("=") if a.startswith("--") else (a, "", "")
        option = options.get(name)
        if option is None:
            return None
        param, kind, arg = option
        if kind == "flag":
            if eq:
                return None
            params[param] = True
            continue
        if eq:
            value = inline
        elif i < len(args):
            value = args[i]
            i += 1
        else:
            return None
        if kind == "str":
            if value.startswith("-") and value != "-":
                return None  # (click's reading of a value that looks like an option is left to it)
            params[param] = value
        elif kind == "int":
            if not (value.isascii() and value.isdigit() and len(value) <= 2 and arg[0] <= int(value) <= arg[1]):
                return None
            params[param] = int(value)
        elif kind == "exact":
            if value not in arg:
                return None
            params[param] = value
        else:  # a choice
            found = [c for c in arg if c.casefold() == value.casefold()]
            if not found:
                return None
            params[param] = found[0]
    if not words or (one and len(words) != 1):
        return None
    params[positional] = words[0] if one else tuple(words)
    return params
