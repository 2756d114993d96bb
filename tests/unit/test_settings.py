"""Settings: precedence (argument > environment > default) and errors that name the variable."""

from __future__ import annotations

import pytest

from falkmem import ConfigError, Settings
from falkmem.settings import zone


def test_defaults() -> None:
    s = Settings.load()
    assert s.url is None and s.query_timeout_ms == 10_000 and s.graph_prefix == "falkmem:"


def test_environment_then_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FALKMEM_QUERY_TIMEOUT_MS", "2500")
    monkeypatch.setenv("FALKMEM_URL", "redis://example:6379")
    assert Settings.load().query_timeout_ms == 2500
    assert Settings.load(query_timeout_ms=99).query_timeout_ms == 99
    assert Settings.load().url == "redis://example:6379"


def test_bad_environment_value_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FALKMEM_QUERY_TIMEOUT_MS", "abc")
    with pytest.raises(ConfigError, match="FALKMEM_QUERY_TIMEOUT_MS"):
        Settings.load()


def test_unknown_setting_is_refused() -> None:
    with pytest.raises(ConfigError, match="FALKMEM_COLOUR"):
        Settings.load(colour="red")


def test_settings_are_frozen() -> None:
    s = Settings.load()
    with pytest.raises(Exception):  # noqa: B017 - pydantic's frozen-instance error
        s.query_timeout_ms = 5  # type: ignore[misc]


def test_bad_url_scheme(tmp_path: object) -> None:
    from falkmem import Memory
    from falkmem.testing import HashEmbedder

    with pytest.raises(ConfigError, match="FALKMEM_URL"):
        Memory(url="http://localhost:6379", embedder=HashEmbedder())


def test_the_context_time_zone_is_an_iana_name() -> None:
    assert Settings.load().timezone == "UTC"
    assert str(zone(Settings.load(timezone="Europe/Lisbon").timezone)) == "Europe/Lisbon"
    assert zone("utc") is zone("UTC")
    with pytest.raises(ConfigError, match=r"FALKMEM_TIMEZONE.*unknown time zone 'Mars/Olympus'"):
        Settings.load(timezone="Mars/Olympus")
