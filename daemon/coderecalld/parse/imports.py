"""Import tables: which local name stands for which imported dotted name, per file.

Read from ``queries/<language>/imports.scm`` (an ``@import`` capture per statement) when the
language has one; other languages answer ``()``. Python forms:

* ``import a.b``            -> ``("a", "a")`` (the name bound is the first segment)
* ``import a.b as c``       -> ``("c", "a.b")``
* ``from x.y import z as w`` -> ``("w", "x.y.z")``
* ``from ..m import f``     -> ``("f", "..m.f")`` (dots kept; the resolver knows the package)

A star import ``from .m import *`` is ``("*", ".m")``: it binds the names of ``.m`` (a
package's ``__init__`` re-exporting its modules this way is common). JavaScript/TypeScript forms keep
the module specifier as written and join an imported name with ``#``:

* ``import { a, b as c } from "./x"`` -> ``("a", "./x#a")``, ``("c", "./x#b")``
* ``import * as ns from "../lib"``   -> ``("ns", "../lib")``
* ``const m = require("./m")``       -> ``("m", "./m")``; ``const { f, g: h } = require("./m")``
  -> ``("f", "./m#f")``, ``("h", "./m#g")``; ``var f = require("./m").g`` -> ``("f", "./m#g")``
* ``module.exports = f`` -> ``("default", "#f")``; ``module.exports = require("./m")`` ->
  ``("default", "./m#default")`` (CommonJS: what ``require`` returns is the default)

* ``import g from "./m"``          -> ``("g", "./m#default")``
* ``export default function f``     -> ``("default", "#f")`` (an empty specifier is the file
  itself; also ``export default class F`` and ``export default f;``)
* ``export default (config) => {}`` in ``lib/resolveConfig.js`` -> ``("default",
  "#resolveConfig")``: an anonymous function, class or object is named after its file
  (``default_name``), as its symbol is (``queries/javascript/stored.scm``)

Go keeps the import path
and binds the alias, else the path's last element less a major-version suffix; Java binds a
class's simple name (or a static member's):

* ``import x "example.com/m/util"`` -> ``("x", "example.com/m/util")``; ``"example.com/m/v2"`` ->
  ``("m", "example.com/m/v2")``; ``. "p"`` -> ``("*", "p")``; ``_ "p"`` binds nothing
* ``import a.b.C;`` -> ``("C", "a.b.C")``; ``import a.b.*;`` -> ``("*", "a.b")``;
  ``import static a.b.C.max;`` -> ``("max", "a.b.C.max")``

Kotlin likewise: ``import a.b.C`` -> ``("C", "a.b.C")``, ``import a.b.C as D`` ->
``("D", "a.b.C")``, ``import a.b.*`` -> ``("*", "a.b")``.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

from tree_sitter import Node, Query, QueryCursor, Tree

from coderecalld.parse import text as tx
from coderecalld.parse.registry import LanguageSpec, language

#: The name of an anonymous default export when the file's path is not known.
DEFAULT = "default"


@functools.lru_cache(maxsize=None)
def _query(spec: LanguageSpec) -> Query | None:
    """``imports.scm`` next to the language's tags query (TSX shares TypeScript's), if any."""
    folder = spec.tags_path.rsplit("/", 1)[0]
    path = resources.files("coderecalld.parse").joinpath(f"{folder}/imports.scm")
    return Query(language(spec.name), path.read_text("utf-8")) if path.is_file() else None


def aliases(blob: bytes, tree: Tree, spec: LanguageSpec, default: str = DEFAULT) -> tuple[tuple[str, str], ...]:
    """(local name, imported dotted name) pairs of ``tree``, in source order; ``default``
    names a JS/TS file's anonymous default export (``default_name``)."""
    return scoped_aliases(blob, tree, spec, default)[0]


def scoped_aliases(blob: bytes, tree: Tree, spec: LanguageSpec, default: str = DEFAULT
                   ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[int, str, str], ...]]:
    """``aliases``, and apart from them a Python function's own imports as (1-based line,
    local name, imported dotted name): ``def main(): from pkg.tasks import run`` binds
    ``run`` in ``main`` only (``ParsedFile.local_imports``); every other language's, and a
    Python module's or class body's, are in the first."""
    query = _query(spec)
    if query is None:
        return (), ()
    nodes = QueryCursor(query).captures(tree.root_node).get("import", [])
    read = _READERS.get(spec.name, _python)
    if read is _js:
        read = functools.partial(_js, default=default)
    out: list[tuple[str, str]] = []
    local: list[tuple[int, str, str]] = []
    for node in sorted(nodes, key=lambda n: n.start_byte):
        if read is _python and _in_function(node):
            local += [(tx.start_line(node), name, target) for name, target in read(blob, node)]
        else:
            out += read(blob, node)
    return tuple(out), tuple(local)


def _in_function(node: Node) -> bool:
    """Whether a Python statement is in a function's body (a lambda holds none)."""
    parent = node.parent
    while parent is not None:
        if parent.type == "function_definition":
            return True
        parent = parent.parent
    return False


def instances(blob: bytes, tree: Tree, spec: LanguageSpec) -> tuple[tuple[str, str], ...]:
    """Python's module-level ``name = Callee(...)`` statements as (name, dotted callee as
    written), in source order: ``_default_decoder = JSONDecoder()`` ->
    ``("_default_decoder", "JSONDecoder")``, ``log = logging.Logger("x")`` ->
    ``("log", "logging.Logger")``. Only plain names and dotted callees (no subscripts,
    no chained calls); a later binding of the same name wins in the resolver. ``()`` for
    other languages."""
    if spec.name != "python":
        return ()
    out: list[tuple[str, str]] = []
    bound: dict[str, set[str]] = {}  # name -> every callee it is bound to
    for statement, inside in _module_statements(tree.root_node):
        # Grammar versions differ: the assignment is the statement, or wrapped in one.
        assign = (statement.named_children[0] if statement.type == "expression_statement"
                  and statement.named_children else statement)
        if assign.type == "with_item":  # `with Live(..) as live:` (a with's value: the class's)
            value = assign.named_children[0] if assign.named_children else None
            left = value.named_children[-1].named_children[0] if (
                value is not None and value.type == "as_pattern" and value.named_children
                and value.named_children[-1].named_children) else None
            right = value.named_children[0] if left is not None and value is not None else None
        elif assign.type == "assignment":
            left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        else:
            continue
        if left is None or right is None or left.type != "identifier" or right.type != "call":
            continue
        callee = right.child_by_field_name("function")
        if callee is not None and callee.type in ("identifier", "attribute") and _dotted(blob, callee):
            name, called = tx.text(blob, left), tx.text(blob, callee)
            other = bool(bound.get(name, set()) - {called})
            bound.setdefault(name, set()).add(called)
            # bound to another class before, one binding in a block (`try: x = A() except:
            # x = B()`): which one holds is not known (a top-level rebinding wins)
            out.append((name, "" if inside and other else called))
    return tuple(out)


#: Module-level compound statements whose blocks ``instances`` reads (not a definition's).
_BLOCK_STATEMENTS = frozenset({"if_statement", "try_statement", "with_statement", "for_statement",
                               "while_statement", "elif_clause", "else_clause", "except_clause",
                               "finally_clause", "block", "with_clause"})


def _module_statements(root: Node) -> list[tuple[Node, bool]]:
    """The module's statements in source order, each with whether it is inside a block:
    those of its top level and of the blocks of its ``if``/``try``/``with``/``for``/``while``
    statements (rich's ``if __name__ == "__main__": console = Console(..)`` then
    ``console.print(..)``: 137 name-only calls in an audit), and a ``with``'s items. No
    function's or class's body."""
    out: list[tuple[Node, bool]] = []

    def walk(node: Node, inside: bool) -> None:
        for child in node.named_children:
            if child.type in _BLOCK_STATEMENTS:
                walk(child, True)
            elif child.type == "with_item":
                out.append((child, True))
            else:
                out.append((child, inside))
    walk(root, False)
    return out


def _dotted(blob: bytes, node: Node) -> bool:
    return re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", tx.text(blob, node)) is not None


def _unquote(blob: bytes, node: Node | None) -> str:
    return tx.text(blob, node).strip("'\"`") if node is not None else ""


def default_name(path: str) -> str:
    """The name of the anonymous default export of the JS/TS file at ``path``, as its import
    sites and IDE auto-imports call it: the base name up to its first dot, that of the
    directory for an ``index`` file, ``-`` words joined in camelCase.

    ``lib/helpers/resolveConfig.js`` -> ``resolveConfig``; ``src/ui/index.tsx`` -> ``ui``;
    ``is-absolute-url.mjs`` -> ``isAbsoluteUrl``; ``""`` (no path known) -> ``DEFAULT``.
    """
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    stem = parts[-1].split(".", 1)[0] if parts else ""
    if stem == "index" and len(parts) > 1:
        stem = parts[-2]
    words = [w for w in re.split(r"[-\s]+", stem) if w]
    return words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:]) if words else DEFAULT


#: Anonymous ``export default`` values a symbol is named after the file for (stored.scm);
#: ``binary_expression``: ``export default isSupported && (async (config) => {...})``.
_ANONYMOUS_DEFAULTS = frozenset({"arrow_function", "function_expression", "generator_function", "class",
                                 "object", "binary_expression"})


#: A ternary's branches that are functions (stored.scm's chosen default export): a function
#: or an immediately called one (``((origin) => (url) => ..)(x)``), which returns one.
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "generator_function"})


def _chosen_function(node: Node) -> bool:
    """Whether ``node`` is a ternary both of whose branches are functions (``_FUNCTION_VALUES``)
    or calls of a parenthesized one: axios's ``export default env ? (() => ..)() : () => true``."""
    if node.type != "ternary_expression":
        return False
    for field in ("consequence", "alternative"):
        branch = node.child_by_field_name(field)
        if branch is not None and branch.type == "call_expression":
            callee = branch.child_by_field_name("function")
            branch = callee.named_children[0] if callee is not None and callee.type == "parenthesized_expression" and callee.named_children else None
        if branch is None or branch.type not in _FUNCTION_VALUES:
            return False
    return True


def _js(blob: bytes, node: Node, default: str = DEFAULT) -> list[tuple[str, str]]:
    if node.type == "assignment_expression":  # `module.exports = f` / `= require("m")`
        right = node.child_by_field_name("right")
        if right.type == "identifier":
            return [("default", f"#{tx.text(blob, right)}")]
        args = right.child_by_field_name("arguments")
        source = _unquote(blob, args.named_children[0]) if args is not None and args.named_children else ""
        return [("default", f"{source}#default")] if source else []
    if node.type == "variable_declarator":
        value = node.child_by_field_name("value")
        if value.type == "member_expression":  # `x = require("m").f`: m's member f
            args = value.child_by_field_name("object").child_by_field_name("arguments")
            source, member = _unquote(blob, args.named_children[0]), tx.text(blob, value.child_by_field_name("property"))
            name = node.child_by_field_name("name")
            return [(tx.text(blob, name), f"{source}#{member}")] if source and member else []
        args = value.child_by_field_name("arguments")
        source = _unquote(blob, args.named_children[0])
        return _js_binding(blob, node.child_by_field_name("name"), source)
    if node.type == "export_statement" and node.child_by_field_name("source") is not None:
        return _js_reexport(blob, node)
    if node.type == "export_statement" and any(c.type == "export_clause" for c in node.named_children):
        return _js_local_exports(blob, node)
    if node.type == "export_statement":
        named = node.child_by_field_name("declaration") or node.child_by_field_name("value")
        if named is not None and named.type != "identifier":
            anonymous = ((named.type in _ANONYMOUS_DEFAULTS and named.child_by_field_name("name") is None)
                         or _chosen_function(named))
            if anonymous and default != DEFAULT:
                return [("default", f"#{default}")]
            named = named.child_by_field_name("name")
        return [("default", f"#{tx.text(blob, named)}")] if named is not None else []
    source = _unquote(blob, node.child_by_field_name("source"))
    out = []
    for clause in (c for c in node.named_children if c.type == "import_clause"):
        for part in clause.named_children:
            if part.type == "identifier":
                out.append((tx.text(blob, part), f"{source}#default"))
            elif part.type == "namespace_import":
                out += [(tx.text(blob, n), source) for n in part.named_children if n.type == "identifier"]
            elif part.type == "named_imports":
                for item in (n for n in part.named_children if n.type == "import_specifier"):
                    name = tx.text(blob, item.child_by_field_name("name"))
                    alias = item.child_by_field_name("alias")
                    out.append((tx.text(blob, alias) if alias is not None else name, f"{source}#{name}"))
    return out


def _js_reexport(blob: bytes, node: Node) -> list[tuple[str, str]]:
    """``export {a, b as c} from "m"`` -> ``("a", "m#a"), ("c", "m#b")``; ``export * as ns
    from "m"`` -> ``("ns", "m")``; ``export * from "m"`` names nothing (its names are not
    listed here). ky's ``source/index.ts`` re-exports ``replaceOption`` so: its 21 test
    calls, imported from the index, were counted as calls on another type."""
    source = _unquote(blob, node.child_by_field_name("source"))
    if not source:
        return []
    out = []
    for part in node.named_children:
        if part.type == "export_clause":
            out += [(exported, f"{source}#{name}") for exported, name in _exported(blob, part)]
        elif part.type == "namespace_export":
            out += [(tx.text(blob, n), source) for n in part.named_children if n.type == "identifier"]
    return out


def _js_local_exports(blob: bytes, node: Node) -> list[tuple[str, str]]:
    """``export { a as b }`` (no ``from``) -> ``("b", "#a")``: the module's own ``a`` under
    another name, as ``export default f`` is (an empty specifier is the file itself);
    ``export { a }`` names nothing new. hono's ``export { Hono as HonoBase }`` in
    ``hono-base.ts``: ``class Hono extends HonoBase`` (``hono.ts``) had no known base, so 952
    ``app.request(..)`` calls on its apps were left out as calls on another type."""
    return [(exported, f"#{name}") for part in node.named_children if part.type == "export_clause"
            for exported, name in _exported(blob, part) if exported != name]


def _exported(blob: bytes, clause: Node) -> list[tuple[str, str]]:
    """(the name exported, the name it exports) of each specifier of an ``export_clause``:
    ``{a, b as c}`` -> ``("a", "a"), ("c", "b")``."""
    out = []
    for item in (n for n in clause.named_children if n.type == "export_specifier"):
        name, alias = item.child_by_field_name("name"), item.child_by_field_name("alias")
        if name is not None:
            out.append((tx.text(blob, alias if alias is not None else name), tx.text(blob, name)))
    return out


def _js_binding(blob: bytes, pattern: Node | None, source: str) -> list[tuple[str, str]]:
    """``m = require(s)`` binds the module; ``{ f, g: h } = require(s)`` its members."""
    if pattern is None or not source:
        return []
    if pattern.type == "identifier":
        return [(tx.text(blob, pattern), source)]
    out = []
    for item in pattern.named_children:
        if item.type == "shorthand_property_identifier_pattern":
            out.append((tx.text(blob, item), f"{source}#{tx.text(blob, item)}"))
        elif item.type == "pair_pattern":
            key, value = item.child_by_field_name("key"), item.child_by_field_name("value")
            if value is not None and value.type == "identifier":
                out.append((tx.text(blob, value), f"{source}#{tx.text(blob, key)}"))
    return out


def _go(blob: bytes, node: Node) -> list[tuple[str, str]]:
    path = _unquote(blob, node.child_by_field_name("path"))
    name = node.child_by_field_name("name")
    if not path or (name is not None and name.type == "blank_identifier"):
        return []
    if name is not None:
        return [("*" if name.type == "dot" else tx.text(blob, name), path)]
    return [(go_package_name(path), path)]


def go_package_name(path: str) -> str:
    """The name an unaliased import binds by convention: ``example.com/m/v2`` -> ``m``,
    ``gopkg.in/yaml.v3`` -> ``yaml``, ``example.com/go-util`` -> ``util``."""
    parts = path.split("/")
    last = parts[-2] if len(parts) > 1 and re.fullmatch(r"v\d+", parts[-1]) else parts[-1]
    last = re.sub(r"\.v\d+$", "", last)
    return re.sub(r"^go-|-go$", "", last).replace("-", "_").replace(".", "_")


def _java(blob: bytes, node: Node) -> list[tuple[str, str]]:
    words = tx.text(blob, node).replace(";", " ").split()
    dotted = "".join(w for w in words[1:] if w != "static")
    if dotted.endswith(".*"):
        return [("*", dotted[:-2])]
    return [(dotted.rsplit(".", 1)[-1], dotted)] if dotted else []


def _kotlin(blob: bytes, node: Node) -> list[tuple[str, str]]:
    words = tx.text(blob, node).split()
    dotted = words[1] if len(words) > 1 else ""
    if dotted.endswith(".*"):
        return [("*", dotted[:-2])]
    local = words[3] if len(words) > 3 and words[2] == "as" else dotted.rsplit(".", 1)[-1]
    return [(local, dotted)] if dotted else []


def _python(blob: bytes, node: Node) -> list[tuple[str, str]]:
    module_node = node.child_by_field_name("module_name")
    module = tx.compact(blob, module_node) if module_node is not None else ""
    out = []
    for name in node.children_by_field_name("name"):
        if name.type == "aliased_import":
            dotted = tx.compact(blob, name.child_by_field_name("name"))
            local = tx.text(blob, name.child_by_field_name("alias"))
        else:
            dotted = tx.compact(blob, name)
            local = dotted if module else dotted.split(".", 1)[0]
        if module:
            target = f"{module}{dotted}" if module.endswith(".") else f"{module}.{dotted}"
        else:
            target = dotted if name.type == "aliased_import" else local
        out.append((local, target))
    if module and any(child.type == "wildcard_import" for child in node.children):
        out.append(("*", module))
    return out


_READERS = {"javascript": _js, "typescript": _js, "tsx": _js, "go": _go, "java": _java, "kotlin": _kotlin}
