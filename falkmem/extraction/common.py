"""Is a capitalised word only capitalised because it opens a sentence? (common English words)

A word at the start of a sentence, of a list item or after a colon is capitalised whatever it
is: "Sounds great!", "Creating art is fun", "1. **Seven** days". Such a word is taken for a
name only when it is not a common English word. Common = in the closed classes below
(question words, interjections, number words...) or a word frequency (Zipf scale, wordfreq's English list) of at least ``COMMON_ZIPF``. Zipf 4.5 is
about one occurrence in 30,000 words: "great" (5.9), "seven" (5.1), "sounds" (5.0),
"awesome" (4.9) and "creating" (4.7) are common; "Hillage" (0), "Melanie" (3.5) and
"Caroline" (4.0) are not. City and first names above it ("Chicago", 4.8) are still found
when the text also capitalises them mid-sentence, or when the tenant already knows them.
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
