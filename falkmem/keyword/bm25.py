"""Okapi BM25 scoring of a candidate set, given corpus statistics kept by the engine."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..errors import InputError

__all__ = ["bm25_idf", "bm25_scores", "bm25_scores_from_counts"]


def bm25_idf(df: int, n_docs: int) -> float:
    """Lucene's BM25 idf: ``log(1 + (N - df + 0.5) / (df + 0.5))``, always > 0.

    ``n_docs`` is raised to ``df`` when the statistics lag behind (a term counted in more
    documents than the corpus size, e.g. right after a write), so the idf never goes negative.

    Args:
        df: number of documents containing the term (negative values count as 0).
        n_docs: number of documents in the corpus.

    Returns:
        The idf weight.
    """
    df = max(df, 0)
    n = max(n_docs, df)
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def bm25_scores(
    query_terms: Sequence[str],
    docs: Sequence[tuple[str, Sequence[str]]],
    *,
    df: Mapping[str, int],
    n_docs: int,
    avgdl: float,
    k1: float = 1.2,
    b: float = 0.75,
) -> dict[str, float]:
    """Okapi BM25 score of each document for the query, higher is better.

    FalkorDB's full-text score is not BM25 (it ignores document length and quantises idf;
    see falkordb-facts.md 3.1), so the keyword channel re-scores the documents the index
    matched with this function and corpus statistics the engine keeps.

    ``score(d) = sum over unique query terms t of
    idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))``.

    Degenerate statistics are repaired instead of failing: a term whose ``df`` is missing or
    smaller than the number of given documents containing it gets the latter; ``n_docs`` is
    raised to at least ``len(docs)``; ``avgdl <= 0`` is replaced by the mean length of the
    given documents (or 1).

    Args:
        query_terms: the query's terms, already tokenised like the documents (duplicates are
            counted once).
        docs: ``(id, tokens)`` pairs. A repeated id keeps its highest score.
        df: document frequency per term in the whole corpus.
        n_docs: number of documents in the corpus.
        avgdl: average document length (in tokens) in the corpus.
        k1: term-frequency saturation (>= 0). 1.2 is the Lucene default.
        b: length normalisation in [0, 1]. 0.75 is the Lucene default.

    Returns:
        ``{doc id: score}`` for every given document (0.0 when no query term occurs in it).

    Raises:
        InputError: ``k1`` is negative or ``b`` is outside [0, 1].

    Example:
        >>> s = bm25_scores(["helios"], [("a", ["helios", "launch"]), ("b", ["launch"])],
        ...                 df={"helios": 1}, n_docs=2, avgdl=1.5)
        >>> s["a"] > s["b"] == 0.0
        True
    """
    terms = list(dict.fromkeys(query_terms))
    wanted = set(terms)
    counts: list[tuple[str, dict[str, int], int]] = []
    for doc_id, tokens in docs:
        tf: dict[str, int] = {}
        for token in tokens:
            if token in wanted:
                tf[token] = tf.get(token, 0) + 1
        counts.append((doc_id, tf, len(tokens)))
    return bm25_scores_from_counts(terms, counts, df=df, n_docs=n_docs, avgdl=avgdl, k1=k1, b=b)


def bm25_scores_from_counts(
    query_terms: Sequence[str],
    docs: Sequence[tuple[str, Mapping[str, int], int]],
    *,
    df: Mapping[str, int],
    n_docs: int,
    avgdl: float,
    k1: float = 1.2,
    b: float = 0.75,
) -> dict[str, float]:
    """:func:`bm25_scores` on documents given as ``(id, {term: frequency}, length)``.

    The keyword channel counts only the query's terms in each candidate (see
    ``keyword.stem.stem_counts``) instead of building every candidate's token list twice.
    Terms missing from a document's counts occur 0 times; the same repairs and errors apply.

    Example:
        >>> s = bm25_scores_from_counts(["helios"], [("a", {"helios": 1}, 2), ("b", {}, 1)],
        ...                             df={"helios": 1}, n_docs=2, avgdl=1.5)
        >>> s["a"] > s["b"] == 0.0
        True
    """
    if not (k1 >= 0.0 and math.isfinite(k1)):
        raise InputError("k1", "must be a finite number >= 0")
    if not (0.0 <= b <= 1.0):
        raise InputError("b", "must be between 0 and 1")
    terms = list(dict.fromkeys(query_terms))
    local_df: dict[str, int] = dict.fromkeys(terms, 0)
    for _, tf, _ in docs:
        for term in terms:
            if tf.get(term, 0) > 0:
                local_df[term] += 1

    n = max(n_docs, len(docs))
    if not (avgdl > 0.0 and math.isfinite(avgdl)):
        total = sum(length for _, _, length in docs)
        avgdl = total / len(docs) if docs and total > 0 else 1.0
    idf = {t: bm25_idf(max(df.get(t, 0), local_df[t]), n) for t in terms}

    scores: dict[str, float] = {}
    for doc_id, tf, length in docs:
        norm = k1 * (1.0 - b + b * length / avgdl)
        score = 0.0
        for term in terms:  # fixed term order: the float sum is the same on every run
            freq = tf.get(term, 0)
            if freq:
                score += idf[term] * freq * (k1 + 1.0) / (freq + norm)
        if doc_id not in scores or score > scores[doc_id]:
            scores[doc_id] = score
    return scores
