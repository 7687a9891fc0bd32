"""A Go call on a composite literal, or on a package-level variable initialised with one, is
its written type's: gin's ``callers Context.Render`` listed 43 name-only calls of other
types' ``Render`` (``(render.PureJSON{Data: obj}).Render(w)``, ``(Data{`` .. ``}).Render(w)``)
and ``callers jsonBinding.Bind`` gin's ``FormPost.Bind(..)``, ``FormPost = formPostBinding{}``
in another file of the package (an agent-workflow trial). A variable declared with an
interface type (``Form Binding = formBinding{}``) may be set to another value: its calls
stay name-only candidates, as a parameter's of an interface type do.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "go.mod": "module example.com/gin\n\ngo 1.21\n",
    "context.go": """package gin

import (
\t"net/http"

\t"example.com/gin/binding"
\t"example.com/gin/render"
)

type Context struct {
\tWriter http.ResponseWriter
}

func (c *Context) Render(code int, r render.Render) {
\tif err := r.Render(c.Writer); err != nil {
\t\tpanic(err)
\t}
}

func (c *Context) JSON(code int, obj any) {
\tc.Render(code, render.JSON{Data: obj})
\trender.JSON{Data: obj}.Render(c.Writer)
\t(&render.PureJSON{Data: obj}).Render(c.Writer)
}

func (c *Context) BindForm(obj any) error {
\treturn binding.FormPost.Bind(nil, obj)
}
""",
    "render/render.go": """package render

import "net/http"

type Render interface {
\tRender(http.ResponseWriter) error
\tWriteContentType(w http.ResponseWriter)
}
""",
    "render/json.go": """package render

import "net/http"

type JSON struct {
\tData any
}

type PureJSON struct {
\tData any
}

func (r JSON) Render(w http.ResponseWriter) error { return nil }

func (r JSON) WriteContentType(w http.ResponseWriter) {}

func (r PureJSON) Render(w http.ResponseWriter) error { return nil }

func (r PureJSON) WriteContentType(w http.ResponseWriter) {}
""",
    "render/vars.go": """package render

var (
\tshared = PureJSON{
\t\tData: "shared",
\t}
)
""",
    "render/render_test.go": """package render

import (
\t"net/http/httptest"
\t"testing"
)

func TestRender(t *testing.T) {
\tw := httptest.NewRecorder()
\t(JSON{Data: 1}).Render(w)
\tJSON{
\t\tData: "{",
\t}.Render(w)
\t(&PureJSON{Data: "}"}).Render(w)
\tinstance := JSON{}
\tinstance.Render(w)
\tshared.Render(w)
}
""",
    "binding/binding.go": """package binding

import "net/http"

type Binding interface {
\tBind(*http.Request, any) error
}

var (
\tJSON     = jsonBinding{}
\tFormPost = formPostBinding{}
\tForm     Binding = formBinding{}
)
""",
    "binding/json.go": """package binding

import "net/http"

type jsonBinding struct{}

func (b jsonBinding) Bind(req *http.Request, obj any) error { return nil }
""",
    "binding/form.go": """package binding

import "net/http"

type formBinding struct{}

type formPostBinding struct{}

func (b formBinding) Bind(req *http.Request, obj any) error { return nil }

func (b formPostBinding) Bind(req *http.Request, obj any) error { return nil }
""",
    "binding/binding_test.go": """package binding

import "testing"

func TestBinding(t *testing.T) {
\tJSON.Bind(nil, nil)
\tFormPost.Bind(nil, nil)
\tb := FormPost
\tb.Bind(nil, nil)
\tForm.Bind(nil, nil)
}

func testBodyBinding(t *testing.T, b Binding) {
\tb.Bind(nil, nil)
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("goliterals"), FILES) as d:
        yield d


def test_calls_on_literals_are_left_out_of_another_types_callers(running: Daemon) -> None:
    # the interface parameter's call inside Context.Render passes one argument, which
    # Context.Render(code, r) does not take (query/arity): no candidate
    assert caller_rows(running, "Context.Render") == [
        ("context.go", 21, "gin.Context.JSON", "resolved"),
    ]


def test_calls_on_literals_are_their_types_callers(running: Daemon) -> None:
    # (line 15: a parameter declared with the `Render` interface both implement: override)
    assert caller_rows(running, "render.JSON.Render") == [
        ("context.go", 15, "gin.Context.Render", "override"),
        ("context.go", 22, "gin.Context.JSON", "resolved"),
        ("render/render_test.go", 10, "render.TestRender", "resolved"),
        ("render/render_test.go", 13, "render.TestRender", "resolved"),
        ("render/render_test.go", 16, "render.TestRender", "resolved"),
    ]
    # `shared` is declared in vars.go: the query side reads its type there
    assert caller_rows(running, "render.PureJSON.Render") == [
        ("context.go", 15, "gin.Context.Render", "override"),
        ("context.go", 23, "gin.Context.JSON", "resolved"),
        ("render/render_test.go", 14, "render.TestRender", "resolved"),
        ("render/render_test.go", 17, "render.TestRender", "resolved"),
    ]


def test_a_package_level_variable_of_another_file_types_its_calls(running: Daemon) -> None:
    # `FormPost.Bind`, a local bound to it, and another package's `binding.FormPost.Bind`:
    # formPostBinding's; `Form` (declared `Binding`) and an interface parameter: calls
    # through the interface each implements (override)
    assert caller_rows(running, "jsonBinding.Bind") == [
        ("binding/binding_test.go", 6, "binding.TestBinding", "resolved"),
        ("binding/binding_test.go", 10, "binding.TestBinding", "override"),
        ("binding/binding_test.go", 14, "binding.testBodyBinding", "override"),
    ]
    assert caller_rows(running, "formPostBinding.Bind") == [
        ("binding/binding_test.go", 7, "binding.TestBinding", "resolved"),
        ("binding/binding_test.go", 9, "binding.TestBinding", "resolved"),
        ("binding/binding_test.go", 10, "binding.TestBinding", "override"),
        ("binding/binding_test.go", 14, "binding.testBodyBinding", "override"),
        ("context.go", 27, "gin.Context.BindForm", "resolved"),
    ]
