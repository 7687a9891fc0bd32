"""The resolve stage: tie each call site of a file's chunks to a module-qualified target.

Python, JavaScript/TypeScript, Go and Java, for their simple forms; the language's
``resolver`` (parse/registry.py) picks the hook, other languages pass through with ``module``
empty. Python and JS: a call resolves when its first dotted segment is bound in the file by
an import (``import a.b as c``, ``from x import y as z``, relative imports; ES named and
namespace imports, ``require``; a JS module is named by its path, e.g. ``src/util``), by a
top-level definition of the file itself (functions, classes: ``Client()`` is the class's
constructor call, ``Client.build`` its static method), or is ``self``/``cls``/``this``
inside a class that defines the method. Python also ties ``name.method()`` to
``<Class>.method`` when the module binds ``name = Class(...)`` at top level
(``_default_decoder = JSONDecoder()``), the class named by an import or a top-level class of
the file; a callee counts as a class when the file defines it as one or its name is
CapWords (PEP 8), so ``x = make()`` binds nothing. Python method calls on typed receivers
(locals, parameters, attributes, ``super()``; ``index/receivers.py``) target
``<class>.<method>``, the class's bases and typed module-level names and class attributes
going into the payload (``base_targets``, ``instance_edges``) for the query side; a
function defined inside the caller is its own. JS/TS method calls on typed receivers
(``new C()`` locals, annotated parameters and fields, constructor parameter properties,
``super``; ``index/receivers_js``) likewise, classes carrying their ``extends`` and
``implements`` types as ``base_targets``. Anything else (``obj.method()`` on an
unknown ``obj``, ``f()(x)``) keeps an empty target: only its name is known. The import table is per file,
not per scope: a name imported inside one function counts for the whole file (rarely
wrong, and never across files). Go and Java: see ``_go`` and ``_java``; Kotlin:
``index/resolve_kotlin``; C#, C++, C, Swift, Scala, Ruby and PHP within the file:
``index/resolve_own``.
"""

from __future__ import annotations

import builtins
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from coderecalld.files import classify
from coderecalld.index import resolve_kotlin, resolve_own, resolve_rust
from coderecalld.index.receivers import (ATTRIBUTE, CLASS_OBJECT, EXACT, TYPED, FOR_STATEMENT, PRODUCED, UNKNOWN, Receivers,
                                          file_base, header_bases, nested_definition)
from coderecalld.index.receivers import SUBSCRIPTED, instance
from coderecalld.index.receivers import bases as _bases
from coderecalld.parse import text as tx
from coderecalld.index.receivers_go import GO_BUILTINS as _GO_BUILTINS
from coderecalld.index.receivers_go import SLICE, GoReceivers
from coderecalld.index.receivers_java import JavaReceivers
from coderecalld.index.receivers_js import JsReceivers
from coderecalld.parse.registry import resolver_extensions, spec_for
from coderecalld.records import RETURNED, CallSite, Chunk, ParsedFile, Symbol, SymbolKind, unparted

_SELF = {"python": ("self", "cls"), "js": ("this",)}
_JS_SUFFIXES = resolver_extensions("js")
_RAISE = re.compile(r"^[ \t]*raise[ \t]+([A-Za-z_][\w.]*)", re.M)
_THROW = re.compile(r"\bthrow\s+new\s+([A-Za-z_][\w.]*)")
_RAISES_HEADER = re.compile(r"^(\s*)Raises:\s*$", re.M)
#: A triple-quoted string (a Python docstring, with any prefix) and a comment line (``#``,
#: ``//``, ``*`` of a block comment): text, not statements, for ``raises``.
_STRING_BLOCK = re.compile(r'(?s)[rRbBuUfF]{0,2}(?:"""(?:[^\\]|\\.)*?"""|\'\'\'(?:[^\\]|\\.)*?\'\'\')')
_COMMENT_LINE = re.compile(r"^[ \t]*(?:#|//|/?\*).*$", re.M)
_RAISES_ITEM = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(?::|$)")
#: Names that re-raise or are not exception classes.
_NOT_EXCEPTIONS = frozenset({"exc", "e", "err", "error", "ex"})
_GO_RECEIVER = re.compile(r"^func\s*\(\s*(\w+)\s+\*?\s*(\w+)")
#: java.lang classes a wildcard import or the same package never shadow in practice.
_JAVA_LANG = frozenset(
    "Boolean Byte Character Class Double Enum Error Exception Float IllegalArgumentException "
    "IllegalStateException Integer Iterable Long Math NullPointerException Number Object Objects "
    "Override Runnable RuntimeException Short String StringBuilder System Thread Throwable "
    "UnsupportedOperationException Void "
    # Interfaces and classes a typed receiver names (index/receivers_java), not only a call:
    "Appendable AutoCloseable CharSequence ClassLoader Cloneable Comparable Process Record Runtime "
    "StringBuffer ThreadLocal".split())
_JAVA_TYPES = (SymbolKind.CLASS, SymbolKind.INTERFACE, SymbolKind.ENUM)
_JAVA_EXTENDS = re.compile(r"\bextends\s+([\w.]+)")
#: A Java constructor's chaining call, which the parser names after the class it constructs:
#: jsoup's six ``this(..)``/``super(..)`` in ``Element``'s constructors and subclasses were
#: name-only callers of ``Element.Element`` (``--resolved`` dropped them).
_JAVA_CHAINING = re.compile(r"(?<![\w.])(?:this|super)\s*\(")
#: A Java chain's head before a tail call: ``new Foo(..).``, ``Parser.htmlParser().``,
#: ``build().`` (arguments nest one level of parentheses at most).
_JAVA_CHAINED = r"(?<![\w.)\]])(new\s+)?([A-Za-z_][\w.]*)\s*(?:<[^<>()]*>)?\((?:[^()]|\([^()]*\))*\)\s*\.\s*"
#: A Java type declaration's keyword: a nested type, where an enum constant's body has none.
_JAVA_TYPE_HEAD = re.compile(r"\b(?:class|interface|enum|record)\b")
#: An anonymous class's header as the parser signs it (``new TypeAdapter<Class>()``; group
#: 1: the type it extends or implements).
_JAVA_ANONYMOUS = re.compile(r"^new\s+([A-Za-z_][\w.]*)\s*(?:<|\()")
#: A type parameter list, innermost first (``<T extends Connection.Base<T>>``).
_TYPE_ARGUMENTS = re.compile(r"<[^<>]*>")


def _java_extends(signature: str) -> re.Match[str] | None:
    """The ``extends`` clause of a Java class header, its type parameters' bounds aside:
    jsoup's ``class Base<T extends Connection.Base<T>>`` extends nothing (its bound was read
    as its base, and an outer class's method called bare from the nested ``Response``
    resolved to that bound's: ``needsMultipart`` had no callers)."""
    head = signature.split("{", 1)[0]
    for _ in range(4):
        stripped = _TYPE_ARGUMENTS.sub("", head)
        if stripped == head:
            break
        head = stripped
    return _JAVA_EXTENDS.search(head)
_EXTENDS = re.compile(r"\bextends\b")
#: A hook: (site, qualified name of the calling chunk) -> target, ``""`` if unknown.
Target = Callable[[CallSite, str], str]


def chunks(chunk_list: list[Chunk], parsed: ParsedFile, path: str, module: str,
           java_dirs: Mapping[str, frozenset[str]] | None = None,
           module_aliases: tuple[str, ...] = (), rust_crate: str = "") -> list[Chunk]:
    """``chunk_list`` of one file with ``module``, resolved call targets, ``raises`` and,
    on a Python/JS module chunk, ``exports`` (its absolute import table; none for a
    Python stub, ``.pyi``: its imports describe types, not the runtime). A Java file's
    module is its package (``module`` is ignored); ``java_dirs`` maps a directory of the
    repo to the type names its ``.java`` files are named after (same-package and wildcard
    imports); ``module_aliases`` other names of the module (layout.js_aliases);
    ``rust_crate`` the name of a Rust file's crate (layout.rust_crate)."""
    style = spec_for(parsed.language).resolver
    if not style:
        return chunk_list
    if style == "rust":  # within the file; the index names Rust definitions without a module
        lines = _lines(chunk_list)
        target = resolve_rust.calls(parsed, _bare_test(chunk_list), lines, rust_crate)
        value = resolve_rust.references(parsed, lines)
        returned = resolve_rust.results(parsed, lines, rust_crate)
        out = []
        for c in chunk_list:
            owner = "" if c.kind is SymbolKind.MODULE else c.qualified_name
            named = (replace(s, target=value(s, owner)) for s in c.references)
            out.append(replace(c, call_sites=tuple(_site(s, target(s, owner)) for s in c.call_sites),
                               references=tuple(s for s in named if s.target),
                               returns=returned.get(unparted(c.qualified_name), "")))
        return out
    lines = _lines(chunk_list)
    if style == "own":  # within the file; definitions are named without a module
        own = resolve_own.Own(parsed, lines)
        return [replace(c, call_sites=tuple(own.site(s, "" if c.kind is SymbolKind.MODULE else c.qualified_name)
                                            for s in c.call_sites),
                        bases=own.bases.get(c.qualified_name, ()))
                for c in chunk_list]
    if style == "java":
        module = java_package(parsed)
    elif style == "kotlin":
        module = resolve_kotlin.package(lines)
    if not module:
        return chunk_list
    table: dict[str, str] = {}
    aliased: dict[str, str] = {}
    by_name = symbols_of(parsed)
    scopes: dict[str, dict[str, str]] = {}
    if style == "python":
        package = path.endswith("__init__.py")
        # a function's own imports type what it binds from them where no module-level name
        # of their spelling is imported (the module's win: another function's `import x as
        # helper` made the module's `helper()` a call of x), and bind in it alone (`scopes`)
        table = import_table(tuple((name, t) for _, name, t in parsed.local_imports), module, package)
        table.update(import_table(parsed.import_aliases, module, package))
        scopes = local_import_scopes(parsed, by_name, module, package)
        aliased = assigned_aliases(lines, table, parsed, module)
        table.update(aliased)
    elif style == "js":
        table = js_import_table(parsed.import_aliases, path, module)
        aliased = js_chained_aliases(parsed, module)
    instances: dict[str, str] = {}
    supertypes: dict[str, tuple[str, ...]] = {}  # class (qualified name) -> its bases' targets
    top = {s.name for s in parsed.symbols if not s.parent}
    # one reader of the file's receivers for its calls and its value references (Python)
    receivers = Receivers(module, table, by_name, top - parsed.unbound, lines) if style == "python" else None
    go = (GoReceivers(module, {local: t for local, t in parsed.import_aliases if local != "*"}, by_name, lines)
          if style == "go" else None)
    java_fields: dict[str, tuple[tuple[str, str], ...]] = {}  # a Java class's typed fields
    java_returns: dict[str, str] = {}  # a Java method's declared result
    target = _hook(style, parsed, path, module, table, lines, _bare_test(chunk_list), java_dirs or {},
                   instances, supertypes, by_name, receivers, go, java_fields, java_returns)
    # a function's result (``F()``) too: the query side types another file's uses of the
    # name by the function's declared result (``callgraph._instances_of``); a Go package's
    # variables of a known type, for its other files' `X.M()` (``GoReceivers.value_types``)
    typed = (tuple(sorted(instances.items())) if style == "python"
             else go.value_types() if go is not None else ())
    fields = go.field_types() if go is not None else java_fields  # a Go struct's, a Java class's typed fields
    returned = go_returns(parsed, go) if go is not None else java_returns
    if receivers is not None:  # declared results; a conftest's fixtures: the class each produces
        returned = receivers.declared_results()
        if path.rpartition("/")[2] == "conftest.py":
            returned.update(receivers.fixture_classes())
    # A stub's imports describe types, not the runtime: its re-exports are the module's
    # ``.py``'s to say (attrs' `attrs/__init__.pyi` re-exports `attr.asdict` as
    # `attrs.asdict`, the runtime `attr._next_gen.asdict`: two functions merged)
    stub = classify.declaration_file(path) and style == "python"
    value = (_python_reference(module, table, by_name, top, receivers) if receivers is not None
             else _go_reference(module, by_name, target, go) if go is not None else None)
    if receivers is not None:  # a function's `_Segment = Segment`: another name of the class there
        for fn, aliases in receivers.class_aliases().items():
            scopes[fn] = {**aliases, **scopes.get(fn, {})}
    if scopes:
        target = _scoped(target, scopes, by_name)
        value = _scoped(value, scopes, by_name, referable=True) if value is not None else None
    if style == "python":
        target = _own_parameter(target, by_name)
    if style in ("python", "js", "go"):
        target = _on_values(target, lines, module, table)
    out = []
    for c in chunk_list:
        is_module = c.kind is SymbolKind.MODULE
        owner = "" if is_module else c.qualified_name
        called = (c.call_sites if go is None else
                  tuple(s for s in c.call_sites if not s.indexed or _go_instantiation(s, owner, by_name, go)))
        sites = tuple(_site(s, target(s, owner)) for s in called)
        if style == "python" and not is_module:
            sites = _own_object(sites, _enclosing_class(by_name, owner))
        named = tuple(replace(s, target=value(s, owner)) for s in c.references
                      # `s = attrs` at the top level is an alias of it (``assigned_aliases``), no use
                      if not (is_module and aliased and _alias_line(lines.get(s.line, "")))) if value else ()
        bases = (class_bases(c.signature, module, table, top, by_name, c.qualified_name)
                 if style == "python" and c.kind is SymbolKind.CLASS and "#" not in c.qualified_name
                 else supertypes.get(c.qualified_name, ()))
        out.append(replace(c, module=module, call_sites=sites, references=tuple(s for s in named if s.target),
                           raises=() if is_module else raises(c.text),
                           exports=(tuple(sorted({**table, **aliased}.items())) if style == "js" else
                                    tuple(sorted(table.items()))) if is_module and not stub else (),
                           module_aliases=module_aliases, bases=bases,
                           instances=typed if is_module else fields.get(c.qualified_name, ()),
                           returns=returned.get(unparted(c.qualified_name), ""),
                           results=_go_results(go, by_name.get(unparted(c.qualified_name)))))
    return out


def _go_results(receivers: GoReceivers | None, sym: Symbol | None) -> tuple[str, ...]:
    """A Go function's or method's result types by position (``Chunk.results``), else ``()``."""
    if receivers is None or sym is None or sym.kind not in (SymbolKind.FUNCTION, SymbolKind.METHOD):
        return ()
    return receivers.result_types(sym)


def go_returns(parsed: ParsedFile, receivers: GoReceivers) -> dict[str, str]:
    """Qualified name -> the concrete type each Go function and method of the file returns
    first, target-style (``Chunk.returns``); those returning none known are left out."""
    found = ((s.qualified_name, receivers.returns(s)) for s in parsed.symbols
             if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD))
    return {name: fq for name, fq in found if fq and not fq.startswith(SLICE)}


def local_import_scopes(parsed: ParsedFile, symbols: Mapping[str, Symbol], module: str,
                        package: bool) -> dict[str, dict[str, str]]:
    """A Python function's own imports (``ParsedFile.local_imports``) as its import table:
    qualified name of the innermost function holding each -> local name -> absolute
    dotted name (``import_table``)."""
    functions = [s for s in parsed.symbols if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)]
    held: dict[str, list[tuple[str, str]]] = {}
    for line, name, target in parsed.local_imports:
        holders = [f for f in functions if f.start_line <= line <= f.end_line]
        if holders:
            inner = max(holders, key=lambda f: (f.start_line, -f.end_line))
            held.setdefault(inner.qualified_name, []).append((name, target))
    return {fn: import_table(tuple(pairs), module, package) for fn, pairs in held.items()}


#: A Python method's first parameter when named otherwise than ``self``/``cls``
#: (``def info(__self, message)``, ``def f(this, x)``).
_FIRST_PARAMETER = re.compile(r"^(?:async\s+)?def\s+\w+\s*\(\s*([A-Za-z_]\w*)\s*[,:)=]")
_NOT_INSTANCE = ("@staticmethod", "@classmethod")


#: A dot and the spaces after it (`x.  concat(`), read as the dot alone by `_on_values`.
_DOT_SPACE = re.compile(r"\.\s+")


def _on_values(target: Target, lines: Mapping[int, str], module: str, table: Mapping[str, str]) -> Target:
    """``target``, leaving unresolved a call named by its last name alone (``text.callee``)
    that ``target`` reads as the module's own function of that name (``module.name``) or the
    one imported under it (``table``), when its line calls the name only as a method of a
    value no name holds: a call's result (``make().concat(..)``), a subscript
    (``indexes[0].concat(..)``) or an expression (``(a or b).concat(..)``). A bare
    ``concat(..)`` calls that function; a method of the value is another's (xarray's
    ``indexes[0].concat(indexes, ..)`` was a ``resolved`` call of the module's ``concat``
    function and missing from ``Index.concat``'s callers; a newcomer). A method the line's
    value is known to have (``cls(..).shift(..)``: ``Stamp.shift``) keeps its target, and
    so does a line that also calls the name bare; a value reference is no call."""

    def own(site: CallSite, owner: str) -> str:
        found = target(site, owner)
        if (not found or site.reference or "." in site.name
                or found not in (f"{module}.{site.name}", table.get(site.name))):
            return found
        line = _DOT_SPACE.sub(".", lines.get(site.line, ""))
        name = re.escape(site.name)
        if re.search(rf"\.{name}\s*\(", line) and not re.search(rf"(?<![\w.$]){name}\s*\(", line):
            return ""
        return found
    return own


def _own_parameter(target: Target, symbols: Mapping[str, Symbol]) -> Target:
    """``target``, reading a call on a Python method's first parameter as one on ``self``
    when the method names it otherwise (loguru writes ``def info(__self, message, ..)``
    then ``__self._log(..)``, on purpose: 9 of ``Logger._log``'s 10 callers were
    name-only), in the method and in the functions it defines; not in a static method."""

    def first(owner: str) -> str:
        sym = symbols.get(unparted(owner)) if owner else None
        while sym is not None and sym.kind is not SymbolKind.METHOD:
            sym = symbols.get(sym.parent) if sym.parent else None
        if sym is None or any(d.strip().startswith(_NOT_INSTANCE) for d in sym.decorators):
            return ""
        found = _FIRST_PARAMETER.match(sym.signature)
        return found.group(1) if found and found.group(1) not in ("self", "cls") else ""

    def own(site: CallSite, owner: str) -> str:
        head, dot, rest = site.name.partition(".")
        if dot and rest and head == first(owner):
            return target(replace(site, name=f"self.{rest}"), owner)
        return target(site, owner)
    return own


def _scoped(target: Target, scopes: Mapping[str, Mapping[str, str]], symbols: Mapping[str, Symbol],
            referable: bool = False) -> Target:
    """``target``, first asking the imports of the calling function and of the functions
    around it (``local_import_scopes``): ``def main(): from pkg.tasks import run`` makes
    ``run()`` there a call of ``pkg.tasks.run``, not of the module's own ``def run``
    (a flask audit: a test's local ``from blueprintapp import app`` and the file's
    fixture ``def app()``). ``referable``: a value reference, kept when the imported name
    is no UPPER_CASE constant (as ``_python_reference``'s)."""

    def scoped(site: CallSite, owner: str) -> str:
        head, _, rest = site.name.partition(".")
        sym = symbols.get(unparted(owner)) if owner else None
        while sym is not None:
            bound = scopes.get(sym.qualified_name)
            if bound is not None and head in bound:
                if referable and not rest and head.lstrip("_").isupper():
                    return ""
                return ".".join(filter(None, [bound[head], rest]))
            sym = symbols.get(sym.parent) if sym.parent else None
        return target(site, owner)
    return scoped


#: A module-level ``a = b = name`` (Python): every name on the left is another name of the
#: value on the right.
_ALIAS_LINE = re.compile(r"^((?:[A-Za-z_]\w*\s*=\s*)+)([A-Za-z_][\w.]*)\s*(?:#.*)?$")
#: A module-level type variable with a bound (``T_DataArray = TypeVar("T_DataArray",
#: bound="DataArray")``): its bound, group 2, is the class its annotated values are of
#: (xarray's accessors declare ``self._obj: T_DataArray``; their 4 ``self._obj._replace(..)``
#: calls were name-only callers of ``DataArray._replace``; a newcomer). A bound of one
#: class only, bare or quoted: constraints (``TypeVar("T", A, B)``), a union
#: (``bound=Union["Dataset", "DataArray"]``, ``bound="A | B"``) or a subscripted type name
#: no one class (a review: xarray's ``T_DataArrayOrSet`` was read as ``Union``, and the
#: calls on it were left out as another type's).
_TYPEVAR_LINE = re.compile(r"""^([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*(?:typing\.|typing_extensions\.)?TypeVar\(\s*["']\w+["']"""
                           r"""(?=.*\bbound\s*=\s*(?P<q>["']?)(?P<bound>[A-Za-z_][\w.]*)(?P=q)\s*[,)])""")


def assigned_aliases(lines: Mapping[int, str], table: Mapping[str, str], parsed: ParsedFile,
                     module: str) -> dict[str, str]:
    """Names a Python module binds at its top level to a function or class it defines or
    imports: ``s = attributes = attrs`` and ``_attrs = attrs`` (attrs), ``URL = Url``
    (marshmallow), and a type variable to its bound (``_TYPEVAR_LINE``): local name -> the
    value's absolute dotted name, as an import would bind it (``import_table``). A call
    through the alias resolves to the definition, and the module's ``exports`` re-export it
    (``attr.s(..)`` is a call of ``attr._make.attrs``: 366 such calls were no callers of
    it; a type variable another module imports is its bound there too, through the
    export). A name bound again later, or to anything else (a call, a literal, a name of
    unknown value), is no alias."""
    defined = {s.name: s for s in parsed.symbols if not s.parent and s.kind in _REFERABLE}
    out: dict[str, str] = {}
    bound: dict[str, int] = {}
    for no in sorted(lines):
        line = lines[no]
        if not line[:1].isalpha() and not line.startswith("_"):
            continue  # indented (a block's), blank, a comment or a decorator
        found = _ALIAS_LINE.match(line.rstrip())
        names = [n.strip() for n in found.group(1).split("=") if n.strip()] if found else []
        value = found.group(2) if found else ""
        typevar = _TYPEVAR_LINE.match(line) if not found else None
        if typevar:
            names, value = [typevar.group(1)], typevar.group("bound")
        head, _, rest = value.partition(".")
        target = (f"{module}.{value}" if value in defined else
                  ".".join(filter(None, [table[head], rest])) if head in table else "")
        for name in names or _assigned(line):
            bound[name] = bound.get(name, 0) + 1
            if target and name != value:
                out[name] = target
    return {name: target for name, target in out.items() if bound[name] == 1}


#: Lines a chained assignment's names may span before the function's own header
#: (``res.set =`` on one line, ``res.header = function header(..) {`` on the next).
CHAINED_SPAN = 3


def js_chained_aliases(parsed: ParsedFile, module: str) -> dict[str, str]:
    """The other names of a JS/TS function a chained assignment binds twice or more
    (``res.set = res.header = function header(..)``, ``exports.a = exports.b = function
    () {..}``: the parser makes one symbol per name), each name -> another's
    module-qualified name, as the module's re-exports (``exports``): ``callers res.set``
    then answers the calls written ``res.header(..)`` too, and the other way (express's
    five ``res.header(..)`` calls were no callers of ``res.set``; a newcomer). Two symbols
    are one function when they end on one line, the second starts at most
    ``CHAINED_SPAN`` lines below the first, and the first's header assigns the second's
    name."""
    functions = [s for s in parsed.symbols if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)]
    by_end: dict[int, list[Symbol]] = {}
    for sym in functions:
        by_end.setdefault(sym.end_line, []).append(sym)
    out: dict[str, str] = {}
    for group in by_end.values():
        for first in group if len(group) > 1 else ():
            for other in group:
                if (other is first or not first.start_line <= other.start_line <= first.start_line + CHAINED_SPAN
                        or not re.search(rf"(?<![\w$.])(?:[\w$]+\.)*{re.escape(other.qualified_name)}\s*=(?!=)",
                                         first.signature)):
                    continue
                out.setdefault(other.qualified_name, f"{module}.{first.qualified_name}")
                out.setdefault(first.qualified_name, f"{module}.{other.qualified_name}")
    return out


def _alias_line(line: str) -> bool:
    """Whether ``line`` is a top-level ``a = b = name`` (``_ALIAS_LINE``)."""
    return bool(line[:1].isalpha() or line.startswith("_")) and bool(_ALIAS_LINE.match(line.rstrip()))


_ASSIGNED = re.compile(r"^([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)")


def _assigned(line: str) -> list[str]:
    """The name a top-level line assigns (``x = ...``, ``x: T = ...``), else none."""
    found = _ASSIGNED.match(line)
    return [found.group(1)] if found else []


def _own_object(sites: tuple[CallSite, ...], cls: str) -> tuple[CallSite, ...]:
    """Python ``sites`` with the receiver type of an unresolved ``self.m()`` / ``cls.m()``
    set to the enclosing class ``cls`` (its simple name): neither it nor a base of this file
    defines ``m``, so ``m`` is an attribute holding a callable, or a method of a class
    mixing it in; ``callers`` of another class's ``m`` then judges it by the hierarchy
    (``query/callgraph._related``): attrs' validators' ``self.validator(inst, attr, value)``,
    an attribute, was a name-only caller of ``_CountingAttr.validator``."""
    if not cls:
        return sites
    simple = cls.rsplit(".", 1)[-1]
    return tuple(replace(s, receiver_type=simple)
                 if not s.target and s.name.count(".") == 1 and s.name.split(".", 1)[0] in ("self", "cls")
                 else s for s in sites)


def symbols_of(parsed: ParsedFile) -> dict[str, Symbol]:
    """A file's symbols by qualified name."""
    return {s.qualified_name: s for s in parsed.symbols}


#: Decorators that make a method an attribute: ``self.url`` passed on reads a value.
_ATTRIBUTE_DECORATORS = re.compile(r"^@(?:\w+\.)*(?:property|cached_property|setter|getter)\b")


def _python_reference(module: str, table: Mapping[str, str], symbols: Mapping[str, Symbol],
                      top: set[str], receivers: Receivers) -> Target:
    """The hook for a Python value reference (``CallSite.reference``): the module-qualified
    function, method or class a name written as a value means, else ``""`` (the site is
    dropped).

    ``self.m`` / ``cls.m``: a method of the enclosing class or a base of this file (not a
    property); a bare ``f``: a function or class nested in the caller, a top-level function
    or class of the file, or an imported name not in UPPER_CASE (``from .handlers import
    on_error``; a constant is no function); ``mod.f`` / ``Class.m`` through an import
    likewise. A class is one as a dispatch table's entry (httpx's ``SUPPORTED_DECODERS =
    {"gzip": GZipDecoder}``: its decoders had no callers, read as dead code). A parameter or
    local of that spelling shadows it (the name is read in the calling function's
    signature and body: requests' ``major, minor, patch = ...`` was a reference of the
    imported ``api.patch``). Anything else (a local's attribute, ``x.y.z`` on an unknown
    object) names no known function. ``receivers``: the file's (the calls' hook reads them
    too)."""

    def function_like(name: str) -> bool:
        bare = name.lstrip("_")
        return bool(bare) and not bare.isupper()

    def method(cls: str, name: str) -> str:
        found = receivers._find_method(cls, name)
        if found is None or any(_ATTRIBUTE_DECORATORS.match(d) for d in found.decorators):
            return ""
        return f"{module}.{found.qualified_name}"

    def typed_method(name: str, attr: str, owner: str, line: int) -> str:
        """``name.attr`` of a local ``name`` of a known class: its method (a class of this
        file: when it defines one), else ``Class.attr`` of another file's class (what it is
        there, the query side's to match); ``""`` when the type is unknown."""
        if not function_like(attr):
            return ""
        fq = instance(receivers.expr_type(name, owner, line))
        if not fq or fq.startswith(ATTRIBUTE) or fq.endswith(PRODUCED):
            return ""
        local = receivers._local_class(fq)
        return method(local, attr) if local else f"{fq}.{attr}"

    def target(site: CallSite, owner: str) -> str:
        head, dot, rest = site.name.partition(".")
        if owner and head not in ("self", "cls") and receivers.binds(head, owner):
            # a local's method of a known class (uvicorn's `server = Server(config)` then
            # `Multiprocess(config, target=server.run, ..)`: `callers Server.run` listed none
            # of the three places handing it to a supervisor or a thread; a newcomer)
            return typed_method(head, rest, owner, site.line) if dot and "." not in rest else ""
        if head in ("self", "cls"):
            cls = receivers.enclosing_class(owner) if owner else ""
            return method(cls, rest) if cls and rest and "." not in rest else ""
        if not dot:
            nested = nested_definition(symbols, owner, head, _REFERABLE) if owner else ""
            if nested:
                return f"{module}.{nested}"
            sym = symbols.get(head)
            if head in top:
                return f"{module}.{head}" if sym is not None and sym.kind in _REFERABLE else ""
            return table[head] if head in table and function_like(head) else ""
        if head in top:  # `Class.method` of this file
            sym = symbols.get(head)
            return (method(head, rest) if sym is not None and sym.kind is SymbolKind.CLASS
                    and "." not in rest else "")
        last = rest.rsplit(".", 1)[-1]
        # `mod.f`, `mod.Class`; on a class (`View.as_view`) a method's lower-case name only
        # (sympy's `S.Half`, a singleton's value, 6,842 times)
        if head in table and function_like(last) and (head[:1].islower() or last[:1].islower()):
            return f"{table[head]}.{rest}"
        return ""
    return target


_FUNCTIONS = (SymbolKind.FUNCTION, SymbolKind.METHOD)
#: Kinds a value reference may name (a module's alias too: its top-level ones).
_REFERABLE = (*_FUNCTIONS, SymbolKind.CLASS)


def _site(site: CallSite, target: str) -> CallSite:
    if target.startswith(TYPED):
        return replace(site, receiver_type=target[len(TYPED):])
    if target.startswith(EXACT):
        return replace(site, target=target[len(EXACT):], exact=True)
    if target.startswith(ATTRIBUTE):
        return replace(site, target=target[len(ATTRIBUTE):], via_attribute=True)
    return replace(site, target=target)


def class_bases(signature: str, module: str, table: Mapping[str, str], top: set[str],
                symbols: Mapping[str, Symbol] | None = None, qualified: str = "") -> tuple[str, ...]:
    """Module-qualified bases of a Python ``class X(A, m.B, metaclass=M)``, in order, through
    the file's own top-level names and its import table, and (a class ``qualified`` defined
    in a function, with ``symbols``) a class the same function defines: tornado's tests
    define ``CurrentUserHandler(RequestHandler)`` and ``WithUserHandler(CurrentUserHandler)``
    in one method, and the second's ``self.finish()`` was left out of ``RequestHandler.finish``'s
    callers as another type's (a newcomer). A class in a class body reads that body's
    classes first (``file_base``). A base bound by none is left out."""
    out = []
    scope = qualified.rpartition(".")[0]
    for base in _bases(signature):
        head, _, rest = base.partition(".")
        # as `self.m()` targets read it (``file_base``): the enclosing class bodies first
        defined = symbols.get(qualified) if symbols else None
        nested = (file_base(symbols, scope, head, defined.start_line if defined else 0)
                  if symbols and scope and not rest else "")
        if nested:
            out.append(f"{module}.{nested}")
        elif head in top:
            out.append(f"{module}.{base}")
        elif head in table:
            out.append(".".join(filter(None, [table[head], rest])))
    return tuple(out)


def _hook(style: str, parsed: ParsedFile, path: str, module: str, table: dict[str, str],
          lines: Mapping[int, str], bare: Callable[[CallSite], bool], java_dirs: Mapping[str, frozenset[str]],
          instances: dict[str, str], supertypes: dict[str, tuple[str, ...]], symbols: dict[str, Symbol],
          receivers: Receivers | None, go: GoReceivers | None = None,
          java_fields: dict[str, tuple[tuple[str, str], ...]] | None = None,
          java_returns: dict[str, str] | None = None) -> Target:
    """The target hook of ``style``; fills ``instances`` (Python's typed module-level names)
    and ``supertypes`` (a Java/JS/Kotlin class's extended and implemented types, a Go
    struct's embedded ones: its ``base_targets``), ``java_fields`` and ``java_returns`` (a
    Java or JS class's typed fields, a method's declared result). ``symbols``: the file's by qualified
    name (``symbols_of``); ``receivers``: Python's receiver types, ``go`` Go's (else ``None``)."""
    if style == "kotlin":
        return resolve_kotlin.Kotlin(parsed, module, symbols, lines, bare, supertypes).target
    if style == "go" and go is not None:
        return _go(parsed, module, symbols, bare, supertypes, go)
    if style == "java":
        return _java(parsed, path, module, symbols, java_dirs, bare, lines, supertypes, java_fields, java_returns)
    untyped = _scripted(parsed, module, table, symbols, _SELF[style], receivers, instances, lines)
    if style != "js":
        return untyped
    typed = JsReceivers(module, table, symbols, lines)
    for s in parsed.symbols:
        if s.kind in _JAVA_TYPES:
            supertypes[s.qualified_name] = tuple(filter(None, map(typed.class_of, header_bases(s.signature))))
    # declared results and a class's typed fields and getters, for another file's chains
    # (``new Hono().basePath(..).route(..)``) and attributes (``c.req.query(..)``)
    if java_returns is not None:
        java_returns.update(typed.declared_results())
    if java_fields is not None:
        java_fields.update(typed.class_fields())
    bound = set(table) | {name.split(".", 1)[0] for name in symbols}

    values = {s.name for s in parsed.symbols if not s.parent and s.kind in (SymbolKind.CONSTANT, SymbolKind.VARIABLE)}

    def target(site: CallSite, owner: str) -> str:
        head = site.name.partition(".")[0]
        if site.chain and "." not in site.name:  # on another call's result: what it declares
            return typed.target(site, owner)
        if owner and head in bound and head != "this" and typed.binds(head, owner):
            # a local or parameter of the calling function shadows the module's name
            # (hono's `const match = (..) => ..; return match(..)` in function `match`)
            return typed.target(site, owner) if "." in site.name else ""
        if owner and "." in site.name and head in values and typed.module_types().get(head, UNKNOWN) != UNKNOWN:
            # a module's value of a known class (`const createdDirs = new Set()`, `export
            # const router = new TrieRouter()`): its class's method, not a member of the value
            return typed.target(site, owner)
        return untyped(site, owner) or typed.target(site, owner) or _js_global(site.name, bound)
    return target


#: A ``for`` clause's targets: a loop statement's or a comprehension's.
_FOR_TARGETS = re.compile(r"\bfor\s+([\w\s,()\[\]*]+?)\s+in\b")


def _loop_bound(name: str, owner: str, line: int, symbols: Mapping[str, Symbol],
                lines: Mapping[int, str], loops: dict[str, frozenset[str]]) -> bool:
    """Whether ``name`` is a loop variable where line ``line`` of function ``owner`` calls
    it: a ``for`` statement of the function (or of one around it) binds it, or a
    comprehension on the call's own line does (``(receiver(..) for receiver in xs)``).
    ``loops``: each function's ``for`` statement targets, read once per function."""
    if any(name in re.findall(r"\w+", m.group(1)) for m in _FOR_TARGETS.finditer(lines.get(line, ""))):
        return True
    sym = symbols.get(owner.split("#", 1)[0])
    while sym is not None and sym.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD):
        if sym.qualified_name not in loops:
            loops[sym.qualified_name] = frozenset(
                target for i in range(sym.start_line, sym.end_line + 1)
                if (m := FOR_STATEMENT.match(lines.get(i, ""))) for target in re.findall(r"\w+", m.group(1)))
        if name in loops[sym.qualified_name]:
            return True
        sym = symbols.get(sym.parent)
    return False


def _this_bindings(source: Mapping[int, str]) -> list[tuple[int, str]]:
    """(line, name) of each ``var self = this;`` (``const that = this``, ``_THIS_BINDING``)
    of a JS file, read once: ``_this_alias`` asks which function holds one."""
    return [(i, found.group(1)) for i, line in source.items()
            if "this" in line and (found := _THIS_BINDING.search(line))]


def _this_alias(bindings: list[tuple[int, str]], symbols: Mapping[str, Symbol], owner: str, name: str) -> bool:
    """Whether JS function ``owner`` binds ``name`` to its ``this`` in its own lines
    (``bindings``: ``_this_bindings``): express's ``res.format`` called ``self.send(..)``
    after one, a name-only caller of ``res.send``."""
    sym = symbols.get(unparted(owner)) if bindings else None
    return sym is not None and any(bound == name and sym.start_line <= i <= sym.end_line for i, bound in bindings)


#: A JS binding of the function's ``this`` to a name closures use (``var self = this``).
_THIS_BINDING = re.compile(r"\b(?:var|let|const)\s+(self|that|_this|me|_self)\s*=\s*this\s*[;,]?\s*$")


def _this_object(symbols: Mapping[str, Symbol], owner: str, holders: set[str]) -> str:
    """What ``this`` is in JS function ``owner`` outside a class: the object a method is
    stored on (``app`` of ``app.enable = function () {..}``, ``View`` of
    ``View.prototype.lookup = function () {..}``), or a constructor function that has
    methods of its own (``function View(name) {..}``); ``""`` otherwise (a nested
    function's ``this`` is its caller's). express's ``this.set(..)`` in 30 ``app`` and
    ``res`` methods resolved to nothing: ``callers app.set --resolved`` had none.
    ``holders``: the parents of the file's methods."""
    sym = symbols.get(unparted(owner))
    if sym is None:
        return ""
    if sym.kind is SymbolKind.METHOD and sym.parent:
        parent = symbols.get(sym.parent)
        return sym.parent if parent is None or parent.kind is SymbolKind.FUNCTION else ""
    if sym.kind is SymbolKind.FUNCTION and not sym.parent:
        return sym.qualified_name if sym.qualified_name in holders else ""
    return ""


#: The ECMAScript and web platform objects a JS/TS call's head may name (``JSON.parse``,
#: ``Object.keys``, ``console.log``): their members are the runtime's, never the
#: repository's same-named function (hono's cookie ``parse`` counted four ``JSON.parse``
#: calls as its callers).
JS_GLOBALS = frozenset({
    "JSON", "Math", "Object", "Array", "Promise", "Reflect", "Number", "String", "Boolean",
    "Symbol", "BigInt", "Date", "RegExp", "Error", "Intl", "Atomics", "Proxy", "Map", "Set",
    "WeakMap", "WeakSet", "ArrayBuffer", "DataView", "Uint8Array", "console", "globalThis",
    "window", "document", "navigator", "crypto", "process", "Buffer", "URL", "URLSearchParams",
    "Response", "Request", "Headers", "performance", "Deno", "Bun"})


def _js_global(name: str, bound: set[str]) -> str:
    """``name`` itself when its head is a runtime global (``JS_GLOBALS``) the file neither
    imports nor defines, and it names a member: the call's target is the runtime's."""
    head, dot, _ = name.partition(".")
    return name if dot and head in JS_GLOBALS and head not in bound else ""


def _lines(chunk_list: list[Chunk]) -> dict[int, str]:
    """Line number -> source text of a file, from its chunks (which cover what was parsed)."""
    lines: dict[int, str] = {}
    for c in chunk_list:
        for i, line in enumerate(c.text.split("\n")):
            lines.setdefault(c.start_line + i, line)
    return lines


def _scripted(parsed: ParsedFile, module: str, table: dict[str, str], symbols: dict[str, Symbol],
              selves: tuple[str, ...], receivers: Receivers | None, instances: dict[str, str],
              source: Mapping[int, str] | None = None) -> Target:
    """The hook for Python (``receivers``: its receiver types) and JS (``None``);
    ``instances`` is filled with the module-level names of a known class (Python): name ->
    class. ``source``: the file's lines (JS: a ``var self = this`` read there)."""
    top = {s.name for s in parsed.symbols if not s.parent} - parsed.unbound
    # a test block named by its title is no function any code calls (`describe('app.route')`)
    callable_symbols = {k: v for k, v in symbols.items() if k not in parsed.titled} if parsed.titled else symbols
    with_instances = receivers is not None
    lines = receivers.lines if receivers is not None else {}
    loops: dict[str, frozenset[str]] = {}  # a function's `for` targets (`_loop_bound`), read once
    # JS names bound to a module as a whole (`var m = require('./m')`), called as a function
    whole_modules = ({local for local, t in parsed.import_aliases if "#" not in t and local in table}
                     if receivers is None else set())
    holders = {s.parent for s in parsed.symbols if s.kind is SymbolKind.METHOD and s.parent}
    starred = any(k.startswith("*") for k in table)  # `from x import *` may bind any name
    this_bindings = _this_bindings(source or {}) if receivers is None else []
    if with_instances:
        instances.update(_instances(parsed, module, table, symbols, top))
    if receivers is not None:
        instances.update(receivers.module_types())  # an annotation says more than `= LocalProxy(...)`
        instances.update(receivers.class_attributes())  # dotted keys: never a call's head

    def target(site: CallSite, owner: str, built_from: bool = True) -> str:
        """``built_from`` False: the call builds a receiver (``_constructed_receiver``),
        never looked for as a method called on another construction of its line (a line
        ``A(x).A(y)`` recursed without end: the standard library has one)."""
        head, dot, _ = site.name.partition(".")
        # A name typed in the calling function shadows a module-level name of the same
        # spelling; an imported or top-level head (``os.path.join``) is not read as a local
        # (rarely rebound, and reading the function's bindings is the stage's main cost).
        # A parameter does shadow them: a pytest test's `app` is its fixture's value, not the
        # module's `def app()` (starlette's `app: Router` calls were left out as another type).
        param = bool(dot and owner and receivers is not None and head not in selves
                     and (head in table or head in top) and receivers.binds(head, owner))
        local = dot and owner and (param or (head not in table and head not in top))
        if local and head in selves:  # `self` is the class's, unless outside one (`self: C`)
            local = receivers is not None and not receivers.enclosing_class(owner)
        typed = receivers.name_type(head, owner, site.line) if receivers and local else ""
        if typed:
            return receivers.target(site, owner)
        if param:
            return ""  # a parameter of no known type: its receiver is unknown
        if not dot and owner:  # a function defined in the calling one (or one around it)
            nested = nested_definition(symbols, owner, head, (SymbolKind.FUNCTION, SymbolKind.CLASS))
            if nested and nested not in parsed.unbound:  # not an object literal's `delay: () => 0`
                return f"{module}.{nested}"
            if head in top and head not in table and not nested and _loop_bound(head, owner, site.line, symbols, lines, loops):
                # a loop variable of the module function's name is another value: django's
                # `for receiver in sync_receivers: receiver(..)` in `Signal.send` was a
                # resolved caller of the decorator `receiver` (a review). Not a parameter
                # (a pytest test's names its fixture) nor an assignment (`helper =
                # wrap(helper)`): those may be the function itself
                return ""
        if receivers is not None and built_from and not dot and site.line in lines:
            built = _constructed_receiver(lines[site.line], site.name)
            # ``A(x).A(1)``: two calls both named ``A`` on the line, which is which unknown
            cls = target(CallSite(built, site.line), owner, False) if built and built != site.name else ""
            if cls and cls.rpartition(".")[2].lstrip("_")[:1].isupper():
                return receivers.method_target(cls, site.name)  # ``MySchema().load(..)``
            # a chain through a function or method of this file with a return annotation:
            # ``self.root().find()``, whose tail the parser names ``find`` alone
            returned = receivers.call_type(built, owner) if cls and built != site.name else ""
            if returned:
                return receivers.method_target(returned, site.name)
            items = {receivers.subscript_type(held, owner) if not _locally_bound(held, lines[site.line]) else ""
                     for held in _subscripted_receivers(lines[site.line], site.name)}
            if len(items) == 1 and (item := items.pop()):  # ``self.routes[0].matches(..)``, ``routes: list[Route]``
                return receivers.method_target(instance(item), site.name)
        if (with_instances and site.name in _OWN_CLASS and owner and head not in table and head not in top
                and (site.name != "cls" or receivers.class_parameter(owner) or not receivers.binds("cls", owner))):
            # (a method's own `cls = self._wrapper_class or default` is no class of it:
            # structlog's `cls(..)` in an instance method was a construction of its class)
            cls = _enclosing_class(symbols, owner)  # `cls(..)`, `self.__class__(..)`: its class
            if cls:  # (or a subclass: the class's constructor runs either way)
                return f"{module}.{cls}"
        cls = _enclosing_class(symbols, owner) if owner else ""
        if (receivers is not None and not dot and owner and head not in selves
                and (head not in table and head not in top or receivers.is_parameter(head, owner))):
            called = receivers.name_type(head, owner, site.line)  # `ts = TimeStamper(..)`, then `ts(..)`
            if called.startswith(CLASS_OBJECT):  # `t: Type[Arrow]`, then `t(..)`: a construction
                return called[1:]
            if called and called.rpartition(".")[2].lstrip("_")[:1].isupper():
                return receivers.method_target(called, "__call__")
        if (receivers is not None and cls and head in selves and site.name.count(".") == 1
                and f"{cls}.{site.name.partition('.')[2]}" not in symbols
                and receivers.assigned(cls, site.name.partition(".")[2])):
            # `self.app = app`, then `self.app(..)`: the attribute's callable, its class's
            # `__call__` when the class assigns it an instance (`self.stamper = TimeStamper()`)
            held = receivers.attr_type(cls, site.name.partition(".")[2])
            if held.startswith(CLASS_OBJECT):  # arrow's `self.type(..)` of `type: Type[Arrow]`
                return held[1:]
            if held:
                return receivers.method_target(held, "__call__")
            # `self.dispatch = self._dispatch_sync`, then `self.dispatch(..)`: that method
            return receivers.method_alias(cls, site.name.partition(".")[2])
        if receivers is None and not dot and head in whole_modules and head not in top:
            # JS: `var express = require('../')`, then `express()`: a call of what the module
            # exports as a whole, its default (express's 653 calls of `createApplication`)
            return f"{table[head]}.default"
        if (receivers is None and not cls and site.name.count(".") == 1 and owner and head != "this"
                and _this_alias(this_bindings, symbols, owner, head)):
            head = "this"  # `var self = this;` then `self.send(..)` (express's res.format)
        if receivers is None and not cls and head == "this" and site.name.count(".") == 1 and owner:
            own = _this_object(symbols, owner, holders)  # JS: `app.enable = function () { this.set(..) }`
            member = f"{own}.{site.name.partition('.')[2]}"
            if own and member in callable_symbols:
                return f"{module}.{member}"
        if (local and receivers is not None and head in instances
                and (receivers.binds(head, owner) or _comprehension_bound(head, lines.get(site.line, "")))
                and not _declared_global(head, symbols.get(owner.split("#", 1)[0]), lines)):
            # the function's own `b` (a parameter, an assignment, a loop's or a
            # comprehension's variable) is no module-level `b = Box()`: each was a resolved
            # call of `Box.put` (a review of session 37); `global b` makes it the module's
            found = _target(site, module, table, top, callable_symbols, cls, selves,
                            {name: fq for name, fq in instances.items() if name != head})
        else:
            found = _target(site, module, table, top, callable_symbols, cls, selves, instances)
        if found or not receivers or (head in selves and site.name.count(".") == 1):
            return found  # ``self.m()`` the class (and its bases) do not define stays unknown
        if not dot and head in PY_BUILTINS and not starred and head not in table and head not in top and (
                not owner or not receivers.binds(head, owner)):
            # Python's own `print(..)`, `len(..)`: no import, definition or local binds the
            # name, so it is the builtin (rich's 201 bare `print` calls were name-only
            # callers of its `rich.print`, 145 of 166 nodes of an impact tree under it)
            return f"builtins.{head}"
        return receivers.target(site, owner)
    return target


def _declared_global(name: str, fn: Symbol | None, lines: Mapping[int, str]) -> bool:
    """Whether function ``fn`` declares ``global name`` (its assignments are the module's:
    black's ``initialize`` rebinding ``python_grammar_async_keywords``)."""
    if fn is None:
        return False
    pattern = re.compile(rf"^\s*global\s[^#]*\b{re.escape(name)}\b")
    return any(pattern.match(lines.get(i, "")) for i in range(fn.start_line, fn.end_line + 1)
               if "global" in lines.get(i, ""))


def _comprehension_bound(name: str, line: str) -> bool:
    """Whether ``line`` binds ``name`` as a loop's or a comprehension's variable
    (``[b.put() for b in items]``, ``for i, b in pairs``)."""
    return name in line and re.search(rf"\bfor\s+(?:[\w\s,(]*[\s,(])?{re.escape(name)}\b[\w\s,)]*\bin\b", line) is not None


#: Python's builtin names (functions, types, exceptions): a bare call of one no import,
#: definition or local binding of the file shadows is the builtin's.
PY_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_")) - {"super"}  # super(): its own rule
#: A method called on a construction on the same line, ``Class(args).method(``: the
#: parser names such a call by its method alone (its receiver is a call, no name), and
#: 73 of marshmallow's 193 ``Schema.load`` sites (``MySchema().load(..)``) were name-only.
#: Arguments nest one level of parentheses at most.
_CONSTRUCTED = r"(?<![\w.)\]])([A-Za-z_][\w.]*)\s*\((?:[^()]|\([^()]*\))*\)\s*\.\s*"
_NOT_CLASSES = frozenset({"super", "type", "self"})
#: Lines longer than this are not searched for a construction (``_constructed_receiver``):
#: the search is linear in the line, and runs for each bare call on it.
CONSTRUCTED_LINE_MAX = 1000


#: A method called on a subscripted value, ``xs[0].m(``, ``self.a[k].b.m(`` (its receiver is
#: no name: the parser names the call by its method alone). Subscripts nest no brackets.
_SUBSCRIPTED_CALL = r"(?<![\w.)\]])(" + SUBSCRIPTED + r")\s*\.\s*{name}\s*\("


def _locally_bound(held: str, line: str) -> bool:
    """Whether ``line`` binds the head name of ``held`` itself, as a comprehension's or a
    lambda's variable (``key=lambda p: p[1].m()`` in a function whose ``p`` is declared
    otherwise; a review)."""
    head = re.match(r"[A-Za-z_]\w*", held)
    name = head.group() if head else ""
    return bool(name) and (_comprehension_bound(name, line)
                           or re.search(rf"\blambda\b[^:]*\b{re.escape(name)}\b[^:]*:", line) is not None)


def _subscripted_receivers(line: str, name: str) -> list[str]:
    """The subscripted values (``receivers.SUBSCRIPT_VALUE``) ``.name(`` is called on in
    ``line`` when every call of ``name`` there is on one (``a[0].add(x); b.add(y)``: which
    site is which is unknown), else ``[]``. Lines over ``CONSTRUCTED_LINE_MAX`` are not read."""
    if "[" not in line or len(line) > CONSTRUCTED_LINE_MAX:
        return []
    calls = len(re.findall(rf"(?<!\w){re.escape(name)}\s*\(", line))
    found = [m.group(1) for m in re.finditer(_SUBSCRIPTED_CALL.format(name=re.escape(name)), line)]
    return found if found and len(found) == calls else []


def _constructed_receiver(line: str, name: str) -> str:
    """The dotted name called to build the receiver of ``.name(`` on ``line``
    (``MySchema`` of ``MySchema(strict=True).load(data)``, ``self.root`` of
    ``self.root().find()``), when it is written so; else ``""``."""
    if len(line) > CONSTRUCTED_LINE_MAX or f".{name}" not in line.replace(" ", ""):
        return ""  # a data line of thousands of calls: the search runs once per call site
    found = re.search(_CONSTRUCTED + re.escape(name) + r"\s*\(", line)
    head = found.group(1) if found else ""
    # ``super().m()`` and ``type(x).m()`` are no construction; ``self.root().m()`` is a
    # chain through a method (``self`` alone: ``self(..)`` calls the object); a classmethod's
    # ``cls(..).m()`` is one of its class (``_OWN_CLASS``: arrow's ``cls(*values).shift(..)``)
    return head if head and head not in _NOT_CLASSES and head.split(".", 1)[0] not in ("super", "type") else ""


#: Python calls of a method's own class: a classmethod's ``cls(..)`` (werkzeug's
#: ``IfRange.from_header`` built an ``IfRange`` no ``callers IfRange`` listed) and
#: ``self.__class__(..)``.
_OWN_CLASS = frozenset({"cls", "self.__class__"})


def _instances(parsed: ParsedFile, module: str, table: dict[str, str],
               symbols: dict[str, Symbol], top: set[str]) -> dict[str, str]:
    """Module-level ``name = Class(...)`` bindings: name -> the class's absolute dotted name;
    ``name = function(...)`` of the file's own or an imported function: name -> the
    function's result (``pkg.logging.getLogger()``, ``receivers.PRODUCED``), which its
    declared result (payload ``returns``) types at query time, as a function's local
    bound so (sphinx's 314 ``logger.warning(..)`` calls on a module's ``logger =
    logging.getLogger(__name__)`` were name-only callers of ``SphinxLoggerAdapter.warning``,
    the same call on a function's own ``logger`` resolved; a newcomer). A later binding to
    anything else (an unknown callee) forgets the name."""
    out: dict[str, str] = {}
    for name, callee in parsed.instances:
        head, _, rest = callee.partition(".")
        if head in top:  # the file's own class or function
            local = symbols.get(callee)
            kind = local.kind if local is not None else None
            fq = (f"{module}.{callee}" if kind is SymbolKind.CLASS
                  else f"{module}.{callee}{PRODUCED}" if kind is SymbolKind.FUNCTION else "")
        elif head in table:  # an imported CapWords name is a class, another a function
            fq = ".".join([table[head], *([rest] if rest else [])])
            fq += "" if callee.rsplit(".", 1)[-1].lstrip("_")[:1].isupper() else PRODUCED
        else:
            fq = ""
        if fq:
            out[name] = fq
        else:
            out.pop(name, None)
    return out


def import_table(aliases: tuple[tuple[str, str], ...], module: str, is_package: bool) -> dict[str, str]:
    """Local name -> absolute dotted name; relative imports are made absolute against the
    file's package (``module`` itself for an ``__init__.py``). A star import is keyed
    ``*<module>`` (never a call's first segment) so several can coexist."""
    package = module if is_package else module.rpartition(".")[0]
    table = {}
    for local, target in aliases:
        if target.startswith("."):
            rest = target.lstrip(".")
            base = package.split(".") if package else []
            up = len(target) - len(rest) - 1
            if up > len(base):
                continue
            base = base[: len(base) - up]
            target = ".".join([*base, rest] if rest else base)
        if target:
            table[f"*{target}" if local == "*" else local] = target
    return table


def js_import_table(aliases: tuple[tuple[str, str], ...], path: str, module: str = "") -> dict[str, str]:
    """Local name -> target for JavaScript/TypeScript: a relative specifier is resolved
    against the file's directory, less its suffix and a trailing ``/index`` (``./util`` in
    ``src/app.ts`` -> ``src/util``); a package specifier is kept as written; ``#name`` becomes
    ``.name``. An empty specifier is the file itself (``module``): ``("default", "#f")`` from
    ``export default function f`` makes ``<module>.default`` a re-export of ``<module>.f``,
    which a default import (``import g from "./m"`` -> ``<m>.default``) reaches."""
    table = {}
    for local, target in aliases:
        spec, _, name = target.partition("#")
        if not spec:
            if not module or not name:
                continue
            spec = module
        elif spec.startswith("."):
            spec = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
            if spec.startswith(".."):
                continue  # above the repo root
            for suffix in _JS_SUFFIXES:
                if spec.endswith(suffix):
                    spec = spec[: -len(suffix)]
                    break
            spec = spec.removesuffix("/index")
            if spec == ".":
                spec = "index"  # the repo root's index.js (`require('../')` from test/)
        table[local] = f"{spec}.{name}" if name else spec
    return table


def _enclosing_class(symbols: dict[str, Symbol], qualified_name: str,
                     kinds: tuple[SymbolKind, ...] = (SymbolKind.CLASS,)) -> str:
    sym = symbols.get(unparted(qualified_name))
    while sym is not None and sym.parent:
        parent = symbols.get(sym.parent)
        if parent is not None and parent.kind in kinds:
            return parent.qualified_name
        sym = parent
    return ""


#: Python's built-in types a call may name a method of (a literal's: ``"".join`` is
#: ``str.join``): their methods are the runtime's, never the repository's.
_PY_BUILTIN_TYPES = frozenset({"str", "bytes", "list", "dict", "tuple", "set", "frozenset", "int",
                               "float", "bytearray"})


def _target(site: CallSite, module: str, table: dict[str, str], top: set[str],
            symbols: dict[str, Symbol], cls: str, selves: tuple[str, ...],
            instances: Mapping[str, str]) -> str:
    parts = site.name.split(".")
    head, rest = parts[0], parts[1:]
    if head in _PY_BUILTIN_TYPES and rest and "self" in selves and head not in top and head not in table:
        return f"builtins.{site.name}"  # ``"".join(...)`` (parse: ``str.join``), ``dict.fromkeys``
    if head in selves:
        return _method(module, table, symbols, cls, rest[0]) if cls and len(rest) == 1 else ""
    if head in top:  # a definition of this file shadows an import of the same name
        return ".".join([module, *parts])
    if rest and site.name in symbols and head not in table:  # `api.get()`: `const api = {get() {}}`
        return f"{module}.{site.name}"
    if head in instances:  # a module-level instance: its class's method
        return f"{instances[head]}.{rest[0]}" if len(rest) == 1 else ""
    if head in table:
        return ".".join([table[head], *rest])
    return ""


def _method(module: str, table: dict[str, str], symbols: dict[str, Symbol], cls: str, name: str,
            depth: int = 8) -> str:
    """``self.name`` in class ``cls``: the class's own method, else the first base (in MRO-ish
    order, depth-first) of this file that defines it, else a base imported from elsewhere
    (``pkg.Base.name``, reached only if that class defines it). ``""`` if none applies."""
    if f"{cls}.{name}" in symbols:
        return f"{module}.{cls}.{name}"
    sym = symbols.get(cls)
    if sym is None or depth == 0:
        return ""
    # a JS/TS class names its bases after ``extends`` (zod's ``class ZodString extends
    # ZodType<string, ...>``: ``this._processInputParams()`` was never its base's)
    for base in header_bases(sym.signature) if _EXTENDS.search(sym.signature) else _bases(sym.signature):
        # a class of this file, by Python's scoping (a nested class's base its function defines)
        local = file_base(symbols, sym.parent, base, sym.start_line)
        if local:
            found = _method(module, table, symbols, local, name, depth - 1)
            if found:
                return found
        elif base.split(".", 1)[0] in table:
            head, _, rest = base.partition(".")
            return ".".join(filter(None, [table[head], rest, name]))
    return ""


def _bare_test(chunk_list: list[Chunk]) -> Callable[[CallSite], bool]:
    """Whether a one-segment call is written bare on its line (``f(``, ``new F(``), not as the
    tail of a chain (``g().f(``): Go and Java name both ``f``."""
    lines: dict[int, str] = {}
    for c in chunk_list:
        for i, line in enumerate(c.text.split("\n")):
            lines.setdefault(c.start_line + i, line)
    return lambda site: re.search(rf"(?:^|[^\w.$]){re.escape(site.name)}\s*[(\[<]",
                                  lines.get(site.line, "")) is not None


def _go(parsed: ParsedFile, module: str, symbols: dict[str, Symbol], bare: Callable[[CallSite], bool],
        embedded: dict[str, tuple[str, ...]], receivers: GoReceivers) -> Target:
    """Go: ``module`` is the package's import path (``example.com/a/util``) and a target is it
    plus the name less the package clause (``example.com/a/util.Server.Run``). ``pkg.F()``
    through an import (``pkg`` bound by an alias or the path's last element), a bare ``F()``
    is the package's own (any file of the directory; predeclared names and the caller's
    parameters and local variables excepted: ``f := func(..)``), a chain's tail
    ``c.Root().Find()`` the method of the type the chain returns when this file defines
    its steps (``GoReceivers.chain_target``), ``s.m()`` on the enclosing method's receiver ``s``
    of type ``T`` is ``T.m``, a call on a typed variable, parameter or struct field
    (``index/receivers_go``) or on a composite literal (``(&T{..}).m()``) ``<type>.m``, and
    one on a package-level name no local binds that this file does not type ``<module>.X.m``
    (another file's variable: the query side reads its type). ``embedded`` is filled with
    each struct's embedded types (qualified name -> target-style names). ``receivers``: the
    file's (its references and results read them too). Other selectors stay unresolved."""
    table = receivers.table
    embedded.update((s.qualified_name, receivers.embedded(s))  # an interface's too: its methods'
                    for s in parsed.symbols if s.kind in (SymbolKind.STRUCT, SymbolKind.INTERFACE))

    def target(site: CallSite, owner: str) -> str:
        head, *rest = site.name.split(".")
        if not rest:
            if head in _GO_BUILTINS:
                return ""
            if not bare(site) or receivers.continues(site):  # a chain's tail, `c.Root().Find(..)`
                return receivers.chain_target(site, owner)
            return "" if receivers.local(head, owner) else f"{module}.{head}"
        if head in table:
            return ".".join([table[head], *rest])
        sym = symbols.get(unparted(owner))
        receiver = _GO_RECEIVER.match(sym.signature) if sym is not None else None
        if (receiver and receiver.group(1) == head and len(rest) == 1
                and not receivers.rebound(head, owner, site.line, receivers.column(site))):
            return f"{module}.{receiver.group(2)}.{rest[0]}"
        return receivers.target(site, owner)
    return target


def _go_instantiation(site: CallSite, owner: str, symbols: Mapping[str, Symbol], receivers: GoReceivers) -> bool:
    """Whether an indexed Go call (``CallSite.indexed``) instantiates a generic function:
    its operand is a bare name that is no builtin, no parameter or local of ``owner`` and
    no variable or constant of the file (``getTyped[string](c, key)``; gin's 15 such calls
    of ``getTyped`` were calls of ``string``, ``int``, ..), or an imported package's name
    (``slices.Index[S](..)``). A method has no type parameters in Go: an indexed selector
    on a value (``c.handlers[c.index](c)``) calls a table's element, no name."""
    head, *rest = site.name.split(".")
    if rest:
        return len(rest) == 1 and head in receivers.table
    if head in _GO_BUILTINS or head in _GO_NO_FUNCTIONS or receivers.local(head, owner):
        return False
    held = next((s for s in symbols.values() if s.name == head and not s.parent), None)
    return held is None or held.kind not in (SymbolKind.VARIABLE, SymbolKind.CONSTANT)


#: Go names a value reference never means a function by (``nil``, the blank identifier).
_GO_NO_FUNCTIONS = frozenset({"nil", "true", "false", "iota", "_"})


def _go_reference(module: str, symbols: Mapping[str, Symbol], target: Target, receivers: GoReceivers) -> Target:
    """The hook for a Go value reference (``CallSite.reference``): the function or method a
    name written as a value may mean, else ``""`` (the site is dropped). A bare ``f``: the
    package's ``f`` unless it is a parameter or local of the calling function, a builtin,
    or a constant, variable or type of this file; ``pkg.F`` through an import, and a method
    value ``mx.routeHTTP`` on a typed receiver, as a call of it resolves (``target``).
    Another file's package-level variable or a struct's field may be named so too: the
    query side lists a reference only where its target is a function or method."""
    package = next((s.qualified_name.split(".", 1)[0] for s in symbols.values() if "." in s.qualified_name), "")

    def reference(site: CallSite, owner: str) -> str:
        head, dot, _ = site.name.partition(".")
        if dot:
            found = target(site, owner)
            return "" if found.startswith(ATTRIBUTE) else found
        if head in _GO_BUILTINS or head in _GO_NO_FUNCTIONS or receivers.local(head, owner):
            return ""
        sym = symbols.get(f"{package}.{head}")
        return "" if sym is not None and sym.kind is not SymbolKind.FUNCTION else f"{module}.{head}"
    return reference


def java_package(parsed: ParsedFile) -> str:
    """The package a Java file's top-level types are in (their qualified names carry it)."""
    for s in parsed.symbols:
        if not s.parent and s.kind in _JAVA_TYPES and s.qualified_name.endswith("." + s.name):
            return s.qualified_name[: -len(s.name) - 1]
    return ""


def _java(parsed: ParsedFile, path: str, package: str, symbols: dict[str, Symbol],
          java_dirs: Mapping[str, frozenset[str]], bare: Callable[[CallSite], bool],
          lines: Mapping[int, str], bases: dict[str, tuple[str, ...]],
          fields: dict[str, tuple[tuple[str, str], ...]] | None = None,
          results: dict[str, str] | None = None) -> Target:
    """Java: a target is ``pkg.Class.method`` (parameter lists dropped: a call reaches every
    overload of the name). A type name resolves through an explicit import, this file's
    types, a same-package file (``java_dirs``), a wildcard import whose package directory
    holds it (else the only wildcard import, unless the name is a common ``java.lang``
    class), else the own package; ``new C()``/``C()`` is the class. ``C.m()`` is a static
    call, ``this.m()`` and bare ``m()`` the enclosing class's method (bare: also outer
    classes; then an ``extends`` base), a static import ``m()`` its class's member (unless
    this file defines an ``m``). A method call on a typed receiver (``index/receivers_java``:
    parameters, locals, ``var x = new C()``, fields, ``this.f.m()``; marked ``exact`` when
    its every value is a construction of its type) is ``<type>.m``, the
    first of the type and its same-file ``extends`` bases that defines it (else the type's
    own name: the query side follows ``base_targets`` from there, as for Python); ``super.m()`` the
    ``extends`` base's. ``bases`` is filled with each type's qualified name -> its extended
    and implemented types' qualified names. A chain's tail (``a().m()``, named ``m``) is
    ``m`` of the class ``a`` declares it returns when this file defines ``a`` (``chained``),
    or of the class ``new C(..).m()`` constructs, or of an anonymous class's instance
    (``new C() {..}.m()``: its own ``m``, else ``C``'s); on another file's method's result
    (a static ``C.m()``, a typed receiver's or field's ``x.m()``; also a ``var`` local
    holding one) ``<C.m>().name`` for the query side (``on_result``); else unresolved."""
    explicit = {local: t for local, t in parsed.import_aliases if local != "*"}
    # a static import's wildcard (`import static org.junit..Assertions.*`, a class's members)
    # imports no types: jsoup's tests, with `java.io.*` beside it, had two wildcards and no
    # type of either (`in.read()` on an `InputStream` field: a name-only caller of any `read`)
    wild = [t for local, t in parsed.import_aliases if local == "*" and not t.rpartition(".")[2][:1].isupper()]
    types = {s.name: s.qualified_name for s in parsed.symbols if s.kind in _JAVA_TYPES}
    methods = {(s.parent, s.name) for s in parsed.symbols if s.kind in (SymbolKind.METHOD, SymbolKind.FUNCTION)}
    own = {name for _, name in methods}
    # (class, name) -> the argument counts its overloads take, (fewest, most): a call of a
    # count none of them takes is a base's overload (jsoup's `el.attr("x")` on an Element,
    # which declares only `attr(String,String)` and `attr(String,boolean)`, is Node's
    # `attr(String)`: `callers Node.attr` missed 19 such calls, `callers Element.attr`
    # listed them resolved; a newcomer)
    arities: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for s in parsed.symbols:
        if s.kind in (SymbolKind.METHOD, SymbolKind.FUNCTION):
            taken = tx.java_arity(s.qualified_name, s.name)
            if taken is not None:
                arities.setdefault((s.parent, s.name), []).append(taken)
    called: list[int | None] = [None]  # the argument count of the call being resolved

    def fits(cls: str, name: str) -> bool:
        n = called[0]
        return n is None or (cls, name) not in arities or any(lo <= n <= hi for lo, hi in arities[(cls, name)])

    here = posixpath.dirname(path)
    # the package's classes in every source root (Maven's src/test/java beside src/main/java:
    # jsoup's tests called Entities.unescape of their package unimported, 19 calls unresolved)
    package_dir = package.replace(".", "/")
    package_names: list[frozenset[str]] = []  # read once, when a name is not the directory's

    def same_package(name: str) -> bool:
        if name in java_dirs.get(here, ()):
            return True
        if not package_names:
            package_names.append(frozenset().union(
                *(names for d, names in java_dirs.items() if d == package_dir or d.endswith("/" + package_dir))))
        return name in package_names[0]

    def type_name(name: str, guess: bool = True) -> str:
        """The qualified name of type ``name``; without ``guess``, ``""`` unless the file
        knows where it is (its own, an import, its package's, a wildcard's directory)."""
        if name in types or name in explicit:
            return types.get(name) or explicit[name]
        if not name[:1].isupper() or (name.isupper() and len(name) > 1):
            return ""  # a variable, or a CONSTANT
        if same_package(name):
            return f"{package}.{name}"
        for pkg in wild:
            if any(name in names and (d == pkg.replace(".", "/") or d.endswith("/" + pkg.replace(".", "/")))
                   for d, names in java_dirs.items()):
                return f"{pkg}.{name}"
        if name in _JAVA_LANG or len(wild) > 1 or not guess:
            return ""
        return f"{wild[0]}.{name}" if wild else f"{package}.{name}"

    def method(cls: str, name: str, outer: bool, depth: int = 8) -> str:
        sym = symbols.get(cls)
        if sym is None or depth == 0:
            return ""
        if (cls, name) in methods and fits(cls, name):
            return f"{cls}.{name}"
        base = _java_extends(sym.signature)
        found = type_name(base.group(1)) if base else ""
        if found in symbols:
            found = method(found, name, False, depth - 1)
        elif found:
            # a base of another file may define it or not; an outer class of this file that
            # does wins the guess (Java looks in the bases first, which are unknown here)
            enclosing = method(sym.parent, name, True, depth - 1) if outer and sym.parent in symbols else ""
            found = enclosing if enclosing.rpartition(".")[0] in symbols else f"{found}.{name}"
        if not found and outer and symbols.get(sym.parent) is not None:
            found = method(sym.parent, name, True, depth - 1)
        return found

    def inherits(cls: str, depth: int = 8) -> bool:
        """Whether class ``cls`` of this file, or an ``extends`` base of it in this file,
        extends a class of another file."""
        sym = symbols.get(cls)
        base = _java_extends(sym.signature) if sym is not None and depth else None
        if base is None:
            return False
        found = qualify(base.group(1))
        return bool(found) and (found not in symbols or inherits(found, depth - 1))

    def qualify(type_: str, guess: bool = True) -> str:
        """A type as written (``Store``, ``Map.Entry``, ``java.util.List``) -> its qualified
        name (``type_name``'s ``guess``)."""
        head, dot, rest = type_.partition(".")
        if not head[:1].isupper():
            return type_  # already qualified
        found = type_name(head, guess)
        return found + dot + rest if found else ""

    def typed(type_: str, name: str) -> str:
        fq = qualify(type_)
        if not fq:
            return ""
        return local_method(fq, name) or f"{fq}.{name}"

    def local_method(cls: str, name: str, depth: int = 8) -> str:
        """``cls.name`` defined by ``cls`` or a same-file ``extends`` base, else ``""``; a
        class whose overloads of ``name`` take none of the call's argument count defines
        none for it: its ``extends`` base of another file's (``Base.name``)."""
        if (cls, name) in methods and fits(cls, name):
            return f"{cls}.{name}"
        base = _java_extends(symbols[cls].signature) if cls in symbols and depth else None
        found = qualify(base.group(1)) if base else ""
        if found in symbols:
            return local_method(found, name, depth - 1)
        return f"{found}.{name}" if found and (cls, name) in methods else ""

    receivers = JavaReceivers(symbols, lines)
    for s in parsed.symbols:
        if s.kind in _JAVA_TYPES:
            bases[s.qualified_name] = tuple(filter(None, map(qualify, header_bases(s.signature))))
            if fields is not None:
                # `Class.field type` for the query side (``instance_edges``): a subclass of
                # another file reads a field this class declares (jsoup's HtmlTreeBuilder
                # calling `tokeniser.transition(..)` of TreeBuilder's `Tokeniser tokeniser`)
                own = (s.qualified_name[len(package) + 1:] if package and s.qualified_name.startswith(package + ".")
                       else s.qualified_name)
                typed_fields = tuple((f"{own}.{name}", fq) for name, t in
                                     sorted(receivers.fields(s.qualified_name).items()) if (fq := qualify(t)))
                if typed_fields:
                    fields[s.qualified_name] = typed_fields
            enum = symbols.get(s.parent) if s.parent else None
            if (enum is not None and enum.kind is SymbolKind.ENUM and s.kind is SymbolKind.CLASS
                    and not _JAVA_TYPE_HEAD.search(s.signature)):
                # an enum constant's body (`Data { void read(..) {..} }`) subclasses its enum:
                # jsoup's `state.read(this, reader)` on a `TokeniserState` runs its constants'
                # overrides, and `callers TokeniserState$38.read` answered InputStream reads
                bases[s.qualified_name] = (enum.qualified_name,)

    # (class, name) -> the file's first method so named, for the result a chain reads
    declared: dict[tuple[str, str], Symbol] = {}
    for s in parsed.symbols:
        if s.kind is SymbolKind.METHOD:
            declared.setdefault((s.parent, s.name), s)
    if results is not None:
        results.update(_java_results(parsed, qualify, receivers))

    def returned(cls: str, name: str) -> str:
        """The qualified type a method ``name`` of this file's class ``cls`` declares it
        returns (``public static Parser htmlParser()``), ``""`` when none is a class."""
        sym = declared.get((cls, name))
        found = re.search(_JAVA_RESULT.format(re.escape(name)), sym.signature) if sym is not None else None
        kind = found.group(1) if found else ""
        return qualify(kind) if kind[:1].isupper() and len(kind) > 1 else ""

    def chained(site: CallSite, owner: str, cls: str) -> str:
        """A chain's tail ``X.m().name(..)`` (named ``name`` alone): ``name`` of the class
        the file's method ``X.m`` (or the enclosing class's ``m``, or a construction ``new
        X(..)``) returns; ``""`` when unknown (jsoup's ``Parser.htmlParser().unescape(..)``
        was a name-only caller of ``Entities.unescape``)."""
        found = re.search(_JAVA_CHAINED + re.escape(site.name) + r"\s*\(", lines.get(site.line, ""))
        if found is None:
            return ""
        callee = found.group(2)
        if found.group(1):  # `new Foo(..).name(..)`
            made = type_name(callee) if "." not in callee else qualify(callee)
            return exactly(typed(made, site.name), True) if made else ""  # no anonymous body: `(..).`
        return on_result(callee, owner, cls, site.name)

    def on_result(callee: str, owner: str, cls: str, name: str) -> str:
        """``name`` called on the result of ``callee(..)`` (as written: ``m``, ``this.m``,
        ``C.m``, ``x.m``, ``this.x.m``): of the class a method of this file declares it
        returns; or, the method another file's (a static ``C.m``, ``m`` of a receiver of a
        known type), ``<C.m>().name`` (``RETURNED``), which the query side types by that
        method's declared result (payload ``returns``); ``""`` when unknown. gson's
        ``gson.toJsonTree(x).getAsJsonObject()`` and ``json.get("k").getAsJsonObject()``
        were 36 name-only callers."""
        on, _, called = callee.rpartition(".")
        holder = (cls if not on or on == "this" else
                  (type_name(on) if on[:1].isupper() and "." not in on else ""))
        if not holder and on[:1].islower() and on.count(".") <= (1 if on.startswith("this.") else 0):
            field = on.startswith("this.")
            holder = qualify(receivers.type_of(on.removeprefix("this."), owner, field) or "", False)
            declaring = local_method(holder, called).rpartition(".")[0] if holder in symbols else ""
            holder = declaring if declaring in symbols else holder
        elif holder and holder not in symbols:
            holder = type_name(on, False)  # a static call of another file's class it knows
        if holder in symbols:
            made = returned(holder, called)
            return typed(made, name) if made else ""
        return f"{holder}.{called}{RETURNED}.{name}" if holder else ""

    # line -> the anonymous classes whose body closes on it, for `new T() {..}.m()`
    closing: dict[int, list[Symbol]] = {}
    for s in parsed.symbols:
        if s.kind in _JAVA_TYPES and _JAVA_ANONYMOUS.match(s.signature):
            closing.setdefault(s.end_line, []).append(s)

    def anonymous(site: CallSite) -> str:
        """A call on an anonymous class's instance, ``new TypeAdapter<X>() {..}.name(..)``
        (its line ``}.name(``): the class's own ``name``, else the extended type's
        (``typed``); gson's 14 ``}.nullSafe()`` were name-only callers of
        ``TypeAdapter.nullSafe``."""
        made = closing.get(site.line)
        if not made or not re.search(r"\}\s*\.\s*" + re.escape(site.name) + r"\s*\(", lines.get(site.line, "")):
            return ""
        sym = min(made, key=lambda s: s.start_line)  # the outermost: its `}` is the receiver's
        if (sym.qualified_name, site.name) in methods and fits(sym.qualified_name, site.name):
            return f"{sym.qualified_name}.{site.name}"
        base = _JAVA_ANONYMOUS.match(sym.signature)
        return typed(base.group(1), site.name) if base else ""

    def target(site: CallSite, owner: str) -> str:
        head, *rest = site.name.split(".")
        called[0] = tx.call_arity(lines.get(site.line, ""), site.name.rpartition(".")[2])
        cls = _enclosing_class(symbols, owner, _JAVA_TYPES) if owner else ""
        if head == "this" and len(rest) == 2 and owner:
            found = receivers.type_of(rest[0], owner, this=True)
            return exactly(typed(found, rest[1]), receivers.exact(rest[0], owner, this=True)) if found else ""
        if head == "this":
            return method(cls, rest[0], False) if cls and len(rest) == 1 else ""
        if head == "super":
            base = _java_extends(symbols[cls].signature) if cls and len(rest) == 1 else None
            return typed(base.group(1), rest[0]) if base else ""
        if len(rest) == 1 and owner and head[:1].islower():
            found = receivers.type_of(head, owner)
            if found:
                return exactly(typed(found, rest[0]), receivers.exact(head, owner))
            held = receivers.call_of(head, owner)  # `var x = a.m(..);`: typed by `m`'s result
            if held:
                return on_result(held, owner, cls, rest[0])
            if cls and not receivers.bound(head, owner) and inherits(cls):
                # a field a base of another file may declare: that file says its type
                return f"{ATTRIBUTE}{cls}.{head}.{rest[0]}"
        if len(rest) == 2 and owner and head[:1].islower() and rest[0][:1].islower():
            # `tb.tokeniser.transition(..)` on a typed `tb`: the field of its class (or of a
            # base of that class), typed by the file declaring it
            found = qualify(receivers.type_of(head, owner) or "")
            if found:
                return f"{ATTRIBUTE}{found}.{rest[0]}.{rest[1]}"
        if not rest and head[:1].isupper() and _JAVA_CHAINING.search(lines.get(site.line, "")):
            return type_name(head)  # `this(..)`, `super(..)`: the parser names the class they construct
        if not rest and not bare(site):
            return chained(site, owner, cls) or anonymous(site)
        if not rest and not head[:1].isupper():
            if head in explicit and head not in own:
                return explicit[head]
            return method(cls, head, True) if cls else ""
        found = type_name(head)
        if found and len(rest) == 2 and rest[0] == "this":  # `Outer.this.m()`: the outer class's
            return (method(found, rest[1], False) if found in symbols else "") or f"{found}.{rest[1]}"
        if len(rest) > 1 and not (rest[0][:1].isupper() and not rest[0].isupper()):
            return ""  # `C.FIELD.m()`, `C.this.f.m()`: a method of the field's type, unknown here
        return ".".join([found, *rest]) if found else ""
    return target


#: A Java method header's declared result before its name (group 1; type arguments and
#: an array's brackets after it).
_JAVA_RESULT = r"([A-Za-z_][\w.]*)(?:<[^()]*>)?(\[\])?\s+{}\s*\("


def _java_results(parsed: ParsedFile, qualify: Callable[[str, bool], str],
                  receivers: JavaReceivers) -> dict[str, str]:
    """Qualified name -> the class each Java method of the file declares it returns
    (``public JsonElement get(String k)``: ``com.google.gson.JsonElement``; payload
    ``returns``), for another file's calls on its result: a class the file knows
    (``qualify`` without its guess), type arguments dropped. ``void``, primitives, arrays,
    type parameters (``<T> T fromJson(..)``, ``T`` of the class) and unknown types give
    none, and so do overloads of one class and name that declare different results (the
    query side reads a result by the name alone)."""
    found: dict[tuple[str, str], set[str]] = {}
    for s in parsed.symbols:
        if s.kind is SymbolKind.METHOD:
            m = re.search(_JAVA_RESULT.format(re.escape(s.name)), s.signature)
            kind = m.group(1) if m and not m.group(2) else ""
            ok = kind[:1].isupper() and not receivers.type_parameter(kind.partition(".")[0], s)
            found.setdefault((s.parent, s.name), set()).add(qualify(kind, False) if ok else "")
    return {s.qualified_name: next(iter(r)) for s in parsed.symbols
            if s.kind is SymbolKind.METHOD and len(r := found[(s.parent, s.name)]) == 1 and next(iter(r))}


def exactly(target: str, exact: bool) -> str:
    """``target`` marked as called on exactly its class (``EXACT``: ``CallSite.exact``)
    when ``exact`` and it is one."""
    return EXACT + target if exact and target else target


def _constructed(name: str, text: str) -> str:
    """The class a raised lowercase local ``name`` is bound to in ``text`` when one
    assignment binds it, to a construction (jsonschema's ``exc = exceptions.UnknownType(..)``
    then ``raise exc from None``: its card said ``raises: []``); else ``name`` (also for a
    conditional expression's, ``e = A(..) if x else B(..)``: either)."""
    if "." in name or not name[:1].islower():
        return name
    bound = {m.group(1) for m in re.finditer(rf"^[ \t]*{re.escape(name)}[ \t]*=[ \t]*([A-Za-z_][\w.]*)\([^\n]*$",
                                              text, re.M) if not re.search(r"\bif\b.*\belse\b", m.group())}
    others = re.findall(rf"^[ \t]*{re.escape(name)}[ \t]*=(?!=)", text, re.M)
    return next(iter(bound)) if len(bound) == 1 and len(others) == 1 else name


def raises(text: str) -> tuple[str, ...]:
    """Exception names raised in ``text`` (``raise X``, ``raise X(...)``, ``throw new X``, and
    ``raise exc`` of a local the text binds to one construction, ``exc = X(...)``) and
    listed in a Google-style ``Raises:`` section, in order of first mention."""
    code = _STRING_BLOCK.sub("", text)  # a docstring's example is no raise (FastAPI's
    # `HTTPException` card said it raises `HTTPException`, from its docstring; a newcomer)
    code = _COMMENT_LINE.sub("", code)
    found = [_constructed(m, code) for m in _RAISE.findall(code) + _THROW.findall(code)]
    for header in _RAISES_HEADER.finditer(text):
        indent = len(header.group(1))
        for line in text[header.end():].split("\n")[1:]:
            if not line.strip() or len(line) - len(line.lstrip()) <= indent:
                break
            item = _RAISES_ITEM.match(line)
            if item and len(line) - len(line.lstrip()) <= indent + 4:
                found.append(item.group(1))
    return tuple(dict.fromkeys(n for n in found if n not in _NOT_EXCEPTIONS and n.rsplit(".", 1)[-1][:1].isupper()))
