"""Plots for docs/performance.md from the benchmark results in tests/bench/results/.

* ``scale_latency.png``: p50/p95/p99 per query kind vs index size (log x), from ``scale.json``
  (the unoptimized store);
* ``scale_latency_optimized.png``: the same for the optimized store (what ``coderecalld index``
  and ``store.optimize_cron`` build), with hybrid search from one client and in open loop;
* ``scale_open_loop.png``: p50 and p99 per query kind vs index size, 16 clients at 1 call/s
  each in open loop (the issue-10 targets drawn at 20 and 60 ms), optimized store;
* ``scale_rss.png``: the daemon's RSS vs index size, from ``scale.json``;
* ``pipeline_stages.png``: a bar per stage, from ``pipeline.json`` when it exists and holds a
  ``stages_chunks_per_s`` (or ``stages_s``) mapping; skipped with a message otherwise.

    python tests/bench/plot_perf.py [--results tests/bench/results] [--out docs/img]

Needs matplotlib (the ``bench`` extra: ``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = Path(__file__).resolve().parent
KINDS = {"search": "hybrid search", "find_symbols": "FindSymbols", "find_callers": "FindCallers"}
STYLES = {"p50_ms": "-", "p95_ms": "--", "p99_ms": ":"}


def _rows(doc: dict, variant: str) -> list[dict]:
    return sorted((r for r in doc["rows"] if r["variant"] == variant), key=lambda r: r["points"])


def latency_plot(doc: dict, out: Path, variant: str = "plain") -> Path:
    rows = _rows(doc, variant)
    xs = [r["points"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (kind, title), color in zip(KINDS.items(), ("tab:blue", "tab:orange", "tab:green")):
        for key, style in STYLES.items():
            ax.plot(xs, [r["latency"][kind][key] for r in rows], style, marker="o", color=color,
                    label=f"{title} {key[:-3]}")
    if variant != "plain":
        extra = [("search_1client", "hybrid p50, 1 client", "black", "x")]
        rates = sorted({k for r in rows for k in r["latency"] if k.startswith("search_open_")})
        extra += [(k, f"hybrid p50, 16 clients x {k.removeprefix('search_open_').replace('per_s', '')}/s open loop",
                   "tab:purple", "D") for k in rates]
        for i, (key, title, color, marker) in enumerate(extra):
            have = [r for r in rows if key in r["latency"]]
            ax.plot([r["points"] for r in have], [r["latency"][key]["p50_ms"] for r in have],
                    "-", marker=marker, color=color, alpha=1.0 - 0.2 * max(0, i - 1), label=title)
    ax.axhline(20, color="grey", linewidth=0.8)
    ax.set(xscale="log", yscale="log", xlabel="chunks in the index", ylabel="latency per call (ms)",
           title=f"Query latency, {variant} Edge store (gRPC; 16 clients unless noted)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    path = out / ("scale_latency.png" if variant == "plain" else f"scale_latency_{variant}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def open_loop_plot(doc: dict, out: Path, variant: str = "optimized", rate: str = "1") -> Path | None:
    """p50 / p99 of every kind at ``rate`` calls/s per client (open loop) vs index size."""
    rows = [r for r in _rows(doc, variant) if f"search_open_{rate}per_s" in r["latency"]]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (kind, title), color in zip(KINDS.items(), ("tab:blue", "tab:orange", "tab:green")):
        have = [r for r in rows if f"{kind}_open_{rate}per_s" in r["latency"]]
        for key, style in (("p50_ms", "-"), ("p99_ms", ":")):
            ax.plot([r["points"] for r in have], [r["latency"][f"{kind}_open_{rate}per_s"][key] for r in have],
                    style, marker="o", color=color, label=f"{title} {key[:-3]}")
    for target in (20, 60):
        ax.axhline(target, color="grey", linewidth=0.8)
    ax.set(xscale="log", yscale="log", xlabel="chunks in the index", ylabel="latency per call (ms)",
           title=f"16 clients x {rate} call/s each, open loop ({variant} store, gRPC)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    path = out / "scale_open_loop.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def rss_plot(doc: dict, out: Path, variant: str = "plain") -> Path:
    rows = _rows(doc, variant)
    xs = [r["points"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, title in (("rss_open", "after open"), ("rss_after", "after the query load")):
        ax.plot(xs, [r[key]["VmRSS"] / 2**20 for r in rows], marker="o", label=f"VmRSS {title}")
    ax.plot(xs, [r["rss_after"]["VmHWM"] / 2**20 for r in rows], "--", marker="o", label="peak (VmHWM)")
    ax.plot(xs, [r["disk_bytes"] / 2**20 for r in rows], ":", marker="s", label="store on disk")
    ax.set(xscale="log", xlabel="chunks in the index", ylabel="MiB", title="Daemon memory and store size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out / "scale_rss.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def pipeline_plot(doc: dict, out: Path) -> Path | None:
    stages = doc.get("stages_chunks_per_s") or doc.get("stages_s")
    if not isinstance(stages, dict) or not stages:
        return None
    unit = "chunks/s" if "stages_chunks_per_s" in doc else "seconds"
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(list(stages), [float(v) for v in stages.values()])
    ax.set(ylabel=unit, title=f"Index pipeline per stage ({unit})")
    ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    path = out / "pipeline_stages.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=HERE / "results")
    parser.add_argument("--out", type=Path, default=HERE.parents[1] / "docs" / "img")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    scale = args.results / "scale.json"
    if scale.exists():
        doc = json.loads(scale.read_text())
        print(latency_plot(doc, args.out))
        if _rows(doc, "optimized"):
            print(latency_plot(doc, args.out, "optimized"))
            print(open_loop_plot(doc, args.out) or "no open-loop rows in scale.json")
        print(rss_plot(doc, args.out))
    else:
        print(f"no {scale}: run tests/bench/bench_scale.py first")
    pipeline = args.results / "pipeline.json"
    made = pipeline_plot(json.loads(pipeline.read_text()), args.out) if pipeline.exists() else None
    print(made or f"no stage figures in {pipeline}: run tests/bench/bench_pipeline.py (the pipeline "
                  "bench) with its JSON output there, then this script again")
    return 0


if __name__ == "__main__":
    sys.exit(main())
