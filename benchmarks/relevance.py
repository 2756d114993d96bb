"""``Hit.relevance`` fitted and its threshold chosen: ``python -m benchmarks relevance dump | fit``.

``dump`` asks three kinds of questions of each stored dev set and writes, one JSON line per
search, the evidence of each of its ``k`` hits (``falkmem/ranking/relevance.py::Evidence``) and
which hits are gold:

- ``on``: the set's own questions (gold: their evidence);
- ``general``: the off-topic questions of ``benchmarks/offtopic.txt`` (100 general-knowledge and
  other-domain questions written for this, that no dev tenant answers), asked of each of the
  set's first ``--tenants`` tenants;
- ``foreign``: up to ``--foreign`` questions of every *other* dev set (MuSiQue-100 and
  MuSiQue-200 share a corpus: never each other's), each asked of one of this set's tenants in
  turn.

``fit`` fits the logistic weights of :class:`~falkmem.config.RelevanceConfig` on the dumps
(every dev set weighing the same, its on-topic and off-topic searches half each), then picks the
threshold: the largest ``t`` at which on-topic R@5 falls by at most ``--max-drop`` points on every
set when the hits below ``t`` are dropped. It reports, per set, the share of off-topic searches
that keep no hit and the R@5 drop, fitted on every set and with each set left out of the fit
(weights and threshold both chosen on the others), and how well the values are calibrated.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from falkmem.config import RelevanceConfig
from falkmem.ranking.relevance import Evidence, evidence, match, relevance

OFFTOPIC = Path(__file__).with_name("offtopic.txt")
FAMILY = {"musique": "musique", "musique200": "musique"}
"""Datasets that share a corpus: their questions are not off-topic for each other."""
DEV_SETS = ("realtalk", "longmemeval", "musique", "musique200", "beam")
FIELDS = ("cosine", "keyword", "graph", "top_cosine", "near_cosine", "top_keyword", "top_held", "max_idf")
"""What the dump records of each hit (``Evidence``'s fields but ``rerank``, which follows them)."""


def offtopic() -> list[str]:
    """The off-topic questions, one a line."""
    return [line.strip() for line in OFFTOPIC.read_text(encoding="utf-8").splitlines() if line.strip()]


def family(name: str) -> str:
    return FAMILY.get(name, name)


# --- dump -------------------------------------------------------------------------------------
def _search(handle: Any, text: str, k: int, now: str | None = None) -> list[list[Any]]:
    """One search: each hit as ``[id, *FIELDS, rerank]``."""
    r = handle._retrieve(text, k=k, route="auto", max_hops=None, now=now)
    head = r.reranked[:k]
    ev = evidence(head, vector=r.channels.get("vector", []), similarity=r.similarity, held=r.held,
                  mass=r.units.get("keyword", 0.0), max_idf=r.max_idf)  # fmt: skip
    hits = {h.id for h in r.hits}
    return [
        [f.id, *(round(getattr(ev[f.id], n), 5) for n in FIELDS), ev[f.id].rerank]
        for f in head
        if f.id in hits
    ]


def dump(
    dataset: Any,
    mem: Any,
    out: Path,
    *,
    foreign: Mapping[str, Any],
    tenants: int = 10,
    per_foreign: int = 100,
    k: int = 10,
    progress: bool = True,
) -> int:
    """Write the searches of ``dataset`` (already stored in ``mem``); returns how many."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    n = 0
    general = offtopic()
    with gzip.open(out, "wt", encoding="utf-8") as f:

        def write(kind: str, tenant: str, qid: str, gold: Sequence[str], hits: list[list[Any]]) -> None:
            nonlocal n
            f.write(json.dumps({"dataset": dataset.name, "kind": kind, "tenant": tenant, "id": qid,
                                "gold": list(gold), "hits": hits}) + "\n")  # fmt: skip
            n += 1

        for data in dataset.tenants:
            handle = mem.tenant(data.tenant)
            for q in tqdm(data.questions, desc=f"on {data.tenant}", leave=False, disable=not progress):
                write("on", data.tenant, q.id, q.gold, _search(handle, q.text, k, q.now))
        for data in dataset.tenants[:tenants]:
            handle = mem.tenant(data.tenant)
            for i, text in enumerate(
                tqdm(general, desc=f"general {data.tenant}", leave=False, disable=not progress)
            ):
                write("general", data.tenant, f"general-{i}", (), _search(handle, text, k))
        for name, other in foreign.items():
            qs = [q for t in other.tenants for q in t.questions]
            random.Random(7).shuffle(qs)
            for i, q in enumerate(
                tqdm(qs[:per_foreign], desc=f"foreign {name}", leave=False, disable=not progress)
            ):
                data = dataset.tenants[i % len(dataset.tenants)]
                write(f"foreign:{name}", data.tenant, q.id, (), _search(mem.tenant(data.tenant), q.text, k))
    return n


# --- fit --------------------------------------------------------------------------------------
@dataclass
class Search:
    """One dumped search."""

    dataset: str
    kind: str
    gold: frozenset[str]
    ids: list[str]
    x: np.ndarray
    """One row of :data:`FIELDS` per hit."""
    rerank: list[float | None]
    qid: str = ""
    tenant: str = ""

    @property
    def on(self) -> bool:
        return self.kind == "on"

    def labels(self) -> np.ndarray:
        return np.array([1.0 if i in self.gold else 0.0 for i in self.ids])


def read(paths: Iterable[Path]) -> list[Search]:
    out: list[Search] = []
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                q = json.loads(line)
                x = np.array([h[1:-1] for h in q["hits"]], dtype=float).reshape(len(q["hits"]), len(FIELDS))
                out.append(Search(q["dataset"], q["kind"], frozenset(q["gold"]), [h[0] for h in q["hits"]], x,
                                  [h[-1] for h in q["hits"]], q["id"], q["tenant"]))  # fmt: skip
    return out


QUESTION = ("top_cosine", "near_cosine", "top_keyword", "match")
"""The question's evidence (``RelevanceConfig.question_*``; ``match`` as
``falkmem.ranking.relevance.match``)."""
HIT = ("cosine", "keyword", "graph", "below_top")
"""The hit's evidence (``RelevanceConfig``'s weights of the same names; ``below_top`` is
``top_cosine - cosine``)."""


def _col(name: str) -> int:
    return FIELDS.index(name)


def question_x(s: Search) -> np.ndarray:
    """One row: the question's evidence (the same on every hit of a search)."""
    first = Evidence(**dict(zip(FIELDS, s.x[0].tolist(), strict=True)))
    return np.array([[*(getattr(first, n) for n in QUESTION[:-1]), match(first)]])


def hit_x(s: Search, graph_cap: float) -> np.ndarray:
    """One row per hit: its evidence."""
    x = s.x
    return np.column_stack([x[:, _col("cosine")], x[:, _col("keyword")], np.minimum(x[:, _col("graph")], graph_cap),
                            x[:, _col("top_cosine")] - x[:, _col("cosine")]])  # fmt: skip


def logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1e-4) -> np.ndarray:
    """Weights then intercept of a weighted logistic regression (L2 on the weights)."""
    from scipy.optimize import minimize

    x1 = np.hstack([x, np.ones((len(x), 1))])

    def loss(b: np.ndarray) -> tuple[float, np.ndarray]:
        p = 1.0 / (1.0 + np.exp(-(x1 @ b)))
        value = (
            -(w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))).sum() + l2 * (b[:-1] ** 2).sum()
        )
        grad = x1.T @ (w * (p - y)) + np.concatenate([2 * l2 * b[:-1], [0.0]])
        return float(value), grad

    return np.asarray(minimize(loss, np.zeros(x1.shape[1]), jac=True, method="L-BFGS-B").x)


def fit(searches: Sequence[Search], *, graph_cap: float = 2.5) -> RelevanceConfig:
    """The two logistic models of :class:`RelevanceConfig`, each dev set weighing the same:

    - the question's: on-topic searches (label 1) against off-topic ones (0), half each;
    - the hit's: every hit of the on-topic searches, gold or not, each search the same.
    """
    sets = sorted({s.dataset for s in searches})
    qx, qy, qw, hx, hy, hw = [], [], [], [], [], []
    for d in sets:
        on = [s for s in searches if s.dataset == d and s.on and s.ids]
        off = [s for s in searches if s.dataset == d and not s.on and s.ids]
        for group, label in ((on, 1.0), (off, 0.0)):
            for s in group:
                qx.append(question_x(s))
                qy.append(label)
                qw.append(1.0 / len(sets) / 2 / len(group))
        for s in on:
            hx.append(hit_x(s, graph_cap))
            hy.append(s.labels())
            hw.append(np.full(len(s.ids), 1.0 / len(sets) / len(on) / len(s.ids)))
    bq = logistic(np.vstack(qx), np.array(qy), np.array(qw))
    bh = logistic(np.vstack(hx), np.concatenate(hy), np.concatenate(hw))
    r = lambda v: round(float(v), 3)  # noqa: E731
    return RelevanceConfig(
        question_intercept=r(bq[-1]), **{f"question_{n}": r(v) for n, v in zip(QUESTION, bq[:-1], strict=True)},
        intercept=r(bh[-1]), **{n: r(v) for n, v in zip(HIT, bh[:-1], strict=True)}, graph_cap=graph_cap,
    )  # fmt: skip


def scores(s: Search, cfg: RelevanceConfig) -> list[float]:
    """The library's relevance of each hit of ``s`` under ``cfg``."""
    return [relevance(Evidence(**dict(zip(FIELDS, row, strict=True)), rerank=rr), cfg)
            for row, rr in zip(s.x.tolist(), s.rerank, strict=True)]  # fmt: skip


def recall5(ids: Sequence[str], gold: frozenset[str]) -> float:
    return len(gold & set(ids[:5])) / len(gold) if gold else 0.0


@dataclass
class Figures:
    """One dataset at one threshold."""

    r5: float
    """On-topic R@5 with every hit (%)."""
    r5_kept: float
    """On-topic R@5 with the hits below the threshold dropped (%)."""
    no_hit: dict[str, float]
    """Off-topic searches left with no hit (%), by kind (``general``, ``foreign``)."""
    on_empty: float
    """On-topic searches left with no hit (%)."""

    @property
    def drop(self) -> float:
        return self.r5 - self.r5_kept


def figures(searches: Sequence[Search], rel: Mapping[int, list[float]], t: float) -> Figures:
    """R@5 with and without the hits below ``t``, and the off-topic searches emptied."""
    on = [(s, rel[id(s)]) for s in searches if s.on]
    r5 = float(np.mean([recall5(s.ids, s.gold) for s, _ in on])) if on else 0.0
    kept = (
        float(np.mean([recall5([i for i, v in zip(s.ids, r, strict=True) if v >= t], s.gold) for s, r in on]))
        if on
        else 0.0
    )
    empty = float(np.mean([all(v < t for v in r) for _, r in on])) if on else 0.0
    no_hit: dict[str, list[bool]] = {}
    for s in searches:
        if not s.on:
            no_hit.setdefault(s.kind.split(":")[0], []).append(all(v < t for v in rel[id(s)]))
    return Figures(100 * r5, 100 * kept, {k: 100 * float(np.mean(v)) for k, v in no_hit.items()}, 100 * empty)


def by_dataset(searches: Sequence[Search]) -> dict[str, list[Search]]:
    out: dict[str, list[Search]] = {}
    for s in searches:
        out.setdefault(s.dataset, []).append(s)
    return out


def threshold(data: Mapping[str, Sequence[Search]], cfg: RelevanceConfig, *, max_drop: float = 1.0) -> float:
    """The largest threshold (steps of 0.0005 up to 0.05, then 0.005) at which no dataset's R@5
    falls by more than ``max_drop`` points (LongMemEval's 48 questions: no gold turn may go)."""
    rel = {id(s): scores(s, cfg) for ss in data.values() for s in ss}
    best = 0.0
    for t in np.concatenate([np.arange(0.0005, 0.05, 0.0005), np.arange(0.05, 1.0, 0.005)]):
        if all(figures(ss, rel, float(t)).drop <= max_drop + 1e-9 for ss in data.values()):
            best = round(float(t), 4)
        else:
            break
    return best


def calibration(
    searches: Sequence[Search], cfg: RelevanceConfig, bins: Sequence[float]
) -> list[tuple[str, int, float, float]]:
    """Per relevance bin: hits, mean relevance, share gold (%), over every search (each hit once)."""
    rows = []
    vals = [
        (v, 1.0 if i in s.gold else 0.0) for s in searches for i, v in zip(s.ids, scores(s, cfg), strict=True)
    ]
    for lo, hi in pairwise(bins):
        inside = [(v, y) for v, y in vals if lo <= v < hi or (hi == bins[-1] and v == hi)]
        if inside:
            rows.append((f"{lo:.2f}-{hi:.2f}", len(inside), float(np.mean([v for v, _ in inside])),
                         100 * float(np.mean([y for _, y in inside]))))  # fmt: skip
    return rows


@dataclass
class Fold:
    """Weights and threshold fitted without ``held_out`` (None: on every set), and the figures
    of each set at that threshold."""

    held_out: str | None
    config: RelevanceConfig
    threshold: float
    figures: dict[str, Figures]


def fold(data: Mapping[str, Sequence[Search]], held_out: str | None, *, max_drop: float = 1.0,
         graph_cap: float = 2.5) -> Fold:  # fmt: skip
    """Fit on every set but ``held_out``, choose the threshold there, measure every set."""
    train = {d: ss for d, ss in data.items() if d != held_out}
    cfg = fit([s for ss in train.values() for s in ss], graph_cap=graph_cap)
    t = threshold(train, cfg, max_drop=max_drop)
    rel = {id(s): scores(s, cfg) for ss in data.values() for s in ss}
    return Fold(held_out, cfg, t, {d: figures(ss, rel, t) for d, ss in data.items()})


def lodo(data: Mapping[str, Sequence[Search]], *, max_drop: float = 1.0) -> list[Fold]:
    """The fit on every set, then one fold per set left out."""
    return [fold(data, None, max_drop=max_drop), *(fold(data, d, max_drop=max_drop) for d in sorted(data))]


def _pct(v: float) -> str:
    return f"{v:.1f}"


def table(folds: Sequence[Fold], searches: Sequence[Search]) -> str:
    """The markdown tables: each set at the threshold fitted on every set and with it left out;
    the chosen weights; calibration."""
    full, held = folds[0], {f.held_out: f for f in folds[1:]}
    out = [f"Weights and threshold fitted on every set: **min_relevance {full.threshold}**.", "",
           "| dev set | R@5 every hit | R@5 kept | drop | off-topic no hit: general / foreign "
           "| left out of the fit: threshold, drop, no hit general / foreign |",
           "|---|---|---|---|---|---|"]  # fmt: skip
    for d in sorted(full.figures):
        f, h = full.figures[d], held.get(d)
        hf = h.figures[d] if h else None
        cell = (f"{h.threshold}: {hf.drop:+.1f}, {_pct(hf.no_hit.get('general', 0))} / {_pct(hf.no_hit.get('foreign', 0))}"
                if h and hf else "–")  # fmt: skip
        out.append(f"| {d} | {_pct(f.r5)} | {_pct(f.r5_kept)} | {f.drop:+.1f} | "
                   f"{_pct(f.no_hit.get('general', 0))} / {_pct(f.no_hit.get('foreign', 0))} | {cell} |")  # fmt: skip
    everything = [s for s in searches if not s.on]
    rel = {id(s): scores(s, full.config) for s in searches}
    pooled = (
        100 * float(np.mean([all(v < full.threshold for v in rel[id(s)]) for s in everything]))
        if everything
        else 0.0
    )
    out += [
        "",
        f"Off-topic searches left with no hit, all sets pooled: {pooled:.1f} % of {len(everything)}.",
        "",
    ]
    out += ["Calibration (fitted on every set; every hit of every search): relevance bin, hits, mean "
            "relevance, share gold:", ""]  # fmt: skip
    bins = [0.0, 0.01, 0.03, 0.1, 0.2, 0.3, 0.5, 1.0]
    out += ["| bin | hits | mean relevance | gold |", "|---|---|---|---|"]
    out += [f"| {b} | {n} | {m:.3f} | {g:.1f} % |" for b, n, m, g in calibration(searches, full.config, bins)]
    out += ["", "Weights (fitted on every set, then with each set left out):", ""]
    for f in folds:
        w = f.config.model_dump(exclude={"min_relevance", "rerank", "rerank_center", "graph_cap"})
        out.append(
            f"- {f.held_out or 'none'} left out: threshold {f.threshold}, "
            + ", ".join(f"{k} {v}" for k, v in w.items())
        )
    return "\n".join(out)


# --- command line -----------------------------------------------------------------------------
def add_parsers(sub: Any) -> None:
    """``relevance dump`` and ``relevance fit`` under ``python -m benchmarks``."""
    r = sub.add_parser("relevance", help="fit Hit.relevance and choose min_relevance (dump, then fit)")
    rs = r.add_subparsers(dest="relevance_command", required=True)
    d = rs.add_parser(
        "dump", help="every hit's evidence for on-topic and off-topic questions of a stored set"
    )
    d.add_argument("--dataset", required=True, choices=DEV_SETS)
    d.add_argument("--path", type=Path, required=True, help="the store a `run --path` built (read only)")
    d.add_argument("--out", type=Path, required=True, help="a .jsonl.gz file")
    d.add_argument("--tenants", type=int, default=10, help="tenants the general questions are asked of")
    d.add_argument("--foreign", type=int, default=100, help="questions of each other dev set")
    d.add_argument("--data-dir", type=Path, default=None)
    d.add_argument("--no-progress", action="store_true")
    f = rs.add_parser("fit", help="fit the weights, choose the threshold, report leave-one-dataset-out")
    f.add_argument("dumps", nargs="+")
    f.add_argument("--max-drop", type=float, default=1.0, help="R@5 points any set may lose (default 1)")
    f.add_argument("--out", type=Path, default=None, help="also write the tables (markdown) here")


def main(args: Any) -> int:
    import sys

    if args.relevance_command == "dump":
        from falkmem import Memory

        from . import datasets
        from .runner import make_embedder

        try:
            ds = datasets.load(args.dataset, data_dir=args.data_dir, questions=None)
            foreign = {n: datasets.load(n, data_dir=args.data_dir, questions=None)
                       for n in DEV_SETS if family(n) != family(args.dataset)}  # fmt: skip
        except (datasets.DatasetMissing, datasets.DatasetInvalid, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        with Memory(args.path, embedder=make_embedder("minilm")) as mem:
            missing = [t.tenant for t in ds.tenants if not mem.has_tenant(t.tenant)]
            if missing:
                print(f"error: {args.path} holds no tenant {missing[0]!r}: build it with "
                      f"`python -m benchmarks run --dataset {args.dataset} --path {args.path}`", file=sys.stderr)  # fmt: skip
                return 2
            n = dump(ds, mem, args.out, foreign=foreign, tenants=args.tenants, per_foreign=args.foreign,
                     progress=not args.no_progress)  # fmt: skip
        print(f"{n} searches -> {args.out}")
        return 0
    paths = [Path(p) for p in args.dumps]
    for p in paths:
        if not p.exists():
            print(
                f"error: {p}: no such dump (write one with `python -m benchmarks relevance dump`)",
                file=sys.stderr,
            )
            return 2
    searches = read(paths)
    text = table(lodo(by_dataset(searches), max_drop=args.max_drop), searches)
    sys.stdout.write(text + "\n")
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0
