"""Hostile-length inputs (issue 15): nothing a caller writes may crash the server.

FalkorDB (module 4.22.1, falkordblite 0.11.0) segfaults in ``EnforceUniqueEntity`` when a
string of more than 4,096 UTF-8 bytes is written under a unique constraint (docs/limits.md);
``Memory(path).tenant("a").add("Victim" + "a" * 5000)`` did exactly that through the rule
extractor. Every test here runs on its own embedded server and, after each call, checks that
the server is the same process (it did not crash and get restarted), that a canary tenant
still answers a search, and that the canary's graph is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from falkmem import FalkmemError, InputError, Memory, Tenant
from falkmem.ingest.caps import KEY_MAX_BYTES
from tests.helpers import fingerprint

from .conftest import DenseEmbedder, server_pid, stop_server
from .figures import FIGURES, add, record
from .store_checks import run

ENGINE_LIMIT_BYTES = 4096
"""The longest string (UTF-8 bytes) FalkorDB 4.22.1 accepts under a unique constraint."""


@dataclass
class Canary:
    mem: Memory
    tenant: Tenant
    data_dir: Path
    pid: int
    print: str

    def check(self) -> None:
        """The server did not crash (same pid), answers, and the canary graph is unchanged."""
        assert server_pid(self.data_dir) == self.pid, "the embedded server was restarted: it crashed"
        hits = self.tenant.search("Where does the canary sing?", k=3)
        assert "canary-1" in hits.ids, f"the canary tenant no longer answers: {hits.ids}"
        assert fingerprint(self.mem, self.tenant.graph) == self.print, "the canary tenant changed"
        log = (self.data_dir / "server.log").read_text(errors="replace")
        assert "crashed by signal" not in log and "BUG REPORT" not in log, "server.log has a crash report"


@pytest.fixture(scope="module")
def long_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("long-inputs")
    yield d
    stop_server(d)


@pytest.fixture(scope="module")
def lmem(long_dir: Path) -> Iterator[Memory]:
    m = Memory(long_dir, embedder=DenseEmbedder())  # the rule extractor, as a caller gets it
    yield m
    m.close()


@pytest.fixture(scope="module")
def canary(lmem: Memory, long_dir: Path) -> Canary:
    t = lmem.tenant("canary")
    t.add_many(
        [
            {"id": "canary-1", "text": "The canary sings in the Old Mine every morning.", "session": "c"},
            {"id": "canary-2", "text": "Priya Chandran leads the Atlas team.", "entities": ["Atlas team"]},
        ]
    )
    return Canary(lmem, t, long_dir, server_pid(long_dir), fingerprint(lmem, t.graph))


@pytest.fixture
def victim(lmem: Memory, request: pytest.FixtureRequest) -> Iterator[Tenant]:
    tid = "long-" + str(abs(hash(request.node.name)) % 10**8)
    lmem.drop_tenant(tid)
    yield lmem.tenant(tid)
    lmem.drop_tenant(tid)


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", fn()
    except InputError as exc:
        return "refused", exc
    except FalkmemError as exc:  # anything else (ConnectionFailed after a crash...) fails
        pytest.fail(f"{type(exc).__name__}: {exc}"[:500])


def test_cap_is_well_under_the_engine_limit() -> None:
    assert KEY_MAX_BYTES * 4 <= ENGINE_LIMIT_BYTES


def test_issue_reproduction_long_capitalised_word(victim: Tenant, canary: Canary) -> None:
    """Issue 15: one capitalised "word" of 5,006 characters crashed FalkorDB for every tenant."""
    kind, out = _outcome(lambda: victim.add("Victim" + "a" * 5000))
    canary.check()
    if kind == "ok":
        assert victim.get(out).text == "Victim" + "a" * 5000
        assert victim.search("Victim", k=3).ids


def test_caller_entity_that_expands_past_the_cap_is_refused(
    lmem: Memory, victim: Tenant, canary: Canary
) -> None:
    """256 characters pass the name limit, but NFKC turns U+FDFA into 18 letters (8 KB of key)."""
    with pytest.raises(InputError) as err:
        victim.add("A blessing.", entities=["\ufdfa" * 256])
    assert err.value.field.endswith("entities")
    with pytest.raises(InputError) as err:
        victim.add("A blessing.", triples=[("\ufdfa" * 256, "knows", "Bob Stone")])
    assert err.value.field.endswith("triples")
    with pytest.raises(InputError) as err:
        victim.add("A keyed fact.", key="\ufdfa" * 256)
    assert err.value.field.endswith("key")
    assert not lmem.has_tenant(victim.id), "a refused write created the tenant"
    canary.check()


def test_an_id_with_white_space_at_an_end_is_refused_and_the_server_lives(
    lmem: Memory, victim: Tenant, canary: Canary
) -> None:
    """Found by the isolation suite's hypothesis run: ``add(id="0")`` then ``add(id="0 ")`` crashed
    FalkorDB 4.22.1 (segfault in ``EnforceUniqueEntity``, FalkorDB/FalkorDB#1340) for every tenant,
    and the same ids through an import would too."""
    victim.add("a memory about Priya Chandran", id="0")
    for rid in ("0 ", " 0"):
        with pytest.raises(InputError) as err:
            victim.add("a memory about Priya Chandran", id=rid)
        assert err.value.field.endswith("id"), err.value.field
    with pytest.raises(InputError) as err:
        victim.add_many([{"id": "1", "text": "one"}, {"id": "0 ", "text": "two"}])
    assert err.value.field.endswith("id")
    assert victim.count() == 1, "a refused write wrote something"
    canary.check()


# --- hostile lengths under hypothesis ---------------------------------------------------------

MAX_TEXT = 32_000  # the documented max_text_chars
SHORT = 256  # the documented limit of ids, session, speaker, agent, user, key, entity names

# Alphabets with 1-, 2-, 3- and 4-byte characters, marks that stack on one base, scripts without
# case, right-to-left text and direction marks, emoji ZWJ sequences, and U+FDFA (NFKC: 18 letters).
UNITS = [
    "a", "Z", "é", "ß", "Ж", "ж", "ع", "ש", "中", "🎉", "e\u0301\u0302\u0303", "a" + "\u0301" * 40,
    "\u202eRTL\u202c", "\u200f\u05e9\u05dc\u05d5\u05dd", "👩\u200d💻", "👨\u200d👩\u200d👧\u200d👦",
    "🏳\ufe0f\u200d🌈", "\ufdfa", "İ", "ﬃ", "Ａ", "9", "-", ".", "@", "_",
]  # fmt: skip


def _fit(s: str, n: int = MAX_TEXT) -> str:
    return s[:n] if s.strip() else "x"


def _run(unit: str, n: int) -> str:
    return unit * max(1, n // max(1, len(unit)))


long_texts = st.one_of(
    # one capitalised run (the issue's reproduction, up to the whole text limit)
    st.builds(lambda cap, unit, n: _fit(cap + _run(unit, n)), st.sampled_from(["Victim", "V", "Ä", "Ж", "Ａ"]),
              st.sampled_from(["a", "ä", "ж", "ａ", "é"]), st.integers(3_000, MAX_TEXT)),
    # long identifiers, codes, e-mails, URLs, hashtags, quoted names
    st.builds(lambda n: _fit("Code " + "X9" * n), st.integers(1_000, MAX_TEXT // 2)),
    st.builds(lambda n: _fit("FL" + "7" * n + " departs."), st.integers(1_000, MAX_TEXT)),
    st.builds(lambda a, b: _fit("Mail " + "a" * a + "@" + "b" * b + ".com now"), st.integers(1, 16_000),
              st.integers(1, 15_000)),
    st.builds(lambda n: _fit("See https://example.com/" + "p" * n + "?q=1 today"), st.integers(1_000, MAX_TEXT)),
    st.builds(lambda n: _fit("#" + "Tag" * n), st.integers(1_000, MAX_TEXT // 3)),
    st.builds(lambda n: _fit('She said "' + "Long Name " * n + '" twice'), st.integers(100, MAX_TEXT // 10)),
    st.builds(lambda n: _fit("Project " + "Alpha" * n + " launched"), st.integers(1_000, MAX_TEXT // 5)),
    # many entities and relations in one text
    st.builds(lambda n: _fit(" ".join(f"Person{i} Surname{i} leads Team{i} Group{i}." for i in range(n))),
              st.integers(50, 1_500)),
    # deep Unicode: stacked combining marks, RTL, emoji ZWJ sequences, mixed with capitals
    st.builds(lambda units, n: _fit("".join(units) * n), st.lists(st.sampled_from(UNITS), min_size=1, max_size=6),
              st.integers(100, 8_000)),
    st.builds(lambda unit, n: _fit("Victim" + _run(unit, n)), st.sampled_from(UNITS), st.integers(1_000, MAX_TEXT)),
)  # fmt: skip

short_values = st.one_of(
    st.builds(lambda unit: _run(unit, SHORT)[:SHORT], st.sampled_from(UNITS)),
    st.builds(lambda units: ("".join(units) * SHORT)[:SHORT], st.lists(st.sampled_from(UNITS), min_size=1, max_size=4)),
    st.text(min_size=SHORT - 6, max_size=SHORT),
)  # fmt: skip

FIELDS = ("id", "session", "speaker", "agent", "user", "key")


class HugeExtractor:
    """Stands for any extractor (an LLM's, a custom one) that returns whatever it likes:
    entity names and triples as long as the text."""

    def extract(self, text: str, *, known: Any = None, speaker: str | None = None) -> Any:
        from falkmem.extraction.types import EntityMention, Extraction, Triple

        name = " ".join(text.split()) or "x"
        try:
            whole = EntityMention(key=name, name=name)
            half = EntityMention(key=name[: len(name) // 2] or "y", name=name[: len(name) // 2] or "y")
        except ValueError:
            return Extraction()
        triples = (
            () if whole.key == half.key else (Triple(subject=whole.key, relation="leads", object=half.key),)
        )
        return Extraction(entities=(whole, half), triples=triples)


def _op_add(
    t: Tenant, text: str, fields: dict[str, str], entities: list[str], triples: list[Any], metadata: Any
) -> Any:
    kw: dict[str, Any] = dict(fields)
    if metadata is not None:
        kw["metadata"] = metadata
    if entities:
        kw["entities"] = entities
    if triples:
        kw["triples"] = triples
    aid = t.add(text, **kw)
    got = t.get(aid)
    assert got.text == text or "id" in fields  # a given id that exists already: idempotent, kept
    t.search(text[:4_000], k=5)
    t.search(text[:4_000], k=5, route="hybrid", max_hops=2)
    return aid


@pytest.fixture(scope="module")
def huge_mem(long_dir: Path, lmem: Memory) -> Iterator[Memory]:
    m = Memory(long_dir, embedder=DenseEmbedder(), extractor=HugeExtractor())  # type: ignore[arg-type]
    yield m
    m.close()


def test_hostile_lengths_never_crash_the_server(
    lmem: Memory, huge_mem: Memory, canary: Canary, request: pytest.FixtureRequest
) -> None:
    """Long inputs up to every documented limit, in every field, through the rule extractor and
    an extractor that returns huge entities; after each example the canary answers, unchanged.

    400 examples by default (about 30 s here), 3,000 with ``--run-slow``.
    """
    examples = 3000 if request.config.getoption("--run-slow") else 400
    name = "hostile_lengths"
    FIGURES.pop(name, None)
    rules_t, huge_t = lmem.tenant("long-fuzz"), huge_mem.tenant("long-fuzz-huge")

    @settings(
        max_examples=examples, deadline=None, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )  # fmt: skip
    @given(
        text=long_texts,
        fields=st.one_of(st.just({}), st.dictionaries(st.sampled_from(FIELDS), short_values, max_size=3)),
        entities=st.one_of(st.just([]), st.lists(short_values, max_size=100)),
        triples=st.one_of(
            st.just([]),
            st.lists(st.tuples(short_values, st.sampled_from(["leads", "works with"]), short_values), max_size=5),
        ),
        metadata=st.one_of(
            st.none(),
            # up to and over the 16 KiB metadata limit, in every alphabet
            st.builds(lambda unit, n: {"note": _run(unit, n), "list": [unit] * 10}, st.sampled_from(UNITS),
                      st.integers(1, 6_000)),
        ),
        huge=st.booleans(),
    )  # fmt: skip
    def run(
        text: str, fields: dict[str, str], entities: list[str], triples: list[Any], metadata: Any, huge: bool
    ) -> None:
        add(name, "examples", 1)
        add(name, "text_chars", len(text))
        t = huge_t if huge else rules_t
        kind, _ = _outcome(lambda: _op_add(t, text, fields, entities, triples, metadata))
        add(name, "stored" if kind == "ok" else "refused", 1)
        canary.check()
        add(name, "server_survived", 1)

    try:
        run()
    finally:
        lmem.drop_tenant(rules_t.id)
        lmem.drop_tenant(huge_t.id)
    figs = dict(FIGURES.get(name, {}))
    record(name, **figs)
    assert figs["examples"] >= examples * 0.9 and figs["server_survived"] == figs["examples"]
    assert figs.get("stored", 0) > 0


# --- the import path (a hostile export file) ------------------------------------------------------


def _hostile_export(lmem: Memory, canary: Canary) -> list[dict[str, Any]]:
    from falkmem.admin import export_tenant

    lines = list(export_tenant(lmem, canary.tenant.id))
    for obj in lines:
        if obj.get("type") == "entity":
            long_key = "p" * 5000
            old = obj["props"]["key"]
            obj["props"]["key"] = long_key
            for other in lines:  # keep the file consistent: references and edges follow the key
                for ref in other.get("references") or []:
                    if ref.get("key") == old:
                        ref["key"] = long_key
                if other.get("type") == "edge" and other.get("rel") == "RELATED_TO":
                    other["src"] = long_key if other["src"] == old else other["src"]
                    other["dst"] = long_key if other["dst"] == old else other["dst"]
            break
    return lines


def test_import_of_an_over_long_key_is_refused(lmem: Memory, canary: Canary) -> None:
    """An export file is caller input too: a 5,000-byte entity key must not reach the engine."""
    import json

    from falkmem.admin import import_lines, read_export

    lines = _hostile_export(lmem, canary)
    with pytest.raises(InputError) as err:
        read_export(json.dumps(o) for o in lines)
    assert "1024" in str(getattr(err.value, "problems", err.value)), err.value
    lmem.drop_tenant("long-import")
    try:
        with pytest.raises(InputError) as err2:
            import_lines(lmem, "long-import", iter(lines))
        assert "key" in err2.value.field
        assert not lmem.has_tenant("long-import") or lmem.tenant("long-import").count() == 0
    finally:
        lmem.drop_tenant("long-import")
    canary.check()


# --- the LLM extractor (a real LLMExtractor against a local OpenAI-compatible endpoint) -------------

LLM_NAMES = [
    "Victim" + "a" * 31_994,  # the whole text limit in one name
    "\ufdfa" * 256,  # 8 KB once canonical
    "👨\u200d👩\u200d👧\u200d👦" * 1_000,  # emoji ZWJ sequences
    "e" + "\u0301" * 5_000,  # stacked combining marks
    "\u05e9\u05dc\u05d5\u05dd " * 1_000,  # right-to-left words
]


def test_llm_extractor_returning_huge_entities_cannot_crash_the_server(
    long_dir: Path, canary: Canary
) -> None:
    import json

    from falkmem.extraction import LLMExtractor
    from tests.integration.test_llm_extractor import FakeOpenAI, completion

    fake = FakeOpenAI()
    reply = {
        "entities": [{"name": n, "type": "person"} for n in LLM_NAMES],
        "triples": [
            {"subject": LLM_NAMES[i], "relation": "leads", "object": LLM_NAMES[i + 1]} for i in range(4)
        ],
    }
    fake.script = [(200, completion(json.dumps(reply)))]
    llm = LLMExtractor(model="test-model", base_url=fake.url, api_key="test-key", timeout_s=30,
                       backoff_initial_s=0.01, backoff_max_s=0.05)  # fmt: skip
    m = Memory(long_dir, embedder=DenseEmbedder(), extractor=llm)
    try:
        t = m.tenant("long-llm")
        m.drop_tenant(t.id)
        aid = t.add("A note that the model reads as full of huge names.")
        canary.check()
        assert t.get(aid).text.startswith("A note")
        keys = [str(r["key"]) for r in run(m, t.graph, "entity_keys")]
        assert keys, "the extractor's entities were dropped instead of capped"
        assert all(len(k.encode()) <= KEY_MAX_BYTES for k in keys), max(len(k.encode()) for k in keys)
        m.drop_tenant(t.id)
    finally:
        m.close()
        fake.close()
    record("llm_extractor_huge_entities", names=len(LLM_NAMES), stored_keys=len(keys), server_survived=1)
