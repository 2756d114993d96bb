"""falkmem: agent memory that remembers connections, not just similar text.

Memories are nodes with embeddings in FalkorDB; the entities they mention form a knowledge
graph; each query is routed to vector search or to vector + graph traversal.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from .errors import (
    ConfigError,
    ConnectionFailed,
    CypherFileError,
    DimensionMismatch,
    EmbeddingError,
    ExtractionError,
    FalkmemError,
    InputError,
    InvalidTenantId,
    LimitExceeded,
    NotFound,
    QueryFailed,
    QueryTimeout,
    RerankError,
    StorageError,
    StoreLocked,
    TenantError,
    TenantExists,
    TenantNotFound,
)

if TYPE_CHECKING:
    __version__: str
    from .aio import AsyncMemory as AsyncMemory
    from .aio import AsyncTenant as AsyncTenant
    from .config import RouterConfig as RouterConfig
    from .memory import Memory as Memory
    from .models import AddResult as AddResult
    from .models import ConsolidateResult as ConsolidateResult
    from .models import ContextResult as ContextResult
    from .models import ContextSource as ContextSource
    from .models import Explain as Explain
    from .models import ForgetResult as ForgetResult
    from .models import HealthReport as HealthReport
    from .models import History as History
    from .models import HistoryEntry as HistoryEntry
    from .models import Hit as Hit
    from .models import MaintainResult as MaintainResult
    from .models import ReconcileResult as ReconcileResult
    from .models import Record as Record
    from .models import SearchResult as SearchResult
    from .models import StageInfo as StageInfo
    from .routing.router import Plan as Plan
    from .settings import Settings as Settings
    from .tenant import Tenant as Tenant

# The rest of the surface is imported on first use (PEP 562), so ``import falkmem`` and
# ``falkmem --help`` do not pay for the engine, pydantic models, numpy, redis or wordfreq
# (issue 51: 0.9-1.8 s before). The Cypher files are parsed and checked on the first query
# (``storage.cypher.load_all``, all of them at once: a broken file still fails before any
# statement is sent), not at import.
_LAZY: dict[str, str] = {
    "AsyncMemory": "aio",
    "AsyncTenant": "aio",
    "RouterConfig": "config",
    "Memory": "memory",
    "AddResult": "models",
    "ConsolidateResult": "models",
    "ContextResult": "models",
    "ContextSource": "models",
    "Explain": "models",
    "ForgetResult": "models",
    "HealthReport": "models",
    "History": "models",
    "HistoryEntry": "models",
    "Hit": "models",
    "MaintainResult": "models",
    "ReconcileResult": "models",
    "Record": "models",
    "SearchResult": "models",
    "StageInfo": "models",
    "Plan": "routing.router",
    "Settings": "settings",
    "Tenant": "tenant",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":  # importlib.metadata alone costs ~0.1 s: read when asked
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("falkmem")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            value = "0.0.0"
        globals()[name] = value
        return value
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'falkmem' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # once: later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"__version__"})


logging.getLogger("falkmem").addHandler(logging.NullHandler())


__all__ = [
    "AddResult",
    "AsyncMemory",
    "AsyncTenant",
    "ConfigError",
    "ConnectionFailed",
    "ConsolidateResult",
    "ContextResult",
    "ContextSource",
    "CypherFileError",
    "DimensionMismatch",
    "EmbeddingError",
    "Explain",
    "ExtractionError",
    "FalkmemError",
    "ForgetResult",
    "HealthReport",
    "History",
    "HistoryEntry",
    "Hit",
    "InputError",
    "InvalidTenantId",
    "LimitExceeded",
    "MaintainResult",
    "Memory",
    "NotFound",
    "Plan",
    "QueryFailed",
    "QueryTimeout",
    "ReconcileResult",
    "Record",
    "RerankError",
    "RouterConfig",
    "SearchResult",
    "Settings",
    "StageInfo",
    "StorageError",
    "StoreLocked",
    "Tenant",
    "TenantError",
    "TenantExists",
    "TenantNotFound",
    "__version__",
]
