"""Reader for HippoRAG's dataset layout (corpus, questions with supporting paragraphs, OpenIE triples).

A HippoRAG dataset folder holds (names as in HippoRAG's ``reproduce/dataset`` and ``outputs``):

* ``<name>_corpus.json``: a list of passages ``{"title", "text", "idx"?}`` (a ``{title: text}``
  object is accepted too);
* ``<name>.json``: a list of questions ``{"id", "question", "answer", "paragraphs": [{"title",
  "text" | "paragraph_text", "is_supporting", "idx"}]}``; the supporting paragraphs are the gold
  passages;
* optionally ``openie*.json``: ``{"docs": [{"idx", "passage", "extracted_entities",
  "extracted_triples": [[s, p, o], ...]}]}`` where ``passage`` is ``"title\\ntext"`` or the text.

Files are found anywhere under the folder. The hop count of a question comes from its id
(MuSiQue's ``2hop__...``), else from its ``question_decomposition``, else from its number of
supporting paragraphs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .base import Dataset, DatasetInvalid, DatasetMissing, MemoryItem, Question, TenantData

_HOPS_RE = re.compile(r"^(\d)hop")
MAX_PART = 256
"""Longest triple part falkmem accepts; OpenIE sometimes returns whole clauses (those triples are dropped)."""


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetInvalid(f"{path}: not readable JSON ({exc})") from None


def find_files(folder: Path) -> tuple[Path, Path, Path | None]:
    """(corpus, questions, openie or None) under ``folder``.

    Raises:
        DatasetMissing: the folder or its corpus / question file is missing.
    """
    if not folder.is_dir():
        raise DatasetMissing(
            f"dataset folder {folder} does not exist; put HippoRAG's files there "
            "(<name>_corpus.json, <name>.json, optionally openie*.json) or pass --data-dir"
        )
    files = sorted(p for p in folder.rglob("*.json") if p.is_file())
    corpus = [p for p in files if p.name.endswith("corpus.json")]
    openie = [p for p in files if p.name.startswith("openie")]
    questions = [p for p in files if p not in corpus and p not in openie and _looks_like_questions(p)]
    if not corpus:
        raise DatasetMissing(f"no *_corpus.json under {folder}")
    if not questions:
        raise DatasetMissing(f"no question file (a JSON list of objects with 'question') under {folder}")
    return corpus[0], questions[0], (openie[0] if openie else None)


def _looks_like_questions(path: Path) -> bool:
    try:
        head = path.read_text(encoding="utf-8")[:20_000]
    except OSError:
        return False
    return head.lstrip().startswith("[") and '"question"' in head


def _passages(raw: Any, path: Path) -> list[tuple[str, str]]:
    if isinstance(raw, dict):
        return [(str(t), str(x)) for t, x in raw.items()]
    if not isinstance(raw, list):
        raise DatasetInvalid(f"{path}: expected a list of passages")
    out = []
    for i, p in enumerate(raw):
        if not isinstance(p, dict) or "text" not in p:
            raise DatasetInvalid(f"{path}: passage {i} has no 'text'")
        out.append((str(p.get("title") or ""), str(p["text"])))
    return out


def _hops(q: dict[str, Any], n_supporting: int) -> int:
    m = _HOPS_RE.match(str(q.get("id", "")))
    if m:
        return int(m.group(1))
    decomposition = q.get("question_decomposition")
    if isinstance(decomposition, list) and decomposition:
        return len(decomposition)
    return max(1, n_supporting)


def _usable(part: str) -> bool:
    """A triple part falkmem takes: 1–256 characters with a letter or digit (OpenIE also yields "-" and clauses)."""
    part = part.strip()
    return 0 < len(part) <= MAX_PART and any(ch.isalnum() for ch in part)


def _openie(path: Path | None, passages: list[tuple[str, str]]) -> dict[int, list[tuple[str, str, str]]]:
    """Passage index → its OpenIE triples (matched by ``passage`` text, else by integer ``idx``)."""
    if path is None:
        return {}
    raw = _load_json(path)
    docs = raw.get("docs") if isinstance(raw, dict) else raw
    if not isinstance(docs, list):
        raise DatasetInvalid(f"{path}: expected {{'docs': [...]}}")
    by_text: dict[str, int] = {}
    for i, (title, text) in enumerate(passages):
        by_text.setdefault(_norm(f"{title}\n{text}"), i)
        by_text.setdefault(_norm(text), i)
    out: dict[int, list[tuple[str, str, str]]] = {}
    for d in docs:
        if not isinstance(d, dict):
            continue
        found = by_text.get(_norm(str(d.get("passage", ""))))
        if found is None and isinstance(d.get("idx"), int) and 0 <= d["idx"] < len(passages):
            found = d["idx"]
        if found is None:
            continue
        triples = [
            (str(t[0]).strip(), str(t[1]).strip(), str(t[2]).strip())
            for t in d.get("extracted_triples") or []
            if isinstance(t, list | tuple) and len(t) == 3
            and all(_usable(str(x)) for x in t)
        ]  # fmt: skip
        out.setdefault(found, []).extend(triples)
    return out


def load_folder(
    folder: Path,
    *,
    name: str,
    questions: int | None = None,
    with_openie: bool = True,
    max_triples: int = 100,
) -> Dataset:
    """Read a HippoRAG dataset folder into tenants ``<name>-rules`` and (with OpenIE) ``<name>-openie``.

    ``<name>-rules`` stores the passages and lets falkmem's offline extractor build the graph;
    ``<name>-openie`` supplies HippoRAG's OpenIE triples as ``triples=`` (taken as given) on
    top of it.
    """
    corpus_path, questions_path, openie_path = find_files(folder)
    tenants, info = load_pair(corpus_path, questions_path, openie_path if with_openie else None, name=name,
                              questions=questions, max_triples=max_triples)  # fmt: skip
    return Dataset(name=name, tenants=tenants, info={"folder": str(folder), **info}, class_by="hops")


def load_pair(
    corpus_path: Path,
    questions_path: Path,
    openie_path: Path | None,
    *,
    name: str,
    questions: int | None = None,
    max_triples: int = 100,
    group: str = "",
    category: str | None = None,
) -> tuple[list[TenantData], dict[str, Any]]:
    """The tenants of one corpus and its question file (see ``load_folder``), and facts about them.

    ``group`` names the report group of the tenants (default: each tenant alone) and ``category``
    replaces the per-question category (default: MuSiQue's id prefix, e.g. ``2hop``).
    """
    passages = _passages(_load_json(corpus_path), corpus_path)
    index: dict[str, int] = {}
    for i, (title, text) in enumerate(passages):
        index.setdefault(_norm(f"{title}\n{text}"), i)
        index.setdefault(_norm(text), i)
    raw_q = _load_json(questions_path)
    if not isinstance(raw_q, list):
        raise DatasetInvalid(f"{questions_path}: expected a list of questions")
    qs: list[Question] = []
    unmatched = 0
    for n, q in enumerate(raw_q):
        if questions is not None and len(qs) >= questions:
            break
        paragraphs = [p for p in q.get("paragraphs") or [] if isinstance(p, dict) and p.get("is_supporting")]
        gold: list[str] = []
        for p in paragraphs:
            body = str(p.get("text") or p.get("paragraph_text") or "")
            at = index.get(_norm(f"{p.get('title', '')}\n{body}"), index.get(_norm(body)))
            if at is None:
                unmatched += 1
                continue
            gold.append(f"p{at:06d}")
        if not gold:
            continue
        qid = str(q.get("id", f"q{n}"))
        hops = _hops(q, len(paragraphs))
        cat = category or (qid.split("__")[0] if "__" in qid else "question")
        qs.append(Question(id=qid, text=str(q["question"]), gold=tuple(dict.fromkeys(gold)), hops=hops,
                           category=cat))  # fmt: skip
    if not qs:
        raise DatasetInvalid(f"{questions_path}: no question has a supporting paragraph found in the corpus")

    def memories(triples: dict[int, list[tuple[str, str, str]]] | None) -> list[MemoryItem]:
        return [
            MemoryItem(
                id=f"p{i:06d}", text=f"{title}\n{text}" if title else text, kind="document",
                metadata={"title": title} if title else None,
                triples=tuple(triples.get(i, [])[:max_triples]) if triples is not None else None,
            )
            for i, (title, text) in enumerate(passages)
        ]  # fmt: skip

    rules_group = f"{group}-rules" if group else ""
    tenants = [TenantData(tenant=f"{name}-rules", memories=memories(None), questions=qs,
                          note="offline rule extractor", group=rules_group)]  # fmt: skip
    openie = _openie(openie_path, passages)
    if openie:
        tenants.append(TenantData(tenant=f"{name}-openie", memories=memories(openie), questions=qs,
                                  note=f"OpenIE triples from {openie_path.name if openie_path else ''} + rules",
                                  group=f"{group}-openie" if group else ""))  # fmt: skip
    info = {
        "corpus": corpus_path.name, "questions_file": questions_path.name,
        "openie": openie_path.name if openie_path else None, "passages": len(passages),
        "questions": len(qs), "gold_not_in_corpus": unmatched,
        "passages_with_triples": len(openie),
    }  # fmt: skip
    return tenants, info
