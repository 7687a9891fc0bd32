"""``callers`` of a method called on receivers whose type the source declares, end to end
(two newcomers compared ``callers NAME --json`` with grep): pypa/packaging's
``Pylock.select`` loops over dataclass fields ``environments: Sequence[Marker] | None`` and
``packages: Sequence[Package]`` (``Package.marker: Marker | None``), and its tests call
``req.marker.evaluate()`` on ``self.marker: Marker | None = None`` that ``__init__``
reassigns; arrow's ``ArrowFactory`` declares ``type: Type[Arrow]`` and calls
``self.type.fromdatetime(..)``, ``Arrow.range`` calls ``cls(..).shift(..)`` and
``Arrow.span`` ``floor.shift(..)`` of ``floor = self.__class__(..)``. All were name-only,
so ``callers --resolved`` lost the only production callers.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/markers.py": '''class Marker:
    def evaluate(self, environment=None):
        return True
''',
    "src/pkg/lock.py": '''from dataclasses import dataclass
from typing import Sequence

from pkg.markers import Marker


@dataclass
class Package:
    name: str
    marker: Marker | None = None


@dataclass
class Pylock:
    environments: Sequence[Marker] | None = None
    packages: Sequence[Package] = ()

    def select(self, env):
        if self.environments is not None:
            for env_marker in self.environments:
                if env_marker.evaluate(env):
                    break
        for index, package in enumerate(self.packages):
            if package.marker and not package.marker.evaluate(env):
                continue
''',
    "src/pkg/requirements.py": '''from pkg.markers import Marker


class Requirement:
    def __init__(self, text):
        self.marker: Marker | None = None
        if text:
            self.marker = Marker.__new__(Marker)
''',
    "tests/test_requirements.py": '''from pkg.requirements import Requirement


def test_marker():
    req = Requirement("x")
    assert req.marker.evaluate() is False


class Suite:
    def setup(self):
        self.markers = []

    def time_evaluate(self):
        for m in self.markers:
            m.evaluate()
''',
    "src/pkg/arrow.py": '''class Arrow:
    @classmethod
    def fromdatetime(cls, dt):
        return cls(dt)

    @classmethod
    def range(cls, frame, start, limit):
        current = cls.fromdatetime(start)
        while limit:
            yield current
            values = [getattr(current, f) for f in cls._ATTRS]
            current = cls(*values, tzinfo=None).shift(  # type: ignore[misc]
                check_imaginary=True, **{frame: 1}
            )

    def span(self, frame):
        floor = self
        if frame:
            floor = self.__class__(2013, 1, 1, tzinfo=self.tzinfo)  # type: ignore[misc]
            if frame == "week":
                floor = floor.shift(days=-1)
            elif frame == "quarter":
                floor = floor.shift(months=-1)
        return floor

    def shift(self, **kwargs) -> "Arrow":
        return self
''',
    "src/pkg/factory.py": '''from typing import Type

from pkg.arrow import Arrow


class ArrowFactory:
    type: Type[Arrow]

    def __init__(self, type: Type[Arrow] = Arrow) -> None:
        self.type = type

    def get(self, dt):
        return self.type.fromdatetime(dt)
''',
    "src/pkg/api.py": '''from pkg.factory import ArrowFactory


def get(factory: ArrowFactory, dt):
    return factory.type.fromdatetime(dt)
''',
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("declared"), FILES) as d:
        yield d


def test_loops_over_declared_fields_and_an_annotated_attribute(running: Daemon) -> None:
    assert caller_rows(running, "Marker.evaluate") == [
        ("src/pkg/lock.py", 21, "Pylock.select", "resolved"),  # for env_marker in self.environments
        ("src/pkg/lock.py", 24, "Pylock.select", "resolved"),  # package.marker of a Sequence[Package]
        ("tests/test_requirements.py", 6, "test_marker", "resolved"),  # self.marker: Marker | None
        ("tests/test_requirements.py", 15, "Suite.time_evaluate", "name_only"),  # an untyped list
    ]


def test_a_class_attribute_and_own_constructions(running: Daemon) -> None:
    assert caller_rows(running, "Arrow.fromdatetime") == [
        ("src/pkg/api.py", 5, "get", "resolved"),  # another file's `ArrowFactory.type`
        ("src/pkg/arrow.py", 8, "Arrow.range", "resolved"),
        ("src/pkg/factory.py", 13, "ArrowFactory.get", "resolved"),  # type: Type[Arrow]
    ]
    assert caller_rows(running, "Arrow.shift") == [
        ("src/pkg/arrow.py", 12, "Arrow.range", "resolved"),  # cls(..).shift(..)
        ("src/pkg/arrow.py", 21, "Arrow.span", "resolved"),  # floor = self.__class__(..)
        ("src/pkg/arrow.py", 23, "Arrow.span", "resolved"),
    ]
