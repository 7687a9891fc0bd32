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

FILES = {
    "lib/core/settle.js": SETTLE,
    "lib/core/dispatch.js": '''\
import settle from './settle.js';

export function dispatch(resolve, reject, response) {
  settle(resolve, reject, response);
}
''',
    # The bundle: a copy of settle and its caller, and a bundler's helper of the same name.
    "dist/axios.js": SETTLE.replace("export default ", "") + '''
class AsyncGenerator {
  settle(type, value) {
    return {type, value};
  }
}

function dispatchBundled(resolve, reject, response) {
  settle(resolve, reject, response);
}
''',
    "test/unit/settle.spec.js": '''\
import settle from '../../lib/core/settle.js';

export function checksRejection(resolve, reject) {
  settle(resolve, reject, {status: 500, config: {}});
}
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("source-first"), FILES) as running:
        yield running


def test_symbols_list_the_source_definition_before_the_bundles_copy(daemon: Daemon) -> None:
    found = [(h.path, h.qualified_name, h.role) for h in daemon.service.find_symbols("settle", repo="fx")
             if h.kind != "module"]
    assert found[0] == ("lib/core/settle.js", "settle", "source")
    assert {(p, r) for p, _, r in found[1:]} == {("dist/axios.js", "generated")}
    assert sorted(q for _, q, _ in found[1:]) == ["AsyncGenerator.settle", "settle"]


def test_callers_list_the_sources_calls_before_the_tests_and_the_bundles(daemon: Daemon) -> None:
    """All three calls resolve alike; the source's comes first, then the bundle's and the
    test's (the same rank: by path)."""
    sites = [(s.path, s.caller, s.confidence) for s in daemon.service.find_callers("settle", repo="fx")]
    assert sites == [("lib/core/dispatch.js", "dispatch", "resolved"),
                     ("dist/axios.js", "dispatchBundled", "resolved"),
                     ("test/unit/settle.spec.js", "checksRejection", "resolved")]


def test_the_card_is_the_source_definitions(daemon: Daemon) -> None:
    card = daemon.service.get_card("settle", repo="fx")
    assert (card.path, card.qualified_name) == ("lib/core/settle.js", "settle")
