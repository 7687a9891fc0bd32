"""``service.rank_fused``: two rankings of one query's chunks fused by reciprocal ranks."""

from __future__ import annotations

import pytest

from coderecalld.query import service
from coderecalld.records import Hit


def ranking(*ids: str, top: float = 0.6, match: str = "hybrid") -> list[tuple[Hit, str, str]]:
    return [(Hit(id=i, score=top - 0.01 * n, payload={"name": i}), match, "index") for n, i in enumerate(ids)]


def test_rank_fused_orders_by_weighted_reciprocal_ranks_and_scales_to_the_first_score() -> None:
    first = ranking("a", "b", "c", "d")
    second = ranking("c", "e", "a", top=0.2, match="name")
    out = service.rank_fused(first, second, k=5, weight=0.5)
    # a: 1/6 + 0.5/8, b: 1/7, c: 1/8 + 0.5/6, d: 1/9, e: 0.5/7
    fused = {"a": 1 / 6 + 0.5 / 8, "b": 1 / 7, "c": 1 / 8 + 0.5 / 6, "d": 1 / 9, "e": 0.5 / 7}
    assert [h.id for h, _, _ in out] == ["a", "c", "b", "d", "e"]
    assert [h.score for h, _, _ in out] == pytest.approx([fused[i] / fused["a"] * 0.6 for i in "acbde"])
    # a chunk of both keeps the first ranking's entry; one of the second only, its own
    assert [m for _, m, _ in out] == ["hybrid", "hybrid", "hybrid", "hybrid", "name"]


def test_rank_fused_depth_lets_only_the_first_rankings_head_take_the_seconds_ranks() -> None:
    out = service.rank_fused(ranking("a", "b", "c"), ranking("c", "z", top=0.2), k=5, weight=1.0, depth=2)
    assert [h.id for h, _, _ in out] == ["a", "b", "c"]  # c is third in the first: no second rank
    alone = service.rank_fused([], ranking("x", top=0.3), k=5, weight=0.5, depth=0)
    assert [(h.id, h.score) for h, _, _ in alone] == [("x", pytest.approx(0.3))]


def test_rank_fused_of_nothing_is_nothing() -> None:
    assert service.rank_fused([], [], k=5, weight=0.5) == []


def test_a_ranking_is_unsure_when_its_first_score_is_low_and_the_second_close() -> None:
    assert service._unsure(ranking("a", "b", top=0.6))  # 0.6, 0.59
    assert not service._unsure(ranking("a", "b", top=0.75))  # the model sure
    clear = [(Hit(id="a", score=0.614), "hybrid", "index"), (Hit(id="b", score=0.45), "hybrid", "index")]
    assert not service._unsure(clear)  # requests' TooManyRedirects: a clear first kept
    assert service._unsure(ranking("a", top=0.5)) and not service._unsure([])


def test_the_fused_first_shows_its_own_score() -> None:
    """When the words move the hybrid second first, it shows its own hybrid score, not the
    former first's (a review: ``handle_redirect`` shown at ``TooManyRedirects``' 0.614)."""
    out = service.rank_fused(ranking("a", "b", "c"), ranking("b", "c", top=0.2), k=5, weight=1.0)
    assert [h.id for h, _, _ in out] == ["b", "c", "a"]  # 1/7 + 1/6, 1/8 + 1/7, 1/6
    assert out[0][0].score == pytest.approx(0.59)
    assert all(x[0].score >= y[0].score for x, y in zip(out, out[1:]))
