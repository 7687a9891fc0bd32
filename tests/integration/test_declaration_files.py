"""Declaration files (``.pyi`` stubs, ``.d.ts``) are not where an issue's fix goes, end to
end on a real git fixture and the real embedded store (sparse side: issues are ranked
lexical-first). A stub beside its implementation repeats the issue's identifiers in one
dense signature: before, it shared the definition bonus and took locate's second place
(numpy's ``.pyi`` files, 11 of 12 issues); now the implementation keeps the whole bonus and
the stub ranks as a test would. The plain behaviour is asserted first (declaration files
not recognised), then the shipped one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import locate as locating
from coderecalld.query import service
from conformance_cases import indexed

FILES = {
    "pkg/pad.py": '''\
def pad_array(array, width, mode="constant"):
    """Pad an array on both ends."""
    if not len(array) and mode != "constant":
        raise ValueError("can't extend empty axis")
    return [array[0]] * width + list(array) + [array[-1]] * width
''',
    # The stub: the issue's name, mode and its values, in one signature.
    "pkg/pad.pyi": '''\
from typing import Literal, Sequence

_PadMode = Literal["constant", "reflect", "edge", "wrap", "empty"]

def pad_array(array: Sequence[float], width: int, mode: _PadMode = "constant") -> list[float]: ...
''',
    "pkg/shapes.py": '''\
def empty_axis(array):
    """Whether an array has an empty axis (nothing to extend or reflect)."""
    return len(array) == 0
''',
}

ISSUE = """\
pad_array with mode='reflect' fails on an empty axis
Calling pad_array on an empty array with mode='reflect' raises ValueError: can't extend
empty axis. With mode='constant' it works; reflect, edge and wrap should behave the same.
"""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("stubs"), FILES) as d:
        yield d


def test_a_stub_file_ranks_below_the_implementation_and_other_source(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    # the chunks' scores are compared: no fused (rank-based) file score
    monkeypatch.setattr(service, "LEXICAL_FILES_DEPTH", 0)
    with monkeypatch.context() as m:
        m.setattr(locating, "declares_only", lambda path: False)
        plain = daemon.service.locate(ISSUE, limit=3, repo="fx").files
        plain_hits = daemon.service.search(ISSUE, limit=2, repo="fx")
    assert [f.path for f in plain] == ["pkg/pad.py", "pkg/pad.pyi", "pkg/shapes.py"]
    assert [h.path for h in plain_hits] == ["pkg/pad.py", "pkg/pad.pyi"]
    files = daemon.service.locate(ISSUE, limit=3, repo="fx").files
    assert [f.path for f in files] == ["pkg/pad.py", "pkg/shapes.py", "pkg/pad.pyi"]
    # the implementation holds the whole definition bonus, not half of it
    assert files[0].score > plain[0].score
    assert [f.qualified_name for f in files[0].functions] == ["pad_array"]
    hits = daemon.service.search(ISSUE, limit=2, repo="fx")
    assert [(h.path, h.qualified_name) for h in hits] == [
        ("pkg/pad.py", "pad_array"), ("pkg/shapes.py", "empty_axis")]


TS_FILES = {
    # every option documented: the issue's words, in a file of interfaces and types only
    "source/types/options.ts": '''\
/** Options of a request. */
export interface Options {
\t/** How many times a failed request is retried: a number, or an object with a limit
\tand the methods to retry. An extended instance keeps the retry limit. */
\tretry?: RetryOptions | number;
}

/** The retry object: limit and methods. */
export type RetryOptions = {limit?: number; methods?: string[]};
''',
    "source/utils/merge.ts": '''\
export const mergeRetry = (parent: unknown, child: unknown) => {
\tif (typeof parent === 'number') {
\t\treturn {limit: parent, ...(child as object)};
\t}
\treturn {...(parent as object), ...(child as object)};
};
''',
    "source/utils/time.ts": '''\
export const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
''',
}

TS_ISSUE = """\
extend() loses the retry limit when the parent instance used `retry: 3`
I create a base instance with a numeric retry and then extend it with a retry object to
restrict the methods. The extended instance retries with the default limit instead of 3:
the parent's retry limit is not merged with the new retry object.
"""


@pytest.fixture(scope="module")
def ts_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("ts-types"), TS_FILES) as d:
        yield d


def test_a_file_of_interfaces_and_types_only_ranks_below_the_code(ts_daemon: Daemon) -> None:
    """ky's ``types/options.ts``, every option documented, led ``locate`` for issues whose
    fix was in ``merge.ts``: a TypeScript file declaring shapes only is a declaration
    file for an issue."""
    (merge,) = ts_daemon.service.find_symbols("mergeRetry", repo="fx")
    (options,) = ts_daemon.service.find_symbols("Options", repo="fx")
    with pytest.MonkeyPatch.context() as m:  # the plain behaviour: the types first
        m.setattr(locating, "declares_shape", lambda payload: False)
        assert [f.path for f in ts_daemon.service.locate(TS_ISSUE, limit=3, repo="fx").files][:2] == [
            "source/types/options.ts", "source/utils/merge.ts"]
    assert [f.path for f in ts_daemon.service.locate(TS_ISSUE, limit=3, repo="fx").files][:2] == [
        "source/utils/merge.ts", "source/types/options.ts"]
    # an issue only: a question about the options still finds their declaration first
    assert ts_daemon.service.search("how many times is a failed request retried", limit=1,
                                    repo="fx")[0].path == "source/types/options.ts"
    assert (merge.kind, options.kind) == ("function", "interface")
