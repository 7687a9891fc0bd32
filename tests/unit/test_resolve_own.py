"""Call targets within one file for the languages whose receiver types the index does not
read (index/resolve_own): the object's own methods, a type of the file, what stays unknown.
Every site of each file is listed with its exact target."""

from __future__ import annotations

import pytest

from coderecalld import parse
from coderecalld.index import chunk, points, resolve


def targets(source: str, language: str, path: str) -> list[tuple[str, str, int, str]]:
    blob = source.encode()
    parsed = parse.symbols(blob, language, path)
    found = resolve.chunks(chunk.chunks("r", path, blob, parsed), parsed, path, "")
    return [(c.qualified_name, s.name, s.line, s.target) for c in found for s in c.call_sites]


CSHARP = """\
namespace Acme.Net
{
    public class Client
    {
        private readonly Pool _pool;
        public void Send(Request r) { var x = new Encoder(); x.Encode(r); this.Log(r); Log(r); }
        public void Send(Request r, int n) { _pool.Get(); Helper.Run(); Send(r); }
        void Log(Request r) { }
        static void Trace() { Audit.Write(); }
    }

    public class Server : Host
    {
        public void Start() { this.Log(null); Log(null); Stop(); Client.Trace(); }
        void Log(Request r) { }
    }
}
"""


def test_csharp_own_methods_and_file_types() -> None:
    assert targets(CSHARP, "csharp", "src/Client.cs") == [
        ("Acme.Net.Client.Send(Request)", "Encoder", 6, ""),
        ("Acme.Net.Client.Send(Request)", "x.Encode", 6, ""),  # a local of another file's type
        ("Acme.Net.Client.Send(Request)", "this.Log", 6, "Acme.Net.Client.Log"),
        ("Acme.Net.Client.Send(Request)", "Log", 6, "Acme.Net.Client.Log"),
        ("Acme.Net.Client.Send(Request,int)", "_pool.Get", 7, ""),
        ("Acme.Net.Client.Send(Request,int)", "Helper.Run", 7, ""),  # no type of this file
        # an overload: every Send is one target, as the definitions' fq_name drops parameters
        ("Acme.Net.Client.Send(Request,int)", "Send", 7, "Acme.Net.Client.Send"),
        ("Acme.Net.Client.Trace()", "Audit.Write", 9, ""),
        ("Acme.Net.Server.Start()", "this.Log", 14, "Acme.Net.Server.Log"),
        ("Acme.Net.Server.Start()", "Log", 14, "Acme.Net.Server.Log"),
        # Server has a base: a Stop it does not define may be inherited, not judged
        ("Acme.Net.Server.Start()", "Stop", 14, ""),
        ("Acme.Net.Server.Start()", "Client.Trace", 14, "Acme.Net.Client.Trace"),
    ]


def test_a_csharp_definitions_fq_name_drops_its_parameters() -> None:
    blob = CSHARP.encode()
    parsed = parse.symbols(blob, "csharp")
    names = {c.qualified_name: points.fq_name(c) for c in chunk.chunks("r", "src/Client.cs", blob, parsed)}
    assert names["Acme.Net.Client.Send(Request,int)"] == "Acme.Net.Client.Send"
    assert names["Acme.Net.Server.Log(Request)"] == "Acme.Net.Server.Log"


@pytest.mark.parametrize(("language", "path", "source", "expected"), [
    ("swift", "Sources/Session.swift",
     "final class Session {\n"
     "    func request(_ url: String) -> Request { perform(url); self.perform(url); return make(url) }\n"
     "    func perform(_ u: String) { u.resume() }\n"
     "}\n"
     "extension Session {\n"
     "    func download(_ u: String) { request(u).resume() }\n"
     "}\n"
     "func make(_ u: String) -> Request { Session.shared.request(u) }\n",
     [("Session.request", "perform", 2, "Session.perform"),
      ("Session.request", "self.perform", 2, "Session.perform"),
      ("Session.request", "make", 2, "make"),  # a top-level function of the file
      ("Session.perform", "u.resume", 3, ""),
      ("Session.download", "resume", 6, ""),  # a chain's tail
      ("Session.download", "request", 6, "Session.request"),  # an extension's own type
      ("make", "Session.shared.request", 8, "")]),  # a member's member
    ("ruby", "lib/base.rb",
     "module Sinatra\n  class Base\n    def call(env)\n      dup.call!(env)\n"
     "      invoke { route! }\n    end\n    def call!(env) = nil\n"
     "    def invoke; yield; end\n    def route!; invoke; end\n  end\nend\n",
     [("Sinatra.Base.call", "dup", 4, ""),  # a bare name: Object's dup, no method here
      ("Sinatra.Base.call", "call!", 4, ""),  # on `dup`
      ("Sinatra.Base.call", "invoke", 5, "Sinatra.Base.invoke"),
      ("Sinatra.Base.call", "route!", 5, ""),  # in a block: it may run with another self
      ("Sinatra.Base.route!", "invoke", 9, "Sinatra.Base.invoke")]),
    ("php", "src/Client.php",
     "<?php\nnamespace GuzzleHttp;\nclass Client {\n"
     "    public function send($request) {\n        $this->transfer($request);\n"
     "        static::build();\n        helper();\n        return $this->handler->send($request);\n    }\n"
     "    private function transfer($r) { return Utils::modify($r); }\n"
     "    public static function build() {}\n}\n",
     [("GuzzleHttp.Client.send", "transfer", 5, "GuzzleHttp.Client.transfer"),
      ("GuzzleHttp.Client.send", "build", 6, "GuzzleHttp.Client.build"),
      ("GuzzleHttp.Client.send", "helper", 7, ""),  # bare in PHP: a function, none here
      ("GuzzleHttp.Client.send", "send", 8, ""),  # on a property of unknown type
      ("GuzzleHttp.Client.transfer", "modify", 10, "")]),
    ("scala", "src/Parser.scala",
     "package x.y\nclass Parser(input: String) {\n"
     "  def parse(): Int = { skip(); this.skip(); Parser.helper(1) }\n  def skip(): Unit = ()\n}\n"
     "object Parser {\n  def helper(i: Int): Int = i\n}\n",
     [("Parser.parse", "skip", 3, "Parser.skip"), ("Parser.parse", "this.skip", 3, "Parser.skip"),
      ("Parser.parse", "Parser.helper", 3, "Parser.helper")]),  # the companion object's
    ("cpp", "src/buffer.cc",
     "namespace fmt {\nclass buffer {\n public:\n  void push_back(char c) { grow(1); this->grow(2); }\n"
     "  void grow(int n);\n};\nvoid buffer::grow(int n) { push_back('a'); other.grow(3); }\n"
     "void widget::draw() { paint(); }\nvoid paint() {}\n}\n",
     [("fmt::buffer::push_back", "grow", 4, "fmt::buffer::grow"),
      ("fmt::buffer::push_back", "grow", 4, "fmt::buffer::grow"),  # `this->grow`
      ("fmt::buffer::grow", "push_back", 7, "fmt::buffer::push_back"),  # out of line
      ("fmt::buffer::grow", "other.grow", 7, ""),
      # a class of another file: an inherited `paint` would come before the namespace's
      ("fmt::widget::draw", "paint", 8, "")]),
    ("c", "src/net.c",
     "static int retry(int n) { return n; }\nint connect(int fd) { return retry(fd) + ops->retry(fd); }\n",
     [("connect", "retry", 2, ""), ("connect", "retry", 2, "")]),  # the line disagrees: not judged
    ("c", "src/net.c",
     "static int retry(int n) { return n; }\nint connect(int fd) {\n  return retry(fd);\n}\n",
     [("connect", "retry", 3, "retry")]),
])
def test_own_calls_per_language(language: str, path: str, source: str,
                                expected: list[tuple[str, str, int, str]]) -> None:
    assert targets(source, language, path) == expected


def receiver_types(source: str, language: str, path: str) -> list[tuple[str, int, str]]:
    blob = source.encode()
    parsed = parse.symbols(blob, language, path)
    found = resolve.chunks(chunk.chunks("r", path, blob, parsed), parsed, path, "")
    return [(s.name, s.line, s.receiver_type) for c in found for s in c.call_sites if "." in s.name]


DECLARED_CS = 'namespace Polly.CircuitBreaker\n{\n    public class AsyncCircuitBreakerPolicy : Policy\n    {\n        private readonly ICircuitController<EmptyStruct> _breakerController;\n        internal ICircuitController<EmptyStruct> BreakerController { get; }\n\n        public void Isolate(Context ctx, Pool pool, TResult r) {\n            _breakerController.Isolate();\n            BreakerController.Isolate();\n            var local = new Pool(1);\n            local.Get();\n            var made = Policy.Handle<X>().CircuitBreakerAsync(1);\n            made.Isolate();\n            var built = new Builder().Build();\n            built.Run();\n            pool.Return(ctx);\n            ctx.Items.Get();\n            r.Dispose();\n            foreach (Item item in items) { item.Run(); }\n            if (obj is Widget w) { w.Draw(); }\n            this._breakerController.Reset();\n            string s = "x"; s.Trim();\n            object o = null; o.ToString();\n        }\n    }\n}\n'

DECLARED_SWIFT = 'open class Request {\n    let session: Session\n    var task: URLSessionTask?\n    func resume() {\n        task?.resume()\n        session.perform(self)\n        let other = DataRequest(convertible: c)\n        other.cancel()\n        guard let t = tasks.last else { return }\n        t.cancel()\n        let typed: DownloadRequest = make()\n        typed.cancel()\n        items.forEach { request in request.cancel() }\n    }\n    func didCreateTask(_ task: URLSessionTask, using request: Request) {\n        task.resume()\n        request.cancel()\n    }\n}\nextension Request {\n    func again() { session.perform(self) }\n}\n'


def test_csharp_receivers_declared_in_the_file() -> None:
    assert receiver_types(DECLARED_CS, "csharp", "src/Policy.cs") == [
        ("_breakerController.Isolate", 9, "ICircuitController"),  # a field, type arguments dropped
        ("BreakerController.Isolate", 10, ""),  # a CapWords property: not read (may be a type's static)
        ("local.Get", 12, "Pool"),  # var x = new T(..)
        ("Policy.Handle", 13, ""),
        ("made.Isolate", 14, ""),  # var x = a fluent call: unknown
        ("built.Run", 16, ""),  # var x = new T().Build(): not a T
        ("pool.Return", 17, "Pool"),  # a parameter
        ("ctx.Items.Get", 18, ""),  # a member's member
        ("r.Dispose", 19, ""),  # TResult: a type parameter
        ("item.Run", 20, "Item"),  # foreach
        ("w.Draw", 21, "Widget"),  # a pattern
        ("this._breakerController.Reset", 22, "ICircuitController"),
        ("s.Trim", 23, "string"),
        ("o.ToString", 24, "")]  # object: every class is one


def test_swift_receivers_declared_in_the_file() -> None:
    assert receiver_types(DECLARED_SWIFT, "swift", "Sources/Request.swift") == [
        ("session.perform", 6, "Session"),  # a stored property
        ("other.cancel", 8, "DataRequest"),  # let x = T(..)
        ("t.cancel", 10, ""),  # guard let t = tasks.last: unknown
        ("typed.cancel", 12, "DownloadRequest"),  # let x: T = ..
        ("items.forEach", 13, ""),
        ("request.cancel", 13, ""),  # a closure's parameter
        ("task.resume", 16, "URLSessionTask"),  # a parameter; the property of that name is another
        ("request.cancel", 17, "Request"),  # a labelled parameter
        ("session.perform", 21, "Session")]  # in an extension: the type's property


DECLARED_CPP = 'namespace fmt {\ntemplate <typename T> class basic_memory_buffer : public detail::buffer<T> {\n public:\n  void grow(size_t n) { this->try_reserve(n); }\n};\nusing memory_buffer = basic_memory_buffer<char>;\ntemplate <typename Buffer>\nvoid write(Buffer& buf, const char* s) {\n  buf.push_back(*s);\n}\nvoid use() {\n  memory_buffer out;\n  out.push_back(\'a\');\n  std::vector<int> v;\n  v.push_back(1);\n  fmt::dynamic_format_arg_store<fmt::format_context> store;\n  store.push_back(42);\n  auto b = basic_memory_buffer<int>();\n  b.push_back(1);\n  file f = file::open("x");\n  f.close();\n  buffered_file* bf = nullptr;\n  bf->close();\n}\n}\n'


def test_cpp_receivers_declared_in_the_file_and_alias_bases() -> None:
    assert receiver_types(DECLARED_CPP, "cpp", "src/use.cc") == [
        ("buf.push_back", 9, ""),  # Buffer: the template's parameter
        ("out.push_back", 13, "memory_buffer"),
        ("v.push_back", 15, "std::vector"),
        ("store.push_back", 17, "fmt::dynamic_format_arg_store"),
        ("b.push_back", 19, "basic_memory_buffer"),  # auto b = T<..>()
        ("file.open", 20, ""),  # a type's static: no receiver to declare
        ("f.close", 21, "file")]
    blob = DECLARED_CPP.encode()
    parsed = parse.symbols(blob, "cpp", "src/use.cc")
    bases = {c.qualified_name: c.bases for c in resolve.chunks(chunk.chunks("r", "src/use.cc", blob, parsed),
                                                                parsed, "src/use.cc", "") if c.bases}
    # a base as written and its last segment; an alias's base is the type it names
    assert bases == {"fmt::basic_memory_buffer": ("detail::buffer", "buffer"),
                     "fmt::memory_buffer": ("basic_memory_buffer",)}


def test_a_cpp_product_inside_an_expression_declares_nothing() -> None:
    """fmt's ``bigint``: ``carry = (upper * bigits_[i] << shift)`` read as a pointer
    ``bigits_`` of type ``upper`` hid the field ``basic_memory_buffer<bigit, 32> bigits_``."""
    source = ("class bigint {\n  basic_memory_buffer<bigit, 32> bigits_;\n  void multiply(uint32_t upper) {\n"
              "    carry = (upper * bigits_[i] << shift) + 1;\n    bigits_.push_back(carry);\n  }\n};\n")
    assert receiver_types(source, "cpp", "format.h") == [("bigits_.push_back", 5, "basic_memory_buffer")]


@pytest.mark.parametrize(("language", "source", "expected"), [
    # a word is no type and name (`if (` was `f: i`); a range-for variable stays unknown
    ("cpp", "struct file { void close() {} };\nvoid close_all(std::vector<file>& files) {\n"
            "  if (files.empty()) return;\n  for (auto& f : files) { f.close(); }\n}\n",
     [("files.empty", 3, "std::vector"), ("f.close", 4, "")]),
    # a cast's target is the type; a function's result is unknown; a namespace is no receiver
    ("cpp", "void g(buffer<char>& buf, const char* fmt) {\n  auto& self = static_cast<basic_memory_buffer&>(buf);\n"
            "  self.set(p, n);\n  auto c = make_conn();\n  c.open();\n  fmt::format_to(out, fmt);\n}\n",
     [("self.set", 3, "basic_memory_buffer"), ("c.open", 5, ""), ("fmt.format_to", 6, "")]),
    # an async lambda's parameter is no declaration of type `async`; an alias names no class
    ("csharp", "using P = Acme.Pool;\nclass T {\n  void Run(IStrategy s) {\n"
               "    Exec(async strategy => { await strategy.ExecuteAsync(); });\n    P pool = null;\n"
               "    pool.Get();\n  }\n}\n",
     [("strategy.ExecuteAsync", 4, ""), ("pool.Get", 6, "")]),
    # each overload reads its own parameters; a metatype and a variadic judge nothing
    ("swift", "final class Sender {\n    func send(_ a: Request) { a.validate() }\n"
              "    func send(_ a: Other, b: Int) { a.validate() }\n    func load(_ t: Plugin.Type) { t.load() }\n"
              "    func add(_ hs: HTTPHeader...) { hs.forEach(add) }\n}\n",
     [("a.validate", 2, "Request"), ("a.validate", 3, "Other"), ("t.load", 4, ""), ("hs.forEach", 5, "")]),
])
def test_receiver_types_the_review_misread(language: str, source: str,
                                          expected: list[tuple[str, int, str]]) -> None:
    assert receiver_types(source, language, "src/file") == expected


@pytest.mark.parametrize(("language", "source", "expected"), [
    # a type this file only extends has its members elsewhere: `helper()` is Session's
    ("swift", "extension Session {\n    func other() { helper() }\n}\nfunc helper() {}\n",
     [("Session.other", "helper", 2, "")]),
    # a class with an included module may call its methods bare
    ("ruby", "class App\n  include Helpers\n  def call\n    render\n  end\nend\ndef render; end\n",
     [("App", "include", 2, ""), ("App.call", "render", 4, "")]),
])
def test_a_bare_call_in_a_type_with_members_elsewhere_is_not_judged(language: str, source: str,
                                                                     expected: list[tuple[str, str, int, str]]) -> None:
    assert targets(source, language, "src/file") == expected


CHAINS = [
    ("java", "A.java", "class S extends B implements I {\n  S(int x) { super(x); }\n  S() { this(1); }\n}\n"
     "class P implements I {\n  P() { super(); }\n}\n",
     [("S.S(int)", "B", 2), ("S.S()", "S", 3), ("P.P()", "super", 6)]),
    ("csharp", "A.cs", "class S : B, I {\n  public S(int x) : base(x) { }\n  public S() : this(1) { }\n}\n",
     [("S.S(int)", "B", 2), ("S.S()", "S", 3)]),
    ("javascript", "a.js", "class S extends B {\n  constructor() { super(1) }\n  run() { super.run() }\n}\n"
     "class M extends mix(B) {\n  constructor() { super(1) }\n}\n",
     [("S.constructor", "B", 2), ("S.run", "super.run", 3), ("M.constructor", "super", 6), ("a", "mix", 5)]),
    ("ruby", "a.rb", "class S < A::B\n  def initialize\n    super\n  end\n  def call\n    super\n  end\nend\n",
     [("S.initialize", "A.B.new", 3), ("S.call", "super", 6)]),
    ("php", "a.php", "<?php\nclass S extends \\A\\B {\n  function f() { return [new self(), new static(), new parent()]; }\n}\n",
     [("S.f", "S", 3), ("S.f", "S", 3), ("S.f", "A.B", 3)]),
    ("kotlin", "a.kt", "class S(x: Int) : I, B(x) {\n  constructor() : this(1)\n}\n",
     [("S", "B", 1), ("S", "S", 2)]),
    ("cpp", "a.cc", "struct S : public B {\n  S(int n) : B(n), size_(n), buf(n) {}\n};\n"
     "S::S() : B(1), size_(0), Other(2) {}\nvoid f() { S s(1); S t{2}; int n(3); }\n",
     [("S::S", "B", 2), ("S::S", "B", 4), ("S::S", "Other", 4), ("f", "S", 5), ("f", "S", 5)]),
]


@pytest.mark.parametrize(("language", "path", "source", "expected"), CHAINS, ids=[c[0] for c in CHAINS])
def test_a_constructors_chaining_call_is_named_after_the_class_it_constructs(
        language: str, path: str, source: str, expected: list[tuple[str, str, int]]) -> None:
    # named after the base the class head names (`super(..)`, `: base(..)`, Ruby's bare
    # `super` in `initialize` as `B.new`), or the class itself (`this(..)`, PHP's `new
    # self`); a keyword with no base written (`implements` only, `extends mix(B)`) or
    # outside a constructor stays as written; C++'s member initializers are no calls
    assert [(caller, name, line) for caller, name, line, _ in targets(source, language, path)] == expected
