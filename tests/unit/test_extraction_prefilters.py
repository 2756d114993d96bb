"""The extractor's shortcuts stay exact: prefilters, the bounded _opens search, the key index."""

from __future__ import annotations

from falkmem.extraction import KnownEntities, patterns
from falkmem.extraction.lexicon import ROLE_HEADS
from falkmem.extraction.names import _OPENER, _opens
from falkmem.extraction.patterns import find_patterns, find_roles
from falkmem.text.dates import MONTH_WORDS


def test_case_insensitive_words_are_written_in_lower_case() -> None:
    # a prefilter searches these case-sensitively in the folded (lower-cased) sentence
    for words in (
        ROLE_HEADS,
        MONTH_WORDS,
        patterns._AM_PM,
        patterns._CURRENCY_NAMES,
        patterns._FLIGHT_CUES,
        patterns._ORDER_CUES,
        patterns._CODE_CUES,
    ):
        assert words == words.lower()


def test_folding_finds_what_ignorecase_matches() -> None:
    # İ, ı, ſ and the Kelvin sign match ASCII letters under IGNORECASE
    assert [s.name for s in find_roles("She became the preſident.")] == ["preſident"]
    assert [s.name for s in find_roles("He is the DİRECTOR.")] == ["DİRECTOR"]
    assert [s.key for s in find_patterns("Flight UA 837 leaves at 7 PM on Jan 5, 2026")] == [
        "2026 01 05",
        "19 00",
        "ua 837",
    ]


def test_opens_matches_the_unbounded_search() -> None:
    for sentence in (
        "1. Seven days",
        "Note: Sounds great",
        'He said "Hello" and (Maybe) 12) Yes',
        "_ x 1234. Y",
    ):
        for start in range(len(sentence) + 1):
            assert _opens(sentence, start) == (_OPENER.search(sentence, 0, start) is not None)


def test_find_after_discarding_the_only_key_of_a_length() -> None:
    k = KnownEntities([("atlas team", "Atlas team"), ("atlas", "Atlas")])
    k.discard("atlas team")
    assert [(m.key, m.char_start, m.char_end) for m in k.find("the Atlas team")] == [("atlas", 4, 9)]
    k.add("atlas team alpha", "Atlas Team Alpha")
    assert [m.key for m in k.find("Atlas team alpha and atlas")] == ["atlas team alpha", "atlas"]
