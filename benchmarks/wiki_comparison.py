"""A check of the walk built like 2Wiki's bridge-comparison questions (not a dev set).

``python -m benchmarks.wiki_comparison --out 2wiki-comparison.jsonl`` writes the 2Wiki corpus's
passages (``../shared/data/hipporag/2wikimultihopqa_corpus_only``) as documents and questions
that compare the directors of two films, asked as 2Wiki asks them ("Which film has the director
who died first, X or Y?", "Do both films X and Y have the directors from the same country?");
the films are those ``wiki_directors`` finds (a first sentence that says "directed by" a person
with a passage of their own, read with a regex on the raw text), paired in a shuffled order with
different directors; gold: both films' and both directors' passages. Then ``python -m benchmarks
run --dataset jsonl --file 2wiki-comparison.jsonl --sweep real`` (benchmarks/RESULTS.md, "Multi-hop:
the checks built from 2Wiki"; docs/decisions/0006-typed-edges-and-reach-weight.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import wiki_directors, wiki_sets

TEMPLATES = (
    "Which film has the director who was born later, {} or {}?",
    "Which film has the director who died first, {} or {}?",
    "Do both films {} and {} have the directors from the same country?",
    "Which film has the director born earlier, {} or {}?",
    "Are the directors of films {} and {} both from the same country?",
    "Which film has the director who died later, {} or {}?",
)

Quad = tuple[int, int, int, int]
"""(film, its director, another film, its director): corpus positions."""


def quads(corpus: Sequence[dict[str, str]]) -> list[Quad]:
    """Consecutive (film, director) pairs of ``wiki_directors.pairs``, two by two, when the four
    passages differ."""
    pairs = wiki_directors.pairs(corpus)
    return [(f1, d1, f2, d2) for (f1, d1), (f2, d2) in zip(pairs[::2], pairs[1::2], strict=False)
            if len({f1, d1, f2, d2}) == 4]  # fmt: skip


def ask(corpus: Sequence[dict[str, str]], chosen: Sequence[Quad]) -> list[wiki_sets.Question]:
    return [(TEMPLATES[n % len(TEMPLATES)].format(wiki_sets.name(corpus[f1]), wiki_sets.name(corpus[f2])), [f1, d1, f2, d2])
            for n, (f1, d1, f2, d2) in enumerate(chosen)]  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    return wiki_sets.write_set(argv, prog="python -m benchmarks.wiki_comparison", doc=__doc__, groups=quads, ask=ask,
                               category="bridge-comparison", hops=4, seed=41)  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
