"""Fusion schemes compared by leave-one-dataset-out: ``python -m benchmarks fusion dump | lodo``.

``dump`` asks every question of a dataset through the default search (``Tenant.explain``) and
writes what fusion received, one JSON line per question: each channel's candidates with their
scores, the keyword channel's unit (the question's idf mass) and the cosine similarity of the
graph and links candidates. ``lodo`` re-fuses those candidates with every scheme and setting below:
for each dev dataset left out, each scheme's setting is the one with the best mean of
(R@5 + R@10) / 2 over the *other* datasets, and its figures on the one left out are reported. A
scheme that only wins where it was fitted shows it there.

Schemes (the vector, keyword and graph channels; the links channel and the leanings come after
fusion and are measured by the harness's ablations):

- ``absolute`` (the default): cosine + w_k x BM25 / idf mass + w_g x graph score;
- ``scaled`` (the previous default): cosine min-max scaled over the candidates + w_k x BM25 / best
  BM25 + w_g x graph score;
- ``rrf``: reciprocal rank fusion, sum of w_c / (k + rank_c);
- ``zscore``: each channel's scores standardised over its own candidates (absent = its lowest);
- ``combmnz``: min-max normalised scores summed, times the number of channels that found it;
- ``learned``: a logistic regression over the channels' scores and ranks (9 features), fitted on
  the other datasets' questions (each dataset weighing the same), no grid.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np

Ranker = Callable[[dict[str, Any]], list[str]]
MUSIQUE_FOLD = "musique-100"


# --- dump -------------------------------------------------------------------------------------
def dump(dataset: Any, mem: Any, out: Path, *, k: int = 10, progress: bool = True) -> int:
    """Write one line per question of ``dataset`` (a ``benchmarks.datasets.Dataset`` already
    ingested in ``mem``); returns how many were written."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    from falkmem.ranking.leanings import asks_only

    n = 0
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for data in dataset.tenants:
            handle = mem.tenant(data.tenant)
            for q in tqdm(data.questions, desc=f"dump {data.tenant}", leave=False, disable=not progress):
                r = handle._retrieve(q.text, k=k, route="auto", max_hops=None, now=q.now)
                lq = r.question
                f.write(json.dumps({
                    "dataset": dataset.name, "tenant": data.tenant, "group": data.group, "id": q.id,
                    "category": q.category, "gold": list(q.gold), "route": r.plan.route,
                    "channels": r.channels, "units": r.units, "similarity": r.similarity,
                    "default": [h.id for h in r.hits],
                    # what the leanings read: each candidate's speaker, time, whether it only asks, how little it says
                    "rows": {i: [a.get("speaker"), a.get("valid_at"), asks_only(a["text"]) if "text" in a else False]
                             for i, a in r.rows.items()},
                    "leanings": None if lq is None else {
                        "speakers": sorted(lq.speakers), "said": lq.said, "names": list(lq.names), "role": lq.role, "window": lq.window,
                        "explicit": lq.explicit, "order": lq.order},
                }) + "\n")  # fmt: skip
                n += 1
    return n


def read(paths: Iterable[Path]) -> dict[str, list[dict[str, Any]]]:
    """Dumped questions by dataset (MuSiQue-100's two tenants apart: ``musique-rules``, ``musique-openie``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                q = json.loads(line)
                name = q["tenant"] if q["dataset"] == "musique" else q["dataset"]
                out.setdefault(name, []).append(q)
    return out


def fold_of(dataset: str) -> str:
    """MuSiQue-100's rules and OpenIE tenants share their questions: they are left out together."""
    return MUSIQUE_FOLD if dataset.startswith("musique-") else dataset


# --- schemes ----------------------------------------------------------------------------------
def _lists(
    q: Mapping[str, Any],
) -> tuple[list[tuple[str, float]], list[tuple[str, float]], list[tuple[str, float]]]:
    ch = q["channels"]
    return ([(i, float(s)) for i, s in ch.get("vector", [])], [(i, float(s)) for i, s in ch.get("keyword", [])],
            [(i, float(s)) for i, s in ch.get("graph", [])])  # fmt: skip


def _ranked(scores: Mapping[str, float]) -> list[str]:
    return sorted(scores, key=lambda i: (-scores[i], i))


def _cosines(q: Mapping[str, Any]) -> dict[str, float]:
    vec, kw, gr = _lists(q)
    sims = dict(vec)
    floor = min(sims.values(), default=0.0)
    out = {i: sims.get(i, float(q["similarity"].get(i, floor))) for i in {*sims, *dict(kw), *dict(gr)}}
    return {i: (s if i in sims or i in q["similarity"] else floor) for i, s in out.items()}


def absolute(wk: float, wg: float) -> Ranker:
    def rank(q: dict[str, Any]) -> list[str]:
        _, kw, gr = _lists(q)
        mass = float(q["units"].get("keyword") or 0.0) or 1.0
        kd, gd = dict(kw), dict(gr)
        return _ranked(
            {i: c + wk * kd.get(i, 0.0) / mass + wg * gd.get(i, 0.0) for i, c in _cosines(q).items()}
        )

    return rank


def scaled(wk: float, wg: float) -> Ranker:
    def rank(q: dict[str, Any]) -> list[str]:
        _, kw, gr = _lists(q)
        cos = _cosines(q)
        lo, hi = min(cos.values(), default=0.0), max(cos.values(), default=0.0)
        best = max((s for _, s in kw), default=0.0) or 1.0
        kd, gd = dict(kw), dict(gr)
        span = hi - lo
        return _ranked({i: ((c - lo) / span if span > 0 else 1.0) + wk * kd.get(i, 0.0) / best + wg * gd.get(i, 0.0)
                        for i, c in cos.items()})  # fmt: skip

    return rank


def rrf(k: int, wk: float, wg: float) -> Ranker:
    def rank(q: dict[str, Any]) -> list[str]:
        vec, kw, gr = _lists(q)
        out: dict[str, float] = {}
        for lst, w in ((vec, 1.0), (kw, wk), (gr, wg)):
            for r, (i, _) in enumerate(lst):
                out[i] = out.get(i, 0.0) + w / (k + r + 1)
        return _ranked(out)

    return rank


def _z(lst: Sequence[tuple[str, float]]) -> tuple[dict[str, float], float]:
    if len(lst) < 2:
        return {i: 0.0 for i, _ in lst}, 0.0
    a = np.array([s for _, s in lst])
    mu, sd = float(a.mean()), float(a.std()) or 1.0
    return {i: (s - mu) / sd for i, s in lst}, (float(a.min()) - mu) / sd


def zscore(wk: float, wg: float) -> Ranker:
    def rank(q: dict[str, Any]) -> list[str]:
        vec, kw, gr = _lists(q)
        ids = {i for lst in (vec, kw, gr) for i, _ in lst}
        out = dict.fromkeys(ids, 0.0)
        for lst, w in ((vec, 1.0), (kw, wk), (gr, wg)):
            if not lst:
                continue
            z, low = _z(lst)
            for i in ids:
                out[i] += w * z.get(i, low)
        return _ranked(out)

    return rank


def combmnz(wk: float, wg: float) -> Ranker:
    def rank(q: dict[str, Any]) -> list[str]:
        vec, kw, gr = _lists(q)
        total: dict[str, float] = {}
        hits: dict[str, int] = {}
        for lst, w in ((vec, 1.0), (kw, wk), (gr, wg)):
            if not lst:
                continue
            lo, hi = min(s for _, s in lst), max(s for _, s in lst)
            for i, s in lst:
                total[i] = total.get(i, 0.0) + w * ((s - lo) / (hi - lo) if hi > lo else 1.0)
                hits[i] = hits.get(i, 0) + 1
        return _ranked({i: v * hits[i] for i, v in total.items()})

    return rank


FEATURES = ("cos", "cos_scaled", "kw_abs", "kw_rel", "rank_v", "rank_k", "graph", "in_v", "in_k")


def features(q: Mapping[str, Any]) -> tuple[list[str], np.ndarray]:
    """The learned scheme's features of each candidate of one question."""
    vec, kw, gr = _lists(q)
    cos = _cosines(q)
    ids = sorted(cos)
    lo, hi = min(cos.values(), default=0.0), max(cos.values(), default=0.0)
    mass = float(q["units"].get("keyword") or 0.0) or 1.0
    best = max((s for _, s in kw), default=0.0) or 1.0
    rv = {i: r for r, (i, _) in enumerate(vec)}
    rk = {i: r for r, (i, _) in enumerate(kw)}
    kd, gd = dict(kw), dict(gr)
    x = np.array([[cos[i], (cos[i] - lo) / (hi - lo) if hi > lo else 1.0, kd.get(i, 0.0) / mass, kd.get(i, 0.0) / best,
                   10.0 / (10 + rv[i]) if i in rv else 0.0, 10.0 / (10 + rk[i]) if i in rk else 0.0, gd.get(i, 0.0),
                   float(i in rv), float(i in rk)] for i in ids]).reshape(len(ids), len(FEATURES))  # fmt: skip
    return ids, x


def fit_logistic(rows: Sequence[tuple[np.ndarray, np.ndarray, float]], l2: float = 1e-3) -> np.ndarray:
    """Weights (and a bias) of a logistic regression; ``rows`` are (features, labels, weight) per question."""
    from scipy.optimize import minimize

    x = np.vstack([r[0] for r in rows])
    y = np.concatenate([r[1] for r in rows])
    w = np.concatenate([np.full(len(r[1]), r[2] / len(r[1])) for r in rows])
    x1 = np.hstack([x, np.ones((len(x), 1))])

    def loss(b: np.ndarray) -> tuple[float, np.ndarray]:
        p = 1.0 / (1.0 + np.exp(-(x1 @ b)))
        value = (
            -(w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))).sum() + l2 * (b[:-1] ** 2).sum()
        )
        grad = x1.T @ (w * (p - y)) + np.concatenate([2 * l2 * b[:-1], [0.0]])
        return float(value), grad

    return np.asarray(minimize(loss, np.zeros(x1.shape[1]), jac=True, method="L-BFGS-B").x)


def learned(weights: np.ndarray) -> Ranker:
    def rank(q: dict[str, Any]) -> list[str]:
        ids, x = features(q)
        return _ranked(dict(zip(ids, (x @ weights[:-1]).tolist(), strict=True)))

    return rank


def with_leanings(wk: float, wg: float, wl: float = 0.3, strength: float = 0.0, gap: float = 0.5) -> Ranker:
    """The default search's fusion from the dump: ``absolute`` plus the links channel as dumped
    (its weights were computed at the shipped settings) and the leanings (``ranking/leanings.py``)."""
    from falkmem.config import LeanConfig
    from falkmem.ranking.fusion import Candidate, fuse_scores, reliabilities
    from falkmem.ranking.leanings import QuestionLeanings, lean
    from falkmem.retrieval.pipeline import ROLES

    def rank(q: dict[str, Any]) -> list[str]:
        lists = {name: [Candidate(i, float(s), name, n + 1) for n, (i, s) in enumerate(lst)]
                 for name, lst in q["channels"].items()}  # fmt: skip
        sure = reliabilities(lists, strength=strength, gap=gap)
        fused = fuse_scores(lists, similarity=q["similarity"], weights={"keyword": wk * sure.get("keyword", 1.0), "graph": wg, "links": wl},
                            units={"keyword": float(q["units"].get("keyword") or 0.0)})  # fmt: skip
        lq = q.get("leanings")
        if not lq:
            return [f.id for f in fused]
        rows = {i: {"speaker": r[0], "valid_at": r[1], "asks": r[2]} for i, r in q["rows"].items()}
        question = QuestionLeanings(speakers=frozenset(lq["speakers"]), said=lq.get("said", ""),
                                    names=tuple(lq.get("names", ())), role=lq["role"],
                                    window=tuple(lq["window"]) if lq["window"] else None,
                                    explicit=lq["explicit"], order=lq["order"])  # fmt: skip
        return [f.id for f in lean(fused, rows, question, LeanConfig(), roles=ROLES)]

    return rank


@dataclass(frozen=True)
class Scheme:
    name: str
    grid: tuple[dict[str, Any], ...]
    make: Callable[..., Ranker]


def schemes() -> list[Scheme]:
    w = (0.25, 0.5, 1.0, 1.5, 2.0)
    grid = tuple({"wk": a, "wg": b} for a, b in product((0.2, 0.3, 0.45, 0.6, 0.8), (0.15, 0.2, 0.3, 0.4)))
    reliable = tuple(
        {"wk": 0.45, "wg": 0.3, "strength": a, "gap": g}
        for a in (0.0, 0.7, 1.0)
        for g in (0.3, 0.4, 0.5, 0.6, 0.8)
    )
    return [
        Scheme("absolute + links + leanings, keyword reliability (the default)", reliable, with_leanings),
        Scheme("absolute + links + leanings (the default's weights)", grid, with_leanings),
        Scheme("absolute", grid, absolute),
        Scheme("scaled", tuple({"wk": a, "wg": b} for a, b in product((0.4, 0.6, 0.8, 1.0, 1.5), (0.25, 0.5, 1.0))), scaled),
        Scheme("rrf", tuple({"k": k, "wk": a, "wg": b} for k, a, b in product((5, 10, 20, 60), (0.5, 1.0, 1.5, 2.0), (0.5, 1.0, 2.0))), rrf),
        Scheme("zscore", tuple({"wk": a, "wg": b} for a, b in product(w, (0.25, 0.5, 1.0))), zscore),
        Scheme("combmnz", tuple({"wk": a, "wg": b} for a, b in product(w, (0.25, 0.5, 1.0))), combmnz),
    ]  # fmt: skip


# --- evaluation -------------------------------------------------------------------------------
def recall(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    g = set(gold)
    return len(g & set(ranked[:k])) / len(g) if g else 0.0


def evaluate(questions: Sequence[dict[str, Any]], ranker: Ranker) -> tuple[float, float]:
    """Mean R@5 and R@10 in %."""
    r5 = r10 = 0.0
    for q in questions:
        ranked = ranker(q)
        r5 += recall(ranked, q["gold"], 5)
        r10 += recall(ranked, q["gold"], 10)
    n = max(len(questions), 1)
    return 100 * r5 / n, 100 * r10 / n


def _objective(figures: Mapping[str, tuple[float, float]], datasets: Iterable[str]) -> float:
    by_fold: dict[str, list[float]] = {}
    for d in datasets:
        by_fold.setdefault(fold_of(d), []).append(sum(figures[d]) / 2)
    return float(np.mean([np.mean(v) for v in by_fold.values()]))


@dataclass
class Row:
    scheme: str
    held_out: str
    setting: str
    figures: dict[str, tuple[float, float]]


def lodo(
    data: Mapping[str, Sequence[dict[str, Any]]], only: int | None = None
) -> tuple[list[Row], dict[str, dict[str, tuple[float, float]]]]:
    """Each scheme's held-out figures per fold, and the reference rows (single channels, the dump's
    own default). ``only``: the first N schemes (and no learned one)."""
    folds = sorted({fold_of(d) for d in data})
    rows: list[Row] = []
    for scheme in schemes()[:only]:
        table = {json.dumps(p, sort_keys=True): {d: evaluate(qs, scheme.make(**p)) for d, qs in data.items()}
                 for p in scheme.grid}  # fmt: skip
        for held in folds:
            train = [d for d in data if fold_of(d) != held]
            best = max(table, key=lambda p: (_objective(table[p], train), p))
            rows.append(Row(scheme.name, held, best, {d: table[best][d] for d in data if fold_of(d) == held}))
    for held in folds if only is None else ():
        train = [d for d in data if fold_of(d) != held]
        fitted = [(x, np.array([1.0 if i in set(q["gold"]) else 0.0 for i in ids]), 1.0 / len(data[d]) / _fold_size(d, train))
                  for d in train for q in data[d] for ids, x in [features(q)]]  # fmt: skip
        wts = fit_logistic(fitted)
        rows.append(Row("learned", held, "logistic regression, fitted on the other folds",
                        {d: evaluate(data[d], learned(wts)) for d in data if fold_of(d) == held}))  # fmt: skip
    reference = {
        "vector alone": {d: evaluate(qs, lambda q: [i for i, _ in q["channels"].get("vector", [])]) for d, qs in data.items()},
        "keyword alone": {d: evaluate(qs, lambda q: [i for i, _ in q["channels"].get("keyword", [])]) for d, qs in data.items()},
        "default search (links and leanings included)": {d: evaluate(qs, lambda q: list(q["default"])) for d, qs in data.items()},
    }  # fmt: skip
    return rows, reference


def _fold_size(dataset: str, train: Sequence[str]) -> int:
    return sum(1 for d in train if fold_of(d) == fold_of(dataset))


def table(rows: Sequence[Row], reference: Mapping[str, Mapping[str, tuple[float, float]]]) -> str:
    """The markdown table: held-out R@5 / R@10 of each scheme on each dataset, and the settings chosen."""
    datasets = sorted({d for r in rows for d in r.figures})
    out = ["| scheme | " + " | ".join(f"{d} R@5 / R@10" for d in datasets) + " | mean R@5 / R@10 |",
           "| --- | " + " | ".join("---" for _ in datasets) + " | --- |"]  # fmt: skip
    for name in dict.fromkeys(r.scheme for r in rows):
        figs = {d: f for r in rows if r.scheme == name for d, f in r.figures.items()}
        out.append(_line(f"{name} (held out)", figs, datasets))
    for name, figs in reference.items():
        out.append(_line(name, figs, datasets))
    out += ["", "Settings chosen with each fold left out:", ""]
    out += [f"- {r.scheme}, {r.held_out} left out: {r.setting}" for r in rows]
    return "\n".join(out)


def _line(name: str, figs: Mapping[str, tuple[float, float]], datasets: Sequence[str]) -> str:
    cells = [f"{figs[d][0]:.1f} / {figs[d][1]:.1f}" if d in figs else "–" for d in datasets]
    mean5 = np.mean([figs[d][0] for d in datasets if d in figs])
    mean10 = np.mean([figs[d][1] for d in datasets if d in figs])
    return f"| {name} | " + " | ".join(cells) + f" | {mean5:.1f} / {mean10:.1f} |"


def iter_paths(paths: Sequence[str]) -> Iterator[Path]:
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise FileNotFoundError(
                f"{path}: no such dump (write one with `python -m benchmarks fusion dump`)"
            )
        yield path


# --- command line -----------------------------------------------------------------------------
def add_parsers(sub: Any) -> None:
    """``fusion dump`` and ``fusion lodo`` under ``python -m benchmarks``."""
    f = sub.add_parser("fusion", help="fusion schemes by leave-one-dataset-out (dump, then lodo)")
    fs = f.add_subparsers(dest="fusion_command", required=True)
    d = fs.add_parser("dump", help="write what fusion receives for every question of a stored dataset")
    d.add_argument("--dataset", required=True)
    d.add_argument("--path", type=Path, required=True, help="the store a `run --path` built (with --reuse)")
    d.add_argument("--out", type=Path, required=True, help="a .jsonl.gz file")
    d.add_argument("--data-dir", type=Path, default=None)
    d.add_argument("--no-progress", action="store_true")
    lo = fs.add_parser("lodo", help="each scheme's held-out figures from dumps of every dev dataset")
    lo.add_argument("dumps", nargs="+")
    lo.add_argument("--out", type=Path, default=None, help="also write the table (markdown) here")
    lo.add_argument("--schemes", type=int, default=None, help="only the first N schemes (1: the default's)")


def main(args: Any) -> int:
    import sys

    if args.fusion_command == "dump":
        from falkmem import Memory

        from . import datasets
        from .runner import make_embedder

        try:
            ds = datasets.load(args.dataset, data_dir=args.data_dir)
        except (datasets.DatasetMissing, datasets.DatasetInvalid, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        with Memory(args.path, embedder=make_embedder("minilm")) as mem:
            missing = [t.tenant for t in ds.tenants if not mem.has_tenant(t.tenant)]
            if missing:
                print(f"error: {args.path} holds no tenant {missing[0]!r}: build it with "
                      f"`python -m benchmarks run --dataset {args.dataset} --path {args.path}`", file=sys.stderr)  # fmt: skip
                return 2
            n = dump(ds, mem, args.out, progress=not args.no_progress)
        print(f"{n} questions -> {args.out}")
        return 0
    try:
        data = read(iter_paths(args.dumps))
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rows, reference = lodo(data, args.schemes)
    text = table(rows, reference)
    sys.stdout.write(text + "\n")
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0
