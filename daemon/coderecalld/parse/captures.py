"""Run a language's tags query and group its captures per definition.

All matches that capture the same ``@name`` node describe one definition; this is how a
language's query adds decorators, docstrings, an async flag or naming context (``@receiver``,
``@trait``, ``@params``, ``@anonymous``) in separate patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node, Query, QueryCursor

from coderecalld.parse import text as tx

_DEFINITION = "definition."
_REFERENCE = "reference."
# Captures that only name a definition (see extract._attach); the first node of each is kept.
_CONTEXT = ("receiver", "trait", "params", "alias", "helper")


@dataclass(slots=True)
class RawDefinition:
    """Captures of one definition; ``extents`` are ``(kind, node)`` pairs from all its patterns.

    Naming context: ``receiver`` is the owner type of a definition written outside it (Go
    receiver, Rust ``impl`` type), ``trait`` the trait an ``impl`` implements, ``params`` the
    parameter list whose types join the qualified name (Java overloads), ``anonymous`` marks a
    ``@name`` that is the supertype of an anonymous class, ``alias`` the name the definition
    is known by instead of ``@name`` (JS's ``res.type = function contentType``: ``type``),
    ``helper`` the function whose call names it (express's ``defineGetter(req, 'fresh',
    function(){..})``; ``local_helpers``).
    ``tail`` is a node after the ``@definition`` node that still belongs to it, the last one
    when several are captured (Kotlin's ``get() = ...`` on the line after its property, which
    the grammar makes the property's sibling).
    """

    name: Node
    extents: list[tuple[str, Node]] = field(default_factory=list)
    body: Node | None = None
    decorators: dict[int, Node] = field(default_factory=dict)
    doc: Node | None = None
    is_async: bool = False
    receiver: Node | None = None
    trait: Node | None = None
    params: Node | None = None
    anonymous: bool = False
    tail: Node | None = None
    alias: Node | None = None
    helper: Node | None = None


@dataclass(slots=True)
class RawTags:
    """Everything a tags query captured in one tree.

    ``calls`` are ``(call node, callee node)`` pairs; ``values`` are ``@reference.value``
    nodes (a function named as a value, not called: Python); ``imports`` are module-name nodes
    (or ``None`` when an import pattern captured no ``@name``); ``package`` is the file's
    ``@package`` name (Go, Java), which prefixes its top-level qualified names.
    """

    definitions: list[RawDefinition] = field(default_factory=list)
    calls: list[tuple[Node, Node]] = field(default_factory=list)
    values: list[Node] = field(default_factory=list)
    imports: list[Node] = field(default_factory=list)
    module_doc: Node | None = None
    package: Node | None = None


def collect(query: Query, root: Node) -> RawTags:
    """Run ``query`` over ``root`` and group the matches (definitions in no particular order)."""
    tags = RawTags()
    groups: dict[tuple[int, int], RawDefinition] = {}
    for _pattern, match in QueryCursor(query).matches(root):
        if any(key.startswith(_REFERENCE) for key in match):
            _add_reference(tags, match)
        elif "doc.module" in match:
            if tags.module_doc is None:
                tags.module_doc = match["doc.module"][0]
        elif "package" in match:
            if tags.package is None:
                tags.package = match["package"][0]
        elif "name" in match:
            name = match["name"][0]
            group = groups.setdefault((name.start_byte, name.end_byte), RawDefinition(name))
            _add_definition(group, match)
    tags.definitions = list(groups.values())
    return tags


def _add_reference(tags: RawTags, match: dict[str, list[Node]]) -> None:
    names = match.get("name", [])
    if "reference.call" in match and names:
        tags.calls.append((match["reference.call"][0], names[0]))
    elif "reference.value" in match:
        node = match["reference.value"][0]
        if not tags.values or tags.values[-1].start_byte != node.start_byte:  # two patterns, one node
            tags.values.append(node)
    elif "reference.import" in match:
        tags.imports.extend(names)


def _add_definition(group: RawDefinition, match: dict[str, list[Node]]) -> None:
    for key, nodes in match.items():
        if key.startswith(_DEFINITION):
            group.extents.append((key[len(_DEFINITION):], nodes[0]))
        elif key == "body":
            group.body = nodes[0]
        elif key == "decorator":
            group.decorators.update((node.start_byte, node) for node in nodes)
        elif key == "doc" and group.doc is None:
            group.doc = nodes[0]
        elif key == "async":
            group.is_async = True
        elif key == "anonymous":
            group.anonymous = True
        elif key == "tail":
            if group.tail is None or nodes[-1].end_byte > group.tail.end_byte:
                group.tail = nodes[-1]
        elif key in _CONTEXT and getattr(group, key) is None:
            setattr(group, key, nodes[0])


#: A helper's name that says it defines a property (express's ``defineGetter``, a
#: ``defineProperty``/``defProp``/``setter`` of one's own): an event binder's
#: ``on(window, 'resize', function () {..})`` or an ``assign(app, 'render', ..)`` defines
#: no member ``window.resize`` (a review).
PROPERTY_DEFINERS = re.compile(r"(?i)define|getter|setter|propert|^defprop")


def local_helpers(blob: bytes, definitions: list[RawDefinition]) -> list[RawDefinition]:
    """``definitions`` with the names a ``@helper``'s call gives (queries/javascript/stored.scm)
    kept only where the file defines a function of the helper's name and that name says it
    defines a property (``PROPERTY_DEFINERS``), as express's
    ``lib/request.js`` defines ``defineGetter`` beside its calls; a test's ``stub(obj, 'get',
    function () {..})`` calls an imported helper, which need not define anything. Otherwise
    an anonymous function is no symbol (as before) and a named one is known by its own name
    again: its ``@alias`` and ``@receiver`` are dropped, and the call's statement from its
    extents."""
    if all(d.helper is None for d in definitions):
        return definitions
    defined = {name for d in definitions
               if d.helper is None and d.name.type == "identifier" and any(k == "function" for k, _ in d.extents)
               and PROPERTY_DEFINERS.search(name := tx.text(blob, d.name))}
    out = []
    for d in definitions:
        if d.helper is None or tx.text(blob, d.helper) in defined:
            out.append(d)
        elif d.name.type == "identifier":
            call = d.helper.start_byte
            d.extents = [(k, n) for k, n in d.extents if not n.start_byte <= call < n.end_byte]
            d.alias = d.receiver = d.helper = None
            out.append(d)
    return out
