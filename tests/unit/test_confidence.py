"""The low-confidence rule: a pure function of the measurements of one search answer."""

from __future__ import annotations

from coderecalld.confidence import MIN_GAP, MIN_TOP_SCORE, Features, confidence


def test_no_results_is_low() -> None:
    assert confidence(Features("hybrid", 0)) == (True, "no results")
    assert confidence(Features("sparse", 0)) == (True, "no results")


def test_a_pinned_exact_name_is_confident_whatever_the_scores() -> None:
    assert confidence(Features("hybrid", 3, 0.01, 0.009, pinned=True, agree=False)) == (False, "")


def test_low_top_score() -> None:
    floor = MIN_TOP_SCORE["hybrid"]
    low = Features("hybrid", 5, floor - 0.01, 0.1, agree=True)
    assert confidence(low) == (True, f"top score {floor - 0.01:.2f} < {floor:.2f}")
    assert confidence(Features("hybrid", 5, floor, 0.1, agree=True)) == (False, "")


def test_disagreeing_retrievers_on_a_near_tie() -> None:
    top = MIN_TOP_SCORE["hybrid"] + 0.2
    tie = Features("hybrid", 5, top, top - MIN_GAP / 2, agree=False)
    assert confidence(tie) == (True, f"dense and sparse disagree and the top two are within "
                                     f"{MIN_GAP / 2:.3f} (< {MIN_GAP})")
    assert confidence(Features("hybrid", 5, top, top - MIN_GAP / 2, agree=True)) == (False, "")
    assert confidence(Features("hybrid", 5, top, top - MIN_GAP * 2, agree=False)) == (False, "")
    assert confidence(Features("hybrid", 1, top, 0.0, agree=False)) == (False, "")  # no second hit


def test_sparse_scores_have_no_floor() -> None:
    assert confidence(Features("sparse", 2, 0.001, 0.0)) == (False, "")


def test_features_serialise_with_gap() -> None:
    f = Features("hybrid", 2, 0.75, 0.5, agree=True, dense_top=0.6, sparse_top=12.0)
    assert f.gap == 0.25
    assert f.as_dict() == {"mode": "hybrid", "hits": 2, "top_score": 0.75, "second_score": 0.5,
                           "pinned": False, "agree": True, "dense_top": 0.6, "sparse_top": 12.0,
                           "gap": 0.25}
