"""Layering rules the code keeps (issue 12, item 17)."""

from __future__ import annotations

import ast
from pathlib import Path

import falkmem

PACKAGE = Path(falkmem.__file__).parent


def _engine_uses(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "_engine"]


def test_cli_and_admin_reach_the_store_only_through_memory_admin() -> None:
    found = {
        str(p.relative_to(PACKAGE)): lines
        for folder in ("cli", "admin")
        for p in sorted((PACKAGE / folder).glob("*.py"))
        if p.name != "access.py" and (lines := _engine_uses(p))
    }
    assert found == {}
