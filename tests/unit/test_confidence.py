"""The low-confidence rule: a pure function of the measurements of one search answer."""

from __future__ import annotations

from dataclasses import replace

from coderecalld.query.confidence import MIN_TOP_SCORE, MIN_TOP_SCORE_DISAGREE, Features, below, confidence

FLOOR = MIN_TOP_SCORE["hybrid"]


def test_no_results_is_low() -> None:
    assert confidence(Features("hybrid", 0)) == (True, "no results")
    assert confidence(Features("sparse", 0)) == (True, "no results")


def test_a_pinned_exact_name_is_confident_whatever_the_scores() -> None:
    assert confidence(Features("hybrid", 3, 0.01, 0.009, pinned=True, agree=False)) == (False, "")


def test_low_top_score() -> None:
    low = Features("hybrid", 5, FLOOR - 0.01, 0.1, agree=True)
    assert confidence(low) == (True, f"top score {FLOOR - 0.01:.2f} < {FLOOR:.2f}")
    assert confidence(Features("hybrid", 5, FLOOR, 0.1, agree=True)) == (False, "")
    assert confidence(Features("dense", 5, MIN_TOP_SCORE["dense"] - 0.01, 0.1)) == (
        True, f"top score {MIN_TOP_SCORE['dense'] - 0.01:.2f} < {MIN_TOP_SCORE['dense']:.2f}")


def test_disagreeing_retrievers_need_a_higher_top_score() -> None:
    between = (FLOOR + MIN_TOP_SCORE_DISAGREE) / 2
    assert confidence(Features("hybrid", 5, between, 0.1, agree=False)) == (
        True, f"dense and sparse disagree and the top score {between:.2f} < {MIN_TOP_SCORE_DISAGREE:.2f}")
    assert confidence(Features("hybrid", 5, between, 0.1, agree=True)) == (False, "")
    assert confidence(Features("hybrid", 5, between, 0.1, agree=None)) == (False, "")  # not measured
    assert confidence(Features("hybrid", 5, MIN_TOP_SCORE_DISAGREE, 0.1, agree=False)) == (False, "")


def test_a_first_hit_whose_name_says_a_word_of_the_question_needs_no_agreement() -> None:
    from coderecalld.query.confidence import needs_agreement, says_name

    between = (FLOOR + MIN_TOP_SCORE_DISAGREE) / 2
    named = Features("hybrid", 5, between, 0.1, agree=False, name_says=True)
    assert confidence(named) == (False, "")
    assert needs_agreement(named) is False
    assert confidence(replace(named, top_score=FLOOR - 0.01))[0] is True  # the floor still holds
    # "where are blueprints registered": register_blueprint says "registered" (5 letters)
    assert says_name(["where", "blueprints", "registered", "app"], "App.register_blueprint")
    assert says_name(["session", "cookie", "signed"], "SecureCookieSessionInterface.save_session")
    assert not says_name(["request", "context", "pushed"], "Flask.do_teardown")
    assert not says_name(["an", "of", "x1"], "an_of.x1")  # short words and digits never count


def test_near_tie_rule_when_a_gap_is_set() -> None:
    tie = Features("hybrid", 5, 0.9, 0.899, agree=False)
    assert confidence(tie) == (False, "")  # MIN_GAP is 0 (off): measured, see the module docstring
    assert confidence(tie, min_gap=0.005) == (
        True, "dense and sparse disagree and the top two are within 0.001 (< 0.005)")
    assert confidence(Features("hybrid", 1, 0.9, 0.0, agree=False), min_gap=0.005) == (False, "")


def test_replayed_thresholds() -> None:
    f = Features("hybrid", 5, 0.6, 0.5, agree=False)
    assert confidence(f)[0] is True
    assert confidence(f, min_top_disagree=0.6) == (False, "")
    assert confidence(f, min_top_score=0.7) == (True, "top score 0.60 < 0.70")


def test_sparse_scores_have_no_floor() -> None:
    assert confidence(Features("sparse", 2, 0.001, 0.0)) == (False, "")


def test_features_serialise_with_gap() -> None:
    f = Features("hybrid", 2, 0.75, 0.5, agree=True, dense_top=0.6, sparse_top=12.0)
    assert f.gap == 0.25
    assert f.as_dict() == {"mode": "hybrid", "hits": 2, "top_score": 0.75, "second_score": 0.5,
                           "pinned": False, "agree": True, "dense_top": 0.6, "sparse_top": 12.0,
                           "shape": "", "absent": "", "scoped": False, "named_top": False, "name_says": False,
                           "foreign": 0, "member": "", "unheld": "", "gap": 0.25}


def test_agreement_is_needed_only_where_it_changes_the_verdict() -> None:
    from coderecalld.query.confidence import needs_agreement

    floor = MIN_TOP_SCORE["hybrid"]
    between = (floor + MIN_TOP_SCORE_DISAGREE) / 2
    assert needs_agreement(Features("hybrid", 5, between, 0.1)) is True
    assert needs_agreement(Features("hybrid", 5, floor, 0.1)) is True
    assert needs_agreement(Features("hybrid", 5, floor - 0.01, 0.1)) is False  # low anyway
    assert needs_agreement(Features("hybrid", 5, MIN_TOP_SCORE_DISAGREE, 0.1)) is False  # confident anyway
    assert needs_agreement(Features("hybrid", 5, between, 0.1, pinned=True)) is False
    assert needs_agreement(Features("dense", 5, between, 0.1)) is False
    assert needs_agreement(Features("hybrid", 0)) is False
    # Whatever agreement turns out to be outside the band, the verdict is the same.
    for top in (floor - 0.01, MIN_TOP_SCORE_DISAGREE, 0.9):
        assert confidence(Features("hybrid", 5, top, 0.1, agree=True)) == confidence(
            Features("hybrid", 5, top, 0.1, agree=False)) == confidence(Features("hybrid", 5, top, 0.1))


def test_a_reason_never_prints_equal_numbers() -> None:
    """0.5496 under 0.55 rounds to "0.55 < 0.55" at two decimals: print as many as it takes."""
    assert confidence(Features("hybrid", 5, 0.5496, 0.1, agree=True), min_top_score=0.55) == (
        True, "top score 0.5496 < 0.5500")
    assert confidence(Features("hybrid", 5, 0.6499999, 0.1, agree=False)) == (
        True, "dense and sparse disagree and the top score 0.6499999 < 0.6500000")
    assert below(0.5449, 0.55) == "0.54 < 0.55"  # two decimals whenever they already differ
    assert below(0.31, 0.42) == "0.31 < 0.42"


def test_an_issue_answer_is_low_when_its_top_is_flat() -> None:
    from coderecalld.query.confidence import FLAT_LONG
    flat = Features("hybrid", 10, top_score=1.0, second_score=FLAT_LONG, shape="issue")
    low, reason = confidence(flat)
    assert low and reason == (f"the top two hits score within {100 * (1 - FLAT_LONG):.0f} % "
                              f"before the page's role order (1.000 and {FLAT_LONG:.3f}): none stands out")
    # The same scores on a short question: the score floors decide, not flatness.
    assert confidence(replace(flat, shape="text")) == (False, "")
    # A clear first hit: confident, whatever its absolute score (lexical-first 0..1 + bonus).
    assert confidence(replace(flat, second_score=FLAT_LONG - 0.01)) == (False, "")
    assert confidence(replace(flat, top_score=0.3, second_score=0.2, shape="trace")) == (False, "")
    assert confidence(replace(flat, hits=1)) == (False, "")
    # The trace names the first hit's file: confident however close the second.
    assert confidence(replace(flat, named_top=True)) == (False, "")
    # Dense mode ranks an issue by cosine: the floors apply, not flatness.
    assert confidence(replace(flat, mode="dense", top_score=0.62, second_score=0.60)) == (False, "")
    assert confidence(replace(flat, mode="dense", top_score=0.2, second_score=0.1))[0]


def test_located_files_are_low_when_the_first_two_are_close() -> None:
    from coderecalld.query.confidence import FLAT_LONG_FILES, flat_files
    second = 2.0 * FLAT_LONG_FILES
    assert flat_files([2.0, second]) == (
        True, f"the top two files score within {100 * (1 - FLAT_LONG_FILES):.0f} % "
              f"(2.000 and {second:.3f}): none stands out")
    assert flat_files([2.0, second - 0.01]) == (False, "")
    assert flat_files([2.0, second], named_top=True) == (False, "")
    assert flat_files([2.0]) == (False, "")
    assert flat_files([]) == (False, "")
    # shown beside fused file scores, the reason names the scores it quotes
    assert flat_files([2.0, second], fused=True) == (
        True, f"the top two files by their chunks score within {100 * (1 - FLAT_LONG_FILES):.0f} % "
              f"(2.000 and {second:.3f}): none stands out")


def test_a_literal_no_chunk_holds_is_low_unless_pinned() -> None:
    absent = Features("hybrid", 3, 1.0, 0.4, shape="literal", absent="X-Request-Id")
    assert confidence(absent) == (True, "no indexed chunk holds 'X-Request-Id': these hits "
                                        "match its parts")
    assert confidence(replace(absent, absent="")) == (False, "")
    assert confidence(replace(absent, pinned=True)) == (False, "")
    # a narrowed search says where it looked (gin: "protobuf" under testdata/ only)
    assert confidence(replace(absent, scoped=True)) == (
        True, "no chunk in the searched paths, languages, kinds or roles holds 'X-Request-Id': "
              "these hits match its parts")


def test_a_quoted_phrase_no_hit_holds_is_low_unless_pinned() -> None:
    """Its hits are scored 0..1 by the phrase's words, the first always 1.0 (arrow:
    ``"frobnicate the widget cache"`` answered a constructor at 1.0 with no note)."""
    unheld = Features("hybrid", 3, 1.0, 0.4, shape="literal", unheld="frobnicate the widget cache")
    assert confidence(unheld) == (
        True, "no hit holds 'frobnicate the widget cache' verbatim: these hits match its words")
    assert confidence(replace(unheld, unheld="")) == (False, "")
    assert confidence(replace(unheld, pinned=True)) == (False, "")


def test_a_flat_top_whose_second_scores_higher_says_so() -> None:
    """Roles order a page by more than its scores: the second may score above the first."""
    from coderecalld.query.confidence import flat_reason
    assert flat_reason(1.2, 1.166, "files") == (
        "the top two files score within 3 % (1.200 and 1.166): none stands out")
    assert flat_reason(0.8, 0.83, "hits") == (
        "the second of the top two hits scores as high as the first before the page's role order "
        "(0.800 and 0.830): none stands out")


def test_a_trace_of_code_the_index_does_not_hold_is_low() -> None:
    """A trace alone none of whose frames is in an indexed file is another project's:
    its hits match its words only, however well they score."""
    foreign = Features("hybrid", 5, 1.4, 0.3, shape="trace", foreign=4)
    assert confidence(foreign) == (True, "none of the trace's 4 frames is in an indexed file: "
                                         "these hits match its words only")
    assert confidence(replace(foreign, foreign=0)) == (False, "")
