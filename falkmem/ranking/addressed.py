"""Who a chat's speakers call each other: the name one speaker addresses the other by.

People in real chats are stored under one label and called by another: in one REALTALK chat a
speaker's friend addresses her by a name other than her label fifty-six times ("Hey Bex!",
"Thanks for the tip Bex." to the speaker "Dagny"), and 35 of its 70 questions ask about her by
that name. The speaker leaning (``ranking/leanings.py``) leans toward the turns of the speaker
a question names, so it must know that Bex is Dagny. That is read from the search's own candidates, with no stored state: a
name of the question that is no candidate's speaker is the other speaker's name when

* one speaker addresses someone by it in at least ``least`` of the candidate turns (a greeting
  before it, "Hey Bex", "Thanks, Bex"; or it closes a sentence: "Thanks for the tip Bex.",
  "Do you still go climbing Bex?"), once at least plainly (after a greeting or a comma: a word
  that only closes sentences, "I love Starhollow!", names a thing as often),
* no other speaker addresses anyone by it, and the other speaker never writes it at all
  (nobody calls themselves by name: "Have you been to Lisbon?" is not a vocative when the other
  speaker tells of Lisbon too),
* and the candidates' turns are those of exactly two named speakers (a group chat leaves the
  addressee open).

A question that names Bex usually matches the turns that say "Bex" on its words, so the
turns that address her are among the candidates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

__all__ = ["addressed", "is_vocative", "vocative"]

_GREETINGS = frozenset(
    """hey hi hello hiya heya howdy thanks thx bye goodbye congrats congratulations morning night
    goodnight dear oh wow yes yeah yep no nope ok okay sorry haha aww omg well""".split()  # noqa: SIM905 - a word block reads better
)
"""Words that, right before a name, address someone by it ("Hey Bex", "Thanks, Bex")."""
_LEAST = 2
"""Turns that must address someone by the name."""


def vocative(text: str, name: str) -> int:
    """How plainly ``text`` addresses someone by ``name`` (a lower-case token): 2 after a
    greeting or a comma ("Hey Bex", "Thanks, Bex", "..., Bex."), or before a comma that
    follows a sentence's start ("Bex, did you ..."); 1 where it only closes a sentence ("...
    the tip Bex.", "Bex?": also "I love Starhollow!"); 0 where it does not address anyone.

    Example:
        >>> vocative("Hey Bex!", "bex"), vocative("Thanks for the tip Bex.", "bex")
        (2, 1)
        >>> vocative("Bex told me about the climbing gym.", "bex")
        0
    """
    folded = text.casefold()
    best = 0
    at = folded.find(name)
    while at >= 0 and best < 2:
        end = at + len(name)
        if (at == 0 or not folded[at - 1].isalnum()) and (
            end == len(folded) or not (folded[end].isalnum() or folded[end] in "'’-")
        ):
            before = folded[:at].rstrip()
            after = folded[end:].lstrip()
            words = before.rstrip(",!").rsplit(None, 2)
            if words and (words[-1] in _GREETINGS or words[-2:] == ["thank", "you"]):
                best = 2  # "Hey Bex", "Thanks, Bex", "Thank you Bex"
            elif after[:1] == "," and (not before or before[-1] in ".!?"):
                best = 2  # "Bex, did you ..."
            elif before.endswith(",") and (not after or after[0] in ".!?,"):
                best = 2  # "..., Bex." / "..., Bex"
            elif not after or after[0] in ".!?":
                best = 1  # closes a sentence or the turn
        at = folded.find(name, at + 1)
    return best


def is_vocative(text: str, name: str) -> bool:
    """Whether ``text`` addresses someone by ``name`` (:func:`vocative` above 0).

    Example:
        >>> is_vocative("Do you still go climbing Bex?", "bex")
        True
    """
    return vocative(text, name) > 0


def addressed(names: Sequence[str], turns: Iterable[tuple[str, str]], *, least: int = _LEAST) -> dict[str, str]:
    """The names of ``names`` that one speaker calls the other, each with the speaker it names.

    Args:
        names: lower-case name tokens of a question that name no speaker.
        turns: ``(speaker key, text)`` of the candidate turns whose speaker is a person.
        least: turns that must address someone by a name.

    Returns:
        ``{name: speaker key}``.

    Example:
        >>> turns = [("tamsin", "Hey Bex! How are you?"), ("tamsin", "Thanks Bex."),
        ...          ("dagny", "I went climbing today.")]
        >>> addressed(["bex"], turns)
        {'bex': 'dagny'}
    """
    said = [(speaker, text, text.casefold()) for speaker, text in turns]
    speakers = {speaker for speaker, _, _ in said}
    if len(speakers) != 2 or not names:
        return {}
    out: dict[str, str] = {}
    for name in names:
        calls: Counter[str] = Counter()
        plain: Counter[str] = Counter()
        writes: Counter[str] = Counter()
        for speaker, text, folded in said:
            if name in folded:
                writes[speaker] += 1
                how = vocative(text, name)
                calls[speaker] += how > 0
                plain[speaker] += how > 1
        calls = +calls  # speakers who address someone by it
        if len(calls) != 1:
            continue
        [(caller, n)] = calls.items()
        [other] = speakers - {caller}
        if n >= least and plain[caller] and not writes[other]:
            out[name] = other
    return out
