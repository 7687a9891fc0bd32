"""Benchmark: the int8 query encoder (``embed.query_model``) against the model itself.

Opens the CoSQA evaluation data dir that ``eval_retrieval.py --work DIR`` indexed (the
shipped model's document vectors) and, for each query encoder, embeds the 500 dev queries
on one thread (latency per query), compares the vectors with the model's own (cosine), and
runs every query through ``Service.search`` (dense and hybrid, the daemon's own ranking) with
that encoder's vectors: nDCG@10, MRR@10 and Recall@10 as ``eval_retrieval`` scores them.

Encoders: ``model`` (the shipped file), ``int8`` (what ``query_model`` makes: per-channel
weight scales), ``int8-per-tensor`` (one scale per weight matrix, for comparison).

``--documents`` also measures the same recipe for *document* vectors (not what the daemon
does: stored vectors come from the model): chunks/s embedding every chunk of the corpus
(sorted by length, batch 8, 2 threads) with each, and dense nDCG@10 of every pairing of
document and query encoder (brute force over the corpus).

    python tests/bench/bench_query_model.py --work /work/eval/cosqa [--documents]

Not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import eval_retrieval as ev  # noqa: E402
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig  # noqa: E402
from coderecalld.daemon import Daemon  # noqa: E402
from coderecalld.embed import local as embed

MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def per_tensor_copy(source: Path, target: Path) -> Path:
    """``query_model``'s recipe with one scale per weight matrix (``per_channel=False``)."""
    embed._derive_query_model(source, target, "per-tensor", per_channel=False)
    return target


def session(model_dir: Path, threads: int):  # noqa: ANN201 - fastembed's type
    from fastembed import TextEmbedding

    return TextEmbedding(model_name=MODEL, specific_model_path=str(model_dir), threads=threads,
                         enable_cpu_mem_arena=False)


def query_vectors(model_dir: Path, texts: list[str]) -> tuple[np.ndarray, list[float]]:
    """Vectors of ``texts`` on one thread, and each one's latency in ms."""
    model = session(model_dir, 1)
    next(iter(model.query_embed(["warm up"])))
    out, times = [], []
    for text in texts:
        started = time.perf_counter()
        out.append(np.asarray(next(iter(model.query_embed([text]))), dtype=np.float32))
        times.append((time.perf_counter() - started) * 1000)
    return np.stack(out), times


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=ev.DEFAULT_SET)
    parser.add_argument("--work", type=Path, default=Path("/tmp/coderecall-eval"),
                        help="the --work of an eval_retrieval.py run (its index is reused)")
    parser.add_argument("--documents", action="store_true", help="also the document-side figures")
    args = parser.parse_args(argv)
    corpus, queries, qrels = ev.read_set(args.set)
    cfg = Config(data_dir=args.work / "data", repos=(RepoConfig(ev.REPO, str(args.work / "repo"), "main"),),
                 embedding=EmbeddingConfig(threads=2, query_quantization="none"),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    scratch = Path(tempfile.mkdtemp(prefix="query-model-"))
    try:
        if not daemon.store.count():
            raise SystemExit(f"{args.work}: no index; run eval_retrieval.py --work {args.work} first")
        source = daemon.embedder.query_model_dir
        encoders = {"model": source, "int8": embed.query_model(source, scratch / "int8"),
                    "int8-per-tensor": per_tensor_copy(source, scratch / "per-tensor")}
        texts = list(queries.values())
        vectors = {}
        print(f"{len(texts)} queries, {len(corpus)} docs; nDCG@10 / MRR@10 / R@10 through Service.search")
        print(f"{'encoder':16} {'ms p50':>7} {'cos min':>8} {'cos mean':>8} {'dense':>18} {'hybrid':>18}")
        for name, where in encoders.items():
            vectors[name], times = query_vectors(where, texts)
            cos = (vectors[name] * vectors["model"]).sum(axis=1)
            by_text = dict(zip(texts, vectors[name]))
            daemon.embedder._query_vector = by_text.__getitem__  # the service embeds through it
            row = [f"{name:16} {statistics.median(times):7.2f} {cos.min():8.4f} {cos.mean():8.4f}"]
            for mode in ("dense", "hybrid"):
                totals: dict[str, float] = {}
                for qid, text in queries.items():
                    ranked = list(dict.fromkeys(h.path.removeprefix("docs/").removesuffix(".py")
                                                for h in daemon.service.search(text, limit=30, repo=ev.REPO,
                                                                               mode=mode)))
                    for key, value in ev.score(ranked, qrels[qid]).items():
                        totals[key] = totals.get(key, 0.0) + value
                n = len(queries)
                row.append(f"{100 * totals['nDCG@10'] / n:6.2f} {100 * totals['MRR@10'] / n:5.1f} "
                           f"{100 * totals['R@10'] / n:5.1f}")
            print(" ".join(row), flush=True)
        if args.documents:
            documents(daemon, encoders, queries, qrels, vectors)
    finally:
        daemon.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


def documents(daemon: Daemon, encoders: dict[str, Path], queries: dict[str, str],
              qrels: dict[str, dict[str, int]], qvecs: dict[str, np.ndarray]) -> None:
    """Document vectors from each encoder: chunks/s, and dense nDCG@10 of every pairing."""
    points = daemon.store.all_points(ev.REPO)
    texts = [p.payload["embed_text"] for p in points]
    docs = [p.payload["path"].removeprefix("docs/").removesuffix(".py") for p in points]
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    dvecs = {}
    for name in ("model", "int8"):
        model = session(encoders[name], 2)
        started = time.perf_counter()
        got = list(model.embed([texts[i] for i in order], batch_size=8))
        rate = len(texts) / (time.perf_counter() - started)
        dvecs[name] = np.zeros((len(texts), len(got[0])), dtype=np.float32)
        for i, v in zip(order, got):
            dvecs[name][i] = v
        print(f"documents by {name}: {len(texts)} chunks at {rate:.1f} chunks/s (2 threads, batch 8)", flush=True)
    cos = (dvecs["model"] * dvecs["int8"]).sum(axis=1)
    print(f"document vectors int8 vs model: cosine min {cos.min():.4f}, mean {cos.mean():.4f}")
    qids = list(queries)
    for dname, dv in dvecs.items():
        for qname in ("model", "int8"):
            scores = qvecs[qname] @ dv.T
            total = 0.0
            for qi, qid in enumerate(qids):
                ranked = list(dict.fromkeys(docs[i] for i in np.argsort(-scores[qi])[:60]))[:30]
                total += ev.score(ranked, qrels[qid])["nDCG@10"]
            print(f"documents {dname:6} queries {qname:6} dense nDCG@10 {100 * total / len(qids):.2f}")


if __name__ == "__main__":
    raise SystemExit(main())
