"""Tenant ids: the validation rule and the mapping to a graph key."""

from __future__ import annotations

import re

from ..errors import InvalidTenantId

TENANT_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
"""Lower-case letters, digits, ``_`` and ``-``; starts with a letter or digit; 1–63 chars."""


def validate_tenant_id(tenant_id: object) -> str:
    """Return ``tenant_id`` if it matches :data:`TENANT_ID_PATTERN`, else raise.

    Ids are never escaped or repaired: anything else is an error, so no caller text can
    shape a graph name.

    Raises:
        InvalidTenantId: the id is not a string matching the pattern.
    """
    if not isinstance(tenant_id, str) or not TENANT_ID_PATTERN.fullmatch(tenant_id):
        raise InvalidTenantId(
            "tenant_id",
            "must match ^[a-z0-9][a-z0-9_-]{0,62}$ (lower-case letters, digits, '_' and '-',"
            " at most 63 characters); use an opaque id such as 'acme' or 'team-42'",
        )
    return tenant_id


def graph_name(prefix: str, tenant_id: str) -> str:
    """The FalkorDB graph key of a (validated) tenant."""
    return prefix + validate_tenant_id(tenant_id)


def tenant_of(prefix: str, graph: str) -> str | None:
    """The tenant id of a graph key, or None when the key is not a falkmem tenant graph."""
    if not graph.startswith(prefix):
        return None
    rest = graph[len(prefix) :]
    return rest if TENANT_ID_PATTERN.fullmatch(rest) else None
