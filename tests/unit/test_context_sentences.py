"""Tests for falkmem.context.sentences: titles, sentence ends, features, the cache."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem.context.sentences import _unmark, analyse
from falkmem.text.tokens import names_in


def test_title_line_then_sentences() -> None:
    a = analyse("Victoria Falls\nVictoria Falls is a waterfall in southern Africa. It lies on the Zambezi.")
    assert a.title == "Victoria Falls"
    assert a.texts == ("Victoria Falls is a waterfall in southern Africa.", "It lies on the Zambezi.")
    assert analyse("Bob manages\nAna.").title is None  # a line of the text, not a title
    assert analyse("One line only").texts == ("One line only",)


def test_abbreviations_and_initials_do_not_end_a_sentence() -> None:
    a = analyse("G. Stanley Hall was born in the U.S. in 1844. Dr. Smith met him approx. twice. He left.")
    assert a.texts == (
        "G. Stanley Hall was born in the U.S. in 1844.",
        "Dr. Smith met him approx. twice.",
        "He left.",
    )


def test_line_breaks_and_markdown() -> None:
    a = analyse("Here is the plan:\n\n- **Day 1**: Lisbon\n- Day 2: Sintra\n### Notes\nBook early!")
    assert a.texts == ("Here is the plan:", "Day 1: Lisbon", "Day 2: Sintra", "Notes", "Book early!")


def test_features() -> None:
    a = analyse("It lands at 11:40 on March 3, 2026. Ana booked TP 1234. Twelve people came")
    first, second, third = (a.sentence(i) for i in range(3))
    assert first.time and first.date and first.number
    assert second.name and second.number and "1234" in second.digits
    assert third.number and not third.name
    assert "land" in first.words and "booked" not in second.words and "book" in second.words  # stems


def test_names_and_cache() -> None:
    assert names_in("The Opposition in Uganda is led by Hon. Winnie Kiiza of the FDC.") == [
        "opposition", "uganda", "hon", "winnie", "kiiza", "fdc"
    ]  # fmt: skip
    text = "Leader of Opposition (Uganda)\nThe Leader of Opposition is Winnie Kiiza."
    assert analyse(text) is analyse(text)
    assert {"leader", "uganda", "winnie", "kiiza"} <= analyse(text).names
    assert analyse("The first Ugandan female to hold it is Winnie Kiiza.").names_of(0) == {
        "ugandan",
        "winnie",
        "kiiza",
    }


def test_a_list_items_number_is_not_a_sentence() -> None:
    a = analyse("Here is why:\n1. **Farm scoring**: cities score. 2. Low interaction. It was 5. Then more.")
    assert a.texts == ("Here is why:", "1. Farm scoring: cities score.", "2. Low interaction.", "It was 5.",
                       "Then more.")  # fmt: skip


def test_title_words() -> None:
    a = analyse("Leader of Opposition (Uganda)\nIt is the title of the leader of the largest party.")
    assert a.title_norm == "leader of opposition uganda"
    assert a.title_names == frozenset({"leader", "opposition", "uganda"})
    assert analyse("No title here.").title_norm == ""


def test_a_list_after_a_blank_line_keeps_its_numbers() -> None:
    # A title, a line of white space, then a numbered list: the first item's number is no
    # sentence of its own either (the cut used to leave "1." alone when the text after the
    # title opened with white space).
    a = analyse("Pancakes\n \t\n1. Mix the flour and eggs. 2. Fry them in butter.")
    assert a.title == "Pancakes"
    assert a.texts == ("1. Mix the flour and eggs.", "2. Fry them in butter.")


def test_quotes_and_brackets_after_a_sentence_end() -> None:
    a = analyse('She said "Go." Then she left (quickly.) Did he stay?! Yes.\r\nNext line…  End')
    # the quote or bracket a sentence end closes stays with its sentence (it used to be dropped)
    assert a.texts == (
        'She said "Go."',
        "Then she left (quickly.)",
        "Did he stay?!",
        "Yes.",
        "Next line…",
        "End",
    )


def test_names_after_quotes_brackets_slashes_and_hyphens() -> None:
    assert names_in("Hi 'Kate' (Emi) /Bob/ met ABC-Def and McDonald's O’Neil at x-Ray") == [
        "kate", "emi", "bob", "abc-def", "mcdonald's", "o’neil", "ray"
    ]  # fmt: skip


_ONE_PASS = re.compile(r"\*\*|__|^[ \t]*#{1,6}[ \t]+|^[ \t]*[-*•][ \t]+(?=\S)", re.MULTILINE)
"""The markdown the packer drops, as the one regex it used before ``_unmark``: what that must equal."""


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["*", "**", "_", "__", "#", "##", "-", "•", " ", "\t", "\n", "a", "B", "1", "."]),
                max_size=16).map("".join))  # fmt: skip
def test_unmarking_equals_the_one_pass_regex(text: str) -> None:
    assert _unmark(text) == _ONE_PASS.sub("", text)


def test_unmarking_keeps_what_removing_emphasis_joins() -> None:
    assert _unmark("_**_ and *__*") == "__ and **"
    assert _unmark("# Plan\n- **Day 1:** Lisbon\n  * flight TP 1234") == "Plan\nDay 1: Lisbon\nflight TP 1234"
