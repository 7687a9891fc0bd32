"""``callers C.m`` of a class that only inherits ``m`` from a base answers the calls on
``C`` (and its subclasses, and on the base's type), not on its siblings: seaborn's
``callers HueMapping.__call__`` listed 9 calls on a ``StyleMapping`` as inherited (a
newcomer). Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "maps/__init__.py": "",
    "maps/base.py": '''\
class SemanticMapping:
    def lookup(self, key):
        return key


class HueMapping(SemanticMapping):
    pass


class DarkHueMapping(HueMapping):
    pass


class StyleMapping(SemanticMapping):
    pass
''',
    "maps/use.py": '''\
from maps.base import DarkHueMapping, HueMapping, SemanticMapping, StyleMapping


def draw(any_map: SemanticMapping):
    hue = HueMapping()
    dark = DarkHueMapping()
    style = StyleMapping()
    hue.lookup(1)
    dark.lookup(2)
    style.lookup(3)
    any_map.lookup(4)
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("siblings"), FILES) as running:
        yield running


def rows(daemon: Daemon, name: str) -> tuple[list[tuple[int, str]], int]:
    omitted: dict[str, int] = {}
    found = [(s.line, s.confidence) for s in daemon.service.find_callers(name, repo="fx", omitted=omitted)]
    return sorted(found), omitted.get("other_type", 0)


def test_a_class_that_inherits_a_method_is_asked_about_its_own_calls(daemon: Daemon) -> None:
    # the base's own: every call
    assert rows(daemon, "maps.base.SemanticMapping.lookup") == (
        [(8, "inherited"), (9, "inherited"), (10, "inherited"), (11, "resolved")], 0)
    # HueMapping's: its own, its subclass's and the base-typed receiver's; not StyleMapping's
    assert rows(daemon, "maps.base.HueMapping.lookup") == (
        [(8, "inherited"), (9, "inherited"), (11, "resolved")], 1)


def test_a_stub_beside_its_module_is_the_same_class(tmp_path_factory: pytest.TempPathFactory) -> None:
    """matplotlib declares ``Line2D`` in ``lines.py`` and in the stub ``lines.pyi``: two
    definitions of one class, so ``callers Line2D.set_visible`` asked about no class and
    listed its siblings' ``Text`` and ``Collection`` calls (a newcomer)."""
    files = {**FILES, "maps/base.pyi": ("class SemanticMapping:\n    def lookup(self, key: int) -> int: ...\n\n\n"
                                        "class HueMapping(SemanticMapping): ...\n")}
    with indexed(tmp_path_factory.mktemp("stubbed"), files) as running:
        assert rows(running, "HueMapping.lookup") == ([(8, "inherited"), (9, "inherited"), (11, "resolved")], 1)
