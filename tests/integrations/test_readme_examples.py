"""Every Python block of the README runs as written, and so do the examples of docs/agents.md
(filters, LangGraph, MCP) and docs/langgraph.md, each on a fresh embedded store in a temporary directory (the working
directory for the README's ``./demo-store``; ``FALKMEM_PATH``; ``HOME`` for the MCP server the
example launches, which inherits only the SDK's default environment)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
AGENTS = ROOT / "docs" / "agents.md"


def python_blocks(path: Path) -> list[str]:
    """Every ```python block of a Markdown file, in order."""
    return re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)


def example(name: str) -> str:
    m = re.search(rf"<!-- example: {name} -->\n```python\n(.*?)```", AGENTS.read_text(encoding="utf-8"), re.S)
    assert m, f"docs/agents.md has no '{name}' example"
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
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_every_readme_python_block_runs_twice(fresh_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = python_blocks(README)
    assert blocks, "the README has no Python block"
    for n, code in enumerate(blocks, 1):
        compiled = compile(code, f"README.md:python-{n}", "exec")
        exec(compiled, {"__name__": f"readme_{n}"})
        first = capsys.readouterr().out
        exec(compiled, {"__name__": f"readme_{n}"})  # the quickstart clears what it wrote first
        assert capsys.readouterr().out == first, f"README block {n} printed something else on a second run"


def test_the_quickstart_answers_and_writes_where_it_says(
    fresh_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exec(compile(python_blocks(README)[0], "README.md:quickstart", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert "Priya Chandran leads the Atlas team." in lines[0]  # the first hit answers
    assert lines[3] == "hybrid"
    assert any("Priya Chandran reports to Marcus Webb." in ln for ln in lines[4:])  # the chain's end
    assert (fresh_store / "demo-store").is_dir()
    assert not (fresh_store / ".local" / "share" / "falkmem").exists()  # not the default store


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


def test_langgraph_page_example(fresh_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("langgraph")
    [code, *_] = python_blocks(ROOT / "docs" / "langgraph.md")
    exec(compile(code, "docs/langgraph.md:python-1", "exec"), {})
    assert capsys.readouterr().out.splitlines() == ["Dana prefers aisle seats."]
