"""Cross-repo call sites, callees, cards and repo descriptions over real code: httpx,
httpcore and h11 (installed packages, each its own git repo; httpx imports httpcore, httpcore
imports h11), checked against an independent ``ast`` reference (tests/callers_reference.py)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import callers_reference
import crossrepo
from conformance_cases import Daemon, daemon
from coderecalld.auth import Principal, Role
from coderecalld.config import RepoConfig
from coderecalld.errors import NotFound
from coderecalld.query import card as card_mod

ONLY_LIBS = Principal("libs", ("httpcore", "h11"), Role.READER)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("crossrepo")
    repos = crossrepo.build(tmp / "src")
    with daemon(tmp, *(RepoConfig(name, str(path)) for name, path in repos.items())) as d:
        for name in repos:
            d.pipeline.index_repo(d.cfg.repo(name), with_dense=False)
        yield d


@pytest.fixture(scope="module")
def reference() -> dict[str, set[tuple[str, str, int]]]:
    sources = {name: crossrepo.sources(package) for name, package in crossrepo.PACKAGES.items()}
    return callers_reference.calls(callers_reference.load(sources))


def resolved(running: Daemon, name: str, **kwargs) -> set[tuple[str, str, int]]:
    return {(h.repo, h.path, h.line) for h in running.service.find_callers(name, limit=500, **kwargs)
            if h.confidence == "resolved"}


@pytest.mark.parametrize("symbol", [
    "httpcore._sync.connection_pool.ConnectionPool",  # httpx calls it as httpcore.ConnectionPool
    "httpcore._models.Request",
    "httpcore._models.URL",
    "h11._connection.Connection",  # httpcore calls it as h11.Connection
    "h11._events.Data",
    "httpx._client.Client.send",  # self.send inside Client only
])
def test_resolved_callers_equal_the_ast_reference(running: Daemon, reference, symbol: str) -> None:
    assert reference[symbol], symbol
    assert resolved(running, symbol) == reference[symbol]


def test_alias_names_and_cross_repo_sites(running: Daemon) -> None:
    # The name a caller writes (re-exported by httpcore/__init__.py) finds the same sites.
    assert resolved(running, "httpcore.ConnectionPool") == resolved(
        running, "httpcore._sync.connection_pool.ConnectionPool")
    sites = [h for h in running.service.find_callers("httpcore.ConnectionPool") if h.repo == "httpx"]
    assert [(h.path, h.caller, h.confidence, h.target, h.text) for h in sites] == [
        ("httpx/_transports/default.py", "HTTPTransport.__init__", "resolved", "httpcore.ConnectionPool",
         "self._pool = httpcore.ConnectionPool(")]


def test_symbols_finds_a_definition_by_the_name_its_package_re_exports(running: Daemon) -> None:
    """FindSymbols follows what FindCallers follows: the public name a package re-exports
    (``httpcore/__init__.py``: ``from ._sync.connection_pool import ConnectionPool``; httpx's
    ``from ._api import *``) finds the definition, marked ``reexport``; a prefix lookup or a
    name nothing re-exports finds nothing."""
    hits = running.service.find_symbols("httpcore.ConnectionPool")
    assert [(h.repo, h.path, h.qualified_name, h.match) for h in hits] == [
        ("httpcore", "httpcore/_sync/connection_pool.py", "ConnectionPool", "reexport")]
    assert [(h.path, h.qualified_name, h.match) for h in running.service.find_symbols("httpx.get")] == [
        ("httpx/_api.py", "get", "reexport")]
    assert running.service.find_symbols("httpcore.NoSuchThing") == []
    assert running.service.find_symbols("httpcore.ConnectionPool", prefix=True) == []
    # The module-qualified name itself stays an exact match.
    assert {h.match for h in running.service.find_symbols(
        "httpcore._sync.connection_pool.ConnectionPool")} == {"exact"}


def test_star_reexports_name_definitions(running: Daemon) -> None:
    # httpx/__init__.py: `from ._api import *` -- the public name finds the definition.
    card = running.service.get_card("httpx.get")
    assert (card.path, card.qualified_name, card.kind) == ("httpx/_api.py", "get", "function")
    assert card.summary == "Sends a `GET` request."


def test_same_method_name_in_two_classes_is_never_confused(running: Daemon) -> None:
    sync = running.service.find_callers("Client.send", limit=500)
    async_ = running.service.find_callers("AsyncClient.send", limit=500)
    sync_sites = {(h.path, h.line) for h in sync}
    async_resolved = {(h.path, h.line) for h in async_ if h.confidence == "resolved"}
    assert async_resolved and not async_resolved & sync_sites
    assert {h.caller for h in sync if h.confidence == "resolved"} == {"Client.request", "Client.stream"}
    # A bare name asks for every definition: both classes' callers are resolved.
    bare = {(h.path, h.line) for h in running.service.find_callers("send", limit=500) if h.confidence == "resolved"}
    assert async_resolved <= bare


def test_callees_resolve_across_repos(running: Daemon) -> None:
    callees = running.service.find_callees("httpx._transports.default.HTTPTransport.__init__")
    by_target = {h.target: h for h in callees}
    assert by_target["httpcore.ConnectionPool"].confidence == "resolved"
    assert by_target["httpcore.ConnectionPool"].caller == "HTTPTransport.__init__"
    assert all(h.confidence == ("resolved" if h.target else "name_only") for h in callees)


def test_card_of_a_class_used_from_another_repo(running: Daemon) -> None:
    card = running.service.get_card("httpcore.ConnectionPool")
    assert (card.repo, card.path, card.kind, card.module) == (
        "httpcore", "httpcore/_sync/connection_pool.py", "class", "httpcore._sync.connection_pool")
    assert card.summary == "A connection pool for making HTTP requests."
    assert card.bases == ("RequestInterface",)
    assert "max_connections: int | None = 10" in card.init_params
    assert "def handle_request(self, request: Request) -> Response" in card.methods
    assert "UnsupportedProtocol" in card.raises
    assert card.callers[0].confidence == "resolved"
    assert {c.repo for c in card.callers} >= {"httpx", "httpcore"}  # diverse repos first
    assert card.repo_purpose == "The httpcore package, vendored for the cross-repo fixture."
    assert card.file_purpose  # docstring or derived from the file's symbols
    small = running.service.get_card("httpcore.ConnectionPool", budget_tokens=60)
    assert small.truncated and len(small.callers) <= 1 and small.signature == card.signature


def test_card_of_a_method_lists_siblings_and_documented_raises(running: Daemon) -> None:
    card = running.service.get_card("h11._connection.Connection.send")
    assert card.kind == "method" and "send_with_data_passthrough" in card.siblings
    assert "LocalProtocolError" in card.raises  # from its docstring's Raises: section
    # the card lists 12 siblings, public first, and counts them all (uvicorn's
    # `H11Protocol.handle_events` listed 12 of 16, `truncated` false, nothing said so)
    tree = ast.parse(crossrepo.sources("h11")["h11/_connection.py"])
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Connection")
    others = list(dict.fromkeys(n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                                and n.name != "send"))
    public = [n for n in others if not n.startswith("_")]
    assert len(others) > card_mod.MAX_SIBLINGS
    assert card.siblings_total == len(others)
    assert list(card.siblings) == (public + [n for n in others if n.startswith("_")])[:card_mod.MAX_SIBLINGS]


def test_list_repos_describes_each_repo(running: Daemon) -> None:
    repos = {r.name: r for r in running.service.list_repos()}
    files = len(crossrepo.sources("httpcore"))
    assert repos["httpcore"].packages == ("httpcore",)
    assert repos["httpcore"].languages == (("python", files),)
    assert repos["h11"].purpose == "The h11 package, vendored for the cross-repo fixture."


def test_scope_applies_to_callers_callees_and_cards(running: Daemon) -> None:
    service = running.service
    assert {h.repo for h in service.find_callers("httpcore.ConnectionPool", principal=ONLY_LIBS)} == {"httpcore"}
    assert service.find_callees("httpx._transports.default.HTTPTransport.__init__", principal=ONLY_LIBS) == []
    with pytest.raises(NotFound):
        service.get_card("httpx._client.Client", principal=ONLY_LIBS)
    with pytest.raises(NotFound):
        service.get_card("httpcore.ConnectionPool", repo="httpx", principal=ONLY_LIBS)
    card = service.get_card("httpcore.ConnectionPool", principal=ONLY_LIBS)
    assert {c.repo for c in card.callers} == {"httpcore"}
    assert [r.name for r in service.list_repos(principal=ONLY_LIBS)] == ["httpcore", "h11"]
