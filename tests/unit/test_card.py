"""Card shaping (query/card.py): signatures split at top-level commas, caller choice, budget trimming."""

from __future__ import annotations

from dataclasses import replace

import pytest

from coderecalld.query import card
from coderecalld.records import CallerHit, Card


def test_bases_and_params_split_outside_brackets_and_quotes() -> None:
    assert card.bases("class C(Base, mod.Mixin[int, str], metaclass=Meta)") == ("Base", "mod.Mixin[int, str]")
    assert card.bases("class C") == ()
    sig = "def __init__(self, a, b: dict[str, int] = {'x,y': 1}, *args, c=(1, 2), **kw) -> None"
    assert card.params(sig) == ("a", "b: dict[str, int] = {'x,y': 1}", "*args", "c=(1, 2)", "**kw")


def hit(repo: str, line: int, confidence: str) -> CallerHit:
    return CallerHit(repo, "a.py", line, "f", "g", "c" * 40, text="g()", confidence=confidence)


def test_callers_prefer_resolved_then_round_robin_over_repos() -> None:
    hits = [hit("a", 1, "name_only"), hit("a", 2, "resolved"), hit("a", 3, "resolved"),
            hit("a", 4, "resolved"), hit("b", 5, "resolved"), hit("c", 6, "name_only")]
    assert [(h.repo, h.line) for h in card.pick_callers(hits, 4)] == [("a", 2), ("b", 5), ("a", 3), ("a", 4)]
    assert [(h.repo, h.line) for h in card.pick_callers(hits, 6)][-2:] == [("a", 1), ("c", 6)]


def test_fit_trims_callers_first_and_keeps_the_identity() -> None:
    big = Card("r", "p.py", "class", "C", "m", "class C(B)", "Does C.", 1, 9, "c" * 40,
               bases=("B",), methods=tuple(f"def m{i}(self, x)" for i in range(30)),
               callers=tuple(hit("r", i, "resolved") for i in range(5)), repo_purpose="R" * 100)
    assert card.fit(big, 10_000) == big  # fits: untouched, not truncated
    small = card.fit(big, 100)
    assert small.truncated and card.size_chars(small) <= 400
    assert (small.kind, small.qualified_name, small.signature, small.summary) == ("class", "C", "class C(B)", "Does C.")
    assert len(small.callers) <= 1
    slightly = card.fit(big, card.size_chars(big) // 4 - 10)
    assert 1 <= len(slightly.callers) < 5 and slightly.methods == big.methods  # callers go first


def test_fit_keeps_every_public_methods_name_before_annotations_and_private_ones() -> None:
    """rich's ``card Table`` at 800 tokens dropped ``add_column`` and ``add_row`` (its API)
    by trimming methods from the end of the source: annotations and defaults go first, then
    private methods, then the last ones."""
    methods = ("def __init__(self, *headers: Union[Column, str], title: Optional[TextType] = None)",
               "def _extra_width(self) -> int",
               "def add_column(self, header: RenderableType = '', footer: RenderableType = '', *, "
               "justify: JustifyMethod = 'left', style: Optional[StyleType] = None) -> None",
               "def _calculate_column_widths(self, console: Console, options: ConsoleOptions) -> List[int]",
               "def add_row(self, *renderables: Optional[RenderableType], style: Optional[StyleType] = None, "
               "end_section: bool = False) -> None")
    big = Card("r", "rich/table.py", "class", "Table", "rich.table.Table", "class Table(JupyterMixin)",
               "A console renderable to draw a table.", 1, 900, "c" * 40, methods=methods)
    compact = ("def __init__(self, *headers, title)", "def _extra_width(self)",
               "def add_column(self, header, footer, *, justify, style)",
               "def _calculate_column_widths(self, console, options)",
               "def add_row(self, *renderables, style, end_section)")
    fitted = card.fit(big, (card.size_chars(big) - 150) // card.CHARS_PER_TOKEN)
    assert fitted.truncated and fitted.methods == compact
    without = tuple(m for m in compact if "_extra" not in m and "_calculate" not in m)
    public = card.fit(big, -(-card.size_chars(replace(big, methods=without)) // card.CHARS_PER_TOKEN))
    assert public.methods == without  # both private ones gone, every public one kept
    assert card._compact("func (r *Router) Use(mw int)") == "func (r *Router) Use(mw int)"  # Python's alone


def test_file_purpose_from_docstring_else_its_symbols() -> None:
    points = [{"kind": "module", "docstring": "\nHMAC checks.\n\nMore.", "name": "m", "qualified_name": "m",
               "start_line": 1}]
    assert card.file_purpose(points) == "HMAC checks."
    points = [{"kind": "module", "docstring": "", "name": "m", "qualified_name": "m", "start_line": 1},
              {"kind": "function", "name": "z", "qualified_name": "z", "parent": "", "start_line": 9},
              {"kind": "function", "name": "a", "qualified_name": "a", "parent": "", "start_line": 3},
              {"kind": "method", "name": "b", "qualified_name": "C.b", "parent": "C", "start_line": 5}]
    assert card.file_purpose(points) == "defines a, z"  # in source order
    # its functions and types before its constants; constants when it defines nothing else
    constants = [{"kind": "constant", "name": "MAX", "qualified_name": "MAX", "parent": "", "start_line": 2}]
    assert card.file_purpose(points + constants) == "defines a, z"
    assert card.file_purpose(points[:1] + constants) == "defines MAX"


def test_file_purpose_is_the_first_sentence_without_title_decoration() -> None:
    """scikit-learn's module docstrings: a reST title between ``=====`` lines (``_lda.py``
    gave the overline), a first sentence over two lines (``tree/_classes.py`` gave
    "... including decision, regression and"); a newcomer."""
    def module(doc: str) -> list[dict]:
        return [{"kind": "module", "docstring": doc, "name": "m", "qualified_name": "m", "start_line": 1}]
    lda = ("\n\n" + "=" * 61 + "\nOnline Latent Dirichlet Allocation with variational inference\n"
           + "=" * 61 + "\n\nThis implementation is modified from onlineldavb.\n")
    assert card.file_purpose(module(lda)) == "Online Latent Dirichlet Allocation with variational inference"
    tree = ("\nThis module gathers tree-based methods, including decision, regression and\n"
            "randomized trees. Single and multi-output problems are both handled.\n")
    assert card.file_purpose(module(tree)) == ("This module gathers tree-based methods, including "
                                               "decision, regression and randomized trees.")
    assert card.file_purpose(module("Utilities\n---------\n\nHelpers.")) == "Utilities"
    # a directive opening it is no sentence; an abbreviation ends none (a review)
    blit = ".. redirect-from:: /tutorials/advanced/blitting\n\n.. _blitting:\n\nFaster rendering by using blitting.\n"
    assert card.file_purpose(module(blit)) == "Faster rendering by using blitting."
    assert card.file_purpose(module("Misc. utility functions/classes for admin documentation generator.")) == (
        "Misc. utility functions/classes for admin documentation generator.")
    scale = "Scales define the distribution of data values on an axis, e.g. a log scaling. They are defined."
    assert card.file_purpose(module(scale)) == "Scales define the distribution of data values on an axis, e.g. a log scaling."


def test_summary_is_the_first_sentence_of_the_first_paragraph() -> None:
    doc = "Convert a high-level event into bytes that can be sent to the peer,\nwhile updating state.\n\nArgs: x"
    assert card.summary(doc) == "Convert a high-level event into bytes that can be sent to the peer, while updating state."
    assert card.summary("Send it. Then wait.") == "Send it."
    assert card.summary("") == ""


@pytest.mark.parametrize(("signature", "language", "expected"), [
    ("public final class JsonTreeReader extends JsonReader", "java", ("JsonReader",)),
    ("final class FieldReflectionAdapter<T> extends Adapter<T, Map<K, V>> implements A, B<C>", "java",
     ("Adapter", "A", "B")),
    ("public enum ToNumberPolicy implements ToNumberStrategy", "java", ("ToNumberStrategy",)),
    ("export class AxiosError extends Error", "typescript", ("Error",)),
    ("class Foo extends Bar with Baz", "scala", ("Bar", "Baz")),
    ("class Parser(val s: String) : Base(s), Iface<Int>", "kotlin", ("Base", "Iface")),
    ("public class Repo<T> : BaseRepo<T>, IDisposable where T : class", "csharp", ("BaseRepo", "IDisposable")),
    ("class Derived : public Base, private Other<int>", "cpp", ("Base", "Other")),
    ("class Admin < User", "ruby", ("User",)),
    ("public class Plain", "java", ()),
])
def test_bases_of_each_languages_class_head(signature: str, language: str, expected: tuple[str, ...]) -> None:
    assert card.bases(signature, language) == expected


def test_methods_list_a_classs_own_protocol_methods_but_not_private_ones() -> None:
    def point(name: str, line: int, parent: str = "ProxyFix") -> dict:
        return {"name": name, "qualified_name": f"{parent}.{name}", "parent": parent, "kind": "method",
                "start_line": line, "signature": f"def {name}(self)"}

    members = [point(n, i) for i, n in enumerate(["__init__", "_get_real_value", "__call__", "__get__",
                                                  "_x__", "__", "public", "__private"])]
    base = {"name": "Base", "qualified_name": "Base"}
    inherited = [(base, [point("__call__", 1, "Base"), point("__repr__", 2, "Base"), point("close", 3, "Base")])]
    # the constructor first, then its own public and protocol methods in order; an inherited
    # dunder is not listed (every class inherits some), its public methods are
    assert card.methods(members, inherited) == (
        "def __init__(self)", "def __call__(self)", "def __get__(self)", "def public(self)",
        "def close(self)  # from Base")


def test_public_members_follow_each_languages_export_rule() -> None:
    def member(name: str, language: str, signature: str = "") -> dict:
        return {"name": name, "language": language, "signature": signature or f"{name}()"}
    go = [member(n, "go", f"func (c *Command) {n}() error") for n in ("Execute", "execute", "getOut", "Root")]
    assert [m["name"] for m in go if card.public(m)] == ["Execute", "Root"]
    assert card.public(member("_helper", "python")) is False
    assert card.public(member("load", "python")) is True
    assert card.public(member("save", "java", "private void save(int x)")) is False
    assert card.public(member("save", "java", "public void save(Privateish p)")) is True
    assert card.public(member("run", "swift", "fileprivate func run()")) is False
    assert card.public(member("run", "kotlin", "internal fun run(privateKey: String)")) is True
    assert card.public(member("#retry", "typescript", "async #retry(fn)")) is False  # ky's Ky


def test_a_typescript_constructor_is_listed_once_and_private_members_not() -> None:
    members = [{"name": n, "qualified_name": f"Ky.{n}", "parent": "Ky", "kind": "method", "start_line": i,
                "language": "typescript", "signature": s}
               for i, (n, s) in enumerate([("create", "static create(input)"), ("constructor", "constructor(input)"),
                                           ("#retry", "async #retry(fn)"), ("request", "request()")])]
    assert card.methods(members) == ("constructor(input)", "static create(input)", "request()")


def test_a_go_named_type_of_no_struct_lists_its_methods() -> None:
    definition = {"repo": "r", "path": "completions.go", "kind": "type_alias", "language": "go",
                  "qualified_name": "cobra.ShellCompDirective", "name": "ShellCompDirective",
                  "signature": "type ShellCompDirective int", "start_line": 45, "end_line": 45}
    members = [{"qualified_name": "cobra.ShellCompDirective.string", "name": "string", "kind": "method",
                "language": "go", "parent": "cobra.ShellCompDirective", "start_line": 200,
                "signature": "func (d ShellCompDirective) string() string"},
               {"qualified_name": "cobra.ShellCompDirective.Has", "name": "Has", "kind": "method",
                "language": "go", "parent": "cobra.ShellCompDirective", "start_line": 210,
                "signature": "func (d ShellCompDirective) Has(flag ShellCompDirective) bool"}]
    built = card.build(definition, [definition, *members], [], "c" * 40, "")
    assert built.methods == ("func (d ShellCompDirective) Has(flag ShellCompDirective) bool",)
    assert built.bases == () and built.init_params == ()


def test_a_top_level_definitions_siblings_are_its_files_functions_and_types() -> None:
    """FastAPI's ``HTTPBasic`` had no sibling beside ``HTTPBase``, ``HTTPBearer`` and the
    credentials models of ``security/http.py``; a method's are its class's methods."""
    def point(name: str, kind: str, line: int, parent: str = "") -> dict:
        return {"name": name, "qualified_name": f"{parent}.{name}" if parent else name, "kind": kind,
                "parent": parent, "start_line": line}
    points = [point("HTTPBase", "class", 1), point("HTTPBasic", "class", 10), point("__call__", "method", 12, "HTTPBasic"),
              point("get_scheme", "function", 20), point("_split", "function", 25), point("Scheme", "enum", 30),
              point("VERSION", "constant", 35), point("http", "module", 1)]
    assert card._siblings(points[1], points) == ("HTTPBase", "get_scheme", "Scheme", "_split")
    assert card._siblings(points[3], points) == ("HTTPBase", "HTTPBasic", "Scheme", "_split")
    assert card._siblings(points[2], points) == ()  # the class's only method
