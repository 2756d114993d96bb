"""The rule extractor's output on every dev text, hashed per text: a refactor must leave it unchanged.

    .venv/bin/python tools/extract_diff.py snapshot OUT.json [--datasets musique,2wiki,...]
    .venv/bin/python tools/extract_diff.py compare A.json B.json [--show 5]

``snapshot`` extracts every memory of each dataset (MuSiQue-100, MuSiQue-200, the 2Wiki corpus,
LongMemEval, REALTALK, BEAM; and 5,000 synthetic memories) as ingest does: per tenant, in order, with the memory's speaker and
the tenant's known-entity index growing by every entity found. It writes, per text, a hash of its
entities (key, name, type, aliases) and triples (subject, relation, object, weight, label), and
the extraction itself in a ``.jsonl`` beside the snapshot, so ``compare`` can show what changed.
``compare`` reports per dataset how many texts differ (and a few of them with ``--show``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

DATASETS = ("musique", "musique200", "2wiki", "longmemeval", "realtalk", "beam", "synthetic")


def _texts(name: str) -> Iterator[tuple[str, list[tuple[str, str, str | None]]]]:
    """(tenant, [(memory id, text, speaker)]) of one dataset, each text once."""
    if name == "2wiki":
        from benchmarks.datasets.paths import shared_data

        path = shared_data("2wikimultihopqa_corpus_only") / "2wikimultihopqa_corpus.json"
        corpus = json.loads(path.read_text(encoding="utf-8"))
        yield "2wiki", [(str(i), f"{p['title']}\n{p['text']}", None) for i, p in enumerate(corpus)]
        return
    from benchmarks.datasets import load

    if name == "synthetic":  # the agent-memory domain the lexicon is written for (not dev data)
        yield from (
            (t.tenant, [(m.id, m.text, m.speaker) for m in t.memories]) for t in load(name, size=5000).tenants
        )
        return
    seen: set[str] = set()
    for t in load(name, questions=None).tenants:
        items = [(m.id, m.text, m.speaker) for m in t.memories if m.entities is None and m.triples is None]
        fresh = [it for it in items if (t.tenant, it[1]) not in seen]
        seen.update((t.tenant, it[1]) for it in fresh)
        if fresh:
            yield t.tenant, fresh


def _record(ex: object) -> dict[str, object]:
    from falkmem.extraction.types import Extraction

    assert isinstance(ex, Extraction)
    return {
        "entities": [[e.key, e.name, e.type, list(e.aliases)] for e in ex.entities],
        "triples": [[t.subject, t.relation, t.object, round(t.weight, 9), t.label] for t in ex.triples],
    }


def snapshot(out: Path, names: list[str]) -> None:
    from falkmem.extraction.known import KnownEntities
    from falkmem.extraction.rules import RuleExtractor

    extractor = RuleExtractor()
    hashes: dict[str, dict[str, str]] = {}
    with out.with_suffix(".jsonl").open("w", encoding="utf-8") as full:
        for name in names:
            start = time.perf_counter()
            per: dict[str, str] = hashes.setdefault(name, {})
            for tenant, items in _texts(name):
                known = KnownEntities()
                for mid, text, speaker in items:
                    ex = extractor.extract(text, known=known, speaker=speaker)
                    for e in ex.entities:
                        known.add(e.key, e.name)
                    rec = _record(ex)
                    blob = json.dumps(rec, ensure_ascii=False, sort_keys=True)
                    ident = f"{tenant}/{mid}"
                    per[ident] = hashlib.sha1(blob.encode()).hexdigest()[:16]
                    full.write(
                        json.dumps({"dataset": name, "id": ident, "text": text, **rec}, ensure_ascii=False)
                    )
                    full.write("\n")
            took = time.perf_counter() - start
            print(f"{name}: {len(per)} texts, {took:.0f} s", file=sys.stderr)
    out.write_text(json.dumps(hashes, indent=0, sort_keys=True), encoding="utf-8")


def _full(path: Path, wanted: set[str]) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    jsonl = path.with_suffix(".jsonl")
    if not jsonl.exists() or not wanted:
        return out
    with jsonl.open(encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            key = f"{rec['dataset']}:{rec['id']}"
            if key in wanted:
                out[key] = rec
    return out


def compare(a: Path, b: Path, show: int) -> int:
    left, right = json.loads(a.read_text()), json.loads(b.read_text())
    changed_all: list[str] = []
    total = 0
    for name in sorted(set(left) | set(right)):
        x, y = left.get(name, {}), right.get(name, {})
        ids = sorted(set(x) | set(y))
        changed = [i for i in ids if x.get(i) != y.get(i)]
        total += len(changed)
        print(f"{name}: {len(changed)} of {len(ids)} texts changed")
        changed_all += [f"{name}:{i}" for i in changed[:show]]
    if show and changed_all:
        before, after = _full(a, set(changed_all)), _full(b, set(changed_all))
        for key in changed_all:
            old, new = before.get(key, {}), after.get(key, {})
            print(f"\n== {key}\n{str(old.get('text') or new.get('text'))[:300]!r}")
            for part in ("entities", "triples"):
                o = {json.dumps(v, ensure_ascii=False) for v in old.get(part, [])}
                n = {json.dumps(v, ensure_ascii=False) for v in new.get(part, [])}
                for v in sorted(o - n):
                    print(f"  - {part[:-1]} {v}")
                for v in sorted(n - o):
                    print(f"  + {part[:-1]} {v}")
    print(f"total: {total} texts changed")
    return 1 if total else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("out", type=Path)
    s.add_argument("--datasets", default=",".join(DATASETS))
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument("--show", type=int, default=0)
    args = ap.parse_args()
    if args.cmd == "snapshot":
        snapshot(args.out, [n for n in args.datasets.split(",") if n])
    else:
        sys.exit(compare(args.a, args.b, args.show))


if __name__ == "__main__":
    main()
