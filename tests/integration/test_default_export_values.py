"""A call on a package's default export that is a value of no stated type (ky's ``export
default ky`` of a ``const ky = createInstance()``) is a ``name_only`` candidate of the
method the factory gives it, not a call on another type: ky's 27 ``ky.extend(..)`` calls
were left out of ``callers`` of the ``extend`` its factory defines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, indexed

INDEX = """const createInstance = (defaults?: object) => {
\tconst ky: any = (input: string) => input;
\tky.extend = (more: object) => createInstance(more);
\treturn ky;
};

const ky = createInstance();

export default ky;
"""
TEST = """import ky from '../source/index.js';
import other from './helper.js';

test('extends', () => {
\tky.extend({a: 1});
\tother.extend({b: 2});
});
"""
HELPER = """class Helper {
\textend(x: object) {
\t\treturn x;
\t}
}

export default Helper;
"""


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    files = {"source/index.ts": INDEX, "test/main.ts": TEST, "test/helper.ts": HELPER,
             "package.json": '{"name": "ky", "main": "source/index.ts"}\n'}
    with indexed(tmp_path_factory.mktemp("default-export"), files) as d:
        yield d


def test_a_call_on_a_default_exported_value_is_a_candidate(running: Daemon) -> None:
    names = [h.qualified_name for h in running.service.find_symbols("extend")]
    assert "createInstance.ky.extend" in names
    omitted: dict[str, int] = {}
    sites = [(s.path, s.line, s.confidence) for s in
             running.service.find_callers("createInstance.ky.extend", limit=50, omitted=omitted)]
    # `other` is the default export of a class: its `extend` is another type's
    assert sites == [("test/main.ts", 5, "name_only")]
    assert omitted == {"other_type": 1}
