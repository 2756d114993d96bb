"""``falkmem tenants ...``: list, create, show, stats, drop, copy, export, import, migrate, grant, revoke."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .._lazy import lazy_module
from ..errors import FalkmemError, InputError
from ..tenancy.ids import validate_tenant_id
from .output import emit_json, emit_nl, iso, json_option, nl_option, pairs, state, table

if TYPE_CHECKING:
    from ..admin import acl, stats, transfer
else:  # loaded when a command runs, not for `falkmem --help`
    acl, stats, transfer = (lazy_module(f"falkmem.admin.{m}") for m in ("acl", "stats", "transfer"))

TENANT = click.argument("tenant_id", metavar="ID")


@click.group(epilog="Example:\n\n\b\n    falkmem tenants list\n    falkmem tenants stats acme --json")
def tenants() -> None:
    """Manage tenants: one FalkorDB graph per tenant (key falkmem:<ID>)."""


def _summary_row(s: dict[str, Any]) -> dict[str, Any]:
    return {
        "tenant": s["tenant"], "artifacts": s["artifacts"], "schema_version": s["schema_version"],
        "dimension": s["dimension"], "embedder": s["embedder"],
        "created_at": iso(s["created_at"]), "last_write": iso(s["last_write"]),
    }  # fmt: skip


@tenants.command("list", epilog="Example:\n\n    falkmem tenants list --nl | jq -r .tenant")
@json_option
@nl_option
@click.pass_context
def list_(ctx: click.Context, as_json: bool, as_nl: bool) -> None:
    """List every tenant with its artifact count, schema and last write."""
    mem = state(ctx).memory()
    rows = []
    for tid in mem.tenants():
        try:
            rows.append(_summary_row(stats.tenant_summary(mem, tid)))
        except FalkmemError:
            rows.append({"tenant": tid, "artifacts": None, "schema_version": None, "dimension": None,
                         "embedder": None, "created_at": None, "last_write": None})  # fmt: skip
    if as_json:
        emit_json(rows)
    elif as_nl:
        emit_nl(rows)
    elif not rows:
        click.echo("no tenants")
    else:
        table(rows, ["tenant", "artifacts", "schema_version", "dimension", "embedder", "last_write"])


@tenants.command(epilog="Example:\n\n    falkmem tenants create acme")
@TENANT
@json_option
@click.pass_context
def create(ctx: click.Context, tenant_id: str, as_json: bool) -> None:
    """Create a tenant now: its graph, metadata and indexes (exit 2 if it exists)."""
    mem = state(ctx).memory()
    mem.create_tenant(tenant_id)
    row = _summary_row(stats.tenant_summary(mem, tenant_id))
    if as_json:
        emit_json({"created": True, **row})
    else:
        click.echo(
            f"created tenant {tenant_id!r} (schema {row['schema_version']}, {row['dimension']}-d, {row['embedder']})"
        )


@tenants.command(epilog="Example:\n\n    falkmem tenants show acme --json")
@TENANT
@json_option
@click.pass_context
def show(ctx: click.Context, tenant_id: str, as_json: bool) -> None:
    """Show one tenant: graph key, schema, embedder, artifact count, created and last write."""
    s = stats.tenant_summary(state(ctx).memory(), tenant_id)
    out = {**_summary_row(s), "graph": s["graph"], "pending_migrations": s["pending_migrations"]}
    if as_json:
        emit_json(out)
    else:
        pairs([(k, ", ".join(v) if isinstance(v, list) else v) for k, v in out.items()])


@tenants.command("stats", epilog="Example:\n\n    falkmem tenants stats acme --json | jq .memory")
@TENANT
@json_option
@click.pass_context
def stats_(ctx: click.Context, tenant_id: str, as_json: bool) -> None:
    """Counts by kind, status, label and edge type; schema; index state; memory use.

    Memory: GRAPH.MEMORY USAGE (whole MB) leaves the HNSW vector index out; falkmem adds
    an estimate of it (vectors x (dimension x 4 + 2 x M x 8) bytes), labelled as such.
    """
    s = stats.tenant_stats(state(ctx).memory(), tenant_id)
    s["created_at"], s["last_write"] = iso(s["created_at"]), iso(s["last_write"])
    if as_json:
        emit_json(s)
        return
    pairs([
        ("tenant", s["tenant"]), ("graph", s["graph"]),
        ("schema", f"{s['schema_version']} (current {s['schema_current']})"),
        ("embedder", f"{s['embedder']} ({s['dimension']}-d)"), ("last write", s["last_write"]),
        ("artifacts", s["artifacts"]["total"]), ("entities", s["entities"]["total"]),
    ])  # fmt: skip
    click.echo()
    table(s["artifacts"]["by_kind_status"], ["kind", "status", "n"])
    click.echo()
    table([{"type": k, "n": v} for k, v in s["edges"].items()], ["type", "n"])
    click.echo()
    table(s["indexes"], ["label", "property", "type", "status"])
    click.echo()
    m = s["memory"]
    pairs([
        ("graph (GRAPH.MEMORY USAGE)", f"{m['graph_mb']:.0f} MB"),
        ("HNSW index (estimate)", f"{m['hnsw_estimate_mb']:.2f} MB"),
        ("total (estimate)", f"{m['total_estimate_mb']:.2f} MB"),
    ])  # fmt: skip


@tenants.command(epilog="Example:\n\n    falkmem tenants drop acme --yes")
@TENANT
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (required when not interactive).")
@json_option
@click.pass_context
def drop(ctx: click.Context, tenant_id: str, yes: bool, as_json: bool) -> None:
    """Delete a tenant and all its memories (asks first unless --yes)."""
    validate_tenant_id(tenant_id)
    if not yes:
        if not sys.stdin.isatty():
            raise click.UsageError("refusing to drop a tenant without --yes when not interactive")
        click.confirm(f"Delete tenant {tenant_id!r} and all its memories?", abort=True)
    dropped = state(ctx).memory().drop_tenant(tenant_id)
    if as_json:
        emit_json({"tenant": tenant_id, "dropped": dropped})
    else:
        click.echo(f"dropped tenant {tenant_id!r}" if dropped else f"tenant {tenant_id!r} did not exist")


def _report(report: transfer.ImportReport, as_json: bool, verb: str, **extra: Any) -> None:
    out = {"tenant": report.tenant, **extra, "counts": report.counts, "seconds": round(report.seconds, 3)}
    if as_json:
        emit_json(out)
    else:
        counts = ", ".join(f"{v} {k}" for k, v in report.counts.items()) or "nothing"
        click.echo(f"{verb} {report.tenant!r}: {counts} in {report.seconds:.1f} s")


@tenants.command(epilog="Example:\n\n    falkmem tenants copy acme acme-staging")
@click.argument("src", metavar="SRC")
@click.argument("dst", metavar="DST")
@json_option
@click.pass_context
def copy(ctx: click.Context, src: str, dst: str, as_json: bool) -> None:
    """Copy a tenant into a new one (export streamed into import; works across cluster shards)."""
    validate_tenant_id(src)
    report = transfer.copy_tenant(state(ctx).memory(), src, dst)
    _report(report, as_json, "copied into", source=src)


@tenants.command("export", epilog="Example:\n\n    falkmem tenants export acme -o acme.jsonl")
@TENANT
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="File to write (default: stdout)."
)
@json_option
@click.pass_context
def export(ctx: click.Context, tenant_id: str, output: Path | None, as_json: bool) -> None:
    """Export a tenant as JSONL (header, nodes, artifacts with embeddings, edges, end line).

    With -o the file is written next to its final name and renamed when complete, and a
    summary is printed (--json: as JSON). Without -o the JSONL itself goes to stdout.
    """
    mem = state(ctx).memory()
    lines = transfer.export_tenant(mem, tenant_id)
    if output is None:
        out = sys.stdout
        for obj in lines:
            out.write(json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n")
        return
    tmp = output.with_name(output.name + ".partial")
    counts: dict[str, int] = {}
    try:
        with tmp.open("w", encoding="utf-8") as f:
            for obj in lines:
                if obj["type"] == "end":
                    counts = obj["counts"]
                f.write(json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n")
        os.replace(tmp, output)
    finally:
        tmp.unlink(missing_ok=True)
    if as_json:
        emit_json({"tenant": tenant_id, "file": str(output), "counts": counts})
    else:
        click.echo(
            f"exported {tenant_id!r} to {output}: "
            + (", ".join(f"{v} {k}" for k, v in counts.items()) or "empty")
        )


def _file_lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as f:
        yield from f


@tenants.command("import", epilog="Example:\n\n    falkmem tenants import acme-restored acme.jsonl")
@TENANT
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
@click.pass_context
def import_(ctx: click.Context, tenant_id: str, file: Path, as_json: bool) -> None:
    """Import an export file into a new (or empty) tenant; all of it or nothing.

    The whole file is checked first (every bad line is reported with its number, exit 2,
    nothing written); then it is written in batches, one atomic query each, and the
    tenant is removed again if a batch fails.
    """
    validate_tenant_id(tenant_id)
    try:
        transfer.read_export(_file_lines(file))
    except UnicodeDecodeError as exc:
        raise InputError("file", f"is not UTF-8 text ({exc.reason})") from None
    items = (json.loads(line) for line in _file_lines(file))
    report = transfer.import_lines(state(ctx).memory(), tenant_id, items)
    _report(report, as_json, "imported into", file=str(file))


@tenants.command(epilog="Example:\n\n    falkmem tenants migrate acme --plan")
@TENANT
@click.option("--plan", is_flag=True, help="Only list the migrations that would run.")
@json_option
@click.pass_context
def migrate(ctx: click.Context, tenant_id: str, plan: bool, as_json: bool) -> None:
    """Bring a tenant's schema (indexes, constraints) to this falkmem's version."""
    mem = state(ctx).memory()
    before = stats.tenant_summary(mem, tenant_id)["schema_version"]
    pending = [{"version": m.version, "name": m.name} for m in mem.admin.store.pending_migrations(tenant_id)]
    if not plan and pending:
        mem.admin.store.meta(tenant_id)
    after = before if plan else stats.tenant_summary(mem, tenant_id)["schema_version"]
    out = {"tenant": tenant_id, "plan": plan, "from_version": before, "to_version": after,
           "migrations": pending}  # fmt: skip
    if as_json:
        emit_json(out)
    elif not pending:
        click.echo(f"tenant {tenant_id!r} is at schema {before}: nothing to do")
    else:
        click.echo(f"{'would apply' if plan else 'applied'} {len(pending)} migration(s) to {tenant_id!r}:")
        table(pending, ["version", "name"])


@tenants.command(
    epilog="Examples:\n\n\b\n    falkmem tenants grant acme --user acme-app\n"
    "    falkmem tenants grant acme --user acme-app --password\n"
    '    printf %s "$PW" | falkmem tenants grant acme --user acme-app --password-stdin'
)
@TENANT
@click.option("--user", required=True, help="ACL user name (created when missing).")
@click.option(
    "--password",
    "password_prompt",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="",
    help="Set its password, typed at a hidden prompt (asked twice). Never give it on the command "
    "line: it would stay in the shell history and show in ps.",
)
@click.option("--password-stdin", is_flag=True, help="Set its password, read from the first line of stdin.")
@json_option
@click.pass_context
def grant(
    ctx: click.Context,
    tenant_id: str,
    user: str,
    password_prompt: str | None,
    password_stdin: bool,
    as_json: bool,
) -> None:
    """Let an ACL user read and write one tenant, and nothing else.

    The user may run only falkmem's graph commands (never +@all, which includes
    GRAPH.CONFIG) and only on the key falkmem:<ID>. The tenant must exist. Without
    --password or --password-stdin an existing user keeps its password and a new user gets a
    generated one, printed once. On a server without an ACL file the rule lasts until restart.
    """
    password = _new_password(password_prompt, password_stdin)
    mem = state(ctx).memory()
    stats.tenant_summary(mem, tenant_id)  # TenantNotFound (exit 2) before touching ACLs
    g = acl.grant(mem, tenant_id, user, password=password)
    if as_json:
        emit_json({**g.as_dict(), "password": g.password if password is None else None})
        return
    click.echo(f"user {g.user!r} can now use tenant(s): {', '.join(g.tenants)}")
    if g.password is not None and password is None:
        click.echo(f"generated password (shown once): {g.password}")
    if not g.persisted:
        click.echo("note: the server has no ACL file; this grant lasts until the server restarts", err=True)


def _new_password(prompt_value: str | None, from_stdin: bool) -> str | None:
    """The password ``grant`` sets: from a hidden prompt, from stdin, or None (keep/generate)."""
    if prompt_value:  # `--password VALUE`: already in the shell history; refuse, set nothing
        raise click.UsageError(
            "--password takes no value (it would stay in the shell history and show in ps): "
            "use --password alone for a hidden prompt, or --password-stdin"
        )
    if prompt_value is not None and from_stdin:
        raise click.UsageError("use --password or --password-stdin, not both")
    if from_stdin:
        line = sys.stdin.readline().rstrip("\r\n")
        if not line:
            raise InputError("password", "--password-stdin read an empty line; pipe the password in")
        return line
    if prompt_value is not None:
        return str(click.prompt("Password", hide_input=True, confirmation_prompt=True, err=True))
    return None


@tenants.command(epilog="Example:\n\n    falkmem tenants revoke acme --user acme-app")
@TENANT
@click.option("--user", required=True, help="ACL user name.")
@json_option
@click.pass_context
def revoke(ctx: click.Context, tenant_id: str, user: str, as_json: bool) -> None:
    """Take a tenant away from an ACL user; the user is deleted when it has no tenant left."""
    g = acl.revoke(state(ctx).memory(), tenant_id, user)
    if as_json:
        emit_json(g.as_dict())
    elif g.deleted:
        click.echo(f"user {g.user!r} deleted (no tenant left)")
    else:
        click.echo(f"user {g.user!r} keeps tenant(s): {', '.join(g.tenants)}")
