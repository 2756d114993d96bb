"""``context()`` counts its budget with the configured token counter: the ``token_counter``
setting (``regex``, ``tiktoken:<encoding>``, ``hf:<tokenizer directory>``) or an object."""

from __future__ import annotations

from pathlib import Path

import pytest

from falkmem import ConfigError, Memory
from falkmem.context import HFTokenCounter
from falkmem.embedding.base import Embedder
from falkmem.embedding.minilm import minilm_path

FACTS = [
    "Priya Chandran leads the Atlas team, which built Project Helios in 2024.",
    "Priya Chandran reports to Marcus Webb, the head of engineering at Northwind.",
    "The Atlas team meets every Tuesday at 10:30 in room Kepler-4 on the third floor.",
    "Project Helios ships its telemetry to the Orion cluster in Frankfurt.",
    "Marcus Webb joined Northwind in 2019 from Contoso, where he ran the storage group.",
]
QUESTION = "Who manages the person who leads the team that built Project Helios?"


class Words:
    """A counter object of one's own: one token per word."""

    name = "words"

    def count(self, text: str) -> int:
        return len(text.split())


def test_context_counts_with_the_configured_tokenizer(
    tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    pytest.importorskip("transformers")
    spec = f"hf:{minilm_path()}"
    with Memory(tmp_path, embedder=embedder, token_counter=spec) as mem:
        t = mem.tenant("counted")
        for i, text in enumerate(FACTS):
            t.add(text, id=f"f{i}", kind="fact")
        ctx = t.context(QUESTION, budget_tokens=40)
    exact = HFTokenCounter(str(minilm_path()))
    assert ctx.token_counter == spec
    assert ctx.text and ctx.tokens == exact.count(ctx.text) <= 40  # the tokenizer's own count


def test_a_counter_object_is_used_as_given(tmp_path: Path, embedder: Embedder) -> None:
    with Memory(tmp_path, embedder=embedder, token_counter=Words()) as mem:
        assert mem.settings.token_counter == "regex"  # the object wins over the setting
        t = mem.tenant("words")
        for i, text in enumerate(FACTS):
            t.add(text, id=f"f{i}", kind="fact")
        ctx = t.context(QUESTION, budget_tokens=25)
    assert ctx.token_counter == "words"
    assert ctx.text and ctx.tokens == len(ctx.text.split()) <= 25


def test_a_bad_counter_is_a_config_error_naming_it(tmp_path: Path, embedder: Embedder) -> None:
    with pytest.raises(ConfigError, match="token_counter"):
        Memory(tmp_path, embedder=embedder, token_counter=42)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="FALKMEM_TOKEN_COUNTER"):
        Memory(tmp_path, embedder=embedder, token_counter="bpe")
    assert not any(tmp_path.iterdir())  # nothing was started or written
