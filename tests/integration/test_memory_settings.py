"""``Memory(settings=..., **overrides)``: overrides are merged into the given settings (issue 12, item 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from falkmem import ConfigError, Memory, Settings
from falkmem.testing import HashEmbedder


def test_overrides_are_merged_into_given_settings(tmp_path: Path) -> None:
    given = Settings.load(max_k=50, query_timeout_ms=9_000)
    with Memory(tmp_path, settings=given, query_timeout_ms=1234, embedder=HashEmbedder()) as mem:
        assert mem.settings.query_timeout_ms == 1234  # the override wins
        assert mem.settings.max_k == 50  # the rest of the given settings is kept
        assert mem.settings.path == tmp_path
        assert mem._engine.store.executor.timeout_ms == 1234  # and it is what queries are sent with
    assert given.query_timeout_ms == 9_000  # the caller's object is unchanged


def test_given_settings_are_not_refilled_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = Settings.load()
    assert given.openai_base_url is None
    monkeypatch.setenv("FALKMEM_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    with Memory(tmp_path, settings=given, query_timeout_ms=1234, embedder=HashEmbedder()) as mem:
        assert mem.settings.openai_base_url is None  # what the caller gave, not the environment now


def test_bad_override_with_settings_is_a_config_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="FALKMEM_QUERY_TIMEOUT_MS"):
        Memory(tmp_path, settings=Settings.load(), query_timeout_ms=-1, embedder=HashEmbedder())
    with pytest.raises(ConfigError, match="FALKMEM_COLOUR"):
        Memory(tmp_path, settings=Settings.load(), colour="red", embedder=HashEmbedder())
