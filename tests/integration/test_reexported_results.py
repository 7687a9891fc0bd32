"""A call on the result of a function its caller names through a package's re-export
(werkzeug's ``from werkzeug.routing import Map`` then ``Map(..).bind(..).build(..)``,
``bind`` declared ``-> MapAdapter`` in ``werkzeug.routing.map``) is a call on that result's
type: ``callers Rule.build`` listed 104 calls of ``MapAdapter.build`` as name-only
candidates of ``Rule.build`` (a newcomer), while ``callers MapAdapter.build`` resolved
them. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "routing/__init__.py": "from .map import Map as Map\nfrom .rules import Rule as Rule\n",
    "routing/rules.py": '''\
class Rule:
    def build(self, values):
        return "/" + "/".join(values)
''',
    "routing/map.py": '''\
from .rules import Rule


class MapAdapter:
    def __init__(self, rules):
        self.rules = rules

    def build(self, endpoint, values=None):
        return endpoint


class Map:
    def __init__(self, rules):
        self.rules = rules

    def bind(self, host) -> MapAdapter:
        return MapAdapter(self.rules)

    def adapter(self) -> MapAdapter:
        return MapAdapter(self.rules)

    def first(self) -> Rule:
        return self.rules[0]
''',
    "app/__init__.py": "",
    "app/views.py": '''\
from routing import Map


def url_for(endpoint, rule):
    m = Map([])
    urls = m.bind("localhost")
    one = urls.build(endpoint)
    two = m.bind("example.org").build(endpoint)
    three = m.first().build(["a"])
    four = rule.build(["b"])
    return one, two, three, four
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("reexported"), FILES) as running:
        yield running


def test_a_re_exported_functions_result_is_its_declared_type(daemon: Daemon) -> None:
    omitted: dict[str, int] = {}
    rule = [(s.path, s.line, s.confidence) for s in daemon.service.find_callers(
        "routing.rules.Rule.build", repo="fx", omitted=omitted)]
    # `first()` returns a Rule: resolved; `rule` is untyped: a candidate; the two calls on
    # `bind()`'s MapAdapter are another type's, left out
    assert rule == [("app/views.py", 9, "resolved"), ("app/views.py", 10, "name_only")]
    assert omitted["other_type"] == 2
    omitted = {}
    adapter = [(s.path, s.line, s.confidence) for s in daemon.service.find_callers(
        "routing.map.MapAdapter.build", repo="fx", omitted=omitted)]
    assert adapter == [("app/views.py", 7, "resolved"), ("app/views.py", 8, "resolved"),
                       ("app/views.py", 10, "name_only")]
    assert omitted["other_type"] == 1
