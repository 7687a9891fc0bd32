"""JS/TS test blocks (``test("title", t => ...)``, ``it``, ``describe``, ``test.serial``;
``queries/javascript/stored.scm``) are symbols named by their titles: ky's tests were one
2,856-line whole-module chunk, so "tests for replaceOption" found no test and its callers were
the test file. Real git fixture, real embedded store (lexical)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed
from test_js_reexports import PACKAGE

FILES = {
    **PACKAGE,
    "test/main.ts": '''\
import test from 'ava';
import {replaceOption, deepMerge} from '../source/utils/merge.js';

test('deletion from a replaceOption(...) boundary', async t => {
  t.deepEqual(replaceOption({bar: undefined}), {bar: undefined});
});

test.serial('ky.extend() merges hooks', t => {
  t.truthy(deepMerge({hooks: []}, {hooks: []}));
});
''',
    "test/merge.spec.js": '''\
describe('deepMerge', () => {
  it('merges two objects', function () {
    expect(deepMerge({a: 1}, {b: 2})).toEqual({a: 1, b: 2});
  });
});
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("js-tests"), FILES) as running:
        yield running


def test_test_blocks_are_symbols_named_by_their_titles(daemon: Daemon) -> None:
    found = {(h.path, h.qualified_name, h.kind, h.start_line, h.end_line, h.role)
             for name in ("ky.extend() merges hooks", "deepMerge.merges two objects", "deepMerge")
             for h in daemon.service.find_symbols(name, repo="fx") if h.path.startswith("test/")}
    assert found == {
        ("test/main.ts", "ky.extend() merges hooks", "function", 8, 10, "test"),
        ("test/merge.spec.js", "deepMerge", "function", 1, 5, "test"),
        ("test/merge.spec.js", "deepMerge.merges two objects", "function", 2, 4, "test")}


def test_a_tests_call_is_its_test_blocks(daemon: Daemon) -> None:
    sites = {(s.path, s.line, s.caller) for s in daemon.service.find_callers("deepMerge", repo="fx")}
    assert ("test/main.ts", 9, "ky.extend() merges hooks") in sites
    assert ("test/merge.spec.js", 3, "deepMerge.merges two objects") in sites


def test_tests_for_a_function_answer_its_test_blocks(daemon: Daemon) -> None:
    hits = daemon.service.search("tests for replaceOption", limit=3, repo="fx")
    assert (hits[0].path, hits[0].qualified_name) == ("test/main.ts", "deletion from a replaceOption(...) boundary")
