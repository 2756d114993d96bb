"""The memories and questions of ``python -m benchmarks scale``: real chat turns, cycled.

One tenant grows through a fixed stream of memories: the turns of the dev sets' chats
(LongMemEval dev: ~23,300 distinct turns, REALTALK: ~8,900 messages), or their passages
(MuSiQue-100 and MuSiQue-200), repeated as often as the wanted size needs. Memory ``i`` of the
stream is always the same memory (text, id, session, time, vector), so a tenant grown to 10k
and later to 100k holds the same first 10k memories, and a run can resume where another stopped.

* The sessions that hold a question's evidence come first (every question's gold memories are
  in the tenant from the first size on); the other sessions follow in a seeded shuffle. Cycle
  ``c`` repeats that order with ids and sessions prefixed ``c<c>/``: a turn said again, in
  another session. Times are kept (a copy is not dated later).
* Gold is a question's evidence *texts*: any copy of an evidence turn answers it, and recall@k
  counts the evidence texts that have a copy in the top k.
* Vectors: ``random`` (a unit vector drawn from a seeded generator per block of 1,000
  positions: the HNSW index's real cost with no embedder in the way, the issue's setup) or
  ``minilm`` (each distinct text embedded once with all-MiniLM-L6-v2 and cached under the
  store's folder; a copy gets its text's vector plus a little noise, cosine ~0.99, so copies
  are near-duplicates, not identical points of the index).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .datasets import longmemeval, musique, musique200, realtalk
from .datasets.base import MemoryItem, TenantData

SOURCES = ("chat", "longmemeval", "realtalk", "passages")
"""``chat`` = LongMemEval turns + REALTALK messages (the default); ``passages`` = MuSiQue-100 + -200."""

DIMENSION = 384
BLOCK = 1_000
"""Positions per random-vector block (a block's vectors come from one seeded generator)."""
COPY_NOISE = 0.005
"""Standard deviation per coordinate of the noise a ``minilm`` copy adds (cosine to the text's ~0.99)."""


@dataclass(frozen=True, slots=True)
class ScaleQuestion:
    """A real question, when it is asked, and the texts that answer it."""

    id: str
    text: str
    source: str
    gold_texts: frozenset[str]
    now: str | None = None


@dataclass
class Stream:
    """The base memories (one cycle) and the questions; :meth:`records` gives any slice of the stream."""

    base: list[MemoryItem]
    questions: list[ScaleQuestion]
    source: str
    seed: int = 7
    vectors: str = "random"
    text_vectors: np.ndarray | None = None
    """``minilm``: one row per base memory (its text's vector)."""

    def __len__(self) -> int:
        return len(self.base)

    def item(self, pos: int) -> tuple[int, MemoryItem]:
        """(cycle, base memory) of stream position ``pos``."""
        return divmod(pos, len(self.base))[0], self.base[pos % len(self.base)]

    def records(self, start: int, stop: int) -> Iterator[dict[str, Any]]:
        """The ``add_many`` records of positions ``start`` (inclusive) to ``stop`` (exclusive)."""
        block_no, block = -1, np.empty((0, DIMENSION), dtype=np.float32)
        for pos in range(start, stop):
            cycle, m = self.item(pos)
            if pos // BLOCK != block_no:
                block_no = pos // BLOCK
                block = self._block(block_no)
            rec = m.record()
            if cycle:
                rec["id"] = f"c{cycle}/{m.id}"
                if m.session is not None:
                    rec["session"] = f"c{cycle}/{m.session}"
            rec["embedding"] = block[pos % BLOCK].tolist()
            yield rec

    def _block(self, block_no: int) -> np.ndarray:
        rng = np.random.default_rng([self.seed, block_no])
        noise = rng.standard_normal((BLOCK, DIMENSION)).astype(np.float32)
        if self.vectors == "random":
            out = noise
        else:
            assert self.text_vectors is not None
            n = len(self.base)
            idx = [(block_no * BLOCK + i) % n for i in range(BLOCK)]
            cycles = [(block_no * BLOCK + i) // n for i in range(BLOCK)]
            scale = np.array([[COPY_NOISE if c else 0.0] for c in cycles], dtype=np.float32)
            out = self.text_vectors[idx] + noise * scale
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def raw_bytes(self, n: int) -> int:
        """Bytes of the first ``n`` memories' raw data: text (UTF-8) and vector (384 float32)."""
        cycles, rest = divmod(n, len(self.base))
        per_cycle = sum(len(m.text.encode()) for m in self.base)
        return cycles * per_cycle + sum(len(m.text.encode()) for m in self.base[:rest]) + n * DIMENSION * 4


def _prefixed(t: TenantData, prefix: str) -> list[MemoryItem]:
    """A tenant's memories with ids and sessions made unique across tenants (REALTALK reuses ``D1:1``)."""
    out = []
    for m in t.memories:
        out.append(MemoryItem(id=f"{prefix}{m.id}", text=m.text, kind=m.kind,
                              session=f"{prefix}{m.session}" if m.session else None,
                              speaker=m.speaker, user=m.user, at=m.at))  # fmt: skip
    return out


def _sources(source: str, data_dir: Path | None) -> list[tuple[str, list[TenantData]]]:
    if source == "chat":
        return [("longmemeval", longmemeval.load(data_dir=data_dir).tenants),
                ("realtalk", realtalk.load(data_dir=data_dir).tenants)]  # fmt: skip
    if source == "longmemeval":
        return [("longmemeval", longmemeval.load(data_dir=data_dir).tenants)]
    if source == "realtalk":
        return [("realtalk", realtalk.load(data_dir=data_dir).tenants)]
    if source == "passages":
        return [("musique", musique.load(data_dir=data_dir).tenants[:1]),
                ("musique200", musique200.load(data_dir=data_dir).tenants)]  # fmt: skip
    raise ValueError(f"unknown source {source!r}; choose from {', '.join(SOURCES)}")


def _pick(per_source: list[list[tuple[TenantData, Any]]], n: int) -> list[tuple[TenantData, Any]]:
    """``n`` questions spread over the sources: round-robin over each source's tenants."""
    picked: list[tuple[TenantData, Any]] = []
    lanes = [list(lane) for lane in per_source]
    while len(picked) < n and any(lanes):
        for lane in lanes:
            if lane and len(picked) < n:
                picked.append(lane.pop(0))
    return picked


def build(
    source: str = "chat", *, questions: int = 100, seed: int = 7, data_dir: Path | None = None
) -> Stream:
    """The stream of ``source``: gold sessions first, then every other session in a seeded order.

    Raises:
        DatasetMissing, DatasetInvalid: as the dataset loaders.
    """
    loaded = _sources(source, data_dir)
    sessions: dict[str, list[MemoryItem]] = {}
    order: list[str] = []
    per_source: list[list[tuple[TenantData, Any]]] = []
    prefix_of: dict[int, str] = {}
    seen: set[str] = set()
    for name, tenants in loaded:
        lane: list[tuple[TenantData, Any]] = []
        # one question per tenant first (LongMemEval: one each; REALTALK: round-robin over chats)
        depth = max((len(t.questions) for t in tenants), default=0)
        for i in range(depth):
            lane += [(t, t.questions[i]) for t in tenants if i < len(t.questions)]
        per_source.append(lane)
        for t in tenants:
            prefix = "" if name == "longmemeval" else f"{t.tenant}/"
            prefix_of[id(t)] = prefix
            for m in _prefixed(t, prefix):
                if m.id in seen:  # a LongMemEval session shared by several questions' haystacks
                    continue
                seen.add(m.id)
                key = m.session or f"{prefix}solo:{m.id}"
                if key not in sessions:
                    sessions[key] = []
                    order.append(key)
                sessions[key].append(m)
    chosen = _pick(per_source, questions)
    text_of = {m.id: m.text for ms in sessions.values() for m in ms}
    session_of = {m.id: key for key, ms in sessions.items() for m in ms}
    out_q: list[ScaleQuestion] = []
    gold_sessions: list[str] = []
    for t, q in chosen:
        prefix = prefix_of[id(t)]
        src = next(name for name, ts in loaded if any(x is t for x in ts))
        own = {m.id: m.text for m in t.memories}
        texts = frozenset(own[g] for g in q.gold if g in own)
        out_q.append(ScaleQuestion(id=q.id, text=q.text, source=src, gold_texts=texts, now=q.now))
        for g in q.gold:
            s = session_of.get(f"{prefix}{g}")
            if s is not None and s not in gold_sessions and text_of.get(f"{prefix}{g}") in texts:
                gold_sessions.append(s)
    rest = [s for s in order if s not in set(gold_sessions)]
    random.Random(seed).shuffle(rest)
    base = [m for key in gold_sessions + rest for m in sessions[key]]
    return Stream(base=base, questions=out_q, source=source, seed=seed)


def embed_texts(stream: Stream, cache: Path, embed: Any, *, batch: int = 64) -> None:
    """Give a ``minilm`` stream its text vectors: read from ``cache`` (``.npy``) or computed with ``embed``."""
    n = len(stream.base)
    if cache.exists():
        vec = np.load(cache)
        if vec.shape == (n, DIMENSION):
            stream.text_vectors, stream.vectors = vec.astype(np.float32), "minilm"
            return
    texts = [m.text for m in stream.base]
    out = np.empty((n, DIMENSION), dtype=np.float32)
    for i in range(0, n, batch):
        out[i : i + batch] = np.asarray(embed(texts[i : i + batch]), dtype=np.float32)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, out)
    stream.text_vectors, stream.vectors = out, "minilm"


def gold_present(stream: Stream, n: int) -> dict[str, set[str]]:
    """Text → the ids of its copies among the first ``n`` memories (only evidence texts)."""
    wanted = {t for q in stream.questions for t in q.gold_texts}
    out: dict[str, set[str]] = {}
    for pos in range(n):
        cycle, m = stream.item(pos)
        if m.text in wanted:
            out.setdefault(m.text, set()).add(m.id if not cycle else f"c{cycle}/{m.id}")
    return out


def recall_at(
    ranked: Sequence[str], gold_texts: frozenset[str], copies: dict[str, set[str]], k: int
) -> float | None:
    """Share of a question's evidence texts with a copy in the top ``k`` (None: none is stored yet)."""
    present = [t for t in gold_texts if t in copies]
    if not present:
        return None
    top = set(ranked[:k])
    return sum(1 for t in present if copies[t] & top) / len(present)
