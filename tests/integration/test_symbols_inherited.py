"""``symbols Class.method`` for a method the class inherits finds its base's method
(match ``inherited``): starlette's ``Request.url_for`` is ``HTTPConnection.url_for``,
which ``card`` and ``callers`` resolved while ``symbols`` found nothing (a newcomer). Real
git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "pkg/requests.py": '''class HTTPConnection:
    def url_for(self, name, **params):
        return "/" + name


class Request(HTTPConnection):
    def json(self):
        return {}
''',
    "pkg/other.py": '''from pkg.requests import Request


class Special(Request):
    def url_for(self, name, **params):
        return "/special/" + name
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("inherited"), FILES) as running:
        yield running


def _found(daemon: Daemon, name: str) -> list[tuple[str, str, str]]:
    return [(h.path, h.qualified_name, h.match) for h in daemon.service.find_symbols(name, repo="fx")]


def test_an_inherited_method_is_found_on_its_base(daemon: Daemon) -> None:
    assert _found(daemon, "Request.url_for") == [("pkg/requests.py", "HTTPConnection.url_for", "inherited")]
    # a class that overrides it is its own definition, exact
    assert _found(daemon, "Special.url_for") == [("pkg/other.py", "Special.url_for", "exact")]
    assert _found(daemon, "Request.missing") == []
