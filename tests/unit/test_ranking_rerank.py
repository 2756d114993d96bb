"""Tests for falkmem.ranking.rerank without a model: protocol, loading outcomes, head reranking."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from falkmem.errors import ConfigError, InputError, RerankError
from falkmem.ranking import (
    CrossEncoderReranker,
    Fused,
    NoReranker,
    Reranker,
    load_reranker,
    rerank,
)
from tests.protocols import assert_implements


class LengthReranker:
    """Scores a passage by its length: deterministic and model-free."""

    name = "length"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        self.calls.append(list(passages))
        return [float(len(p)) for p in passages]


class BrokenReranker:
    name = "broken"

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        return [1.0]


def fused(*ids: str) -> list[Fused]:
    return [Fused(i, 1.0 - n / 10) for n, i in enumerate(ids)]


TEXTS = {"a": "x", "b": "xxx", "c": "xx", "d": "xxxxxxx", "e": "xxxxx"}


def test_protocol_conformance() -> None:
    for reranker in (NoReranker(), LengthReranker(), CrossEncoderReranker("/nowhere")):
        assert_implements(reranker, Reranker)  # signatures and types, not only names
    assert NoReranker().name == "none"
    assert NoReranker().score("q", ["a", "b"]) == [0.0, 0.0]


def test_rerank_reorders_only_the_head() -> None:
    model = LengthReranker()
    out = rerank("q", fused("a", "b", "c", "d", "e"), TEXTS, model, top_n=3)
    assert [f.id for f in out] == ["b", "c", "a", "d", "e"]
    assert [f.rerank_score for f in out] == [3.0, 2.0, 1.0, None, None]
    assert model.calls == [["x", "xxx", "xx"]]  # the tail is never scored
    assert out[0].score == pytest.approx(0.9)  # fused score kept


def test_rerank_ties_keep_fused_order_and_missing_text_goes_after_scored() -> None:
    texts = {"a": "xx", "b": "xx", "d": "x"}
    out = rerank("q", fused("a", "b", "c", "d", "e"), texts, LengthReranker(), top_n=4)
    assert [f.id for f in out] == ["a", "b", "d", "c", "e"]
    assert out[3].rerank_score is None


def test_no_reranker_and_zero_top_n_keep_order() -> None:
    items = fused("a", "b", "c")
    assert rerank("q", items, TEXTS, NoReranker(), top_n=10) == items
    assert rerank("q", items, TEXTS, LengthReranker(), top_n=0) == items
    assert rerank("q", [], TEXTS, LengthReranker(), top_n=5) == []


def test_rerank_validates() -> None:
    with pytest.raises(InputError):
        rerank("q", fused("a"), TEXTS, LengthReranker(), top_n=-1)
    with pytest.raises(RerankError):
        rerank("q", fused("a", "b"), TEXTS, BrokenReranker(), top_n=2)


@pytest.mark.parametrize("spec", [None, "", "none", "NONE", "  off "])
def test_load_reranker_none(spec: str | None) -> None:
    outcome = load_reranker(spec)
    assert isinstance(outcome.reranker, NoReranker)
    assert outcome.note == "no reranker configured; ranked by fused score"
    assert not outcome.fell_back


def test_cross_encoder_settings_validated() -> None:
    with pytest.raises(ConfigError):
        CrossEncoderReranker("m", max_length=2)
    r = CrossEncoderReranker("m")
    assert r.name == "cross-encoder:m"
    assert r.score("q", []) == []  # nothing to score: no load attempted


def test_missing_sentence_transformers_is_a_rerank_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(RerankError, match="falkmem\\[rerank\\]"):
        CrossEncoderReranker("/nowhere").load()
    outcome = load_reranker("cross-encoder:/nowhere", on_error="fallback")
    assert isinstance(outcome.reranker, NoReranker)
    assert outcome.fell_back
    assert outcome.note.startswith("cross-encoder:/nowhere failed to load: ModuleNotFoundError")
