"""``callers`` in a language whose receiver types are not read (C#, Swift; index/resolve_own):
a class's own ``this.Log()``/``Log()`` is a resolved call of its ``Log``, and no call of
another class's ``Log``; a call on a receiver of unknown type stays a ``name_only``
candidate. Before, every one of them was a ``name_only`` caller of every ``Log``. Real git
fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "src/Client.cs": """\
namespace Acme.Net
{
    public class Client
    {
        public void Send(string r)
        {
            this.Log(r);
            Log(r);
        }

        public void Log(string r) { }
    }
}
""",
    "src/Server.cs": """\
namespace Acme.Net
{
    public class Server
    {
        private readonly Client _client;

        public void Start()
        {
            this.Log("up");
            Log("up");
            _client.Log("via");
        }

        void Log(string r) { }
    }
}
""",
    "src/Registry.cs": """\
namespace Acme.Registry
{
    public abstract class Provider
    {
        public Pipeline GetPipeline(string key)
        {
            return TryGetPipeline(key);
        }

        public abstract Pipeline TryGetPipeline(string key);
    }

    public sealed class PipelineRegistry : Provider, IDisposable
    {
        public override Pipeline TryGetPipeline(string key) { return null; }
    }
}
""",
    "src/Client.php": """\
<?php
namespace GuzzleHttp;

trait ClientTrait
{
    abstract public function request(string $method, $uri, array $options = []);

    public function get($uri, array $options = [])
    {
        return $this->request('GET', $uri, $options);
    }
}

class Client implements ClientInterface
{
    use ClientTrait;

    public function request(string $method, $uri = '', array $options = [])
    {
        return $this->transfer($method);
    }
}
""",
    "src/Pools.cs": """\
namespace Acme.Pools
{
    public interface IPool { object Get(); }
    public class Pool : IPool { public object Get() { return null; } }
    public class SubPool : Pool { }
    public class OtherPool { public object Get() { return null; } }

    public class User
    {
        private readonly OtherPool _other;
        private readonly IPool _pool;

        public void Use(SubPool sub, string key)
        {
            var mine = new Pool();
            mine.Get();
            sub.Get();
            _pool.Get();
            _other.Get();
            var made = Factory.Make();
            made.Get();
            key.Get();
        }
    }
}
""",
    "include/fmt/base.h": """\
namespace fmt {
namespace detail {
template <typename T> class buffer {
 public:
  void push_back(const T& value) { ptr_[size_++] = value; }
};
}  // namespace detail

template <typename T> class basic_memory_buffer : public detail::buffer<T> {};
using memory_buffer = basic_memory_buffer<char>;

template <typename Buffer>
void write(Buffer& buf, const char* s) {
  buf.push_back(*s);
}

void use() {
  memory_buffer out;
  out.push_back('a');
  std::vector<int> v;
  v.push_back(1);
  auto b = basic_memory_buffer<int>();
  b.push_back(1);
}
}  // namespace fmt
""",
    "src/RetryExt.cs": """\
namespace Acme.Retry
{
    public static class RetryExt
    {
        public static Builder AddRetry(this Builder b, int n) { return b; }
    }

    public class Setup
    {
        public void Configure()
        {
            var builder = new Builder();
            builder.AddRetry(3);
        }
    }
}
""",
    "Sources/Session.swift": """\
final class Session {
    func request(_ url: String) {
        validate(url)
        self.validate(url)
    }

    func validate(_ u: String) {}
}

final class Upload {
    func start(_ u: String) {
        validate(u)
    }

    func validate(_ u: String) {}
}
""",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("own"), FILES) as running:
        yield running


def test_a_classs_own_calls_are_its_callers_and_no_other_classs(daemon: Daemon) -> None:
    omitted: dict[str, int] = {}
    sites = sorted((c.path, c.line, c.confidence) for c in daemon.service.find_callers(
        "Client.Log", repo="fx", omitted=omitted))
    assert sites == [("src/Client.cs", 7, "resolved"), ("src/Client.cs", 8, "resolved"),
                     ("src/Server.cs", 11, "name_only")]
    assert omitted == {"other_type": 2}
    # `_client.Log(..)` is on a field declared `Client`: no call of Server's Log
    sites = sorted((c.path, c.line, c.confidence) for c in daemon.service.find_callers("Server.Log", repo="fx"))
    assert sites == [("src/Server.cs", 9, "resolved"), ("src/Server.cs", 10, "resolved")]


def test_swift_own_calls(daemon: Daemon) -> None:
    sites = sorted((c.path, c.line, c.confidence) for c in daemon.service.find_callers("Session.validate", repo="fx"))
    assert sites == [("Sources/Session.swift", 3, "resolved"), ("Sources/Session.swift", 4, "resolved")]
    sites = sorted((c.line, c.confidence) for c in daemon.service.find_callers("Upload.validate", repo="fx"))
    assert sites == [(12, "resolved")]


def test_a_base_classs_own_call_may_run_an_override(daemon: Daemon) -> None:
    """The template method: a base's bare ``TryGetPipeline(key)`` resolves to the base's own
    (abstract) method, and runs a subclass's override: a caller of the override, labelled
    ``override`` through the subclass's bases as written (``base_targets``)."""
    sites = [(c.path, c.line, c.confidence) for c in daemon.service.find_callers(
        "PipelineRegistry.TryGetPipeline", repo="fx")]
    assert sites == [("src/Registry.cs", 7, "override")]
    sites = [(c.path, c.line, c.confidence) for c in daemon.service.find_callers("Provider.TryGetPipeline", repo="fx")]
    assert sites == [("src/Registry.cs", 7, "resolved")]
    card = daemon.service.get_card("PipelineRegistry", repo="fx")
    assert card.bases == ("Provider", "IDisposable")


def test_a_trait_s_call_of_its_abstract_method_reaches_the_class_using_it(daemon: Daemon) -> None:
    """guzzle's ``ClientTrait::get`` calls ``$this->request(..)``, the trait's abstract
    method, which ``Client`` (``use ClientTrait;``) implements: resolved to the trait's, it
    is an ``override`` caller of ``Client.request`` through the class's mixed-in bases."""
    sites = [(c.path, c.line, c.confidence) for c in daemon.service.find_callers("Client.request", repo="fx")]
    assert sites == [("src/Client.php", 10, "override")]


CONSTRUCTORS = {
    "src/MockHandler.php": """\
<?php
namespace GuzzleHttp\\Handler;

class MockHandler
{
    public function __construct(array $queue = null)
    {
        $this->queue = $queue;
    }

    public static function createWithMiddleware(array $queue = null)
    {
        return new MockHandler($queue);
    }
}

class CookieJar
{
    public function __construct() {}
}

class FileCookieJar extends CookieJar
{
    public function __construct($file)
    {
        parent::__construct();
    }
}
""",
    "tests/MockHandlerTest.php": """\
<?php
class MockHandlerTest
{
    public function testQueue()
    {
        $mock = new MockHandler([]);
    }
}
""",
    "Sources/RetryPolicy.swift": """\
open class RetryPolicy {
    public init(retryLimit: UInt = 2) {
        self.retryLimit = retryLimit
    }
}

final class ConnectionLostRetryPolicy: RetryPolicy {
    init(retryLimit: UInt) {
        super.init(retryLimit: retryLimit)
    }
}

func make() -> RetryPolicy {
    let headers = HTTPHeaders.init([])
    return RetryPolicy(retryLimit: 3)
}
""",
    "lib/stream.rb": """\
module Helpers
  class Stream
    def initialize(scheduler = nil)
      @scheduler = scheduler
    end
  end

  class Other
    def initialize
      super
    end
  end

  def stream
    Stream.new(self)
  end
end
""",
    "Sources/Window.swift": """\
struct RefreshWindow {
    init(interval: Int) {}
}

func makeInterceptor() -> Interceptor {
    Interceptor(refreshWindow: .init(interval: 30))
}
""",
    "src/main/java/acme/Shape.java": """\
package acme;

class Shape {
    Shape(int sides) { }
}

class Square extends Shape implements Cloneable {
    Square(int side) {
        super(4);
    }

    Square() {
        this(1);
    }

    static Square unit() { return new Square(1); }
}

class Plain implements Cloneable {
    Plain() {
        super();
    }
}
""",
    "src/Pool.cs": """\
namespace Acme
{
    public class Pool
    {
        public Pool(int size) { }
    }

    public class BoundedPool : Pool, IDisposable
    {
        public BoundedPool(int size) : base(size) { }
        public BoundedPool() : this(8) { }
    }
}
""",
    "lib/widget.js": """\
class Widget {
  constructor(el) { this.el = el }
}

class Button extends Widget {
  constructor(el) {
    super(el)
  }
}

class Mixed extends mixin(Widget) {
  constructor(el) {
    super(el)
  }
}
""",
    "lib/base.rb": """\
class Base
  def initialize(app)
    @app = app
  end
end

class Logger < Base
  def initialize(app)
    super
  end

  def call(env)
    super
  end
end

class Timer < Base
  def initialize(app, n)
    super(app)
  end
end
""",
    "src/Node.php": """\
<?php
namespace Acme;

class Node
{
    public function __construct($v) { }

    public static function of($v) { return new self($v); }

    public static function make($v) { return new static($v); }

    public function count() { return 1; }

    public function size($xs)
    {
        $n = \\count($xs);
        $n += count($xs);
        $n += $this->count();
        return $n + self::count();
    }
}

class Leaf extends \\Acme\\Node
{
    public function copy() { return new parent(1); }
}
""",
    "src/buffer.cc": """\
struct buffer {
  buffer(int n) {}
};

struct memory_buffer : public buffer {
  memory_buffer(int n) : buffer(n), size_(n) {}
  int size_;
};

void use() {
  buffer b(1);
  buffer c{2};
  int size_(3);
}
""",
    "src/Conn.kt": """\
open class Conn(val host: String)

class TlsConn(host: String) : Conn(host), AutoCloseable {
    constructor() : this("localhost")
    override fun close() {}
}
""",
    "app/async_client.py": """\
class Client:
    def __init__(self, base_url, loop):
        self.loop = loop


def make():
    return Client("b", None)
""",
    "app/client.py": """\
class Client:
    def __init__(self, base_url):
        self.base_url = base_url


class AsyncClient(Client):
    def __init__(self, base_url):
        super().__init__(base_url)


def build():
    return Client("http://x")
""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("ctor"), CONSTRUCTORS) as running:
        yield running


@pytest.mark.parametrize(("name", "expected"), [
    # the class's constructions, not another class's `parent::__construct()`
    ("MockHandler.__construct", [("src/MockHandler.php", 13), ("tests/MockHandlerTest.php", 6)]),
    # a subclass's `super.init(..)`, not `HTTPHeaders.init(..)`
    # (and the implicit member `.init(..)` of Window.swift: its type unknown here)
    ("RetryPolicy.init", [("Sources/RetryPolicy.swift", 9), ("Sources/RetryPolicy.swift", 15),
                          ("Sources/Window.swift", 6)]),
    ("Stream.initialize", [("lib/stream.rb", 15)]),
    ("CookieJar.__construct", [("src/MockHandler.php", 26)]),  # its subclass's parent::__construct()
    # Python: the class's call, and the subclass's super().__init__ resolved to it
    ("app.client.Client.__init__", [("app/client.py", 8), ("app/client.py", 12)]),
    # a Swift implicit member's type is the context's, unknown here: a candidate
    ("RefreshWindow.init", [("Sources/Window.swift", 6)]),
    # constructors chained with a keyword: Java's `super(4)` in a subclass (not Plain's
    # `super()`, whose class extends nothing), `this(1)` and `new Square(1)`
    ("Shape.Shape", [("src/main/java/acme/Shape.java", 9)]),
    ("Square.Square", [("src/main/java/acme/Shape.java", 13), ("src/main/java/acme/Shape.java", 16)]),
    ("Plain.Plain", []),
    # C#'s `: base(size)` and `: this(8)`, written in the constructor's header
    ("Pool.Pool", [("src/Pool.cs", 10)]),
    ("BoundedPool.BoundedPool", [("src/Pool.cs", 11)]),
    # JS's `super(el)` under `extends Widget`, not under `extends mixin(Widget)`
    ("Widget.constructor", [("lib/widget.js", 7)]),
    # Ruby's `super` and `super(app)` in `initialize`, not `super` in `call`
    ("Base.initialize", [("lib/base.rb", 9), ("lib/base.rb", 19)]),
    # PHP's `new self(..)`, `new static(..)`, a subclass's `new parent(..)`
    ("Node.__construct", [("src/Node.php", 8), ("src/Node.php", 10), ("src/Node.php", 25)]),
    # C++: a base initializer (not the member's `size_(n)`), `T x(..)`, `T x{..}`
    ("buffer.buffer", [("src/buffer.cc", 6), ("src/buffer.cc", 11), ("src/buffer.cc", 12)]),
])
def test_a_constructor_is_called_by_its_class_s_constructions(built: Daemon, name: str,
                                                                expected: list[tuple[str, int]]) -> None:
    sites = sorted((c.path, c.line) for c in built.service.find_callers(name, repo="fx"))
    assert sites == expected


def test_kotlin_constructs_its_base_in_the_class_head_and_delegates_with_this(built: Daemon) -> None:
    # `class TlsConn(host) : Conn(host), AutoCloseable` calls Conn's constructor; the
    # secondary `constructor() : this("localhost")` calls TlsConn's: both the class's own
    got = {name: sorted((c.path, c.line, c.caller) for c in built.service.find_callers(name, repo="fx"))
           for name in ("Conn", "TlsConn", "AutoCloseable")}
    assert got == {"Conn": [("src/Conn.kt", 3, "TlsConn")], "TlsConn": [("src/Conn.kt", 4, "TlsConn")],
                   "AutoCloseable": []}


def test_a_bare_php_call_is_a_functions_not_a_methods(built: Daemon) -> None:
    # `\\count($xs)` and `count($xs)` call PHP's function; `$this->` and `self::` the method
    sites = built.service.find_callers("Node.count", repo="fx")
    assert sorted((c.path, c.line, c.caller, c.callee) for c in sites) == [
        ("src/Node.php", 18, "Acme.Node.size", "count"), ("src/Node.php", 19, "Acme.Node.size", "count")]


def test_a_member_initializer_is_no_call(built: Daemon) -> None:
    # `: buffer(n), size_(n)` and `int size_(3)`: a member and a local set, no call of size_
    sites = built.service.find_callers("size_", repo="fx")
    assert [(c.path, c.line) for c in sites] == []


def test_a_receiver_declared_with_a_type_outside_the_hierarchy_is_no_caller(daemon: Daemon) -> None:
    """C# and Swift receivers declared in the file (a field, a parameter, ``var x = new
    T()``) of a type that is neither the method's class nor above or below it call another
    type's method: ``_other.Get()`` (an ``OtherPool``) and ``key.Get()`` (a ``string``) are
    no callers of ``Pool.Get``; an interface above it, a subclass below it and an
    undeclared ``made`` stay (a callers audit: 43% of Polly's false callers were fields of
    another declared type)."""
    omitted: dict[str, int] = {}
    sites = sorted((c.line, c.confidence) for c in daemon.service.find_callers(
        "Pool.Get", repo="fx", omitted=omitted))
    assert sites == [(16, "name_only"), (17, "name_only"), (18, "name_only"), (21, "name_only")]
    assert omitted == {"other_type": 2}
    sites = sorted(c.line for c in daemon.service.find_callers("OtherPool.Get", repo="fx"))
    assert sites == [19, 21]


def test_cpp_receivers_of_an_alias_a_subclass_or_a_template_parameter_stay(daemon: Daemon) -> None:
    """fmt: ``memory_buffer out`` (an alias of a subclass) and ``auto b = basic_memory_buffer
    <int>()`` call ``buffer::push_back``; ``Buffer& buf`` (a template parameter) may; a
    ``std::vector<int> v`` does not (a callers audit: 44% of fmt's false callers were
    locals declared with another type, most of them standard containers)."""
    omitted: dict[str, int] = {}
    sites = sorted(c.line for c in daemon.service.find_callers("buffer::push_back", repo="fx", omitted=omitted))
    assert sites == [14, 19, 23]
    assert omitted == {"other_type": 1}


def test_a_csharp_extension_method_is_called_on_the_type_it_extends(daemon: Daemon) -> None:
    """``builder.AddRetry(3)`` on a ``Builder`` calls ``RetryExt.AddRetry(this Builder b)``:
    the receiver's type is the one extended, never the static class's hierarchy (a review:
    Polly's AddRetry and AddTimeout lost 3 callers each)."""
    sites = [(c.path, c.line) for c in daemon.service.find_callers("RetryExt.AddRetry", repo="fx")]
    assert sites == [("src/RetryExt.cs", 13)]
