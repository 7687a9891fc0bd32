"""Which of Ruby's bare identifiers are method calls, and which calls run in a block that
may have another ``self``.

Ruby reads a bare identifier as a local variable when an assignment, a parameter or a
block parameter of its scope names it before it (textually, the parser's own rule), and
as a method call on ``self`` otherwise: ``tok = consume_boundary`` and ``case
consume_boundary`` call the method (rack's ``Multipart::Parser``, whose ``callers`` found
none when only a bare name standing as a statement was a call). A block sees its method's
locals; a local first assigned in a block is the block's alone.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from coderecalld.parse import text as tx

#: Ruby nodes that open a scope of local variables (a block sees its method's).
SCOPES = frozenset({"method", "singleton_method", "class", "module", "singleton_class", "program"})
#: Blocks: they see their scope's locals, and keep their own.
_BLOCKS = frozenset({"block", "do_block", "lambda"})
#: Nodes whose identifiers (but a ``value:`` field's: a default's expression) are
#: parameters or assigned variables: local names.
_BINDERS = frozenset({"method_parameters", "block_parameters", "lambda_parameters", "optional_parameter",
                      "splat_parameter", "hash_splat_parameter", "keyword_parameter", "block_parameter",
                      "destructured_parameter", "exception_variable", "left_assignment_list",
                      "destructured_left_assignment", "rest_assignment", "for", "in_clause",
                      "array_pattern", "find_pattern", "hash_pattern", "keyword_pattern",
                      "alternative_pattern", "as_pattern", "hash_splat_nil"})
#: (parent type, field) of an identifier that is a name, not an expression: a call's
#: method (the call is its own site), a definition's name, an alias.
_NAMES = frozenset({("call", "method"), ("method", "name"), ("singleton_method", "name"),
                    ("singleton_method", "object"), ("scope_resolution", "name")})
_NAME_PARENTS = frozenset({"alias", "undef", "setter"})
#: Keywords the grammar reads as identifiers (the file's name, line and encoding) and a
#: block's numbered parameters (``_1``): no call.
_PSEUDO = frozenset({"__FILE__", "__LINE__", "__ENCODING__", *(f"_{i}" for i in range(1, 10))})
_NAMED_GROUP = re.compile(r"\(\?<([A-Za-z_]\w*)>")
#: Receiverless calls whose block keeps ``self`` (Kernel's): a block on any other bare call
#: or on a constant may be a DSL's ``instance_eval``.
_PLAIN_BLOCK_CALLS = frozenset({"loop", "lambda", "proc", "catch", "tap", "then", "yield_self"})
#: Calls that run their block with another ``self`` whatever their receiver.
_EVALS = frozenset({"instance_eval", "instance_exec", "class_eval", "class_exec", "module_eval",
                    "module_exec", "define_method", "define_singleton_method"})

#: One scope's bindings: name -> [(byte where it is bound, the block it belongs to or None)].
Bindings = dict[str, list[tuple[int, tuple[int, int] | None]]]


def _field(node: Node) -> str | None:
    parent = node.parent
    if parent is None:
        return None
    for i, child in enumerate(parent.children):
        if child.start_byte == node.start_byte and child.end_byte == node.end_byte and child.type == node.type:
            return parent.field_name_for_child(i)
    return None


def _scope(node: Node) -> Node | None:
    scope = node.parent
    while scope is not None and scope.type not in SCOPES:
        scope = scope.parent
    return scope


def _block(node: Node, scope: Node) -> tuple[int, int] | None:
    """The innermost block around ``node`` inside ``scope``, as a byte range."""
    n = node.parent
    while n is not None and n.start_byte >= scope.start_byte and n.type not in SCOPES:
        if n.type in _BLOCKS:
            return (n.start_byte, n.end_byte)
        n = n.parent
    return None


def _binds(node: Node) -> bool:
    """Whether identifier ``node`` names a local where it stands (a parameter, an
    assignment's left side, a pattern's variable)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in _BINDERS:
        return _field(node) != "value"
    return parent.type in ("assignment", "operator_assignment") and _field(node) == "left"


def bindings(blob: bytes, scope: Node) -> Bindings:
    """The locals ``scope`` binds, each where it is bound and in which block."""
    out: Bindings = {}
    stack = [scope]
    while stack:
        n = stack.pop()
        parent = n.parent
        names: list[str] = []
        if n.type == "identifier" and _binds(n):
            names = [tx.text(blob, n)]
        elif (n.type == "hash_key_symbol" and parent is not None and parent.type == "keyword_pattern"
              and parent.child_by_field_name("value") is None):
            names = [tx.text(blob, n)]  # ``in {name:}`` binds ``name``
        elif n.type == "regex" and parent is not None and parent.type == "binary":
            names = _NAMED_GROUP.findall(tx.text(blob, n))  # ``/(?<year>\d+)/ =~ s`` binds ``year``
        for name in names:
            out.setdefault(name, []).append((n.start_byte, _block(n, scope)))
        if n is scope or n.type not in SCOPES:
            stack.extend(n.children)
    return out


def is_local(blob: bytes, node: Node, cache: dict[tuple[int, int], Bindings]) -> bool:
    """Whether bare identifier ``node`` reads a local: one its scope binds at or before it,
    outside any block or in a block around it. ``cache`` keeps each scope's bindings."""
    scope = _scope(node)
    if scope is None:
        return False
    key = (scope.start_byte, scope.end_byte)
    if key not in cache:
        cache[key] = bindings(blob, scope)
    at = node.start_byte
    return any(pos <= at and (block is None or block[0] <= at < block[1])
               for pos, block in cache[key].get(tx.text(blob, node), ()))


def is_bare_call(blob: bytes, node: Node, cache: dict[tuple[int, int], Bindings]) -> bool:
    """Whether ``node``, an identifier the tags query caught, is a method call on ``self``:
    in an expression's place (not a call's method name, a definition's name, a parameter,
    an assignment's left side, ``__FILE__``, what ``defined?`` asks) and no local
    (``is_local``)."""
    parent = node.parent
    if node.type != "identifier" or parent is None:
        return True  # ``super``
    if parent.type in _NAME_PARENTS or (parent.type, _field(node)) in _NAMES or _binds(node):
        return False
    if tx.text(blob, node) in _PSEUDO or _in_defined(node):
        return False
    return not is_local(blob, node, cache)


def _in_defined(node: Node) -> bool:
    """Whether ``node`` is what ``defined?(..)`` asks about: it asks, it calls nothing."""
    parent = node.parent
    if parent is not None and parent.type == "parenthesized_statements":
        parent = parent.parent
    return parent is not None and parent.type == "unary" and parent.child(0) is not None and (
        parent.child(0).type == "defined?")


def in_other_self(blob: bytes, node: Node) -> bool:
    """Whether call ``node`` stands in a block that may run with another ``self`` than its
    method's: one passed to a receiverless call or a constant's (``mock_app { .. }``,
    ``Class.new do .. end``, a DSL's ``instance_eval``: sinatra's specs call the app's
    ``stream`` in ``mock_app { get('/') { .. } }``), or to ``instance_eval``/``class_eval``.
    A block on a value (``params.map { |k, v| escape(k) }``) keeps ``self``: rack's
    ``Utils.build_query`` calls its own ``escape`` so."""
    n = node.parent
    while n is not None and n.type not in SCOPES:
        if n.type in ("block", "do_block") and n.parent is not None and n.parent.type == "call":
            call = n.parent
            method = call.child_by_field_name("method")
            name = tx.text(blob, method) if method is not None else ""
            receiver = call.child_by_field_name("receiver")
            if name in _EVALS:
                return True
            if receiver is None and name not in _PLAIN_BLOCK_CALLS:
                return True
            if receiver is not None and receiver.type in ("constant", "scope_resolution", "self"):
                return True
        n = n.parent
    return False
