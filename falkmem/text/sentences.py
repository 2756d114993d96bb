"""Sentence splitting and title lines: the one rule-based cutter of the extractor, ranking and the packer.

Rule-based (a regex with guards for abbreviations, initials and list numbers) because it runs
at write time on every memory and at query time on memories of any length.
"""

from __future__ import annotations

import re

__all__ = [
    "ABBREVIATIONS",
    "TITLE_MAX_CHARS",
    "TITLE_MAX_WORDS",
    "is_abbreviation",
    "split_sentences",
    "title_line",
]

ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof st inc ltd co corp jr sr vs etc e.g i.e cf approx dept est univ no nos fig
    vol vols al mt ft gen col lt sgt capt rev hon jan feb mar apr jun jul aug sep sept oct nov dec
    a.m p.m u.s u.k""".split()  # noqa: SIM905 - a word block is easier to review than quoted strings
)
"""Words that end in a full stop without ending the sentence (lower case, without the stop): the
one list of the splitter and of the known-entity sentence-opener check (extraction/known.py)."""

# The packer's sentence ends: . ! ? … (and the quotes or brackets they close) before spaces, or
# a line break. The extractor's clause ends: . ! ? (and the quotes or brackets they close)
# before any white space, a line break or a semicolon. Each match opens with the end mark or the
# break itself: a pattern that opens with one character class is scanned for it at C speed (one
# opening with a look-behind, or with optional spaces, is tried at every position: 3x slower on
# a 500-character passage).
_END = re.compile(r"[.!?…\n](?:(?<=\n)\s*|([\"'”’)\]]*)[ \t]+)")
_CLAUSE_END = re.compile(r"[.!?\n;](?:(?<=[\n;])\s*|[\"'”’)\]]*\s+)")
_CLAUSE_OPENS = "\"'“("
"""What may open a clause besides a capital or a digit."""
TITLE_MAX_CHARS = 100
"""A first line longer than this is not a title."""
TITLE_MAX_WORDS = 12
"""A first line of more words than this is not a title."""
_NON_SPACE = re.compile(r"\S")
_DOTTED = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]?")
"""An acronym written with full stops ("N.A.S.A", the last one left off)."""


def is_abbreviation(word: str) -> bool:
    """Whether a full stop after ``word`` (lower case, without the stop) ends an abbreviation
    ("Mr.", "etc.") or an initial ("J."), not a sentence."""
    return word in ABBREVIATIONS or (len(word) == 1 and word.isalpha())


def split_sentences(text: str, *, clauses: bool = False) -> list[str]:
    """The sentences of a text, in order, as they stand in it (white space inside kept).

    A sentence ends at a line break, and after ``.``, ``!``, ``?`` or ``…`` and the quotes and
    brackets they close, before spaces; not at a full stop that ends an abbreviation or an
    initial (``G. Stanley Hall``, ``U.S. Route``), the number of a list item opening the
    sentence (``1. Farm scoring: ...``) or that comes before a lower-case word (``approx.
    three``). What the packer cuts a memory into.

    With ``clauses``, the units the extractor reads entities and relations in: a semicolon ends
    one too, and ``.``, ``!`` or ``?`` end one only before a capital, a digit, a quote or a
    bracket (a title stays inside its clause: '... after "What Is God?" was published'), not
    after an abbreviation or an initial (its full stops stripped: ``Jr..``); the quotes and
    brackets after the mark stay outside it. An ellipsis and a list item's number are no end.
    The extractor's entities and triples were measured with these rules; the packer's are
    better for reading (the closing quote kept) and were measured with its own.

    Args:
        text: any text.
        clauses: cut into the extractor's clauses.

    Returns:
        The sentences, none of them only white space.

    Example:
        >>> split_sentences("Dr. Ana Lima met J. Smith. He left!\\nNext line; more")
        ['Dr. Ana Lima met J. Smith.', 'He left!', 'Next line; more']
        >>> split_sentences("Dr. Ana Lima met J. Smith. He left!\\nNext line; more", clauses=True)
        ['Dr. Ana Lima met J. Smith.', 'He left!', 'Next line', 'more']
    """
    out: list[str] = []
    start = 0
    for m in (_CLAUSE_END if clauses else _END).finditer(text):
        mark = m.start()
        if text[mark] in "\n;":
            end = mark
            while clauses and end > start and text[end - 1].isspace():
                end -= 1  # the white space before a break is no part of a clause
        elif clauses:
            end = mark + 1
            if "\n" not in m.group() and not _ends_clause(text, start, end, m.end()):
                continue
        else:
            end = m.end(1)  # the quotes and brackets the mark closes stay with the sentence
            if text[mark] == "." and not _ends_sentence(text, start, mark, m.end()):
                continue
        if end <= start:  # a break right after an end: a clause does not open with it
            if clauses:
                start = m.end()
            continue
        piece = text[start:end]
        if not piece.isspace():
            out.append(piece)
        start = m.end()
    if start < len(text) and not (piece := text[start:]).isspace():
        out.append(piece)
    return out


def _ends_sentence(text: str, start: int, dot: int, after: int) -> bool:
    """Whether the full stop at ``dot`` ends the sentence begun at ``start`` (the next would begin
    at ``after``)."""
    lo = max(text.rfind(" ", start, dot), text.rfind("\n", start, dot), start - 1) + 1
    word = text[lo:dot].lower()
    if is_abbreviation(word):
        return False
    if len(word) <= 2 and word.isdigit() and lo == start:
        return False  # a list item's number ("1. Farm scoring: ..."): not a sentence of its own
    return not text[after : after + 1].islower()  # "approx. three", "vs. them": no end


def _ends_clause(text: str, start: int, end: int, after: int) -> bool:
    """Whether the end mark before ``end`` ends the clause begun at ``start`` (the next would
    begin at ``after``, past white space without a line break)."""
    nxt = text[after : after + 1]
    if nxt and not (nxt.isupper() or nxt.isdigit() or nxt in _CLAUSE_OPENS):
        return False
    if text[end - 1] != ".":
        return True
    last = text[start:end].rsplit(None, 1)
    return not is_abbreviation(last[-1].rstrip(".").casefold() if last else "")


def title_line(text: str) -> str | None:
    """The text's title: a short first line followed by more text, stripped; or None.

    A first line is a title when it is at most ``TITLE_MAX_CHARS`` characters and
    ``TITLE_MAX_WORDS`` words and does not end like a sentence or an opener (``!?:;,``, or a
    ``.`` that does not end an abbreviation, an initial or a dotted acronym: "Martin Luther King
    Jr." is a title). The extractor's memory heads and whole-title entities and the packer's
    ``Title:`` read it.

    Example:
        >>> title_line("Brannock Falls\\nBrannock Falls is a waterfall."), title_line("Thanks!\\nI also went.")
        ('Brannock Falls', None)
    """
    nl = text.find("\n", 0, TITLE_MAX_CHARS + 1)
    if nl <= 0 or _NON_SPACE.search(text, nl + 1) is None:
        return None
    line = text[:nl].strip()
    if not line or len(line.split()) > TITLE_MAX_WORDS or line[-1] in "!?:;,":
        return None
    last = line.rsplit(None, 1)[-1][:-1]
    if line[-1] == "." and not (is_abbreviation(last.casefold()) or _DOTTED.fullmatch(last)):
        return None
    return line
