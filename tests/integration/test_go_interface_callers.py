"""A Go call on a value typed with an interface is a call its implementations' methods may
run: gin's ``c.Writer.WriteHeaderNow()`` (``Writer ResponseWriter``, an interface
``responseWriter`` implements) was left out of ``responseWriter.WriteHeaderNow``'s callers
as another type's (a newcomer, against go/types). Listed as ``override``, as TypeScript's
calls through an implemented interface are. An interface the type does not implement (a
method it lacks) stays another type's. Each site is asserted by exact (path, line, caller,
confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "go.mod": "module example.com/gin\n\ngo 1.21\n",
    "response_writer.go": """package gin

type ResponseWriter interface {
\tWriteHeaderNow()
\tSize() int
}

type Flusher interface {
\tWriteHeaderNow()
\tFlushAll()
}

type responseWriter struct {
\tsize int
}

func (w *responseWriter) WriteHeaderNow() {}

func (w *responseWriter) Size() int { return w.size }

func (w *responseWriter) reset() {
\tw.WriteHeaderNow()
}
""",
    "context.go": """package gin

type Context struct {
\tWriter ResponseWriter
\tflush  Flusher
}

func (c *Context) Status(code int) {
\tc.Writer.WriteHeaderNow()
\tc.flush.WriteHeaderNow()
}

func write(w ResponseWriter, f Flusher) {
\tw.WriteHeaderNow()
\tf.WriteHeaderNow()
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("gointerfaces"), FILES) as d:
        yield d


def test_a_call_on_an_implemented_interface_may_run_the_method(running: Daemon) -> None:
    # a field or a parameter typed `ResponseWriter`: override; one typed `Flusher` (no
    # FlushAll on responseWriter): another type's, left out
    assert caller_rows(running, "responseWriter.WriteHeaderNow") == [
        ("context.go", 9, "gin.Context.Status", "override"),
        ("context.go", 14, "gin.write", "override"),
        ("response_writer.go", 22, "gin.responseWriter.reset", "resolved"),
    ]
