"""The one text layer (falkmem.text): month tables, the sentence splitter's two modes, doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

from falkmem.text.dates import (
    MONTH_ABBREVIATIONS,
    MONTH_NAMES,
    MONTH_WORDS,
    MONTHS,
    WEEKDAY_NAMES,
    WEEKDAYS,
    month_number,
)
from falkmem.text.sentences import split_sentences


@pytest.mark.parametrize(
    "name", ["falkmem.text.dates", "falkmem.text.keys", "falkmem.text.sentences", "falkmem.text.tokens"]
)
def test_docstring_examples_run(name: str) -> None:
    assert doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS).failed == 0


def test_month_tables_agree() -> None:
    import re

    assert {m for m in MONTHS if re.fullmatch(MONTH_WORDS, m)} == set(MONTHS)
    assert [MONTHS[n.lower()] for n in MONTH_NAMES] == list(range(1, 13))
    assert [MONTHS[a.lower()] for a in MONTH_ABBREVIATIONS] == list(range(1, 13))
    assert [WEEKDAYS[d] for d in WEEKDAY_NAMES] == list(range(7))
    assert (month_number("Sept."), month_number("DECEMBER"), month_number("ſept")) == (9, 12, 9)
    with pytest.raises(KeyError):
        month_number("Mayday")


def test_month_words_prefer_the_longest_spelling() -> None:
    import re

    assert [m.group() for m in re.finditer(f"(?i:{MONTH_WORDS})", "September June Sept Jun Mar March")] == [
        "September", "June", "Sept", "Jun", "Mar", "March",
    ]  # fmt: skip


def test_sentences_and_clauses() -> None:
    text = "Dr. Ana Lima met J. Smith. He left!\nNext line; more. 1. Item one. approx. three"
    assert split_sentences(text) == [
        "Dr. Ana Lima met J. Smith.",
        "He left!",
        "Next line; more.",
        "1. Item one. approx. three",
    ]
    assert split_sentences(text, clauses=True) == [
        "Dr. Ana Lima met J. Smith.", "He left!", "Next line", "more.", "1.", "Item one. approx. three",
    ]  # fmt: skip


def test_a_clause_ends_only_before_what_opens_one() -> None:
    text = 'He sang "Where Did You Get That Hat?" in 1888. Eugenie … The Story\nSmith, Jr.. He left'
    assert split_sentences(text, clauses=True) == [
        'He sang "Where Did You Get That Hat?" in 1888.',
        "Eugenie … The Story",
        "Smith, Jr.. He left",
    ]
    assert split_sentences(text) == [
        'He sang "Where Did You Get That Hat?"',
        "in 1888.",
        "Eugenie …",
        "The Story",
        "Smith, Jr..",
        "He left",
    ]


def test_closing_quotes_stay_outside_a_clause() -> None:
    assert split_sentences('She said "No." Then she left.', clauses=True) == [
        'She said "No.',
        "Then she left.",
    ]


def test_closing_quotes_stay_with_their_sentence() -> None:
    assert split_sentences('She said "No." Then (quietly.) she left.') == [
        'She said "No."',
        "Then (quietly.) she left.",
    ]
