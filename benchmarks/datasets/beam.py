"""BEAM-500K (``../shared/data/beam_500k``): six long user-assistant project chats, one tenant each.

Each folder ``<n>/`` holds ``chat.json`` (batches of sessions of messages ``{role, id,
content, time_anchor}``; ``id`` numbers the messages of the chat) and
``probing_questions/probing_questions.json`` (ten categories of questions; a question's
evidence is its ``source_chat_ids``, integers in several nested shapes). Every non-empty
message becomes a memory ``<id>`` with the text ``"<role>: <content>"`` (the usual setting of
the data's PROVENANCE.md), its session (``b<batch>s<i>``), speaker (the role) and time: the
last time anchor written before it (``January-05-2024``), one second per message after it, so
the chat's order is its time order. The one message over falkmem's text limit is cut to it
(``MAX_CHARS``). Questions without evidence (abstention) are skipped (107
of the six chats' questions remain); each is asked a day after the chat's last message.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from .base import Dataset, DatasetInvalid, DatasetMissing, MemoryItem, Question, TenantData
from .paths import data_root

FOLDER = "beam_500k"
GROUP = "beam"
_START = datetime(2024, 1, 1)
MAX_CHARS = 32_000
"""falkmem's default ``max_text_chars``: the one longer message (33,029 characters, chat 2) is cut
to it (its evidence id stays; what is cut is the end of a code listing)."""


def _anchor(text: Any) -> datetime | None:
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return datetime.strptime(text.strip(), "%B-%d-%Y")
    except ValueError:
        return None


def _ints(value: Any, out: list[int]) -> list[int]:
    """Every integer in ``value`` (the evidence comes as ints, lists, lists of lists, dicts)."""
    if isinstance(value, bool):
        return out
    if isinstance(value, int):
        out.append(value)
    elif isinstance(value, list):
        for v in value:
            _ints(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _ints(v, out)
    return out


def load_chat(folder: Path) -> TenantData:
    """One chat folder → its tenant."""
    chat_path = folder / "chat.json"
    q_path = folder / "probing_questions" / "probing_questions.json"
    try:
        batches = json.loads(chat_path.read_text(encoding="utf-8"))
        probes = json.loads(q_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetInvalid(f"{folder}: not readable JSON ({exc})") from None
    if not isinstance(batches, list) or not isinstance(probes, dict):
        raise DatasetInvalid(f"{folder}: expected a list of batches and a dict of question categories")
    memories: list[MemoryItem] = []
    at = _START
    for b, batch in enumerate(batches, 1):
        for s, session in enumerate(batch.get("turns") or [], 1):
            for msg in session:
                content = msg.get("content")
                if not isinstance(content, str) or not content.strip():
                    continue
                anchor = _anchor(msg.get("time_anchor")) or _anchor(batch.get("time_anchor"))
                at = anchor if anchor is not None and anchor > at else at + timedelta(seconds=1)
                role = str(msg.get("role") or "unknown")
                memories.append(MemoryItem(
                    id=str(msg["id"]), text=f"{role}: {content}"[:MAX_CHARS], kind="episode",
                    session=f"b{b}s{s}", speaker=role, at=at.isoformat(),
                ))  # fmt: skip
    ids = {m.id for m in memories}
    now = (at + timedelta(days=1)).isoformat()
    questions: list[Question] = []
    for category, items in sorted(probes.items()):
        for j, item in enumerate(items):
            gold = tuple(
                dict.fromkeys(str(i) for i in _ints(item.get("source_chat_ids"), []) if str(i) in ids)
            )
            if not gold:
                continue
            questions.append(Question(id=f"{folder.name}-{category}-{j}", text=str(item["question"]), gold=gold,
                                      hops=len(gold), category=category, now=now))  # fmt: skip
    return TenantData(tenant=f"beam-{folder.name}", memories=memories, questions=questions, group=GROUP,
                      note=f"chat {folder.name}: {len(memories)} messages, {len(questions)} questions")  # fmt: skip


def load(*, data_dir: Path | None = None, questions: int | None = None) -> Dataset:
    """Every chat folder (``1`` … ``6``) as a tenant."""
    folder = data_dir or data_root() / FOLDER
    if not folder.is_dir():
        raise DatasetMissing(
            f"dataset folder {folder} does not exist; put the BEAM chats there or pass --data-dir"
        )
    chats = sorted(
        (p for p in folder.iterdir() if (p / "chat.json").is_file()), key=lambda p: (len(p.name), p.name)
    )
    if not chats:
        raise DatasetMissing(f"no <n>/chat.json under {folder}")
    tenants = [load_chat(p) for p in chats]
    if questions is not None:
        for t in tenants:
            t.questions = t.questions[:questions]
    info = {"folder": str(folder), "chats": len(tenants), "messages": sum(len(t.memories) for t in tenants),
            "questions": sum(len(t.questions) for t in tenants)}  # fmt: skip
    return Dataset(name="beam", tenants=tenants, info=info)
