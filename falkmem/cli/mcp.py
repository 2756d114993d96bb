"""``falkmem mcp``: serve one tenant's memory to agents over MCP (stdio, or streamable HTTP)."""

from __future__ import annotations

import gc
import ipaddress

import click

from ..errors import InputError
from .output import state

LOOPBACK = "127.0.0.1"


def parse_http(value: str) -> tuple[str, int]:
    """``[HOST:]PORT`` → (host, port); the host defaults to loopback.

    Raises:
        InputError: not a port (1-65535) or HOST:PORT.
    """
    host, sep, port = value.rpartition(":")
    host = host.strip("[]") if sep else LOOPBACK
    try:
        number = int(port)
    except ValueError:
        raise InputError("http", f"must be [HOST:]PORT, such as 127.0.0.1:8765, not {value!r}") from None
    if not 1 <= number <= 65535:
        raise InputError("http", "the port must be between 1 and 65535")
    return host or LOOPBACK, number


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


@click.command(
    "mcp",
    epilog="""\b
Examples:
  falkmem mcp --tenant acme                      # stdio: for Claude Desktop, Cursor, agent runtimes
  FALKMEM_MCP_TENANT=acme falkmem --path ~/mem mcp
  falkmem mcp --tenant acme --http 8765          # streamable HTTP on 127.0.0.1:8765/mcp
  falkmem mcp --allow-tenant-arg --http 127.0.0.1:8765

\b
Tools: remember, recall, context, forget, history (needs: pip install 'falkmem[mcp]').""",
)
@click.option("--tenant", envvar="FALKMEM_MCP_TENANT", metavar="ID", help="The tenant every tool uses.")
@click.option(
    "--allow-tenant-arg", is_flag=True, envvar="FALKMEM_MCP_ALLOW_TENANT_ARG",
    help="Let callers pick the tenant with a `tenant` argument on every tool.",
)  # fmt: skip
@click.option(
    "--http", "http", metavar="[HOST:]PORT",
    help="Serve streamable HTTP (path /mcp) instead of stdio; the host defaults to 127.0.0.1.",
)  # fmt: skip
@click.pass_context
def mcp(ctx: click.Context, tenant: str | None, allow_tenant_arg: bool, http: str | None) -> None:
    """Serve memory over the Model Context Protocol: one tenant per server (stdio by default)."""
    try:
        from ..integrations.mcp import build_server
    except ImportError as exc:
        raise click.UsageError(
            f"falkmem mcp needs the mcp extra: pip install 'falkmem[mcp]' ({exc})"
        ) from None
    address = parse_http(http) if http is not None else None
    server = build_server(state(ctx).memory(), tenant, allow_tenant_arg=allow_tenant_arg)
    if address is None:
        server.run("stdio")  # returns when the client closes our stdin
        # The official client sends SIGTERM 2 s after it closed our stdin (issue 50): close the
        # store now (its server stops once the append-only file is flushed), then keep the
        # collector out of the interpreter's teardown. The process is exiting and the OS frees
        # its memory; the collections over what the embedder and the SDK left took the exit
        # after close from p50 0.14 s to 0.78 s on two busy cores (python -m benchmarks mcp-exit).
        state(ctx).close()
        gc.freeze()
        return
    host, port = address
    if not _loopback(host):
        click.echo(f"warning: serving MCP on {host}:{port}, beyond this machine; no authentication", err=True)
    click.echo(f"falkmem MCP on http://{host}:{port}/mcp", err=True)
    server.run("streamable-http", host=host, port=port)
