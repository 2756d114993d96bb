"""A name with initials is one entity ("P. G. Wodehouse"), so the walk from a work to its maker
reaches the maker's passage and no other: 2Wiki's compositional questions ("Where was the author
of X born?") over a corpus where many people are known by an initial.

The rule extractor used to cut "P. G. Wodehouse" into the entities P, G and Wodehouse, and "P"
was then named by the head of every "P. <surname>" passage: the typed ``created`` edge from the
novel led to "P" and from there to a dozen poets and politicians alike. Each of those passages
looks as much like the question as the author's (an author, where he was born).
"""

from __future__ import annotations

from typing import Any

import pytest

from falkmem import Tenant

QUESTION = "Where was the author of the novel The Prince and Betty born?"
NAMESAKES = [  # known by the same initial as the author
    "P. Bhaskaran", "P. Leela", "P. Kakkan", "P. Susheela", "P. Chidambaram", "P. Padmarajan", "P. Jayachandran",
    "P. Bhanumathi", "P. Sainath", "P. Vasu", "P. Ravindran", "P. Unnikrishnan",
]  # fmt: skip


def _records() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"id": "film", "kind": "document",
         "text": "The Prince and Betty (film)\nThe Prince and Betty is a 1919 American silent comedy film directed by"
                 ' Robert Thornby. It is based on the novel "The Prince and Betty" written by P. G. Wodehouse.'},
        {"id": "author", "kind": "document",
         "text": "P. G. Wodehouse\nPelham Grenville Wodehouse was an English author and humorist. He was born in"
                 " Guildford in 1881."},
    ]  # fmt: skip
    for n, name in enumerate(NAMESAKES):
        out.append({"id": f"namesake{n}", "kind": "document",
                    "text": f"{name}\n{name} was an Indian author and poet. He was born in Kottayam in {1900 + n}."})  # fmt: skip
    return out


@pytest.fixture
def library(tenant: Tenant) -> Tenant:
    tenant.add_many(_records())
    return tenant


def test_the_author_s_passage_comes_before_his_namesakes(library: Tenant) -> None:
    found = library.search(QUESTION, k=5)
    assert found.ids[:3].count("author") == 1, [h.text[:40] for h in found]


def test_the_walk_reaches_the_author_not_the_initial(library: Tenant) -> None:
    e = library.explain(QUESTION, k=5)
    reached = {name.casefold() for names in e.via.values() for name in names}
    assert "p. g. wodehouse" in reached, e.via
    assert "p" not in reached, e.via
    graph = dict(e.channels["graph"])
    namesakes = [score for i, score in graph.items() if i.startswith("namesake")]
    assert max(namesakes, default=0.0) < 0.1 * graph["author"], graph
