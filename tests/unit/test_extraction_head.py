"""A memory's head: its title line; else its first sentence, except for an episode (a chat turn)."""

from __future__ import annotations

import pytest

from falkmem.extraction.head import head_text, in_head
from falkmem.extraction.rules import RuleExtractor, whole_title
from falkmem.extraction.types import EntityMention
from falkmem.text.sentences import title_line


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Kansas City, Missouri\nKansas City is the largest city in Missouri.", "Kansas City, Missouri"),
        ("Martin Luther King Jr.\nMartin Luther King Jr. was a minister.", "Martin Luther King Jr."),
        ("The Man from U.N.C.L.E.\nThe Man from U.N.C.L.E. is a series.", "The Man from U.N.C.L.E."),
        ("  Izgoy  \nIzgoy is an album.", "Izgoy"),
    ],
)
def test_a_short_first_line_before_more_text_is_a_title(text: str, title: str) -> None:
    assert title_line(text) == title


@pytest.mark.parametrize(
    "text",
    [
        "Thanks! I also started reading The Nightingale last week.",  # no line break: a chat turn
        "Thanks!\nI also started reading The Nightingale.",  # ends like a sentence
        "Here are some ideas:\n1. Visit Lisbon",  # an opener
        "Thank you for clarifying that.\nAnything else?",  # a sentence, not an abbreviation
        "Izgoy\n",  # nothing after it
        "\nIzgoy is an album.",  # empty first line
        "A first line that runs on for far too many words to be anything like a title\nmore",
        "x" * 101 + "\nmore",
    ],
)
def test_sentences_openers_and_long_lines_are_not_titles(text: str) -> None:
    assert title_line(text) is None
    assert head_text(text, "episode") == ""


def test_an_untitled_fact_is_about_its_first_sentence_an_episode_about_nothing() -> None:
    text = "Thanks! I also started reading The Nightingale last week."
    assert head_text(text, "episode") == ""
    assert head_text(text, "fact") == "thanks!"
    assert head_text("Priya Chandran leads the Atlas team. She joined in May.", "fact") == (
        "priya chandran leads the atlas team."
    )
    titled = "Izgoy\nIzgoy is an album."
    assert head_text(titled, "episode") == head_text(titled, "document") == "izgoy"


def test_an_entity_is_in_the_head_only_when_the_title_names_it() -> None:
    head = head_text("Steve Hillage\nSteve Hillage is an English musician who played with Gong.", "document")
    assert head == "steve hillage"
    assert in_head(EntityMention(name="Steve Hillage", key="steve hillage"), head)
    assert not in_head(EntityMention(name="Gong", key="gong"), head)
    assert not in_head(EntityMention(name="Gong", key="gong"), "")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("How I Met Your Mother\nHow I Met Your Mother is an American sitcom.", "how i met your mother"),
        ("Shrek 2\nShrek 2 is a 2004 animated film.", "shrek 2"),
        ("True Grit (1969 film)\nTrue Grit is a 1969 American Western film.", "true grit"),
        ("Kansas City, Missouri\nKansas City is the largest city in Missouri.", "kansas city missouri"),
    ],
)
def test_a_titled_memory_is_about_its_whole_title(text: str, key: str) -> None:
    # the names found inside a title are not always the title ("Met Your Mother", "Shrek")
    got = RuleExtractor().extract(text)
    assert key in [e.key for e in got.entities]
    mention = next(e for e in got.entities if e.key == key)
    assert in_head(mention, head_text(text, "document"))


def test_no_title_entity_for_a_chat_turn_or_a_line_that_is_no_name() -> None:
    turn = "Sure thing\nHere are some potential names for the zombie."
    assert "sure thing" not in [e.key for e in RuleExtractor().extract(turn, speaker="assistant").entities]
    assert whole_title("meeting notes\nWe met.") is None
    assert whole_title("# Notes\nWe met.") is None
    assert whole_title("(2019)\nA year.") is None
    assert whole_title("Brand (play)\nA play.") == EntityMention(key="brand", name="Brand")
