"""What the 2Wiki-built checks share (``wiki_directors``, ``wiki_family``): the corpus, and the
JSON Lines file of its passages (documents) and the questions asked about pairs of them."""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from .datasets.paths import shared_data

__all__ = ["by_title", "main"]

_DISAMBIGUATOR = re.compile(r"\s*\([^()]*\)")

Pairs = Callable[[Sequence[dict[str, str]]], list[tuple[int, int]]]


def by_title(corpus: Sequence[dict[str, str]]) -> dict[str, list[int]]:
    """The passages of each title (a title named by one passage only names a person or a work)."""
    out: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(corpus):
        out[p["title"]].append(i)
    return out


def main(argv: Sequence[str] | None, *, prog: str, doc: str | None, pairs: Pairs, templates: Sequence[str],
         category: str, seed: int) -> int:  # fmt: skip
    """``--out FILE [--questions N] [--seed S] [--corpus PATH]``: every passage as a document, then
    a question per chosen pair, ``templates[n % len]`` filled with the first passage's title
    (its disambiguating parenthesis dropped); gold: both passages."""
    ap = argparse.ArgumentParser(prog=prog, description=doc)
    ap.add_argument("--out", type=Path, required=True, help="the JSON Lines file to write")
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--corpus", type=Path, default=None, help="2wikimultihopqa_corpus.json")
    args = ap.parse_args(argv)
    path = args.corpus or shared_data("2wikimultihopqa_corpus_only") / "2wikimultihopqa_corpus.json"
    corpus = json.loads(path.read_text(encoding="utf-8"))
    chosen = pairs(corpus)
    random.Random(args.seed).shuffle(chosen)
    chosen = chosen[: args.questions]
    with args.out.open("w", encoding="utf-8") as f:
        for i, p in enumerate(corpus):
            memory = {"type": "memory", "tenant": "2wiki", "id": f"p{i:05d}", "text": p["title"] + "\n" + p["text"],
                      "kind": "document"}  # fmt: skip
            f.write(json.dumps(memory) + "\n")
        for n, (first, second) in enumerate(chosen):
            text = _DISAMBIGUATOR.sub("", templates[n % len(templates)].format(corpus[first]["title"]))
            question = {"type": "question", "tenant": "2wiki", "id": f"q{n}", "hops": 2, "category": category,
                        "text": text, "gold": [f"p{first:05d}", f"p{second:05d}"]}  # fmt: skip
            f.write(json.dumps(question) + "\n")
    print(f"{len(corpus)} passages, {len(chosen)} questions -> {args.out}")
    return 0
