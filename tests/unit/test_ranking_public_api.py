"""Public surface and docstring examples of falkmem.keyword, falkmem.ranking, falkmem.context."""

from __future__ import annotations

import doctest
import importlib

import pytest

PACKAGES = ["falkmem.keyword", "falkmem.ranking", "falkmem.context"]
MODULES = [
    "falkmem.keyword.tokens",
    "falkmem.keyword.bm25",
    "falkmem.ranking.fusion",
    "falkmem.ranking.rerank",
    "falkmem.context.tokens",
    "falkmem.context.pack",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_is_sorted_and_importable(name: str) -> None:
    package = importlib.import_module(name)
    exported = list(package.__all__)
    # isort-style order (what ruff's RUF022 keeps): CONSTANTS, then Classes, then functions
    assert exported == sorted(exported, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))
    for attr in exported:
        obj = getattr(package, attr)
        if attr.isupper():  # a constant: a plain value
            assert isinstance(obj, (int, float, str, frozenset)), attr
        else:  # a class or function defined in one of the package's own modules
            assert callable(obj) and obj.__module__.startswith(name + "."), attr
    # nothing public is left out of __all__
    own = {
        n for n, o in vars(package).items()
        if not n.startswith("_") and getattr(o, "__module__", "").startswith(name + ".") and callable(o)
    }  # fmt: skip
    assert own <= set(exported)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__ and len(module.__doc__.strip().splitlines()) == 1
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
