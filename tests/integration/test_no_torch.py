"""The default embedder needs no torch (issue 51): a fresh process builds the ONNX graph from the
packaged weights, remembers and searches, and has imported neither torch nor transformers nor
sentence-transformers (this environment has all three: the test extra)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SEARCH = """
import json, sys
from falkmem import Memory
url, path = sys.argv[1:3]
with (Memory(url=url) if url else Memory(path)) as mem:
    mem.drop_tenant("no-torch")
    t = mem.tenant("no-torch")
    t.add_many([{"text": "Priya Chandran leads the Atlas team.", "kind": "fact"},
                {"text": "The cafeteria serves pasta on Fridays.", "kind": "fact"}])
    hits = t.search("Who is in charge of the Atlas team?", k=2).hits
    embedder = mem._engine.embedder
    mem.drop_tenant("no-torch")
print(json.dumps({
    "top": hits[0].text,
    "embedder": [type(embedder).__name__, type(getattr(embedder, "inner", embedder)).__name__, embedder.name],
    "heavy": sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "transformers", "sentence_transformers")),
}))
"""


def test_a_search_with_the_default_embedder_imports_no_torch(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]  # this checkout's falkmem, not an installed one
    env = {k: v for k, v in os.environ.items() if not k.startswith("FALKMEM_") or k == "FALKMEM_TEST_URL"}
    env.update(
        HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", FALKMEM_EMBEDDER_CACHE_DIR=str(tmp_path / "onnx")
    )
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    url = os.environ.get("FALKMEM_TEST_URL", "")
    done = subprocess.run(
        [sys.executable, "-c", SEARCH, url, str(tmp_path / "store")],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["top"] == "Priya Chandran leads the Atlas team."
    assert out["embedder"] == ["CachedEmbedder", "OnnxMiniLMEmbedder", "all-MiniLM-L6-v2"]
    assert out["heavy"] == []
    assert list((tmp_path / "onnx").glob("*/model.onnx")), "the graph was built in this process"
