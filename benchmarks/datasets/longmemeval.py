"""LongMemEval_S dev sample (``../shared/data/longmemeval_s_dev``): one tenant per question.

Each ``<question_id>.json`` holds one question and its own haystack (about 48 chat sessions,
about 490 turns). Every turn becomes a memory ``<session_id>:<turn_index>`` with the session id,
the role as speaker and the session's date as ``at`` (plus the turn index in seconds, so turns
keep their order). Gold: the turns with ``has_answer`` (turn-level recall) and the
``answer_session_ids`` (session-level recall: a ranked turn counts for its session). The
category is the ``question_type``; the hop count is the number of answer sessions. Tenants are
named ``lme-<question_id>`` and reported together under the group ``longmemeval``.

A session id that appears twice with the same turns (two files of the sample do this) is
stored once; with different turns the second copy gets ``#2`` appended to its id.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from .base import Dataset, DatasetInvalid, DatasetMissing, MemoryItem, Question, TenantData
from .paths import data_root

FOLDER = "longmemeval_s_dev"
"""Folder name under the shared data root."""
GROUP = "longmemeval"
_DATE_RE = re.compile(r"^\s*(\d{4})/(\d{2})/(\d{2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})\s*$")
_TENANT_UNSAFE = re.compile(r"[^a-z0-9_-]")


def parse_date(text: str) -> datetime:
    """``"2023/05/20 (Sat) 02:21"`` → ``datetime(2023, 5, 20, 2, 21)`` (naive, taken as UTC by falkmem)."""
    m = _DATE_RE.match(text)
    if not m:
        raise ValueError(f"not a LongMemEval date: {text!r} (expected like '2023/05/20 (Sat) 02:21')")
    y, mo, d, h, mi = (int(x) for x in m.groups())
    return datetime(y, mo, d, h, mi)


def tenant_id(question_id: str) -> str:
    """``lme-<question_id>`` lower-cased, unsafe characters as ``_`` (a valid falkmem tenant id)."""
    return ("lme-" + _TENANT_UNSAFE.sub("_", question_id.lower()))[:63]


def _field(raw: dict[str, Any], key: str, kind: type, path: Path) -> Any:
    value = raw.get(key)
    if not isinstance(value, kind):
        raise DatasetInvalid(f"{path}: '{key}' must be a {kind.__name__}")
    return value


def _question_date(raw: dict[str, Any], path: Path) -> str | None:
    """The question's ``question_date`` as ISO-8601 (None when the file has none)."""
    text = raw.get("question_date")
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return parse_date(text).isoformat()
    except ValueError as exc:
        raise DatasetInvalid(f"{path}: question_date: {exc}") from None


def load_file(path: Path) -> TenantData:
    """One question file → its tenant (memories = every turn, one question)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetInvalid(f"{path}: not readable JSON ({exc})") from None
    if not isinstance(raw, dict):
        raise DatasetInvalid(f"{path}: expected one question object")
    qid = str(_field(raw, "question_id", str, path))
    sessions = _field(raw, "haystack_sessions", list, path)
    sids = _field(raw, "haystack_session_ids", list, path)
    dates = _field(raw, "haystack_dates", list, path)
    if not len(sessions) == len(sids) == len(dates):
        raise DatasetInvalid(f"{path}: haystack_sessions, _session_ids and _dates differ in length")
    memories: list[MemoryItem] = []
    gold: list[str] = []
    seen: dict[str, list[Any]] = {}
    copies: dict[str, int] = defaultdict(int)
    for turns, sid, date in zip(sessions, sids, dates, strict=True):
        sid = str(sid)
        if sid in seen and seen[sid] == turns:
            continue  # the same session twice: store it once
        copies[sid] += 1
        session = sid if copies[sid] == 1 else f"{sid}#{copies[sid]}"
        seen.setdefault(sid, turns)
        try:
            at = parse_date(str(date))
        except ValueError as exc:
            raise DatasetInvalid(f"{path}: session {sid}: {exc}") from None
        for j, turn in enumerate(turns):
            if not isinstance(turn, dict) or not isinstance(turn.get("content"), str):
                raise DatasetInvalid(f"{path}: session {sid} turn {j} has no 'content' string")
            if not turn["content"].strip():
                continue
            mid = f"{session}:{j}"
            memories.append(MemoryItem(id=mid, text=turn["content"], kind="episode", session=session,
                                       speaker=str(turn.get("role") or "unknown"),
                                       at=(at + timedelta(seconds=j)).isoformat()))  # fmt: skip
            if turn.get("has_answer"):
                gold.append(mid)
    if not gold:
        raise DatasetInvalid(f"{path}: no turn has has_answer: true")
    answer_sessions = tuple(str(s) for s in raw.get("answer_session_ids") or ())
    q = Question(id=qid, text=str(_field(raw, "question", str, path)), gold=tuple(gold),
                 hops=max(1, len(answer_sessions)), category=str(raw.get("question_type") or "question"),
                 gold_sessions=answer_sessions, now=_question_date(raw, path))  # fmt: skip
    return TenantData(tenant=tenant_id(qid), memories=memories, questions=[q], group=GROUP,
                      note=f"{path.name}: {len(memories)} turns, {len(set(m.session for m in memories))} sessions")  # fmt: skip


def _interleave(tenants: list[TenantData]) -> list[TenantData]:
    """Round-robin over question types (each sorted by question id): the first N cover the types evenly."""
    by_type: dict[str, list[TenantData]] = defaultdict(list)
    for t in sorted(tenants, key=lambda t: t.questions[0].id):
        by_type[t.questions[0].category].append(t)
    out: list[TenantData] = []
    lanes = [by_type[k] for k in sorted(by_type)]
    for i in range(max((len(lane) for lane in lanes), default=0)):
        out += [lane[i] for lane in lanes if i < len(lane)]
    return out


def load(*, data_dir: Path | None = None, questions: int | None = None) -> Dataset:
    """Every question file of the folder as a tenant, ordered so that a prefix covers every type."""
    folder = data_dir or data_root() / FOLDER
    if not folder.is_dir():
        raise DatasetMissing(f"dataset folder {folder} does not exist; put LongMemEval question files there "
                             "(<question_id>.json) or pass --data-dir")  # fmt: skip
    files = sorted(p for p in folder.glob("*.json") if p.is_file())
    if not files:
        raise DatasetMissing(f"no <question_id>.json under {folder}")
    tenants = _interleave([load_file(p) for p in files])
    if questions is not None:
        for t in tenants:
            t.questions = t.questions[:questions]
    info = {"folder": str(folder), "questions": len(tenants),
            "turns": sum(len(t.memories) for t in tenants),
            "types": sorted({t.questions[0].category for t in tenants if t.questions})}  # fmt: skip
    return Dataset(name="longmemeval", tenants=tenants, info=info)
