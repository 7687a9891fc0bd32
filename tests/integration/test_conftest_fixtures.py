"""A pytest test's parameter is the value of a fixture a ``conftest.py`` defines: click's
386 ``runner.invoke(..)`` calls on its conftest's ``runner`` (``return CliRunner()``) were
name-only callers of ``CliRunner.invoke``, so ``--resolved`` and ``impact`` showed 75 of
its 461 callers. The index names such a receiver ``conftest.<fixture>()``
(``receivers.CONFTEST``) and the conftest's fixture stores the class it produces
(``returns``), read at query time; nested directories' conftests, a fixture returning a
name it bound (flask's ``app = Flask(..)`` .. ``return app``) and a class re-exported by
its package count too; pytest's own fixtures (``tmp_path``) and an untyped one stay
name-only candidates.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed
from coderecalld.store import StoreFilter

FILES = {
    "src/cli/__init__.py": "from cli.testing import Runner\n",
    "src/cli/testing.py": '''class Runner:
    def invoke(self, command):
        return command


class URL:
    def copy_with(self, path):
        return path


class App:
    @property
    def url(self) -> URL:
        return URL()

    def route(self, rule):
        return rule

    def test_client(self):
        return Runner()


class Other:
    def invoke(self, command):
        return None
''',
    "tests/conftest.py": '''import typing

import pytest

from cli import Runner
from cli.testing import App


@pytest.fixture
def runner():
    return Runner()


@pytest.fixture
def app():
    app = App()
    app.route("/")
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def served() -> typing.Iterator[App]:
    app = App()
    yield from serve(app)
''',
    "tests/test_basic.py": '''def test_invoke(runner, tmp_path):
    runner.invoke("x")
    tmp_path.invoke("y")


class TestApp:
    def test_route(self, app, client):
        app.route("/a")
        client.invoke("z")

    def test_served(self, served):
        served.route("/b")
        served.url.copy_with("/c")
        served.other.copy_with("/d")


def helper(runner):
    runner.invoke("not a test")
''',
    "tests/nested/conftest.py": '''import pytest

from cli.testing import Other


@pytest.fixture
def other():
    return Other()
''',
    "tests/nested/test_deep.py": '''def test_deep(runner, other):
    runner.invoke("a")
    other.invoke("b")
''',
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("conftest"), FILES) as d:
        yield d


def test_a_conftest_fixtures_value_types_the_calls_on_it(running: Daemon) -> None:
    # the root tests/ conftest's `runner` (a class the package re-exports) reaches nested
    # tests too; `tmp_path` (pytest's), `client` (of no stated class) and a helper's
    # parameter (no test, no fixture) stay candidates
    assert caller_rows(running, "Runner.invoke") == [
        ("tests/nested/test_deep.py", 2, "test_deep", "resolved"),
        ("tests/test_basic.py", 2, "test_invoke", "resolved"),
        ("tests/test_basic.py", 3, "test_invoke", "name_only"),
        ("tests/test_basic.py", 9, "TestApp.test_route", "name_only"),
        ("tests/test_basic.py", 18, "helper", "name_only"),
    ]
    # a fixture's value is no candidate of another class's method of the name
    assert caller_rows(running, "Other.invoke") == [
        ("tests/nested/test_deep.py", 3, "test_deep", "resolved"),
        ("tests/test_basic.py", 3, "test_invoke", "name_only"),
        ("tests/test_basic.py", 9, "TestApp.test_route", "name_only"),
        ("tests/test_basic.py", 18, "helper", "name_only"),
    ]


def test_a_fixture_returning_a_name_it_bound_types_its_value(running: Daemon) -> None:
    assert caller_rows(running, "App.route") == [
        ("tests/conftest.py", 17, "app", "resolved"),
        ("tests/test_basic.py", 8, "TestApp.test_route", "resolved"),
        # a generator fixture's value is what it yields: `-> Iterator[App]` (httpx's `server`)
        ("tests/test_basic.py", 12, "TestApp.test_served", "resolved"),
    ]


def test_a_property_of_a_fixtures_value_types_its_calls(running: Daemon) -> None:
    """httpx's 18 ``server.url.copy_with(..)`` (``url``: a property of its conftest's
    ``TestServer``, ``-> httpx.URL``) were name-only callers of ``URL.copy_with``; a plain
    attribute of no stated type stays a candidate."""
    assert caller_rows(running, "URL.copy_with") == [
        ("tests/test_basic.py", 13, "TestApp.test_served", "resolved"),
        ("tests/test_basic.py", 14, "TestApp.test_served", "name_only")]


def test_a_conftests_fixtures_store_their_class(running: Daemon) -> None:
    found = {str(h.payload["fq_name"]): h.payload.get("returns", "")
             for h in running.store.find_any(StoreFilter(repo="fx"), "kind", ["function"],
                                             limit=50, fields=("fq_name", "returns"))}
    assert found == {
        "tests.conftest.runner": "cli.Runner",
        "tests.conftest.app": "cli.testing.App",
        "tests.conftest.client": "",
        "tests.conftest.served": "cli.testing.App",
        "tests.nested.conftest.other": "cli.testing.Other",
        "tests.test_basic.test_invoke": "",
        "tests.test_basic.helper": "",
        "tests.nested.test_deep.test_deep": "",
    }


def test_callees_name_a_fixtures_class_method(running: Daemon) -> None:
    """``callees`` listed ``conftest.runner().invoke`` as resolved: the fixture's class's
    method it is, and pytest's own fixture's or an untyped one's call is name-only."""
    got = [(h.callee, h.target, h.confidence) for h in running.service.find_callees("test_invoke", repo="fx")]
    assert got == [("runner.invoke", "cli.Runner.invoke", "resolved"), ("tmp_path.invoke", "", "name_only")]
