"""Reading the embedded server's ``server.log``: starts, clean exits and crash reports."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

# "23834:M 30 Nov 2026 16:38:38.405 * Server initialized"
_LINE = re.compile(r"^(\d+):[A-Z] (\d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d\.\d{3}) [.\-*#] (.*)$")
_CRASH = re.compile(r"crashed by signal: (\d+)")
_START = "Server initialized"
_CLEAN_EXIT = "ready to exit, bye bye"


@dataclass(frozen=True, slots=True)
class Event:
    """One line of interest: ``kind`` is ``start``, ``exit`` (clean) or ``crash``."""

    kind: str
    pid: int
    time: str
    detail: str


def events(text: str) -> list[Event]:
    """The starts, clean exits and crashes a server log records, in order."""
    out: list[Event] = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None:
            continue
        pid, when, msg = int(m.group(1)), m.group(2), m.group(3)
        if msg.startswith(_START):
            out.append(Event("start", pid, when, msg))
        elif _CLEAN_EXIT in msg:
            out.append(Event("exit", pid, when, msg))
        else:
            crash = _CRASH.search(msg)
            if crash:
                out.append(Event("crash", pid, when, f"signal {crash.group(1)}"))
    return out


def unclean_stops(path: Path) -> list[Event]:
    """Crashes and unclean stops since the server was last started from a clean stop.

    A crash report is a ``crash`` event; a start that follows a start with no clean exit (nor
    crash report) between them means the earlier server was killed (``kill -9``, OOM): it is
    reported as a ``killed`` event at the time of the later start.
    """
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    found: list[Event] = []
    last: Event | None = None
    for e in events(text):
        if e.kind == "exit":
            found = []  # a clean stop: what came before is history
        elif e.kind == "crash":
            found.append(e)
        elif e.kind == "start" and last is not None and last.kind == "start":
            found.append(
                Event("killed", last.pid, e.time, "stopped without a clean shutdown or crash report")
            )
        last = e
    return found


def epoch(when: str) -> float:
    """Epoch seconds of a log time (``30 Nov 2026 16:38:38.405``, the server's local time);
    0.0 when it cannot be read."""
    try:
        stamp, _, millis = when.partition(".")
        return time.mktime(time.strptime(stamp, "%d %b %Y %H:%M:%S")) + int(millis or 0) / 1000
    except (ValueError, OverflowError):
        return 0.0


def tail(path: Path, offset: int = 0) -> str:
    """The log from byte ``offset`` on ('' when it cannot be read)."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
