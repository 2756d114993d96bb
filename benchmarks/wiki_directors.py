"""A check of the relational walk built like 2Wiki's compositional questions (not a dev set).

``python -m benchmarks.wiki_directors --out 2wiki-directors.jsonl`` writes the 2Wiki corpus's
passages (``../shared/data/hipporag/2wikimultihopqa_corpus_only``) as documents and questions
about the films whose first sentence says "directed by" a person who has a passage of their
own, asked as 2Wiki asks them ("Where was the director of film X born?"); gold: the film's and
the director's passages. The pairs are read with a regex on the raw text, not with falkmem's
extractor, so the questions do not favour what the extractor finds. Then ``python -m benchmarks
run --dataset jsonl --file 2wiki-directors.jsonl --sweep real`` (benchmarks/RESULTS.md, "Who
made a work").
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from .datasets.paths import shared_data

TEMPLATES = (
    "Where was the director of film {film} born?",
    "When did the director of film {film} die?",
    "What is the date of birth of the director of film {film}?",
    "Who is the father of the director of film {film}?",
    "What nationality is the director of film {film}?",
    "Where did the director of film {film} die?",
)
_NAME = r"((?:[A-Z][\w'’-]*\.?)(?:\s+(?:[A-Z][\w'’-]*\.?|de|van|von|da|di|del|la|le))*)"
_DIRECTED = re.compile(r"\bdirected\s+by\s+(?:the\s+)?(?:[a-z][\w-]*\s+){0,3}" + _NAME)
_DISAMBIGUATOR = re.compile(r"\s*\([^()]*\)")


def pairs(corpus: Sequence[dict[str, str]]) -> list[tuple[int, int]]:
    """(film passage, director passage) for each film whose first sentence names a director
    with a passage of their own (titles that name one passage only)."""
    by_title: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(corpus):
        by_title[p["title"]].append(i)
    out: list[tuple[int, int]] = []
    for i, p in enumerate(corpus):
        m = _DIRECTED.search(p["text"].split(". ")[0])
        if m is None:
            continue
        name = m.group(1).rstrip(".")
        if name != p["title"] and len(by_title.get(name, ())) == 1 and len(by_title[p["title"]]) == 1:
            out.append((i, by_title[name][0]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.wiki_directors", description=__doc__)
    ap.add_argument("--out", type=Path, required=True, help="the JSON Lines file to write")
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=23)
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
        for n, (film, director) in enumerate(chosen):
            question = {"type": "question", "tenant": "2wiki", "id": f"q{n}", "hops": 2, "category": "compositional",
                        "text": _DISAMBIGUATOR.sub("", TEMPLATES[n % len(TEMPLATES)].format(film=corpus[film]["title"])),
                        "gold": [f"p{film:05d}", f"p{director:05d}"]}  # fmt: skip
            f.write(json.dumps(question) + "\n")
    print(f"{len(corpus)} passages, {len(chosen)} questions -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
