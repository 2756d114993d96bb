"""``falkmem doctor``: check the server, its timeouts, the models and every tenant's indexes."""

from __future__ import annotations

import click

from .output import EXIT_FAILURE, emit_json, json_option, state, table


@click.command(epilog="Example:\n\n    falkmem --url redis://localhost:6379 doctor --json")
@click.option(
    "--tenant", "tenant_ids", multiple=True, metavar="ID", help="Check only these tenants (repeatable)."
)
@json_option
@click.pass_context
def doctor(ctx: click.Context, tenant_ids: tuple[str, ...], as_json: bool) -> None:
    """Check the installation: server and module versions, server timeouts (warns when
    none), for the embedded store a crash in server.log since its last clean start (with its
    time) and any orphaned server, whether the embedder and the configured reranker load,
    each tenant's indexes.

    Exit 1 when a check fails; warnings keep exit 0.
    """
    from ..admin.doctor import doctor as run_checks

    found = run_checks(state(ctx).memory(), tenants=list(tenant_ids) or None)
    ok = all(c.status != "fail" for c in found)
    if as_json:
        emit_json({"ok": ok, "checks": [c.as_dict() for c in found]})
    else:
        table([c.as_dict() for c in found], ["name", "status", "detail"])
    if not ok:
        ctx.exit(EXIT_FAILURE)
