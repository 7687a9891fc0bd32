"""A Go generic function instantiated with a plain type name is called: ``getTyped[string](c,
key)`` parses as an index expression (the parser cannot tell it from ``handlers[i](c)``),
whose call was named after its index, ``string``: gin's 15 such calls of ``getTyped`` were
missed while ``getTyped[time.Time](..)`` (type arguments to the parser) was found (a callers
trial). An indexed call on a value (a table's element) calls no name at all. Each site is
asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "go.mod": "module example.com/gin\n\ngo 1.21\n",
    "internal/conv/conv.go": """package conv

func Cast[T any](v any) T {
\treturn v.(T)
}
""",
    "context.go": """package gin

import "example.com/gin/internal/conv"

type HandlerFunc func(*Context)

type Context struct {
\thandlers []HandlerFunc
\tindex    int
\tkeys     map[string]any
}

func getTyped[T any](c *Context, key string) (res T) {
\tres, _ = c.keys[key].(T)
\treturn
}

func index(c *Context) int { return c.index }
""",
    "getters.go": """package gin

import (
\t"time"

\t"example.com/gin/internal/conv"
)

var table = map[string]func(*Context) int{"index": index}

func (c *Context) GetString(key string) string {
\treturn getTyped[string](c, key)
}

func (c *Context) GetTime(key string) time.Time {
\treturn getTyped[time.Time](c, key)
}

func (c *Context) GetInts(key string) []int {
\treturn getTyped[[]int](c, key)
}

func (c *Context) Next() {
\tc.handlers[c.index](c)
\t_ = table[string(c.index)](c)
\t_ = conv.Cast[int](c.keys["n"])
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("gogenerics"), FILES) as d:
        yield d


def test_an_instantiation_with_a_type_name_calls_the_generic_function(running: Daemon) -> None:
    assert caller_rows(running, "getTyped") == [
        ("getters.go", 12, "gin.Context.GetString", "resolved"),
        ("getters.go", 16, "gin.Context.GetTime", "resolved"),
        ("getters.go", 20, "gin.Context.GetInts", "resolved"),
    ]


def test_an_imported_generic_function_instantiated_is_called(running: Daemon) -> None:
    assert caller_rows(running, "Cast") == [("getters.go", 26, "gin.Context.Next", "resolved")]


def test_an_indexed_value_called_calls_no_name(running: Daemon) -> None:
    # `c.handlers[c.index](c)` and `table[..](c)` were calls of `index` (the index's last
    # word); the table's entry names it as a value
    assert caller_rows(running, "index") == [("getters.go", 9, "", "reference")]
