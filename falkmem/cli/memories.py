"""``falkmem list | forget | history | maintain``: page through, erase and keep a tenant's
memories from the shell (and from cron: no prompts, exit codes, ``--json``)."""

from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from .filters import filter_options
from .output import emit_json, emit_nl, iso, json_option, nl_option, pairs, state, table


@click.command(
    "list",
    epilog="""\b
Examples:
  falkmem list acme --session s1 --limit 20
  falkmem list acme --kind fact --meta project=helios --json
  falkmem list acme --all --nl > acme-memories.jsonl   # every page, one JSON object a line""",
)
@click.argument("tenant_id", metavar="TENANT")
@click.option(
    "--limit", type=click.IntRange(1, 1000), default=100, show_default=True, help="Memories per page."
)
@click.option("--cursor", help="Continue after this page (the next_cursor of the previous page).")
@click.option("--all", "all_pages", is_flag=True, help="Follow the cursor to the last page.")
@click.option("--history", "include_history", is_flag=True, help="Superseded memories too.")
@filter_options
@json_option
@nl_option
@click.pass_context
def list_(ctx: click.Context, tenant_id: str, limit: int, cursor: str | None, all_pages: bool,
          include_history: bool, filters: dict[str, Any], as_json: bool, as_nl: bool) -> None:  # fmt: skip
    """List a tenant's memories, oldest first, a page at a time."""
    tenant = state(ctx).memory().tenant(tenant_id)
    items: list[Any] = []
    while True:
        page = tenant.list(cursor=cursor, limit=limit, include_history=include_history, **filters)
        items.extend(page.items)
        cursor = page.next_cursor
        if as_nl:
            emit_nl(page.items)
            items.clear()
        if not all_pages or cursor is None:
            break
    if as_nl:
        return
    if as_json:
        emit_json({"tenant": tenant_id, "items": items, "next_cursor": cursor})
        return
    if not items:
        click.echo("no memories")
    else:
        rows = [
            {"id": h.id, "kind": h.kind, "session": h.session, "valid_at": iso(h.valid_at), "text": h.text}
            for h in items
        ]
        table(rows, ["id", "kind", "session", "valid_at", "text"], widths={"text": 70, "id": 24})
    if cursor is not None:
        click.echo(f"more: --cursor {cursor}", err=True)


@click.command(
    epilog="""\b
Examples:
  falkmem forget acme m-17 m-18                     # by id
  falkmem forget acme --user dana                   # everything of one user
  falkmem forget acme --kind episode --until 2026-01-01 --json""",
)
@click.argument("tenant_id", metavar="TENANT")
@click.argument("ids", nargs=-1, metavar="[ID]...")
@filter_options
@json_option
@click.pass_context
def forget(ctx: click.Context, tenant_id: str, ids: tuple[str, ...], filters: dict[str, Any],
           as_json: bool) -> None:  # fmt: skip
    """Erase memories for good: by id, or every memory matching the filters (no prompt)."""
    if ids and filters:
        raise InputError("forget", "give ids or filters, not both")
    if not ids and not filters:
        raise InputError("forget", "name what to forget: ids, or filters such as --session/--user/--kind")
    tenant = state(ctx).memory().tenant(tenant_id)
    result = tenant.delete_many(list(ids)) if ids else tenant.forget(**filters)
    if as_json:
        emit_json(result)
        return
    data = result.model_dump()
    data.pop("ids")
    pairs(list(data.items()))


@click.command(
    epilog="""\b
Examples:
  falkmem history acme ua837-arrival
  falkmem history acme --entity "Priya Chandran" --json""",
)
@click.argument("tenant_id", metavar="TENANT")
@click.argument("key", required=False)
@click.option("--entity", help="The memories about this entity instead of a fact key.")
@click.option(
    "--limit", type=click.IntRange(1, 1000), default=100, show_default=True, help="Newest versions kept."
)
@json_option
@click.pass_context
def history(ctx: click.Context, tenant_id: str, key: str | None, entity: str | None, limit: int,
            as_json: bool) -> None:  # fmt: skip
    """The versions of a fact key (or the memories about an entity), oldest first."""
    tenant = state(ctx).memory().tenant(tenant_id)
    result = tenant.history(key, entity=entity, limit=limit)
    if as_json:
        emit_json(result)
        return
    rows = [
        {"id": e.id, "status": e.status, "valid_at": iso(e.valid_at), "invalid_at": iso(e.invalid_at),
         "superseded_by": e.superseded_by, "text": e.text}
        for e in result.entries
    ]  # fmt: skip
    table(rows, ["id", "status", "valid_at", "invalid_at", "superseded_by", "text"], widths={"text": 60})


@click.command(
    epilog="""\b
Examples:
  falkmem maintain acme
  falkmem maintain --all --json        # every tenant: for cron""",
)
@click.argument("tenant_id", metavar="TENANT", required=False)
@click.option("--all", "all_tenants", is_flag=True, help="Every tenant of the store.")
@click.option("--now", metavar="ISO", help="Apply retention as of this time instead of the clock.")
@json_option
@click.pass_context
def maintain(ctx: click.Context, tenant_id: str | None, all_tenants: bool, now: str | None,
             as_json: bool) -> None:  # fmt: skip
    """Apply the retention policy and clean up orphan entities and empty sessions."""
    if (tenant_id is None) == (not all_tenants):
        raise InputError("tenant", "give a TENANT or --all, not both")
    mem = state(ctx).memory()
    ids = mem.tenants() if all_tenants else [str(tenant_id)]
    results = {t: mem.tenant(t).maintain(now=now) for t in ids}
    if as_json:
        emit_json({t: r for t, r in results.items()})
        return
    for t, r in results.items():
        click.echo(
            f"{t}: expired {sum(r.expired.values())} {dict(r.expired)}, orphan entities removed "
            f"{r.orphan_entities_removed}, empty sessions removed {r.empty_sessions_removed}"
        )
