"""RuleExtractor: the deterministic offline extractor (names, identifiers, relation patterns)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from ..text.keys import key_of
from ..text.sentences import split_sentences, title_line
from .known import KnownEntities
from .lexicon import ROLE_COPULA, words
from .names import capitalised_inside, name_spans, quoted_spans
from .patterns import RANK_NAME, Span, find_patterns, find_roles
from .types import EntityMention, Extraction, Triple, merge_all
from .vocab import KIN_OF, KIN_ORDER, MAKERS, WORKS, EntityType, Relation, lookup_relation

__all__ = ["RuleExtractor", "speaker_entity", "whole_title"]

_PREDICATE_WORDS = re.compile(r"[A-Za-z]+|,")
_RELATIVE = re.compile(r"\s*,\s*(?:who|which|that)\b", re.IGNORECASE)
_LABEL_EDGES = re.compile(r"^(?:(?:who|which|that)\b\s?)+|(?:\s?\b(?:the|a|an))+$", re.IGNORECASE)
"""A predicate's leading relative pronouns and trailing articles, left out of its label."""
_ROLE_OF = re.compile(r"\s+(?:of|at|for|with)\s+(?:the\s+)?", re.IGNORECASE)
_TITLE = re.compile(r"[^\n.!?:;]{1,80}")
_TYPED_ONLY: frozenset[str] = frozenset({"date", "amount"})
_IMPLIED: dict[str, tuple[EntityType | None, EntityType | None]] = {
    "leads": ("person", None),
    "manages": ("person", None),
    "reports_to": ("person", "person"),
    "holds_role": ("person", None),
    "based_in": (None, "place"),
    "located_in": (None, "place"),
}
"""The types a relation gives its subject and object (over ``"other"`` or a guess)."""
_IS_A = re.compile(
    r"[\"'”’)]*\s*(?:\([^()]*\)\s*)?(?:,\s*(?:also\s+)?(?:known|released|titled)\s+as\s+[^,;:()]{1,80})?,?\s*"
    r"(?:is|was|are|were)\s+(?:(?:also|originally)\s+)?(?:an?|the|one of the)\s+",
    re.IGNORECASE,
)
"""What follows the subject of a sentence that says what it is ("X (...) is a", "X, also known as Y, is a")."""
_QUOTES_BEFORE = " \t\"'\u201c\u2018"
"""What may stand before the name that opens a sentence (white space, opening quotes)."""
_WORK = re.compile(rf"\b(?:{WORKS})\b", re.IGNORECASE)
_MADE_BY = re.compile(rf"\b(?:{MAKERS}|{WORKS})\s+by\s+(?:the\s+)?", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[;:]|\s--?\s")
_DESCRIPTOR = re.compile(
    r"\s*(?:(?!(?:and|or|but|with|starring|starred|featuring|from|in|on|at|for|to|as|who|which|that|is|was"
    r"|were|are|of|also|while|whose|after|before|under)\b)[a-z][\w'’-]*\s+){0,3}"
)
"""Lower-case words between "by" and the maker's name ("by the Welsh folk band Larkspur")."""
_MODIFIERS = re.compile(r"(?:[^\s,;:]+\s+){0,8}")
"""The words of a description before its head noun ("1994 Danish crime comedy"): no comma."""
_ADJECTIVE = re.compile(r"[ \t]+[a-z]")
"""After a one-word name, a lower-case word: the name was an adjective ("American singer")."""
_MAKER_TYPES: frozenset[str] = frozenset({"person", "organization", "team", "other"})
_COMENTION_WINDOW = 8


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
    derived = [
        c
        for c in candidates
        if c.rank > RANK_NAME
        and any(o.start <= c.start and c.end <= o.end and o.key != c.key for o in chosen)
    ]
    return chosen, derived


class RuleExtractor:
    """The offline default extractor: deterministic, no model, no I/O.

    Per sentence it finds identifiers, dates, amounts, role titles, capitalised and quoted names
    and the tenant's known entities. Neighbours whose words in between form a known predicate get
    that typed relation; every other pair at most ``_COMENTION_WINDOW`` apart gets ``related_to``
    of weight ``1 / (n - 1)`` for ``n`` entities: each spreads one unit of evidence over its
    partners, so a list of ten names does not make 45 strong edges. Dates and amounts take part
    in co-mention only; role titles only in ``holds_role`` (a shared title would become a hub).
    """

    def extract(
        self, text: str, *, known: KnownEntities | None = None, speaker: str | None = None
    ) -> Extraction:
        """Extract entities and triples from a text; the tenant's ``known`` entities are found in
        any case. A named ``speaker`` ("Tamsin") is an entity of the memory, a role ("user") is not."""
        sentences = split_sentences(text, clauses=True)
        confirmed: set[str] = set()
        for sentence in sentences:
            confirmed |= capitalised_inside(sentence)
        if sentences and _TITLE.fullmatch(sentences[0].strip()):  # a short title or heading
            confirmed |= {w.casefold() for w in sentences[0].split()}
        whole = whole_title(text) if speaker is None else None
        parts = [self._sentence(sentence, known, confirmed, whole) for sentence in sentences]
        if speaker is not None and (person := speaker_entity(speaker)) is not None:
            parts.append(((person,), ()))
        elif whole is not None:
            parts.append(((whole,), ()))
        return merge_all(parts)  # = Extraction() merged with each sentence's extraction

    def _sentence(
        self,
        sentence: str,
        known: KnownEntities | None,
        confirmed: set[str],
        topic: EntityMention | None = None,
    ) -> tuple[Sequence[EntityMention], Sequence[Triple]]:
        candidates = [*find_patterns(sentence), *find_roles(sentence)]
        masked = _mask(sentence, candidates)  # names never run across an identifier or role
        candidates += [*quoted_spans(sentence), *name_spans(masked, confirmed)]
        if known is not None and len(known):
            candidates += [
                Span(m.char_start, m.char_end, m.name, m.key, "other", RANK_NAME)
                for m in known.find(sentence)
            ]
        if topic is not None and (opening := _title_span(sentence, topic)) is not None:
            candidates.append(opening)
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
        typed = {(t.subject, t.object) for t in triples}
        for t in (*_authored(sentence, spans), *_kin(sentence, spans, topic)):
            if (t.subject, t.object) not in typed:  # a pair the predicates typed keeps that relation
                typed.add((t.subject, t.object))
                triples.append(t)
        for d in derived:
            owner = next(o for o in spans if o.start <= d.start and d.end <= o.end)
            triples.append(Triple(subject=owner.key, relation="located_in", object=d.key))
        triples += _comention(spans, triples)
        entities = tuple(EntityMention(key=k, name=names[k], type=types[k]) for k in names)
        return entities, triples

    def _typed(
        self, sentence: str, spans: list[Span], types: dict[str, EntityType], soft: set[str]
    ) -> list[Triple]:
        out: list[Triple] = []
        core = [s for s in spans if s.type not in _TYPED_ONLY]
        clause_subject: Span | None = None  # "Priya, who leads Atlas, reports to Marcus"
        holder: Span | None = None  # "Sam is the CEO of OpenAI": member_of(sam, openai)
        for left, right in itertools.pairwise(core):
            between = sentence[left.end : right.start]
            if (
                holder is not None
                and left.type == "role"
                and holder.key != right.key
                and _ROLE_OF.fullmatch(between)
            ):
                label = f"{left.name}{between.rstrip()}"
                out.append(Triple(subject=holder.key, relation="member_of", object=right.key, label=label))
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
            relation, subject, obj, predicate = found
            out.append(Triple(subject=subject.key, relation=relation, object=obj.key, label=predicate))
            if relation == "holds_role" and obj is right:
                holder = subject
            for key, etype in zip((subject.key, obj.key), _IMPLIED.get(relation, (None, None)), strict=True):
                if etype is not None and (types[key] == "other" or key in soft):
                    types[key] = etype
        return out


def _comention(spans: list[Span], typed: list[Triple]) -> list[Triple]:
    keys = list(dict.fromkeys(s.key for s in spans if s.type != "role"))
    if len(keys) < 2:
        return []
    linked = {(t.subject, t.object) for t in typed}  # either way round
    linked |= {(b, a) for a, b in linked}
    weight = 1.0 / (len(keys) - 1)
    out: list[Triple] = []
    for i, a in enumerate(keys):
        for b in keys[i + 1 : i + 1 + _COMENTION_WINDOW]:
            if (a, b) not in linked:
                out.append(Triple(subject=a, relation="related_to", object=b, weight=weight))
    return out


_ROLES = words("user assistant system human ai bot agent tool model me you narrator unknown")


_DISAMBIGUATOR = re.compile(r"\s*\([^()]*\)$")


def _entity(name: str, etype: EntityType = "other") -> EntityMention | None:
    key = key_of(name)
    return EntityMention(key=key, name=name, type=etype) if key is not None else None


def whole_title(text: str) -> EntityMention | None:
    """The entity a memory with a title line is about, when the title opens with a capital or a
    digit: the whole title ("How I Lost My Umbrella", where the runs give "Lost My Umbrella"), a
    trailing parenthesis dropped ("Iron Meadow (1971 film)" is Iron Meadow); else None."""
    title = title_line(text)
    if title is None:
        return None
    name = " ".join(title.split())
    name = _DISAMBIGUATOR.sub("", name) or name
    if not name or not (name[0].isupper() or name[0].isdigit()) or not any(c.isalpha() for c in name):
        return None
    return _entity(name)


def speaker_entity(speaker: str) -> EntityMention | None:
    """The person entity of a named speaker; None for a role ("user", "assistant") or no name."""
    name = " ".join(speaker.split())
    if not name or name.casefold() in _ROLES or not any(c.isalpha() for c in name) or len(name) > 80:
        return None
    return _entity(name, "person")


_KIN = re.compile(
    rf"\b(?:(?:{KIN_ORDER})\s+)?(?:{KIN_OF})\s+of\s+(?:the\s+)?(?:(?!and\b|or\b)[a-z][\w'’-]*\s+){{0,3}}$",
    re.IGNORECASE,
)
"""What comes right before a parent's (or spouse's) name: "the son of", "eldest daughter of king"."""
_PRONOUN = re.compile(r"[\"'“‘]?(?:He|She|His|Her)\b(?!['’-])")
_KIN_TYPES: frozenset[str] = frozenset({"person", "other"})


def _kin(sentence: str, spans: list[Span], topic: EntityMention | None) -> list[Triple]:
    """``family(X, Y)`` for "X (...) was the son of Y (and Z)", "X, daughter of Y, ...", and, in a
    titled memory, "He was the son of Y": X is the name opening the sentence, or the title entity
    when a pronoun opens it (encyclopedic text names its subject once)."""
    opening = _opening(sentence, spans)
    if opening is not None and opening.type in _KIN_TYPES:
        subject, rest = opening.key, spans[1:]
    elif topic is not None and _PRONOUN.match(sentence):
        subject, rest = topic.key, spans
    else:
        return []
    out: list[Triple] = []
    last: Span | None = None  # the name just related: "son of Y and Z" relates Z the same way
    label = ""
    for sp in rest:
        if sp.type in _KIN_TYPES and sp.key != subject:
            said = _KIN.search(sentence, last.end if last is not None else 0, sp.start)
            if said is not None:
                label = " ".join(said.group(0).split())
            if said is not None or (last is not None and sentence[last.end : sp.start].strip() == "and"):
                out.append(Triple(subject=subject, relation="family", object=sp.key, label=label))
                last = sp
                continue
        last = None
    return out


def _title_span(sentence: str, topic: EntityMention) -> Span | None:
    """The whole title where a sentence of a titled memory opens with it ("Night Train to Dover is
    a 1952 film"), where the capitalised runs give "Night Train" and "Dover"; not on the title line."""
    start = len(sentence) - len(sentence.lstrip(_QUOTES_BEFORE))
    if sentence[start : start + 4] == "The " and not topic.name.startswith("The "):
        start += 4
    end = start + len(topic.name)
    if sentence[start:end].casefold() != topic.name.casefold() or sentence[end : end + 1].isalnum():
        return None
    rest = sentence[end:].strip(" \t\"'\u201d\u2019")
    if not rest or _DISAMBIGUATOR.fullmatch(rest):  # the title line: "Night Train to Dover (film)"
        return None
    return Span(start, end, topic.name, topic.key, "other", RANK_NAME)


def _opening(sentence: str, spans: list[Span]) -> Span | None:
    """The name that opens the sentence (quotes before it allowed), or None."""
    return spans[0] if spans and not sentence[: spans[0].start].strip(_QUOTES_BEFORE) else None


def _authored(sentence: str, spans: list[Span]) -> list[Triple]:
    """``created(maker, work)`` when the sentence opens with a work and says who made it: "X is a
    (1974) song / film ... (written / directed ...) by [the ...] Y". The maker is the last name of
    the run after "by" ("by the Welsh folk band Larkspur" is Larkspur); "and", a comma or any word
    but a lower-case description ends the run."""
    work = _opening(sentence, spans)
    if work is None or work.type not in _MAKER_TYPES:
        return []
    opened = _IS_A.match(sentence, work.end)
    if opened is None:
        return []
    end = _CLAUSE_END.search(sentence, opened.end())
    clause_end = end.start() if end is not None else len(sentence)
    noun = _WORK.search(sentence, opened.end(), clause_end)
    if noun is None or _MODIFIERS.fullmatch(sentence, opened.end(), noun.start()) is None:
        return []  # no work, or not the head of what the subject is ("an actress, known for films by")
    out: list[Triple] = []
    later = [sp for sp in spans[1:] if sp.start >= noun.start() and sp.end <= clause_end]
    for by in _MADE_BY.finditer(sentence, noun.start(), clause_end):
        maker: Span | None = None
        at = by.end()
        for sp in later:
            if sp.start < at:
                continue
            if sp.type == "role":  # "by director Y": a description
                at = sp.end
                continue
            if _DESCRIPTOR.fullmatch(sentence, at, sp.start) is None or sp.type not in _MAKER_TYPES:
                break
            if " " not in sp.name and _ADJECTIVE.match(sentence, sp.end):  # "American rapper": a description
                at = sp.end
                continue
            maker, at = sp, sp.end
        if maker is not None and len(maker.key.rsplit(" ", 1)[-1]) < 2:
            maker = None  # a name that ends in a letter ("by John B."): cut short, better none
        if maker is not None and maker.key != work.key:
            said = by.group(0).split()  # "directed by", "song by the"
            label = " ".join(said[:-1] if said[-1].casefold() == "the" else said)
            out.append(Triple(subject=maker.key, relation="created", object=work.key, label=label))
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
    cleaned = _LABEL_EDGES.sub("", phrase)
    label = None if cleaned.replace(" ", "_") == relation else cleaned
    return (relation, right, left, label) if swap else (relation, left, right, label)
