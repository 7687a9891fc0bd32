"""Go calls on a composite literal and on package-level variables (index/receivers_go.py):
gin's ``callers Context.Render`` listed 43 calls of other types' ``Render`` whose receiver's
type the call writes (``(render.PureJSON{Data: obj}).Render(w)``, ``(Data{`` .. ``}).Render(w)``)
or its package declares (``FormPost = formPostBinding{}``) as name-only callers."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, resolve
from coderecalld.records import Chunk, SymbolKind

GO = b'''package render

import (
\t"net/http"

\tb "example.com/gin/binding"
)

type JSON struct{ Data any }

func (r JSON) Render(w http.ResponseWriter) error { return nil }

var (
\tdefaultJSON = JSON{}
\tshared      Render = JSON{}
\tpointer     *JSON
\tform        = &b.Form{
\t\tStrict: true,
\t}
\tpair, other = JSON{}, XML{}
)

var single = new(XML)

func Test(w http.ResponseWriter) {
\tJSON{Data: 1}.Render(w)
\t(JSON{Data: "}"}).Render(w)
\t(&b.Form{}).Bind(nil)
\tcheck(w, (XML{}).Render(w))
\terr := (Reader{
\t\tURL: "http://x/{",
\t}).Render(w)
\tJSON{
\t\tData: 2,
\t}.Render(w)
\tdefaultJSON.Render(w)
\tshared.Render(w)
\tpointer.Render(w)
\tform.Bind(nil)
\tpair.Render(w)
\tsingle.Render(w)
\tPlain.Bind(nil)
\tp := Plain
\tp.Bind(nil)
\td := defaultJSON
\td.Render(w)
\tp.f.Bind(nil)
}

func shadowed(w http.ResponseWriter, defaultJSON Renderer) {
\tdefaultJSON.Render(w)
\tfor _, c := range cases {
\t\tc.Render(w)
\t}
\tvisit(func(h func(int)) {
\t\tv := h
\t\tv.Render(w)
\t})
}
'''
R = "example.com/gin/render."
B = "example.com/gin/binding."


def resolved(src: bytes, module: str = "example.com/gin/render") -> list[Chunk]:
    parsed = parse.symbols(src, "go")
    return resolve.chunks(chunk.chunks("r", "x_test.go", src, parsed), parsed, "x_test.go", module)


def found() -> list[Chunk]:
    return resolved(GO)


def sites(name: str) -> list[tuple[int, str, str]]:
    return [(s.line, s.name, s.target) for c in found() if c.qualified_name == name for s in c.call_sites]


def test_a_call_on_a_composite_literal_is_its_types() -> None:
    # parenthesised or not, `&`, another package's type, inside an argument list, and a
    # literal over several lines (a brace or `//` in its strings is none)
    assert sites("render.Test")[:7] == [
        (26, "Render", R + "JSON.Render"),
        (27, "Render", R + "JSON.Render"),
        (28, "Bind", B + "Form.Bind"),
        (29, "check", R + "check"),
        (29, "Render", R + "XML.Render"),
        (32, "Render", R + "Reader.Render"),
        (35, "Render", R + "JSON.Render"),
    ]


def test_a_package_level_variable_types_calls_on_it() -> None:
    got = {(line, name): target for line, name, target in sites("render.Test")}
    assert got[(36, "defaultJSON.Render")] == R + "JSON.Render"  # `defaultJSON = JSON{}`
    assert got[(38, "pointer.Render")] == R + "JSON.Render"  # `pointer *JSON`
    assert got[(39, "form.Bind")] == B + "Form.Bind"  # a literal going on below its line
    assert got[(41, "single.Render")] == R + "XML.Render"  # `var single = new(XML)`
    assert got[(46, "d.Render")] == R + "JSON.Render"  # a local bound to one
    # declared with a named type (an interface, maybe): the type's method, whatever value
    # it holds (`Render.Render`, the interface's own). Two values, another file's
    # variable, and a local bound to one: named by the package, for the query side to
    # type from the declaring file
    assert got[(37, "shared.Render")] == R + "Render.Render"
    assert got[(40, "pair.Render")] == R + "pair.Render"
    assert got[(42, "Plain.Bind")] == R + "Plain.Bind"
    assert got[(44, "p.Bind")] == R + "Plain.Bind"
    # a field of another file's variable: named as an attribute of unknown type (``via``)
    assert got[(47, "p.f.Bind")] == R + "Plain.f.Bind"
    assert [s.via_attribute for c in found() for s in c.call_sites if s.line == 47] == [True]


def test_a_local_shadows_a_package_level_variable() -> None:
    # a parameter of a type that may be an interface (its method), and a loop variable of
    # no known type: neither is the package's name; nor is a lowercase name the file binds
    # nowhere it reads (a literal's parameter list of a `func` type is not read)
    assert sites("render.shadowed") == [(51, "defaultJSON.Render", R + "Renderer.Render"), (53, "c.Render", ""),
                                        (55, "visit", R + "visit"), (57, "v.Render", "")]


def test_package_level_variables_of_a_known_type_are_the_module_chunks_instances() -> None:
    module = next(c for c in found() if c.kind is SymbolKind.MODULE)
    assert module.instances == (("defaultJSON", R + "JSON"), ("form", B + "Form"), ("pointer", R + "JSON"),
                                ("shared", R + "Render"), ("single", R + "XML"))


def test_parentheses_past_the_bound_are_untyped_not_a_recursion_error() -> None:
    deep = 5_000
    src = GO.replace(b"\td.Render(w)\n", b"\t" + b"(" * deep + b"JSON{}" + b")" * deep + b".Render(w)\n")
    assert [s.target for c in resolved(src) for s in c.call_sites if s.line == 46] == [""]


CONTINUED = b'''package binding

import jsoniter "github.com/json-iterator/go"

var customConfig = jsoniter.Config{
\tEscapeHTML: true,
}.Froze()

func f() {
\tcustomConfig.Marshal(nil)
\tlocal := jsoniter.Config{
\t\tEscapeHTML: "}",
\t}.Froze()
\tlocal.Marshal(nil)
\tplain := jsoniter.Config{
\t\tEscapeHTML: true,
\t}
\tplain.Marshal(nil)
}
'''


def test_a_literal_continued_below_its_line_is_typed_by_the_whole_value() -> None:
    # gin's `var customConfig = jsoniter.Config{` .. `}.Froze()` is what Froze returns (an
    # API), no Config: its calls were typed as the Config's
    got = [(s.line, s.name, s.target) for c in resolved(CONTINUED, "example.com/gin/binding")
           for s in c.call_sites if s.name.endswith(".Marshal")]
    config = "github.com/json-iterator/go.Config."
    assert got == [(10, "customConfig.Marshal", config + "Froze().Marshal"),
                   (14, "local.Marshal", config + "Froze().Marshal"),
                   (18, "plain.Marshal", config + "Marshal")]
