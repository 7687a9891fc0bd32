"""``analyze_impact``'s answer for the MCP bridge: the impact tree as rows, cut to fit
``BUDGET_CHARS`` breadth first, as the daemon's own node limit cuts it
(``coderecalld.query.impact``).

The rows are the tree flattened depth first (a caller, then its callers), each with its
depth ``d``. When they do not fit, the deepest level goes first and, within a level, the
least certain callers (``name_only`` before ``resolved``: ``CONFIDENCES`` read backwards)
and then the ones outside source (a test's before a source file's), never a shallower
node while a deeper one stays. Cut in tree order instead, gin's ``decodeJSON`` at depth 3
lost whole branches of direct callers (``jsonBinding.BindBody`` -> ``ShouldBindBodyWith``)
to 30-39 test leaves of an earlier branch (an agent-workflow trial).

One note, ``cut``, says what was left out and the one call that shows it: a subtree at a
smaller depth when the budget cut the tree (a larger depth would be cut more), a larger
depth only when the daemon's depth cut it and the budget did not (the trial's answer said
"depth=4" in one place and "depth=2" in another).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from coderecall._mcp_results import BUDGET_CHARS, NAME_ONLY, cite, dumps
from coderecall._types import Impact, ImpactNode

#: Confidences of a call site, most certain first: the daemon's order (``callgraph.RANK``);
#: one it does not know is counted least certain.
CONFIDENCES = ("resolved", "inherited", "override", "reference", NAME_ONLY)
#: The daemon's node limit for an ``analyze_impact`` that sets none (``impact.DEFAULT_NODES``)
#: and its deepest walk (``impact.MAX_DEPTH``).
DAEMON_NODES = 200
MAX_DEPTH = 10
Flat = list[tuple[ImpactNode, tuple[int, ...]]]  # pre-order: a node, its ancestors' indexes


def impact(result: Impact, depth: int = 3, repo: str = "", budget: int = BUDGET_CHARS) -> dict[str, Any]:
    """``result`` (asked with ``depth`` levels, 1..``MAX_DEPTH``, and ``repo``) as rows ``d``
    (1 = calls the symbol), ``cite`` (``repo:path:line``), ``caller`` and ``confidence``,
    depth first, with the tree's totals ahead; at most ``budget`` characters of compact
    JSON. A tree cut by the daemon or the budget says so in ``truncated`` and ``cut``."""
    head: dict[str, Any] = {"nodes": result.nodes, "repos": result.repos_touched, "files": result.files_touched}
    flat = _flat(result.callers)
    rows = [_row(node) for node, _ in flat]
    order = _order(flat)
    count = _fitting([rows[i] for i in order], budget - len(dumps(head)))  # at most: the note comes on top
    while True:
        keep = set(order[:count])
        payload = dict(head)
        note = (_budget_cut(result.name, flat, keep, depth, repo) if count < len(flat) else
                _daemon_cut(result, depth) if result.truncated else "")
        if note:
            payload.update(truncated=True, cut=note)
        payload["callers"] = [row for i, row in enumerate(rows) if i in keep]
        if len(dumps(payload)) <= budget or not count:
            return payload
        count -= 1


def _flat(callers: tuple[ImpactNode, ...]) -> Flat:
    out: Flat = []
    stack = [(node, ()) for node in reversed(callers)]
    while stack:
        node, above = stack.pop()
        out.append((node, above))
        stack.extend((child, (*above, len(out) - 1)) for child in reversed(node.children))
    return out


def _row(node: ImpactNode) -> dict[str, Any]:
    s = node.site
    return {"d": node.depth, "cite": cite(s.repo, s.path, s.line), "caller": s.caller or "<module>",
            "confidence": s.confidence}


def _order(flat: Flat) -> list[int]:
    """Indexes of the rows, most wanted first: shallowest, then most certain, then source,
    then in tree order."""
    def wanted(i: int) -> tuple[int, int, bool, int]:
        site = flat[i][0].site
        rank = CONFIDENCES.index(site.confidence) if site.confidence in CONFIDENCES else len(CONFIDENCES)
        return flat[i][0].depth, rank, site.role not in ("", "source"), i

    return sorted(range(len(flat)), key=wanted)


def _fitting(rows: list[dict[str, Any]], room: int) -> int:
    """How many of ``rows`` (most wanted first) fit in a list of ``room`` characters,
    stopping at the first that does not (a smaller one further on is less wanted)."""
    size = 2  # []
    for i, row in enumerate(rows):
        size += len(dumps(row)) + 1
        if size > room:
            return i
    return len(rows)


def _budget_cut(name: str, flat: Flat, shown: set[int], depth: int, repo: str) -> str:
    """What the budget left out (how many, of which tests and name-only), which levels are
    whole, and the call that shows the most of the rest: the subtree of the caller at the
    deepest whole level that lost the most, or the direct callers' pages."""
    left = [i for i in range(len(flat)) if i not in shown]
    tests = sum(flat[i][0].site.role == "test" for i in left)
    name_only = sum(flat[i][0].site.confidence == NAME_ONLY for i in left)
    whole = min(flat[i][0].depth for i in left) - 1  # every level above it is shown whole
    said = f"{len(left)} of {len(flat)} nodes left out to fit ({tests} in tests, {name_only} name_only), the deepest first: "
    narrowed = f", repo={repo!r}" if repo else ""
    if not whole:
        return f"{said}not every direct caller fits; for them all: call find_callers with name={name!r}{narrowed}"
    under = Counter(flat[i][1][whole - 1] for i in left)
    top = min(under, key=lambda i: (-under[i], i))  # the most left out under it; the first such
    caller = flat[top][0].site.caller
    levels = "depth 1 is whole" if whole == 1 else f"depths 1-{whole} are whole"
    return (f"{said}{levels}; for the {under[top]} under {caller!r}: call analyze_impact with "
            f"name={caller!r}, depth={depth - whole}{narrowed}")


def _daemon_cut(result: Impact, depth: int) -> str:
    """Where the daemon cut a tree that fits whole, and the call past it: a larger depth
    when its depth cut it (fewer nodes than its limit); none when its time or its lookups
    ran out (``Impact.cut``: a larger depth would be cut as much)."""
    if "time" in result.cut:
        return ("the daemon's time for one tree ran out before the deepest callers' own callers were asked; "
                "call analyze_impact with name= one of the deepest callers")
    if result.cut and not {"depth", "limit"} & set(result.cut):
        return ("the daemon's lookups of aliases and subclasses ran out: calls on the classes it did not "
                "reach may be missing or name_only")
    if result.nodes < DAEMON_NODES and depth < MAX_DEPTH:
        return f"callers exist past depth {depth}; call again with depth={depth + 1}"
    limit = f"depth {depth}" if result.nodes < DAEMON_NODES else f"the daemon's {DAEMON_NODES}-node limit"
    return f"callers exist past {limit}; call analyze_impact with name= one of the deepest callers"
