"""``fusion.agreement``'s rule on hand-made scores (the store answers only the sparse top-k).
Real stores: tests/integration/test_fusion.py and test_store_congruence.py (this file has
another basename: the test dirs are not packages)."""

from __future__ import annotations

import numpy as np
import pytest
from coderecalld.query import fusion
from coderecalld.records import Hit, SparseVector
from coderecalld.store import StoreFilter

QUERY = SparseVector((1, 2), (1.0, 1.0))


class SparseTop:
    """Answers ``sparse_search`` with fixed scores and counts the calls."""

    def __init__(self, scores: list[float]) -> None:
        self.scores, self.calls = scores, 0

    def sparse_search(self, sparse, flt, limit, fields=None):  # type: ignore[no-untyped-def]
        self.calls += 1
        return [Hit(f"own{i}", s, {}) for i, s in enumerate(self.scores[:limit])]


def fused(sparse: dict[str, float], ranked: list[float] | None = None) -> fusion.Fused:
    dense = {"hit": 0.9, "b": 0.8, "c": 0.7, "d": 0.6}
    return fusion.Fused([], dense, sparse, ranked)


def ulp_above(x: float) -> float:
    """The next float32 above ``x``: what another engine path may sum the same terms to."""
    return float(np.nextafter(np.float32(x), np.float32(np.inf)))


def test_a_score_one_float32_step_above_the_hits_own_is_a_tie() -> None:
    store = SparseTop([9.0, 8.0, ulp_above(7.5)])  # the hit itself, third, summed differently
    assert fusion.agreement(store, fused({"hit": 7.5}), "hit", QUERY, StoreFilter(), 3) == (True, 0.9, 9.0)
    assert store.calls == 1


def test_three_clearly_better_sparse_scores_disagree() -> None:
    store = SparseTop([9.0, 8.0, 7.6])
    assert fusion.agreement(store, fused({"hit": 7.5}), "hit", QUERY, StoreFilter(), 3)[0] is False


@pytest.mark.parametrize("sparse, why", [
    ({}, "no lexical score"),
    ({"hit": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}, "three candidates beat it"),
])
def test_the_candidates_settle_it_without_asking_the_store(sparse, why) -> None:  # type: ignore[no-untyped-def]
    store = SparseTop([9.0, 8.0, 7.0])
    agree, dense_top, sparse_top = fusion.agreement(store, fused(sparse), "hit", QUERY, StoreFilter(), 3)
    assert (agree, dense_top, sparse_top, store.calls) == (False, 0.9, max(sparse.values(), default=0.0), 0), why


def test_a_hit_below_three_cosines_disagrees_and_the_own_top_is_reused() -> None:
    store = SparseTop([9.0])
    result = fusion.agreement(store, fused({"d": 9.0}, ranked=[9.0, 1.0]), "d", QUERY, StoreFilter(), 3)
    assert result == (False, 0.9, 9.0) and store.calls == 0
    result = fusion.agreement(store, fused({"c": 9.0}, ranked=[9.0, 1.0]), "c", QUERY, StoreFilter(), 3)
    assert result == (True, 0.9, 9.0) and store.calls == 0
