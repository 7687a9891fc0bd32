"""Method calls resolved through receiver types and inheritance, across files and repos.

Repo ``fw`` defines ``Scaffold.route`` <- ``App`` (own ``register``) <- ``Flask`` in another
file, re-exported by the package; ``BaseAdapter.send`` (abstract) <- ``HTTPAdapter.send``
(override); ``Session`` uses an adapter typed by ``get_adapter``'s return annotation. Repo
``app`` builds a ``Flask`` and calls its inherited methods, and calls an unrelated
``sock.send``. Each construct is asserted by exact (path, line, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, daemon
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo

SCAFFOLD = '''class Scaffold:
    def route(self, rule):
        return rule

    def errorhandler(self, code):
        return code
'''
APP = '''from .scaffold import Scaffold


class App(Scaffold):
    def register(self, bp):
        return bp

    def errorhandler(self, code):
        return super().errorhandler(code)
'''
FLASK = '''from .sansio import App


class Flask(App):
    def run(self):
        self.route("/")
'''
INIT = "from .flask import Flask\nfrom .sansio import App\nfrom .globals import current_app\n"
GLOBALS = '''from .flask import Flask
from .proxy import LocalProxy

current_app: Flask = LocalProxy()
'''
STATE = '''from .flask import Flask


class SetupState:
    def __init__(self, app: Flask):
        self.app = app

    def add(self):
        self.app.register(self)
'''
SANSIO = "from .app import App\n"
ADAPTERS = '''class BaseAdapter:
    def send(self, request):
        raise NotImplementedError


class HTTPAdapter(BaseAdapter):
    def send(self, request):
        return request
'''
SESSIONS = '''from .adapters import BaseAdapter, HTTPAdapter


class Session:
    def __init__(self):
        self.http = HTTPAdapter()

    def get_adapter(self, url) -> BaseAdapter:
        return HTTPAdapter()

    def send(self, request):
        adapter = self.get_adapter(request)
        adapter.send(request)
        self.http.send(request)
        with Session() as s:
            s.send(request)
'''
USER = '''import socket

from fw import Flask, current_app
from fw.state import SetupState


def make(sock: socket.socket):
    app = Flask()
    app.register(1)
    app.route("/x")
    sock.send(b"x")


def configure(app: Flask, other):
    app.errorhandler(404)
    other.route("/y")
    current_app.register(2)


def view(state: SetupState):
    state.app.register(3)
    state.missing.register(4)
'''


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("methods")
    fw = GitRepo(tmp / "fw")
    fw.commit({"fw/__init__.py": INIT, "fw/flask.py": FLASK, "fw/sansio/__init__.py": SANSIO,
               "fw/sansio/app.py": APP, "fw/sansio/scaffold.py": SCAFFOLD,
               "fw/adapters.py": ADAPTERS, "fw/sessions.py": SESSIONS,
               "fw/globals.py": GLOBALS, "fw/state.py": STATE})
    app = GitRepo(tmp / "app")
    app.commit({"user/main.py": USER})
    with daemon(tmp, RepoConfig("fw", str(fw.path)), RepoConfig("app", str(app.path))) as d:
        for name in ("fw", "app"):
            d.pipeline.index_repo(d.cfg.repo(name), with_dense=False)
        yield d


def _sites(d: Daemon, name: str) -> list[tuple[str, int, str]]:
    return [(s.path, s.line, s.confidence) for s in d.service.find_callers(name, limit=500)]


def test_constructor_assigned_local_in_another_repo_reaches_the_inherited_method(running: Daemon) -> None:
    # Also through a module-level variable annotated in another file (re-exported by the
    # package), through `self.app = app` (an annotated parameter of __init__), and through
    # that attribute from another repo (`state.app`); `state.missing` has no known type.
    assert _sites(running, "App.register") == [
        ("user/main.py", 9, "inherited"), ("user/main.py", 17, "inherited"), ("user/main.py", 21, "inherited"),
        ("fw/state.py", 9, "inherited"), ("user/main.py", 22, "name_only")]
    # Two levels up (Flask -> App -> Scaffold), and self inside the subclass; `other` is untyped.
    assert _sites(running, "Scaffold.route") == [
        ("user/main.py", 10, "inherited"), ("fw/flask.py", 6, "inherited"), ("user/main.py", 16, "name_only")]
    # Asked by a class that only inherits it: the definition it inherits, as a language
    # server answers (not every `.route` call by name); a name no class has stays unknown.
    assert _sites(running, "Flask.route") == _sites(running, "Scaffold.route")
    assert _sites(running, "App.route") == _sites(running, "Scaffold.route")
    assert [c for _, _, c in _sites(running, "NoSuchClass.route")] == ["name_only"] * 3


def test_annotated_parameter_and_override_labels(running: Daemon) -> None:
    # `app: Flask` -> Flask inherits App.errorhandler (which overrides Scaffold's).
    # The super() call in App.errorhandler runs Scaffold's method, never App's override: no
    # caller of it (it was listed as an `override` candidate; a marshmallow newcomer saw
    # three such sibling super() calls listed for `Integer._validated`).
    assert _sites(running, "App.errorhandler") == [("user/main.py", 15, "inherited")]
    # super().errorhandler in App is a resolved call of Scaffold's; the Flask call may dispatch to it.
    assert _sites(running, "Scaffold.errorhandler") == [("fw/sansio/app.py", 9, "resolved")]


def test_return_annotation_init_attribute_and_with(running: Daemon) -> None:
    # adapter = self.get_adapter(...) -> BaseAdapter: a resolved call of the abstract method,
    # an `override` candidate of HTTPAdapter.send; self.http (set in __init__) is an HTTPAdapter.
    assert _sites(running, "BaseAdapter.send") == [("fw/sessions.py", 13, "resolved")]
    assert _sites(running, "HTTPAdapter.send") == [
        ("fw/sessions.py", 14, "resolved"), ("fw/sessions.py", 13, "override")]
    # `with Session() as s`: s.send is Session.send, never an adapter's.
    assert _sites(running, "Session.send") == [("fw/sessions.py", 16, "resolved")]


def test_a_call_on_a_known_other_type_is_left_out(running: Daemon) -> None:
    """``sock.send`` (``sock: socket.socket``) is no call of ``HTTPAdapter.send``: not even
    name-only; the answer counts it among the omitted."""
    omitted: dict[str, int] = {}
    found = running.service.find_callers("HTTPAdapter.send", limit=500, omitted=omitted)
    assert ("user/main.py", 11) not in {(s.path, s.line) for s in found}
    # socket.send, Session.send (s.send) and HTTPAdapter.send's own self-typed call are other types.
    assert omitted == {"other_type": 2}


def test_card_lists_inherited_methods_in_resolution_order(running: Daemon) -> None:
    card = running.service.get_card("fw.flask.Flask", budget_tokens=4000)
    assert card.methods == ("def run(self)", "def register(self, bp)  # from App",
                            "def errorhandler(self, code)  # from App", "def route(self, rule)  # from Scaffold")
    assert [(c.path, c.line, c.confidence) for c in running.service.get_card("HTTPAdapter.send").callers] == [
        ("fw/sessions.py", 14, "resolved"), ("fw/sessions.py", 13, "override")]


def test_callees_use_the_same_resolution(running: Daemon) -> None:
    """FindCallees: a call through another repo's class attribute names it as receiver,
    resolved only by the query side, so it is listed by name."""
    got = [(s.callee, s.target, s.confidence) for s in running.service.find_callees("user.main.view")]
    assert got == [("state.app.register", "fw.state.SetupState.app.register", "name_only"),
                   ("state.missing.register", "fw.state.SetupState.missing.register", "name_only")]
    assert [(s.callee, s.target, s.confidence) for s in running.service.find_callees("user.main.configure")] == [
        ("app.errorhandler", "fw.Flask.errorhandler", "resolved"), ("other.route", "", "name_only"),
        # a module's instance (`current_app: Flask`): its class's method, a name `symbols`
        # knows (inherited from `App` here)
        ("current_app.register", "fw.flask.Flask.register", "resolved")]
    assert [h.qualified_name for h in running.service.find_symbols("fw.flask.Flask.register")] == ["App.register"]


def test_too_many_methods_of_the_name_leave_nothing_out(running: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``HIERARCHY_MAX_METHODS`` definitions no hierarchy is walked: calls on other
    types are name-only candidates again rather than silently dropped."""
    from coderecalld.query import callgraph

    monkeypatch.setattr(callgraph, "HIERARCHY_MAX_METHODS", 0)
    omitted: dict[str, int] = {}
    sites = [(s.path, s.line, s.confidence)
             for s in running.service.find_callers("HTTPAdapter.send", limit=500, omitted=omitted)]
    assert sites[0] == ("fw/sessions.py", 14, "resolved")
    assert ("user/main.py", 11, "name_only") in sites and omitted == {"other_type": 0}
