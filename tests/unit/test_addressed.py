"""What a chat's speakers call each other (``ranking/addressed.py``): pure logic, no store."""

from __future__ import annotations

import pytest

from falkmem.ranking.addressed import addressed, is_vocative


@pytest.mark.parametrize(
    "text",
    [
        "Hey Kate! How are you?",
        "Thanks, Kate.",
        "Thanks for the advice Kate. It's always great getting new perspectives.",
        "Do you enjoy going to the spa Kate?",
        "Kate, did you sign up for the class?",
        "That sounds lovely, kate",
    ],
)
def test_a_name_that_addresses_someone(text: str) -> None:
    assert is_vocative(text, "kate")


@pytest.mark.parametrize(
    "text",
    ["Kate told me about the spa.", "I met Kate's brother at the gym", "Katelyn is coming over."],
)
def test_a_name_told_of_is_no_vocative(text: str) -> None:
    assert not is_vocative(text, "kate")


def test_the_other_speaker_is_the_one_addressed() -> None:
    turns = [("elise", "Hey Kate!"), ("elise", "Thanks Kate."), ("emi", "I went to the spa.")]
    assert addressed(["kate"], turns) == {"kate": "emi"}


def test_one_turn_is_not_enough() -> None:
    assert addressed(["kate"], [("elise", "Hey Kate!"), ("emi", "Hi!")]) == {}


def test_a_name_the_addressed_one_writes_is_no_alias() -> None:
    turns = [("kevin", "Have you been to Miami?"), ("kevin", "I miss Miami!"), ("paola", "Miami was fun.")]
    assert addressed(["miami"], turns) == {}


def test_both_speakers_calling_it_out_is_no_alias() -> None:
    turns = [("a", "Hey Sam!"), ("a", "Thanks Sam."), ("b", "Hi Sam!"), ("b", "Bye Sam.")]
    assert addressed(["sam"], turns) == {}


def test_a_group_chat_leaves_the_addressee_open() -> None:
    turns = [("a", "Hey Kate!"), ("a", "Thanks Kate."), ("b", "Hello."), ("c", "Hi all.")]
    assert addressed(["kate"], turns) == {}


def test_a_word_that_only_closes_sentences_is_no_alias() -> None:
    turns = [("muhhamed", "I love Pachinko!"), ("muhhamed", "Have you played Pachinko?"), ("fahim", "Not yet.")]
    assert addressed(["pachinko"], turns) == {}
    turns.append(("muhhamed", "Hey Pachinko!"))  # once plainly addressed: a name after all
    assert addressed(["pachinko"], turns) == {"pachinko": "fahim"}
