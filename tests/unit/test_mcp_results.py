"""``_mcp_results``' notes on a find_callers page (the live answers: tests/integration/test_mcp_fit.py)."""

from __future__ import annotations

from coderecall import CallSite
from coderecall._mcp_results import earlier
from coderecall._types import Page


def sites(*confidences: str) -> list[CallSite]:
    return [CallSite("r", "tests/t.py", i + 1, f"test_{i}", "render", "c", confidence=c)
            for i, c in enumerate(confidences)]


def test_earlier_names_the_counts_of_the_sites_before_a_name_only_page() -> None:
    counts = {"resolved": 3, "reference": 1, "name_only": 9}
    assert earlier(Page(sites("name_only", "name_only"), total=13, offset=6, by_confidence=counts)) == (
        "every site from offset 6 on matched by name only; the 4 others (3 resolved, 1 reference) were on "
        "earlier pages: offset=0")


def test_earlier_says_nothing_where_it_would_tell_nothing() -> None:
    mixed = Page(sites("reference", "name_only"), total=13, offset=3,
                 by_confidence={"resolved": 3, "reference": 1, "name_only": 9})
    first = Page(sites("name_only"), total=9, offset=0, by_confidence={"resolved": 3, "name_only": 6})
    only_name = Page(sites("name_only"), total=9, offset=4, by_confidence={"name_only": 9})
    old_daemon = Page(sites("name_only"), total=9, offset=4)  # no counts sent
    past_the_end = Page([], total=9, offset=20, by_confidence={"resolved": 3, "name_only": 6})
    assert [earlier(p) for p in (mixed, first, only_name, old_daemon, past_the_end)] == [""] * 5
