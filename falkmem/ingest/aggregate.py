"""A batch's graph writes aggregated on the client: one row per distinct entity, edge and stem.

``ingest/create_artifacts`` writes each memory's mentions and statements one after the other
(a MERGE, an index lookup and an update per mention). For a batch whose memories all get
written (none carries a fact key, so none can be a restatement that writes nothing),
:func:`batch_params` folds them into what ``ingest/create_batch`` needs: each entity once with
its mention count and new surface forms, each ``RELATED_TO`` edge once with the weights and
ids of its statements in order, each stem once with the number of memories holding it. The
result in the graph is the same, node for node and in the same creation order: the write
query runs all entity mentions of a batch (memory after memory) before any statement, so
that is the order kept here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["EVIDENCE_KEEP", "EVIDENCE_SEP", "EVIDENCE_SPILL_AT", "batch_params", "chains", "evidence_ids"]

EVIDENCE_SEP = "\x1f"
"""What separates the ids in a ``RELATED_TO`` edge's evidence strings (``evidence``,
``evidence_old``): a control character, which no memory id may hold (ingest/validate.py).
One string of ids costs the server ~17 bytes an id here, a list of id strings ~68."""
EVIDENCE_SPILL_AT = 128
"""A ``RELATED_TO`` edge's recent evidence (``evidence``) longer than this many ids after a write
moves all but its newest :data:`EVIDENCE_KEEP` ids to the end of ``evidence_old``."""
EVIDENCE_KEEP = 64
"""Ids left in ``evidence`` after a spill: the older string is rewritten once per
``EVIDENCE_SPILL_AT - EVIDENCE_KEEP`` statements of an edge, the recent one holds at most
``EVIDENCE_SPILL_AT`` ids."""


def evidence_ids(props: dict[str, Any]) -> list[str]:
    """Every memory id a ``RELATED_TO`` edge's properties cite, oldest first (``evidence_old``
    then ``evidence``; ``artifact_ids``, the list of tenants before schema 16).

    Example:
        >>> evidence_ids({"evidence_old": "a\\x1fb", "evidence": "c"})
        ['a', 'b', 'c']
        >>> evidence_ids({"artifact_ids": ["a", "b"]}), evidence_ids({})
        (['a', 'b'], [])
    """
    if props.get("artifact_ids") is not None:
        return [str(x) for x in props["artifact_ids"]]
    out: list[str] = []
    for name in ("evidence_old", "evidence"):
        if props.get(name):
            out.extend(str(props[name]).split(EVIDENCE_SEP))
    return out


_ROW_FIELDS = (
    "id", "text", "kind", "embedding", "session", "speaker", "agent", "user", "key", "fact_hash",
    "source", "valid_at", "metadata", "meta_kv", "attribution", "n_tokens", "stems", "seq",
)  # fmt: skip
"""What ``ingest/create_batch`` reads of a row (entities and triples go aggregated)."""


def batch_params(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The parameters of ``ingest/create_batch`` for ``rows`` (built as for ``create_artifacts``,
    none with a fact key), but ``now``.

    Example:
        >>> rows = [
        ...     {"id": "m1", "session": "s", "valid_at": 1.0, "stems": " atla:1 lead:1 ", "n_tokens": 2,
        ...      "entities": [{"key": "atlas", "name": "Atlas", "type": "org", "head": True}],
        ...      "triples": [{"subject": "priya", "subject_name": "Priya", "relation": "leads",
        ...                   "object": "atlas", "object_name": "Atlas", "weight": 1.0, "label": None}]},
        ...     {"id": "m2", "session": "s", "valid_at": 2.0, "stems": " atla:2 ", "n_tokens": 2,
        ...      "entities": [{"key": "atlas", "name": "ATLAS", "type": "org", "head": False}],
        ...      "triples": [{"subject": "priya", "subject_name": "Priya", "relation": "leads",
        ...                   "object": "atlas", "object_name": "Atlas", "weight": 0.5, "label": None}]},
        ... ]
        >>> p = batch_params(rows)
        >>> p["entities"]
        [{'key': 'atlas', 'name': 'Atlas', 'type': 'org', 'count': 2, 'names': ['Atlas', 'ATLAS']}]
        >>> p["endpoints"], p["refs"]
        ([{'key': 'priya', 'name': 'Priya'}], [{'a': 0, 'e': 0, 'h': True}, {'a': 1, 'e': 0, 'h': None}])
        >>> p["edges"][0]["s"], p["edges"][0]["o"], p["edges"][0]["weights"], p["edges"][0]["ids"]
        (1, 0, [1.0, 0.5], 'm1\\x1fm2')
        >>> p["terms"], p["tokens"], p["chains"]
        ([{'stem': 'atla', 'c': 2}, {'stem': 'lead', 'c': 1}], 4.0, [{'session': 's', 'ids': ['m1', 'm2']}])
    """
    index: dict[str, int] = {}
    entities: list[dict[str, Any]] = []
    refs: list[dict[str, Any]] = []
    for a, row in enumerate(rows):
        if row.get("key") is not None:
            raise ValueError(f"row {row.get('id')!r} has a fact key: it goes through ingest/create_artifacts")
        for e in row.get("entities") or ():
            i = index.get(e["key"])
            if i is None:
                i = index[e["key"]] = len(entities)
                entities.append(
                    {"key": e["key"], "name": e["name"], "type": e["type"], "count": 0, "names": []}
                )
            ent = entities[i]
            ent["count"] += 1
            if e["name"] not in ent["names"]:
                ent["names"].append(e["name"])
            refs.append({"a": a, "e": i, "h": True if e.get("head") else None})
    endpoints: list[dict[str, Any]] = []
    edges: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in rows:
        for t in row.get("triples") or ():
            for key, name in ((t["subject"], t["subject_name"]), (t["object"], t["object_name"])):
                if key not in index:
                    index[key] = len(entities) + len(endpoints)
                    endpoints.append({"key": key, "name": name})
            edge = edges.get((t["subject"], t["relation"], t["object"]))
            if edge is None:
                edge = edges[(t["subject"], t["relation"], t["object"])] = {
                    "s": index[t["subject"]], "o": index[t["object"]], "relation": t["relation"],
                    "label": t["label"], "valid_at": row["valid_at"], "weights": [], "ids": [],
                }  # fmt: skip
            edge["weights"].append(t["weight"])
            edge["ids"].append(row["id"])
    for edge in edges.values():
        edge["ids"] = EVIDENCE_SEP.join(edge["ids"])
    terms: dict[str, int] = {}
    tokens = 0.0  # a float, as the per-row statement's sum() stores it
    for row in rows:
        tokens += int(row.get("n_tokens") or 0)
        for item in (row.get("stems") or "").split():
            stem = item.split(":", 1)[0]
            if stem:
                terms[stem] = terms.get(stem, 0) + 1
    return {
        "rows": [{k: row.get(k) for k in _ROW_FIELDS} for row in rows],
        "entities": entities, "endpoints": endpoints, "refs": refs, "edges": list(edges.values()),
        "terms": [{"stem": s, "c": c} for s, c in terms.items()], "tokens": tokens,
        "chains": chains(rows),
        "spill_at": EVIDENCE_SPILL_AT, "keep": EVIDENCE_KEEP, "sep": EVIDENCE_SEP,
    }  # fmt: skip


def chains(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per session of a batch, its rows' ids in the order given: the turn order the write links
    with NEXT edges (``ingest/create_artifacts``, ``ingest/create_batch``).

    Example:
        >>> chains([{"id": "a", "session": "s"}, {"id": "b", "session": None}, {"id": "c", "session": "s"}])
        [{'session': 's', 'ids': ['a', 'c']}]
    """
    by_session: dict[str, list[str]] = {}
    for r in rows:
        if r.get("session") is not None:
            by_session.setdefault(str(r["session"]), []).append(str(r["id"]))
    return [{"session": s, "ids": ids} for s, ids in by_session.items()]
