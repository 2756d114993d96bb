"""``falkmem server start|stop|status``: the embedded store's server, kept warm on request."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import click

from ..errors import ConfigError
from .output import emit_json, iso, json_option, pairs, state

if TYPE_CHECKING:
    from ..storage.embedded import EmbeddedServer


def _server(ctx: click.Context) -> EmbeddedServer:
    from ..settings import Settings, default_data_path
    from ..storage.embedded import EmbeddedServer

    st = state(ctx)
    settings = Settings.load(url=st.url, path=st.path)
    if settings.url:
        raise ConfigError("falkmem server: only for the embedded store (--path), not for --url / FALKMEM_URL")
    data_dir = (settings.path or default_data_path()).expanduser().resolve()
    return EmbeddedServer(
        data_dir,
        appendfsync=settings.appendfsync,
        timeout_max_ms=settings.server_timeout_max_ms,
        timeout_default_ms=settings.query_timeout_ms,
        open_timeout_s=settings.open_timeout_s,
    )


@click.group(epilog="Example:\n\n    falkmem --path ./mem server start   # stays up until `server stop`")
def server() -> None:
    """The embedded store's server. By default it starts with the first client and stops
    within seconds after the last client process exits; `start` keeps it running."""


@server.command(epilog="Example:\n\n    falkmem --path ./mem server start --json")
@json_option
@click.pass_context
def start(ctx: click.Context, as_json: bool) -> None:
    """Start the server (or keep the running one) as long-lived: it stays up without clients."""
    srv = _server(ctx)
    started = time.perf_counter()
    info = srv.start_long_lived()
    out = {"pid": info.pid, "socket": info.socket, "keep_alive": True,
           "seconds": round(time.perf_counter() - started, 3)}  # fmt: skip
    if as_json:
        emit_json(out)
    else:
        pairs(list(out.items()))


@server.command(epilog="Example:\n\n    falkmem --path ./mem server stop")
@click.option("--force", is_flag=True, help="Stop it even while processes have the store open.")
@json_option
@click.pass_context
def stop(ctx: click.Context, force: bool, as_json: bool) -> None:
    """Stop the server (a clean shutdown: the append-only file is flushed)."""
    stopped = _server(ctx).stop(force=force)
    if as_json:
        emit_json({"stopped": stopped})
    else:
        click.echo("stopped" if stopped else "not running")


@server.command(epilog="Example:\n\n    falkmem --path ./mem server status --json")
@json_option
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Whether the server runs, its pid, clients, watchdog and any orphaned server."""
    info = _server(ctx).status()
    if as_json:
        emit_json(info)
    else:
        pairs([(k, iso(v) if k == "started_at" else v) for k, v in info.items()])
