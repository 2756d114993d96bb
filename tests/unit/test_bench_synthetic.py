"""The synthetic dataset: deterministic, exact size, valid gold ids, planted chains of 1 to 4 hops."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.datasets import load
from benchmarks.datasets.synthetic import generate


def test_two_generations_with_one_seed_are_identical() -> None:
    a = generate(1000, seed=11, questions=150)
    b = generate(1000, seed=11, questions=150)
    assert a.tenants[0].memories == b.tenants[0].memories
    assert a.tenants[0].questions == b.tenants[0].questions
    assert a.info == b.info


def test_another_seed_gives_other_data() -> None:
    a = generate(300, seed=1, questions=20)
    b = generate(300, seed=2, questions=20)
    assert [m.text for m in a.tenants[0].memories] != [m.text for m in b.tenants[0].memories]


@pytest.mark.parametrize("size", [100, 200, 1000, 5000])
def test_size_is_exact_and_gold_ids_exist(size: int) -> None:
    ds = generate(size, seed=3, questions=100)
    ds.check()
    t = ds.tenants[0]
    assert len(t.memories) == size
    assert len({m.id for m in t.memories}) == size
    assert 0 < len(t.questions) <= 100
    assert len({q.text for q in t.questions}) == len(t.questions)


def test_chains_span_one_to_four_hops_and_gold_matches_hops() -> None:
    t = generate(2000, seed=5, questions=300).tenants[0]
    text = {m.id: m.text for m in t.memories}
    hops = Counter(q.hops for q in t.questions if q.category == "org")
    assert set(hops) == {1, 2, 3, 4}
    for q in t.questions:
        if q.category == "org":
            assert len(q.gold) == q.hops
    q4 = next(q for q in t.questions if q.hops == 4)
    built, leads, reports, role = (text[g] for g in q4.gold)
    project = q4.text.rsplit("Project ", 1)[1].rstrip("?")
    assert (
        project in built and " leads the " in leads and " reports to " in reports and "is the VP of" in role
    )
    assert leads.split(" leads ")[0] in reports  # the chain links: lead → manager
    assert reports.split(" reports to ")[1].rstrip(".") in role


def test_trips_and_distractors_are_planted() -> None:
    ds = generate(1000, seed=7, questions=200)
    t = ds.tenants[0]
    assert ds.info["distractors"] > 0.3 * 1000
    trip = next(q for q in t.questions if q.category == "trip" and q.hops == 3)
    texts = [next(m for m in t.memories if m.id == g) for g in trip.gold]
    assert "confirmation code" in texts[0].text and "delayed" in texts[2].text
    assert len({m.session for m in texts}) == 3  # told in three sessions
    assert texts[0].at is not None and texts[2].at is not None and texts[0].at < texts[2].at


def test_size_limits_and_loader() -> None:
    with pytest.raises(ValueError):
        generate(10)
    with pytest.raises(ValueError):
        generate(100_001)
    assert load("synthetic", size=150, seed=1, questions=10).tenants[0].tenant == "synthetic"


def test_memories_do_not_depend_on_the_question_count() -> None:
    a = generate(500, seed=4, questions=10).tenants[0]
    b = generate(500, seed=4, questions=80).tenants[0]
    assert a.memories == b.memories
    assert a.questions == b.questions[:10]
