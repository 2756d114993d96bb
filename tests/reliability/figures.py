"""The figures the closing note of issue 7 quotes, collected while the suite runs.

Each test calls :func:`record` with its numbers: the line is printed at once (visible with
``-s``) and kept; ``conftest.py`` prints them all in the terminal summary and writes them as
JSON next to pytest's temporary directory.
"""

from __future__ import annotations

from typing import Any

FIGURES: dict[str, dict[str, Any]] = {}


def record(test: str, **values: Any) -> None:
    """Keep (and print) one test's figures; a second call for the same test adds to them."""
    FIGURES.setdefault(test, {}).update(values)
    print(f"[reliability] {test}: " + ", ".join(f"{k}={v}" for k, v in FIGURES[test].items()))


def add(test: str, key: str, n: int) -> None:
    """Add ``n`` to a counter of one test (no printing; for per-example counts)."""
    FIGURES.setdefault(test, {})
    FIGURES[test][key] = FIGURES[test].get(key, 0) + n
