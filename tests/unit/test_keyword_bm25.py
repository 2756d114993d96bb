"""Tests for falkmem.keyword.bm25: Okapi BM25 with Lucene idf over a candidate set."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem.errors import InputError
from falkmem.keyword import bm25_idf, bm25_scores
from falkmem.keyword.bm25 import bm25_scores_from_counts


def test_idf_is_lucene_formula_and_positive() -> None:
    assert bm25_idf(1, 10) == pytest.approx(math.log(1 + 9.5 / 1.5))
    assert bm25_idf(10, 10) > 0
    assert bm25_idf(50, 10) > 0  # stale statistics never give a negative idf
    assert bm25_idf(1, 100) > bm25_idf(50, 100)


def test_rare_term_beats_common_term() -> None:
    docs = [("rare", ["helios", "filler"]), ("common", ["meeting", "filler"])]
    scores = bm25_scores(
        ["helios", "meeting"], docs, df={"helios": 2, "meeting": 900}, n_docs=1000, avgdl=2.0
    )
    assert scores["rare"] > scores["common"] > 0


def test_shorter_document_scores_higher() -> None:
    short = ("short", ["helios", "launch"])
    long_ = ("long", ["helios", "launch"] + ["filler"] * 30)
    scores = bm25_scores(["helios"], [short, long_], df={"helios": 5}, n_docs=100, avgdl=10.0)
    assert scores["short"] > scores["long"] > 0


def test_repeated_terms_saturate() -> None:
    def score(tf: int) -> float:
        doc = ("d", ["helios"] * tf + ["x"] * (20 - tf))
        return bm25_scores(["helios"], [doc], df={"helios": 3}, n_docs=100, avgdl=20.0)["d"]

    s1, s2, s10, s20 = score(1), score(2), score(10), score(20)
    assert s1 < s2 < s10 < s20
    assert (s20 - s10) < (s2 - s1)  # diminishing returns
    idf = bm25_idf(3, 100)
    assert s20 < idf * (1.2 + 1)  # bounded by idf * (k1 + 1)


def test_every_doc_gets_a_score_and_misses_are_zero() -> None:
    scores = bm25_scores(["x"], [("a", ["x"]), ("b", ["y"]), ("c", [])], df={"x": 1}, n_docs=3, avgdl=1.0)
    assert set(scores) == {"a", "b", "c"}
    assert scores["b"] == scores["c"] == 0.0 and scores["a"] > 0


def test_duplicate_query_terms_count_once() -> None:
    docs = [("a", ["x", "y"])]
    once = bm25_scores(["x"], docs, df={"x": 1}, n_docs=10, avgdl=2.0)
    twice = bm25_scores(["x", "x"], docs, df={"x": 1}, n_docs=10, avgdl=2.0)
    assert once == twice


@pytest.mark.parametrize(
    ("df", "n_docs", "avgdl"),
    [({}, 0, 0.0), ({"x": 0}, 0, 0.0), ({"x": 0}, 5, -1.0), ({}, 1, float("nan"))],
)
def test_degenerate_statistics_are_repaired(df: dict[str, int], n_docs: int, avgdl: float) -> None:
    scores = bm25_scores(["x"], [("a", ["x", "y"]), ("b", ["y"])], df=df, n_docs=n_docs, avgdl=avgdl)
    assert all(math.isfinite(v) for v in scores.values())
    assert scores["a"] > 0 and scores["b"] == 0.0


def test_empty_inputs() -> None:
    assert bm25_scores([], [("a", ["x"])], df={}, n_docs=1, avgdl=1.0) == {"a": 0.0}
    assert bm25_scores(["x"], [], df={}, n_docs=0, avgdl=0.0) == {}


def test_repeated_doc_id_keeps_best_score() -> None:
    docs = [("a", ["y"]), ("a", ["x"])]
    scores = bm25_scores(["x"], docs, df={"x": 1}, n_docs=2, avgdl=1.0)
    assert scores["a"] > 0


def test_bad_parameters_raise() -> None:
    with pytest.raises(InputError):
        bm25_scores(["x"], [], df={}, n_docs=0, avgdl=0.0, k1=-1.0)
    with pytest.raises(InputError):
        bm25_scores(["x"], [], df={}, n_docs=0, avgdl=0.0, b=1.5)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from("abcdx"), max_size=12), max_size=6),
    st.lists(st.sampled_from("abcz"), min_size=1, max_size=4),
    st.integers(min_value=0, max_value=50),
    st.floats(min_value=0.0, max_value=20.0),
)
def test_counts_give_the_same_scores_as_tokens(
    token_lists: list[list[str]], query: list[str], n_docs: int, avgdl: float
) -> None:
    docs = [(f"d{i}", tokens) for i, tokens in enumerate(token_lists)]
    counted = [
        (i, {t: tokens.count(t) for t in set(query) if t in tokens}, len(tokens)) for i, tokens in docs
    ]
    df = {"a": 3, "b": 1}
    assert bm25_scores_from_counts(query, counted, df=df, n_docs=n_docs, avgdl=avgdl) == bm25_scores(
        query, docs, df=df, n_docs=n_docs, avgdl=avgdl
    )
