"""``symbols``, ``callers`` and ``card`` put source before the other roles (``service.role_rank``)
when several definitions or call sites match alike: a JavaScript package's built bundle in
``dist/`` holds a copy of every function of ``lib/`` (and a bundler's helper of the same
name), and sorted first by path; a test's calls came before the code's. Real git fixture,
real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

SETTLE = '''\
export default function settle(resolve, reject, response) {
  const validateStatus = response.config.validateStatus;
  if (!response.status || !validateStatus || validateStatus(response.status)) {
    resolve(response);
  } else {
    reject(new Error('Request failed with status code ' + response.status));
  }
}
'''

COMBINE = '''\
export default function combineURLs(baseURL, relativeURL) {
  return relativeURL ? baseURL.replace(/\\/?\\/$/, '') + '/' + relativeURL.replace(/^\\/+/, '') : baseURL;
}
'''

FILES = {
    "lib/core/settle.js": SETTLE,
    "lib/helpers/combineURLs.js": COMBINE,
    "lib/core/dispatch.js": '''\
import settle from './settle.js';

export function dispatch(resolve, reject, response) {
  settle(resolve, reject, response);
}
''',
    # The bundle: a copy of settle and its caller, and a bundler's helper of the same name,
    # and a copy of combineURLs whose bundler comment repeats the helper's words.
    "dist/axios.js": SETTLE.replace("export default ", "") + (
        "\n/**\n * combineURLs: combine a base URL and a relative URL into combined URLs: the base\n"
        " * URL, the relative URL, combined; URLs combined by combineURLs.\n */\n") + COMBINE.replace(
        "export default ", "") + '''
class AsyncGenerator {
  settle(type, value) {
    return {type, value};
  }
}

function dispatchBundled(resolve, reject, response) {
  settle(resolve, reject, response);
}
''',
    # A class and its TypeScript declaration (a signature, not the code).
    "lib/core/Settler.js": '''\
export class Settler {
  settle(resolve, reject, response) {
    return response.status < 400 ? resolve(response) : reject(response);
  }
}
''',
    "index.d.ts": '''\
export declare class Settler {
  settle(resolve: any, reject: any, response: any): void;
}
''',
    "src/routing/map.py": '''\
import typing as t


class MapAdapter:
    @t.overload
    def match(self, path: str, return_rule: t.Literal[False] = False) -> tuple: ...

    @t.overload
    def match(self, path: str, return_rule: t.Literal[True]) -> tuple: ...

    def match(self, path, return_rule=False):
        return (path, return_rule)
''',
    "test/unit/settle.spec.js": '''\
import settle from '../../lib/core/settle.js';

export function checksRejection(resolve, reject) {
  settle(resolve, reject, {status: 500, config: {}});
}
''',
    "test/unit/combineURLs.spec.js": '''\
import combineURLs from '../../lib/helpers/combineURLs.js';

export function combinesTheTwo() {
  return combineURLs('https://api.github.com', '/users') === 'https://api.github.com/users';
}
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("source-first"), FILES) as running:
        yield running


def test_symbols_list_the_source_definitions_before_the_bundles_copies(daemon: Daemon) -> None:
    """By path, ``dist/`` came first; ``index.d.ts``'s signature follows the code."""
    found = [(h.path, h.qualified_name, h.role) for h in daemon.service.find_symbols("settle", repo="fx")
             if h.kind != "module"]
    # a bare name: the function of that name before a method named so (``_member_order``)
    assert found == [("lib/core/settle.js", "settle", "source"),
                     ("lib/core/Settler.js", "Settler.settle", "source"),
                     ("index.d.ts", "Settler.settle", "source"),
                     ("dist/axios.js", "settle", "generated"),
                     ("dist/axios.js", "AsyncGenerator.settle", "generated")]


def test_an_implementation_comes_before_its_declaration(daemon: Daemon) -> None:
    """``index.d.ts`` sorts before ``lib/`` by path; the code comes first in every lookup."""
    found = [h.path for h in daemon.service.find_symbols("Settler.settle", repo="fx")]
    assert found == ["lib/core/Settler.js", "index.d.ts"]
    hits = daemon.service.search("Settler.settle", limit=3, repo="fx")
    assert [(h.path, h.match) for h in hits[:2]] == [("lib/core/Settler.js", "exact"), ("index.d.ts", "exact")]
    assert daemon.service.get_card("Settler.settle", repo="fx").path == "lib/core/Settler.js"


def test_an_implementation_comes_before_its_overload_stubs(daemon: Daemon) -> None:
    """By line the two ``@t.overload`` stubs came first (werkzeug's ``MapAdapter.match``)."""
    found = [h.start_line for h in daemon.service.find_symbols("MapAdapter.match", repo="fx")]
    assert found == [11, 5, 8]
    assert daemon.service.get_card("MapAdapter.match", repo="fx").start_line == 11


def test_an_identifier_query_pins_the_source_definitions_first(daemon: Daemon) -> None:
    hits = daemon.service.search("settle", limit=5, repo="fx")
    assert [(h.path, h.match) for h in hits] == [
        ("lib/core/Settler.js", "exact"), ("lib/core/settle.js", "exact"), ("index.d.ts", "exact"),
        ("dist/axios.js", "exact"), ("dist/axios.js", "exact")]


def test_callers_list_the_sources_calls_before_the_tests_and_the_bundles(daemon: Daemon) -> None:
    """All three calls resolve alike; the source's comes first, then the test's, then the
    bundle's copy (by path it came before the test's)."""
    sites = [(s.path, s.caller, s.confidence) for s in daemon.service.find_callers("settle", repo="fx")]
    assert sites == [("lib/core/dispatch.js", "dispatch", "resolved"),
                     ("test/unit/settle.spec.js", "checksRejection", "resolved"),
                     ("dist/axios.js", "dispatchBundled", "resolved")]


def test_the_card_is_a_source_definitions(daemon: Daemon) -> None:
    """``dist/axios.js`` sorts first by path; the card describes ``lib/``'s code."""
    card = daemon.service.get_card("settle", repo="fx")
    assert (card.path, card.qualified_name) == ("lib/core/settle.js", "settle")


@pytest.mark.parametrize("query", ["tests for combineURLs", "combine a base URL and a relative URL"])
def test_search_puts_the_source_above_the_bundles_copy(daemon: Daemon, query: str) -> None:
    """The bundle's copy scores as high as ``lib/``'s or higher (its comment repeats the
    words): generated code costs 0.5, so the source comes first among the two (a newcomer
    on axios saw four ``dist/`` copies above ``lib/``'s for "tests for combineURLs"); a
    test asked for still leads."""
    hits = [(h.path, h.qualified_name) for h in daemon.service.search(query, limit=6, repo="fx")
            if h.qualified_name.endswith("combineURLs") or h.role == "test"]
    assert hits.index(("lib/helpers/combineURLs.js", "combineURLs")) < hits.index(("dist/axios.js", "combineURLs"))
    if query.startswith("tests"):
        assert hits[0][0] == "test/unit/combineURLs.spec.js"
