"""Tests for falkmem.keyword.stem: Snowball English, the stemmer of FalkorDB's full-text index."""

from __future__ import annotations

import doctest
import importlib
import threading

import pytest

from falkmem.keyword import stem, stem_all
from falkmem.keyword.stem import document_stems
from falkmem.keyword.tokens import tokenize


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


def test_document_stems_count_every_stem_and_are_cached() -> None:
    text = "Two companies and a company said the companies were running; runs, dying dies."
    tokens = tokenize(text)
    want: dict[str, int] = {}
    for s in stem_all(tokens):
        want[s] = want.get(s, 0) + 1
    length, counts = document_stems(text)
    assert (length, dict(counts)) == (len(tokens), want)
    assert counts["compani"] == 3 and counts["run"] == 2 and counts["die"] == 2
    assert document_stems(text)[1] is counts  # cached by content
    assert document_stems("") == (0, {})
