"""A check of the relational walk built like 2Wiki's compositional questions (not a dev set).

``python -m benchmarks.wiki_directors --out 2wiki-directors.jsonl`` writes the 2Wiki corpus's
passages (``../shared/data/hipporag/2wikimultihopqa_corpus_only``) as documents and questions
about the films whose first sentence says "directed by" a person who has a passage of their
own, asked as 2Wiki asks them ("Where was the director of film X born?"); gold: the film's and
the director's passages. The pairs are read with a regex on the raw text, not with falkmem's
extractor, so the questions do not favour what the extractor finds. Then ``python -m benchmarks
run --dataset jsonl --file 2wiki-directors.jsonl --sweep real`` (benchmarks/RESULTS.md, "Multi-hop:
the checks built from 2Wiki"; docs/decisions/0006-typed-edges-and-reach-weight.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import wiki_sets

TEMPLATES = (
    "Where was the director of film {} born?",
    "When did the director of film {} die?",
    "What is the date of birth of the director of film {}?",
    "Who is the father of the director of film {}?",
    "What nationality is the director of film {}?",
    "Where did the director of film {} die?",
)
_NAME = r"((?:[A-Z][\w'’-]*\.?)(?:\s+(?:[A-Z][\w'’-]*\.?|de|van|von|da|di|del|la|le))*)"
_DIRECTED = re.compile(r"\bdirected\s+by\s+(?:the\s+)?(?:[a-z][\w-]*\s+){0,3}" + _NAME)


def pairs(corpus: Sequence[dict[str, str]]) -> list[tuple[int, int]]:
    """(film passage, director passage) for each film whose first sentence names a director
    with a passage of their own (titles that name one passage only)."""
    titles = wiki_sets.by_title(corpus)
    out: list[tuple[int, int]] = []
    for i, p in enumerate(corpus):
        m = _DIRECTED.search(p["text"].split(". ")[0])
        if m is None:
            continue
        name = m.group(1).rstrip(".")
        if name != p["title"] and len(titles.get(name, ())) == 1 and len(titles[p["title"]]) == 1:
            out.append((i, titles[name][0]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    return wiki_sets.main(argv, prog="python -m benchmarks.wiki_directors", doc=__doc__, pairs=pairs, templates=TEMPLATES,
                          category="compositional", seed=23)  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
