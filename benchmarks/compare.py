"""``python -m benchmarks compare OLD.json NEW.json``: two runs, question by question.

Questions are matched by (tenant, question id) within each (tenant group, system) present in
both reports. Per system: the paired delta NEW − OLD with its bootstrap 95 % CI and Wilcoxon p
for each metric, then the questions whose ``--metric`` fell (losses) or rose (wins), with their
ids and text, so each can be read with ``explain()``. ``--fail-on SYSTEM:METRIC`` (repeatable)
makes the exit code 1 when that system's metric fell with a CI that excludes 0.

Exit codes: 0 no named regression, 1 a ``--fail-on`` regression, 2 a report is unreadable, has no
per-question results, or a ``--fail-on`` names a system or metric neither report has.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from .paired import METRICS, deltas, key, metric_name, present
from .report import BenchReport, QuestionResult
from .stats import PairedDelta
from .table_paired import fmt_delta, fmt_p, label, table

SHOWN = ("R@5", "R@10", "all@5", "RR", "NDCG@10", "sR@5", "sR@10")
MAX_LISTED = 25
"""Changed questions listed per system and direction (the rest are counted)."""

Cell = tuple[str, str]  # (tenant group, system)


class CompareError(Exception):
    """A report cannot be compared (exit 2)."""


@dataclass
class SystemDiff:
    """One (group, system) in both runs."""

    group: str
    system: str
    matched: int
    only_old: int
    only_new: int
    deltas: dict[str, PairedDelta]
    old_mean: dict[str, float]
    new_mean: dict[str, float]
    lost: list[tuple[QuestionResult, QuestionResult]]
    won: list[tuple[QuestionResult, QuestionResult]]


def load(path: Path, *, questions: bool = True) -> BenchReport:
    """A report (with per-question results unless ``questions`` is False)."""
    try:
        report = BenchReport.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, ValidationError) as exc:
        raise CompareError(f"{path}: not a benchmark report ({str(exc).splitlines()[0]})") from None
    if questions and not report.questions:
        raise CompareError(f"{path}: no per-question results (report schema {report.schema_version}); "
                           "run it again with this version of the harness")  # fmt: skip
    return report


def _cells(report: BenchReport) -> dict[Cell, list[QuestionResult]]:
    out: dict[Cell, list[QuestionResult]] = defaultdict(list)
    for q in report.questions:
        out[(q.group, q.system)].append(q)
    return out


def diff(old: BenchReport, new: BenchReport, *, metric: str = "R@5") -> list[SystemDiff]:
    """Every (group, system) of both reports, compared question by question on the questions both asked."""
    metric = metric_name(metric)
    a, b = _cells(old), _cells(new)
    out = []
    for cell in [c for c in b if c in a]:
        before = {key(q): q for q in a[cell]}
        pairs = [(before[key(q)], q) for q in b[cell] if key(q) in before]
        olds, news = [p[0] for p in pairs], [p[1] for p in pairs]
        metrics = [m for m in present(olds, METRICS) if m in present(news, METRICS)]
        ds = deltas([(n, o) for o, n in pairs], metrics, baseline_name="old")
        changed = [(o, n) for o, n in pairs if metric in o.metrics and metric in n.metrics]
        out.append(SystemDiff(
            group=cell[0], system=cell[1], matched=len(pairs), only_old=len(a[cell]) - len(pairs),
            only_new=len(b[cell]) - len(pairs), deltas=ds,
            old_mean={m: sum(q.metrics[m] for q in olds) / len(olds) for m in metrics} if olds else {},
            new_mean={m: sum(q.metrics[m] for q in news) / len(news) for m in metrics} if news else {},
            lost=sorted([p for p in changed if p[1].metrics[metric] < p[0].metrics[metric]],
                        key=lambda p: (p[1].metrics[metric] - p[0].metrics[metric], key(p[1]))),
            won=sorted([p for p in changed if p[1].metrics[metric] > p[0].metrics[metric]],
                       key=lambda p: (p[0].metrics[metric] - p[1].metrics[metric], key(p[1]))),
        ))  # fmt: skip
    return out


def resolve(name: str, names: Sequence[str]) -> str:
    """A system by its full name, or by a unique prefix (``default`` → ``default (settings)``)."""
    if name in names:
        return name
    hits = [n for n in dict.fromkeys(names) if n.startswith(name)]
    if len(hits) != 1:
        raise CompareError(f"--fail-on: {name!r} names {'no' if not hits else 'more than one'} system of both "
                           f"reports ({', '.join(dict.fromkeys(names))})")  # fmt: skip
    return hits[0]


def regressions(diffs: Sequence[SystemDiff], fail_on: Sequence[str]) -> list[str]:
    """One line per ``SYSTEM:METRIC`` of ``fail_on`` that fell significantly in some group."""
    out = []
    names = [d.system for d in diffs]
    for spec in fail_on:
        system, sep, metric = spec.rpartition(":")
        if not sep or not system or not metric:
            raise CompareError(f"--fail-on {spec!r}: expected SYSTEM:METRIC, e.g. default:R@5")
        system, metric = resolve(system, names), metric_name(metric)
        mine = [d for d in diffs if d.system == system]
        if not any(metric in d.deltas for d in mine):
            raise CompareError(f"--fail-on {spec!r}: no metric {metric!r} (have: {', '.join(METRICS)})")
        for d in mine:
            delta = d.deltas.get(metric)
            if delta is not None and delta.significant and delta.delta < 0:
                out.append(f"{d.group} / {d.system}: {label(metric)} {fmt_delta(delta)} (p {fmt_p(delta)})")
    return out


def _question_rows(pairs: Sequence[tuple[QuestionResult, QuestionResult]], metric: str) -> list[list[object]]:
    return [[n.tenant, n.id, n.text.replace("|", "/"), f"{100 * o.metrics[metric]:.0f} → {100 * n.metrics[metric]:.0f}",
             f"{o.route} → {n.route}"] for o, n in pairs[:MAX_LISTED]]  # fmt: skip


def render(diffs: Sequence[SystemDiff], old: BenchReport, new: BenchReport, *, metric: str, old_path: Path,
           new_path: Path) -> str:  # fmt: skip
    """The markdown summary of a comparison."""
    metric = metric_name(metric)
    shown = [m for m in SHOWN if any(m in d.deltas for d in diffs)]
    head = [
        "tenant",
        "system",
        "n",
        *[f"{label(m)} old → new, Δ [95% CI]" for m in shown],
        f"p {label(metric)}",
    ]
    rows = []
    for d in diffs:
        cells = [f"{100 * d.old_mean[m]:.1f} → {100 * d.new_mean[m]:.1f}, {fmt_delta(d.deltas[m])}"
                 if m in d.deltas else "–" for m in shown]  # fmt: skip
        rows.append([d.group, d.system, d.matched, *cells, fmt_p(d.deltas.get(metric))])
    parts = [
        f"## benchmarks compare: {old_path} → {new_path}", "",
        f"old: {old.dataset}, commit {(old.git_commit or '?')[:10]}{' (dirty)' if old.git_dirty else ''}, "
        f"{old.created_at}; new: {new.dataset}, commit {(new.git_commit or '?')[:10]}"
        f"{' (dirty)' if new.git_dirty else ''}, {new.created_at}", "",
        "Paired on the questions both runs asked (points; bootstrap 95% CI; * = CI excludes 0).", "",
        table(head, rows),
    ]  # fmt: skip
    for d in diffs:
        if d.only_old or d.only_new:
            parts += [
                "",
                f"{d.group} / {d.system}: {d.only_old} questions only in old, {d.only_new} only in new",
            ]
        for title, pairs in (("fell", d.lost), ("rose", d.won)):
            if not pairs:
                continue
            more = f" (first {MAX_LISTED} of {len(pairs)})" if len(pairs) > MAX_LISTED else ""
            parts += ["", f"### {d.group} / {d.system}: {len(pairs)} questions whose {label(metric)} {title}{more}",
                      "", table(["tenant", "question id", "question", label(metric), "route"],
                                _question_rows(pairs, metric))]  # fmt: skip
    return "\n".join(parts) + "\n"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``compare`` subcommand."""
    c = sub.add_parser("compare", help="compare two reports question by question")
    c.add_argument("old", type=Path, help="the earlier report (JSON)")
    c.add_argument("new", type=Path, help="the later report (JSON)")
    c.add_argument(
        "--metric", default="R@5", help="metric whose per-question changes are listed (default R@5)"
    )
    c.add_argument("--fail-on", action="append", default=[], metavar="SYSTEM:METRIC",
                   help="exit 1 when SYSTEM's METRIC fell significantly, e.g. default:R@5 (repeatable)")  # fmt: skip


def main(args: argparse.Namespace) -> int:
    """Run a comparison from parsed arguments; returns the exit code."""
    import sys

    try:
        old, new = load(args.old), load(args.new)
        metric = metric_name(args.metric)
        if metric not in METRICS:
            raise CompareError(f"--metric {args.metric!r}: use one of {', '.join(METRICS)} (or MRR)")
        diffs = diff(old, new, metric=metric)
        if not diffs:
            raise CompareError("the reports share no (tenant, system): nothing to compare")
        failed = regressions(diffs, args.fail_on)
    except CompareError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render(diffs, old, new, metric=metric, old_path=args.old, new_path=args.new))
    if failed:
        print("\nsignificant regressions:\n" + "\n".join(f"- {line}" for line in failed))
        return 1
    return 0


__all__ = [
    "CompareError",
    "SystemDiff",
    "add_parser",
    "diff",
    "load",
    "main",
    "regressions",
    "render",
    "resolve",
]
