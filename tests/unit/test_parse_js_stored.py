"""JavaScript/TypeScript functions named after where they are stored
(``parse/queries/javascript/stored.scm``): anonymous default exports (named after the file),
object-literal members and property assignments, with their ranges, kinds and call sites."""

from __future__ import annotations

import pytest
from coderecalld.parse import symbols
from coderecalld.parse.imports import default_name
from coderecalld.records import ParsedFile


def table(parsed: ParsedFile) -> dict[str, tuple[str, int, int, bool, tuple[str, ...]]]:
    """``{qualified name: (kind, start_line, end_line, is_async, call names)}``."""
    assert not parsed.has_errors
    return {s.qualified_name: (str(s.kind), s.start_line, s.end_line, s.is_async,
                               tuple(c.name for c in s.call_sites)) for s in parsed.symbols}


def parse(source: str, path: str, language: str = "javascript") -> ParsedFile:
    return symbols(source.encode("utf-8"), language, path)


@pytest.mark.parametrize(("source", "expected"), [
    ("export default (config) => {\n  return merge(config);\n};\n",
     ("function", 1, 3, False, ("merge",))),
    ("export default function (x) {\n  return x;\n}\n", ("function", 1, 3, False, ())),
    ("export default async (x) => {\n  await go(x);\n}\n", ("function", 1, 3, True, ("go",))),
    ("export default function* () {\n  yield 1;\n}\n", ("function", 1, 3, False, ())),
    # axios lib/adapters/fetch.js: a feature-gated function
    ("const ok = true;\n\nexport default ok && (async (config) => {\n  return send(config);\n});\n",
     ("function", 3, 5, True, ("send",))),
    ("export default class {\n  m() {}\n}\n", ("class", 1, 3, False, ())),
    # axios lib/helpers/isURLSameOrigin.js: a function chosen when the module loads
    ("export default env.browser ? ((origin) => (url) => {\n  return check(origin, url);\n})(\n"
     "  new URL(env.origin)\n) : () => true;\n", ("function", 1, 5, False, ("check", "URL"))),
])
def test_javascript_anonymous_default_export_is_named_after_the_file(source: str, expected: tuple) -> None:
    parsed = parse(source, "lib/helpers/resolveConfig.js")
    assert table(parsed)["resolveConfig"] == expected
    # The import table maps the default export to it, which default imports reach.
    assert ("default", "#resolveConfig") in parsed.import_aliases


def test_javascript_anonymous_default_export_keeps_its_nested_functions_and_calls() -> None:
    source = (
        "import merge from './merge.js';\n"      # 1
        "\n"
        "export default (config) => {\n"         # 3
        "  const out = merge({}, config);\n"     # 4
        "  function headers(h) {\n"             # 5
        "    return normalize(h);\n"             # 6
        "  }\n"                                  # 7
        "  return headers(out);\n"               # 8
        "};\n"                                   # 9
        "\n"
        "setup();\n"                             # 11
    )
    parsed = parse(source, "lib/helpers/resolveConfig.js")
    assert table(parsed) == {
        "resolveConfig": ("function", 3, 9, False, ("merge", "headers")),
        "resolveConfig.headers": ("function", 5, 7, False, ("normalize",)),
    }
    assert [c.name for c in parsed.module_call_sites] == ["setup"]
    assert parsed.symbols[0].signature == "export default (config) =>"
    assert parsed.unbound == {"resolveConfig"}  # no code of the file can call it by that name


def test_javascript_unbound_names_are_those_no_binding_gives() -> None:
    source = (
        "export default ok && (async (config) => fetch(config));\n"
        "exports.x = () => 1;\n"
        "call({ onDone: () => 1, go() {} });\n"
        "const api = { get: () => 1 };\n"
        "function y() {}\n"
        "module.exports.y = () => y();\n"
    )
    parsed = parse(source, "lib/adapters/fetch.js")
    assert [s.qualified_name for s in parsed.symbols] == ["fetch", "x", "onDone", "go", "api.get", "y", "y"]
    # `y` is also a function declaration; `api.get` is a property (`get()` calls no `api.get`)
    assert parsed.unbound == {"fetch", "x", "onDone", "go", "api.get"}


@pytest.mark.parametrize(("path", "name"), [
    ("lib/helpers/resolveConfig.js", "resolveConfig"),
    ("src/ui/index.tsx", "ui"),
    ("is-absolute-url.mjs", "isAbsoluteUrl"),
    ("lib/a.test.js", "a"),
    ("", "default"),
])
def test_javascript_default_name_is_what_import_sites_call_the_file(path: str, name: str) -> None:
    assert default_name(path) == name
    assert [s.name for s in parse("export default () => 1;\n", path).symbols] == [name]


def test_javascript_default_name_without_a_path_adds_no_import_alias() -> None:
    parsed = parse("export default () => 1;\n", "")
    assert [s.qualified_name for s in parsed.symbols] == ["default"]
    assert parsed.import_aliases == ()  # `default` -> `default` would be a loop


def test_javascript_object_literal_members_are_named_after_the_binding() -> None:
    source = (
        "const adapters = {\n"                        # 1
        "  getAdapter: (adapters) => {\n"             # 2
        "    return pick(adapters);\n"                # 3
        "  },\n"                                      # 4
        "  foo() { return one(); },\n"                # 5
        "  bar: function () {\n"                      # 6
        "    return two();\n"                         # 7
        "  },\n"                                      # 8
        "  baz: async function baz() {},\n"           # 9
        "  'kebab-case': async () => {},\n"           # 10
        "  adapters: knownAdapters,\n"                # 11
        "};\n"                                        # 12
        "\n"
        "register({ onDone: () => done() });\n"       # 14
    )
    assert table(parse(source, "lib/adapters/adapters.js")) == {
        "adapters.getAdapter": ("method", 2, 4, False, ("pick",)),
        "adapters.foo": ("method", 5, 5, False, ("one",)),
        "adapters.bar": ("method", 6, 8, False, ("two",)),
        "adapters.baz": ("method", 9, 9, True, ()),
        "adapters.kebab-case": ("method", 10, 10, True, ()),
        "onDone": ("function", 14, 14, False, ("done",)),  # an object of no name
    }


def test_javascript_default_exported_object_is_named_after_the_file() -> None:
    source = (
        "export default {\n"                      # 1
        "  getAdapter: (names) => {\n"            # 2
        "    return names.map(find);\n"           # 3
        "  },\n"                                  # 4
        "  adapters: known\n"                     # 5
        "}\n"
    )
    parsed = parse(source, "lib/adapters/adapters.js")
    assert table(parsed) == {"adapters.getAdapter": ("method", 2, 4, False, ("names.map",))}
    assert parsed.symbols[0].parent == "adapters"
    assert ("default", "#adapters") in parsed.import_aliases


def test_javascript_property_assignments_of_functions() -> None:
    source = (
        "function AxiosError(message) {\n"                      # 1
        "  Error.call(this);\n"                                 # 2
        "}\n"                                                   # 3
        "AxiosError.from = (error, code) => {\n"                # 4
        "  return new AxiosError(error.message);\n"             # 5
        "};\n"                                                  # 6
        "Foo.prototype.bar = async function () {\n"             # 7
        "  this.x();\n"                                         # 8
        "};\n"                                                  # 9
        "validators.transitional = function transitional(v) {\n"  # 10
        "  return check(v);\n"                                  # 11
        "};\n"                                                  # 12
        "module.exports.x = function () { return 1; };\n"       # 13
        "exports.y = () => {\n"                                 # 14
        "  return 2;\n"                                         # 15
        "};\n"                                                  # 16
        "module.exports = function () {};\n"                    # 17
        "a.b.c = () => {};\n"                                   # 18
        "AxiosError.code = 'E';\n"                              # 19
    )
    assert table(parse(source, "lib/core/AxiosError.js")) == {
        "AxiosError": ("function", 1, 3, False, ("Error.call",)),
        "AxiosError.from": ("method", 4, 6, False, ("AxiosError",)),
        "Foo.bar": ("method", 7, 9, True, ("this.x",)),
        "validators.transitional": ("method", 10, 12, False, ("check",)),  # one symbol, not two
        "x": ("function", 13, 13, False, ()),
        "y": ("function", 14, 16, False, ()),
    }


@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_typescript_stored_functions(language: str) -> None:
    source = (
        "export const api: Api = {\n"                                 # 1
        "  get: async (key: string): Promise<string> => {\n"           # 2
        "    return fetchKey(key);\n"                                  # 3
        "  },\n"                                                       # 4
        "};\n"                                                         # 5
        "Store.create = (name: string): Store => new Store(name);\n"   # 6
        "\n"
        "export default function (config: Config): Config {\n"       # 8
        "  return merge(config);\n"                                    # 9
        "}\n"                                                          # 10
    )
    assert table(parse(source, "src/store/index.ts", language)) == {
        "api.get": ("method", 2, 4, True, ("fetchKey",)),
        "Store.create": ("method", 6, 6, False, ("Store",)),
        "store": ("function", 8, 10, False, ("merge",)),
    }


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_a_top_level_const_a_call_computes_is_a_constant(language: str) -> None:
    """ky's public ``ky.stop`` (``export const stop = Symbol('stop')``) and its
    ``supportsRequestStreams`` (an IIFE's value) were no symbols; an import, a factory given
    a function and a callback's result stay what they were."""
    source = (
        "const fs = require('fs');\n"
        "export const stop = Symbol('stop');\n"
        "export const supportsRequestStreams = (() => {\n"
        "  return true;\n"
        "})();\n"
        "const timestampThreshold = Date.UTC(2000, 0, 1);\n"
        "export const handler = middy(async (event) => { return go(event); });\n"
        "const items = list.map(x => x * 2);\n"
        "const chained = make().then(1);\n"
    )
    assert {q: row[:3] for q, row in table(parse(source, "source/core/constants.ts", language)).items()} == {
        "stop": ("constant", 2, 2), "supportsRequestStreams": ("constant", 3, 5),
        "timestampThreshold": ("constant", 6, 6), "handler": ("function", 7, 7)}


def test_members_a_constructor_assigns_are_the_classs() -> None:
    """hono's ``Hono``: ``this.use = (arg1, ...handlers) => {..}`` and ``this.on = ..`` in its
    constructor were no symbols (``callers Hono.use`` listed every ``use(..)``); they are
    the class's methods, with their calls, and what they define follows them. A JS
    constructor function's ``this.on = function`` is its own function's; a member the
    class defines itself keeps its place."""
    source = """class Hono {
  constructor(options) {
    this.use = (arg1, ...handlers) => {
      handlers.forEach((handler) => {
        this.#addRoute('ALL', arg1, handler)
      })
      return this
    }
    this.route = () => other()
  }

  route(path) {
    return path
  }

  #addRoute(method, path, handler) {}
}

function Emitter() {
  this.on = function (event) {
    listen(event)
  }
}
"""
    got = table(parse(source, "src/hono-base.ts", "typescript"))
    assert got["Hono.use"] == ("method", 3, 8, False, ("handlers.forEach", "this.#addRoute"))
    assert "Hono.constructor.use" not in got and "Hono.constructor.route" in got  # the class's own route stays
    assert got["Emitter.on"] == ("function", 20, 22, False, ("listen",))


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_generator_function_expressions_bound_to_names_are_functions(language: str) -> None:
    """axios's trackStream.js and readBlob.js: ``const f = function* ..`` and ``async
    function*`` bound by ``const``, exported or not, were no symbols (no search, symbols or
    callers of them)."""
    source = ("export const streamChunk = function* (chunk, size) {\n  yield chunk.slice(0, size);\n}\n\n"
              "const readStream = async function* (stream) {\n  yield* stream;\n}\n\n"
              "export const readBytes = async function* (iterable, size) {\n"
              "  for await (const chunk of readStream(iterable)) {\n    yield* streamChunk(chunk, size);\n  }\n}\n\n"
              "const store = {\n  entries: function* () {\n    yield 1;\n  },\n};\n")
    found = table(parse(source, "lib/helpers/trackStream.js", language))
    assert found == {
        "streamChunk": ("function", 1, 3, False, ("chunk.slice",)),
        "readStream": ("function", 5, 7, True, ()),
        "readBytes": ("function", 9, 13, True, ("readStream", "streamChunk")),
        "store.entries": ("method", 16, 18, False, ()),  # an object's member, as `function ()`'s
    }


PROPERTIES = """function defineGetter(obj, name, getter) {
  Object.defineProperty(obj, name, { get: getter });
}

/** Whether the request is fresh. */
Object.defineProperty(req, 'fresh', {
  get() {
    return fresh(this.headers);
  },
  set(value) {
    store(value);
  },
  enumerable: true,
});

Object.defineProperty(Route.prototype, 'size', {
  value: function () {
    return count(this);
  },
});

Object.defineProperties(res, {
  body: {
    get: function getBody() {
      return read(this);
    },
  },
  'kind': { get: () => kindOf() },
});

req.__defineGetter__('stale', function(){
  return !this.fresh;
});

req.__defineSetter__('stale', function stale(v){
  mark(v);
});

defineGetter(req, 'protocol', function protocol(){
  return scheme(this);
});

defineGetter(req, 'xhr', function(){
  return this.get('X-Requested-With') === 'XMLHttpRequest';
});
"""


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_properties_defined_by_name_are_methods_of_their_object(language: str) -> None:
    """express's request getters (``defineGetter(req, 'fresh', function(){..})``, 3.x's
    ``req.__defineGetter__('fresh', ..)``) had no symbol (``symbols fresh`` found none) or
    their function's own name (``protocol``): each form's function is ``req.<property>``, a
    method, over its own lines, with its calls; a named function expression is known by
    the property; the property reads (``this.fresh``) are no calls."""
    parsed = parse(PROPERTIES, "lib/request.js", language)
    rows = [(s.qualified_name, str(s.kind), s.start_line, s.end_line, tuple(c.name for c in s.call_sites))
            for s in parsed.symbols]
    assert rows == [
        ("defineGetter", "function", 1, 3, ("Object.defineProperty",)),
        ("req.fresh", "method", 7, 9, ("fresh",)),  # get()
        ("req.fresh", "method", 10, 12, ("store",)),  # set(value)
        ("Route.size", "method", 17, 19, ("count",)),  # value: function, on Route.prototype
        ("res.body", "method", 24, 26, ("read",)),  # Object.defineProperties
        ("res.kind", "method", 28, 28, ("kindOf",)),
        ("req.stale", "method", 31, 33, ()),  # __defineGetter__: `this.fresh` is read, not called
        ("req.stale", "method", 35, 37, ("mark",)),  # __defineSetter__
        ("req.protocol", "method", 39, 41, ("scheme",)),  # the file's helper
        ("req.xhr", "method", 43, 45, ("this.get",)),
    ]
    assert [s.name for s in parsed.symbols][1:] == [
        "fresh", "fresh", "size", "body", "kind", "stale", "stale", "protocol", "xhr"]
    assert all(s.parent == s.qualified_name.rpartition(".")[0] for s in parsed.symbols[1:])
    by_line = {s.start_line: s for s in parsed.symbols}
    # a call statement is the range of an anonymous function: its doc block is the property's
    assert by_line[43].signature == "defineGetter(req, 'xhr', function()"
    assert by_line[31].signature == "req.__defineGetter__('stale', function()"
    assert by_line[39].signature == "function protocol()"
    assert "fresh" not in {s.qualified_name for s in parsed.symbols}  # no name binds in the file
    assert {"req.fresh", "req.xhr"} <= parsed.unbound


def test_properties_defined_by_name_leave_other_calls_alone() -> None:
    """No name is guessed: a helper the file does not define (a test's ``stub``), a
    property that is no identifier, a function passed by name, and ``exports`` (compiled
    TypeScript's re-export getters, which would shadow the definitions) name nothing; a
    named function there keeps its own name, as before."""
    source = (
        "stub(req, 'ip', function(){ return fake(); });\n"                        # 1
        "stub(req, 'ips', function ips(){ return fake(); });\n"                   # 2
        "function defineGetter(o, n, g) {}\n"                                     # 3
        "defineGetter(req, 'not-a-name', function(){ return 1; });\n"             # 4
        "defineGetter(req, 'host', host);\n"                                      # 5
        "Object.defineProperty(req, 'by', { get: byName });\n"                    # 6
        "Object.defineProperty(exports, 'x', { enumerable: true, get: function () { return m.x; } });\n"  # 7
        "Object.defineProperty(req, 'flag', { enumerable: true, configurable: true });\n"  # 8
    )
    parsed = parse(source, "lib/request.js")
    assert [(s.qualified_name, str(s.kind), s.start_line, s.end_line) for s in parsed.symbols] == [
        ("ips", "function", 2, 2), ("defineGetter", "function", 3, 3), ("get", "function", 7, 7)]
    assert [c.name for c in parsed.module_call_sites].count("fake") == 1  # line 1's, as before


def test_a_local_helper_defines_properties_only_when_its_name_says_so() -> None:
    """An event binder the file defines (``on(window, 'resize', function () {..})``) or an
    ``assign(app, 'render', ..)`` defines no member ``window.resize`` (a review); a
    ``defineGetter``, ``defineProperty`` or ``setter`` of the file's own does."""
    source = (
        "function on(el, type, fn) { el.addEventListener(type, fn); }\n"          # 1
        "on(window, 'resize', function () { layout(); });\n"                      # 2
        "function assign(o, k, v) { o[k] = v; }\n"                                # 3
        "assign(app, 'render', function render() { draw(); });\n"                 # 4
        "function defineProp(o, k, g) {}\n"                                       # 5
        "defineProp(req, 'ip', function () { return addr(); });\n"                # 6
    )
    parsed = parse(source, "lib/browser.js")
    assert [(s.qualified_name, str(s.kind), s.start_line) for s in parsed.symbols] == [
        ("on", "function", 1), ("assign", "function", 3), ("render", "function", 4),
        ("defineProp", "function", 5), ("req.ip", "method", 6)]
