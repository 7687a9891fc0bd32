"""Hybrid retrieval as the daemon runs it: the dense retriever's candidates, rescored by the
sparse retriever, fused by one score formula; and whether the two retrievers, each run
alone, agree on a hit (``confidence.Features.agree``).

The score of a point is ``cosine + w * s / (s + half)`` with ``s`` its sparse (BM25) score
and 0 for a side that has no score for it (``service.FUSION``, measured on CoSQA in
docs/retrieval.md). ``hybrid`` computes it in four steps:

1. the dense retriever's top ``prefetch`` (ids and cosines, no payload);
2. the sparse score of each of those candidates, in one query filtered to their ids
   (``Store.sparse_scores``). Every candidate gets its exact lexical term. An engine-side
   sparse prefetch of the same size gives the term only to candidates inside its own top
   ``prefetch``. At 1M points that is ~1 chunk's 115 near-duplicates, so the term
   reached almost no dense candidate;
3. the sparse retriever's own top ``prefetch``, only when a point outside the dense
   candidates could still reach the top ``limit``, each of those outside them with its
   exact cosine (``Store.dense_scores``, one query filtered to their ids, as step 2).
   Such a point scores at most ``floor + w`` (``floor`` the last dense candidate's
   cosine, 0 when the dense retriever returned fewer than ``prefetch``: every other
   point then has no vector), so it cannot once the ``limit``-th fused score is at
   least that. The sparse candidates' own cosines make the formula the same for both
   sides' candidates; before, a point the sparse side ranked 3rd and the dense side
   266th scored its lexical term alone (at most w) and could never reach a page.
   11 question sets (357 questions; ``eval_questions.py``): symbol@5 265 -> 266 (gson
   +1), file@5 313 unchanged; CoSQA dev nDCG@10 60.1 unchanged. This step is the costly
   one at scale: a 4-term query walks posting lists of ~10^5 points (~4 ms at 1M);
4. the payload of the top ``limit``, read by id (the next candidates fill in for any
   point deleted since step 1: each step is its own store call).

Measured in-process at 1M points (docs/performance.md, "Candidate fusion"): the engine's
two-prefetch formula query took 7.8 ms p50, steps 1-4 take 5.0 ms (before step 3 read
the sparse candidates' cosines and ran whenever a point outside could still reach the
page).

``agreement`` answers "is the first hit in the top ``k`` of each retriever alone?" from
what ``hybrid`` already holds. A point tied with the k-th counts as inside, because the
engine orders ties arbitrarily (sparse scores within ``TIE_TOLERANCE`` are ties). Only when the candidates cannot settle it does it ask the
sparse retriever for its own top ``k``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from coderecalld.records import Hit, SparseVector
from coderecalld.store import StoreFilter

#: Relative difference under which two sparse scores of one point are the same score.
#: ``Store.sparse_scores`` and ``sparse_search`` take different engine paths whose float32
#: sums can differ in the last bit (relative 1.2e-7) past ~10k points; without this a hit
#: would beat itself.
TIE_TOLERANCE = 1e-6
#: Whether the sparse retriever's own candidates outside the dense ones get their cosine
#: (``hybrid`` step 3); False: their lexical term alone, the former formula.
SPARSE_COSINES = True
#: Candidates whose payload ``hybrid`` reads at a time when ``keep`` may reject some (a
#: page of 10 under a glob most paths match: one read).
KEEP_BATCH = 50


@dataclass(slots=True)
class Fused:
    """One hybrid answer and the retriever scores behind it.

    ``hits``: best first, fused scores, payloads as asked. ``dense``: the cosine of each
    dense candidate (and, when step 3 ran, of each of the sparse retriever's own that has
    a vector). ``sparse``: every sparse score seen (the candidates' and, when step 3
    ran, the sparse retriever's own top). ``sparse_ranked``: the scores of that own top,
    best first (None when step 3 did not run).
    """

    hits: list[Hit]
    dense: dict[str, float]
    sparse: dict[str, float]
    sparse_ranked: list[float] | None


def hybrid(store: Any, dense: Sequence[float] | None, sparse_vector: SparseVector,
           flt: StoreFilter, limit: int, *, weight: float, half: float, prefetch: int,
           fields: Sequence[str] | None, keep: Callable[[Hit], bool] | None = None) -> Fused:
    """The top ``limit`` points of ``store`` under ``flt`` by ``cosine + weight * s / (s +
    half)`` (module docstring); each retriever hands over ``max(prefetch, limit)``
    candidates, each scored on both sides (a point with no dense vector: its lexical
    term). ``dense`` None: the sparse retriever alone, scored ``weight * s / (s +
    half)``. An empty ``sparse_vector``: cosines alone. ``fields``: the payload keys of the
    hits (None: all; they must hold what ``keep`` reads). ``keep``: hits are only the
    candidates it accepts, payloads read ``KEEP_BATCH`` at a time until ``limit`` are found
    (a path glob: most candidates' payloads are never read). Ties keep the dense
    retriever's order.

    Raises what the store raises (``StoreError``, ``StoreUnavailable``)."""
    depth = max(prefetch, limit)
    fused: dict[str, float] = {}
    cosines: dict[str, float] = {}
    lexical: dict[str, float] = {}
    if limit <= 0:
        return Fused([], cosines, lexical, None)
    if dense is not None:
        cosines = {h.id: h.score for h in store.dense_search(dense, flt, depth, fields=())}
        lexical = store.sparse_scores(sparse_vector, cosines.keys())
        fused = {pid: cos + _term(lexical.get(pid, 0.0), weight, half)
                 for pid, cos in cosines.items()}
    ranked: list[float] | None = None
    # a point outside the dense candidates has a cosine under their last one's (or none)
    floor = min(cosines.values()) if SPARSE_COSINES and len(cosines) >= depth else 0.0
    if sparse_vector.indices and (dense is None or not _settled(fused, limit, floor + weight)):
        own = store.sparse_search(sparse_vector, flt, depth, fields=())
        ranked = [h.score for h in own]
        outside = [h.id for h in own if h.id not in fused]
        extra = store.dense_scores(dense, outside) if SPARSE_COSINES and dense is not None and outside else {}
        cosines.update(extra)
        for h in own:
            if h.id not in fused:
                fused[h.id] = extra.get(h.id, 0.0) + _term(h.score, weight, half)
            lexical.setdefault(h.id, h.score)
    order = sorted(fused, key=fused.__getitem__, reverse=True)
    hits: list[Hit] = []
    start = 0
    while len(hits) < limit and start < len(order):  # refill past points deleted meanwhile
        want = limit - len(hits)
        batch = order[start:start + (want if keep is None else max(want, KEEP_BATCH))]
        start += len(batch)
        found = [replace(h, score=fused[h.id]) for h in store.retrieve(batch, fields)]
        hits += found if keep is None else [h for h in found if keep(h)][:want]
    return Fused(hits, cosines, lexical, ranked)


def agreement(store: Any, fused: Fused, hit_id: str, sparse_vector: SparseVector,
              flt: StoreFilter, k: int) -> tuple[bool, float, float]:
    """(agree, dense_top, sparse_top) for hit ``hit_id`` of ``fused``: agree when fewer than
    ``k`` points beat it on cosine and fewer than ``k`` beat it on the sparse score (each
    retriever alone ranks it in its top ``k``, ties inside). ``dense_top``: the best cosine;
    ``sparse_top``: the best sparse score seen (the sparse retriever's own best when it
    was asked; else the best among the candidates, a lower bound).

    Asks the store nothing when the candidates settle it: no cosine or no sparse score for
    the hit, or ``k`` candidates already beating it. Else one ``sparse_search`` of ``k``
    (skipped when ``hybrid`` ran the sparse retriever's own top)."""
    dense_top = max(fused.dense.values(), default=0.0)
    cos = fused.dense.get(hit_id)
    lexical = fused.sparse.get(hit_id, 0.0)
    ranked = fused.sparse_ranked
    beaten = lexical * (1.0 + TIE_TOLERANCE)  # a score above this beats the hit
    agree = (cos is not None and lexical > 0
             and sum(1 for c in fused.dense.values() if c > cos) < k
             and sum(1 for s in fused.sparse.values() if s > beaten) < k)
    if agree and ranked is None:
        ranked = [h.score for h in store.sparse_search(sparse_vector, flt, k, fields=())]
    if agree:
        agree = sum(1 for s in ranked[:k] if s > beaten) < k
    sparse_top = ranked[0] if ranked else max(fused.sparse.values(), default=0.0)
    return agree, dense_top, sparse_top


def _term(score: float, weight: float, half: float) -> float:
    """The sparse side's share of a fused score: ``weight * s / (s + half)``, in [0, weight)."""
    return weight * score / (score + half) if score > 0 else 0.0


def _settled(fused: dict[str, float], limit: int, bound: float) -> bool:
    """Whether no point outside ``fused`` can enter its top ``limit``: it holds ``limit``
    scores and the ``limit``-th is at least ``bound``, the most a point outside can score."""
    if len(fused) < limit:
        return False
    return sorted(fused.values(), reverse=True)[limit - 1] >= bound


def lexical_first(store: Any, dense: Sequence[float] | None, sparse_vector: SparseVector,
                  flt: StoreFilter, limit: int, *, dense_weight: float, prefetch: int,
                  fields: Sequence[str] | None) -> Fused:
    """The top ``limit`` points under ``flt`` for a long query (an issue, a trace), where
    the lexical side leads: score ``s / s_top + dense_weight * cosine`` over the sparse
    retriever's top ``max(prefetch, limit)`` (``s_top`` its best score, so the lexical part
    is in 0..1 whatever the query's length: the saturating term of ``hybrid`` is ~1 for
    every candidate of a 60-term query and stops discriminating), a dense candidate
    outside it scoring its ``dense_weight * cosine`` alone. ``dense`` None or
    ``dense_weight`` 0: the sparse order. Raises what the store raises."""
    depth = max(prefetch, limit)
    if limit <= 0 or not sparse_vector.indices:
        return Fused([], {}, {}, None)
    own = store.sparse_search(sparse_vector, flt, depth, fields=())
    lexical = {h.id: h.score for h in own}
    top = own[0].score if own and own[0].score > 0 else 1.0
    fused = {pid: s / top for pid, s in lexical.items()}
    cosines: dict[str, float] = {}
    if dense is not None and dense_weight > 0:
        cosines = {h.id: h.score for h in store.dense_search(dense, flt, depth, fields=())}
        for pid, cos in cosines.items():
            fused[pid] = fused.get(pid, 0.0) + dense_weight * cos
    order = sorted(fused, key=fused.__getitem__, reverse=True)
    hits: list[Hit] = []
    start = 0
    while len(hits) < limit and start < len(order):
        batch = order[start:start + limit - len(hits)]
        start += len(batch)
        hits += [replace(h, score=fused[h.id]) for h in store.retrieve(batch, fields)]
    return Fused(hits, cosines, lexical, [h.score for h in own])
