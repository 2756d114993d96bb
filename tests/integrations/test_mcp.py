"""``falkmem mcp`` driven by the official MCP SDK's own client: over stdio against a real
``falkmem mcp`` subprocess on the embedded store (the test session's, so the test can check
what was written), and in-process for the tenant-argument mode."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from falkmem import InputError, Memory, Tenant
from falkmem.integrations.mcp import build_server
from falkmem.storage.embedded import EmbeddedServer

MEMORIES = [
    {"text": "Priya Chandran leads the Atlas team.", "session": "s1", "user": "dana", "key": "atlas-lead",
     "metadata": {"source": "standup"}},
    {"text": "The Helios launch moved to May 14.", "session": "s1", "user": "dana"},
    {"text": "Omar prefers window seats on long flights.", "session": "s2", "user": "omar", "kind": "preference"},
]  # fmt: skip


def _text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def _server_params(store_path: Path, env: dict[str, str], *args: str) -> StdioServerParameters:
    url = os.environ.get("FALKMEM_TEST_URL")
    where = ["--url", url] if url else ["--path", str(store_path)]
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", "from falkmem.cli import main; main()", *where, "mcp", *args],
        env={"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", **env},
    )


def test_stdio_server_remember_recall_context_and_errors(
    mem: Memory, tenant: Tenant, store_path: Path
) -> None:
    params = _server_params(store_path, {"FALKMEM_MCP_TENANT": tenant.id})

    async def scenario() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(params, read_timeout_seconds=300) as client:
            tools = (await client.list_tools()).tools
            out["tools"] = {t.name: t for t in tools}
            out["ids"] = []
            for m in MEMORIES:
                r = await client.call_tool("remember", m)
                assert not r.is_error, _text(r)
                out["ids"].append(r.structured_content["id"])
            out["recall"] = await client.call_tool("recall", {"query": "Who leads the Atlas team?", "k": 1})
            out["filtered"] = await client.call_tool("recall", {"query": "flights", "k": 5, "user": "dana"})
            out["context"] = await client.call_tool(
                "context", {"query": "When does Helios launch and who leads Atlas?", "budget_tokens": 100}
            )
            out["history"] = await client.call_tool("history", {"key": "atlas-lead"})
            out["bad_kind"] = await client.call_tool("remember", {"text": "Never stored.", "kind": "bogus"})
            out["bad_k"] = await client.call_tool("recall", {"query": "Atlas", "k": 0})
            out["bad_type"] = await client.call_tool("remember", {"text": 42})
            out["bad_forget"] = await client.call_tool("forget", {})
            out["forget"] = await client.call_tool("forget", {"session": "s2"})
        return out

    out = asyncio.run(scenario())
    tools = out["tools"]
    assert set(tools) == {"remember", "recall", "context", "forget", "history"}
    remember = tools["remember"].input_schema
    assert remember["required"] == ["text"]
    assert {"text", "session", "user", "key", "metadata", "kind"} <= set(remember["properties"])
    assert "tenant" not in remember["properties"]  # one tenant per server
    assert {"query", "k", "session", "kind", "since", "metadata"} <= set(
        tools["recall"].input_schema["properties"]
    )
    assert {"query", "budget_tokens"} <= set(tools["context"].input_schema["properties"])
    assert tools["recall"].output_schema is not None

    recall = out["recall"]
    assert not recall.is_error and [m["id"] for m in recall.structured_content["memories"]] == [out["ids"][0]]
    assert all(m["user"] == "dana" for m in out["filtered"].structured_content["memories"])
    ctx = out["context"].structured_content
    assert 0 < ctx["tokens"] <= 100 and ctx["budget_tokens"] == 100 and ctx["used"]
    assert [e["id"] for e in out["history"].structured_content["entries"]] == [out["ids"][0]]

    assert out["bad_kind"].is_error and "kind: must be one of" in _text(out["bad_kind"])
    assert out["bad_k"].is_error and "k: must be" in _text(out["bad_k"])
    assert out["bad_type"].is_error and "text" in _text(out["bad_type"])
    assert out["bad_forget"].is_error and "forget" in _text(out["bad_forget"])
    # the refused calls wrote nothing: three remembered, then the one of session s2 erased
    assert out["forget"].structured_content["erased"] == 1
    assert tenant.count() == 2
    assert {h.text for h in tenant.list()} == {MEMORIES[0]["text"], MEMORIES[1]["text"]}


def test_in_process_tenant_argument_mode(mem: Memory, tenant: Tenant) -> None:
    with pytest.raises(InputError) as err:
        build_server(mem, None)
    assert err.value.field == "tenant"
    server = build_server(mem, None, allow_tenant_arg=True)

    async def scenario() -> tuple[Any, Any, Any]:
        async with Client(server) as client:
            schema = {t.name: t.input_schema for t in (await client.list_tools()).tools}
            ok = await client.call_tool(
                "remember", {"text": "Kenji owns the billing service.", "tenant": tenant.id}
            )
            missing = await client.call_tool("recall", {"query": "billing"})
            bad_tenant = await client.call_tool("recall", {"query": "billing", "tenant": "Bad Tenant!"})
            return schema, ok, (missing, bad_tenant)

    schema, ok, (missing, bad_tenant) = asyncio.run(scenario())
    assert "tenant" in schema["recall"]["properties"]
    assert not ok.is_error and tenant.count() == 1
    assert missing.is_error and "tenant" in _text(missing)
    assert bad_tenant.is_error and "tenant" in _text(bad_tenant)


def test_http_address_parsing() -> None:
    from falkmem.cli.mcp import parse_http

    assert parse_http("8765") == ("127.0.0.1", 8765)
    assert parse_http(":8765") == ("127.0.0.1", 8765)
    assert parse_http("0.0.0.0:9000") == ("0.0.0.0", 9000)
    assert parse_http("[::1]:9000") == ("::1", 9000)
    for bad in ("x", "host:0", "host:99999"):
        with pytest.raises(InputError) as err:
            parse_http(bad)
        assert err.value.field == "http"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_streamable_http_server_on_loopback(mem: Memory, tenant: Tenant, store_path: Path) -> None:
    import subprocess
    import time

    port = _free_port()
    url = os.environ.get("FALKMEM_TEST_URL")
    where = ["--url", url] if url else ["--path", str(store_path)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from falkmem.cli import main; main()", *where, "mcp", "--tenant", tenant.id,
         "--http", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:

        async def scenario() -> tuple[Any, Any]:
            deadline = time.monotonic() + 120
            while True:
                try:
                    async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                        r = await client.call_tool("remember", {"text": "Lena runs the Lisbon office."})
                        found = await client.call_tool(
                            "recall", {"query": "Who runs the Lisbon office?", "k": 1}
                        )
                        return r, found
                except Exception:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.5)

        r, found = asyncio.run(scenario())
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert (
        not r.is_error and found.structured_content["memories"][0]["text"] == "Lena runs the Lisbon office."
    )
    assert f"http://127.0.0.1:{port}/mcp" in err  # loopback by default
    assert tenant.count() == 1


def test_tools_are_closed_unknown_arguments_and_a_locked_tenant_are_errors(
    mem: Memory, tenant: Tenant, tenant_id: str
) -> None:
    """Issue 50: the SDK dropped unknown arguments, so ``remember(tenant="other")`` wrote into the
    locked tenant and ``tenant="Bad Tenant!"`` was accepted."""
    other = f"{tenant_id}-other"
    mem.drop_tenant(other)
    locked = build_server(mem, tenant.id)
    open_ = build_server(mem, None, allow_tenant_arg=True)

    async def scenario() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(locked) as client:
            out["schemas"] = {t.name: t.input_schema for t in (await client.list_tools()).tools}
            out["other"] = await client.call_tool(
                "remember", {"text": "Kenji owns billing.", "tenant": other}
            )
            out["bad"] = await client.call_tool(
                "remember", {"text": "Kenji owns billing.", "tenant": "Bad Tenant!"}
            )
            out["extra"] = await client.call_tool(
                "remember", {"text": "Kenji owns billing.", "colour": "red"}
            )
            out["recall_extra"] = await client.call_tool("recall", {"query": "billing", "top_k": 3})
        async with Client(open_) as client:
            out["open_schemas"] = {t.name: t.input_schema for t in (await client.list_tools()).tools}
            out["open_extra"] = await client.call_tool(
                "remember", {"text": "Kenji owns billing.", "tenant": tenant.id, "colour": "red"}
            )
        return out

    out = asyncio.run(scenario())
    for schemas in (out["schemas"], out["open_schemas"]):
        assert set(schemas) == {"remember", "recall", "context", "forget", "history"}
        assert all(s.get("additionalProperties") is False for s in schemas.values()), schemas
    for name in ("other", "bad"):
        assert out[name].is_error, _text(out[name])
        assert f"tenant: this server serves tenant {tenant.id!r} only" in _text(out[name])
    assert out["extra"].is_error and "colour: unknown argument of remember" in _text(out["extra"])
    assert out["recall_extra"].is_error and "top_k: unknown argument of recall" in _text(out["recall_extra"])
    assert out["open_extra"].is_error and "colour" in _text(out["open_extra"])
    assert "Kenji" not in _text(out["extra"])  # the caller's values stay out of the error text
    # nothing was written anywhere
    assert not mem.admin.store.exists(tenant.id) or tenant.count() == 0
    assert not mem.admin.store.exists(other)


def test_reads_of_a_tenant_with_no_memories_are_the_same_error(mem: Memory, tenant: Tenant) -> None:
    """Issue 50: ``context`` (and ``recall``) on a missing tenant returned an empty success while
    ``history`` was an error; all three are now the SDK's TenantNotFound, as in the CLI."""
    server = build_server(mem, tenant.id)

    async def scenario() -> list[Any]:
        async with Client(server) as client:
            return [
                await client.call_tool("context", {"query": "Who leads Atlas?"}),
                await client.call_tool("recall", {"query": "Who leads Atlas?"}),
                await client.call_tool("history", {"key": "atlas-lead"}),
            ]

    for r in asyncio.run(scenario()):
        assert r.is_error and f"tenant {tenant.id!r} does not exist" in _text(r), _text(r)


def test_recall_min_relevance(mem: Memory, tenant: Tenant) -> None:
    tenant.add_many([
        {"id": "a", "text": "My flight to Lisbon leaves on May 3 at 7am from gate 12."},
        {"id": "b", "text": "My manager at Northwind is called Omar; we meet every Tuesday."},
        {"id": "c", "text": "I booked a table at Chez Marcel for dinner on Saturday."},
    ])  # fmt: skip
    server = build_server(mem, tenant.id)

    async def scenario() -> list[Any]:
        async with Client(server) as client:
            return [
                await client.call_tool("recall", {"query": "What is the capital of France?", "k": 3}),
                await client.call_tool("recall", {"query": "What is the capital of France?", "k": 3, "min_relevance": 0.033}),
                await client.call_tool("recall", {"query": "When does my flight leave?", "k": 3, "min_relevance": 0.033}),
                await client.call_tool("recall", {"query": "flight", "min_relevance": 2}),
            ]  # fmt: skip

    every, off, on, bad = asyncio.run(scenario())
    assert len(every.structured_content["memories"]) == 3
    assert all(m["relevance"] < 0.033 for m in every.structured_content["memories"])
    assert off.structured_content["memories"] == []
    assert [m["id"] for m in on.structured_content["memories"]][:1] == ["a"]
    assert bad.is_error and "min_relevance" in _text(bad)


def test_stdio_server_exits_soon_after_its_client_closes_and_keeps_what_it_acknowledged(
    tmp_path: Path, embedder: Any
) -> None:
    """Issue 50: the official client closes the server's stdin, then sends SIGTERM after 2.0 s.
    The server must exit on its own well before that (it took 1.9-2.7 s: its store's close
    waited for init to reap the stopped FalkorDB server), having stopped the server of its
    store, and every memory it acknowledged must be there for a fresh process. The store is
    this test's own, so the MCP server is its last client and its close is the one that stops
    the embedded server. Two server processes in turn (the second supersedes the first's
    key); the faster close must be under 1.5 s, so one slow moment on a busy machine passes."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from falkmem.cli import main; main()", "--path", str(tmp_path), "mcp"],
        env={"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
             "FALKMEM_MCP_TENANT": "exit-check"},
    )  # fmt: skip

    async def one_server(round_no: int) -> tuple[float, list[str]]:
        ids = []
        client = Client(params, read_timeout_seconds=300)
        await client.__aenter__()
        try:
            for args in (
                {"text": f"The Atlas release manager is person {round_no}.", "key": "atlas-rm"},
                {"text": f"Round {round_no}: the Helios build passed.", "session": f"s{round_no}"},
            ):
                r = await client.call_tool("remember", args)
                assert not r.is_error, _text(r)
                ids.append(r.structured_content["id"])
            r = await client.call_tool("recall", {"query": "Who is the Atlas release manager?", "k": 2})
            assert not r.is_error, _text(r)
        finally:
            started = time.perf_counter()
            await client.__aexit__(None, None, None)  # returns once the server process is gone
        return time.perf_counter() - started, ids

    closes, acked = [], []
    for round_no in range(2):
        seconds, ids = asyncio.run(one_server(round_no))
        closes.append(seconds)
        acked.extend(ids)
        # the server stopped its store's FalkorDB server before it exited
        assert EmbeddedServer(tmp_path).running() is None, f"round {round_no}: the store's server outlived it"
    assert min(closes) < 1.5, f"exit after close: {closes} s (the client sends SIGTERM at 2.0 s)"

    with Memory(tmp_path, embedder=embedder) as fresh:
        t = fresh.tenant("exit-check")
        stored = {h.id: h for h in t.list(include_history=True, limit=100).items}
        assert set(acked) <= set(stored), f"lost: {set(acked) - set(stored)}"
        assert [h.text for h in t.history("atlas-rm")] == [
            "The Atlas release manager is person 0.", "The Atlas release manager is person 1."
        ]  # fmt: skip
        assert stored[acked[2]].status == "active" and stored[acked[0]].status == "superseded"
