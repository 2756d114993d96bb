"""A check of the relational walk built like 2Wiki's inference questions (not a dev set).

``python -m benchmarks.wiki_family --out 2wiki-family.jsonl`` writes the 2Wiki corpus's
passages (``../shared/data/hipporag/2wikimultihopqa_corpus_only``) as documents and questions
about the people whose passage says they are the son or daughter of a person with a passage of
their own, asked as 2Wiki asks them ("Who is the paternal grandfather of X?", "Where was the
father of X born?"); gold: the child's and the parent's passages (the parent's passage says
who the grandparent is, where and when the parent was born or died). The pairs are read with a
regex on the raw text, not with falkmem's extractor, so the questions do not favour what the
extractor finds. Then ``python -m benchmarks run --dataset jsonl --file 2wiki-family.jsonl
--sweep real`` (benchmarks/RESULTS.md, "Family").
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
    "Who is the paternal grandfather of {child}?",
    "Where was the father of {child} born?",
    "When did the father of {child} die?",
    "Who is the grandparent of {child}?",
    "What is the date of birth of the father of {child}?",
    "Where did the father of {child} die?",
)
_NAME = r"((?:[A-Z][\w'’-]*\.?)(?:\s+(?:[A-Z][\w'’-]*\.?|de|van|von|da|di|del|la|le|of))*)"
_CHILD_OF = re.compile(
    r"\b(?:(?:eldest|youngest|second|third|only|illegitimate)\s+)?(?:son|daughter|child)\s+of\s+(?:the\s+)?"
    r"(?:[a-z][\w-]*\s+){0,2}" + _NAME
)
_DISAMBIGUATOR = re.compile(r"\s*\([^()]*\)")


def pairs(corpus: Sequence[dict[str, str]]) -> list[tuple[int, int]]:
    """(child passage, parent passage) for each passage that names the person's parent ("the son
    of Y"; the first name after it: the father, as such passages write it) when the parent has a
    passage of their own (titles that name one passage only)."""
    by_title: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(corpus):
        by_title[p["title"]].append(i)
    out: list[tuple[int, int]] = []
    for i, p in enumerate(corpus):
        m = _CHILD_OF.search(p["text"])
        if m is None:
            continue
        name = re.sub(r"\s+of$", "", m.group(1).rstrip("."))
        if name != p["title"] and len(by_title.get(name, ())) == 1 and len(by_title[p["title"]]) == 1:
            out.append((i, by_title[name][0]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.wiki_family", description=__doc__)
    ap.add_argument("--out", type=Path, required=True, help="the JSON Lines file to write")
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=29)
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
        for n, (child, parent) in enumerate(chosen):
            question = {"type": "question", "tenant": "2wiki", "id": f"q{n}", "hops": 2, "category": "inference",
                        "text": _DISAMBIGUATOR.sub("", TEMPLATES[n % len(TEMPLATES)].format(child=corpus[child]["title"])),
                        "gold": [f"p{child:05d}", f"p{parent:05d}"]}  # fmt: skip
            f.write(json.dumps(question) + "\n")
    print(f"{len(corpus)} passages, {len(chosen)} questions -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
