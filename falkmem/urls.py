"""Connection URLs as they may be shown: every credential redis-py would read from them hidden."""

from __future__ import annotations

import re
from urllib.parse import unquote

__all__ = ["redact_url"]

MASK = "***"

# Query options redis-py passes on as connection keywords (``?password=``, ``?ssl_password=``...)
# whose value is a secret. ``username`` is not one: it stays readable, as in the user part.
_SECRET_OPTION = re.compile(r"pass|pwd|secret|token|credential", re.IGNORECASE)


def redact_url(url: str) -> str:
    """``url`` with its password, secret query options and fragment replaced by ``***``.

    Covers every form redis-py's ``from_url`` reads credentials from, for every scheme falkmem
    accepts (``redis``, ``rediss``, ``unix``, ``redis+cluster``...): ``user:password@`` and
    ``:password@`` (the user name stays), a lone ``name@`` (hidden whole: redis-py reads it as a
    user name, but it is often a password written without its colon), and ``?password=`` /
    ``?ssl_password=`` / any option whose name holds "pass", "pwd", "secret", "token" or
    "credential". Text that is not a URL is returned as it is.

    Example:
        >>> redact_url("redis://app:s3cret@db:6379/0?password=x&db=1")
        'redis://app:***@db:6379/0?password=***&db=1'
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    prefix = ""
    userinfo, at, tail = rest.rpartition("@")
    if at:  # the last "@" ends the user part, wherever an unencoded "/", "?" or "#" put it
        user, colon, _ = userinfo.partition(":")
        shown = colon and user and not any(c in user for c in "/?#")
        prefix = f"{user}:{MASK}@" if shown else f"{MASK}@"
    else:
        tail = rest
    tail, hash_, fragment = tail.partition("#")
    tail, q, query = tail.partition("?")
    out = f"{scheme}://{prefix}{tail}"
    if q:
        out += "?" + "&".join(_redact_option(part) for part in query.split("&"))
    if hash_ and fragment:
        out += "#" + MASK
    return out


def _redact_option(part: str) -> str:
    name, eq, _ = part.partition("=")
    return f"{name}={MASK}" if eq and _SECRET_OPTION.search(unquote(name)) else part
