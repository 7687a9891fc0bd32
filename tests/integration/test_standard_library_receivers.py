"""A call whose receiver the index typed as a standard library type's (Go's ``net/http``,
``os``; Python's ``logging``, ``subprocess``) is no caller of a project method of that
name: gin's ``callers Context.Get`` listed 164 name-only calls, every one of them
``http.Header``'s, ``url.Values``' or ``reflect.StructTag``'s (``w.Header().Get(..)`` on
``w := httptest.NewRecorder()``; a newcomer). Calls whose receiver stays unknown are
still name-only. Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "go.mod": "module example.com/gin\n\ngo 1.21\n",
    "context.go": """package gin

import "net/http"

type Context struct {
\tRequest *http.Request
\tKeys    map[string]any
}

func (c *Context) Get(key string) any {
\treturn c.Keys[key]
}

func (c *Context) ClientIP() string {
\tif v := c.Get("ip"); v != nil {
\t\treturn ""
\t}
\treturn c.Request.Header.Get("X-Real-IP")
}
""",
    "context_test.go": """package gin

import (
\t"net/http/httptest"
\t"os"
)

func TestGet(t *testing.T, x Thing) {
\tw := httptest.NewRecorder()
\t_ = w.Header().Get("Content-Type")
\tf, _ := os.CreateTemp("", "x")
\t_ = f.Name()
\t_ = x.Get("unknown")
}
""",
    "pkg/report.py": """import logging
import subprocess


class Reporter:
    def info(self, text):
        return text

    def run(self):
        return 0


def main(reporter: Reporter, other):
    reporter.info("a")
    logging.getLogger(__name__).info("b")
    subprocess.run(["ls"]).check_returncode()
    other.info("c")
    return reporter.run()
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("stdlibrecv"), FILES) as d:
        yield d


def test_a_go_standard_library_types_method_is_no_callers(running: Daemon) -> None:
    # `c.Request.Header.Get` (an http.Header) and `w.Header().Get` (httptest's result)
    # are left out; the untyped `x.Get` stays a candidate
    assert caller_rows(running, "Context.Get") == [
        ("context.go", 15, "gin.Context.ClientIP", "resolved"),
        ("context_test.go", 13, "gin.TestGet", "name_only"),
    ]


def test_a_python_standard_library_result_is_no_callers(running: Daemon) -> None:
    # `logging.getLogger(..).info` is a logging.Logger's; `other.info` stays a candidate
    assert caller_rows(running, "Reporter.info") == [
        ("pkg/report.py", 14, "main", "resolved"),
        ("pkg/report.py", 17, "main", "name_only"),
    ]
