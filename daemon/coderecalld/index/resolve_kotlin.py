"""Kotlin call targets, receiver types included, read from one file at index time.

A Kotlin file's module is its ``package`` (``com.acme.app``); a target is the package-qualified
name of the definition, as ``points.fq_name`` names it (``com.acme.app.Service.run``). A type
name resolves through an explicit import (``import a.b.C``, ``as D``), this file's classes,
the only wildcard import, else the file's own package (Kotlin needs no import for it);
Kotlin's own types (``String``, ``List``, ...) name none. Calls:

* ``C(...)`` is the class (its constructor), ``C.m()`` a companion or object member;
* a bare ``m()`` written bare is the enclosing class's method (or a same-file base's), else an
  explicitly imported function, else a top-level function of this file; ``this.m()`` the
  enclosing class's; ``super.m()`` the first supertype's;
* ``x.m()`` / ``this.x.m()`` on a typed receiver is ``<type>.m``. What types a name: a
  parameter (``fun f(s: Store)``), ``val x = C(...)``, ``val x: C``, a property of the
  enclosing class (``class A(private val s: Store)``, ``private val h = Helper()``,
  ``lateinit var c: Cache``). A lambda parameter or loop variable has none; a name bound
  twice to different types has none (flow is not followed).

A safe call ``x?.m()`` is recorded as ``m`` by the tags query: written not bare, it stays
unresolved. Classes carry their supertypes as ``base_targets``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from coderecalld.index.receivers import UNKNOWN, children, split_params, whole_call
from coderecalld.index.receivers import bind as _bind
from coderecalld.records import CallSite, ParsedFile, Symbol, SymbolKind

_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)")
_ID = r"[A-Za-z_]\w*"
_TYPE = rf"{_ID}(?:\.{_ID})*(?:<[^=]*>)?\??"
_DECLARE = re.compile(rf"\b(?:val|var)\s+({_ID})\s*(?::\s*({_TYPE}))?\s*(?:=\s*(.*))?$")
_PARAM = re.compile(rf"^\s*(?:(?:private|protected|public|internal|override|open|vararg)\s+)*"
                    rf"(val\s+|var\s+)?({_ID})\s*:\s*({_TYPE})")
_LAMBDA = re.compile(rf"\{{\s*({_ID}(?:\s*,\s*{_ID})*)\s*->")
_FOR = re.compile(rf"\bfor\s*\(\s*({_ID})\s+in\b")
_OBJECT = re.compile(r"\bobject\s*:")
_CALL = re.compile(rf"^({_ID}(?:\.{_ID})*)\s*(?:<[^()]*>)?\s*\(")
#: kotlin.* types and common collections: a value of one has no method of a project.
_KOTLIN_TYPES = frozenset(
    "Any Array Boolean Byte Char CharSequence Double Float Int Iterable List Long Map MutableList MutableMap "
    "MutableSet Nothing Number Pair Sequence Set Short String StringBuilder Throwable Triple Unit Exception "
    "RuntimeException IllegalArgumentException IllegalStateException Regex Comparable Lazy Result "
    "ArrayList ArrayDeque Collection HashMap HashSet Iterator LinkedHashMap LinkedHashSet MutableCollection "
    "MutableIterator IntArray LongArray ByteArray CharArray BooleanArray DoubleArray FloatArray".split())
_TYPES = (SymbolKind.CLASS, SymbolKind.INTERFACE, SymbolKind.ENUM)
_FUNCTIONS = (SymbolKind.FUNCTION, SymbolKind.METHOD)
Target = Callable[[CallSite, str], str]


def package(lines: Mapping[int, str]) -> str:
    """The ``package`` a Kotlin file declares, ``""`` if none."""
    for i in sorted(lines)[:200]:
        found = _PACKAGE.match(lines[i])
        if found:
            return found.group(1)
    return ""


def supertypes(signature: str) -> list[str]:
    """Supertypes of ``class A(x: X) : B(x), C<T>, D by d``: ``["B", "C", "D"]``."""
    depth, colon = 0, -1
    for i, ch in enumerate(signature):
        depth += {"(": 1, ")": -1, "<": 1, ">": -1}.get(ch, 0)
        if ch == ":" and depth == 0:
            colon = i
            break
    if colon < 0:
        return []
    rest = re.sub(r"\([^()]*\)|<[^<>]*>", "", signature[colon + 1:])
    return [t.split()[0] for t in rest.split(",") if t.split() and re.fullmatch(rf"{_ID}(?:\.{_ID})*", t.split()[0])]


class Kotlin:
    """The target hook of one Kotlin file; ``bases`` is filled with each class's qualified
    name -> its supertypes' qualified names."""

    def __init__(self, parsed: ParsedFile, module: str, symbols: Mapping[str, Symbol],
                 lines: Mapping[int, str], bare: Callable[[CallSite], bool],
                 bases: dict[str, tuple[str, ...]]) -> None:
        self.module, self.symbols, self.lines, self.bare = module, symbols, lines, bare
        self.explicit = {local: t for local, t in parsed.import_aliases if local != "*"}
        self.wild = [t for local, t in parsed.import_aliases if local == "*"]
        self.types = {s.name: s.qualified_name for s in parsed.symbols if s.kind in _TYPES}
        self.top_functions = {s.name for s in parsed.symbols if not s.parent and s.kind in _FUNCTIONS}
        self._children = children(symbols)
        self._scopes: dict[str, dict[str, str]] = {}
        for s in parsed.symbols:
            if s.kind in _TYPES:
                bases[s.qualified_name] = tuple(filter(None, map(self.qualify, supertypes(s.signature))))

    def qualify(self, type_: str) -> str:
        """A type as written (``Store?``, ``List<X>``, ``a.b.C``) -> its qualified name, ``""``
        for Kotlin's own types and names that are no type."""
        name = type_.split("<", 1)[0].rstrip("?").strip()
        head, dot, rest = name.partition(".")
        if not head[:1].isupper():
            return name if dot and head[:1].islower() and rest[:1].isupper() else ""
        if head in self.types:
            return f"{self.module}.{self.types[head]}{dot}{rest}"
        if head in self.explicit:
            return f"{self.explicit[head]}{dot}{rest}"
        if head in _KOTLIN_TYPES or len(self.wild) > 1 or (head.isupper() and len(head) > 1):
            return ""
        return f"{self.wild[0] if self.wild else self.module}.{name}"

    def _class(self, owner: str) -> Symbol | None:
        sym = self.symbols.get(owner.split("#", 1)[0])
        while sym is not None and sym.kind not in _TYPES:
            sym = self.symbols.get(sym.parent)
        return sym

    def method(self, cls: Symbol | None, name: str, depth: int = 8) -> str:
        """``name`` defined by ``cls`` or a same-file supertype, ``""`` if neither does."""
        if cls is None or not depth:
            return ""
        if f"{cls.qualified_name}.{name}" in self.symbols:
            return f"{self.module}.{cls.qualified_name}.{name}"
        for base in supertypes(cls.signature):
            found = self.method(self.symbols.get(self.types.get(base, "")), name, depth - 1)
            if found:
                return found
        return ""

    def typed(self, fq: str, name: str) -> str:
        prefix = self.module + "."
        local = self.symbols.get(fq[len(prefix):]) if fq.startswith(prefix) else None
        return (self.method(local, name) if local is not None else "") or f"{fq}.{name}"

    # --- bindings ---------------------------------------------------------------------

    def _bindings(self, sym: Symbol, is_function: bool) -> dict[str, str]:
        if sym.qualified_name not in self._scopes:
            out: dict[str, str] = {}
            self._scopes[sym.qualified_name] = out
            for part in split_params(sym.signature, "(<[{", ")>]}"):
                found = _PARAM.match(part)
                if found and (is_function or found.group(1)):  # a class: `val`/`var` parameters only
                    _bind(out, found.group(2), self.qualify(found.group(3)))
            skip = {i for c in self._children.get(sym.qualified_name, ()) for i in range(c.start_line, c.end_line + 1)}
            for i in range(sym.start_line + 1, sym.end_line + 1):
                if i not in skip:
                    self._read_line(self.lines.get(i, "").split("//", 1)[0], out)
        return self._scopes[sym.qualified_name]

    def _read_line(self, line: str, out: dict[str, str]) -> None:
        declare = _DECLARE.search(line) if "val " in line or "var " in line else None
        if declare:
            name, type_, value = declare.groups()
            value = (value or "").strip()
            call = _CALL.match(value)
            call = call if call and whole_call(value, call.end() - 1) else None  # not `C().build()`
            typed = self.qualify(type_) if type_ else (
                self.qualify(call.group(1)) if call and call.group(1).rsplit(".", 1)[-1][:1].isupper() else "")
            _bind(out, name, typed)
        for pattern in (_LAMBDA, _FOR) if "->" in line or "for" in line else ():
            for m in pattern.finditer(line):
                for name in re.findall(_ID, m.group(1)):
                    _bind(out, name, "")

    def name_type(self, name: str, owner: str, this: bool = False) -> str:
        """The type of ``name`` in ``owner``: its function's bindings (not with ``this``), then
        the enclosing classes' properties (with ``this``, only the innermost's)."""
        sym = self.symbols.get(owner.split("#", 1)[0])
        found = None
        while found is None and sym is not None:
            if sym.kind in _FUNCTIONS and not this:
                found = self._bindings(sym, True).get(name)
            elif sym.kind in _TYPES:
                found = self._bindings(sym, False).get(name)
                if this:
                    break
            sym = self.symbols.get(sym.parent)
        return "" if found in (None, UNKNOWN) else found

    # --- the hook -----------------------------------------------------------------------

    def target(self, site: CallSite, owner: str) -> str:
        """The target of ``site`` in ``owner`` (``""``: only the name is known)."""
        head, *rest = site.name.split(".")
        cls = self._class(owner) if owner else None
        if not rest:
            if not self.bare(site):
                return ""
            if head[:1].isupper():
                return self.qualify(head)
            return (self.method(cls, head) or self.explicit.get(head, "")
                    or (f"{self.module}.{head}" if head in self.top_functions else ""))
        if head == "this":
            if len(rest) == 1:
                return self.method(cls, rest[0])
            fq = self.name_type(rest[0], owner, this=True) if len(rest) == 2 else ""
            return self.typed(fq, rest[1]) if fq else ""
        if head == "super":
            if cls is None or len(rest) != 1:
                return ""
            sym = self.symbols.get(owner.split("#", 1)[0])
            while sym is not None and self.symbols.get(sym.parent) is not None and sym.parent != cls.qualified_name:
                sym = self.symbols.get(sym.parent)  # the class's method, around local functions
            above = range(sym.start_line + 1, site.line + 1) if sym is not None else ()
            if any(_OBJECT.search(self.lines.get(i, "")) for i in above):
                return ""  # `super` of an anonymous object's supertype, not the enclosing class's
            written = supertypes(cls.signature)
            fq = self.qualify(written[0]) if written else ""
            return self.typed(fq, rest[0]) if fq else ""
        if head[:1].isupper():
            fq = self.qualify(head)
            return ".".join([fq, *rest]) if fq and (len(rest) == 1 or rest[0][:1].isupper()) else ""
        fq = self.name_type(head, owner) if len(rest) == 1 and owner else ""
        return self.typed(fq, rest[0]) if fq else ""
