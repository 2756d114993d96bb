"""The falkmem error tree: every error the library raises derives from ``FalkmemError``.

- ``FalkmemError``
  - ``ConfigError``                  a setting or constructor argument is invalid
  - ``InputError`` (also ``ValueError``)   caller input broke a documented rule; nothing was written
    - ``InvalidTenantId``
    - ``LimitExceeded``              a documented size/count limit was exceeded
    - ``DimensionMismatch``          an embedding has the wrong dimension for the tenant
  - ``TenantError``
    - ``TenantNotFound``
    - ``TenantExists``
  - ``NotFound``                     an id or key that does not exist
  - ``StorageError``                 the database failed
    - ``ConnectionFailed``
    - ``StoreLocked``                another process holds the embedded store
    - ``QueryTimeout``
    - ``QueryFailed``
  - ``CypherFileError``              a file in ``cypher/`` is malformed (raised by the first query)
  - ``EmbeddingError``               the embedder failed or returned bad vectors
  - ``ExtractionError``              an extractor (e.g. the LLM one) failed
  - ``RerankError``                  the configured reranker could not be loaded or run

Messages say what to do next. They never contain memory text or query parameter values.
"""

from __future__ import annotations


class FalkmemError(Exception):
    """Root of every error raised by falkmem."""


class ConfigError(FalkmemError):
    """A setting or constructor argument is invalid."""


class InputError(FalkmemError, ValueError):
    """Caller input broke a documented rule. Nothing was written.

    Attributes:
        field: the name of the offending field (``"text"``, ``"k"``, ``"tenant_id"``...).
        rule: the rule that was broken, in words.
    """

    def __init__(self, field: str, rule: str) -> None:
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")


class InvalidTenantId(InputError):
    """A tenant id does not match the tenant id pattern."""


class LimitExceeded(InputError):
    """A documented size or count limit was exceeded."""


class DimensionMismatch(InputError):
    """An embedding does not have the dimension the tenant was created with."""


class TenantError(FalkmemError):
    """Base for tenant lifecycle errors."""


class TenantNotFound(TenantError):
    """The tenant has no graph yet."""


class TenantExists(TenantError):
    """The tenant already exists."""


class NotFound(FalkmemError, KeyError):
    """An id or key that does not exist."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "not found"


class StorageError(FalkmemError):
    """The database failed."""


class ConnectionFailed(StorageError):
    """The database could not be reached (after retries)."""


class StoreLocked(StorageError):
    """Another process holds the embedded store and it could not be shared."""


class QueryTimeout(StorageError):
    """A query ran past its timeout and was stopped by the server."""


class QueryFailed(StorageError):
    """The server rejected or failed a query."""


class CypherFileError(FalkmemError):
    """A file in ``cypher/`` is malformed."""


class EmbeddingError(FalkmemError):
    """The embedder failed or returned vectors of the wrong shape."""


class ExtractionError(FalkmemError):
    """An extractor failed (e.g. the LLM endpoint returned invalid output after retries)."""


class RerankError(FalkmemError):
    """The configured reranker could not be loaded or run."""
