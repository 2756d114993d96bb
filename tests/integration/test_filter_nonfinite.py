"""NaN and ±infinity in a metadata filter (issue 50): an equality with them matches nothing (no
memory can hold them), and a value that is not JSON is an error naming the caller's field."""

from __future__ import annotations

import math

import pytest

from falkmem import InputError, Tenant


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, [1.0, math.nan], {"low": -math.inf}])
def test_non_finite_equality_matches_nothing(tenant: Tenant, bad: object) -> None:
    tenant.add("The blue lamp costs 3.5 euros.", metadata={"price": 3.5, "item": "lamp"})
    tenant.add("The red chair has no price yet.", metadata={"price": None, "item": "chair"})
    assert [h.metadata["item"] for h in tenant.search("lamp price", k=5, metadata={"item": "lamp"})] == [
        "lamp"
    ]
    assert tenant.search("lamp price", k=5, metadata={"price": bad}).hits == ()
    assert tenant.context("what does the lamp cost?", metadata={"price": bad}).used == ()
    assert list(tenant.list(metadata={"price": bad})) == []
    assert tenant.forget(metadata={"price": bad}).artifacts == 0
    assert tenant.count() == 2


def test_a_filter_value_that_is_not_json_names_the_field(tenant: Tenant) -> None:
    tenant.add("The blue lamp costs 3.5 euros.", metadata={"price": 3.5})
    with pytest.raises(InputError) as err:
        tenant.search("lamp", metadata={"price": {1, 2}})
    assert err.value.field == "metadata.price"
    assert "must be JSON-serialisable" in str(err.value)
