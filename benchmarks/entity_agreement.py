"""Entity precision/recall of the offline rule extractor against HippoRAG's GPT-3.5 OpenIE entities.

``python -m benchmarks.entity_agreement [--data-dir DIR]`` on MuSiQue-100 (1,890 passages).

The OpenIE entities are a *proxy* for gold, not gold: GPT-3.5 misses names and adds common
nouns ("album", "1990"). Both sides are compared as canonical keys (falkmem's normalisation)
per passage; micro-averaged. Dates, amounts and other identifiers the rule extractor types
are left out of its side, since OpenIE lists them inconsistently.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from falkmem.errors import InputError
from falkmem.extraction.rules import RuleExtractor
from falkmem.text.keys import canonical_key

from .datasets.paths import shared_data

_SKIP_TYPES = {"date", "amount", "time", "identifier", "email", "role"}


def _key(name: str) -> str | None:
    try:
        return canonical_key(name)
    except InputError:
        return None


def measure(folder: Path) -> dict[str, float]:
    """Micro precision/recall/F1 of rule entities vs OpenIE entities, per passage."""
    [openie_file] = sorted(folder.glob("openie*.json"))
    docs = json.loads(openie_file.read_text(encoding="utf-8"))["docs"]
    ex = RuleExtractor()
    tp = n_rule = n_gold = 0
    for d in docs:
        gold = {k for k in (_key(str(e)) for e in d.get("extracted_entities") or []) if k}
        found = {e.key for e in ex.extract(str(d["passage"])).entities if e.type not in _SKIP_TYPES}
        tp += len(found & gold)
        n_rule += len(found)
        n_gold += len(gold)
    p = tp / n_rule if n_rule else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"passages": len(docs), "rule_entities": n_rule, "openie_entities": n_gold,
            "precision": round(100 * p, 1), "recall": round(100 * r, 1), "f1": round(100 * f, 1)}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    ap.add_argument("--data-dir", type=Path, default=None)
    args = ap.parse_args()
    print(json.dumps(measure(args.data_dir or shared_data("musique_train_100")), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
