"""The SDK's input rules, met as a new user (issue 50): ``add()`` names the argument, and a query
follows the rules of a text (a NUL is refused before anything reaches the server)."""

from __future__ import annotations

import pytest

from falkmem import InputError, Tenant


def test_add_errors_name_the_argument(tenant: Tenant) -> None:
    for kwargs, field in (({"text": "   "}, "text"), ({"text": "a\x00b"}, "text"),
                          ({"text": "ok", "kind": "bogus"}, "kind"), ({"text": "ok", "session": " "}, "session")):  # fmt: skip
        with pytest.raises(InputError) as err:
            tenant.add(**kwargs)  # type: ignore[arg-type]
        assert err.value.field == field and str(err.value).startswith(f"{field}: ")
    with pytest.raises(InputError) as many:  # add_many still names the record
        tenant.add_many([{"text": "ok"}, {"text": " "}])
    assert many.value.field == "records[1].text"


def test_a_query_with_nul_is_refused_like_a_text(tenant: Tenant) -> None:
    tenant.add("Priya Chandran leads the Atlas team.")
    for call in (
        lambda: tenant.search("who leads\x00 Atlas?"),
        lambda: tenant.context("who leads\x00 Atlas?"),
        lambda: tenant.explain("who leads\x00 Atlas?"),
    ):
        with pytest.raises(InputError) as err:
            call()
        assert err.value.field == "query" and "NUL" in err.value.rule
    with pytest.raises(InputError) as err:
        tenant.search_many(["Atlas", "who\x00"])
    assert err.value.field == "queries[1]"
    with pytest.raises(InputError) as err:
        tenant.search("  \n ")
    assert err.value.field == "query"
    assert tenant.search("who leads Atlas?", k=1).hits[0].text == "Priya Chandran leads the Atlas team."
