"""Per-tenant access: Redis ACL users limited to falkmem's commands and one tenant's graph key.

A granted user may run only :data:`GRANTED_COMMANDS` (never ``+@all``, which includes
``GRAPH.CONFIG`` and so server-wide limits), and only on the keys of the tenants it was
granted (``~falkmem:<id>``, exact, no wildcard: ``~falkmem:a*`` would also match ``falkmem:ab``).
The list is what a ``Memory(url=..., username=..., password=...)`` session sends, measured
with MONITOR: the connection handshake (HELLO, CLIENT SETNAME, CLIENT SETINFO), ``EXISTS``
and the graph query commands, plus ``GRAPH.CONSTRAINT`` for the unique constraints a schema
migration creates and ``GRAPH.EXPLAIN`` for explain. ``INFO`` is granted for two sections
only: ``INFO server``, which falkordb-py's ``FalkorDB()`` constructor reads (its sentinel and
cluster checks look at ``redis_mode``), and ``INFO cluster``, which falkmem reads to tell a
cluster node from a single server (``storage/store.py``). Plain ``INFO`` and its other
sections (the key counts of every database, the client list, memory and replication
details) are refused.
Left out on purpose: ``GRAPH.LIST`` (it names every tenant of the server, FalkorDB #2652),
``GRAPH.DELETE``/``GRAPH.COPY`` (dropping and copying are operator tasks) and ``GRAPH.CONFIG``.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, NotFound
from ..memory import Memory
from ..tenancy.ids import validate_tenant_id

GRANTED_COMMANDS: tuple[str, ...] = (
    "graph.query",
    "graph.ro_query",
    "graph.explain",
    "graph.constraint",
    "exists",
    "ping",
    "info|server",
    "info|cluster",
    "hello",
    "client|setname",
    "client|setinfo",
)
"""Every command a granted user may run (ACL syntax; subcommands and, for INFO, the allowed
first argument as ``command|arg``)."""

USER_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
_RESERVED = frozenset({"default"})


@dataclass(frozen=True, slots=True)
class Grant:
    """The outcome of a grant or revoke.

    Attributes:
        user: the ACL user name.
        tenants: the tenants the user can reach now.
        password: the password set by this call (generated when none was given for a new
            user); None when the existing passwords were kept.
        deleted: revoke removed the user (it had no tenant left).
        persisted: the server saved its ACL file (False: the rule lasts until it restarts).
    """

    user: str
    tenants: tuple[str, ...]
    password: str | None = None
    deleted: bool = False
    persisted: bool = False

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready view (the password only when this call set it)."""
        return {
            "user": self.user, "tenants": list(self.tenants), "password": self.password,
            "deleted": self.deleted, "persisted": self.persisted, "commands": list(GRANTED_COMMANDS),
        }  # fmt: skip


def _check_user(user: str) -> str:
    if not isinstance(user, str) or not USER_PATTERN.fullmatch(user) or user in _RESERVED:
        raise InputError("user", "must match ^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$ and not be 'default'")
    return user


def _acl(mem: Memory, *args: Any) -> Any:
    return mem.admin.executor.command(f"ACL {args[0]}", "server", "ACL", *args)


def _key_patterns(info: Any) -> list[str]:
    """The ``~pattern`` key rules of an ``ACL GETUSER`` answer (dict or flat list)."""
    if isinstance(info, (list, tuple)):
        info = {str(k): v for k, v in zip(info[0::2], info[1::2], strict=False)}
    if not isinstance(info, dict):
        return []
    raw = info.get("keys", [])
    items = raw.split() if isinstance(raw, str) else [str(x) for x in raw or []]
    out: list[str] = []
    for item in items:
        out.extend(p for p in item.split() if p)
    return [p if p.startswith("~") or p.startswith("%") else f"~{p}" for p in out]


def _tenants_of(mem: Memory, patterns: list[str]) -> tuple[str, ...]:
    prefix = "~" + mem.settings.graph_prefix
    return tuple(sorted(p[len(prefix) :] for p in patterns if p.startswith(prefix)))


def _save(mem: Memory) -> bool:
    try:
        _acl(mem, "SAVE")
    except Exception:  # no aclfile configured (the embedded store has none): in memory only
        return False
    return True


def grant(mem: Memory, tenant_id: str, user: str, *, password: str | None = None) -> Grant:
    """Let ``user`` read and write ``tenant_id`` (and keep its other grants).

    Creates the user when it does not exist (with ``password``, or a generated one that is
    returned once); otherwise adds the tenant's key and, when given, the new password.

    Raises:
        InputError: a bad user name or an empty password.
        InvalidTenantId: a bad tenant id.
        StorageError: the server refused (e.g. the admin connection may not run ACL).
    """
    validate_tenant_id(tenant_id)
    _check_user(user)
    if password is not None and not password:
        raise InputError("password", "must not be empty")
    existing = _acl(mem, "GETUSER", user)
    if existing is None and password is None:
        password = secrets.token_urlsafe(24)
    key = f"~{mem.settings.graph_prefix}{tenant_id}"
    rules = ["on", key, "resetchannels", "-@all", *(f"+{c}" for c in GRANTED_COMMANDS)]
    if password is not None:
        rules.insert(1, f">{password}")
    _acl(mem, "SETUSER", user, *rules)
    patterns = _key_patterns(_acl(mem, "GETUSER", user))
    return Grant(user=user, tenants=_tenants_of(mem, patterns), password=password, persisted=_save(mem))


def revoke(mem: Memory, tenant_id: str, user: str) -> Grant:
    """Take ``tenant_id`` away from ``user``; delete the user when no tenant is left.

    Raises:
        NotFound: no such ACL user.
        InputError: a bad user name.
    """
    validate_tenant_id(tenant_id)
    _check_user(user)
    info = _acl(mem, "GETUSER", user)
    if info is None:
        raise NotFound(f"no ACL user {user!r} on this server")
    key = f"~{mem.settings.graph_prefix}{tenant_id}"
    rest = [p for p in _key_patterns(info) if p != key]
    if not rest:
        _acl(mem, "DELUSER", user)  # the server also closes the user's connections
        return Grant(user=user, tenants=(), deleted=True, persisted=_save(mem))
    _acl(mem, "SETUSER", user, "resetkeys", *rest)  # applies at once to open connections too
    return Grant(user=user, tenants=_tenants_of(mem, rest), persisted=_save(mem))


__all__ = ["GRANTED_COMMANDS", "Grant", "grant", "revoke"]
