"""Chunk -> store point: deterministic id, payload (DESIGN.md "Chunk payload") and sparse vector."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterable

from coderecalld.embed import sparse
from coderecalld.embed.trigrams import name_trigrams
from coderecalld.files import classify
from coderecalld.index.chunk import LEXICAL_HEAD_CHARS, MODULE_TAIL_CHARS, prose_share
from coderecalld.records import CallSite, Chunk, PointRecord

#: Namespace of point ids (uuid5 of the DNS namespace and the project name; any fixed UUID works,
#: it only has to never change).
POINT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "coderecall.points.v1")
#: Version of the payload ``to_point`` writes. Bump it when a field is added or changes
#: meaning: a repo indexed under another version is re-indexed once on its next sync
#: (``Pipeline.index_repo``; dense vectors come from the cache, no model run). 2: ``name_trigrams``.
#: 3: ``call_targets`` of methods called on module-level instances (``resolve._instances``).
#: 4: ``export_edges`` (what ``callgraph.aliases`` reads from the keyword index, not payloads).
#: 5: ``call_targets`` from receiver types (``index/receivers``), ``base_targets`` of classes,
#: ``instance_edges``/``instance_types`` of modules, the same for Java, JS/TS and Go
#: (``index/receivers_java``, ``_js``, ``_go``) with ``base_targets`` of their classes and
#: structs, Kotlin call targets (``index/resolve_kotlin``); ``role`` (``files.classify.role``:
#: source, test, docs, ...); a Python module chunk is named by its import path
#: (``requests.adapters``, not ``src.requests.adapters``); blank files and module chunks with
#: nothing outside their symbols have no chunk, imports-only ones no sparse terms.
#: 6: a class's sparse vector reads its outline (``Chunk.lexical_text``); a Go file's
#: ``doc/`` is a package (``classify.PACKAGE_DIR_SUFFIXES``). 7: a ``/** */`` block a blank
#: line above a definition is its docstring (``parse.text.DOC_BLOCK_GAP``); a ``tests.py``
#: importing no test framework is source. 8: a code file named like a docs page
#: (``history.py``, ``license.py``) is no docs. 9: a JS function expression assigned to a
#: property of another name is named by the property (``res.type = function contentType``).
#: 10: a decorated member keeps its name in its class's outline; a licence or ``@typedef``
#: block is nobody's docstring. 11: each property of a JS assignment chain names the
#: function (``req.get = req.header = function header``). 12: every indexed file has a
#: point in the file-level index (``Store.upsert_files``); the re-index fills it for a
#: store opened before it existed. 13: dependency manifests (``requirements-dev.txt``,
#: ``Pipfile``, ``go.sum``) are config, not docs or source (``classify.DEPENDENCY_NAMES``).
#: 14: a directory named like tests (``typing_tests/``, ``integration_tests/``) holds tests
#: (``classify.TEST_DIR_PATTERNS``).
#: 15: a Rust item under ``#[cfg(test)]`` (or marked ``#[test]``) in a source file is a
#: test (``chunk.test_symbols``); a call site's line is its called name's, not the line
#: its receiver starts on (``parse.text.callee_line``); a JMH benchmark (``*Benchmark.java``)
#: is a test (``classify.ROLE_NAMES``); a Rust call is resolved within its file
#: (``resolve_rust``: ``self.m()``, ``Self::m()``, ``T::m()``, a bare ``f()``); a JS/TS
#: module's re-exports (``export {a} from "m"``) are in its import table; JS/TS test blocks
#: (``test("title", ...)``, ``it``, ``describe``) are symbols named by their titles.
#: 16: constants and variables of a module, class or namespace are symbols for lookups
#: (``records.VALUE_KINDS``; an empty ``embed_text``, so nothing else is re-embedded).
#: 17: parse repairs that name and range more definitions: a Kotlin primary constructor on
#: its own line, Swift ``#if`` among a type's members, a C++ ``.h`` read as C++ and the
#: macros the C/C++ grammars cannot read (``parse._parse``); quoted identifiers without
#: their backticks; Swift's and C#'s properties with code are methods; Go's grouped
#: constants carry their keyword; Rust's ``static mut`` is a variable.
#: 18: Kotlin's properties with a getter or setter body are methods (their range running on
#: to accessors written below them) and ``const val`` constants; C#, C++, C, Swift, Scala,
#: Ruby and PHP calls resolve within their file (``index/resolve_own``), a C# definition's
#: ``fq_name`` drops its parameter lists; Scala's ``given``s, ``val``s of code and of objects,
#: enum cases and extension receivers, its ``private enum`` repair and ``end`` markers; no
#: range ends in a comment at or left of its definition's column.
#: 19: a constructor's chaining call is named after the class it constructs (``super(..)``,
#: C#'s ``: base(..)``, ``this(..)``, Ruby's bare ``super``, PHP's ``new self(..)``; C#'s and
#: C++'s header initializers and Kotlin's class-head ``: Base(x)`` are their definition's
#: calls), C++'s ``T x(args)`` and base initializers are calls, PHP's namespaced calls
#: (``new Psr7\Request(..)``) are calls at all; a decorator without arguments is a call
#: (Python, JS/TS); Python's ``cls(..)`` and ``self.__class__(..)`` construct their class.
#: 20: a long file's module chunk reads its top-level code past the lexical head
#: (``chunk.MODULE_TAIL_CHARS``); a Python definition's chunk reads the docstring the
#: module assigns it (``f.__doc__ = ...``: ``chunk.assigned_docs``).
#: 21: a capitalised name a Python module binds to another name (``Str = String``) is a
#: variable symbol (an alias, found by ``symbols``); a Python method called on a
#: construction (``MySchema().load(..)``) and a class a function defines resolve to the
#: constructed class (``resolve._constructed_receiver``); ``x = None`` binds no type, nor
#: does a keyword argument on its own line (``    env=env,``); ``with cm() as x`` of a
#: ``-> Iterator[X]`` context manager binds an ``X``.
#: 22: Go calls typed from expressions (``receivers_go.expression_type``): a named result, a
#: chain's tail (``c.Root().Find()``), a type assertion, a loop variable, a range over a
#: slice of a known element type; a call of a closure variable is no package function.
#: Python: the binding nearest above a call in its block types its receiver
#: (``Receivers.name_type`` at a line); a parameter shadows a module-level name; a
#: chain's tail is typed by the return annotation before it (``self.root().find()``). A long
#: symbol's last part of fewer than ``chunk_split.TAIL_MIN_LINES`` lines is no part. A
#: Python module's constants set in a ``try``/``if`` block are symbols, and a capitalised
#: name bound to a subscripted type an alias; ``docs_src/`` is role example.
#: 23: Python functions and methods named as values, not called (``Thread(target=self.run)``,
#: ``self.dispatch_func = self.dispatch``): ``references`` and ``reference_targets``
#: (``CallSite.reference``, ``resolve._python_reference``), never in ``call_sites``. A
#: ``.pyi`` stub's module chunk has no ``exports`` (its imports describe types); a module's
#: top-level ``s = attributes = attrs`` binds aliases in its ``exports`` (``resolve.assigned_aliases``).
#: A top-level JS/TS ``const`` of a call's result is a constant symbol. ``declares`` on the
#: chunks of a TypeScript file of interfaces and types only (``chunk.declares_only``).
#: Python literals, ``**kwargs`` and ``*args`` type their names (``builtins.dict.get``).
#: 24: Python's ``raise C`` and ``raise C from e`` construct ``C`` (a call of the class); the
#: classes of an ``except (A, B):`` clause are no references. A Python function's own
#: imports bind in it alone (``ParsedFile.local_imports``, ``resolve.local_import_scopes``).
#: A role directory's name behind underscores has its role (Go's ``_examples/``: example);
#: Python benchmark scripts by name (``benchmark.py``, ``bench_*.py``) are tests.
#: Go: ``returns`` (a function's or method's concrete result type), a call on another
#: file's function's result targets ``F().m`` (``records.RETURNED``), a composite
#: literal of another file's lowercase type types its name, a function literal's
#: parameters type names in its body only. A JS/TS test block named by its title is no
#: call target (``ParsedFile.titled``). Java: a class's type parameters' bounds are no base,
#: an outer class's method called bare from a nested class wins over a guess at another
#: file's base, ``this(..)``/``super(..)`` resolve to the class they construct, and a
#: package's classes are found in every source root (``src/test/java`` beside ``src/main/java``).
#: Go's function and method values are ``references`` (``http.HandlerFunc(mx.routeHTTP)``).
#: JS: ``this.m()`` in a method stored on an object or a prototype (``app.enable = function
#: () { this.set(..) }``) is the object's ``m`` (also through ``var self = this``); ``var f =
#: require("./m").g`` imports ``g``.
#: A definition's doc comment above it (Javadoc, GoDoc, JSDoc) is no module code: a module
#: chunk of imports and its class's Javadoc is not searched. A Java enum constant's body
#: has its enum as base; a chain's tail on a result this file's method declares (``Parser.
#: htmlParser().unescape(..)``) or on a construction resolves; a static import's wildcard
#: imports no types. Python: calling an instance (``ts(..)`` of a ``ts = C()``,
#: ``C(..)(..)``, ``self.c(..)`` of a ``self.c = C()``) calls ``C.__call__``; a method's
#: local ``cls = ..`` is no class of it. JS CommonJS: ``module.exports = f`` / ``=
#: require("./m")`` is the default export, a call of a module required whole is a call of
#: its default (``express()``), the repo root's ``index.js`` is ``require('../')``'s module.
#: Python: a test's parameter named as a same-file pytest fixture of a known class is that
#: class's value (``Receivers.fixtures``).
#: 25: Python: a test's or fixture's parameter no fixture of its file produces is
#: ``conftest.<name>()`` (``receivers.CONFTEST``), and a ``conftest.py``'s fixture stores the
#: class it produces (``returns``): the query side types the conftest fixture's value.
#: Python functions and methods store their declared result (``returns``), and a value
#: another file's function returned is named by it (``rich.get_console().print``). Go: a
#: chain's steps name each other file's result (``pkg.Route.Host().Subrouter().Path``), a
#: call through a field of unknown type names the field (``via``), a struct's typed fields
#: are ``instance_edges``. Rust: a function named as a value is a ``reference``
#: (``index/resolve_rust``). Ruby: a bare name no local binds is a call, a constant's
#: method call keeps its receiver, ``.ru`` files are Ruby. JS/TS: ``export { X as Y }`` is
#: another name of ``X``, a value of a runtime class (``new Set()``) is typed, a function's
#: local shadows the module's name, a constructor's ``this.m = (..) =>`` is the class's
#: method, a declaration whose syntax error swallows the file is blanked.
#: 26: Python: a function's local name bound once to a method of a known class and called
#: (``append = text.append``, ``fca = Attribute.from_counting_attr``) is that method there.
#: A method's first parameter is its instance whatever its name (``def info(__self, ..)``).
#: ``self.x(..)`` of an attribute bound to one method alone (``self.x = self._m``) calls it.
#: 27: Python receivers the source declares: a class-body annotation or ``self.a: T`` types
#: the attribute whatever else is assigned; a loop over a ``Sequence[T]``/``list[T]``/..
#: binds a ``T``; ``Type[X]`` is the class ``X`` (its method called, or constructed);
#: ``self.__class__(..)`` and a classmethod's ``cls(..)`` build the class (``cls`` only as
#: the method's first parameter). Call-site targets change; no field is added.
#: 28: Python: ``self.a.m(..)`` of an attribute neither a class nor its bases of its file
#: bind, when a base is another file's, targets that attribute (``Session.config.m``: the
#: base's file declares its type); ``raises`` names the class a raised local was built as
#: (``exc = UnknownType(..)`` then ``raise exc``). Java: a call of a count none of its
#: class's overloads of the name takes resolves to the ``extends`` base's.
#: 29: Java: a class's typed fields are ``instance_edges`` (``TreeBuilder.tokeniser
#: Tokeniser``); a bare name neither the method nor its classes bind, in a class extending
#: another file's, and ``p.f.m()`` on a typed ``p``, target the field (``via`` attribute).
#: 30: Python, JS, Go: a call named by its last name alone that its line writes only as a
#: method of an unnamed value (``xs[0].concat(..)``) is no call of the module's function of
#: that name. Python: a module-level ``name = function(..)`` types ``name.m(..)`` in the
#: file as a method of the function's result (``logging.getLogger().warning``); a type
#: variable with a bound is another name of its bound (``exports``, call targets).
#: 31: Cython (``.pyx``, ``.pxd``, ``.pxi``, Tempita ``.tp``), Fortran and CUDA sources,
#: skipped as unsupported before, are text chunks (``classify.SOURCE_TEXT_EXTENSIONS``).
#: Python: ``super().m()`` in a class whose bases are all builtins (``class Row(list)``)
#: targets ``builtins.list.m`` (call targets).
#: 32: Python: a bare call of a module function's name that a loop variable binds (a
#: ``for`` of the calling function, a comprehension on its line) is unresolved (call
#: targets; 31 was also read by code of this round without it).
#: 33: JavaScript/TypeScript generator function expressions bound to names (``const f =
#: function* ..``, ``async function*``) and a default export chosen by a ternary of
#: functions are symbols (axios's ``trackStream.js``, ``isURLSameOrigin.js``); a tool
#: directive comment (``// eslint-disable-next-line``, ``//nolint``) is no docstring; a
#: package's ``test/`` directory holding tests makes its other files role test
#: (``classify.test_suites``: tornado's ``tornado/test/util.py``); a ``raise`` in a
#: docstring's example or a comment is none of a chunk's ``raises``; Python's ``x =
#: C(..).m(..)`` is typed by ``m``'s declared result, ``cast(T, x)`` as ``T``; a class a
#: function defines may have a base the same function defines.
#: 34: Python: the builtin ``open(..)``'s result (entered by ``with`` or assigned) is a file
#: object (``receivers.OPENED_FILE``), and a module function's result no longer types a
#: call of a name the calling function binds (a parameter ``open``) (call targets). A
#: keyword's value spelled inside the name it is given to (Django's
#: ``password1_field_name="password1"``) is no secret (``redact._spells_its_key``). A
#: class a function defines reads a base name that function defines before a top-level
#: class of that name (``self.m()`` and typed receivers' targets).
#: 35: Python: ``a or C()`` and ``a if cond else C()`` are a ``C`` (``receivers._either_type``);
#: after ``if not isinstance(x, C):`` whose block leaves or binds ``x`` to a ``C``, ``x``
#: is a ``C`` (``receivers._guarded``); a class in a class body reads that body's classes
#: as bases first (``bases``, as ``self.m()`` targets did). Go: an element of a slice of a
#: known type (``n.children[i].m()``, ``c := n.children[0]``) is of its element type (call
#: targets, bases). An upper-case constant's name of words and numbers
#: (``HTTP_407_PROXY_AUTHENTICATION_REQUIRED``) is no high-entropy secret (``redact``).
#: 36: Python: below ``assert isinstance(x, C)``, in its block, ``x`` is a ``C``.
#: 37: Python: a function's own name (a parameter, a local, a loop's or a comprehension's
#: variable) is no module-level instance of its spelling (``b = Box()``).
#: 38: Python: an item of a declared container (``xs[0].m()`` of ``xs: list[C]``, a
#: ``dict[K, C]``'s value, ``tuple[A, C]``'s ``[1]``) is of its declared type; each name of
#: a tuple assignment of as many values is of its value's type.
#: 39: JS/TS: a function a chained assignment names twice is exported under both names
#: (``resolve.js_chained_aliases``).
#: 40: a Python file's module name drops a hidden directory's leading dots
#: (``.github/x.py`` is ``_github.x``).
#: 41: roles: a bundled copy of another distribution is vendored
#: (``classify.vendored_packages``: requests' ``packages/urllib3``); a file under a forge's
#: or CI service's directory (``.github/``) is config.
#: 42: Go: a call on a composite literal (``T{..}.M()``, ``(&pkg.T{..}).M()``, over lines
#: too) or on a package-level variable of the file (``var X = T{..}``) is its type's; one on
#: a name no local binds and the file does not type is ``<module>.X.M``, and a file's
#: package-level variables of a known type are its module chunk's ``instance_edges``
#: (``receivers_go.value_types``), for the package's other files' calls.
#: 43: JS/TS: a function a property is defined with by name (``Object.defineProperty(req,
#: 'fresh', {get() {..}})``, ``Object.defineProperties``, ``req.__defineGetter__('fresh', ..)``,
#: a helper of the file's ``defineGetter(req, 'fresh', function(){..})``) is the method
#: ``req.fresh`` (was no symbol, ``get``, or the function's own name).
#: 44: 41-43 together: each was built on a branch of its own, and an index one of them
#: built lacks the others'.
#: 45: roles: a versioned package under a Python package's ``packages/`` that imports its
#: host package beyond itself (``mytool/packages/core`` importing ``mytool.util``) is the
#: project's own source, no bundled copy (``classify.vendored_packages``). Python: a
#: class body's method bound by assignment (``get = _cached_get``) is a variable symbol
#: ``Sub.get`` (``queries/python/tags.scm``), so the class defines the name itself.
#: 47: Java: a call on a local or field only ever assigned a
#: construction of its declared type (no anonymous body), or on ``new C(..)`` itself, is
#: ``exact`` (``receivers_java.exact``): ``callers`` lists it as no override's.
#: Rust: a method call on a value of a type the file states (a parameter's, a ``let``'s of
#: an associated function's result, one step's declared result, ``self`` of a trait impl)
#: is the file's method of that type, else carries the type (``receiver_type``).
#: Java: a call on an anonymous class's instance (``new T() {..}.m()``) is ``T``'s ``m``
#: (or the anonymous class's own).
#: 48: 45 and 47 together (each built on a branch of its own).
#: 49: Rust: a name bound again in its function (a shadowing ``let``, a pattern, a closure's
#: or a ``for``'s) is typed by no parameter, and a type another crate's ``use`` or path
#: names (``use tokio::runtime::Builder``) is no type of the crate (``Cargo.toml``'s name).
#: Python: a call on a class whose body binds the name by assignment (``get = _cached_get``)
#: is that binding's (``Sub.get``), not its same-file base's method (``Receivers._find_member``).
#: 50: Java: ``returns`` (a method's declared result class, overloads agreeing), and a call
#: on another file's method's result (``C.m(..).n()``, ``x.m(..).n()``, ``var v = x.m(..)``)
#: targets ``C.m().n`` (``records.RETURNED``) for the query side to type.
#: 51: Go: a generic function instantiated with a plain type name (``getTyped[string](c,
#: key)``, ``conv.Cast[int](v)``: an index expression or a generic type's conversion to the
#: parser) is a call of the function, and an indexed value called (``c.handlers[i](c)``)
#: none (``records.CallSite.indexed``). A call site's argument count as the parser sees it,
#: when known (``"args"``, ``CallSite.arguments``): ``callers`` leaves out a name-only call
#: of a count no definition of the name takes (``query/arity``).
#: 52: TypeScript/JavaScript: ``returns`` (a function's or method's declared result class, a
#: ``this`` result its own class), a class's typed fields and getters are ``instance_edges``
#: (``Context.req`` of ``get req(): HonoRequest``), a call on another call's result
#: (``new C().m()``, ``x.m(..).n()``: ``CallSite.chain``) and a name bound to one are typed
#: by declared results (another file's: ``C.m().n``, ``records.RETURNED``), a call on
#: a typed name's attribute (``c.req.query()``) targets the attribute, and ``let a: A, b:
#: B`` types each name. Go: ``results`` (a function's result types by position, two or
#: more), a name after the first of ``a, b := F(..)`` is typed by its position's result
#: (another file's: ``F#1()``, ``records.POSITION``), and a call on a field of another
#: file's result (``c.Writer.M()``) targets the field (``F().Writer.M``, via attribute).
#: Go: a value declared with a named type (an interface, a named slice; the package's or
#: another module's, not the standard library's) is of that type: a parameter ``b
#: Binding``, a package variable ``Form Binding = formBinding{}`` (its ``instance_edges``),
#: a conversion ``ResponseWriter(w)``; an interface's embedded ones are its ``base_targets``.
#: 53: Rust: a path call of a type or trait the file does not define (``Bytes::from_static(..)``,
#: ``Buf::chain(a, b)``, ``crate::BytesMut::with_capacity(..)``) carries it as its
#: ``receiver_type``; ``returns`` (a function's or method's declared result, ``Self`` its
#: impl's type), and a value of another file's ``T::f(..)`` is typed ``T::f()`` for the
#: query side to read (a ``new_*``/``with_*``/``from_*`` constructor is a ``T``); a name
#: is typed by its nearest ``let`` in scope, a bare function's result (``make().m()``) by
#: its declared result. A value of a type parameter bounded by a trait (``fn f<B: Buf>``,
#: a ``where``), a trait object or ``impl Tr`` (``&mut dyn Buf``, ``Box<dyn BufMut>``), a
#: cast (``x as &mut dyn Buf``) is of the trait; ``Box<T>`` is a ``T``; a field of ``self``
#: (``self.inner.m()``) is of its struct's declared type, a type parameter's bound by the
#: ``impl`` header.
#: 54: roles: a JavaScript build's or test runner's configuration at the top (``gulpfile.js``,
#: ``*.config.js``, ``karma.conf.cjs``), Gradle's Kotlin scripts, ``Package.swift`` and
#: ``Podfile`` are config; a top-level ``sandbox/`` or ``playground/`` and directories named as examples
#: (``watchOS Example/``, ``my-examples/``) example.
#: 55: Cython (``.pyx``, ``.pxd``, ``.pxi``) is parsed as Python from a masked copy
#: (``parse.cython``): its functions, methods and extension types are symbols, no longer
#: line windows; a ``.pyx`` is a module, a ``.pxd`` a declaration file.
#: 56: roles: a top-level ``ci/`` directory's files (``scripts/ci/``, ``tools/ci/``, CI
#: services' dot-directories) and a Cargo build script (``build.rs`` outside ``src/`` and
#: ``lib/``, not a ``*-sys`` crate's) are config (``classify.TOP_CONFIG_DIRS``,
#: ``BUILD_SCRIPT_NAMES``); a build's copy of the source for Deno (``deno_dist/``, a
#: top-level ``deno/lib/``) is generated (``TOP_GENERATED_DIRS``).
#: 57: each chunk's share of string literals (payload ``prose``, ``chunk.prose_share``),
#: read by the query side to rank prose in the code (a help text, a documented entry
#: point) under the code doing the work for an issue.
PAYLOAD_VERSION = 57
#: Characters of a chunk's text read by the sparse tokenizer (``chunk.LEXICAL_HEAD_CHARS``),
#: and of its ``lexical_text`` (a long module's head and top-level tail, a class's outline).
SPARSE_MAX_CHARS = LEXICAL_HEAD_CHARS
LEXICAL_MAX_CHARS = LEXICAL_HEAD_CHARS + MODULE_TAIL_CHARS
#: A search hit's preview: the chunk's first ``SNIPPET_LINES`` non-blank lines, at most
#: ``SNIPPET_MAX_CHARS`` characters (enough to recognise a definition without reading it).
SNIPPET_LINES = 3
SNIPPET_MAX_CHARS = 300
_JAVA_PARAMS = re.compile(r"\([^()]*\)")
#: Characters of a call site's source line kept in the payload.
CALL_TEXT_MAX_CHARS = 200


def point_id(repo: str, path: str, qualified_name: str, ordinal: int) -> str:
    """UUIDv5 of (repo, path, qualified name, ordinal): the same chunk always gets the same id."""
    return str(uuid.uuid5(POINT_NAMESPACE, f"{repo}\0{path}\0{qualified_name}\0{ordinal}"))


def callee_names(sites: Iterable[CallSite]) -> list[str]:
    """Distinct callee keys for the ``calls`` index: each dotted name and its last segment."""
    names: dict[str, None] = {}
    for site in sites:
        names[site.name] = None
        names[site.short_name] = None
    return list(names)


def call_sites(chunk: Chunk, references: bool = False) -> list[dict]:
    """The payload's ``call_sites``: name, line, the line's text (stripped, at most
    ``CALL_TEXT_MAX_CHARS``), the resolved ``target`` (``""`` if unresolved) and, only when
    the target's receiver is another file's class attribute, ``"via": "attribute"``; when
    the receiver's declared type is known and the target not, ``"type"`` (``resolve_own``);
    when the receiver is exactly the target's class (``CallSite.exact``), ``"exact": true``;
    the argument count the parser saw, when known, ``"args"`` (``CallSite.arguments``).
    With ``references``, the payload's ``references`` instead: the same rows of the values
    that name a function (``Chunk.references``, each with its target)."""
    lines = chunk.text.split("\n")
    out = []
    for s in chunk.references if references else chunk.call_sites:
        row = s.line - chunk.start_line
        text = lines[row].strip()[:CALL_TEXT_MAX_CHARS] if 0 <= row < len(lines) else ""
        row = {"name": s.name, "line": s.line, "text": text, "target": s.target}
        if s.via_attribute:
            row["via"] = "attribute"
        if s.receiver_type:
            row["type"] = s.receiver_type
        if s.exact:
            row["exact"] = True
        if s.arguments >= 0 and not references:
            row["args"] = s.arguments
        out.append(row)
    return out


def fq_name(chunk: Chunk) -> str:
    """The module-qualified name of a chunk (what resolved call targets name): its module plus
    its qualified name; a Go name less its package clause (``example.com/a/util.Server.Run``
    for ``util.Server.Run``), a Java name as is (package included) less parameter lists
    (every overload of ``pkg.C.m(int)`` is ``pkg.C.m``), a C# name (namespace included) likewise."""
    if chunk.language == "csharp" and chunk.kind != "module":
        return _JAVA_PARAMS.sub("", chunk.qualified_name)
    if not chunk.module or chunk.kind == "module":
        return chunk.module or chunk.qualified_name
    if chunk.language == "java":
        return _JAVA_PARAMS.sub("", chunk.qualified_name)
    if chunk.language == "go":
        return f"{chunk.module}.{chunk.qualified_name.partition('.')[2] or chunk.qualified_name}"
    return f"{chunk.module}.{chunk.qualified_name}"


def fq_aliases(chunk: Chunk) -> list[str]:
    """Other module-qualified names of a chunk, one per module alias (``@acme/util/str.trim``
    for ``lib/str.trim`` in the package ``@acme/util``)."""
    if chunk.kind == "module":
        return list(chunk.module_aliases)
    return [f"{alias}.{chunk.qualified_name}" for alias in chunk.module_aliases]


def export_edges(module: str, aliases: Iterable[str],
                 exports: Iterable[tuple[str, str]]) -> list[str]:
    """The re-export edges of a module chunk, one keyword value each: ``"<target> <name>"``
    when binding ``local`` to ``target`` in the module makes ``<module>.<local>`` another name
    of ``target`` (``"httpx._client.Client httpx.Client"`` for ``from ._client import Client``
    in ``httpx/__init__.py``), ``"<target> *<module>"`` for a star import (the module's own
    names then stand for ``target``'s). One per module name (``module`` and its ``aliases``);
    ``[]`` without a module name. ``callgraph.aliases`` reads them with a facet over the
    keyword index, never from point payloads (a module's payload is large: ~3 KB mean, and
    the engine decodes all of it to read any field)."""
    names = [m for m in (module, *aliases) if m]
    out = set()
    for local, target in exports:
        for name in names:
            out.add(f"{target} *{name}" if local.startswith("*") else f"{target} {name}.{local}")
    return sorted(out)


def snippet(text: str) -> str:
    """The first ``SNIPPET_LINES`` non-blank lines of ``text`` (right-stripped, joined by
    newlines), cut to ``SNIPPET_MAX_CHARS`` characters; ``""`` for blank text."""
    lines = [line.rstrip() for line in text[: SNIPPET_MAX_CHARS * 4].splitlines() if line.strip()]
    return "\n".join(lines[:SNIPPET_LINES])[:SNIPPET_MAX_CHARS]


def sparse_text(chunk: Chunk) -> str:
    """What the sparse tokenizer reads: names, signature, docstring and (bounded) source,
    a class's outline rather than its whole text (``Chunk.lexical_text``); a module chunk
    reads its whole file (a file-level document: read as its top-level code alone,
    swe-lite-dev locate file@5 went 82.0 -> 78.7), a long one its head and the top-level
    code past it (``chunk._module_chunk``). Text at most ``SPARSE_MAX_CHARS`` characters,
    a ``lexical_text`` at most ``LEXICAL_MAX_CHARS``."""
    head = f"{chunk.path} {chunk.name} {chunk.qualified_name} {chunk.signature} {chunk.docstring}"
    body = chunk.lexical_text[:LEXICAL_MAX_CHARS] if chunk.lexical_text else chunk.text[:SPARSE_MAX_CHARS]
    return f"{head}\n{body}"


def searchable(chunk: Chunk) -> bool:
    """Whether search may find ``chunk``: one with a blank ``embed_text`` (a module chunk
    holding only imports, kept for lookups and re-exports: ``chunk.chunks``) gets no sparse
    terms and never a dense vector, so no query scores it (conformance case 37)."""
    return bool(chunk.embed_text.strip())


def to_point(chunk: Chunk, *, commit: str, blob_id: str, model_id: str, text_hash: str,
             dense: tuple[float, ...] | None = None, role: str = "") -> PointRecord:
    """The store point of ``chunk``; ``dense`` may come later (decision 4). ``role``: the
    file's role (``""``: ``classify.role`` of its path by the default conventions)."""
    aliases = fq_aliases(chunk)
    payload = {
        "repo": chunk.repo, "path": chunk.path, "language": chunk.language,
        "role": _chunk_role(chunk, role or classify.role(chunk.path)),
        "kind": str(chunk.kind), "name": chunk.name, "qualified_name": chunk.qualified_name,
        "name_lc": chunk.name.lower(), "qualified_name_lc": chunk.qualified_name.lower(),
        "name_tokens": " ".join(sparse.tokens(chunk.qualified_name)),
        "name_trigrams": name_trigrams(chunk.name),
        "parent": chunk.parent, "signature": chunk.signature, "docstring": chunk.docstring,
        "start_line": chunk.start_line, "end_line": chunk.end_line,
        "start_byte": chunk.start_byte, "end_byte": chunk.end_byte,
        "commit": commit, "blob_id": blob_id, "text_hash": text_hash,
        "calls": callee_names(chunk.call_sites),
        "call_sites": call_sites(chunk),
        "call_targets": sorted({s.target for s in chunk.call_sites if s.target}),
        "references": call_sites(chunk, references=True),
        "reference_targets": sorted({s.target for s in chunk.references if s.target}),
        "fq_name": fq_name(chunk), "fq_aliases": aliases,
        "module": chunk.module, "raises": list(chunk.raises),
        "exports": [list(kv) for kv in chunk.exports],
        "export_targets": sorted({target for _, target in chunk.exports}),
        "export_edges": export_edges(chunk.module, aliases, chunk.exports),
        "base_targets": list(chunk.bases),
        "instance_edges": [f"{chunk.module}.{name} {cls}" for name, cls in chunk.instances],
        "instance_types": sorted({cls for _, cls in chunk.instances}),
        "imports": list(chunk.imports), "embedding_model": model_id,
        "embed_text": chunk.embed_text, "snippet": snippet(chunk.text),
        "indexed_at": time.time(), "ordinal": chunk.ordinal,
        "prose": round(prose_share(chunk.text), 3),
    }
    if chunk.declares:
        payload["declares"] = True
    if chunk.returns:
        payload["returns"] = chunk.returns
    if any(chunk.results):
        payload["results"] = list(chunk.results)
    return PointRecord(
        id=point_id(chunk.repo, chunk.path, chunk.qualified_name, chunk.ordinal),
        payload=payload, sparse=sparse.vector(sparse_text(chunk) if searchable(chunk) else ""),
        dense=dense if searchable(chunk) else None)


def _chunk_role(chunk: Chunk, role: str) -> str:
    """``role`` (the file's) for ``chunk``, but ``test`` for test code in a source file
    (``Chunk.test_code``)."""
    return str(classify.Role.TEST) if chunk.test_code and role == classify.Role.SOURCE else role
