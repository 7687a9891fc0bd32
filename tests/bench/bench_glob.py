"""Benchmark: hybrid search with a path glob, in-process, on a store built by bench_scale.

    python tests/bench/bench_glob.py --data /tmp/perf-work/scale-100k-optimized [--code DIR]

Runs 60 of bench_scale's search queries (5 first, untimed) through ``Service.search`` with
each glob of ``GLOBS`` and prints p50 / p95 ms and hits per query. ``--code`` runs another
checkout's daemon package (``git worktree add /tmp/old <commit>``: the figures before a
change). Not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: A glob most paths match, one almost none does, one none does.
GLOBS = ("*.py", "*json*", "*/json/*")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a data dir bench_scale built")
    parser.add_argument("--code", type=Path, default=HERE.parent.parent, help="checkout to run")
    parser.add_argument("--queries", type=int, default=60)
    args = parser.parse_args(argv)
    sys.path[:0] = [str(args.code / "daemon"), str(args.code / "clients"), str(HERE)]
    import bench_scale
    import scale_data
    from eval_retrieval import percentile
    from coderecalld.daemon import Daemon

    cfg = scale_data.daemon_config(args.data, args.data.parent)
    base = scale_data.base_set(args.data.parent)
    queries = bench_scale.query_sets(base, len(cfg.repos) - 1, args.queries)["search"]
    daemon = Daemon.open(cfg)
    try:
        for glob in GLOBS:
            for query in queries[:5]:
                daemon.service.search(query, limit=10, path_glob=glob)
            times, hits = [], 0
            for query in queries:
                start = time.perf_counter()
                hits += len(daemon.service.search(query, limit=10, path_glob=glob))
                times.append((time.perf_counter() - start) * 1000)
            print(f"{glob:10s} p50 {percentile(times, 0.50):6.1f} p95 {percentile(times, 0.95):6.1f} ms"
                  f"  hits/query {hits / len(queries):.1f}", flush=True)
    finally:
        daemon.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
