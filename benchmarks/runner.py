"""One benchmark run: ingest every tenant once, then search every question with every system on that store."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm  # type: ignore[import-untyped]

from falkmem import Memory
from falkmem.context.pack import ContextItem, pack
from falkmem.embedding.base import Embedder
from falkmem.settings import Settings
from falkmem.tenant import Tenant

from .aggregate import QueryRow, question_result, summarize
from .datasets.base import Dataset, Question, TenantData
from .metrics import latency_summary, rate
from .report import (
    BenchReport,
    IngestResult,
    QuestionResult,
    SystemResult,
    ThroughputResult,
    git_state,
    machine,
    now_iso,
    package_versions,
)  # fmt: skip
from .systems import INSTANCES, Sweep, System, systems

REPO_ROOT = Path(__file__).resolve().parents[1]
WARMUP_QUERIES = 3
BATCH_SIZE = 64


@dataclass
class RunConfig:
    """Everything a run needs besides the dataset."""

    dataset: str
    size: int = 1000
    seed: int = 7
    sweep: Sweep = "default"
    k: int = 10
    budget_tokens: int = 800
    clients: tuple[int, ...] = (1, 4)
    embedder: str = "minilm"
    path: Path | None = None
    reranker: str | None = None
    floor_sample: int = 2000
    context: bool = True
    reuse: bool = False
    progress: bool = True
    command: str = ""
    notes: list[str] = field(default_factory=list)
    baseline: str = "vector-only"
    """The system every other is compared with (paired deltas with CIs)."""


def make_embedder(name: str) -> Embedder:
    """``minilm`` (the real all-MiniLM-L6-v2, offline) or ``hash`` (HashEmbedder: no model, seconds).

    ``minilm`` is built like the library builds it (``FALKMEM_EMBEDDER_BACKEND``, default
    ONNX; a question on its own one-thread session), without the query-embedding cache: every
    system embeds every question, so their latencies compare. (Before this, the harness ran
    the torch backend whatever the setting said.)
    """
    if name == "hash":
        from falkmem.testing import HashEmbedder

        return HashEmbedder()
    if name == "minilm":
        from falkmem.embedding import make_embedder as library_embedder

        return library_embedder(Settings.load(query_cache_size=0))
    raise ValueError(f"unknown embedder {name!r}; use minilm or hash")


def embedder_label(embedder: Embedder) -> str:
    """The model name and how it ran, e.g. ``all-MiniLM-L6-v2 (onnx)``."""
    kind = type(embedder).__name__
    backend = {"OnnxMiniLMEmbedder": "onnx", "SentenceTransformerEmbedder": "torch"}.get(kind, kind)
    return f"{embedder.name} ({backend})"


@contextlib.contextmanager
def store_dir(path: Path | None) -> Iterator[Path]:
    """The given store folder, or a temporary one removed afterwards."""
    if path is not None:
        path.mkdir(parents=True, exist_ok=True)
        yield path
        return
    tmp = Path(tempfile.mkdtemp(prefix="falkmem-bench-"))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def used_memory(mem: Memory) -> int | None:
    """The store's ``INFO memory`` used_memory in bytes (None when the server does not say)."""
    try:
        info = mem._engine.store.db.connection.info("memory")
        return int(info["used_memory"])
    except Exception:  # a cluster answers per node; the number is informative, not essential
        return None


def _bar(total: int, desc: str, enabled: bool) -> tqdm[Any]:
    return tqdm(total=total, desc=desc, unit="q" if "search" in desc else "it", leave=False, disable=not enabled,
                dynamic_ncols=True)  # fmt: skip


def ingest(mem: Memory, embedder: Embedder, data: TenantData, cfg: RunConfig) -> IngestResult:
    """Store a tenant's memories (dropping an older copy first) and time it against the embedder alone.

    With ``cfg.reuse`` a tenant that already holds exactly these memories is kept as it is.
    ``cfg.floor_sample == 0`` skips the embedder-alone measurement (its rate is then 0).
    """
    texts = [m.text for m in data.memories]
    if cfg.reuse and mem.has_tenant(data.tenant) and mem.tenant(data.tenant).count() == len(texts):
        return IngestResult(tenant=data.tenant, memories=len(texts), reused=True, seconds=0.0, rate_per_s=0.0,
                            embed_floor_sample=0, embed_floor_seconds=0.0, embed_floor_rate_per_s=0.0,
                            share_of_floor=0.0, used_memory_after=used_memory(mem))  # fmt: skip
    mem.drop_tenant(data.tenant)
    embedder.embed(texts[:2])  # load the model before any clock starts
    sample = texts[: max(0, min(cfg.floor_sample, len(texts)))]
    t = time.perf_counter()
    for i in range(0, len(sample), BATCH_SIZE):
        embedder.embed(sample[i : i + BATCH_SIZE])
    floor_s = time.perf_counter() - t
    before = used_memory(mem)
    bar = _bar(len(texts), f"ingest {data.tenant}", cfg.progress)
    t = time.perf_counter()
    mem.tenant(data.tenant).add_many(
        (m.record() for m in data.memories), batch_size=BATCH_SIZE,
        on_progress=lambda done, total: bar.update(done - bar.n),
    )  # fmt: skip
    secs = time.perf_counter() - t
    bar.close()
    after = used_memory(mem)
    delta = after - before if after is not None and before is not None else None
    ingest_rate, floor_rate = rate(len(texts), secs), rate(len(sample), floor_s)
    return IngestResult(
        tenant=data.tenant, memories=len(texts), seconds=round(secs, 3), rate_per_s=round(ingest_rate, 2),
        embed_floor_sample=len(sample), embed_floor_seconds=round(floor_s, 3),
        embed_floor_rate_per_s=round(floor_rate, 2),
        share_of_floor=round(ingest_rate / floor_rate, 4) if floor_rate else 0.0,
        used_memory_before=before, used_memory_after=after, used_memory_delta=delta,
        bytes_per_memory=round(delta / len(texts), 1) if delta is not None and texts else None,
    )  # fmt: skip


def _tokens(handle: Tenant, mem: Memory, system: System, q: Question, hits: Any, route: str, max_hops: int,
            budget: int) -> int:  # fmt: skip
    """Context tokens of one answer: ``context()`` on the same route, or the hits packed when channels are limited."""
    if system.channels is None:
        return handle.context(q.text, budget_tokens=budget, route=route, max_hops=max_hops, now=q.now).tokens  # type: ignore[arg-type]
    items = [ContextItem(id=h.id, text=h.text, score=h.score, session=h.session, at=h.valid_at, kind=h.kind)
             for h in hits]  # fmt: skip
    return pack(q.text, items, budget_tokens=budget, counter=mem._engine.token_counter).tokens


def ask(handle: Tenant, system: System, q: Question, k: int) -> QueryRow:
    """One search, timed end to end around the SDK call."""
    t = time.perf_counter()
    r = handle.search(q.text, k=k, now=q.now, **system.search_kwargs())
    e2e = (time.perf_counter() - t) * 1000
    return QueryRow(question=q, ids=tuple(r.ids), route=r.route, timings_ms=dict(r.timings_ms),
                    e2e_ms=round(e2e, 3), reranker=r.reranker)  # fmt: skip


def run_system(mem: Memory, data: TenantData, system: System, cfg: RunConfig) -> list[QueryRow]:
    """Every question of a tenant through one system (after a short warm-up): one row per question."""
    handle = mem.tenant(data.tenant)
    session_of = data.session_of() if any(q.gold_sessions for q in data.questions) else {}
    for q in data.questions[:WARMUP_QUERIES]:
        handle.search(q.text, k=cfg.k, now=q.now, **system.search_kwargs())
    rows: list[QueryRow] = []
    for q in tqdm(data.questions, desc=f"search {system.name}", leave=False, disable=not cfg.progress,
                  dynamic_ncols=True):  # fmt: skip
        t = time.perf_counter()
        r = handle.search(q.text, k=cfg.k, now=q.now, **system.search_kwargs())
        e2e = (time.perf_counter() - t) * 1000
        tokens = None
        if cfg.context:
            hops = r.plan.max_hops if r.plan is not None else 2
            tokens = _tokens(handle, mem, system, q, r.hits, r.route, hops, cfg.budget_tokens)
        rows.append(QueryRow(question=q, ids=tuple(r.ids), route=r.route, timings_ms=dict(r.timings_ms),
                             e2e_ms=round(e2e, 3), context_tokens=tokens, reranker=r.reranker, tenant=data.tenant,
                             sessions=tuple(session_of.get(i, "") for i in r.ids) if session_of else ()))  # fmt: skip
    return rows


def context_source(system: System) -> str:
    """How a system's context tokens were counted."""
    return "context()" if system.channels is None else "pack(search hits): context() takes no channels"


def throughput(
    mem: Memory, data: TenantData, system: System, clients: int, cfg: RunConfig
) -> ThroughputResult:
    """All questions of a tenant spread over ``clients`` threads sharing one Memory."""
    handle = mem.tenant(data.tenant)
    with ThreadPoolExecutor(max_workers=clients) as pool:
        t = time.perf_counter()
        rows = list(pool.map(lambda q: ask(handle, system, q, cfg.k), data.questions))
        secs = time.perf_counter() - t
    return ThroughputResult(
        tenant=data.tenant, system=system.name, clients=clients, queries=len(rows), seconds=round(secs, 3),
        qps=round(rate(len(rows), secs), 2), latency_ms=latency_summary(r.e2e_ms for r in rows),
    )  # fmt: skip


def _open(path: Path, embedder: Embedder, instance: str, cfg: RunConfig) -> Memory:
    overrides = dict(INSTANCES[instance])
    reranker = cfg.reranker if instance == "rerank" else "none"
    return Memory(path, embedder=embedder, reranker=reranker, **overrides)


def _summaries(
    rows: dict[tuple[str, str], list[QueryRow]], chosen: list[System], baseline: str
) -> tuple[list[SystemResult], list[QuestionResult]]:
    """Per-question results and one summary per (group, system), with deltas against ``baseline``."""
    by_name = {s.name: s for s in chosen}
    qrs = {gk: [question_result(gk[0], gk[1], r) for r in rs] for gk, rs in rows.items()}
    out = []
    for (group, name), rs in rows.items():
        base = qrs.get((group, baseline)) if name != baseline else None
        out.append(summarize(group, by_name[name], rs, context_source=context_source(by_name[name]),
                             results=qrs[(group, name)], baseline=base, baseline_name=baseline))  # fmt: skip
    return out, [q for rs in qrs.values() for q in rs]


def run(dataset: Dataset, cfg: RunConfig) -> BenchReport:
    """Ingest, sweep the systems, measure throughput; return the report (nothing printed)."""
    commit, dirty = git_state(REPO_ROOT)  # the code that runs is the code at the start
    chosen = systems(cfg.sweep, reranker=cfg.reranker is not None)
    if cfg.baseline not in {s.name for s in chosen}:
        raise ValueError(f"baseline {cfg.baseline!r} is not a system of the {cfg.sweep!r} sweep; "
                         f"choose from: {', '.join(s.name for s in chosen)}")  # fmt: skip
    notes = list(cfg.notes)
    if cfg.reranker is None:
        notes.append("no reranker configured (--reranker): the with/without reranker comparison was skipped")
    embedder = make_embedder(cfg.embedder)
    ingests: list[IngestResult] = []
    rows: dict[tuple[str, str], list[QueryRow]] = {}
    tput: list[ThroughputResult] = []
    measured: set[str] = set()
    with store_dir(cfg.path) as path:
        mems: dict[str, Memory] = {}
        try:
            for instance in dict.fromkeys(s.instance for s in chosen):
                mems[instance] = _open(path, embedder, instance, cfg)
            default = mems["default"]
            for data in dataset.tenants:
                ingests.append(ingest(default, embedder, data, cfg))
                for system in tqdm(chosen, desc=f"systems {data.tenant}", disable=not cfg.progress,
                                   dynamic_ncols=True):  # fmt: skip
                    rows.setdefault((data.group, system.name), []).extend(
                        run_system(mems[system.instance], data, system, cfg)
                    )
                reference = next(s for s in chosen if s.name == "default (settings)")
                if data.group not in measured:  # throughput on the first tenant of each group
                    measured.add(data.group)
                    for clients in cfg.clients:
                        tput.append(throughput(default, data, reference, clients, cfg))
            settings = default.settings.model_dump(
                mode="json", exclude={"password", "openai_api_key", "path"}
            )
        finally:
            for m in mems.values():
                m.close()
    results, questions = _summaries(rows, chosen, cfg.baseline)
    return BenchReport(
        created_at=now_iso(), command=cfg.command, dataset=dataset.name, dataset_info=dataset.info,
        size=sum(len(t.memories) for t in dataset.tenants), seed=cfg.seed, sweep=cfg.sweep, k=cfg.k,
        budget_tokens=cfg.budget_tokens, embedder=embedder_label(embedder), git_commit=commit, git_dirty=dirty,
        packages=package_versions(), machine=machine(), settings=settings,
        instances={name: dict(INSTANCES[name]) for name in mems},
        ingest=ingests, systems=results, throughput=tput, notes=notes, baseline=cfg.baseline,
        class_by=dataset.class_by, questions=questions,
    )  # fmt: skip


__all__ = [
    "RunConfig",
    "context_source",
    "ingest",
    "make_embedder",
    "run",
    "run_system",
    "store_dir",
    "throughput",
]
