"""Calling a module's instance of a class runs the class's ``__call__``, also through an
import and a package's re-export: pytest's ``fail: _Fail = _Fail()`` is called as
``fail(..)`` after ``from _pytest.outcomes import fail`` and as ``pytest.fail(..)``;
``callers _Fail.__call__`` listed none of the 60 calls and ``callers pytest.fail``
answered them as name-only calls of the name (a newcomer). Real git fixture, real
embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "tool/__init__.py": "from .outcomes import fail as fail\n",
    "tool/outcomes.py": '''\
class _Fail:
    def __call__(self, reason=""):
        raise RuntimeError(reason)


class _Other:
    def __call__(self, reason=""):
        return reason


fail: _Fail = _Fail()
other = _Other()
''',
    "tool/runner.py": '''\
from .outcomes import fail, other


def run(ok):
    if not ok:
        fail("not ok")
    other("fine")
''',
    "app.py": '''\
import tool


def check(x):
    if x is None:
        tool.fail("none")
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("callable"), FILES) as running:
        yield running


@pytest.mark.parametrize("name", ["tool.outcomes._Fail.__call__", "tool.fail", "tool.outcomes.fail"])
def test_calling_a_modules_instance_calls_its_class(daemon: Daemon, name: str) -> None:
    found = [(s.path, s.line, s.confidence) for s in daemon.service.find_callers(name, repo="fx")]
    assert found == [("app.py", 6, "resolved"), ("tool/runner.py", 6, "resolved")]


ATTRIBUTES = {
    "plot/__init__.py": "",
    "plot/base.py": '''\
"""Semantic mappings and the plotter holding them."""
import warnings


class Mapping:
    def __call__(self, key):
        return key


class HueMapping(Mapping):
    pass


class StyleMapping(Mapping):
    pass


class Plotter:
    def map_hue(self):
        mapping = HueMapping()
        self._hue_map = mapping

    def map_style(self):
        self._style_map = StyleMapping()
''',
    "plot/lines.py": '''\
from plot.base import Plotter


class LinePlotter(Plotter):
    def plot(self):
        self._hue_map("a")
        self._style_map("b")
''',
}


def test_calling_an_instance_a_base_class_attribute_holds(tmp_path_factory: pytest.TempPathFactory) -> None:
    """seaborn's ``self._hue_map(..)`` in subclasses in other files (``VectorPlotter``
    binds ``self._hue_map = mapping`` of a ``HueMapping``): none of its 16 calls was a
    caller of ``HueMapping.__call__``, inherited from ``SemanticMapping`` (a newcomer)."""
    with indexed(tmp_path_factory.mktemp("held"), ATTRIBUTES) as d:
        hue = [(s.path, s.line) for s in d.service.find_callers("plot.base.HueMapping.__call__", repo="fx")]
        style = [(s.path, s.line) for s in d.service.find_callers("plot.base.StyleMapping.__call__", repo="fx")]
    assert hue == [("plot/lines.py", 6)]
    assert style == [("plot/lines.py", 7)]
