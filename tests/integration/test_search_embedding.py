"""The question is embedded on the channel pool while it is routed (retrieval/pipeline.py):
what the embedder raises still reaches the caller, and the next search works.
(search_many's given vectors: tests/integration/test_batch.py.)"""

from __future__ import annotations

import pytest

from falkmem import EmbeddingError, Tenant
from tests.helpers import Recording


def test_an_embedder_failure_reaches_the_caller_and_the_next_search_works(
    tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant.add("Booked flight UA 837 to Lisbon, confirmation code QX7RTP.", id="f")
    rec = Recording(tenant._engine.embedder)
    monkeypatch.setattr(tenant._engine, "embedder", rec)
    rec.fail_on = "crash on this question"
    with pytest.raises(EmbeddingError, match="failed"):
        tenant.search("crash on this question", k=3)
    r = tenant.search("Which flight goes to Lisbon?", k=3)
    assert r.ids == ["f"] and rec.started[-1] == "Which flight goes to Lisbon?" and r.timings_ms["embed"] > 0
