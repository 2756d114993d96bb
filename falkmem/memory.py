"""``Memory``: the SDK's entry point — opens the store and hands out tenant handles."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

from .context.tokens import TokenCounter
from .embedding.base import Embedder
from .embedding.factory import make_embedder
from .engine import Engine
from .errors import ConfigError
from .extraction.rules import RuleExtractor
from .extraction.types import Extractor
from .ranking.rerank import Reranker
from .settings import Settings
from .tenancy.ids import validate_tenant_id
from .tenant import Tenant

if TYPE_CHECKING:
    from .admin.access import AdminView


class Memory:
    """Agent memory on FalkorDB: one graph per tenant.

    ``Memory()`` opens the embedded store in the default data directory (see
    :func:`~falkmem.settings.default_data_path`); ``Memory(path)`` another directory;
    ``Memory(url="redis://host:6379")`` a FalkorDB server. Explicit arguments win over
    ``FALKMEM_*`` environment variables, which win over defaults. With ``settings=``, the
    arguments (``path``, ``url`` and any setting by keyword) are applied on top of it.

    ``token_counter`` is what ``context()`` counts its budget with: the ``token_counter``
    setting's forms (``"regex"``, ``"tiktoken:o200k_base"``, ``"hf:/models/llama"``) or any
    :class:`~falkmem.context.TokenCounter` object (``name`` and ``count(text)``).

    Example:
        >>> with Memory("/tmp/demo-mem") as mem:                       # doctest: +SKIP
        ...     acme = mem.tenant("acme")
        ...     acme.add("Priya Chandran leads the Atlas team.")
        ...     print(acme.search("who leads Atlas?")[0].text)
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        url: str | None = None,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | Literal["rules", "none"] = "rules",
        reranker: Reranker | str | None = None,
        token_counter: TokenCounter | str | None = None,
        **overrides: Any,
    ) -> None:
        updates: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
        counter: TokenCounter | None = None
        if isinstance(token_counter, str):
            updates["token_counter"] = token_counter
        elif token_counter is not None:
            if not isinstance(token_counter, TokenCounter):
                raise ConfigError("token_counter: give 'regex', 'tiktoken:<encoding>', 'hf:<path>' or an "
                                  "object with name and count(text) -> int")  # fmt: skip
            counter = token_counter
        if path is not None:
            updates["path"] = Path(path)
        if url is not None:
            updates["url"] = url
        # Explicit arguments win over the given settings, which are kept as they are otherwise.
        base = Settings.load(**updates) if settings is None else settings.merged(**updates)
        self.settings = base
        chosen: Extractor | None
        if extractor == "rules":
            chosen = RuleExtractor()
        elif extractor == "none":
            chosen = None
        elif isinstance(extractor, str):
            raise ConfigError("extractor: use 'rules', 'none' or an Extractor object (e.g. LLMExtractor)")
        else:
            chosen = extractor
        self._engine = Engine(
            base, embedder=embedder or make_embedder(base), extractor=chosen, reranker=reranker,
            token_counter=counter,
        )  # fmt: skip

    # --- tenants -----------------------------------------------------------------------
    def tenant(self, tenant_id: str) -> Tenant:
        """The handle of one tenant. Nothing is created until the first write.

        Raises:
            InvalidTenantId: the id does not match ``^[a-z0-9][a-z0-9_-]{0,62}$``.
        """
        return Tenant(validate_tenant_id(tenant_id), self._engine)

    def create_tenant(self, tenant_id: str) -> Tenant:
        """Create a tenant now (indexes included).

        Raises:
            TenantExists: it exists already.
        """
        validate_tenant_id(tenant_id)
        e = self._engine
        e.store.create(tenant_id, dimension=e.embedder.dimension, embedder=e.embedder.name)
        return Tenant(tenant_id, e)

    def tenants(self) -> list[str]:
        """Ids of every tenant in the store, sorted."""
        return self._engine.store.list_tenants()

    def has_tenant(self, tenant_id: str) -> bool:
        """Whether the tenant exists (never creates it)."""
        return self._engine.store.exists(validate_tenant_id(tenant_id))

    def drop_tenant(self, tenant_id: str) -> bool:
        """Delete a tenant and all its memories; False when it did not exist."""
        validate_tenant_id(tenant_id)
        self._engine.forget_tenant(tenant_id)
        return self._engine.store.drop(tenant_id)

    @property
    def admin(self) -> AdminView:
        """Operator access for falkmem's admin layer and CLI: the store, its executor, the
        embedder (see :class:`~falkmem.admin.access.AdminView`). Agents use tenant handles."""
        from .admin.access import AdminView

        return AdminView(self._engine)

    # --- lifecycle ----------------------------------------------------------------------
    @property
    def location(self) -> str:
        """The store's data directory or (password-redacted) URL."""
        return self._engine.store.location

    def close(self) -> None:
        """Close the connection; the embedded server stops when its last client closes."""
        self._engine.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
