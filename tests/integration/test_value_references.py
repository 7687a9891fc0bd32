"""A function or method named as a value, not called (a callback passed on, a method
stored in an attribute, a dispatch table's entry), is a ``reference`` of it in ``callers``
(Python): starlette's ``BaseHTTPMiddleware.dispatch``, stored as ``self.dispatch_func =
self.dispatch``, had no callers at all (a newcomer), which reads as dead code.

Each site is asserted by exact (path, line, caller, confidence); a parameter of the same
spelling, a property read and a local's value are no references."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, indexed

MW = '''import threading

from .handlers import on_error


class Middleware:
    def __init__(self, app, dispatch=None):
        self.app = app
        self.dispatch_func = self.dispatch if dispatch is None else dispatch

    def dispatch(self, request):
        return request

    @property
    def name(self):
        return "mw"

    def start(self):
        threading.Thread(target=self.run).start()
        return self.name

    def run(self):
        pass


class Timing(Middleware):
    def __init__(self, app):
        super().__init__(app)
        self.routes = {"err": on_error, "run": self.run}


Hooks = dict[str, list[Middleware]]
'''
HANDLERS = '''def on_error(exc):
    return exc


def register(callback):
    return callback


def install(app, on_error=None):
    register(on_error)


def setup():
    register(on_error)
    on_error(None)
    return [on_error]


def version(text):
    major, on_error = text.split(".")
    return [major, on_error]


class Refused(Exception):
    pass
'''
DECODERS = '''class GZipDecoder:
    def decode(self, data):
        return data


class Child(GZipDecoder):
    def __init__(self):
        super(Child, self).__init__()


SUPPORTED = {"gzip": GZipDecoder}


def check(x):
    return isinstance(x, GZipDecoder) or issubclass(type(x), Child)


CHILDREN = [Child]
'''
ERRORS = '''from pkg import decoders, handlers
from pkg.decoders import Child


class Failed(Exception):
    pass


class Timeout(Failed):
    def __init__(self, message="timed out"):
        super().__init__(message)


def fetch(get):
    try:
        return get()
    except (Failed, KeyError) as exc:
        raise Timeout from exc
    except (Child, decoders.GZipDecoder):
        raise
    except Timeout:
        raise handlers.Refused
    error = Failed()
    raise error
'''
APP = '''from pkg import handlers


def main():
    handlers.register(handlers.on_error)
'''


SERVE = '''from pkg import handlers
from pkg.mw import Middleware


def serve(app):
    mw = Middleware(app)
    handlers.register(mw.run)
    other = app.make()
    handlers.register(other.run)
    return mw.name
'''


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("references"), {"pkg/__init__.py": "", "pkg/mw.py": MW, "pkg/handlers.py": HANDLERS, "app.py": APP,
                 "pkg/decoders.py": DECODERS, "pkg/errors.py": ERRORS, "pkg/serve.py": SERVE}) as d:
        yield d


def _sites(d: Daemon, name: str) -> list[tuple[str, int, str, str]]:
    return [(s.path, s.line, s.caller, s.confidence) for s in d.service.find_callers(name, limit=500)]


def test_a_method_stored_in_an_attribute_is_a_reference_of_it(running: Daemon) -> None:
    assert _sites(running, "Middleware.dispatch") == [("pkg/mw.py", 9, "Middleware.__init__", "reference")]


def test_a_method_passed_as_an_argument_or_listed_is_a_reference(running: Daemon) -> None:
    # `target=self.run` in Middleware, and a dict value in a subclass (the base's method);
    # `mw.run` of a local constructed as a Middleware (uvicorn's `target=server.run`: a
    # newcomer), not `other.run` of a local of unknown type
    assert _sites(running, "Middleware.run") == [
        ("pkg/mw.py", 19, "Middleware.start", "reference"), ("pkg/mw.py", 29, "Timing.__init__", "reference"),
        ("pkg/serve.py", 7, "serve", "reference")]


def test_calls_come_before_references_and_shadowing_parameters_are_none(running: Daemon) -> None:
    # install's `on_error` is its parameter: no reference of the module's function
    assert _sites(running, "on_error") == [
        ("pkg/handlers.py", 15, "setup", "resolved"),
        ("app.py", 5, "main", "reference"),  # through the imported module
        ("pkg/handlers.py", 14, "setup", "reference"),
        ("pkg/handlers.py", 16, "setup", "reference"),  # listed in a return value
        ("pkg/mw.py", 29, "Timing.__init__", "reference"),  # imported, a dict value
    ]


def test_a_property_read_and_a_callees_answer_hold_no_reference(running: Daemon) -> None:
    assert _sites(running, "Middleware.name") == []
    # callees are calls: `self.run` handed to the thread is not one
    assert [s.callee for s in running.service.find_callees("Middleware.start")] == [
        "start", "threading.Thread"]  # the chain's outer call first (it starts first)


def test_impact_follows_a_reference_to_the_function_holding_it(running: Daemon) -> None:
    found = running.service.analyze_impact("Middleware.dispatch")
    assert [(n.site.caller, n.site.confidence) for n in found.callers] == [("Middleware.__init__", "reference")]


def test_a_class_in_a_dispatch_table_is_a_reference_and_super_names_none(running: Daemon) -> None:
    # httpx's `SUPPORTED_DECODERS = {"gzip": GZipDecoder}`: its decoders had no callers
    # `isinstance(x, GZipDecoder)` and `super(Child, self)` are none
    assert _sites(running, "GZipDecoder") == [("pkg/decoders.py", 11, "", "reference")]
    assert _sites(running, "Child") == [("pkg/decoders.py", 18, "", "reference")]
    # a value naming the class constructs nothing: no caller of its constructor (flask's
    # `isinstance(.., AppContext)` were "callers" of `AppContext.__init__`, and impact's)
    assert _sites(running, "Child.__init__") == []


def test_a_local_of_the_spelling_and_a_type_expression_name_none(running: Daemon) -> None:
    """requests' ``major, minor, patch = ..`` were references of the imported ``api.patch``;
    ``Callable[[PreparedRequest], ..]`` one of ``PreparedRequest`` (a type, no value)."""
    assert [row for row in _sites(running, "on_error") if row[2] == "version"] == []
    assert _sites(running, "Middleware") == [("pkg/serve.py", 6, "serve", "resolved")]  # constructed, only


def test_raising_a_class_constructs_it_and_an_except_clause_names_none(running: Daemon) -> None:
    """``raise Timeout from exc`` calls ``Timeout`` (Python makes the instance): its
    constructor's caller, as ``Timeout()`` would be; ``except (Child, ..):``'s classes are
    type tests (a requests audit: references of every class an ``except`` tuple named),
    and ``raise error`` raises an instance made already (no call of ``error``)."""
    assert _sites(running, "Timeout.__init__") == [("pkg/errors.py", 18, "fetch", "resolved")]
    assert _sites(running, "Failed") == [("pkg/errors.py", 23, "fetch", "resolved")]
    assert _sites(running, "Refused") == [("pkg/errors.py", 22, "fetch", "resolved")]  # a module's class
    assert _sites(running, "Child") == [("pkg/decoders.py", 18, "", "reference")]  # its own file's only
    assert _sites(running, "GZipDecoder") == [("pkg/decoders.py", 11, "", "reference")]
    assert [s.callee for s in running.service.find_callees("fetch")] == [
        "get", "Timeout", "handlers.Refused", "Failed"]
