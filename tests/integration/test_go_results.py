"""A Go value another file's function returned types the calls on it: chi's ``m :=
NewRouter(); m.Mount(..)`` in ``mux_test.go`` (``NewRouter`` in ``chi.go``) was a
name-only caller of ``Mux.Mount``, 21 of its 22 callers (a newcomer), so ``--resolved``
and ``impact`` showed almost none of the router's users. The index names such a receiver
by the function (``records.RETURNED``) and the function's declared result
(``returns``) says which type it is at query time.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed
from coderecalld.store import StoreFilter

FILES = {
    "go.mod": "module example.com/chi\n\ngo 1.21\n",
    "chi.go": """package chi

// NewRouter returns a new Mux.
func NewRouter() *Mux {
\treturn NewMux()
}

// Default returns the package's router as the interface.
func Default() Router {
\treturn NewMux()
}
""",
    "mux.go": """package chi

type Router interface {
\tMount(pattern string)
}

type Mux struct {
\ttree *node
}

func NewMux() *Mux {
\treturn &Mux{}
}

func (mx *Mux) Mount(pattern string) {}

type Other struct{}

func (o *Other) Mount(pattern string) {}
""",
    "tree.go": """package chi

type node struct{}

func (n *node) FindRoute(path string) {}
""",
    "mux_test.go": """package chi

func TestMount(t *testing.T) {
\tm := NewRouter()
\tm.Mount("/a")
\tNewRouter().Mount("/b")
\td := Default()
\td.Mount("/c")
\ttr := &node{}
\ttr.FindRoute("/d")
}
""",
    "handler.go": """package chi

import "example.com/chi/middleware"

func (mx *Mux) routeHTTP(w int) {}

func (mx *Mux) build(limit int) {
\th := HandlerFunc(mx.routeHTTP)
\tmx.Use(middleware.Logger, limit, nil)
\trun(h)
}
""",
    "context.go": """package chi

import "example.com/lib"

type Context struct {
\tparams []string
}

func handle(r lib.Request) int {
\treturn r.Context()
}
""",
    "middleware/logger.go": """package middleware

func Logger(next int) int {
\treturn next
}
""",
    "middleware/use.go": """package middleware

import "example.com/chi"

func Setup() {
\tr := chi.NewRouter()
\tr.Mount("/e")
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("goresults"), FILES) as d:
        yield d


def test_a_value_another_files_function_returned_types_its_calls(running: Daemon) -> None:
    # `m := NewRouter()`, `NewRouter().Mount` and another package's `chi.NewRouter()`:
    # resolved; `Default()` returns an interface: the call may be on any type (name-only)
    assert caller_rows(running, "Mux.Mount") == [
        ("middleware/use.go", 7, "middleware.Setup", "resolved"),
        ("mux_test.go", 5, "chi.TestMount", "resolved"),
        ("mux_test.go", 6, "chi.TestMount", "resolved"),
        ("mux_test.go", 8, "chi.TestMount", "name_only"),
    ]
    # the same calls are no callers of another type's Mount
    assert caller_rows(running, "Other.Mount") == [("mux_test.go", 8, "chi.TestMount", "name_only")]


def test_a_composite_literal_of_another_files_lowercase_type_types_its_name(running: Daemon) -> None:
    assert caller_rows(running, "node.FindRoute") == [("mux_test.go", 10, "chi.TestMount", "resolved")]


def test_a_functions_declared_result_is_in_its_payload(running: Daemon) -> None:
    # a pointer to a struct of the package: its target-style name; an interface: none
    found = {str(h.payload["fq_name"]): h.payload.get("returns", "")
             for h in running.store.find_any(StoreFilter(repo="fx"), "kind", ["function", "method"],
                                             limit=50, fields=("fq_name", "returns"))}
    assert found == {"example.com/chi.NewRouter": "example.com/chi.Mux",
                     "example.com/chi.NewMux": "example.com/chi.Mux",
                     "example.com/chi.Default": "",
                     "example.com/chi.Mux.Mount": "", "example.com/chi.Other.Mount": "",
                     "example.com/chi.Router.Mount": "",
                     "example.com/chi.Mux.build": "", "example.com/chi.Mux.routeHTTP": "",
                     "example.com/chi/middleware.Logger": "", "example.com/chi.handle": "",
                     "example.com/chi.node.FindRoute": "",
                     "example.com/chi.TestMount": "", "example.com/chi/middleware.Setup": ""}


def test_a_function_or_method_value_passed_on_is_a_reference(running: Daemon) -> None:
    """chi's ``http.HandlerFunc(mx.routeHTTP)`` (the router's handler) and ``r.Use(
    middleware.Logger)`` had no callers at all: now a ``reference`` each; the local ``h``,
    the parameter ``limit`` and ``nil`` name nothing."""
    assert caller_rows(running, "Mux.routeHTTP") == [("handler.go", 8, "chi.Mux.build", "reference")]
    assert caller_rows(running, "middleware.Logger") == [("handler.go", 9, "chi.Mux.build", "reference")]
    found = {str(h.payload["qualified_name"]): h.payload.get("reference_targets")
             for h in running.store.find(StoreFilter(repo="fx"), "path", "handler.go", limit=10)}
    assert found["chi.Mux.build"] == ["example.com/chi.Mux.routeHTTP", "example.com/chi/middleware.Logger"]


def test_a_go_struct_is_called_by_no_member_call(running: Daemon) -> None:
    """chi's ``callers Context`` (a struct) listed 54 ``r.Context()`` calls on requests: a
    Go type is called only as a conversion, never as a value's member."""
    assert caller_rows(running, "Context") == []


def test_a_go_types_card_lists_its_methods_in_every_file_of_its_package(tmp_path_factory: pytest.TempPathFactory) -> None:
    """mux's ``card Router`` listed 23 methods of ``mux.go`` and not ``Router.Use``
    (``middleware.go``); a type of the same name in another package is another type."""
    files = {
        "go.mod": "module example.com/mux\n\ngo 1.21\n",
        "mux.go": "package mux\n\n// Router routes.\ntype Router struct {\n\troutes []int\n}\n\n"
                  "// Handle adds a route.\nfunc (r *Router) Handle(path string) {}\n",
        "middleware.go": "package mux\n\n// Use appends a middleware.\nfunc (r *Router) Use(mw int) {}\n",
        "other/router.go": "package other\n\ntype Router struct{}\n\nfunc (r *Router) Elsewhere() {}\n",
        "mux_test.go": "package mux\n\nfunc (r *Router) testHelper() {}\n",
    }
    with indexed(tmp_path_factory.mktemp("gocard"), files) as d:
        got = d.service.get_card("mux.Router", repo="fx", budget_tokens=4000)
    assert (got.path, got.methods) == ("mux.go", ("func (r *Router) Handle(path string)", "func (r *Router) Use(mw int)"))
