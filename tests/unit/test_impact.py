"""The impact tree over a canned call graph: breadth-first, one node per calling symbol,
cycles cut, depth and node limits reported as truncation."""

from __future__ import annotations

from coderecalld.query import impact
from coderecalld.query.callgraph import NAME_ONLY, RESOLVED, Site
from coderecalld.records import Hit, ImpactNode


def _site(repo: str, path: str, caller: str, fq: str, line: int, callee: str,
          kind: str = "function") -> Site:
    payload = {"repo": repo, "path": path, "qualified_name": caller, "fq_name": fq, "kind": kind}
    return Site(Hit(f"{repo}/{path}/{caller}", 1.0, payload), callee, line, f"{callee}()", "")


G = _site("B", "b/svc.py", "g", "b.svc.g", 5, "f")
G_AGAIN = _site("B", "b/svc.py", "g", "b.svc.g", 7, "f")
H = _site("B", "b/svc.py", "h", "b.svc.h", 10, "g")
K = _site("A", "a/extra.py", "k", "a.extra.k", 5, "g")
TOP = _site("B", "b/run.py", "b.run", "b.run", 3, "g", kind="module")
G_FROM_H = _site("B", "b/svc.py", "g", "b.svc.g", 6, "h")
# f <- g (twice) ; g <- h, k, top-level code of b/run.py ; h <- g (a cycle)
GRAPH = {
    "f": [(G_AGAIN, RESOLVED), (G, RESOLVED)],
    "b.svc.g": [(TOP, NAME_ONLY), (H, RESOLVED), (K, RESOLVED)],
    "b.svc.h": [(G_FROM_H, RESOLVED)],
    "a.extra.k": [],
}
ROOTS = frozenset({("A", "a/core.py", "f")})


def run(depth: int = 3, limit: int = 200, asked: list[str] | None = None):
    def callers_of(name: str, at=None):
        if asked is not None:
            asked.append(name)
        return GRAPH.get(name, [])
    return impact.analyze("f", ROOTS, callers_of, lambda repo: f"commit-{repo}", depth, limit)


def shape(nodes: tuple[ImpactNode, ...]) -> list:
    return [((n.site.repo, n.site.path, n.site.line, n.site.caller, n.site.confidence, n.depth),
             shape(n.children)) for n in nodes]


def test_full_tree_breadth_first_with_the_cycle_cut() -> None:
    asked: list[str] = []
    result = run(asked=asked)
    assert shape(result.callers) == [
        (("B", "b/svc.py", 5, "g", "resolved", 1), [
            (("A", "a/extra.py", 5, "k", "resolved", 2), []),
            (("B", "b/svc.py", 10, "h", "resolved", 2), [
                (("B", "b/svc.py", 6, "g", "resolved", 3), []),  # g is on the path: not expanded
            ]),
            (("B", "b/run.py", 3, "", "name_only", 2), []),  # top-level code: a leaf
        ]),
    ]
    assert (result.nodes, result.repos_touched, result.files_touched, result.truncated) == (5, 2, 3, False)
    assert asked == ["f", "b.svc.g", "a.extra.k", "b.svc.h"]  # each asked once, breadth first
    assert result.callers[0].site.commit == "commit-B"
    assert result.callers[0].site.text == "f()"


def test_depth_limit_truncates_when_callers_remain() -> None:
    one = run(depth=1)
    assert shape(one.callers) == [(("B", "b/svc.py", 5, "g", "resolved", 1), [])]
    assert (one.nodes, one.truncated) == (1, True)
    two = run(depth=2)
    assert two.nodes == 4 and two.truncated  # h has a caller (g) one level further down


def test_node_limit_keeps_the_shallowest_first() -> None:
    result = run(limit=2)
    assert shape(result.callers) == [
        (("B", "b/svc.py", 5, "g", "resolved", 1), [(("A", "a/extra.py", 5, "k", "resolved", 2), [])])]
    assert (result.nodes, result.repos_touched, result.files_touched, result.truncated) == (2, 2, 2, True)


def test_a_recursive_root_is_a_leaf_under_itself() -> None:
    self_call = _site("A", "a/core.py", "f", "a.core.f", 2, "f")
    result = impact.analyze("f", ROOTS, lambda name, at: [(self_call, RESOLVED)] if name == "f" else [],
                            lambda repo: "", 3, 10)
    assert shape(result.callers) == [(("A", "a/core.py", 2, "f", "resolved", 1), [])]
    assert result.truncated is False


def test_name_only_callers_are_leaves_where_resolved_ones_exist() -> None:
    """``decode`` has a resolved caller (g) and an unrelated name-only one (u): u is listed
    but its own callers are never asked for. With name-only callers alone (the definition is
    out of scope) they are followed, in the definition's repository."""
    u = _site("C", "c/bytes.py", "u", "c.bytes.u", 4, "decode")
    v = _site("C", "c/main.py", "v", "c.main.v", 9, "u")
    graph = {"f": [(G, RESOLVED), (u, NAME_ONLY)], "b.svc.g": [], "c.bytes.u": [(v, RESOLVED)]}
    asked: list[str] = []

    def callers_of(name: str, at=None):
        asked.append(name)
        return graph.get(name, [])

    mixed = impact.analyze("f", ROOTS, callers_of, lambda repo: "", 3, 200)
    assert shape(mixed.callers) == [(("B", "b/svc.py", 5, "g", "resolved", 1), []),
                                    (("C", "c/bytes.py", 4, "u", "name_only", 1), [])]
    assert asked == ["f", "b.svc.g"]  # u's callers never asked
    graph["f"] = [(u, NAME_ONLY)]
    alone = impact.analyze("f", frozenset({("C", "c/core.py", "f")}), callers_of, lambda repo: "", 3, 200)
    assert shape(alone.callers) == [(("C", "c/bytes.py", 4, "u", "name_only", 1), [
        (("C", "c/main.py", 9, "v", "resolved", 2), [])])]
    # ... in the definition's repository: one in another shares a word with it, no more
    # (xarray's untyped `.mean()` led to sphinx's `self.config.setup(self)`; a newcomer)
    asked.clear()
    other = impact.analyze("f", ROOTS, callers_of, lambda repo: "", 3, 200)
    assert shape(other.callers) == [(("C", "c/bytes.py", 4, "u", "name_only", 1), [])]
    assert asked == ["f"] and not other.truncated


def test_a_caller_reached_twice_is_expanded_once() -> None:
    """f <- a, b; a <- t; b <- t; t <- run: ``t`` sits under both ``a`` and ``b``, its own
    callers once, under the first (ky's impact repeated whole test subtrees 18 times)."""
    def s(caller: str, line: int, callee: str) -> Site:
        return _site("A", "a/m.py", caller, f"a.m.{caller}", line, callee)
    graph = {"f": [(s("a", 1, "f"), RESOLVED), (s("b", 2, "f"), RESOLVED)],
             "a.m.a": [(s("t", 3, "a"), RESOLVED)], "a.m.b": [(s("t", 4, "b"), RESOLVED)],
             "a.m.t": [(s("run", 5, "t"), RESOLVED)]}
    asked: list[str] = []
    result = impact.analyze("f", ROOTS, lambda name, at: asked.append(name) or graph.get(name, []),
                            lambda repo: "", 5, 100)
    assert shape(result.callers) == [
        (("A", "a/m.py", 1, "a", "resolved", 1), [
            (("A", "a/m.py", 3, "t", "resolved", 2), [(("A", "a/m.py", 5, "run", "resolved", 3), [])])]),
        (("A", "a/m.py", 2, "b", "resolved", 1), [(("A", "a/m.py", 4, "t", "resolved", 2), [])]),
    ]
    assert (result.nodes, result.truncated) == (5, False)
    assert asked.count("a.m.t") == 1


def test_a_callers_callers_are_asked_of_its_own_file() -> None:
    """A caller is expanded by its name in its own file (``at``): a name without a module
    (Rust's ``sort_by``, a test function) would otherwise mean every definition so named
    (walkdir's test ``fn sort_by`` got the calls of the method ``WalkDir::sort_by``)."""
    asked: list[tuple[str, object]] = []

    def callers_of(name: str, at=None):
        asked.append((name, at))
        return GRAPH.get(name, [])
    impact.analyze("f", ROOTS, callers_of, lambda repo: "", 2, 200)
    assert asked[:2] == [("f", None), ("b.svc.g", ("B", "b/svc.py"))]


def test_a_levels_room_goes_to_expanded_callers_before_leaves() -> None:
    """django's ``impact Query.add_q --limit 60``: ``Q.check``'s name-only callers (leaves:
    it has resolved ones) filled the tree before the other direct callers' callers, so
    ``QuerySet.filter`` above ``_filter_or_exclude`` never showed. Within a level, the
    callers followed next come first, whichever node they are under."""
    p = _site("A", "a/q.py", "p", "a.q.p", 3, "f")  # root's first caller, many leaves
    r = _site("A", "a/q.py", "r", "a.q.r", 9, "f")
    leaves = [_site("C", f"c/m{i}.py", f"x{i}", f"c.m{i}.x{i}", 2, "check") for i in range(5)]
    certain = _site("A", "a/p.py", "uses_p", "a.p.uses_p", 4, "p")
    above_r = _site("A", "a/r.py", "filter", "a.r.filter", 8, "r")
    graph = {"f": [(p, RESOLVED), (r, RESOLVED)],
             "a.q.p": [(certain, RESOLVED), *((leaf, NAME_ONLY) for leaf in leaves)],
             "a.q.r": [(above_r, RESOLVED)]}

    def callers_of(name: str, at=None):
        return graph.get(name, [])
    result = impact.analyze("f", ROOTS, callers_of, lambda repo: "c", 3, 5)
    assert [(n.site.caller, [c.site.caller for c in n.children]) for n in result.callers] == [
        ("p", ["uses_p", "x0"]), ("r", ["filter"])]
    assert result.truncated and result.nodes == 5


def test_source_callers_come_before_generated_copies_of_one_confidence() -> None:
    """axios's ``impact mergeConfig``: its ``dist/`` bundles' copies of the callers came
    first by path and filled the node limit before ``lib/``'s ``Axios._request`` was
    expanded (a newcomer). Within a confidence, callers are ordered by ``role_of``."""
    def at(path: str, caller: str, role: str, callee: str) -> Site:
        site = _site("A", path, caller, f"{path[:-3].replace('/', '.')}.{caller}", 4, callee)
        site.hit.payload["role"] = role
        return site
    bundled = [at(f"dist/b{i}.js", "Axios._request", "generated", "mergeConfig") for i in range(3)]
    source = at("lib/core/Axios.js", "Axios._request", "source", "mergeConfig")
    above = at("lib/core/Axios.js", "Axios.request", "source", "_request")
    graph = {"f": [*((b, RESOLVED) for b in bundled), (source, RESOLVED)],
             source.hit.payload["fq_name"]: [(above, RESOLVED)]}
    rank = {"source": 0.0, "generated": 0.5}

    def callers_of(name: str, at=None):
        return graph.get(name, [])
    by_role = impact.analyze("f", ROOTS, callers_of, lambda repo: "c", 3, 2,
                             lambda payload: rank[payload["role"]])
    assert [n.site.path for n in by_role.callers] == ["lib/core/Axios.js", "dist/b0.js"]
    assert by_role.truncated
    whole = impact.analyze("f", ROOTS, callers_of, lambda repo: "c", 3, 10, lambda payload: rank[payload["role"]])
    assert [(n.site.path, [c.site.caller for c in n.children]) for n in whole.callers] == [
        ("lib/core/Axios.js", ["Axios.request"]), ("dist/b0.js", []), ("dist/b1.js", []), ("dist/b2.js", [])]
    by_path = impact.analyze("f", ROOTS, callers_of, lambda repo: "c", 3, 2)
    assert [n.site.path for n in by_path.callers] == ["dist/b0.js", "dist/b1.js"]


def test_the_cut_says_what_cut_the_tree() -> None:
    """``cut`` names each reason once, in ``ImpactCut``'s order; a whole tree has none."""
    assert (run().truncated, run().cut) == (False, ())
    assert run(depth=1).cut == ("depth",)
    assert run(limit=2).cut == ("limit",)
    assert run(depth=1, limit=1).cut == ("depth",)  # g is the one node: none dropped


def test_a_walk_out_of_time_keeps_what_it_found_and_says_so() -> None:
    """Once ``late()`` says the time is spent, no more callers are asked: the nodes found
    are the answer (breadth first: the shallowest), the unasked ones leaves, and the tree
    says ``time`` (drf + pydantic's ``impact Field --depth 10 --limit 2000`` ran past the
    CLI's deadline: no answer at all)."""
    asked: list[str] = []
    clock = iter([False, True])  # time for one caller's callers (g's), then none
    result = impact.analyze("f", ROOTS, lambda name, at: asked.append(name) or GRAPH.get(name, []),
                            lambda repo: "", 3, 200, late=lambda: next(clock))
    assert asked == ["f", "b.svc.g"]  # k and h were found, never asked about
    assert shape(result.callers) == [
        (("B", "b/svc.py", 5, "g", "resolved", 1), [
            (("A", "a/extra.py", 5, "k", "resolved", 2), []),
            (("B", "b/svc.py", 10, "h", "resolved", 2), []),
            (("B", "b/run.py", 3, "", "name_only", 2), []),
        ]),
    ]
    assert (result.nodes, result.truncated, result.cut) == (4, True, ("time",))
    # the root's callers are asked whatever the clock says; a tree of leaves is whole
    leaves = impact.analyze("f", ROOTS, lambda name, at: [(TOP, NAME_ONLY)] if name == "f" else [],
                            lambda repo: "", 3, 200, late=lambda: True)
    assert (leaves.nodes, leaves.truncated, leaves.cut) == (1, False, ())


def test_a_walk_with_time_to_spare_is_the_same_tree() -> None:
    """A clock that never runs out changes nothing: the same nodes as without one."""
    assert run() == impact.analyze("f", ROOTS, lambda name, at: GRAPH.get(name, []),
                                   lambda repo: f"commit-{repo}", 3, 200, late=lambda: False)


def test_the_walks_time_is_its_own_or_a_share_of_the_deadline(monkeypatch) -> None:
    """``service._walk_clock``: ``WALK_SECONDS``, or ``WALK_SHARE`` of what the request's
    deadline leaves when that is less (the rest is for the callers being asked then, and
    the answer), on a clock the test moves."""
    import time

    from coderecalld import deadline
    from coderecalld.query import service

    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    with deadline.bounded(4.0):
        late = service._walk_clock()  # 2 s: half of the 4 left
    unbounded = service._walk_clock()  # no deadline: WALK_SECONDS
    now[0] = 101.9
    assert (late(), unbounded()) == (False, False)
    now[0] = 102.1
    assert (late(), unbounded()) == (True, False)
    now[0] = 100.0 + impact.WALK_SECONDS + 0.1
    assert unbounded()
