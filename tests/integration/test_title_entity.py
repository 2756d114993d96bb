"""A titled memory is about its whole title: "How I Met Your Mother" is an entity of the passage
so titled (the names inside the title are "Met Your Mother"), so a question that names the show
reaches the passage about it through the graph channel's named entities (MuSiQue-200: "Who plays
Marty's girlfriend in Back to the Future?" found the film's passage only this way)."""

from __future__ import annotations

from falkmem import Tenant

PASSAGES = [
    ("himym", "How I Met Your Mother\nHow I Met Your Mother is an American sitcom. The narrator is "
              "voiced by Bob Saget."),
    ("barney", "Barney Stinson\nBarney Stinson is a character played by Neil Patrick Harris in How I Met Your Mother."),
    ("mother", "Mother\nA mother is the female parent of a child."),
    ("met", "Met Office\nThe Met Office is the United Kingdom's national weather service."),
    ("friends", "Friends\nFriends is an American sitcom narrated by nobody in particular."),
]  # fmt: skip


def test_a_question_naming_a_whole_title_follows_it_to_the_passage_about_it(tenant: Tenant) -> None:
    tenant.add_many([{"id": i, "text": text, "kind": "document"} for i, text in PASSAGES])
    e = tenant.explain("Who voices the narrator of How I Met Your Mother?")
    assert e.plan is not None
    assert "how i met your mother" in [key for key, _ in e.plan.entities]
    assert [h.id for h in e.hits][:1] == ["himym"]
    assert "graph" in e.hits[0].channels  # reached as the memory about the entity the question names


def test_migration_15_gives_older_tenants_their_title_entities(tenant: Tenant) -> None:
    from falkmem.storage.cypher import query
    from tests.helpers import test_query

    tenant.add_many([{"id": i, "text": text, "kind": "document"} for i, text in PASSAGES])
    tenant.add("How I Met Your Mother\nI keep rewatching it.", id="turn", speaker="user", session="s")
    store, ex = tenant._engine.store, tenant._engine.store.executor
    ex.run(tenant.graph, test_query("drop_title_entity"), {"key": "how i met your mother"})
    ex.run(tenant.graph, query("admin/set_schema_version"), {"version": 14, "now": 0.0})
    store.forget_cached(tenant.id)
    assert store.meta(tenant.id).schema_version >= 15  # migrated on open
    rows = ex.run(tenant.graph, test_query("title_links"), {"key": "how i met your mother"})
    assert [(r["id"], r["head"]) for r in rows] == [("himym", True)]  # the chat turn is left alone
    assert rows[0]["mentions"] == 1
    store.forget_cached(tenant.id)
    ex.run(tenant.graph, query("admin/set_schema_version"), {"version": 14, "now": 0.0})
    store.meta(tenant.id)  # run again: nothing more
    again = ex.run(tenant.graph, test_query("title_links"), {"key": "how i met your mother"})
    assert [(r["id"], r["head"], r["mentions"]) for r in again] == [("himym", True, 1)]
