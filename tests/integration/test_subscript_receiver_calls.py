"""``callers`` of methods called on items of declared containers, end to end: black's
``self._release_ranges[-1].tokens.append(..)`` (``_release_ranges: list[ReleaseRange]``,
``tokens: list[Any]``) and ``self.magics[lineno].append(..)`` (``dict[int, list[..]]``)
were name-only callers of ``Line.append`` (a Python-callers trial against jedi, session
37), and an item's own method called as ``self.routes[0].matches(..)`` was name-only.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/lines.py": '''class Line:
    def append(self, leaf):
        return leaf
''',
    "src/pkg/routes.py": '''class Route:
    def matches(self, scope):
        return True
''',
    "src/pkg/driver.py": '''from dataclasses import dataclass, field
from typing import Any

from pkg.lines import Line
from pkg.routes import Route


@dataclass
class ReleaseRange:
    start: int
    tokens: list[Any] = field(default_factory=list)


class TokenProxy:
    def __init__(self) -> None:
        self._release_ranges: list[ReleaseRange] = []
        self.magics: dict[int, list[str]] = {}
        self.lines: list[Line] = []
        self.routes: list[Route] = []

    def eat(self, token, lineno):
        self._release_ranges[-1].tokens.append(token)
        self.magics[lineno].append(token)
        self.lines[-1].append(token)
        return self.routes[0].matches(token)

    def other(self, unknown, token):
        unknown[0].append(token)
''',
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("subscripts"), FILES) as d:
        yield d


def test_items_of_declared_containers(running: Daemon) -> None:
    assert caller_rows(running, "Line.append") == [
        ("src/pkg/driver.py", 24, "TokenProxy.eat", "resolved"),  # list[Line] item
        ("src/pkg/driver.py", 28, "TokenProxy.other", "name_only"),  # an untyped parameter's item
    ]
    assert caller_rows(running, "Route.matches") == [
        ("src/pkg/driver.py", 25, "TokenProxy.eat", "resolved"),
    ]
