"""Unit tests of coderecalld.parse with inline sources and exact expected values."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from coderecalld.errors import ParseError
from coderecalld.parse import language_for, registry, supported_languages, symbols
from coderecalld.parse.extract import MAX_VALUES
from coderecalld.records import VALUE_KINDS, CallSite, ParsedFile, Symbol, SymbolKind

F, M, C = SymbolKind.FUNCTION, SymbolKind.METHOD, SymbolKind.CLASS


def parse(source: str) -> tuple[bytes, ParsedFile]:
    blob = source.encode("utf-8")
    return blob, symbols(blob, "python")


def by_name(parsed: ParsedFile) -> dict[str, Symbol]:
    return {s.qualified_name: s for s in parsed.symbols}


def text_of(blob: bytes, sym: Symbol) -> str:
    return blob[sym.start_byte : sym.end_byte].decode("utf-8")


NESTED = '''\
"""Module doc.

Second paragraph.
"""
import os


class Outer(Base, metaclass=Meta):
    """Outer doc."""

    class Inner:
        def m(self):
            return helper()

    def method(self, x: int) -> None:
        def local():
            return os.path.join("a", "b")

        self.save(local())


async def fetch(url):
    await get(url)


def outer():
    class Local:
        def deep(self):
            pass

    return Local
'''


def test_kinds_names_parents_and_lines() -> None:
    blob, parsed = parse(NESTED)
    got = [(s.kind, s.qualified_name, s.parent, s.start_line, s.end_line) for s in parsed.symbols]
    assert got == [
        (C, "Outer", "", 8, 19),
        (C, "Outer.Inner", "Outer", 11, 13),
        (M, "Outer.Inner.m", "Outer.Inner", 12, 13),
        (M, "Outer.method", "Outer", 15, 19),
        (F, "Outer.method.local", "Outer.method", 16, 17),
        (F, "fetch", "", 22, 23),
        (F, "outer", "", 26, 31),
        (C, "outer.Local", "outer", 27, 29),
        (M, "outer.Local.deep", "outer.Local", 28, 29),
    ]
    assert [s.name for s in parsed.symbols][:3] == ["Outer", "Inner", "m"]
    assert parsed.module_docstring == "Module doc."
    assert parsed.imports == ("os",)
    assert parsed.line_count == 31
    assert not parsed.has_errors


def test_byte_ranges_are_exact_source() -> None:
    blob, parsed = parse(NESTED)
    syms = by_name(parsed)
    assert text_of(blob, syms["Outer.Inner"]) == "class Inner:\n        def m(self):\n            return helper()"
    assert text_of(blob, syms["fetch"]) == "async def fetch(url):\n    await get(url)"
    assert syms["fetch"].start_byte == NESTED.index("async def fetch")
    assert syms["fetch"].end_byte == NESTED.index("\n\n\ndef outer")


def test_signatures_async_and_docstrings() -> None:
    _, parsed = parse(NESTED)
    syms = by_name(parsed)
    assert syms["Outer"].signature == "class Outer(Base, metaclass=Meta)"
    assert syms["Outer.Inner"].signature == "class Inner"
    assert syms["Outer.method"].signature == "def method(self, x: int) -> None"
    assert syms["fetch"].signature == "async def fetch(url)"
    assert [s.qualified_name for s in parsed.symbols if s.is_async] == ["fetch"]
    assert syms["Outer"].docstring == "Outer doc."
    assert syms["Outer.method"].docstring == ""


def test_call_sites_belong_to_the_nearest_definition() -> None:
    _, parsed = parse(NESTED)
    syms = by_name(parsed)
    assert syms["Outer.Inner.m"].call_sites == (CallSite("helper", 13),)
    assert syms["Outer.method.local"].call_sites == (CallSite("os.path.join", 17),)
    assert syms["Outer.method"].call_sites == (CallSite("self.save", 19), CallSite("local", 19))
    assert syms["fetch"].call_sites == (CallSite("get", 23),)
    assert syms["Outer"].call_sites == ()
    assert parsed.module_call_sites == ()


DECORATED = '''\
import functools


@app.route("/x", methods=check())
@functools.lru_cache(
    maxsize=128,
)
def handler(a, b=default()) -> int:
    return a


class Shape:
    @property
    def area(self):
        return 1

    @area.setter
    def area(self, value):
        self._area = value
'''


def test_decorated_definition_starts_at_first_decorator() -> None:
    blob, parsed = parse(DECORATED)
    handler = by_name(parsed)["handler"]
    assert (handler.start_line, handler.end_line) == (4, 9)
    assert text_of(blob, handler).startswith('@app.route("/x", methods=check())\n@functools.lru_cache(\n')
    assert handler.decorators == ('@app.route("/x", methods=check())', "@functools.lru_cache(\n    maxsize=128,\n)")
    assert handler.signature == "def handler(a, b=default()) -> int"


def test_calls_in_decorators_and_defaults_belong_to_the_enclosing_scope() -> None:
    _, parsed = parse(DECORATED)
    assert by_name(parsed)["handler"].call_sites == ()
    assert parsed.module_call_sites == (
        CallSite("app.route", 4),
        CallSite("check", 4),
        CallSite("functools.lru_cache", 5),
        CallSite("default", 8),
    )
    # a decorator without arguments is a call too, of the scope evaluating it (the class)
    assert by_name(parsed)["Shape"].call_sites == (CallSite("property", 13), CallSite("area.setter", 17))


def test_same_qualified_name_is_kept_twice() -> None:
    blob, parsed = parse(DECORATED)
    areas = [s for s in parsed.symbols if s.qualified_name == "Shape.area"]
    assert [(s.start_line, s.end_line, s.decorators) for s in areas] == [
        (13, 15, ("@property",)),
        (17, 19, ("@area.setter",)),
    ]
    assert all(s.kind is M for s in areas)
    assert [s.start_byte for s in parsed.symbols] == sorted(s.start_byte for s in parsed.symbols)


def test_multiline_signature_drops_comments_and_colon() -> None:
    _, parsed = parse(
        "def f(\n    a,  # first\n    b: dict[str,\n            int] = {},\n) -> tuple[int, int]:  # why\n    pass\n"
    )
    assert parsed.symbols[0].signature == "def f(a, b: dict[str, int] = {},) -> tuple[int, int]"


@pytest.mark.parametrize(
    ("body", "doc"),
    [
        ('    """One line."""\n', "One line."),
        ("    '''\n    First\n    paragraph.\n\n    Second.\n    '''\n", "First\nparagraph."),
        ('    r"""Raw \\d doc."""\n', "Raw \\d doc."),
        ("    'single'\n", "single"),
        ('    # a comment first\n    """Still the doc."""\n', "Still the doc."),
        ('    f"""Not {a} doc."""\n', ""),
        ('    b"""bytes"""\n', ""),
        ('    x = 1\n    """Too late."""\n', ""),
    ],
)
def test_docstring_first_paragraph(body: str, doc: str) -> None:
    _, parsed = parse("def f():\n" + body)
    assert parsed.symbols[0].docstring == doc


@pytest.mark.parametrize(
    ("callee", "names", "line"),
    [
        ("helper", ["helper"], 2),
        ("self.store.save", ["self.store.save"], 2),
        # a wrapped chain's call is on the called name's line, not its receiver's
        ("os.path \\\n        .join", ["os.path.join"], 3),
        ("(os.path\n        .join)", ["join"], 3),
        ("handlers[key]", [], 2),  # a table's value: no name (it was a call of `key`)
        ("ConfigAttribute[bool]", ["ConfigAttribute"], 2),  # a generic class's construction
        ("t.Dict[str, int]", ["t.Dict"], 2),
        ("make()", ["make"], 2),  # make(1) calls what make() returned: one call of make
        ("a.b().c", ["c", "a.b"], 2),
        ("(lambda: 1)", [], 2),
    ],
)
def test_callee_shapes(callee: str, names: list[str], line: int) -> None:
    _, parsed = parse(f"def f():\n    return {callee}(1)\n")
    assert parsed.symbols[0].call_sites == tuple(CallSite(name, line) for name in names)


@pytest.mark.parametrize(("language", "source", "names"), [
    # a generic call is a call of the method, never of its type argument (Polly's
    # ``Outcome.FromException<T>(e)`` was a call of ``T``: 234 "callers" of ``TResult``)
    ("csharp", "class A { void M() { var o = Outcome.FromException<T>(e); Should.Throw<Ex>(() => x);"
               " var p = registry.GetPipeline<TResult, int>(key); Foo(x); } }",
     ["Outcome.FromException", "Should.Throw", "registry.GetPipeline", "Foo"]),
    ("java", "class A { void m() { Collections.<String>emptyList(); a.<T>b(); } }",
     ["Collections.emptyList", "a.b"]),
    ("rust", "fn f() { let v = it.collect::<Vec<_>>(); let w = Vec::<u8>::new(); }", ["it.collect", "Vec.new"]),
    ("typescript", "function f() { a.b<T>(); g<string>(1); }", ["a.b", "g"]),
    # a Ruby method called on a class is named with it: ``Stream.new`` constructs a Stream
    ("ruby", "def f(env)\n  body Stream.new(self)\n  Sinatra::Base.set(:x, 1)\n  @app.call(env)\nend\n",
     ["body", "Stream.new", "Sinatra.Base.set", "call"]),
])
def test_generic_and_scoped_calls_are_named_by_the_called_method(language: str, source: str,
                                                                   names: list[str]) -> None:
    parsed = symbols(source.encode(), language)
    assert [c.name for s in parsed.symbols for c in s.call_sites] == names


RUBY_BARE = """\
class Base
  def route!(y, z = 2, *rest, k:, &blk)
    x = 1
    forward
    items.each do |item|
      item
      pass
    end
    items.map { |i| i; halt }
    if cond
      setup_traps
    else
      teardown
    end
    begin
      work
    rescue => e
      e
    end
    halt unless ok?
    y
    x
  end
end
"""


def test_a_ruby_bare_name_statement_is_a_call_unless_a_local() -> None:
    """sinatra's ``forward``, ``pass`` and ``setup_traps`` are called bare (no receiver, no
    arguments): its ``callers forward`` found no site. A parameter, a block's parameter, an
    assigned variable or a rescued exception read alone is no call."""
    (cls, method) = symbols(RUBY_BARE.encode(), "ruby").symbols
    assert [(c.name, c.line) for c in method.call_sites] == [
        ("forward", 4), ("items", 5), ("each", 5), ("pass", 7), ("items", 9), ("map", 9), ("halt", 9),
        ("cond", 10), ("setup_traps", 11), ("teardown", 13), ("work", 16), ("halt", 20), ("ok?", 20)]


def test_ruby_pattern_and_loop_bindings_are_locals() -> None:
    """A review: ``in {name:}``, ``=> ident``, ``in [first, *rest]``, a ``for`` loop's variable
    and a regex's named group bind locals; reading one is no call."""
    source = ("def f(x)\n  case x\n  in {name:}\n    name\n  in {id: Integer => ident}\n    ident\n"
              "  in [first, *rest]\n    first\n  end\n  for item in list\n    item\n  end\n"
              "  if /(?<year>\\d+)/ =~ s\n    year\n  end\n  process\nend\n")
    (method,) = symbols(source.encode(), "ruby").symbols
    assert [c.name for c in method.call_sites] == ["list", "s", "process"]  # no local: methods


@pytest.mark.parametrize(("language", "source", "names"), [
    # not constants: a Go blank identifier, a function's own enum or macro
    ("go", "package p\nvar _ I = (*T)(nil)\nconst X = 1\n", ["p.X"]),
    ("c", "int f(void) { enum { LOCAL_E = 1 }; return LOCAL_E; }\n#define TOP 1\n", ["f", "TOP"]),
    ("rust", "const _: () = ();\nconst MAX: usize = 3;\n", ["MAX"]),
])
def test_values_that_name_no_constant_are_no_symbols(language: str, source: str, names: list[str]) -> None:
    assert [s.qualified_name for s in symbols(source.encode(), language).symbols] == names


@pytest.mark.parametrize(("language", "source", "expected"), [
    # Go's grouped specs carry their block's keyword; a lone spec already had it
    ("go", "package p\nconst (\n\tA = 1\n\tB int = 2\n)\nconst C = 3\nvar (\n\tD = 4\n)\n",
     [("constant", "p.A", "const A = 1"), ("constant", "p.B", "const B int = 2"),
      ("constant", "p.C", "const C = 3"), ("variable", "p.D", "var D = 4")]),
    # Rust's `static mut` is written at run time: a variable, at file and module level
    ("rust", "pub(crate) static mut N: u32 = 0;\nstatic S: u8 = 1;\n"
             "mod m { static mut Q: u8 = 0; pub(super) static R: u8 = 1; }\n",
     [("variable", "N", "pub(crate) static mut N: u32 = 0"), ("constant", "S", "static S: u8 = 1"),
      ("module", "m", "mod m"), ("variable", "m::Q", "static mut Q: u8 = 0"),
      ("constant", "m::R", "pub(super) static R: u8 = 1")]),
    # a capitalised name a Python module binds to another name is an alias (marshmallow's
    # ``Str = String``); not a lowercase working variable, a one-letter type variable's
    # name, nor a name bound to a call's result
    ("python", "class String:\n    pass\n\n\nStr = String\nDeep = pkg.sub.Thing\nlog = String\n"
               "T = String\nMade = make()\nURL = String\n",
     [("class", "String", "class String"), ("variable", "Str", "Str = String"),
      ("variable", "Deep", "Deep = pkg.sub.Thing"), ("constant", "URL", "URL = String")]),
    # a type alias (typer's ``MarkupMode = Literal[..]``) is one too; a constant a module
    # sets in a try/except or if/elif/else block is a constant at each place (typer's
    # ``DEFAULT_MARKUP_MODE``), a function's is not
    ("python", 'Mode = Literal["a", "b"]\ntry:\n    MODE = "rich"\nexcept ImportError:\n    MODE = None\n'
               'if X:\n    LIMIT = 1\nelif Y:\n    LIMIT = 2\nelse:\n    LIMIT = 3\n'
               'def f():\n    try:\n        INNER = 1\n    except E:\n        pass\n',
     [("variable", "Mode", 'Mode = Literal["a", "b"]'), ("constant", "MODE", 'MODE = "rich"'),
      ("constant", "MODE", "MODE = None"), ("constant", "LIMIT", "LIMIT = 1"), ("constant", "LIMIT", "LIMIT = 2"),
      ("constant", "LIMIT", "LIMIT = 3"), ("function", "f", "def f()")]),
])
def test_value_kinds_and_signatures(language: str, source: str, expected: list[tuple[str, str, str]]) -> None:
    assert [(str(s.kind), s.qualified_name, s.signature)
            for s in symbols(source.encode(), language).symbols] == expected


def test_kotlin_primary_constructor_on_its_own_line_keeps_the_class_whole() -> None:
    """ktfmt writes a long class head's primary constructor on its own line; the grammar
    reads no line break there, and moshi's EnumJsonAdapter became a one-line class whose
    methods were top-level functions."""
    source = ("public class Adapter<T : Enum<T>>\ninternal constructor(\n  private val t: Class<T>,\n"
              ") : Base<T?>() {\n  fun fromJson(r: Reader): T? = read(r)\n\n  public companion object {\n"
              "    @JvmStatic\n    public fun <T : Enum<T>> create(t: Class<T>): Adapter<T> = Adapter(t)\n  }\n}\n"
              "internal class Source\n@JvmOverloads\nconstructor(\n  private val s: String = \"(\",\n) : Base() {\n"
              "  constructor(n: Int) : this(n.toString())\n  fun read(): Int = 1\n}\n")
    parsed = symbols(source.encode(), "kotlin")
    assert not parsed.has_errors
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line) for s in parsed.symbols] == [
        ("Adapter", "class", 1, 11), ("Adapter.fromJson", "method", 5, 5),
        ("Adapter.create", "method", 8, 9),
        ("Source", "class", 12, 19), ("Source.read", "method", 18, 18)]
    # the signature is the blob's: the constructor is still in it
    assert parsed.symbols[0].signature.startswith("public class Adapter<T : Enum<T>> internal constructor(")
    assert parsed.symbols[0].end_byte == len(source.split("internal class")[0].rstrip("\n").encode())


def test_kotlin_properties_with_code_are_methods_and_const_vals_constants() -> None:
    """A getter or setter with a body is code, as a Swift computed property is; written on
    the lines below its property (ktfmt), the grammar makes it the property's sibling, and
    the range and its calls must run on to the last accessor. A bare ``private set`` is no
    code; ``const val`` is a constant, as Java's static final field."""
    source = ("package a.b\n\nconst val DEFAULT_PORT = 8080\nprivate val cache = HashMap<String, Int>()\n\n"
              "val String.isBlankish: Boolean\n  get() = trim().isEmpty()\n\nclass C(val x: Int) {\n"
              "  val isEmpty: Boolean\n    get() = x == 0\n  var count = 0\n    private set\n"
              "  var both: Int\n    get() = x\n    set(value) {\n      store(value)\n    }\n"
              "  val inline get() = x\n  fun store(y: Int) = y * 2\n  companion object {\n    const val MAX = 3\n  }\n}\n")
    parsed = symbols(source.encode(), "kotlin")
    assert not parsed.has_errors
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line, s.signature) for s in parsed.symbols] == [
        ("DEFAULT_PORT", "constant", 3, 3, "const val DEFAULT_PORT = 8080"),
        ("String.isBlankish", "method", 6, 7, "val String.isBlankish: Boolean"),
        ("C", "class", 9, 24, "class C(val x: Int)"),
        ("C.isEmpty", "method", 10, 11, "val isEmpty: Boolean"),
        ("C.both", "method", 14, 18, "var both: Int"),
        ("C.inline", "method", 19, 19, "val inline"),
        ("C.store", "method", 20, 20, "fun store(y: Int)"),
        ("C.MAX", "constant", 22, 22, "const val MAX = 3")]
    # the setter's call is the property's, not its class's
    assert [(s.name, s.line) for s in parsed.symbols[4].call_sites] == [("store", 17)]
    assert ("trim", 7) in [(s.name, s.line) for s in parsed.symbols[1].call_sites]


SCALA3 = ('package ox\n'
     '\n'
     'private enum A:\n'
     '  case X\n'
     '\n'
     'private[resilience] enum B:\n'
     '  case Y, Z\n'
     '  case W(code: Int)\n'
     '\n'
     'object BufferCapacity:\n'
     '  given default: BufferCapacity = 16\n'
     '  given byteIsText: Text[Byte] with\n'
     '    def f = 1\n'
     '  given noEnclosing(using NotGiven[X]): NoEnc = ()\n'
     '  lazy val oxComputeExecutor: Executor =\n'
     '    val x = 1\n'
     '    make(x)\n'
     '  val immediate: Schedule = Schedule.Immediate(0)\n'
     '  private var counter = 0\n'
     'end BufferCapacity\n'
     '\n'
     'class Breaker(n: Int):\n'
     '  val size = n\n'
     '  def run(): Int =\n'
     '    helper(n)\n'
     '\n'
     '  /** Doc of g: sliding window. */\n'
     '  def g: Int = 2\n'
     'end Breaker\n'
     '\n'
     'extension (c: PercentageThreshold)\n'
     '  def isExceeded(by: Int): Boolean = by >= c\n'
     '  def toInt: Int = c\n'
     '\n'
     'def run = { val c = Chan.rendezvous[Int]; compute().discard; c.send(1); g[Int](2) }\n')


def test_scala3_definitions_ranges_and_calls() -> None:
    """softwaremill/ox (a newcomer): two ``private enum``s made a file one syntax error (its
    class lost); an indented body ran on over the next member's Scaladoc, and an ``end``
    marker was cut off; ``given``s, ``val``s of code, enum cases and extension receivers
    were missing; a call with type arguments only was no call, and ``g[Int](2)`` one of
    ``Int``; ``x.discard`` (216 calls in ox) no call."""
    parsed = symbols(SCALA3.encode(), "scala")
    assert not parsed.has_errors
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line) for s in parsed.symbols] == [
        ("A", "enum", 3, 4), ("A.X", "constant", 4, 4), ("B", "enum", 6, 8), ("B.Y", "constant", 7, 7),
        ("B.Z", "constant", 7, 7), ("B.W", "constant", 8, 8),
        ("BufferCapacity", "class", 10, 20),  # its `end BufferCapacity` included
        ("BufferCapacity.default", "method", 11, 11), ("BufferCapacity.byteIsText", "class", 12, 13),
        ("BufferCapacity.byteIsText.f", "method", 13, 13), ("BufferCapacity.noEnclosing", "method", 14, 14),
        ("BufferCapacity.oxComputeExecutor", "method", 15, 17), ("BufferCapacity.immediate", "constant", 18, 18),
        ("BufferCapacity.counter", "variable", 19, 19),
        ("Breaker", "class", 22, 29),  # a class's `val size` is its instances' field: none
        ("Breaker.run", "method", 24, 25),  # not on over g's doc comment (26-27)
        ("Breaker.g", "method", 28, 28),
        ("PercentageThreshold.isExceeded", "method", 32, 32), ("PercentageThreshold.toInt", "method", 33, 33),
        ("run", "function", 35, 35)]
    assert parsed.symbols[2].signature == "private[resilience] enum B"  # the blob's, not the repair's
    calls = {s.qualified_name: [(c.name, c.line) for c in s.call_sites] for s in parsed.symbols if s.call_sites}
    assert calls == {"BufferCapacity": [("Schedule.Immediate", 18)],
                     "BufferCapacity.oxComputeExecutor": [("make", 17)], "Breaker.run": [("helper", 25)],
                     # `.discard` read as a statement: a parameterless method's call
                     "run": [("Chan.rendezvous", 35), ("discard", 35), ("compute", 35), ("c.send", 35), ("g", 35)]}


def test_a_cpp_header_is_read_as_cpp_and_a_c_header_as_c() -> None:
    """A ``.h`` is C by its name; fmt's headers are C++ (2,023 syntax errors read as C)."""
    cpp = ("namespace fmt {\nclass buffer {\n public:\n  void push_back(char c) { data_[size_++] = c; }\n"
           " private:\n  char data_[8];\n  int size_ = 0;\n};\ntemplate <typename T> auto to_string(T v) -> int {\n"
           "  return v;\n}\n}  // namespace fmt\n")
    parsed = symbols(cpp.encode(), "c", "include/fmt/buffer.h")
    assert parsed.language == "cpp" and not parsed.has_errors
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line) for s in parsed.symbols] == [
        ("fmt", "module", 1, 12), ("fmt::buffer", "class", 2, 8), ("fmt::buffer::push_back", "method", 4, 4),
        ("fmt::to_string", "function", 9, 11)]
    c = "typedef struct redisReply { int type; } redisReply;\nint redisConnect(const char *ip);\n"
    assert symbols(c.encode(), "c", "hiredis.h").language == "c"
    # only a header is guessed: a .c file stays C however it parses
    assert symbols(cpp.encode(), "c", "buffer.c").language == "c"


def test_a_value_computed_with_a_callback_is_no_factory_made_function() -> None:
    """The JS/TS rule for ``const X = factory(..., () => {...})`` (zod's schemas) had made
    values of ``[1,2,3].map(...)``, ``app.listen(3000, () => ...)`` and a timer (a review)."""
    source = ("const doubled = [1,2,3].map((n) => n*2);\nconst timer = setInterval(() => tick(), 1000);\n"
              "const server = app.listen(3000, () => { log(); });\nconst p = fetch(u).then((r) => r.json());\n"
              "export const handler = middy(async (event) => { return 1; });\n")
    for language in ("javascript", "typescript"):
        assert [(s.qualified_name, s.start_line) for s in symbols(source.encode(), language).symbols] == [("handler", 5)]


def test_cpp_reads_c_function_pointer_typedefs_and_double_pointer_functions() -> None:
    """A header read as C++ lost C's function-pointer typedefs and ``T **`` functions
    (libxml2's ``*SAXFunc``, a review)."""
    source = ("typedef void (*handler_t) (int);\nchar **split_words(const char *s) { return 0; }\n"
              "namespace a { typedef int (*cmp_fn)(const void*, const void*); }\n")
    assert [(s.qualified_name, str(s.kind)) for s in symbols(source.encode(), "cpp").symbols] == [
        ("handler_t", "type_alias"), ("split_words", "function"), ("a", "module"), ("a::cmp_fn", "type_alias")]


def test_a_cpp_template_specialization_is_named_as_written() -> None:
    """fmt's ~50 ``template <> struct formatter<bytes>`` were no symbols."""
    source = ("template <> struct formatter<bytes> {\n  auto format(bytes b) const -> int { return 1; }\n};\n"
              "template <typename T, typename Char> struct formatter<std::vector<T>, Char> : base {\n"
              "  void parse() {}\n};\n")
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line) for s in symbols(source.encode(), "cpp").symbols] == [
        ("formatter<bytes>", "struct", 1, 3), ("formatter<bytes>::format", "method", 2, 2),
        ("formatter<std::vector<T>, Char>", "struct", 4, 6), ("formatter<std::vector<T>, Char>::parse", "method", 5, 5)]


def test_cpp_macros_the_grammar_cannot_read_are_blanked() -> None:
    """fmt opens declarations with attribute macros and namespaces with a macro line; as
    written, the functions after them were cut or lost (include/fmt/format.h's ``format``)."""
    source = ("FMT_BEGIN_NAMESPACE\nFMT_PRAGMA_GCC(push_options)\n"
              "template <typename T>\nFMT_NODISCARD FMT_INLINE auto format(const T& v)\n    -> int {\n"
              "  if FMT_CONSTEXPR20 (sizeof(T) > 1) return 1;\n  return 0;\n}\n"
              "class writer {\n public:\n  FMT_CONSTEXPR auto size() const FMT_NOEXCEPT -> int { return n_; }\n"
              " private:\n  int n_ = 0;\n};\nFMT_API void vprint(const char* f);\n"
              "FMT_API void vprint(const char* f) { format(f); }\n#define FMT_VERSION 110000\nFMT_END_NAMESPACE\n")
    parsed = symbols(source.encode(), "cpp", "format.cc")
    assert not parsed.has_errors
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line) for s in parsed.symbols] == [
        ("format", "function", 3, 8), ("writer", "class", 9, 14), ("writer::size", "method", 11, 11),
        ("vprint", "function", 16, 16), ("FMT_VERSION", "constant", 17, 17)]
    # a signature starts after the macros before it: the declaration as the compiler reads it
    assert [s.signature for s in parsed.symbols[:3]] == [
        "auto format(const T& v) -> int", "class writer", "auto size() const FMT_NOEXCEPT -> int"]


def test_swift_conditional_members_keep_their_type_whole() -> None:
    """The grammar reads no ``#if`` among a type's members: Alamofire's ``Protected`` was a
    class of one line, its methods top-level functions. Every branch is read when the
    directives alone were in the way (an ``#else`` may hold the main platform's code)."""
    source = ("final class Protected<Value> {\n    #if canImport(Darwin)\n    private let lock = UnfairLock()\n"
              "    #elseif canImport(Foundation)\n    private let lock = NSLock()\n    #else\n"
              "    func fallback() {}\n    #endif\n    private var value: Value\n\n"
              "    func read<U>(_ closure: (Value) throws -> U) rethrows -> U {\n"
              "        try lock.around { try closure(self.value) }\n    }\n}\n"
              "#if canImport(Security)\nextension Protected {\n    func write(_ v: Value) { value = v }\n}\n#endif\n")
    parsed = symbols(source.encode(), "swift")
    assert not parsed.has_errors
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line) for s in parsed.symbols] == [
        ("Protected", "class", 1, 14), ("Protected.fallback", "method", 7, 7), ("Protected.read", "method", 11, 13),
        ("Protected", "class", 16, 18), ("Protected.write", "method", 17, 17)]


@pytest.mark.parametrize(("language", "source", "names"), [
    ("kotlin", "internal class `-JsonUtf8Reader` : JsonReader() {\n  fun `begin object`() {}\n}\n",
     ["-JsonUtf8Reader", "-JsonUtf8Reader.begin object"]),
    ("swift", "enum Kind {\n    case `default`\n    func `is`(_ k: Kind) -> Bool { true }\n}\n", ["Kind", "Kind.is"]),
])
def test_a_quoted_identifier_is_named_without_its_backticks(language: str, source: str, names: list[str]) -> None:
    """A stack trace, a caller and a person write moshi's `-JsonUtf8Reader` unquoted."""
    assert [s.qualified_name for s in symbols(source.encode(), language).symbols] == names


@pytest.mark.parametrize(("language", "source", "expected"), [
    ("swift", "struct H {\n  subscript(name: String) -> String? { get { nil } set { } }\n  deinit { close() }\n"
              "  public static let defaultUserAgent: String = {\n    let v = build()\n    return v\n  }()\n"
              "  var isReachable: Bool { flags.contains(.reachable) }\n  let plain = 1\n  var stored: Int = 0\n}\n",
     [("H", "struct", 1, 11, []), ("H.subscript", "method", 2, 2, []), ("H.deinit", "method", 3, 3, ["close"]),
      ("H.defaultUserAgent", "method", 4, 7, ["build"]),
      ("H.isReachable", "method", 8, 8, ["flags.contains"])]),
    ("csharp", "class A {\n  public int Count { get { return Compute(); } set { Store(value); } }\n"
               "  public string Name { get; set; }\n  public int X => Other();\n}\n",
     [("A", "class", 1, 5, []), ("A.Count", "method", 2, 2, ["Compute", "Store"]), ("A.X", "method", 4, 4, ["Other"])]),
])
def test_properties_with_code_are_methods(language: str, source: str,
                                          expected: list[tuple[str, str, int, int, list[str]]]) -> None:
    """Alamofire's 50-line ``HTTPHeader.defaultUserAgent`` builder, its computed
    ``isActuallyReachable`` and its subscripts were no symbols (about 140 in Source/); so
    were C#'s properties with bodies. Stored and auto-properties stay data."""
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line, [c.name for c in s.call_sites])
            for s in symbols(source.encode(), language).symbols] == expected


def test_a_kotlin_object_held_by_a_property_is_named_by_it() -> None:
    """moshi's eight anonymous adapters in StandardJsonAdapters had methods all named
    ``StandardJsonAdapters.fromJson``."""
    source = ("object StandardJsonAdapters {\n  val BOOLEAN_JSON_ADAPTER: JsonAdapter<Boolean> =\n"
              "    object : JsonAdapter<Boolean>() {\n      override fun fromJson(reader: JsonReader) = reader.nextBoolean()\n"
              "    }\n  val BYTE_JSON_ADAPTER = object : JsonAdapter<Byte>() {\n"
              "    override fun fromJson(reader: JsonReader): Byte = 1\n  }\n  val plain = 1\n}\n")
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line)
            for s in symbols(source.encode(), "kotlin").symbols] == [
        ("StandardJsonAdapters", "class", 1, 10),
        ("StandardJsonAdapters.BOOLEAN_JSON_ADAPTER", "class", 2, 5),
        ("StandardJsonAdapters.BOOLEAN_JSON_ADAPTER.fromJson", "method", 4, 4),
        ("StandardJsonAdapters.BYTE_JSON_ADAPTER", "class", 6, 8),
        ("StandardJsonAdapters.BYTE_JSON_ADAPTER.fromJson", "method", 7, 7)]


def test_a_file_keeps_its_first_values_only() -> None:
    """A generated header of thousands of ``#define``s is not thousands of lookups (a review:
    50,000 in 12 s, quadratic)."""
    source = "".join(f"#define M_{i} {i}\n" for i in range(MAX_VALUES + 50)) + "int f(void) { return 0; }\n"
    parsed = symbols(source.encode(), "c")
    assert [s.name for s in parsed.symbols][:2] == ["M_0", "M_1"]
    assert len(parsed.symbols) == MAX_VALUES + 1 and parsed.symbols[-1].name == "f"


def test_imports_in_order_without_duplicates() -> None:
    _, parsed = parse(
        "from __future__ import annotations\nimport a.b as c, d\nfrom . import z\n"
        "from ..x.y import (q, r)\nimport d\n\ndef f():\n    import json\n"
    )
    assert parsed.imports == ("__future__", "a.b", "d", ".", "..x.y", "json")


def test_bom_offsets_count_the_bom_and_text_never_contains_it() -> None:
    blob = b'\xef\xbb\xbf"""Doc."""\n\n\ndef first():\n    return 1\n'
    parsed = symbols(blob, "python")
    (first,) = parsed.symbols
    assert first.start_byte == blob.index(b"def first")
    assert (first.start_line, first.end_line) == (4, 5)
    assert text_of(blob, first) == "def first():\n    return 1"
    assert parsed.module_docstring == "Doc."
    bom_first = symbols(b"\xef\xbb\xbfdef g():\n    pass\n", "python").symbols[0]
    assert (bom_first.name, bom_first.start_byte, bom_first.signature) == ("g", 3, "def g()")


def test_crlf_offsets_include_cr_and_lines_stay_right() -> None:
    blob = b'@deco(\r\n    1)\r\ndef f(a):\r\n    """Doc\r\n\r\n    more."""\r\n    g()\r\n\r\nclass K:\r\n    pass\r\n'
    parsed = symbols(blob, "python")
    f, k = parsed.symbols
    assert (f.start_line, f.end_line, f.start_byte, f.end_byte) == (1, 7, 0, blob.index(b"\r\n\r\nclass"))
    assert f.decorators == ("@deco(\r\n    1)",)
    assert (f.signature, f.docstring, f.call_sites) == ("def f(a)", "Doc", (CallSite("g", 7),))
    assert (k.start_line, k.end_line, text_of(blob, k)) == (9, 10, "class K:\r\n    pass")
    assert parsed.line_count == 10


def test_syntax_error_keeps_what_it_can() -> None:
    blob, parsed = parse("def good():\n    return 1\n\n)\n\nclass Also:\n    def m(self):\n        pass\n")
    assert parsed.has_errors
    assert [(s.qualified_name, s.start_line, s.end_line) for s in parsed.symbols] == [
        ("good", 1, 2),
        ("Also", 6, 8),
        ("Also.m", 7, 8),
    ]


def test_invalid_utf8_raises_parse_error() -> None:
    with pytest.raises(ParseError, match="not valid UTF-8 at byte 8"):
        symbols(b"def f():\xff\n    pass\n", "python")
    with pytest.raises(ParseError, match="not valid UTF-8"):
        symbols("x = 'é'\n".encode("latin-1"), "python")


def test_unknown_language_raises_parse_error() -> None:
    with pytest.raises(ParseError, match="unsupported language 'cobol'"):
        symbols(b"", "cobol")


def test_empty_file() -> None:
    assert symbols(b"", "python") == ParsedFile("python", (), (), (), "", 0, False)


@pytest.mark.parametrize(
    ("source", "lines"), [("x", 1), ("x\n", 1), ("x\ny", 2), ("x\n\n", 2), ("\n", 1)]
)
def test_line_count(source: str, lines: int) -> None:
    assert parse(source)[1].line_count == lines


def test_end_line_is_the_line_of_the_last_byte() -> None:
    _, parsed = parse("def f():\n    pass\n\n\n")
    assert (parsed.symbols[0].end_line, parsed.line_count) == (2, 4)


def test_language_for_and_supported_languages() -> None:
    assert "python" in supported_languages() and supported_languages() == sorted(supported_languages())
    assert [language_for(p) for p in ("a/b.py", "x.PYI", "tool.pyw", "a.py/readme", ".py", "Makefile")] == [
        "python", "python", "python", None, None, None,
    ]


KNOWN_CAPTURES = {
    "name", "body", "decorator", "async", "doc", "doc.module", "reference.call", "reference.import",
    "reference.value",
    "receiver", "trait", "params", "anonymous", "package", "alias", "tail", "helper",
}


@pytest.mark.parametrize("language", supported_languages())
def test_registry_query_compiles_with_known_captures(language: str) -> None:
    query = registry.tags_query(language)
    names = {query.capture_name(i) for i in range(query.capture_count)}
    kinds = {n.removeprefix("definition.") for n in names if n.startswith("definition.")}
    assert kinds and kinds <= {k.value for k in SymbolKind}
    # "_"-prefixed captures only feed predicates (#any-of? @_require ...) and are ignored.
    assert {n for n in names if not n.startswith("_")} - {f"definition.{k}" for k in kinds} <= KNOWN_CAPTURES
    assert symbols(b"", language).symbols == ()


STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.mark.parametrize("package", ["json", "email"])
def test_standard_library_parses(package: str) -> None:
    files = sorted((STDLIB / package).rglob("*.py"))
    assert files
    count = 0
    for path in files:
        blob = path.read_bytes()
        for sym in symbols(blob, "python").symbols:
            starts = (sym.name,) if sym.kind in VALUE_KINDS else ("def", "async def", "class", "@")
            assert text_of(blob, sym).startswith(starts), (path, sym)
            assert sym.start_line <= sym.end_line
            count += 1
    assert count > 20


def test_a_jsdoc_block_a_blank_line_above_a_definition_documents_it() -> None:
    """express leaves a blank line under each ``/** */`` block of ``lib/``: the block is
    still the definition's docstring (``text.DOC_BLOCK_GAP``); a ``//`` comment above a blank
    line is not, nor a block further up, nor a licence header or a ``@typedef`` block."""
    source = (b"/**\n * Copyright (c) Acme. MIT Licensed.\n */\n\nfunction first() {}\n\n"
              b"/**\n * Send a response.\n * @public\n */\n\nres.send = function send(body) {\n  return 1;\n};\n\n"
              b"/**\n * @typedef {Object} Options\n */\n\nfunction second() {}\n\n"
              b"// a note on the code around\n\nfunction g() {}\n\n"
              b"/** Far above. */\n\n\n\nfunction h() {}\n\n"
              b"/**\n * Adjacent.\n */\nfunction k() {}\n")
    docs = {s.qualified_name: s.docstring for s in symbols(source, "javascript").symbols}
    assert docs == {"first": "", "res.send": "Send a response.\n@public", "second": "", "g": "", "h": "",
                    "k": "Adjacent."}  # a licence header, a typedef: not the next function's doc


def test_a_js_function_is_named_by_the_property_it_is_assigned_to() -> None:
    """express's ``res.type = function contentType(...)``: callers write ``res.type(...)``;
    the function's own name is its stack name only. Same-named ones are unchanged."""
    source = (b"res.type = function contentType(type) {\n  return type;\n};\n"
              b"res.send = function send(body) {};\n"
              b"Foo.prototype.baz = function qux() {};\n"
              b"exports.foo = function bar() {};\n")
    got = [(s.qualified_name, s.name, s.start_line) for s in symbols(source, "javascript").symbols]
    assert got == [("res.type", "type", 1), ("res.send", "send", 4), ("Foo.baz", "baz", 5), ("foo", "foo", 6)]


def test_each_name_of_a_js_assignment_chain_names_the_function() -> None:
    """express's ``req.get = req.header = function header(name)``: callers write both;
    the outermost name held no symbol, an anonymous inner link none, and a named function's
    own name stood for its property (``exports.bar = function foo`` was a second ``foo``)."""
    source = (b"req.get =\nreq.header = function header(name) {\n  return name;\n};\n"
              b"req.a = req.b = () => 1;\n"
              b"exports.foo = exports.bar = function foo() {};\n"
              b"req.s = req.t = async function s() {};\n")
    got = [(s.qualified_name, s.parent, s.kind.value, s.start_line, s.end_line, s.is_async)
           for s in symbols(source, "javascript").symbols]
    assert got == [("req.get", "req", "method", 1, 4, False), ("req.header", "req", "method", 2, 4, False),
                   ("req.a", "req", "method", 5, 5, False), ("req.b", "req", "method", 5, 5, False),
                   ("foo", "", "function", 6, 6, False), ("bar", "", "function", 6, 6, False),
                   ("req.s", "req", "method", 7, 7, True), ("req.t", "req", "method", 7, 7, True)]


@pytest.mark.parametrize(("language", "path", "source", "expected"), [
    # a #define's continued line is the directive's, never a line macro to blank
    ("c", "m.c", "#define WRAP(x) \\\n    CALL_IT(x)\n\n#define WRAP2(x) \\\n    CALL_IT(x)\n\nMY_BEGIN_DECLS\n"
                 "int ok(void) { return 0; }\n",
     [("WRAP", 1, 2), ("WRAP2", 4, 5), ("ok", 8, 8)]),
    # the macro repair builds on the #if repair (jq's split braces) instead of undoing it
    ("c", "jq.c", "int a(int x) {\n#ifdef USE_X\n  if (x > 1) {\n#else\n  if (x > 2) {\n#endif\n    return 1;\n  }\n"
                  "  return 0;\n}\n\nint b(void) { return 2; }\n\nAPI_EXPORT int d(void) { return 4; }\n",
     [("a", 1, 10), ("b", 12, 12), ("d", 14, 14)]),
    # the last enumerator, after a comment, is no line macro
    ("c", "e.c", "enum proto {\n  PROTO_TCP = 6,\n  /* Added in 2.4.0. */\n  PROTO_MAX\n};\n\nMY_BEGIN_DECLS\n"
                 "int ok(void) { return 0; }\n",
     [("proto", 1, 5), ("proto.PROTO_TCP", 2, 2), ("proto.PROTO_MAX", 4, 4), ("ok", 8, 8)]),
    # a typedef's name written like a macro is its name
    ("c", "s.c", "typedef STACK_OF(GENERAL_NAME) GENERAL_NAMES;\nMY_BEGIN_DECLS\nint ok(void) { return 0; }\n",
     [("GENERAL_NAMES", 1, 1), ("ok", 3, 3)]),
    # a test macro whose body opens on the next line, and a class scope written in capitals
    ("cpp", "t.cpp", "TEST_F(ParserTest, ParsesEmptyInput)\n{\n    EXPECT_TRUE(parse(\"\").empty());\n}\n\n"
                     "namespace IO_UTIL {\nint read_all(int fd);\n}\n\nint IO_UTIL::read_all(int fd) { return fd; }\n\n"
                     "class Widget {\n  Q_OBJECT\npublic:\n  void show() {}\n};\n",
     [("TEST_F", 1, 4), ("IO_UTIL", 6, 8), ("IO_UTIL::read_all", 10, 10), ("Widget", 12, 16),
      ("Widget::show", 15, 15)]),
    # a pure C header stays C, however the C++ grammar counts its errors
    ("c", "sig.h", "typedef void (*handler_t) (int);\nchar **split_words(const char *s) { return 0; }\n"
                   "extern int sigpause (int __sig)\n  __attribute_deprecated_msg__ (\"Use sigsuspend instead\");\n",
     [("handler_t", 1, 1), ("split_words", 2, 2)]),
    # a "(" in a comment among the parameters: the repair blanks nothing past them
    ("kotlin", "Foo.kt", "package demo\n\nclass Foo\ninternal constructor(\n  val a: Int, // the count (may be zero\n"
                         "  val b: Int,\n) {\n  fun bar(): Int = a + b\n}\n\nfun topLevel() = Foo(1, 2).bar()\n",
     [("Foo", 3, 9), ("Foo.bar", 8, 8), ("topLevel", 11, 11)]),
])
def test_parse_repairs_lose_no_definition(language: str, path: str, source: str,
                                          expected: list[tuple[str, int, int]]) -> None:
    """A review's cases: each repair, written to find more definitions, had lost some."""
    assert [(s.qualified_name, s.start_line, s.end_line) for s in symbols(source.encode(), language, path).symbols] == expected


def test_scala_local_values_and_end_markers_of_another_name() -> None:
    """A review: a function's local ``val`` with its value on the next line became a nested
    function owning the value's calls (os-lib's ``move.apply.opts1``), and ``end RaceTest``
    closed a nested class."""
    source = ("object move:\n  def apply(from: Path, to: Path) =\n    val opts1 =\n      if x then a\n"
              "      else b\n    run(opts1)\n\nclass RaceTest:\n  class Nasty extends Throwable\nend RaceTest\n")
    parsed = symbols(source.encode(), "scala")
    assert [(s.qualified_name, s.start_line, s.end_line, [c.name for c in s.call_sites]) for s in parsed.symbols] == [
        ("move", 1, 6, []), ("move.apply", 2, 6, ["run"]), ("RaceTest", 8, 10, []), ("RaceTest.Nasty", 9, 9, [])]


@pytest.mark.parametrize("language", ["typescript", "javascript"])
def test_a_js_decorator_without_arguments_is_a_call_of_its_scope(language: str) -> None:
    source = "@Component({a: 1})\nclass A {\n  @HostListener('x')\n  onX() {}\n  @observable\n  y() {}\n  @mobx.action\n  z() {}\n}\n"
    parsed = symbols(source.encode(), language)
    got = {s.qualified_name: s.call_sites for s in parsed.symbols}
    assert got["A"] == (CallSite("HostListener", 3), CallSite("observable", 5), CallSite("mobx.action", 7))
    assert got["A.y"] == () and got["A.z"] == ()
    assert parsed.module_call_sites == (CallSite("Component", 1),)  # the class's own: the module's


@pytest.mark.parametrize(("language", "path", "source", "doc"), [
    # axios lib/core/AxiosError.js: the summary was "eslint-disable-next-line func-names"
    ("javascript", "a.js", "// eslint-disable-next-line func-names\nfunction from(error) {\n  return error;\n}\n", ""),
    ("javascript", "a.js", "/**\n * Wrap an error.\n */\n// eslint-disable-next-line no-unused-vars\nfunction from(e) {}\n",
     "Wrap an error."),
    ("typescript", "a.ts", "// @ts-ignore\n// Parse the header line.\nfunction parse(x: string) {}\n", "Parse the header line."),
    ("go", "a.go", "package a\n\n// Parse reads a line.\n//\n//nolint:gocyclo\nfunc Parse() {}\n", "Parse reads a line."),
    ("go", "a.go", "package a\n\n//go:noinline\n// Parse reads a line.\nfunc Parse() {}\n", "Parse reads a line."),
    ("rust", "a.rs", "// NOLINT\n/// Reads the header.\nfn parse() {}\n", "Reads the header."),
    # by their syntax: TSLint, Flow; a prose line naming a linter is kept (a review)
    ("typescript", "a.ts", "// tslint:disable-next-line:no-any\n// $FlowFixMe\nfunction parse(x: string) {}\n", ""),
    ("javascript", "a.js", "// eslint plugins read this list: the rule names the linter reports.\nfunction parse(x) {}\n",
     "eslint plugins read this list: the rule names the linter reports."),
])
def test_a_tool_directive_comment_is_no_docstring(language: str, path: str, source: str, doc: str) -> None:
    """A linter's or compiler's directive above a definition is an instruction to a tool:
    left out of the docstring (``docstrings._DIRECTIVE``); the prose beside it stays."""
    from coderecalld.parse import symbols
    parsed = symbols(source.encode(), language, path)
    (sym,) = [s for s in parsed.symbols if s.name in ("from", "parse", "Parse")]
    assert sym.docstring == doc
