"""``lazy_module``: a stand-in for a module that imports it on its first attribute access, so the
command line's subcommands can name the admin modules without loading the engine for
``falkmem --help``.

Not ``importlib.util.LazyLoader``: its half-made module sits in ``sys.modules``, and any library
that walks ``sys.modules`` during an import (wordfreq's dependencies do) would execute it there,
in the middle of another import: a circular import. This stand-in is never in ``sys.modules``.
"""

from __future__ import annotations

import importlib
from typing import Any


class _LazyModule:
    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy_module(name: str) -> Any:
    """A stand-in for the module ``name``, imported (once, by Python's import system) on first use."""
    return _LazyModule(name)
