"""``_mcp_impact``: which nodes of an impact tree an answer keeps when the tree does not
fit, and the one note that says what was cut and the call that shows it. The live answer
(a daemon, the bridge over stdio): tests/integration/test_mcp_fit.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from coderecall import CallSite, Impact, ImpactNode
from coderecall._mcp_impact import impact
from coderecall._mcp_results import BUDGET_CHARS, dumps

LINES = iter(range(1, 1000))


def node(depth: int, caller: str, *children: ImpactNode, conf: str = "resolved", role: str = "source") -> ImpactNode:
    path = "web/a.py" if role == "source" else "tests/t.py"
    site = CallSite("web", path, next(LINES), caller, "decode", "c" * 40, confidence=conf, role=role)
    return ImpactNode(site, depth, children)


def in_tests(depth: int, caller: str, *children: ImpactNode, conf: str = "resolved") -> ImpactNode:
    return node(depth, caller, *children, conf=conf, role="test")


# gin's decodeJSON in small: three direct callers; the first has a source caller and tests
# (one by name only), and so do its callers; the last's branch is all source.
TREE = (
    node(1, "A",
         node(2, "A1", node(3, "A1s"), in_tests(3, "A1t"), in_tests(3, "A1n", conf="name_only")),
         in_tests(2, "At1"), in_tests(2, "At2"), in_tests(2, "An1", conf="name_only")),
    node(1, "B", in_tests(2, "Bt1")),
    node(1, "C", node(2, "C1", node(3, "C1s"), in_tests(3, "C1t"))),
)
ORDER = ["A", "A1", "A1s", "A1t", "A1n", "At1", "At2", "An1", "B", "Bt1", "C", "C1", "C1s", "C1t"]  # depth first


def flat(nodes: tuple[ImpactNode, ...]) -> dict[str, ImpactNode]:
    out: dict[str, ImpactNode] = {}
    for n in nodes:
        out[n.site.caller] = n
        out.update(flat(n.children))
    return out


NODES = flat(TREE)


def tree(truncated: bool = False, nodes: int = len(ORDER)) -> Impact:
    return Impact("decode", TREE, nodes, 1, 2, truncated)


def answer(kept: list[str], cut: str = "", nodes: int = len(ORDER)) -> dict[str, Any]:
    """The answer that shows ``kept`` (in tree order) and says ``cut``."""
    rows = []
    for name in ORDER:
        if name in kept:
            s = NODES[name].site
            rows.append({"d": NODES[name].depth, "cite": f"web:{s.path}:{s.line}", "caller": name,
                         "confidence": s.confidence})
    head: dict[str, Any] = {"nodes": nodes, "repos": 1, "files": 2}
    return {**head, **({"truncated": True, "cut": cut} if cut else {}), "callers": rows}


def fitted(expected: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """``impact`` of the tree in exactly the budget ``expected`` takes."""
    return impact(tree(**kwargs.pop("tree", {})), budget=len(dumps(expected)), **kwargs)


def test_the_deepest_least_certain_tests_go_first_and_every_branch_stays() -> None:
    # cut in tree order, C's whole branch went before A's test leaves (the trial's bug)
    expected = answer(["A", "A1", "A1s", "At1", "At2", "An1", "B", "Bt1", "C", "C1", "C1s"],
                      "3 of 14 nodes left out to fit (3 in tests, 1 name_only), the deepest first: depths 1-2 "
                      "are whole; for the 2 under 'A1': call analyze_impact with name='A1', depth=1")
    assert fitted(expected, depth=3) == expected
    # one character less: the next least wanted goes, a source node of the deepest level
    # after every test there (C1s is kept over no shallower node)
    tighter = impact(tree(), depth=3, budget=len(dumps(expected)) - 1)
    assert [r["caller"] for r in tighter["callers"]] == ["A", "A1", "A1s", "At1", "At2", "An1", "B", "Bt1", "C", "C1"]
    assert tighter["cut"] == ("4 of 14 nodes left out to fit (3 in tests, 1 name_only), the deepest first: depths "
                              "1-2 are whole; for the 2 under 'A1': call analyze_impact with name='A1', depth=1")


def test_within_a_level_name_only_goes_before_tests_and_tests_before_source() -> None:
    expected = answer(["A", "A1", "At1", "B", "C", "C1"],
                      "8 of 14 nodes left out to fit (6 in tests, 2 name_only), the deepest first: depth 1 is "
                      "whole; for the 5 under 'A': call analyze_impact with name='A', depth=2, repo='web'")
    assert fitted(expected, depth=3, repo="web") == expected
    # a depth-4 question cut at the same level asks for the subtree three levels deep
    deeper = answer(["A", "A1", "At1", "B", "C", "C1"],
                    "8 of 14 nodes left out to fit (6 in tests, 2 name_only), the deepest first: depth 1 is "
                    "whole; for the 5 under 'A': call analyze_impact with name='A', depth=3")
    assert fitted(deeper, depth=4) == deeper


def test_direct_callers_that_do_not_fit_point_to_find_callers() -> None:
    expected = answer(["A", "B"], "12 of 14 nodes left out to fit (7 in tests, 2 name_only), the deepest first: "
                                  "not every direct caller fits; for them all: call find_callers with name='decode'")
    assert fitted(expected, depth=3) == expected


def test_a_budget_cut_never_suggests_a_larger_depth() -> None:
    """The daemon cut it too (callers past depth 3): a larger depth would be cut more."""
    expected = answer(["A", "A1", "A1s", "At1", "At2", "An1", "B", "Bt1", "C", "C1", "C1s"],
                      "3 of 14 nodes left out to fit (3 in tests, 1 name_only), the deepest first: depths 1-2 "
                      "are whole; for the 2 under 'A1': call analyze_impact with name='A1', depth=1")
    assert fitted(expected, depth=3, tree={"truncated": True}) == expected


@pytest.mark.parametrize("depth, nodes, cut", [
    (3, 14, "callers exist past depth 3; call again with depth=4"),
    (10, 14, "callers exist past depth 10; call analyze_impact with name= one of the deepest callers"),
    (3, 200, "callers exist past the daemon's 200-node limit; call analyze_impact with name= one of the "
             "deepest callers"),
])
def test_a_tree_the_daemon_cut_that_fits_says_where(depth: int, nodes: int, cut: str) -> None:
    assert impact(tree(truncated=True, nodes=nodes), depth=depth) == answer(ORDER, cut, nodes=nodes)


@pytest.mark.parametrize("why, cut", [
    (("depth", "time"), "the daemon's time for one tree ran out before the deepest callers' own callers "
                        "were asked; call analyze_impact with name= one of the deepest callers"),
    (("hierarchy",), "the daemon's lookups of aliases and subclasses ran out: calls on the classes it did "
                     "not reach may be missing or name_only"),
    (("depth", "hierarchy"), "callers exist past depth 3; call again with depth=4"),
])
def test_a_tree_the_daemons_time_or_lookups_cut_never_asks_for_more_depth(why: tuple[str, ...], cut: str) -> None:
    """A deeper walk would run out the same way (``Impact.cut`` says what cut it)."""
    cut_tree = replace(tree(truncated=True), cut=why)
    assert impact(cut_tree, depth=3) == answer(ORDER, cut)


def test_a_whole_tree_that_fits_says_nothing() -> None:
    assert impact(tree(), depth=3) == answer(ORDER)


def test_every_budget_keeps_whole_levels_above_a_partial_one() -> None:
    depth_of = {name: NODES[name].depth for name in ORDER}
    for budget in range(250, len(dumps(answer(ORDER))) + 1, 7):
        shown = impact(tree(), depth=3, budget=budget)
        assert len(dumps(shown)) <= budget
        kept = [r["caller"] for r in shown["callers"]]
        if kept:
            deepest = max(depth_of[k] for k in kept)
            assert all(name in kept for name in ORDER if depth_of[name] < deepest), (budget, kept)


def test_a_real_budget_holds_about_sixty_rows() -> None:
    many = tuple(node(1, f"caller_{i:03}") for i in range(100))
    shown = impact(Impact("decode", many, 100, 1, 1, False), depth=1)
    assert 50 < len(shown["callers"]) < 100 and len(dumps(shown)) <= BUDGET_CHARS
    assert shown["cut"].startswith(f"{100 - len(shown['callers'])} of 100 nodes left out to fit (0 in tests, "
                                   "0 name_only), the deepest first: not every direct caller fits")
