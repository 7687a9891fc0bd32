"""A call on a module-level value of another class is that class's, also when the asked
method's class hierarchy is too big to walk within a request's lookups: Django's
``router = ConnectionRouter()`` made 23 ``router.allow_migrate_model(..)`` calls name-only
callers of ``Operation.allow_migrate_model`` (a newcomer: forty operation subclasses spent
the walk). The value's class is walked up instead, on a budget of its own. End to end on a
real git fixture and the real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import callgraph
from conformance_cases import indexed

FILES = {
    "pkg/db.py": '''\
class Router:
    def allow(self, model):
        return True


router = Router()
''',
    "pkg/ops.py": '''\
class Operation:
    def allow(self, model):
        return False


class AddField(Operation):
    def forwards(self, model):
        return self.allow(model)


default_op = AddField()
''',
    "pkg/use.py": '''\
from pkg.db import router
from pkg.ops import default_op


def migrate(model):
    if router.allow(model):
        return default_op.allow(model)
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("values_cut"), FILES) as running:
        yield running


def _callers(daemon: Daemon, lookups: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list, dict]:
    omitted: dict[str, int] = {}
    with monkeypatch.context() as m:
        m.setattr(callgraph, "HIERARCHY_LOOKUPS", lookups)
        page = daemon.service.find_callers("Operation.allow", repo="fx", omitted=omitted)
    return sorted((c.path, c.line, c.confidence) for c in page), omitted


def test_a_module_value_of_another_class_is_another_type_under_a_cut_walk(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    whole, omitted = _callers(daemon, callgraph.HIERARCHY_LOOKUPS, monkeypatch)
    assert "hierarchy_cut" not in omitted
    # router.allow: a Router, which Operation is not above; default_op.allow: an AddField
    assert whole == [("pkg/ops.py", 8, "resolved"), ("pkg/use.py", 7, "inherited")]
    assert omitted["other_type"] == 1
    cut, omitted = _callers(daemon, 1, monkeypatch)  # the walk is spent at once
    assert omitted.get("hierarchy_cut") == 1
    # the same, the walk spent: default_op.allow stays a candidate, router.allow another type's
    assert cut == [("pkg/ops.py", 8, "resolved"), ("pkg/use.py", 7, "name_only")]
    assert omitted["other_type"] == 1
