"""Tests for falkmem.keyword.tokens: RediSearch-like tokenising and safe full-text queries."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem.errors import InputError
from falkmem.keyword import STOPWORDS, fulltext_query, query_terms, tokenize


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
        ("Who emailed alice@example.com?", "emailed|alice|example|com"),
        ("foo-bar", "foo|bar"),
        ('"helios" (launch) | *', "helios|launch"),
        ("%alce%1 ~x @title:running", "alce|1|title|running"),
        ("ticket 837", "ticket|837"),
        ("the", None),
        ("*", None),
        ("", None),
        ("a b c - | ( )", None),
    ],
)
def test_fulltext_query_is_sanitised(text: str, expected: str | None) -> None:
    assert fulltext_query(text) == expected


def test_fulltext_query_caps_terms_preferring_ids_and_long_words() -> None:
    text = "alpha beta gamma delta epsilon ab12 zeta"
    # digits first, then the longest; ties keep text order; the result is in text order
    assert fulltext_query(text, max_terms=3) == "alpha|epsilon|ab12"


def test_fulltext_query_rejects_bad_cap() -> None:
    with pytest.raises(InputError) as err:
        fulltext_query("hello", max_terms=0)
    assert err.value.field == "max_terms"


def _allowed(ch: str) -> bool:
    if ch.isascii():
        return ch in "abcdefghijklmnopqrstuvwxyz0123456789|"
    import unicodedata

    return ch.isalnum() or unicodedata.category(ch).startswith("M")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.integers(min_value=1, max_value=20))
def test_fulltext_query_output_is_always_safe(text: str, max_terms: int) -> None:
    query = fulltext_query(text, max_terms=max_terms)
    if query is None:
        return
    assert all(_allowed(ch) for ch in query)
    parts = query.split("|")
    assert all(parts), "no empty alternatives"
    assert len(parts) == len(set(parts)) <= max_terms
    assert all(p[0].isalnum() for p in parts)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1 .-@'\"()|*%~:_"), max_size=60))
def test_fulltext_query_safe_on_syntax_heavy_text(text: str) -> None:
    query = fulltext_query(text)
    assert query is None or set(query) <= set("ab1|")
