"""benchmarks/fusion.py: the schemes re-rank dumped candidates; lodo picks settings on the other folds."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from benchmarks import fusion


def q(qid: str, dataset: str, vector: list[tuple[str, float]], keyword: list[tuple[str, float]], gold: list[str],
      mass: float = 10.0, tenant: str | None = None) -> dict[str, object]:  # fmt: skip
    return {"dataset": dataset, "tenant": tenant or dataset, "id": qid, "category": "x", "gold": gold, "route": "vector",
            "channels": {"vector": vector, "keyword": keyword}, "units": {"keyword": mass}, "similarity": {},
            "default": [i for i, _ in vector], "rows": {}, "leanings": None}  # fmt: skip


def test_absolute_and_scaled_rankings() -> None:
    question = q("1", "d", [("a", 0.60), ("b", 0.55), ("c", 0.30)], [("c", 9.0), ("b", 2.0)], ["c"])
    assert fusion.absolute(0.0, 0.0)(question) == ["a", "b", "c"]
    assert fusion.absolute(0.45, 0.0)(question)[0] == "c"  # 0.30 + 0.45 * 0.9 > 0.60
    assert fusion.scaled(0.0, 0.0)(question)[0] == "a"
    assert fusion.rrf(60, 1.0, 1.0)(question)[0] in {"b", "c"}
    assert (
        set(fusion.zscore(1.0, 1.0)(question)) == set(fusion.combmnz(1.0, 1.0)(question)) == {"a", "b", "c"}
    )


def test_lodo_reports_each_fold_with_settings_from_the_others(tmp_path: Path) -> None:
    # "words" datasets are answered by the keyword channel, "meaning" ones by the vector channel
    near = [(f"v{i}", 0.70 - 0.01 * i) for i in range(12)]  # a dozen look-alikes
    words = [(f"k{i}", 8.0 - 0.5 * i) for i in range(12)]
    data = []
    for n in range(
        6
    ):  # the gold is the keyword channel's first in "words", the vector channel's in "meaning"
        data.append(q(f"w{n}", "words", near, [("g", 9.0), *words], ["g"], mass=30.0))  # needs wk >= 0.45
        data.append(q(f"m{n}", "meaning", [("g", 0.71), *near], words, ["g"]))  # lost above wk 0.2
        data.append(
            q(f"r{n}", "musique", [("g", 0.71), *near], [("g", 9.0), *words], ["g"], tenant="musique-rules")
        )
    path = tmp_path / "d.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.writelines(json.dumps(x) + "\n" for x in data)
    read = fusion.read([path])
    assert sorted(read) == ["meaning", "musique-rules", "words"]
    rows, reference = fusion.lodo(read)
    assert {r.held_out for r in rows} == {"meaning", "musique-100", "words"}  # MuSiQue tenants form one fold
    absolute = {r.held_out: r for r in rows if r.scheme == "absolute"}
    assert json.loads(absolute["meaning"].setting)["wk"] > json.loads(absolute["words"].setting)["wk"]
    assert reference["keyword alone"]["words"] == (100.0, 100.0) and reference["vector alone"]["words"] == (
        0.0,
        0.0,
    )
    text = fusion.table(rows, reference)
    assert "| absolute (held out) |" in text and "words left out" in text
