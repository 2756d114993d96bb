"""Who a chat's speakers call each other: the name one speaker addresses the other by.

People in real chats are stored under one label and called by another: REALTALK's first chat
labels a speaker "Emi" while her friend writes "Thanks for the advice Kate." and "Hey Kate!"
fifty-six times, and 35 of its 70 questions ask about "Kate". The speaker leaning
(``ranking/leanings.py``) leans toward the turns of the speaker a question names, so it must
know that Kate is Emi. That is read from the search's own candidates, with no stored state: a
name of the question that is no candidate's speaker is the other speaker's name when

* one speaker addresses someone by it in at least ``least`` of the candidate turns (a greeting
  before it, "Hey Kate", "Thanks, Kate"; or it closes a sentence: "Thanks for the advice
  Kate.", "Do you enjoy going to the spa Kate?"),
* no other speaker addresses anyone by it, and the other speaker never writes it at all
  (nobody calls themselves by name: "Have you been to Miami?" is not a vocative when the other
  speaker tells of Miami too),
* and the candidates' turns are those of exactly two named speakers (a group chat leaves the
  addressee open).

A question that names Kate usually matches the turns that say "Kate" on its words, so the
turns that address her are among the candidates.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

__all__ = ["addressed", "is_vocative"]

_GREETINGS = (
    r"hey|hi|hello|hiya|heya|howdy|thanks|thank you|thx|bye|goodbye|congrats|congratulations|good morning"
    r"|morning|good night|goodnight|night|dear|oh|wow|yes|yeah|yep|no|nope|ok|okay|sorry|haha|aww|omg|well"
)
_LEAST = 2
"""Turns that must address someone by the name."""


@lru_cache(maxsize=1024)
def _vocative(name: str) -> re.Pattern[str]:
    n = re.escape(name)
    return re.compile(
        rf"\b(?:{_GREETINGS})[ \t]*,?[ \t]+{n}\b"  # "Hey Kate", "Thanks, Kate"
        rf"|(?:^|[.!?][ \t]+){n}[ \t]*,"  # "Kate, did you ..."
        rf"|,[ \t]*{n}[ \t]*(?:[.!?,]|$)"  # "..., Kate." / "..., Kate"
        rf"|[ \t]{n}[ \t]*[.!?]",  # "... the advice Kate.", "... experience Kate?"
        re.IGNORECASE,
    )


def is_vocative(text: str, name: str) -> bool:
    """Whether ``text`` addresses someone by ``name`` (a lower-case token).

    Example:
        >>> is_vocative("Thanks for the advice Kate. It helps.", "kate")
        True
        >>> is_vocative("Kate told me about the spa.", "kate")
        False
    """
    return _vocative(name).search(text) is not None


def addressed(names: Sequence[str], turns: Iterable[tuple[str, str]], *, least: int = _LEAST) -> dict[str, str]:
    """The names of ``names`` that one speaker calls the other, each with the speaker it names.

    Args:
        names: lower-case name tokens of a question that name no speaker.
        turns: ``(speaker key, text)`` of the candidate turns whose speaker is a person.
        least: turns that must address someone by a name.

    Returns:
        ``{name: speaker key}``.

    Example:
        >>> turns = [("elise", "Hey Kate! How are you?"), ("elise", "Thanks Kate."),
        ...          ("emi", "I went to the spa today.")]
        >>> addressed(["kate"], turns)
        {'kate': 'emi'}
    """
    said = [(speaker, text, text.casefold()) for speaker, text in turns]
    speakers = {speaker for speaker, _, _ in said}
    if len(speakers) != 2 or not names:
        return {}
    out: dict[str, str] = {}
    for name in names:
        calls: Counter[str] = Counter()
        writes: Counter[str] = Counter()
        for speaker, text, folded in said:
            if name in folded:
                writes[speaker] += 1
                if is_vocative(text, name):
                    calls[speaker] += 1
        if len(calls) != 1:
            continue
        [(caller, n)] = calls.items()
        [other] = speakers - {caller}
        if n >= least and not writes[other]:
            out[name] = other
    return out
