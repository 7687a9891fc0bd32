"""Plots for docs/performance.md from the benchmark results in tests/bench/results/.

* ``scale_latency.png``: p50/p95/p99 per query kind vs index size (log x), from ``scale.json``;
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
    ax.set(xscale="log", yscale="log", xlabel="chunks in the index", ylabel="latency per call (ms)",
           title=f"Query latency, 16 concurrent clients over loopback gRPC ({variant} Edge store)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    path = out / "scale_latency.png"
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
