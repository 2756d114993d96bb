"""Tests for falkmem.keyword.stem: Snowball English, the stemmer of FalkorDB's full-text index."""

from __future__ import annotations

import doctest
import importlib
import threading

import pytest

from falkmem.keyword import stem, stem_all
from falkmem.keyword.stem import stem_counts


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("companies", "compani"),
        ("company", "compani"),
        ("running", "run"),
        ("runs", "run"),
        ("announced", "announc"),
        ("generously", "generous"),
        ("arrivals", "arriv"),
        ("arrives", "arriv"),
        ("news", "news"),  # not a plural: the old suffix stripper made it "new"
        ("bus", "bus"),
        ("837", "837"),
        ("qx7", "qx7"),
    ],
)
def test_snowball_english(word: str, expected: str) -> None:
    assert stem(word) == expected
    assert stem_all([word, word]) == [expected, expected]


def test_stem_all_keeps_order_and_length() -> None:
    assert stem_all([]) == []
    assert stem_all(["cats", "dogs", "cats"]) == ["cat", "dog", "cat"]


def test_stemming_is_thread_safe() -> None:
    words = [f"{w}{i}s" for i in range(200) for w in ("walk", "talk")] + ["companies"] * 200
    want = stem_all(words)
    got: list[list[str]] = []

    def work() -> None:
        got.append(stem_all(words))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [want] * 4


def test_docstring_examples_run() -> None:
    module = importlib.import_module("falkmem.keyword.stem")
    assert doctest.testmod(module).failed == 0


def test_stem_counts_equal_counting_every_stem() -> None:
    tokens = [
        "two",
        "companies",
        "and",
        "a",
        "company",
        "said",
        "the",
        "companies",
        "were",
        "running",
        "runs",
        "dying",
        "dies",
    ]
    wanted = {"compani", "run", "die", "absent"}
    naive: dict[str, int] = {}
    for s in stem_all(tokens):
        if s in wanted:
            naive[s] = naive.get(s, 0) + 1
    assert stem_counts(tokens, wanted) == naive == {"compani": 3, "run": 2, "die": 2}
    assert stem_counts([], wanted) == {}
    assert stem_counts(tokens, set()) == {}


def test_a_word_and_its_stem_share_their_first_character() -> None:
    # stem_counts skips words whose first character no wanted stem starts with; Snowball's
    # exceptional forms are where that could break.
    words = ["dying", "lying", "tying", "skies", "skis", "idly", "gently", "ugly", "early", "only",
             "singly", "news", "howe", "atlas", "cosmos", "bias", "andes", "yelling", "ying", "über"]  # fmt: skip
    assert all(stem(w)[:1] == w[:1] for w in words)
