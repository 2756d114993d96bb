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
from typing import Any

from .datasets.paths import shared_data

__all__ = ["Question", "by_title", "main", "name", "write_set"]

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

    def ask(corpus: Sequence[dict[str, str]], chosen: Sequence[tuple[int, int]]) -> list[Question]:
        return [(_DISAMBIGUATOR.sub("", templates[n % len(templates)].format(corpus[first]["title"])), [first, second])
                for n, (first, second) in enumerate(chosen)]  # fmt: skip

    return write_set(argv, prog=prog, doc=doc, groups=pairs, ask=ask, category=category, hops=2, seed=seed)


Question = tuple[str, list[int]]
"""A question's text and its gold passages (corpus positions)."""


def name(passage: dict[str, str]) -> str:
    """A passage's title as a question names it: its disambiguating parenthesis dropped."""
    return _DISAMBIGUATOR.sub("", passage["title"])


def write_set(argv: Sequence[str] | None, *, prog: str, doc: str | None, groups: Callable[[Sequence[dict[str, str]]], list[Any]],
              ask: Callable[[Sequence[dict[str, str]], Sequence[Any]], list[Question]], category: str, hops: int,
              seed: int) -> int:  # fmt: skip
    """``--out FILE [--questions N] [--seed S] [--corpus PATH]``: every passage as a document, then
    ``ask``'s questions about ``groups``' groups of passages (shuffled with ``seed``, the first N)."""
    ap = argparse.ArgumentParser(prog=prog, description=doc)
    ap.add_argument("--out", type=Path, required=True, help="the JSON Lines file to write")
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--corpus", type=Path, default=None, help="2wikimultihopqa_corpus.json")
    args = ap.parse_args(argv)
    path = args.corpus or shared_data("2wikimultihopqa_corpus_only") / "2wikimultihopqa_corpus.json"
    corpus = json.loads(path.read_text(encoding="utf-8"))
    chosen = groups(corpus)
    random.Random(args.seed).shuffle(chosen)
    questions = ask(corpus, chosen)[: args.questions]
    with args.out.open("w", encoding="utf-8") as f:
        for i, p in enumerate(corpus):
            memory = {"type": "memory", "tenant": "2wiki", "id": f"p{i:05d}", "text": p["title"] + "\n" + p["text"],
                      "kind": "document"}  # fmt: skip
            f.write(json.dumps(memory) + "\n")
        for n, (text, gold) in enumerate(questions):
            question = {"type": "question", "tenant": "2wiki", "id": f"q{n}", "hops": hops, "category": category,
                        "text": text, "gold": [f"p{g:05d}" for g in gold]}  # fmt: skip
            f.write(json.dumps(question) + "\n")
    print(f"{len(corpus)} passages, {len(questions)} questions -> {args.out}")
    return 0
