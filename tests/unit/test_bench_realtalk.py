"""benchmarks/datasets/realtalk.py: chats as tenants, messy evidence strings, question times."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.datasets import DatasetInvalid, DatasetMissing, load
from benchmarks.datasets.realtalk import evidence_ids


def _chat(folder: Path, n: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    chat = {
        "name": {"speaker_1": "Kevin", "speaker_2": "Paola"},
        "session_1": [
            {"clean_text": "Hi! How are you?", "speaker": "Kevin", "date_time": "06.01.2024, 16:43:00", "dia_id": "D1:1"},
            {"clean_text": "  ", "speaker": "Paola", "date_time": "06.01.2024, 16:44:00", "dia_id": "D1:2"},
            {"clean_text": "I played tennis today.", "speaker": "Paola", "date_time": "06.01.2024, 16:45:00", "dia_id": "D1:3"},
        ],
        "session_2": [
            {"clean_text": "Yoga this morning!", "speaker": "Kevin", "date_time": "08.01.2024, 09:00:00", "dia_id": "D2:1"},
        ],
        "qa": [
            {"question": "What sport did Paola play?", "evidence": ["D1:3"], "category": 1},
            {"question": "What did Kevin do on 08.01.2024?", "evidence": ["D2:1; D9:9"], "category": 2},
            {"question": "Only a missing turn", "evidence": ["D7:1"], "category": 3},
            {"question": "No evidence", "evidence": [], "category": 1},
        ],
    }  # fmt: skip
    path = folder / f"Chat_{n}_Kevin_Paola.json"
    path.write_text(json.dumps(chat))
    return path


@pytest.mark.parametrize(
    ("items", "ids"),
    [
        (["D12:3-D12:5"], ["D12:3", "D12:4", "D12:5"]),
        (["D5:12;D5:16", "D5:12"], ["D5:12", "D5:16"]),
        (["D13:45:D20:19"], ["D13:45", "D20:19"]),
        (["D16:82. D19:2", "D 2:18", "D5:3."], ["D16:82", "D19:2", "D2:18", "D5:3"]),
        (["", "D58", "23:29"], []),
    ],
)
def test_evidence_strings(items: list[str], ids: list[str]) -> None:
    assert evidence_ids(items) == ids


def test_chats_become_tenants_of_turns(tmp_path: Path) -> None:
    _chat(tmp_path, 2)
    _chat(tmp_path, 10)
    ds = load("realtalk", data_dir=tmp_path)
    assert [t.tenant for t in ds.tenants] == ["realtalk-2", "realtalk-10"]
    t = ds.tenants[0]
    assert [m.id for m in t.memories] == ["D1:1", "D1:3", "D2:1"]  # the blank message is not a memory
    first = t.memories[1]
    assert (first.text, first.speaker, first.session, first.at) == (
        "Paola: I played tennis today.",
        "Paola",
        "session_1",
        "2024-01-06T16:45:00",
    )
    assert [(q.text, q.gold, q.category) for q in t.questions] == [
        ("What sport did Paola play?", ("D1:3",), "multi-hop"),
        ("What did Kevin do on 08.01.2024?", ("D2:1",), "temporal"),  # D9:9 names no message: dropped
    ]
    assert {q.now for q in t.questions} == {"2024-01-08T09:00:00"}  # asked after the chat's last message


def test_missing_and_bad_files(tmp_path: Path) -> None:
    with pytest.raises(DatasetMissing):
        load("realtalk", data_dir=tmp_path / "nope")
    (tmp_path / "Chat_1_a_b.json").write_text("{not json")
    with pytest.raises(DatasetInvalid, match=r"Chat_1_a_b\.json"):
        load("realtalk", data_dir=tmp_path)
