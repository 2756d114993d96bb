"""``falkmem add``: one memory, a text file (a memory per paragraph or line), or JSONL records."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from .._lazy import lazy_module
from ..errors import InputError
from .output import emit_json, state

if TYPE_CHECKING:
    from ..admin import records as bulk
else:  # loaded when `falkmem add` runs, not for `falkmem --help`
    bulk = lazy_module("falkmem.admin.records")

EPILOG = """\b
Examples:
  falkmem add acme "Priya leads the Atlas team." --session s1 --speaker dana
  falkmem add acme --file notes.md                 # one memory per paragraph
  falkmem add acme --file log.txt --split line     # one memory per non-empty line
  falkmem add acme --jsonl memories.jsonl --skip-bad

\b
JSONL: one object per line with the fields id, text (required), kind, session,
speaker, agent, user, at (ISO-8601), metadata (object), key, entities (names or
{"name","type"}), triples ([subject, relation, object]) and embedding (a list of the
tenant's dimension). See docs/cli.md.
"""


@click.command(epilog=EPILOG)
@click.argument("tenant_id", metavar="TENANT")
@click.argument("text", required=False)
@click.option(
    "--file",
    "text_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A UTF-8 text file: one memory per paragraph (or per line with --split line).",
)
@click.option(
    "--jsonl",
    "jsonl_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A JSONL file of records (schema below).",
)
@click.option(
    "--split",
    type=click.Choice(["paragraph", "line"]),
    default="paragraph",
    show_default=True,
    help="How --file is cut into memories.",
)
@click.option("--id", "record_id", help="Id of the memory (TEXT only; default: generated).")
@click.option("--kind", help="Kind of every memory added (default: episode).")
@click.option("--session", help="Session id of every memory added.")
@click.option("--speaker", help="Speaker of every memory added.")
@click.option("--user", help="User id of every memory added.")
@click.option("--agent", help="Agent id of every memory added.")
@click.option(
    "--skip-bad",
    is_flag=True,
    help="Add the good records of a file and report the bad ones (default: add none if any is bad).",
)
@click.option(
    "--batch-size",
    type=click.IntRange(1, 1000),
    default=64,
    show_default=True,
    help="Records per embedding call and per atomic write.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON document.")
@click.pass_context
def add(
    ctx: click.Context, tenant_id: str, text: str | None, text_file: Path | None, jsonl_file: Path | None,
    split: Literal["paragraph", "line"], record_id: str | None, kind: str | None, session: str | None,
    speaker: str | None, user: str | None, agent: str | None, skip_bad: bool, batch_size: int, as_json: bool,
) -> None:  # fmt: skip
    """Add memories to a tenant (created on first write), with a progress bar and a summary.

    Every record is checked before anything is written. By default one bad line means
    nothing is added (exit 2, each bad line reported with its number); with --skip-bad
    the good ones are added and the bad ones reported (still exit 2). Ids that exist
    already are skipped as duplicates. Each batch is one atomic write.
    """
    sources = [x for x in (text, text_file, jsonl_file) if x is not None]
    if len(sources) != 1:
        raise click.UsageError("give exactly one of TEXT, --file or --jsonl")
    if record_id is not None and text is None:
        raise click.UsageError("--id goes with TEXT only (JSONL records carry their own id)")
    mem = state(ctx).memory()
    tenant = mem.tenant(tenant_id)
    common = {k: v for k, v in (("kind", kind), ("session", session), ("speaker", speaker),
                                ("user", user), ("agent", agent)) if v is not None}  # fmt: skip
    problems = bulk.new_problems()
    numbered: list[tuple[int, dict[str, Any]]]
    try:
        if text is not None:
            # one TEXT is checked as Tenant.add checks it: its error names the field, not "line 1"
            from ..ingest.validate import prepare

            prepare({"text": text, "id": record_id, **common}, mem.settings, now=time.time())
            numbered = [(1, {"text": text, "id": record_id, **common})]
        elif text_file is not None:
            content = text_file.read_text(encoding="utf-8")
            numbered = [(n, {"text": t, **common}) for n, t in bulk.split_text(content, split)]
        else:
            assert jsonl_file is not None
            with jsonl_file.open(encoding="utf-8") as f:
                parsed, problems = bulk.parse_jsonl(f)
            numbered = [(n, {**common, **r}) for n, r in parsed]
    except UnicodeDecodeError as exc:
        raise InputError("file", f"is not UTF-8 text ({exc.reason})") from None
    if not numbered and not problems.total:
        raise InputError("input", "holds no memory")
    with click.progressbar(length=len(numbered), label="adding", file=sys.stderr) as bar:
        done = [0]

        def progress(n: int, total: int) -> None:
            bar.update(n - done[0])
            done[0] = n

        summary = bulk.bulk_add(mem, tenant, numbered, problems, skip_bad=skip_bad,
                                batch_size=batch_size, on_progress=progress)  # fmt: skip
    out = {"tenant": tenant_id, **summary.as_dict()}
    if as_json:
        emit_json(out)
    else:
        click.echo(f"added {out['added']}, skipped {out['skipped']} as duplicates, failed {out['failed']}"
                   f" ({summary.seconds:.1f} s)")  # fmt: skip
        for p in summary.failed:
            click.echo(f"line {p.line}: {p.problem}", err=True)
        if text is not None and summary.added:
            click.echo(f"id: {summary.added[0]}")
    if summary.failed_total:
        ctx.exit(2)


__all__ = ["add"]
