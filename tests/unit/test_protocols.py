"""Every shipped implementation really implements its protocol: signatures and types, not only
member names as ``isinstance`` on a runtime-checkable Protocol checks (issue 12, item 15)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from falkmem.context.tokens import RegexTokenCounter, TokenCounter
from falkmem.embedding.base import Embedder
from falkmem.evolution.classifier import Classifier, LLMClassifier
from falkmem.extraction import LLMExtractor, RuleExtractor
from falkmem.extraction.types import Extractor
from falkmem.ranking.rerank import CrossEncoderReranker, NoReranker, Reranker
from falkmem.testing import HashEmbedder
from tests.protocols import assert_implements


@pytest.mark.parametrize(
    ("make", "proto"),
    [
        (NoReranker, Reranker),
        (lambda: CrossEncoderReranker("/nowhere"), Reranker),
        (RegexTokenCounter, TokenCounter),
        (lambda: HashEmbedder(8), Embedder),
        (RuleExtractor, Extractor),
        (lambda: LLMExtractor(api_key="x"), Extractor),
        (lambda: LLMClassifier(api_key="x"), Classifier),
    ],
)
def test_shipped_implementations_match_their_protocol(make: object, proto: type) -> None:
    assert_implements(make(), proto)  # type: ignore[operator]


class _WrongScore:
    name = "wrong"

    def score(self, passages: Sequence[str]) -> list[float]:  # no query parameter
        return [0.0] * len(passages)


class _NameNotStr:
    name = 3

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        return [0.0] * len(passages)


@pytest.mark.parametrize("impostor", [_WrongScore(), _NameNotStr()])
def test_isinstance_is_fooled_but_the_check_is_not(impostor: object) -> None:
    assert isinstance(impostor, Reranker)  # what the old tests relied on
    with pytest.raises(AssertionError):
        assert_implements(impostor, Reranker)
