"""RuleExtractor: the deterministic offline extractor (names, identifiers, relation patterns)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from .keys import canonical_key, lookup_relation
from .known import KnownEntities
from .lexicon import (
    ABBREVIATIONS,
    CONNECTORS,
    HEAD_NOUNS,
    LEADING_STOP,
    NOT_NAMES,
    PLACE_HEADS,
    PLACE_PREPOSITIONS,
    PREFIX_TYPES,
    ROLE_COPULA,
    SENTENCE_STARTERS,
    SUFFIX_TYPES,
)
from .patterns import RANK_NAME, Span, find_patterns, find_roles
from .types import EntityMention, EntityType, Extraction, Relation, Triple

__all__ = ["RuleExtractor", "split_sentences"]

_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]\u201d\u2019]*\s+|\s*[;\n]\s*")
_LAST_WORD = re.compile(r"(\S+)$")
_WORD = re.compile(r"[^\W_](?:[\w&]|['\u2019.\-](?=[^\W_]))*")
_QUOTED = re.compile(r"[\"\u201c](?P<q>[^\"\u201c\u201d\n]{1,80})[\"\u201d]"
                     r"|(?<!\w)['\u2018](?P<s>[^'\u2018\u2019\n]{1,60})['\u2019](?!\w)")
_HEAD_AFTER = re.compile(r" (" + "|".join(HEAD_NOUNS) + r")\b")
_HONORIFIC = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof|Sir)\.?\s+$")
_POSSESSIVE = re.compile(r"['\u2019]s?$")
_PREDICATE_WORDS = re.compile(r"[A-Za-z]+|,")
_RELATIVE = re.compile(r"\s*,\s*(?:who|which|that)\b", re.IGNORECASE)
_ROLE_OF = re.compile(r"\s+(?:of|at|for|with)\s+(?:the\s+)?", re.IGNORECASE)
_TYPED_ONLY: frozenset[str] = frozenset({"date", "amount"})
_PERSON_SUBJECT: frozenset[str] = frozenset({"leads", "manages", "reports_to", "holds_role"})


def split_sentences(text: str) -> list[tuple[int, str]]:
    """Split a text into sentences.

    A sentence ends at ``.``, ``!`` or ``?`` followed by white space and an upper-case letter,
    a digit or a quote, unless the word before is a known abbreviation ("Dr.", "Inc.") or an
    initial ("J."); a line break or a semicolon always ends one.

    Args:
        text: any text.

    Returns:
        ``(offset, sentence)`` pairs; ``offset`` is where the sentence starts in ``text``.
    """
    out: list[tuple[int, str]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        if "\n" not in m.group() and ";" not in m.group():
            nxt = text[m.end() : m.end() + 1]
            if nxt and not (nxt.isupper() or nxt.isdigit() or nxt in "\"'\u201c("):
                continue
            last = _LAST_WORD.search(text, start, m.start())
            word = last.group(1).rstrip(".").casefold() if last else ""
            if word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
        if text[start : m.start()].strip():
            out.append((start, text[start : m.start()]))
        start = m.end()
    if text[start:].strip():
        out.append((start, text[start:]))
    return out


@dataclass(frozen=True, slots=True)
class _Word:
    text: str
    start: int
    end: int


def _capitalised(word: str) -> bool:
    return word[0].isupper() and word.casefold() not in NOT_NAMES


def _name_spans(sentence: str) -> Iterator[Span]:
    """Capitalised runs, with a leading stop word dropped and a head noun attached."""
    words = [_Word(m.group(), m.start(), m.end()) for m in _WORD.finditer(sentence)]
    first_word = words[0] if words else None

    def adjacent(a: _Word, b: _Word) -> bool:
        gap = sentence[a.end : b.start]
        return gap.isspace() and "\n" not in gap

    i, n = 0, len(words)
    while i < n:
        if not _capitalised(words[i].text):
            i += 1
            continue
        j = i
        while j + 1 < n and adjacent(words[j], words[j + 1]) and not _POSSESSIVE.search(
            words[j].text
        ):
            nxt = words[j + 1].text
            if _capitalised(nxt):
                j += 1
            elif (
                nxt.casefold() in CONNECTORS
                and j + 2 < n
                and adjacent(words[j + 1], words[j + 2])
                and _capitalised(words[j + 2].text)
            ):
                j += 2
            else:
                break
        run = words[i : j + 1]
        i = j + 1
        starts_sentence = run[0] is first_word
        while run and (
            run[0].text.casefold() in LEADING_STOP
            or (starts_sentence and run[0] is first_word and _starter(run[0].text))
        ):
            run = run[1:]
        while run and run[-1].text.casefold() in CONNECTORS:
            run = run[:-1]
        if run:
            yield from _make_name(sentence, words, run, i)


def _starter(word: str) -> bool:
    low = word.casefold()
    return low in SENTENCE_STARTERS or (low.endswith("ed") and len(low) > 4 and not word.isupper())


def _make_name(sentence: str, words: list[_Word], run: list[_Word], after: int) -> Iterator[Span]:
    start, end = run[0].start, run[-1].end
    parts = [w.text for w in run]
    parts[-1] = _POSSESSIVE.sub("", parts[-1]) or parts[-1]
    etype: EntityType | None = None
    head: str | None = None
    if (
        after < len(words)
        and not _POSSESSIVE.search(run[-1].text)
        and sentence[end : words[after].start] == " "
        and words[after].text in HEAD_NOUNS
    ):
        head = words[after].text
        etype = HEAD_NOUNS[head]
        end = words[after].end
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
        bare = " ".join(parts)
        yield Span(start, run[-1].end, bare, canonical_key(bare), "place", RANK_NAME + 1)


def _type_of(sentence: str, start: int, parts: list[str], lows: list[str]) -> EntityType:
    if len(parts) > 1 and lows[0] in PREFIX_TYPES:
        return PREFIX_TYPES[lows[0]]
    if len(parts) > 1 and lows[-1] in SUFFIX_TYPES:
        return SUFFIX_TYPES[lows[-1]]
    if _HONORIFIC.search(sentence, 0, start):
        return "person"
    before = sentence[:start].split()
    if before and before[-1].casefold() in PLACE_PREPOSITIONS:
        return "place"
    if 2 <= len(parts) <= 3 and all(p.isalpha() and p[0].isupper() and p[1:].islower()
                                    for p in parts if len(p) > 1):
        return "person"
    return "other"


def _quoted_spans(sentence: str) -> Iterator[Span]:
    """Quoted names; the span includes the quotes so it wins over a run inside them."""
    for m in _QUOTED.finditer(sentence):
        inner = (m.group("q") if m.group("q") is not None else m.group("s")).strip()
        if not inner or len(inner.split()) > 6 or not any(c.isalnum() for c in inner):
            continue
        name, etype, end = inner, cast(EntityType, "other"), m.end()
        head = _HEAD_AFTER.match(sentence, end)
        if head is not None:
            noun = head.group(1)
            etype, end = HEAD_NOUNS[noun], head.end()
            name = f"Project {inner}" if noun == "project" else f"{inner} {noun}"
        yield Span(m.start(), end, name, canonical_key(name), etype, RANK_NAME)


def _known_spans(sentence: str, known: KnownEntities) -> Iterator[Span]:
    for m in known.find(sentence):
        yield Span(m.char_start, m.char_end, m.name, m.key, "other", RANK_NAME)


def _mask(sentence: str, spans: list[Span]) -> str:
    chars = list(sentence)
    for s in spans:
        chars[s.start : s.end] = "\x00" * (s.end - s.start)
    return "".join(chars)


def _select(candidates: list[Span]) -> tuple[list[Span], list[Span]]:
    """Resolve overlaps: lower rank first, then the longest, then a typed one."""
    order = sorted(
        (c for c in candidates if c.rank <= RANK_NAME),
        key=lambda s: (s.rank, s.start - s.end, s.type == "other", s.start),
    )
    chosen: list[Span] = []
    for c in order:
        if all(c.end <= o.start or c.start >= o.end for o in chosen):
            chosen.append(c)
    chosen.sort(key=lambda s: s.start)
    derived = [c for c in candidates if c.rank > RANK_NAME and any(
        o.start <= c.start and c.end <= o.end and o.key != c.key for o in chosen)]
    return chosen, derived


class RuleExtractor:
    """The offline default extractor: deterministic, no model, no I/O.

    Per sentence it finds identifiers (codes, flight numbers, order ids, emails, dates, times,
    amounts), role titles, capitalised and quoted names and the tenant's known entities
    (also in lower case), then relates the entities of the sentence:

    - two consecutive entities whose words in between form a known predicate get that typed
      relation (weight 1.0, ``label`` = the predicate text); a passive is turned round
      ("Helios was built by the Atlas team" → ``built(atlas team, project helios)``); an
      entity followed by a role through a copula ("is the", ", ") gets ``holds_role``;
    - every other pair of entities of the sentence gets ``related_to`` (direction: text order)
      with the co-mention weight ``1 / (n - 1)`` for ``n`` entities in the sentence: each
      entity spreads one unit of evidence over its partners, so a list of ten names does not
      create 45 strong edges. Only pairs at most ``comention_window`` entities apart are kept.

    Dates and amounts take part in co-mention only, never in a typed relation; role titles
    ("VP of Engineering") only in ``holds_role``, never in co-mention (a title is shared by
    many people and would become a hub). "X is the CEO of Y" gives ``holds_role(X, CEO)``
    and ``member_of(X, Y)`` (label "CEO of").

    Args:
        comention: add ``related_to`` co-mention triples.
        comention_window: the largest distance, in entities, of a co-mention pair.
    """

    def __init__(self, *, comention: bool = True, comention_window: int = 8) -> None:
        self.comention = comention
        self.comention_window = max(1, comention_window)

    def extract(
        self, text: str, *, known: KnownEntities | None = None, speaker: str | None = None
    ) -> Extraction:
        """Extract entities and triples from a text.

        Args:
            text: the memory text.
            known: the tenant's known entities, found again in the text in any case.
            speaker: accepted for the ``Extractor`` protocol and ignored.

        Returns:
            The extraction (empty for a text without entities).
        """
        del speaker
        result = Extraction()
        for _, sentence in split_sentences(text):
            result = result.merge(self._sentence(sentence, known))
        return result

    def _sentence(self, sentence: str, known: KnownEntities | None) -> Extraction:
        candidates = [*find_patterns(sentence), *find_roles(sentence)]
        masked = _mask(sentence, candidates)  # names never run across an identifier or role
        candidates += [*_quoted_spans(sentence), *_name_spans(masked)]
        if known is not None and len(known):
            candidates += _known_spans(sentence, known)
        spans, derived = _select(candidates)
        types: dict[str, EntityType] = {}
        names: dict[str, str] = {}
        soft: set[str] = set()
        for s in [*spans, *derived]:
            names.setdefault(s.key, s.name)
            if types.get(s.key, "other") == "other":
                types[s.key] = s.type
                if s.soft:
                    soft.add(s.key)
        triples = self._typed(sentence, spans, types, soft)
        for d in derived:
            owner = next(o for o in spans if o.start <= d.start and d.end <= o.end)
            triples.append(Triple(subject=owner.key, relation="located_in", object=d.key))
        if self.comention:
            triples += self._comention(spans, triples)
        entities = tuple(EntityMention(key=k, name=names[k], type=types[k]) for k in names)
        return Extraction(entities=entities, triples=tuple(triples))

    def _typed(
        self, sentence: str, spans: list[Span], types: dict[str, EntityType], soft: set[str]
    ) -> list[Triple]:
        out: list[Triple] = []
        core = [s for s in spans if s.type not in _TYPED_ONLY]
        clause_subject: Span | None = None  # "Priya, who leads Atlas, reports to Marcus"
        holder: Span | None = None  # "Sam is the CEO of OpenAI": member_of(sam, openai)
        for left, right in zip(core, core[1:], strict=False):
            between = sentence[left.end : right.start]
            if holder is not None and left.type == "role" and _ROLE_OF.fullmatch(between):
                label = f"{left.name}{between.rstrip()}"
                out.append(Triple(subject=holder.key, relation="member_of", object=right.key,
                                  label=label))
                holder = None
                continue
            holder = None
            subject = left
            if clause_subject is not None and between.lstrip().startswith(","):
                subject, clause_subject = clause_subject, None
            elif _RELATIVE.match(between):
                clause_subject = left
            if subject.key == right.key:
                continue
            found = _relation_between(between, subject, right)
            if found is None:
                continue
            relation, subject, obj, label = found
            out.append(Triple(subject=subject.key, relation=relation, object=obj.key, label=label))
            if relation == "holds_role" and obj is right:
                holder = subject
            for key, etype in _implied_types(relation, subject.key, obj.key):
                if types[key] == "other" or key in soft:
                    types[key] = etype
        return out

    def _comention(self, spans: list[Span], typed: list[Triple]) -> list[Triple]:
        keys = list(dict.fromkeys(s.key for s in spans if s.type != "role"))
        if len(keys) < 2:
            return []
        linked = {frozenset((t.subject, t.object)) for t in typed}
        weight = 1.0 / (len(keys) - 1)
        out: list[Triple] = []
        for i, a in enumerate(keys):
            for b in keys[i + 1 : i + 1 + self.comention_window]:
                if frozenset((a, b)) not in linked:
                    out.append(Triple(subject=a, relation="related_to", object=b, weight=weight))
        return out


def _implied_types(relation: Relation, subject: str, obj: str) -> list[tuple[str, EntityType]]:
    out: list[tuple[str, EntityType]] = []
    if relation in _PERSON_SUBJECT:
        out.append((subject, "person"))
    if relation == "reports_to":
        out.append((obj, "person"))
    if relation in ("based_in", "located_in"):
        out.append((obj, "place"))
    return out


def _relation_between(
    between: str, left: Span, right: Span
) -> tuple[Relation, Span, Span, str | None] | None:
    words = _PREDICATE_WORDS.findall(between)
    if len(words) > 8 or any(c in between for c in ";:()"):
        return None
    lows = [w.casefold() for w in words]
    if right.type == "role" and all(w in ROLE_COPULA or w == "," for w in lows):
        return "holds_role", left, right, None
    if left.type == "role" and not lows and right.type != "role":  # "CEO Marcus Webb"
        return "holds_role", right, left, None
    phrase = " ".join(w for w in words if w != ",")
    if "," in lows[1:-1] or not phrase:
        return None
    found = lookup_relation(phrase)
    if found is None:
        return None
    relation, swap = found
    label = _clean_label(phrase)
    label = None if label.replace(" ", "_") == relation else label
    return (relation, right, left, label) if swap else (relation, left, right, label)


def _clean_label(phrase: str) -> str:
    words = phrase.split()
    while words and words[0].casefold() in ("who", "which", "that"):
        words = words[1:]
    while words and words[-1].casefold() in ("the", "a", "an"):
        words = words[:-1]
    return " ".join(words)
