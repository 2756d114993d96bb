"""An inference question through kin (issue 23; 2Wiki's "Where was the father of X born?"): from
the person the question names, over the typed ``family`` edge the rule extractor writes for "He
was the son of Charles Martel" in X's titled passage (the pronoun means the passage's subject),
to the father's passage, which says where he was born and shares no name with the question.

X's passage also names a dozen other lords (the court he kept), each with a passage of its own
that looks as much like the question as the father's (a count, where he was born), and a few
passages look more like the question than those, so only the typed edge tells the father apart.
"""

from __future__ import annotations

from typing import Any

import pytest

from falkmem import Tenant

QUESTION = "Where was the father of Louis of Valmont born?"
LORDS = [
    "Odo of Arles", "Hugh of Vienne", "Guy of Spoleto", "Boso of Provence", "Rudolf of Burgundy", "Bernard of Septimania",
    "Robert of Neustria", "Conrad of Auxerre", "Welf of Alemannia", "Matfrid of Orleans", "Lambert of Nantes",
    "Gerard of Paris",
]  # fmt: skip
LOOK_ALIKES = [  # closer to the question's words than the passages that answer it
    "Birthplaces\nWhere a father was born is told by the records of his son.",
    "Lineage\nA lord was born where his father held lands.",
    "Family trees\nThe father of a count was often born far from his son.",
]


def _records() -> list[dict[str, Any]]:
    court = ", ".join(LORDS)
    out: list[dict[str, Any]] = [
        {"id": "louis", "kind": "document",
         "text": f"Louis of Valmont\nLouis of Valmont kept a court with {court}. He was the son of Charles Martel."},
        {"id": "charles", "kind": "document",
         "text": "Charles Martel\nCharles Martel was a count in the Rhineland. He was born in Metz in 688 and"
                 " built the first castle of the family."},
    ]  # fmt: skip
    for n, text in enumerate(LOOK_ALIKES):
        out.append({"id": f"like{n}", "kind": "document", "text": text})
    for n, lord in enumerate(LORDS):
        out.append({"id": f"lord{n}", "kind": "document",
                    "text": f"{lord}\n{lord} was a count in the Rhineland. He was born in Trier in {700 + n}."})  # fmt: skip
    return out


@pytest.fixture
def lords(tenant: Tenant) -> Tenant:
    tenant.add_many(_records())
    return tenant


def test_the_father_s_passage_is_in_the_first_five_hits(lords: Tenant) -> None:
    found = lords.search(QUESTION, k=5)
    assert "charles" in found.ids, [h.text for h in found]
    assert found.plan is not None and "family" in found.plan.relations
