"""Impact analysis (AnalyzeImpact): who calls a symbol, who calls those, ... as a tree.

Each level is one ``callgraph.callers`` question, exactly what FindCallers answers: a
caller's call site with its ``confidence`` (``resolved`` through imports, module or class;
``name_only`` when only the name matched). A caller is then asked about by its
module-qualified name (``fq_name``; its qualified name when no module is known).

* One node per calling symbol (repo, path, qualified name) under a parent, holding its
  first call site in FindCallers' order (resolved first, source first, then repo, path, line).
* Breadth first: every direct caller comes before any caller of a caller, so the node
  ``limit`` cuts the deepest, least certain part of the tree first; within a level, the
  callers whose own callers are followed next come before the leaves (below), whichever
  node they are under.
* Cycles: a caller already on the path from the root (the analysed definitions included)
  is a leaf; it is not expanded again. That is not a truncation.
* A caller expanded already in an earlier branch (breadth first) is a leaf where it
  appears again: its own callers are listed once in the tree (ky's ``impact
  Ky.#getRemainingTotalTimeout``: the same test subtrees 18 times, 786 nodes for 6 sites).
* Top-level code (``caller == ""``) is a leaf: nothing can call a module body by name.
* Where a symbol has resolved (or ``inherited``) callers, its ``name_only`` and
  ``override`` callers are leaves: shown (each
  may be a caller), never expanded, so only resolved edges are followed. Otherwise every
  unrelated ``x.decode()`` would fan out into its own callers and overstate the blast
  radius. Where every caller matched by name only (the definition is outside the caller's
  scope, or in no indexed repo), they are followed: it is all there is; but not one in
  another repository than the definition's, which names it by a word the two share and
  nothing more (xarray's ``Weighted.mean``: an untyped ``.mean()`` in a benchmark, then
  sphinx's ``self.config.setup(self)`` for that benchmark's ``setup``, and the whole
  Sphinx command line under it, 2,000 nodes; a newcomer). A root no repository in scope
  defines has no such bound.
* ``truncated`` is true when the node limit dropped a caller, or a node at the depth
  limit has callers of its own, or the walk's time ran out (``late``) before every node
  was asked about; ``cut`` says which (``ImpactCut``).
* Time: a hub name's tree is costly to walk (drf + pydantic's ``impact Field --depth 10
  --limit 2000`` ran past the CLI's 30 s deadline, and the answer was an error). Once
  ``late()`` says so, no more callers are asked: the nodes found are the answer, those not
  yet asked about are leaves, and the tree says it was cut by ``time``. Breadth first, the
  nodes left unasked are the deepest.

No grpc and no store here: ``callers_of(name)`` is the only question asked, memoised.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from coderecalld.query.callgraph import INHERITED, RANK, REFERENCE, RESOLVED, Site, askable, caller_hit
from coderecalld.records import CallerHit, Impact, ImpactCut, ImpactNode

DEFAULT_DEPTH = 3
MAX_DEPTH = 10
DEFAULT_NODES = 200
MAX_NODES = 2000
#: Seconds one impact request walks the call graph at most (``service.analyze_impact``),
#: and at most this share of the time its client gives it: the CLI's and the client's
#: deadline is 30 s, and a tree cut by time is an answer where a missed deadline is an
#: error. A caller being asked when the time runs out is answered first (one ``callers``
#: question: ~0.1-1 s on drf + pydantic), then the response is built.
WALK_SECONDS = 10.0
WALK_SHARE = 0.5

#: Edges followed when a symbol has any: a call of a subclass that inherits the method is
#: as certain as a resolved one, and so is a value naming it (``REFERENCE``: the function
#: holding the callback passes it on); an ``override`` call may dispatch elsewhere.
_CERTAIN = (RESOLVED, INHERITED, REFERENCE)

Key = tuple[str, str, str]  # repo, path, qualified name ("" for top-level code)


@dataclass(slots=True)
class _Node:
    site: CallerHit
    depth: int
    key: Key
    expand: str  # the name its own callers are asked by; "" for a leaf
    above: frozenset[Key]  # keys on the path from the root to this node, itself included
    children: list[_Node] = field(default_factory=list)

    def frozen(self) -> ImpactNode:
        return ImpactNode(self.site, self.depth, tuple(c.frozen() for c in self.children))


def analyze(name: str, roots: frozenset[Key],
            callers_of: Callable[[str, tuple[str, str] | None], list[tuple[Site, str]]],
            commit_of: Callable[[str], str], depth: int, limit: int,
            role_of: Callable[[dict], float] = lambda payload: 0.0,
            late: Callable[[], bool] = lambda: False) -> Impact:
    """The impact tree of ``name`` whose definitions are ``roots``, ``depth`` levels deep
    (1..MAX_DEPTH) and at most ``limit`` nodes (1..MAX_NODES); see the module docstring.
    ``callers_of(name, at)``: the callers of ``name``'s definitions in file ``at`` (repo,
    path) when it has one, of all of them for ``at`` None (the root). ``role_of(payload)``:
    where a caller's role puts it among callers of one confidence, lowest first
    (``service.role_rank``: source first, generated and vendored copies last). ``late()``:
    whether the walk's time is spent (asked before each caller's callers; the root's are
    always asked)."""
    memo: dict[tuple[str, tuple[str, str] | None], list[tuple[Site, str]]] = {}

    def ask(asked: str, at: tuple[str, str] | None = None) -> list[tuple[Site, str]]:
        if (asked, at) not in memo:
            memo[asked, at] = callers_of(asked, at)
        return memo[asked, at]

    top = _children(ask(name), 1, roots, commit_of, {k[0] for k in roots} or None, role_of)
    cut: set[ImpactCut] = {ImpactCut.LIMIT} if len(top) > limit else set()
    top = _kept(top, limit)
    count = len(top)
    level = top
    expanded: set[Key] = set()
    while level:
        found: list[tuple[_Node, list[_Node]]] = []
        for node in level:
            if not node.expand or node.key in expanded:
                continue
            at = node.key[:2]  # the caller's own definition, not every one of its name
            stop = node.depth == depth or count == limit  # cut here: only whether callers exist matters
            reason = ImpactCut.DEPTH if node.depth == depth else ImpactCut.LIMIT
            if stop and reason in cut:
                continue  # said already: its callers would change nothing
            if (node.expand, at) not in memo and (ImpactCut.TIME in cut or late()):
                cut.add(ImpactCut.TIME)  # unasked: a leaf, whatever callers it has
                continue
            if stop:
                if ask(node.expand, at):
                    cut.add(reason)
                continue
            expanded.add(node.key)
            found.append((node, _children(ask(node.expand, at), node.depth + 1, node.above, commit_of,
                                          {node.key[0]}, role_of)))
        # the level's room goes to the nodes expanded next before the leaves, whichever
        # parent they have (django's `impact Query.add_q`: `Q.check`'s 45 name-only leaves,
        # calls of any of 50 `check`s, filled it before `QuerySet.filter` was reached)
        pairs = [(parent, child) for parent, children in found for child in children]
        room = limit - count
        if len(pairs) > room:
            cut.add(ImpactCut.LIMIT)
        kept = {id(child) for child in _kept([child for _, child in pairs], room)}
        for parent, child in pairs:
            if id(child) in kept:
                parent.children.append(child)
        count += len(kept)
        level = [child for parent, _ in found for child in parent.children]
    nodes = _walk(top)
    return Impact(name, tuple(n.frozen() for n in top), len(nodes),
                  len({n.key[0] for n in nodes}), len({n.key[:2] for n in nodes}), bool(cut),
                  tuple(c for c in ImpactCut if c in cut))


def _kept(nodes: list[_Node], room: int) -> list[_Node]:
    """The first ``room`` of ``nodes`` (in their order) counting the ones expanded next
    (``expand``) before the leaves."""
    chosen = {id(n) for n in sorted(nodes, key=lambda n: not n.expand)[:max(room, 0)]}
    return [n for n in nodes if id(n) in chosen]


def _children(found: list[tuple[Site, str]], depth: int, above: frozenset[Key],
              commit_of: Callable[[str], str], repos: set[str] | None,
              role_of: Callable[[dict], float] = lambda payload: 0.0) -> list[_Node]:
    """The nodes of the callers ``found`` of a definition in ``repos`` (its repository; the
    root's: every one of its definitions'; None: no definition is in scope), best first
    (by confidence, then role: axios's ``dist/`` bundles' copies of ``mergeConfig``'s
    callers came first by path and filled the 200 nodes before ``lib/``'s ``Axios.request``
    was reached; a newcomer); see the module docstring."""
    ordered = sorted(((caller_hit(site, conf, commit_of(site.hit.payload["repo"])), site)
                      for site, conf in found),
                     key=lambda hs: (RANK.get(hs[0].confidence, 9), role_of(hs[1].hit.payload), hs[0].repo,
                                     hs[0].path, hs[0].line, hs[0].caller))
    any_resolved = any(conf in _CERTAIN for _, conf in found)
    nodes: dict[Key, _Node] = {}
    for hit, site in ordered:
        key = (hit.repo, hit.path, hit.caller)
        if key in nodes:
            continue
        p = site.hit.payload
        leaf = not hit.caller or key in above or (hit.confidence not in _CERTAIN
                                                  and (any_resolved or (repos is not None
                                                                        and hit.repo not in repos)))
        expand = "" if leaf else p.get("fq_name") or p["qualified_name"]
        if expand and not askable(expand):
            # a name the callers graph cannot ask by (a JS module under `.github/`: an empty
            # dotted segment) is a leaf, not the whole tree's failure (pydantic's `impact
            # model_validate` failed whole on a `.github/` script; a newcomer)
            expand = ""
        nodes[key] = _Node(hit, depth, key, expand, above | {key})
    return list(nodes.values())


def _walk(nodes: list[_Node]) -> list[_Node]:
    out = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


def root_key(payload: dict) -> Key:
    """The node key of a definition's point."""
    return (payload["repo"], payload["path"], payload["qualified_name"])
