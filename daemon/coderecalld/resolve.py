"""The resolve stage: tie each call site of a file's chunks to a module-qualified target.

Python, and JavaScript/TypeScript for their simple forms (ES named and namespace imports,
``require``, ``this.m()``, same-module calls; a JS module is named by its path, e.g.
``src/util``); other languages pass through with ``module`` empty. A call resolves
when its first dotted segment is bound in the file by an import (``import a.b as c``,
``from x import y as z``, relative imports), by a top-level definition of the file itself
(functions, classes: ``Client()`` is the class's constructor call, ``Client.build`` its
static method), or is ``self``/``cls`` inside a class that defines the method. Anything
else (``obj.method()``, ``super().f()``, ``f()(x)``) keeps an empty target: only its name
is known. The import table is per file, not per scope: a name imported inside one function
counts for the whole file (rarely wrong, and never across files).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace

from coderecalld.records import CallSite, Chunk, ParsedFile, Symbol, SymbolKind

_SELF = {"python": ("self", "cls"), "javascript": ("this",), "typescript": ("this",), "tsx": ("this",)}
_JS_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
_RAISE = re.compile(r"^[ \t]*raise[ \t]+([A-Za-z_][\w.]*)", re.M)
_THROW = re.compile(r"\bthrow\s+new\s+([A-Za-z_][\w.]*)")
_RAISES_HEADER = re.compile(r"^(\s*)Raises:\s*$", re.M)
_RAISES_ITEM = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(?::|$)")
#: Names that re-raise or are not exception classes.
_NOT_EXCEPTIONS = frozenset({"exc", "e", "err", "error", "ex"})


def chunks(chunk_list: list[Chunk], parsed: ParsedFile, path: str, module: str) -> list[Chunk]:
    """``chunk_list`` of one file with ``module``, resolved call targets, ``raises`` and,
    on the module chunk, ``exports`` (its absolute import table)."""
    selves = _SELF.get(parsed.language)
    if selves is None or not module:
        return chunk_list
    if parsed.language == "python":
        table = import_table(parsed.import_aliases, module, path.endswith("__init__.py"))
    else:
        table = js_import_table(parsed.import_aliases, path)
    symbols = {s.qualified_name: s for s in parsed.symbols}
    top = {s.name for s in parsed.symbols if not s.parent}
    out = []
    for c in chunk_list:
        is_module = c.kind is SymbolKind.MODULE
        cls = "" if is_module else _enclosing_class(symbols, c.qualified_name)
        sites = tuple(replace(s, target=_target(s, module, table, top, symbols, cls, selves))
                      for s in c.call_sites)
        out.append(replace(c, module=module, call_sites=sites, raises=() if is_module else raises(c.text),
                           exports=tuple(sorted(table.items())) if is_module else ()))
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


def js_import_table(aliases: tuple[tuple[str, str], ...], path: str) -> dict[str, str]:
    """Local name -> target for JavaScript/TypeScript: a relative specifier is resolved
    against the file's directory, less its suffix and a trailing ``/index`` (``./util`` in
    ``src/app.ts`` -> ``src/util``); a package specifier is kept as written; ``#name`` becomes
    ``.name``."""
    table = {}
    for local, target in aliases:
        spec, _, name = target.partition("#")
        if spec.startswith("."):
            spec = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
            if spec.startswith(".."):
                continue  # above the repo root
            for suffix in _JS_SUFFIXES:
                if spec.endswith(suffix):
                    spec = spec[: -len(suffix)]
                    break
            spec = spec.removesuffix("/index")
        table[local] = f"{spec}.{name}" if name else spec
    return table


def _enclosing_class(symbols: dict[str, Symbol], qualified_name: str) -> str:
    sym = symbols.get(qualified_name.split("#", 1)[0])
    while sym is not None and sym.parent:
        parent = symbols.get(sym.parent)
        if parent is not None and parent.kind is SymbolKind.CLASS:
            return parent.qualified_name
        sym = parent
    return ""


def _target(site: CallSite, module: str, table: dict[str, str], top: set[str],
            symbols: dict[str, Symbol], cls: str, selves: tuple[str, ...]) -> str:
    parts = site.name.split(".")
    head, rest = parts[0], parts[1:]
    if head in selves:
        return _method(module, table, symbols, cls, rest[0]) if cls and len(rest) == 1 else ""
    if head in top:  # a definition of this file shadows an import of the same name
        return ".".join([module, *parts])
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
    for base in _bases(sym.signature):
        if base in symbols and symbols[base].kind is SymbolKind.CLASS:
            found = _method(module, table, symbols, base, name, depth - 1)
            if found:
                return found
        elif base.split(".", 1)[0] in table:
            head, _, rest = base.partition(".")
            return ".".join(filter(None, [table[head], rest, name]))
    return ""


def _bases(signature: str) -> list[str]:
    """Base names of ``class X(A, b.B, metaclass=M)``: ``["A", "b.B"]`` (dotted names only)."""
    inside = signature.partition("(")[2].rpartition(")")[0]
    return [b.strip() for b in inside.split(",")
            if b.strip() and "=" not in b and all(p.isidentifier() for p in b.strip().split("."))]


def raises(text: str) -> tuple[str, ...]:
    """Exception names raised in ``text`` (``raise X``, ``raise X(...)``, ``throw new X``) and
    listed in a Google-style ``Raises:`` section, in order of first mention."""
    found = [m for m in _RAISE.findall(text) + _THROW.findall(text)]
    for header in _RAISES_HEADER.finditer(text):
        indent = len(header.group(1))
        for line in text[header.end():].split("\n")[1:]:
            if not line.strip() or len(line) - len(line.lstrip()) <= indent:
                break
            item = _RAISES_ITEM.match(line)
            if item and len(line) - len(line.lstrip()) <= indent + 4:
                found.append(item.group(1))
    return tuple(dict.fromkeys(n for n in found if n not in _NOT_EXCEPTIONS and n.rsplit(".", 1)[-1][:1].isupper()))
