"""One command for the performance suite (issue 10): runs each benchmark, then prints one table.

1. ``bench_pipeline.py``: raw model throughput vs a cold index's chunks/s of the same chunks
   (skipped with a message when that script is not in the tree);
2. ``bench_freshness.py``: seconds from a commit to the change being found by name and by
   meaning (skipped likewise);
3. ``bench_scale.py``: query p50/p95/p99 with 16 concurrent clients (flat out and open loop)
   and from one client, daemon RSS, build time and disk size per index size (``--sizes``), on
   the optimized store the daemon serves (``--variant``; the 1M optimize takes ~1.5 h here);
4. ``plot_perf.py``: the PNGs under docs/img (when matplotlib is installed).

    python tests/bench/run_all.py --work /tmp/coderecall-scale [--sizes 10k,100k] [--skip pipeline,freshness]

A quick run: ``--sizes 10k --skip pipeline,freshness`` (minutes once the base set exists; its
first build embeds ~9,000 stdlib chunks with the real model). Each step's own output streams
through; the table at the end is built from ``tests/bench/results/*.json`` and from the
summary lines of the steps that print rather than write JSON. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
#: A line worth repeating in the summary: a percentile, a rate or a wall time.
_SUMMARY = re.compile(r"p50|chunks/s|per s|wall|throughput", re.IGNORECASE)


def run(step: str, argv: list[str]) -> list[str]:
    """Run one benchmark script (output streamed) and return its summary lines."""
    script = HERE / argv[0]
    if not script.exists():
        print(f"== {step}: skipped: {script.relative_to(HERE.parents[1])} is not in this tree", flush=True)
        return [f"skipped ({argv[0]} not present)"]
    print(f"== {step}: {' '.join(argv)}", flush=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.Popen([sys.executable, str(script), *argv[1:]], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)
    lines = []
    for line in proc.stdout:
        print(line, end="", flush=True)
        lines.append(line.rstrip())
    if proc.wait():
        return [f"failed (exit {proc.returncode})", *lines[-3:]]
    return [line for line in lines if _SUMMARY.search(line) and not line.startswith("{")][-8:]


def _fmt_latency(lat: dict) -> str:
    return f"{lat['p50_ms']:.0f} / {lat['p95_ms']:.0f} / {lat['p99_ms']:.0f}"


def scale_table(path: Path, labels: list[str], variant: str = "optimized") -> list[str]:
    """Markdown rows of ``scale.json`` (``variant``) for the sizes in ``labels``."""
    if not path.exists():
        return ["(no scale results)"]
    doc = json.loads(path.read_text())
    rows = {r["size"]: r for r in doc["rows"] if r["variant"] == variant}
    if not rows:
        return [f"(no {variant} rows in {path})"]
    sizes = [s for s in sorted(rows) if _label(s) in labels] or sorted(rows)
    head = "| measure | " + " | ".join(_label(s) for s in sizes) + " |"
    out = [head, "|---" * (len(sizes) + 1) + "|"]
    for kind, title in (("search", "hybrid search"), ("find_symbols", "FindSymbols"),
                        ("find_callers", "FindCallers")):
        out.append(f"| {title} p50 / p95 / p99 ms | "
                   + " | ".join(_fmt_latency(rows[s]["latency"][kind]) for s in sizes) + " |")
        out.append(f"| {title} calls/s | " + " | ".join(f"{rows[s]['latency'][kind]['qps']:.1f}"
                                                      for s in sizes) + " |")
    extra = sorted({k for s in sizes for k in rows[s]["latency"] if "_open_" in k or k.endswith("_1client")})
    for key in extra:  # one client; open loop at R calls/s per client, per kind
        out.append(f"| {key} p50 / p95 / p99 ms | " + " | ".join(
            _fmt_latency(rows[s]["latency"][key]) if key in rows[s]["latency"] else "-"
            for s in sizes) + " |")
    out.append("| daemon RSS after load (peak) MiB | " + " | ".join(
        f"{rows[s]['rss_after']['VmRSS'] / 2**20:.0f} ({rows[s]['rss_after']['VmHWM'] / 2**20:.0f})"
        for s in sizes) + " |")
    out.append("| build: upsert s / disk GB | " + " | ".join(
        f"{rows[s]['upsert_s']:.0f} / {rows[s]['disk_bytes'] / 1e9:.2f}" for s in sizes) + " |")
    out.append("| load average during search (1 min) | " + " | ".join(
        f"{rows[s]['latency']['search']['load_avg'][0]:.1f}" for s in sizes) + " |")
    return out


def _label(size: int) -> str:
    return f"{size // 1_000_000}m" if size % 1_000_000 == 0 else f"{size // 1_000}k"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", default="/tmp/coderecall-scale")
    parser.add_argument("--sizes", default="10k,100k,1m")
    parser.add_argument("--threads", default="16")
    parser.add_argument("--skip", default="", help="comma-separated: pipeline,freshness,scale,plots")
    parser.add_argument("--variant", default="optimized",
                        help="store variant for bench_scale (optimized: what the daemon serves)")
    args = parser.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    summary: dict[str, list[str]] = {}
    if "pipeline" not in skip:
        summary["pipeline (model vs cold index)"] = run("pipeline", ["bench_pipeline.py"])
    if "freshness" not in skip:
        summary["freshness (commit -> found)"] = run("freshness", ["bench_freshness.py"])
    if "scale" not in skip:
        run("scale", ["bench_scale.py", "--work", args.work, "--sizes", args.sizes,
                      "--threads", args.threads, "--variant", args.variant])
    if "plots" not in skip:
        try:
            import matplotlib  # noqa: F401
            run("plots", ["plot_perf.py"])
        except ImportError:
            print("== plots: skipped: matplotlib missing (pip install -e '.[bench]')")
    print(f"\n== summary (load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for step, lines in summary.items():
        print(f"{step}:")
        for line in lines or ["(no summary lines)"]:
            print(f"  {line}")
    print("query path (bench_scale, tests/bench/results/scale.json):")
    for line in scale_table(RESULTS / "scale.json", args.sizes.lower().split(","), args.variant):
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
