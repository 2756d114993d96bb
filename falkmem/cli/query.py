"""``falkmem search | context | explain``: the SDK's recall from the shell."""

from __future__ import annotations

from typing import Any

import click

from .filters import filter_options
from .output import emit_json, emit_nl, json_option, nl_option, pairs, state, table

ROUTES = click.Choice(["auto", "vector", "hybrid"])
NOW = click.option(
    "--now", metavar="ISO", default=None,
    help="When the question is asked: relative dates in it ('last week') resolve against it (default: the clock).",
)  # fmt: skip


def _hit_rows(hits: Any) -> list[dict[str, Any]]:
    return [
        {"rank": i, "score": round(float(h.score), 4), "relevance": h.relevance, "id": h.id, "kind": h.kind,
         "session": h.session, "text": h.text}
        for i, h in enumerate(hits, start=1)
    ]  # fmt: skip


@click.command(epilog='Example:\n\n    falkmem search acme "who leads Atlas?" --k 5 --route hybrid')
@click.argument("tenant_id", metavar="TENANT")
@click.argument("query_text", metavar="QUERY")
@click.option("--k", type=int, default=10, show_default=True, help="How many memories.")
@click.option("--route", type=ROUTES, default=None, help="Force a route (default: the router decides).")
@click.option(
    "--min-relevance", type=click.FloatRange(0.0, 1.0), default=None, metavar="P",
    help="Drop hits whose relevance is below P (0-1; docs/relevance.md recommends 0.033). "
         "Default: the relevance.min_relevance setting (none: keep every hit).",
)  # fmt: skip
@NOW
@filter_options
@json_option
@nl_option
@click.pass_context
def search(ctx: click.Context, tenant_id: str, query_text: str, k: int, route: str | None,
           min_relevance: float | None, now: str | None, filters: dict[str, Any], as_json: bool,
           as_nl: bool) -> None:  # fmt: skip
    """Search a tenant: the K most relevant memories, best first."""
    tenant = state(ctx).memory().tenant(tenant_id)
    kwargs: dict[str, Any] = {"k": k, "now": now, "min_relevance": min_relevance, **filters}
    if route is not None:
        kwargs["route"] = route
    result = tenant.search(query_text, **kwargs)
    if as_json:
        emit_json({"tenant": tenant_id, "query_route": result.route, "reranker": result.reranker,
                   "timings_ms": result.timings_ms, "hits": list(result.hits)})  # fmt: skip
    elif as_nl:
        emit_nl(result.hits)
    elif not len(result):
        click.echo("no memories found")
    else:
        table(_hit_rows(result.hits), ["rank", "relevance", "score", "id", "kind", "text"],
              widths={"text": 80, "id": 24})  # fmt: skip
        click.echo(f"route {result.route}, reranker {result.reranker}, {result.timings_ms.get('total', 0):.0f} ms",
                   err=True)  # fmt: skip


@click.command(epilog='Example:\n\n    falkmem context acme "what did we decide about Helios?" --budget 500')
@click.argument("tenant_id", metavar="TENANT")
@click.argument("query_text", metavar="QUERY")
@click.option(
    "--budget", type=click.IntRange(min=1), default=None, help="Token budget (default from settings)."
)
@NOW
@filter_options
@json_option
@click.pass_context
def context(ctx: click.Context, tenant_id: str, query_text: str, budget: int | None, now: str | None,
            filters: dict[str, Any], as_json: bool) -> None:  # fmt: skip
    """Print prompt-ready context for a query, packed into a token budget with provenance."""
    tenant = state(ctx).memory().tenant(tenant_id)
    result = tenant.context(query_text, budget_tokens=budget, now=now, **filters)
    if as_json:
        emit_json(result)
    else:
        click.echo(getattr(result, "text", str(result)))
        tokens, limit = getattr(result, "tokens", None), getattr(result, "budget_tokens", None)
        click.echo(f"{tokens} of {limit} tokens", err=True)


@click.command(epilog='Example:\n\n    falkmem explain acme "how is Priya connected to Helios?" --json')
@click.argument("tenant_id", metavar="TENANT")
@click.argument("query_text", metavar="QUERY")
@click.option("--k", type=int, default=10, show_default=True, help="How many memories.")
@NOW
@filter_options
@json_option
@click.pass_context
def explain(ctx: click.Context, tenant_id: str, query_text: str, k: int, now: str | None,
            filters: dict[str, Any], as_json: bool) -> None:  # fmt: skip
    """Explain a search: the router's plan, each channel's candidates, fusion, rerank, timings."""
    tenant = state(ctx).memory().tenant(tenant_id)
    result = tenant.explain(query_text, k=k, now=now, **filters)
    if as_json:
        emit_json(result)
        return
    data = result.model_dump(mode="json") if hasattr(result, "model_dump") else dict(vars(result))
    simple = [(k_, v) for k_, v in data.items() if not isinstance(v, (dict, list))]
    pairs(simple)
    for name in ("plan", "timings_ms"):
        if isinstance(data.get(name), dict):
            click.echo(f"\n{name}:")
            pairs([(f"  {k_}", v) for k_, v in data[name].items()])
    for name, found in (data.get("channels") or {}).items():
        click.echo(f"\nchannel {name}: {len(found)} candidates")
        table(
            [{"rank": i, "id": c[0], "score": c[1]} for i, c in enumerate(found[:10], 1)],
            ["rank", "id", "score"],
        )
    leaned = data.get("leanings") or {}
    if leaned:
        click.echo("\nleanings (what each added to a fused score):")
        order = [i for i, _ in data.get("fused") or [] if i in leaned][:10]
        table(
            [{"id": i, "leanings": ", ".join(f"{n} {v:+.3g}" for n, v in leaned[i].items())} for i in order],
            ["id", "leanings"],
        )
    hits = getattr(result, "hits", ())
    if hits:
        click.echo("\nhits:")
        table(_hit_rows(hits), ["rank", "score", "id", "text"], widths={"text": 70, "id": 24})
