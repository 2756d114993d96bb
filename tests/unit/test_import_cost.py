"""``import falkmem`` stays cheap (issue 51: 0.9-1.8 s before): the engine, the pydantic models,
numpy, redis, wordfreq and the Cypher files are loaded on first use, not at import. Checked by
what a fresh interpreter has imported, not by a timing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("falkmem.memory", "falkmem.engine", "falkmem.models", "falkmem.storage.cypher", "numpy",
         "redis", "wordfreq", "pydantic", "onnxruntime", "torch", "importlib.metadata")  # fmt: skip


def test_import_falkmem_loads_nothing_heavy() -> None:
    code = "import json, sys, falkmem; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_lazy_names_resolve() -> None:
    import falkmem

    for name in falkmem.__all__:
        assert getattr(falkmem, name) is not None, name
    assert falkmem.Memory.__module__ == "falkmem.memory"
    assert "Memory" in dir(falkmem)


def test_falkmem_help_loads_nothing_heavy() -> None:
    code = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from falkmem.cli.app import cli\n"
        "assert CliRunner().invoke(cli, ['--help']).exit_code == 0\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout.splitlines()[-1]))
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_engine_imports_after_the_command_line() -> None:
    """What `falkmem mcp` does: the CLI first, then the engine (a lazy stand-in in sys.modules once
    made this a circular import)."""
    code = "import falkmem.cli.app, falkmem.memory, falkmem.admin.records, falkmem.admin.stats; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
