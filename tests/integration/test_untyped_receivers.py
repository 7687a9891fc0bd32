"""A call on a value a module binds without saying its type (httpie's module-level
``parser = to_argparse(options)``; marshmallow's alias ``URL = Url``) is a ``name_only``
candidate of the method, not a call on another type: every real caller of
``HTTPieArgumentParser.parse_args`` was left out so (a newcomer). A receiver that is a
class of the index stays judged by its hierarchy. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from coderecalld.config import RepoConfig
from coderecalld.daemon import Daemon
from conformance_cases import daemon as serving
from conformance_cases import indexed
from gitfixtures import GitRepo

FILES = {
    "cli/__init__.py": "",
    "cli/parser.py": '''\
class BaseParser:
    def parse_args(self, args):
        return args


class HTTPParser(BaseParser):
    def parse_args(self, args):
        return ["http", *args]


class Other:
    def parse_args(self, args):
        return None
''',
    "cli/definition.py": '''\
from cli.parser import HTTPParser

Alias = HTTPParser


def build():
    return HTTPParser()


parser = build()
''',
    "app/__init__.py": "",
    "app/main.py": '''\
import cli.definition
from cli.definition import parser
from cli.parser import Other


def run(argv):
    first = parser.parse_args(argv)
    second = cli.definition.parser.parse_args(argv)
    third = cli.definition.Alias().parse_args(argv)
    Other().parse_args(argv)
    return first, second, third
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("untyped"), FILES) as running:
        yield running


def test_calls_on_a_modules_untyped_values_are_candidates(daemon: Daemon) -> None:
    omitted: dict[str, int] = {}
    found = [(s.path, s.line, s.confidence)
             for s in daemon.service.find_callers("cli.parser.HTTPParser.parse_args", repo="fx", omitted=omitted)]
    # the module-level value (imported, and written through its module): candidates; the
    # alias's construction is the class's (``Alias = HTTPParser``: ``resolve.assigned_aliases``);
    # ``Other()`` is a class of the index: another type
    assert found == [("app/main.py", 9, "resolved"), ("app/main.py", 7, "name_only"),
                     ("app/main.py", 8, "name_only")]
    assert omitted["other_type"] == 1


STAR_FILES = {
    "httpx/__init__.py": "from ._models import *\n",
    "httpx/_models.py": ("class Request:\n    def read(self):\n        return b''\n\n\n"
                         "class Response:\n    def read(self):\n        return b''\n"),
    "tests/test_requests.py": ("import httpx\n\n\ndef test_read():\n"
                               "    request = httpx.Request(\"GET\", \"http://a\")\n    request.read()\n\n\n"
                               "def test_resp():\n    response = httpx.Response(200)\n    response.read()\n"),
}


def test_a_class_a_package_star_imports_is_no_untyped_value(tmp_path_factory: pytest.TempPathFactory) -> None:
    """httpx's ``__init__`` star-imports its classes: ``request.read()`` on an
    ``httpx.Request(..)`` was a name-only caller of ``Response.read`` (and the reverse),
    ``httpx.Request`` read as a module value of no stated type."""
    with indexed(tmp_path_factory.mktemp("star"), STAR_FILES) as d:
        for name, line in (("Response.read", 11), ("Request.read", 6)):
            omitted: dict[str, int] = {}
            sites = [(s.line, s.confidence) for s in d.service.find_callers(name, repo="fx", omitted=omitted)]
            assert (sites, omitted) == ([(line, "resolved")], {"other_type": 1})


MANAGERS = {
    "shop/__init__.py": "",
    "shop/query.py": '''\
class QuerySet:
    def filter(self, **kw):
        return self


class TagQuery:
    def filter(self, **kw):
        return []
''',
    "shop/models.py": '''\
from shop.query import TagQuery


class Model:
    pass


class Page(Model):
    title = "page"


class Tag(Model):
    objects: TagQuery = TagQuery()
''',
    "shop/views.py": '''\
from shop.models import Page, Tag


def pages(url):
    return Page.objects.filter(url=url)


def tags(name):
    return Tag.objects.filter(name=name)
''',
}


def test_a_class_attribute_of_no_stated_type_is_a_candidate(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``Page.objects.filter(..)``: ``objects`` is set on every Django model by a metaclass,
    so no file states its type; the call may be ``QuerySet.filter``'s (1,990 such calls
    were left out as on another type; a newcomer). ``Tag.objects`` is a ``TagQuery``, as
    ``Tag``'s file declares: on another type."""
    with indexed(tmp_path_factory.mktemp("managers"), MANAGERS) as d:
        omitted: dict[str, int] = {}
        found = [(s.path, s.line, s.confidence) for s in d.service.find_callers(
            "QuerySet.filter", repo="fx", omitted=omitted)]
        tag = [(s.path, s.line, s.confidence) for s in d.service.find_callers("TagQuery.filter", repo="fx")]
    assert found == [("shop/views.py", 5, "name_only")]
    assert omitted.get("other_type") == 1
    # Page's objects may be a TagQuery too
    assert sorted(tag) == [("shop/views.py", 5, "name_only"), ("shop/views.py", 9, "resolved")]


# tornado: a request handler's `finish` calls its request's connection's `finish`; the
# connection attribute is declared (a parameter's annotation) in another file.
HANDLERS = {
    "web/__init__.py": "",
    "web/httputil.py": '''\
from typing import Optional


class HTTPConnection:
    def finish(self) -> None:
        pass


class HTTPServerRequest:
    def __init__(self, connection: HTTPConnection | None = None, handler: Optional["RequestHandler"] = None,
                 sink=None):
        self.connection = connection
        self.handler = handler
        self.sink = sink


class RequestHandler:
    def finish(self):
        return None


class ErrorHandler(RequestHandler):
    pass
''',
    "web/handler.py": '''\
from web import httputil


class PageHandler(httputil.RequestHandler):
    def __init__(self, request: httputil.HTTPServerRequest):
        self.request = request

    def render(self):
        self.request.connection.finish()
        self.request.handler.finish()
        self.request.sink.finish()
        self.finish()
''',
}


def test_a_call_on_another_files_attribute_declared_with_an_unrelated_class_is_left_out(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """``self.request.connection.finish()``: ``connection`` is declared an ``HTTPConnection``
    in its class's file, so the call is ``HTTPConnection.finish``'s, not a name-only caller
    of ``RequestHandler.finish`` (tornado: ``callers RequestHandler.finish`` listed its own
    body's call of the connection's; a newcomer). An attribute declared with the method's
    class stays its caller; one of no declared type (``sink``) a candidate."""
    with indexed(tmp_path_factory.mktemp("handlers"), HANDLERS) as d:
        omitted: dict[str, int] = {}
        handler = [(s.line, s.confidence) for s in d.service.find_callers(
            "RequestHandler.finish", repo="fx", omitted=omitted)]
        connection = [(s.line, s.confidence) for s in d.service.find_callers("HTTPConnection.finish", repo="fx")]
    assert sorted(handler) == [(10, "resolved"), (11, "name_only"), (12, "resolved")]
    assert omitted.get("other_type") == 1
    assert sorted(connection) == [(9, "resolved"), (11, "name_only")]


@contextmanager
def synced(root, *named: tuple[str, dict[str, str]]) -> Iterator[Daemon]:
    """A real daemon over one git repo per ``(name, files)``, each synced once."""
    repos = []
    for name, files in named:
        git = GitRepo(root / name)
        git.commit(files, "initial")
        repos.append(RepoConfig(name, str(git.path), "main"))
    with serving(root, *repos) as d:
        for name, _ in named:
            d.jobs.run_now(name)
        yield d


LIB = {"shop/__init__.py": "DEFAULT_SENDER = 'shop'\n", "shop/signals.py": '''\
class Signal:
    def send(self, sender):
        return [sender]
'''}
USER = {"app/__init__.py": "", "app/hooks.py": '''\
from shop.signals import Signal


def notify(signal, sender):
    Signal()
    return signal.send(sender)
'''}
OTHER = {"gen/__init__.py": "", "gen/tokens.py": '''\
def drive(tokens):
    return tokens.send(None)
'''}
# imports a name of the package, calls nothing of it: a Flask extension's `init_app(app)`
PLUGIN = {"plug/__init__.py": '''\
from shop import DEFAULT_SENDER


class Hook:
    def init_app(self, hub):
        hub.send(DEFAULT_SENDER)
'''}


def test_a_name_only_call_in_a_repository_that_never_imports_the_package_is_left_out(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """``tokens.send(..)`` on a generator, in a repository calling nothing of ``shop``, is
    no candidate caller of ``shop``'s ``Signal.send`` (matplotlib's, in django's card; a
    newcomer); the same untyped call in a repository that uses ``shop`` is one, also where
    it only imports a name of it (a Flask extension's ``init_app(app)``; a review)."""
    root = tmp_path_factory.mktemp("unimported")
    with synced(root, ("lib", LIB), ("user", USER), ("other", OTHER), ("plugin", PLUGIN)) as d:
        omitted: dict[str, int] = {}
        found = [(s.repo, s.path, s.line, s.confidence) for s in d.service.find_callers(
            "Signal.send", omitted=omitted)]
    assert found == [("plugin", "plug/__init__.py", 6, "name_only"), ("user", "app/hooks.py", 6, "name_only")]
    assert omitted.get("other_type") == 1


JS_LIB = {"package.json": '{"name": "@acme/interceptors", "main": "lib/index.js"}\n',
          "lib/index.js": "export { InterceptorManager } from './core/InterceptorManager.js';\n",
          "lib/core/InterceptorManager.js": '''\
export class InterceptorManager {
  use(fulfilled, rejected) {
    return fulfilled;
  }
}
'''}
# requires the package and calls `use` on a value of no known type
JS_USER = {"package.json": '{"name": "client"}\n', "src/setup.js": '''\
const { InterceptorManager } = require('@acme/interceptors');

function install(manager, handler) {
  new InterceptorManager();
  return manager.use(handler);
}

module.exports = { install };
'''}
# an express application: `app.use(..)` of a package it never requires
JS_OTHER = {"package.json": '{"name": "server"}\n', "app.js": '''\
const express = require('express');

const app = express();
app.use(function logger(req, res, next) {
  next();
});
'''}
# the package's own tests, no package.json name of their own: the definitions' repo
JS_UNNAMED = {"lib/core/InterceptorManager.js": '''\
export class InterceptorManager {
  use(fulfilled) {
    return fulfilled;
  }
}
''', "run.js": '''\
function run(router) {
  return router.use(1);
}
'''}


def test_js_name_only_calls_in_a_repository_that_never_requires_the_package_are_left_out(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """express's ``app.use(..)`` and ``router.use(..)`` were candidate callers of axios's
    ``InterceptorManager.use``, 3 of the 5 its card showed (a newcomer): a JS definition of
    a named npm package (``package.json``'s ``name``, a scoped one here) keeps the untyped
    calls of a repository that requires the package, and leaves out those of one that
    never names it. A definition of no named package (``unnamed``) keeps every candidate."""
    root = tmp_path_factory.mktemp("unrequired")
    with synced(root, ("lib", JS_LIB), ("client", JS_USER), ("server", JS_OTHER)) as d:
        omitted: dict[str, int] = {}
        found = [(s.repo, s.path, s.line, s.confidence) for s in d.service.find_callers(
            "InterceptorManager.use", omitted=omitted)]
        card = d.service.get_card("InterceptorManager.use", repo="lib")
    assert found == [("client", "src/setup.js", 5, "name_only")]
    assert omitted.get("other_type") == 1
    assert card.callers_total == 1
    assert [(c.repo, c.line) for c in card.callers] == [("client", 5)]


def test_js_definitions_of_no_named_package_keep_every_candidate(tmp_path_factory: pytest.TempPathFactory) -> None:
    root = tmp_path_factory.mktemp("unnamed")
    with synced(root, ("unnamed", JS_UNNAMED), ("server", JS_OTHER)) as d:
        found = [(s.repo, s.path, s.line, s.confidence) for s in d.service.find_callers("InterceptorManager.use")]
    assert found == [("server", "app.js", 4, "name_only"), ("unnamed", "run.js", 2, "name_only")]


UMBRELLA_CORE = {"package.json": '{"name": "@acme/core", "main": "lib/index.js"}\n',
                 "lib/index.js": '''\
export class Pipeline {
  pipe(step) {
    return step;
  }
}
'''}
UMBRELLA = {"package.json": '{"name": "acme", "main": "index.js"}\n',
            "index.js": "export * from '@acme/core';\n"}
UMBRELLA_APP = {"package.json": '{"name": "shop"}\n', "src/run.js": '''\
import { Pipeline } from 'acme';

function run(p) {
  new Pipeline();
  return p.pipe(3);
}
'''}


def test_js_a_repo_using_an_umbrella_package_that_reexports_the_definition_keeps_its_candidates(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A review: an app importing ``acme``, whose ``export * from '@acme/core'`` re-exports
    the definition (vue over ``@vue/runtime-core``), never names ``@acme/core``; it uses
    the package all the same, and its untyped ``p.pipe(..)`` stays a candidate."""
    root = tmp_path_factory.mktemp("umbrella")
    with synced(root, ("core", UMBRELLA_CORE), ("acme", UMBRELLA), ("shop", UMBRELLA_APP)) as d:
        found = [(s.repo, s.path, s.line, s.confidence) for s in d.service.find_callers("Pipeline.pipe")]
    assert found == [("shop", "src/run.js", 5, "name_only")]
