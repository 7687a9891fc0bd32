"""Benchmark: how long ``EdgeStore.settle`` holds the store (close + load of a shard) by
its size, for ``store.edge.SETTLE_NOW_MAX_POINTS``.

Writes a store of synthetic chunks per size (a unit 384-d dense vector, 40 sparse terms,
a payload with the keyword fields a chunk has and ~600 characters of text), counts every
point deleted (``_deleted``) so ``settle`` loads the chunk shard again, and times it three
times after a fresh open. Not a test: nothing here asserts a time.

    python tests/bench/bench_settle.py --work /tmp/settle [--sizes 200k,1m]

1M points take ~5 minutes to write here and 3.4 GB of disk.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from coderecalld.embed import sparse
from coderecalld.records import PointRecord, SparseVector
from coderecalld.store import EdgeStore

BATCH = 2048


def build(path: Path, n: int) -> None:
    rng = np.random.default_rng(0)
    draw = random.Random(0)
    store = EdgeStore(path, 384, "bench", sparse.TOKENIZER_VERSION)
    try:
        for start in range(0, n, BATCH):
            vectors = rng.standard_normal((min(BATCH, n - start), 384)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            points = []
            for i, vector in enumerate(vectors):
                k = start + i
                terms = sorted(draw.sample(range(200_000), 40))
                name = f"func_{k}"
                points.append(PointRecord(
                    id=f"{k:032x}",
                    payload={"repo": f"synth-{k // 5000:04d}", "path": f"pkg/mod_{k // 50}.py",
                             "language": "python", "kind": "function", "name": name,
                             "qualified_name": f"Cls{k // 20}.{name}", "name_lc": name,
                             "qualified_name_lc": f"cls{k // 20}.{name}",
                             "calls": [f"call_{draw.randrange(5000)}" for _ in range(5)],
                             "text_hash": f"{k:016x}", "role": "source", "start_line": 1,
                             "end_line": 30, "text": "def f(x):\n    return x + 1\n" * 20,
                             "name_tokens": f"func {k}"},
                    sparse=SparseVector(tuple(terms), tuple(draw.random() for _ in terms)),
                    dense=tuple(vector.tolist())))
            store.upsert(points)
        store.flush()
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--sizes", default="200k,1m")
    args = parser.parse_args()
    for size in args.sizes.split(","):
        n = int(float(size.lower().rstrip("km")) * (1_000_000 if size.lower().endswith("m") else 1_000))
        path = args.work / f"settle-{size}"
        if not path.exists():
            started = time.perf_counter()
            build(path, n)
            print(f"{size}: written in {time.perf_counter() - started:.0f} s", flush=True)
        for _ in range(3):
            started = time.perf_counter()
            store = EdgeStore(path, 384, "bench", sparse.TOKENIZER_VERSION)
            opened = time.perf_counter() - started
            try:
                store._deleted[0] = n  # as if every point had been deleted since the load
                started = time.perf_counter()
                settled = store.settle()
                took = time.perf_counter() - started
            finally:
                store.close()
            print(f"{size}: open {opened:.2f} s, settle {took:.2f} s ({settled})", flush=True)


if __name__ == "__main__":
    main()
