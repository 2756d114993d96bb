"""The README's "Inside agents" examples (filters, LangGraph, MCP) run as written, each on a fresh
embedded store in a temporary directory (``FALKMEM_PATH``; ``HOME`` for the MCP server the
example launches, which inherits only the SDK's default environment)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def example(name: str) -> str:
    m = re.search(rf"<!-- example: {name} -->\n```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert m, f"README has no '{name}' example"
    code = m.group(1)
    assert len([ln for ln in code.splitlines() if ln.strip()]) <= 12, (
        f"the {name} example grew past ~10 lines"
    )
    return code


@pytest.fixture
def fresh_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FALKMEM_PATH", str(tmp_path / "store"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("FALKMEM_URL", raising=False)
    return tmp_path


def test_filters_example(fresh_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(example("filters"), "README.md:filters", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    assert lines[0].count("'") == 2  # one id: Dana's memory only
    assert lines[3] == "1"  # Omar's memory erased


def test_langgraph_example(fresh_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("langgraph")
    exec(compile(example("langgraph"), "README.md:langgraph", "exec"), {})
    assert capsys.readouterr().out.splitlines() == [
        "{'text': 'Dana prefers aisle seats.'}",
        "Dana prefers aisle seats.",
    ]


def test_mcp_example(
    fresh_store: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("mcp")
    bin_dir = Path(sys.executable).parent  # the venv's `falkmem` script
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    exec(compile(example("mcp"), "README.md:mcp", "exec"), {"__name__": "readme_mcp"})
    assert capfd.readouterr().out.splitlines() == [
        "Dana prefers aisle seats."
    ]  # fd-level: the server needs a real stderr
    assert (fresh_store / ".local" / "share" / "falkmem").is_dir()  # the server used the default store
