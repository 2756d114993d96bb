"""The extraction package's modules import each other without a cycle (issue 12, item 17)."""

from __future__ import annotations

import ast
from pathlib import Path

import falkmem.extraction

PACKAGE = Path(falkmem.extraction.__file__).parent


def _imports(path: Path) -> set[str]:
    """The sibling modules ``path`` imports, at any depth of the file (functions included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_extraction_modules_have_no_import_cycle() -> None:
    graph = {p.stem: _imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}

    def cycle_from(start: str) -> list[str] | None:
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, set()):
                if nxt == start:
                    return [*path, nxt]
                if nxt not in path:
                    stack.append((nxt, [*path, nxt]))
        return None

    cycles = [c for m in sorted(graph) if (c := cycle_from(m))]
    assert cycles == []


def test_vocab_is_a_leaf() -> None:
    assert _imports(PACKAGE / "vocab.py") == set()
