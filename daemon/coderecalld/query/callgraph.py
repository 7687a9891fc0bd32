"""Call sites over the store: which definitions a name means, which targets reach them,
which calls hit them (the query side of ``resolve``).

A definition is identified by repo + qualified name; across repos by its module-qualified
name (``fq_name``, ``httpx._client.Client.send``). A call reaches it when its resolved
``target`` is that name or an alias made by a re-export (``httpx/__init__.py`` doing
``from ._client import Client`` makes ``httpx.Client.send`` an alias). No grpc here.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from coderecalld import logs
from coderecalld.files import classify
from coderecalld.parse import headers
from coderecalld.parse import text as tx
from coderecalld.query import arity
from coderecalld.query import frames as stack
from coderecalld.query import overloads
from coderecalld.query import ruby
from coderecalld.query import rust_receivers
from coderecalld.records import POSITION, RETURNED, VALUE_KINDS, CallerHit, Hit, is_part, unparted
from coderecalld.store import StoreFilter

RESOLVED = "resolved"
#: The call's receiver is a subclass that inherits the definition (``Flask().route`` for ``App.route``).
INHERITED = "inherited"
#: The call names a base-class method the definition overrides: it may dispatch here.
OVERRIDE = "override"
#: No call: the definition is named as a value there (passed, assigned, returned, listed:
#: ``Thread(target=self.run)``), resolved to it (``index/resolve._python_reference``).
REFERENCE = "reference"
NAME_ONLY = "name_only"
#: Order of confidences in an answer: most certain first.
RANK = {RESOLVED: 0, INHERITED: 1, OVERRIDE: 2, REFERENCE: 3, NAME_ONLY: 4}
#: Levels of subclasses and of bases followed from a method's class (deep enough for
#: real hierarchies: flask's Flask -> App -> Scaffold is two).
MRO_DEPTH = 6
#: Classes directly below a method's classes read for ``super()`` calls past their other
#: bases (``_past_bases``): scikit-learn's ``BaseEstimator`` has ~200.
MRO_SUBCLASSES = 500
#: Method definitions (``HIERARCHY_LANGUAGES``) a question may name and still have their
#: class hierarchies walked (each costs a few keyword facets per level; a dotted name names
#: one or a few).
HIERARCHY_MAX_METHODS = 16
#: Points read per keyword lookup (every definition of a common name, every caller of it).
FETCH_LIMIT = 2000
#: Payload a calling point must carry for ``sites``, ``caller_hit`` and ``impact``: less to
#: convert to Python than the whole payload (``to_hit`` time -25% at 100k points here); the
#: engine's own read, ~0.1 ms a point whatever the fields, stays (docs/performance.md).
SITE_FIELDS = ("repo", "path", "role", "kind", "language", "qualified_name", "fq_name", "call_sites")
#: The same for a point's value references (``REFERENCE``).
REFERENCE_FIELDS = (*SITE_FIELDS[:-1], "references")

#: Languages whose code calls one another's definitions by name: JavaScript and TypeScript
#: modules import each other, Kotlin and Scala call Java, C++ calls C. Any other language
#: calls only its own: a PHP ``new Stream(..)`` is no call of Ruby's ``Sinatra::Helpers::
#: Stream`` (a newcomer's ``callers`` of it listed guzzle's PHP test, not sinatra's two
#: ``Stream.new``).
LANGUAGE_FAMILIES = (frozenset({"javascript", "typescript", "tsx", "jsx"}),
                     frozenset({"java", "kotlin", "scala"}), frozenset({"c", "cpp"}))


def callable_from(languages: Iterable[str]) -> frozenset[str]:
    """The languages whose code may call a definition written in one of ``languages``
    (``LANGUAGE_FAMILIES``; a language of no family: itself)."""
    out: set[str] = set()
    for language in languages:
        out |= next((f for f in LANGUAGE_FAMILIES if language in f), {language})
    return frozenset(out)
#: Rounds of re-export following (``pkg/__init__`` re-exporting ``pkg/_sub/__init__``'s
#: re-export of ``pkg/_sub/impl.py``'s class is two).
ALIAS_ROUNDS = 3
#: Names ``aliases`` follows at most: each costs one facet lookup per dotted prefix.
ALIAS_MAX = 5000
#: Names one round may reach under modules imported for use (``_aliases``' ``used``)
#: before those are left out: a popular module's importers (django's ``models``).
USED_ALIASES_MAX = 256
#: Keyword lookups (facet values: alias prefixes, subclasses' base names, overriding
#: methods) one ``callers`` request (or one ``impact``, over all its nodes) may spend on
#: aliases and the class hierarchy. Past it the hierarchy stops where it is and the answer
#: says so (``FindCallersResponse.hierarchy_cut``). A lookup costs ~1.5 ms on sympy's 44k
#: points, where ``callers Basic.subs`` (some 1,000 subclasses) asked for 37,000 and ran
#: past the 60 s deadline (a review), but ~0.06 ms on django-rest-framework's 6k, where
#: 3,000 cut ``callers Field.fail`` (every serializer of the tests is a ``Field``) at
#: 0.36 s with all 53 call sites listed, and said some may be missing (two newcomers:
#: drf, arrow's ``Locale.describe``); it needs 6,000-10,000 (0.54 s). The time bound
#: below is what stops a costly walk: sympy's ``Basic.subs`` / ``Expr.expand`` answer
#: in 6.7 / ~6 s instead of 5.3 / 5.4 s, ``Basic.atoms`` in 6.2 s with 334 sites
#: instead of 0.25 s with 328.
HIERARCHY_LOOKUPS = 20000
#: ... and seconds: a lookup of a prefix thousands of modules import from (``sympy.core``)
#: costs ~10 ms (``callers __new__``: 2,837 of them, 30 s).
HIERARCHY_SECONDS = 5.0
#: Values per keyword lookup call between two looks at the clock.
LOOKUP_CHUNK = 64


@dataclass
class Lookups:
    """A request's budget of keyword lookups (``HIERARCHY_LOOKUPS`` values,
    ``HIERARCHY_SECONDS`` from its start); ``cut`` once spent."""

    left: int = field(default_factory=lambda: HIERARCHY_LOOKUPS)
    cut: bool = False
    until: float = field(default_factory=lambda: time.monotonic() + HIERARCHY_SECONDS)
    #: ``aliases`` and ``_returning`` answers of this request (``_kept``), by reader, store,
    #: filter and names: one class's aliases were read three times per ``callers`` (its
    #: subclasses, instances and functions returning it), each time paid for again
    kept: dict[tuple[str, int, StoreFilter, frozenset[str]], frozenset[str]] = field(default_factory=dict)

    def late(self) -> bool:
        """Whether its time is spent (then ``cut``)."""
        if time.monotonic() > self.until:
            self.cut = True
            return True
        return False

    def take(self, values: list[str]) -> list[str]:
        """``values`` (sorted) as the budget still pays for them: all while it lasts, else
        the shortest first (then ``cut``), sorted."""
        if len(values) > self.left:
            values = sorted(sorted(values, key=lambda v: (len(v), v))[:max(self.left, 0)])
            self.cut = True
        self.left -= len(values)
        return values


_BUDGET: contextvars.ContextVar[Lookups | None] = contextvars.ContextVar("callgraph_budget", default=None)


@contextlib.contextmanager
def budget(lookups: Lookups | None = None) -> Iterator[Lookups]:
    """Run the enclosed lookups on one budget: ``lookups``, the one already active (an
    ``impact`` spanning many ``callers``), or a new one."""
    active = _BUDGET.get()
    if active is not None and lookups is None:
        yield active
        return
    mine = lookups or Lookups()
    token = _BUDGET.set(mine)
    try:
        yield mine
    finally:
        _BUDGET.reset(token)


def _facet(store: Any, flt: StoreFilter, key: str, field_: str, values: Iterable[str]) -> set[str]:
    """``store.facet_any`` over the ``values`` the active budget pays for (``_paid``), in
    calls of ``LOOKUP_CHUNK`` values, stopping when its time is spent."""
    paid = _paid(values)
    active = _BUDGET.get()
    out: set[str] = set()
    for i in range(0, len(paid), LOOKUP_CHUNK):
        if active is not None and active.late():
            break
        out |= store.facet_any(flt, key, field_, paid[i:i + LOOKUP_CHUNK])
    return out


def _paid(values: Iterable[str]) -> list[str]:
    """``values`` sorted, as many as the active budget pays for (``Lookups.take``)."""
    ordered = sorted(set(values))
    active = _BUDGET.get()
    return ordered if active is None else active.take(ordered)
_NOT_DEFINITIONS = ("module", "section")
#: Languages whose classes carry ``base_targets`` (``index/resolve``; Go: a struct's embedded
#: types): their methods' class hierarchies are walked.
HIERARCHY_LANGUAGES = frozenset({"python", "java", "javascript", "typescript", "tsx", "go", "kotlin",
                                 # resolved within a file (index/resolve_own), their bases as written:
                                 # a base class's own call of its method may run an override
                                 "csharp", "swift", "scala", "cpp", "ruby", "php"})
#: Languages where a call on a base type never dispatches to a method of a type below it
#: (Go's embedding promotes methods, it does not override them): no ``override`` label.
NO_OVERRIDE_LANGUAGES = frozenset({"go"})


@dataclass(frozen=True, slots=True)
class Site:
    """One call site as read from a point: who calls, where, what is written and reached."""

    hit: Hit
    name: str
    line: int
    text: str
    target: str
    via: str = ""  # "attribute": the target's receiver is an attribute of unknown type
    type: str = ""  # the receiver's declared type, when the target is unknown (index/resolve_own)
    exact: bool = False  # the receiver is exactly the target's class: no override runs (CallSite.exact)
    args: int = -1  # arguments the call passes, -1 unknown (CallSite.arguments)

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def definitions(store: Any, flt: StoreFilter, name: str, depth: int = ALIAS_ROUNDS) -> list[Hit]:
    """Definitions ``name`` may mean: a bare name, a qualified name (``Class.method``) or a
    module-qualified one (``pkg.mod.Class.method``, or a re-exported alias of it such as
    ``httpcore.ConnectionPool``), matched exactly (case matters). Failing those, a dotted
    name may be the tail of a module-qualified one: ``Strings.trim`` is Java's
    ``com.acme.Strings.trim(String)``, ``Server.Run`` Go's ``example.com/a/util.Server.Run``.
    Failing those too, ``Class.method`` that ``Class`` only inherits is its first base's
    (``inherited_definition``). A name only a declaration file defines (a ``.pyi`` stub's
    ``def asdict``: ``classify.declaration_file``) is followed through the re-exports too,
    and the implementation they reach is the answer (attrs' ``attr.asdict`` is
    ``attr._funcs.asdict``; its card showed the stub's signature). A name closing in a
    parameter list means the overloads of the name before it that print that list
    (``overloads.pick``: ``Selector.select(String,Element)``; none when they print others),
    or, when none prints one, all of that name's definitions (a call written so)."""
    if depth == ALIAS_ROUNDS:
        base, params = overloads.split(name)
        found = definitions(store, flt, base) if params is not None else []
        if found:
            return overloads.pick(found, params)
    impl = rust_impl_item(store, flt, name)
    if impl:
        return impl
    found = _named(store, flt, name)
    if "." in name and depth and not _implemented(found):
        reached = _through_reexports(store, flt, name, depth - 1)
        found = reached if _implemented(reached) else found or reached
    if not found and "." in name and depth == ALIAS_ROUNDS:
        found = [h for h in _named(store, flt, name.rsplit(".", 1)[-1])
                 if (h.payload.get("fq_name") or "").endswith("." + name)]
    if not found and depth == ALIAS_ROUNDS:
        found = written_tail(store, flt, name)
    if not found and "." in name and depth == ALIAS_ROUNDS:
        found = inherited_definition(store, flt, name)
    if not found and depth == ALIAS_ROUNDS:
        found = as_called(store, flt, name)
    return found


#: Chunks read for the calls written as a dotted name no definition has (``as_called``).
AS_CALLED_CHUNKS = 64


def as_called(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    """The definitions the calls written ``name`` resolve to, for a name no definition
    has: code names a function through its import's local name (``import xarray as xr``:
    ``xr.concat(..)`` is ``xarray.concat``, re-exporting ``xarray.structure.concat.concat``;
    ``from sphinx.pycode.ast import unparse as ast_unparse``: ``ast_unparse(..)``);
    ``callers xr.concat`` listed every ``concat`` of five languages as name-only, and
    ``symbols xr.Dataset`` found nothing (a newcomer).
    The one target of such calls in at most ``AS_CALLED_CHUNKS`` chunks, when at least
    ``AS_CALLED_SHARE`` of them resolve to it (an import binds one thing) and it has
    definitions; ``[]`` otherwise: a name on an object (``self.get``, ``self._replace``:
    many classes' methods; a review) is no import's, and stays the calls of its name. One
    keyword lookup, then the target's definitions."""
    if name.partition(".")[0] in _RECEIVER_WORDS:
        return []
    hits = store.find_any(flt, "calls", [name], limit=AS_CALLED_CHUNKS, fields=("call_sites",))
    written = [str(s.get("target") or "") for h in hits for s in h.payload.get("call_sites") or ()
               if s.get("name") == name]
    counts = Counter(t for t in written if t)
    if not counts:
        return []
    target, many = counts.most_common(1)[0]
    if many < AS_CALLED_SHARE * len(written):
        return []
    return definitions(store, flt, target.removesuffix(RETURNED), ALIAS_ROUNDS - 1)


#: Share of the calls written as a name that must resolve to one target for ``as_called``.
AS_CALLED_SHARE = 0.9
#: Names of the object a method runs on: a name starting with one is no import's.
_RECEIVER_WORDS = frozenset({"self", "cls", "this", "super", "Self", "static", "parent"})


#: A Rust impl's item as the index names it: ``<&[u8] as Buf>::advance``,
#: ``<BytesMut as From<&'a str>>::from`` (group 1: the item's name).
_RUST_IMPL_ITEM = re.compile(r"^\s*<.+>\s*::\s*(\w+)\s*$")


def rust_impl_item(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    """The definitions a Rust impl's item written whole names (``_RUST_IMPL_ITEM``):
    those whose qualified name is ``name`` but for spaces (the index writes
    ``From<&'static[u8]>``); ``[]`` for another name. As a trace reads it
    (``written_tail``) it was ``advance``, every ``advance``: ``card '<&[u8] as
    Buf>::advance'`` answered ``<Cursor as Buf>::advance``, ``callers`` listed the trait's
    default methods' ``self.advance(..)`` as resolved. One keyword lookup."""
    m = _RUST_IMPL_ITEM.match(name)
    if m is None:
        return []
    spelled = _unspaced(name)
    return [h for h in _named(store, flt, m.group(1)) if h.payload.get("language") == "rust"
            and _unspaced(str(h.payload.get("qualified_name") or "")) == spelled]


def _unspaced(name: str) -> str:
    return re.sub(r"\s+", "", name)


def written_tail(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    """Definitions whose qualified or module-qualified name, written as a trace writes a
    function (``frames.callable_name``: scopes joined by dots, no generic arguments,
    parameter lists or trait of a Rust impl), is ``name`` written so or ends with it at a
    dot: ``Value::pointer`` and ``PrettyFormatter::begin_object_key`` are Rust's
    ``Value::pointer`` and ``<PrettyFormatter as Formatter>::begin_object_key``,
    ``ReflectiveTypeAdapterFactory$Adapter.read`` Java's ``com.acme.Reflective
    TypeAdapterFactory.Adapter.read(JsonReader)``; failing that, its longest tail of two
    segments or more that is (a Rust path's crate and modules), then the definitions of its
    name with its owner anywhere above (an enum constant's method). A name of one scope
    matches only as a Rust macro invoked (``json!`` is ``json``) or a generic type written
    with its parameters (``ResiliencePipeline<T>``). One keyword lookup of the last
    segment."""
    wanted = stack.callable_name(name)
    if "$" in name and any(_PLACE.fullmatch(part) for part in wanted.split(".")[1:-1]):
        return anonymous_member(store, flt, wanted)
    if "." not in wanted:
        # a Rust macro as invoked (``json!``); a generic type as written (C#'s
        # ``ResiliencePipeline<T>``, ``ResiliencePipeline`1``: the index names it bare)
        bare = wanted.removesuffix("!")
        if not bare or bare == name.strip():
            return []
        # ``!`` ends a Rust macro's invocation but is part of a Ruby name (``start!`` is no
        # ``start``: a newcomer's ``symbols 'start!'`` answered ``Runner.start`` as exact)
        return [h for h in _named(store, flt, bare)
                if bare == wanted or h.payload.get("language") == "rust"]
    named = _named(store, flt, wanted.rsplit(".", 1)[-1])
    written = [(hit, [stack.callable_name(str(hit.payload.get(f) or "")) for f in ("qualified_name", "fq_name")])
               for hit in named]
    # a Rust path's crate and modules (``serde_json::de::Deserializer::parse_whitespace``)
    # are no part of the index's names (``Deserializer::parse_whitespace``): longest tail first
    parts = wanted.split(".")
    for start in range(len(parts) - 1):
        tail = ".".join(parts[start:])
        out = [hit for hit, names in written if any(n == tail or n.endswith("." + tail) for n in names)]
        if out:
            return out
    # a Rust item at its module's top level, named from its crate (``walkdir::util::
    # device_num`` as a backtrace prints a free function, ``walkdir::WalkDir``): the file's
    # modules are the path's between the crate and the name; a name the crate root
    # re-exports (``walkdir::Error`` of ``src/error.rs``) when one item has the name
    top = [hit for hit, names in written if hit.payload.get("language") == "rust"
           and str(hit.payload.get("qualified_name", "")) == parts[-1]]
    if len(parts) >= 2 and top:
        placed = [hit for hit in top if rust_modules(str(hit.payload.get("path", ""))) == parts[1:-1]]
        # or the path starts at a module, not the crate: ``bytes::release_shared`` of
        # ``src/bytes.rs`` (``src/bytes_mut.rs`` has one too; ``callers`` found neither)
        placed = placed or [hit for hit in top if rust_modules(str(hit.payload.get("path", ""))) == parts[:-1]]
        return placed or (top if len(parts) == 2 and len(top) == 1 else [])
    # the owner further up: ``ToNumberPolicy.readNumber`` is each enum constant's method
    # (``ToNumberPolicy.LONG_OR_DOUBLE.readNumber``)
    # (a type's name: ``httpcore.ConnectionPool`` is a package's re-export, not an owner)
    owner = stack.owner_and_name(wanted)[0]
    if not owner[:1].isupper():
        return []
    return [hit for hit, names in written if any(f".{owner}." in "." + n for n in names)]


def rust_modules(path: str) -> list[str]:
    """The module path a Rust file is at within its crate: ``src/util.rs`` -> ``["util"]``,
    ``src/walk/mod.rs`` -> ``["walk"]``, ``src/lib.rs`` -> ``[]`` (the crate root); a
    workspace member's ``crates/x/src/..`` from its ``src``."""
    dirs = path.split("/")
    if "src" in dirs:
        dirs = dirs[len(dirs) - dirs[::-1].index("src"):]
    stem = dirs[-1].removesuffix(".rs") if dirs else ""
    mods = dirs[:-1] + ([] if stem in ("lib", "main", "mod") else [stem])
    return [m for m in mods if m]


#: Classes of a trace's outer name read for its anonymous classes (``anonymous_member``):
#: a name several files define (a test's copy) is read in each, up to this many.
MEMBER_OWNERS = 4
#: Chunks of one file read to number its anonymous classes (``anonymous_member``).
ANONYMOUS_FILE_CHUNKS = 5000
#: Kinds of a class an anonymous class is numbered in (``anonymous_member``).
_CLASS_KINDS = frozenset({"class", "interface", "enum", "struct"})


def anonymous_member(store: Any, flt: StoreFilter, wanted: str) -> list[Hit]:
    """The definitions a JVM trace's ``Outer$2.write`` names (``wanted``: its
    ``frames.callable_name``, ``Outer.2.write``, a package before it or not): javac names an
    anonymous class after its immediately enclosing class (a named one or another anonymous
    one) and its place, from 1, among that class's anonymous classes and enum constant
    bodies in source order (``Outer$1``, ``Outer$Inner$2``, ``Outer$Inner$2$1``, ``E$1`` for
    enum constant ``A { ... }``, ``A() { ... }`` or ``A("x") { ... }``: checked with javac
    17), so the method ``write`` inside that
    class's lines; the index names an anonymous class by the field holding it or
    ``<anonymous T>`` (its signature ``new T()``; two in one method share that name), which
    no trace prints (gson's ``ReflectiveTypeAdapterFactory$2.readIntoField``: a newcomer).
    ``[]`` for a place past the class's anonymous classes, for a name with an empty segment
    (a proxy's ``Service$$SpringCGLIB$$0.run``) and for a file with more than
    ``ANONYMOUS_FILE_CHUNKS`` chunks (its numbering would be a guess). One keyword lookup
    for the outer class, one read of its file's chunks, one for the method."""
    parts = wanted.split(".")
    first = next((i for i, part in enumerate(parts) if _PLACE.fullmatch(part)), 0)
    if first == 0 or any(not part for part in parts) or not parts[first - 1].isidentifier():
        return []
    written = ".".join(parts[:first])
    owners = [h for h in _named(store, flt, parts[first - 1]) if h.payload.get("kind") in _CLASS_KINDS
              and (h.payload["qualified_name"] == written or h.payload["qualified_name"].endswith("." + written))]
    out: list[Hit] = []
    for outer in owners[:MEMBER_OWNERS]:
        p = outer.payload
        where = replace(flt, repo=p["repo"], path=p["path"])
        chunks = [h.payload for h in store.find(where, "path", p["path"], limit=ANONYMOUS_FILE_CHUNKS + 1)]
        if len(chunks) > ANONYMOUS_FILE_CHUNKS:
            continue
        by_name = {c["qualified_name"]: c for c in chunks}

        def enclosing(c: dict) -> str:
            parent, hops = str(c.get("parent") or ""), 0
            while parent in by_name and by_name[parent].get("kind") not in _CLASS_KINDS and hops < 64:
                parent, hops = str(by_name[parent].get("parent") or ""), hops + 1
            return parent

        def anonymous(c: dict) -> bool:
            signature = str(c.get("signature", ""))
            parent = by_name.get(str(c.get("parent") or ""), {})
            return c.get("kind") in _CLASS_KINDS and (signature.startswith("new ") or (
                parent.get("kind") == "enum" and _ENUM_CONSTANT.fullmatch(signature) is not None))

        current: dict | None = p
        for part in parts[first:-1]:
            if _PLACE.fullmatch(part):
                numbered = sorted((c for c in chunks if anonymous(c) and enclosing(c) == current["qualified_name"]),
                                  key=lambda c: int(c.get("start_byte", 0)))
                current = numbered[int(part) - 1] if 0 < int(part) <= len(numbered) else None
            else:
                current = by_name.get(f"{current['qualified_name']}.{part}")
            if current is None:
                break
        if current is not None:
            low, high = int(current.get("start_byte", 0)), int(current.get("end_byte", 0))
            out += [h for h in store.find(where, "name", parts[-1], limit=FETCH_LIMIT)
                    if h.payload.get("parent") == current["qualified_name"]
                    and low <= int(h.payload.get("start_byte", -1)) < high]
    return out


#: An enum constant's body's signature: its name, with its arguments or none (``PLAIN``,
#: ``DEFAULT()``, ``QUOTED("q")``; gson's ``LongSerializationPolicy.DEFAULT()`` was not
#: numbered). Possessive: linear whatever the signature.
_ENUM_CONSTANT = re.compile(r"[^\W\d]\w*+\s*+(?:\(.*\))?", re.DOTALL)
#: A JVM anonymous class's place in its binary name (``$2``): ASCII digits only.
_PLACE = re.compile(r"[0-9]+")


def inherited_definition(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    """The definition ``Class.method`` means when ``Class`` does not define ``method`` but
    inherits it: the method of its first base (``base_classes`` order) that defines it, as a
    language server's "find references" on ``app.route`` answers with ``Scaffold.route``
    for a ``Flask`` app. A base that binds the name in its body (``get = _cached_get``: a
    value symbol, ``records.VALUE_KINDS``) defines it there: that line is the answer, not a
    further base's method it overrides. ``[]`` when no class of that name or none of its
    bases defines it."""
    owner, method = name.rsplit(".", 1)
    classes = [h for h in definitions(store, flt, owner, ALIAS_ROUNDS - 1) if h.payload.get("kind") == "class"]
    for cls in classes:
        for base in base_classes(store, flt, cls.payload):
            base_name = base.payload.get("fq_name") or base.payload.get("qualified_name", "")
            found = [h for h in _named(store, flt, f"{base_name}.{method}")
                     if h.payload.get("kind") in _MEMBER_KINDS]
            if found:
                return found
    return []


#: Kinds of a class's member that ``inherited_definition`` takes as the class defining it.
_MEMBER_KINDS = frozenset({"method", "function", *VALUE_KINDS})


def reexported(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    """Definitions a dotted ``name`` reaches only through re-exports and import aliases,
    up to ``ALIAS_ROUNDS`` deep: ``httpcore.ConnectionPool`` (``httpcore/__init__.py``
    imports it from ``httpcore._sync.connection_pool``), ``httpx.get`` (a star import).
    ``[]`` for a bare name or one nothing re-exports."""
    return _through_reexports(store, flt, name, ALIAS_ROUNDS - 1) if "." in name else []


def _through_reexports(store: Any, flt: StoreFilter, name: str, depth: int) -> list[Hit]:
    """The definitions the first of ``name``'s re-export targets (``_unalias``) reaching an
    implementation means (``definitions``, ``depth`` rounds), else the first reaching any
    (a declaration file's alone), else ``[]``."""
    found: list[Hit] = []
    targets = _unalias(store, flt, name)
    _prefetch_named(store, flt, targets)  # read in one call each, then asked in turn
    for target in targets:
        reached = definitions(store, flt, target, depth)
        if _implemented(reached):
            return reached
        found = found or reached
    return found


def _implemented(hits: list[Hit]) -> bool:
    """Whether one of ``hits`` is outside a declaration file (``classify.declaration_file``)."""
    return any(not classify.declaration_file(str(h.payload.get("path", ""))) for h in hits)


def _unalias(store: Any, flt: StoreFilter, name: str) -> list[str]:
    """What ``pkg.alias.rest`` may stand for when module ``pkg`` imports ``alias`` (or
    star-imports a module that may define it), longest module first."""
    parts = name.split(".")
    out = []
    _prefetch(store, flt, "fq_name", [".".join(parts[:cut]) for cut in range(len(parts) - 1, 0, -1)])
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        for hit in store.find(flt, "fq_name", module, limit=FETCH_LIMIT):
            if hit.payload.get("kind") == "module":
                table = dict(hit.payload.get("exports", []))
                if parts[cut] in table:
                    out.append(".".join([table[parts[cut]], *parts[cut + 1:]]))
                out += [".".join([t, *parts[cut:]]) for local, t in table.items() if local.startswith("*")]
    return out


def _prefetch(store: Any, flt: StoreFilter, field: str, values: Sequence[str]) -> None:
    """Have a request's store (``reuse.Reused``) read ``store.find(flt, field, v,
    limit=FETCH_LIMIT)`` of every one of ``values`` with one call; another store reads
    each when it is asked, as before."""
    ahead = getattr(store, "prefetch", None)
    if ahead is not None:
        ahead(flt, field, values, FETCH_LIMIT)


def _prefetch_named(store: Any, flt: StoreFilter, names: Sequence[str]) -> None:
    """``_prefetch`` what ``_named`` and ``_unalias`` read of each of ``names``: a star
    import's targets are tried one after another, each a few lookups (pydantic's
    ``pydantic.v1`` star-imports 20 modules)."""
    dotted = [n for n in names if "." in n]
    for field in _NAMED_FIELDS:
        _prefetch(store, flt, field, dotted)
    _prefetch(store, flt, "name", [n for n in names if "." not in n])
    _prefetch(store, flt, "fq_name", [".".join(n.split(".")[:cut]) for n in dotted
                                      for cut in range(n.count("."), 0, -1)])


#: The fields ``_named`` matches a dotted name on.
_NAMED_FIELDS = ("fq_name", "fq_aliases", "qualified_name")


def _named(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    fields = _NAMED_FIELDS if "." in name else ("name",)
    hits: dict[str, Hit] = {}
    for field in fields:
        for hit in store.find(flt, field, name, limit=FETCH_LIMIT):
            if ((hit.payload.get("kind") not in _NOT_DEFINITIONS or ruby.is_module(hit.payload))
                    and not is_part(hit.payload["qualified_name"])):
                hits.setdefault(hit.id, hit)
    return sorted(hits.values(), key=lambda h: (h.payload["repo"], h.payload["path"], h.payload["start_line"]))


def fq_names(defs: Iterable[Hit]) -> set[str]:
    """Module-qualified names of ``defs`` (their qualified names when no module is known) and
    their aliases (``fq_aliases``: a JS package's ``@acme/util/str.trim``); a Java
    constructor (``pkg.C.C``) also stands for its class, which ``new C()`` targets."""
    out = set()
    for hit in defs:
        p = hit.payload
        fq = p.get("fq_name") or p["qualified_name"]
        out.add(fq)
        out.update(p.get("fq_aliases") or ())
        if p.get("language") == "java" and fq.endswith(f".{p['name']}.{p['name']}"):
            out.add(fq[: -len(p["name"]) - 1])
    return out


def aliases(store: Any, flt: StoreFilter, names: set[str]) -> set[str]:
    """``names`` and every name re-exports give them, followed ``ALIAS_ROUNDS`` deep.

    Reads each round's re-export edges (``points.export_edges``) with one facet over the
    keyword indexes: no module payload is decoded, so a name that thousands of modules
    import (every copy of a vendored library) costs index reads, not ~0.2 ms a module.

    A module's binding of a package it lies under (``import pkg.sub as s`` in
    ``pkg.sub.mod``) gives no name under the package an alias (each such module gave every
    name under it one more alias, their aliases one more per round), nor does a test
    module's binding (``_test_module``) to the names under what it binds (sympy's test
    modules' ``from sympy import Basic`` gave every method of ``Basic`` one more name each,
    ``sympify`` 107,000, and ``callers Basic.subs`` ran past the 60 s deadline: a review;
    what a test helper package binds, ``from .factories import make_user``, is still a
    name of it). At most ``ALIAS_MAX`` names are followed (the shortest first; a log line
    and the request's budget, ``cut``, say when the cap cuts), and within a request's
    lookup budget (``budget``: its prefixes are keyword lookups, paid for shortest first),
    whose answers it keeps for the request (``_kept``)."""
    return _kept(_aliases, store, flt, names)


def _kept(read: Callable[[Any, StoreFilter, set[str]], set[str]], store: Any, flt: StoreFilter,
          names: set[str]) -> set[str]:
    """``read(store, flt, names)``, kept for the active request (``Lookups.kept``): asked
    again with the same names, it is answered without a lookup."""
    active = _BUDGET.get()
    key = (read.__name__, id(store), flt, frozenset(names))
    if active is not None and key in active.kept:
        return set(active.kept[key])
    found = read(store, flt, names)
    if active is not None:
        active.kept[key] = frozenset(found)
    return found


def _aliases(store: Any, flt: StoreFilter, names: set[str]) -> set[str]:
    """``aliases`` of ``names``, read from the store. Past ``ALIAS_MAX`` names, or
    ``USED_ALIASES_MAX`` in one round under modules another module imports under their
    own names for its use (``used``), those are left out from then on, and the cap cuts
    only if that is not enough."""
    found = set(names)
    frontier = set(names)
    pruned = False  # past ALIAS_MAX once: names under a module imported for use are left out
    for _ in range(ALIAS_ROUNDS):
        prefixes = {p for n in frontier for p in _prefixes(n)}
        if not prefixes:
            break
        new: set[str] = set()
        used_new: set[str] = set()
        # n is reached through an export of target when target is n or a dotted prefix of it:
        # index the frontier by those prefixes (one dict lookup per edge, not a scan).
        under: dict[str, list[str]] = {}
        for n in frontier:
            parts = n.split(".")
            for i in range(1, len(parts) + 1):
                under.setdefault(".".join(parts[:i]), []).append(n)
        for edge in _facet(store, flt, "export_edges", "export_targets", prefixes):
            target, _, alias = edge.partition(" ")
            star = alias.startswith("*")
            # a test module's bindings name only what they bind (a test helper package's
            # ``from .factories import make_user``), not what lies under it (sympy's tests'
            # ``from sympy import Basic`` made every method of ``Basic`` one more name each)
            binder, _, local = alias.rpartition(".")
            tested = _test_module(alias[1:] if star else binder)
            nested = alias.lstrip("*").startswith(target + ".")
            # a module imported under its own name from outside the binder's own package
            # (`from django.db import models` in `django.contrib.auth.models`): seldom
            # imported from the binder to reach the names under it
            used = (not star and local == target.rpartition(".")[2] and local[:1].islower()
                    and not target.startswith(binder + "."))
            for n in under.get(target, ()):
                if (nested or tested or (used and pruned)) and n != target:
                    continue  # a name under the target, aliased by a module under it
                if not star:
                    new.add(f"{alias}{n[len(target):]}")
                    if used and n != target:
                        used_new.add(f"{alias}{n[len(target):]}")
                elif n != target:  # `from m import *` re-exports m's names, not m
                    new.add(f"{alias[1:]}{n[len(target):]}")
        frontier = new - found
        if not pruned and (len(found) + len(frontier) > ALIAS_MAX or len(used_new - found) > USED_ALIASES_MAX):
            # too many: leave out, from here on, the names under modules imported for use
            # (django: every module's `from django.db import models` gave each name under
            # it one more, `X.models.GeneratedField`, 8,000 aliases of one class, whose
            # prefixes spent the request's lookups; `callers` said calls may be missing on
            # complete answers; a newcomer)
            pruned = True
            frontier -= used_new
        if len(found) + len(frontier) > ALIAS_MAX:
            kept = sorted(frontier, key=lambda n: (len(n), n))[:max(0, ALIAS_MAX - len(found))]
            logs.warn("callgraph.aliases_cut", names=sorted(names)[:3], kept=len(kept),
                      left=len(frontier) - len(kept))
            found.update(kept)
            active = _BUDGET.get()
            if active is not None:
                active.cut = True  # the answer says some aliases were not followed
            break
        found |= frontier
        if not frontier:
            break
    return found


@functools.lru_cache(maxsize=4096)
def _test_module(module: str) -> bool:
    """Whether ``module`` (dotted, or a JS module's path) is a test module by its path's
    conventions (``classify.role``; a repo's role overrides are not read here)."""
    return classify.role(module.replace(".", "/") + ".py") == "test"


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(2, len(parts) + 1)]


def sites(hits: Iterable[Hit], keep: Callable[[dict], bool] | None = None,
          field: str = "call_sites") -> list[Site]:
    """Every call site held by ``hits`` (deduplicated by point); with ``keep``, only those
    whose stored record (``{"name", "line", "text", "target"}``) it accepts: a module
    point can hold hundreds of call sites, of which one is wanted. ``field``
    ``"references"``: the points' value references instead (same records)."""
    seen: set[str] = set()
    out = []
    for hit in hits:
        if hit.id in seen:
            continue
        seen.add(hit.id)
        for s in hit.payload.get(field, []):
            if keep is None or keep(s):
                out.append(Site(hit, s["name"], int(s["line"]), s.get("text", ""), s.get("target", ""),
                                s.get("via", ""), s.get("type", ""), bool(s.get("exact")), int(s.get("args", -1))))
    return out


def caller_hit(site: Site, confidence: str, commit: str) -> CallerHit:
    """The answer record of ``site``; the caller is ``""`` for top-level code."""
    p = site.hit.payload
    caller = "" if p.get("kind") in _NOT_DEFINITIONS else p["qualified_name"]
    return CallerHit(p["repo"], p["path"], site.line, caller, site.name, commit,
                     text=site.text, confidence=confidence, target=site.target, role=hit_role(p))


def hit_role(payload: dict) -> str:
    """A point's role: its payload's, or (indexed before roles) its path's by convention."""
    return payload.get("role") or classify.role(payload.get("path", ""))


def callers(store: Any, flt: StoreFilter, name: str, omitted: dict[str, int] | None = None,
            at: tuple[str, str] | None = None, spelled: bool = False) -> list[tuple[Site, str]]:
    """``_callers`` of ``name`` within one lookup budget (``budget``: a new one, or the
    request's already active); ``omitted["hierarchy_cut"]`` is 1 when it was spent before
    the aliases and the class hierarchy were followed whole (a call on a class not reached
    is ``name_only``, unless its target is a definition's; an override's calls may be missing).
    ``at`` (repo, path): the definitions of ``name`` in that file only, when it has one
    (impact asks for a caller's callers so: walkdir's test ``fn sort_by`` got the calls of
    the method ``WalkDir::sort_by``, a name without a module in Rust). ``spelled``: ``name``
    is as a person wrote it, whose Ruby spelling picks a singleton or an instance method
    (``ruby.spelled``); an impact's next level names callers by their qualified names."""
    with budget() as spent:
        before = spent.cut  # an impact's budget may be spent by an earlier level
        found = _callers(store, flt, name, omitted, at, spelled)
    if spent.cut:
        if not before:  # once per request
            logs.warn("callgraph.hierarchy_cut", callee=name, lookups=HIERARCHY_LOOKUPS)
        if omitted is not None:
            omitted["hierarchy_cut"] = 1
    return found


def constructed(chosen: Iterable[Hit]) -> list[str]:
    """The module-qualified names of the classes whose constructors ``chosen`` are
    (``pkg.sync_client.Client`` for its ``__init__``: not every ``Client``), when every one
    of ``chosen`` is a constructor (``headers.is_constructor``); else ``[]``."""
    out: list[str] = []
    for hit in chosen:
        p = hit.payload
        language, parent = str(p.get("language") or ""), str(p.get("parent") or "")
        if p.get("kind") != "method" or not headers.is_constructor(str(p.get("name") or ""), parent, language):
            return []
        fq = str(p.get("fq_name") or p.get("qualified_name") or "")
        sep = "::" if language == "cpp" and "::" in fq else "."
        out.append(fq.rpartition(sep)[0] or parent)
    return list(dict.fromkeys(out))


def _called_instance(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    """The ``__call__`` definitions of the class whose module-level instance the dotted
    ``name`` is, directly or through a re-export (``instance_edges`` of its module's chunk):
    pytest's ``pytest.fail`` is ``_pytest.outcomes.fail: _Fail = _Fail()``, whose calls
    ``callers pytest.fail`` answered as 60 name-only calls of the name (a newcomer); ``[]``
    when it is none. A keyword lookup per module read."""
    for _, classes in _instance_classes(store, flt, name):
        for cls in classes:
            found = [h for h in definitions(store, flt, f"{cls}.__call__") if h.payload.get("kind") == "method"]
            if found:
                return found
    return []


def _instance_classes(store: Any, flt: StoreFilter, name: str) -> Iterator[tuple[str, list[str]]]:
    """For ``name`` and each name it may stand for through re-exports (``_unalias``), in
    turn: that name and the classes its module's chunks say it holds (``instance_edges``;
    a function's result too, ``F()``), in edge order. A keyword lookup per name, as asked."""
    for target in [name, *_unalias(store, flt, name)]:
        module = target.rpartition(".")[0]
        yield target, [cls for hit in store.find_any(flt, "fq_name", [module], limit=8,
                                                     fields=("kind", "instance_edges"))
                       if hit.payload.get("kind") == "module"
                       for var, _, cls in (str(e).partition(" ") for e in hit.payload.get("instance_edges") or ())
                       if var == target]


def instance_methods(store: Any, flt: StoreFilter, targets: Iterable[str]) -> dict[str, str]:
    """Call target -> its class's method, for each target ``v.m`` whose ``v`` is a module's
    instance of a class, directly or through a re-export (``instance_edges`` of its
    module's chunk): matplotlib's ``switch_backend`` calls ``backend_registry.
    load_backend_module(..)`` of ``backend_registry = BackendRegistry()``, re-exported by
    ``matplotlib.backends``; ``callees`` showed ``matplotlib.backends.backend_registry.
    load_backend_module``, which ``symbols`` does not know (a newcomer). At most
    ``INSTANCE_TARGETS`` instances; a lookup or two each."""
    out: dict[str, str] = {}
    held: dict[str, str] = {}  # instance -> class ("" when none)
    for target in sorted(set(targets)):
        var, _, method = target.rpartition(".")
        if not var or "." not in var or on_result(target):
            continue
        if var not in held:
            if len(held) >= INSTANCE_TARGETS:
                continue
            held[var] = next((classes[-1] for _, found in _instance_classes(store, flt, var)
                              if (classes := [c for c in found if not c.endswith(RETURNED)])), "")
        if held[var]:
            out[target] = f"{held[var]}.{method}"
    return out


#: Distinct receivers ``instance_methods`` reads for one answer, at most.
INSTANCE_TARGETS = 16


def _callers(store: Any, flt: StoreFilter, name: str, omitted: dict[str, int] | None = None,
             at: tuple[str, str] | None = None, spelled: bool = False) -> list[tuple[Site, str]]:
    """``_calls`` of ``name``; a constructor's (``constructed``) are its class's
    constructions (``callers RetryPolicy.init`` answered 68 other types' ``.init(``,
    ``self.init`` and ``super.init`` and 1 of 15 ``RetryPolicy(..)``; ``MockHandler.
    __construct`` none of 135 ``new MockHandler(..)``: a callers audit) and the calls
    resolved to the constructor itself (Python's ``super().__init__(..)``). A dotted name
    no definition has that is a module's instance of a class is that class's ``__call__``
    (``_called_instance``)."""
    chosen = definitions(store, flt, name)
    if not chosen and "." in name:
        chosen = _called_instance(store, flt, name)
    # ``Parser#parse`` beside a ``def self.parse``: an instance method, which no call on the
    # class reaches (``Parser.parse(..)`` is the other's)
    on_constant = True
    if spelled:
        narrowed = ruby.spelled(name, chosen)
        on_constant = len(narrowed) == len(chosen) or not ruby.instance_spelling(name)
        chosen = narrowed
    if at is not None:
        chosen = [h for h in chosen if (h.payload.get("repo"), h.payload.get("path")) == at] or chosen
    classes = constructed(chosen)
    inheriting = _inheriting_class(store, flt, name, chosen) if classes else ""
    if inheriting:
        # `ConnectionError.__init__` is its base's: the calls are ConnectionError's own
        # constructions, never the base's other callers (requests: each such question
        # answered one unrelated `InvalidJSONError.__init__` site, none of its raises)
        defs = [h for h in definitions(store, flt, inheriting) if h.payload.get("kind") == "class"]
        return [(site, RESOLVED if confidence == NAME_ONLY else confidence)
                for site, confidence in _calls(store, flt, inheriting, defs, omitted)
                if confidence != REFERENCE and (confidence != NAME_ONLY or _chains_to(store, site, [inheriting]))]
    # The constructions first: they are the answer, and the constructor's own name
    # (``__init__``, overridden in every subclass) can spend the whole lookup budget on its
    # hierarchy; asked after it, marshmallow's ``Schema.__init__`` had no caller at all
    # (its hundreds of test subclasses; ``callers Schema`` found the three constructions).
    made: list[tuple[Site, str]] = []
    languages = callable_from(str(h.payload.get("language") or "") for h in chosen)
    for cls in classes:  # the class itself, in a language that can call the constructor
        defs = [h for h in definitions(store, flt, cls) if h.payload.get("kind") != "method"
                and (h.payload.get("fq_name") or h.payload.get("qualified_name")) == cls
                and h.payload.get("language") in languages]
        # a construction calls the constructor; a value naming the class does not
        made += [sc for sc in (_calls(store, flt, cls, defs, omitted) if defs else []) if sc[1] != REFERENCE]
    made += _inherited_constructions(store, flt, chosen, classes)
    found = _calls(store, flt, name, chosen, omitted, on_constant)
    if not classes:
        return _for_inheriting_class(store, flt, name, chosen, found, omitted)
    out = [(site, RESOLVED if confidence == NAME_ONLY else confidence) for site, confidence in found
           if confidence != NAME_ONLY or _chains_to(store, site, classes)]
    # Swift's implicit member `.init(..)` (`refreshWindow: .init(interval: 30)`): of a type
    # the context gives, unknown here, so a candidate as before
    out += [(site, NAME_ONLY) for site, confidence in found
            if confidence == NAME_ONLY and site.hit.payload.get("language") == "swift"
            and _IMPLICIT_INIT.search(site.text) is not None]
    if omitted is not None:  # the name's other calls: other classes' chaining (`super.init`)
        omitted["other_type"] = omitted.get("other_type", 0) + len(found) - len(out)
    out += made
    seen: set[tuple[str, str, int, str]] = set()
    unique = []
    for site, confidence in out:
        key = (str(site.hit.payload.get("repo")), str(site.hit.payload.get("path")), site.line, site.name)
        if key not in seen:
            seen.add(key)
            unique.append((site, confidence))
    return unique


#: Subclasses whose constructions ``_inherited_constructions`` reads at most (a keyword
#: lookup or two each), nearest first by name.
SUBCLASS_CONSTRUCTIONS = 40


def _inherited_constructions(store: Any, flt: StoreFilter, chosen: Sequence[Hit],
                             classes: Sequence[str]) -> list[tuple[Site, str]]:
    """The resolved constructions of the Python subclasses of ``classes`` that inherit the
    constructor ``chosen`` (no ``__init__`` of their own, ``MRO_DEPTH`` levels), as
    ``inherited``: ``raise ConnectionError(..)`` runs ``RequestException.__init__`` (a
    callers audit: 37 such raises were missing from requests' answer)."""
    if not chosen or any(h.payload.get("language") != "python" for h in chosen):
        return []
    method = str(chosen[0].payload.get("name") or "")
    out: list[tuple[Site, str]] = []
    for cls in classes:
        for sub in sorted(_subclasses(store, flt, cls, method))[:SUBCLASS_CONSTRUCTIONS]:
            defs = [h for h in definitions(store, flt, sub) if h.payload.get("kind") == "class"
                    and (h.payload.get("fq_name") or h.payload.get("qualified_name")) == sub]
            out += [(site, INHERITED) for site, confidence in (_calls(store, flt, sub, defs) if defs else [])
                    if confidence == RESOLVED]
    return out


def _for_inheriting_class(store: Any, flt: StoreFilter, name: str, chosen: Sequence[Hit],
                          found: list[tuple[Site, str]], omitted: dict[str, int] | None,
                          ) -> list[tuple[Site, str]]:
    """``found`` (the calls of ``chosen``, methods a base defines) narrowed to the class
    ``name`` asks about when that class only inherits them (``_inheriting_class``): a call
    on another subclass of the base (a sibling, ``inherited`` there) is no call of this
    class's; its own and its subclasses' calls stay, and so do the base's own (a receiver of
    the base's type may be one of it). seaborn's ``callers HueMapping.__call__`` listed 9
    ``StyleMapping`` calls as inherited (a newcomer). Calls resolved to a class between it
    and the base stay (a receiver of that type may be one of it). Unchanged for a class
    that defines the method, or a name of no class."""
    methods = [h for h in chosen if h.payload.get("kind") == "method"]
    # no method, nothing to narrow: `_inheriting_class` reads the owner's definitions (a
    # function's module, through every star import of its package) for nothing
    asked = _inheriting_class(store, flt, name, chosen) if methods else ""
    if not asked:
        return found
    method = name.rpartition(".")[2]
    # its subclasses, and its bases: a call resolved to a base's name may be on one of it
    # (a subclass's own `self.route(..)` names the imported base, flask's `App.route`)
    own = {asked} | _subclasses(store, flt, asked, method) | _ancestors(store, flt, asked)
    held = _held(store, flt, own, True)
    attrs = _of_classes(held)  # as they are, and the functions' results: ``hierarchy``
    allowed = aliases(store, flt, {f"{c}.{method}" for c in own | (held - attrs)}
                      | ({v for v in held - attrs if _instance_name(v)} if method == "__call__" else set()))
    allowed |= {f"{c}.{method}" for c in attrs | _returning(store, flt, own)} | (
        {v for v in attrs if _instance_name(v)} if method == "__call__" else set())
    out = [(site, confidence) for site, confidence in found
           if confidence != INHERITED or site.target in allowed]
    if omitted is not None:
        omitted["other_type"] = omitted.get("other_type", 0) + len(found) - len(out)
    return out


def _inheriting_class(store: Any, flt: StoreFilter, name: str, chosen: Sequence[Hit]) -> str:
    """The module-qualified class ``name`` (``Class.__init__``) asks about when that class
    only inherits the constructor ``chosen`` (defined on a base), else ``""`` (also when
    classes of several module-qualified names answer to it)."""
    owner = name.rpartition(".")[0]
    if not owner or any(_simple(str(h.payload.get("parent") or "")) == _simple(owner) for h in chosen):
        return ""
    # one class, however many files declare it: a stub (`.pyi`) beside its module is the
    # same class (matplotlib's `Line2D`: `callers Line2D.set_visible` listed its siblings'
    # `Text` and `Collection` calls; a newcomer)
    named = {str(h.payload.get("fq_name") or h.payload.get("qualified_name") or "")
             for h in definitions(store, flt, owner) if h.payload.get("kind") == "class"}
    return named.pop() if len(named) == 1 else ""


def _simple(name: str) -> str:
    """The last segment of a type's name (``Polly.Pool``, ``detail::buffer``, ``A\\B``)."""
    return re.split(r"::|\.|\\", name)[-1]


_EXTENSION_METHOD = re.compile(r"\(\s*this\s")


def _related(store: Any, flt: StoreFilter, methods: Sequence[Hit], override: set[str]) -> set[str]:
    """The simple names of the classes of ``methods``, of every class above them (the
    classes of ``override``: ``hierarchy`` walked their bases already), below them (the
    classes whose bases name one, ``MRO_DEPTH`` levels) and beside them (the other bases of
    a class below: a mixin's own object): a receiver declared with any of
    them may run the method; one declared with another type (C#'s ``ICircuitController
    _controller``, Swift's ``let t: URLSessionTask``) does not. Empty (nothing judged)
    when a class is unknown or the lookup budget runs out."""
    names: set[str] = set()
    frontier: set[str] = set()
    if any(_EXTENSION_METHOD.search(str(h.payload.get("signature") or "")) for h in methods):
        return set()  # C#'s `static M(this Builder b)`: called on the type it extends, any
    for hit in methods:
        cls = _method_parts(hit.payload)[0]
        if not cls:
            return set()
        names.add(_simple(cls))
        frontier |= {cls, _simple(cls)}
    tails = _tails(methods)  # `.m` / `::m`: what a class's name is followed by in a target
    names |= {_simple(t[: -len(tail)]) for t in override for tail in tails if t.endswith(tail)}
    seen = set(frontier)
    under: set[str] = set()
    for _ in range(MRO_DEPTH):
        below = _facet(store, flt, "fq_name", "base_targets", frontier) - seen
        if not below:
            break
        seen |= below
        under |= below
        frontier = below | {_simple(b) for b in below}
        names |= {_simple(b) for b in below}
    # the other bases of a class below: a mixin's `self.m()` runs in a class that mixes it
    # in beside the method's class (drf's `CreateModelMixin.create` calls
    # `self.get_serializer()`, `GenericAPIView`'s once `CreateAPIView` combines them: 5
    # such calls were left out as calls on another type)
    names |= {_simple(str(b)) for h in (store.find_any(flt, "fq_name", _paid(under), limit=4 * len(under),
                                                        fields=("base_targets",)) if under else ())
              for b in h.payload.get("base_targets") or ()}
    active = _BUDGET.get()
    return set() if active is not None and active.cut else names


_IMPLICIT_INIT = re.compile(r"(?<![\w)\]?!])\.init\s*\(")
#: A call on the base's constructor: ``super.init(``, ``super().__init__(``, PHP's
#: ``parent::__construct(``.
_BASE_RECEIVER = r"(?:\bsuper\s*(?:\([^()]*\))?\s*\.|\bparent\s*::)\s*"


def _chains_to(store: Any, site: Site, classes: list[str]) -> bool:
    """Whether ``site`` calls its base's constructor (``_BASE_RECEIVER``) from a class
    whose bases as written (``base_targets``) name one of ``classes`` (by its last
    segment): a subclass's ``super.init(retryLimit:)`` is a call of ``RetryPolicy.init``,
    another class's is none. One keyword lookup (the calling class's point)."""
    if re.search(_BASE_RECEIVER + re.escape(site.short) + r"\s*\(", site.text) is None:
        return False
    p = site.hit.payload
    qualified = re.sub(r"\([^()]*\)", "", str(p.get("qualified_name") or ""))
    owner = qualified[: max(qualified.rfind("."), qualified.rfind("::"), 0)]  # its class
    if not owner:
        return False
    simple = {_simple(c) for c in classes}
    for point in store.find_any(StoreFilter(repos=(str(p["repo"]),), path=str(p["path"])), "qualified_name",
                                (owner,), limit=4, fields=("base_targets",)):
        if any(_simple(str(b)) in simple for b in point.payload.get("base_targets") or ()):
            return True
    return False


def _modules_named(store: Any, flt: StoreFilter, module: str) -> tuple[set[str], set[str]]:
    """(languages, repos) of the indexed modules named ``module`` (their module-qualified
    name). One keyword lookup."""
    found = [h.payload for h in store.find(flt, "fq_name", module, limit=FETCH_LIMIT)
             if h.payload.get("kind") == "module"]
    return {str(p.get("language") or "") for p in found}, {str(p.get("repo") or "") for p in found}


def _calls(store: Any, flt: StoreFilter, name: str, chosen: list[Hit],
           omitted: dict[str, int] | None = None, on_constant: bool = True) -> list[tuple[Site, str]]:
    """(site, confidence) of every call ``name`` (whose definitions are ``chosen``) may be
    meant by (order: see ``RANK``).

    ``resolved``: the call's target is one of the named definitions (or an alias of one).
    ``inherited``: its target is ``<subclass>.<method>`` of a subclass (any file or repo,
    through ``base_targets``) that inherits the named method without overriding it.
    ``override``: its target is the same method of a base class the named one overrides
    (the call may dispatch to the override), unless its receiver is exactly that base's
    class (``Site.exact``: gson's ``new JsonReader(..)`` locals' ``skipValue()``).
    ``reference``: no call; a Python value that names the definition (``self.run`` passed
    as ``target=``, a dispatch table's entry), from the points' ``references``.
    ``name_only``: the call's last segment equals ``name``'s and its receiver's type is
    unknown (no target, or an attribute whose type no module states); a bare call
    (``send(...)``) of a Python or JS method's name is no call of it (``RECEIVER_ONLY``:
    counted as on another type, with calls on a literal: ``"".join`` is ``str.join``), nor
    is an unresolved member call (``x.get(..)``) of a Python function's name, nor a member
    call of a Go type's name (a type is called only as a conversion). A call on another
    file's function's result (Go's ``pkg.NewRouter().Mount``) is resolved when the function
    returns the class (``hierarchy``), a candidate when it states no known type. A call
    resolved to anything else (``socket.socket.send`` for ``HTTPAdapter.send``, another
    definition's name whatever its receiver) is left out;
    ``omitted["other_type"]`` counts those when given. When the name means more than
    ``HIERARCHY_MAX_METHODS`` methods (a bare ``get``), no hierarchy is walked and
    such calls are ``name_only`` instead. A ``name_only`` call passing an argument count
    none of the definitions takes (``query/arity``: Go, TypeScript, Python) is left out.
    A Ruby call on a constant (``Rack::Utils.parse_query(..)``, ``MediaType.params(..)``)
    calls that module's or class's own method: resolved when the constant names the
    holder of a Ruby definition of ``chosen`` by its last segments (and ``on_constant``:
    no instance method beside a singleton one of its name), else on another type.
    With no definition in scope, a dotted ``name`` counts as its own target
    (``os.path.join``) and every call of the short name is a ``name_only`` candidate (the
    definition a target names may be out of the caller's scope). The short name is the last
    segment as ``frames.callable_name`` writes it (Rust's ``Deserializer::parse_whitespace``:
    ``parse_whitespace``; its card counted no caller of 30)."""
    short = stack.callable_name(name).rsplit(".", 1)[-1] or name
    wanted = aliases(store, flt, fq_names(chosen)) if chosen else {name}
    methods = [h for h in chosen
               if h.payload.get("kind") == "method" and h.payload.get("language") in HIERARCHY_LANGUAGES]
    # A bare name every other class defines (`get`) would walk hundreds of hierarchies: its
    # calls on other types then stay name-only candidates instead (nothing is left out).
    walked = len(methods) <= HIERARCHY_MAX_METHODS
    extra, inherited, override, holders = hierarchy(store, flt, methods) if walked else (set(), set(), set(), {})
    # ``super().m()`` in a class whose first bases lack ``m`` (scikit-learn's mixins)
    skips = _past_bases(store, flt, holders)
    # the budget spent before the walk ended: a call on a class it did not reach may inherit
    # the method (matplotlib's `self.xaxis.set_visible(..)` of an `XAxis`: 11 real calls of
    # `Artist.set_visible` were left out as on another type; a newcomer)
    active = _BUDGET.get()
    partial = active is not None and active.cut
    wanted |= extra
    inherited -= wanted
    override -= wanted | inherited
    targets = wanted | inherited | override
    # the methods' classes and every class above them, by simple name: the classes whose
    # own object's call of a base's method may run the override
    tails = _tails(methods)
    above = {_simple(t.rpartition(tail)[0]) for t in override | wanted for tail in tails if t.endswith(tail)}
    hits = store.find_any(flt, "call_targets", sorted(targets | set(skips)), limit=FETCH_LIMIT, fields=SITE_FIELDS)
    built = ruby_constructions(chosen)
    # a JS function's other names on its own object (``res.set = res.header = function
    # header(..)``: ``index/resolve.js_chained_aliases``): their unresolved calls are
    # candidates too (express's ``res.header(..)`` on a handler's untyped ``res``)
    # (members only: a module's own re-exports, `export default render`, `export { helper as
    # bar }`, made every untyped `x.default(..)` and `o.bar(..)` a candidate; a review)
    owners_js = ({fq.rpartition(".")[0] for h in chosen if "." in str(h.payload.get("qualified_name", ""))
                  for fq in fq_names([h])}
                 if chosen and all(h.payload.get("language") in _JS_LANGUAGES for h in chosen) else set())
    shorts = {short} | {w.rpartition(".")[2] for w in wanted if w.rpartition(".")[0] in owners_js}
    hits += store.find_any(flt, "calls", sorted(shorts | {name} | built), limit=FETCH_LIMIT, fields=SITE_FIELDS)
    def may_match(s: dict) -> bool:
        written = s["name"]
        return (s.get("target", "") in targets or written == name or written.rsplit(".", 1)[-1] in shorts
                or written in built or s.get("target", "") in skips)

    out = []
    other = 0
    owners = _owners(chosen)
    tails = extension_tails(chosen)
    # a function nested in a function is named only inside it: zod's closure ``_parse.fn``
    # had 17 "callers", every bare call of some parameter called ``fn`` (a member call may
    # be of it: a factory returns its inner functions in an object, ``store.getState()``)
    scopes = _enclosing(store, chosen)
    # a Python or JS method is called on a receiver, never bare: a bare ``send(...)`` (an
    # ASGI app's parameter) calls no ``Client.send``
    receiver_only = bool(chosen) and all(h.payload.get("kind") == "method"
                                         and h.payload.get("language") in RECEIVER_ONLY for h in chosen)
    # a Python function is called bare or through its module, which the file's imports
    # resolve: an unresolved ``x.get(..)`` is a method's (171 of httpx.get's 177 "callers"
    # were dicts' and other objects' ``.get``)
    module_only = bool(chosen) and all(h.payload.get("kind") == "function"
                                       and h.payload.get("language") == "python" for h in chosen)
    # Rust: a free function is never called with method syntax (``path.strip_prefix(..)``
    # is ``str``'s), a method never bare (``route(..)`` is a free function's)
    syntax = _rust_syntax(chosen)
    # a standard library's root the definitions are under is the project's (a module `net`)
    own_roots = {m.group() for n in fq_names(chosen) if (m := _TARGET_ROOT.match(n))}
    # Go: a type is "called" only as a conversion, `chi.Context(x)`, never as a member of a
    # value (`r.Context()` on an `*http.Request`: 54 such rows answered `callers Context`)
    go_type = bool(chosen) and all(h.payload.get("language") == "go"
                                   and h.payload.get("kind") in _GO_TYPE_KINDS for h in chosen)
    # PHP: a static method is called on its class (``RequestException::create(..)``), an
    # object's ``->create(..)`` is an instance method's (40 of 52 such "callers", a newcomer)
    static = bool(chosen) and all(_php_static(h) for h in chosen)
    # a definition's callers are written in a language that can call it (a resolved call is
    # kept whatever its file: its target names the definition)
    callable_in = callable_from(str(h.payload.get("language") or "") for h in chosen) - {""}
    module_repos: set[str] = set()
    if not chosen and "." in name:
        # no definition (a re-export of another package's function, typer's `typer.echo`
        # of click's): the calls are in the languages and the repos of the module its
        # qualifier names, never a shell script's `echo` (a newcomer) nor another repo's
        # `cls.echo(..)` (a review)
        languages, module_repos = _modules_named(store, flt, name.partition(".")[0])
        callable_in = callable_from(languages) - {""}
    related: set[str] | None = None  # the hierarchy's simple names, read at the first typed receiver
    found_sites = sites(hits, may_match)
    # a Rust function's target names the call's own file's function (index/resolve_rust)
    rust_files = _rust_function_files(chosen)
    # a chain of other files' results (mux's `new(Route).Host(..).Subrouter().Path`): the
    # method of the type its steps' declared results reach
    rewritten = chained(store, flt, {s.target for s in found_sites})
    rewritten |= conversions(store, flt, {s.target for s in found_sites if s.hit.payload.get("language") == "go"
                                          and on_result(s.target) and s.target not in rewritten})
    if rewritten:
        found_sites = [replace(s, target=rewritten.get(s.target, s.target)) for s in found_sites]
    untyped: set[str] | None = None  # module values of no stated type, read at the first call on another type
    declared: dict[str, set[str]] | None = None  # attribute receivers' declared classes, read at the first
    elsewhere: set[str] | None = None  # module values of another type, read at the first (a cut walk)
    implemented: set[str] | None = None  # Go interfaces the method's type implements, read at the first
    valued: dict[str, set[str]] = {}  # Go package variables' declared types, read with them

    def interfaces() -> set[str]:
        nonlocal implemented, declared, valued
        if implemented is None:
            implemented = set()
            if any(h.payload.get("language") == "go" for h in methods):
                if declared is None:
                    declared = _attribute_types(store, flt, {s.target.rpartition(".")[0] for s in found_sites
                                                             if s.via and s.target})
                valued = _go_values(store, flt, found_sites, targets)
                implemented = _go_interfaces(store, flt, methods, _receiver_types(found_sites, targets, declared)
                                             | {c for types in valued.values() for c in types})
        return implemented
    overloads = _overload_verdicts(store, flt, chosen, found_sites, wanted)
    rust_typed = rust_receivers.verdicts(store, flt, chosen, found_sites)
    holders = ruby.holders(chosen)
    if holders is not None and not on_constant:
        holders = set()
    for site in found_sites:
        if module_repos and str(site.hit.payload.get("repo") or "") not in module_repos:
            other += 1
            continue
        verdict = overloads.get(id(site))
        if verdict == _ANOTHER_OVERLOAD:
            other += 1
            continue
        if verdict:
            out.append((site, verdict))
            continue
        if (callable_in and site.target not in targets
                and str(site.hit.payload.get("language") or "") not in callable_in
                and not (site.name.startswith("C.") and site.hit.payload.get("language") == "go"
                         and "c" in callable_in)):  # cgo: Go's C.f(..) calls C's f
            other += 1
            continue
        scope = (ruby.constant(str(site.hit.payload.get("language") or ""), site.name)
                 if holders is not None and site.target not in targets else "")
        if scope and site.name not in built:
            if any(h == scope or h.endswith("." + scope) for h in holders):
                out.append((site, RESOLVED))
            else:
                other += 1  # ``MediaType.params(..)``, ``CGI.escape(..)``: another module's
            continue
        if receiver_only and site.target not in targets and _bare(site):
            other += 1
            continue
        if module_only and (not site.target or site.via or on_result(site.target)) and not _bare(site):
            other += 1
            continue
        if go_type and site.target not in targets and not _bare(site):
            other += 1
            continue
        if (chosen and walked and site.target and site.target not in targets  # (no definition: any `get`)
                and standard_library(site.target, str(site.hit.payload.get("language") or ""), own_roots)):
            other += 1
            continue
        if syntax and site.target not in targets and _written_as(site) == _OTHER_SYNTAX[syntax]:
            other += 1
            continue
        if syntax == "method" and site.target not in targets and _module_qualified(site):
            other += 1  # `take::new(..)`: a module's function, no type's
            continue
        if static and site.target not in targets and _on_object(site):
            other += 1
            continue
        reached = _reached(site, skips[site.target]) if site.target in skips and _super_call(site) else ""
        if reached:  # super() past bases without the method (also a base of the method's class)
            out.append((site, reached))
            continue
        if site.target in override and (_super_call(site) or _class_call(site)):
            other += 1  # super().m() / Base.m(self) run the base's m, never an override of it
            continue
        if site.target in override and site.exact:
            other += 1  # on exactly the base's class (`new JsonReader(..)`): no override runs
            continue
        if site.target in override and _own_call_beside(site, above):
            other += 1  # self.m() of a sibling class: its object is never the method's class
            continue
        if scopes and site.target not in targets and _bare(site) and not _inside(site, scopes):
            other += 1
            continue
        judged = rust_typed.get(id(site))  # a Rust receiver of a known type
        if judged == rust_receivers.ELSEWHERE:
            other += 1  # `Bytes::from(..).split_to(..)`: Bytes' own split_to
            continue
        if judged:
            out.append((site, _RUST_VERDICTS[judged]))
            continue
        if site.type and not site.target and walked:
            if related is None:
                related = _related(store, flt, methods, override) if methods else set()
            if related and _simple(site.type) not in related:
                other += 1  # on a receiver declared with a type outside the class's hierarchy
                continue
        if tails and site.target not in targets and _ends_with_any(site.target, tails):
            out.append((site, RESOLVED))  # Moshi's generatedAdapter, on a Moshi
            continue
        if site.target in targets and _rust_elsewhere(site, rust_files):
            other += 1  # the same name's definition in the call's file: `bytes_mut.rs`'s release_shared
        elif site.target in targets:
            out.append((site, RESOLVED if site.target in wanted else
                        INHERITED if site.target in inherited else OVERRIDE))
        elif owners and not site.target and _scoped_elsewhere(site, owners):
            other += 1  # written on another type: Psr7\Utils::modifyRequest(...)
        elif site.via and site.target and chosen and methods and walked and not partial and _declared_elsewhere(
                site.target.rpartition(".")[0],
                declared := declared if declared is not None else _attribute_types(
                    store, flt, {s.target.rpartition(".")[0] for s in found_sites if s.via and s.target}),
                related := related if related is not None else _related(store, flt, methods, override)):
            # an attribute its class's file types with a class outside the method's hierarchy
            # (tornado's `self.request.connection.finish()`, `connection: HTTPConnection`):
            # the call is that class's, listed as a name-only caller of `RequestHandler.finish`
            # -- unless that type is a Go interface the method's type implements
            if declared.get(site.target.rpartition(".")[0], set()) & interfaces():
                out.append((site, OVERRIDE))
            else:
                other += 1
        elif site.target and not site.via and chosen and methods and site.target.rpartition(".")[0] in (
                elsewhere := elsewhere if elsewhere is not None else _values_elsewhere(
                    store, flt, {s.target.rpartition(".")[0] for s in found_sites if s.target and not s.via},
                    {str(h.payload.get("fq_name") or "").rpartition(".")[0] for h in methods},
                    {s.target.rpartition(".")[0] for s in found_sites
                     if s.target and not s.via and s.hit.payload.get("language") == "go"})):
            # a module's value of a class the method's classes are not above (Django's
            # `router = ConnectionRouter()`: 23 `router.allow_migrate_model(..)` calls were
            # name-only callers of `Operation.allow_migrate_model`; a newcomer; gin's
            # `FormPost = formPostBinding{}`, `FormPost.Bind(..)` of `jsonBinding.Bind`),
            # whether or not the walk below them was cut
            other += 1
        elif (not site.target or not chosen or site.via or not walked  # unknown type, or not judged
              or _same_tail(site.target, wanted)):
            out.append((site, NAME_ONLY))
        else:
            if untyped is None:
                others = {s.target for s in found_sites if s.target and s.target not in targets}
                results = {t for t in others if on_result(t)}
                # a target that is another definition's name is a call of that definition,
                # whatever its receiver is (express's `this.set(..)` in `res` methods, resolved
                # to `res.set`, were name-only callers of `app.set`: `res` is a module's value)
                defined = (_facet(store, flt, "fq_name", "fq_name", others - results) if not partial
                           else _defined(store, flt, others - results))
                untyped = (_untyped_receivers(store, flt, others - results - defined)
                           | _unknown_results(store, flt, results)
                           | _untyped_attributes(store, flt, others - results - defined))
            if site.target.rpartition(".")[0] in interfaces():
                out.append((site, OVERRIDE))  # on a Go interface the method's type implements
            elif valued.get(site.target.rpartition(".")[0], set()) & interfaces():
                out.append((site, OVERRIDE))  # on a package variable declared with one (`Form Binding`)
            elif valued.get(site.target.rpartition(".")[0]):
                other += 1  # declared with another interface (`Uri BindingUri` of `BindingUri.Name`)
            elif site.target.rpartition(".")[0] in untyped:
                out.append((site, NAME_ONLY))  # on a module's value or a result of no stated type
            elif partial and site.target not in defined and not site.target.startswith("builtins."):
                out.append((site, NAME_ONLY))  # on a class the cut walk may not have reached
            else:
                other += 1
    if chosen:  # a count none of the definitions takes: another's (`str.match(/re/)`, `Router.match`)
        arities = [arity.taken(h.payload) for h in chosen]
        kept = [(s, c) for s, c in out if c != NAME_ONLY or s.hit.payload.get("language") not in arity.LANGUAGES
                or arity.accepts(arities, s.args)]
        other += len(out) - len(kept)
        out = kept
    unrelated = _unimporting(store, flt, chosen, wanted,
                             {s.hit.payload.get("repo") for s, c in out if c == NAME_ONLY})
    if unrelated:
        kept = [(s, c) for s, c in out if c != NAME_ONLY or s.hit.payload.get("repo") not in unrelated]
        other += len(out) - len(kept)
        out = kept
    if chosen and not all(_python_property(h.payload) for h in chosen):
        # named as a value (a callback, a dispatch table): where it is used, not called;
        # a property's reads are no references (``x.name`` of a typed local names it so)
        named = wanted | inherited
        held = store.find_any(flt, "reference_targets", sorted(named), limit=FETCH_LIMIT, fields=REFERENCE_FIELDS)
        out += [(site, REFERENCE) for site in sites(held, lambda s: s.get("target", "") in named, "references")
                if not _rust_elsewhere(site, rust_files)]
    if omitted is not None:
        omitted["other_type"] = omitted.get("other_type", 0) + other
    return out


_PROPERTY_DECORATOR = re.compile(r"^[ \t]*@(?:[\w.]*\.)?(?:property|cached_property|\w+\.(?:getter|setter|deleter))\b",
                                 re.MULTILINE)


def _python_property(payload: dict) -> bool:
    """Whether a definition is a Python property (a decorator line of its snippet before its
    ``def``: ``@property``, ``@cached_property``, ``@x.setter``)."""
    return (payload.get("language") == "python"
            and bool(_PROPERTY_DECORATOR.search(str(payload.get("snippet", "")).split("def ", 1)[0])))


#: ``_overload_verdicts``'s verdict on a call of another overload of the name.
_ANOTHER_OVERLOAD = "another overload"
#: Classes of call targets whose ancestors ``_overload_verdicts`` reads at most.
OVERLOAD_CLASSES = 16


def _overload_verdicts(store: Any, flt: StoreFilter, chosen: Sequence[Hit], found: Sequence[Site],
                       wanted: set[str]) -> dict[int, str]:
    """Java: ``id(site)`` -> a verdict from the argument count each call writes on its line
    (``parse.text.call_arity``) against the overloads' parameter lists (a target names the
    overloads of ``pkg.C.m`` alike). A call of a count none of the asked method's overloads
    takes is another overload's, whatever its receiver (``_ANOTHER_OVERLOAD``: jsoup's
    ``el.attr("x")`` is ``Node.attr(String)``, which ``Element`` does not declare, not one
    of ``Element.attr``'s 80 resolved callers). A call resolved to a subclass's method
    of the name that none of that class's overloads takes, and the asked method does, is
    the asked one, inherited (``callers Node.attr`` missed 19 such calls; a newcomer).
    Calls whose count is not on their line are not judged. One keyword lookup for the
    subclasses' overloads, and ``_ancestors`` for at most ``OVERLOAD_CLASSES`` classes."""
    java = [h for h in chosen if h.payload.get("language") == "java"
            and h.payload.get("kind") in ("method", "function", "constructor")]
    own = [a for h in java if (a := _arity(h.payload))]
    if not own or len(own) != len(java):
        return {}
    short = str(java[0].payload.get("name", ""))
    counted = {}
    for site in found:
        if site.hit.payload.get("language") == "java" and site.short == short:
            n = tx.call_arity(site.text, short)
            if n is not None:
                counted[id(site)] = (site, n)
    takes = lambda arities, n: any(lo <= n <= hi for lo, hi in arities)  # noqa: E731
    others = sorted({site.target for site, _ in counted.values() if site.target and site.target not in wanted})
    theirs: dict[str, list[tuple[int, float]]] = {}
    if others:
        for h in store.find_any(flt, "fq_name", others, limit=FETCH_LIMIT,
                                fields=("fq_name", "qualified_name", "name", "kind")):
            taken = _arity(h.payload)
            if taken is not None:
                theirs.setdefault(str(h.payload["fq_name"]), []).append(taken)
    classes = {fq.rpartition(".")[0] for fq in fq_names(java)}
    above: set[str] | None = None  # the asked classes' own bases, read once
    between: dict[str, list[tuple[int, float]] | None] = {}  # class -> its in-between overloads
    out: dict[int, str] = {}
    for key, (site, n) in counted.items():
        if not takes(own, n):
            out[key] = _ANOTHER_OVERLOAD  # Java picks an overload by its arguments, whatever the receiver
            continue
        arities = theirs.get(site.target)
        if site.target in wanted or not arities or takes(arities, n):
            continue
        cls = site.target.rpartition(".")[0]
        if cls not in between and len(between) < OVERLOAD_CLASSES:
            ancestors = _ancestors(store, flt, cls)
            if classes & ancestors:
                if above is None:
                    above = set().union(*(_ancestors(store, flt, c) for c in classes))
                # a class between it and the asked one declaring an overload of the count
                # runs instead (`Sub extends Mid extends Base`, Mid's `m(int)`; a review)
                middle = sorted(ancestors - above - classes)
                between[cls] = [a for h in (store.find_any(flt, "fq_name", [f"{m}.{short}" for m in middle],
                                                           limit=FETCH_LIMIT, fields=("qualified_name", "name"))
                                            if middle else [])
                                if (a := _arity(h.payload))]
            else:
                between[cls] = None
        if between.get(cls) is not None and not takes(between[cls] or [], n):
            out[key] = INHERITED
    return out


def _arity(payload: dict) -> tuple[int, float] | None:
    """(fewest, most) arguments a Java method definition takes (``parse.text.java_arity``
    of its payload's qualified name and name)."""
    return tx.java_arity(str(payload.get("qualified_name", "")), str(payload.get("name", "")))


#: Languages where a nested function's name is no name outside its enclosing function
#: (``_enclosing``): not Ruby, whose nested ``def`` defines a method of the class, nor PHP,
#: whose nested ``function`` is global once its parent ran.
_GLOBAL_NESTED = frozenset({"ruby", "php"})
#: Definitions ``_enclosing`` reads the parents of at most (a keyword lookup each).
ENCLOSING_MAX = 20


def _enclosing(store: Any, chosen: Sequence[Hit]) -> list[tuple[str, str, int, int]]:
    """``(repo, path, start_line, end_line)`` of the function each of ``chosen`` is nested
    in, when every one is and none leaves it (``_escapes``; else ``[]``): a bare call of
    its name elsewhere calls something else (``callers`` keeps the bare sites inside,
    member calls and resolved ones). One keyword lookup per
    definition (its parent, in its file), for at most ``ENCLOSING_MAX`` definitions (more:
    ``[]``, nothing left out)."""
    if len(chosen) > ENCLOSING_MAX:
        return []
    out = []
    for hit in chosen:
        payload = hit.payload
        parent = str(payload.get("parent") or "")
        if not parent or payload.get("language") in _GLOBAL_NESTED:
            return []
        owner = next((o.payload for o in store.find(
            StoreFilter(repos=(str(payload["repo"]),), path=str(payload["path"])), "qualified_name", parent, limit=8)
            if o.payload.get("kind") in ("function", "method")), None)
        if owner is None or _escapes(str(payload.get("name") or ""), str(owner.get("embed_text") or "")):
            return []
        out.append((str(payload["repo"]), str(payload["path"]), int(owner["start_line"]), int(owner["end_line"])))
    return out


#: Characters of a parent's embedded text past which ``_escapes`` cannot tell (the text is cut).
ESCAPE_TEXT_CHARS = 1_900


def _escapes(name: str, text: str) -> bool:
    """Whether the nested function ``name`` leaves its parent, whose source is ``text``:
    named there other than by its definition or a call of it (``return log``, ``return
    {login, logout}``, passed as a value: then callers elsewhere may call it by that very
    name: a review's React hook and Python logger factory), or the text is cut, or
    ``name`` is empty. A helper only called inside is not."""
    if not name or len(text) >= ESCAPE_TEXT_CHARS:
        return True
    word = re.escape(name)
    rest = re.sub(rf"\b(?:def|function|fun|func|fn|const|let|var|val)\s+{word}\b|\b{word}\s*(?:\(|=(?!=))", "", text)
    return re.search(rf"(?<![\w$.]){word}\b", rest) is not None


def _inside(site: Site, scopes: list[tuple[str, str, int, int]]) -> bool:
    """Whether ``site`` is within one of ``scopes`` (``_enclosing``)."""
    payload = site.hit.payload
    return any(payload.get("repo") == repo and payload.get("path") == path and start <= site.line <= end
               for repo, path, start, end in scopes)


#: A Kotlin extension function's head: ``fun Moshi.generatedAdapter(``, ``fun <T>
#: List<T>.second(``, ``fun Type?.orNull(``.
_KOTLIN_EXTENSION = re.compile(r"\bfun\s+(?:<[^()]*>\s+)?[\w.]+(?:<[^()]*>)?\??\.`?\w+`?\s*\(")


_RECEIVER_DECORATION = re.compile(r"<[^<>]*>|\?(?=\.)")


def extension_tails(chosen: Iterable[Hit]) -> set[str]:
    """``Receiver.name`` of each Kotlin extension function in ``chosen``: a call on a
    value of the receiver's type resolves to ``<receiver's package>.Receiver.name``, while
    the extension is named under its own file's package (moshi's ``Moshi.generatedAdapter``
    in ``com.squareup.moshi.internal``, called on a ``com.squareup.moshi.Moshi``: both real
    callers were left out as calls on another type)."""
    out = set()
    for hit in chosen:
        payload = hit.payload
        if payload.get("language") == "kotlin" and _KOTLIN_EXTENSION.search(str(payload.get("signature", ""))):
            # a generic or nullable receiver as no call target writes it: List<T>.second, Type?.orBlank
            plain = _RECEIVER_DECORATION.sub("", str(payload["qualified_name"]))
            out.add(".".join(plain.rsplit(".", 2)[-2:]))
    return out


def _ends_with_any(target: str, tails: set[str]) -> bool:
    """Whether ``target`` is one of ``tails`` or ends with one at a ``.``."""
    return bool(target) and any(target == t or target.endswith("." + t) for t in tails)


def ruby_constructions(chosen: Iterable[Hit]) -> set[str]:
    """The calls that construct a Ruby class of ``chosen``, as call sites name them
    (``parse.text.callee``): ``Stream.new``, ``Helpers.Stream.new``, ``Sinatra.Helpers.
    Stream.new`` for ``Sinatra.Helpers.Stream`` (Ruby builds an object with its class's
    ``new``; other languages call the class by its name: ``Stream(..)``, ``new Stream(..)``).
    Empty when ``chosen`` holds no Ruby class."""
    out: set[str] = set()
    for h in chosen:
        if h.payload.get("language") == "ruby" and h.payload.get("kind") == "class":
            parts = str(h.payload.get("qualified_name", "")).split(".")
            out |= {".".join([*parts[k:], "new"]) for k in range(len(parts))}
    return out


def _rust_function_files(chosen: Iterable[Hit]) -> dict[str, set[tuple[str, str]]]:
    """Target -> the (repo, path) of each Rust free function of ``chosen`` so named."""
    out: dict[str, set[tuple[str, str]]] = {}
    for h in chosen:
        p = h.payload
        if p.get("language") == "rust" and p.get("kind") == "function":
            fq = str(p.get("fq_name") or p.get("qualified_name"))
            out.setdefault(fq, set()).add((str(p["repo"]), str(p["path"])))
    return out


def _rust_elsewhere(site: Site, files: Mapping[str, set[tuple[str, str]]]) -> bool:
    """Whether ``site`` is a Rust call or reference of a free function of ``files``
    (``_rust_function_files``) written in another file: a bare ``f()`` resolves to its own
    file's ``f`` (index/resolve_rust), another function of the name. ``callers
    bytes::release_shared`` (``src/bytes.rs``) listed the calls of ``src/bytes_mut.rs``'s
    own ``release_shared``. (A method's ``T::m`` target may name another file's.)"""
    p = site.hit.payload
    where = files.get(site.target)
    return where is not None and p.get("language") == "rust" and (str(p["repo"]), str(p["path"])) not in where


def _rust_syntax(chosen: Sequence[Hit]) -> str:
    """How every definition of ``chosen`` is called when all are Rust's: ``"path"`` for
    free functions (``f(..)``, ``module::f(..)``; ``x.f(..)`` calls a method),
    ``"method"`` for methods (``x.m(..)``, ``Type::m(..)``; a bare ``m(..)`` calls a
    function), else ``""`` (no definition, or another language among them)."""
    kinds = {str(h.payload.get("kind")) for h in chosen if h.payload.get("language") == "rust"}
    if not chosen or len(kinds) != 1 or len(chosen) != sum(1 for h in chosen if h.payload.get("language") == "rust"):
        return ""
    return {"function": "path", "method": "method"}.get(kinds.pop(), "")


_OTHER_SYNTAX = {"path": "method", "method": "path"}
#: ``rust_receivers``' verdicts as confidences: the method's own type (or trait), an
#: impl's trait (the call may dispatch to it), a type running a trait's provided method.
_RUST_VERDICTS = {rust_receivers.OWN: RESOLVED, rust_receivers.DISPATCH: OVERRIDE,
                  rust_receivers.INHERITS: INHERITED}


def _written_as(site: Site) -> str:
    """How ``site``'s line writes the call of its name: ``"path"`` (bare ``f(`` or
    ``a::f(``, a turbofish allowed), ``"method"`` (``.f(``), ``"both"`` when its line has
    both (``a::m(x)`` can call a method too: read as a method's), ``""`` when neither shows
    (a macro's or a split line: not judged)."""
    name = re.escape(site.short)
    call = rf"{name}\s*(?:::\s*<[^()]*>)?\s*\("
    dotted = re.search(rf"\.\s*{call}", site.text) is not None
    bare = re.search(rf"(?<![\w.$#:]){call}", site.text) is not None
    scoped = re.search(rf"::\s*{call}", site.text) is not None
    if dotted:
        return "both" if bare or scoped else "method"
    if scoped:
        return "both"  # ``Type::m(x)`` (a method) or ``module::f(x)`` (a function)
    return "path" if bare else ""


#: Rust's primitive types: lower-case qualifiers that are types, no modules (``u32::from_bytes(..)``
#: of ``impl FromBytes for u32`` was left out as a module's function; a review).
_RUST_PRIMITIVES = frozenset("u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 bool char str".split())


def _module_qualified(site: Site) -> bool:
    """Whether a Rust ``site`` is written on a module's path (``take::new(..)``,
    ``crate::util::f(..)``, ``self::f(..)``): its qualifier, as the call's name and its line
    write it, is a lower-case name, which Rust gives a module, never a type (rustc's
    ``non_camel_case_types``). A module holds functions, so no method of a type is called
    so: bytes' ``take::new(self, limit)`` was a name-only caller of ``Bytes::new``. A
    macro's ``$t::new(..)`` is no such path (its name has no qualifier), nor is a primitive
    type's (``u32::from_bytes(..)``, ``_RUST_PRIMITIVES``)."""
    if site.hit.payload.get("language") != "rust":
        return False
    qualifier = site.name.rpartition(".")[0].rpartition(".")[2]
    if not qualifier[:1].islower() or not qualifier.isidentifier() or qualifier in _RUST_PRIMITIVES:
        return False
    call = rf"(?<![\w$]){re.escape(qualifier)}\s*::\s*{re.escape(site.short)}\s*(?:::\s*<[^()]*>)?\s*\("
    return re.search(call, site.text) is not None


def _php_static(hit: Hit) -> bool:
    """Whether ``hit`` is a PHP static method: ``static`` among the modifiers before
    ``function`` (a return type ``: static`` is a fluent instance method's: a review)."""
    p = hit.payload
    return (p.get("language") == "php" and p.get("kind") == "method"
            and _PHP_STATIC.match(str(p.get("signature", ""))) is not None)


_PHP_STATIC = re.compile(r"\s*(?:\w+\s+)*?static\s+(?:\w+\s+)*?function\b")


def _on_object(site: Site) -> bool:
    """Whether ``site``'s line calls its name on an object only (PHP's ``$f->create(``),
    never on a class (``Foo::create(``)."""
    name = re.escape(site.short)
    return (re.search(rf"->\s*{name}\s*\(", site.text) is not None
            and re.search(rf"::\s*{name}\s*\(", site.text) is None)


def _method_parts(payload: dict) -> tuple[str, str, str]:
    """(class, separator, method) of a method's ``fq_name``: C++'s ``ns::T::m`` splits at
    ``::``, every other at ``.``; the class is ``""`` when the name has no separator."""
    fq = str(payload.get("fq_name") or "")
    sep = "::" if payload.get("language") == "cpp" and "::" in fq else "."
    cls, _, method = fq.rpartition(sep)
    return cls, sep, method


def _tails(methods: Iterable[Hit]) -> set[str]:
    """``.m`` / ``::m``: what each method's class is followed by in a call target."""
    return {sep + method for cls, sep, method in (_method_parts(h.payload) for h in methods) if cls}


def _own_call_beside(site: Site, above: set[str]) -> bool:
    """Whether ``site`` is a method's call on its own object (``self.m(``, ``this.m(``)
    whose class is neither the called method's class nor one above it (``above``, simple
    names): its object is a subclass of the caller's class, so never of the method's.
    werkzeug's ``callers WatchdogReloaderLoop.trigger_reload`` listed the sibling
    ``StatReloaderLoop.run_step``'s ``self.trigger_reload()`` (which runs
    ``ReloaderLoop.trigger_reload``) as an ``override``. A base's own call of the method
    (a template method) stays."""
    p = site.hit.payload
    head, dot, rest = site.name.partition(".")
    if p.get("kind") != "method" or not above or head not in ("self", "this") or not dot or "." in rest:
        return False
    cls = _method_parts(p)[0]
    return bool(cls) and _simple(cls) not in above


def _super_call(site: Site) -> bool:
    """Whether ``site``'s line calls its name on ``super`` (Python's ``super().m(``,
    ``super(C, self).m(``; JS, Java and Kotlin's ``super.m(``): the base class's method
    runs, never an override of it (marshmallow: ``callers Integer._validated`` listed the
    ``super()._validated`` calls of ``Integer``, ``Float`` and ``Decimal``, which all run
    ``Number._validated``)."""
    name = re.escape(site.short)
    return re.search(rf"\bsuper\s*(?:\([^()]*\))?\s*\.\s*{name}\s*\(", site.text) is not None


def _class_call(site: Site) -> bool:
    """Whether ``site`` calls a method on its class by name (Python's ``Base.__init__(self,
    ..)``, a capitalised receiver): that class's method runs, never an override
    (requests' ``CompatJSONDecodeError.__init__(self, ..)`` was an ``override`` caller of
    ``JSONDecodeError.__init__``)."""
    head = site.name.rpartition(".")[0]
    return bool(head) and head.rsplit(".", 1)[-1][:1].isupper() and site.hit.payload.get("language") == "python"


def _bare(site: Site) -> bool:
    """Whether ``site`` calls its name bare (``send(...)``), as its line shows: no receiver
    before it (``new Banner(s).render()`` is named ``render`` too, on a receiver; PHP's
    ``$this->count()`` and ``self::count()`` too, its ``\\count($x)`` none)."""
    if "." in site.name:
        return False
    name = re.escape(site.name)
    php = site.hit.payload.get("language") == "php"
    before, member = (r"[\w.$#>:]", r"(?:\.|->|::)") if php else (r"[\w.$#]", r"\.")
    return bool(re.search(rf"(?<!{before}){name}\s*\(", site.text)) and not re.search(
        rf"{member}\s*{name}\s*\(", site.text)


#: Languages whose methods are called on a receiver only (``self.m()``, ``this.m()``,
#: ``obj.m()``, PHP's ``$this->m()``, ``self::m()``): a bare call of the name is a
#: function's or a variable's (guzzle's ``\\count($x)``: 9 "callers" of ``CookieJar.count``).
RECEIVER_ONLY = frozenset({"python", "javascript", "typescript", "tsx", "jsx", "php"})
#: Scopes a call may name its own class by (``self::m()``, ``static::m()``, Rust's ``Self::m``).
_OWN_SCOPES = frozenset({"self", "static", "parent", "Self", "super", "this", "base"})


def _owners(chosen: Iterable[Hit]) -> set[str]:
    """The simple names of the types the methods of ``chosen`` belong to (``set()`` when
    one is no method: a function may be called under any namespace)."""
    out: set[str] = set()
    for hit in chosen:
        p = hit.payload
        if p.get("kind") != "method":
            return set()
        owner = stack.owner_and_name(stack.callable_name(str(p.get("qualified_name") or "")))[0]
        if not owner:
            return set()
        out.add(owner)
    return out


def _scoped_elsewhere(site: Site, owners: set[str]) -> bool:
    """Whether the call's source line writes it on another type with ``::`` (PHP's
    ``Psr7\\Utils::modifyRequest(``, Rust's ``Value::from(``, C++'s, Ruby's): a type scope
    is a type, whatever the language's resolution knows, and the method's own scope
    (``self::``, ``static::``, its class) is none. A ``.`` or ``->`` names an object."""
    callee = site.name.rpartition(".")[2]
    if not callee or "::" not in site.text:
        return False
    # a turbofish between: Rust's ``MaybeUninit::<Shared>::uninit()`` (a name-only caller of
    # bytes' ``UninitSlice::uninit``)
    m = re.search(r"(?<![\w$])([A-Za-z_]\w*)[ \t]*(?:::[ \t]*<[^()]*?>[ \t]*)?::[ \t]*" + re.escape(callee) + r"\b",
                  site.text)
    scope = m.group(1) if m else ""
    return scope[:1].isupper() and scope not in _OWN_SCOPES and scope not in owners


#: Distinct receivers ``_untyped_receivers`` looks up at most per request (one lookup).
UNTYPED_RECEIVERS_MAX = 256


def _untyped_receivers(store: Any, flt: StoreFilter, targets: set[str]) -> set[str]:
    """The receivers of call ``targets`` (``pkg.mod.parser`` of ``pkg.mod.parser.parse_args``)
    that are a value of an indexed module whose type no definition states: a module-level
    ``parser = to_argparse(options)`` (httpie: every ``parser.parse_args(..)`` was left out as
    a call on another type, and ``HTTPieArgumentParser.parse_args`` answered no real
    caller; a newcomer), an alias constant (``URL = Url``). Their calls are ``name_only``
    candidates, not calls on another type. A receiver that is a definition (a class, a
    module, a function) or in a module the index does not hold (``socket.socket``) is not
    one, nor is a name the module imports (``fw.Flask``, a package's re-export of a class),
    unless what it imports is such a value itself: ky's ``export default ky`` of a ``const ky
    = createInstance()`` (27 ``ky.extend(..)`` calls were left out as another type). At
    most ``UNTYPED_RECEIVERS_MAX`` receivers, two keyword lookups."""
    receivers = sorted({t.rpartition(".")[0] for t in targets if t.count(".") >= 2})[:UNTYPED_RECEIVERS_MAX]
    if not receivers:
        return set()
    modules = {r.rpartition(".")[0] for r in receivers}
    # apart: a Java or Go package's name is the module of every file in it, whose module
    # chunks filled the lookup's limit before the receivers' own points (jsoup's static
    # `TokenQueue.unescape(..)` read as a value of no type: a name-only caller of Entities')
    kinds = {**_kinds(store, flt, modules - set(receivers)), **_kinds(store, flt, set(receivers))}
    nothing: tuple[set[str], dict[str, str]] = (set(), {})

    def imported(module: str) -> dict[str, str]:  # a module's names bound by its imports (re-exports)
        return kinds.get(module, nothing)[1]
    values = {"constant", "variable"}
    held = {r: imported(r.rpartition(".")[0]).get(r.rpartition(".")[2]) for r in receivers}
    bound = {r: [t] for r, t in held.items() if t}
    for r in receivers:  # a star import may bind it (httpx's `from ._models import *`)
        module, _, last = r.rpartition(".")
        if r not in bound and r not in kinds:
            stars = [f"{t}.{last}" for local, t in imported(module).items() if local.startswith("*")]
            if stars:
                bound[r] = stars
    followed = _kinds(store, flt, {t for ts in bound.values() for t in ts}) if bound else {}

    def value(r: str) -> bool:
        if r not in bound:
            return kinds.get(r, (values, {}))[0] <= values
        found = set().union(*(followed.get(t, nothing)[0] for t in bound[r]))
        # bound by an explicit import: a value only if what it binds is one; through star
        # imports: unless one of them binds a definition that is no value
        return (bool(found) and found <= values) if r in held and held[r] else found <= values
    return {r for r in receivers if "module" in kinds.get(r.rpartition(".")[0], nothing)[0] and value(r)}


#: Call targets ``_defined`` reads past a spent lookup budget, at most.
DEFINED_MAX = 4096


def _defined(store: Any, flt: StoreFilter, names: set[str]) -> set[str]:
    """The module-qualified names of ``names`` that a definition has, read whatever the
    request's lookup budget has left (at most ``DEFINED_MAX``, in ``LOOKUP_CHUNK`` values a
    call): past a cut walk, a call of another definition (an override: ``Square.area``) is
    still on another type, and only the rest are ``name_only`` candidates."""
    ordered = sorted(names)[:DEFINED_MAX]
    out: set[str] = set()
    for i in range(0, len(ordered), LOOKUP_CHUNK):
        out |= store.facet_any(flt, "fq_name", "fq_name", ordered[i:i + LOOKUP_CHUNK])
    return out


#: Top-level names no package is known by: a test tree's or a docs tree's modules
#: (``tests.conftest``) are named so in every repository.
_NO_PACKAGE = frozenset({"tests", "test", "testing", "docs", "doc", "examples", "example", "src",
                         "benchmarks", "scripts", "conftest", "setup"})


def _unimporting(store: Any, flt: StoreFilter, chosen: Sequence[Hit], named: set[str],
                 repos: set[Any]) -> set[str]:
    """The repositories of ``repos`` (those of ``name_only`` candidates) other than the
    ``chosen`` Python definitions' own that neither import nor call anything of the
    packages the definitions are named under (their own and their re-exporters',
    ``named``: ``pytest`` for ``_pytest.config.Config``, ``attrs`` for ``attr._make``):
    no import table entry (``export_targets``) and no call target under ``pkg``. A call
    there of the method's name is on a value of another library: matplotlib's generator
    ``tokens.send(..)`` was a candidate caller of django's ``Signal.send``, and counted in
    its card, in a repository that never imports django (a newcomer). A Flask extension
    importing only ``current_app`` still uses flask (a review). The same for JS/TS
    definitions of a named npm package (``_js_packages``): express's ``router.use(..)``
    and ``app.use(..)`` were candidate callers of axios's ``InterceptorManager.use``, 3 of
    the 5 its card showed (a newcomer); a scoped package's scope counts as its name
    (an umbrella package re-exports it so). Empty unless every definition is Python's, or
    every one is JS/TS's of a named package; two facets per such repository (cached by
    the store until it is written)."""
    if not chosen:
        return set()
    if all(h.payload.get("language") in _JS_LANGUAGES for h in chosen):
        # and a scoped package's scope: an umbrella package re-exports it under the scope's
        # name (`acme`'s `export * from '@acme/core'`; vue's `vue` over `@vue/runtime-core`),
        # and an app importing it, or another package of the scope, uses it (a review)
        packages = _js_packages(chosen)
        packages |= {p[1:].split("/", 1)[0] for p in packages if p.startswith("@")}
    elif all(h.payload.get("language") == "python" for h in chosen):
        packages = ({str(h.payload.get("fq_name") or "").split(".")[0] for h in chosen}
                    | {n.split(".", 1)[0] for n in named}) - {""}
        if packages & _NO_PACKAGE:
            return set()
    else:
        return set()
    if not packages:
        return set()
    prefixes = tuple(f"{p}{sep}" for p in packages for sep in "./") + tuple(
        f"{p.split('/', 1)[0]}/" for p in packages if p.startswith("@"))
    own = {h.payload.get("repo") for h in chosen}
    out = set()
    for repo in sorted(r for r in repos - own if r):
        if flt.repo and repo != flt.repo:
            continue
        scope = replace(flt, repo=repo)
        used = (store.facet_any(scope, "export_targets", "repo", [repo])
                | store.facet_any(scope, "call_targets", "repo", [repo]))
        if not any(t in packages or t.startswith(prefixes) for t in used):
            out.add(repo)
    return out


#: Languages whose definitions an npm package specifier names (``_js_packages``).
_JS_LANGUAGES = frozenset({"javascript", "typescript", "jsx", "tsx"})


def _js_packages(chosen: Sequence[Hit]) -> set[str]:
    """The npm packages JS/TS definitions ``chosen`` are published in, from each module
    alias's package specifier (``fq_aliases``: ``axios/lib/core/InterceptorManager.
    InterceptorManager.use`` under ``package.json``'s ``"name": "axios"``): its first path
    segment, two for a scoped package (``@acme/util``). Empty when one of them is in no
    named package: every repo then stays a candidate. An import or call target names the
    package as written (``supertest``, ``axios.default``, ``axios/lib/utils``:
    ``resolve.js_import_table`` keeps package specifiers)."""
    out: set[str] = set()
    for hit in chosen:
        qualified = str(hit.payload.get("qualified_name") or "")
        specs = [a[: -len(qualified) - 1] for a in hit.payload.get("fq_aliases") or ()
                 if qualified and a.endswith(f".{qualified}")]
        if not specs:
            return set()
        for spec in specs:
            parts = spec.split("/")
            out.add("/".join(parts[:2]) if spec.startswith("@") and len(parts) > 1 else parts[0])
    return out


def _attribute_types(store: Any, flt: StoreFilter, receivers: set[str]) -> dict[str, set[str]]:
    """Each of ``receivers`` that is a class's attribute (``pkg.mod.Request.connection``:
    the receiver of a call target its file resolved ``via`` the attribute) -> the classes
    its class's file declares it holds (``instance_edges``); one not declared is absent.
    One facet (none when no receiver is a class's)."""
    owners = {r.rpartition(".")[0] for r in receivers if _owned_by_class(r)}
    if not owners:
        return {}
    return _declared_types(store, flt, owners | {o.rpartition(".")[0] for o in owners}, receivers)


def _declared_types(store: Any, flt: StoreFilter, holders: set[str], names: set[str]) -> dict[str, set[str]]:
    """Each of ``names`` that the points named ``holders`` (a class, its module) declare in
    their ``instance_edges`` (``"<name> <class>"``) -> those classes (``""`` for one of no
    stated class). One facet."""
    out: dict[str, set[str]] = {}
    for edge in _facet(store, flt, "instance_edges", "fq_name", holders):
        name, _, cls = edge.partition(" ")
        if name in names:
            out.setdefault(name, set()).add(cls)
    return out


#: The kinds of a module-level value's type ``_values_elsewhere`` judges (a Go struct's
#: methods are its own and its embedded types', as a class's are its bases').
_VALUE_CLASS_KINDS = frozenset({"class", "struct"})
#: Classes whose bases ``_values_elsewhere`` walks up, per request, and the keyword
#: lookups (values) it may spend doing so.
VALUE_CLASSES = 8
VALUE_LOOKUPS = 400


def _values_elsewhere(store: Any, flt: StoreFilter, receivers: set[str], classes: set[str],
                      go: Collection[str] = ()) -> set[str]:
    """The ``receivers`` that are module-level values (``django.db.router``: a lowercase name
    in a module; any name of ``go``, Go's receivers, whose case says whether it is exported,
    not whether it is a type) their module declares (``instance_edges``) with classes (Go:
    structs) none of ``classes`` is, or is above (``_ancestors``, walked up: a class's bases
    are few where its subclasses, walked down, may be too many): a call on one is another
    type's, whatever the cut walk below ``classes`` missed. Read on a budget of its own
    (``VALUE_LOOKUPS``: the request's may be spent when this is asked), one facet, one kind
    lookup and at most ``VALUE_CLASSES`` upward walks; a value of a class the index does not
    define or that is not walked (a function's result, ``parser = build()``), or anything
    when that budget runs out, is not judged."""
    values = {r for r in receivers if "." in r and not _owned_by_class(r)
              and (r in go or not r.rpartition(".")[2].lstrip("_")[:1].isupper())}
    if not values or not classes:
        return set()
    with budget(Lookups(left=VALUE_LOOKUPS)) as own:
        modules = {v.rpartition(".")[0] for v in values}
        declared = {var: held - {""} for var, held in _declared_types(store, flt, modules, values).items()
                    if held - {""}}
        # a class of the index only: an edge may name a function's result (``parser =
        # build()``) or a class the index does not hold, whose bases are not known
        held = sorted({c for types in declared.values() for c in types})[:VALUE_CLASSES]
        kinds = _kinds(store, flt, set(held)) if held else {}
        unrelated: dict[str, bool] = {}
        for cls in (c for c in held if kinds.get(c, (set(), {}))[0] & _VALUE_CLASS_KINDS):
            unrelated[cls] = cls not in classes and not (classes & _ancestors(store, flt, cls))
    if own.cut:
        return set()
    return {var for var, held in declared.items() if all(unrelated.get(c, False) for c in held)}


def _declared_elsewhere(receiver: str, declared: dict[str, set[str]], related: set[str]) -> bool:
    """Whether the attribute ``receiver`` is declared (``_attribute_types``) with classes all
    outside ``related`` (the simple names of the method's hierarchy, ``_related``; empty:
    nothing judged, so never)."""
    classes = {c for c in declared.get(receiver, ()) if c}
    return bool(related) and bool(classes) and all(_simple(c) not in related for c in classes)


def _untyped_attributes(store: Any, flt: StoreFilter, targets: set[str]) -> set[str]:
    """The receivers of call ``targets`` that are a class's attribute (``pkg.mod.Page.objects``
    of ``pkg.mod.Page.objects.filter``: a capitalised owner, ``_owned_by_class``, and a
    lowercase name) whose type its class's file does not state (``instance_edges``): a
    call on one may be on any type, a ``name_only`` candidate. Django's managers are set by
    a metaclass (``FlatPage.objects.filter(..)``): 1,990 calls of ``QuerySet.filter`` were
    left out as on another type (a newcomer). One facet per ``LOOKUP_CHUNK`` owners (an
    owner the budget does not pay for counts as stating none)."""
    receivers = {t.rpartition(".")[0] for t in targets}
    attributes = {r for r in receivers if _owned_by_class(r) and not r.rpartition(".")[2].lstrip("_")[:1].isupper()}
    if not attributes:
        return set()
    return attributes - set(_attribute_types(store, flt, attributes))


#: Go interfaces ``_go_interfaces`` reads the method sets of, at most (one lookup each).
GO_INTERFACES_MAX = 8


def _receiver_types(found: Sequence[Site], targets: set[str],
                    declared: dict[str, set[str]] | None) -> set[str]:
    """The types the call sites of ``found`` not resolved to ``targets`` are typed with:
    their target's receiver, and an attribute receiver's declared classes (``declared``)."""
    out = set()
    for s in found:
        if s.target and s.target not in targets:
            receiver = s.target.rpartition(".")[0]
            out |= {c for c in (declared or {}).get(receiver, ()) if c} if s.via else {receiver}
    return out


def _go_values(store: Any, flt: StoreFilter, found: Sequence[Site], targets: set[str]) -> dict[str, set[str]]:
    """Each Go package variable a call of ``found`` not resolved to ``targets`` is made on
    (``binding.Form`` of ``binding.Form.Name``) -> the Go interfaces of the index its package
    declares it with (``instance_edges``: ``Form Binding = formBinding{}``); a variable of
    no such interface is absent. One facet and one keyword lookup."""
    values = {s.target.rpartition(".")[0] for s in found if s.target and s.target not in targets and not s.via
              and s.hit.payload.get("language") == "go" and not on_result(s.target)}
    values = {v for v in values if "." in v and "(" not in v}
    declared = _declared_types(store, flt, {v.rpartition(".")[0] for v in values}, values) if values else {}
    types = sorted({t for held in declared.values() for t in held if t})
    interfaces = {str(h.payload.get("fq_name")) for h in store.find_any(
        flt, "fq_name", types, limit=4 * len(types), fields=("fq_name", "kind", "language"))
                  if h.payload.get("kind") == "interface" and h.payload.get("language") == "go"} if types else set()
    return {v: held & interfaces for v, held in declared.items() if held & interfaces}


def _go_interfaces(store: Any, flt: StoreFilter, methods: Sequence[Hit], receivers: set[str]) -> set[str]:
    """The types of ``receivers`` (fq names) that are Go interfaces whose every declared
    method the type of one of the Go ``methods`` defines under the same name: a call on a
    value of one may dispatch to it. gin's ``c.Writer.WriteHeaderNow()`` (``Writer
    ResponseWriter``) was left out of ``responseWriter.WriteHeaderNow``'s callers as another
    type's (a newcomer); hono's calls through an implemented TypeScript interface are
    ``override`` already. Methods a type gets from an embedded struct are not read: such a
    type is left as before. Up to ``GO_INTERFACES_MAX`` interfaces, one lookup each."""
    # a concrete type's methods (`func (w *T) M()`); an interface's own (`M()`, asked) is
    # run through no other interface: a value of that one runs a concrete type's
    go = [h for h in methods if h.payload.get("language") == "go"
          and str(h.payload.get("signature") or "").startswith("func")]
    receivers = {r for r in receivers if "(" not in r}
    if not go or not receivers:
        return set()
    interfaces = [h for h in store.find_any(flt, "fq_name", sorted(receivers), limit=4 * len(receivers),
                                            fields=("fq_name", "kind", "qualified_name", "repo", "language"))
                  if h.payload.get("kind") == "interface" and h.payload.get("language") == "go"]
    owners = {(str(h.payload.get("repo")), unparted(str(h.payload["qualified_name"])).rpartition(".")[0]) for h in go}
    own_sets = {owner: _member_names(store, flt, *owner) for owner in owners}
    names = {str(h.payload.get("name") or "") for h in go}
    out: set[str] = set()
    for iface in interfaces[:GO_INTERFACES_MAX]:
        declared = _member_names(store, flt, str(iface.payload.get("repo")), str(iface.payload["qualified_name"]))
        if declared & names and any(declared <= own for own in own_sets.values()):
            out.add(str(iface.payload.get("fq_name")))
    return out


def _member_names(store: Any, flt: StoreFilter, repo: str, qualified: str) -> set[str]:
    """The names of the methods defined on the type ``qualified`` of ``repo`` (one prefix lookup)."""
    prefix = f"{qualified}."
    # the lookup ignores case: gin's interface `ResponseWriter` and struct `responseWriter`
    # share one lowercased prefix
    return {str(h.payload.get("name") or "") for h in store.find(replace(flt, repo=repo), "qualified_name_lc",
                                                                  prefix.lower(), prefix=True, limit=200)
            if h.payload.get("kind") == "method" and str(h.payload.get("qualified_name", "")).startswith(prefix)
            and "." not in str(h.payload.get("qualified_name", ""))[len(prefix):]}


def _kinds(store: Any, flt: StoreFilter, names: set[str]) -> dict[str, tuple[set[str], dict[str, str]]]:
    """fq name -> (the kinds of the points so named, a module's import table): one keyword lookup."""
    out: dict[str, tuple[set[str], dict[str, str]]] = {}
    for hit in store.find_any(flt, "fq_name", sorted(names), limit=4 * len(names), fields=("fq_name", "kind", "exports")):
        fq, kind = str(hit.payload.get("fq_name", "")), str(hit.payload.get("kind", ""))
        found = out.setdefault(fq, (set(), {}))
        found[0].add(kind)
        if kind == "module":
            found[1].update((str(pair[0]), str(pair[1])) for pair in hit.payload.get("exports") or ())
    return out


def _same_tail(target: str, wanted: set[str]) -> bool:
    """``target`` names one of ``wanted`` under another package root: ``src.steady.steady``
    for ``steady.steady`` (an import written from the repo root of a ``src/`` layout, which
    the layout names without ``src``). Not known to be another definition, so a candidate."""
    return any(target.endswith("." + w) or w.endswith("." + target) for w in wanted if "." in w)


def hierarchy(store: Any, flt: StoreFilter, chosen: Iterable[Hit],
              ) -> tuple[set[str], set[str], set[str], dict[str, tuple[str, str]]]:
    """(resolved, inherited, override, holders) call targets of the methods in ``chosen``
    (``HIERARCHY_LANGUAGES``) beyond their own names: ``v.m`` for a module-level ``v`` of
    the class in any module (``current_app.url_for``: ``instance_edges``); ``S.m`` and
    ``v.m`` for every subclass ``S`` that inherits ``m`` (subclasses of an overriding class
    do not); ``B.m`` for every base ``B`` up the class's bases (not in Go:
    ``NO_OVERRIDE_LANGUAGES``). Each with its re-export aliases. Keyword-index reads only
    (facets over ``base_targets``, ``fq_name``, ``instance_types``), about two per level of
    the hierarchy; nothing for a function. A class attribute's name (``_of_classes``) and a
    function's result (``_returning``, which follows the function's aliases itself) are
    taken as they are, without aliases. ``holders``: each Python class whose ``m`` is a
    method of ``chosen`` (its own class's, ``RESOLVED``; a subclass inheriting it,
    ``INHERITED``) -> (confidence, method name), for ``_past_bases``."""
    holders: dict[str, tuple[str, str]] = {}
    resolved: set[str] = set()
    inherited: set[str] = set()
    override: set[str] = set()
    attributes: tuple[set[str], set[str], set[str]] = (set(), set(), set())  # resolved, inherited, override: no aliases
    for hit in chosen:
        p = hit.payload
        cls, sep, method = _method_parts(p)
        if p.get("kind") != "method" or p.get("language") not in HIERARCHY_LANGUAGES or not cls:
            continue
        below = _subclasses(store, flt, cls, method, sep)
        if p.get("language") == "python":
            holders.update((c, (INHERITED, method)) for c in below)
            holders[cls] = (RESOLVED, method)
        # a class's attribute is every subclass's (Python, Java), also one holding an
        # instance of a subclass of the method's class
        inheriting = p.get("language") in ("python", "java")
        held = _held(store, flt, {cls}, inheriting)
        if p.get("language") == "go":  # a struct's field is a field of every struct embedding it
            held |= _promoted(store, flt, held)
        attrs = _of_classes(held) | _returning(store, flt, {cls})
        attributes[0].update(f"{v}{sep}{method}" for v in attrs)
        resolved |= {f"{v}{sep}{method}" for v in held - attrs}
        held_below = _held(store, flt, below, inheriting)
        attrs_below = _of_classes(held_below) | _returning(store, flt, below)
        attributes[1].update(f"{v}{sep}{method}" for v in attrs_below)
        inherited |= {f"{c}{sep}{method}" for c in below | (held_below - attrs_below)}
        if method == "__call__" and p.get("language") == "python":
            # calling an instance a module or a class attribute holds runs its class's
            # __call__: pytest's `fail(..)` after `from _pytest.outcomes import fail` (`fail:
            # _Fail = _Fail()`), 60 calls no `callers _Fail.__call__` listed; seaborn's
            # `self._hue_map(..)` of a `HueMapping` (newcomers)
            resolved |= {v for v in held if _instance_name(v)}
            inherited |= {v for v in held_below if _instance_name(v)}
        if p.get("language") not in NO_OVERRIDE_LANGUAGES:
            above = _ancestors(store, flt, cls)
            override |= {f"{c}{sep}{method}" for c in above}
            if p.get("language") == "java" and above:
                # a call on another file's method's result of a base's type (`parse(..).copy()`
                # of an `Element parse(..)`) may run this override, as one on a base-typed local
                attributes[2].update(f"{r}{sep}{method}" for r in _returning(store, flt, above))
    return (*((aliases(store, flt, names) if names else set()) | direct
              for names, direct in ((resolved, attributes[0]), (inherited, attributes[1]), (override, attributes[2]))),
            holders)  # type: ignore[return-value]


def _past_bases(store: Any, flt: StoreFilter, holders: Mapping[str, tuple[str, str]],
                ) -> dict[str, dict[str, str]]:
    """The targets a Python ``super().m()`` call is stored under (its class's first written
    base's ``B.m``, ``index/receivers``) that run a method of ``holders`` (``hierarchy``:
    class -> (confidence, ``m``)) -> {the calling class: confidence}. Python's MRO skips a
    base that neither defines nor inherits ``m``: ``class KFold(GroupsMixin, BaseKFold)``'s
    ``super().__init__(..)`` runs ``BaseKFold.__init__`` (scikit-learn lists its mixins
    first; its ``callers _BaseKFold.__init__`` missed KFold's, a newcomer). Each class
    directly below a holder, written after bases that are indexed and reach no ``m``
    (``_reaches``), gives each of those bases' ``B.m``. A base not indexed (another
    package's) may have ``m``: none past it. At most ``MRO_SUBCLASSES`` classes below; two
    keyword reads, and ``_reaches``' per base."""
    if not holders:
        return {}
    names: dict[str, str] = {}  # a holder's names, as base_targets write them -> the holder
    for cls in holders:
        names.update(dict.fromkeys(aliases(store, flt, {cls}), cls))
    below = store.find_any(flt, "base_targets", sorted(names), limit=MRO_SUBCLASSES,
                           fields=("fq_name", "base_targets", "kind", "language"))
    out: dict[str, dict[str, str]] = {}
    for hit in below:
        p = hit.payload
        bases = [str(b) for b in p.get("base_targets") or ()]
        first = next((i for i, b in enumerate(bases) if b in names), 0)
        sub = str(p.get("fq_name") or "")
        if p.get("kind") != "class" or p.get("language") != "python" or not first or not sub:
            continue
        confidence, method = holders[names[bases[first]]]
        for base in bases[:first]:
            if _reaches(store, flt, base, method) is not False:
                break  # runs that base's m (or may: not indexed)
            out.setdefault(f"{base}.{method}", {})[sub] = confidence
    return out


def _reaches(store: Any, flt: StoreFilter, cls: str, method: str) -> bool | None:
    """Whether the class ``cls`` (a module-qualified name, or a name re-exports give it)
    defines or inherits ``method`` from an indexed class (``MRO_DEPTH`` levels of bases);
    ``None`` when no indexed class is so named, or when none has it and a base above is
    another package's (which may: ``threading.Thread.__init__``), ``_NO_METHODS`` aside,
    or when the request's lookup budget is spent (its facets read nothing).
    Kept for the request (``_kept``: a mixin recurs in many classes' bases)."""
    found = _kept(_reaching, store, flt, {f"{cls} {method}"})
    return True if "yes" in found else False if "no" in found else None


def _reaching(store: Any, flt: StoreFilter, names: set[str]) -> set[str]:
    """``_reaches`` of the one ``"class method"`` of ``names``, read from the store:
    ``{"yes"}``, ``{"no"}``, or ``set()`` for no indexed class."""
    cls, method = next(iter(names)).split(" ")
    owners: set[str] = set()
    frontier, unknown = {cls}, False
    for level in range(MRO_DEPTH + 1):
        defined = _facet(store, flt, "fq_name", "fq_name", frontier)
        for name in frontier - defined:  # a re-exported name (``flask.App``): its definition
            found = {str(h.payload.get("fq_name") or "") for h in definitions(store, flt, name)
                     if h.payload.get("kind") == "class"} - {""}
            defined |= found
            # another package's class may have it (``class ThreadMixin(threading.Thread)``:
            # its ``__init__``; a review), past the ones known to have none
            unknown = unknown or (not found and (level == 0 or name not in _NO_METHODS))
        owners |= defined
        frontier = _facet(store, flt, "base_targets", "fq_name", defined) - owners
        if not frontier:
            break
    if level == 0 and not owners:
        return set()  # no indexed class of that name
    if _facet(store, flt, "fq_name", "fq_name", (f"{c}.{method}" for c in owners)):
        return {"yes"}
    active = _BUDGET.get()
    # a spent budget read no base nor method (its facets answered nothing): not known
    return set() if unknown or (active is not None and active.cut) else {"no"}


#: Bases of another package that define no method a subclass calls through ``super()``.
_NO_METHODS = frozenset({"abc.ABC", "typing.Generic", "typing.Protocol", "typing_extensions.Protocol",
                         "builtins.object", "object"})


def super_targets(store: Any, flt: StoreFilter, found: Sequence[Site]) -> dict[str, str]:
    """For the Python ``super().m()`` calls of ``found`` whose stored target (their class's
    first written base's ``B.m``) no indexed class defines or inherits: that target -> the
    ``B.m`` of the first base of the calling class, in written order, that does
    (``_past_bases``' rule, from the caller's side: ``callees KFold.__init__`` named
    ``_UnsupportedGroupCVMixin.__init__``, which does not exist). A base not indexed stops
    the walk; no base reaching ``m`` keeps the target. Keyed by target and calling class
    (``"target@class"``); a few keyword reads per such call."""
    out: dict[str, str] = {}
    for site in found:
        if (site.hit.payload.get("language") != "python" or not site.target or site.via
                or not _super_call(site)):
            continue
        head, _, method = site.target.rpartition(".")
        cls = str(site.hit.payload.get("fq_name") or "").rpartition(".")[0]
        key = f"{site.target}@{cls}"
        if key in out or _reaches(store, flt, head, method) is not False:
            continue
        point = [h for h in store.find(flt, "fq_name", cls, limit=4) if h.payload.get("kind") == "class"]
        bases = [str(b) for b in point[0].payload.get("base_targets") or ()] if point else []
        if head not in bases:
            continue
        for base in bases[bases.index(head) + 1:]:
            reaches = _reaches(store, flt, base, method)
            if reaches is None:
                break
            if reaches:
                out[key] = f"{base}.{method}"
                break
    return out


def super_key(site: Site) -> str:
    """``super_targets``' key of ``site``."""
    return f"{site.target}@{str(site.hit.payload.get('fq_name') or '').rpartition('.')[0]}"


def _reached(site: Site, classes: Mapping[str, str]) -> str:
    """The confidence ``classes`` (``_past_bases``: calling class -> confidence) give the
    ``super()`` call ``site``, when it is written in one of them; else ``""``."""
    caller = str(site.hit.payload.get("fq_name") or "")
    return next((c for cls, c in classes.items() if caller.startswith(cls + ".")), "")


def _of_classes(held: set[str]) -> set[str]:
    """The names of ``held`` (``_held``) that are class attributes, ``pkg.mod.Align.ds``: an
    owner whose last name is capitalised, as ``_heirs`` reads it (a module's is not). A call
    names one as its class's file does (``self.ds.m(..)``; a subclass's, ``_heirs``); no
    module re-exports it, so ``aliases`` need not follow it (xarray's ``callers
    Dataset._replace``: 4,749 class attributes of tests and benchmarks holding a
    ``Dataset`` spent the request's lookup budget on their prefixes, and the answer said
    calls may be missing, though none were; a newcomer)."""
    return {v for v in held if _owned_by_class(v)}


def _owned_by_class(name: str) -> bool:
    """Whether the dotted ``name``'s owner is a class: its last name capitalised, leading
    underscores aside (``pkg.mod.Align.ds``, ``pkg.mod._Box.make``; a module's is not)."""
    return name.rpartition(".")[0].rpartition(".")[2].lstrip("_")[:1].isupper()


#: Go definition kinds that are types (a conversion calls one; no member call does).
_GO_TYPE_KINDS = frozenset({"struct", "interface", "type_alias"})
#: A step naming a result after the first (``F#1()``); JS's private ``#m()`` is none.
_POSITIONED = re.compile(POSITION + r"[0-9]+\(\)")


def _result_field(target: str) -> str:
    """The field of ``target`` when it calls a method on a field of a chain of results
    (``F().Writer.M``: ``Writer``), else ``""``: a field is an identifier, not a Java
    anonymous class a method's result holds (``Adapters.own().<anonymous TypeAdapter<X>>.nullSafe``
    is that class's own method: the merge of Go's fields of results listed it as a name-only
    caller of ``TypeAdapter.nullSafe``, tests/integration/test_anonymous_receiver_callers.py)."""
    receiver = target.rpartition(".")[0]
    chain, _, field_ = receiver.rpartition(".")
    return field_ if chain.endswith(RETURNED) and field_.isidentifier() else ""


#: Steps of a chain of results ``chained`` follows at most (``index/receivers_go._CHAIN_MAX``).
CHAIN_MAX = 8
#: The module a Python test's conftest fixture value is named under (``conftest.runner()``,
#: ``index/receivers.CONFTEST``).
CONFTEST = "conftest"


def _returning(store: Any, flt: StoreFilter, classes: set[str]) -> set[str]:
    """``F()`` for every function or method ``F`` declared to return one of ``classes``
    (payload ``returns``: Go's ``func NewRouter() *Mux``), as a call target's receiver
    writes another file's result (chi's ``m := NewRouter(); m.Mount(..)``: 21 of
    ``Mux.Mount``'s 22 callers were name-only); and ``conftest.N()`` for a Python
    ``conftest.py``'s fixture ``N`` producing one of them (or a name re-exports give it), as
    a test requesting it writes its value (``index/receivers.CONFTEST``: click's ``runner``).
    Two keyword lookups, and the aliases of the functions and of the classes holding the
    methods (``METHOD_OWNERS`` at most; a method's names are its class's: xarray's ~2,000
    methods returning a ``Dataset`` spent the lookup budget on their own prefixes); kept
    for the request (``_kept``)."""
    return _kept(_results_of, store, flt, classes) if classes else set()


def _results_of(store: Any, flt: StoreFilter, classes: set[str]) -> set[str]:
    """``_returning`` of ``classes``, read from the store."""
    out: set[str] = set()
    functions = _facet(store, flt, "fq_name", "returns", aliases(store, flt, classes))
    owned: dict[str, set[str]] = {}
    for fn in functions:
        module, _, leaf = fn.rpartition(".")
        if module.rpartition(".")[2] == CONFTEST:
            out.add(f"{CONFTEST}.{leaf}{RETURNED}")
        elif _owned_by_class(fn):
            owned.setdefault(module, set()).add(leaf)  # a method (its class's last name capitalised)
    owners = sorted(owned, key=lambda o: -len(owned[o]))[:METHOD_OWNERS]
    plain = functions - {f"{o}.{m}" for o in owners for m in owned[o]}
    # a Python caller writes the function as its import does (`from rich import
    # get_console`): every name re-exports give it
    named = aliases(store, flt, plain) if plain else set()
    for owner in owners:
        named |= {f"{name}.{m}" for name in aliases(store, flt, {owner}) for m in owned[owner]}
    return out | {f"{fn}{RETURNED}" for fn in named | _fluent_heirs(store, flt, classes, owned)}


#: Classes whose subclasses ``_fluent_heirs`` reads at most.
FLUENT_OWNERS = 8


def _fluent_heirs(store: Any, flt: StoreFilter, classes: set[str], owned: Mapping[str, set[str]]) -> set[str]:
    """``S.m`` for each method ``m`` of one of ``classes`` declared to return one of them
    (``owned``: class -> such methods) and each class ``S`` below it (``MRO_DEPTH`` levels)
    that does not define ``m`` itself: a subclass inherits the method and its declared
    result, and a caller writes the result of its own class's (hono's ``new
    Hono().basePath('/v1').route(..)`` on ``src/hono.Hono``, whose base declares
    ``basePath(..): Hono``). At most ``FLUENT_OWNERS`` classes; a facet per level."""
    out: set[str] = set()
    for owner in sorted(o for o in owned if o in classes)[:FLUENT_OWNERS]:
        for level in _descend(store, flt, owner, lambda below: below):
            own = _facet(store, flt, "fq_name", "fq_name", (f"{c}.{m}" for c in level for m in owned[owner]))
            out |= {f"{c}.{m}" for c in level for m in owned[owner]} - own
    return out


#: Classes ``_returning`` reads the aliases of, at most, for their methods' names (the
#: classes with the most methods returning the type first); the methods of the others are
#: followed by their own names.
METHOD_OWNERS = 64


#: The first path element of every package of Go's standard library (go1.24's ``go list
#: std``): a call target under one is a standard library type's method.
GO_STANDARD_ROOTS = frozenset("""archive bufio builtin bytes cmp compress container context crypto
database debug embed encoding errors expvar flag fmt go hash html image index io iter log maps math
mime net os path plugin reflect regexp runtime slices sort strconv strings sync syscall testing text
time unicode unique unsafe weak""".split())
#: The same for Python: its standard library's top-level modules (``sys.stdlib_module_names``,
#: the running interpreter's; ``builtins`` among them).
PYTHON_STANDARD_ROOTS = frozenset(sys.stdlib_module_names)
_TARGET_ROOT = re.compile(r"[\w-]+")


def standard_library(target: str, language: str, own: Collection[str]) -> bool:
    """Whether call target ``target`` of a site in ``language`` (Go, Python) is a method of
    a type of the language's standard library, its receiver typed by it (``net/http/
    httptest.NewRecorder().Header().Get``, ``os.CreateTemp().Name``): no project method's
    call, however its name is spelled. gin's ``callers Context.Get`` listed 164 such calls
    as name-only, every one ``http.Header``'s, ``url.Values``' or ``reflect.StructTag``'s (a
    newcomer). ``own``: the roots (``_TARGET_ROOT``) of the asked definitions' qualified
    names, the project's (a Go module named ``net``, a Python package named ``logging``)."""
    roots = GO_STANDARD_ROOTS if language == "go" else PYTHON_STANDARD_ROOTS if language == "python" else ()
    root = _TARGET_ROOT.match(target)
    return bool(roots) and root is not None and "." in target and root.group() in roots and root.group() not in own


def askable(name: str) -> bool:
    """Whether the callers graph can be asked by ``name``, a name the index gave: no dotted
    (or ``::``) segment of it is empty (a JS module under ``.github/`` is named
    ``.github/scripts/notify``, whose lookups split it into an empty module name)."""
    return "" not in name.replace("::", ".").split(".")


def on_result(target: str) -> bool:
    """Whether a call target is a member of another file's function's result (``F().m``),
    whose type the query side reads (``_returning``): an unresolved receiver by itself."""
    return target.rpartition(".")[0].endswith(RETURNED)


def chained(store: Any, flt: StoreFilter, targets: Iterable[str], least: int = 2) -> dict[str, str]:
    """Call target -> the method it calls, for each target whose receiver is a chain of
    ``least`` or more results (``RETURNED``: ``m.Route.Host().Subrouter().Path``, Go's
    ``index/receivers_go``) whose every step's function or method states its result
    (payload ``returns``): ``m.Router.Path`` when ``Route.Host`` returns ``Route`` and
    ``Route.Subrouter`` ``Router``. A chain with a step of no stated result is left out
    (``_unknown_results`` makes it a candidate). mux's ``r.HandleFunc(..).Methods(..)``
    on ``r := NewRouter()``: 51 of ``Route.Methods``'s 57 callers were name-only. A chain
    whose first call is of a definition that is no function (a package variable of func
    type, mux's ``RegexpCompileFunc``) maps to ``""``: it is no declared result, whatever
    the value returns. One keyword lookup per step."""
    steps = {t: t.rpartition(".")[0][: -len(RETURNED)].split(RETURNED + ".") for t in targets
             if on_result(t) and (t.count(RETURNED) >= least or _POSITIONED.search(t))}
    # a field of a result (Go's `c.Writer.M()` of `c, _ := F(w)`): the chain, then the field
    fields = {t: held for t in targets if not on_result(t) and (held := _result_field(t))}
    steps |= {t: t.rpartition(".")[0].rpartition(".")[0][: -len(RETURNED)].split(RETURNED + ".") for t in fields}
    reached = {t: parts[0] for t, parts in steps.items()}  # the function a chain's step calls
    # a Python test's conftest fixture (`conftest.runner()`): the conftest.py fixture of that
    # name, when one alone (or several of one class) states its class
    fixtures = _conftest_fixtures(store, flt, {fn for fn in reached.values() if fn.startswith(CONFTEST + ".")})
    reached = {t: fixtures.get(fn, fn) for t, fn in reached.items()}
    out: dict[str, str] = {}
    for level in range(1, CHAIN_MAX + 1):
        if not reached:
            break
        found = _result_functions(store, flt, _paid(reached.values()))
        following = {}
        for t, fn in reached.items():
            fq = str(found.get(fn, {}).get("returns") or "")
            if level == 1 and found.get(fn, {}).get("kind") not in (None, "function", "method"):
                out[t] = ""
            elif fq and level == len(steps[t]):
                out[t] = f"{fq}.{fields[t]}.{t.rpartition('.')[2]}" if t in fields else f"{fq}.{t.rpartition('.')[2]}"
            elif fq:
                following[t] = f"{fq}.{steps[t][level]}"
        reached = following
    return out


def conversions(store: Any, flt: StoreFilter, targets: Iterable[str]) -> dict[str, str]:
    """Call target -> the method it calls, for each Go target on the value of one call
    (``T().M``, ``RETURNED``) that is a conversion to a type of the index (a struct, an
    interface, a named type): the value is a ``T`` (gin's ``w := ResponseWriter(writer)``
    then ``w.WriteHeaderNow()``, the interface's own method). One keyword lookup."""
    called = {t: t.rpartition(".")[0][: -len(RETURNED)] for t in targets
              if on_result(t) and t.count(RETURNED) == 1 and not _POSITIONED.search(t)}
    if not called:
        return {}
    types = {str(h.payload.get("fq_name", "")) for h in store.find_any(
        flt, "fq_name", sorted(set(called.values())), limit=4 * len(called), fields=("fq_name", "kind"))
             if h.payload.get("kind") in _GO_TYPE_KINDS}
    return {t: f"{fn}.{t.rpartition('.')[2]}" for t, fn in called.items() if fn in types}


def _conftest_fixtures(store: Any, flt: StoreFilter, markers: set[str]) -> dict[str, str]:
    """``conftest.N`` -> the module-qualified name of a ``conftest.py``'s fixture ``N``
    stating the class it produces, when every such fixture of that name produces one class
    (the first of them by name); a name of none or of several classes maps to nothing. One
    keyword lookup."""
    return {m: sorted(f)[0][1] for m, f in _conftest_classes(store, flt, markers).items()
            if len({c for c, _ in f}) == 1}


def _conftest_classes(store: Any, flt: StoreFilter, markers: set[str]) -> dict[str, list[tuple[str, str]]]:
    """``conftest.N`` -> (class, module-qualified name) of every ``conftest.py`` fixture
    ``N`` stating the class it produces (payload ``returns``); a marker of none is absent.
    One keyword lookup (none for no marker)."""
    if not markers:
        return {}
    hits = store.find_any(flt, "name", sorted(m.partition(".")[2] for m in markers), limit=FETCH_LIMIT,
                          fields=("name", "path", "returns", "fq_name"))
    found: dict[str, list[tuple[str, str]]] = {}
    for h in hits:
        p = h.payload
        if str(p.get("path", "")).endswith("conftest.py") and p.get("returns"):
            found.setdefault(f"{CONFTEST}.{p.get('name', '')}", []).append((str(p.get("returns")), str(p.get("fq_name"))))
    return found


#: Functions a request's result receivers name through a re-export (``werkzeug.routing.Map.bind``
#: for ``werkzeug.routing.map.Map.bind``) that ``_result_functions`` follows at most: each
#: costs a keyword lookup per dotted prefix (``reexported``).
REEXPORTED_RESULTS = 32


def _result_functions(store: Any, flt: StoreFilter, functions: Sequence[str]) -> dict[str, dict]:
    """Module-qualified function name -> the payload (``fq_name``, ``returns``, ``kind``) of
    the definition it names, for each of ``functions`` (the ``F`` of ``F()`` receivers): by
    ``fq_name``, else through the re-exports a caller's import wrote it by (werkzeug's
    ``from werkzeug.routing import Map``: ``Map(..).bind(..)`` returns a ``MapAdapter``;
    the lookup by ``fq_name`` alone found nothing, so ``callers Rule.build`` listed 104 calls
    of ``MapAdapter.build`` as name-only candidates, a newcomer). At most
    ``REEXPORTED_RESULTS`` names are followed through re-exports (the shortest first); a
    name of no definition is absent. One keyword lookup, plus those."""
    if not functions:
        return {}
    # `F#1`: result 1 of `F` (Go's `c, r := F(w)`: ``records.POSITION``)
    positions = {fn: fn.rpartition(POSITION) for fn in functions if _POSITIONED.search(fn + RETURNED)}
    plain = {fn for fn in functions if fn not in positions} | {base for base, _, _ in positions.values()}
    found = {str(h.payload.get("fq_name", "")): h.payload
             for h in store.find_any(flt, "fq_name", sorted(plain), limit=4 * len(plain),
                                     fields=("fq_name", "returns", "kind", "results"))}
    for fn, (base, _, at) in positions.items():
        typed = list(found[base].get("results") or ()) if base in found else []
        if at.isdigit() and int(at) < len(typed):
            found[fn] = {"fq_name": fn, "returns": typed[int(at)], "kind": found[base].get("kind")}
        elif base in found:
            found[fn] = {"fq_name": fn, "returns": "", "kind": found[base].get("kind")}
    missing = sorted((fn for fn in functions if fn not in found and "." in fn), key=lambda n: (len(n), n))
    for fn in missing[:REEXPORTED_RESULTS]:
        reached = [h for h in reexported(store, flt, fn) if h.payload.get("kind") in ("function", "method")]
        if not reached and _owned_by_class(fn):
            # a method its class inherits (hono's `new Hono().basePath(..)` of its base's)
            reached = [h for h in inherited_definition(store, flt, fn) if h.payload.get("kind") == "method"]
        if reached:
            found[fn] = reached[0].payload
    return found


def _unknown_results(store: Any, flt: StoreFilter, targets: Iterable[str]) -> set[str]:
    """The ``F()`` receivers among ``targets`` (``RETURNED``) whose function states no
    result type the index knows (an interface, another package's type, no definition in
    scope): a call on one may be on any type, a name-only candidate. One keyword lookup."""
    called = {t.rpartition(".")[0] for t in targets if on_result(t)}
    if not called:
        return set()
    functions = sorted(c[: -len(RETURNED)] for c in called)
    typed = {f"{fn}{RETURNED}" for fn, p in _result_functions(store, flt, functions).items()
             if p.get("returns")}
    # a conftest fixture's value (`conftest.runner()`): typed when a conftest.py's fixture
    # of that name states its class; pytest's own (`tmp_path`) and untyped ones are unknown
    typed |= {f"{marker}{RETURNED}" for marker in _conftest_classes(
        store, flt, {f for f in functions if f.startswith(CONFTEST + ".")})}
    return called - typed


def _instances_of(store: Any, flt: StoreFilter, classes: set[str]) -> set[str]:
    """Module-qualified names of module-level variables of any of ``classes``, or of a
    function's result declared as one (``LOGGER = logging.getLogger(..)`` of a
    ``getLogger() -> SphinxLoggerAdapter``: ``_returning``), as another module imports
    them (sphinx's ``from ._shared import LOGGER``: 75 ``LOGGER.warning(..)`` calls were
    name-only callers of ``SphinxLoggerAdapter.warning``)."""
    if not classes:
        return set()
    # module functions' results only: a method's (xarray's ~2,000 returning a Dataset) would
    # cost a lookup each for what a module seldom binds
    results = {r for r in _returning(store, flt, classes)
               if not _owned_by_class(r[:-len(RETURNED)])}
    names = aliases(store, flt, classes) | results
    edges = _facet(store, flt, "instance_edges", "instance_types", names)
    return {var for var, _, cls in (e.partition(" ") for e in edges) if cls in names}


def _held(store: Any, flt: StoreFilter, classes: set[str], inheriting: bool) -> set[str]:
    """``_instances_of(classes)``, and with ``inheriting`` the same attributes of the
    subclasses of the classes declaring them (``_heirs``)."""
    held = _instances_of(store, flt, classes)
    return held | _heirs(store, flt, held) if inheriting else held


#: Classes whose attributes of a known type ``_heirs`` gives their subclasses at most.
HEIR_CLASSES = 64


def _heirs(store: Any, flt: StoreFilter, held: set[str]) -> set[str]:
    """``S.a`` for each class attribute ``C.a`` of ``held`` (``instance_edges``: declared in
    ``C``'s file, ``self.config: Config = config``) and every class ``S`` below ``C``
    (``MRO_DEPTH`` levels, any file), which inherits it: pytest's ``item.config.getoption(..)``
    on an ``Item`` of ``Node``'s ``config`` was one of ``Config.getoption``'s 14 name-only
    callers (a newcomer). An owner is a class when its last name is capitalised (a module's
    is not); at most ``HEIR_CLASSES`` of them, within the request's lookup budget."""
    owners: dict[str, set[str]] = {}
    for name in held:
        owner, _, attr = name.rpartition(".")
        if owner and owner.rpartition(".")[2][:1].isupper():
            owners.setdefault(owner, set()).add(attr)
    out: set[str] = set()
    for owner in sorted(owners)[:HEIR_CLASSES]:
        for attr in sorted(owners[owner]):
            # a subclass declaring the attribute itself (another type: `config:
            # OtherConfig`, `self.config = OtherConfig()`) is not the base's, nor are its
            # subclasses (a review)
            for kept in _descend(store, flt, owner, lambda below, a=attr: below - _declaring(store, flt, below, a)):
                out |= {f"{c}.{attr}" for c in kept}
    return out


def _instance_name(name: str) -> bool:
    """Whether a dotted ``name`` ends with a value's name (``fail``, ``_hue_map``), not a
    class's (``Pool``)."""
    return name.rpartition(".")[2].lstrip("_")[:1].islower()


def _descend(store: Any, flt: StoreFilter, cls: str, keep: Callable[[set[str]], set[str]]) -> Iterator[set[str]]:
    """The classes below ``cls``, a level at a time (``MRO_DEPTH`` levels, each through
    ``base_targets`` and the names re-exports give the level above): at each level those
    ``keep(level)`` keeps, which the next level is read below."""
    frontier, seen = {cls}, {cls}
    for _ in range(MRO_DEPTH):
        below = _facet(store, flt, "fq_name", "base_targets", aliases(store, flt, frontier)) - seen
        if not below:
            return
        seen |= below
        frontier = keep(below)
        yield frontier


def _declaring(store: Any, flt: StoreFilter, classes: set[str], attr: str) -> set[str]:
    """The classes of ``classes`` whose file types their attribute ``attr`` itself
    (``instance_edges`` of their module's chunk, or of a Java class's own). One facet."""
    edges = _facet(store, flt, "instance_edges", "fq_name", classes | {c.rpartition(".")[0] for c in classes})
    declared = {e.partition(" ")[0] for e in edges}
    return {c for c in classes if f"{c}.{attr}" in declared}


#: Go structs whose embedders ``_promoted`` walks at most (one lookup per struct and level).
PROMOTED_MAX = 8


def _promoted(store: Any, flt: StoreFilter, fields: set[str]) -> set[str]:
    """``E.f`` for each Go struct field ``S.f`` of ``fields`` (``instance_edges`` of a
    struct's ``field_types``) and every struct ``E`` embedding ``S`` (``base_targets``,
    ``MRO_DEPTH`` levels): Go promotes the field (mux's ``r.regexp.setMatch(..)`` on a
    ``Route`` embedding ``routeConf``, whose field ``regexp`` is a ``routeRegexpGroup``). At
    most ``PROMOTED_MAX`` structs; module-level variables have no embedders."""
    out: set[str] = set()
    owners: dict[str, set[str]] = {}
    for name in fields:
        owner, _, field_ = name.rpartition(".")
        owners.setdefault(owner, set()).add(field_)
    for owner in sorted(owners)[:PROMOTED_MAX]:
        frontier, seen = {owner}, {owner}
        for _ in range(MRO_DEPTH):
            frontier = _facet(store, flt, "fq_name", "base_targets", frontier) - seen
            if not frontier:
                break
            seen |= frontier
        out |= {f"{s}.{f}" for s in seen - {owner} for f in owners[owner]}
    return out


def base_classes(store: Any, flt: StoreFilter, payload: dict, depth: int = MRO_DEPTH) -> list[Hit]:
    """The class points above a Python class point (``base_targets``, followed through
    re-exports), depth first left to right, each once: Python's MRO for single and simple
    multiple inheritance (a diamond's shared base comes after its first subclass here)."""
    out: dict[str, Hit] = {}

    def visit(p: dict, level: int) -> None:
        for name in p.get("base_targets") or ():
            if level == 0:
                return
            found = [h for h in definitions(store, flt, name) if h.payload.get("kind") == "class"]
            if found and found[0].id not in out:
                out[found[0].id] = found[0]
                visit(found[0].payload, level - 1)
    visit(payload, depth)
    return list(out.values())


def _subclasses(store: Any, flt: StoreFilter, cls: str, method: str, sep: str = ".") -> set[str]:
    """Classes below ``cls`` (breadth first, ``MRO_DEPTH`` levels) that inherit ``method``."""
    out: set[str] = set()

    def inheriting(below: set[str]) -> set[str]:
        overriding = _facet(store, flt, "fq_name", "fq_name", (f"{c}{sep}{method}" for c in below))
        active = _BUDGET.get()
        if active is not None and active.cut:
            return set()  # which of ``below`` override the method is not known: none counted
        kept = {c for c in below if f"{c}{sep}{method}" not in overriding}
        return kept - _shadowed(store, flt, kept, {cls} | out, method) if sep == "." else kept

    for kept in _descend(store, flt, cls, inheriting):
        out |= kept
    return out


def _shadowed(store: Any, flt: StoreFilter, classes: set[str], holders: set[str], method: str) -> set[str]:
    """The Python classes of ``classes`` (each directly below one of ``holders``, which
    have ``method``) whose bases written before that holder define or inherit ``method``
    (``_reaches``): Python's MRO runs theirs. Django's ``class AutoField(AutoFieldMixin,
    IntegerField)`` runs ``AutoFieldMixin.deconstruct``, and its calls were inherited
    callers of ``Field.deconstruct`` (a newcomer). One keyword read, and ``_reaches``' for
    each such base."""
    if not classes:
        return set()
    names = aliases(store, flt, holders) | holders
    out = set()
    for hit in store.find_any(flt, "fq_name", sorted(classes), limit=4 * len(classes),
                              fields=("fq_name", "base_targets", "kind", "language")):
        p = hit.payload
        bases = [str(b) for b in p.get("base_targets") or ()]
        first = next((i for i, b in enumerate(bases) if b in names), 0)
        if (p.get("kind") == "class" and p.get("language") == "python" and first
                and any(_reaches(store, flt, b, method) for b in bases[:first])):
            out.add(str(p.get("fq_name") or ""))
    return out


def _ancestors(store: Any, flt: StoreFilter, cls: str) -> set[str]:
    """Base classes above ``cls`` (``MRO_DEPTH`` levels), as their classes' module-qualified
    names and as written in ``base_targets`` (a re-exported name is also followed)."""
    out: set[str] = set()
    frontier = {cls}
    for _ in range(MRO_DEPTH):
        above = _facet(store, flt, "base_targets", "fq_name", frontier) - out
        if not above:
            break
        out |= above
        defined = _facet(store, flt, "fq_name", "fq_name", above)
        frontier = set(defined)
        for name in above - defined:  # a re-exported name (``flask.App``): its definition
            frontier |= {h.payload.get("fq_name", "") for h in definitions(store, flt, name)} - {""}
        out |= frontier
    return out
