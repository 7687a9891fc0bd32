"""Go's multi-result assignment types each name by the called function's result at its
position: gin's ``c, router := CreateTestContext(w)`` left ``router`` untyped (its
``router.addRoute(..)`` a name-only caller of ``Engine.addRoute``), the function in another
file of the package (``results``, read by the query side: ``callgraph._result_functions``)
or in the same file. A field of another file's result (``c.engine.addRoute(..)``) is typed
by the result's struct's field. Each site is asserted by exact (path, line, caller,
confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "go.mod": "module example.com/gin\n\ngo 1.21\n",
    "context.go": """package gin

type Context struct {
\tengine *Engine
\tindex  int
}

func (c *Context) Next() {
\tc.index++
}
""",
    "gin.go": """package gin

type Engine struct {
\ttrees []string
}

func New() *Engine {
\treturn &Engine{}
}

func (engine *Engine) addRoute(method, path string) {
\tengine.trees = append(engine.trees, method+path)
}

func (engine *Engine) allocateContext() (*Context, error) {
\treturn &Context{engine: engine}, nil
}
""",
    "test_helpers.go": """package gin

func CreateTestContext(w int) (c *Context, r *Engine) {
\tr = New()
\tc, _ = r.allocateContext()
\treturn
}
""",
    "context_test.go": """package gin

import "testing"

func TestContext(t *testing.T) {
\tc, router := CreateTestContext(1)
\trouter.addRoute("GET", "/")
\tc.engine.addRoute("POST", "/")
\tc.Next()
\tctx, engine := pair()
\tengine.addRoute("PUT", "/")
\tctx.Next()
\tfirst, err := router.allocateContext()
\tfirst.Next()
\t_ = err
}

func pair() (*Context, *Engine) {
\treturn nil, New()
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("gomulti"), FILES) as d:
        yield d


def test_a_name_after_the_first_takes_its_position_result(running: Daemon) -> None:
    assert caller_rows(running, "Engine.addRoute") == [
        ("context_test.go", 7, "gin.TestContext", "resolved"),
        ("context_test.go", 8, "gin.TestContext", "resolved"),
        ("context_test.go", 11, "gin.TestContext", "resolved"),
    ]


def test_the_first_name_keeps_the_first_result(running: Daemon) -> None:
    assert caller_rows(running, "Context.Next") == [
        ("context_test.go", 9, "gin.TestContext", "resolved"),
        ("context_test.go", 12, "gin.TestContext", "resolved"),
        ("context_test.go", 14, "gin.TestContext", "resolved"),
    ]
