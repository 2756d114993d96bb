"""A question that types a name without its accents still names the stored entity: the router
finds "Akinoshu Kenji" as the key "akinoshū kenji", so the graph channel follows it to the
memory about it (MuSiQue-100: "What kind of plane dropped the bomb on Akinoshu Kenji's
birthplace?" found that passage only through the vector channel, sixth; now first)."""

from __future__ import annotations

from falkmem import Tenant

PASSAGES = [
    ("ak", "Akinoshū Kenji\nAkinoshū Kenji is a former sumo wrestler. He was born in Hiroshima."),
    ("hi", "Hiroshima\nThe atomic bomb dropped on Hiroshima was carried by a B-29, the Enola Gay."),
    ("ch", "Chiyonofuji\nChiyonofuji Mitsugu was a sumo wrestler born in Fukushima, Hokkaido."),
    ("ta", "Takanohana\nTakanohana Kōji is a former sumo wrestler from Tokyo."),
    ("na", "Nagasaki\nThe bomb dropped on Nagasaki was carried by the B-29 Bockscar."),
]


def test_a_name_typed_without_its_accents_is_the_stored_entity(tenant: Tenant) -> None:
    tenant.add_many([{"id": i, "text": text, "kind": "document"} for i, text in PASSAGES])
    question = "What kind of plane dropped the bomb on Akinoshu Kenji's birthplace?"
    e = tenant.explain(question)
    assert e.plan is not None
    assert "akinoshū kenji" in [key for key, _ in e.plan.entities]
    assert e.plan.route == "hybrid"
    assert [h.id for h in e.hits][:1] == ["ak"]
    # spelled as stored, the same entity
    again = tenant.explain(question.replace("Akinoshu", "Akinoshū"))
    assert again.plan is not None and "akinoshū kenji" in [key for key, _ in again.plan.entities]
