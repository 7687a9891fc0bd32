"""Learned, query-aware re-ranking of hybrid candidates ("score-aware fusion"), cross-validated.

Question: can a re-ranker over the hybrid candidates, using only what the product knows at
query time (the two prefetch lists' scores and ranks, the query, and the candidate's payload),
beat dense-only retrieval by a clear margin on CoSQA dev?

Per query the candidates are the union of the top ``PREFETCH`` points by cosine and by BM25 (the
product's two prefetches). A point missing from one list gets that list's 100th score as its
score (an upper bound, all the product knows) and a "missing" flag. Features (``FEATURES``) are
grouped by cost: ``prefetch`` ones come with the two id+score lists, ``payload`` ones need the
candidate's payload (~0.1 ms a point in the product, so only a short head can afford them).

Models, all trained and scored with 5-fold cross-validation *by query* (train on 400 queries,
score the held-out 100, concatenate the held-out rankings): a listwise softmax linear ranker
(cross-entropy of the relevant document's probability mass over the candidate list, L2, Adam,
plain numpy), the same with a tiny tanh hidden layer, per-query-shape fusion weights (``w``
of ``cos + w s/(s+20)`` per query-length bucket, grid-tuned on the training folds), and a
handful-feature linear formula tuned by coordinate ascent on nDCG@10 in the training folds.
In-sample figures (train = test) show how much each one overfits. The final held-out rankings
are scored by ``Lab.evaluate`` (the harness's metrics, a document's best chunk counts); the
training loops use an equivalent vectorised scorer over the candidates.

    PYTHONPATH=daemon:clients python tests/bench/fusion_ltr.py --work /work/eval/cosqa \
        [--set DIR] [--cache /tmp/fusion_ltr.pkl]

Measured on CoSQA dev (dense 58.8 nDCG@10): the best learned variant, a linear listwise ranker
over all features, reaches ~59.7 CV (60.0 on one split; top-30 head re-rank alike), +1 over
dense and +0.3 over the shipped fusion, within noise (s.e. of the per-query gap ~0.6); the
in-sample figures top out near 60.4, so the features, not the model size, are the limit.

``--cache`` keeps the loaded points and query vectors in a pickle so a re-run skips the ~30 s
store open (delete it after re-indexing). A bench script: nothing imports it.
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # tiny matrices: threads only contend (10x slower on 2 cores)
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from coderecalld.embed import sparse
from eval_retrieval import DEFAULT_SET  # noqa: E402
from fusion_lab import Lab  # noqa: E402

PREFETCH = 100
HALF = 20.0
BASE_W = 0.15
HEAD = 30
FOLDS = 5
SEED = 0
SPLITS = 3  # fold splits averaged (the CV figure moves ~0.3 between splits)

#: name -> cost ("prefetch": from the two id+score lists and the query; "payload": needs the
#: candidate's payload).
FEATURES: dict[str, str] = {
    "cos": "prefetch",             # cosine (100th cosine if not in the dense list)
    "cos_z": "prefetch",           # (cos - mean) / std over the dense list
    "cos_gap": "prefetch",         # cos - best cos
    "s_sat": "prefetch",           # s / (s + 20), s = BM25 (100th BM25 if not in the list)
    "s_log": "prefetch",           # log1p(s)
    "s_rel": "prefetch",           # s / best s
    "rr_d": "prefetch",            # 1 / (10 + dense rank)
    "rr_s": "prefetch",            # 1 / (10 + sparse rank)
    "miss_d": "prefetch",          # not in the dense list
    "miss_s": "prefetch",          # not in the sparse list
    "both": "prefetch",            # in both lists
    "s_sat_x_short": "prefetch",   # s_sat * [query has <= 3 terms]
    "s_sat_x_qlen": "prefetch",    # s_sat * (query terms - 4) / 2
    "cos_x_qlen": "prefetch",      # cos * (query terms - 4) / 2
    "ov_name": "payload",          # IDF-weighted share of query terms among name tokens
    "ov_doc": "payload",           # ... among docstring tokens
    "ov_sig": "payload",           # ... among signature tokens
    "ov_text": "payload",          # ... among embed_text tokens
    "cnt_text": "payload",         # plain share of query terms among embed_text tokens
    "bm_doc": "payload",           # BM25 over the docstring alone, saturated x/(x+5)
    "bm_name": "payload",          # BM25 over name + signature alone, saturated x/(x+5)
    "module": "payload",           # kind == module
    "no_doc": "payload",           # empty docstring
    "len": "payload",              # log(1 + embed_text terms) / 5
}
PREFETCH_ONLY = [f for f, c in FEATURES.items() if c == "prefetch"]
ALL = list(FEATURES)
HANDFUL = ["cos", "s_sat", "bm_doc", "ov_name", "module"]


def qterms(text: str) -> list[str]:
    return [t for t in sparse.tokens(text) if t not in sparse.QUERY_STOP_WORDS]


def load(work: Path, eval_set: Path, cache: Path | None) -> Lab:
    if cache is not None and cache.exists():
        data = pickle.loads(cache.read_bytes())
        lab = Lab.__new__(Lab)
        lab.queries, lab.qrels, lab.qvec, lab.doc, lab.matrix = (
            data["queries"], data["qrels"], data["qvec"], data["doc"], data["matrix"])
        lab.points = [SimpleNamespace(payload=p) for p in data["payloads"]]
        lab.kind = [p["kind"] for p in data["payloads"]]
        lab.text = [p.get("embed_text", "") for p in data["payloads"]]
        print(f"{len(lab.points)} chunks from {cache}")
        return lab
    lab = Lab(work, eval_set)
    if cache is not None:
        cache.write_bytes(pickle.dumps({
            "queries": lab.queries, "qrels": lab.qrels, "qvec": lab.qvec, "doc": lab.doc,
            "matrix": lab.matrix, "payloads": [p.payload for p in lab.points]}))
    return lab


class Data:
    """Padded per-query candidate tensors: X [Q, C, F], mask, relevance, local doc ids."""

    def __init__(self, lab: Lab) -> None:
        t0 = time.perf_counter()
        self.qids = list(lab.queries)
        pay = [p.payload for p in lab.points]
        text_terms = [sparse.tokens(p.get("embed_text", "")) for p in pay]
        doc_terms = [sparse.tokens(p.get("docstring", "")) for p in pay]
        sig_terms = [sparse.tokens(p.get("signature", "")) for p in pay]
        name_terms = [sparse.tokens(p.get("qualified_name", "")) for p in pay]
        bm25 = lab.sparse_scores(text_terms, qterms)
        bm_doc = lab.sparse_scores(doc_terms, qterms)
        bm_name = lab.sparse_scores([a + b for a, b in zip(name_terms, sig_terms)], qterms)
        n = len(pay)
        df = Counter(t for terms in text_terms for t in set(terms))
        idf = lambda t: math.log(1 + (n - df.get(t, 0) + 0.5) / (df.get(t, 0) + 0.5))  # noqa: E731
        sets = {"name": [set(x) for x in name_terms], "doc": [set(x) for x in doc_terms],
                "sig": [set(x) for x in sig_terms], "text": [set(x) for x in text_terms]}
        docs = {d: i for i, d in enumerate(sorted(set(lab.doc)))}
        doc_of = np.array([docs[d] for d in lab.doc])
        is_module = np.array([k == "module" for k in lab.kind], dtype=np.float32)
        no_doc = np.array([not p.get("docstring") for p in pay], dtype=np.float32)
        length = np.log1p([len(t) for t in text_terms]).astype(np.float32) / 5

        self.cand: list[np.ndarray] = []
        rows: list[np.ndarray] = []
        self.cos_full: dict[str, np.ndarray] = {}
        self.bm25 = bm25
        for qid in self.qids:
            cos_all = lab.matrix @ lab.qvec[qid]
            self.cos_full[qid] = cos_all
            s_all = bm25[qid]
            d_top = np.argsort(-cos_all)[:PREFETCH]
            nz = np.flatnonzero(s_all > 0)
            s_top = nz[np.argsort(-s_all[nz])][:PREFETCH]
            cand = np.union1d(d_top, s_top)
            self.cand.append(cand)
            in_d = np.isin(cand, d_top)
            in_s = np.isin(cand, s_top)
            d_floor = cos_all[d_top[-1]]
            s_floor = s_all[s_top[-1]] if len(s_top) == PREFETCH else 0.0
            cos = np.where(in_d, cos_all[cand], d_floor)
            s = np.where(in_s, s_all[cand], s_floor)
            rank_d = {p: r for r, p in enumerate(d_top)}
            rank_s = {p: r for r, p in enumerate(s_top)}
            dl = cos_all[d_top]
            q = qterms(lab.queries[qid])
            qset = set(q)
            qlen = len(q)
            w = {t: idf(t) for t in qset}
            wsum = sum(w.values()) or 1.0

            def share(field: str, i: int) -> float:
                return sum(v for t, v in w.items() if t in sets[field][i]) / wsum

            f = {
                "cos": cos,
                "cos_z": (cos - dl.mean()) / (dl.std() + 1e-6),
                "cos_gap": cos - dl[0],
                "s_sat": s / (s + HALF),
                "s_log": np.log1p(s),
                "s_rel": s / (s_all[s_top[0]] if len(s_top) else 1.0),
                "rr_d": np.array([1 / (10 + rank_d.get(p, PREFETCH)) for p in cand]) * 10,
                "rr_s": np.array([1 / (10 + rank_s.get(p, PREFETCH)) for p in cand]) * 10,
                "miss_d": (~in_d).astype(np.float32),
                "miss_s": (~in_s).astype(np.float32),
                "both": (in_d & in_s).astype(np.float32),
                "s_sat_x_short": s / (s + HALF) * (qlen <= 3),
                "s_sat_x_qlen": s / (s + HALF) * (qlen - 4) / 2,
                "cos_x_qlen": cos * (qlen - 4) / 2,
                "ov_name": np.array([share("name", i) for i in cand]),
                "ov_doc": np.array([share("doc", i) for i in cand]),
                "ov_sig": np.array([share("sig", i) for i in cand]),
                "ov_text": np.array([share("text", i) for i in cand]),
                "cnt_text": np.array([len(qset & sets["text"][i]) / max(len(qset), 1) for i in cand]),
                "bm_doc": bm_doc[qid][cand] / (bm_doc[qid][cand] + 5),
                "bm_name": bm_name[qid][cand] / (bm_name[qid][cand] + 5),
                "module": is_module[cand],
                "no_doc": no_doc[cand],
                "len": length[cand],
            }
            rows.append(np.stack([np.asarray(f[k], dtype=np.float32) for k in FEATURES], axis=1))
        nq, cmax, nf = len(self.qids), max(len(c) for c in self.cand), len(FEATURES)
        self.X = np.zeros((nq, cmax, nf), dtype=np.float32)
        self.mask = np.zeros((nq, cmax), dtype=bool)
        self.rel = np.zeros((nq, cmax), dtype=bool)
        self.ldoc = np.zeros((nq, cmax), dtype=np.int64)   # local doc index in [0, cmax)
        self.reldoc = np.full(nq, -1)                      # local index of the relevant doc
        self.qlen = np.array([len(qterms(lab.queries[q])) for q in self.qids])
        for qi, (qid, cand, x) in enumerate(zip(self.qids, self.cand, rows)):
            k = len(cand)
            self.X[qi, :k] = x
            self.mask[qi, :k] = True
            gold = set(lab.qrels[qid])
            assert len(gold) == 1, "the fast scorer assumes one relevant document per query"
            self.rel[qi, :k] = [lab.doc[p] in gold for p in cand]
            local: dict[int, int] = {}
            self.ldoc[qi, :k] = [local.setdefault(doc_of[p], len(local)) for p in cand]
            if self.rel[qi].any():
                self.reldoc[qi] = self.ldoc[qi, np.argmax(self.rel[qi])]
        self.col = {k: i for i, k in enumerate(FEATURES)}
        base = self.feat("cos") + BASE_W * self.feat("s_sat")
        self.base = np.where(self.mask, base, -np.inf)
        # The current fusion's top HEAD points per query: what a payload re-rank can afford.
        order = np.argsort(-self.base, axis=1)
        self.head = np.zeros_like(self.mask)
        np.put_along_axis(self.head, order[:, :HEAD], True, axis=1)
        self.head &= self.mask
        print(f"features for {nq} queries x <= {cmax} candidates in {time.perf_counter() - t0:.1f} s; "
              f"relevant doc among candidates for {np.mean(self.reldoc >= 0):.1%}, "
              f"in the fusion's top {HEAD} for {np.mean((self.rel & self.head).any(1)):.1%}")

    def feat(self, name: str) -> np.ndarray:
        return self.X[:, :, self.col[name]]

    def metrics(self, scores: np.ndarray, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per-query nDCG@10 and MRR@10 of candidate scores [Q', C] (rows: which queries)."""
        rows = np.arange(len(self.qids)) if rows is None else rows
        s = np.where(self.mask[rows], scores, -np.inf)
        nq, c = s.shape
        best = np.full((nq, c), -np.inf)
        np.maximum.at(best, (np.repeat(np.arange(nq), c), self.ldoc[rows].ravel()), s.ravel())
        rd = self.reldoc[rows]
        relbest = np.where(rd >= 0, best[np.arange(nq), np.maximum(rd, 0)], np.inf)
        rank = 1 + (best > relbest[:, None]).sum(1)
        ok = (rd >= 0) & (rank <= 10)
        return np.where(ok, 1 / np.log2(rank + 1), 0.0), np.where(ok, 1 / rank, 0.0)


# ---------------------------------------------------------------- models


def train_listwise(X: np.ndarray, mask: np.ndarray, rel: np.ndarray, hidden: int = 0,
                   l2: float = 1e-3, steps: int = 400, lr: float = 0.05, seed: int = SEED
                   ) -> Callable[[np.ndarray], np.ndarray]:
    """Softmax listwise ranker: minimise -log P(relevant chunks) over each query's candidates.

    Features standardised on the training rows; linear score, plus ``hidden`` tanh units when
    asked. Returns a scorer X -> scores (same standardisation)."""
    keep = (rel & mask).any(1)
    X, mask, rel = X[keep], mask[keep], rel[keep]
    mu = X[mask].mean(0)
    sd = X[mask].std(0) + 1e-6
    Z = ((X - mu) / sd).astype(np.float32)
    nq, c, nf = Z.shape
    rng = np.random.default_rng(seed)
    params = {"w": np.zeros(nf, dtype=np.float32)}
    if hidden:
        params["W1"] = rng.normal(0, 0.3, (nf, hidden)).astype(np.float32)
        params["b1"] = np.zeros(hidden, dtype=np.float32)
        params["v"] = rng.normal(0, 0.3, hidden).astype(np.float32)
    m = {k: np.zeros_like(v) for k, v in params.items()}
    u = {k: np.zeros_like(v) for k, v in params.items()}

    Z2 = Z.reshape(-1, nf)

    def forward(Zx: np.ndarray, p: dict) -> tuple[np.ndarray, np.ndarray | None]:
        s = Zx @ p["w"]
        if not hidden:
            return s, None
        h = np.tanh(Zx @ p["W1"] + p["b1"])
        return s + h @ p["v"], h

    for step in range(1, steps + 1):
        s, h = forward(Z2, params)
        s = np.where(mask, s.reshape(nq, c), -np.inf)
        s = s - s.max(1, keepdims=True)
        e = np.exp(s)
        prob = e / e.sum(1, keepdims=True)
        pos = np.where(rel, e, 0.0)
        g = ((prob - pos / pos.sum(1, keepdims=True)) / nq).reshape(-1)   # dL/ds
        grads = {"w": g @ Z2 + l2 * params["w"]}
        if hidden:
            grads["v"] = g @ h + l2 * params["v"]
            gh = g[:, None] * params["v"] * (1 - h ** 2)
            grads["W1"] = Z2.T @ gh + l2 * params["W1"]
            grads["b1"] = gh.sum(0)
        for k in params:  # Adam
            m[k] = 0.9 * m[k] + 0.1 * grads[k]
            u[k] = 0.999 * u[k] + 0.001 * grads[k] ** 2
            params[k] -= lr * (m[k] / (1 - 0.9 ** step)) / (np.sqrt(u[k] / (1 - 0.999 ** step)) + 1e-8)

    def score(Xn: np.ndarray) -> np.ndarray:
        z = ((Xn - mu) / sd).astype(np.float32)
        return forward(z.reshape(-1, nf), params)[0].reshape(z.shape[:2])

    score.weights = params["w"] / sd  # type: ignore[attr-defined]  # per raw feature unit
    return score


def folds(nq: int, seed: int = SEED) -> list[np.ndarray]:
    order = np.random.default_rng(seed).permutation(nq)
    return np.array_split(order, FOLDS)


def cross_validate(data: Data, fit: Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray]],
                   seed: int = SEED) -> np.ndarray:
    """Held-out candidate scores of every query (5 folds by query, split drawn with ``seed``)."""
    held = np.full(data.mask.shape, -np.inf)
    for test in folds(len(data.qids), seed):
        train = np.setdiff1d(np.arange(len(data.qids)), test)
        held[test] = fit(train)(test)
    return held


def in_sample(data: Data, fit: Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray]]) -> np.ndarray:
    rows = np.arange(len(data.qids))
    return fit(rows)(rows)


def ranker(data: Data, names: list[str], head: bool = False, **kw
           ) -> Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """Listwise model over ``names``; with ``head`` it sees and re-orders only the fusion's top
    HEAD, the rest keeps the fusion order below it."""
    cols = [data.col[n] for n in names]
    avail = data.head if head else data.mask

    def fit(train: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        model = train_listwise(data.X[train][:, :, cols], avail[train], data.rel[train], **kw)
        fit.last = model  # type: ignore[attr-defined]

        def apply(rows: np.ndarray) -> np.ndarray:
            s = model(data.X[rows][:, :, cols]).astype(np.float64)  # float32 + 1e6 would tie
            if head:
                s = np.where(data.head[rows], s + 1e6, data.base[rows])
            return np.where(data.mask[rows], s, -np.inf)
        return apply
    return fit


def shape_weights(data: Data, buckets: tuple[int, ...] = (3, 4, 5)
                  ) -> Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """``cos + w_b s/(s+20)`` with one ``w`` per query-length bucket, grid-tuned on train."""
    grid = np.round(np.arange(0.0, 0.61, 0.025), 3)
    b_of = np.digitize(data.qlen, buckets, right=True)   # <=3, 4, 5, >=6
    cos, sat = data.feat("cos"), data.feat("s_sat")

    def fit(train: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        ws = {}
        for b in range(len(buckets) + 1):
            rows = train[b_of[train] == b]
            if len(rows) == 0:
                ws[b] = BASE_W
                continue
            res = [data.metrics(cos[rows] + w * sat[rows], rows)[0].mean() for w in grid]
            ws[b] = float(grid[int(np.argmax(res))])
        fit.last = ws  # type: ignore[attr-defined]
        return lambda rows: cos[rows] + np.array([ws[b] for b in b_of[rows]])[:, None] * sat[rows]
    return fit


def coordinate_ascent(data: Data, names: list[str], passes: int = 2
                      ) -> Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """``cos + sum_k a_k f_k`` (cos weight fixed at 1), each ``a_k`` grid-searched in turn on
    the training queries' nDCG@10."""
    grid = np.round(np.arange(-0.3, 0.61, 0.025), 3)
    feats = [data.feat(n) for n in names if n != "cos"]
    cos = data.feat("cos")

    def fit(train: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        a = np.zeros(len(feats))
        a[0] = BASE_W if names[1] == "s_sat" else 0.0

        def total(rows: np.ndarray, a: np.ndarray) -> np.ndarray:
            return cos[rows] + sum(ak * f[rows] for ak, f in zip(a, feats))
        for _ in range(passes):
            for k in range(len(feats)):
                res = []
                for g in grid:
                    b = a.copy()
                    b[k] = g
                    res.append(data.metrics(total(train, b), train)[0].mean())
                a[k] = grid[int(np.argmax(res))]
        fit.last = dict(zip(names[1:], a))  # type: ignore[attr-defined]
        return lambda rows: total(rows, a)
    return fit


# ---------------------------------------------------------------- report


def full_vectors(lab: Lab, data: Data, cand_scores: np.ndarray) -> dict[str, np.ndarray]:
    out = {}
    for qi, (qid, cand) in enumerate(zip(data.qids, data.cand)):
        v = np.full(len(lab.points), -np.inf)
        v[cand] = cand_scores[qi, :len(cand)]
        out[qid] = v
    return out


def report(lab: Lab, data: Data, name: str, fit: Callable | None, ref: np.ndarray, table: list,
           fixed: np.ndarray | None = None) -> None:
    """Score a variant: CV on the SEED split through ``Lab.evaluate``; the mean (min..max) CV
    nDCG@10 over ``SPLITS`` fold splits and the in-sample figure through the fast scorer."""
    held = fixed if fit is None else cross_validate(data, fit)
    vec = full_vectors(lab, data, held)
    nd, mrr = lab.evaluate(name + (" (CV)" if fit else ""), lambda q: vec[q])
    diff = 100 * (data.metrics(held)[0] - ref)
    se = diff.std(ddof=1) / math.sqrt(len(diff))
    spread = ins = ""
    if fit is not None:
        runs = [nd] + [100 * data.metrics(cross_validate(data, fit, s))[0].mean()
                       for s in range(SEED + 1, SEED + SPLITS)]
        spread = f"{np.mean(runs):.1f} ({min(runs):.1f}..{max(runs):.1f})"
        ins = "{:.1f} / {:.1f}".format(*(100 * x.mean() for x in data.metrics(in_sample(data, fit))))
    table.append((name, nd, mrr, spread, ins, diff.mean(), se))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--set", type=Path, default=DEFAULT_SET)
    parser.add_argument("--cache", type=Path, help="pickle of the loaded points (skips the store open)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    lab = load(args.work, args.set, args.cache)
    data = Data(lab)
    table: list = []

    lab.evaluate("dense (all points)", lambda q: data.cos_full[q])
    lab.evaluate(f"cos + {BASE_W} s/(s+20) (all points, lab)",
                 lambda q: data.cos_full[q] + BASE_W * data.bm25[q] / (data.bm25[q] + HALF))
    dense_c = np.where(data.mask, data.feat("cos"), -np.inf)
    ref = data.metrics(dense_c)[0]
    report(lab, data, "dense (candidates)", None, ref, table, dense_c)
    report(lab, data, f"cos + {BASE_W} s/(s+20) (candidates)", None, ref, table, data.base)

    fit = shape_weights(data)
    report(lab, data, "per-query-length w (<=3,4,5,>=6)", fit, ref, table)
    print("   w per bucket (all queries):", fit.last)

    fit = coordinate_ascent(data, HANDFUL)
    report(lab, data, "coord. ascent " + "+".join(HANDFUL), fit, ref, table)
    print("   weights (all queries):", {k: float(v) for k, v in fit.last.items()})

    variants = [
        ("listwise linear, prefetch features", PREFETCH_ONLY, False, {}),
        ("listwise linear, handful", HANDFUL, False, {}),
        ("listwise linear, all features", ALL, False, {}),
        ("listwise linear, all, l2=1e-2", ALL, False, {"l2": 1e-2}),
        ("listwise 8-tanh MLP, all, l2=1e-2", ALL, False, {"hidden": 8, "l2": 1e-2}),
        ("listwise 4-tanh MLP, all, l2=3e-2, 150 steps", ALL, False,
         {"hidden": 4, "l2": 3e-2, "steps": 150}),
        (f"listwise linear, prefetch, top-{HEAD} of fusion", PREFETCH_ONLY, True, {}),
        (f"listwise linear, all, top-{HEAD} of fusion", ALL, True, {}),
        (f"listwise linear, handful, top-{HEAD} of fusion", HANDFUL, True, {}),
    ]
    weights = {}
    for name, names, head, kw in variants:
        fit = ranker(data, names, head=head, **kw)
        report(lab, data, name, fit, ref, table)
        if not kw.get("hidden"):
            weights[name] = dict(zip(names, np.round(fit.last.weights, 3)))

    print(f"\nCV = 5 folds by query; split {SEED} through Lab.evaluate, then the mean (min..max) "
          f"nDCG@10 over {SPLITS} splits; in-sample = trained and scored on all 500 queries")
    print(f"{'variant':<48} {'nDCG':>5} {'MRR':>5}  {f'{SPLITS} splits':>16}  {'in-sample':>11}  "
          f"{'vs dense (se)':>14}")
    for name, nd, mrr, spread, ins, d, se in table:
        print(f"{name:<48} {nd:5.1f} {mrr:5.1f}  {spread:>16}  {ins:>11}  {d:+6.2f} ({se:.2f})")
    for name, w in weights.items():
        print(f"\n{name}: weights per raw feature unit (trained on all queries)")
        print("  " + ", ".join(f"{k} {v:+.3f}" for k, v in w.items()))
    print(f"\nruntime {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
