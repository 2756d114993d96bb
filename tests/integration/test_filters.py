"""Search filters (session, user, agent, speaker, kind, since/until, metadata) on every channel
and route, composed with as_of, sync and async, on a real FalkorDB with the real MiniLM."""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Iterator

import pytest

from falkmem import AsyncTenant, InputError, Memory, Tenant
from falkmem.embedding.minilm import SentenceTransformerEmbedder
from falkmem.retrieval.filters import Filters, build_filters, metadata_pairs, pair
from falkmem.retrieval.vector import vector_search
from falkmem.storage.rows import is_whole
from tests.conftest import unique_tenant_id

PEOPLE = ["Priya", "Marcus", "Dana", "Omar", "Lena", "Kenji", "Sofia", "Ravi", "Ines", "Tom"]
TOPICS = [
    "the Helios launch budget", "a flight to Lisbon", "the quarterly hiring plan", "a database outage",
    "the new espresso machine", "the customer churn report", "a security audit", "the office move",
    "the Atlas team roadmap", "a late invoice from a supplier", "the marketing offsite", "a broken laptop",
]  # fmt: skip
VERBS = ["asked about", "wrote a note on", "complained about", "approved", "postponed", "summarised"]


def _texts(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    return [
        f"{rnd.choice(PEOPLE)} {rnd.choice(VERBS)} {rnd.choice(TOPICS)} on day {rnd.randint(1, 300)}."
        for _ in range(n)
    ]


# --- the model (no I/O) ------------------------------------------------------------------------


def test_metadata_pairs_are_canonical() -> None:
    assert pair("n", 2.0) == pair("n", 2) == '["n",2]'
    assert pair("b", True) != pair("b", 1)
    assert metadata_pairs('{"a": 1, "b": {"y": 2, "x": 1}}') == ['["a",1]', '["b",{"x":1,"y":2}]']
    assert metadata_pairs("{}") is None and metadata_pairs(None) is None


def test_build_filters_validates_and_names_the_field() -> None:
    assert build_filters() is None
    f = build_filters(session="s1", kind=["fact", "note"], metadata={"p": "x"}, since="2026-01-01")
    assert f is not None and f.sessions == ("s1",) and f.kinds == ("fact", "note")
    assert f.params()["f_meta"] == ['["p","x"]'] and f.params()["f_users"] is None
    for kwargs, field in [
        ({"kind": "bogus"}, "kind"), ({"session": ""}, "session"), ({"user": ["u", 3]}, "user"),
        ({"since": "yesterday"}, "since"), ({"metadata": {}}, "metadata"), ({"agent": "a\x01"}, "agent"),
        ({"since": "2026-02-01", "until": "2026-01-01"}, "until"), ({"metadata": {"k": object()}}, "metadata.k"),
    ]:  # fmt: skip
        with pytest.raises(InputError) as err:
            build_filters(**kwargs)  # type: ignore[arg-type]
        assert err.value.field == field, kwargs


# --- every channel and route -------------------------------------------------------------------


@pytest.fixture
def people(tenant: Tenant) -> Tenant:
    tenant.add_many(
        [
            {"id": "p1", "text": "Priya Chandran leads the Atlas team.", "session": "s1", "user": "dana",
             "speaker": "dana", "agent": "bot-a", "kind": "fact", "at": "2026-01-10T10:00Z",
             "metadata": {"project": "atlas", "prio": 1}},
            {"id": "p2", "text": "Priya Chandran leads the Atlas team in Berlin.", "session": "s2", "user": "omar",
             "speaker": "omar", "agent": "bot-b", "kind": "note", "at": "2026-02-10T10:00Z",
             "metadata": {"project": "atlas", "prio": 2}},
            {"id": "p3", "text": "Atlas team lead is Priya Chandran, says Omar.", "session": "s3", "user": "omar",
             "speaker": "lena", "agent": "bot-a", "kind": "episode", "at": "2026-03-10T10:00Z",
             "metadata": {"project": "helios", "prio": 1.0}},
            {"id": "p4", "text": "Priya Chandran reports to Marcus Webb.", "session": "s1", "user": "dana",
             "speaker": "dana", "agent": "bot-a", "kind": "fact", "at": "2026-04-10T10:00Z",
             "metadata": {"project": "atlas", "flag": True}},
        ]
    )  # fmt: skip
    return tenant


CASES = [
    ({"session": "s1"}, {"p1", "p4"}),
    ({"session": ["s2", "s3"]}, {"p2", "p3"}),
    ({"user": "omar"}, {"p2", "p3"}),
    ({"agent": "bot-b"}, {"p2"}),
    ({"speaker": "lena"}, {"p3"}),
    ({"kind": ["fact", "note"]}, {"p1", "p2", "p4"}),
    ({"since": "2026-02-10T10:00Z"}, {"p2", "p3", "p4"}),
    ({"until": "2026-02-10T10:00Z"}, {"p1"}),
    ({"metadata": {"project": "atlas"}}, {"p1", "p2", "p4"}),
    ({"metadata": {"prio": 1}}, {"p1", "p3"}),  # 1.0 stored: numbers compare as numbers
    ({"metadata": {"flag": True}}, {"p4"}),
    ({"metadata": {"project": "atlas", "prio": 2}}, {"p2"}),
    ({"session": "s1", "kind": "fact", "since": "2026-03-01"}, {"p4"}),
]


@pytest.mark.parametrize(("kwargs", "allowed"), CASES)
@pytest.mark.parametrize(
    "how", [{"channels": ["vector"]}, {"channels": ["keyword"]}, {"route": "vector"}, {"route": "hybrid"}]
)
def test_every_channel_and_route_returns_only_matching_memories(
    people: Tenant, kwargs: dict[str, object], allowed: set[str], how: dict[str, object]
) -> None:
    result = people.search("Who leads the Atlas team? Priya Chandran", k=10, **how, **kwargs)  # type: ignore[arg-type]
    got = set(result.ids)
    assert got <= allowed, (how, kwargs, got)
    if "keyword" not in str(how.get("channels")):  # the vector side finds every match when k allows
        assert got == allowed, (how, kwargs, got)


def test_filters_on_context_and_explain_and_hybrid_graph_channel(people: Tenant) -> None:
    q = "Who does the person who leads the Atlas team report to? Priya Chandran Marcus Webb"
    ex = people.explain(q, route="hybrid", session="s2")
    for name, found in ex.channels.items():
        assert {i for i, _ in found} <= {"p2"}, name
    assert set(ex.channels) >= {"vector", "keyword"}
    assert [h.id for h in ex.hits] == ["p2"]
    ctx = people.context(q, budget_tokens=200, user="dana")
    assert set(ctx.used) <= {"p1", "p4"} and ctx.used
    assert "Berlin" not in ctx.text and "Omar" not in ctx.text


def test_filters_compose_with_as_of(tenant: Tenant) -> None:
    tenant.add(
        "UA 837 arrives at 10:05.", id="v1", key="ua837", kind="fact", session="ops", at="2026-03-03T08:00Z"
    )
    tenant.add(
        "UA 837 now arrives at 11:40.",
        id="v2",
        key="ua837",
        kind="fact",
        session="ops",
        at="2026-03-03T09:00Z",
    )
    tenant.add("UA 837 arrives at gate B.", id="o1", kind="fact", session="other", at="2026-03-03T08:00Z")
    then = tenant.search("UA 837 arrival", as_of="2026-03-03T08:30Z", session="ops", k=5)
    assert then.ids == ["v1"]
    now = tenant.search("UA 837 arrival", session="ops", k=5)
    assert now.ids == ["v2"]
    assert tenant.search("UA 837 arrival", as_of="2026-03-03T08:30Z", session="nobody", k=5).ids == []


def test_async_filters(people: Tenant) -> None:
    at = AsyncTenant(people)

    async def go() -> tuple[set[str], set[str], set[str]]:
        s = await at.search("Priya leads Atlas", k=10, user="omar")
        c = await at.context("Priya leads Atlas", budget_tokens=200, kind="fact")
        e = await at.explain("Priya leads Atlas", metadata={"project": "helios"})
        return set(s.ids), set(c.used), {h.id for h in e.hits}

    s, c, e = asyncio.run(go())
    assert s == {"p2", "p3"} and c <= {"p1", "p4"} and c and e == {"p3"}


# --- selectivity: k hits when k exist, recall against exact filtered search ---------------------

N_ALL = 2000
N_RARE = 20  # 1 %


@pytest.fixture(scope="module")
def selective(mem: Memory, request: pytest.FixtureRequest) -> Iterator[tuple[Tenant, list[str]]]:
    tid = unique_tenant_id(request.node.nodeid, "-sel")
    mem.drop_tenant(tid)
    t = mem.tenant(tid)
    texts = _texts(N_ALL, seed=7)
    rare = set(random.Random(3).sample(range(N_ALL), N_RARE))
    t.add_many(
        [{"id": f"m{i}", "text": x, "session": "rare" if i in rare else f"s{i % 50}",
          "metadata": {"bucket": "rare" if i in rare else "common"}} for i, x in enumerate(texts)],
        batch_size=250,
    )  # fmt: skip
    yield t, [f"m{i}" for i in sorted(rare)]
    mem.drop_tenant(tid)


def _exact(embedder: SentenceTransformerEmbedder, t: Tenant, ids: list[str], q: str, k: int) -> list[str]:
    hits = t.get_many(ids)
    [qv] = embedder.embed([q])
    vs = embedder.embed([h.text for h in hits])

    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True)) / (
            math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
        )

    return [h.id for h, _ in sorted(zip(hits, vs, strict=True), key=lambda p: -cos(qv, p[1]))[:k]]


QUERIES = [
    "Who approved the Helios launch budget?", "flight to Lisbon", "database outage complaints",
    "the espresso machine", "security audit notes", "Atlas roadmap postponed", "late supplier invoice",
    "hiring plan summary", "customer churn", "office move",
]  # fmt: skip


def test_one_percent_filter_recall_against_exact_filtered_search(
    selective: tuple[Tenant, list[str]], embedder: SentenceTransformerEmbedder
) -> None:
    t, rare = selective
    recalls = []
    for q in QUERIES:
        exact = _exact(embedder, t, rare, q, 10)
        for kwargs in ({"session": "rare"}, {"metadata": {"bucket": "rare"}}):
            got = t.search(q, k=10, channels=["vector"], **kwargs)  # type: ignore[arg-type]
            assert len(got) == 10, kwargs  # k hits, although the unfiltered top-50 holds ~0.5 of them
            recalls.append(len(set(got.ids) & set(exact)) / 10)
    recall = sum(recalls) / len(recalls)
    print(f"1%-selective filter, recall@10 vs exact filtered search: {recall:.3f}")
    assert recall >= 0.95


def test_one_percent_filter_recall_when_the_knn_fetch_grows(
    selective: tuple[Tenant, list[str]], embedder: SentenceTransformerEmbedder, mem: Memory
) -> None:
    """The other path: graph pre-selection turned off (exact_max=0), the kNN fetch grows."""
    t, rare = selective
    eng = mem._engine
    recalls = []
    for q in QUERIES:
        exact = _exact(embedder, t, rare, q, 10)
        [qv] = embedder.embed([q])
        got = vector_search(
            eng.store.executor,
            t.graph,
            qv,
            k=10,
            fetch_k=50,
            filters=Filters(sessions=("rare",)),
            exact_max=0,
        )
        assert len(got) == 10
        assert all(is_whole(a) for a, _ in got)  # every row whole by default, however far it grew
        recalls.append(len({a["id"] for a, _ in got} & set(exact)) / 10)
    recall = sum(recalls) / len(recalls)
    print(f"1%-selective filter, growing kNN fetch, recall@10 vs exact: {recall:.3f}")
    assert recall >= 0.95


def test_selective_filter_returns_k_on_every_route(selective: tuple[Tenant, list[str]]) -> None:
    t, rare = selective
    for how in ({"route": "vector"}, {"route": "hybrid"}, {"channels": ["vector"]}):
        got = t.search("Priya approved the Helios launch budget", k=10, session="rare", **how)  # type: ignore[arg-type]
        assert len(got) == 10 and set(got.ids) <= set(rare), how
