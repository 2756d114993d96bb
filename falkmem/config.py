"""Every ranking, routing and packing knob, once: one typed config per stage, nested in
:class:`~falkmem.settings.Settings` (``Settings().keyword.weight``; the environment spells it
``FALKMEM_KEYWORD__WEIGHT``). Nothing else holds a default for these: the stages read them here.

Defaults were chosen on the real dev sets jointly (REALTALK, LongMemEval, MuSiQue-100 rules and
OpenIE, MuSiQue-200, BEAM-500K) and kept where they hold with one dataset left out
(benchmarks/RESULTS.md, docs/decisions/).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

STAGES: dict[str, str] = {
    "vector": "channel: the HNSW index's nearest memories (cosine similarity)",
    "keyword": "channel: full-text candidates ranked by BM25 over the stored stem counts",
    "graph": "channel: from the first vector hits and the named entities to the memories about them",
    "walk": "graph channel's relational walk over the typed RELATED_TO edges the question names",
    "links": "channel: turns around the first memories and memories sharing a rare identifier",
    "reliability": "fusion: each channel's weight scaled by how far its own list stands out",
    "speaker": "adjustment: + the turns of a speaker the question names",
    "role": "adjustment: + the assistant's turns when asked what it said, else the user's",
    "asks": "adjustment: - a memory that only asks",
    "impersonal": "adjustment: - a chat turn that says nothing of its speaker",
    "time": "adjustment: + memories in the window of a time the question names",
    "order": "adjustment: + the newest (latest) or oldest (first) of the first candidates",
    "recency": "adjustment: newer memories weigh more (off unless recency_weight > 0)",
    "rerank": "rerank: a cross-encoder reorders the fused head (when one is configured)",
}
"""Every stage a search runs, by the name that switches it off (``Settings.off``,
``python -m benchmarks run --off``) and that ``explain()`` reports it under."""

ADJUSTMENTS = ("speaker", "role", "asks", "impersonal", "time", "order")


class _Config(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RouterConfig(_Config):
    """The router: when a query goes hybrid (the graph channel runs), and how far it walks."""

    entity_threshold: int = Field(default=1, ge=1, le=10)
    """Route hybrid when the query names at least this many followable known entities..."""
    require_cue: bool = False
    """...and, when True, only if it also carries a relational cue. When False, a relational
    question goes hybrid whatever it names (one named entity and a cue, or none and a
    relational word: the graph channel then starts from the vector hits' entities)."""
    max_hops: int = Field(default=1, ge=1, le=3)
    """Graph channel reach: 1 = memory → entity → memory; 2 adds one RELATED_TO step."""


class VectorConfig(_Config):
    """The vector channel: ``max(overfetch_min, overfetch_factor * k)`` neighbours, then cut."""

    overfetch_min: int = Field(default=50, ge=1, le=1000)
    """The fewest neighbours fetched, whatever ``k``."""
    overfetch_factor: int = Field(default=4, ge=1, le=50)
    """Neighbours fetched per result asked for (``k``)."""


class KeywordConfig(_Config):
    """The keyword channel (``retrieval/keyword.py``)."""

    weight: float = Field(default=0.45, ge=0, le=10)
    """Fusion: what BM25 adds per unit of the query's idf mass (a memory holding every searched
    term once scores about 1), against the cosine similarity."""
    candidates: int = Field(default=100, ge=1, le=2000)
    """Full-text candidates fetched per term (by the engine's coarse score) before BM25."""
    max_df: int | None = Field(default=10_000, ge=1, le=2**31 - 2)
    """A query term in more memories than this (or in more than a quarter of them) is dropped,
    so what a search reads stops growing with the tenant; a tenant of at most ``4 × max_df``
    memories ranks exactly as without it (docs/scaling.md). None: no bound."""
    fetch_max_df: int | None = Field(default=2_500, ge=1, le=2**31 - 2)
    """A kept term in more memories than this scores the candidates but brings none of its own,
    unless no kept term is that rare (docs/performance.md). None: every kept term brings some."""
    fetch_pairs: int = Field(default=3, ge=0, le=45)
    """Pairs of terms over ``fetch_max_df`` that each bring the memories holding both."""
    common_fraction: float = Field(default=0.25, gt=0, le=1)
    """A term in more than this share of the memories (and more than ``common_min_df``) is
    dropped, unless every term is that common."""
    common_min_df: int = Field(default=100, ge=1)
    """Below this many memories a term is never too common to search."""
    max_terms: int = Field(default=12, ge=1, le=100)
    """The most distinct stems of one question that are searched."""
    k1: float = Field(default=1.2, ge=0, le=10)
    """Okapi BM25 term-frequency saturation."""
    b: float = Field(default=0.75, ge=0, le=1)
    """Okapi BM25 length normalisation."""


class GraphConfig(_Config):
    """The graph channel and its relational walk (``retrieval/graph.py``, ``cypher/retrieve/expand.cypher``)."""

    weight: float = Field(default=0.3, ge=0, le=10)
    """Fusion: weight of the graph score against the cosine similarity."""
    seed_k: int = Field(default=3, ge=0, le=50)
    """How many of the vector channel's first memories seed the channel."""
    seed_temperature: float = Field(default=0.05, gt=0, le=10)
    """Seed weight exp((sim - best sim) / temperature): lower lets a clear first hit dominate."""
    named_weight: float = Field(default=1.5, ge=0, le=20)
    """What an entity the query names passes to the memories about it (a bridge named by the
    first vector hit weighs 1)."""
    head_weight: float = Field(default=1.0, ge=0, le=20)
    """Extra weight of a link to an entity named in a memory's head (``extraction/head.py``)."""
    tail_weight: float = Field(default=0.0, ge=0, le=20)
    """Weight of a link to an entity a memory names outside its head (0: only memories *about* it)."""
    max_score: float = Field(default=2.5, gt=0, le=100)
    """The most graph score one memory gets however many links reach it."""
    max_mentions: int = Field(default=50, ge=1, le=10_000)
    """Hub guard: an entity named by more memories than this is not followed (nor counted by the router)."""
    per_entity: int = Field(default=20, ge=1, le=1000)
    """RELATED_TO edges followed per entity on the second hop (max_hops >= 2)."""
    hop_weight: float = Field(default=0.25, ge=0, le=1)
    """Share an entity passes over one RELATED_TO step (max_hops >= 2)."""
    limit: int = Field(default=50, ge=1, le=1000)
    """Most memories the channel returns (by graph score)."""
    walk_depth: int = Field(default=2, ge=0, le=2)
    """The relational walk: at most this many steps over the edges whose relation the question
    names ("who manages the person who leads..."). 0: off (as ``off=["walk"]``)."""
    walk_from: int = Field(default=4, ge=1, le=100)
    """The walk starts from this many of the strongest bridge and named entities per step."""
    walk_per_entity: int = Field(default=5, ge=1, le=100)
    """Matching edges followed per entity and step (the heaviest first)."""
    walk_fanout: int = Field(default=50, ge=1, le=1000)
    """Matching edges read per entity; what one passes on is divided by how many there are."""
    walk_weight: float = Field(default=1.0, ge=0, le=10)
    """The share of an entity's activation its matching edges pass on together."""
    evidence_weight: float = Field(default=3.0, ge=0, le=20)
    """What a memory that states a walked edge gets, times what the edge passed."""
    reach_weight: float = Field(default=0.5, ge=0, le=20)
    """What a memory about an entity reached over typed edges only gets besides."""


class LinksConfig(_Config):
    """The links channel (``retrieval/links.py``)."""

    weight: float = Field(default=0.3, ge=0, le=10)
    """Fusion: what a link adds, times how far its seed's score stands above the field's."""
    seeds: int = Field(default=3, ge=0, le=50)
    """It starts from this many of the first fused memories (0: off)."""
    window: int = Field(default=2, ge=0, le=3)
    """Turns before and after a seed in its session that are reached (0: no turn links)."""
    decay: float = Field(default=0.5, ge=0, le=1)
    """The share of a turn one step further away."""
    rare_mentions: int = Field(default=5, ge=0, le=1000)
    """An identifier (code, flight number, email) named by 2 to this many memories links them."""


class FusionConfig(_Config):
    """How the channels' candidates become one ranking (``ranking/fusion.py``)."""

    method: Literal["score", "rrf"] = "score"
    """``score``: cosine similarity + weighted keyword/graph/links evidence on absolute scales;
    ``rrf``: reciprocal rank fusion (for comparison)."""
    rrf_k: int = Field(default=60, ge=0)
    """Reciprocal rank fusion constant."""
    reliability: float = Field(default=1.0, ge=0, le=1)
    """How strongly the keyword channel's weight follows how far its first candidate stands out
    of its own list (``ranking/fusion.py::standout``): a list whose first is no better than its
    tenth says little about this question. 0: fixed weights (as ``off=["reliability"]``)."""
    reliability_gap: float = Field(default=0.5, gt=0, le=1)
    """The standout (first over tenth, as a share of the first) at which a channel keeps its
    whole weight; a flatter list keeps that share of it (times ``reliability``)."""


class LeanConfig(_Config):
    """What each adjustment adds to (or takes from) a fused score (``ranking/leanings.py``);
    0 turns one off, as naming it in ``Settings.off`` does."""

    speaker: float = Field(default=0.2, ge=0, le=1)
    """Added to the turns of a speaker the question names."""
    role: float = Field(default=0.1, ge=0, le=1)
    """Added to the assistant's turns for a question that asks what it said ("you suggested"),
    else to the user's (``routing/who.py::answer_role``)."""
    asks: float = Field(default=0.2, ge=0, le=1)
    """Taken from a memory that only asks (a question, nothing stated)."""
    impersonal: float = Field(default=0.05, ge=0, le=1)
    """Taken from a turn of a chat between people that says nothing of its speaker (no "I", "my", "we")."""
    time: float = Field(default=0.1, ge=0, le=1)
    """Relative times ("last week"), in a window from a day before to two days after."""
    time_explicit: float = Field(default=0.5, ge=0, le=1)
    """Written-out dates ("on 23.01.2024", "in May 2023")."""
    order: float = Field(default=0.1, ge=0, le=1)
    """Added to the newest (a question about the latest state) or oldest ("first") candidates."""
    order_top: int = Field(default=20, ge=1, le=200)
    """The order adjustment ranks the times of the first ``order_top`` candidates only."""


class RelevanceConfig(_Config):
    """``Hit.relevance`` (``ranking/relevance.py``): the probability that the question is about
    the tenant's memories at all (a logistic of the question's ``question_*`` evidence) times the
    probability that the hit is evidence for it when it is (a logistic of the hit's own). Both
    were fitted on the dev sets, off-topic questions as the negatives of the first
    (``python -m benchmarks relevance``, benchmarks/RESULTS.md). A weight is a log-odds step per
    unit of its evidence."""

    question_intercept: float = Field(default=-8.973, ge=-100, le=100)
    """The question's log-odds of being on topic with no evidence."""
    question_top_cosine: float = Field(default=10.559, ge=-100, le=100)
    """Per unit of the cosine of the question's nearest memory."""
    question_near_cosine: float = Field(default=10.951, ge=-100, le=100)
    """Per unit of the mean cosine of its five nearest memories."""
    question_top_keyword: float = Field(default=-3.289, ge=-100, le=100)
    """Per unit of the largest share of its searched-word idf mass one memory holds."""
    question_match: float = Field(default=2.904, ge=-100, le=100)
    """Per unit of that largest share times the idf the memory holds over the tenant's largest idf
    (a word in one memory): about how many of the question's rare words one memory holds,
    whatever the tenant's size."""
    intercept: float = Field(default=-2.704, ge=-100, le=100)
    """The hit's log-odds of being evidence (for an on-topic question) with no evidence."""
    cosine: float = Field(default=0.568, ge=-100, le=100)
    """Per unit of the hit's cosine similarity to the question."""
    keyword: float = Field(default=1.646, ge=-100, le=100)
    """Per unit of the share of the question's searched-word idf mass the hit holds."""
    graph: float = Field(default=0.686, ge=-100, le=100)
    """Per unit of the graph channel's score (capped at ``graph_cap``)."""
    graph_cap: float = Field(default=2.5, ge=0, le=100)
    """The graph score counted at most."""
    below_top: float = Field(default=-3.59, ge=-100, le=100)
    """Per unit the hit's cosine lies below the question's nearest memory's."""
    rerank: float = Field(default=0.0, ge=-100, le=100)
    """Per unit of the cross-encoder's score, when one reranked the hit (0: not read; not fitted,
    no cross-encoder is in the dev runs)."""
    rerank_center: float = Field(default=0.0, ge=-100, le=100)
    """The cross-encoder score that adds nothing."""
    min_relevance: float | None = Field(default=None, ge=0, le=1)
    """What ``search`` drops below when the call names no ``min_relevance`` (None: keep every
    hit). The value the dev sets recommend is :data:`RECOMMENDED_MIN_RELEVANCE`."""


RECOMMENDED_MIN_RELEVANCE = 0.033
"""The ``min_relevance`` chosen on the dev sets: the largest at which no set's on-topic R@5
falls by more than 1 point, or by one question where a question weighs more (LongMemEval's 48:
2.1 points). There 91 % of 4,492 off-topic searches get no hit (benchmarks/RESULTS.md,
docs/relevance.md). Not applied unless asked (``relevance.min_relevance`` or
``search(min_relevance=...)``)."""


class PackingConfig(_Config):
    """How much each packing signal counts in ``context()`` (``context/signals.py``, docs/context.md)."""

    base: float = 0.2
    """Worth of any sentence of a memory the search ranked, before any signal."""
    lexical: float = 1.0
    """Weight of the question's words (their weighted share of the question)."""
    chain: float = 0.6
    """A sentence that names a bridge entity."""
    answer_type: float = 0.3
    """A sentence holding what the question asks for (a date for "when"...), when it also
    shares a word with the question or names a bridge."""
    lead: float = 0.5
    """A memory's first sentence."""
    prior_half: float = 4.5
    """Rank at which the rank prior is half the top memory's (1 / (1 + rank / prior_half))."""
    repeat: float = 0.5
    """A word the context holds already counts this much again (then this squared...)."""
    repeat_latest: float | None = 1.0
    """``repeat`` for a question that asks for the latest state: a newer statement of what an
    older one said is the answer, not a repetition."""
    chain_half: float | None = 1.0
    """Rank at which a bridge entity's chain gain is half (None: every bridge counts whole)."""
    cost_power: float = 0.5
    """Candidates are ranked by gain / tokens ** cost_power (1: per token)."""
    day: float = 0.6
    """A sentence whose relative time words name a day the question asks about."""
    assistant: float = 0.5
    """Rank prior factor of an assistant's turns (they restate the user's words)."""
