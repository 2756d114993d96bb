"""The 2Wiki-built kin questions (benchmarks/wiki_family.py): which pairs it keeps."""

from __future__ import annotations

from pathlib import Path

from benchmarks.wiki_family import main, pairs
from tests.helpers import built_set

CORPUS = [
    {"title": "Louis the Pious", "text": "Louis the Pious was King of the Franks. He was the son of Charlemagne and Hildegard."},
    {"title": "Charlemagne", "text": "Charlemagne was King of the Franks. He was the eldest son of Pepin the Short."},
    {"title": "Ann Roe", "text": "Ann Roe was a poet, the daughter of a Devon farmer."},  # no name after "of"
    {"title": "Bob Fry", "text": "Bob Fry was the son of Nobody Known."},  # no passage of the parent
]  # fmt: skip


def test_a_person_whose_parent_has_a_passage() -> None:
    assert pairs(CORPUS) == [(0, 1)]


def test_the_file_holds_every_passage_and_the_questions(tmp_path: Path) -> None:
    lines = built_set(main, CORPUS, tmp_path)
    assert [o["type"] for o in lines] == ["memory"] * 4 + ["question"]
    assert lines[-1]["text"] == "Who is the paternal grandfather of Louis the Pious?"
    assert lines[-1]["gold"] == ["p00000", "p00001"]
