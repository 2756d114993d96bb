"""The rule extractor alone on MuSiQue passages: milliseconds per passage, one thread.

    .venv/bin/python tools/perf_extract.py [--n 640] [--profile out.prof]

Each passage (title + newline + text) is extracted with the known-entity index growing as in
``add_many`` (every entity found is added before the next passage). A first pass warms the
memoised stems and caches; the second is timed. Compare with ``extract_s`` of
``tools/perf_ingest.py``, which is the same work beside the embedder.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import time
from pathlib import Path

DATA = Path(os.environ.get("FALKMEM_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=640)
    ap.add_argument("--profile", default=None)
    args = ap.parse_args()
    from falkmem.extraction.known import KnownEntities
    from falkmem.extraction.rules import RuleExtractor

    corpus = json.loads((DATA / "hipporag/musique_train_100/musique_train_corpus.json").read_text())
    texts = [f"{p['title']}\n{p['text']}" for p in corpus][: args.n]
    extractor = RuleExtractor()

    def run() -> None:
        known = KnownEntities([])
        for text in texts:
            for m in extractor.extract(text, known=known).entities:
                known.add(m.key, m.name)

    run()
    start = time.perf_counter()
    if args.profile:
        with cProfile.Profile() as prof:
            run()
        prof.dump_stats(args.profile)
    else:
        run()
    ms = (time.perf_counter() - start) / len(texts) * 1000
    print(
        json.dumps({"passages": len(texts), "ms_per_passage": round(ms, 3), "profiled": bool(args.profile)})
    )


if __name__ == "__main__":
    main()
