"""Query parameter values the driver sends as they are: a float vector formatted once.

falkordb-py writes every parameter into the query's ``CYPHER name=value ...`` header, one float
at a time through a recursive Python function: 0.16–0.22 ms for a 384-float vector, per query.
A search sends its question's vector twice (vector channel, graph channel) and ``add_many``
one per memory, always beside the embedder on a busy CPU. :class:`VectorParam` formats the
vector once, with one C-level ``%``-format per float, and the driver writes it with ``str()``
as it does any value of a type it does not know (``falkordb.helpers.stringify_param_value``;
``tests/integration/test_vector_param.py`` checks that through a real server, so a driver that
changed this would fail there, not silently). It is still a parameter: the query text never
changes, the value is a list literal in the parameter header, as the driver would write it.
"""

from __future__ import annotations

from collections.abc import Sequence

FLOAT32_DIGITS = 9
"""Significant digits that carry a float32 exactly (what ``vecf32`` makes of it)."""


class VectorParam:
    """A float vector as the Cypher list literal of a query parameter, formatted once.

    Args:
        values: the floats (finite; callers validate).
        digits: significant digits written. ``FLOAT32_DIGITS`` (9) round-trips every float32, so
            the server's ``vecf32`` sees exactly the vector it would have seen from the floats;
            fewer shortens the literal where a float32 is stored anyway (ingest writes 8, the
            precision of a float32 for all practical purposes, as it always has).

    >>> str(VectorParam([0.5, -0.25, 1e-05]))
    '[0.5,-0.25,1e-05]'
    >>> len(VectorParam([0.5, 1.0]))
    2
    """

    __slots__ = ("_literal", "_size")

    def __init__(self, values: Sequence[float], *, digits: int = FLOAT32_DIGITS) -> None:
        fmt = f"%.{digits}g"
        self._literal = "[" + ",".join([fmt % x for x in values]) + "]"
        self._size = len(values)

    def __str__(self) -> str:
        return self._literal

    def __repr__(self) -> str:
        return f"VectorParam(<{self._size} floats>)"

    def __len__(self) -> int:
        return self._size


def vector_param(values: Sequence[float] | VectorParam) -> VectorParam:
    """``values`` as a :class:`VectorParam` (itself when it is one already)."""
    return values if isinstance(values, VectorParam) else VectorParam(values)
