"""falkmem: agent memory that remembers connections, not just similar text.

Memories are nodes with embeddings in FalkorDB; the entities they mention form a knowledge
graph; each query is routed to vector search or to vector + graph traversal.
"""

from __future__ import annotations

import logging
from importlib.metadata import PackageNotFoundError, version

from .aio import AsyncMemory as AsyncMemory
from .aio import AsyncTenant as AsyncTenant
from .config import RouterConfig as RouterConfig
from .errors import (
    ConfigError as ConfigError,
)
from .errors import (
    ConnectionFailed as ConnectionFailed,
)
from .errors import (
    CypherFileError as CypherFileError,
)
from .errors import (
    DimensionMismatch as DimensionMismatch,
)
from .errors import (
    EmbeddingError as EmbeddingError,
)
from .errors import (
    ExtractionError as ExtractionError,
)
from .errors import (
    FalkmemError as FalkmemError,
)
from .errors import (
    InputError as InputError,
)
from .errors import (
    InvalidTenantId as InvalidTenantId,
)
from .errors import (
    LimitExceeded as LimitExceeded,
)
from .errors import (
    NotFound as NotFound,
)
from .errors import (
    QueryFailed as QueryFailed,
)
from .errors import (
    QueryTimeout as QueryTimeout,
)
from .errors import (
    RerankError as RerankError,
)
from .errors import (
    StorageError as StorageError,
)
from .errors import (
    StoreLocked as StoreLocked,
)
from .errors import (
    TenantError as TenantError,
)
from .errors import (
    TenantExists as TenantExists,
)
from .errors import (
    TenantNotFound as TenantNotFound,
)
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
from .storage.cypher import load_all as _load_cypher
from .tenant import Tenant as Tenant

logging.getLogger("falkmem").addHandler(logging.NullHandler())

# Every Cypher file is parsed and checked at import: a broken file fails here, not mid-query.
_load_cypher()

try:
    __version__ = version("falkmem")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

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
