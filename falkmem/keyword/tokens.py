"""Keyword query terms: the words of a query that the keyword channel searches for."""

from __future__ import annotations

from ..text.tokens import STOPWORDS, tokenize

__all__ = ["query_terms"]


def _keep(token: str) -> bool:
    """Whether a token is worth searching for (not a stopword, not a lone ASCII letter)."""
    if token in STOPWORDS:
        return False
    if len(token) == 1:
        # A lone ASCII letter ("s" of "user's", "o" of "O'Brien") matches far too much; a lone
        # digit ("version 3") or a lone CJK ideograph is a real word and is kept.
        return not ("a" <= token <= "z")
    return True


def query_terms(text: str) -> list[str]:
    """The searchable terms of ``text``: tokens minus stopwords and lone letters, deduplicated.

    This is the term list the keyword channel searches the full-text index with (one term per
    index call), and the one BM25 re-scoring and sentence selection use, so all three agree on
    what the query "is about". A term is letters, digits and combining marks only: nothing of
    the full-text query syntax (``-``, ``@``, ``*``, ``|``, quotes, parentheses) survives.

    Args:
        text: the user's query (any text).

    Returns:
        Unique terms in first-occurrence order, e.g. ``query_terms("What did Bob say about
        ticket 837?")`` is ``["bob", "say", "ticket", "837"]``.
    """
    seen: dict[str, None] = {}
    for token in tokenize(text):
        if _keep(token) and token not in seen:
            seen[token] = None
    return list(seen)
