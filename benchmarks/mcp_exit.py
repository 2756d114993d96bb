"""``python -m benchmarks mcp-exit``: how long a stdio ``falkmem mcp`` server takes to exit once
its client closes, and whether every memory it acknowledged is there afterwards.

The official ``mcp`` client closes the server's stdin, waits up to 2.0 s for it to exit, then
sends SIGTERM (and SIGKILL 2 s later). Each round starts ``falkmem --path STORE mcp`` through
that client on a store no other process has open (so the server's close is the one that stops
the embedded FalkorDB server), remembers ``--writes`` memories (one of them a ``key=``
supersession), recalls once, then closes the client. The close is timed around the client's exit, which
returns as soon as the server process is gone: a close at or above 2.0 s is a server the
client had to terminate (its closes are counted apart). After the last round a fresh process
(``falkmem list --all --nl``) lists the tenant: every acknowledged id must be there.

    python -m benchmarks mcp-exit --closes 20
    python -m benchmarks mcp-exit --closes 20 --out benchmarks/results/mcp-exit.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TERMINATE_AFTER_S = 2.0
"""The official client's grace period before SIGTERM (``mcp.client.stdio.PROCESS_TERMINATION_TIMEOUT``)."""

TENANT = "mcp-exit"


def add_parser(sub: Any) -> None:
    """The ``mcp-exit`` subcommand."""
    p = sub.add_parser("mcp-exit", help="time a stdio MCP server's exit after its client closes")
    p.add_argument("--closes", type=int, default=20, help="rounds (one server process each)")
    p.add_argument("--writes", type=int, default=3, help="memories remembered per round")
    p.add_argument("--path", type=Path, default=None, help="store folder (default: a temporary one)")
    p.add_argument("--out", type=Path, default=None, help="JSON report (optional)")


def _env() -> dict[str, str]:
    import falkmem

    # the server imports the same falkmem as this process (a checkout or the installed one)
    root = str(Path(falkmem.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    return {
        "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
        "FALKMEM_MCP_TENANT": TENANT, "PYTHONPATH": path,
    }  # fmt: skip


def _cli(store: Path) -> list[str]:
    return ["-c", "from falkmem.cli import main; main()", "--path", str(store)]


async def one_round(store: Path, writes: int, round_no: int) -> tuple[float, list[str]]:
    """One server process: ``writes`` remembers and a recall, then the close; (close seconds,
    acknowledged ids)."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=[*_cli(store), "mcp"], env=_env())
    ids: list[str] = []
    async with contextlib.AsyncExitStack() as stack:
        client = await stack.enter_async_context(Client(params, read_timeout_seconds=300))
        for i in range(writes):
            args: dict[str, Any] = {"text": f"Round {round_no} note {i}: the Atlas build {i} passed."}
            if i == 0:  # a supersession: the previous round's value of this key is replaced
                args.update(text=f"The Atlas release manager is person {round_no}.", key="atlas-rm")
            r = await client.call_tool("remember", args)
            if r.is_error or r.structured_content is None:
                raise RuntimeError(f"remember failed: {r.content}")
            ids.append(str(r.structured_content["id"]))
        r = await client.call_tool("recall", {"query": "Who is the Atlas release manager?", "k": 3})
        if r.is_error:
            raise RuntimeError(f"recall failed: {r.content}")
        started = time.perf_counter()
        await stack.aclose()  # closes the session, then the server's stdin; returns once it exited
        return time.perf_counter() - started, ids


def stored_ids(store: Path) -> set[str]:
    """Every id of the tenant, history included, as a fresh process lists them."""
    out = subprocess.run(
        [sys.executable, *_cli(store), "list", TENANT, "--all", "--history", "--nl", "--limit", "1000"],
        env={**os.environ, **_env()}, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    return {json.loads(line)["id"] for line in out.stdout.splitlines() if line.strip()}


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation (``statistics.quantiles``' inclusive method)."""
    if len(values) == 1:
        return values[0]
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[round(q * 100) - 1]


def run(args: argparse.Namespace) -> dict[str, Any]:
    """All rounds, then the durability check; the report."""
    with contextlib.ExitStack() as stack:
        store = args.path or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mcp-exit-")))
        closes: list[float] = []
        acked: list[str] = []
        for n in range(args.closes):
            s, ids = asyncio.run(one_round(store, args.writes, n))
            closes.append(s)
            acked.extend(ids)
            print(f"close {n + 1:>2}/{args.closes}: {s:.3f} s", file=sys.stderr)
        missing = sorted(set(acked) - stored_ids(store))
    return {
        "command": "python -m benchmarks mcp-exit " + " ".join(sys.argv[2:]),
        "closes": len(closes),
        "writes_per_close": args.writes,
        "close_s": [round(s, 4) for s in closes],
        "p50_s": round(statistics.median(closes), 3),
        "p95_s": round(quantile(closes, 0.95), 3),
        "max_s": round(max(closes), 3),
        "terminated": sum(s >= TERMINATE_AFTER_S for s in closes),
        "acknowledged": len(acked),
        "missing_after": missing,
    }


def main(args: argparse.Namespace) -> int:
    """Run ``mcp-exit``; print the summary; 1 when an acknowledged memory is missing."""
    report = run(args)
    print(
        f"exit after close over {report['closes']} closes: "
        f"p50 {report['p50_s']:.3f} s, p95 {report['p95_s']:.3f} s, max {report['max_s']:.3f} s; "
        f"terminated by the client (>= {TERMINATE_AFTER_S} s): {report['terminated']}; "
        f"acknowledged {report['acknowledged']}, missing afterwards {len(report['missing_after'])}"
    )
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
        print(f"report: {args.out}")
    return 1 if report["missing_after"] else 0
