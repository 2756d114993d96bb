"""The packer's output on stored candidates, hashed per question: a refactor must leave it unchanged.

    .venv/bin/python tools/pack_diff.py snapshot OUT.json ITEMS.jsonl.gz ... [--budgets 150,300,800]
    .venv/bin/python tools/pack_diff.py compare A.json B.json

``ITEMS`` are ``--items-out`` files of ``python -m benchmarks context`` (each question's ranked
candidates, as ``context()`` reads them). ``snapshot`` packs every question at each budget with
the default counter and writes the packed text's hash (and the text itself, in a ``.jsonl``
beside it); ``compare`` counts the packs that differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path


def snapshot(out: Path, items: list[Path], budgets: list[int]) -> None:
    from benchmarks.context_eval import load_items
    from falkmem.context import RegexTokenCounter, pack

    counter = RegexTokenCounter()
    hashes: dict[str, str] = {}
    with out.with_suffix(".jsonl").open("w", encoding="utf-8") as full:
        for path in items:
            for q in load_items(path):
                for b in budgets:
                    p = pack(q["text"], q["items"], budget_tokens=b, counter=counter, window=q.get("window"))
                    key = f"{q.get('dataset', path.stem)}:{q['tenant']}/{q['id']}@{b}"
                    hashes[key] = hashlib.sha1(p.text.encode()).hexdigest()[:16]
                    full.write(json.dumps({"key": key, "text": p.text}, ensure_ascii=False) + "\n")
    out.write_text(json.dumps(hashes, indent=0, sort_keys=True), encoding="utf-8")
    print(f"{len(hashes)} packs", file=sys.stderr)


def compare(a: Path, b: Path) -> int:
    left, right = json.loads(a.read_text()), json.loads(b.read_text())
    changed = sorted(k for k in set(left) | set(right) if left.get(k) != right.get(k))
    for k in changed[:20]:
        print("changed:", k)
    print(f"{len(changed)} of {len(set(left) | set(right))} packs changed")
    return 1 if changed else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("out", type=Path)
    s.add_argument("items", type=Path, nargs="+")
    s.add_argument("--budgets", default="150,300,800,2000")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "snapshot":
        snapshot(args.out, args.items, [int(x) for x in args.budgets.split(",")])
    else:
        sys.exit(compare(args.a, args.b))


if __name__ == "__main__":
    main()
