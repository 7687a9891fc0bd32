"""A call written on another type with ``::`` is no call of a method of the same name (PHP,
Rust, C++, Ruby scopes are types): ``callers`` leaves it out and counts it as on another
type, though no resolution knows the receiver (``callgraph._scoped_elsewhere``); the
method's own scopes (``self::``, ``static::``, its class) stay. Real git fixture, real
embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "src/Redirect.php": '''\
<?php
namespace Acme;

class Redirect
{
    public function modifyRequest($request)
    {
        return $request;
    }

    public function follow($request)
    {
        $next = $this->modifyRequest($request);
        $again = self::modifyRequest($next);
        return Psr7\\Utils::modifyRequest($again, []);
    }
}
''',
    "src/Client.php": '''\
<?php
namespace Acme;

class Client
{
    public function send($request)
    {
        $request = Psr7\\Utils::modifyRequest($request, []);
        return Redirect::modifyRequest($request);
    }
}
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("scoped"), FILES) as running:
        yield running


def test_a_call_on_another_types_scope_is_left_out(daemon: Daemon) -> None:
    omitted: dict[str, int] = {}
    sites = sorted((c.path, c.line) for c in daemon.service.find_callers(
        "Redirect::modifyRequest", repo="fx", omitted=omitted))
    assert sites == [("src/Client.php", 9), ("src/Redirect.php", 13), ("src/Redirect.php", 14)]
    assert omitted == {"other_type": 2}


@pytest.mark.parametrize("query", ["Acme\\Redirect::modifyRequest", "\\Acme\\Redirect::modifyRequest",
                                   "Redirect::modifyRequest"])
def test_a_php_name_with_its_namespace_is_pinned(daemon: Daemon, query: str) -> None:
    hits = daemon.service.search(query, limit=2, repo="fx")
    assert (hits[0].path, hits[0].match) == ("src/Redirect.php", "exact")
    assert hits[0].qualified_name.endswith("Redirect.modifyRequest")
