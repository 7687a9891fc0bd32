"""A JS/TS module's re-exports (``export {a, b as c} from "m"``, ``export * as ns from
"m"``) are part of its import table (``parse.imports._js_reexport``), so a call of a name
imported from the re-exporting module resolves to the definition: ky's ``source/index.ts``
re-exports ``replaceOption``, and ``callers replaceOption`` counted its 21 test calls as
calls on another type and answered none. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

#: ky's package and merge module (``test_js_test_blocks`` tests ky's test blocks on them).
PACKAGE = {
    "package.json": '{"name": "ky", "type": "module"}\n',
    "source/utils/merge.ts": '''\
export const replaceOption = <T>(value: T): T => value;

export function deepMerge(a: object, b: object): object {
  return {...a, ...b};
}
''',
}

FILES = {
    **PACKAGE,
    "source/index.ts": '''\
export {replaceOption} from './utils/merge.js';
export {deepMerge as mergeOptions} from './utils/merge.js';
export * as utils from './utils/merge.js';
''',
    "test/main.ts": '''\
import {replaceOption, mergeOptions, utils} from '../source/index.js';

export function replacesHooks() {
  return replaceOption({hooks: []});
}

export function mergesTwo() {
  return mergeOptions({a: 1}, {b: 2});
}

export function mergesThroughTheNamespace() {
  return utils.deepMerge({a: 1}, {b: 2});
}
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("js-reexports"), FILES) as running:
        yield running


@pytest.mark.parametrize(("name", "caller"), [
    ("replaceOption", "replacesHooks"),
    ("deepMerge", "mergesTwo"),
])
def test_a_call_through_a_reexport_is_resolved(daemon: Daemon, name: str, caller: str) -> None:
    omitted: dict[str, int] = {}
    sites = [(s.path, s.caller, s.confidence) for s in daemon.service.find_callers(name, repo="fx", omitted=omitted)
             if s.caller == caller]
    assert sites == [("test/main.ts", caller, "resolved")]
    assert omitted.get("other_type", 0) == 0


def test_a_call_through_a_namespace_reexport_is_resolved(daemon: Daemon) -> None:
    sites = {(s.caller, s.confidence) for s in daemon.service.find_callers("deepMerge", repo="fx")}
    assert ("mergesThroughTheNamespace", "resolved") in sites
