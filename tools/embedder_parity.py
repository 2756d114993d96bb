"""The default ONNX embedder against sentence-transformers on the dev data: the same vectors?

    .venv/bin/python tools/embedder_parity.py [--per-set 3000] [--longest 100] [--json out.json]
        [--sets musique,2wiki,longmemeval,realtalk,beam] [--onnx-file old.onnx]

Needs the ``falkmem[sentence-transformers]`` extra (the reference). Per set (texts from
``benchmarks.datasets.texts``: a seeded sample plus the longest texts, which run past the
model's 256 tokens): the number of texts, how many are truncated, and the largest absolute
difference of any vector value and the smallest cosine between the ONNX vectors and
sentence-transformers' (``model.encode(..., normalize_embeddings=True)``). The ONNX graph is
built into a fresh cache folder first, before sentence-transformers is imported.
``--onnx-file`` also runs another ONNX graph with the same inputs (an earlier cached export)
against the same reference and against the new graph.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

for _k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_k, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _compare(got: Any, want: Any) -> dict[str, float]:
    import numpy as np

    cos = np.sum(got * want, axis=1) / (np.linalg.norm(got, axis=1) * np.linalg.norm(want, axis=1))
    return {"max_abs_diff": float(np.abs(got - want).max()), "min_cosine": float(cos.min())}


def _FileEmbedder(path: Path) -> Any:
    """The ONNX embedder (tokeniser, batching), running the graph in ``path``."""
    from falkmem.embedding.minilm import MINILM_NAME, minilm_path
    from falkmem.embedding.onnx import OnnxMiniLMEmbedder

    class FileEmbedder(OnnxMiniLMEmbedder):
        @property
        def model_file(self) -> Path:
            return path

    return FileEmbedder(minilm_path(), name=MINILM_NAME)


def main() -> None:
    import numpy as np

    from benchmarks.datasets.texts import SETS, sample_texts
    from falkmem.embedding.minilm import MINILM_NAME, minilm_path
    from falkmem.embedding.onnx import MAX_SEQ_LENGTH, OnnxMiniLMEmbedder

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--per-set", type=int, default=3000, help="texts drawn per set (0: all)")
    ap.add_argument("--longest", type=int, default=100, help="also each set's N longest texts")
    ap.add_argument("--onnx-file", type=Path, help="another ONNX graph to check the same way")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()

    started = time.perf_counter()
    cache = Path(tempfile.mkdtemp(prefix="falkmem-parity-"))
    onnx = OnnxMiniLMEmbedder(minilm_path(), name=MINILM_NAME, cache_dir=cache)
    onnx.embed(["build the graph"])
    torch_loaded = "torch" in sys.modules
    print(f"built {onnx.model_file} in {time.perf_counter() - started:.1f} s; torch imported: {torch_loaded}")

    from tokenizers import Tokenizer

    from falkmem.embedding.minilm import minilm

    counter = Tokenizer.from_file(str(minilm_path() / "tokenizer.json"))
    counter.no_truncation()
    counter.no_padding()
    other = _FileEmbedder(args.onnx_file) if args.onnx_file else None
    reference = minilm("torch")
    report: dict[str, Any] = {"sets": {}}
    worst = {"max_abs_diff": 0.0, "min_cosine": 1.0}
    total = 0
    for name in args.sets.split(","):
        texts = sample_texts(name, args.per_set or None, longest=args.longest)
        truncated = sum(len(e.ids) > MAX_SEQ_LENGTH for e in counter.encode_batch(texts))
        t = time.perf_counter()
        got = np.array(onnx.embed(texts), dtype=np.float64)
        onnx_s = time.perf_counter() - t
        t = time.perf_counter()
        want = np.array(reference.embed(texts), dtype=np.float64)
        torch_s = time.perf_counter() - t
        row: dict[str, Any] = {"texts": len(texts), "truncated": truncated, **_compare(got, want),
                               "onnx_s": round(onnx_s, 1), "torch_s": round(torch_s, 1)}  # fmt: skip
        if other is not None:
            old = np.array(other.embed(texts), dtype=np.float64)
            row["other_vs_torch"] = _compare(old, want)
            row["other_vs_onnx"] = _compare(old, got)
        report["sets"][name] = row
        total += len(texts)
        worst = {"max_abs_diff": max(worst["max_abs_diff"], row["max_abs_diff"]),
                 "min_cosine": min(worst["min_cosine"], row["min_cosine"])}  # fmt: skip
        print(f"{name:12} {len(texts):6} texts ({truncated} truncated): max |diff| {row['max_abs_diff']:.3g},"
              f" min cosine {row['min_cosine']:.9f}  [onnx {onnx_s:.0f} s, torch {torch_s:.0f} s]"
              + (f"; other file: vs torch {row['other_vs_torch']['max_abs_diff']:.3g},"
                 f" vs onnx {row['other_vs_onnx']['max_abs_diff']:.3g}" if other is not None else ""),
              flush=True)  # fmt: skip
    report.update(texts=total, **worst, torch_imported_by_the_build=torch_loaded)
    print(f"all {total} texts: max |diff| {worst['max_abs_diff']:.3g}, min cosine {worst['min_cosine']:.9f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
