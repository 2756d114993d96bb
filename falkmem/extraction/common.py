"""Is a capitalised word only capitalised because it opens a sentence? (common English words)

A word that opens a sentence, a list item or a clause after a colon is capitalised whatever it
is ("Sounds great!"); it is taken for a name there only when it is not a common English word:
one of the closed classes below (question words, interjections, number words...) or one whose
Zipf frequency (wordfreq's English list) is at least ``COMMON_ZIPF``, about once in 30,000
words. A common name ("Chicago") is still found where the text capitalises it mid-sentence or
where the tenant already knows it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wordfreq import zipf_frequency

__all__ = ["COMMON_ZIPF", "is_common_word"]

COMMON_ZIPF = 4.5
"""Zipf frequency at and above which an ambiguous capitalised word is a common word."""

_CLOSED = frozenset(
    """
    what how why when where which who whom whose whatever however whenever wherever whoever
    wow oh ooh ah aha hmm hm huh uh um yay yep yup nah ugh oops hooray bravo cheers alas
    awesome amazing cool nice great sounds sound absolutely definitely totally exactly
    congrats congratulations welcome sorry thanks thank okay ok alright
    zero one two three four five six seven eight nine ten eleven twelve twenty hundred thousand
    first second third fourth fifth last next
    """.split()  # noqa: SIM905 - a word block is easier to review
)


@lru_cache(maxsize=65_536)
def is_common_word(word: str) -> bool:
    """True when ``word`` (any case) is a common English word, not likely a name on its own.

    Args:
        word: one word, e.g. "Sounds".

    Returns:
        True for closed-class words and words with Zipf frequency >= 4.5.
    """
    low = re.split(r"['\u2019]", word.strip("'\u2019."), maxsplit=1)[0].casefold()  # "It's" -> "it"
    if not low.isalpha():
        return False
    if low in _CLOSED:
        return True
    return zipf_frequency(low, "en") >= COMMON_ZIPF
