"""The store's ``index`` (LangGraph's ``IndexConfig``: ``dims``, ``embed``, ``fields``) and what a
search score is, with the real MiniLM behind each way of giving ``embed`` (issue 50)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence

import pytest

from falkmem import ConfigError, DimensionMismatch, Memory, Tenant
from falkmem.embedding.minilm import SentenceTransformerEmbedder
from falkmem.integrations.langgraph import FalkmemStore

from .conftest import MiniLMEmbeddings

DOCS = {
    "coffee": {"title": "Espresso machine manual", "body": "Descale the boiler every month.", "n": 1},
    "garden": {"title": "Tomato growing notes", "body": "Water the seedlings at dawn.", "n": 2},
    "bikes": {"title": "Bicycle repair log", "body": "The rear brake pads were replaced.", "n": 3},
}


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


def test_vector_ranking_scores_the_cosine_of_the_best_matching_field(
    mem: Memory, tenant: Tenant, embeddings: MiniLMEmbeddings
) -> None:
    store = FalkmemStore(
        mem, tenant=tenant.id, ranking="vector",
        index={"dims": 384, "embed": embeddings, "fields": ["title", "body"]},
    )  # fmt: skip
    for key, value in DOCS.items():
        store.put(("docs",), key, value)
    store.put(("docs",), "hidden", {"title": "Espresso beans", "body": "Dark roast."}, index=False)
    q = "how do I descale my espresso machine?"
    hits = store.search(("docs",), query=q, limit=10)
    assert hits[0].key == "coffee" and len(hits) == 4
    qv = embeddings.embed_query(q)
    for h in hits[:3]:
        fields = [DOCS[h.key]["title"], DOCS[h.key]["body"]]
        best = max(_cos(qv, v) for v in embeddings.embed_documents(fields))
        assert h.score == pytest.approx(best, abs=1e-3)  # score = cosine of the best field
    assert [h.score for h in hits[:3]] == sorted((h.score for h in hits[:3]), reverse=True)  # type: ignore[type-var]
    assert hits[3].key == "hidden" and hits[3].score is None  # unindexed items follow, unscored
    assert store.search(("docs",), query=q, limit=1, offset=3)[0].key == "hidden"
    # per-put fields override the store's: only "body" is embedded for this one
    store.put(("docs",), "coffee", DOCS["coffee"], index=["body"])
    again = next(h for h in store.search(("docs",), query=q) if h.key == "coffee")
    assert again.score == pytest.approx(
        _cos(qv, embeddings.embed_documents([DOCS["coffee"]["body"]])[0]), abs=1e-3
    )
    # a multi-field item is its memory plus one per field text; one field, one memory
    assert store.tenant.count() == 1 + (1 + 2) + (1 + 2) + 1


def test_routed_ranking_is_falkmems_retrieval_with_a_fused_score(mem: Memory, tenant: Tenant) -> None:
    store = FalkmemStore(mem, tenant=tenant.id, index=["title", "body"])
    assert store.ranking == "routed"
    for key, value in DOCS.items():
        store.put(("docs",), key, value)
    hits = store.search(("docs",), query="how do I descale my espresso machine?")
    assert hits[0].key == "coffee" and all(isinstance(h.score, float) for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)  # type: ignore[type-var]


@pytest.mark.parametrize("form", ["embeddings", "function", "async function", "minilm"])
def test_embed_may_be_an_embeddings_object_a_function_an_async_function_or_a_string(
    mem: Memory, tenant: Tenant, embedder: SentenceTransformerEmbedder, form: str
) -> None:
    def embed(texts: Sequence[str]) -> list[list[float]]:
        return embedder.embed(list(texts))

    async def aembed(texts: Sequence[str]) -> list[list[float]]:
        return await asyncio.to_thread(embedder.embed, list(texts))

    given = {"embeddings": MiniLMEmbeddings(embedder), "function": embed, "async function": aembed,
             "minilm": "minilm"}[form]  # fmt: skip
    store = FalkmemStore(mem, tenant=tenant.id, ranking="vector", index={"dims": 384, "embed": given})
    store.put(("docs",), "garden", DOCS["garden"])
    store.put(("docs",), "bikes", DOCS["bikes"])
    assert store.search(("docs",), query="tomato seedlings")[0].key == "garden"
    assert asyncio.run(store.asearch(("docs",), query="brake pads"))[0].key == "bikes"
    assert mem.admin.store.meta(tenant.id).dimension == 384


def test_a_tenant_opened_with_another_model_is_refused_naming_both(
    mem: Memory, tenant: Tenant, embedder: SentenceTransformerEmbedder, embeddings: MiniLMEmbeddings
) -> None:
    FalkmemStore(mem, tenant=tenant.id).put(("docs",), "garden", DOCS["garden"])  # the Memory's MiniLM

    with pytest.raises(ConfigError) as err:
        FalkmemStore(mem, tenant=tenant.id, index={"dims": 384, "embed": embeddings})
    msg = str(err.value)
    assert "index.embed" in msg and "all-MiniLM-L6-v2" in msg and "MiniLMEmbeddings" in msg and "384" in msg

    def short(texts: Sequence[str]) -> list[list[float]]:  # another model: 256 dimensions
        return [v[:256] for v in embedder.embed(list(texts))]

    with pytest.raises(ConfigError, match=r"384 dims.*256 dims"):
        FalkmemStore(mem, tenant=tenant.id, index={"dims": 256, "embed": short})
    assert FalkmemStore(mem, tenant=tenant.id).get(("docs",), "garden") is not None  # untouched


def test_vectors_of_the_wrong_size_are_refused_before_anything_is_written(
    mem: Memory, tenant: Tenant, embedder: SentenceTransformerEmbedder
) -> None:
    def liar(texts: Sequence[str]) -> list[list[float]]:  # claims 384, makes 383
        return [v[:383] for v in embedder.embed(list(texts))]

    store = FalkmemStore(mem, tenant=tenant.id, index={"dims": 384, "embed": liar})
    with pytest.raises(DimensionMismatch):
        store.put(("docs",), "garden", DOCS["garden"])
    assert store.get(("docs",), "garden") is None


@pytest.mark.parametrize(
    ("index", "key"),
    [
        ({"dims": 384, "embed": "no-such-provider:model"}, "index.embed"),
        ({"embed": "minilm"}, "index.dims"),
        ({"dims": 0, "embed": "minilm"}, "index.dims"),
        ({"dims": 384, "ann_index_config": {}}, "index.ann_index_config"),
        ({"distance_type": "l2"}, "index.distance_type"),
        ({"fields": "text"}, "index.fields"),
        ({"dims": 512}, "index.dims"),
        ({"dims": 384, "embed": 42}, "index.embed"),
    ],
)
def test_a_bad_index_is_an_error_naming_the_key(
    mem: Memory, tenant: Tenant, index: dict[str, object], key: str
) -> None:
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        FalkmemStore(mem, tenant=tenant.id, index=index)
    assert not mem.has_tenant(tenant.id)


def test_a_multi_field_item_being_overwritten_is_always_found_once(
    mem: Memory, tenant: Tenant, embeddings: MiniLMEmbeddings
) -> None:
    """Its field memories are written before its new version and erased after the old one: a
    vector-ranked search meanwhile finds the item exactly once, never an older version's fields."""
    import threading

    store = FalkmemStore(
        mem, tenant=tenant.id, ranking="vector",
        index={"dims": 384, "embed": embeddings, "fields": ["title", "body"]},
    )  # fmt: skip
    store.put(("docs",), "bikes", DOCS["bikes"])
    store.put(("docs",), "coffee", {**DOCS["coffee"], "n": 0})
    stop, seen, errors = threading.Event(), [], []

    def read() -> None:
        try:
            while not stop.is_set():
                hits = store.search(("docs",), query="descale the espresso machine", limit=5)
                seen.append([(h.key, h.value["n"]) for h in hits])
        except BaseException as exc:
            errors.append(exc)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for n in range(1, 25):
            store.put(("docs",), "coffee", {**DOCS["coffee"], "n": n})
    finally:
        stop.set()
        reader.join(60)
    assert not errors and len(seen) >= 5
    for hits in seen:
        assert [k for k, _ in hits].count("coffee") == 1 and hits[0][0] == "coffee"
    ns = [dict(h)["coffee"] for h in seen]
    assert ns == sorted(ns)  # never an older version after a newer one
    assert store.tenant.count() == 6  # two items, each its memory and two field memories
