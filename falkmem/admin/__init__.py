"""Tenant administration without click: export/import, stats, access control, doctor, bulk add."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .acl import GRANTED_COMMANDS as GRANTED_COMMANDS
    from .acl import Grant as Grant
    from .acl import grant as grant
    from .acl import revoke as revoke
    from .doctor import Check as Check
    from .doctor import doctor as doctor
    from .records import AddSummary as AddSummary
    from .records import BadLines as BadLines
    from .records import LineProblem as LineProblem
    from .stats import tenant_stats as tenant_stats
    from .stats import tenant_summary as tenant_summary
    from .transfer import ImportReport as ImportReport
    from .transfer import copy_tenant as copy_tenant
    from .transfer import export_tenant as export_tenant
    from .transfer import import_lines as import_lines
    from .transfer import read_export as read_export

# Imported on first use (PEP 562): the command line names these modules without loading the
# engine for `falkmem --help`.
_LAZY: dict[str, str] = {
    "GRANTED_COMMANDS": "acl",
    "Grant": "acl",
    "grant": "acl",
    "revoke": "acl",
    "Check": "doctor",
    "doctor": "doctor",
    "AddSummary": "records",
    "BadLines": "records",
    "LineProblem": "records",
    "tenant_stats": "stats",
    "tenant_summary": "stats",
    "ImportReport": "transfer",
    "copy_tenant": "transfer",
    "export_tenant": "transfer",
    "import_lines": "transfer",
    "read_export": "transfer",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'falkmem.admin' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "GRANTED_COMMANDS",
    "AddSummary",
    "BadLines",
    "Check",
    "Grant",
    "ImportReport",
    "LineProblem",
    "copy_tenant",
    "doctor",
    "export_tenant",
    "grant",
    "import_lines",
    "read_export",
    "revoke",
    "tenant_stats",
    "tenant_summary",
]
