"""Month and weekday names: the one table of each, and how a month's name is read.

The extractor's date finders (``extraction/patterns.py``), the question's time reader
(``routing/when.py``), the packer's relative days (``context/when.py``) and its date words
(``context/sentences.py``) all read these.
"""

from __future__ import annotations

__all__ = [
    "MONTHS", "MONTH_ABBREVIATIONS", "MONTH_NAMES", "MONTH_WORDS", "WEEKDAYS", "WEEKDAY_NAMES", "month_number",
]  # fmt: skip

MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
MONTH_ABBREVIATIONS = tuple(name[:3] for name in MONTH_NAMES)
"""``Jan`` ... ``Dec``: how a context writes a month (``20 May 2023``)."""
MONTHS: dict[str, int] = {
    name: i + 1
    for i, names in enumerate(
        [
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sep sept",
            "october oct",
            "november nov",
            "december dec",
        ]
    )
    for name in names.split()
}
"""Every lower-case name of a month, full or short, to its number (1-12)."""
MONTH_WORDS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
"""A regular expression alternation of the keys of ``MONTHS`` in lower case, the longest
spelling first; a pattern reads it case-blind (``(?i:...)``)."""
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEKDAYS: dict[str, int] = {
    name: i
    for i, names in enumerate(
        [
            "monday mon",
            "tuesday tue tues",
            "wednesday wed",
            "thursday thu thur thurs",
            "friday fri",
            "saturday sat",
            "sunday sun",
        ]
    )
    for name in names.split()
}
"""Every lower-case name of a weekday, full or short, to its number (Monday 0 ... Sunday 6,
as ``date.weekday``)."""


def month_number(name: str) -> int:
    """The number of a month named in any case, with or without a full stop (``"Sept."`` → 9).

    Raises:
        KeyError: ``name`` names no month.
    """
    return MONTHS[name.casefold().rstrip(".")]
