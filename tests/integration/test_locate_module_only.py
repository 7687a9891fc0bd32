"""A file ``locate`` ranks by its module chunk alone (its docstring says what the file is
for, its functions' words are the code's) lists its functions by the query's words, not
none: marshmallow's ``class_registry.py`` was located with ``functions: []`` for "how does
a Nested field resolve a schema given by name" (a newcomer). Real git fixture, real
embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "plug/registry.py": '''\
"""Registry of plugin classes by name: plugins are looked up by their registered name,
and a plugin given by name is resolved through this registry of plugin classes."""

_KNOWN = {}


def add(key, kind):
    _KNOWN.setdefault(key, []).append(kind)


def fetch(key, every=False):
    found = _KNOWN[key]
    return found if every else found[-1]
''',
    "plug/loader.py": '''\
def load_all(paths):
    """Import every module of paths."""
    return [__import__(p) for p in paths]
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("moduleonly"), FILES) as running:
        yield running


def test_a_file_found_by_its_module_chunk_lists_its_functions(daemon: Daemon) -> None:
    """By the question's words only the module chunk holds them (the functions' words are
    the code's); the file is located first and lists its functions, in file order (it
    listed none)."""
    question = "plugins looked up by their registered name"
    hits = daemon.service.search(question, limit=5, repo="fx", mode="sparse")
    assert [(h.path, h.kind) for h in hits] == [("plug/registry.py", "module")]
    for mode in ("hybrid", "sparse"):
        (first,) = daemon.service.locate(question, limit=2, repo="fx", mode=mode).files
        assert first.path == "plug/registry.py"
        assert [(f.qualified_name, f.start_line, f.end_line, f.score) for f in first.functions] == [
            ("add", 7, 8, 0.0), ("fetch", 11, 13, 0.0)]
