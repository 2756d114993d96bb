"""``ranking/relevance.py``: a hit's evidence gathered from the channels, and the relevance the
shipped weights give it."""

from __future__ import annotations

import pytest

from falkmem.config import RECOMMENDED_MIN_RELEVANCE, RelevanceConfig
from falkmem.ranking.fusion import Fused
from falkmem.ranking.relevance import Evidence, evidence, match, on_topic, relevance

CFG = RelevanceConfig()


def test_evidence_reads_each_channel_and_the_question() -> None:
    fused = [
        Fused("v", 1.2, {"vector": 1, "keyword": 1}, {"vector": 0.7, "keyword": 3.0}),
        Fused("g", 0.9, {"graph": 1}, {"graph": 4.0}),
        Fused("k", 0.5, {"keyword": 2}, {"keyword": 1.0}, rerank_score=2.5),
    ]
    vector = [("v", 0.7), ("x1", 0.6), ("x2", 0.5), ("x3", 0.4), ("x4", 0.3), ("x5", 0.1)]
    ev = evidence(fused, vector=vector, similarity={"g": 0.45}, held={"v": 3.0, "k": 1.5}, mass=6.0,
                  max_idf=6.5)  # fmt: skip
    assert ev["v"] == Evidence(0.7, 0.5, 0.0, 0.7, 0.5, 0.5, None, 3.0, 6.5)  # near: mean of the first five
    assert ev["g"].cosine == 0.45 and ev["g"].graph == 4.0 and ev["g"].keyword == 0.0
    # found by keyword only: the weakest vector neighbour's cosine, as fusion counts it
    assert ev["k"].cosine == 0.1 and ev["k"].keyword == 0.25 and ev["k"].rerank == 2.5


def test_evidence_without_a_keyword_search_or_vector_list() -> None:
    ev = evidence([Fused("a", 0.3)], vector=[], similarity={"a": 0.3}, held={}, mass=0.0)
    assert ev["a"] == Evidence(0.3, 0.0, 0.0, 0.3, 0.3, 0.0, None, 0.0)


@pytest.mark.parametrize("field", ["cosine", "keyword"])
def test_more_evidence_never_lowers_relevance(field: str) -> None:
    base = Evidence(cosine=0.4, keyword=0.3, top_cosine=0.6, near_cosine=0.5, top_keyword=0.5)
    values = [relevance(Evidence(**{**_fields(base), field: v}), CFG) for v in (0.0, 0.2, 0.4, 0.6)]
    assert values == sorted(values) and values[0] < values[-1]


def test_an_off_topic_question_scores_below_the_threshold_an_on_topic_one_above() -> None:
    # a chat tenant (1,000 memories: largest idf 6.5) asked a trivia question: its nearest memory
    # is far, one holds a word of it
    off = Evidence(0.25, 0.5, top_cosine=0.25, near_cosine=0.2, top_keyword=0.5, top_held=6.0, max_idf=6.5)
    on = Evidence(0.62, 0.8, top_cosine=0.62, near_cosine=0.5, top_keyword=0.8, top_held=12.0, max_idf=6.5)
    assert relevance(off, CFG) < RECOMMENDED_MIN_RELEVANCE <= relevance(on, CFG)
    assert on_topic(off, CFG) < 0.1 < 0.9 < on_topic(on, CFG)


def test_a_match_counts_rare_words_whatever_the_tenant_size() -> None:
    # two rare words held: idf 2 x 6.5 of 6.5 in 1,000 memories, 2 x 1.8 of 1.8 in eight
    big = Evidence(0.3, 1.0, top_cosine=0.3, near_cosine=0.2, top_keyword=1.0, top_held=13.0, max_idf=6.5)
    small = Evidence(0.3, 1.0, top_cosine=0.3, near_cosine=0.2, top_keyword=1.0, top_held=3.6, max_idf=1.8)
    assert match(big) == match(small) == 2.0
    assert on_topic(big, CFG) == on_topic(small, CFG)
    assert match(Evidence(0.3, top_keyword=1.0, top_held=3.0)) == 0.0  # no keyword search: no match
    one = Evidence(0.3, 1.0, top_cosine=0.3, near_cosine=0.2, top_keyword=1.0, top_held=6.5, max_idf=6.5)
    assert on_topic(one, CFG) < on_topic(big, CFG)  # more rare words held: more surely on topic


def test_relevance_is_a_probability_at_the_extremes() -> None:
    for e in (
        Evidence(cosine=-1.0, top_cosine=-1.0, near_cosine=-1.0),
        Evidence(1.0, 1.0, 2.5, 1.0, 1.0, 1.0),
    ):
        assert 0.0 <= relevance(e, CFG) <= 1.0
    huge = RelevanceConfig(question_intercept=100, intercept=100)
    assert relevance(Evidence(cosine=1.0), huge) == 1.0


def test_the_reranker_counts_only_when_weighted() -> None:
    e = Evidence(cosine=0.5, top_cosine=0.6, near_cosine=0.5, rerank=5.0)
    assert relevance(e, CFG) == relevance(Evidence(cosine=0.5, top_cosine=0.6, near_cosine=0.5), CFG)
    assert relevance(e, CFG.model_copy(update={"rerank": 0.5})) > relevance(e, CFG)


def _fields(e: Evidence) -> dict[str, object]:
    return {n: getattr(e, n) for n in Evidence.__slots__}
