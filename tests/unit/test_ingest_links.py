"""ingest/writer.py: the turn order a batch writes (chains) and the identifiers its memories share."""

from __future__ import annotations

from falkmem.extraction.rules import RuleExtractor
from falkmem.ingest.validate import prepare
from falkmem.ingest.writer import chains, shared_identifiers
from falkmem.settings import Settings


def test_chains_keep_the_given_order_per_session() -> None:
    rows = [{"id": "a", "session": "s"}, {"id": "b", "session": None}, {"id": "c", "session": "t"},
            {"id": "d", "session": "s"}]  # fmt: skip
    assert chains(rows) == [{"session": "s", "ids": ["a", "d"]}, {"session": "t", "ids": ["c"]}]
    assert chains([]) == []


def test_an_identifier_read_in_one_turn_is_found_in_the_next_of_the_batch() -> None:
    texts = ["Booked my flight to Lisbon: TP 1351, confirmation code LX4K9Q.",
             "TP 1351 to Lisbon is delayed; it now lands at 11:40.", "Lunch was great."]  # fmt: skip
    batch = [prepare({"text": t, "id": f"m{i}"}, Settings.load(), now=0.0) for i, t in enumerate(texts)]
    rules = RuleExtractor()
    extracted = [rules.extract(p.text) for p in batch]
    assert "tp 1351" not in {e.key for e in extracted[1].entities}  # no flight cue in that sentence
    shared = shared_identifiers(batch, extracted)
    assert {e.key: e.type for e in shared[1].entities}["tp 1351"] == "identifier"
    assert shared[2] == extracted[2] and shared[0] == extracted[0]
