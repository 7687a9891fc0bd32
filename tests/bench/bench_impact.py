"""Benchmark: AnalyzeImpact on hub names, on a fresh daemon (cold) and again (warm).

Opens an indexed data dir (``--config``, e.g. one indexing drf and pydantic) in-process (no
gRPC, one request at a time) and asks ``Service.analyze_impact`` for each ``NAME``
(``--depth`` / ``--limit`` as the CLI's, 0 = the daemon's defaults). Cold: the first request
of a fresh process (no cached facets), one child process per name and run (``--runs``);
warm: the same request ``--warm`` more times in that process. Prints the median (and min,
max) seconds per name, the answer's node count and ``truncated`` (with its reason).

    python tests/bench/bench_impact.py --config /path/config.toml [--runs 3] [--warm 3]
        [--depth 0] [--limit 0] [--dump nodes.json] __init__ Field get validate

``--dump`` writes each answer's nodes (pre-order: depth, repo, path, line, caller,
confidence) to compare two versions of the code (``--compare a.json b.json``). Point
``PYTHONPATH`` at a worktree to measure its code. Not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _rows(nodes) -> list[list]:
    out: list[list] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        s = node.site
        out.append([node.depth, s.repo, s.path, s.line, s.caller, s.confidence])
        stack.extend(reversed(node.children))
    return out


def one(config: str, name: str, depth: int, limit: int, warm: int) -> dict:
    """One fresh daemon: the cold request, then ``warm`` more; seconds and the answer."""
    from coderecalld.config import load
    from coderecalld.daemon import Daemon

    daemon = Daemon.open(load(config))
    try:
        times = []
        for _ in range(1 + warm):
            started = time.perf_counter()
            found = daemon.service.analyze_impact(name, depth=depth, limit=limit)
            times.append(time.perf_counter() - started)
    finally:
        daemon.close()
    return {"name": name, "cold_s": times[0], "warm_s": times[1:], "nodes": found.nodes,
            "truncated": found.truncated, "cut": getattr(found, "cut", ""), "rows": _rows(found.callers)}


def compare(before: Path, after: Path) -> int:
    """Print, per name, whether the two dumps' node lists are the same."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    for name in a:
        if name not in b:
            print(f"{name}: only in {before}")
            continue
        same = a[name]["rows"] == b[name]["rows"]
        print(f"{name}: {'same' if same else 'DIFFERENT'} nodes ({a[name]['nodes']} -> {b[name]['nodes']}), "
              f"truncated {a[name]['truncated']} -> {b[name]['truncated']} {b[name].get('cut', '')}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--config")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per name (cold samples)")
    parser.add_argument("--warm", type=int, default=3, help="requests after the first, per process")
    parser.add_argument("--depth", type=int, default=0)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--dump", type=Path, help="write each answer's nodes here (JSON)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child's run
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.one:
        print(json.dumps(one(args.config, args.names[0], args.depth, args.limit, args.warm)))
        return 0
    dumped = {}
    for name in args.names:
        runs = []
        for _ in range(args.runs):
            child = subprocess.run(
                [sys.executable, __file__, "--one", "--config", args.config, "--depth", str(args.depth),
                 "--limit", str(args.limit), "--warm", str(args.warm), name],
                check=True, capture_output=True, text=True)
            runs.append(json.loads(child.stdout.splitlines()[-1]))
        cold = [r["cold_s"] for r in runs]
        warm = [w for r in runs for w in r["warm_s"]] or [0.0]
        last = runs[-1]
        print(f"{name}: cold median {statistics.median(cold):.3f} s (min {min(cold):.3f}, max {max(cold):.3f}); "
              f"warm median {statistics.median(warm):.3f} s (min {min(warm):.3f}, max {max(warm):.3f}); "
              f"{last['nodes']} nodes, truncated {last['truncated']} {last['cut']}".rstrip(), flush=True)
        dumped[name] = last
    if args.dump:
        args.dump.write_text(json.dumps(dumped, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
