"""A name-only call passing an argument count no definition of the asked name takes is no
call of it: hono's 30 ``str.match(/re/)`` and ``cache.match(key)`` were name-only callers
of ``Router.match(method, path)`` (a callers trial). The count is the parser's
(``CallSite.arguments``, over lines too); a spread or a keyword argument is counted not,
and such a call stays a candidate. Go, TypeScript and Python; each site is asserted by
exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "src/router.ts": """export interface Router<T> {
  match(method: string, path: string): T[]
}
""",
    "src/app.ts": """export function dispatch(router: any, path: string, args: string[], cache: any) {
  const found = router.match('GET', path)
  const many = router.match(
    'GET',
    path,
  )
  const spread = router.match(...args)
  const parts = path.match(/^\\/(\\w+)/)
  const hit = cache.match(path)
  return [found, many, spread, parts, hit]
}
""",
    "pkg/client.py": """class Client:
    def get(self, url, timeout=None):
        return url


def fetch(c, d, kw):
    c.get("/a")
    c.get("/a", 3)
    d.get("k", 1, 2)
    d.get(url="/a")
    return c.get(*kw)
""",
    "go.mod": "module example.com/gin\n\ngo 1.21\n",
    "chain.go": """package gin

import "example.com/other/stack"

type HandlerFunc func()

type HandlersChain []HandlerFunc

func (c HandlersChain) Last(skip ...int) HandlerFunc { return nil }

func (c HandlersChain) Depth() int { return len(c) }

func use() {
\ts := stack.Make()
\ts.Last()
\ts.Last(1, 2)
\ts.Depth()
\ts.Depth(1)
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("arity"), FILES) as d:
        yield d


def test_a_typescript_call_of_another_count_is_no_candidate(running: Daemon) -> None:
    # one argument (`path.match(/re/)`, `cache.match(path)`): no Router.match
    assert caller_rows(running, "Router.match") == [
        ("src/app.ts", 2, "dispatch", "name_only"),
        ("src/app.ts", 3, "dispatch", "name_only"),
        ("src/app.ts", 7, "dispatch", "name_only"),
    ]


def test_a_python_call_of_another_count_is_no_candidate(running: Daemon) -> None:
    # `self` is bound; `d.get("k", 1, 2)` passes three, a keyword or a splat counts not
    assert caller_rows(running, "Client.get") == [
        ("pkg/client.py", 7, "fetch", "name_only"),
        ("pkg/client.py", 8, "fetch", "name_only"),
        ("pkg/client.py", 10, "fetch", "name_only"),
        ("pkg/client.py", 11, "fetch", "name_only"),
    ]


def test_a_go_call_of_another_count_is_no_candidate(running: Daemon) -> None:
    # a variadic method takes any count; `s.Depth(1)` is no call of `Depth()`
    assert caller_rows(running, "HandlersChain.Last") == [
        ("chain.go", 15, "gin.use", "name_only"),
        ("chain.go", 16, "gin.use", "name_only"),
    ]
    assert caller_rows(running, "HandlersChain.Depth") == [("chain.go", 17, "gin.use", "name_only")]
