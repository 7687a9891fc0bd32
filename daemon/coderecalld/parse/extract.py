"""Build a ``ParsedFile`` from a tree and its grouped tags captures.

Nesting and call ownership come from byte ranges alone, so this works for any language
whose query follows the capture convention in ``registry``. A symbol's range starts at its
first decorator even when the grammar makes decorators siblings (TypeScript class members,
Rust attributes).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node, Tree

from coderecalld.parse import ruby_calls
from coderecalld.parse import text as tx
from coderecalld.parse.captures import RawDefinition, RawTags, collect, local_helpers
from coderecalld.parse.docstrings import COMMENT_STYLES, DOC_STYLES
from coderecalld.parse.imports import DEFAULT
from coderecalld.parse.registry import LanguageSpec, tags_query
from coderecalld.records import VALUE_KINDS, CallSite, ParsedFile, Symbol, SymbolKind

_KINDS = frozenset(kind.value for kind in SymbolKind)
# A function whose nearest enclosing definition is one of these is a method.
_CONTAINERS = frozenset(
    {SymbolKind.CLASS, SymbolKind.STRUCT, SymbolKind.INTERFACE, SymbolKind.TRAIT, SymbolKind.ENUM}
)

#: ``@name`` node types that bind nothing in the file's scope (JS/TS; see ``_unbound``).
_UNBOUND_NAMES = frozenset({"default", "property_identifier", "string_fragment"})

#: Words in the node types of top-level import and package statements (see ``_boilerplate``).
#: Top-level statements that only import or declare a package (``import_statement``,
#: ``export_statement``, ``package_clause``; Rust's ``use_declaration`` and ``extern_crate``,
#: C's ``preproc_include``, C#'s ``using_directive``, PHP's ``namespace_use``; a Ruby
#: ``require`` is a top-level ``call`` holding an import): a module chunk of nothing else
#: is kept for lookups, not searched (sinatra's host_authorization.rb, three ``require``
#: lines, scored 1.678 for an issue its class's method was about, at 0.796).
_BOILERPLATE_TYPES = ("import", "export", "package", "use_declaration", "extern_crate", "preproc_include",
                      "using_directive", "namespace_use")
_BOILERPLATE_CALLS = frozenset({"call"})


@dataclass(slots=True)
class _Def:
    """One definition while nesting is resolved; ``scope_*`` is the range that owns calls."""

    raw: RawDefinition
    kind: SymbolKind
    start: Node
    outer: Node
    inner: Node
    scope_start: int
    scope_end: int
    name: str = ""
    qualified_name: str = ""
    parent: str = ""
    calls: list[CallSite] = field(default_factory=list)


def parsed_file(blob: bytes, tree: Tree, spec: LanguageSpec, default: str = DEFAULT) -> ParsedFile:
    """Extract symbols, calls and imports of ``tree`` (parsed from ``blob``, valid UTF-8);
    ``default`` names the file's anonymous default export (``imports.default_name``)."""
    tags = collect(tags_query(spec.name), tree.root_node)
    tags.definitions = local_helpers(blob, tags.definitions)
    other_self: frozenset[int] = frozenset()
    if spec.name == "ruby":
        scopes: dict[tuple[int, int], ruby_calls.Bindings] = {}
        tags.calls = [c for c in tags.calls if ruby_calls.is_bare_call(blob, c[0], scopes)]
        other_self = frozenset(c[0].start_byte for c in tags.calls if ruby_calls.in_other_self(blob, c[0]))
    defs = sorted(
        filter(None, map(_definition, tags.definitions)),
        key=lambda d: (d.start.start_byte, -d.outer.end_byte),
    )
    package = tx.compact(blob, tags.package) if tags.package is not None else ""
    module_calls = _resolve(blob, defs, tags.calls + [(v, None) for v in tags.values],
                            _Naming(spec.separator, package, default), other_self)
    defs = _values_kept(defs)  # constants that are no definition's holder or namespace
    clean = DOC_STYLES[spec.doc_style]
    return ParsedFile(
        language=spec.name,
        # an anonymous enum (C++'s ``enum : unsigned long long {..}``) names nothing: no
        # symbol of no name, which every top-level symbol's empty parent would find
        symbols=tuple(_symbol(blob, d, clean, spec.doc_style) for d in defs if d.qualified_name),
        imports=_imports(blob, tags),
        module_call_sites=tuple(c for c in module_calls if not c.reference),
        module_references=tuple(c for c in module_calls if c.reference),
        module_docstring=_module_doc(blob, tags.module_doc, clean, spec.doc_style),
        line_count=tx.line_count(blob),
        has_errors=tree.root_node.has_error,
        boilerplate_lines=_boilerplate(tree, [*tags.imports, *filter(None, [tags.package])]),
        unbound=_unbound(defs),
        titled=frozenset(d.qualified_name for d in defs
                         if d.raw.name.type == "string_fragment" and d.outer.type == "call_expression"),
    )


#: Values (constants, variables) kept per file, the first in source order: a generated
#: header of 50,000 ``#define``s is one file, not 50,000 lookups (a review).
MAX_VALUES = 2000
_FUNCTION_KINDS = frozenset({SymbolKind.FUNCTION, SymbolKind.METHOD})


def _values_kept(defs: list[_Def]) -> list[_Def]:
    """``defs`` (named, in source order) less the values that are no constant of their
    own: one named like a definition (the definition's holder: Java's ``static final
    TypeAdapterFactory ENUM_FACTORY = new TypeAdapterFactory() {...}`` names its anonymous
    class ``ENUM_FACTORY``, ``_field_holding``), one holding a definition (JS's ``const api =
    {get() {...}}``: its members are the symbols, named after it as before), one inside a
    function (a local enum or macro), one named ``_`` (Go's ``var _ I = (*T)(nil)``); and
    past the first ``MAX_VALUES``. Linear: a value's holding is read from the next
    definition that is no value."""
    defined = {d.qualified_name for d in defs if d.kind not in VALUE_KINDS}
    kinds = {d.qualified_name: d.kind for d in defs}
    next_start = [0] * len(defs)  # where the next definition that is no value starts
    start = -1
    for i in range(len(defs) - 1, -1, -1):
        next_start[i] = start
        if defs[i].kind not in VALUE_KINDS:
            start = defs[i].start.start_byte
    out, values = [], 0
    for i, d in enumerate(defs):
        if d.kind in VALUE_KINDS:
            holds = 0 <= next_start[i] < d.outer.end_byte
            if (holds or d.qualified_name in defined or d.name == "_" or values >= MAX_VALUES
                    or kinds.get(d.parent) in _FUNCTION_KINDS):
                continue
            values += 1
        out.append(d)
    return out


def _unbound(defs: list[_Def]) -> frozenset[str]:
    """Top-level names no binding of the file gives: one named after the file (a ``@name``
    that is the ``default`` keyword) or after a property (``exports.x = ...``, a member of an
    object of no name), unless another top-level definition binds the same name. A nested
    definition named after a property (an object literal's ``delay: () => 0`` passed in a
    test) binds no name in its function either: its qualified name is in the set too (ky's
    ``await delay(1000)``, an imported ``setTimeout``, was "resolved" to such a property)."""
    top = [d for d in defs if not d.parent]
    unbound = {d.name for d in top if d.raw.name.type in _UNBOUND_NAMES}
    nested = {d.qualified_name for d in defs if d.parent and d.raw.name.type in _UNBOUND_NAMES}
    return frozenset(unbound - {d.name for d in top if d.raw.name.type not in _UNBOUND_NAMES}) | nested


def _boilerplate(tree: Tree, nodes: list[Node]) -> frozenset[int]:
    """Lines of the top-level import, re-export and package statements that hold ``nodes``
    (import names, the package name). Grammars name those statements ``import_statement``,
    ``import_declaration``, ``export_statement``, ``package_clause``...; a top-level ``if`` or
    ``try`` that imports is code."""
    lines: set[int] = set()
    root = tree.root_node
    for node in nodes:
        while node.parent is not None and node.parent != root:
            node = node.parent
        if node.parent is not None and (any(word in node.type for word in _BOILERPLATE_TYPES)
                                        or node.type in _BOILERPLATE_CALLS):
            lines.update(range(tx.start_line(node), tx.end_line(node) + 1))
    return frozenset(lines)


_VALUE_NAMES = frozenset(kind.value for kind in VALUE_KINDS)


def _definition(raw: RawDefinition) -> _Def | None:
    """The widest extent is the symbol's range (decorators included, on to a ``@tail``), the
    narrowest its header."""
    extents = [(kind, node) for kind, node in raw.extents if kind in _KINDS]
    if not extents:
        return None
    outer = max(extents, key=lambda e: e[1].end_byte - e[1].start_byte)[1]
    # on a tie code wins over a value (Scala's `val` an object holds, built by a block)
    kind, inner = min(extents, key=lambda e: (e[1].end_byte - e[1].start_byte, e[0] in _VALUE_NAMES))
    scope = raw.body if raw.body is not None else inner
    start = min([outer, *raw.decorators.values()], key=lambda node: node.start_byte)
    scope_end = scope.end_byte
    if raw.tail is not None and raw.tail.end_byte > outer.end_byte:
        outer = raw.tail  # the range runs on to it (a Kotlin property's getter below it)
        scope_end = max(scope_end, outer.end_byte)
    return _Def(raw, SymbolKind(kind), start, outer, inner, scope.start_byte, scope_end)


@dataclass(frozen=True, slots=True)
class _Naming:
    """How qualified names are joined in one file: the separator, the top-level prefix and the
    name of the anonymous default export."""

    separator: str
    package: str
    default: str = DEFAULT

    def join(self, owner: str, segment: str) -> str:
        return f"{owner}{self.separator}{segment}" if owner else segment

    def receiver(self, blob: bytes, node: Node) -> str:
        """A ``@receiver`` as named; like a ``@name``, the ``default`` keyword of ``export
        default`` stands for the anonymous default export (queries/javascript/stored.scm)."""
        return self.default if node.type == "default" else tx.compact(blob, node)


def _resolve(blob: bytes, defs: list[_Def], calls: list[tuple[Node, Node | None]],
             naming: _Naming, other_self: frozenset[int] = frozenset()) -> list[CallSite]:
    """Name each def after its parent and give each call to its innermost scope; return top-level calls.
    A ``(node, None)`` pair is a value reference (``@reference.value``): a ``CallSite`` with
    ``reference`` set. ``other_self``: start bytes of the calls written in a block that may
    run with another ``self`` (Ruby, ``ruby_calls.in_other_self``).

    One sweep in source order with a stack of open definitions: O(n log n + n * depth).
    """
    events: list[tuple[int, int, object]] = [(d.start.start_byte, 0, d) for d in defs]
    events += [(call.start_byte, 1, (call, name)) for call, name in calls]
    events.sort(key=lambda event: event[:2])
    stack: list[_Def] = []
    module: list[CallSite] = []
    for position, is_call, item in events:
        while stack and stack[-1].outer.end_byte <= position:
            stack.pop()
        owner = next((d for d in reversed(stack) if d.scope_start <= position < d.scope_end), None)
        if is_call and stack and (item[0].type in _HEADER_CALLS or _in_ruby_parameters(item[0])):
            owner = stack[-1]  # written in its header, before the body: the definition's own
        if is_call:
            _add_call(blob, item, owner.calls if owner else module, item[0].start_byte in other_self)
        else:
            _attach(blob, item, owner, naming)
            # A typedef's range holds the struct it names (C), not members of its own; a
            # constant's value belongs to its module or class (calls, anonymous classes).
            if item.kind is not SymbolKind.TYPE_ALIAS and item.kind not in VALUE_KINDS:
                stack.append(item)
    return module


#: Calls a definition writes in its header, before its body: a constructor's ``: base(x)``
#: (C#), C++'s base initializers, Kotlin's ``class D(x: Int) : Base(x)`` and secondary
#: ``constructor() : this(1)``. They are the definition's calls, not its parent's (a
#: decorator's are its scope's, which runs it: Python evaluates it there).
_HEADER_CALLS = frozenset({"constructor_initializer", "field_initializer", "constructor_invocation",
                           "constructor_delegation_call"})


def _in_ruby_parameters(node: Node) -> bool:
    """Whether ``node`` is in a Ruby method's parameter list (a default's expression): Ruby
    evaluates it in the method, at each call (rack's ``def expand_param_pairs(pairs,
    query_parser = query_parser())`` was a call of no caller)."""
    parent = node.parent
    while parent is not None and parent.type not in ruby_calls.SCOPES:
        if parent.type == "method_parameters":
            return True
        parent = parent.parent
    return False


def _add_call(blob: bytes, call: tuple[Node, Node | None], into: list[CallSite], other_self: bool = False) -> None:
    node, callee = call
    if callee is None:  # a function named as a value (`Thread(target=self.run)`): no call
        if _in_type_expression(node):
            return  # `Callable[[PreparedRequest], ..]`: a type, no value
        name = tx.callee(blob, node)
        if name:
            into.append(CallSite(name, tx.start_line(node), reference=True))
        return
    if node.type == "field_initializer" and callee.type == "field_identifier" and not _cpp_base(blob, node):
        return  # a member's `: size_(n)` sets a field, it calls nothing named size_
    if callee.type == node.type and callee.end_byte < node.end_byte:
        built = callee.child_by_field_name("function") if node.type == "call" else None
        name = tx.callee(blob, built) if built is not None and built.type in ("identifier", "attribute") else ""
        if name and name.rpartition(".")[2].lstrip("_")[:1].isupper():
            # Python's `KeyValueRenderer(..)(event)` calls the instance: its class's __call__
            # (structlog's processors are called so; 8 such calls had no caller)
            into.append(CallSite(f"{name}.__call__", tx.start_line(node)))
        return  # `compose(fns)(ctx)` calls what compose returned: compose's call is the inner one
    if node.type == "generic_function" and node.parent is not None and node.parent.type == "call_expression":
        return  # Scala's `g[Int](2)`: the call around it names it
    if callee.type == "generic_function" and callee.child_by_field_name("function") is not None:
        callee = callee.child_by_field_name("function")  # `g[Int]` calls g (its last word was Int)
    if callee.type == "subscript" and node.type == "call":
        # Python: `ConfigAttribute[bool]("TESTING")` constructs the generic class (it was a
        # call of `bool`: flask's three such constructions had no caller); `handlers[key](x)`
        # calls a value of a table, no name (it was a call of `key`)
        value = callee.child_by_field_name("value")
        written = tx.callee(blob, value) if value is not None and value.type in ("identifier", "attribute") else ""
        if not written.rsplit(".", 1)[-1][:1].isupper():
            return
        callee = value
    # Go's `getTyped[string](c, key)`, `getTyped[string](c)` (a generic type's conversion to
    # the parser): named by the indexed operand (they were calls of `string`, or none)
    operand = (callee.child_by_field_name("operand") if callee.type == "index_expression" else
               callee.child_by_field_name("type") if node.type == "type_conversion_expression" else None)
    indexed = operand is not None
    if operand is not None:
        callee = operand
        if callee.type not in ("identifier", "selector_expression", "type_identifier", "qualified_type"):
            return  # `fns[i][j](..)`, `f()[k](..)`: a value of a table, no name
    name = tx.callee(blob, callee)
    if name and callee.type == "identifier" and callee.parent is not None and callee.parent.type == "token_tree":
        outer = callee.parent
        while outer.parent is not None and outer.parent.type == "token_tree":
            outer = outer.parent
        if outer.parent is not None and outer.parent.type in ("attribute", "attribute_item"):
            return  # `#[cfg(not(windows))]` calls nothing
        name = _token_receiver(blob, callee) + name
    if name:
        chain = receiver_chain(blob, callee.child_by_field_name("object")) if callee.type == "member_expression" else ""
        into.append(CallSite(name, tx.callee_line(callee), other_self=other_self, indexed=indexed,
                             arguments=argument_count(node), chain=chain))


#: Steps of a JS/TS receiver chain ``receiver_chain`` writes at most (``a.b().c().d()``).
CHAIN_STEPS = 8
#: Wrappers a JS/TS chain's value passes through unchanged: ``(x)``, TypeScript's ``x!``.
_CHAIN_WRAPPERS = frozenset({"parenthesized_expression", "non_null_expression"})


def receiver_chain(blob: bytes, node: Node | None) -> str:
    """A JS/TS member call's receiver when it is another call's result (``CallSite.chain``),
    its arguments and type arguments dropped: ``new Hono().basePath()`` of ``new
    Hono<E>().basePath('/v').route(..)``, ``app.route()``, ``this.c.make()``, ``build()``;
    ``""`` when the receiver is a name (the call's dotted name says it), or a step is
    anything else (a subscript, a literal, a computed member), or past ``CHAIN_STEPS``."""
    steps: list[str] = []
    called = False
    while node is not None and len(steps) <= CHAIN_STEPS:
        if node.type in _CHAIN_WRAPPERS:
            node = node.named_children[0] if node.named_children else None
            continue
        if node.type == "new_expression":
            made = node.child_by_field_name("constructor")
            if made is None or made.type not in ("identifier", "member_expression") or not _dotted(blob, made):
                return ""
            steps.append(f"new {tx.text(blob, made)}()")
            break
        if node.type == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "identifier":
                steps.append(f"{tx.text(blob, fn)}()")
                break
            prop = fn.child_by_field_name("property") if fn is not None and fn.type == "member_expression" else None
            if prop is None or prop.type not in ("property_identifier", "private_property_identifier"):
                return ""
            steps.append(f"{tx.text(blob, prop)}()")
            called = True
            node = fn.child_by_field_name("object")
            continue
        if node.type in ("identifier", "this", "member_expression") and _dotted(blob, node):
            steps.append(tx.text(blob, node))
            break
        return ""
    return ".".join(reversed(steps)) if called or (steps and steps[-1].startswith("new ")) else ""


_DOTTED = re.compile(r"#?[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)*")


def _dotted(blob: bytes, node: Node) -> bool:
    """Whether ``node``'s text is a plain dotted name (``this.app``, ``db.Conn``)."""
    return _DOTTED.fullmatch(tx.text(blob, node)) is not None


#: Argument lists counted (``argument_count``): Go's, Python's, Java's, C's (``argument_list``),
#: JavaScript's and TypeScript's, Rust's (``arguments``). Others (Kotlin's ``value_arguments``
#: beside a trailing lambda, a tagged template's string) are not.
_ARGUMENT_LISTS = frozenset({"argument_list", "arguments"})
#: Arguments of no count of their own: a spread (JS ``...xs``, Go ``xs...``), a splat or a
#: keyword argument (Python), a named one (C#, PHP).
_UNCOUNTED_ARGUMENTS = frozenset({"spread_element", "variadic_argument", "list_splat", "dictionary_splat",
                                  "keyword_argument", "named_argument", "splat_argument",
                                  "hash_splat_argument", "block_argument", "pair", "argument_unpacking"})


def argument_count(node: Node) -> int:
    """How many arguments the call ``node`` passes (``CallSite.arguments``), ``-1`` when
    unknown: no counted argument list (``_ARGUMENT_LISTS``), one argument that is no plain
    value (``_UNCOUNTED_ARGUMENTS``), or a Go call whose one argument is a call (its
    results may be several: ``f(g())``). A Go generic type's conversion (``getTyped[string](c)``
    to the parser) passes one."""
    if node.type == "type_conversion_expression":
        return 1
    args = node.child_by_field_name("arguments")
    if args is None or args.type not in _ARGUMENT_LISTS:
        return -1
    values = [c for c in args.named_children if not c.is_extra]
    if any(c.type in _UNCOUNTED_ARGUMENTS for c in values):
        return -1
    if (node.type == "call_expression" and args.type == "argument_list" and len(values) == 1
            and values[0].type == "call_expression"):
        return -1  # Go's `f(g())` passes every result of g
    return len(values)


#: Levels above a value reference read for a type expression around it.
TYPE_EXPRESSION_DEPTH = 4


def _in_type_expression(node: Node) -> bool:
    """Whether a value reference sits in a subscript or a type (``Callable[[T], R]``'s
    ``T``) or is a class an ``except (A, B):`` clause tests for (``except*`` too): a
    type's name, never a value passed on (a requests audit: ``except (ConnectionError,
    Timeout):`` were references of both classes, as ``isinstance``'s were before)."""
    child, parent = node, node.parent
    for _ in range(TYPE_EXPRESSION_DEPTH):
        if parent is None:
            return False
        if parent.type in ("subscript", "type", "generic_type"):
            return True
        if parent.type in _EXCEPT_CLAUSES:
            return child == parent.child_by_field_name("value")
        child, parent = parent, parent.parent
    return False


#: Python's handler clauses, whose ``value`` is the classes they test for.
_EXCEPT_CLAUSES = frozenset({"except_clause", "except_group_clause"})


#: Segments of a receiver read back from a call in a macro's tokens (``_token_receiver``).
TOKEN_RECEIVER_SEGMENTS = 3


def _token_receiver(blob: bytes, name: Node) -> str:
    """The receiver written before a call in a macro's token tree, dotted with its ``.``:
    ``self.`` of ``itry!(self.push(&dent))``, ``Ancestor.`` of ``Ancestor::new(..)`` (the
    grammar keeps a macro's arguments as tokens; the call was a bare ``push``, so walkdir's
    three ``itry!(self.push(..))`` were name-only callers and ``--resolved`` had none).
    ``""`` when none is written (``foo(1)``)."""
    parts: list[str] = []
    node = name
    while len(parts) < TOKEN_RECEIVER_SEGMENTS:
        sep = node.prev_sibling
        head = sep.prev_sibling if sep is not None else None
        if sep is None or head is None or sep.type not in (".", "::") or head.type not in ("identifier", "self"):
            break
        parts.append(tx.text(blob, head))
        node = head
    return "".join(f"{p}." for p in reversed(parts))


def _cpp_base(blob: bytes, initializer: Node) -> bool:
    """Whether a C++ constructor's initializer ``X(..)`` names a base class, not a member:
    a base the class head lists (``struct D : public Base``) when the constructor is
    written in its class; written outside it (``D::D() : Base(x)``), a capitalised name
    not ending in ``_`` (members are ``size_``, ``buf``; fmt's and LLVM's styles)."""
    name = tx.text(blob, initializer.named_children[0])
    function = initializer.parent.parent if initializer.parent is not None else None
    holder = function.parent if function is not None else None
    cls = holder.parent if holder is not None and holder.type == "field_declaration_list" else None
    if cls is None:
        return name[:1].isupper() and not name.endswith("_")
    clause = next((c for c in cls.named_children if c.type == "base_class_clause"), None)
    return clause is not None and re.search(rf"(?<![\w:]){re.escape(name)}\b", tx.text(blob, clause)) is not None


def _attach(blob: bytes, d: _Def, parent: _Def | None, naming: _Naming) -> None:
    """Name ``d`` inside ``parent``, or inside its ``@receiver`` type (Go methods, Rust impls).

    ``<Type as Trait>::m`` for a trait impl; a ``@params`` list adds ``(T1,T2)`` to the last
    segment so overloads never share a qualified name.
    """
    raw = d.raw
    d.name = naming.default if raw.name.type == "default" else tx.text(blob, raw.name)
    if raw.alias is not None:
        d.name = tx.text(blob, raw.alias)
    if len(d.name) > 2 and d.name[0] == d.name[-1] == "`":
        # Kotlin's, Swift's and Scala's quoted identifier: moshi's class `-JsonUtf8Reader`
        # is -JsonUtf8Reader, as a stack trace and a caller write it
        d.name = d.name[1:-1]
    if raw.anonymous:
        d.name = _field_holding(blob, d.outer) or f"<anonymous {tx.compact(blob, raw.name)}>"
    owner = parent.qualified_name if parent is not None else naming.package
    d.parent = parent.qualified_name if parent is not None else ""
    if "::" in d.name and naming.separator != "::" and not raw.anonymous:
        # Ruby's compact ``class Sinatra::Base``: the class ``Base`` of ``Sinatra``, named
        # ``Sinatra.Base`` as its nested form is (it was ``Sinatra::Base``, which hid the
        # real class from ``symbols Sinatra::Base`` behind a test's reopening)
        scope, _, d.name = d.name.rpartition("::")
        owner = naming.join(owner, scope.replace("::", naming.separator).lstrip(naming.separator))
        d.parent = owner
    if raw.receiver is not None:
        d.parent = owner = naming.join(owner, naming.receiver(blob, raw.receiver))
    if raw.trait is not None:
        owner = f"<{owner} as {tx.compact(blob, raw.trait)}>"
    segment = d.name + (tx.param_types(blob, raw.params) if raw.params is not None else "")
    d.qualified_name = naming.join(owner, segment)
    in_container = raw.receiver is not None or (parent is not None and parent.kind in _CONTAINERS)
    if d.kind is SymbolKind.FUNCTION and in_container:
        d.kind = SymbolKind.METHOD


#: Declarations of a class's or interface's fields (Java: an interface's are constants).
_FIELDS = frozenset({"field_declaration", "constant_declaration"})


def _field_holding(blob: bytes, node: Node) -> str:
    """The field an anonymous class is the initial value of (Java's ``static final
    TypeAdapterFactory ENUM_FACTORY = new TypeAdapterFactory() {...}``: ``ENUM_FACTORY``,
    the name its users write; gson's ``TypeAdapters`` held eleven ``<anonymous
    TypeAdapter<Number>>``), else ``""`` (a local variable's or an argument's class stays
    anonymous). Through calls on it (``new TypeAdapter<Class>() {...}.nullSafe()``)."""
    while (node.parent is not None and node.parent.type == "method_invocation"
           and node.parent.child_by_field_name("object") == node):
        node = node.parent
    declarator = node.parent
    if declarator is None or declarator.type != "variable_declarator" or (
            declarator.parent is None or declarator.parent.type not in _FIELDS):
        return ""
    name = declarator.child_by_field_name("name")
    return tx.text(blob, name) if name is not None else ""


#: Characters of a constant's signature (its declaration on one line): a generated table
#: of a million characters is one constant, and its signature is shown with every lookup.
VALUE_SIGNATURE_CHARS = 160


#: Go's value specs, which a ``const (...)`` or ``var (...)`` block writes without the
#: keyword: the signature says it (``const DefaultPort = 8080``).
_SPEC_KEYWORDS = {"const_spec": "const ", "var_spec": "var "}


def _value_signature(blob: bytes, d: _Def) -> str:
    """A constant's declaration on one line, cut to ``VALUE_SIGNATURE_CHARS`` (``...``
    marks a cut); reads at most four bytes a character of it."""
    start = _after_decorators(d)
    end = min(d.inner.end_byte, start + 4 * VALUE_SIGNATURE_CHARS)
    flat = _SPEC_KEYWORDS.get(d.inner.type, "") + " ".join(
        blob[start:end].decode("utf-8", errors="ignore").split())
    if end < d.inner.end_byte or len(flat) > VALUE_SIGNATURE_CHARS:
        return flat[:VALUE_SIGNATURE_CHARS - 4].rstrip() + " ..."
    return flat.removesuffix(";").rstrip()


def _symbol(blob: bytes, d: _Def, clean: Callable[[str], str], doc_style: str) -> Symbol:
    end_byte, end_line = tx.trimmed_end(blob, d.outer, d.start.start_point.column)
    return Symbol(
        kind=d.kind,
        name=d.name,
        qualified_name=d.qualified_name,
        parent=d.parent,
        signature=(_value_signature(blob, d) if d.kind in VALUE_KINDS
                   else tx.signature(blob, d.inner, d.raw.body, _after_decorators(d))),
        docstring=_symbol_doc(blob, d, clean, doc_style),
        start_line=tx.start_line(d.start),
        end_line=end_line,
        start_byte=d.start.start_byte,
        end_byte=end_byte,
        decorators=tuple(tx.text(blob, d.raw.decorators[key]) for key in sorted(d.raw.decorators)),
        is_async=d.raw.is_async,
        call_sites=tuple(c for c in d.calls if not c.reference),
        references=tuple(c for c in d.calls if c.reference),
    )


def _after_decorators(d: _Def) -> int:
    """Where the header starts: after the decorators the grammar puts inside it (C# attributes,
    Kotlin and Swift annotations), so a signature never repeats them."""
    inside = [node.end_byte for node in d.raw.decorators.values() if node.start_byte >= d.inner.start_byte]
    return max(inside, default=d.inner.start_byte)


def _doc(blob: bytes, node: Node | None, clean: Callable[[str], str]) -> str:
    return clean(tx.text(blob, node)) if node is not None else ""


def _module_doc(blob: bytes, node: Node | None, clean: Callable[[str], str], doc_style: str) -> str:
    """The ``@doc.module`` capture; in a comment style, a capture that is not a comment (Go's
    package clause) stands for the comments directly above it."""
    if node is not None and doc_style in COMMENT_STYLES and "comment" not in node.type:
        return clean(tx.leading_comments(blob, node))
    return _doc(blob, node, clean)


def _symbol_doc(blob: bytes, d: _Def, clean: Callable[[str], str], doc_style: str) -> str:
    """The ``@doc`` capture, else for comment styles the comments directly above the range
    (above its first decorator, attribute or ``export``)."""
    if d.raw.doc is None and doc_style in COMMENT_STYLES:
        return clean(tx.leading_comments(blob, d.start))
    return _doc(blob, d.raw.doc, clean)


def _imports(blob: bytes, tags: RawTags) -> tuple[str, ...]:
    """Imported module names in source order, each once."""
    names = (tx.compact(blob, node) for node in sorted(tags.imports, key=lambda n: n.start_byte))
    return tuple(dict.fromkeys(name for name in names if name))
