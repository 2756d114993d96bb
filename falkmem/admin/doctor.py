"""Health checks of a falkmem installation: server, module, timeouts, the embedded server's
crashes and orphans, models, tenant indexes."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from ..embedding.base import embed_checked
from ..errors import FalkmemError
from ..memory import Memory
from ..storage import serverlog
from ..storage.migrations import SCHEMA_VERSION
from .stats import index_rows, tenant_summary

Status = Literal["ok", "warn", "fail"]

EXPECTED_INDEXES: tuple[tuple[str, str, str], ...] = (
    ("Artifact", "id", "range"),
    ("Artifact", "embedding", "vector"),
    ("Artifact", "text", "fulltext"),
    ("Entity", "key", "range"),
    ("Session", "id", "range"),
    ("_Term", "stem", "range"),
    ("User", "id", "range"),
    ("Agent", "id", "range"),
)
"""(label, property, type) every migrated tenant has."""


@dataclass(frozen=True, slots=True)
class Check:
    """One doctor finding.

    Attributes:
        name: what was checked (``server``, ``timeouts``, ``tenant:acme``...).
        status: ``ok``, ``warn`` (works, but should be fixed) or ``fail``.
        detail: one line, saying what to do when it is not ok.
    """

    name: str
    status: Status
    detail: str

    def as_dict(self) -> dict[str, str]:
        """A JSON-ready view."""
        return {"name": self.name, "status": self.status, "detail": self.detail}


def _guard(name: str, fn: Callable[[], Check | list[Check]]) -> list[Check]:
    try:
        out = fn()
    except FalkmemError as exc:
        return [Check(name, "fail", str(exc).splitlines()[0])]
    except Exception as exc:  # a doctor reports every failure instead of stopping at the first
        return [Check(name, "fail", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")]
    return out if isinstance(out, list) else [out]


def _cmd(mem: Memory, *args: Any) -> Any:
    return mem.admin.executor.command(" ".join(str(a) for a in args[:2]), "server", *args)


def _server(mem: Memory) -> Check:
    info = _cmd(mem, "INFO", "server")
    modules = _cmd(mem, "MODULE", "LIST") or []
    graph = "missing"
    for m in modules:
        d = m if isinstance(m, dict) else dict(zip(m[0::2], m[1::2], strict=False))
        if str(d.get("name")) == "graph":
            graph = str(d.get("ver"))
    status: Status = "ok" if graph != "missing" else "fail"
    version = info.get("redis_version", "?") if isinstance(info, dict) else "?"
    return Check("server", status, f"redis {version}, FalkorDB module {graph} at {mem.location}")


def _timeouts(mem: Memory) -> Check:
    values: dict[str, int] = {}
    for name in ("TIMEOUT_MAX", "TIMEOUT_DEFAULT"):
        raw = _cmd(mem, "GRAPH.CONFIG", "GET", name)
        values[name] = int(raw[1]) if isinstance(raw, (list, tuple)) and len(raw) > 1 else 0
    text = ", ".join(f"{k}={v} ms" for k, v in values.items())
    if values["TIMEOUT_MAX"] == 0:
        return Check(
            "timeouts", "warn",
            f"{text}: no TIMEOUT_MAX, so a runaway write is never stopped; start the server with"
            " TIMEOUT_MAX (e.g. 60000) and TIMEOUT_DEFAULT",
        )  # fmt: skip
    if values["TIMEOUT_DEFAULT"] == 0:
        return Check("timeouts", "warn", f"{text}: queries sent without a timeout run up to TIMEOUT_MAX")
    return Check("timeouts", "ok", text)


def _embedder(mem: Memory) -> Check:
    emb = mem.admin.embedder
    started = time.perf_counter()
    embed_checked(emb, ["falkmem doctor"], dimension=emb.dimension)
    ms = (time.perf_counter() - started) * 1000
    return Check("embedder", "ok", f"{emb.name} ({emb.dimension}-d) embeds in {ms:.0f} ms")


def _reranker(mem: Memory) -> Check:
    spec = getattr(mem.settings, "reranker", None)
    if not spec:
        return Check("reranker", "ok", "none configured (results keep their fused order)")
    from ..ranking.rerank import load_reranker

    outcome = load_reranker(str(spec), on_error="raise")
    return Check("reranker", "ok", outcome.note)


def _tenant(mem: Memory, tenant_id: str) -> Check:
    name = f"tenant:{tenant_id}"
    summary = tenant_summary(mem, tenant_id)
    indexes = index_rows(mem, tenant_id)
    have = {(r["label"], r["property"], r["type"]) for r in indexes}
    missing = [f"{lb}.{p} ({t})" for lb, p, t in EXPECTED_INDEXES if (lb, p, t) not in have]
    building = sorted({f"{r['label']}.{r['property']}" for r in indexes if r["status"] != "OPERATIONAL"})
    problems: list[str] = []
    status: Status = "ok"
    if summary["schema_version"] < SCHEMA_VERSION:
        status = "warn"
        problems.append(
            f"schema {summary['schema_version']} < {SCHEMA_VERSION}: run `falkmem tenants migrate {tenant_id}`"
        )
    emb = mem.admin.embedder
    if summary["dimension"] != emb.dimension:
        status = "warn"
        problems.append(
            f"stores {summary['dimension']}-d vectors, the configured embedder makes another size"
        )
    elif summary["embedder"] != emb.name:
        status = "warn"
        problems.append(
            f"vectors made by {summary['embedder']!r}, but the configured embedder is {emb.name!r}"
        )
    if building:
        status = "warn"
        problems.append(f"indexes still building: {', '.join(building)}")
    if missing and summary["schema_version"] >= SCHEMA_VERSION:
        status = "fail"
        problems.append(f"indexes missing: {', '.join(missing)}")
    detail = (
        "; ".join(problems) or f"{summary['artifacts']} artifacts, {len(indexes)} index fields operational"
    )
    return Check(name, status, detail)


def _server_log(mem: Memory) -> Check:
    """Crashes (and kills) recorded in the embedded server's log since its last clean start."""
    server = mem.admin.store.server
    assert server is not None
    if server.replay_marker.exists():
        return Check(
            "server-log", "fail",
            f"the server died replaying its append-only file; see {server.replay_marker} and {server.log_file}",
        )  # fmt: skip
    found = serverlog.unclean_stops(server.log_file)
    if not found:
        return Check("server-log", "ok", f"no crash since the last clean start ({server.log_file})")
    parts = []
    for e in found[-3:]:
        if e.kind == "crash":
            parts.append(f"crashed at {e.time} ({e.detail}, pid {e.pid})")
        else:
            parts.append(f"was killed before {e.time} (pid {e.pid}, no clean shutdown)")
    more = f" ({len(found)} in all)" if len(found) > 3 else ""
    return Check(
        "server-log", "warn",
        f"since its last clean start the server {'; '.join(parts)}{more}; it was restarted from its"
        f" append-only file. The crash report is in {server.log_file}",
    )  # fmt: skip


def _orphans(mem: Memory) -> Check:
    """Servers of this store that nothing will stop (unknown to its state, or without clients
    and watchdog)."""
    server = mem.admin.store.server
    assert server is not None
    st = server.status()
    if st["orphans"]:
        pids = ", ".join(str(p) for p in st["orphans"])
        return Check(
            "orphans", "warn",
            f"orphaned server process(es) of {server.data_dir}: {pids}; stop them (kill {pids})"
            " once no falkmem process uses the store",
        )  # fmt: skip
    keep = "long-lived (falkmem server stop)" if st["keep_alive"] else f"watchdog pid {st['watchdog']}"
    return Check("orphans", "ok", f"one server (pid {st['pid']}, {keep}), clients {st['clients']}")


def doctor(mem: Memory, *, tenants: list[str] | None = None) -> list[Check]:
    """Run every check and return the findings (it never raises for a failed check).

    Args:
        mem: an open Memory (its settings name the embedder and reranker to try).
        tenants: the tenants to check; None checks every tenant of the server.
    """
    checks: list[Check] = []
    checks += _guard("server", lambda: _server(mem))
    checks += _guard("timeouts", lambda: _timeouts(mem))
    if mem.admin.store.server is not None:  # the embedded store
        checks += _guard("server-log", lambda: _server_log(mem))
        checks += _guard("orphans", lambda: _orphans(mem))
    checks += _guard("embedder", lambda: _embedder(mem))
    checks += _guard("reranker", lambda: _reranker(mem))
    try:
        ids = tenants if tenants is not None else mem.tenants()
    except FalkmemError as exc:
        checks.append(Check("tenants", "fail", str(exc).splitlines()[0]))
        ids = []
    for tid in ids:
        checks += _guard(f"tenant:{tid}", partial(_tenant, mem, tid))
    return checks
