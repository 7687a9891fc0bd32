"""Python calls on subscripted values (index/receivers.py ``subscript_type``, resolve.py
``_subscripted_receivers``): ``xs[0].m()`` of ``xs: list[C]``, ``d[k].m()`` of ``d:
dict[K, C]`` (``Mapping``, ``defaultdict``), ``t[1].m()`` of ``t: tuple[A, B]``, the
attributes after them, and a name bound to such a value. The parser names such a call by its
method alone; a Python-callers trial on black, starlette and click (session 37, checked
against jedi) found black's ``self._release_ranges[-1].tokens`` and ``bracket_stack[-1][1]``
``.append(..)`` listed as name-only callers of ``Line.append``. A tuple assignment of as many
values as names binds each its value's type (``errors, seen = [], {}``)."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, resolve

SOURCE = b'''import typing
from collections import defaultdict
from dataclasses import dataclass, field

from pkg.handlers import Handler


@dataclass
class Range:
    start: int
    tokens: list[typing.Any] = field(default_factory=list)


class Route:
    def matches(self, scope):
        return True


class Router:
    routes: list[Route]

    def __init__(self):
        self.handlers: dict[str, Handler] = {}
        self.by_name: defaultdict[str, list[Route]] = defaultdict(list)
        self.pair: tuple[Route, Handler] = None
        self.ranges: typing.Sequence[Range] = ()

    def go(self, scope, name):
        self.routes[0].matches(scope)
        self.handlers[name].handle(scope)
        self.by_name[name][-1].matches(scope)
        self.pair[1].handle(scope)
        self.pair[0].matches(scope)
        self.routes[1:].matches(scope)
        self.ranges[-1].tokens.append(scope)
        tokens = self.ranges[-1].tokens
        tokens.append(scope)
        self.routes[0].matches(scope); self.routes[1].matches(scope)
        self.routes[0].matches(scope); other.matches(scope)


def pick(rs: typing.List[Route], m: typing.Mapping[str, Route], stack: list[tuple[int, list[int]]]):
    rs[0].matches(1)
    m["a"].matches(2)
    stack[-1][1].append(3)
    plain = [Route()]
    plain[0].matches(4)
    stack[0][5].append(6)
'''


def targets() -> dict[str, list[tuple[int, str, str]]]:
    path = "pkg/routing.py"
    parsed = parse.symbols(SOURCE, "python")
    found = resolve.chunks(chunk.chunks("r", path, SOURCE, parsed), parsed, path, "pkg.routing")
    return {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in found}


def test_a_method_called_on_an_item_of_a_declared_container() -> None:
    assert targets()["Router.go"] == [
        (29, "matches", "pkg.routing.Route.matches"),  # routes: list[Route] (class body)
        (30, "handle", "pkg.handlers.Handler.handle"),  # dict[str, Handler]: the value's type
        (31, "matches", "pkg.routing.Route.matches"),  # defaultdict[str, list[Route]], two steps
        (32, "handle", "pkg.handlers.Handler.handle"),  # tuple[Route, Handler] at 1
        (33, "matches", "pkg.routing.Route.matches"),  # ... at 0
        (34, "matches", ""),  # a slice is a list, no Route
        (35, "append", "builtins.list.append"),  # an item's attribute: Range.tokens: list[Any]
        (37, "tokens.append", "builtins.list.append"),  # a name bound to that value
        (38, "matches", "pkg.routing.Route.matches"),  # two calls, both on an item of routes
        (38, "matches", "pkg.routing.Route.matches"),
        (39, "matches", ""),  # two calls of `matches`, one on another value: which is which?
        (39, "other.matches", ""),
    ]


def test_parameters_nested_items_and_undeclared_values() -> None:
    assert targets()["pick"] == [
        (43, "matches", "pkg.routing.Route.matches"),  # typing.List[Route]
        (44, "matches", "pkg.routing.Route.matches"),  # typing.Mapping[str, Route]
        (45, "append", "builtins.list.append"),  # list[tuple[int, list[int]]]: [-1] then [1]
        (46, "Route", "pkg.routing.Route"),
        (47, "matches", ""),  # a list literal declares nothing about its items
        (48, "append", ""),  # index 5 of a pair: out of range
    ]


UNPACKED = b'''class Box:
    def put(self, x):
        pass


def f(pair, patterns: list[Box]):
    errors, seen = [], {}
    errors.append(1)
    seen.get(2)
    a, b = pair
    a.put(1)
    (c, d) = (Box(), "x")
    c.put(2)
    d.upper()
    e, *rest = [], 1
    e.append(3)
    p, others = patterns[0], patterns[1:]
    p.put(4)
'''


def test_a_tuple_assignment_binds_each_name_its_value() -> None:
    path = "pkg/box.py"
    parsed = parse.symbols(UNPACKED, "python")
    found = resolve.chunks(chunk.chunks("r", path, UNPACKED, parsed), parsed, path, "pkg.box")
    got = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in found}
    assert got["f"] == [
        (8, "errors.append", "builtins.list.append"),
        (9, "seen.get", "builtins.dict.get"),
        (11, "a.put", ""),  # one value unpacked: its items unknown
        (12, "Box", "pkg.box.Box"),
        (13, "c.put", "pkg.box.Box.put"),  # parenthesised on both sides
        (14, "d.upper", "builtins.str.upper"),
        (16, "e.append", ""),  # a starred target: which value is whose is not read
        (18, "p.put", "pkg.box.Box.put"),  # an item of a declared list
    ]


REBOUND = b'''class C:
    def m(self):
        pass


class D:
    def m(self):
        pass


def f(rows: list[list[C]], xs: list[D], p: tuple[C, D], pairs):
    xs[0].m()
    for xs in rows:
        xs[0].m()
    sorted(pairs, key=lambda p: p[1].m())
    [p[1].m() for p in pairs]
'''


def test_a_container_name_bound_otherwise_too_is_not_judged() -> None:
    """The review's cases: a declared name a loop rebinds, and a lambda's or a
    comprehension's own variable of the declared name's spelling, are other values."""
    path = "pkg/rebound.py"
    parsed = parse.symbols(REBOUND, "python")
    found = resolve.chunks(chunk.chunks("r", path, REBOUND, parsed), parsed, path, "pkg.rebound")
    got = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in found}
    assert [(line, target) for line, name, target in got["f"] if name == "m"] == [
        (12, ""), (14, ""), (15, ""), (16, "")]
