"""Offline ranking lab: try fusion and sparse-scoring ideas in seconds on an indexed eval set.

``eval_retrieval.py`` measures what ships, through the daemon and gRPC; each idea tried there
costs a re-index or a server round per query. This lab reads the points an
``eval_retrieval.py --work DIR`` run left in its data dir once (dense vectors, payloads),
embeds the queries with the same model, and recomputes every score in numpy: cosine for the
dense side, BM25 with Qdrant's IDF (``ln(1 + (N - n + 0.5) / (n + 0.5))``, the ``Modifier.Idf``
formula) for the sparse side. Then it ranks documents under each variant and prints nDCG@10 and
MRR@10 as ``eval_retrieval.py`` counts them (a document's best chunk counts).

Numbers here are a guide; a variant worth shipping is re-measured through the harness.

    python tests/bench/fusion_lab.py --work /work/eval/cosqa [--set DIR]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from coderecalld.config import Config, IndexConfig, RepoConfig  # noqa: E402
from coderecalld.daemon import Daemon  # noqa: E402
from coderecalld.embed import sparse
from eval_retrieval import DEFAULT_SET, REPO, read_set  # noqa: E402
from eval_retrieval import score as metrics_of  # noqa: E402

K = 10


class Lab:
    """Chunk matrix, doc ids, IDF and postings of one indexed eval set."""

    def __init__(self, work: Path, eval_set: Path) -> None:
        _, self.queries, self.qrels = read_set(eval_set)
        cfg = Config(data_dir=work / "data", repos=(RepoConfig(REPO, str(work / "repo")),),
                     index=IndexConfig(sync_interval_s=3600))
        daemon = Daemon.open(cfg)
        try:
            pts = [p for p in daemon.store.all_points(REPO) if p.dense is not None]
            self.embed_query = daemon.embedder.embed_query
            self.qvec = {qid: daemon.embedder.embed_query(text) for qid, text in self.queries.items()}
        finally:
            daemon.close()
        self.doc = [Path(p.payload["path"]).stem for p in pts]
        self.kind = [p.payload["kind"] for p in pts]
        self.text = [p.payload.get("embed_text", "") for p in pts]
        self.matrix = np.asarray([p.dense for p in pts], dtype=np.float32)
        self.points = pts
        print(f"{len(pts)} chunks, {len(set(self.doc))} docs, {len(self.queries)} queries")

    def sparse_scores(self, doc_terms: list[list[str]], query_terms: Callable[[str], list[str]]
                      ) -> dict[str, np.ndarray]:
        """BM25 (sparse.vector's TF weights, Qdrant IDF) of every chunk for every query."""
        n = len(doc_terms)
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, terms in enumerate(doc_terms):
            counts = Counter(terms)
            norm = sparse.BM25_K1 * (1 - sparse.BM25_B + sparse.BM25_B * len(terms) / sparse.BM25_AVG_TERMS)
            for t, tf in counts.items():
                postings[t].append((i, tf * (sparse.BM25_K1 + 1) / (tf + norm)))
        out = {}
        for qid, text in self.queries.items():
            scores = np.zeros(n, dtype=np.float32)
            for t in set(query_terms(text)):
                plist = postings.get(t)
                if not plist:
                    continue
                idf = math.log(1 + (n - len(plist) + 0.5) / (len(plist) + 0.5))
                for i, w in plist:
                    scores[i] += idf * w
            out[qid] = scores
        return out

    def evaluate(self, name: str, score: Callable[[str], np.ndarray]) -> tuple[float, float]:
        nd, rr = [], []
        for qid in self.queries:
            s = score(qid)
            order = np.argsort(-s)[:200]
            ranked, seen = [], set()
            for i in order:
                d = self.doc[i]
                if d not in seen:
                    seen.add(d)
                    ranked.append(d)
                if len(ranked) == K:
                    break
            got = metrics_of(ranked, self.qrels.get(qid, {}))  # the harness's own metrics
            nd.append(got["nDCG@10"])
            rr.append(got["MRR@10"])
        result = (100 * float(np.mean(nd)), 100 * float(np.mean(rr)))
        print(f"{name:<60} nDCG@10 {result[0]:5.1f}  MRR@10 {result[1]:5.1f}")
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--set", type=Path, default=DEFAULT_SET)
    args = parser.parse_args()
    lab = Lab(args.work, args.set)
    dense = {qid: lab.matrix @ v for qid, v in lab.qvec.items()}
    base_terms = [sparse.tokens(p.payload.get("embed_text", "")) for p in lab.points]
    qterms = lambda text: [t for t in sparse.tokens(text) if t not in sparse.QUERY_STOP_WORDS]  # noqa: E731
    bm25 = lab.sparse_scores(base_terms, qterms)
    lab.evaluate("dense", lambda q: dense[q])
    lab.evaluate("sparse (embed_text terms)", lambda q: bm25[q])
    for w, c in ((0.1, 20.0), (0.15, 20.0), (0.2, 20.0), (0.1, 10.0)):
        lab.evaluate(f"cos + {w} s/(s+{c})", lambda q, w=w, c=c: dense[q] + w * bm25[q] / (bm25[q] + c))
    try:  # Porter/Snowball stems on both sides (snowballstemmer: `pip install .[bench]`)
        import snowballstemmer
    except ImportError:
        snowballstemmer = None
    if snowballstemmer is not None:
        stem = snowballstemmer.stemmer("english").stemWord
        stemmed = [[stem(t) for t in terms] for terms in base_terms]
        bm25s = lab.sparse_scores(stemmed, lambda text: [stem(t) for t in qterms(text)])
        lab.evaluate("sparse, stemmed", lambda q: bm25s[q])
        for w in (0.1, 0.15, 0.2, 0.3):
            lab.evaluate(f"cos + {w} s/(s+20), stemmed",
                         lambda q, w=w: dense[q] + w * bm25s[q] / (bm25s[q] + 20))
        both = [terms + [stem(t) for t in terms if stem(t) != t] for terms in base_terms]
        bm25b = lab.sparse_scores(both, lambda text: [stem(t) for t in qterms(text)] + qterms(text))
        lab.evaluate("sparse, terms + stems", lambda q: bm25b[q])
        for w in (0.15, 0.2, 0.3):
            lab.evaluate(f"cos + {w} s/(s+20), terms + stems",
                         lambda q, w=w: dense[q] + w * bm25b[q] / (bm25b[q] + 20))
    # Dense pseudo-relevance feedback (Rocchio): q' = q + a * mean(top-k chunk vectors).
    for k, a in ((3, 0.3), (5, 0.5), (10, 0.5)):
        def prf(q: str, k: int = k, a: float = a) -> np.ndarray:
            top = np.argsort(-dense[q])[:k]
            v = lab.qvec[q] + a * lab.matrix[top].mean(axis=0)
            return lab.matrix @ (v / np.linalg.norm(v))
        cache = {q: prf(q) for q in lab.queries}
        lab.evaluate(f"dense PRF k={k} a={a}", lambda q: cache[q])
        lab.evaluate(f"dense PRF k={k} a={a} + 0.1 s/(s+20)",
                     lambda q: cache[q] + 0.1 * bm25[q] / (bm25[q] + 20))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
