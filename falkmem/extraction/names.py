"""Name finders for the rule extractor: capitalised runs and quoted names."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..text.keys import canonical_key
from .lexicon import (
    CONNECTORS,
    HEAD_NOUNS,
    LEADING_STOP,
    NOT_NAMES,
    PLACE_HEADS,
    PLACE_PREPOSITIONS,
    PREFIX_TYPES,
    SENTENCE_STARTERS,
    SUFFIX_TYPES,
    bare,
    is_common_word,
    is_contraction,
)
from .patterns import RANK_NAME, Span
from .vocab import EntityType

__all__ = ["capitalised_inside", "name_spans", "quoted_spans"]

# A word: letters and digits (and "&"), joined by single apostrophes, dots or hyphens.
_WORD = re.compile(r"[^\W_][\w&]*(?:['\u2019.\-][^\W_][\w&]*)*")
_QUOTED = re.compile(
    r"[\"\u201c](?P<q>[^\"\u201c\u201d\n]{1,80})[\"\u201d]"
    r"|(?<!\w)['\u2018](?P<s>[^'\u2018\u2019\n]{1,60})['\u2019](?!\w)"
)
_HEAD_AFTER = re.compile(r" (" + "|".join(HEAD_NOUNS) + r")\b")
_HONORIFIC = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof|Sir)\.?\s+$")
_POSSESSIVE = re.compile(r"['\u2019]s?$")
# What may stand before a word that opens a sentence-like unit: nothing, a list marker
# ("1.", "-", "*", "#"), markdown emphasis, an opening quote or bracket, or a colon.
_OPENER = re.compile(r"(?:^|[:(\[\"\u201c*#>\u2022-]|\b\d{1,3}[.)])\W*$")
_OPENER_REACH = 4  # an _OPENER match starts at most this far before the non-word run it ends with
_HONORIFIC_REACH = 5  # "Prof.": an _HONORIFIC match starts this far at most before its spaces
_INITIAL_GAP = re.compile(r"\.[ \t]+")
_NUMERAL_LETTERS = frozenset("IVX")


def _opens(sentence: str, start: int) -> bool:
    """True when the word at ``start`` opens the sentence, a list item or a clause after a colon."""
    # = _OPENER.search(sentence, 0, start), but only from _OPENER_REACH before the non-word run
    run = start
    while run and not (sentence[run - 1].isalnum() or sentence[run - 1] == "_"):  # not \w
        run -= 1
    return not run or _OPENER.search(sentence, max(0, run - _OPENER_REACH), start) is not None


def capitalised_inside(sentence: str) -> set[str]:
    """Case-folded words capitalised where capitals are not forced (not opening a unit)."""
    return {
        m.group().casefold()
        for m in _WORD.finditer(sentence)
        if m.group()[0].isupper() and not _opens(sentence, m.start())
    }


def name_spans(sentence: str, confirmed: frozenset[str] | set[str] = frozenset()) -> Iterator[Span]:
    """Capitalised runs, a leading stop word dropped and a head noun attached. A single capitalised
    common English word opening a unit ("Sounds", "Seven") is dropped unless ``confirmed`` holds it:
    the text capitalises it elsewhere (``capitalised_inside``)."""
    words = list(_WORD.finditer(sentence))
    texts = [m.group() for m in words]
    capitalised = [t[0].isupper() and t.casefold() not in NOT_NAMES for t in texts]
    n = len(words)
    # An initial opens the name after it ("T. S. Brannock"), not a sentence ("He got a B. Then");
    # "I", "V", "X" after a capitalised word are numerals.

    def spaced(a: int) -> bool:  # the next word follows on the same line, after spaces only
        gap = sentence[words[a].end() : words[a + 1].start()]
        return gap.isspace() and "\n" not in gap

    initial = [False] * n
    for k in range(n - 2, -1, -1):
        initial[k] = (
            _initial(texts[k])
            and _INITIAL_GAP.fullmatch(sentence, words[k].end(), words[k + 1].start()) is not None
            and not (texts[k] in _NUMERAL_LETTERS and k > 0 and capitalised[k - 1])
            and (
                initial[k + 1]
                or (
                    capitalised[k + 1]
                    and bare(texts[k + 1]) not in SENTENCE_STARTERS
                    and not (
                        is_common_word(texts[k + 1])
                        and not (k + 2 < n and capitalised[k + 2] and spaced(k + 1))
                    )
                )
            )
        )
    capitalised = [c or a for c, a in zip(capitalised, initial, strict=True)]

    def adjacent(a: int) -> bool:  # the word after word a continues a name
        return initial[a] or spaced(a)

    i = 0
    for k in [k for k, c in enumerate(capitalised) if c]:  # a run starts on a capitalised word
        if k < i:
            continue  # inside the run before
        i = j = k
        while j + 1 < n and adjacent(j) and not _POSSESSIVE.search(texts[j]):
            if capitalised[j + 1]:
                j += 1
            elif (
                texts[j + 1].casefold() in CONNECTORS and j + 2 < n and adjacent(j + 1) and capitalised[j + 2]
            ):
                j += 2
            else:
                break
        run = words[i : j + 1]
        i = j + 1
        while (
            run
            and not initial[i - len(run)]
            and (bare(run[0].group()) in LEADING_STOP or (run[0] is words[0] and _starter(run[0].group())))
        ):
            run = run[1:]
        while run and run[-1].group().casefold() in CONNECTORS:
            run = run[:-1]
        if run and all(is_contraction(w.group()) for w in run):
            continue  # "I’m", "Theres", "Youll" alone are no name; in a title they stay ("I Won't Go Quietly")
        if (
            len(run) == 1
            and not run[0].group().isupper()
            and run[0].group().casefold() not in confirmed
            and _opens(sentence, run[0].start())
            and is_common_word(run[0].group())
        ):
            continue
        if run:
            yield from _make_name(sentence, words, run, i)


def _initial(word: str) -> bool:
    """A single capital letter: with the full stop after it, an initial ("T." of "T. S. Brannock")."""
    return len(word) == 1 and word.isupper()


def _starter(word: str) -> bool:
    low = bare(word)
    return low in SENTENCE_STARTERS or (low.endswith("ed") and len(low) > 4 and not word.isupper())


def _make_name(
    sentence: str, words: list[re.Match[str]], run: list[re.Match[str]], after: int
) -> Iterator[Span]:
    start, end = run[0].start(), run[-1].end()
    # an initial keeps its full stop ("T. S. Brannock"; the key drops it: "t s brannock")
    parts = [w.group() + "." if k < len(run) - 1 and _initial(w.group()) and sentence[w.end()] == "." else w.group()
             for k, w in enumerate(run)]  # fmt: skip
    parts[-1] = _POSSESSIVE.sub("", parts[-1]) or parts[-1]
    etype: EntityType | None = None
    head: str | None = None
    if (
        after < len(words)
        and not _POSSESSIVE.search(run[-1].group())
        and sentence[end : words[after].start()] == " "
        and words[after].group() in HEAD_NOUNS
    ):
        head = words[after].group()
        etype = HEAD_NOUNS[head]
        end = words[after].end()
    lows = [p.casefold().rstrip(".") for p in parts]
    # One spelling per convention so mentions meet: "Project Helios", "Atlas team".
    joined = " ".join(parts)
    if head == "project" and lows[0] != "project":
        name = f"Project {joined}"
    elif head is not None:
        name = f"{joined} {head}"
    elif lows[0] == "team" and len(parts) > 1:  # "Team Atlas" → "Atlas team"
        name, etype = f"{' '.join(parts[1:])} team", "team"
    else:
        name = joined
    soft = etype is None
    if etype is None:
        etype = _type_of(sentence, start, parts, lows)
    yield Span(start, end, name, canonical_key(name), etype, RANK_NAME, soft)
    if head in PLACE_HEADS:  # the bare place, linked by the extractor
        place = " ".join(parts)
        yield Span(start, run[-1].end(), place, canonical_key(place), "place", RANK_NAME + 1)


def _type_of(sentence: str, start: int, parts: list[str], lows: list[str]) -> EntityType:
    if len(parts) > 1 and lows[0] in PREFIX_TYPES:
        return PREFIX_TYPES[lows[0]]
    if len(parts) > 1 and lows[-1] in SUFFIX_TYPES:
        return SUFFIX_TYPES[lows[-1]]
    before = sentence[:start].rstrip()
    # = _HONORIFIC.search(sentence, 0, start): a match ends with the spaces before ``start``
    if _HONORIFIC.search(sentence, max(0, len(before) - _HONORIFIC_REACH), start):
        return "person"
    last = before.rsplit(None, 1)
    if last and last[-1].casefold() in PLACE_PREPOSITIONS:
        return "place"
    core = [p for p in parts if not _initial(p.rstrip("."))]
    if (
        len(parts) >= 2
        and 1 <= len(core) <= 3
        and all(p.isalpha() and p[0].isupper() and p[1:].islower() for p in core if len(p) > 1)
    ):
        return "person"
    return "other"


def quoted_spans(sentence: str) -> Iterator[Span]:
    """Quoted names; the span includes the quotes so it wins over a run inside them."""
    for m in _QUOTED.finditer(sentence):
        inner = (m.group("q") if m.group("q") is not None else m.group("s")).strip()
        if not inner or len(inner.split()) > 6 or not any(c.isalnum() for c in inner):
            continue
        etype: EntityType = "other"
        name, end = inner, m.end()
        head = _HEAD_AFTER.match(sentence, end)
        if head is not None:
            noun = head.group(1)
            etype, end = HEAD_NOUNS[noun], head.end()
            name = f"Project {inner}" if noun == "project" else f"{inner} {noun}"
        yield Span(m.start(), end, name, canonical_key(name), etype, RANK_NAME)
