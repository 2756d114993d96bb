"""Tables and the plot of a ``python -m benchmarks scale`` report (see scale.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

MB = 1_000_000


def _get(d: Any, *keys: str) -> Any:
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def _f(x: Any, spec: str = ".1f") -> str:
    return "–" if x is None else format(x, spec)


def point_line(p: dict[str, Any]) -> str:
    """One line of progress per size."""
    s = p["searches"]
    return (f"{p['memories']:>9,}: slice {p['ingest_slice']['rate_per_s']}/s, default p50 {s['default']['p50']} ms, "
            f"keyword {s['keyword alone']['p50']} ms, reopen {_get(p, 'reopen', 'reopen_s')} s, "
            f"rss {_f((p['memory']['rss'] or 0) / MB, '.0f')} MB, load {p['load_before']}")  # fmt: skip


def render(report: dict[str, Any]) -> str:
    """Markdown: the cost table, memory per memory, reopen and script start, recall per size."""
    pts = report["points"]
    head = (f"## Scale: one tenant, {report['source']} texts cycled, {report['vectors']} vectors "
            f"(commit {str(report.get('git_commit'))[:10]}{' dirty' if report.get('git_dirty') else ''})\n\n"
            f"`{report['command']}`\n\n"
            f"Opening the store at the start: {report.get('first_open_s')} s "
            f"(a reopen when the run resumes a stored tenant with no server running).\n\n")  # fmt: skip
    names = list(pts[0]["searches"]) if pts else []
    lines = [head, "| memories | ingest slice /s | segment /s | " + " | ".join(f"{n} p50 / p95 ms" for n in names)
             + " | load avg |", "|---:|---:|---:|" + "---:|" * len(names) + "---|"]  # fmt: skip
    for p in pts:
        s = p["searches"]
        cells = [f"{_f(s[n]['p50'])} / {_f(s[n]['p95'])}" for n in names]
        lines.append(f"| {p['memories']:,} | {p['ingest_slice']['rate_per_s']} | {p['ingest_segment']['rate_per_s']} | "
                     + " | ".join(cells) + f" | {p['load_before'][0]}–{p['load_after'][0]} |")  # fmt: skip
    lines += ["", "| memories | keyword stage p50 / p95 ms | reopen s (open + count) | first / second search ms "
              "| server RSS MB (after reopen) | used_memory MB | disk MB (rdb + aof) | RSS / memory KB "
              "| disk / memory KB | raw / memory KB |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for p in pts:
        n, m, r = p["memories"], p["memory"], p.get("reopen") or {}
        after = _get(p, "memory_after_reopen", "rss")
        kw = _get(p, "searches", "default", "stages", "keyword") or {}
        lines.append(
            f"| {n:,} | {_f(kw.get('p50'))} / {_f(kw.get('p95'))} | {_f(r.get('reopen_s'), '.1f')} "
            f"({_f(r.get('open_s'))} + {_f(r.get('count_s'))}) | {_f(r.get('first_search_ms'), '.0f')} / "
            f"{_f(r.get('second_search_ms'), '.0f')} | {_f((m['rss'] or 0) / MB, '.0f')} ({_f(after / MB if after else None, '.0f')}) "
            f"| {m['used_memory'] / MB:.0f} | {m['disk']['total'] / MB:.0f} ({m['disk']['rdb'] / MB:.0f} + "
            f"{m['disk']['aof'] / MB:.0f}) | {(m['rss'] or 0) / n / 1000:.1f} | {m['disk']['total'] / n / 1000:.1f} "
            f"| {p['raw_bytes'] / n / 1000:.2f} |"
        )  # fmt: skip
    if any("keyword_channel" in p for p in pts):
        variants = [v for v in pts[0].get("keyword_channel") or {} if not v.startswith("count:")]
        lines += ["", "The keyword channel called directly (`keyword_search`, k=10):",
                  "", "| memories | " + " | ".join(f"{v}: p50 / p95 ms, R@10, same top-10" for v in variants) + " |",
                  "|---:|" + "---|" * len(variants)]  # fmt: skip
        for p in pts:
            kc = p.get("keyword_channel") or {}
            cells = [f"{_f(_get(kc, v, 'p50'))} / {_f(_get(kc, v, 'p95'))}, {_f(_get(kc, v, 'recall@10'))}, "
                     f"{_get(kc, v, 'same_top10_as_unbounded')}/{_get(kc, v, 'questions')}" for v in variants]  # fmt: skip
            lines.append(f"| {p['memories']:,} | " + " | ".join(cells) + " |")
    if any(_get(p, "keyword_channel", "count: every match") for p in pts):
        lines += ["", "Counting the question's terms alone (`retrieve/term_count`, one pipelined round trip):", "",
                  "| memories | every match: p50 / p95 ms | up to 2,501: p50 / p95 ms |", "|---:|---:|---:|"]  # fmt: skip
        for p in pts:
            a, b = (
                _get(p, "keyword_channel", "count: every match") or {},
                _get(p, "keyword_channel", "count: up to 2,501") or {},
            )
            lines.append(
                f"| {p['memories']:,} | {_f(a.get('p50'))} / {_f(a.get('p95'))} | {_f(b.get('p50'))} / {_f(b.get('p95'))} |"
            )
    if len(pts) > 1:
        first = pts[0]
        lines += ["", f"Against {first['memories']:,} memories (the issue's \"done when\" ratios):", "",
                  "| memories | default p50 × | keyword alone p50 × | ingest slice rate × |", "|---:|---:|---:|---:|"]  # fmt: skip
        for p in pts[1:]:
            d = p["searches"]["default"]["p50"] / first["searches"]["default"]["p50"]
            kw = p["searches"]["keyword alone"]["p50"] / first["searches"]["keyword alone"]["p50"]
            ing = p["ingest_slice"]["rate_per_s"] / first["ingest_slice"]["rate_per_s"]
            lines.append(f"| {p['memories']:,} | {d:.2f} | {kw:.2f} | {ing:.2f} |")
    if any("script_start" in p for p in pts):
        lines += ["", "| memories | fresh process, server stopped: wall s (import + open, count, search ms) "
                  "| the next fresh process: wall s (import + open, count, search ms) |", "|---:|---|---|"]  # fmt: skip
        for p in pts:
            ss = p.get("script_start")
            if ss:
                a, b = ss["server_stopped"], ss.get("next_script") or ss["server_running"]
                lines.append(f"| {p['memories']:,} | {a['wall_s']} ({a['import_open_s']}, {a['count_s']}, {a['search_ms']:.0f}) "
                             f"| {b['wall_s']} ({b['import_open_s']}, {b['count_s']}, {b['search_ms']:.0f}) |")  # fmt: skip
    lines += ["", "| memories | " + " | ".join(f"{n} R@10" for n in names) + " | hybrid share (default) |",
              "|---:|" + "---:|" * len(names) + "---:|"]  # fmt: skip
    for p in pts:
        s = p["searches"]
        lines.append(f"| {p['memories']:,} | " + " | ".join(_f(s[n]["recall@10"]) for n in names)
                     + f" | {s['default']['hybrid_share']} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def _ms_to_s(ms: Any) -> float | None:
    return None if ms is None else ms / 1000


def plot(report: dict[str, Any], path: Path) -> None:
    """Each measure against size (log x): ingest, p50 per system, reopen, memory per memory."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = report["points"]
    if not pts:
        return
    x = [p["memories"] for p in pts]
    names = list(pts[0]["searches"])
    fig, axes = plt.subplots(2, 4, figsize=(20, 8))
    ax = axes[0][0]
    ax.plot(x, [p["ingest_slice"]["rate_per_s"] for p in pts], "o-")
    ax.set_title("ingest slice rate (memories/s)")
    for i, (stat, ax) in enumerate((("p50", axes[0][1]), ("p95", axes[0][2]))):
        for name in names:
            ax.plot(x, [p["searches"][name][stat] for p in pts], "o-", label=name)
        ax.set_title(f"search {stat} (ms, timings_ms.total)")
        if i == 0:
            ax.legend(fontsize=7)
    ax = axes[1][0]
    ax.plot(x, [_get(p, "reopen", "reopen_s") for p in pts], "o-", label="reopen (s)")
    ax.plot(x, [_ms_to_s(_get(p, "reopen", "first_search_ms")) for p in pts], "o-", label="first search (s)")
    ax.set_title("close → open → count, and the first search")
    ax.legend(fontsize=7)
    ax = axes[1][1]
    ax.plot(x, [(p["memory"]["rss"] or 0) / p["memories"] / 1000 for p in pts], "o-", label="server RSS")
    ax.plot(x, [p["memory"]["used_memory"] / p["memories"] / 1000 for p in pts], "o-", label="used_memory")
    ax.plot(x, [p["memory"]["disk"]["total"] / p["memories"] / 1000 for p in pts], "o-", label="disk")
    ax.plot(x, [p["raw_bytes"] / p["memories"] / 1000 for p in pts], "k--", label="raw (text + vector)")
    ax.set_title("KB per memory")
    ax.legend(fontsize=7)
    ax = axes[1][2]
    for name in names:
        ax.plot(x, [p["searches"][name]["recall@10"] for p in pts], "o-", label=name)
    ax.set_title("recall@10 of the evidence texts")
    variants = [v for v in pts[0].get("keyword_channel") or {} if not v.startswith("count:")]
    for col, (stat, title) in enumerate(
        (("p50", "keyword channel alone, p50 ms"), ("recall@10", "keyword channel alone, R@10"))
    ):
        ax = axes[col][3]
        for v in variants:
            ax.plot(x, [_get(p, "keyword_channel", v, stat) for p in pts], "o-", label=v)
        ax.set_title(title)
        ax.legend(fontsize=7)
    for row in axes:
        for a in row:
            a.set_xscale("log")
            a.set_xlabel("memories in the tenant")
            a.grid(alpha=0.3)
    fig.suptitle(f"one tenant grown: {report['source']} texts, {report['vectors']} vectors")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
