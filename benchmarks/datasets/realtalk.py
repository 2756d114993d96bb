"""REALTALK (``../shared/data/realtalk``): ten real 21-day chats, one tenant per chat.

Each ``Chat_<n>_<a>_<b>.json`` holds the chat's sessions (``session_<i>``: messages with
``clean_text``, ``speaker``, ``date_time`` "DD.MM.YYYY, HH:MM:SS" and a ``dia_id`` "D<d>:<t>")
and its questions (``qa``: question, answer, evidence dia ids, category). Every non-empty
message becomes a memory ``<dia_id>`` with the text ``"<speaker>: <clean_text>"`` (the usual
setting of the data's PROVENANCE.md), its session, speaker and time. Gold = the evidence turns
(turn-level recall).

Evidence strings are messy in a few questions: ranges ("D12:3-D12:5"), several ids in one
string ("D5:12;D5:16", "D13:45:D20:19"), a trailing dot; all are read. Ids that name no message
of the chat are dropped, and a question left without evidence is skipped (706 of the 726
questions with evidence remain; 705 when "D 2:18" is not read as D2:18).

Categories, named by what the questions ask (the data gives numbers only): 1 ``multi-hop``
(facts gathered across sessions: "What cities did Paola visit?"), 2 ``temporal`` (when, or
what happened on a date), 3 ``commonsense`` (an inference over several turns). Each question
is asked at the time of the chat's last message (``Question.now``).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from .base import Dataset, DatasetInvalid, DatasetMissing, MemoryItem, Question, TenantData
from .paths import data_root

FOLDER = "realtalk"
GROUP = "realtalk"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "commonsense"}
_SESSION_RE = re.compile(r"^session_(\d+)$")
_CHAT_RE = re.compile(r"^Chat_(\d+)_")
_EVIDENCE_RE = re.compile(r"D\s*(\d+)\s*[:;]\s*(\d+)(?:\s*-\s*D\s*(\d+)\s*:\s*(\d+))?")


def parse_time(text: str) -> datetime:
    """``"29.12.2023, 22:42:04"`` → ``datetime(2023, 12, 29, 22, 42, 4)`` (naive: UTC to falkmem)."""
    try:
        return datetime.strptime(text.strip(), "%d.%m.%Y, %H:%M:%S")
    except ValueError:
        raise ValueError(f"not a REALTALK time: {text!r} (expected like '29.12.2023, 22:42:04')") from None


def evidence_ids(items: list[Any]) -> list[str]:
    """Every dia id the evidence strings name, in order, ranges expanded (``D12:3-D12:5``)."""
    out: list[str] = []
    for item in items:
        for m in _EVIDENCE_RE.finditer(str(item)):
            d, t, d2, t2 = m.groups()
            if d2 is not None and d2 == d and int(t2) >= int(t):
                out += [f"D{int(d)}:{i}" for i in range(int(t), int(t2) + 1)]
            else:
                out.append(f"D{int(d)}:{int(t)}")
    return list(dict.fromkeys(out))


def load_file(path: Path) -> TenantData:
    """One chat → its tenant: every message a memory, every question with evidence."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetInvalid(f"{path}: not readable JSON ({exc})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("qa"), list):
        raise DatasetInvalid(f"{path}: expected a chat object with a 'qa' list")
    m = _CHAT_RE.match(path.name)
    chat = m.group(1) if m else path.stem.lower()
    sessions = sorted(
        ((int(s.group(1)), key) for key in raw if (s := _SESSION_RE.match(key))), key=lambda x: x[0]
    )
    memories: list[MemoryItem] = []
    last: datetime | None = None
    for number, key in sessions:
        turns = raw[key]
        if not isinstance(turns, list):
            raise DatasetInvalid(f"{path}: '{key}' must be a list of messages")
        for j, turn in enumerate(turns):
            if not isinstance(turn, dict) or not isinstance(turn.get("clean_text"), str):
                raise DatasetInvalid(f"{path}: {key} message {j} has no 'clean_text' string")
            text = turn["clean_text"].strip()
            if not text:
                continue
            try:
                at = parse_time(str(turn.get("date_time", "")))
            except ValueError as exc:
                raise DatasetInvalid(f"{path}: {key} message {j}: {exc}") from None
            last = at if last is None or at > last else last
            speaker = str(turn.get("speaker") or "unknown").strip()
            memories.append(MemoryItem(id=str(turn["dia_id"]), text=f"{speaker}: {text}", kind="episode",
                                       session=f"session_{number}", speaker=speaker, at=at.isoformat()))  # fmt: skip
    ids = {mem.id for mem in memories}
    questions: list[Question] = []
    for i, qa in enumerate(raw["qa"]):
        gold = tuple(e for e in evidence_ids(qa.get("evidence") or []) if e in ids)
        if not gold or not isinstance(qa.get("question"), str):
            continue
        category = CATEGORIES.get(int(qa.get("category") or 0), f"category-{qa.get('category')}")
        questions.append(Question(id=f"chat{chat}-q{i}", text=qa["question"], gold=gold, hops=len(gold),
                                  category=category, now=last.isoformat() if last else None))  # fmt: skip
    return TenantData(tenant=f"realtalk-{chat}", memories=memories, questions=questions, group=GROUP,
                      note=f"{path.name}: {len(memories)} messages, {len(sessions)} sessions")  # fmt: skip


def load(*, data_dir: Path | None = None, questions: int | None = None) -> Dataset:
    """Every chat of the folder as a tenant (chat 1 first)."""
    folder = data_dir or data_root() / FOLDER
    if not folder.is_dir():
        raise DatasetMissing(f"dataset folder {folder} does not exist; put the REALTALK Chat_*.json files "
                             "there or pass --data-dir")  # fmt: skip
    files = sorted(
        folder.glob("Chat_*.json"), key=lambda p: int(m.group(1)) if (m := _CHAT_RE.match(p.name)) else 0
    )
    if not files:
        raise DatasetMissing(f"no Chat_*.json under {folder}")
    tenants = [load_file(p) for p in files]
    if questions is not None:
        for t in tenants:
            t.questions = t.questions[:questions]
    info = {"folder": str(folder), "chats": len(tenants), "messages": sum(len(t.memories) for t in tenants),
            "questions": sum(len(t.questions) for t in tenants)}  # fmt: skip
    return Dataset(name="realtalk", tenants=tenants, info=info)
