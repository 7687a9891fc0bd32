"""A name a question writes as code (``how does `sort_by` order entries``) is placed as
the definition of the role the question asks for: a test function spelled exactly so does
not hide the source method (walkdir: the test ``fn sort_by`` came before
``WalkDir::sort_by``, the qualified name as written winning over role)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "src/walk.py": '''\
class WalkDir:
    """A recursive directory walk."""

    def sort_by(self, compare):
        """Entries of each directory in the order compare gives."""
        self.sorter = compare
        return self
''',
    # words of the question, no definition of the name: they lead the page
    "src/order.py": '''\
def order_entries(entries):
    """How entries order: entries in order, the order of entries."""
    return sorted(entries)


def entries_order(entries):
    """Order entries: how does the order of entries go."""
    return list(reversed(entries))


def does_order(entries):
    """How does order go for entries."""
    return entries
''',
    "tests/test_walk.py": '''\
def sort_by():
    """entries in order"""
    return sorted(["b", "a"])
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("named"), FILES) as d:
        yield d


def test_a_named_name_is_the_source_definition_before_a_tests(daemon: Daemon) -> None:
    hits = [(h.path, h.qualified_name, h.match) for h in
            daemon.service.search("how does `sort_by` order entries", limit=3, repo="fx")]
    # the source method holds the name: no test's definition is placed among the first
    assert hits == [("src/walk.py", "WalkDir.sort_by", "hybrid"), ("src/order.py", "order_entries", "hybrid"),
                    ("src/order.py", "entries_order", "hybrid")]
    # a question asking for tests gets the test's
    tests = daemon.service.search("tests for `sort_by`", limit=3, repo="fx")
    assert (tests[0].path, tests[0].qualified_name) == ("tests/test_walk.py", "sort_by")
