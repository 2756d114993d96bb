"""Checks one caller record against the documented rules and normalises it (pure, no I/O)."""

from __future__ import annotations

import json
import math
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from ..errors import InputError, LimitExceeded
from ..models import KINDS, EntityIn, Record, TripleIn
from ..settings import Settings
from . import caps

_ID_MAX = 256
_SHORT_MAX = 256  # session, speaker, agent, user, key
# Identifiers refuse control characters: NUL cannot be sent as a query parameter, and a
# U+0001 in a property under a unique constraint (Artifact.id) crashed the FalkorDB server
# (segfault in EnforceUniqueEntity, falkordblite's build), taking every tenant down.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def valid_unicode(value: str, field: str) -> str:
    """``value`` if it can be sent to the server as UTF-8 (a lone surrogate cannot)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(field, "must be valid Unicode text (it contains a lone surrogate)") from None
    return value


@dataclass(frozen=True, slots=True)
class Prepared:
    """A validated record, ready to embed and write."""

    id: str
    text: str
    kind: str
    session: str | None
    speaker: str | None
    agent: str | None
    user: str | None
    valid_at: float
    metadata: str
    key: str | None
    entities: tuple[tuple[str, str], ...]
    """(name, type) pairs the caller supplied."""
    triples: tuple[tuple[str, str, str], ...]
    """(subject name, relation, object name) the caller supplied."""
    embedding: tuple[float, ...] | None


def to_timestamp(value: datetime | str | None, field: str, *, default: float) -> float:
    """Epoch seconds of a datetime or ISO-8601 string; naive values are taken as UTC."""
    if value is None:
        return default
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise InputError(field, "must be an ISO-8601 date/time such as 2026-03-01T10:05:00Z") from None
    if not isinstance(value, datetime):
        raise InputError(field, "must be a datetime or an ISO-8601 string")
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def _short(value: object, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InputError(field, "must be a non-empty string or None")
    if len(value) > _SHORT_MAX:
        raise LimitExceeded(field, f"must be at most {_SHORT_MAX} characters")
    if _CONTROL.search(value):
        raise InputError(field, "must not contain control characters (U+0000–U+001F, U+007F)")
    return valid_unicode(value, field)


def prepare(raw: Record | dict[str, Any], settings: Settings, *, now: float) -> Prepared:
    """Validate and normalise one record.

    Raises:
        InputError: a field breaks a rule; the message names the field and the rule.
        LimitExceeded: text, metadata, entities or triples over their documented limits.
    """
    if isinstance(raw, Record):
        rec = raw
    else:
        if not isinstance(raw, dict):
            raise InputError("record", "must be a dict or a falkmem.Record")
        try:
            rec = Record.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "record"
            raise InputError(field, first["msg"]) from None
    if not isinstance(rec.text, str) or not rec.text.strip():
        raise InputError("text", "must be a non-empty string (whitespace alone is not a memory)")
    if len(rec.text) > settings.max_text_chars:
        raise LimitExceeded(
            "text",
            f"is {len(rec.text)} characters; the limit is {settings.max_text_chars}"
            " (FALKMEM_MAX_TEXT_CHARS): split long documents into several memories",
        )
    if "\x00" in rec.text:
        raise InputError("text", "must not contain NUL characters")
    valid_unicode(rec.text, "text")
    if rec.kind not in KINDS:
        raise InputError("kind", f"must be one of {sorted(KINDS)}, not {rec.kind!r}")
    rid = rec.id if rec.id is not None else uuid.uuid4().hex
    if not isinstance(rid, str) or not rid.strip() or len(rid) > _ID_MAX:
        raise InputError("id", f"must be a non-empty string of at most {_ID_MAX} characters")
    if _CONTROL.search(rid):
        raise InputError("id", "must not contain control characters (U+0000–U+001F, U+007F)")
    valid_unicode(rid, "id")
    try:
        meta = json.dumps(dict(rec.metadata or {}), ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        raise InputError(
            "metadata", "must be JSON-serialisable (str, int, float, bool, None, lists and dicts)"
        ) from None
    if len(valid_unicode(meta, "metadata").encode()) > settings.max_metadata_bytes:
        raise LimitExceeded(
            "metadata", f"is over {settings.max_metadata_bytes} bytes as JSON (FALKMEM_MAX_METADATA_BYTES)"
        )
    entities: list[tuple[str, str]] = []
    for e in rec.entities or ():
        name, etype = (e, "other") if isinstance(e, str) else (e.name, e.type)
        if not name.strip() or len(name) > _SHORT_MAX:
            raise InputError("entities", f"each name must be 1–{_SHORT_MAX} characters")
        if "\x00" in name:
            raise InputError("entities", "a name must not contain NUL characters")
        valid_unicode(name, "entities")
        entities.append((name.strip(), etype))
    if len(entities) > settings.max_entities:
        raise LimitExceeded("entities", f"at most {settings.max_entities} per memory")
    triples: list[tuple[str, str, str]] = []
    for t in rec.triples or ():
        s, r, o = (t.subject, t.relation, t.object) if isinstance(t, TripleIn) else t
        if not all(isinstance(x, str) and x.strip() and len(x) <= _SHORT_MAX for x in (s, r, o)):
            raise InputError("triples", f"each part of a triple must be 1–{_SHORT_MAX} characters")
        if any("\x00" in x for x in (s, r, o)):
            raise InputError("triples", "a part of a triple must not contain NUL characters")
        for x in (s, r, o):
            valid_unicode(x, "triples")
        triples.append((s.strip(), r.strip(), o.strip()))
    if len(triples) > settings.max_triples:
        raise LimitExceeded("triples", f"at most {settings.max_triples} per memory")
    emb = rec.embedding
    if emb is not None and not all(math.isfinite(x) for x in emb):
        raise InputError("embedding", "must contain finite numbers only")
    _ = EntityIn  # re-exported type used in Record
    prepared = Prepared(
        id=rid,
        text=rec.text,
        kind=rec.kind,
        session=_short(rec.session, "session"),
        speaker=_short(rec.speaker, "speaker"),
        agent=_short(rec.agent, "agent"),
        user=_short(rec.user, "user"),
        valid_at=to_timestamp(rec.at, "at", default=now),
        metadata=meta,
        key=_short(rec.key, "key"),
        entities=tuple(entities),
        triples=tuple(triples),
        embedding=emb,
    )
    caps.check_given(prepared)  # no indexed value over the engine-safe cap (issue 15)
    return prepared
