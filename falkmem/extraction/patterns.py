"""Regex finders for identifiers, emails, dates, times, amounts and role titles in a sentence."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..text.dates import MONTH_NAMES, MONTH_WORDS, month_number
from ..text.keys import canonical_key
from .lexicon import ROLE_ACRONYMS, ROLE_FUNCTIONS, ROLE_HEADS, ROLE_MODIFIERS, words
from .vocab import EntityType

__all__ = ["RANK_NAME", "RANK_PATTERN", "RANK_ROLE", "Span", "find_patterns", "find_roles"]

RANK_PATTERN = 0  # identifiers, emails, dates, times, amounts: win every overlap
RANK_ROLE = 1
RANK_NAME = 2  # capitalised, quoted and known names: the longest wins


@dataclass(frozen=True, slots=True)
class Span:
    """A candidate entity mention: a character span of a sentence and what it names."""

    start: int
    end: int
    name: str
    key: str
    type: EntityType
    rank: int
    soft: bool = False  # the type is a guess a relation may correct ("to Marcus" → place)


def _span(m: re.Match[str], group: int | str, key_source: str, etype: EntityType) -> Span:
    return Span(m.start(group), m.end(group), m.group(group), canonical_key(key_source), etype, RANK_PATTERN)


# The finders' case-blind words, in lower case: a finder reads them through (?i:...), its
# prefilter (below) case-sensitively in _folded(text).
_AM_PM = r"[ap]\.?m\.?"
_CURRENCY_CODES = "USD|EUR|GBP|JPY|INR|CHF|CAD|AUD"  # upper case only
_CURRENCY_NAMES = "dollars?|euros?|pounds?|yen|rupees?"
_FLIGHT_CUES = "flights?|flt"
_ORDER_CUES = "orders?|tickets?|invoices?|case|booking|reservation|receipt|tracking|account|po"
_CODE_CUES = "code|confirmation|pnr|locator|voucher|coupon|promo|reference|ref"
_MONTH = rf"(?i:{MONTH_WORDS})"
_ORD = r"(?:st|nd|rd|th)?"
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?\b")
_MONTH_DAY = re.compile(rf"\b(?P<mon>{_MONTH})\.?\s+(?P<day>\d{{1,2}}){_ORD}\b(?:,?\s+(?P<year>\d{{4}})\b)?")
_DAY_MONTH = re.compile(
    rf"\b(?P<day>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<mon>{_MONTH})\b\.?(?:,?\s+(?P<year>\d{{4}})\b)?"
)
_MONTH_YEAR = re.compile(rf"\b(?P<mon>{_MONTH})\.?\s+(?P<year>(?:19|20)\d{{2}})\b")
_MONTH_ALONE = re.compile(
    r"\b(?i:in|since|until|till|by|from|during|before|after|through|early|late|mid|of)\s+"
    r"(?P<mon>" + "|".join(MONTH_NAMES) + r")\b"
)
_SLASH_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})\b")
_TIME = re.compile(rf"\b(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?::[0-5]\d)?(?:\s?(?P<ap>(?i:{_AM_PM}))(?!\w))?")
_TIME_AMPM = re.compile(rf"\b(?P<h>1[0-2]|0?[1-9])\s?(?P<ap>(?i:{_AM_PM}))(?!\w)")
_NUM = r"\d[\d,]*(?:\.\d+)?"
_MULT = r"(?i:k|m|mm|bn|million|billion|thousand)"
_CURRENCY_SYMBOLS = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "₹": "inr"}
_AMOUNT_SYMBOL = re.compile(rf"(?P<cur>[$€£¥₹])\s?(?P<num>{_NUM})(?:\s?(?P<mult>{_MULT})\b)?")
_CURRENCY_WORDS = {
    "usd": "usd", "dollar": "usd", "dollars": "usd", "eur": "eur", "euro": "eur",
    "euros": "eur", "gbp": "gbp", "pound": "gbp", "pounds": "gbp", "jpy": "jpy", "yen": "jpy",
    "inr": "inr", "rupee": "inr", "rupees": "inr", "chf": "chf", "cad": "cad", "aud": "aud",
}  # fmt: skip
_AMOUNT_CODE = re.compile(
    rf"\b(?P<num>{_NUM})\s?(?:(?P<mult>{_MULT})\s?)?"
    rf"(?P<cur>{_CURRENCY_CODES}|(?i:{_CURRENCY_NAMES}))\b"
)
_MULTS = {"thousand": "k", "million": "m", "mm": "m", "billion": "bn"}
_FLIGHT = re.compile(
    rf"\b(?i:{_FLIGHT_CUES})\s*(?:(?i:no\.?|number)\s*)?#?\s*"
    r"(?P<id>(?P<al>[A-Z][A-Z0-9]|[0-9][A-Z])\s?(?P<num>\d{1,4}))\b"
)
# In a sentence that speaks of a flight, a designator and number anywhere ("Booked my flight to
# Lisbon: TP 1351"); two to four digits, so "LA 2 weeks" is not a flight.
_FLIGHT_LOOSE = re.compile(r"(?<![\w-])(?P<id>(?P<al>[A-Z][A-Z0-9]|[0-9][A-Z]) ?(?P<num>\d{2,4}))\b")
_FLIGHT_TIGHT = re.compile(r"\b(?P<id>(?P<al>[A-Z]{2})(?P<num>\d{2,4}))\b")
_ORDER = re.compile(
    rf"\b(?i:{_ORDER_CUES})"
    r"\s*(?:(?i:no\.?|number|num|id)\s*)?(?:#|:)?\s*(?P<id>[A-Za-z0-9-]*\d[A-Za-z0-9-]*)\b"
)
_HASH_ID = re.compile(r"(?<![\w&])#(?P<id>[A-Za-z0-9][A-Za-z0-9-]*\d[A-Za-z0-9-]*)\b")
_CODE_CUE = re.compile(
    rf"\b(?i:{_CODE_CUES})\b"
    r"(?:\W+(?i:code|number|no|is|was|id))*\W+(?P<id>[A-Z0-9]{4,10})\b"
)
_CODE = re.compile(r"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,10}\b")
_DASH_ID = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{1,7}\b")

# Prefilters: cheap necessary conditions of a finder's regex, which skip it on most sentences.
_DIGIT = re.compile(r"\d")
_MONTH_NAME = re.compile("|".join(MONTH_NAMES))  # _MONTH_ALONE's month, case-sensitive
# In _folded(text):
_MONTH_WORD = re.compile(MONTH_WORDS)  # _MONTH_DAY, _DAY_MONTH, _MONTH_YEAR
_AM_PM_WORD = re.compile(_AM_PM)  # _TIME_AMPM
_CURRENCY_WORD = re.compile(f"{_CURRENCY_CODES.lower()}|{_CURRENCY_NAMES}")  # _AMOUNT_CODE
_FLIGHT_CUE = re.compile(_FLIGHT_CUES)
_ORDER_CUE = re.compile(_ORDER_CUES)
_CODE_CUE_WORD = re.compile(_CODE_CUES)
# The non-ASCII characters an IGNORECASE regex matches to an ASCII letter (İ, ı, ſ, the Kelvin sign).
_RE_CASE_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def _folded(text: str) -> str:
    """The text lower-cased, one character for one, where an ``(?i:...)`` group's lower-case ASCII
    alternation matches case-sensitively."""
    return text.lower() if text.isascii() else text.translate(_RE_CASE_FOLD).lower()


def _date_key(mon: str, day: str, year: str | None) -> str | None:
    month = month_number(mon)
    if not 1 <= int(day) <= 31:
        return None
    return f"{year}-{month:02d}-{int(day):02d}" if year else f"{MONTH_NAMES[month - 1]} {int(day)}"


def _time_key(h: str, m: str, ap: str | None) -> str:
    hour = int(h)
    if ap:
        pm = ap.casefold().startswith("p")
        hour = hour % 12 + (12 if pm else 0)
    return f"{hour:02d}:{m}"


def _time_span(m: re.Match[str], key: str) -> Span:
    name = m.group()
    if name.endswith(".") and name.count(".") == 1:  # "11:40 am." ends the sentence
        name = name[:-1]
    return Span(m.start(), m.start() + len(name), name, canonical_key(key), "date", RANK_PATTERN)


def _amount_key(num: str, mult: str | None, currency: str) -> str:
    value = num.replace(",", "")
    suffix = _MULTS.get(mult.casefold(), mult.casefold()) if mult else ""
    return f"{currency} {value}{suffix}"


def find_patterns(text: str) -> Iterator[Span]:
    """Every identifier-like span of a sentence, overlapping or not, keyed so that spellings meet:
    dates ``2026-03-03`` (or ``March 3``), times ``13:05``, amounts ``usd 1200``, flights ``UA 837``."""
    digits = _DIGIT.search(text) is not None
    low = _folded(text)
    if "@" in text:
        for m in _EMAIL.finditer(text):
            yield _span(m, 0, m.group().casefold(), "email")
    if digits and "-" in text:
        for m in _ISO_DATE.finditer(text):
            if 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31:
                yield _span(m, 0, f"{m.group(1)}-{m.group(2)}-{m.group(3)}", "date")
    if digits and _MONTH_WORD.search(low) is not None:
        for regex in (_MONTH_DAY, _DAY_MONTH):
            for m in regex.finditer(text):
                key = _date_key(m.group("mon"), m.group("day"), m.group("year"))
                if key is not None:
                    yield _span(m, 0, key, "date")
        for m in _MONTH_YEAR.finditer(text):
            yield _span(m, 0, f"{m.group('year')}-{month_number(m.group('mon')):02d}", "date")
    if _MONTH_NAME.search(text) is not None:
        for m in _MONTH_ALONE.finditer(text):
            yield _span(m, "mon", m.group("mon"), "date")
    if digits and "/" in text:
        for m in _SLASH_DATE.finditer(text):
            yield _span(m, 0, m.group(), "date")
    if digits and ":" in text:
        for m in _TIME.finditer(text):
            yield _time_span(m, _time_key(m.group("h"), m.group("m"), m.group("ap")))
    if digits and _AM_PM_WORD.search(low) is not None:
        for m in _TIME_AMPM.finditer(text):
            yield _time_span(m, _time_key(m.group("h"), "00", m.group("ap")))
    if digits and any(c in text for c in _CURRENCY_SYMBOLS):
        for m in _AMOUNT_SYMBOL.finditer(text):
            cur = _CURRENCY_SYMBOLS[m.group("cur")]
            yield _span(m, 0, _amount_key(m.group("num"), m.group("mult"), cur), "amount")
    if digits and _CURRENCY_WORD.search(low) is not None:
        for m in _AMOUNT_CODE.finditer(text):
            cur = _CURRENCY_WORDS[m.group("cur").casefold()]
            yield _span(m, 0, _amount_key(m.group("num"), m.group("mult"), cur), "amount")
    yield from _identifiers(text, low, digits)


def _identifiers(text: str, low: str, digits: bool) -> Iterator[Span]:
    cue = digits and _FLIGHT_CUE.search(low) is not None
    flights: set[tuple[int, int]] = set()
    for regex, possible in ((_FLIGHT, cue), (_FLIGHT_LOOSE, cue), (_FLIGHT_TIGHT, digits)):
        if possible:
            for m in regex.finditer(text):
                if m.span("id") in flights:  # found already by a stricter form
                    continue
                flights.add(m.span("id"))
                name = f"{m.group('al')} {int(m.group('num'))}"
                yield Span(m.start("id"), m.end("id"), name, canonical_key(name), "identifier", RANK_PATTERN)
    for regex, possible in (
        (_ORDER, digits and _ORDER_CUE.search(low) is not None),
        (_HASH_ID, digits and "#" in text),
        (_CODE_CUE, _CODE_CUE_WORD.search(low) is not None),
    ):
        if possible:
            for m in regex.finditer(text):
                if len(m.group("id").strip("-")) >= 3:
                    yield _span(m, "id", m.group("id"), "identifier")
    for regex, possible in ((_CODE, digits), (_DASH_ID, digits and "-" in text)):
        if possible:
            for m in regex.finditer(text):
                yield _span(m, 0, m.group(), "identifier")


_ROLE = re.compile(
    rf"(?P<role>(?:(?:{ROLE_MODIFIERS}|[A-Z][a-z]+|[A-Z]{{2,}})\s+){{0,3}}"
    rf"(?:(?:{ROLE_ACRONYMS})\b|(?i:{ROLE_HEADS})\b)"
    rf"(?:\s+(?:of|for)\s+(?:the\s+)?(?i:{ROLE_FUNCTIONS})\b)?)"
)
_ROLE_CUE = re.compile(
    r"(?:\b(?:is|was|are|were|as|became|becomes|become|named|appointed|to|hired)|,)\s+"
    r"(?:(?:the|a|an|our|their|his|her|new|now|interim|acting)\s+)*$"
)
_TRAILING_OF = re.compile(r"\s+(?:of|for)\b")
# Necessary for a _ROLE match: an acronym, or a head word in _folded(text).
_ROLE_ACRONYM = re.compile(ROLE_ACRONYMS)
_ROLE_HEAD = re.compile(ROLE_HEADS)
_RELATIONAL_HEADS = words("head lead leader manager chair chairman chairwoman")


def find_roles(text: str) -> Iterator[Span]:
    """Yield role titles (``VP of Engineering``, ``tech lead``) that follow a copula-like cue ("is
    the", "as", ", ") or start with a capital. A bare relational head before ``of`` and no
    functional area ("head of the Atlas team") is no role: the predicate says "leads"."""
    if _ROLE_ACRONYM.search(text) is None and _ROLE_HEAD.search(_folded(text)) is None:
        return
    for m in _ROLE.finditer(text):
        start, end = m.span("role")
        words = m.group("role").split()
        while len(words) > 1 and words[0].casefold() in {"the", "a", "an"}:
            start = text.index(words[1], start)
            words = words[1:]
        if _TRAILING_OF.match(text, end) and len(words) == 1 and (words[0].casefold() in _RELATIONAL_HEADS):
            continue  # "the head of the Atlas team": the predicate says "leads"
        cued = _ROLE_CUE.search(text, 0, start) is not None
        if not cued and not text[start].isupper():
            continue
        name = text[start:end]
        yield Span(start, end, name, canonical_key(name), "role", RANK_ROLE)
