"""The fixed entity type and relation vocabularies, and the mapping of free-text predicates onto
the relations (a leaf module: imports nothing of falkmem)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal, cast, get_args

EntityType = Literal[
    "person",
    "organization",
    "team",
    "project",
    "place",
    "product",
    "event",
    "role",
    "identifier",
    "date",
    "amount",
    "email",
    "concept",
    "other",
]
"""The fixed entity types; ``"other"`` is "not known" (a store keeps a more specific type)."""

Relation = Literal[
    "leads",
    "manages",
    "reports_to",
    "member_of",
    "built",
    "works_on",
    "holds_role",
    "based_in",
    "owns",
    "part_of",
    "located_in",
    "created",
    "uses",
    "family",
    "related_to",
]
"""The fixed relation vocabulary (direction: the subject acts).

- ``leads``/``manages``: person → team/project/person; ``reports_to``: person → person.
- ``member_of``: person/team → team/organization (also "works at", "joined", "employed by").
- ``built``: who built/developed → the thing; ``created``: founded/wrote/invented, and who
  made a work: directed a film, performed or composed a song ("X is a film directed by Y").
- ``works_on``: person/team → project; ``holds_role``: person → role entity ("VP of Engineering").
- ``based_in``: person/team/org → place ("lives in", "born in"); ``located_in``: place/thing → place.
- ``family``: person ↔ person, kin or married ("X was the son of Y", "X married Y").
- ``owns``, ``part_of``, ``uses``: as named. ``related_to``: anything else and co-mention.
"""

ENTITY_TYPES: frozenset[str] = frozenset(get_args(EntityType))
RELATIONS: frozenset[str] = frozenset(get_args(Relation))

# The words of each relation: one table for the extractor and the router.

KIN_OF = r"son|daughter|child|wife|husband|widow|widower|consort|grandson|granddaughter|brother|sister"
"""Kin before "of Y" in "X was the (eldest) son of Y": the nouns of ``rules._kin``."""
KIN = (
    KIN_OF
    + r"|father|mother|parent|sibling|half brother|half sister|spouse|grandchild|grandfather|grandmother"
    r"|nephew|niece|uncle|aunt|cousin|stepson|stepdaughter|stepfather|stepmother"
)
"""Every kin noun of the ``family`` predicates ("X, uncle of Y")."""
KIN_ORDER = r"eldest|youngest|elder|younger|oldest|second|third|fourth|only|illegitimate|adopted|natural"

# The extractor's predicates (``lookup_relation``): the words between two entities, matched whole.
PREDICATES: tuple[tuple[str, Relation], ...] = (
    (
        r"(?:co ?)?(?:lead|leads|leading|led|heads|headed|heading|runs|running|ran|chairs|chaired)"
        r"|(?:co ?)?(?:lead|head|leader|chair|chairman|chairwoman|chairperson) of|in charge of",
        "leads",
    ),
    (
        r"manage|manages|managing|managed|supervises|supervised|supervising|oversees|oversaw"
        r"|overseeing|(?:manager|supervisor|boss) of",
        "manages",
    ),
    (
        r"(?:reports|reported|reporting|report) (?:to|into|up to)|works under|worked under"
        r"|(?:direct )?reports? of",
        "reports_to",
    ),
    (
        r"(?:member|part) of (?:team|group|department|staff of)|member of|joined|joins|joining"
        r"|belongs to|belonged to|works (?:at|for)|worked (?:at|for)|working (?:at|for)"
        r"|employed (?:at|by)|employee of|(?:is )?(?:on|in) team",
        "member_of",
    ),
    (
        r"built|builds|build|building|developed|develops|developing|implemented|implements"
        r"|designed|designs|engineered|shipped|ships|made|makes",
        "built",
    ),
    (
        r"created|creates|creating|founded|founds|co ?founded|cofounded|established|establishes"
        r"|started|launched|invented|invents|wrote|writes|authored|authors|(?:co )?founder of"
        r"|creator of|author of|inventor of|directed|directs|composed|composes|director of|composer of"
        r"|performer of",
        "created",
    ),
    (
        r"works on|worked on|working on|work on|contributes to|contributed to|contributing to"
        r"|assigned to|staffed on",
        "works_on",
    ),
    (
        r"serves as|served as|serving as|works as|worked as|working as|acts as|acted as"
        r"|employed as|holds (?:role|title|position) of|has (?:role|title|position) of"
        r"|(?:holds|has|held) (?:role|title|position)|appointed|named|promoted to",
        "holds_role",
    ),
    (
        r"based (?:in|at|out of)|lives in|lived in|living in|resides in|resided in"
        r"|born in|is from|are from|was from|were from|moved to|relocated to|headquartered in"
        r"|hq in",
        "based_in",
    ),
    (r"located (?:in|at)|situated (?:in|at)|sits in|lies in|found in", "located_in"),
    (r"owns|owned|owning|own|owner of|possesses|bought|buys|acquired|acquires|purchased", "owns"),
    (
        r"part of|component of|subsidiary of|division of|branch of|module of|piece of"
        r"|belongs in|contained in|included in|section of",
        "part_of",
    ),
    (
        r"uses|used|using|use|relies on|relied on|depends on|depended on|runs on|built on"
        r"|built with|powered by|adopted|adopts",
        "uses",
    ),
    (
        rf"(?:(?:{KIN_ORDER}) )?(?:{KIN}) of"
        r"|married|marries|marry|marrying|wed|weds|wedded|married to|engaged to|fathered|mothered",
        "family",
    ),
    (
        r"related to|associated with|linked to|connected to|works with|worked with"
        r"|collaborates with|partnered with|knows|met",
        "related_to",
    ),
)

# The nouns of works and the participles of their makers, for ``rules._authored``: "X is a 1987 film
# directed by Y" is created(Y, X); not "released by" or "published by" (a label did not make it).
WORKS = (
    r"songs?|singles?|albums?|records?|eps?|tracks?|ballads?|hymns?|anthems?|soundtracks?|films?|movies?"
    r"|documentar(?:y|ies)|series|sitcoms?|shows?|episodes?|novels?|novellas?|books?|stories|story|poems?"
    r"|plays?|musicals?|operas?|operettas?|ballets?|symphon(?:y|ies)|concertos?|sonatas?|cantatas?"
    r"|compositions?|paintings?|sculptures?|comics?|manga|games?|essays?|memoirs?|biograph(?:y|ies)"
    r"|autobiograph(?:y|ies)|screenplays?|works?|pieces?"
)
MAKERS = (
    r"written|co[- ]?written|directed|co[- ]?directed|produced|co[- ]?produced|performed|recorded|composed"
    r"|sung|created|co[- ]?created|developed|illustrated|painted|sculpted|authored|choreographed|narrated"
)

# Passive participles: (pattern, relation, swap): "X was built by Y" is built(Y, X), but "X was
# employed by Y" member_of(X, Y).
PASSIVES: tuple[tuple[str, Relation, bool], ...] = (
    (r"(?:co ?)?led|headed|run|chaired", "leads", True),
    (r"managed|supervised|overseen", "manages", True),
    (r"built|developed|implemented|designed|engineered|shipped|made", "built", True),
    (r"founded|co ?founded|cofounded|established|started|launched|invented|" + MAKERS, "created", True),
    (r"owned|acquired|bought|purchased", "owns", True),
    (r"used|adopted|relied on", "uses", True),
    (r"joined", "member_of", True),
    (r"employed|hired|staffed", "member_of", False),
    (r"worked on", "works_on", True),
    (r"powered|backed", "uses", False),
)

_FILLERS = frozenset(
    """the a an also currently now still formerly previously recently directly just already
    actually officially really who which that""".split()  # noqa: SIM905 - a word block
)
_AUX = re.compile(
    r"^(?:(?:is|are|was|were|am|be|been|being|has|have|had|will|would|shall|should|can|"
    r"could|may|might|must|does|do|did|gets|got|get|became|become|becomes)\s+)+"
)
_ACTIVE_RE: list[tuple[re.Pattern[str], Relation]] = [(re.compile(p), r) for p, r in PREDICATES]

_PASSIVE_RE: list[tuple[re.Pattern[str], Relation, bool]] = [(re.compile(p), r, s) for p, r, s in PASSIVES]
_PASSIVE_FORM = re.compile(
    r"^(?P<aux>(?:(?:is|are|was|were|be|been|being|has|have|had|will|"
    r"get|gets|got)\s+)*)(?P<core>.+?)\s+by$"
)
_WORDS = re.compile(r"[a-z]+")


@lru_cache(maxsize=2048)
def lookup_relation(predicate: str) -> tuple[Relation, bool] | None:
    """``(relation, swap)`` of a free-text predicate ("works at", "was born in"), or None: lower-cased,
    punctuation, articles and a few adverbs ("also") dropped, auxiliaries ("has been") stripped, the
    rest must match a known phrase whole (a long clause does not match by accident). ``swap``: a
    passive (``"was built by"``) exchanges subject and object."""
    words = [w for w in _WORDS.findall(predicate.casefold()) if w not in _FILLERS]
    if not words:
        return None
    phrase = " ".join(words)
    passive = _PASSIVE_FORM.match(phrase)
    if passive is not None:  # its core is never empty
        for pattern, relation, swap in _PASSIVE_RE:
            if pattern.fullmatch(passive.group("core")):
                return relation, swap
        if not passive.group("aux"):
            return None
    stripped = _AUX.sub("", phrase) or phrase
    for candidate in (stripped, phrase):
        for pattern, relation in _ACTIVE_RE:
            if pattern.fullmatch(candidate):
                return relation, False
    return None


def normalize_relation(predicate: str) -> tuple[Relation, bool]:
    """``lookup_relation`` of a predicate that may also be a vocabulary name (``"reports_to"``);
    ``("related_to", False)`` when it is not recognised."""
    exact = "_".join(predicate.casefold().split())
    if exact in RELATIONS:
        return cast(Relation, exact), False
    found = lookup_relation(predicate.replace("_", " "))
    return found if found is not None else ("related_to", False)


# The router's words (``routing/relations.py``): how a question names a relation ("the founder of",
# "her spouse"). Each row: an alternation searched in the lower-cased question, the relations a
# memory stating it carries as the extractor writes them (``related_to`` where it may not type it),
# and how many steps the word spans ("grandfather": 2). A unit test holds the two tables together.
QUESTION_WORDS: tuple[tuple[str, tuple[Relation, ...], int], ...] = (
    (
        r"leads|lead|led|leading|leaders?|heads|headed|head of|in charge of|chairs|chaired|chair of"
        r"|chairman|chairwoman|chairperson|runs",
        ("leads",), 1,
    ),
    (r"manages|manage|managed|managing|managers?|supervises|supervised|supervisors?|oversees|oversaw|boss|bosses",
     ("manages",), 1),
    (r"reports? to|reported to|reporting to|works under|worked under|direct reports?", ("reports_to",), 1),
    (
        r"members? of|joined|joins|works? (?:at|for)|worked (?:at|for)|working (?:at|for)|employed by|employs"
        r"|employees? of"
        r"|belongs to|belonged to",
        ("member_of",), 1,
    ),
    (r"members|membership|employers?|affiliated|affiliation|plays for|played for|signed (?:with|by|to)",
     ("member_of", "related_to"), 1),
    (r"built|builds|build|developed|develops|developers?|designed|designs|engineered|implemented|made|makes",
     ("built",), 1),
    (r"manufactured|manufacturers?|makers?|designers?", ("built", "related_to"), 1),
    (
        r"created|creates|creators?|founded|founders?|co-?founded|co-?founders?|established|launched|invented"
        r"|inventors?|wrote|writes|written|writers?|authored|authors?",
        ("created",), 1,
    ),
    (
        r"composed|composers?|produced|producers?|published|publishers?|painted|painters?|directed|directors?"
        r"|illustrated|illustrators?|recorded|developer of|performers?|performed|singers?|sang|sung"
        r"|(?:recording )?artists?|bands? (?:that|who) (?:sang|performed|recorded)",
        ("created", "related_to"), 1,
    ),
    (r"works on|worked on|working on|contributes to|contributed to|contributors?|assigned to",
     ("works_on",), 1),
    (r"role|job title|serves as|served as|works as|worked as|appointed|promoted to|occupation|profession",
     ("holds_role",), 1),
    (r"based in|based at|lives in|lived in|living in|resides in|resided in|moved to|relocated to|headquartered",
     ("based_in",), 1),
    (
        r"born|birthplace|birth ?place|place of birth|hometown|home town|grew up|raised in|citizens?|citizenship"
        r"|nationality|native of|died in|place of death|headquarters",
        ("based_in", "related_to"), 1,
    ),
    (r"located|situated|lies in|location", ("located_in",), 1),
    (r"capital|county|province|borders|bordered|bordering|continent", ("located_in", "related_to"), 1),
    (r"owns|owned|owners?|ownership|acquired|acquisition|bought|purchased", ("owns",), 1),
    (r"part of|component of|subsidiary|division of|branch of|section of", ("part_of",), 1),
    (r"uses|relies on|depends on|depended on|powered by|runs on|built on|built with", ("uses",), 1),
    (
        r"married|marry|marries|spouses?|wife|wives|husband|widow|widower|child|children|sons?|daughters?"
        r"|father|mother|parents?|siblings?|brothers?|sisters?",
        ("family", "related_to"), 1,
    ),
    (
        r"related|relationship|connected|connection|linked to|associated with|works with|worked with"
        r"|collaborated|collaborators?|partners?"
        r"|actors?|actress|starred|starring|portrayed|voiced"
        r"|played by|coach|coached|teammates?|students?|teachers?|taught|educated|studied|alma mater"
        r"|graduated|attended|record label|signed",
        ("related_to",), 1,
    ),
    (
        r"grandfather|grandmother|grandparents?|grandsons?|granddaughters?|grandchild|grandchildren|uncle|aunt"
        r"|nephew|niece|cousins?|(?:father|mother|son|daughter|brother|sister)-in-law|in-laws?"
        r"|stepfather|stepmother|step-?sons?|step-?daughters?",
        ("family", "related_to"), 2,
    ),
)  # fmt: skip

ANSWERED_BY: dict[Relation, tuple[Relation, ...]] = {
    "manages": ("reports_to", "leads"),
    "reports_to": ("manages",),
    "leads": ("manages",),
    "built": ("created", "works_on"),
    "created": ("built",),
    "works_on": ("built",),
    "member_of": ("part_of",),
    "part_of": ("member_of", "located_in"),
    "based_in": ("located_in",),
    "located_in": ("based_in", "part_of"),
}
"""Relations a memory may state an asked relation as: its inverse ("X manages Y" is "Y reports to
X") or a near synonym (a team that "created" a product "built" it)."""
