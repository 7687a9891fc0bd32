"""``coderecall impact --resolved``: the certain nodes of the whole capped tree, cut to
``--limit`` breadth first (the server's cut came first and name-only leaves took the
places of resolved callers: werkzeug's ``--limit 30 --resolved`` showed 8 of 13)."""

from __future__ import annotations

from coderecall._types import CallSite, Impact, ImpactNode
from coderecall.cli import first_nodes, resolved_only


def node(caller: str, confidence: str, depth: int, *children: ImpactNode, repo: str = "r") -> ImpactNode:
    site = CallSite(repo, f"{caller}.py", 1, caller, "f", "c", confidence=confidence)
    return ImpactNode(site, depth, tuple(children))


def tree() -> Impact:
    callers = (
        node("a", "resolved", 1, node("a1", "resolved", 2, node("a11", "resolved", 3)), node("a2", "name_only", 2)),
        node("n1", "name_only", 1), node("n2", "name_only", 1), node("o", "override", 1),
        node("b", "inherited", 1, node("b1", "resolved", 2), repo="s"),
    )
    return Impact("f", callers, 9, 2, 9, False)


def names(nodes: tuple[ImpactNode, ...]) -> list:
    return [(n.site.caller, names(n.children)) for n in nodes]


def test_resolved_only_keeps_certain_nodes_and_recounts() -> None:
    got = resolved_only(tree())
    assert names(got.callers) == [("a", [("a1", [("a11", [])])]), ("b", [("b1", [])])]
    assert (got.nodes, got.repos_touched, got.files_touched, got.truncated) == (5, 2, 5, False)


def test_resolved_only_is_truncated_only_where_the_cut_reaches_what_it_keeps() -> None:
    """mux's and bytes' ``impact --resolved`` of no certain caller said "the tree was cut at
    0 callers: raise --depth": the server's cut was below name-only nodes."""
    cut = Impact("f", tree().callers, 9, 2, 9, True)
    assert resolved_only(cut, depth=3).truncated  # a11 sits at the depth limit: its callers unasked
    assert not resolved_only(cut, depth=4).truncated  # the certain part ends above the limit
    assert resolved_only(cut, depth=4, asked=9).truncated  # the node cap was hit: anything may be missing
    only_names = Impact("f", (node("n1", "name_only", 1, node("n11", "name_only", 2)),), 2, 1, 2, True)
    got = resolved_only(only_names, depth=2)
    assert (got.nodes, got.truncated) == (0, False)


def test_first_nodes_cuts_breadth_first_and_says_so() -> None:
    certain = resolved_only(tree())
    got = first_nodes(certain, 3)  # both direct callers, then the first of the next level
    assert names(got.callers) == [("a", [("a1", [])]), ("b", [])]
    assert (got.nodes, got.repos_touched, got.files_touched, got.truncated) == (3, 2, 3, True)
    got = first_nodes(certain, 4)
    assert names(got.callers) == [("a", [("a1", [])]), ("b", [("b1", [])])]
    assert got.nodes == 4 and got.truncated
    assert first_nodes(certain, 5) == certain  # nothing dropped: not truncated
    assert first_nodes(certain, 1).callers[0].site.caller == "a" and first_nodes(certain, 1).nodes == 1


def test_a_symbols_row_names_a_match_not_as_written() -> None:
    from coderecall import cli as client_cli
    from coderecall._types import SymbolHit

    def hit(name: str, match: str) -> SymbolHit:
        return SymbolHit("r", "command.go", "go", "method", name.rsplit(".", 1)[-1], name, "cobra.Command",
                         f"func (c *Command) {name.rsplit('.', 1)[-1]}() error", "", 1, 2, 0, 10, "c" * 40, 1.0, match)
    rows = client_cli._symbol_rows([hit("cobra.Command.Execute", "exact"), hit("cobra.Command.execute", "case_insensitive"),
                                    hit("HTTPConnection.url_for", "inherited")])
    assert [row[2] for row in rows] == ["(method)", "(method; case_insensitive)", "(method; inherited)"]


def test_the_note_names_what_cut_the_tree() -> None:
    """The daemon's ``cut`` picks the note: the flag that shows more, or why none does."""
    from coderecall.cli import impact_cut

    def note(*cut: str) -> str:
        return impact_cut(Impact("f", (), 9, 1, 1, True, cut), 3, 200)
    assert note("limit") == "more exist past --limit 200 (max 2000)"
    assert note() == "more exist past --depth 3 (max 10) or --limit 200 (max 2000)"  # an older daemon
    assert note("time") == ("the daemon's time for one tree ran out before the deepest callers' own "
                            "callers were asked (impact one of them for its subtree)")
    assert note("depth", "hierarchy").startswith("more exist past --depth 3 (max 10); the daemon's lookups")


def test_a_cut_the_cli_makes_or_undoes_is_said_so() -> None:
    """``first_nodes`` adds ``limit`` to what cut the tree; ``resolved_only`` of a tree it
    makes whole says nothing cut it."""
    cut = Impact("f", tree().callers, 9, 2, 9, True, ("depth", "time"))
    assert first_nodes(cut, 2).cut == ("depth", "limit", "time")
    assert resolved_only(cut, depth=4).cut == ()
    assert resolved_only(cut, depth=3).cut == ("depth", "time")
