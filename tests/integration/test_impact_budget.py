"""AnalyzeImpact on a hub: a package star-importing its modules (pydantic's ``pydantic.v1``),
a constructor every class defines (``__init__``) and callers of callers. One request reads
each definition and re-export module once and a star import's targets in one lookup per
field (``reuse.Reused``); the trees are the ones main's code answered (node for node,
before that change), and a walk whose time runs out says so (``cut``). Real git fixture,
real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import callgraph, impact
from coderecalld.records import ImpactNode
from conformance_cases import indexed

MODULES = 8
FILES = {
    "shop/__init__.py": "".join(f"from shop.m{k} import *\n" for k in range(MODULES)),
    **{f"shop/m{k}.py": f'''\
class Item{k}:
    def __init__(self, n):
        self.n = n

    def total(self):
        return helper{k}(self.n)


def helper{k}(n):
    return n + {k}


def make{k}():
    return Item{k}({k}).total()
''' for k in range(MODULES)},
    "app/__init__.py": "",
    "app/use.py": "import shop\n\n\ndef build():\n    return [" + ", ".join(f"shop.make{k}()" for k in range(MODULES))
                  + "]\n\n\ndef run():\n    return build()\n",
    "tests/test_shop.py": "from app.use import run\n\n\ndef test_run():\n    assert run()\n\n\n"
                          "def test_again():\n    assert run() == run()\n",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("hub"), FILES) as running:
        yield running


def rows(nodes: tuple[ImpactNode, ...]) -> list[tuple[int, str, int, str, str]]:
    """The tree pre-order: (depth, path, line, caller, confidence)."""
    out = []
    for n in nodes:
        out.append((n.depth, n.site.path, n.site.line, n.site.caller, n.site.confidence))
        out += rows(n.children)
    return out


def _build(k: int, depth: int) -> list[tuple[int, str, int, str, str]]:
    """``make{k}``'s line under a caller at ``depth``, and ``build`` above it: the first
    branch holds ``run`` and the tests above it, down to ``depth`` levels in all."""
    return [(depth, f"shop/m{k}.py", 14, f"make{k}", "resolved"), (depth + 1, "app/use.py", 5, "build", "resolved")]


RUN = (3, "app/use.py", 9, "run", "resolved")
TESTS = [(4, "tests/test_shop.py", 5, "test_run", "resolved"), (4, "tests/test_shop.py", 9, "test_again", "resolved")]
#: The trees main's code answered before one request read each lookup once (3285d37), with
#: its ``truncated``; ``build`` is expanded once, under ``make0`` (a caller reached again is a leaf).
BEFORE = {
    ("__init__", 4): ([*_build(0, 1), RUN, *TESTS, *(row for k in range(1, MODULES) for row in _build(k, 1))], False),
    ("helper3", 5): ([(1, "shop/m3.py", 6, "Item3.total", "resolved"),
                      *((d + 1, p, line, c, conf) for d, p, line, c, conf in [*_build(3, 1), RUN, *TESTS])], False),
    ("shop.m0.Item0.__init__", 3): ([*_build(0, 1), RUN], True),
    ("make5", 2): ([(1, "app/use.py", 5, "build", "resolved"), (2, "app/use.py", 9, "run", "resolved")], True),
    ("total", 3): ([*_build(0, 1), RUN, *(row for k in range(1, MODULES) for row in _build(k, 1))], True),
}


@pytest.mark.parametrize(("name", "depth"), list(BEFORE))
def test_the_same_trees_as_before(daemon: Daemon, name: str, depth: int) -> None:
    found = daemon.service.analyze_impact(name, repo="fx", depth=depth)
    assert (rows(found.callers), found.truncated) == BEFORE[name, depth]
    assert found.cut == (("depth",) if found.truncated else ())


def test_a_hub_reads_each_lookup_once(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """``impact __init__``: every ``Item{k}.__init__``'s callers ask for its class, whose
    module the package star-imports with seven others; each such name was read through
    all eight targets, three rounds deep: main's code made 15,827 ``find`` and 76
    ``find_any`` calls here (drf + pydantic: 4,086 for one request, 3 of its 3.1 s), this
    one 62 and 64 (one per field for a star import's targets, each name once)."""
    store = daemon.service.store
    calls: list[str] = []
    for op in ("find", "find_any"):
        monkeypatch.setattr(store, op, (lambda real, op: lambda *a, **k: (calls.append(op), real(*a, **k))[1])(
            getattr(store.inner, op), op))
    found = daemon.service.analyze_impact("__init__", repo="fx", depth=4)
    assert rows(found.callers) == BEFORE["__init__", 4][0]
    assert len(calls) < 200


def test_a_walk_out_of_time_says_so(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """No time past the root's callers: they are the answer, truncated, and ``cut`` says
    ``time`` (not ``depth``: whether a node at the depth limit has callers is not asked
    either)."""
    monkeypatch.setattr(impact, "WALK_SECONDS", 0.0)
    found = daemon.service.analyze_impact("helper3", repo="fx", depth=5)
    assert rows(found.callers) == [(1, "shop/m3.py", 6, "Item3.total", "resolved")]
    assert (found.truncated, found.cut) == (True, ("time",))
    shallow = daemon.service.analyze_impact("app.use.run", repo="fx", depth=1)
    assert (len(shallow.callers), shallow.cut) == (2, ("time",))


def test_spent_lookups_are_said_beside_the_other_cuts(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The aliases and class hierarchy out of lookups (``callgraph.HIERARCHY_LOOKUPS``):
    ``cut`` adds ``hierarchy`` to what else cut the tree, in ``ImpactCut``'s order."""
    monkeypatch.setattr(callgraph, "HIERARCHY_LOOKUPS", 1)
    found = daemon.service.analyze_impact("total", repo="fx", depth=3)
    assert (found.truncated, found.cut) == (True, ("depth", "hierarchy"))
