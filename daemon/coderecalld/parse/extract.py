"""Build a ``ParsedFile`` from a tree and its grouped tags captures.

Nesting and call ownership come from byte ranges alone, so this works for any language
whose query follows the capture convention in ``registry``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node, Tree

from coderecalld.parse import text as tx
from coderecalld.parse.captures import RawDefinition, RawTags, collect
from coderecalld.parse.docstrings import DOC_STYLES
from coderecalld.parse.registry import LanguageSpec, tags_query
from coderecalld.records import CallSite, ParsedFile, Symbol, SymbolKind

_KINDS = frozenset(kind.value for kind in SymbolKind)
# A function whose nearest enclosing definition is one of these is a method.
_CONTAINERS = frozenset(
    {SymbolKind.CLASS, SymbolKind.STRUCT, SymbolKind.INTERFACE, SymbolKind.TRAIT, SymbolKind.ENUM}
)


@dataclass(slots=True)
class _Def:
    """One definition while nesting is resolved; ``scope_*`` is the range that owns calls."""

    raw: RawDefinition
    kind: SymbolKind
    outer: Node
    inner: Node
    scope_start: int
    scope_end: int
    name: str = ""
    qualified_name: str = ""
    parent: str = ""
    calls: list[CallSite] = field(default_factory=list)


def parsed_file(blob: bytes, tree: Tree, spec: LanguageSpec) -> ParsedFile:
    """Extract symbols, calls and imports of ``tree`` (parsed from ``blob``, valid UTF-8)."""
    tags = collect(tags_query(spec.name), tree.root_node)
    defs = sorted(
        filter(None, map(_definition, tags.definitions)),
        key=lambda d: (d.outer.start_byte, -d.outer.end_byte),
    )
    module_calls = _resolve(blob, defs, tags.calls)
    clean = DOC_STYLES[spec.doc_style]
    return ParsedFile(
        language=spec.name,
        symbols=tuple(_symbol(blob, d, clean) for d in defs),
        imports=_imports(blob, tags),
        module_call_sites=tuple(module_calls),
        module_docstring=_doc(blob, tags.module_doc, clean),
        line_count=tx.line_count(blob),
        has_errors=tree.root_node.has_error,
    )


def _definition(raw: RawDefinition) -> _Def | None:
    """The widest extent is the symbol's range (decorators included), the narrowest its header."""
    extents = [(kind, node) for kind, node in raw.extents if kind in _KINDS]
    if not extents:
        return None
    outer = max(extents, key=lambda e: e[1].end_byte - e[1].start_byte)[1]
    kind, inner = min(extents, key=lambda e: e[1].end_byte - e[1].start_byte)
    scope = raw.body if raw.body is not None else inner
    return _Def(raw, SymbolKind(kind), outer, inner, scope.start_byte, scope.end_byte)


def _resolve(blob: bytes, defs: list[_Def], calls: list[tuple[Node, Node]]) -> list[CallSite]:
    """Name each def after its parent and give each call to its innermost scope; return top-level calls.

    One sweep in source order with a stack of open definitions: O(n log n + n * depth).
    """
    events: list[tuple[int, int, object]] = [(d.outer.start_byte, 0, d) for d in defs]
    events += [(call.start_byte, 1, (call, name)) for call, name in calls]
    events.sort(key=lambda event: event[:2])
    stack: list[_Def] = []
    module: list[CallSite] = []
    for position, is_call, item in events:
        while stack and stack[-1].outer.end_byte <= position:
            stack.pop()
        owner = next((d for d in reversed(stack) if d.scope_start <= position < d.scope_end), None)
        if is_call:
            _add_call(blob, item, owner.calls if owner else module)
        else:
            _attach(blob, item, owner)
            stack.append(item)
    return module


def _add_call(blob: bytes, call: tuple[Node, Node], into: list[CallSite]) -> None:
    node, callee = call
    name = tx.callee(blob, callee)
    if name:
        into.append(CallSite(name, tx.start_line(node)))


def _attach(blob: bytes, d: _Def, parent: _Def | None) -> None:
    d.name = tx.text(blob, d.raw.name)
    if parent is None:
        d.qualified_name = d.name
        return
    d.parent = parent.qualified_name
    d.qualified_name = f"{parent.qualified_name}.{d.name}"
    if d.kind is SymbolKind.FUNCTION and parent.kind in _CONTAINERS:
        d.kind = SymbolKind.METHOD


def _symbol(blob: bytes, d: _Def, clean: Callable[[str], str]) -> Symbol:
    return Symbol(
        kind=d.kind,
        name=d.name,
        qualified_name=d.qualified_name,
        parent=d.parent,
        signature=tx.signature(blob, d.inner, d.raw.body),
        docstring=_doc(blob, d.raw.doc, clean),
        start_line=tx.start_line(d.outer),
        end_line=tx.end_line(d.outer),
        start_byte=d.outer.start_byte,
        end_byte=d.outer.end_byte,
        decorators=tuple(tx.text(blob, d.raw.decorators[key]) for key in sorted(d.raw.decorators)),
        is_async=d.raw.is_async,
        call_sites=tuple(d.calls),
    )


def _doc(blob: bytes, node: Node | None, clean: Callable[[str], str]) -> str:
    return clean(tx.text(blob, node)) if node is not None else ""


def _imports(blob: bytes, tags: RawTags) -> tuple[str, ...]:
    """Imported module names in source order, each once."""
    names = (tx.compact(blob, node) for node in sorted(tags.imports, key=lambda n: n.start_byte))
    return tuple(dict.fromkeys(name for name in names if name))
