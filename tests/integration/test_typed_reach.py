"""A comparison through a chain (2Wiki's "Which film has the director who died first, X or Y?"):
the directors' passages are reached from the films the question names over the typed
``created`` edges, the actors' passages only because the films' passages name them too, and
the actors' passages look more like the question than the directors' (films, when they died). A memory about an entity a typed edge of the question's relations reached
counts that edge as evidence too (``graph_reach_weight``): the directors come before the cast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from falkmem import Memory, Tenant

QUESTION = "Which film has the director who died first, Harbour Lights or Night Train to Dover?"
FILMS = {
    "Harbour Lights": ("Edwin Marsh", ["Clara Vane", "Otto Brill", "Mina Ferro", "Jules Parry"]),
    "Night Train to Dover": ("Ruth Calder", ["Ivo Santos", "Dora Keel", "Abel Voss", "Nell Ashby"]),
}


def _records() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    year = 1901
    for film, (director, cast) in FILMS.items():
        out.append({"id": film, "kind": "document",
                    "text": f"{film}\n{film} is a 1952 British drama film directed by {director} and starring"
                            f" {', '.join(cast[:-1])} and {cast[-1]}."})  # fmt: skip
        year += 1
        out.append({"id": director, "kind": "document",
                    "text": f"{director}\n{director} ({year}-{year + 61}) was a Scottish stage producer, later a"
                            " painter in Glasgow."})  # fmt: skip
        for person in cast:
            year += 1
            out.append({"id": person, "kind": "document",
                        "text": f"{person}\n{person} (born {year}, died {year + 60}) was an English film actor who"
                                " first appeared in British films and died in London."})  # fmt: skip
    return out


@pytest.fixture
def films(tenant: Tenant) -> Tenant:
    tenant.add_many(_records())
    return tenant


def test_the_directors_come_before_the_cast(films: Tenant) -> None:
    ids = films.search(QUESTION, k=4).ids
    assert set(ids) == {"Harbour Lights", "Night Train to Dover", "Edwin Marsh", "Ruth Calder"}, ids


def test_without_the_reach_the_cast_ties_with_the_directors(
    films: Tenant, reopened: Callable[..., Memory]
) -> None:
    """The control: the same search with the typed reach off."""
    with reopened(graph={"reach_weight": 0.0}) as plain:
        ids = plain.tenant(films.id).search(QUESTION, k=4).ids
    assert set(ids) != {"Harbour Lights", "Night Train to Dover", "Edwin Marsh", "Ruth Calder"}, ids
