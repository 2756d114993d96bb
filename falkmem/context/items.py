"""The packer's input from a search: each hit as a :class:`~falkmem.context.pack.ContextItem`."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..models import Explain, Hit
from .pack import ContextItem
from .select import Triple

__all__ = ["FULL_BUDGET", "WIDE_BUDGET", "candidates_for", "context_items", "items_from_explain"]

FULL_BUDGET = 800
"""Up to this many tokens (the default budget) a context reads ``context_candidates`` memories."""
WIDE_BUDGET = 1200
"""From this many tokens a context reads twice ``context_candidates`` memories."""


def candidates_for(budget_tokens: int, candidates: int) -> int:
    """How many ranked memories a context of ``budget_tokens`` reads: ``candidates`` up to
    ``FULL_BUDGET`` tokens, twice as many from ``WIDE_BUDGET``, in proportion between (twenty
    short chat turns do not fill 1,200 tokens)."""
    if budget_tokens <= FULL_BUDGET:
        return candidates
    share = min(budget_tokens - FULL_BUDGET, WIDE_BUDGET - FULL_BUDGET) / (WIDE_BUDGET - FULL_BUDGET)
    return candidates + math.ceil(candidates * share)


def context_items(
    hits: Sequence[Hit],
    *,
    paths: Mapping[str, Sequence[Sequence[Triple]]] | None = None,
    via: Mapping[str, Sequence[str]] | None = None,
    as_of: bool = False,
) -> list[ContextItem]:
    """One item per hit, scored by rank (a reranker may have reordered the fused scores);
    ``paths`` become a graph hit's triples, ``via`` its bridges. ``as_of``: the search asked
    about a past time, so superseded memories are not marked as such."""
    paths = paths or {}
    via = via or {}
    n = len(hits)
    return [
        ContextItem(
            id=h.id, text=h.text, score=float(n - rank), session=h.session, at=h.valid_at, kind=h.kind,
            triples=tuple(dict.fromkeys(tuple(t) for p in paths.get(h.id, ()) for t in p)),  # type: ignore[misc]
            superseded=h.status == "superseded" and not as_of, speaker=h.speaker, via=tuple(via.get(h.id, ())),
        )
        for rank, h in enumerate(hits)
    ]  # fmt: skip


def items_from_explain(e: Explain, *, as_of: bool = False) -> list[ContextItem]:
    """The items ``Tenant.context`` would pack for the search ``e`` describes (for benchmarks)."""
    paths = {i: [[tuple(t) for t in p] for p in ps] for i, ps in e.paths.items()}
    return context_items(e.hits, paths=paths, via=e.via, as_of=as_of)  # type: ignore[arg-type]
