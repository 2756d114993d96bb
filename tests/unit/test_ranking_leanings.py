"""ranking/leanings.py: what a question leans on, added to the fused scores (pure logic)."""

from __future__ import annotations

import pytest

from falkmem.config import LeanConfig
from falkmem.ranking.fusion import Fused
from falkmem.ranking.leanings import (
    DAY,
    QuestionLeanings,
    asks_only,
    lean,
    name_tokens,
    said_form,
    speaker_keys,
    speaks_of_self,
)
from falkmem.retrieval.pipeline import ROLES

W = LeanConfig()


def fused(*pairs: tuple[str, float]) -> list[Fused]:
    return [Fused(i, s, {"vector": n + 1}) for n, (i, s) in enumerate(pairs)]


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Paola: What kind of animals do you like?", True),
        ("Hey Kevin! How was the game?", True),
        ("What do you think? Any plans for the weekend?", True),
        ("I adopted a cat last week. Do you have pets?", False),
        ("We chose Postgres.", False),
        ("Fahim Khan: ok", False),
        ("", False),
    ],
)
def test_asks_only(text: str, asks: bool) -> None:
    assert asks_only(text) is asks


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("Kevin: I've been playing football for years", True),
        ("Paola: My brother usually helps me.", True),
        ("Akib: We try to get together for football regularly", True),
        ("Nebraas: Let\u2019s meet at the library", True),
        ("Elise: That sounds incredible Kevin! Your passion is fascinating.", False),
        ("Emi: Wow skiing looks like so much fun", False),
        ("Imogen: Ice cream in Italy is the best", False),  # "I" only inside words
        ("", False),
    ],
)
def test_speaks_of_self(text: str, told: bool) -> None:
    assert speaks_of_self(text) is told


def test_a_turn_that_says_nothing_of_its_speaker_leans_down() -> None:
    """Between people only: a user's or an assistant's turn, a memory without a speaker and a
    fact (impersonal by nature) stay."""
    rows = {
        "wow": {"text": "Elise: Wow skiing looks like so much fun", "speaker": "Elise"},
        "ski": {"text": "Kate: I've been skiing for about 10 years now", "speaker": "Kate"},
        "bot": {"text": "assistant: Here are three ski resorts near Denver.", "speaker": "assistant"},
        "usr": {"text": "Fissionator is a really cool one", "speaker": "user"},
        "doc": {"text": "Aspen is a ski resort in Colorado."},
        "fact": {"text": "Dana: Booked flight UA 837 to Tokyo.", "speaker": "Dana", "kind": "fact"},
    }
    w = LeanConfig(impersonal=0.1)
    order = (("wow", 0.50), ("ski", 0.45), ("bot", 0.44), ("usr", 0.435), ("doc", 0.43), ("fact", 0.42))
    out = lean(fused(*order), rows, QuestionLeanings(), w, roles=ROLES)
    assert [f.id for f in out] == ["ski", "bot", "usr", "doc", "fact", "wow"]
    assert out[-1].score == pytest.approx(0.50 - 0.1)
    assert lean(fused(*order), rows, QuestionLeanings(), LeanConfig(impersonal=0.0), roles=ROLES) == fused(
        *order
    )


def test_speaker_keys() -> None:
    assert speaker_keys("Fahim Khan") == ("fahim khan", "fahim")
    assert speaker_keys("Paola") == ("paola",) and speaker_keys(None) == () and speaker_keys("  ") == ()


def test_the_named_speakers_turns_lean_up() -> None:
    rows = {"a": {"speaker": "Kevin"}, "b": {"speaker": "Fahim Khan"}}
    out = lean(fused(("a", 0.50), ("b", 0.48)), rows, QuestionLeanings(speakers=frozenset({"fahim"})), W)
    assert [f.id for f in out] == ["b", "a"] and out[0].score == pytest.approx(0.48 + W.speaker)


def test_a_speaker_named_by_first_name_only_leans_up() -> None:
    """The speaker is "Fahim Khan"; no stored entity is "fahim", the question writes "Fahim"."""
    rows = {"a": {"speaker": "Akib"}, "b": {"speaker": "Fahim Khan"}, "u": {"speaker": "user"}}
    q = QuestionLeanings(speakers=frozenset({"akib"}), said=said_form("Do Fahim and Akib both like to cook?"))
    out = lean(fused(("u", 0.5), ("a", 0.49), ("b", 0.48)), rows, q, W, roles=ROLES)
    assert [f.id for f in out] == ["a", "b", "u"] and out[1].score == pytest.approx(0.48 + W.speaker)
    only_akib = lean(fused(("a", 0.49), ("b", 0.48)), rows, QuestionLeanings(speakers=frozenset({"akib"})), W)
    assert only_akib[1].score == pytest.approx(0.48)  # without `said` only the entity keys count
    # a role word is the role leaning's: "what did the user say" does not lean to the user's turns here
    asked = lean(fused(("a", 0.5), ("u", 0.49)), rows, QuestionLeanings(said=said_form("What did the user say?")), W,
                 roles=ROLES)  # fmt: skip
    assert [f.id for f in asked] == ["a", "u"]
    assert said_form("Fahim's hobbies?") == " fahim hobbies " and said_form("?!") == ""


def test_a_speaker_named_with_another_spelling_leans_up() -> None:
    """REALTALK writes "Muhammad", "Mohammed" and "Faheem" for the speakers Muhhamed and Fahim Khan."""
    rows = {"m": {"speaker": "Muhhamed"}, "f": {"speaker": "Fahim Khan"}, "e": {"speaker": "Elise"}}

    def leaned(question: str) -> set[str]:
        q = QuestionLeanings(said=said_form(question), names=name_tokens(question))
        out = lean(fused(("m", 0.5), ("f", 0.5), ("e", 0.5)), rows, q, W)
        return {f.id for f in out if f.score > 0.5}

    assert leaned("How do Faheem and Mohammed use technology to learn?") == {"m", "f"}
    assert leaned("When did Muhammad cancel plans with friends due to illness?") == {"m"}
    assert leaned("What elite school did they visit?") == set()  # lower case: not a name
    assert leaned("What did Elite Academy teach?") == set()  # one consonant apart from "Elise"
    assert leaned("What did Nicholas cook?") == set()  # no speaker of that spelling here
    assert leaned("What did Mo say?") == set()  # a short name is matched exactly only


def test_the_askers_role() -> None:
    rows = {"a": {"speaker": "assistant"}, "u": {"speaker": "User"}}
    out = lean(fused(("a", 0.55), ("u", 0.50)), rows, QuestionLeanings(role="user"), W, roles=ROLES)
    assert [f.id for f in out] == ["u", "a"]
    same = lean(fused(("a", 0.55), ("u", 0.50)), rows, QuestionLeanings(role="user"), W)  # no role table
    assert [f.id for f in same] == ["a", "u"]


def test_a_memory_that_only_asks_leans_down_whole_rows_only() -> None:
    rows = {
        "q": {"text": "What do you like to cook?"},
        "s": {"text": "I cook lasagna."},
        "thin": {"speaker": "x"},
    }
    out = lean(fused(("q", 0.6), ("s", 0.5), ("thin", 0.45)), rows, QuestionLeanings(), W)
    assert [f.id for f in out] == ["s", "thin", "q"]
    flagged = lean(fused(("q", 0.6), ("s", 0.5)), {"q": {"asks": True}}, QuestionLeanings(), W)
    assert [f.id for f in flagged] == ["s", "q"]


def test_time_windows_explicit_count_more() -> None:
    rows = {"in": {"valid_at": 10 * DAY}, "out": {"valid_at": 40 * DAY}}
    window = (9 * DAY, 12 * DAY)
    relative = lean(fused(("out", 0.6), ("in", 0.55)), rows, QuestionLeanings(window=window), W)
    explicit = lean(
        fused(("out", 0.9), ("in", 0.55)), rows, QuestionLeanings(window=window, explicit=True), W
    )
    assert [f.id for f in relative] == ["in", "out"] and [f.id for f in explicit] == ["in", "out"]
    assert relative[0].score == pytest.approx(0.55 + W.time) and explicit[0].score == pytest.approx(
        0.55 + W.time_explicit
    )


def test_order_needs_times_a_day_apart() -> None:
    apart = {"old": {"valid_at": 0.0}, "new": {"valid_at": 300 * DAY}}
    latest = lean(fused(("old", 0.6), ("new", 0.55)), apart, QuestionLeanings(order="latest"), W)
    earliest = lean(fused(("new", 0.6), ("old", 0.55)), apart, QuestionLeanings(order="earliest"), W)
    assert latest[0].id == "new" and earliest[0].id == "old"
    one_sitting = {"old": {"valid_at": 0.0}, "new": {"valid_at": 30.0}}  # written in one batch
    same = lean(fused(("old", 0.6), ("new", 0.55)), one_sitting, QuestionLeanings(order="latest"), W)
    assert [(f.id, f.score) for f in same] == [("old", 0.6), ("new", 0.55)]


def test_zero_weights_change_nothing() -> None:
    rows = {"a": {"speaker": "Kevin", "text": "What?", "valid_at": DAY}}
    off = LeanConfig(speaker=0, role=0, asks=0, impersonal=0, time=0, time_explicit=0, order=0)
    q = QuestionLeanings(
        speakers=frozenset({"kevin"}), role="user", window=(0.0, 2 * DAY), explicit=True, order="latest"
    )
    assert lean(fused(("a", 0.5)), rows, q, off) == fused(("a", 0.5))


def test_the_trace_says_what_each_leaning_gave() -> None:
    rows = {
        "wow": {"text": "Elise: Wow skiing looks like so much fun", "speaker": "Elise", "valid_at": 10 * DAY},
        "ski": {"text": "Kate: I've been skiing for ten years", "speaker": "Kate", "valid_at": 40 * DAY},
    }
    q = QuestionLeanings(speakers=frozenset({"kate"}), window=(9 * DAY, 12 * DAY))
    trace: dict[str, dict[str, float]] = {}
    out = lean(fused(("wow", 0.5), ("ski", 0.45)), rows, q, W, roles=ROLES, trace=trace)
    assert trace == {"wow": {"impersonal": -W.impersonal, "time": W.time}, "ski": {"speaker": W.speaker}}
    scores = dict((f.id, f.score) for f in out)
    assert scores["wow"] == pytest.approx(0.5 + sum(trace["wow"].values()))
    assert scores["ski"] == pytest.approx(0.45 + W.speaker)
