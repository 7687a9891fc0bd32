"""Benchmark: FindCallers on a fresh daemon (no cached re-export facets) and again.

Opens a store that ``bench_scale.py`` built (``--data``, e.g. ``/tmp/perf-work/scale-1m-optimized``)
with every repo configured, in-process (no gRPC, one caller at a time), and asks
``Service.find_callers`` for ``--queries`` names (``bench_scale.query_sets``' FindCallers
names, drawn with ``--seed``) twice: first on the fresh daemon, where every module prefix's
re-export facet is computed (``EdgeStore.facet_any``), then the same names again, answered
from that cache. Latency per call, p50 / p95 / p99 in ms.

    python tests/bench/bench_callers_cold.py --data /tmp/perf-work/scale-1m-optimized [--seed 7]

Not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_scale  # noqa: E402
import scale_data  # noqa: E402
from eval_retrieval import percentile  # noqa: E402

from coderecalld.daemon import Daemon  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a data dir bench_scale.py built")
    parser.add_argument("--work", type=Path, default=Path("/tmp/perf-work"), help="bench_scale's --work")
    parser.add_argument("--queries", type=int, default=320)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    cfg = scale_data.daemon_config(args.data, args.work)
    daemon = Daemon.open(cfg)
    try:
        base = scale_data.base_set(args.work)
        names = bench_scale.query_sets(base, len(cfg.repos) - 1, args.queries, seed=args.seed)["find_callers"]
        for label in ("fresh daemon (facets computed)", "the same names again (facets cached)"):
            times = []
            for name in names:
                started = time.perf_counter()
                daemon.service.find_callers(name)
                times.append((time.perf_counter() - started) * 1000)
            print(f"{label}: p50 {percentile(times, .5):.1f} p95 {percentile(times, .95):.1f} "
                  f"p99 {percentile(times, .99):.1f} ms over {len(times)} calls", flush=True)
    finally:
        daemon.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
