"""Per-question rows → ``QuestionResult``s and one ``SystemResult`` (pure: no store, no clock)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from .datasets.base import Question
from .metrics import (
    KS,
    all_recall_at_k,
    hop_bucket,
    latency_summary,
    mean,
    percentile,
    question_metrics,
    recall_at_k,
    reciprocal_rank,
    shares,
)
from .paired import METRICS, by_class, cis, deltas, paired
from .report import QuestionResult, SystemResult
from .systems import System


@dataclass(frozen=True)
class QueryRow:
    """What one search of one question returned."""

    question: Question
    ids: tuple[str, ...]
    route: str
    timings_ms: dict[str, float]
    e2e_ms: float
    context_tokens: int | None = None
    reranker: str = "none"
    tenant: str = ""
    sessions: tuple[str, ...] = ()
    """The session of each ranked id (``""`` for none); empty when the dataset has no sessions."""


def _by_hops(rows: Sequence[QueryRow]) -> dict[str, dict[str, float]]:
    groups: dict[str, list[QueryRow]] = defaultdict(list)
    for r in rows:
        groups[hop_bucket(r.question.hops)].append(r)
        groups[f"{r.question.hops}"].append(r)
    out = {}
    for name, rs in sorted(groups.items()):
        out[name] = {
            "n": float(len(rs)),
            **{f"@{k}": mean(recall_at_k(r.ids, r.question.gold, k) for r in rs) for k in KS},
            "all@5": mean(all_recall_at_k(r.ids, r.question.gold, 5) for r in rs),
            "all@10": mean(all_recall_at_k(r.ids, r.question.gold, 10) for r in rs),
            "mrr": mean(reciprocal_rank(r.ids, r.question.gold) for r in rs),
        }
    return out


def _session_recall(rows: Sequence[QueryRow]) -> dict[str, float]:
    """Share of gold sessions with a turn in the top k (a ranked turn counts for its session)."""
    rs = [r for r in rows if r.question.gold_sessions]
    if not rs:
        return {}
    return {f"@{k}": mean(recall_at_k(r.sessions, r.question.gold_sessions, k) for r in rs) for k in KS}


def question_result(group: str, system: str, r: QueryRow) -> QuestionResult:
    """The reportable result of one row: ids, route, latency and every per-question metric."""
    q = r.question
    return QuestionResult(
        tenant=r.tenant or group, group=group, system=system, id=q.id, text=q.text, category=q.category,
        hops=q.hops, gold=list(q.gold), gold_sessions=list(q.gold_sessions), ranked=list(r.ids), route=r.route,
        latency_ms=r.timings_ms.get("total", r.e2e_ms), e2e_ms=r.e2e_ms,
        metrics=question_metrics(r.ids, q.gold, sessions=r.sessions, gold_sessions=q.gold_sessions),
    )  # fmt: skip


def summarize(
    tenant: str,
    system: System,
    rows: Sequence[QueryRow],
    *,
    context_source: str,
    results: Sequence[QuestionResult] | None = None,
    baseline: Sequence[QuestionResult] | None = None,
    baseline_name: str = "vector-only",
) -> SystemResult:
    """Recall, all-recall, MRR, NDCG, tokens, route shares and latencies of one system's rows, with CIs.

    ``tenant`` names the report group (a tenant, or several reported together). ``results`` are
    the rows' ``QuestionResult``s (built here when not given); with ``baseline`` (the baseline
    system's results on the same group; not for the baseline itself) the paired deltas and the
    per-class deltas are filled in.
    """
    qrs = list(results) if results is not None else [question_result(tenant, system.name, r) for r in rows]
    vs = deltas(paired(qrs, baseline), METRICS, baseline_name=baseline_name) if baseline else {}
    stages: dict[str, list[float]] = defaultdict(list)
    by_route: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        for stage, ms in r.timings_ms.items():
            stages[stage].append(ms)
        stages["e2e"].append(r.e2e_ms)
        by_route[r.route].append(r.timings_ms.get("total", r.e2e_ms))
    tokens = [float(r.context_tokens) for r in rows if r.context_tokens is not None]
    return SystemResult(
        tenant=tenant, system=system.name, group=system.group, params=dict(system.params), questions=len(rows),
        recall={f"@{k}": mean(recall_at_k(r.ids, r.question.gold, k) for r in rows) for k in KS},
        all_recall={f"@{k}": mean(all_recall_at_k(r.ids, r.question.gold, k) for r in rows) for k in KS},
        mrr=mean(reciprocal_rank(r.ids, r.question.gold) for r in rows),
        recall_by_hops=_by_hops(rows),
        context_tokens={"mean": mean(tokens), "p95": percentile(tokens, 95)} if tokens else {},
        context_source=context_source if tokens else "not measured",
        route_share=shares(r.route for r in rows),
        latency_ms={stage: latency_summary(v) for stage, v in sorted(stages.items())},
        latency_by_route_ms={route: latency_summary(v) for route, v in sorted(by_route.items())},
        reranker=rows[0].reranker if rows else "none",
        tenants=len({r.tenant for r in rows}) or 1, session_recall=_session_recall(rows),
        ndcg={"@10": mean(q.metrics["NDCG@10"] for q in qrs)}, ci=cis(qrs, METRICS), vs_baseline=vs,
        by_class=by_class(qrs, baseline, baseline_name=baseline_name),
    )  # fmt: skip
