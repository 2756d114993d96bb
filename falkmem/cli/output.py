"""CLI plumbing: the per-invocation state, JSON and table output, errors and exit codes."""

from __future__ import annotations

import dataclasses
import json
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import ConfigError, FalkmemError, InputError, NotFound, TenantError

if TYPE_CHECKING:  # the engine is imported when a command opens the store, not for --help
    from ..embedding.base import Embedder
    from ..memory import Memory

EXIT_OK = 0
EXIT_FAILURE = 1
"""The server or the runtime failed (StorageError, ConnectionFailed, EmbeddingError...)."""
EXIT_USAGE = 2
"""Bad usage or bad input (click usage errors, InputError, InvalidTenantId, TenantNotFound...)."""


@dataclasses.dataclass
class State:
    """What the root group parsed; opens the store lazily (``--help`` never touches it)."""

    url: str | None = None
    path: Path | None = None
    debug: bool = False
    embedder: Embedder | None = None
    """Test hook: ``CliRunner().invoke(cli, args, obj={"embedder": HashEmbedder()})``."""
    _mem: Memory | None = None

    def memory(self) -> Memory:
        """The open Memory (``--url``/``--path`` over ``FALKMEM_*`` over defaults)."""
        if self._mem is None:
            from ..memory import Memory
            from ..settings import Settings

            settings = Settings.load(url=self.url, path=self.path)
            self._mem = Memory(settings=settings, embedder=self.embedder)
        return self._mem

    def close(self) -> None:
        """Close the Memory if one was opened."""
        if self._mem is not None:
            self._mem.close()
            self._mem = None


def exit_code(exc: BaseException) -> int:
    """2 for bad input or usage (the caller can fix it), 1 for everything else."""
    return EXIT_USAGE if isinstance(exc, (InputError, TenantError, NotFound, ConfigError)) else EXIT_FAILURE


def report_error(exc: BaseException, *, debug: bool, as_json: bool = False) -> int:
    """Write ``exc`` to stderr as one line (plus numbered bad lines, and a traceback with --debug);
    the exit code it means.

    ``as_json`` (the command was given ``--json`` or ``--nl``): one JSON object on stderr instead,
    ``{"error": {"type", "message", "exit_code"[, "field", "rule"][, "lines"]}}``."""
    code = exit_code(exc) if isinstance(exc, FalkmemError) else EXIT_FAILURE
    if isinstance(exc, click.ClickException):
        code = exc.exit_code
    if debug:
        traceback.print_exception(exc, file=sys.stderr)
    name = type(exc).__name__
    text = (
        " ".join((exc.format_message() if isinstance(exc, click.ClickException) else str(exc)).split())
        or name
    )
    problems = getattr(exc, "problems", None) or []
    if as_json:
        error: dict[str, Any] = {"type": name, "message": text, "exit_code": code}
        if isinstance(exc, InputError):
            error.update(field=exc.field, rule=exc.rule)
        if problems:
            error["lines"] = [{"line": p.line, "problem": p.problem} for p in problems]
        click.echo(json.dumps({"error": error}, ensure_ascii=False), err=True)
        return code
    for p in problems:
        click.echo(f"line {p.line}: {p.problem}", err=True)
    hint = "" if debug or isinstance(exc, FalkmemError) else " (run with --debug for the traceback)"
    click.echo(f"Error: {name}: {text}{hint}", err=True)
    return code


def iso(value: Any) -> str | None:
    """Epoch seconds → ISO-8601 UTC text (None stays None)."""
    if value is None:
        return None
    try:
        return datetime.fromtimestamp(float(value), tz=UTC).isoformat(timespec="seconds")
    except (TypeError, ValueError, OverflowError):
        return str(value)


def jsonable(obj: Any) -> Any:
    """A JSON-ready copy of pydantic models, dataclasses, datetimes, tuples and sets."""
    if hasattr(obj, "model_dump"):
        return jsonable(obj.model_dump(mode="json"))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return jsonable({f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)})
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, datetime):
        return obj.isoformat()
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    return str(obj)


def emit_json(obj: Any) -> None:
    """Write one JSON document to stdout."""
    click.echo(json.dumps(jsonable(obj), indent=2, ensure_ascii=False))


def emit_nl(rows: Iterable[Any]) -> None:
    """Write one compact JSON object per line to stdout."""
    for row in rows:
        click.echo(json.dumps(jsonable(row), ensure_ascii=False))


def _cell(value: Any, width: int | None) -> str:
    if value is None:
        text = "-"
    elif isinstance(value, float):
        text = f"{value:.4f}" if abs(value) < 1000 else f"{value:.0f}"
    else:
        text = " ".join(str(value).split())
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return text


def table(
    rows: Sequence[dict[str, Any]], columns: Sequence[str], *, widths: dict[str, int] | None = None
) -> None:
    """Print ``rows`` as an aligned table with a header; numbers are right-aligned."""
    widths = widths or {}
    cells = [[_cell(r.get(c), widths.get(c)) for c in columns] for r in rows]
    numeric = [all(isinstance(r.get(c), (int, float)) for r in rows) and bool(rows) for c in columns]
    size = [max([len(c), *(len(row[i]) for row in cells)]) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(size[i]) if numeric[i] else v.ljust(size[i]) for i, v in enumerate(values)]
        return "  ".join(parts).rstrip()

    click.echo(line([c.upper() for c in columns]))
    for row in cells:
        click.echo(line(row))


def pairs(items: Sequence[tuple[str, Any]]) -> None:
    """Print ``key  value`` lines with the keys aligned."""
    width = max((len(k) for k, _ in items), default=0)
    for k, v in items:
        click.echo(f"{k.ljust(width)}  {_cell(v, None)}")


def json_option[F: Callable[..., Any]](f: F) -> F:
    """``--json``: one JSON document on stdout instead of the human output."""
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")(f)


def nl_option[F: Callable[..., Any]](f: F) -> F:
    """``--nl``: one JSON object per line (for lists)."""
    return click.option("--nl", "as_nl", is_flag=True, help="Print one JSON object per line.")(f)


def state(ctx: click.Context) -> State:
    """The State the root group stored."""
    obj = ctx.find_root().obj
    assert isinstance(obj, State)
    return obj


def stderr_is_tty() -> bool:
    """Whether progress bars should draw."""
    return sys.stderr.isatty()
