"""Import tables: which local name stands for which imported dotted name, per file.

Read from ``queries/<language>/imports.scm`` (an ``@import`` capture per statement) when the
language has one; other languages answer ``()``. Python forms:

* ``import a.b``            -> ``("a", "a")`` (the name bound is the first segment)
* ``import a.b as c``       -> ``("c", "a.b")``
* ``from x.y import z as w`` -> ``("w", "x.y.z")``
* ``from ..m import f``     -> ``("f", "..m.f")`` (dots kept; the resolver knows the package)

A star import binds nothing we can name and is left out.
"""

from __future__ import annotations

import functools
from importlib import resources

from tree_sitter import Node, Query, QueryCursor, Tree

from coderecalld.parse import text as tx
from coderecalld.parse.registry import LanguageSpec, language


@functools.lru_cache(maxsize=None)
def _query(name: str) -> Query | None:
    path = resources.files("coderecalld.parse").joinpath(f"queries/{name}/imports.scm")
    return Query(language(name), path.read_text("utf-8")) if path.is_file() else None


def aliases(blob: bytes, tree: Tree, spec: LanguageSpec) -> tuple[tuple[str, str], ...]:
    """(local name, imported dotted name) pairs of ``tree``, in source order."""
    query = _query(spec.name)
    if query is None:
        return ()
    nodes = QueryCursor(query).captures(tree.root_node).get("import", [])
    out: list[tuple[str, str]] = []
    for node in sorted(nodes, key=lambda n: n.start_byte):
        out += _python(blob, node)
    return tuple(out)


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
    return out
