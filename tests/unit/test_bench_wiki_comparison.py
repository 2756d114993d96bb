"""The 2Wiki-built bridge-comparison questions (benchmarks/wiki_comparison.py): which films it pairs."""

from __future__ import annotations

from pathlib import Path

from benchmarks.wiki_comparison import main, quads
from tests.helpers import built_set

CORPUS = [
    {"title": "Jazz Boat", "text": "Jazz Boat is a 1960 British musical film directed by Ken Hughes."},
    {"title": "Ken Hughes", "text": "Ken Hughes was an English film director."},
    {"title": "Palo Alto (2013 film)", "text": "Palo Alto is a 2013 American drama film directed by Gia Coppola."},
    {"title": "Gia Coppola", "text": "Gia Coppola is an American film director."},
    {"title": "Lost Reel", "text": "Lost Reel is a 1930 film directed by Nobody Known."},  # no passage of the director
]  # fmt: skip


def test_two_films_with_directors_of_their_own() -> None:
    assert quads(CORPUS) == [(0, 1, 2, 3)]


def test_the_file_holds_every_passage_and_the_questions(tmp_path: Path) -> None:
    lines = built_set(main, CORPUS, tmp_path)
    assert [o["type"] for o in lines] == ["memory"] * 5 + ["question"]
    assert lines[-1]["text"] == "Which film has the director who was born later, Jazz Boat or Palo Alto?"
    assert lines[-1]["gold"] == ["p00000", "p00001", "p00002", "p00003"]
    assert lines[-1]["hops"] == 4
