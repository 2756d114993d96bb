"""``redact_url``: every credential form redis-py reads from a URL is hidden (issue 12, item 10)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from falkmem.urls import redact_url

SECRET = "hunter2"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://app:hunter2@db:6379/0", "redis://app:***@db:6379/0"),
        ("redis://:hunter2@db:6379", "redis://***@db:6379"),
        ("rediss://hunter2@db:6380", "rediss://***@db:6380"),  # a lone user part may be a password
        ("redis://db:6379/0?password=hunter2", "redis://db:6379/0?password=***"),
        ("redis://db?username=app&password=hunter2&db=2", "redis://db?username=app&password=***&db=2"),
        ("rediss://db?ssl_password=hunter2", "rediss://db?ssl_password=***"),
        ("redis://db?pass%77ord=hunter2", "redis://db?pass%77ord=***"),
        ("unix:///run/redis.sock?db=0&password=hunter2", "unix:///run/redis.sock?db=0&password=***"),
        ("unix://app:hunter2@/run/redis.sock", "unix://app:***@/run/redis.sock"),
        ("redis+cluster://app:hunter2@h1:7000,h2:7001", "redis+cluster://app:***@h1:7000,h2:7001"),
        ("redis://app:hun/ter2@db", "redis://app:***@db"),  # an unencoded "/" in the password
        ("redis://app:hun?ter2@db", "redis://app:***@db"),
        ("redis://db:6379/0#hunter2", "redis://db:6379/0#***"),
        ("redis://db:6379/0", "redis://db:6379/0"),
        ("/var/lib/falkmem", "/var/lib/falkmem"),
    ],
)
def test_redacts_every_form(url: str, shown: str) -> None:
    assert redact_url(url) == shown


# Users: no upper case, so the sentinel that starts every password can only come from it.
_user = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=12)
_password = st.text(alphabet=st.characters(codec="ascii", exclude_characters="\x00"), max_size=12).map(
    lambda tail: "ZZSECRET" + tail
)


@given(user=_user, password=_password, host=st.sampled_from(["db", "10.0.0.7:6379", "h1:1,h2:2"]))
def test_no_password_survives_in_any_form(user: str, password: str, host: str) -> None:
    for url in (
        f"redis://{user}:{password}@{host}/0",
        f"redis://:{password}@{host}",
        f"unix://{user}:{password}@/run/redis.sock",
        f"redis://{host}/0?password={password}",
        f"redis://{host}/0?db=1&username={user}&password={password}",
        f"rediss://{user}@{host}?ssl_password={password}",
    ):
        assert "ZZSECRET" not in redact_url(url), url
