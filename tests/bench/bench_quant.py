"""Benchmark: int8 quantization and on-disk vectors of the Edge store (issue 10 item 4).

Builds (or reuses, ``bench_scale.build``) the stores of ``--size`` points (default 100k: the
real stdlib base set plus synthetic near-duplicates, ``scale_data``) as ``plain`` (what the
daemon makes: unoptimized, so every dense search is brute force over float32 vectors),
``optimized`` (``EdgeStore.optimize()``: HNSW) and ``optimized-int8`` (``quantization="int8"``,
then optimized: HNSW over int8 copies, rescored with the originals by default). Then:

* **recall@10** of dense search and of the daemon's hybrid search (``service``'s fusion
  constants, the scope filter over every repo), per variant and search setting, against the
  exact answer of the same store: ``dense_params = SearchParams(exact=True,
  quantization=ignore)``, brute force over the float32 originals (checked against numpy
  over the stored vectors for the first 20 queries; the exact dense answers of all variants
  are also compared with each other). The same store, because the sparse (BM25) scores
  depend on the segment layout (IDF per segment), so two stores' hybrid answers differ a
  little even with exact dense search. Queries: the CoSQA dev web queries and
  ``bench_stdlib.SEARCHES``, embedded with the real model (cached in ``<work>/queries.npz``).
* **memory**: RSS of a fresh process that opens the store with each option set and runs
  every dense query (``--rss`` child): VmRSS, RssAnon, RssFile, VmHWM.
* single-thread latency of each setting (the store call only; no gRPC, no query embedding).

    python tests/bench/bench_quant.py --work /tmp/perf-work [--size 100k]

Writes ``--json`` (default ``tests/bench/results/quant.json``). Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import qdrant_edge as qe

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale_data  # noqa: E402
from bench_scale import COSQA_QUERIES, RESULTS, build, label, load_avg, parse_size, rss  # noqa: E402
from bench_stdlib import SEARCHES  # noqa: E402
from coderecalld.embed import sparse
from coderecalld.query import fusion, service
from coderecalld.store import EdgeStore, StoreFilter  # noqa: E402

EXACT = qe.SearchParams(exact=True, quantization=qe.QuantizationSearchParams(ignore=True))
#: Search settings per store variant: name -> dense_params (None = the engine's defaults).
SETTINGS = {
    "plain": {"default": None},
    "optimized": {"hnsw": None},
    "optimized-int8": {"hnsw+int8+rescore": None,
                       "hnsw+int8, no rescore": qe.SearchParams(quantization=qe.QuantizationSearchParams(rescore=False)),
                       "exact int8, no rescore": qe.SearchParams(exact=True, quantization=qe.QuantizationSearchParams(rescore=False)),
                       "hnsw float (int8 ignored)": qe.SearchParams(quantization=qe.QuantizationSearchParams(ignore=True))},
}
#: (variant, EdgeStore options) whose memory is measured.
MEMORY = [("plain", {}), ("optimized", {}), ("optimized", {"on_disk": True}),
          ("optimized-int8", {"quantization": "int8"}),
          ("optimized-int8", {"quantization": "int8", "on_disk": True})]


def queries(work: Path) -> tuple[list[str], np.ndarray]:
    """The query strings and their real-model vectors (cached under ``work``)."""
    cache = work / "queries.npz"
    texts = list(SEARCHES) + [json.loads(l)["text"] for l in COSQA_QUERIES.read_text().splitlines()]
    if cache.exists():
        saved = np.load(cache, allow_pickle=False)
        if list(saved["texts"]) == texts:
            return texts, saved["vectors"]
    from coderecalld.config import EmbeddingConfig
    from coderecalld.embed.local import Embedder

    emb = Embedder(EmbeddingConfig(), work / "base" / "data" / "models")
    vectors = np.stack([emb.embed_query(t) for t in texts])
    np.savez(cache, texts=np.array(texts), vectors=vectors)
    return texts, vectors


def open_variant(data: Path, model_id: str, **options) -> EdgeStore:
    return EdgeStore(data / "store", 384, model_id, sparse.TOKENIZER_VERSION, **options)


def hybrid(store: EdgeStore, text: str, vector: np.ndarray, flt: StoreFilter) -> list[str]:
    """Ids of the daemon's hybrid top 10 for this query (``Service._ranked`` without pinning)."""
    weight = service.SPARSE_WEIGHT_TEXT + (service.SPARSE_WEIGHT_CODE - service.SPARSE_WEIGHT_TEXT) \
        * service.code_share(text)
    fused = fusion.hybrid(store, vector.tolist(), sparse.query_vector(text), flt, 10,
                          weight=weight, half=service.SPARSE_HALF,
                          prefetch=service.PREFETCH_LIMIT, fields=())
    return [h.id for h in fused.hits]


def answers(store: EdgeStore, texts: list[str], vectors: np.ndarray, flt: StoreFilter,
            params: qe.SearchParams | None) -> dict:
    """Dense and hybrid top-10 ids per query, and the store-call latencies (ms)."""
    store.dense_params = params
    dense, hyb, ms = [], [], []
    for text, vec in zip(texts, vectors):
        started = time.perf_counter()
        dense.append([h.id for h in store.dense_search(vec.tolist(), flt, 10)])
        ms.append((time.perf_counter() - started) * 1000)
        hyb.append(hybrid(store, text, vec, flt))
    return {"dense": dense, "hybrid": hyb, "p50_ms": round(float(np.percentile(ms, 50)), 2),
            "p95_ms": round(float(np.percentile(ms, 95)), 2)}


def recall(got: list[list[str]], truth: list[list[str]]) -> float:
    """Mean |got ∩ truth| / |truth| over queries (recall@10)."""
    return round(float(np.mean([len(set(g) & set(t)) / max(1, len(t)) for g, t in zip(got, truth)])), 4)


def numpy_check(store: EdgeStore, vectors: np.ndarray, truth: list[list[str]], repos: list[str]) -> float:
    """Share of the first 20 exact answers that numpy brute force over the stored vectors
    reproduces (ids in the same order): 1.0 means ``exact=True`` really is exact."""
    ids, mat = [], []
    for repo in repos:
        for p in store.all_points(repo):
            ids.append(p.id)
            mat.append(p.dense)
    mat = np.asarray(mat, dtype=np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    same = 0
    for vec, want in zip(vectors[:20], truth[:20]):
        top = np.argsort(-(mat @ (vec / np.linalg.norm(vec))))[:10]
        same += [ids[i] for i in top] == want
    return same / 20


def rss_child(data: Path, model_id: str, options: dict, work: Path) -> dict:
    """``--rss``: open the store with ``options``, run every dense query, report RSS."""
    _, vectors = queries(work)
    repos = json.loads((data / "built.json").read_text())["repos"]
    flt = StoreFilter(repos=tuple(repos))
    before = rss(os.getpid())
    with open_variant(data, model_id, **options) as store:
        opened = rss(os.getpid())
        for vec in vectors:
            store.dense_search(vec.tolist(), flt, 10)
        after = rss(os.getpid())
    return {"before_open": before, "after_open": opened, "after_queries": after}


def memory(data_dirs: dict[str, Path], model_id: str, work: Path) -> list[dict]:
    rows = []
    for variant, options in [(v, o) for v, o in MEMORY if v in data_dirs]:
        out = subprocess.run([sys.executable, __file__, "--rss", str(data_dirs[variant]),
                              "--options", json.dumps(options), "--work", str(work)],
                             check=True, capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
        rows.append({"variant": variant, "options": options, **json.loads(out.stdout.splitlines()[-1]),
                     "load_avg": load_avg()})
        print(f"  memory {variant} {options}: {rows[-1]['after_queries']}", flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/coderecall-scale"))
    parser.add_argument("--size", default="100k")
    parser.add_argument("--json", type=Path, default=RESULTS / "quant.json")
    parser.add_argument("--rss", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    parser.add_argument("--no-numpy-check", action="store_true",
                        help="skip checking exact=True against numpy (it holds every point in "
                             "memory: ~20 GB at 1M)")
    parser.add_argument("--variants", default=",".join(SETTINGS),
                        help="store variants to build and measure, comma-separated (default: all; "
                             "at 1M, plain means brute force over 1M vectors for every query)")
    args = parser.parse_args(argv)
    variants = {v: SETTINGS[v] for v in args.variants.split(",")}
    base = scale_data.base_set(args.work)
    if args.rss:
        print(json.dumps(rss_child(args.rss, base.model_id, json.loads(args.options), args.work)))
        return 0
    size = parse_size(args.size)
    texts, vectors = queries(args.work)
    dirs, builds = {}, {}
    for variant in variants:
        dirs[variant], builds[variant] = build(args.work, base, size, variant)
        print(f"{label(size)} {variant}: upsert {builds[variant]['upsert_s']} s, optimize "
              f"{builds[variant]['optimize_s']} s, {builds[variant]['disk_bytes'] / 1e9:.2f} GB", flush=True)
    repos = next(iter(builds.values()))["repos"]
    flt = StoreFilter(repos=tuple(repos))
    rows, exact_dense, check = [], {}, None  # None: --no-numpy-check
    for variant, settings in variants.items():
        options = {"quantization": "int8"} if variant == "optimized-int8" else {}
        with open_variant(dirs[variant], base.model_id, **options) as store:
            truth = answers(store, texts, vectors, flt, EXACT)
            exact_dense[variant] = truth["dense"]
            if variant == "optimized" and not args.no_numpy_check:
                check = numpy_check(store, vectors, truth["dense"], repos)
            for name, params in {"exact (reference)": EXACT, **settings}.items():
                got = truth if params is EXACT else answers(store, texts, vectors, flt, params)
                rows.append({"variant": variant, "setting": name,
                             "dense_recall_at_10": recall(got["dense"], truth["dense"]),
                             "hybrid_recall_at_10": recall(got["hybrid"], truth["hybrid"]),
                             "dense_p50_ms": got["p50_ms"], "dense_p95_ms": got["p95_ms"],
                             "load_avg": load_avg()})
                print(f"  {rows[-1]}", flush=True)
    reference = exact_dense.get("optimized", next(iter(exact_dense.values())))
    agree = {v: recall(d, reference) for v, d in exact_dense.items()}
    doc = {"size": size, "queries": len(texts), "numpy_agrees": check, "exact_dense_agree": agree,
           "builds": {v: {k: x for k, x in b.items() if k != "repos"} for v, b in builds.items()},
           "recall": rows, "memory": memory(dirs, base.model_id, args.work)}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
