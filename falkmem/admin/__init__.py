"""Tenant administration without click: export/import, stats, access control, doctor, bulk add."""

from __future__ import annotations

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
