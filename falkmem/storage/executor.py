"""Runs named queries on one graph: RO_QUERY for reads, a timeout on every call, owned retries,
and the one place where driver errors become falkmem errors.

Retry policy (tenacity, never the driver's): a call is retried with capped exponential
backoff when the server could not be reached, is loading its data, or refused the query
because its queue was full. A socket timeout is never retried: the server may still be
running the query. Writes are safe to retry after a dropped connection because every
falkmem write is idempotent (artifacts are created under a unique constraint on their id,
everything else is MERGEd).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import redis
from redis import exceptions as redis_exc
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_random_exponential

from ..errors import (
    ConnectionFailed,
    FalkmemError,
    InputError,
    QueryFailed,
    QueryTimeout,
    StorageError,
    TenantNotFound,
)
from .cypher import Query

log = logging.getLogger("falkmem.storage")

T = TypeVar("T")

# Server wordings, matched in one place.
_TIMEOUT = ("Query timed out",)
_MISSING_GRAPH = ("Invalid graph operation on empty key", "empty key")
_BUSY = ("Max pending queries exceeded",)
_CONSTRAINT = ("unique constraint violation",)
_BAD_PARAM = re.compile(r"Failed to parse query parameter '(\w+)'")


class ConstraintViolation(QueryFailed):
    """A write hit a unique constraint (internal: the caller decides what it means)."""


class _Busy(Exception):
    """The server's query queue was full; retried."""


# Redis Cluster answers that mean "not run, try again once the topology settles": the
# cluster is down or a slot has no owner during a failover (CLUSTERDOWN, no node for the
# slot), a slot is migrating (TRYAGAIN), or redirections ran past the driver's limit
# (MOVED/ASK). The node did not run the command, so retrying a write is safe; the driver
# refreshes its slot map before raising them.
_CLUSTER_TRANSIENT: tuple[type[Exception], ...] = (
    redis_exc.ClusterDownError,
    redis_exc.TryAgainError,
    redis_exc.AskError,  # MovedError is a subclass
    redis_exc.SlotNotCoveredError,
)
_UNREACHABLE: tuple[type[Exception], ...] = (
    redis.ConnectionError,
    redis.BusyLoadingError,
    _Busy,
    *_CLUSTER_TRANSIENT,
)


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, (redis.TimeoutError, redis_exc.AuthenticationError)):
        return False
    return isinstance(exc, _UNREACHABLE)


class Executor:
    """Executes :class:`Query` objects and raw graph commands with one retry policy."""

    def __init__(
        self,
        db: Any,
        *,
        timeout_ms: int,
        attempts: int,
        max_wait_s: float,
        recover: Callable[[float], object] | None = None,
    ) -> None:
        self.db = db
        self.timeout_ms = timeout_ms
        self._attempts = attempts
        self._max_wait_s = max_wait_s
        self._recover = recover
        """Called with the attempt's start time (epoch seconds) when the server could not be
        reached, before the retry: the embedded store restarts its server there if the process
        is gone."""

    def _retrying(self) -> Retrying:
        return Retrying(
            retry=retry_if_exception(_retryable),
            stop=stop_after_attempt(self._attempts),
            wait=wait_random_exponential(multiplier=0.05, max=self._max_wait_s),
            reraise=True,
        )

    def _call(self, what: str, where: str, fn: Callable[[], T]) -> T:
        def guarded() -> T:
            started = time.time()
            try:
                return fn()
            except redis.ResponseError as exc:
                if any(s in str(exc) for s in _BUSY):
                    raise _Busy() from exc
                raise
            except redis.ConnectionError:
                if self._recover is not None:
                    self._recover(started)  # may raise a FalkmemError (a server that cannot restart)
                raise

        try:
            return self._retrying()(guarded)
        except FalkmemError:
            raise
        except UnicodeEncodeError:
            # Raised by the driver while encoding the command: nothing was sent.
            raise InputError(
                "parameters", f"{what}: must be valid Unicode text (a lone surrogate cannot be sent)"
            ) from None
        except redis_exc.AuthenticationError as exc:
            raise ConnectionFailed(
                f"{what} on {where}: the server refused the credentials ({type(exc).__name__});"
                " check the username and password"
            ) from exc
        except redis.TimeoutError as exc:
            raise QueryTimeout(
                f"{what} on {where}: no answer from the server before the socket timeout; it may"
                " still be running. Check the server's TIMEOUT_MAX (falkmem doctor)"
            ) from exc
        except _UNREACHABLE as exc:
            raise ConnectionFailed(
                f"{what} on {where}: the server could not be reached after {self._attempts}"
                f" attempts ({type(exc).__name__}); check that FalkorDB is running and the URL"
            ) from exc
        except redis.ResponseError as exc:
            msg = str(exc)
            if any(s in msg for s in _TIMEOUT):
                raise QueryTimeout(
                    f"{what} on {where} timed out; narrow the query or raise FALKMEM_QUERY_TIMEOUT_MS"
                ) from exc
            if any(s in msg for s in _MISSING_GRAPH):
                raise TenantNotFound(f"{where} does not exist") from exc
            bad = _BAD_PARAM.search(msg)
            if bad:  # the server could not read a value (e.g. a NUL character): nothing ran
                raise InputError(
                    bad.group(1), f"{what}: the server cannot read this value (a NUL character?)"
                ) from None
            if any(s.lower() in msg.lower() for s in _CONSTRAINT):
                raise ConstraintViolation(f"{what} on {where}: unique constraint violation") from exc
            # The server's message names the problem, not parameter values.
            raise QueryFailed(f"{what} on {where} failed: {msg.splitlines()[0][:300]}") from exc
        except redis.RedisError as exc:
            raise StorageError(f"{what} on {where} failed: {type(exc).__name__}") from exc

    def run(
        self,
        graph: str,
        query: Query,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_ms: int | None = None,
    ) -> list[dict[str, Any]]:
        """Run ``query`` on ``graph`` and return its rows as dicts keyed by column name.

        Reads go through GRAPH.RO_QUERY (which never creates a missing graph); every call
        carries a server-side timeout.

        Raises:
            TenantNotFound: a read on a graph that does not exist.
            QueryTimeout, QueryFailed, ConnectionFailed: see the module docstring.
        """
        params = dict(params or {})
        if set(params) != set(query.params):
            raise QueryFailed(
                f"{query.name}: expected parameters {sorted(query.params)}, got {sorted(params)}"
            )
        g = self.db.select_graph(graph)
        timeout = timeout_ms or self.timeout_ms
        started = time.perf_counter()
        if query.mode == "read":
            result = self._call(
                query.name, graph, lambda: g.ro_query(query.text, params or None, timeout=timeout)
            )
        else:
            result = self._call(
                query.name, graph, lambda: g.query(query.text, params or None, timeout=timeout)
            )
        header = [h[1] if isinstance(h, (list, tuple)) else h for h in (result.header or [])]
        rows = [dict(zip(header, row, strict=False)) for row in result.result_set or []]
        log.debug(
            "query=%s graph=%s rows=%d ms=%.2f",
            query.name,
            graph,
            len(rows),
            (time.perf_counter() - started) * 1000,
        )
        return rows

    def call(self, what: str, where: str, fn: Callable[[], T]) -> T:
        """Run a driver call (e.g. a command fanned out to every cluster primary) with the retry policy."""
        started = time.perf_counter()
        out = self._call(what, where, fn)
        log.debug("command=%s ms=%.2f", what, (time.perf_counter() - started) * 1000)
        return out

    def command(self, what: str, where: str, *args: Any) -> Any:
        """Run a raw server command (GRAPH.LIST, EXISTS, GRAPH.DELETE...) with the retry policy."""
        started = time.perf_counter()
        out = self._call(what, where, lambda: self.db.connection.execute_command(*args))
        log.debug("command=%s ms=%.2f", what, (time.perf_counter() - started) * 1000)
        return out
