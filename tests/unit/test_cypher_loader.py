"""The Cypher loader: every shipped file parses; broken files fail with the file and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from falkmem import CypherFileError
from falkmem.storage.cypher import cypher_dir, load_all, parse


def test_every_shipped_file_loads() -> None:
    queries = load_all()
    assert len(queries) == len(list(cypher_dir().rglob("*.cypher")))
    for name, q in queries.items():
        assert q.name == name and q.text and q.source
        assert q.mode in ("read", "write")


def test_no_cypher_in_python_sources() -> None:
    import re

    pkg = Path(__file__).resolve().parents[2] / "falkmem"
    pattern = re.compile(r"\b(MATCH|MERGE|CREATE)\s*\(")
    offenders = [str(p) for p in pkg.rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []


def _write(tmp: Path, name: str, body: str) -> Path:
    p = tmp / f"{name}.cypher"
    p.write_text(body)
    return p


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("MATCH (n) RETURN n", "name"),
        ("// name: other\n// mode: read\n// params:\nRETURN 1", "file name"),
        ("// name: q\n// mode: maybe\n// params:\nRETURN 1", "mode"),
        ("// name: q\n// mode: read\n// params:\nRETURN $x", "not declared"),
        ("// name: q\n// mode: read\n// params: x, y\nRETURN $x", "not used"),
        ("// name: q\n// mode: read\n// params:\nCREATE (n) RETURN n", "write clause"),
        ("// name: q\n// mode: read\n// params:\n", "no statement"),
    ],
)
def test_broken_files_are_refused(tmp_path: Path, body: str, needle: str) -> None:
    with pytest.raises(CypherFileError, match=needle):
        parse(_write(tmp_path, "q", body), "g")


def test_strings_do_not_count_as_parameters_or_clauses(tmp_path: Path) -> None:
    q = parse(
        _write(
            tmp_path,
            "q",
            "// name: q\n// mode: read\n// params: a\n// Doc line.\nRETURN '$nope CREATE' AS s, $a",
        ),
        "g",
    )
    assert q.params == frozenset({"a"}) and q.doc == "Doc line."
