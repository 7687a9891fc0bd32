"""Call resolution (index/resolve.py), import tables (parse/imports.py) and repo layout (index/layout.py)."""

from __future__ import annotations

import pytest
from coderecalld import parse
from coderecalld.index import chunk, layout, resolve
from coderecalld.records import SymbolKind

SOURCE = b'''"""Payments."""
import os.path
import json as j
from ..core import models as m
from .util import helper, Base as B
from decimal import Decimal


def top(x):
    return helper(x) + j.dumps(x) + os.path.join("a", x)


class Refund(B):
    def __init__(self, amount=Decimal("0")):
        self.check()
        self.save()

    def check(self):
        """Check it.

        Raises:
            ValueError: when negative.
            pkg.errors.Denied: when refused.
        """
        if self.amount < 0:
            raise ValueError("negative")
        raise
        top(1)
        Refund.make()
        m.Invoice(1).total()

    @staticmethod
    def make():
        return Refund()


class Other:
    def check(self):
        return self.nothing()
'''


def _resolved_chunks(src: bytes, language: str, path: str, module: str) -> list:
    """The chunks of one file, ``src`` at ``path``, with their call targets resolved."""
    parsed = parse.symbols(src, language, path)
    return resolve.chunks(chunk.chunks("r", path, src, parsed), parsed, path, module)


def resolved(module: str = "acme.pay.refund", path: str = "acme/pay/refund.py") -> dict[str, list[tuple[str, str]]]:
    parsed = parse.symbols(SOURCE, "python")
    chunks = resolve.chunks(chunk.chunks("r", path, SOURCE, parsed), parsed, path, module)
    return {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in chunks}


def test_imports_become_an_absolute_table() -> None:
    table = resolve.import_table(parse.symbols(SOURCE, "python").import_aliases, "acme.pay.refund", False)
    assert table == {"os": "os", "j": "json", "m": "acme.core.models", "helper": "acme.pay.util.helper",
                     "B": "acme.pay.util.Base", "Decimal": "decimal.Decimal"}
    # In a package's __init__, "." is the package itself.
    assert resolve.import_table((("x", ".a.x"),), "acme.pay", True) == {"x": "acme.pay.a.x"}
    assert resolve.import_table((("x", "...x"),), "top", False) == {}  # beyond the root: dropped


def test_call_targets_through_imports_module_and_self() -> None:
    sites = resolved()
    assert sites["top"] == [("helper", "acme.pay.util.helper"), ("j.dumps", "json.dumps"),
                            ("os.path.join", "os.path.join")]
    # A default value is evaluated where the def is: the class body, not the method.
    assert ("Decimal", "decimal.Decimal") in sites["Refund"]
    assert sites["Refund.__init__"] == [("self.check", "acme.pay.refund.Refund.check"),
                                        ("self.save", "acme.pay.util.Base.save")]  # inherited: the imported base
    assert sites["Refund.check"] == [("ValueError", "builtins.ValueError"), ("top", "acme.pay.refund.top"),
                                     ("Refund.make", "acme.pay.refund.Refund.make"),
                                     # ``m.Invoice(1).total()``: the constructed class's method
                                     ("total", "acme.core.models.Invoice.total"),
                                     ("m.Invoice", "acme.core.models.Invoice")]
    assert sites["Refund.make"] == [("Refund", "acme.pay.refund.Refund")]
    # Another class's method of the same name is never the target; an unknown one stays unresolved.
    assert sites["Other.check"] == [("self.nothing", "")]


def test_raises_from_statements_and_docstring() -> None:
    parsed = parse.symbols(SOURCE, "python")
    chunks = resolve.chunks(chunk.chunks("r", "p.py", SOURCE, parsed), parsed, "p.py", "p")
    by_name = {c.qualified_name: c for c in chunks}
    assert by_name["Refund.check"].raises == ("ValueError", "pkg.errors.Denied")
    assert by_name["top"].raises == ()
    exports = dict(by_name["p"].exports)
    assert exports["B"] == "util.Base" and "m" not in exports  # at the root "." is "", ".." is nothing


def test_other_languages_pass_through() -> None:
    blob = b"function f() { g(); }\n"
    parsed = parse.symbols(blob, "javascript")
    chunks = chunk.chunks("r", "f.js", blob, parsed)
    assert resolve.chunks(chunks, parsed, "f.js", "") == chunks


def test_layout_module_names_packages_and_purpose() -> None:
    paths = ["src/acme/__init__.py", "src/acme/pay/__init__.py", "src/acme/pay/refund.py", "setup.py",
             "tools/gen.py", "README.md", "web/app.js", "nsp/plain.py"]
    readme = b"# Acme\n\n[![ci](b.svg)](x)\n\nAcme *pays* [refunds](docs/r.md).\nFast.\n\nMore text.\n"
    shape = layout.layout(paths, lambda p: readme, parse.language_for)
    assert [shape.module(p) for p in paths] == ["acme", "acme.pay", "acme.pay.refund", "setup", "tools.gen",
                                                 "", "web/app", "nsp.plain"]
    assert shape.packages == ("acme",)
    assert shape.purpose == "Acme pays refunds. Fast."
    assert shape.languages == (("python", 6), ("javascript", 1))
    # a hidden directory's or file's leading dots are no empty segments of a dotted name
    # (pydantic's `.github/actions/people/people.py` failed every impact tree reaching it)
    paths = [".github/actions/people/people.py", "ci/.hooks/.check.py", "..odd/x.py", "github/actions/people/people.py"]
    hidden = layout.layout(paths, lambda p: b"", parse.language_for)
    assert [hidden.module(p) for p in paths] == [
        "_github.actions.people.people", "ci._hooks._check", "_odd.x", "github.actions.people.people"]


def test_packaging_description_when_no_readme() -> None:
    files = {"pyproject.toml": b'[project]\nname = "x"\ndescription = "Does X."\n', "x/__init__.py": b""}
    assert layout.layout(files, files.__getitem__, parse.language_for).purpose == "Does X."
    files = {"package.json": b'{"description": "JS thing"}'}
    assert layout.layout(files, files.__getitem__, parse.language_for).purpose == "JS thing"
    assert layout.layout({"pyproject.toml": b"[broken"}, lambda p: b"[broken", parse.language_for).purpose == ""


JS = b'''import def1, { a, b as c } from './util/x.js';
import * as ns from "../lib";
const { d, e: f } = require('./y');
const g = require('lodash');
export class K extends Base {
  constructor(p = 1) { super(); this.run(); this.missing(); }
  run() { a(); c(); ns.helper(1); g.go(); d(); f(); top(); new K(); K.make(); obj.run(); }
  static make() { return new K(); }
}
export function top() { throw new RangeError("x"); }
'''


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_js_calls_resolve_through_es_imports_require_and_this(language: str) -> None:
    path = "src/app/main.ts"
    parsed = parse.symbols(JS, language)
    module = layout.js_module(path)
    chunks = resolve.chunks(chunk.chunks("r", path, JS, parsed), parsed, path, module)
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in chunks}
    assert module == "src/app/main"
    # `super()` constructs the base the class head names (Base: neither imported nor defined)
    assert sites["K.constructor"] == [("Base", ""), ("this.run", "src/app/main.K.run"), ("this.missing", "")]
    assert sites["K.run"] == [
        ("a", "src/app/util/x.a"), ("c", "src/app/util/x.b"), ("ns.helper", "src/lib.helper"),
        ("g.go", "lodash.go"), ("d", "src/app/y.d"), ("f", "src/app/y.e"), ("top", "src/app/main.top"),
        ("K", "src/app/main.K"), ("K.make", "src/app/main.K.make"), ("obj.run", "")]
    assert {c.qualified_name: c.raises for c in chunks}["top"] == ("RangeError",)
    assert [layout.js_module(p) for p in ("src/util/index.js", "types/a.d.ts", "index.mjs")] == [
        "src/util", "types/a", "index"]


def test_star_imports_are_kept_apart() -> None:
    parsed = parse.symbols(b"from ._api import *\nfrom ._models import *\nfrom x import y\n", "python")
    assert parsed.import_aliases == (("*", "._api"), ("*", "._models"), ("y", "x.y"))
    table = resolve.import_table(parsed.import_aliases, "httpx", True)
    assert table == {"*httpx._api": "httpx._api", "*httpx._models": "httpx._models", "y": "x.y"}


def test_js_package_specifiers_name_the_package_files() -> None:
    files = {
        "package.json": b'{"name": "@acme/util", "main": "./lib/index.js"}',
        "lib/index.js": b"", "lib/str.js": b"", "lib/both.js": b"", "both.js": b"", "src/deep/x.ts": b"",
        "packages/ui/package.json": b'{"name": "ui", "types": "dist/ui.d.ts"}', "packages/ui/dist/ui.d.ts": b"",
        "packages/ui/button.tsx": b"", "packages/anon/package.json": b"{}", "packages/anon/a.js": b"",
        "packages/ui/README.md": b"",
    }
    shape = layout.layout(files, files.__getitem__, parse.language_for)
    assert shape.js_aliases("lib/index.js") == ("@acme/util", "@acme/util/lib")
    assert shape.js_aliases("lib/str.js") == ("@acme/util/lib/str", "@acme/util/str")
    assert shape.js_aliases("lib/both.js") == ("@acme/util/lib/both",)  # @acme/util/both is both.js
    assert shape.js_aliases("src/deep/x.ts") == ("@acme/util/src/deep/x", "@acme/util/deep/x")
    assert shape.js_aliases("packages/ui/dist/ui.d.ts") == ("ui", "ui/dist/ui")  # the nearest package.json
    assert shape.js_aliases("packages/ui/button.tsx") == ("ui/button",)
    assert shape.js_aliases("packages/anon/a.js") == ("@acme/util/packages/anon/a",)  # no name: the outer one
    assert shape.js_aliases("packages/ui/README.md") == ()


def test_js_default_imports_reach_the_default_export() -> None:
    lib = b"export default function shout(s) { return s; }\nexport function other() { return shout(1); }\n"
    parsed = parse.symbols(lib, "javascript")
    assert parsed.import_aliases == (("default", "#shout"),)
    assert resolve.js_import_table(parsed.import_aliases, "lib/str.js", "lib/str") == {"default": "lib/str.shout"}
    for text, name in ((b"export default class Banner {}\n", "#Banner"), (b"function f() {}\nexport default f;\n", "#f"),
                       (b"export default () => 1;\n", None), (b"export default {a: 1};\n", None)):
        assert parse.symbols(text, "typescript").import_aliases == ((("default", name),) if name else ())
    app = b"import loud, { x } from '@acme/util/str';\nimport B from './banner';\nloud(); new B();\n"
    parsed = parse.symbols(app, "typescript")
    assert parsed.import_aliases == (("loud", "@acme/util/str#default"), ("x", "@acme/util/str#x"),
                                     ("B", "./banner#default"))
    chunks = resolve.chunks(chunk.chunks("r", "src/m.ts", app, parsed), parsed, "src/m.ts", "src/m")
    assert [(s.name, s.target) for c in chunks for s in c.call_sites] == [
        ("loud", "@acme/util/str.default"), ("B", "src/banner.default")]


def test_js_stored_functions_resolve_in_their_own_file_and_through_default_imports() -> None:
    lib = (b"const api = {\n  get(k) { return api.load(k); },\n  load: (k) => k,\n};\n"
           b"api.reset = () => api.get(0);\nexport default (x) => api.get(cache(x));\n")
    parsed = parse.symbols(lib, "javascript", "src/cache.js")
    chunks = resolve.chunks(chunk.chunks("r", "src/cache.js", lib, parsed), parsed, "src/cache.js", "src/cache")
    assert {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in chunks if c.call_sites} == {
        "api.get": [("api.load", "src/cache.api.load")],
        "api.reset": [("api.get", "src/cache.api.get")],
        # `cache` is a global here: the file binds no such name (ParsedFile.unbound)
        "cache": [("api.get", "src/cache.api.get"), ("cache", "")]}
    assert dict(next(c for c in chunks if c.kind == "module").exports) == {"default": "src/cache.cache"}


INSTANCES = b'''from .decoder import JSONDecoder
from . import scanner
import logging

_default_decoder = JSONDecoder(strict=False)
_scan = scanner.Scanner()
log = logging.getLogger(__name__)
helper = make_helper()
shadow = JSONDecoder()
shadow = unknown.thing()


class Local:
    def run(self):
        return 1


local = Local()
not_a_class = local_factory()


def local_factory():
    return Local()


def loads(s):
    log.info("x")
    helper.run()
    shadow.decode(s)
    _scan.scan(s)
    local.run()
    not_a_class.run()
    _default_decoder.decode(s).strip()
    return _default_decoder.decode(s)
'''


def test_module_level_instances_resolve_their_method_calls() -> None:
    """``name = Class(...)`` at module level ties ``name.method()`` to ``Class.method``; a
    call of the file's own or an imported function (lowercase) to a method of its result
    (``F().m``, which the function's declared result types at query time, also for the
    module's ``instance_edges``); an unknown callee or a rebinding to one binds nothing."""
    parsed = parse.symbols(INSTANCES, "python")
    assert parsed.instances == (
        ("_default_decoder", "JSONDecoder"), ("_scan", "scanner.Scanner"), ("log", "logging.getLogger"),
        ("helper", "make_helper"), ("shadow", "JSONDecoder"), ("shadow", "unknown.thing"),
        ("local", "Local"), ("not_a_class", "local_factory"))
    path = "pkg/json/__init__.py"
    chunks = resolve.chunks(chunk.chunks("r", path, INSTANCES, parsed), parsed, path, "pkg.json")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in chunks}
    assert sites["loads"] == [
        ("log.info", "logging.getLogger().info"), ("helper.run", ""), ("shadow.decode", ""),
        ("_scan.scan", "pkg.json.scanner.Scanner.scan"), ("local.run", "pkg.json.Local.run"),
        ("not_a_class.run", "pkg.json.local_factory().run"), ("strip", ""),
        ("_default_decoder.decode", "pkg.json.decoder.JSONDecoder.decode"),
        ("_default_decoder.decode", "pkg.json.decoder.JSONDecoder.decode")]
    module = next(c for c in chunks if c.kind is SymbolKind.MODULE)
    assert module.instances == (("_default_decoder", "pkg.json.decoder.JSONDecoder"),
                                ("_scan", "pkg.json.scanner.Scanner"), ("local", "pkg.json.Local"),
                                ("log", "logging.getLogger()"), ("not_a_class", "pkg.json.local_factory()"))
    assert parse.symbols(b"x = Foo()\n", "javascript").instances == ()


def test_a_python_classmethods_cls_call_constructs_its_class() -> None:
    src = b'''class IfRange:
    @classmethod
    def from_header(cls, value):
        if not value:
            return cls()
        return cls.make(value)

    def copy(self):
        return self.__class__(self.etag)

def top(cls):
    return cls()
'''
    path = "pkg/range.py"
    found = _resolved_chunks(src, "python", path, "pkg.range")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    # `cls(..)` and `self.__class__(..)` in a method are its class's constructions (a bare
    # decorator is its class's call); a function's parameter named cls is nothing known
    assert sites["IfRange"] == [("classmethod", 2, "builtins.classmethod")]
    assert sites["IfRange.from_header"] == [("cls", 5, "pkg.range.IfRange"), ("cls.make", 6, "")]
    assert sites["IfRange.copy"] == [("self.__class__", 9, "pkg.range.IfRange")]
    assert sites["top"] == [("cls", 12, "")]


def test_a_method_called_on_a_construction_is_the_constructed_classs() -> None:
    """``MySchema().load(..)``: the parser names the call by its method alone (its receiver
    is a call); the line says what was built, and 73 of marshmallow's 193 ``Schema.load``
    sites were name-only so. A class a function defines is constructed too (``sch =
    MySchema(); sch.load(..)``), a same-file base's method is the one called, and
    ``super()`` or a lowercase factory's result is no construction."""
    src = b'''from marshmallow import Schema


class Base:
    def load(self, d):
        return d


class Local(Base):
    pass


def f(data):
    class MySchema(Schema):
        pass
    MySchema(many=True, context=dict(a=1)).load(data)
    sch = MySchema()
    sch.load(data)
    Local().load(data)
    make().load(data)
    return super().load(data)
'''
    path = "pkg/t.py"
    found = _resolved_chunks(src, "python", path, "pkg.t")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    assert sites["f"] == [
        ("load", 16, "pkg.t.f.MySchema.load"), ("MySchema", 16, "pkg.t.f.MySchema"), ("dict", 16, "builtins.dict"),
        ("MySchema", 17, "pkg.t.f.MySchema"), ("sch.load", 18, "pkg.t.f.MySchema.load"),
        ("load", 19, "pkg.t.Base.load"), ("Local", 19, "pkg.t.Local"),
        ("load", 20, ""), ("make", 20, ""), ("load", 21, ""), ("super", 21, "")]


def test_a_name_first_bound_to_none_takes_its_later_class() -> None:
    """``downloader = None`` then ``downloader = Downloader(..)``: a ``Downloader`` (httpie's
    only production caller of ``Downloader.start`` was name-only, a newcomer); a later
    binding to an unknown call's result still leaves the name untyped."""
    src = b'''from pkg.downloads import Downloader


def program(args):
    downloader = None
    if args.download:
        downloader = Downloader(args.output)
    if downloader:
        downloader.start()
    other = None
    other = make()
    other.start()
'''
    path = "pkg/core.py"
    found = _resolved_chunks(src, "python", path, "pkg.core")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    assert sites["program"] == [("Downloader", 7, "pkg.downloads.Downloader"),
                                ("downloader.start", 9, "pkg.downloads.Downloader.start"),
                                ("make", 11, ""), ("other.start", 12, "")]


def test_a_keyword_argument_on_its_own_line_binds_nothing() -> None:
    """``    env=env,`` in a call written over several lines is an argument: read as an
    assignment it untyped httpie's ``env: Environment`` for the rest of ``raw_main``, whose
    ``env.log_error`` calls were name-only (a newcomer)."""
    src = b'''from pkg.context import Environment
from pkg.cli import Parser


def raw_main(parser: Parser, env: Environment = Environment()):
    parsed = parser.parse_args(
        args=[],
        env=env,
    )
    env.log_error("x")
    other = make(
        parser=parser
    )
    parser.exit()
'''
    path = "pkg/core.py"
    found = _resolved_chunks(src, "python", path, "pkg.core")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    # the last argument without its trailing comma (``parser=parser``) binds nothing either
    assert sites["raw_main"] == [
        ("parser.parse_args", 6, "pkg.cli.Parser.parse_args"),
        ("env.log_error", 10, "pkg.context.Environment.log_error"),
        ("make", 11, ""), ("parser.exit", 14, "pkg.cli.Parser.exit")]


def test_with_enters_the_value_a_context_manager_yields() -> None:
    """``with opened() as s`` of a ``@contextmanager`` annotated ``-> Iterator[Session]``:
    ``s`` is a ``Session`` (httpie's tests' ``s.save()`` were left out as calls on an
    ``Iterator``; a newcomer); the function's value outside ``with`` is an ``Iterator``, an
    abstract type that types no class (``receivers._ANY_TYPING``)."""
    src = b'''from contextlib import contextmanager
from typing import Iterator
from pkg.sessions import Session


@contextmanager
def opened(path) -> Iterator[Session]:
    yield Session(path)


def test_save():
    with opened("x") as s:
        s.save()
    it = opened("y")
    it.save()
'''
    path = "tests/test_s.py"
    found = _resolved_chunks(src, "python", path, "tests.test_s")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    assert sites["test_save"] == [("opened", 12, "tests.test_s.opened"), ("s.save", 13, "pkg.sessions.Session.save"),
                                  # outside `with`: an Iterator, which any class may be (no class)
                                  ("opened", 14, "tests.test_s.opened"), ("it.save", 15, "")]


def test_a_construction_on_a_very_long_line_is_not_searched() -> None:
    """The search for ``Class(..).method(`` runs once per bare call of a line: a line over
    ``CONSTRUCTED_LINE_MAX`` characters (a data literal of thousands of calls) is not read."""
    assert resolve._constructed_receiver("    MySchema(many=True) . load(data)", "load") == "MySchema"
    assert resolve._constructed_receiver("x = load(y)", "load") == ""
    padding = ", ".join(["1"] * resolve.CONSTRUCTED_LINE_MAX)
    assert resolve._constructed_receiver(f"x = [{padding}, MySchema().load(data)]", "load") == ""


def test_a_method_named_as_the_class_constructed_on_its_line_resolves_once() -> None:
    """``A(x).A(1)``: the receiver's construction is itself a bare call named ``A`` on a
    line holding ``A(..).A(``; looked for as a method called on a construction again, it
    recursed without end (a file of the standard library failed to index)."""
    src = b'''class A:
    def A(self, y):
        return y


def f(x):
    return A(x).A(1)
'''
    path = "pkg/a.py"
    found = _resolved_chunks(src, "python", path, "pkg.a")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    # the parser names both calls ``A`` on one line: which is the method is unknown, and
    # both stay what a bare ``A(..)`` is, the class (as before constructions were read)
    assert sites["f"] == [("A", 7, "pkg.a.A"), ("A", 7, "pkg.a.A")]


def test_an_object_literals_property_function_binds_no_name_in_its_function() -> None:
    """``{retry: {delay: () => 0}}`` passed in a test names a property, no binding: ky's
    ``await delay(1000)`` beside it (``import {setTimeout as delay}``) was "resolved" to
    that property, 14 wrong ``resolved`` callers of the property's name. A function the
    test declares is still its own."""
    src = b'''import {setTimeout as delay} from 'node:timers/promises';
import ky from '../source/index.js';

test('retries', async t => {
    function local() {}
    await delay(10);
    local();
    await ky(url, {retry: {delay: () => 0}});
});
'''
    path = "test/retry.ts"
    found = _resolved_chunks(src, "typescript", path, "test/retry")
    sites = {(s.name, s.line, s.target) for c in found for s in c.call_sites if s.name in ("delay", "local")}
    assert sites == {("delay", 6, "node:timers/promises.setTimeout"), ("local", 7, "test/retry.retries.local")}


def test_a_with_whose_call_spans_lines_types_its_name() -> None:
    """httpx's ``_api.request``: ``with Client(`` ... ``) as client:`` over four lines left
    ``client.request(..)`` name-only, so ``impact --resolved`` never reached the functional
    API; a blank line or a block's header between stops the search."""
    src = b'''from ._client import Client


def request(method, url, transport=None):
    with Client(
        transport=transport,
        timeout=5,
    ) as client:
        return client.request(method, url)


def other(items):
    with open("f") as f:
        pass
    for x in items:
        with lock:
            client = x
        client.request("GET", "u")
'''
    path = "httpx/_api.py"
    found = _resolved_chunks(src, "python", path, "httpx._api")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites if "." in s.name] for c in found}
    assert sites["request"] == [("client.request", "httpx._client.Client.request")]
    assert sites["other"] == [("client.request", "")]


def test_a_call_of_an_attribute_the_class_assigns_is_no_bases_method() -> None:
    """httpx's ``ASGITransport``: ``self.app = app``, then ``self.app(..)`` was "resolved"
    to ``AsyncBaseTransport.app`` (its imported base), which does not exist; it calls what
    the attribute holds (its receiver's type is the class: ``resolve._own_object``)."""
    src = b'''from .base import AsyncBaseTransport


class ASGITransport(AsyncBaseTransport):
    def __init__(self, app):
        self.app = app

    async def handle_async_request(self, request):
        await self.app(request)
        return self.close()
'''
    path = "httpx/asgi.py"
    found = _resolved_chunks(src, "python", path, "httpx.asgi")
    sites = {c.qualified_name: [(s.name, s.target, s.receiver_type) for s in c.call_sites] for c in found}
    assert sites["ASGITransport.handle_async_request"] == [
        ("self.app", "", "ASGITransport"), ("self.close", "httpx.base.AsyncBaseTransport.close", "")]


def test_a_name_the_function_binds_shadows_the_modules_and_the_files_imports() -> None:
    """flask's tests: a fixture ``def app()`` binding its own ``app = Flask(..)``, and a test
    binding ``app = MyFlask(..)`` in a file where another function imports ``app`` (the
    import table is per file): both calls resolved through the module-level name."""
    src = b'''import pytest
from flask import Flask


@pytest.fixture
def app():
    app = Flask("x")
    app.config.update(TESTING=True)
    yield app


def test_custom():
    class MyFlask(Flask):
        pass
    app = MyFlask(__name__)
    client = app.test_client()
    return client


def test_other():
    from blueprintapp import client
    return client


def test_unknown(make):
    client = make()
    client.get("/")
'''
    path = "tests/test_t.py"
    found = _resolved_chunks(src, "python", path, "tests.test_t")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites if "." in s.name] for c in found}
    assert sites["app"] == [("app.config.update", "flask.Flask.config.update")]
    assert sites["test_custom"] == [("app.test_client", "tests.test_t.test_custom.MyFlask.test_client")]
    assert sites["test_unknown"] == [("client.get", "")]  # bound to an unknown value: no import's


def test_a_functions_own_import_binds_in_that_function_only() -> None:
    """A function's ``from pkg.tasks import run`` binds ``run`` there: its ``run()`` was a
    call of the module's own ``def run``; another function's ``import pkg.jobs as helper``
    made the module's ``helper()`` a call of ``pkg.jobs`` (the file's import table held
    every import, the last winning); a function nested in it sees its imports."""
    src = b'''from pkg.other import helper


def run():
    return 1


def main(register):
    from pkg.tasks import run, LIMIT
    run()
    helper()
    register(run, LIMIT)

    def inner():
        return run()
    return inner


def second():
    import pkg.jobs as helper
    helper.go()
    run()
    register(run)


class K:
    def m(self):
        from .util import json_dumps as dumps
        return dumps(self)
'''
    found = _resolved_chunks(src, "python", "pkg/mod.py", "pkg.mod")
    calls = {c.qualified_name: [(s.name, s.target) for s in c.call_sites if s.name != "register"] for c in found}
    refs = {c.qualified_name: [(s.name, s.target) for s in c.references] for c in found}
    assert calls["main"] == [("run", "pkg.tasks.run"), ("helper", "pkg.other.helper")]
    assert refs["main"] == [("run", "pkg.tasks.run"), ("inner", "pkg.mod.main.inner")]  # LIMIT: a constant
    assert calls["main.inner"] == [("run", "pkg.tasks.run")]
    assert calls["second"] == [("helper.go", "pkg.jobs.go"), ("run", "pkg.mod.run")]
    assert refs["second"] == [("run", "pkg.mod.run")]
    assert calls["K.m"] == [("dumps", "pkg.util.json_dumps")]
    # a function's own import is no name the module exports beside the module's own
    module = next(c for c in found if c.qualified_name == "pkg.mod")
    assert dict(module.exports)["helper"] == "pkg.other.helper"


def test_a_test_block_named_by_its_title_is_no_call_target() -> None:
    """express's ``describe('app.route', ..)`` is a symbol named ``app.route`` (test blocks
    are named by their titles); the ``app.route('/foo')`` calls in it resolved to the
    block, ten ``resolved`` callers of nothing real. An object literal's member stays one."""
    src = b"""var express = require('../')
var api = {get: function () { return 1 }}

describe('app.route', function () {
  it('should return a new route', function () {
    var app = express()
    app.route('/foo')
    api.get()
  })
})
"""
    found = _resolved_chunks(src, "javascript", "test/app.route.js", "test/app.route")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites if "." in s.name] for c in found}
    assert sites["app.route.should return a new route"] == [
        ("app.route", ""), ("api.get", "test/app.route.api.get")]
    parsed = parse.symbols(src, "javascript", "test/app.route.js")
    assert parsed.titled == {"app.route", "app.route.should return a new route"}


def test_js_this_in_a_method_stored_on_an_object_or_a_prototype() -> None:
    """express: ``app.enable = function (s) { return this.set(s, true) }`` and ``res.json``'s
    ``this.send(..)``: ``this`` is the object the method is stored on (30 such calls were
    unresolved, ``callers app.set --resolved`` had none); ``View.prototype.lookup``'s and the
    constructor ``View``'s ``this.m()`` are ``View``'s; a nested function's ``this`` is
    not; ``var compileETag = require('./utils').compileETag`` imports one member."""
    src = b"""var compileETag = require('./utils').compileETag;
var app = exports = module.exports = {};

app.set = function set(setting, val) {
  this.cache[setting] = compileETag(val);
  return this;
};

app.enable = function enable(setting) {
  var self = this;
  function later() {
    return this.set(setting, true);
  }
  return this.set(setting, true);
};

function View(name) {
  this.lookup(name);
}

View.prototype.lookup = function lookup(name) {
  return this.resolve(name);
};

View.prototype.resolve = function resolve(name) {
  return name;
};
"""
    found = _resolved_chunks(src, "javascript", "lib/application.js", "lib/application")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    assert sites["app.set"] == [("compileETag", "lib/utils.compileETag")]
    assert sites["app.enable"] == [("this.set", "lib/application.app.set")]
    assert sites["app.enable.later"] == [("this.set", "")]
    assert sites["View"] == [("this.lookup", "lib/application.View.lookup")]
    assert sites["View.lookup"] == [("this.resolve", "lib/application.View.resolve")]


def test_a_casts_value_is_a_reference_and_its_type_or_a_typevars_bound_none() -> None:
    """click: ``t.cast("type[CmdType]", Command)``, the class ``@command`` builds by
    default, was no reference of ``Command`` (every argument of a cast was left out), and
    ``TypeVar("CmdType", bound=Command)`` was one."""
    src = b'''import typing as t


class Command:
    pass


CmdType = t.TypeVar("CmdType", bound=Command)


def command(cls=None, register=print):
    if cls is None:
        cls = t.cast("type[CmdType]", Command)
    x = t.cast(Command, cls)
    return register(x, key=Command)
'''
    found = _resolved_chunks(src, "python", "pkg/decorators.py", "pkg.decorators")
    refs = {c.qualified_name: [(s.name, s.line, s.target) for s in c.references] for c in found}
    assert refs["command"] == [("Command", 13, "pkg.decorators.Command"), ("Command", 15, "pkg.decorators.Command")]
    assert refs["pkg.decorators"] == []


def test_calling_an_instance_is_a_call_of_its_classs_dunder_call() -> None:
    """structlog's processors are objects called as functions: ``ts = TimeStamper(..)``
    then ``ts(None, None, {})``, ``KeyValueRenderer(..)(..)``, ``self.stamper(..)`` of a
    ``self.stamper = TimeStamper(..)``: 82 such calls had no callee, ``callers
    TimeStamper.__call__`` none. A method's own local ``cls = self._wrapper or C`` is no
    class of it (``cls(..)`` was a construction of the enclosing class, and a call on
    what it built one of its methods)."""
    src = b'''class Proxy:
    def bind(self, **kw):
        cls = self._wrapper_class or default_class
        logger = cls(self, **kw)
        return logger.bind(**kw)

    @classmethod
    def make(cls, x):
        return cls(x)


class Stamper:
    def __call__(self, logger, name, event):
        return event


def use():
    ts = Stamper()
    ts(None, None, {})
    Stamper()(None, None, {})
    make_it()(1)


class Holder:
    def __init__(self):
        self.stamper = Stamper()

    def run(self):
        return self.stamper(None, None, {})
'''
    found = _resolved_chunks(src, "python", "pkg/mod.py", "pkg.mod")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    assert sites["Proxy.bind"] == [("cls", 4, ""), ("logger.bind", 5, "")]
    assert sites["Proxy.make"] == [("cls", 9, "pkg.mod.Proxy")]
    assert sites["use"] == [("Stamper", 18, "pkg.mod.Stamper"), ("ts", 19, "pkg.mod.Stamper.__call__"),
                            ("Stamper.__call__", 20, "pkg.mod.Stamper.__call__"), ("Stamper", 20, "pkg.mod.Stamper"),
                            ("make_it", 21, "")]
    assert sites["Holder.run"] == [("self.stamper", 29, "pkg.mod.Stamper.__call__")]


def test_a_tests_parameter_is_its_pytest_fixtures_value() -> None:
    """structlog's tests call the ``cr`` fixture (``@pytest.fixture(name="cr") def _cr():
    return dev.ConsoleRenderer(..)``): 14 ``cr(..)`` calls were no callers of
    ``ConsoleRenderer.__call__``, not even name-only; a parameter named as a top-level
    fixture function is the fixture's value, not that function."""
    src = b'''import pytest

from structlog import dev


@pytest.fixture(name="cr")
def _cr():
    return dev.ConsoleRenderer(colors=False)


@pytest.fixture
def cr2() -> dev.ConsoleRenderer:
    return make()


class TestConsole:
    def test_plain(self, cr, cr2, other):
        assert cr(None, None, {"event": "x"})
        cr2(None, None, {})
        cr2.get_default_level_styles()
        other.pad()
'''
    found = _resolved_chunks(src, "python", "tests/test_dev.py", "tests.test_dev")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    renderer = "structlog.dev.ConsoleRenderer"
    assert sites["TestConsole.test_plain"] == [
        ("cr", f"{renderer}.__call__"), ("cr2", f"{renderer}.__call__"),
        ("cr2.get_default_level_styles", f"{renderer}.get_default_level_styles"),
        # no fixture of this file: a conftest's, named by the fixture (the query side types it)
        ("other.pad", "conftest.other().pad")]


def test_js_a_name_bound_to_this_is_this() -> None:
    """express's ``res.render``: ``var self = this;`` then, in a callback, ``self.send(str)``
    was a name-only caller of ``res.send``; a ``self`` bound to anything else is not."""
    src = b"""var res = module.exports = {};

res.send = function send(body) {
  return this;
};

res.render = function render(view, options) {
  var self = this;
  done(function (err, str) {
    self.send(str);
  });
};

res.other = function other() {
  var self = options.owner;
  self.send(1);
};
"""
    found = _resolved_chunks(src, "javascript", "lib/response.js", "lib/response")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites if s.name.startswith("self.")] for c in found}
    assert sites["res.render"] == [("self.send", "lib/response.res.send")]
    assert sites["res.other"] == [("self.send", "")]


def test_a_bare_call_of_a_python_builtin_is_the_builtins() -> None:
    """rich's 201 bare ``print(..)`` calls in modules that never import its ``rich.print``
    were name-only callers of it (145 of 166 nodes of ``impact get_console``); a name an
    import, a definition or a local binding of the file gives is not the builtin."""
    plain = b'''def show(x):
    print(x)
    return len(x)


def shadowed(print, items):
    print(items)
    sorted = make()
    return sorted(items)
'''
    found = _resolved_chunks(plain, "python", "rich/abc.py", "rich.abc")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    assert sites["show"] == [("print", "builtins.print"), ("len", "builtins.len")]
    assert sites["shadowed"] == [("print", ""), ("make", ""), ("sorted", "")]
    imported = b"from rich import print\n\n\ndef show(x):\n    print(x)\n"
    found = _resolved_chunks(imported, "python", "rich/demo.py", "rich.demo")
    assert [(s.name, s.target) for c in found for s in c.call_sites] == [("print", "rich.print")]
    starred = b"from rich import *\n\n\ndef show(x):\n    print(x)\n"  # the star may bind it
    found = _resolved_chunks(starred, "python", "rich/demo.py", "rich.demo")
    assert [(s.name, s.target) for c in found for s in c.call_sites] == [("print", "")]
    defined = b"def print(x):\n    pass\n\n\ndef show(x):\n    print(x)\n"
    found = _resolved_chunks(defined, "python", "rich/__init__.py", "rich")
    assert [(s.name, s.target) for c in found for s in c.call_sites] == [("print", "rich.print")]


def test_python_receivers_read_statements_not_docstrings_or_argument_lines() -> None:
    """rich (an audit): a Google-style docstring line ``Measurement: A measurement of the
    renderable.`` declared a local ``Measurement`` (``Measurement.get(..)`` below it was
    name-only); an argument line of a call, ``renderable, options=options.update_width(..)``,
    read as a tuple assignment untyped the annotated ``options``; and ``w = Widget()  # one``
    typed nothing."""
    src = b'''from rich.measure import Measurement
from rich.console import ConsoleOptions


class Widget:
    def draw(self, n):
        return n


def measure(console, options: ConsoleOptions, renderable):
    """Get a measurement.

    Returns:
        Measurement: A measurement of the renderable.
    """
    lines = console.render_lines(
        renderable, options=options.update_width(4), style=None
    )
    options.update(height=1)
    w = Widget()  # make one
    w.draw(7)
    label = "# not a comment"  # a comment
    return Measurement.get(console, options, renderable)
'''
    found = _resolved_chunks(src, "python", "rich/m.py", "rich.m")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    assert sites["measure"] == [
        ("console.render_lines", 16, ""),
        ("options.update_width", 17, "rich.console.ConsoleOptions.update_width"),
        ("options.update", 19, "rich.console.ConsoleOptions.update"),
        ("Widget", 20, "rich.m.Widget"), ("w.draw", 21, "rich.m.Widget.draw"),
        ("Measurement.get", 23, "rich.measure.Measurement.get")]


def test_instances_bound_in_a_modules_blocks_type_its_calls() -> None:
    """rich's ``__main__`` blocks: ``console = Console(..)`` then ``console.print(..)``
    inside ``if __name__ == "__main__":`` were name-only (137 real calls in an audit), and
    ``with Live(..) as live:`` typed nothing. A name two blocks bind to two classes (``try``
    / ``except``) is neither; a function's body is not the module's."""
    src = b'''from rich.console import Console
from rich.live import Live

try:
    fast = Fast()
except ImportError:
    fast = Slow()

if __name__ == "__main__":
    console = Console(width=80)
    console.print("x")
    with Live(console=console) as live:
        live.update(1)
    fast.run()


def main():
    inner = Console()
'''
    parsed = parse.symbols(src, "python")
    assert parsed.instances == (("fast", "Fast"), ("fast", ""), ("console", "Console"), ("live", "Live"))
    chunks = resolve.chunks(chunk.chunks("r", "rich/demo.py", src, parsed), parsed, "rich/demo.py", "rich.demo")
    module = next(c for c in chunks if c.kind.value == "module")
    assert [(s.name, s.target) for s in module.call_sites if "." in s.name] == [
        ("console.print", "rich.console.Console.print"), ("live.update", "rich.live.Live.update"),
        ("fast.run", "")]


def test_a_js_local_shadows_the_modules_name_it_spells() -> None:
    """hono's ``match``: ``const match = ((method, path) => {..}) as ..`` then ``return
    match(method, path)`` in the module's function ``match`` was a resolved call of that
    function (a recursion that is none), and an inner ``const match = path.match(..)``
    made ``match.indexOf(..)`` a member of it; a parameter of the name shadows it too."""
    src = b"""import { build } from './build'

export function match(method: string, path: string) {
  const match = ((method, path) => {
    const match = path.match(/x/)
    return match.indexOf('', 1)
  }) as Fn
  return match(method, path)
}

export function other(path: string) {
  return match('GET', path)
}

export function wrap(build: Builder) {
  return build()
}
"""
    found = _resolved_chunks(src, "typescript", "src/matcher.ts", "src/matcher")
    sites = {c.qualified_name: [(s.name, s.line, s.target) for s in c.call_sites] for c in found}
    assert sites["match"] == [("path.match", 5, ""), ("match.indexOf", 6, ""), ("match", 8, "")]
    assert sites["other"] == [("match", 12, "src/matcher.match")]  # no local: the module's
    assert sites["wrap"] == [("build", 16, "")]  # a parameter shadows the import


def test_a_functions_local_alias_of_a_class_is_the_class_there() -> None:
    """rich binds ``_Segment = Segment`` in 12 functions, then ``_Segment.line()`` and
    ``_Segment(..)``: name-only calls of nothing (an audit). A name a function binds once
    to a class is that class in it; one bound twice is not."""
    src = b'''from rich.segment import Segment
from rich.style import Style


def render(lines):
    _Segment = Segment
    _Style = Style  # a comment
    style = _Style.parse("bold")
    yield _Segment.line()
    yield _Segment("x", style)


def other(x):
    y = Segment
    y = make()
    y.line()
'''
    found = _resolved_chunks(src, "python", "rich/padding.py", "rich.padding")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    assert sites["render"] == [("_Style.parse", "rich.style.Style.parse"), ("_Segment.line", "rich.segment.Segment.line"),
                               ("_Segment", "rich.segment.Segment")]
    assert sites["other"] == [("make", ""), ("y.line", "")]


def test_a_functions_local_alias_of_a_bound_method_is_the_method_there() -> None:
    """attrs binds ``fca = Attribute.from_counting_attr`` then calls ``fca(..)``; rich's
    hot loops bind ``append = segments.append``: calls of nothing, so ``callers
    Attribute.from_counting_attr`` listed the binding alone (a newcomer). A name a function
    binds once to a method of a known class (a class, ``self``, a typed local) is that
    method there; an attribute (no method of the file's class), a property, a name read
    as ``name.x`` or never called, a receiver of unknown type and a name bound twice are
    none (rich's ``width = self.width`` then ``length=width`` was a reference of
    ``Console.width``)."""
    src = b'''from rich.segment import Segment


class Attribute:
    def __init__(self):
        self.items = []

    @classmethod
    def from_counting_attr(cls, name):
        return cls()

    def emit(self, x):
        return x

    @property
    def width(self):
        return 80


class Builder:
    def build(self, names):
        fca = Attribute.from_counting_attr
        segments = [Segment("a")]
        seg = Segment("b")
        split = seg.split_cells
        attrs = [fca(n) for n in names]
        return split(3), attrs

    def run(self, unknown):
        items = Attribute().items
        items(1)
        get = unknown.get
        get(2)
        twice = self.build
        twice = other
        twice(3)
        path = Attribute.emit
        path.__name__.upper()
        width = Attribute().width
        width(4)
        size = unknown.size
        report(size)
        kept = Attribute().emit
        report(kept)
'''
    found = _resolved_chunks(src, "python", "pkg/make.py", "pkg.make")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    assert sites["Builder.build"] == [("Segment", "rich.segment.Segment"), ("Segment", "rich.segment.Segment"),
                                      ("fca", "pkg.make.Attribute.from_counting_attr"),
                                      ("split", "rich.segment.Segment.split_cells")]
    assert [(n, t) for n, t in sites["Builder.run"] if n in ("items", "get", "twice", "path.__name__.upper", "width")
            ] == [("items", ""), ("get", ""), ("twice", ""), ("path.__name__.upper", ""), ("width", "")]
    # a value passed on: a bound method named so is a reference, only when the function calls it
    refs = {c.qualified_name: [(s.name, s.target) for s in c.references] for c in found}
    assert [r for r in refs["Builder.run"] if r[0] in ("size", "kept")] == []


def test_a_methods_first_parameter_is_its_instance_whatever_its_name() -> None:
    """loguru writes ``def info(__self, message, *args)`` (``# noqa: N805``) then
    ``__self._log(..)``: 9 of ``Logger._log``'s 10 callers were name-only (a newcomer).
    A method's first parameter is its instance, also in a function the method defines;
    a static method's first parameter is not, and an instance's other names are not."""
    src = b'''class Logger:
    def info(__self, message, *args):  # noqa: N805
        __self._log("INFO", message)
        def later():
            return __self._log("LATER", message)
        return later

    @staticmethod
    def make(value, other):
        return value._log(1)

    def debug(this, other):
        other._log(2)
        return this._log("DEBUG", other)

    def _log(self, level, message):
        return level
'''
    found = _resolved_chunks(src, "python", "loguru/_logger.py", "loguru._logger")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    assert sites["Logger.info"][0] == ("__self._log", "loguru._logger.Logger._log")
    assert sites["Logger.info.later"] == [("__self._log", "loguru._logger.Logger._log")]
    assert sites["Logger.make"] == [("value._log", "")]
    assert sites["Logger.debug"] == [("other._log", ""), ("this._log", "loguru._logger.Logger._log")]


def test_an_attribute_bound_to_one_method_calls_it() -> None:
    """``self.dispatch = self._dispatch_sync`` then ``self.dispatch(..)``: a call of
    ``_dispatch_sync``. attrs binds ``self._add_method_dunders`` to ``.._safe`` or
    ``.._unsafe`` by a condition: neither (its calls stay unresolved, the two bindings
    ``reference`` rows); a property's value is no method."""
    src = b'''class Builder:
    def __init__(self, fast, cache):
        self.dispatch = self._dispatch_sync
        if cache:
            self._add = self._add_safe
        else:
            self._add = self._add_unsafe
        self.size = self.width

    def _dispatch_sync(self, event):
        return event

    def _add_safe(self, x):
        return x

    def _add_unsafe(self, x):
        return x

    @property
    def width(self):
        return 3

    def run(self, event):
        self.dispatch(event)
        self._add(event)
        self.size(1)
'''
    found = _resolved_chunks(src, "python", "pkg/build.py", "pkg.build")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    assert sites["Builder.run"] == [("self.dispatch", "pkg.build.Builder._dispatch_sync"), ("self._add", ""),
                                    ("self.size", "")]


def test_a_ts_private_fields_type_types_its_calls() -> None:
    """hono's ``TrieRouter``: ``#node: Node<T> = new Node()`` then ``this.#node.insert(..)``
    was unresolved (``callers Node.insert``: name-only), while public fields resolved."""
    src = b"""import { Node } from './node'

export class TrieRouter<T> {
  #node: Node<T> = new Node()
  #other: Node<T>

  constructor() {
    this.#other = new Node()
  }

  add(method: string, path: string) {
    this.#node.insert(method, path)
    this.#other.search(method, path)
  }
}
"""
    found = _resolved_chunks(src, "typescript", "src/router/trie-router/router.ts", "src/router/trie-router/router")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    node = "src/router/trie-router/node.Node"
    assert sites["TrieRouter.add"] == [("this.#node.insert", f"{node}.insert"), ("this.#other.search", f"{node}.search")]


def test_a_js_modules_value_of_a_known_class_types_its_calls() -> None:
    """hono's ``ssg.ts``: ``const createdDirs: Set<string> = new Set()`` at the module's top
    level, then ``createdDirs.add(dir)`` in a function, was a name-only caller of
    ``TrieRouter.add``; a module value ``router = new TrieRouter()`` made ``router.add(..)``
    a member of the value, no caller of ``TrieRouter.add``."""
    src = b"""import { TrieRouter } from './router'

const createdDirs: Set<string> = new Set()
export const router = new TrieRouter()
let count = make()

export function save(dir: string) {
  createdDirs.add(dir)
  router.add('GET', dir)
  count.add(1)
}
"""
    found = _resolved_chunks(src, "typescript", "src/ssg.ts", "src/ssg")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}
    assert sites["save"] == [("createdDirs.add", "Set.add"), ("router.add", "src/router.TrieRouter.add"),
                             ("count.add", "")]  # of no known class: as before


def test_a_raised_local_is_the_class_it_was_constructed_as() -> None:
    text = ("def is_type(self, instance, type):\n    try:\n        return self.C.is_type(instance, type)\n"
            "    except exceptions.UndefinedTypeCheck:\n        exc = exceptions.UnknownType(type, instance)\n"
            "        raise exc from None\n")
    assert resolve.raises(text) == ("exceptions.UnknownType",)
    # bound twice, to two classes, or to a call's result: no class is known
    twice = "def f(a):\n    err = A()\n    if a:\n        err = B()\n    raise err\n"
    assert resolve.raises(twice) == ()
    made = "def f(a):\n    err = self._error(a)\n    raise err\n"
    assert resolve.raises(made) == ()
    caught = "def f():\n    try:\n        g()\n    except KeyError as exc:\n        raise exc\n"
    assert resolve.raises(caught) == ()
    either = "def f(kind):\n    e = ValueError(kind) if kind else TypeError(kind)\n    raise e\n"
    assert resolve.raises(either) == ()  # one of two: not known which (a review)


BRANCHES = b'''from pkg.config import Config, Reload


def run(app):
    config = Config(app)
    if config.reload:
        sock = config.bind()
        Reload(config, target=app, sockets=[sock]).run()
    elif config.workers:
        sock = config.bind()
        Reload(config, target=app).run()
'''


def test_a_calls_keyword_argument_binds_no_name() -> None:
    """``Reload(config, target=app)`` read as ``config, target = ..`` bound ``config``
    untyped: uvicorn's second ``config.bind_socket()``, in the ``elif`` branch, was
    name-only (a newcomer)."""
    parsed = parse.symbols(BRANCHES, "python")
    chunks = resolve.chunks(chunk.chunks("r", "app/main.py", BRANCHES, parsed), parsed, "app/main.py", "app.main")
    sites = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in chunks}["run"]
    assert [s for s in sites if s[1] == "config.bind"] == [
        (7, "config.bind", "pkg.config.Config.bind"), (10, "config.bind", "pkg.config.Config.bind")]


def test_a_method_of_an_unnamed_value_is_no_call_of_the_modules_function() -> None:
    """xarray's ``indexes[0].concat(indexes, ..)`` in a module defining ``concat`` was a
    resolved call of that function (a newcomer): its callee is its last name alone."""
    src = b'''from pkg.other import merge


def concat(objs):
    indexes = list(objs)
    first = indexes[0].concat(indexes)
    again = make().concat(1).merge(2)
    both = concat(objs[1:]) or objs[0].concat(objs)
    return merge(first, again, both)


def make():
    return Box()


class Box:
    def concat(self, x):
        return Box().concat(x)
'''
    chunks = _resolved_chunks(src, "python", "pkg/mod.py", "pkg.mod")
    got = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in chunks}
    # a line that calls the name bare too keeps both its targets (which is which is unknown)
    assert got["concat"] == [(5, "list", "builtins.list"), (6, "concat", ""), (7, "merge", ""),
                             (7, "concat", ""), (7, "make", "pkg.mod.make"),
                             (8, "concat", "pkg.mod.concat"), (8, "concat", "pkg.mod.concat"),
                             (9, "merge", "pkg.other.merge")]
    # a construction's method is the class's, as before
    assert got["Box.concat"] == [(18, "concat", "pkg.mod.Box.concat"), (18, "Box", "pkg.mod.Box")]


def test_a_type_variable_with_a_bound_is_another_name_of_its_bound() -> None:
    """xarray's accessors declare ``self._obj: T_DataArray`` (``TypeVar("T_DataArray",
    bound="DataArray")``): their ``self._obj._replace(..)`` calls were name-only (a
    newcomer). The module re-exports it as its bound; a constrained one names no class."""
    src = b'''from typing import TYPE_CHECKING, TypeVar, Union

if TYPE_CHECKING:
    from pkg.dataarray import DataArray

T_DataArray = TypeVar("T_DataArray", bound="DataArray")
T_Xarray = TypeVar("T_Xarray", "DataArray", "Dataset")
T_Either = TypeVar("T_Either", bound=Union["Dataset", "DataArray"])
T_Pipe = TypeVar("T_Pipe", bound="Dataset | DataArray")


class Accessor:
    def __init__(self, obj: T_DataArray) -> None:
        self._obj: T_DataArray = obj

    def floor(self):
        return self._obj._replace(1)

    def other(self, x: T_Xarray):
        return x._replace(2)

    def either(self, x: T_Either, y: T_Pipe):
        return x.isel(1), y.isel(2)
'''
    chunks = {c.qualified_name: c for c in _resolved_chunks(src, "python", "pkg/types.py", "pkg.types")}
    assert [(s.name, s.target) for s in chunks["Accessor.floor"].call_sites] == [
        ("self._obj._replace", "pkg.dataarray.DataArray._replace")]
    assert [(s.name, s.target) for s in chunks["Accessor.other"].call_sites] == [("x._replace", "")]
    # a union bound names no one class (a review: it was read as `typing.Union`)
    assert [(s.name, s.target) for s in chunks["Accessor.either"].call_sites] == [
        ("x.isel", ""), ("y.isel", "")]
    exports = dict(chunks["pkg.types"].exports)
    assert exports["T_DataArray"] == "pkg.dataarray.DataArray"
    assert not {"T_Xarray", "T_Either", "T_Pipe"} & set(exports)


def test_a_raise_in_a_docstrings_example_or_a_comment_is_none() -> None:
    """FastAPI's ``HTTPException`` card said the class raises ``HTTPException``: its
    docstring's usage example. A ``Raises:`` section still lists what it documents."""
    text = '''class HTTPException(Exception):
    """An HTTP error.

    ```python
    raise HTTPException(status_code=404, detail="Item not found")
    ```

    Raises:
        ValueError: when the code is bad
    """

    def check(self):
        # raise Nope() would be wrong here
        raise KeyError(1)
'''
    assert resolve.raises(text) == ("KeyError", "ValueError")
    java = "/**\n * Fails: throw new Bar()\n */\nvoid f() { throw new Baz(); }\n"
    assert resolve.raises(java) == ("Baz",)
