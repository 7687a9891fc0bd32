"""``fusion.hybrid`` and ``fusion.agreement`` against real Edge stores, where the engine's own
behaviour matters: float32 sums that differ between two query paths, and points deleted
between the steps of one search. (The formula itself is pinned on both adapters by
test_store_congruence.py's ``candidate_fusion``.)"""

from __future__ import annotations

import math
import random
from pathlib import Path

from coderecalld.embed import sparse
from coderecalld.query import fusion
from coderecalld.store import EdgeStore, StoreFilter
from storepoints import make_point

WORDS = ("parse http request json config token serve load open read write file user error "
         "handle value key index node tree list map decode encode buffer stream socket client "
         "server route auth session cache query result").split()
EVERY = StoreFilter()


def _unit(rng: random.Random, dim: int = 8) -> tuple[float, ...]:
    v = [rng.gauss(0.0, 1.0) for _ in range(dim)]
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v)


def test_a_hit_third_in_both_rankings_agrees_whatever_the_last_float_bit(tmp_path: Path) -> None:
    """A hit first by cosine and third (clearly, no tie) in the sparse retriever's own top 3
    agrees at k=3. Its score from ``sparse_scores`` (the engine scoring the listed points)
    and from ``sparse_search`` (posting lists) differ in the last float32 bit past ~10k
    points; ``TIE_TOLERANCE`` keeps the hit from beating itself."""
    rng = random.Random(1)
    points = [make_point(f"f{i}", " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 40))),
                         path=f"p/{i % 50}.py", dense=_unit(rng)) for i in range(12000)]
    by_id = {p.id: p for p in points}
    store = EdgeStore(tmp_path / "store", 8, "m@1", sparse.TOKENIZER_VERSION)
    try:
        store.upsert(points)
        wrong, checked = [], 0
        for _ in range(200):
            q_sparse = sparse.query_vector(" ".join(rng.sample(WORDS, rng.randint(1, 5))))
            top = store.sparse_search(q_sparse, EVERY, 4, fields=())
            if len(top) < 4 or not top[1].score > top[2].score > top[3].score:
                continue  # no ties around rank 3: the answer is unambiguous
            hit = top[2].id
            q_dense = by_id[hit].dense  # its own vector: first by cosine
            fused = fusion.hybrid(store, q_dense, q_sparse, EVERY, 10, weight=0.1, half=20.0,
                                  prefetch=100, fields=())
            assert fused.hits[0].id == hit
            alone_dense = {h.id for h in store.dense_search(q_dense, EVERY, 3, fields=())}
            alone_sparse = {h.id for h in store.sparse_search(q_sparse, EVERY, 3, fields=())}
            assert hit in alone_dense and hit in alone_sparse  # each retriever alone: top 3
            agree, _, _ = fusion.agreement(store, fused, hit, q_sparse, EVERY, 3)
            checked += 1
            if not agree:
                wrong.append((hit, top[2].score, store.sparse_scores(q_sparse, [hit])[hit]))
        assert checked >= 50 and wrong == []
    finally:
        store.close()


class _IndexerRacingStore(EdgeStore):
    """A real EdgeStore whose ``retrieve`` first deletes a file, as the indexer may between a
    search's candidate queries and its payload read (each store call takes the lock on its
    own)."""

    doomed: tuple[str, str] | None = None

    def retrieve(self, ids, fields=None):  # type: ignore[no-untyped-def]
        if self.doomed is not None:
            self.delete_file_except(*self.doomed, ())
            self.doomed = None
        return super().retrieve(ids, fields)


def test_a_point_deleted_mid_search_is_replaced_by_the_next_candidate(tmp_path: Path) -> None:
    """Ten matching points, the best one deleted between the candidate queries and the
    payload read: a page of 3 still holds 3 hits and a page of 1 one hit (the next best),
    never a short page or "no results"."""
    rng = random.Random(7)
    q_dense = _unit(rng)
    points = [make_point(f"handler{i}", "serve http request", path=f"app/h{i}.py",
                         dense=tuple(0.9 * a + 0.1 * b for a, b in zip(q_dense, _unit(rng))))
              for i in range(10)]
    store = _IndexerRacingStore(tmp_path / "store", 8, "m@1", sparse.TOKENIZER_VERSION)
    try:
        store.upsert(points)
        q_sparse = sparse.query_vector("serve http request")
        got = {}
        for limit in (3, 1):
            ranked = store.dense_search(q_dense, EVERY, 3)
            store.doomed = (ranked[0].payload["repo"], ranked[0].payload["path"])
            fused = fusion.hybrid(store, q_dense, q_sparse, EVERY, limit, weight=0.1, half=20.0,
                                  prefetch=100, fields=None)
            assert ranked[0].id not in {h.id for h in fused.hits}
            assert fused.hits[0].id == ranked[1].id  # the next best moves up
            got[limit] = len(fused.hits)
        assert store.count(EVERY) == 8
        assert got == {3: 3, 1: 1}
    finally:
        store.close()
