"""Tests for benchmarks.answers: how the context measurement decides that an answer reached the prompt."""

from __future__ import annotations

from benchmarks.answers import answer_in, answer_sentences, evidence_in, normalise, scorable
from benchmarks.context_eval import plain_pack
from falkmem.context import RegexTokenCounter
from falkmem.models import Hit


def test_normalise_and_dates() -> None:
    assert normalise("The Art Basel, on 30 December, 2023!") == "art basel on 2023 12 30"
    for form in ("Dec 30 2023", "2023-12-30", "30.12.2023", "30 Dec 2023", "December 30th, 2023"):
        assert answer_in(f"[3] {form} Emi: went to Art Basel", ["30 December, 2023"]), form
    assert not answer_in("2023-12-31", ["30 December, 2023"])


def test_whole_words_and_aliases() -> None:
    assert answer_in("G. Stanley Hall was its first president", ["Stanley Hall"])
    assert not answer_in("the Hallmark store", ["Hall"])
    assert answer_in("signed as the TFEU", ["the Treaty on the Functioning of the European Union", "TFEU"])


def test_a_line_label_is_not_an_answer() -> None:
    assert not answer_in("[1] 28 May 2023 user: I lead one project.\n[2] 30 May 2023 user: Hi", ["2"])
    assert answer_in("[1] user: I have led 2 projects.", ["2"])
    assert not evidence_in("[2] projects were late", ["2 projects were late"])
    assert evidence_in("- 2 projects were late", ["2 projects were late"])


def test_what_is_scored() -> None:
    assert scorable("Victoria Falls") and scorable("6.8 inches")
    assert not scorable("yes") and not scorable("No, she was with her friend.")
    assert not scorable("off the north - western coast of the European mainland")  # 9 words


def test_evidence_is_a_whole_answer_bearing_sentence() -> None:
    gold = ["Seattle\nSeattle gets some snow. Average annual snowfall is 6.8 inches. Heavy snow is rare."]
    ev = answer_sentences(gold, ["6.8 inches"])
    assert ev == ["average annual snowfall is 6 8 inches"]
    assert evidence_in("[2] Seattle: … Average annual snowfall is 6.8 inches.", ev)
    assert not evidence_in("[2] Seattle receives 6.8 inches.", ev)


def test_plain_packing_takes_whole_memories_that_fit() -> None:
    hits = [Hit(id=i, text=t, kind="fact", score=1.0) for i, t in
            (("a", "Short one."), ("b", "A much longer memory " * 10), ("c", "Tiny."))]  # fmt: skip
    text, used = plain_pack(hits, 10, RegexTokenCounter())
    assert used == ["a", "c"] and text == "- Short one.\n- Tiny."


def test_summaries_pair_each_system_with_plain_packing() -> None:
    from benchmarks.context_eval import CONTEXT, PLAIN, Cell, QuestionRow, summarise

    def row(i: int, ctx: float, plain: float) -> QuestionRow:
        cells = {CONTEXT: {"150": Cell(answer=ctx, evidence=ctx, tokens=140, tokens_bpe=120)},
                 PLAIN: {"150": Cell(answer=plain, evidence=None, tokens=100, tokens_bpe=151)}}  # fmt: skip
        return QuestionRow(tenant="t", id=f"q{i}", text="q", category="c", hops=1, answers=["a"], scored=True,
                           evidence=1, hits=[], gold=[], search_ms=1.0, search_ctx_ms=1.0, cells=cells)  # fmt: skip

    rows = [row(i, 1.0, 1.0 if i < 5 else 0.0) for i in range(20)]
    ctx, plain = summarise(rows, [CONTEXT, PLAIN], [150])
    assert (ctx.answer, plain.answer) == (100.0, 25.0)
    assert (
        ctx.vs_plain_answer is not None
        and ctx.vs_plain_answer.delta == 75.0
        and ctx.vs_plain_answer.significant
    )
    assert ctx.vs_plain_evidence is None  # plain's evidence was not scored: nothing to pair
    assert plain.bpe_over_budget == 20 and ctx.bpe_over_budget == 0


def test_gold_rendered_counts_the_gold_memories_on_a_line() -> None:
    from benchmarks.context_eval import CONTEXT, PLAIN, Cell, QuestionRow, gold_rendered, summarise

    assert gold_rendered(["a", "b"], ["b", "x"]) == 0.5 and gold_rendered([], ["a"]) == 0.0

    def row(i: int, ctx: list[str], plain: list[str]) -> QuestionRow:
        cells = {CONTEXT: {"150": Cell(tokens=140, used=ctx)}, PLAIN: {"150": Cell(tokens=100, used=plain)}}
        return QuestionRow(tenant="t", id=f"q{i}", text="q", category="c", hops=1, answers=[], scored=False,
                           evidence=0, hits=[], gold=["g1", "g2"], search_ms=1.0, search_ctx_ms=1.0, cells=cells)  # fmt: skip

    rows = [row(i, ["g1", "g2", "x"], ["g1"] if i < 10 else ["x"]) for i in range(20)]
    ctx, plain = summarise(rows, [CONTEXT, PLAIN], [150])
    assert (ctx.gold, plain.gold, ctx.n_gold) == (100.0, 25.0, 20)
    assert ctx.vs_plain_gold is not None and ctx.vs_plain_gold.delta == 75.0
    assert ctx.n_answer == 0  # no scored answer: the gold share is scored all the same


def test_two_runs_compare_question_by_question() -> None:
    from benchmarks.context_eval import (
        CONTEXT,
        PLAIN,
        Cell,
        ContextReport,
        Latency,
        QuestionRow,
        compare_reports,
    )

    def report(commit: str, answered: int) -> ContextReport:
        rows = []
        for i in range(10):
            cells = {CONTEXT: {"150": Cell(answer=float(i < answered), tokens=140, used=["g"] if i < answered else [])},
                     PLAIN: {"150": Cell(answer=0.0, tokens=100)}}  # fmt: skip
            rows.append(QuestionRow(tenant="t", id=f"q{i}", text="q", category="c", hops=1, answers=["a"], scored=True,
                                    evidence=0, hits=[], gold=["g"], search_ms=1.0, search_ctx_ms=1.0, cells=cells))  # fmt: skip
        return ContextReport(created_at="", command="", dataset="d", tenants=["t"], budgets=[150], systems=[CONTEXT, PLAIN],
                             counter="regex", bpe=None, embedder="e", git_commit=commit, git_dirty=False, machine={},
                             packages={}, settings={}, questions=rows, summaries=[],
                             latency=Latency(search_k10={}, search_ctx={}, context={}, pack={}))  # fmt: skip

    md = compare_reports(report("old", 3), report("new", 5))
    row = next(line for line in md.splitlines() if line.startswith("| 150 |"))
    assert "30.0 → 50.0" in row and "+2 −0" in row and "+20.0" in row


def test_reachable_is_what_any_packing_of_the_candidates_could_show() -> None:
    from datetime import datetime

    from benchmarks.context_eval import reachable
    from falkmem.context import ContextItem, RegexTokenCounter

    c = RegexTokenCounter()
    items = [
        ContextItem("m1", "I finished The Nightingale in three weeks.", 2.0),
        ContextItem("m2", "We met at the bakery.", 1.0, at=datetime(2024, 1, 20, 9, 0), session="s1"),
    ]
    assert reachable("How long did the book take?", items, ["three weeks"], c)
    assert not reachable("How long did both books take?", items, ["5.5 weeks"], c)  # summed: in no memory
    assert reachable("When did we meet?", items, ["20 January 2024"], c)  # the rendered date counts
