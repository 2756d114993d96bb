"""The 2Wiki-built director questions (benchmarks/wiki_directors.py): which pairs it keeps."""

from __future__ import annotations

from pathlib import Path

from benchmarks.wiki_directors import main, pairs
from tests.helpers import built_set

CORPUS = [
    {"title": "Kamakalawa", "text": "Kamakalawa is a 1981 Filipino fantasy film directed by Eddie Romero. It stars Chat Silayan."},
    {"title": "Eddie Romero", "text": "Eddie Romero was a Filipino film director."},
    {"title": "Lost Reel", "text": "Lost Reel is a 1920 film directed by Nobody Known."},  # no passage of the director
    {"title": "Hallway", "text": "Hallway is a film. It was later directed by Eddie Romero."},  # not the first sentence
]  # fmt: skip


def test_a_film_whose_first_sentence_names_a_director_with_a_passage() -> None:
    assert pairs(CORPUS) == [(0, 1)]


def test_the_file_holds_every_passage_and_the_questions(tmp_path: Path) -> None:
    lines = built_set(main, CORPUS, tmp_path)
    assert [o["type"] for o in lines] == ["memory"] * 4 + ["question"]
    assert lines[-1]["text"] == "Where was the director of film Kamakalawa born?"
    assert lines[-1]["gold"] == ["p00000", "p00001"]
