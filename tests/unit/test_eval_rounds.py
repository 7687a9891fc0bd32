"""``eval_questions.rounds``: a set naming several commits of a repository is asked in
rounds, each repository at one commit per round, rows in their order within a round; and
``symbol_right``: an answer's part of a long function is that function."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import eval_questions  # noqa: E402


def test_rows_are_asked_in_rounds_of_one_commit_per_repository() -> None:
    rows = [{"repo": "a/x", "commit": "c1", "id": "1"}, {"repo": "a/x", "commit": "c2", "id": "2"},
            {"repo": "b/y", "commit": "d1", "id": "3"}, {"repo": "a/x", "commit": "c1", "id": "4"},
            {"repo": "a/x", "commit": "c3", "id": "5"}, {"repo": "b/y", "commit": "d1", "id": "6"}]
    assert [[r["id"] for r in group] for group in eval_questions.rounds(rows)] == [
        ["1", "3", "4", "6"], ["2"], ["5"]]
    assert eval_questions.rounds([]) == []
    one = [{"repo": "a/x", "commit": "c1", "id": str(i)} for i in range(3)]
    assert eval_questions.rounds(one) == [one]  # a set asked at one commit: one round


def test_a_part_of_a_long_function_is_that_function() -> None:
    assert eval_questions.symbol_right("cobra.genBashComp#part2", ["genBashComp"])
    assert eval_questions.symbol_right("cobra.genBashComp", ["genBashComp"])
    assert not eval_questions.symbol_right("cobra.genBashComp#part2", ["genBash"])
    assert not eval_questions.symbol_right("cobra.genBashCompV2#part2", ["genBashComp"])
    assert eval_questions.symbol_right("Day1#part2x", ["Day1#part2x"])  # no part's suffix
