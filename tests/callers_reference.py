"""An independent reference for cross-repo call sites, computed with Python's ``ast``.

For every call in every file of a set of flat-layout Python packages: the dotted callee,
bound through the file's import statements (``import``, ``from ... import ... as``, relative
levels), its module's top-level definitions, or ``self``/``cls`` inside a class (the class or
a base defined in the same module or imported that defines the method), is mapped to a
definition's module-qualified name; names re-exported by a package's ``__init__`` (or any
module) are followed to the module that defines them. What cannot be bound this way (calls
on arbitrary objects) is not in the reference.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass, field


@dataclass
class Module:
    repo: str
    path: str
    name: str
    tree: ast.Module
    imports: dict[str, str] = field(default_factory=dict)
    defs: dict[str, ast.AST] = field(default_factory=dict)  # qualified name -> node
    stars: list[str] = field(default_factory=list)  # modules star-imported


def module_name(path: str) -> str:
    parts = path[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def load(repos: dict[str, dict[str, bytes]]) -> dict[str, Module]:
    """Module name -> Module for every ``.py`` file of ``repos`` (repo -> path -> bytes)."""
    out = {}
    for repo, files in repos.items():
        for path, blob in files.items():
            if not path.endswith(".py"):
                continue
            name = module_name(path)
            mod = Module(repo, path, name, ast.parse(blob))
            package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
            for node in ast.walk(mod.tree):
                if isinstance(node, ast.Import):
                    for a in node.names:
                        mod.imports[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    if node.level:
                        pkg = package.split(".") if package else []
                        pkg = pkg[: len(pkg) - (node.level - 1)] if node.level - 1 <= len(pkg) else None
                        if pkg is None:
                            continue
                        base = ".".join(p for p in [*pkg, base] if p)
                    for a in node.names:
                        if a.name == "*":
                            mod.stars.append(base)
                        else:
                            mod.imports[a.asname or a.name] = f"{base}.{a.name}" if base else a.name
            _collect_defs(mod.tree, "", mod.defs)
            out[name] = mod
    return out


def _collect_defs(node: ast.AST, prefix: str, into: dict[str, ast.AST]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qn = f"{prefix}.{child.name}" if prefix else child.name
            into[qn] = child
            _collect_defs(child, qn, into)
        elif not isinstance(child, (ast.Lambda,)):
            _collect_defs(child, prefix, into)


def canonical(modules: dict[str, Module], name: str, depth: int = 6) -> str | None:
    """The module-qualified name of the definition ``name`` reaches, following re-exports;
    ``None`` when it is not defined in ``modules``."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        mod = modules.get(".".join(parts[:cut]))
        if mod is None:
            continue
        rest = parts[cut:]
        if ".".join(rest) in mod.defs:
            return name
        if depth and rest[0] in mod.imports:
            return canonical(modules, ".".join([mod.imports[rest[0]], *rest[1:]]), depth - 1)
        for star in mod.stars if depth else ():
            found = canonical(modules, ".".join([star, *rest]), depth - 1)
            if found:
                return found
        return None
    return None


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def _bases(cls: ast.ClassDef) -> list[str]:
    return [d for d in (_dotted(b) for b in cls.bases) if d]


def _self_method(modules: dict[str, Module], mod: Module, cls_qn: str, method: str, depth: int = 8) -> str | None:
    if f"{cls_qn}.{method}" in mod.defs:
        return f"{mod.name}.{cls_qn}.{method}"
    cls = mod.defs.get(cls_qn)
    if not isinstance(cls, ast.ClassDef) or not depth:
        return None
    for base in _bases(cls):
        if base in mod.defs:
            found = _self_method(modules, mod, base, method, depth - 1)
            if found:
                return found
        elif base.split(".")[0] in mod.imports:
            head, _, rest = base.partition(".")
            target = canonical(modules, ".".join(p for p in [mod.imports[head], rest] if p))
            if target:
                owner = modules[target.rsplit(".", 1)[0]] if target.rsplit(".", 1)[0] in modules else None
                if owner is None:
                    return None
                return _self_method(modules, owner, target[len(owner.name) + 1:], method, depth - 1)
            return None
    return None


def calls(modules: dict[str, Module]) -> dict[str, set[tuple[str, str, int]]]:
    """Definition (module-qualified) -> {(repo, path, line)} of the calls bound to it."""
    out: dict[str, set[tuple[str, str, int]]] = defaultdict(set)
    for mod in modules.values():
        top = {qn for qn in mod.defs if "." not in qn}
        for call, cls in _calls_with_class(mod.tree, mod.defs):
            written = _dotted(call.func)
            if not written:
                continue
            head, *rest = written.split(".")
            target = None
            if head in ("self", "cls"):
                if cls and len(rest) == 1:
                    target = _self_method(modules, mod, cls, rest[0])
            elif head in top:
                target = canonical(modules, f"{mod.name}.{written}")
            elif head in mod.imports:
                target = canonical(modules, ".".join([mod.imports[head], *rest]))
            if target:
                out[target].add((mod.repo, mod.path, call.lineno))
    return out


def _calls_with_class(tree: ast.Module, defs: dict[str, ast.AST]):
    """(Call node, qualified name of the class whose method encloses it, or "")."""
    owner = {id(node): qn for qn, node in defs.items()}

    def visit(node: ast.AST, cls: str, prefix: str):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                qn = f"{prefix}.{child.name}" if prefix else child.name
                for deco in child.decorator_list + child.bases + child.keywords:
                    yield from visit_expr(deco, cls)
                yield from visit(child, qn, qn)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qn = owner.get(id(child), child.name)
                for part in child.decorator_list + child.args.defaults + child.args.kw_defaults:
                    if part is not None:
                        yield from visit_expr(part, cls)
                yield from visit_body(child.body, cls, qn)
            else:
                yield from visit_expr(child, cls) if isinstance(child, ast.expr) else visit(child, cls, prefix)

    def visit_body(body, cls, prefix):
        for stmt in body:
            yield from visit(ast.Module(body=[stmt], type_ignores=[]), cls, prefix)

    def visit_expr(expr, cls):
        for node in ast.walk(expr):
            if isinstance(node, ast.Call):
                yield node, cls

    yield from visit(tree, "", "")
