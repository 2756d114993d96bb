"""The root ``falkmem`` group: global options, error handling and the command tree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..errors import FalkmemError
from .output import EXIT_FAILURE, State, report_error

EXIT_CODES = """\b
Exit codes:
  0  success
  1  the server or the runtime failed (FalkorDB unreachable, query failed, model failed)
  2  bad usage or bad input (unknown option, invalid tenant id, missing tenant, bad file)

\b
Environment: every FALKMEM_* setting (FALKMEM_URL, FALKMEM_PATH, FALKMEM_EMBEDDER,
FALKMEM_USERNAME, FALKMEM_PASSWORD...); --url and --path win over them.

\b
Examples:
  falkmem tenants list
  falkmem --url redis://localhost:6379 tenants stats acme --json
  falkmem add acme "Priya leads the Atlas team." --session s1
  falkmem search acme "who leads Atlas?" --k 5
"""


JSON_FLAGS = frozenset({"--json", "--nl"})


class FalkmemGroup(click.Group):
    """A group that turns falkmem errors into one stderr line and the documented exit code
    (one JSON object on stderr when the command was given ``--json`` or ``--nl``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # Read here, before the subcommand parses its options: a usage error in them is
        # reported as JSON too. Options end at "--"; an argument after it is a value.
        end = args.index("--") if "--" in args else len(args)
        ctx.meta["falkmem.json"] = any(a in JSON_FLAGS for a in args[:end])
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        as_json = bool(ctx.meta.get("falkmem.json"))
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort):
            raise
        except click.exceptions.ClickException as exc:
            if not as_json:
                raise
            ctx.exit(report_error(exc, debug=False, as_json=True))
        except FalkmemError as exc:
            ctx.exit(report_error(exc, debug=_debug(ctx), as_json=as_json))
        except Exception as exc:  # an unexpected failure is still one line and exit 1
            report_error(exc, debug=_debug(ctx), as_json=as_json)
            ctx.exit(EXIT_FAILURE)


def _debug(ctx: click.Context) -> bool:
    obj = ctx.find_root().obj
    return bool(isinstance(obj, State) and obj.debug)


@click.group(cls=FalkmemGroup, epilog=EXIT_CODES, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--url",
    metavar="URL",
    help="FalkorDB server (redis://, rediss://, unix://); default: the embedded store.",
)
@click.option(
    "--path", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
    help="Directory of the embedded store (default: $XDG_DATA_HOME/falkmem).",
)  # fmt: skip
@click.option("--debug", is_flag=True, help="Show the traceback of an error.")
@click.version_option(package_name="falkmem", prog_name="falkmem")
@click.pass_context
def cli(ctx: click.Context, url: str | None, path: Path | None, debug: bool) -> None:
    """falkmem: agent memory on FalkorDB, one graph per tenant.

    Manage tenants, add memories from the shell, search them and check the installation.
    """
    hook = ctx.obj if isinstance(ctx.obj, dict) else {}
    st = State(url=url, path=path, debug=debug, embedder=hook.get("embedder"))
    ctx.obj = st
    ctx.call_on_close(st.close)


def _register() -> None:
    from .doctor import doctor
    from .mcp import mcp
    from .memories import forget, history, list_, maintain
    from .query import context, explain, search
    from .records import add
    from .tenants import tenants

    for command in (tenants, add, search, context, explain, list_, forget, history, maintain, mcp, doctor):
        cli.add_command(command)
    from .server import server

    cli.add_command(server)


_register()
