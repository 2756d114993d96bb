"""Tests for the extraction models: validation, canonical keys, completion and merge."""

from __future__ import annotations

import pydantic
import pytest

from falkmem.extraction import (
    ENTITY_TYPES,
    RELATIONS,
    EntityMention,
    Extraction,
    Triple,
)


def test_vocabularies_are_the_documented_ones() -> None:
    assert {"leads", "manages", "reports_to", "built", "holds_role", "related_to"} <= RELATIONS
    assert {"person", "team", "project", "identifier", "other"} <= ENTITY_TYPES
    assert "family" in RELATIONS
    assert len(RELATIONS) == 15


def test_models_are_frozen_and_strict() -> None:
    e = EntityMention(key="atlas team", name="Atlas team", type="team")
    with pytest.raises(pydantic.ValidationError):
        e.name = "x"  # type: ignore[misc,unused-ignore]
    with pytest.raises(pydantic.ValidationError):
        EntityMention(key="x", name="X", type="alien")  # type: ignore[arg-type]
    with pytest.raises(pydantic.ValidationError):
        Triple(subject="a", relation="teleports_to", object="b")  # type: ignore[arg-type]


def test_keys_are_canonicalised_and_blank_rejected() -> None:
    assert EntityMention(key="The Atlas-Team.", name=" Atlas  team ").key == "atlas team"
    assert EntityMention(key="x", name=" Atlas  team ").name == "Atlas team"
    t = Triple(subject="Priya Chandran", relation="leads", object="the Atlas team")
    assert (t.subject, t.object) == ("priya chandran", "atlas team")
    with pytest.raises(ValueError):
        EntityMention(key="!!", name="x")
    with pytest.raises(ValueError):
        EntityMention(key="x", name="   ")


def test_triple_rejects_self_loop_and_bad_weight() -> None:
    with pytest.raises(pydantic.ValidationError):
        Triple(subject="Atlas", relation="related_to", object="atlas")
    for w in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(pydantic.ValidationError):
            Triple(subject="a", relation="related_to", object="b", weight=w)


def test_extraction_adds_missing_endpoints_and_dedupes() -> None:
    t = Triple(subject="atlas team", relation="built", object="project helios")
    ex = Extraction(
        entities=(EntityMention(key="atlas team", name="Atlas team", type="team"),),
        triples=(t, t),
    )
    assert [e.key for e in ex.entities] == ["atlas team", "project helios"]
    assert ex.entities[1] == EntityMention(key="project helios", name="project helios")
    assert len(ex.triples) == 1
    assert not Extraction()
    assert ex


def test_merge_unions_by_key_first_name_wins() -> None:
    a = Extraction(
        entities=(EntityMention(key="atlas team", name="Atlas team"),),
        triples=(Triple(subject="a", relation="related_to", object="b", weight=0.5),),
    )
    b = Extraction(
        entities=(
            EntityMention(key="atlas team", name="ATLAS TEAM", type="team", aliases=("Atlas",)),
            EntityMention(key="priya", name="Priya"),
        ),
        triples=(
            Triple(subject="a", relation="related_to", object="b", weight=1.0, label="x"),
            Triple(subject="a", relation="leads", object="b"),
        ),
    )
    m = a.merge(b)
    atlas = m.entities[0]
    assert atlas.name == "Atlas team"
    assert atlas.type == "team"
    assert atlas.aliases == ("ATLAS TEAM", "Atlas")
    assert [e.key for e in m.entities] == ["atlas team", "a", "b", "priya"]
    weights = {(t.relation, t.weight, t.label) for t in m.triples}
    assert weights == {("related_to", 1.0, "x"), ("leads", 1.0, None)}
    assert m.merge(m) == m
    assert a.merge(Extraction()) == a
