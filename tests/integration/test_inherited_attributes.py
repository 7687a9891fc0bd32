"""A class attribute declared with its type in one file (pytest's ``Node``: ``self.config:
Config = config``) is every subclass's, in any file: ``item.config.getoption(..)`` on an
``Item`` and a ``Session``'s own ``self.config.getoption(..)`` in ``main.py`` were 9 of
``Config.getoption``'s 14 name-only callers (a newcomer). Real git fixture, real embedded
store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "pt/__init__.py": "",
    "pt/config.py": '''\
class Config:
    def getoption(self, name):
        return name


class Other:
    def getoption(self, name):
        return None
''',
    "pt/nodes.py": '''\
from .config import Config


class Node:
    def __init__(self, config: Config):
        self.config: Config = config


class Item(Node):
    def run(self):
        return self.config.getoption("run")
''',
    "pt/main.py": '''\
from . import nodes


class Session(nodes.Node):
    def perform(self):
        return self.config.getoption("keep")


class Local:
    def __init__(self, config):
        self.config = config

    def run(self):
        return self.config.getoption("x")
''',
    "pt/other.py": '''\
from .config import Other
from .nodes import Node


class Redeclared(Node):
    config: Other

    def run(self):
        return self.config.getoption("other")


class Rebound(Node):
    def __init__(self):
        self.config = Other()

    def run(self):
        return self.config.getoption("rebound")
''',
    "pt/runner.py": '''\
from .nodes import Item
from .main import Session
from .other import Redeclared


def protocol(item: Item, session: Session):
    item.config.getoption("setuponly")
    return session.config.getoption("stepwise")


def extra(node: Redeclared):
    return node.config.getoption("x")
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("heirs"), FILES) as running:
        yield running


def test_an_attribute_a_base_declares_is_its_subclasses(daemon: Daemon) -> None:
    omitted: dict[str, int] = {}
    found = [(s.path, s.line, s.confidence) for s in daemon.service.find_callers(
        "pt.config.Config.getoption", repo="fx", omitted=omitted)]
    # `Local` binds its own `config` to an untyped parameter: a candidate; `Redeclared`
    # and `Rebound` declare theirs as another class (a review): another type's calls, also
    # from another file (`node.config` of a `Redeclared`: its file declares an `Other`)
    assert found == [("pt/main.py", 6, "resolved"), ("pt/nodes.py", 11, "resolved"),
                     ("pt/runner.py", 7, "resolved"), ("pt/runner.py", 8, "resolved"),
                     ("pt/main.py", 14, "name_only")]
    assert omitted["other_type"] == 3
    omitted = {}
    other = [(s.path, s.line, s.confidence) for s in daemon.service.find_callers(
        "pt.config.Other.getoption", repo="fx", omitted=omitted)]
    # an attribute's type is read for the class asked about, not for every other class:
    # calls through another file's attribute stay candidates of a method of its name
    # (``Item``'s own call, typed in its file, is another type's)
    assert other == [("pt/other.py", 9, "resolved"), ("pt/other.py", 17, "resolved"),
                     ("pt/runner.py", 12, "resolved"),
                     ("pt/main.py", 6, "name_only"), ("pt/main.py", 14, "name_only"),
                     ("pt/runner.py", 7, "name_only"), ("pt/runner.py", 8, "name_only")]
    assert omitted["other_type"] == 1
