"""Go panics and V8 (Node) stack traces as agents paste them, and Go's method names as its
tools print them, end to end on real git fixtures and the real embedded store (sparse side
only): ``shape.Query.frames`` reads their frames, ``anchors`` matches their paths to the
indexed files (a Go module cache's ``module@version/`` is the module's root), and
``symbols``/``search`` read ``(*T).m`` as the index names methods (``T.m``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors, service, shape
from coderecalld.query.shape import Shape
from conformance_cases import indexed

GO = {
    "go.mod": "module example.com/router\n\ngo 1.22\n",
    # The raise site: root-level, as Go packages keep their files.
    "tree.go": '''\
package router

type node struct {
\tpath     string
\tnType    int
\tchildren []*node
}

func (n *node) getValue(path string) string {
\tswitch n.nType {
\tcase 0:
\t\treturn n.path
\tdefault:
\t\tpanic("invalid node type")
\t}
}
''',
    # The caller: every word of the request's handling, an engine serving HTTP requests.
    "engine.go": '''\
package router

// Engine serves HTTP requests: each HTTP request is served by the engine's handler.
type Engine struct {
\troot *node
}

// ServeHTTP serves one HTTP request with the engine: the request's handler serves it.
func (engine *Engine) ServeHTTP(path string) string {
\treturn engine.handleHTTPRequest(path)
}

// handleHTTPRequest handles an HTTP request: serve the request, handle its node, serve HTTP.
// A node of an invalid type panics in the node's getValue (an invalid node type).
func (engine *Engine) handleHTTPRequest(path string) string {
\treturn engine.root.getValue(path)
}
''',
}

GO_PANIC = """\
Serving a request panics with an invalid node type
Serving an HTTP request through the engine panics: the engine's request handling stops.

panic: invalid node type

goroutine 21 [running]:
example.com/router.(*node).getValue(0xc000136a80, {0xc00001e1a8, 0x9})
\t/go/pkg/mod/example.com/router@v1.10.0/tree.go:14 +0x8d6
example.com/router.(*Engine).handleHTTPRequest(0xc0000a8b60, {0xc00001e1a8, 0x9})
\t/go/pkg/mod/example.com/router@v1.10.0/engine.go:15 +0x245
example.com/router.(*Engine).ServeHTTP(0xc0000a8b60, {0xc00001e1a8, 0x9})
\t/go/pkg/mod/example.com/router@v1.10.0/engine.go:10 +0x1a5
net/http.serverHandler.ServeHTTP({0xc0000a6150?}, {0x8b7c50?, 0xc0000e01c0?}, 0x6?)
\t/usr/local/go/src/net/http/server.go:3137 +0x8e
created by net/http.(*Server).Serve in goroutine 1
\t/usr/local/go/src/net/http/server.go:3285 +0x4b4
"""


@pytest.fixture(scope="module")
def go(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("go"), GO) as running:
        yield running


def _scores(daemon: Daemon, trace: str, monkeypatch: pytest.MonkeyPatch,
            ) -> tuple[dict[str, float], dict[str, float]]:
    """Located files' scores without any path or frame weight, and with them."""
    def scores() -> dict[str, float]:
        return {f.path: f.score for f in daemon.service.locate(trace, limit=5, repo="fx").files}

    with monkeypatch.context() as m:
        m.setattr(anchors, "PATH_WEIGHT", 0.0)
        m.setattr(anchors, "FRAME_WEIGHTS", ())
        m.setattr(anchors, "TRACE_FRAME_WEIGHTS", ())
        flat = scores()
    return flat, scores()


def test_a_go_panics_frames_name_root_files_of_the_module(go: Daemon,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The frames' files are the module's root files ``tree.go`` and ``engine.go`` (the
    cache's ``router@v1.10.0/`` is the root; a bare ``tree.go`` names no file): each gains
    the path weight and its frame's; the innermost frame's function leads ``tree.go``."""
    monkeypatch.setattr(service, "LEXICAL_FILES_DEPTH", 0)  # the chunk-side file scores: no fused score
    flat, framed = _scores(go, GO_PANIC, monkeypatch)
    assert flat["engine.go"] > flat["tree.go"]  # the caller holds the issue's words
    assert round(framed["tree.go"] - flat["tree.go"], 6) == anchors.PATH_WEIGHT + anchors.FRAME_WEIGHTS[0]
    # engine.go's bonus goes to its innermost frame's function, not its best chunk by words
    assert framed["engine.go"] - flat["engine.go"] > anchors.PATH_WEIGHT
    (tree,) = [f for f in go.service.locate(GO_PANIC, limit=5, repo="fx").files if f.path == "tree.go"]
    assert tree.functions[0].qualified_name == "router.node.getValue"
    (engine,) = [f for f in go.service.locate(GO_PANIC, limit=5, repo="fx").files if f.path == "engine.go"]
    assert [f.qualified_name for f in engine.functions[:2]] == [
        "router.Engine.handleHTTPRequest", "router.Engine.ServeHTTP"]  # frame order


# The panic alone, as an agent pastes a crash log: no issue around it.
GO_TRACE_ALONE = GO_PANIC[GO_PANIC.index("panic: "):]


def test_a_trace_alone_is_answered_where_it_failed(go: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A trace alone weighs its innermost frame more (``TRACE_FRAME_WEIGHTS``): with an
    issue's weights, the caller's file, two frames and every word of the request's
    handling, came first."""
    assert shape.analyze(GO_TRACE_ALONE).shape is Shape.TRACE
    assert shape.analyze(GO_PANIC).shape is Shape.ISSUE
    with monkeypatch.context() as m:
        m.setattr(anchors, "TRACE_FRAME_WEIGHTS", anchors.FRAME_WEIGHTS)
        m.setattr(anchors, "TRACE_FRAME_NAMES", True)
        assert go.service.locate(GO_TRACE_ALONE, limit=2, repo="fx").files[0].path == "engine.go"
    located = go.service.locate(GO_TRACE_ALONE, limit=2, repo="fx").files
    assert [f.path for f in located] == ["tree.go", "engine.go"]
    assert located[0].functions[0].qualified_name == "router.node.getValue"


@pytest.mark.parametrize("name", ["node.getValue", "(*node).getValue", "router.(*node).getValue",
                                  "example.com/router.(*node).getValue"])
def test_go_method_names_as_go_prints_them_find_the_method(go: Daemon, name: str) -> None:
    """The index names a Go method ``router.node.getValue`` (package, receiver type,
    method); ``node.getValue`` and the receiver syntax ``(*node).getValue`` of a panic or
    a profile name it too (``symbols`` reads the tail of a qualified name at a dot)."""
    found = [(h.path, h.qualified_name, h.match) for h in go.service.find_symbols(name, repo="fx")]
    assert found == [("tree.go", "router.node.getValue", "exact")]


@pytest.mark.parametrize("query", ["router.(*Engine).ServeHTTP",
                                   "example.com/router.(*Engine).ServeHTTP"])
def test_a_go_method_name_as_a_query_pins_the_method(go: Daemon, query: str) -> None:
    hits = go.service.search(query, limit=3, repo="fx")
    assert (hits[0].qualified_name, hits[0].match) == ("router.Engine.ServeHTTP", "exact")
    # locate lists it first in its file, above its siblings' fused scores over 1
    (engine,) = [f for f in go.service.locate(query, limit=3, repo="fx").files if f.path == "engine.go"]
    assert engine.functions[0].qualified_name == "router.Engine.ServeHTTP"


JS = {
    "package.json": '{"name": "fetcher", "version": "1.0.0"}\n',
    "lib/helpers/buildURL.js": '''\
export default function buildURL(url, params) {
  const serialized = params.toString();
  return url + "?" + serialized;
}
''',
    # The entry point: the issue's words (request, get, params) all over it.
    "lib/core/Fetcher.js": '''\
import buildURL from '../helpers/buildURL.js';

export class Fetcher {
  request(config) {
    // request the url with its params: a get request's params are serialized
    return buildURL(config.url, config.params);
  }

  get(url, params) {
    // a get request: request the url with the params
    return this.request({url, params});
  }
}
''',
}

NODE_TRACE = """\
A get request with undefined params throws
A get request whose params are undefined throws instead of requesting the url without params.

TypeError: Cannot read properties of undefined (reading 'toString')
    at buildURL (/app/node_modules/fetcher/lib/helpers/buildURL.js:2:29)
    at Fetcher.request (/app/node_modules/fetcher/lib/core/Fetcher.js:6:12)
    at Fetcher.get [as fetch] (/app/node_modules/fetcher/lib/core/Fetcher.js:11:17)
    at Object.<anonymous> (/app/index.js:3:7)
    at node:internal/main/run_main_module:28:49
"""


@pytest.fixture(scope="module")
def js(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("js"), JS) as running:
        yield running


def test_a_node_traces_frames_name_the_files_under_node_modules(js: Daemon,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``/app/node_modules/fetcher/lib/helpers/buildURL.js`` names the indexed
    ``lib/helpers/buildURL.js`` (an absolute path is read from a V8 frame, not from the
    prose): the two innermost frames' files gain the path weight and their frame's,
    ``/app/index.js`` (not indexed) and the ``node:internal`` frame nothing."""
    assert shape.analyze(NODE_TRACE).shape is Shape.TRACE  # frames make most of it
    flat, framed = _scores(js, NODE_TRACE, monkeypatch)
    gained = {path: round(framed[path] - flat[path], 6) for path in framed}
    weights = anchors.TRACE_FRAME_WEIGHTS
    assert gained == {"lib/helpers/buildURL.js": round(anchors.PATH_WEIGHT + weights[0], 6),
                      "lib/core/Fetcher.js": round(anchors.PATH_WEIGHT + weights[1], 6),
                      "package.json": 0.0}
    located = js.service.locate(NODE_TRACE, limit=3, repo="fx").files
    assert [f.path for f in located[:2]] == ["lib/helpers/buildURL.js", "lib/core/Fetcher.js"]
    assert [f.qualified_name for f in located[1].functions[:2]] == ["Fetcher.request", "Fetcher.get"]


ALIASED = {
    "lib/response.js": '''\
var res = module.exports = {};

/**
 * Set the header field of the response: properties of the response it cannot read are
 * undefined (reading a property, indexOf a value, TypeError on undefined properties).
 */

res.set = function header(field, value) {
  this.setHeader(field, value);
  return this;
};

res.type = function contentType(type) {
  return this.set('Content-Type', type.indexOf('/') === -1 ? lookup(type) : type);
};
''',
}

ALIASED_TRACE = """\
TypeError: Cannot read properties of undefined (reading 'indexOf')
    at ServerResponse.contentType (/app/node_modules/web/lib/response.js:14:40)
    at Object.<anonymous> (/app/index.js:3:7)
"""


@pytest.fixture(scope="module")
def aliased(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("aliased"), ALIASED) as running:
        yield running


def test_a_function_is_named_by_the_property_it_is_assigned_to(aliased: Daemon) -> None:
    """``res.type = function contentType(...)`` is ``res.type``, what its callers write; a
    V8 frame prints its own name (``ServerResponse.contentType``), which no symbol has: the
    function holding the frame's line takes its file's first place."""
    names = [(s.qualified_name, s.start_line) for s in aliased.service.find_symbols("res.type", repo="fx")]
    assert names == [("res.type", 13)]
    assert [s.qualified_name for s in aliased.service.find_symbols("res.set", repo="fx")] == ["res.set"]
    assert aliased.service.find_symbols("res.contentType", repo="fx") == []
    located = aliased.service.locate(ALIASED_TRACE, limit=1, repo="fx").files
    assert (located[0].path, located[0].functions[0].qualified_name) == ("lib/response.js", "res.type")
