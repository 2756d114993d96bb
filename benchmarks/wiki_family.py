"""A check of the relational walk built like 2Wiki's inference questions (not a dev set).

``python -m benchmarks.wiki_family --out 2wiki-family.jsonl`` writes the 2Wiki corpus's
passages (``../shared/data/hipporag/2wikimultihopqa_corpus_only``) as documents and questions
about the people whose passage says they are the son or daughter of a person with a passage of
their own, asked as 2Wiki asks them ("Who is the paternal grandfather of X?", "Where was the
father of X born?"); gold: the child's and the parent's passages (the parent's passage says
who the grandparent is, where and when the parent was born or died). The pairs are read with a
regex on the raw text, not with falkmem's extractor, so the questions do not favour what the
extractor finds. Then ``python -m benchmarks run --dataset jsonl --file 2wiki-family.jsonl
--sweep real`` (benchmarks/RESULTS.md, "Multi-hop: the checks built from 2Wiki";
docs/decisions/0006-typed-edges-and-reach-weight.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import wiki_sets

TEMPLATES = (
    "Who is the paternal grandfather of {}?",
    "Where was the father of {} born?",
    "When did the father of {} die?",
    "Who is the grandparent of {}?",
    "What is the date of birth of the father of {}?",
    "Where did the father of {} die?",
)
_NAME = r"((?:[A-Z][\w'’-]*\.?)(?:\s+(?:[A-Z][\w'’-]*\.?|de|van|von|da|di|del|la|le|of))*)"
_CHILD_OF = re.compile(
    r"\b(?:(?:eldest|youngest|second|third|only|illegitimate)\s+)?(?:son|daughter|child)\s+of\s+(?:the\s+)?"
    r"(?:[a-z][\w-]*\s+){0,2}" + _NAME
)


def pairs(corpus: Sequence[dict[str, str]]) -> list[tuple[int, int]]:
    """(child passage, parent passage) for each passage that names the person's parent ("the son
    of Y"; the first name after it: the father, as such passages write it) when the parent has a
    passage of their own (titles that name one passage only)."""
    titles = wiki_sets.by_title(corpus)
    out: list[tuple[int, int]] = []
    for i, p in enumerate(corpus):
        m = _CHILD_OF.search(p["text"])
        if m is None:
            continue
        name = re.sub(r"\s+of$", "", m.group(1).rstrip("."))
        if name != p["title"] and len(titles.get(name, ())) == 1 and len(titles[p["title"]]) == 1:
            out.append((i, titles[name][0]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    return wiki_sets.main(argv, prog="python -m benchmarks.wiki_family", doc=__doc__, pairs=pairs, templates=TEMPLATES,
                          category="inference", seed=29)  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
