"""falkmem as an MCP server: tools ``remember``, ``recall``, ``context``, ``forget``, ``history``
on the official ``mcp`` SDK (``pip install falkmem[mcp]``).

One server serves one tenant (``falkmem mcp --tenant ID``, or ``FALKMEM_MCP_TENANT``) unless
the operator allows a ``tenant`` argument on every tool (``--allow-tenant-arg``). Each tool's
JSON schema is generated from the pydantic model of its arguments (``RememberArgs``...), and
its result schema from the model it returns. The schemas are closed (``additionalProperties:
false``) and so are the tools: an argument a tool does not take is a tool error naming it, and a
``tenant`` argument on a server locked to one tenant is an error naming that tenant (it is never
dropped silently). Bad input comes back as an MCP tool error whose text names the field
(``kind: must be one of ...``); nothing is written then.
"""

# No ``from __future__ import annotations``: the SDK reads the tools' signatures at runtime.

import functools
import inspect
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator
from pydantic_core import PydanticCustomError

from ..errors import FalkmemError, InputError
from ..memory import Memory
from ..models import Hit
from ..tenancy.ids import validate_tenant_id
from ..tenant import Tenant

__all__ = [
    "ContextArgs", "ContextOut", "ForgetArgs", "ForgetOut", "HistoryArgs", "HistoryOut", "MemoryOut",
    "RecallArgs", "RecallOut", "RememberArgs", "RememberOut", "build_server",
]  # fmt: skip

OneOrMany = str | list[str] | None


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Filters(_Args):
    session: OneOrMany = Field(None, description="Only memories of this session (or any of these).")
    user: OneOrMany = Field(None, description="Only memories of this user (or any of these).")
    agent: OneOrMany = Field(None, description="Only memories of this agent (or any of these).")
    speaker: OneOrMany = Field(None, description="Only memories said by this speaker (or any of these).")
    kind: OneOrMany = Field(None, description="Only memories of this kind: episode, fact, decision, note...")
    since: str | None = Field(None, description="Only memories valid from this ISO-8601 time on.")
    until: str | None = Field(None, description="Only memories valid before this ISO-8601 time.")
    metadata: dict[str, Any] | None = Field(None, description="Top-level metadata equality, all must hold.")

    def filters(self) -> dict[str, Any]:
        return {k: v for k, v in self.model_dump(include=set(_Filters.model_fields)).items() if v is not None}


class RememberArgs(_Args):
    """Arguments of ``remember``."""

    text: str = Field(description="What to remember (one fact, event, decision or note).")
    session: str | None = Field(None, description="Conversation or session id.")
    user: str | None = Field(None, description="Whom the memory is about or from.")
    speaker: str | None = Field(None, description="Who said it.")
    agent: str | None = Field(None, description="The agent that produced it.")
    kind: str = Field(
        "episode", description="episode, fact, decision, note, document, preference, event, summary."
    )
    key: str | None = Field(
        None, description="A fact key: a new value for the same key supersedes the old one."
    )
    at: str | None = Field(None, description="When it was true (ISO-8601); default now.")
    metadata: dict[str, Any] | None = Field(None, description="JSON metadata (filterable by top-level key).")


class RecallArgs(_Filters):
    """Arguments of ``recall``."""

    query: str = Field(description="The question or topic.")
    k: int = Field(5, description="How many memories (1 to the server's max_k).")
    min_relevance: float | None = Field(
        None,
        description="Drop memories whose relevance (0-1, the chance a memory is evidence) is below this; "
        "0.033 is the recommended value (most questions the memory cannot answer then return none). "
        "Default: the server's setting.",
    )
    as_of: str | None = Field(None, description="Answer with what was true at this ISO-8601 time.")
    now: str | None = Field(
        None, description="When the question is asked (ISO-8601): 'last week' resolves against it."
    )


class ContextArgs(_Filters):
    """Arguments of ``context``."""

    query: str = Field(description="The question the context is for.")
    budget_tokens: int = Field(500, description="Token budget: the context never exceeds it.")
    as_of: str | None = Field(None, description="Pack what was true at this ISO-8601 time.")
    now: str | None = Field(
        None, description="When the question is asked (ISO-8601): 'last week' resolves against it."
    )


class ForgetArgs(_Filters):
    """Arguments of ``forget``: ids, or filters (erased for good)."""

    ids: list[str] | None = Field(None, description="Memory ids to erase.")


class HistoryArgs(_Args):
    """Arguments of ``history``."""

    key: str | None = Field(None, description="A fact key: its versions, oldest first.")
    entity: str | None = Field(None, description="Or an entity name: the memories about it.")
    limit: int = Field(20, description="Newest versions kept (1-1000).")


class MemoryOut(BaseModel):
    """One recalled memory."""

    id: str
    text: str
    kind: str
    score: float
    relevance: float | None = None
    """How likely it is evidence for the query, 0-1, comparable across queries (``score`` is not)."""
    session: str | None = None
    user: str | None = None
    speaker: str | None = None
    valid_at: datetime | None = None
    status: str = "active"
    key: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def of(cls, h: Hit) -> "MemoryOut":
        return cls(**h.model_dump(include=set(cls.model_fields)))


class RememberOut(BaseModel):
    id: str


class RecallOut(BaseModel):
    memories: list[MemoryOut]
    route: str


class ContextOut(BaseModel):
    text: str
    tokens: int
    budget_tokens: int
    used: list[str]


class ForgetOut(BaseModel):
    erased: int
    ids: list[str]


class HistoryEntryOut(BaseModel):
    id: str
    text: str
    status: str
    valid_at: datetime | None = None
    invalid_at: datetime | None = None
    superseded_by: str | None = None


class HistoryOut(BaseModel):
    entries: list[HistoryEntryOut]


# --- the tools (sync bodies, run in a worker thread) -----------------------------------------


def _remember(t: Tenant, a: RememberArgs) -> RememberOut:
    return RememberOut(id=t.add(**a.model_dump()))


# recall, context and history on a tenant nothing was remembered in are the same tool error
# (TenantNotFound: "... add a memory to create it"), as in the SDK and the CLI.
def _recall(t: Tenant, a: RecallArgs) -> RecallOut:
    r = t.search(a.query, k=a.k, as_of=a.as_of, now=a.now, min_relevance=a.min_relevance, **a.filters())
    return RecallOut(memories=[MemoryOut.of(h) for h in r.hits], route=r.route)


def _context(t: Tenant, a: ContextArgs) -> ContextOut:
    r = t.context(a.query, budget_tokens=a.budget_tokens, as_of=a.as_of, now=a.now, **a.filters())
    return ContextOut(text=r.text, tokens=r.tokens, budget_tokens=r.budget_tokens, used=list(r.used))


def _forget(t: Tenant, a: ForgetArgs) -> ForgetOut:
    f = a.filters()
    if a.ids is not None and f:
        raise InputError("forget", "give ids or filters, not both")
    if a.ids is None and not f:
        raise InputError("forget", "name what to forget: ids, or filters such as session or user")
    r = t.delete_many(a.ids) if a.ids is not None else t.forget(**f)
    return ForgetOut(erased=r.artifacts, ids=list(r.ids))


def _history(t: Tenant, a: HistoryArgs) -> HistoryOut:
    h = t.history(a.key, entity=a.entity, limit=a.limit)
    return HistoryOut(
        entries=[HistoryEntryOut(**e.model_dump(include=set(HistoryEntryOut.model_fields))) for e in h]
    )


_TOOLS: dict[str, tuple[type[_Args], Callable[[Tenant, Any], BaseModel], str]] = {
    "remember": (RememberArgs, _remember, "Remember one memory; returns its id."),
    "recall": (RecallArgs, _recall, "The k memories most relevant to a query, best first, with filters."),
    "context": (ContextArgs, _context, "Prompt-ready context for a query, packed into a token budget with provenance."),
    "forget": (ForgetArgs, _forget, "Erase memories for good: by ids, or every memory matching the filters."),
    "history": (HistoryArgs, _history, "The versions of a fact key (or the memories about an entity), oldest first."),
}  # fmt: skip

_TENANT_FIELD = Field(None, description="The tenant to use (default: the server's tenant).")


def _tool(
    name: str,
    model: type[_Args],
    body: Callable[[Tenant, Any], BaseModel],
    tenant_of: Callable[[str | None], Tenant],
    allow_tenant: bool,
) -> Callable[..., Awaitable[BaseModel]]:
    """An async tool whose signature is the fields of ``model`` (plus ``tenant`` when allowed)."""

    async def run(**kwargs: Any) -> BaseModel:
        tenant_id = kwargs.pop("tenant", None)
        try:
            args = model(**kwargs)
            t = tenant_of(tenant_id)
            return await anyio.to_thread.run_sync(functools.partial(body, t, args))
        except FalkmemError as exc:  # InputError's text is "field: rule"
            raise ToolError(str(exc)) from None

    params = [
        inspect.Parameter(
            f, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[info.annotation, info],
            default=inspect.Parameter.empty if info.is_required() else info.get_default(call_default_factory=True),
        )
        for f, info in model.model_fields.items()
    ]  # fmt: skip
    if allow_tenant:
        params.append(
            inspect.Parameter(
                "tenant",
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=Annotated[str | None, _TENANT_FIELD],
            )
        )
    ret = inspect.signature(body).return_annotation
    run.__signature__ = inspect.Signature(params, return_annotation=ret)  # type: ignore[attr-defined]
    run.__name__ = name
    return run


class _Closed(BaseModel):
    # The SDK validates a call's arguments with a model it builds from the tool's signature,
    # which ignores unknown keys: close it, and keep the caller's values out of error texts.
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)


def _closed(tool: Tool, locked: str | None) -> Tool:
    """``tool`` with its argument model closed: the schema says ``additionalProperties: false``
    and an unknown argument is a tool error that names it (``tenant`` on a locked server names
    the tenant the server is locked to)."""
    base = tool.fn_metadata.arg_model
    known = {info.alias or f for f, info in base.model_fields.items()}

    def check(cls: Any, data: Any) -> Any:
        unknown = sorted(set(data) - known) if isinstance(data, dict) else []
        if "tenant" in unknown and locked is not None:
            raise PydanticCustomError(
                "tenant_locked",
                "tenant: this server serves tenant {tenant} only; leave tenant out",
                {"tenant": repr(locked)},
            )
        if unknown:
            raise PydanticCustomError(
                "unknown_argument",
                "{names}: unknown argument of {tool}; it takes {known}",
                {"names": ", ".join(unknown), "tool": tool.name, "known": ", ".join(sorted(known))},
            )
        return data

    validator: Any = model_validator(mode="before")(check)  # pydantic's stubs expect a plain callable here
    closed = create_model(
        base.__name__, __base__=(base, _Closed), __validators__={"_known_arguments": validator}
    )
    tool.fn_metadata.arg_model = closed  # type: ignore[assignment]  # a subclass of the SDK's model
    tool.parameters = closed.model_json_schema(by_alias=True)
    return tool


def build_server(
    memory: Memory, tenant: str | None, *, allow_tenant_arg: bool = False, name: str = "falkmem"
) -> MCPServer:
    """An ``MCPServer`` with the five tools over ``memory``.

    Args:
        memory: the open store (the caller closes it).
        tenant: the tenant every call uses; required unless ``allow_tenant_arg``.
        allow_tenant_arg: tools take an optional ``tenant`` argument (else the server's).

    Raises:
        InputError: no tenant and no tenant argument allowed, or an invalid tenant id.
    """
    if tenant is None and not allow_tenant_arg:
        raise InputError("tenant", "give --tenant ID (or FALKMEM_MCP_TENANT), or allow a tenant argument")
    if tenant is not None:
        validate_tenant_id(tenant)

    def tenant_of(requested: str | None) -> Tenant:
        tid = requested if requested is not None else tenant
        if tid is None:
            raise InputError("tenant", "this server has no default tenant: pass tenant")
        return memory.tenant(tid)

    locked = None if allow_tenant_arg else tenant
    tools = [
        _closed(
            Tool.from_function(
                _tool(tool_name, model, body, tenant_of, allow_tenant_arg),
                name=tool_name,
                description=description,
            ),
            locked,
        )
        for tool_name, (model, body, description) in _TOOLS.items()
    ]
    return MCPServer(
        name,
        instructions=(
            "Long-term memory. Call recall or context before answering questions about the past, "
            "remember for facts, decisions and preferences worth keeping."
        ),
        tools=tools,
    )
