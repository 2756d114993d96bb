"""Tests for falkmem.keyword.stem: Snowball English, the stemmer of FalkorDB's full-text index."""

from __future__ import annotations

import doctest
import importlib
import threading

import pytest

from falkmem.keyword import stem, stem_all
from falkmem.keyword.stem import parse_bag, stem_bag, stem_counts
from falkmem.text.tokens import tokenize


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


def test_stem_counts_and_the_stored_bag_count_every_stem() -> None:
    text = "Two companies and a company said the companies were running; runs, dying dies."
    tokens = tokenize(text)
    want: dict[str, int] = {}
    for s in stem_all(tokens):
        want[s] = want.get(s, 0) + 1
    length, counts = stem_counts(text)
    assert (length, counts) == (len(tokens), want)
    assert counts["compani"] == 3 and counts["run"] == 2 and counts["die"] == 2
    n, bag = stem_bag(text)
    assert n == length and parse_bag(bag) == want
    assert bag.startswith(" ") and bag.endswith(" ") and " compani:3 " in bag  # what the query looks for
    assert stem_bag("") == (0, " ") and parse_bag(" ") == {}
    many = stem_bag("echo " * 12 + "Zürich naïve 東京")[1]
    assert " echo:12 " in many and parse_bag(many)["echo"] == 12
