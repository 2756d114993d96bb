"""The README's relational question among look-alike chains (issue 23): the walk follows the
relations the question names (manages, leads, built) over typed RELATED_TO edges.

The tenant holds the Helios facts as the README writes them (``kind="fact"``), a dozen chains of
the same shape ("The Orion team built Project Apollo.", "<lead> leads the Orion team.", "<lead>
reports to <boss>.") and a few more facts about Atlas and Helios. Asked "Who manages the person
who leads the team that built Project Helios?", the answer (Marcus Webb) is two typed edges from
the bridge entity "Atlas team" (leads, reports_to) and shares no word with the question.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from falkmem import Memory, Tenant, demo

QUESTION = "Who manages the person who leads the team that built Project Helios?"
HELIOS = [
    ("h1", "Atlas team built Project Helios."),
    ("h2", "Priya Chandran leads the Atlas team."),
    ("h3", "Priya Chandran reports to Marcus Webb."),
    ("h4", "Marcus Webb is the VP of Engineering."),
]
ABOUT_ATLAS_AND_HELIOS = [
    ("a1", "The Atlas team is based in the Bangalore office."),
    ("a2", "The Atlas team uses Kubernetes for every deployment."),
    ("a3", "Project Helios launched in March 2024."),
    ("a4", "Project Helios is the new payments platform."),
    ("a5", "The Atlas team has eight engineers."),
]
CHAINS = [
    ("Orion", "Apollo", "Dev Malhotra", "Sara Lindqvist"), ("Vega", "Borealis", "Tomas Ferreira", "Helen Achebe"),
    ("Lyra", "Cascade", "Mei Tanaka", "Omar Haddad"), ("Nova", "Drift", "Lena Novak", "Kwame Mensah"),
    ("Cygnus", "Ember", "Jonas Berg", "Aisha Rahman"), ("Draco", "Fjord", "Carlos Mendez", "Yuki Sato"),
    ("Pegasus", "Granite", "Nadia Petrova", "Samuel Okafor"), ("Hydra", "Harbor", "Ravi Iyer", "Clara Dubois"),
    ("Phoenix", "Iris", "Ana Souza", "Peter Kowalski"), ("Aquila", "Juniper", "Leo Fischer", "Fatima Zahra"),
    ("Perseus", "Kestrel", "Grace Kim", "Ivan Volkov"), ("Auriga", "Lumen", "Noah Weber", "Elena Rossi"),
]  # fmt: skip


def _records() -> list[dict[str, Any]]:
    out = [
        {"id": i, "text": text, "kind": "fact", "session": "helios"}
        for i, text in HELIOS + ABOUT_ATLAS_AND_HELIOS
    ]
    for n, (team, project, lead, boss) in enumerate(CHAINS):
        for part, text in (("a", f"The {team} team built Project {project}."), ("b", f"{lead} leads the {team} team."),
                           ("c", f"{lead} reports to {boss}.")):  # fmt: skip
            out.append({"id": f"d{n}{part}", "text": text, "kind": "fact", "session": f"chain-{n}"})
    return out


@pytest.fixture
def helios(tenant: Tenant) -> Tenant:
    tenant.add_many(_records())
    return tenant


def _without_walk(t: Tenant, store_path: Path) -> Memory:
    url = os.environ.get("FALKMEM_TEST_URL")
    kwargs: dict[str, Any] = {"embedder": t._engine.embedder, "off": ["walk"]}
    return Memory(url=url, **kwargs) if url else Memory(store_path, **kwargs)


def test_marcus_webb_is_in_the_first_three_hits(helios: Tenant) -> None:
    found = helios.search(QUESTION, k=3)
    assert any("Marcus Webb" in h.text for h in found), [h.text for h in found]
    assert "h3" in found.ids  # the fact that answers: "Priya Chandran reports to Marcus Webb."
    assert found.plan is not None
    assert found.plan.relation_words == ("manages", "leads", "built") and found.plan.depth == 2


def test_a_150_token_context_names_marcus_webb(helios: Tenant) -> None:
    ctx = helios.context(QUESTION, budget_tokens=150)
    assert "Marcus Webb" in ctx.text, ctx.text
    assert ctx.tokens <= 150


def test_without_the_walk_the_chain_stops_at_the_lead(helios: Tenant, store_path: Path) -> None:
    with _without_walk(helios, store_path) as plain:
        found = plain.tenant(helios.id).search(QUESTION, k=8)
    assert "h2" in found.ids  # "Priya Chandran leads the Atlas team." is reached...
    assert not any("Marcus Webb" in h.text for h in found), [h.text for h in found]  # ...and there it stops


def test_explain_shows_the_chain_the_walk_followed(helios: Tenant) -> None:
    e = helios.explain(QUESTION, k=5)
    assert {"manages", "reports_to", "leads", "built"} <= set(e.plan.relations)
    steps = {tuple(step) for path in e.paths["h3"] for step in path}
    assert ("Priya Chandran", "reports_to", "Marcus Webb") in steps
    assert e.depth_reached == 3  # memory → Atlas team → Priya Chandran → Marcus Webb
    # only the relations the question asks: no co-mention or based_in/uses edge was walked
    walked = {step[1] for paths in e.paths.values() for path in paths for step in path}
    assert walked <= set(e.plan.relations), walked
    # the look-alike chains' facts (reached from the weaker seeds) stay below the chain's
    graph = dict(e.channels["graph"])
    assert all(score < graph["h3"] for i, score in graph.items() if i.startswith("d")), graph
    assert not any(h.id.startswith("d") for h in e.hits[:5]), [h.id for h in e.hits]


def test_co_mention_is_not_walked_when_the_question_asks_typed_relations(helios: Tenant) -> None:
    helios.add("Priya Chandran and Tomas Ferreira met at the offsite.", id="m1", kind="fact")
    e = helios.explain(QUESTION, k=8)
    assert not any("Tomas Ferreira" in step for paths in e.paths.values() for path in paths for step in path)
    assert "d1c" not in e.paths  # "Tomas Ferreira reports to Helen Achebe." is not on the chain


def test_a_question_that_names_no_relation_does_not_walk(helios: Tenant, store_path: Path) -> None:
    q = "What do we know about Project Helios?"
    e = helios.explain(q, k=8)
    assert e.plan.route == "hybrid" and e.plan.relations == () and e.plan.depth == 0
    with _without_walk(helios, store_path) as plain:
        off = plain.tenant(helios.id).explain(q, k=8)
    assert e.channels["graph"] == off.channels["graph"] and e.fused == off.fused


def test_the_walk_honours_filters(helios: Tenant) -> None:
    # a note (a fact of the same key would supersede h3: reports_to is single-valued)
    helios.add("Priya Chandran reports to Dana Whitfield.", id="x1", kind="note", session="other")
    assert "x1" in helios.search(QUESTION, k=10).ids  # reached without the filter
    found = helios.search(QUESTION, k=10, session="helios")
    assert "x1" not in found.ids and "h3" in found.ids
    assert set(found.ids) <= {i for i, _ in HELIOS + ABOUT_ATLAS_AND_HELIOS}


def test_make_demo_puts_the_reports_to_fact_in_the_top_three(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert demo.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    block = out.split(f"Q: {QUESTION}", 1)[1].split("\n\n", 1)[0]
    hits = block.splitlines()[1:4]
    assert any("Priya Chandran reports to Marcus Webb." in line for line in hits), block
