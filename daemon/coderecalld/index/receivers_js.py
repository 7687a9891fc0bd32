"""Receiver types of JavaScript/TypeScript method calls, read from one file's source at
index time.

``JsReceivers.target(site, owner)`` answers a call the import table and the file's own
names did not bind (``c.m()``, ``this.c.m()``, ``super.m()``) with ``<class>.<method>``,
the class module-qualified like every JS target (``src/store.Store.save``), or ``""``.
What types a name, inside the calling function and the functions around it:

* a parameter annotation (``(c: C)``, ``c?: C``, ``C | null``; a constructor parameter
  property ``constructor(private c: C)`` is also a field);
* ``const|let|var x = new C(...)``, ``let x: C``, and ``x = f(...)`` where ``f`` is a
  top-level function of this file whose return type names a class (one level);
* a class field ``private c: C``, ``c = new C()``, or ``this.c = new C(...)`` (or a typed
  parameter) in any method, for ``this.c.m()``;
* ``super.m()``: the class's ``extends`` base.

A class is one of this file (class or interface) or an imported name; a global type
(``string``, ``Map``, ``Promise<T>``) types nothing. A name bound twice to different or
unknown things has no type (flow is not followed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from coderecalld.index.receivers import ATTRIBUTE, UNKNOWN, children, split_params, whole_call
from coderecalld.index.receivers import bind as _bind
from coderecalld.index.receivers import header_bases as js_bases
from coderecalld.index.receivers_go import _closing
from coderecalld.records import RETURNED, VALUE_KINDS, CallSite, Symbol, SymbolKind, unparted

_ID = r"[A-Za-z_$][\w$]*"
_MODIFIERS = r"(?:(?:private|public|protected|readonly|static|declare|override|abstract)\s+)*"
_DECLARE = re.compile(rf"\b(?:const|let|var)\s+({_ID})\s*(?::\s*([^=;]+?))?\s*(?:=\s*(.*?))?\s*;?\s*$")
_FOR_OF = re.compile(rf"\bfor\s*(?:await\s*)?\(\s*(?:const|let|var)\s+({_ID})\s+(?:of|in)\b")
_FIELD = re.compile(rf"^\s*{_MODIFIERS}(#?{_ID})\s*[?!]?\s*(?::\s*([^=;]+?))?\s*(?:=\s*(.*?))?\s*;?\s*$")
_THIS_ASSIGN = re.compile(rf"\bthis\.(#?{_ID})\s*=(?!=)\s*(.*?)\s*;?\s*$")
#: The JS/TS runtime's value classes (ECMAScript, WHATWG fetch and streams, Node's
#: ``Buffer``): a value of one is of no project's class, its calls are left out of another
#: class's callers.
RUNTIME_CLASSES = frozenset("""
Array ArrayBuffer BigInt64Array Blob Buffer DataView Date Error EventTarget File FormData
Headers Map Promise ReadableStream RegExp Request Response Set SharedArrayBuffer TextDecoder
TextEncoder TransformStream URL URLSearchParams Uint8Array WeakMap WeakRef WeakSet
WritableStream AbortController AbortSignal""".split())
_NEW = re.compile(rf"^new\s+({_ID}(?:\.{_ID})*)\s*(?:<[^()]*>)?\s*\(")
_CALL = re.compile(rf"^(?:await\s+)?({_ID})\s*\(")
_RETURNS = re.compile(r"\)\s*:\s*([^{=]+?)\s*(?:\{|=>)?\s*$")
_FUNCTIONS = (SymbolKind.FUNCTION, SymbolKind.METHOD)
#: A type's innermost argument list (``<P, I['out']>``), and how deep ``class_of`` strips them.
_TYPE_ARGUMENTS = re.compile(r"<[^<>]*>")
TYPE_ARGUMENT_DEPTH = 8
_TYPES = (SymbolKind.CLASS, SymbolKind.INTERFACE)


class JsReceivers:
    """Receiver types of one JS/TS file: ``module`` its name, ``table`` its import table
    (``resolve.js_import_table``), ``lines`` line number -> source text."""

    def __init__(self, module: str, table: Mapping[str, str], symbols: Mapping[str, Symbol],
                 lines: Mapping[int, str]) -> None:
        self.module, self.table, self.symbols, self.lines = module, table, symbols, lines
        self._children = children(symbols)
        self._scopes: dict[str, dict[str, str]] = {}
        self._fields: dict[str, dict[str, str]] = {}
        self._module: dict[str, str] | None = None

    def class_of(self, expr: str, runtime: bool = False) -> str:
        """The module-qualified class a type expression names (``Store``, ``db.Conn``,
        ``Store | null``), ``""`` for an unknown type, a union or an array; a runtime's
        class the file neither imports nor defines (``Set``, ``Response``: ``RUNTIME_CLASSES``)
        is itself when ``runtime`` (a value's type, not a base class)."""
        for _ in range(TYPE_ARGUMENT_DEPTH):  # `Hono<E, A | B>` is a Hono: its arguments aside
            bare = _TYPE_ARGUMENTS.sub("", expr)
            if bare == expr:
                break
            expr = bare
        parts = [p.strip() for p in expr.split("|") if p.strip() not in ("null", "undefined", "")]
        if len(parts) != 1 or parts[0].endswith("]"):
            return ""
        name = parts[0].split("<", 1)[0].strip()
        if not re.fullmatch(rf"{_ID}(?:\.{_ID})*", name):
            return ""
        head, dot, rest = name.partition(".")
        local = self.symbols.get(name)
        if local is not None and not local.parent and local.kind in _TYPES:
            return f"{self.module}.{name}"
        if head in self.table:
            return self.table[head] + dot + rest
        # hono's `possibleKeys = new Set<string>()` then `possibleKeys.add(..)`: 13 name-only
        # callers of `TrieRouter.add`; `res: Response` then `res.json()`: of `Context.json`
        return name if runtime and not dot and name in RUNTIME_CLASSES and local is None else ""

    def _value_type(self, value: str, scope: dict[str, str], owner: str = "") -> str:
        """The class of ``new C(...)``, of a typed name, of a call of a top-level function
        of this file whose return type names one, or of a chain of calls on one of those
        (``new Hono().basePath('/api')``, ``this.basePath(path)`` in function ``owner``:
        ``chain_type``)."""
        new = _NEW.match(value)
        if new and not whole_call(value, new.end() - 1):
            chain = _written_chain(value)  # `new C().build()`: what `build` declares
            return self._chain_type(chain, self._names(scope, owner), owner) if chain else ""
        if new:
            return self.class_of(new.group(1), True)
        if re.fullmatch(_ID, value):
            found = scope.get(value, "")
            return "" if found == UNKNOWN else found
        call = _CALL.match(value)
        fn = self.symbols.get(call.group(1)) if call and whole_call(value, call.end() - 1) else None
        if fn is None and ")" in value:
            chain = _written_chain(value)
            return self._chain_type(chain, self._names(scope, owner), owner) if chain else ""
        if fn is None or fn.parent or fn.kind is not SymbolKind.FUNCTION:
            return ""
        returns = _RETURNS.search(fn.signature)
        return self.class_of(returns.group(1), True) if returns else ""

    def _names(self, scope: Mapping[str, str], owner: str) -> Callable[[str], str]:
        """A chain's names: ``scope``'s (the bindings read so far), else ``owner``'s and the
        functions' around it (``name_type``)."""
        return lambda n: scope[n] if n in scope else self.name_type(n, owner) if owner else ""

    def _bindings(self, fn: Symbol) -> dict[str, str]:
        if fn.qualified_name not in self._scopes:
            out: dict[str, str] = {}
            self._scopes[fn.qualified_name] = out
            for name, annotation in params(fn.signature):
                _bind(out, name, self.class_of(annotation, True) if annotation else "")
            for line in self._own_lines(fn):
                loop = _FOR_OF.search(line) if "for" in line else None
                if loop:  # an element of something: untyped (and never an outer function's name)
                    _bind(out, loop.group(1), "")
                    continue
                for name, annotation, value in _declarations(line):
                    _bind(out, name, self.class_of(annotation, True) if annotation else
                          self._value_type(value or "", out, fn.qualified_name))
        return self._scopes[fn.qualified_name]

    def name_type(self, name: str, owner: str) -> str:
        """The class bound to ``name`` in function ``owner`` or a function around it, else
        at the module's top level (``module_types``)."""
        sym = self.symbols.get(unparted(owner))
        while sym is not None and sym.kind in _FUNCTIONS:
            found = self._bindings(sym).get(name)
            if found is not None:
                return "" if found == UNKNOWN else found
            sym = self.symbols.get(sym.parent)
        found = self.module_types().get(name, "")
        return "" if found == UNKNOWN else found

    def module_types(self) -> dict[str, str]:
        """Names a ``const``/``let``/``var`` at the module's top level binds (a line at column
        0 outside every function and class) -> their class, read once: hono's ``const createdDirs:
        Set<string> = new Set()`` then ``createdDirs.add(..)`` in a function was a name-only
        caller of ``TrieRouter.add``. A name bound twice to two classes has none."""
        if self._module is None:
            self._module = {}
            inside = {i for sym in self.symbols.values() if not sym.parent and sym.kind not in VALUE_KINDS
                      for i in range(sym.start_line, sym.end_line + 1)}
            for i, line in self.lines.items():
                if i in inside or not line.startswith(("const ", "let ", "var ", "export const ", "export let ")):
                    continue
                for name, annotation, value in _declarations(line):
                    _bind(self._module, name, self.class_of(annotation, True) if annotation else
                          self._value_type(value or "", {}))
        return self._module

    def binds(self, name: str, owner: str) -> bool:
        """Whether function ``owner`` (or a function around it) binds ``name`` itself: a
        parameter or a ``const``/``let``/``var`` of its body, which shadows the module's
        definition of that name (hono's ``match``: ``const match = (..) => ..`` then
        ``return match(method, path)`` was a resolved call of the module's ``match``)."""
        sym = self.symbols.get(unparted(owner))
        while sym is not None and sym.kind in _FUNCTIONS:
            if name in self._bindings(sym):
                return True
            sym = self.symbols.get(sym.parent)
        return False

    def field_type(self, cls: str, name: str) -> str:
        """The class of field ``name`` of class ``cls`` (a qualified name of this file)."""
        if cls not in self._fields:
            out: dict[str, str] = {}
            self._fields[cls] = out
            sym = self.symbols.get(cls)
            members = self._children.get(cls, [])
            for line in self._own_lines(sym) if sym is not None else ():
                field = _FIELD.match(line)
                if field and (field.group(2) or field.group(3)):
                    name_, annotation, value = field.groups()
                    _bind(out, name_, self.class_of(annotation, True) if annotation else self._value_type(value, {}))
            for member in members:
                if member.kind is not SymbolKind.METHOD:
                    continue
                if _GETTER.match(member.signature):  # `get req(): HonoRequest`: read as a field
                    _bind(out, member.name, self.declared_result(member))
                    continue
                if member.name == "constructor":
                    for name_, annotation, in params(member.signature, properties=True):
                        _bind(out, name_, self.class_of(annotation, True) if annotation else "")
                scope = self._bindings(member)
                for i in range(member.start_line, member.end_line + 1):
                    line = self.lines.get(i, "")
                    assign = _THIS_ASSIGN.search(line) if "this." in line else None
                    if assign:
                        _bind(out, assign.group(1), self._value_type(assign.group(2), scope, member.qualified_name))
        found = self._fields[cls].get(name, "")
        return "" if found == UNKNOWN else found

    def _own_lines(self, sym: Symbol) -> list[str]:
        """``sym``'s lines after its header line, less those of the definitions nested in it."""
        skip = {i for c in self._children.get(sym.qualified_name, ()) for i in range(c.start_line, c.end_line + 1)}
        return [self.lines.get(i, "") for i in range(sym.start_line + 1, sym.end_line + 1) if i not in skip]

    def _enclosing_class(self, owner: str) -> Symbol | None:
        sym = self.symbols.get(unparted(owner))
        while sym is not None and sym.kind not in _TYPES:
            sym = self.symbols.get(sym.parent)
        return sym

    def method_target(self, cls_fq: str, name: str, depth: int = 8) -> str:
        """``<class>.<name>``, or the same-file ``extends`` base that defines ``name`` when
        ``cls_fq`` is a class of this file that does not."""
        prefix = self.module + "."
        local = self.symbols.get(cls_fq[len(prefix):]) if cls_fq.startswith(prefix) else None
        if local is None or f"{local.qualified_name}.{name}" in self.symbols or not depth:
            return f"{cls_fq}.{name}"
        base = self.class_of(js_bases(local.signature)[0]) if js_bases(local.signature) else ""
        found = self.method_target(base, name, depth - 1) if base.startswith(prefix) else ""
        return found if found and found[len(prefix):] in self.symbols else f"{cls_fq}.{name}"

    def _local(self, fq: str) -> Symbol | None:
        """The class or interface of this file ``fq`` (module-qualified) names, else ``None``."""
        prefix = self.module + "."
        sym = self.symbols.get(fq[len(prefix):]) if fq.startswith(prefix) else None
        return sym if sym is not None and sym.kind in _TYPES else None

    def declared_result(self, fn: Symbol) -> str:
        """The module-qualified class a function's or method's signature declares it returns
        (``route(..): Hono<E, ..>``, a getter's ``get req(): HonoRequest``; ``this``: its
        own class), else ``""`` (none written, a union, an array, a type of no class)."""
        written = declared_result(fn.signature)
        if written == "this":
            cls = self._enclosing_class(fn.qualified_name)
            return f"{self.module}.{cls.qualified_name}" if cls is not None else ""
        return self.class_of(written, True) if written else ""

    def declared_results(self) -> dict[str, str]:
        """Qualified name -> ``declared_result`` of each function and method of the file that
        declares a class (payload ``returns``: the query side types another file's
        ``x.m(..).n(..)`` by it, ``callgraph.chained``)."""
        found = ((s.qualified_name, self.declared_result(s)) for s in self.symbols.values()
                 if s.kind in _FUNCTIONS)
        return {name: fq for name, fq in found if fq}

    def class_fields(self) -> dict[str, tuple[tuple[str, str], ...]]:
        """Class (qualified name) -> ``(Class.field, class)`` of each field and getter of a
        known class it declares (``field_type``), for another file's ``x.field.m(..)``
        (payload ``instance_edges``: hono's ``c.req.query(..)`` of ``get req(): HonoRequest``)."""
        out = {}
        for cls in self.symbols.values():
            if cls.kind is SymbolKind.CLASS:
                self.field_type(cls.qualified_name, "")
                typed = tuple(sorted((f"{cls.qualified_name}.{name}", fq) for name, fq in
                                     self._fields[cls.qualified_name].items()
                                     if fq != UNKNOWN and "." in fq and not fq.endswith(RETURNED)))
                if typed:
                    out[cls.qualified_name] = typed
        return out

    def _method(self, cls: Symbol, name: str, depth: int = 8) -> Symbol | None:
        """Method ``name`` of this file's class ``cls`` or of a same-file ``extends`` base."""
        found = self.symbols.get(f"{cls.qualified_name}.{name}")
        if found is not None or not depth:
            return found if found is not None and found.kind is SymbolKind.METHOD else None
        written = js_bases(cls.signature)
        base = self._local(self.class_of(written[0])) if written else None
        return self._method(base, name, depth - 1) if base is not None else None

    def _chain_head(self, head: str, name_of: Callable[[str], str], owner: str) -> str:
        """The class (or ``F()`` marker, ``RETURNED``) of a chain's first step: ``new C()``,
        ``this``, a name (``name_of``), a function's call ``f()``; ``""`` when unknown."""
        if head.startswith("new "):
            return self.class_of(head[4:-2], True)
        if head == "this":
            cls = self._enclosing_class(owner) if owner else None
            return f"{self.module}.{cls.qualified_name}" if cls is not None else ""
        if not head.endswith("()"):
            found = name_of(head) if "." not in head else ""
            return "" if found == UNKNOWN else found
        fn = self.symbols.get(head[:-2])
        if fn is not None and not fn.parent and fn.kind is SymbolKind.FUNCTION:
            return self.declared_result(fn)
        imported = self.table.get(head[:-2], "")  # a module's function (a whole module has no member)
        return f"{imported}{RETURNED}" if "." in imported else ""

    def _chain_type(self, chain: str, name_of: Callable[[str], str], owner: str) -> str:
        """The class (or marker) the value ``chain`` (``CallSite.chain``'s form) is: each step
        typed by the class its function or method declares it returns (a class of this
        file: read here; another file's: the step is named, ``T.m()``, ``RETURNED``, for the
        query side to type, ``callgraph.chained``), or a field's class; ``""`` when a step
        is unknown."""
        if chain.startswith("new "):
            made = chain.find("()")
            head, rest = chain[:made + 2], chain[made + 2:].lstrip(".")
        else:
            head, _, rest = chain.partition(".")
        fq = self._chain_head(head, name_of, owner)
        for step in filter(None, rest.split(".")) if fq else ():
            fq = self._step(fq, step)
            if not fq:
                return ""
        return fq

    def chain_target(self, chain: str, name: str, owner: str) -> str:
        """The target of ``name`` called on the result of ``chain`` (``CallSite.chain``,
        ``_chain_type``): hono's ``new Hono().basePath('/api')`` and ``app.route(..).route(..)``
        were ~35 name-only callers of ``Hono.basePath`` and ``Hono.route``."""
        fq = self._chain_type(chain, lambda n: self.name_type(n, owner), owner)
        if not fq:
            return ""
        return f"{fq}.{name}" if fq.endswith(RETURNED) else self.method_target(fq, name)

    def _step(self, fq: str, step: str) -> str:
        """The class (or marker) ``step`` (``m()``, a field ``f``) of a value of ``fq`` gives."""
        called = step.endswith("()")
        local = self._local(fq)
        if local is not None:
            if not called:
                return self.field_type(local.qualified_name, step)
            method = self._method(local, step[:-2])
            return self.declared_result(method) if method is not None else ""
        return f"{fq}.{step}" if called and (fq.endswith(RETURNED) or "." in fq) else ""

    def target(self, site: CallSite, owner: str) -> str:
        """The target of ``site`` in ``owner`` from a receiver type, ``""`` if none is known."""
        parts = site.name.split(".")
        if owner and site.chain and len(parts) == 1:
            return self.chain_target(site.chain, site.name, owner)
        if not owner or len(parts) < 2:
            return ""
        cls = self._enclosing_class(owner)
        if len(parts) == 3 and parts[0] != "this":
            # `c.req.query(..)` on a `c: Context` of another file: the attribute's type is
            # that file's to say (``ATTRIBUTE``; its class's ``instance_edges``)
            held = self.name_type(parts[0], owner)
            local = self._local(held)
            if local is not None:
                fq = self.field_type(local.qualified_name, parts[1])
                return self.method_target(fq, parts[2]) if fq else ""
            return (f"{ATTRIBUTE}{held}.{parts[1]}.{parts[2]}" if held and "." in held
                    and not held.endswith(RETURNED) else "")
        if parts[0] == "super" and len(parts) == 2:
            written = js_bases(cls.signature) if cls is not None else []
            base = self.class_of(written[0]) if written else ""
            return self.method_target(base, parts[1]) if base else ""
        if parts[0] == "this" and len(parts) == 3:
            fq = self.field_type(cls.qualified_name, parts[1]) if cls is not None else ""
        elif len(parts) == 2 and parts[0] != "this":
            fq = self.name_type(parts[0], owner)
        else:
            fq = ""
        if fq.endswith(RETURNED):
            return f"{fq}.{parts[-1]}"
        return self.method_target(fq, parts[-1]) if fq else ""


def params(signature: str, properties: bool = False) -> list[tuple[str, str]]:
    """(name, annotation) of each parameter of ``f(a, b?: T, ...c: X[], {d}: Y)``
    (destructured ones are left out); with ``properties``, only constructor parameter
    properties (``private c: C``, ``readonly d: D``)."""
    out = []
    for part in split_params(signature, "([{<", ")]}>"):
        head = part.split("=", 1)[0].strip()
        found = re.fullmatch(rf"({_MODIFIERS})(\.\.\.)?({_ID})\s*\??\s*(?::\s*(.+))?", head, re.DOTALL)
        if found and (not properties or found.group(1)):
            out.append((found.group(3), "" if found.group(2) else (found.group(4) or "").strip()))
    return out


#: A getter's header (``get req(): HonoRequest<P>``): read as a field of its result's class.
_GETTER = re.compile(rf"^(?:{_MODIFIERS})get\s+#?{_ID}\s*\(")
#: ``let a: A, b: B`` (annotated declarators without values): each name typed.
_DECLARATORS = re.compile(rf"\b(?:let|var)\s+({_ID}\s*:\s*[^=;,]+?(?:,\s*{_ID}\s*:\s*[^=;,]+?)+)\s*;?\s*$")
#: Characters of a signature ``declared_result`` reads at most.
SIGNATURE_MAX = 2000


def _declarations(line: str) -> list[tuple[str, str, str]]:
    """(name, annotation, value) of each ``const``/``let``/``var`` declarator of ``line``:
    ``_DECLARE``'s, or each of ``let one: Hono, two: Hono`` (hono's 14 ``one.route(..)``
    were name-only: the three were one untyped name)."""
    if "const" not in line and "let" not in line and "var" not in line:
        return []
    several = _DECLARATORS.search(line)
    if several:
        pairs = (part.partition(":") for part in several.group(1).split(","))
        return [(name.strip(), annotation.strip(), "") for name, _, annotation in pairs]
    return [(m.group(1), m.group(2) or "", m.group(3) or "") for m in _DECLARE.finditer(line)]


def declared_result(signature: str) -> str:
    """The result type a JS/TS function's or method's signature declares, as written after
    its parameter list's ``):`` (type arguments and all; an arrow's ``=>`` or a ``{`` after it
    dropped), else ``""``: ``route<P>(path: P, app: Hono<A>): Hono<E, S>`` -> ``Hono<E, S>``.
    The parameter list is the first parenthesis outside type parameters, matched to its
    close (a parameter's own function type, ``(r: Request) => Response``, inside it).
    Linear in the signature (at most ``SIGNATURE_MAX`` characters)."""
    text = signature[:SIGNATURE_MAX]
    depth, opened = 0, -1
    for i, ch in enumerate(text):
        if ch == "<" and opened < 0:
            depth += 1
        elif ch == ">" and opened < 0 and depth and text[i - 1] != "=":
            depth -= 1
        elif ch == "(" and not depth:
            opened = i
            break
    close = _closing(text, opened) if opened >= 0 else -1
    found = _RESULT.match(text, close + 1) if close > 0 else None
    return found.group(1).strip() if found else ""


_RESULT = re.compile(r"\s*:\s*([^{]+?)\s*(?:=>\s*)?(?:\{\s*)?$")



#: Characters of a value ``_written_chain`` reads at most.
CHAIN_VALUE_MAX = 400
_CHAIN_FORM = re.compile(r"(?:new [A-Za-z_$][\w$.]*\(\)|#?[A-Za-z_$][\w$]*(?:\(\))?)(?:\.#?[A-Za-z_$][\w$]*(?:\(\))?)*")


def _written_chain(value: str) -> str:
    """A value written as a chain of calls (``new Hono<E>().basePath('/api')``,
    ``this.basePath(path)``) in ``CallSite.chain``'s form (``new Hono().basePath()``): its
    arguments and type arguments dropped; ``""`` for anything else (an operator, a
    subscript, an argument list not closed on the line) or past ``CHAIN_VALUE_MAX``."""
    text = value.strip().removeprefix("await ").strip()
    if len(text) > CHAIN_VALUE_MAX or ")" not in text:
        return ""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
            if depth == 1:
                out.append("(")
        elif ch == ")":
            depth -= 1
            if depth == 0:
                out.append(")")
            elif depth < 0:
                return ""
        elif not depth:
            out.append(ch)
    if depth:
        return ""
    written = "".join(out)
    for _ in range(TYPE_ARGUMENT_DEPTH):
        bare = _TYPE_ARGUMENTS.sub("", written)
        if bare == written:
            break
        written = bare
    written = re.sub(r"\s*\.\s*", ".", written)
    return written if "()" in written and _CHAIN_FORM.fullmatch(written) else ""
