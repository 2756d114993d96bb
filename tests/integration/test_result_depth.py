"""A shorter result list is the head of a longer one: the ranking does not depend on ``k`` (up to 10)."""

from __future__ import annotations

from falkmem import Tenant

# Turns of one chat about pets: questions that only ask (the "memories that only ask sink"
# leaning reads a memory's text) among a few that state something. Before the fix, a channel
# returned the text of its first 2 × k candidates only, so with k = 3 a question ranked 7th by a
# channel escaped the leaning that k = 10 applied to it, and the first three hits changed.
TURNS = [
    "What kind of animals do you like?",
    "Do you like dogs or cats more?",
    "Which pets did you have as a child?",
    "Have you ever owned a parrot?",
    "What is your favourite animal at the zoo?",
    "Would you adopt a rescue dog?",
    "Do you like horses?",
    "Are you afraid of snakes?",
    "What animal would you be?",
    "Did you ever keep fish?",
    "I like cats; we had two when I was a child.",
    "My sister keeps a parrot called Kiwi.",
    "We adopted a rescue dog last spring.",
    "Horses scare me a little, but I like them.",
]
QUESTIONS = [
    "Which animals do you like?",
    "Did you have pets as a child?",
    "Do you like dogs?",
    "Who keeps a parrot?",
    "Have you adopted a dog?",
]


def test_the_first_hits_do_not_depend_on_k(tenant: Tenant) -> None:
    tenant.add_many(
        [{"id": f"t{i}", "text": t, "session": "pets", "speaker": "user" if i % 2 else "assistant"}
         for i, t in enumerate(TURNS)]
    )  # fmt: skip
    for q in QUESTIONS:
        longest = tenant.search(q, k=10).ids
        for k in (1, 3, 5):
            assert tenant.search(q, k=k).ids == longest[:k], (q, k)


def test_the_first_hits_do_not_depend_on_k_under_a_filter(tenant: Tenant) -> None:
    # Under a filter the vector channel asks for the hits that pass, not for a fixed depth; the
    # weakest of them is what a keyword-only candidate counts with, so k = 3 once asked for 3.
    tenant.add_many(
        [{"id": f"t{i}", "text": t, "session": "pets" if i % 3 else "zoo", "speaker": "user" if i % 2 else "assistant"}
         for i, t in enumerate(TURNS)]
    )  # fmt: skip
    for q in QUESTIONS:
        longest = tenant.search(q, k=10, session="pets").ids
        for k in (1, 3, 5):
            assert tenant.search(q, k=k, session="pets").ids == longest[:k], (q, k)
