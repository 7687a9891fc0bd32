"""A Go interface's own method is called on values declared with the interface: a
parameter (``b Binding``), a function literal's (``func(w ResponseWriter)``), a package
variable declared with it whatever its initializer (``Form Binding = formBinding{}``; gin's
23 calls of ``Binding.Name`` on such variables were missed, listed under ``formBinding.Name``),
a name bound to one (``b := Form``), a conversion (``ResponseWriter(writer)``), and an
interface embedding it (``JSON BindingBody``: inherited). A call on a concrete implementing
type stays that type's; the interface's calls are ``override`` candidates of the type's
method. Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "go.mod": "module example.com/gin\n\ngo 1.21\n",
    "binding/binding.go": """package binding

type Binding interface {
\tName() string
}

type BindingBody interface {
\tBinding
\tBindBody([]byte) error
}

type BindingUri interface {
\tName() string
\tBindUri(map[string][]string) error
}

var (
\tForm Binding     = formBinding{}
\tJSON BindingBody = jsonBinding{}
\tUri  BindingUri  = uriBinding{}
)
""",
    "binding/form.go": """package binding

type formBinding struct{}

func (formBinding) Name() string { return "form" }

type jsonBinding struct{}

func (jsonBinding) Name() string { return "json" }

func (jsonBinding) BindBody(body []byte) error { return nil }

type uriBinding struct{}

func (uriBinding) Name() string { return "uri" }
""",
    "binding/binding_test.go": """package binding

import "testing"

func testBodyBinding(t *testing.T, b Binding, name string) {
\t_ = b.Name() == name
}

func TestForm(t *testing.T) {
\t_ = Form.Name()
\tb := Form
\t_ = b.Name()
\t_ = JSON.Name()
\t_ = formBinding{}.Name()
\tu := Uri
\t_ = u.Name()
}
""",
    "response_writer.go": """package gin

type ResponseWriter interface {
\tWriteHeaderNow()
}

type responseWriter struct{}

func (w *responseWriter) WriteHeaderNow() {}
""",
    "response_writer_test.go": """package gin

import "testing"

func TestResponseWriter(t *testing.T) {
\twriter := &responseWriter{}
\tw := ResponseWriter(writer)
\tw.WriteHeaderNow()
\thandle := func(rw ResponseWriter) {
\t\trw.WriteHeaderNow()
\t}
\thandle(w)
\twriter.WriteHeaderNow()
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("gointerfaceown"), FILES) as d:
        yield d


def test_values_declared_with_the_interface_call_its_method(running: Daemon) -> None:
    assert caller_rows(running, "Binding.Name") == [
        ("binding/binding_test.go", 6, "binding.testBodyBinding", "resolved"),
        ("binding/binding_test.go", 10, "binding.TestForm", "resolved"),
        ("binding/binding_test.go", 12, "binding.TestForm", "resolved"),
        ("binding/binding_test.go", 13, "binding.TestForm", "inherited"),
    ]


def test_a_concrete_type_keeps_its_calls_the_interface_may_run_it(running: Daemon) -> None:
    # (`JSON BindingBody` and `Uri BindingUri`: interfaces formBinding does not implement)
    assert caller_rows(running, "formBinding.Name") == [
        ("binding/binding_test.go", 6, "binding.testBodyBinding", "override"),
        ("binding/binding_test.go", 10, "binding.TestForm", "override"),
        ("binding/binding_test.go", 12, "binding.TestForm", "override"),
        ("binding/binding_test.go", 14, "binding.TestForm", "resolved"),
    ]


def test_another_interface_declaring_the_name_keeps_its_calls(running: Daemon) -> None:
    # a `Binding` value runs a concrete type's `Name`, never through `BindingUri`
    assert caller_rows(running, "BindingUri.Name") == [("binding/binding_test.go", 16, "binding.TestForm", "resolved")]


def test_a_conversion_and_a_literal_parameter_are_the_interface(running: Daemon) -> None:
    assert caller_rows(running, "ResponseWriter.WriteHeaderNow") == [
        ("response_writer_test.go", 8, "gin.TestResponseWriter", "resolved"),
        ("response_writer_test.go", 10, "gin.TestResponseWriter", "resolved"),
    ]
