"""``python -m benchmarks run ...``: load a dataset, run the sweep, print the table, write JSON and PNG;
``python -m benchmarks compare OLD.json NEW.json``: two runs question by question (see compare.py);
``python -m benchmarks table REPORT.json``: the markdown tables of a report again;
``python -m benchmarks context --dataset D --out X.json``: answer-in-context per budget (see context_eval.py);
``python -m benchmarks fusion dump|lodo``: fusion schemes by leave-one-dataset-out (see fusion.py);
``python -m benchmarks relevance dump|fit``: Hit.relevance fitted, min_relevance chosen (see relevance.py);
``python -m benchmarks mcp-exit --closes 20``: a stdio MCP server's exit after its client closes (see mcp_exit.py).

Exit codes of ``run``: 0 done, 2 the dataset is missing or malformed (the message names the path)
or an option is invalid, 1 any other failure.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

for _var, _value in (
    ("HF_HUB_OFFLINE", "1"),
    ("TRANSFORMERS_OFFLINE", "1"),
    ("TOKENIZERS_PARALLELISM", "false"),
):
    os.environ.setdefault(_var, _value)

from . import compare, context_eval, datasets, fusion, mcp_exit, relevance, scale  # noqa: E402
from .report import write  # noqa: E402
from .runner import RunConfig, run  # noqa: E402
from .systems import SWEEPS, systems  # noqa: E402
from .table import render  # noqa: E402


def _clients(text: str) -> tuple[int, ...]:
    if text.strip().lower() in ("0", "none", ""):
        return ()
    try:
        values = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError("clients must be comma-separated integers, e.g. 1,4") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("clients must be positive integers")
    return values


def parser() -> argparse.ArgumentParser:
    """The command line (subcommands ``run``, ``compare``, ``table``, ``context`` and ``context-report``)."""
    p = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.splitlines()[0] if __doc__ else ""
    )
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run one benchmark and write its report")
    r.add_argument("--dataset", choices=datasets.NAMES, default="synthetic")
    r.add_argument("--size", type=int, default=1000, help="synthetic memories (100..100000)")
    r.add_argument("--seed", type=int, default=7)
    r.add_argument("--questions", type=int, default=200, help="questions per tenant (at most)")
    r.add_argument("--sweep", choices=SWEEPS, default="default",
                   help="default (every system), quick (smoke), real (5 systems, for real data)")  # fmt: skip
    r.add_argument("--tenants", type=int, default=None,
                   help="keep the first N tenants (longmemeval: one per question, types interleaved)")  # fmt: skip
    r.add_argument("--out", type=Path, required=True, help="JSON report path, e.g. benchmarks/results/x.json")
    r.add_argument("--plot", type=Path, default=None, help="PNG path (default: next to --out)")
    r.add_argument("--embedder", choices=("minilm", "hash"), default="minilm")
    r.add_argument("--path", type=Path, default=None, help="store folder (default: a temporary one)")
    r.add_argument("--data-dir", type=Path, default=None,
                   help="dataset folder (default: ../shared/data/... next to the repo)")  # fmt: skip
    r.add_argument("--file", type=Path, default=None, help="JSONL file (--dataset jsonl)")
    r.add_argument("--k", type=int, default=10)
    r.add_argument("--budget", type=int, default=800, help="context() token budget")
    r.add_argument(
        "--clients",
        type=_clients,
        default=(1, 4),
        help="concurrent clients for throughput, e.g. 1,4; 'none' or 0 skips it",
    )
    r.add_argument("--reranker", default=None, help="cross-encoder path: adds the with-reranker system")
    r.add_argument(
        "--floor-sample", type=int, default=2000, help="texts timed through the embedder alone (0 skips it)"
    )
    r.add_argument(
        "--no-context", action="store_true", help="skip context() token counts (halves query time)"
    )
    r.add_argument(
        "--reuse", action="store_true", help="keep a tenant of --path that holds the same memories"
    )
    r.add_argument("--baseline", default="vector-only",
                   help="system the others are compared with (paired deltas, CIs); default vector-only")  # fmt: skip
    r.add_argument("--no-progress", action="store_true", help="no progress bars")
    compare.add_parser(sub)
    t = sub.add_parser("table", help="print the markdown tables of a JSON report (e.g. for RESULTS.md)")
    t.add_argument("report", type=Path)
    context_eval.add_parsers(sub)
    fusion.add_parsers(sub)
    relevance.add_parsers(sub)
    scale.add_parser(sub)
    mcp_exit.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = parser().parse_args(argv)
    if args.command == "compare":
        return compare.main(args)
    if args.command in ("context", "context-report"):
        return context_eval.main(args, argv)
    if args.command == "fusion":
        return fusion.main(args)
    if args.command == "relevance":
        return relevance.main(args)
    if args.command == "scale":
        return scale.main(args)
    if args.command == "mcp-exit":
        return mcp_exit.main(args)
    if args.command == "table":
        try:
            sys.stdout.write(render(compare.load(args.report, questions=False)))
        except compare.CompareError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    try:
        ds = datasets.load(args.dataset, size=args.size, seed=args.seed, questions=args.questions,
                           data_dir=args.data_dir, file=args.file, tenants=args.tenants)  # fmt: skip
    except (datasets.DatasetMissing, datasets.DatasetInvalid) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    names = [s.name for s in systems(args.sweep, reranker=args.reranker is not None)]
    if args.baseline not in names:
        print(f"error: --baseline {args.baseline!r} is not a system of the {args.sweep!r} sweep; "
              f"choose from: {', '.join(names)}", file=sys.stderr)  # fmt: skip
        return 2
    cfg = RunConfig(
        dataset=args.dataset, size=args.size, seed=args.seed, sweep=args.sweep, k=args.k,
        budget_tokens=args.budget, clients=args.clients, embedder=args.embedder, path=args.path,
        reranker=args.reranker, floor_sample=args.floor_sample, context=not args.no_context,
        reuse=args.reuse, baseline=args.baseline,
        progress=not args.no_progress,
        command="python -m benchmarks " + shlex.join(list(argv) if argv is not None else sys.argv[1:]),
    )  # fmt: skip
    report = run(ds, cfg)
    write(report, args.out)
    plot_path = args.plot or args.out.with_suffix(".png")
    from .plot import plot

    plot(report.systems, plot_path, title=f"{report.dataset}: Recall@5 vs p50 latency ({report.embedder})",
         facet=report.class_by, baseline=report.baseline)  # fmt: skip
    sys.stdout.write(render(report))
    print(f"\nreport: {args.out}\nplot:   {plot_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
