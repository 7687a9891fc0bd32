"""A Go chain's calls are on its last step's result: gorilla/mux's
``subrouter1 := new(Route).Host(..).Subrouter()`` was typed ``Route`` (the chain's start),
so its ``subrouter1.Path(..)`` calls were resolved callers of ``Route.Path`` and left out
of ``Router.Path``'s; and ``r.HandleFunc(..).Methods(..)`` on ``r := NewRouter()`` (51 of
``Route.Methods``' 57 callers) was name-only, a candidate of every ``Methods`` too (a
newcomer). The index names each step another file defines by the call
(``records.RETURNED``: ``mux.Route.Host().Subrouter().Path``); the query side
follows the steps' declared results (``callgraph.chained``).

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "go.mod": "module example.com/mux\n\ngo 1.21\n",
    "route.go": """package mux

type Route struct{}

func (r *Route) Host(tpl string) *Route { return r }

func (r *Route) Methods(methods ...string) *Route { return r }

func (r *Route) Path(tpl string) *Route { return r }

func (r *Route) Subrouter() *Router { return &Router{} }

func (r *Route) Name(name string) Matcher { return nil }
""",
    "mux.go": """package mux

type Matcher interface {
\tPath(tpl string) *Route
}

type Router struct{}

func NewRouter() *Router { return &Router{} }

func (r *Router) NewRoute() *Route { return &Route{} }

func (r *Router) HandleFunc(path string, f func()) *Route { return r.NewRoute().Path(path) }

func (r *Router) Path(tpl string) *Route {
\treturn r.NewRoute().Path(tpl)
}

func (r *Router) Methods(methods ...string) *Route {
\treturn r.NewRoute().Methods(methods...)
}

var (
\t// RegexpCompileFunc aliases regexp.Compile and enables overriding it.
\tRegexpCompileFunc = regexp.Compile
)
""",
    "mux_test.go": """package mux

func TestSubRouter(t *testing.T) {
\tsubrouter1 := new(Route).Host("{v1:[a-z]+}.google.com").Subrouter()
\tsubrouter1.Path("/a")
\tnew(Route).Methods("POST").Host("x").Subrouter().Path("/")
\tr := NewRouter()
\tr.HandleFunc("/", nil).Methods("GET")
\tr.HandleFunc("/", nil).Host("h").Methods("GET")
\tnew(Route).Name("n").Path("/x")
}
""",
    "conf.go": """package mux

// common route configuration shared between `Router` and `Route`
type routeConf struct {
\t// Manager for the variables from host and path.
\tregexp routeRegexpGroup
}

type shared struct {
\trouteConf
}

func (c *shared) run() {
\tc.regexp.setMatch()
}
""",
    "group.go": """package mux

type routeRegexpGroup struct{}

func (v routeRegexpGroup) setMatch() {}
""",
    "match.go": """package mux

type matched struct {
\trouteConf
}

func (m *matched) Match() {
\tm.regexp.setMatch()
}

func use(r *matched) {
\tr.regexp.setMatch()
}
""",
    "regexp.go": """package mux

func newRouteRegexp(tpl string) {
\treg, errCompile := RegexpCompileFunc(tpl)
\treg.NumSubexp()
\tNewRouter().HandleFunc(tpl, nil)
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("gochains"), FILES) as d:
        yield d


def test_a_chain_through_other_files_results_calls_its_last_results_method(running: Daemon) -> None:
    # `Name` returns an interface: its `Path` may be any type's (name-only for both)
    assert caller_rows(running, "Router.Path") == [
        ("mux_test.go", 5, "mux.TestSubRouter", "resolved"),
        ("mux_test.go", 6, "mux.TestSubRouter", "resolved"),
        ("mux_test.go", 10, "mux.TestSubRouter", "name_only"),
    ]
    assert caller_rows(running, "Route.Path") == [
        ("mux.go", 13, "mux.Router.HandleFunc", "resolved"),
        ("mux.go", 16, "mux.Router.Path", "resolved"),
        ("mux_test.go", 10, "mux.TestSubRouter", "name_only"),
    ]


def test_a_builder_chains_tail_on_another_files_result_resolves(running: Daemon) -> None:
    assert caller_rows(running, "Route.Methods") == [
        ("mux.go", 20, "mux.Router.Methods", "resolved"),
        ("mux_test.go", 6, "mux.TestSubRouter", "resolved"),
        ("mux_test.go", 8, "mux.TestSubRouter", "resolved"),
        ("mux_test.go", 9, "mux.TestSubRouter", "resolved"),
    ]
    assert caller_rows(running, "Router.Methods") == []
    assert caller_rows(running, "Router.HandleFunc") == [
        ("mux_test.go", 8, "mux.TestSubRouter", "resolved"),
        ("mux_test.go", 9, "mux.TestSubRouter", "resolved"),
        ("regexp.go", 6, "mux.newRouteRegexp", "resolved"),
    ]


def test_callees_name_the_method_a_result_has_and_no_result_of_a_variable(running: Daemon) -> None:
    """mux's ``callees newRouteRegexp`` listed ``reg.NumSubexp`` as a resolved call of
    ``RegexpCompileFunc().NumSubexp``: ``RegexpCompileFunc`` is a package variable of func
    type, no function with a declared result."""
    got = [(s.line, s.callee, s.confidence, s.target)
           for s in running.service.find_callees("newRouteRegexp")]
    assert got == [
        (4, "RegexpCompileFunc", "resolved", "example.com/mux.RegexpCompileFunc"),
        (5, "reg.NumSubexp", "name_only", ""),
        (6, "HandleFunc", "resolved", "example.com/mux.Router.HandleFunc"),
        (6, "NewRouter", "resolved", "example.com/mux.NewRouter"),
    ]


def test_a_call_through_a_promoted_field_of_another_files_struct_resolves(running: Daemon) -> None:
    """mux's ``r.regexp.setMatch(..)`` in route.go (``Route`` embeds mux.go's
    ``routeConf``, whose ``regexp`` is a ``routeRegexpGroup`` of regexp.go) had no caller
    but a name-only one: the struct's typed fields are stored (``field_types``) and the
    query side promotes them to every struct embedding it (``callgraph._promoted``)."""
    assert caller_rows(running, "routeRegexpGroup.setMatch") == [
        ("conf.go", 14, "mux.shared.run", "resolved"),
        ("match.go", 8, "mux.matched.Match", "resolved"),
        ("match.go", 12, "mux.use", "resolved"),
    ]
