"""``python -m notation``: the ``gammon`` command."""

from .cli import run

run()
