"""Benchmark: the cost of an issue-shaped query (search and locate) on a real index.

Opens an existing daemon data dir in-process (``--work``: an ``issue_lab.py`` work dir, whose
``data/`` holds sympy, astropy and pylint, ~68k chunks, or any config given by ``--config``),
then asks, over every repo at once (no repo filter: the whole store is the candidate set):

* each swe-lite-dev issue as written (median ~800 characters);
* "10k" issues: each issue followed by others of the set until 10,000 characters (a long
  paste: several tracebacks, code blocks, prose);
* "100k" issues the same way to 100,000 characters (cycling through the set);

each through ``Service.search`` (limit 10) and ``Service.locate`` (limit 10), ``--rounds``
times, and prints p50/p95 in milliseconds per kind, with the number of chunks and the load
average. The structural evidence (``query/anchors.py``) is in the figure: its keyword
lookups run for every issue. Not a test: nothing here asserts a time.

    python tests/bench/bench_issue_latency.py [--work /tmp/search-lab/swe] [--rounds 2]
        [--data DIR --dense]   # a store indexed with the model: also 200 short questions

2026-12-01, 2 shared cores, a 76,008-chunk store of the three repos indexed with the model
(load ~3): question (hybrid, embedded) p50 16.2 ms (p95 21.4); issue search 9.8 / locate
29.2 ms; 10,000 characters 21.2 / 45.2 ms; 100,000 characters 84.7 / 164.6 ms. After
locate stopped analysing its query twice (sparse store, load ~2): 10,000 characters
19.5 / 36.6 ms, 100,000 characters 78.5 / 88.2 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon

SET = Path("/work/shared/eval/swe-lite-dev/instances.jsonl")
COSQA = Path("/work/shared/eval/cosqa-dev/queries_dev.jsonl")


def padded(texts: list[str], start: int, chars: int) -> str:
    """``texts[start]`` followed by the next ones (cycling) until ``chars`` characters."""
    out = texts[start]
    i = start
    while len(out) < chars:
        i = (i + 1) % len(texts)
        out += "\n\n" + texts[i]
    return out[:chars]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", type=Path, default=Path("/tmp/search-lab/swe"))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--limit-issues", type=int, default=0)
    ap.add_argument("--data", type=Path, help="the daemon's data dir (default WORK/data)")
    ap.add_argument("--dense", action="store_true",
                    help="with --data indexed with the model: embed, and also time 200 short "
                         "questions (CoSQA dev queries) in hybrid mode")
    args = ap.parse_args()
    rows = [json.loads(line) for line in SET.read_text().splitlines() if line.strip()]
    texts = [r["query"] for r in rows][: args.limit_issues or None]
    repos = sorted(p.name for p in (args.work / "repos").iterdir())
    cfg = Config(data_dir=args.data or args.work / "data",
                 repos=tuple(RepoConfig(n.split("+")[1], str(args.work / "repos" / n), "main") for n in repos),
                 embedding=EmbeddingConfig(enabled=bool(args.data and args.dense)),
                 index=IndexConfig(sync_interval_s=86400, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    try:
        chunks = sum(s.chunks for s in daemon.service.list_repos())
        kinds = {}
        if args.dense:
            kinds["question"] = [json.loads(line)["text"] for line in
                                 COSQA.read_text().splitlines()[:200] if line.strip()]
        kinds |= {"issue": texts,
                 "10k": [padded(texts, i, 10_000) for i in range(len(texts))],
                 "100k": [padded(texts, i, 100_000) for i in range(0, len(texts), 4)]}
        print(f"{chunks} chunks in {len(repos)} repos; load {os.getloadavg()[0]:.1f}")
        for kind, queries in kinds.items():
            for op in (("search",) if kind == "question" else ("search", "locate")):
                call = daemon.service.search if op == "search" else daemon.service.locate
                lat = []
                for _ in range(args.rounds):
                    for q in queries:
                        t0 = time.perf_counter()
                        call(q, limit=10)
                        lat.append(1000 * (time.perf_counter() - t0))
                lat.sort()
                p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
                print(f"{kind:6} {op:7} n={len(lat):4}  p50 {statistics.median(lat):7.1f} ms  "
                      f"p95 {p95:7.1f} ms  (median {statistics.median(len(q) for q in queries):,.0f} chars)",
                      flush=True)
    finally:
        daemon.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
