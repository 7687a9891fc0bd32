"""One ``callers`` (or ``impact``) request spends a bounded number of keyword lookups on
re-export aliases and the class hierarchy (``callgraph.HIERARCHY_LOOKUPS``,
``HIERARCHY_SECONDS``): on sympy, ``callers Basic.subs`` (some 1,000 subclasses) asked for
37,000 and ran past the 60 s deadline. Past the budget the answer says so, over gRPC and
in the CLI. Real git fixture, real embedded store, a live server on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecall import cli
from coderecalld.daemon import Daemon
from coderecalld.query import callgraph
from coderecalld.server.app import build_server
from conformance_cases import indexed

# A base class, three generations of subclasses inheriting ``area``, and calls on each.
FILES = {
    "shapes/base.py": '''\
class Shape:
    def area(self):
        return 0
''',
    "shapes/kinds.py": '''\
from shapes.base import Shape


class Square(Shape):
    pass


class Tile(Square):
    pass


class Mosaic(Tile):
    pass
''',
    "app/use.py": '''\
from shapes.base import Shape
from shapes.kinds import Mosaic, Square, Tile


def measure():
    shape = Shape()
    square = Square()
    tile = Tile()
    mosaic = Mosaic()
    total = shape.area()
    total += square.area()
    total += tile.area()
    return total + mosaic.area()
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("budget"), FILES) as running:
        yield running


def _sites(daemon: Daemon) -> tuple[list[tuple[str, int]], dict[str, int]]:
    omitted: dict[str, int] = {}
    found = [(s.confidence, s.line) for s in daemon.service.find_callers("Shape.area", repo="fx", omitted=omitted)]
    return found, omitted


def test_the_whole_hierarchy_within_the_budget(daemon: Daemon) -> None:
    """Three generations of subclasses: every call resolved or inherited, nothing cut."""
    found, omitted = _sites(daemon)
    assert found == [("resolved", 10), ("inherited", 11), ("inherited", 12), ("inherited", 13)]
    assert "hierarchy_cut" not in omitted
    assert daemon.service.analyze_impact("Shape.area", repo="fx").truncated is False


def test_a_spent_budget_is_said(daemon: Daemon, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """One lookup: the subclasses below the first level are not reached, and the answer
    says the hierarchy was cut (``omitted``, the gRPC field, the CLI's note; impact's
    ``truncated``)."""
    monkeypatch.setattr(callgraph, "HIERARCHY_LOOKUPS", 1)
    found, omitted = _sites(daemon)
    assert omitted["hierarchy_cut"] == 1
    # the calls on the classes the walk did not reach are listed, as name-only
    assert ("resolved", 10) in found and [c for c, _ in found].count("inherited") < 3
    assert sorted(line for _, line in found) == [10, 11, 12, 13]
    assert {c for c, _ in found} <= {"resolved", "inherited", "name_only"}
    server, port = build_server(daemon.service, "127.0.0.1:0")
    server.start()
    try:
        status = cli.main(["--addr", f"127.0.0.1:{port}", "callers", "Shape.area", "--repo", "fx"])
    finally:
        server.stop(0).wait()
    err = capsys.readouterr().err
    assert status == 0
    assert ("coderecall: 'Shape.area' has more aliases and subclasses than one request follows; "
            "calls on the classes it did not reach are listed as name-only, calls of the methods it "
            "overrides may be missing\n") in err
    assert daemon.service.analyze_impact("Shape.area", repo="fx").truncated is True


# A review's fixture: a test helper package's re-export, a source module named like a test
# re-exporting a function, and a hierarchy where ``Square`` overrides ``area``.
REVIEW = {
    "tests/__init__.py": "",
    "tests/helpers/__init__.py": "from tests.helpers.factories import make_user\n",
    "tests/helpers/factories.py": "def make_user(name):\n    return {'name': name}\n",
    "tests/test_users.py": "from tests.helpers import make_user\n\n\ndef test_one():\n    assert make_user('a')\n",
    "web/__init__.py": "",
    "web/app.py": "def make_app():\n    return 1\n",
    "web/test_utils.py": "from web.app import make_app\n",
    "plugin/__init__.py": "",
    "plugin/fixtures.py": "from web.test_utils import make_app\n\n\ndef app_fixture():\n    return make_app()\n",
    "shapes/__init__.py": "",
    "shapes/base.py": "class Shape:\n    def area(self):\n        return 0\n",
    "shapes/kinds.py": ("from shapes.base import Shape\n\n\nclass Square(Shape):\n    def area(self):\n"
                        "        return 4\n\n\nclass Tile(Square):\n    pass\n\n\nclass Circle(Shape):\n    pass\n"),
    "app/__init__.py": "",
    "app/use.py": ("from shapes.base import Shape\nfrom shapes.kinds import Square, Tile, Circle\n\n\n"
                   "def measure():\n    s = Shape()\n    q = Square()\n    t = Tile()\n    c = Circle()\n"
                   "    total = s.area()\n    total += q.area()\n    total += t.area()\n    total += c.area()\n"
                   "    return total\n"),
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("review"), REVIEW) as running:
        yield running


def test_a_test_helper_packages_reexport_is_still_a_name(review: Daemon) -> None:
    """What a test module binds is a name of it (a test helper package's ``from .factories
    import make_user``; a source module named like a test, aiohttp's ``test_utils``): its
    calls stay resolved (the first version of the test-module rule dropped them)."""
    for name, site in (("tests.helpers.factories.make_user", ("tests/test_users.py", 5)),
                       ("web.app.make_app", ("plugin/fixtures.py", 5))):
        found = [(s.path, s.line, s.confidence) for s in review.service.find_callers(name, repo="fx")]
        assert found == [(*site, "resolved")]


@pytest.mark.parametrize("lookups", range(1, 41, 3))
def test_a_cut_hierarchy_adds_no_overriding_subclass(review: Daemon, lookups: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the budget, ``Square`` (which overrides ``area``) and ``Tile`` below it are
    never counted as inheriting ``Shape.area``: a cut before the override check made them
    ``inherited`` (a review); the whole answer is ``s.area()`` and ``c.area()``. Past a cut,
    the calls on classes the walk did not reach are ``name_only`` candidates (``t.area()``
    of a ``Tile`` may be of ``Shape.area``, as far as it read), never ``q.area()``: its
    target is ``Square``'s own ``area``, another definition."""
    monkeypatch.setattr(callgraph, "HIERARCHY_LOOKUPS", lookups)
    found = [(s.line, s.confidence) for s in review.service.find_callers("shapes.base.Shape.area", repo="fx")]
    assert found[0] == (10, "resolved")
    assert set(found) <= {(10, "resolved"), (13, "inherited"), (12, "name_only"), (13, "name_only")}
    assert 13 in {line for line, _ in found}


# A constructor overridden down a hierarchy (marshmallow's ``Schema.__init__`` and its
# hundreds of test subclasses), and the class constructed in the code through its
# package's re-export (an alias the lookup budget pays for).
CONSTRUCTED = {
    "engine/__init__.py": "from engine.core import Diesel, Engine\n",
    "engine/core.py": ("class Engine:\n    def __init__(self, size):\n        self.size = size\n\n\n"
                       "class Turbo(Engine):\n    def __init__(self, size):\n        super().__init__(size)\n\n\n"
                       "class Diesel(Turbo):\n    def __init__(self, size):\n        super().__init__(size)\n"),
    "app/__init__.py": "",
    "app/build.py": ("from engine import Diesel, Engine\n\n\ndef build():\n    small = Engine(1)\n"
                     "    big = Diesel(2)\n    return small, big\n"),
}


@pytest.fixture(scope="module")
def constructed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("constructed"), CONSTRUCTED) as running:
        yield running


@pytest.mark.parametrize("lookups", [2, 3, 5, 3000])
def test_a_constructors_constructions_outlast_a_spent_budget(constructed: Daemon, lookups: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The class's constructions are asked for before the constructor's own name follows
    its overrides down the hierarchy: with the budget spent there, ``callers
    Schema.__init__`` (marshmallow) answered nothing at all while ``callers Schema`` found
    its three constructions. ``Engine(1)`` is on every answer from two lookups on (the
re-export's; with one, only the chaining was found, and none before), resolved; the chaining
    ``super().__init__`` in ``Turbo`` is found when the budget reaches it."""
    monkeypatch.setattr(callgraph, "HIERARCHY_LOOKUPS", lookups)
    found = [(s.path, s.line, s.confidence)
             for s in constructed.service.find_callers("engine.core.Engine.__init__", repo="fx")]
    assert ("app/build.py", 5, "resolved") in found
    assert ("app/build.py", 6, "resolved") not in found  # Diesel(2) runs Diesel.__init__
    if lookups == 3000:
        assert ("engine/core.py", 8, "resolved") in found


# Forty test classes, each with an attribute holding a Shape (xarray's tests and
# benchmarks: 4,749 class attributes holding a Dataset spent `callers Dataset._replace`'s
# budget on their names' prefixes, and the answer said calls may be missing; a newcomer).
HOLDERS = {
    "shapes/base.py": FILES["shapes/base.py"],
    **{f"tests/test_s{i}.py": f'''\
from shapes.base import Shape


class TestS{i}:
    def setup_method(self):
        self.shape: Shape = Shape()

    def test_area(self):
        assert self.shape.area() == 0
''' for i in range(40)},
}


@pytest.fixture(scope="module")
def holders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("holders"), HOLDERS) as running:
        yield running


def test_class_attributes_holding_an_instance_cost_no_alias_lookups(
        holders: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A class attribute's name is no module's to re-export: its calls are found without
    following aliases of it (its forty names' prefixes, ~160 lookups), and a class's aliases
    are read once per request (three times, ~120 lookups each): 329 lookups in all."""
    monkeypatch.setattr(callgraph, "HIERARCHY_LOOKUPS", 400)
    omitted: dict[str, int] = {}
    found = holders.service.find_callers("Shape.area", repo="fx", omitted=omitted)
    assert sorted((s.path, s.line, s.confidence) for s in found) == [
        (f"tests/test_s{i}.py", 9, "resolved") for i in sorted(range(40), key=str)]
    assert "hierarchy_cut" not in omitted


# A class with sixty methods returning itself (xarray: ~2,000 methods return a Dataset,
# whose own names' prefixes spent `callers Dataset._replace`'s budget; a newcomer).
BUILDERS = {
    "shapes/base.py": "class Shape:\n    def area(self):\n        return 0\n\n"
                      + "".join(f"    def step{i}(self) -> 'Shape':\n        return self\n\n" for i in range(60)),
    "app/use.py": '''\
from shapes.base import Shape


def measure(shape: Shape):
    return shape.step7().area()
''',
}


@pytest.fixture(scope="module")
def builders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("builders"), BUILDERS) as running:
        yield running


@pytest.mark.parametrize("owners", [callgraph.METHOD_OWNERS, 0])
def test_methods_returning_their_class_share_its_aliases(
        builders: Daemon, monkeypatch: pytest.MonkeyPatch, owners: int) -> None:
    """A method's result is named by its class's aliases: one lookup of the class, not
    sixty of its methods' prefixes (``METHOD_OWNERS`` 0: each method by its own name, as
    before, which spends the budget)."""
    monkeypatch.setattr(callgraph, "HIERARCHY_LOOKUPS", 100)
    monkeypatch.setattr(callgraph, "METHOD_OWNERS", owners)
    omitted: dict[str, int] = {}
    found = builders.service.find_callers("Shape.area", repo="fx", omitted=omitted)
    assert [(s.path, s.line, s.confidence) for s in found] == [("app/use.py", 5, "resolved")]
    assert ("hierarchy_cut" in omitted) is (owners == 0)
