"""Calls that can never be the asked method, end to end on a real git fixture and the real
embedded store (httpx newcomer): a member of a literal (``"".join(parts)`` is ``str.join``,
85 of the 142 callers ``callers URL.join`` listed) and a bare call of a Python or JS
method's name (``await send(message)``: an ASGI app's parameter, 45 false callers of
``Client.send``) are counted as calls on another type, not listed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.parse import symbols
from conformance_cases import indexed

FILES = {
    "pkg/urls.py": '''\
class URL:
    def __init__(self, raw):
        self.raw = raw

    def join(self, other):
        return URL("/".join([self.raw, other]))
''',
    "pkg/client.py": '''\
from pkg.urls import URL


class Client:
    def send(self, request):
        return request

    def redirect(self, url: URL, location):
        target = url.join(location)
        header = b", ".join([b"a", b"b"])
        return self.send(target), header


async def app(scope, receive, send):
    await send({"type": "http.response.start"})
    return ", ".join(scope)
''',
    "pkg/cookies.py": '''\
class Cookies:
    def extract_cookies(self, response):
        return response


class Jar:
    def extract_cookies(self, response):
        return None


class Session:
    def __init__(self):
        self._cookies = Cookies()
        self.jar = Jar()

    @property
    def cookies(self) -> Cookies:
        return self._cookies

    @cookies.setter
    def cookies(self, value) -> None:
        self._cookies = Cookies()


class Client(Session):
    def receive(self, response):
        self.cookies.extract_cookies(response)
        self.jar.extract_cookies(response)
''',
    "web/app.js": '''\
export class Client {
  send(request) {
    return request
  }
}
export const handler = (send, parts) => {
  send(parts)
  return [1, 2].join("-") + parts.join(",")
}
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("receivers"), FILES) as running:
        yield running


def test_a_literals_member_is_named_by_its_type() -> None:
    parsed = symbols(FILES["pkg/client.py"].encode(), "python")
    calls = {s.qualified_name: [c.name for c in s.call_sites] for s in parsed.symbols}
    assert calls["Client.redirect"] == ["url.join", "bytes.join", "self.send"]
    assert calls["app"] == ["send", "str.join"]
    js = symbols(FILES["web/app.js"].encode(), "javascript")
    assert [c.name for s in js.symbols for c in s.call_sites] == ["send", "Array.join", "parts.join"]


def test_calls_on_a_literal_are_no_callers(daemon: Daemon) -> None:
    omitted: dict[str, int] = {}
    page = daemon.service.find_callers("URL.join", repo="fx", omitted=omitted)
    assert sorted((c.path, c.line, c.caller) for c in page) == [("pkg/client.py", 9, "Client.redirect")]
    # "/".join, b", ".join, ", ".join, [1, 2].join, and the JS file's parts.join: JavaScript
    # calls no Python method (``callgraph.LANGUAGE_FAMILIES``)
    assert omitted["other_type"] == 5


def test_a_bare_call_of_a_methods_name_is_no_caller(daemon: Daemon) -> None:
    omitted: dict[str, int] = {}
    page = daemon.service.find_callers("Client.send", repo="fx", omitted=omitted)
    assert sorted((c.path, c.line, c.caller, c.confidence) for c in page) == [
        ("pkg/client.py", 11, "Client.redirect", "resolved")]
    assert omitted["other_type"] == 2  # app's send(...), handler's send(...)


def test_a_propertys_return_type_types_its_receiver(daemon: Daemon) -> None:
    """httpx's ``self.cookies.extract_cookies(response)`` in a subclass: ``cookies`` is a
    base class's property annotated ``-> Cookies``, with a setter of the same qualified
    name after it; the call was name-only, as the other class's."""
    found = sorted((c.line, c.confidence, c.target) for c in daemon.service.find_callers(
        "Cookies.extract_cookies", repo="fx"))
    assert found == [(27, "resolved", "pkg.cookies.Cookies.extract_cookies")]
