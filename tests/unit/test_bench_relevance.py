"""benchmarks/relevance.py: the fit separates on-topic from off-topic searches, the threshold
keeps the gold hits, each fold is fitted without its set."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

from benchmarks import relevance as rel


def _hit(i: str, cos: float, kw: float, top: float) -> list[object]:
    #      id  cosine keyword graph top_cosine near_cosine top_keyword top_held max_idf rerank
    return [i, cos, kw, 0.0, top, top - 0.05, kw, 5 * kw, 8.0, None]


def _dump(path: Path, dataset: str, seed: int) -> None:
    """On-topic searches: a near gold hit (cosine 0.55-0.75) among weaker ones; off-topic ones: every
    hit far (0.1-0.3), whatever words match."""
    r = random.Random(seed)
    lines = []
    for n in range(40):
        top = r.uniform(0.55, 0.75)
        hits = [_hit(f"g{n}", top, r.uniform(0.3, 1.0), top)]
        hits += [_hit(f"x{n}-{j}", top - r.uniform(0.05, 0.3), r.uniform(0, 0.5), top) for j in range(9)]
        lines.append(
            {"dataset": dataset, "kind": "on", "tenant": "t", "id": f"q{n}", "gold": [f"g{n}"], "hits": hits}
        )
    for n in range(40):
        top = r.uniform(0.1, 0.3)
        hits = [_hit(f"o{n}-{j}", top - 0.01 * j, r.uniform(0, 1.0), top) for j in range(10)]
        kind = "general" if n % 2 else "foreign:other"
        lines.append(
            {"dataset": dataset, "kind": kind, "tenant": "t", "id": f"o{n}", "gold": [], "hits": hits}
        )
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(line) + "\n" for line in lines)


def test_fit_threshold_and_folds(tmp_path: Path) -> None:
    paths = []
    for seed, name in enumerate(("a", "b", "c")):
        paths.append(tmp_path / f"{name}.jsonl.gz")
        _dump(paths[-1], name, seed)
    searches = rel.read(paths)
    assert len(searches) == 240 and searches[0].x.shape == (10, len(rel.FIELDS))
    cfg = rel.fit(searches)
    assert cfg.question_top_cosine > 0 and cfg.cosine > 0  # nearer is more relevant
    gold = [
        v for s in searches if s.on for i, v in zip(s.ids, rel.scores(s, cfg), strict=True) if i in s.gold
    ]
    off = [v for s in searches if not s.on for v in rel.scores(s, cfg)]
    assert min(gold) > max(off)  # separable here, so the values are
    folds = rel.lodo(rel.by_dataset(searches))
    assert [f.held_out for f in folds] == [None, "a", "b", "c"]
    for f in folds:
        assert f.threshold > 0
        for name, fig in f.figures.items():
            # a set the threshold was chosen on loses at most a point (none of its 40 questions
            # its gold); the one left out, at most one question (2.5 points)
            assert fig.drop <= (2.5 if name == f.held_out else 1.0)
            assert fig.no_hit == {"general": 100.0, "foreign": 100.0}
    text = rel.table(folds, searches)
    assert "| a | 100.0 |" in text and "100.0 / 100.0 |" in text and "- c left out: threshold" in text


def test_figures_count_the_recall_lost_and_the_searches_emptied() -> None:
    s = rel.Search(
        "d", "on", frozenset({"g1", "g2"}), ["g1", "x", "g2"], rel.np.zeros((3, len(rel.FIELDS))), [None] * 3
    )
    o = rel.Search("d", "general", frozenset(), ["y"], rel.np.zeros((1, len(rel.FIELDS))), [None])
    scores = {id(s): [0.5, 0.2, 0.05], id(o): [0.08]}
    f = rel.figures([s, o], scores, 0.1)
    assert (f.r5, f.r5_kept, f.drop, f.no_hit) == (100.0, 50.0, 50.0, {"general": 100.0})
    assert rel.figures([s, o], scores, 0.06).no_hit == {"general": 0.0}


def test_the_off_topic_questions_are_a_hundred_distinct_ones() -> None:
    qs = rel.offtopic()
    assert len(qs) == len(set(qs)) == 100 and all(q.endswith("?") for q in qs)
