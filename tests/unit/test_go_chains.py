"""Go receiver types read from expressions (index/receivers_go.py): named results, a
chain's tail (``c.Root().Find()``), type assertions, loop variables, ranges over slices of
a known element type, and local closures that are no package function (cobra's faults)."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, resolve
from coderecalld.index.receivers_go import results

GO = b'''package cobra

import (
\t"text/template"

\tflag "github.com/spf13/pflag"
)

type Command struct {
\tcommands []*Command
\tparent   *Command
}

func (c *Command) Root() *Command { return c }

func (c *Command) Parent() *Command { return c.parent }

func (c *Command) Flags() *flag.FlagSet { return nil }

func (c *Command) Find(args []string) (*Command, []string, error) { return c, args, nil }

func (c *Command) Commands() []*Command { return c.commands }

func (c *Command) Name() string { return "" }

func (c *Command) ExecuteC() (cmd *Command, err error) {
\tcmd.run()
\tc.Root().Find(nil)
\tc.Root().Flags().AddFlagSet(nil)
\treturn
}

func (c *Command) run() {
\tfor p := c; p != nil; p = p.Parent() {
\t\tp.Name()
\t}
\tparents := make([]*Command, 0, 5)
\tfor _, q := range parents {
\t\tq.Name()
\t}
\tfor i, sub := range c.commands {
\t\tsub.Name()
\t\t_ = i
\t}
\tfor _, x := range c.Commands() {
\t\tx.Name()
\t}
\tfound, _, _ := c.Root().Find(nil)
\tfound.Name()
\tinner := func() {}
\tinner()
\tt := template.New("top")
\tt.Execute(nil, nil)
}

func usage(in interface{}) {
\tc := in.(*Command)
\tc.Name()
}

func add(cmds ...*Command) {
\tfor _, each := range cmds {
\t\teach.Name()
\t}
}
'''

T = "example.com/cobra.Command."


def sites() -> dict[str, list[tuple[int, str, str]]]:
    parsed = parse.symbols(GO, "go")
    found = resolve.chunks(chunk.chunks("r", "command.go", GO, parsed), parsed, "command.go", "example.com/cobra")
    return {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in found}


def test_named_results_and_chain_tails_resolve_through_this_files_methods() -> None:
    got = sites()["cobra.Command.ExecuteC"]
    assert (27, "cmd.run", T + "run") in got  # `cmd` a named result of type *Command
    assert (28, "Find", T + "Find") in got and (28, "c.Root", T + "Root") in got
    # Flags() returns another package's type: the tail is that type's method
    assert (29, "AddFlagSet", "github.com/spf13/pflag.FlagSet.AddFlagSet") in got
    assert (29, "Flags", T + "Flags") in got


def test_loop_variables_ranges_and_assertions_are_typed() -> None:
    got = {(line, name): target for line, name, target in sites()["cobra.Command.run"]}
    assert got[(34, "p.Parent")] == T + "Parent"  # `for p := c; ...; p = p.Parent()`
    assert got[(35, "p.Name")] == T + "Name"
    assert got[(39, "q.Name")] == T + "Name"  # range over make([]*Command, ..)
    assert got[(42, "sub.Name")] == T + "Name"  # range over a field []*Command
    assert got[(46, "x.Name")] == T + "Name"  # range over a method's []*Command result
    assert got[(49, "found.Name")] == T + "Name"  # first of Find's three results
    assert got[(51, "inner")] == ""  # a closure, no package function `inner`
    # another package's function's result: named by the function (records.RETURNED),
    # its declared result read at query time
    assert got[(53, "t.Execute")] == "text/template.New().Execute"
    assert sites()["cobra.usage"] == [(58, "c.Name", T + "Name")]
    assert sites()["cobra.add"] == [(63, "each.Name", T + "Name")]


def test_results_read_named_unnamed_and_grouped_results() -> None:
    assert results("func (c *C) F(a int) (cmd *C, err error)") == [("cmd", "*C"), ("err", "error")]
    assert results("func F() *C") == [("", "*C")]
    assert results("func (c *C) F(a, b int) (*C, []string, error) {") == [
        ("", "*C"), ("", "[]string"), ("", "error")]
    assert results("func F(x func(int) error) (a, b T)") == [("a", "T"), ("b", "T")]
    assert results("func F()") == []
    assert results("func (c *C) F() (Foo, error)") == [("", "Foo"), ("", "error")]


SHADOWED = b'''package gin

type Engine struct{}

type RouterGroup struct{}

func (engine *Engine) Use() {}

func (group *RouterGroup) Use() {}

func makeGroup() *RouterGroup { return &RouterGroup{} }

func (engine *Engine) probe() {
\tengine.Use()
\tengine := makeGroup()
\tengine.Use()
}

func (engine *Engine) plain() {
\tengine.Use()
}
'''


def test_a_receiver_bound_again_is_not_surely_the_receivers_type() -> None:
    parsed = parse.symbols(SHADOWED, "go")
    found = resolve.chunks(chunk.chunks("r", "gin.go", SHADOWED, parsed), parsed, "gin.go", "example.com/gin")
    got = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in found}
    # `engine := makeGroup()` shadows the receiver: neither call is surely an Engine's
    assert [t for _, n, t in got["gin.Engine.probe"] if n == "engine.Use"] == ["", ""]
    assert got["gin.Engine.plain"] == [(20, "engine.Use", "example.com/gin.Engine.Use")]


MUX_TEST = b'''package mux

import "net/http"

type Route struct{}

func (r *Route) Subrouter() *Router { return nil }

func TestSubRouter(t *testing.T) {
\tsub := new(Route).Subrouter()
\tsub.Path("/{v2:[a-z]+}")
\tsubrouter1 := new(Route).Host("{v1:[a-z]+}.google.com").Subrouter()
\tsubrouter1.Path("/{v2:[a-z]+}")
\tnew(Route).Methods("POST").PathPrefix("/foo").Subrouter().Path("/")
\tr := NewRouter()
\tr.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
\t\tr.Context()
\t}).Methods("GET")
\tr.HandleFunc("/api", emptyHandler).Queries("time", "{time:[0-9]+}").Methods("GET")
\tr.Handle("/p", wrap(func(w http.ResponseWriter, r *http.Request) { r.Context() }), r.Match())
}

var routes = []*Route{new(Route).Subrouter().Path("/a")}

func ExampleRoute_GetVarNames() {
\tr := NewRouter()
\troute := r.Host("{domain}").
\t\tPath("/{group}/{item_id}"). // the group
\t\tQueries("some_data1", "{some_data1}")
\troute.GetVarNames()
}
'''
M = "example.com/mux."


def mux_sites() -> dict[str, list[tuple[int, str, str]]]:
    parsed = parse.symbols(MUX_TEST, "go")
    found = resolve.chunks(chunk.chunks("r", "mux_test.go", MUX_TEST, parsed), parsed, "mux_test.go",
                           "example.com/mux")
    return {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in found}


def test_a_chains_type_is_its_last_steps_result() -> None:
    """mux's ``subrouter1 := new(Route).Host(..).Subrouter()`` was typed ``Route``, the
    chain's start: its ``Path`` calls resolved to ``Route.Path``, not ``Router.Path``.
    A step this file defines is its declared result; one it does not is named by the call
    (``RETURNED``), and so is every step after it, for the query side to read."""
    got = {(line, name): target for line, name, target in mux_sites()["mux.TestSubRouter"]}
    assert got[(11, "sub.Path")] == M + "Router.Path"  # Subrouter() of this file: *Router
    assert got[(12, "Host")] == M + "Route.Host"
    assert got[(12, "Subrouter")] == M + "Route.Host().Subrouter"
    assert got[(13, "subrouter1.Path")] == M + "Route.Host().Subrouter().Path"
    assert got[(14, "Path")] == M + "Route.Methods().PathPrefix().Subrouter().Path"
    # a builder chain on another file's function's result
    assert got[(19, "Methods")] == M + "NewRouter().HandleFunc().Queries().Methods"
    # `}).Methods(`: its chain opens lines above, `r` the router there (the literal's `r`
    # is a request)
    assert got[(18, "Methods")] == M + "NewRouter().HandleFunc().Methods"
    # a package variable's value: no local names anything there
    assert mux_sites()["mux_test"][0] == (23, "Path", M + "Router.Path")


def test_a_literals_parameters_are_names_inside_it_only() -> None:
    """mux's ``r.HandleFunc("/", func(w .., r *http.Request) {`` calls the router ``r``:
    the literal's ``r`` typed the call before it on its first line (an ``*http.Request``'s
    ``HandleFunc``), and the call was left out of ``Router.HandleFunc``'s callers."""
    got = [(line, name, target) for line, name, target in mux_sites()["mux.TestSubRouter"]
           if name.startswith("r.")]
    assert got == [
        (16, "r.HandleFunc", M + "NewRouter().HandleFunc"),
        (17, "r.Context", "net/http.Request.Context"),
        (19, "r.HandleFunc", M + "NewRouter().HandleFunc"),
        # a one-line literal: inside its braces the request, after them the router again
        (20, "r.Handle", M + "NewRouter().Handle"),
        (20, "r.Context", "net/http.Request.Context"),
        (20, "r.Match", M + "NewRouter().Match"),
    ]


EMBEDDED = b'''package mux

type routeRegexpGroup struct{}

func (g routeRegexpGroup) setMatch() {}

type routeConf struct {
\t// Manager for the variables from host and path.
\tregexp routeRegexpGroup
}

type other struct {
\tregexp *Route
}

type Route struct {
\trouteConf
\tname string
}

type both struct {
\trouteConf
\tother
}

func (r *Route) Match() {
\tr.regexp.setMatch()
}

func (b *both) Match() {
\tb.regexp.setMatch()
}
'''


def test_a_field_of_an_embedded_struct_types_calls_through_it() -> None:
    """mux's ``r.regexp.setMatch(..)`` (``regexp`` a field of ``Route``'s embedded
    ``routeConf``) never resolved; a field declared directly did. Two embedded structs
    declaring the field with two types: none here (Go rejects the selector)."""
    parsed = parse.symbols(EMBEDDED, "go")
    found = resolve.chunks(chunk.chunks("r", "mux.go", EMBEDDED, parsed), parsed, "mux.go", "example.com/mux")
    got = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in found}
    assert got["mux.Route.Match"] == [(27, "r.regexp.setMatch", M + "routeRegexpGroup.setMatch")]
    # two types: the field is named (``via_attribute``), its type the query side's to read
    assert got["mux.both.Match"] == [(31, "b.regexp.setMatch", M + "both.regexp.setMatch")]
    assert [s.via_attribute for c in found for s in c.call_sites] == [False, True]
    # the structs' typed fields, for calls through them in other files
    assert {c.qualified_name: c.instances for c in found if c.instances} == {
        "mux.routeConf": (("routeConf.regexp", M + "routeRegexpGroup"),),
        "mux.other": (("other.regexp", M + "Route"),),
    }


def test_a_chain_continued_on_the_next_lines_is_no_bare_call() -> None:
    """mux's ``route := r.Host("{domain}").`` then ``Path("/{group}/{item_id}").`` on the
    next line: the ``Path`` written first on its line was a bare call of a package
    function ``Path``; it is the chain's step, typed from where the chain opens."""
    got = [(line, name, target) for line, name, target in mux_sites()["mux.ExampleRoute_GetVarNames"]
           if line > 27]
    assert got == [
        (29, "Queries", M + "NewRouter().Host().Path().Queries"),
        (28, "Path", M + "NewRouter().Host().Path"),
        (30, "route.GetVarNames", ""),  # (a binding over three lines: not read)
    ]


INDEXED = b'''package gin

type node struct {
\tchildren []*node
\tkids     []node
\tnames    map[string]*node
}

func (n *node) find(path string) *node {
\tfor i := range n.children {
\t\tif x := n.children[i].find(path); x != nil {
\t\t\treturn x
\t\t}
\t}
\tc := n.children[len(n.children)-1]
\tc.find(path)
\tn.kids[1].find(path)
\tn.names["a"].find(path)
\treturn nil
}
'''


def test_an_element_of_a_slice_of_a_known_type_is_typed() -> None:
    # gin's recursive `n.children[i].findCaseInsensitivePathRec(..)` (children `[]*node`)
    # was a name-only caller of its own method (a newcomer)
    parsed = parse.symbols(INDEXED, "go")
    found = resolve.chunks(chunk.chunks("r", "gin/tree.go", INDEXED, parsed), parsed, "gin/tree.go",
                           "github.com/gin-gonic/gin")
    got = [(s.line, s.name, s.target) for c in found for s in c.call_sites if s.name.endswith("find")]
    own = "github.com/gin-gonic/gin.node.find"
    assert got == [(11, "find", own), (16, "c.find", own), (17, "find", own),
                   (18, "find", "")]  # a map's value: not typed


def test_a_line_of_many_tails_is_left_untyped_not_read_cubically() -> None:
    # a generated line of 1,000 `n.children[0].find()` took 183 s to index (a review): past
    # CHAIN_TAILS_MAX occurrences on one line its tails are untyped, as unknown receivers are
    from coderecalld.index.receivers_go import CHAIN_TAILS_MAX
    many = CHAIN_TAILS_MAX + 1
    src = INDEXED.replace(b"\treturn nil\n}\n", b"\t" + b"; ".join([b"n.children[0].find(path)"] * many)
                          + b"\n\treturn nil\n}\n")
    parsed = parse.symbols(src, "go")
    found = resolve.chunks(chunk.chunks("r", "gin/tree.go", src, parsed), parsed, "gin/tree.go",
                           "github.com/gin-gonic/gin")
    tails = [s.target for c in found for s in c.call_sites if s.line == 19]
    assert len(tails) == many and set(tails) == {""}
