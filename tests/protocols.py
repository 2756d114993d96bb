"""``assert_implements``: what a runtime-checkable Protocol's ``isinstance`` does not check.

``isinstance(obj, SomeProtocol)`` only looks for the members' names: a ``score(self)`` with
the wrong parameters passes it. This compares every method's parameters (names, kinds,
defaults) with the protocol's, and every attribute's value with its annotated type.
"""

from __future__ import annotations

import inspect
import typing
from typing import Any


def _params(fn: Any) -> list[tuple[str, Any, bool]]:
    sig = inspect.signature(fn)
    return [
        (p.name, p.kind, p.default is not inspect.Parameter.empty)
        for p in sig.parameters.values()
        if p.name != "self"
    ]


def assert_implements(obj: object, proto: type) -> None:
    """Fail unless ``obj`` has every member of ``proto`` with the same call signature and types."""
    assert isinstance(obj, proto), f"{type(obj).__name__} lacks a member of {proto.__name__}"
    hints = typing.get_type_hints(proto)
    for name in sorted(getattr(proto, "__protocol_attrs__", ())):
        declared = inspect.getattr_static(proto, name, None)
        if isinstance(declared, property):
            ret = typing.get_type_hints(declared.fget).get("return")
            value = getattr(obj, name)
            if isinstance(ret, type):
                assert isinstance(value, ret), f"{name}: {value!r} is not {ret.__name__}"
        elif inspect.isfunction(declared):
            impl = inspect.getattr_static(type(obj), name, None)
            assert callable(impl), f"{name} is not a method"
            assert _params(impl) == _params(declared), (
                f"{type(obj).__name__}.{name}{inspect.signature(impl)} does not match "
                f"{proto.__name__}.{name}{inspect.signature(declared)}"
            )
        elif name in hints:
            value = getattr(obj, name)
            hint = hints[name]
            if isinstance(hint, type):
                assert isinstance(value, hint), f"{name}: {value!r} is not {hint.__name__}"
