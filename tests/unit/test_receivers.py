"""Receiver types of Python method calls (index/receivers.py through index/resolve.py)."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, resolve

SOURCE = b'''from typing import Optional
from .adapters import BaseAdapter, HTTPAdapter
from flask import Flask
from .helpers import _CollectErrors
from . import auth
import socket


class Base:
    def close(self):
        pass


class Session(Base):
    def __init__(self):
        self.adapters = {}
        self.http: HTTPAdapter = make()
        self.pool = Pool()

    def get_adapter(self, url) -> "BaseAdapter":
        return self.adapters[url]

    def send(self, request, sock: socket.socket, name: str):
        adapter = self.get_adapter(url=request.url)
        adapter.send(request)
        self.http.close()
        self.pool.get()
        sock.send(b"x")
        name.split()
        super().close()
        with Session() as s:
            s.close()
        for item in self.adapters.values():
            item.close()
        x = Session()
        x = other()
        x.close()

    @classmethod
    def make(cls):
        inst = cls()
        inst.close()


class Pool:
    def get(self) -> Optional[Session]:
        pass


def create(app: Flask, p: Pool):
    app.register_blueprint(auth.bp)
    q = p.get()
    q.send(1)

    def inner():
        app.run()


app = Flask(__name__)
app.register_blueprint(auth.bp)
current: Flask = make_proxy()


def render(state: State, proxy: BaseAdapter):
    state.app.run()
    app = state.app
    app.run()
    proxy.conn.close()


def merge(jar=None, other=0):
    if jar is None:
        jar = Pool()
    jar.get()
    other = Pool()
    other.get()
    errors = _CollectErrors()
    errors.raise_any()

    def wrapper(self: Pool):
        self.get()


class State:
    def __init__(
        self,
        app: Flask,
    ) -> None:
        self.app = app

        def helper():
            pass

        def outer():
            helper()
        outer()

    def go(self):
        self.app.run()
        current.run()
'''


def chunks_of() -> list:
    path = "pkg/sessions.py"
    parsed = parse.symbols(SOURCE, "python")
    return resolve.chunks(chunk.chunks("r", path, SOURCE, parsed), parsed, path, "pkg.sessions")


def targets() -> dict[str, list[tuple[str, str]]]:
    chunks = chunks_of()
    return {c.qualified_name: [(s.name, s.target) for s in c.call_sites if "." in s.name or s.name == "close"]
            for c in chunks}


def test_each_construct_types_its_receiver() -> None:
    got = targets()
    assert got["Session.send"] == [
        ("self.get_adapter", "pkg.sessions.Session.get_adapter"),
        ("adapter.send", "pkg.adapters.BaseAdapter.send"),  # return annotation, quoted
        ("self.http.close", "pkg.adapters.HTTPAdapter.close"),  # __init__ attribute, annotated
        ("self.pool.get", "pkg.sessions.Pool.get"),  # __init__ attribute, constructor
        ("sock.send", "socket.socket.send"),  # annotated parameter: a known other type
        ("name.split", "builtins.str.split"),
        ("close", "pkg.sessions.Base.close"),  # super().close(): the first base's (same file)
        ("s.close", "pkg.sessions.Base.close"),  # with Session() as s; inherited within the file
        ("self.adapters.values", "builtins.dict.values"),  # a dict literal: a dict
        ("item.close", ""),  # a loop variable: unknown
        ("x.close", ""),  # bound to a Session and to an unknown value: no type
    ]
    assert got["Session.make"] == [("inst.close", "pkg.sessions.Base.close")]  # cls()
    # Annotated parameters (imported class), Optional[...] return one level, closures.
    assert got["create"] == [("app.register_blueprint", "flask.Flask.register_blueprint"),
                             ("p.get", "pkg.sessions.Pool.get"), ("q.send", "pkg.sessions.Session.send")]
    assert got["create.inner"] == [("app.run", "flask.Flask.run")]
    # Module level: an instance of an imported class (resolve._instances).
    assert got["pkg.sessions"] == [("app.register_blueprint", "flask.Flask.register_blueprint")]
    # `self.app = app` takes the parameter's type; a module-level annotation beats its value.
    # `x=None` then `x = C()`; a private CapWords class; an annotated `self` outside a class.
    # `other=0`, then `other = Pool()` right above the call in its block: the Pool reaches it
    assert got["merge"] == [("jar.get", "pkg.sessions.Pool.get"), ("other.get", "pkg.sessions.Pool.get"),
                            ("errors.raise_any", "pkg.helpers._CollectErrors.raise_any")]
    assert got["merge.wrapper"] == [("self.get", "pkg.sessions.Pool.get")]
    # An attribute of a class of this file has its type; one of another file's class is
    # named as the receiver, flagged (its type is for the query side to find).
    assert [(s.name, s.target, s.via_attribute) for c in chunks_of() if c.qualified_name == "render"
            for s in c.call_sites] == [("state.app.run", "flask.Flask.run", False),
                                       ("app.run", "flask.Flask.run", False),
                                       ("proxy.conn.close", "pkg.adapters.BaseAdapter.conn.close", True)]
    # Functions defined in the calling function (or one around it).
    assert [(s.name, s.target) for c in chunks_of() if c.qualified_name.startswith("State.__init__")
            for s in c.call_sites] == [("outer", "pkg.sessions.State.__init__.outer"),
                                       ("helper", "pkg.sessions.State.__init__.helper")]
    assert got["State.go"] == [("self.app.run", "flask.Flask.run"), ("current.run", "flask.Flask.run")]


def test_class_bases_are_module_qualified() -> None:
    path = "pkg/sessions.py"
    parsed = parse.symbols(SOURCE, "python")
    chunks = resolve.chunks(chunk.chunks("r", path, SOURCE, parsed), parsed, path, "pkg.sessions")
    bases = {c.qualified_name: c.bases for c in chunks if c.bases}
    assert bases == {"Session": ("pkg.sessions.Base",)}
    module = next(c for c in chunks if c.kind == "module")
    # Module-level names and class attributes of a known class, for other files' calls.
    assert module.instances == (("Session.adapters", "builtins.dict"),  # `self.adapters = {}`
                                ("Session.http", "pkg.adapters.HTTPAdapter"), ("Session.pool", "pkg.sessions.Pool"),
                                ("State.app", "flask.Flask"), ("app", "flask.Flask"), ("current", "flask.Flask"))
    table = {"App": "flask.sansio.app.App", "m": "pkg.mixins"}
    assert resolve.class_bases("class Flask(App, m.Mixin, Unknown, metaclass=M)", "flask.app", table,
                               set()) == ("flask.sansio.app.App", "pkg.mixins.Mixin")
    assert resolve.class_bases("class P(Mixin[Flask, int], App)", "m", table, {"Mixin"}) == (
        "m.Mixin", "flask.sansio.app.App")


NESTED_BASES = b'''class Handler:
    pass


class Outer:
    class Handler:
        pass

    class Sub(Handler):
        pass


def make():
    class Handler:
        pass

    class Box:
        class Inner(Handler):
            pass

    class Plain(Handler):
        pass
'''


def test_a_class_bodys_and_a_functions_classes_are_read_before_the_top_level() -> None:
    # the same reading `self.m()` targets use (receivers.file_base): `Outer.Sub`'s base
    # was the top-level `Handler` in `bases` while its `self.m()` went to `Outer.Handler`'s
    parsed = parse.symbols(NESTED_BASES, "python")
    chunks = resolve.chunks(chunk.chunks("r", "m.py", NESTED_BASES, parsed), parsed, "m.py", "m")
    bases = {c.qualified_name: c.bases for c in chunks if c.bases}
    assert bases == {"Outer.Sub": ("m.Outer.Handler",), "make.Box.Inner": ("m.make.Handler",),
                     "make.Plain": ("m.make.Handler",)}
