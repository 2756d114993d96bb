"""Tests for falkmem.keyword.tokens: RediSearch-like tokenising and safe query terms."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem.keyword import query_terms
from falkmem.text.tokens import STOPWORDS, tokenize


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("user@example.com", ["user", "example", "com"]),
        ("node.js", ["node", "js"]),
        ("O'Brien", ["o", "brien"]),
        ("foo-bar baz", ["foo", "bar", "baz"]),
        ("C++ compiler", ["c", "compiler"]),
        ("Version 2.0.1", ["version", "2", "0", "1"]),
        ("ＡＢＣ１２３", ["abc123"]),  # full-width forms fold to ASCII (NFKC)
        ("Zürich STRASSE Straße", ["zürich", "strasse", "strasse"]),
        ("snake_case", ["snake", "case"]),
        ("हिन्दी भाषा", ["हिन्दी", "भाषा"]),  # combining vowel signs stay in the word
        ("", []),
        ("  ...!!  ", []),
    ],
)
def test_tokenize_splits_like_redisearch(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_stopwords_are_lowercase_function_words() -> None:
    assert {"the", "a", "of", "and", "is", "who", "what"} <= STOPWORDS
    assert all(w == w.casefold() and w.isalpha() for w in STOPWORDS)
    assert "helios" not in STOPWORDS


def test_query_terms_drop_stopwords_lone_letters_and_duplicates() -> None:
    assert query_terms("What did Bob say about ticket 837? Bob!") == ["bob", "say", "ticket", "837"]
    assert query_terms("O'Brien's car") == ["brien", "car"]
    assert query_terms("version 3") == ["version", "3"]  # a lone digit is kept


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Who emailed alice@example.com?", ["emailed", "alice", "example", "com"]),
        ("foo-bar", ["foo", "bar"]),
        ('"helios" (launch) | *', ["helios", "launch"]),
        ("%alce%1 ~x @title:running", ["alce", "1", "title", "running"]),
        ("ticket 837", ["ticket", "837"]),
        ("the", []),
        ("*", []),
        ("", []),
        ("a b c - | ( )", []),
    ],
)
def test_query_terms_carry_no_query_syntax(text: str, expected: list[str]) -> None:
    assert query_terms(text) == expected


def _allowed(ch: str) -> bool:
    if ch.isascii():
        return ch in "abcdefghijklmnopqrstuvwxyz0123456789"
    import unicodedata

    return ch.isalnum() or unicodedata.category(ch).startswith("M")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_query_terms_are_always_safe(text: str) -> None:
    terms = query_terms(text)
    assert len(terms) == len(set(terms))
    for term in terms:
        assert term and term[0].isalnum()
        assert all(_allowed(ch) for ch in term)
        assert term not in STOPWORDS


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1 .-@'\"()|*%~:_"), max_size=60))
def test_query_terms_safe_on_syntax_heavy_text(text: str) -> None:
    assert set("".join(query_terms(text))) <= set("ab1")


def _reference_tokenize(text: str) -> list[str]:
    """The definition, one character at a time (tokenize does the same with regular expressions)."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    tokens: list[str] = []
    current: list[str] = []
    for ch in folded:
        if ch.isalnum() or (current and unicodedata.category(ch).startswith("M")):
            current.append(ch)
        elif current:
            tokens.append("".join(current))
            current = []
    if current:
        tokens.append("".join(current))
    return tokens


def test_tokenize_keeps_every_combining_mark_of_this_unicode_database() -> None:
    import sys
    import unicodedata

    marks = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c))[0] == "M"]
    text = " ".join(f"a{m}b {m}x" for m in marks)  # after a letter: kept; alone: a separator
    assert tokenize(text) == _reference_tokenize(text)


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.characters(),
            st.sampled_from("aé\u0301\u0915\u093f\u0130 _-.'1２①"),
        ),
        max_size=80,
    )
)
def test_tokenize_matches_its_definition(text: str) -> None:
    assert tokenize(text) == _reference_tokenize(text)
