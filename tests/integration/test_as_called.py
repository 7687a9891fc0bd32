"""A dotted name as code writes it through an import's local name (``import xarray as
xr``: ``xr.concat``) names what those calls resolve to, in ``symbols``, ``callers`` and
``card`` (a newcomer: ``callers xr.concat`` listed every ``concat`` of five languages as
name-only, ``symbols xr.Dataset`` found nothing). Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "pkg/__init__.py": "from pkg.core import merge, Box\n",
    "pkg/core.py": '''\
def merge(items):
    return list(items)


class Box:
    def open(self):
        return 1
''',
    "app/use.py": '''\
import pkg as pk
from pkg.core import merge as join_all


def run():
    box = pk.Box()
    first = pk.merge([box.open()])
    return first + join_all([])
''',
    "app/boxes.py": '''\
from pkg.core import Box


class Crate:
    def merge(self, other):
        return other


class Pallet(Crate):
    def load(self):
        return self.merge(Box()) and self.merge(Crate())


class Shelf(Box):
    def fill(self):
        return self.open() and self.open()
''',
    "other/util.py": "def merge(items):\n    return items\n",
    "app/one.py": "from pkg import core as kit\n\n\ndef go():\n    return kit.merge([1])\n",
    "app/two.py": "from other import util as kit\n\n\ndef go():\n    return kit.merge([2])\n",
    "web/merge.js": '''\
function combine(a, b) {
  return a.merge(b);
}
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("as_called"), FILES) as running:
        yield running


def test_a_local_import_name_finds_the_definition_its_calls_resolve_to(daemon: Daemon) -> None:
    found = daemon.service.find_symbols("pk.merge", repo="fx")
    assert [(h.path, h.qualified_name, h.match) for h in found] == [("pkg/core.py", "merge", "as_called")]
    assert [(h.path, h.qualified_name) for h in daemon.service.find_symbols("pk.Box", repo="fx")] == [
        ("pkg/core.py", "Box")]
    sites = daemon.service.find_callers("pk.merge", repo="fx")
    # the JavaScript `a.merge(b)` is no call of it
    assert [(s.path, s.line, s.confidence) for s in sites] == [("app/one.py", 5, "resolved"),
                                                               ("app/use.py", 7, "resolved"),
                                                               ("app/use.py", 8, "resolved")]
    # one name two files bind to two functions: no one of them
    assert daemon.service.find_symbols("kit.merge", repo="fx") == []
    # a bare local name an import binds
    assert [(h.path, h.qualified_name, h.match) for h in daemon.service.find_symbols("join_all", repo="fx")] == [
        ("pkg/core.py", "merge", "as_called")]
    assert [(s.path, s.line) for s in daemon.service.find_callers("join_all", repo="fx")] == [
        ("app/one.py", 5), ("app/use.py", 7), ("app/use.py", 8)]
    assert daemon.service.get_card("pk.merge", repo="fx").qualified_name == "merge"
    assert daemon.service.find_symbols("pk.nothing", repo="fx") == []
    # a name on the object a method runs on is no import's (a review: `self.get` answered
    # one class's method, `self._replace` one of four classes'): the calls of the name
    assert daemon.service.find_symbols("self.open", repo="fx") == []
    rows = daemon.service.find_callers("self.merge", repo="fx")
    assert [(s.path, s.line, s.confidence) for s in rows] == [
        ("app/boxes.py", 11, "name_only"), ("app/boxes.py", 11, "name_only"),
        ("app/one.py", 5, "name_only"), ("app/two.py", 5, "name_only"),
        ("app/use.py", 7, "name_only"), ("web/merge.js", 2, "name_only")]
