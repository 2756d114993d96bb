"""A long-lived reader routes on the entities another process wrote (issue 50): the known-entity
index was loaded once per process, so process B never learned "Priya Chandran" after process A
added her, and its plan named no entity (route vector) where a fresh process routes hybrid.
Likewise for forgets: once another process erased every memory about her, B kept routing on an
entity that was gone (the entity stamp moved with writes only)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from falkmem import Memory, Tenant
from tests.helpers import test_query

WRITER = """
import sys
from falkmem import Memory
from falkmem.embedding.minilm import minilm
url, path, tenant = sys.argv[1:4]
m = Memory(url=url, embedder=minilm()) if url else Memory(path, embedder=minilm())
t = m.tenant(tenant)
t.add("Priya Chandran leads the Atlas team.")
t.add("Priya Chandran plans the Q3 roadmap for Helios.")
m.close()
"""

FORGETTER = """
import sys
from falkmem import Memory
from falkmem.embedding.minilm import minilm
url, path, tenant = sys.argv[1:4]
m = Memory(url=url, embedder=minilm()) if url else Memory(path, embedder=minilm())
print(m.tenant(tenant).forget(session="priya").entities_removed)
m.close()
"""

QUESTION = "What does Priya Chandran plan?"


def _other_process_adds(store_path: Path, tenant_id: str, script: str = WRITER) -> str:
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }
    root = Path(__file__).resolve().parents[2]  # this checkout's falkmem, not an installed one
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    url = os.environ.get("FALKMEM_TEST_URL", "")
    done = subprocess.run(
        [sys.executable, "-c", script, url, str(store_path), tenant_id],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_search_sees_the_entities_another_process_wrote(
    mem: Memory, tenant: Tenant, store_path: Path
) -> None:
    tenant.add("The cafeteria serves pasta on Fridays.")
    before = tenant.search(QUESTION, k=3)
    assert before.route == "vector" and not before.plan.entities  # the index is loaded: no Priya yet
    _other_process_adds(store_path, tenant.id)
    after = tenant.search(QUESTION, k=3)
    assert after.route == "hybrid", after.plan
    assert "priya chandran" in {key for key, _ in after.plan.entities}
    assert after.hits[0].text == "Priya Chandran plans the Q3 roadmap for Helios."


def test_a_search_stops_routing_on_entities_another_process_forgot(
    mem: Memory, tenant: Tenant, store_path: Path
) -> None:
    tenant.add("The cafeteria serves pasta on Fridays.")
    tenant.add("Priya Chandran leads the Atlas team.", session="priya")
    tenant.add("Priya Chandran plans the Q3 roadmap for Helios.", session="priya")
    before = tenant.search(QUESTION, k=3)
    assert before.route == "hybrid" and "priya chandran" in {key for key, _ in before.plan.entities}
    removed = _other_process_adds(store_path, tenant.id, FORGETTER)
    assert int(removed.strip().splitlines()[-1]) >= 1  # her entity went with her memories
    after = tenant.search(QUESTION, k=3)
    assert "priya chandran" not in {key for key, _ in after.plan.entities}, after.plan
    assert after.route == "vector"
    assert [h.text for h in after.hits] == ["The cafeteria serves pasta on Fridays."]


def test_own_forgets_reload_the_index_once(
    mem: Memory, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forget here moves the stamp too: the next search reloads the index once (the erase
    recounted the mentions of the entities it left), the ones after it do not."""
    eng = mem._engine
    tenant.add("Priya Chandran leads the Atlas team.", session="priya")
    tenant.add("Omar Haddad runs the Lisbon office.")
    assert "priya chandran" in {key for key, _ in tenant.search(QUESTION, k=1).plan.entities}
    loads: list[str] = []
    real = eng._load_entities
    monkeypatch.setattr(eng, "_load_entities", lambda tid: loads.append(tid) or real(tid))
    assert tenant.forget(session="priya").entities_removed >= 1
    for _ in range(3):
        plan = tenant.search(QUESTION, k=1).plan
    assert loads == [tenant.id]
    assert "priya chandran" not in {key for key, _ in plan.entities}


def test_own_writes_do_not_reload_the_index(
    mem: Memory, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stamp moves with this process's own writes too: those must not cost a reload."""
    eng = mem._engine  # the per-process index is what is under test
    tenant.add("Priya Chandran leads the Atlas team.")
    tenant.search(QUESTION, k=1)
    loads: list[str] = []
    real = eng._load_entities
    monkeypatch.setattr(eng, "_load_entities", lambda tid: loads.append(tid) or real(tid))
    for text in ("Omar Haddad runs the Lisbon office.", "Kenji Sato owns the billing service."):
        tenant.add(text)
        plan = tenant.search("Who runs the Lisbon office for Omar Haddad?", k=1).plan
    assert loads == []
    assert "omar haddad" in {key for key, _ in plan.entities}


def test_pruning_orphan_entities_moves_the_stamp(mem: Memory, tenant: Tenant) -> None:
    """``maintain()`` deletes entities no memory references (left by an interrupted erase): other
    processes must reload their index then too; a maintain that deletes none leaves the stamp."""
    eng = mem._engine
    tenant.add("Omar Haddad runs the Lisbon office.")
    mem.admin.store.executor.run(tenant.graph, test_query("merge_entity_key"), {"key": "ghost entity"})
    before = eng._stamp(tenant.id)
    assert before is not None
    assert tenant.maintain().orphan_entities_removed == 1
    assert eng._stamp(tenant.id) == before + 1
    assert tenant.maintain().orphan_entities_removed == 0
    assert eng._stamp(tenant.id) == before + 1
