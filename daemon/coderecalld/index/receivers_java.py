"""Receiver types of Java method calls, read from one file's source at index time.

``JavaReceivers.type_of(name, owner)`` answers the type a receiver name has inside the
method ``owner`` (a qualified name of this file), as written (``Store``, ``a.b.Store``),
for the resolve stage (``resolve._java``) to qualify through its imports. What types a
name, each read from the source lines of its scope:

* a parameter of the method (``void run(Store s, final Other o)``; varargs and arrays do
  not: a call on an array is no method of its element type);
* a local declaration ``Store s = ...;`` / ``Store s;`` (modifiers and type arguments
  dropped: ``List<String> xs`` is a ``List``), ``var s = new Store(...)``, a for-each
  ``for (Store s : all)``, ``catch (IOException e)``, try-with-resources;
* a field of the enclosing class or an outer class (``private final Store store;``),
  for ``store.m()`` and ``this.store.m()`` (``this.`` only the enclosing class's);
* ``var s = a.m(..);``: no type here, the call whose result it holds (``call_of``), which
  the resolve stage types by the method's declared result.

A name declared twice in a method with different types, or bound by a lambda parameter,
has no type (flow is not followed). ``exact`` says when a local's or a field's every value
is a construction of its own type (``JsonReader r = new JsonReader(..)``, no anonymous
class body): its calls run that class's method, never a subclass's override. Only capitalised type names count: primitives have no
methods, and a lower-case head is a package (``java.util.List`` is kept whole).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from coderecalld.index.receivers import UNKNOWN, children, split_params, whole_call
from coderecalld.index.receivers import bind as _bind
from coderecalld.records import Symbol, SymbolKind

_TYPE = r"(?:[a-z_]\w*\.)*[A-Z]\w*(?:\.[A-Z]\w*)*(?:<[^;=()]*>)?(?:\[\])*"
_MODIFIERS = r"(?:(?:public|protected|private|static|final|transient|volatile|@\w+(?:\([^)]*\))?)\s+)*"
#: ``[modifiers] Type name =|;|:|,|)``: a field, a local, a for-each or a resource.
_DECLARE = re.compile(rf"(?:^\s*|[({{;]\s*)(?:for\s*\(\s*|catch\s*\(\s*|try\s*\(\s*)?{_MODIFIERS}"
                      rf"({_TYPE})\s+([a-z_$][\w$]*)\s*(?=[=;:,)])")
_VAR = re.compile(r"\bvar\s+([a-z_$][\w$]*)\s*=\s*new\s+([\w.]+)\s*[(<]")
_UNTYPED_VAR = re.compile(r"\bvar\s+([a-z_$][\w$]*)\s*[=:]")
#: ``var x = recv.m(`` (``m``, ``C.m``, ``this.m``, ``x.m``, ``this.x.m``): a local holding
#: a method's result (``call_of``).
_VAR_CALL = re.compile(r"\bvar\s+([a-z_$][\w$]*)\s*=\s*((?:this\.)?(?:[A-Za-z_$][\w$]*\.)?[A-Za-z_$][\w$]*)\s*\(")
#: Starts what a ``var`` local holding a call's result is bound to: ``()`` then the call
#: as written (``()gson.toJsonTree``); no type (``type_of``), its call (``call_of``).
CALLED = "()"
_LAMBDA = re.compile(r"(?:\(\s*([\w$\s,]*)\)|\b([a-z_$][\w$]*))\s*->")
#: Where a header's type parameter list opens: after a type's name, or before a method's
#: return type (after its modifiers only).
_TYPE_PARAMETERS = re.compile(
    r"\b(?:class|interface|record)\s+\w+\s*<|^\s*(?:(?:public|protected|private|static|final|abstract|"
    r"synchronized|native|default|strictfp)\s+)*<")
#: ``new C(`` / ``new a.C<X>(`` at the start of a value: the type constructed.
_NEW = re.compile(r"\s*new\s+((?:[a-z_]\w*\.)*[A-Z][\w$]*(?:\.[A-Z][\w$]*)*)\s*(?:<[^;(){}]*>)?\s*\(")
#: Characters of a value ``exact`` reads past its ``=`` at most (a construction's arguments
#: over several lines: gson's tests' ``new JsonReader(reader("..."))``).
EXACT_VALUE_CHARS = 2000
_NOT_TYPES = frozenset({"return", "new", "throw", "else", "case", "package", "import"})
_TYPE_KINDS = (SymbolKind.CLASS, SymbolKind.INTERFACE, SymbolKind.ENUM)


class JavaReceivers:
    """Receiver types of one Java file; ``lines`` maps line number -> source text."""

    def __init__(self, symbols: Mapping[str, Symbol], lines: Mapping[int, str]) -> None:
        self.symbols, self.lines = symbols, lines
        self._children = children(symbols)
        self._scopes: dict[str, dict[str, str]] = {}
        self._exact: dict[tuple[str, str, bool], bool] = {}
        self._text: str | None = None  # the file's text, read once for its fields (``exact``)

    def type_of(self, name: str, owner: str, this: bool = False) -> str:
        """The type written for ``name`` in method ``owner`` (a local or parameter, else a
        field of the enclosing class, then of outer classes), ``""`` if unknown; with
        ``this`` (``this.name``) only the enclosing class's fields."""
        sym = self.symbols.get(owner.split("#", 1)[0])
        if sym is None:
            return ""
        found = self._bound_to(name, sym, this)
        if (not found or found == UNKNOWN or found.startswith(CALLED)
                or self.type_parameter(found.split(".", 1)[0], sym)):
            return ""
        return found

    def call_of(self, name: str, owner: str) -> str:
        """The call a ``var`` local ``name`` of method ``owner`` holds the result of, as
        written (``var o = constructorConstructor.get(..);``: ``constructorConstructor.get``),
        when that is its every binding and the whole value; ``""`` otherwise."""
        sym = self.symbols.get(owner.split("#", 1)[0])
        if sym is None or sym.kind not in (SymbolKind.METHOD, SymbolKind.FUNCTION):
            return ""
        found = self._bindings(sym, True).get(name, "")
        return found[len(CALLED):] if found.startswith(CALLED) else ""

    def _bound_to(self, name: str, sym: Symbol, this: bool = False) -> str | None:
        """The type written for ``name`` where ``sym`` sees it bound (``type_of``'s order;
        ``""`` or ``UNKNOWN`` when bound without a known type), None when unbound."""
        found = None
        if not this and sym.kind in (SymbolKind.METHOD, SymbolKind.FUNCTION):
            found = self._bindings(sym, True).get(name)
        cls = self.symbols.get(sym.parent) if sym.kind not in _TYPE_KINDS else sym
        while found is None and cls is not None and cls.kind in _TYPE_KINDS:
            found = self._bindings(cls, False).get(name)
            cls = None if this else self.symbols.get(cls.parent)
        return found

    def bound(self, name: str, owner: str) -> bool:
        """Whether ``name`` is bound in method ``owner`` (a local or parameter, typed or not)
        or as a field of its class or an outer class of this file."""
        sym = self.symbols.get(owner.split("#", 1)[0])
        return sym is None or self._bound_to(name, sym) is not None  # unknown here: say nothing

    def exact(self, name: str, owner: str, this: bool = False) -> bool:
        """Whether every value ``name`` holds in method ``owner`` is a construction of
        the type it is declared with (``JsonReader r = new JsonReader(..)``, ``r = new
        JsonReader(..)`` again; ``var r = new JsonReader(..)``), with no anonymous class
        body: a local of the method, or a field of its class that is ``final`` or ``private``
        (no other file assigns it) assigned nowhere else in the file. Its calls then run
        that class's methods, never a subclass's override: gson's ``reader.skipValue()``
        on ``new JsonReader(..)`` locals were 44 ``override`` callers of
        ``JsonTreeReader.skipValue``. A parameter, a for-each or pattern variable, or a
        value of any other form (a ternary, a call, a cast) is not exact. ``this``: the
        field (``this.name``)."""
        key = (name, owner, this)
        if key not in self._exact:
            self._exact[key] = self._exactly(name, owner, this)
        return self._exact[key]

    def _exactly(self, name: str, owner: str, this: bool) -> bool:
        sym = self.symbols.get(owner.split("#", 1)[0])
        declared = self.type_of(name, owner, this)
        if sym is None or not declared:
            return False
        simple = declared.rpartition(".")[2]
        if not this and sym.kind in (SymbolKind.METHOD, SymbolKind.FUNCTION) and name in self._bindings(sym, True):
            if any(n == name for _, n in params(sym.signature)):
                return False
            return _constructed_only("\n".join(self._own_lines(sym, True)), name, simple, False)
        field = self._field_declaration(name, sym)
        if field is None or not re.search(r"\b(?:final|private)\b", field):
            return False
        if self._text is None:
            self._text = "\n".join(self.lines.get(i, "") for i in range(1, max(self.lines, default=0) + 1))
        return _constructed_only(self._text, name, simple, True)

    def _field_declaration(self, name: str, sym: Symbol) -> str | None:
        """The line declaring field ``name`` of the class ``sym`` sees it in (its own, then
        outer classes'), None when no class of this file declares it."""
        cls = self.symbols.get(sym.parent) if sym.kind not in _TYPE_KINDS else sym
        declare = re.compile(rf"\s{re.escape(name)}\s*[=;]")
        while cls is not None and cls.kind in _TYPE_KINDS:
            if name in self._bindings(cls, False):
                return next((line for line in self._own_lines(cls, False) if declare.search(line)), None)
            cls = self.symbols.get(cls.parent)
        return None

    def fields(self, cls: str) -> dict[str, str]:
        """The fields class ``cls`` of this file declares with a class type, name -> the
        type as written (arrays, generics' arguments and unknown types left out)."""
        sym = self.symbols.get(cls)
        if sym is None or sym.kind not in _TYPE_KINDS:
            return {}
        return {name: t for name, t in self._bindings(sym, False).items()
                if t and t != UNKNOWN and t[:1].isupper() and not self.type_parameter(t.split(".", 1)[0], sym)}

    def type_parameter(self, name: str, sym: Symbol | None) -> bool:
        """Whether ``name`` is a type parameter of ``sym`` or a symbol around it
        (``class Box<T>``, ``<E> void put(E e)``): a call on it reaches its bound's method."""
        while sym is not None:
            if name in type_parameters(sym.signature):
                return True
            sym = self.symbols.get(sym.parent)
        return False

    def _bindings(self, sym: Symbol, is_method: bool) -> dict[str, str]:
        if sym.qualified_name not in self._scopes:
            out: dict[str, str] = {}
            if is_method:
                for type_, name in params(sym.signature):
                    _bind(out, name, type_)
            for line in self._own_lines(sym, is_method):
                _read_line(line, out)
            self._scopes[sym.qualified_name] = out
        return self._scopes[sym.qualified_name]

    def _own_lines(self, sym: Symbol, is_method: bool) -> list[str]:
        """A method's lines after its header, or a class's lines outside its members' (its
        fields)."""
        skip = {i for c in self._children.get(sym.qualified_name, ())
                for i in range(c.start_line, c.end_line + 1)}
        first = sym.start_line
        if is_method:  # the body starts at the header's `{` (a signature may span lines)
            while first < sym.end_line and "{" not in self.lines.get(first, ""):
                first += 1
        out = []
        for i in range(first, sym.end_line + 1):
            if i not in skip:
                line = self.lines.get(i, "")
                out.append(line.split("{", 1)[1] if i == first and is_method and "{" in line else line)
        return out


def _constructed_only(text: str, name: str, simple: str, field: bool) -> bool:
    """Whether ``text`` assigns ``name`` at least once and only ever ``new <simple>(..)``
    (a field: ``this.name =`` too), each construction closing before a ``;`` with no
    anonymous class body, and binds it no other way (a for-each's ``name :``, a pattern's
    ``instanceof T name``)."""
    word = re.escape(name)
    if re.search(rf"(?<![\w$.]){word}\s*:(?!:)|\binstanceof\s+[\w.<>]+\s+{word}\b", text):
        return False
    assigned = (rf"(?<![\w$])(?:\bthis\s*\.\s*)?{word}\s*=(?!=)" if field
                else rf"(?<![\w$.]){word}\s*=(?!=)")
    seen = False
    for m in re.finditer(assigned, text):
        if not field and text[max(0, m.start() - 80):m.start()].rstrip().endswith("."):
            return False  # `obj. name = ..`: another object's field
        value = text[m.end():m.end() + EXACT_VALUE_CHARS]
        new = _NEW.match(value)
        if new is None or new.group(1).rpartition(".")[2] != simple:
            return False
        close = closing_paren(value, new.end() - 1)
        if close < 0 or not value[close + 1:].lstrip().startswith(";"):
            return False  # an anonymous class's body, a chained call, or cut short
        seen = True
    return seen


def closing_paren(text: str, paren: int) -> int:
    """The index of the parenthesis closing the one ``text`` opens at ``paren``, string and
    character literals skipped (``reader("a(b")``); -1 when it does not close in ``text``."""
    depth, i, n = 0, paren, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            i += 1
            while i < n and text[i] != ch:
                i += 2 if text[i] == "\\" else 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _statement_end(code: str, paren: int) -> bool:
    """Whether the parenthesis ``code`` opens at ``paren`` closes on the line, the statement's
    ``;`` right after it."""
    close = closing_paren(code, paren)
    return close > 0 and code[close + 1:].strip() == ";"


def _read_line(line: str, out: dict[str, str]) -> None:
    code = line.split("//", 1)[0]
    if not code.strip() or code.lstrip().startswith(("*", "/*", "return ", "import ", "package ")):
        return
    for m in _DECLARE.finditer(code):
        type_, name = m.groups()
        if type_ not in _NOT_TYPES:
            _bind(out, name, "" if type_.endswith("]") else type_.split("<", 1)[0])
    if "var " in code:
        # `var x = new C(...)` only: `new C().build()` is the value of another call
        typed = {m.group(1): m.group(2) for m in _VAR.finditer(code)
                 if whole_call(code.rstrip().rstrip(";").rstrip(), code.find("(", m.end() - 1))}
        # `var x = a.m(..);`, closing on its line: the call's result (a chain, `a.m().n()`,
        # or a call continued below is no such value)
        typed.update((m.group(1), CALLED + m.group(2)) for m in _VAR_CALL.finditer(code)
                     if m.group(1) not in typed and _statement_end(code, m.end() - 1))
        for m in _UNTYPED_VAR.finditer(code):
            _bind(out, m.group(1), typed.get(m.group(1), ""))
    if "->" in code:
        for m in _LAMBDA.finditer(code):
            for name in re.findall(r"[a-z_$][\w$]*", m.group(1) or m.group(2) or ""):
                _bind(out, name, "")


def type_parameters(signature: str) -> list[str]:
    """Names of the type parameters a class or method header declares:
    ``class Box<T extends Comparable<T>, K>`` and ``public <E> void put(E e)`` -> ``["T", "K"]``,
    ``["E"]`` (``List<String> get()``'s type argument is none)."""
    found = _TYPE_PARAMETERS.search(signature)
    if not found:
        return []
    depth, cur, names = 0, "", []
    for ch in signature[found.end():]:
        if ch == "<":
            depth += 1
        elif ch == ">":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            names.append(cur)
            cur = ""
            continue
        cur += ch
    names.append(cur)
    return [n.split()[0] for n in names if n.split()]


def params(signature: str) -> list[tuple[str, str]]:
    """(type, name) of each parameter of a method signature (``void f(final Store s,
    List<X> xs, int n, Y... ys)``); an array, varargs or primitive has type ``""``."""
    out = []
    for part in split_params(signature, "(<", ")>"):
        part = re.sub(r"@\w+(?:\([^)]*\))?|\bfinal\b", " ", part).strip()
        found = re.fullmatch(r"(.+?)\s+([\w$]+)", part)
        if found:
            type_ = found.group(1).strip()
            simple = re.fullmatch(_TYPE, type_) and not type_.endswith("]")
            out.append((type_.split("<", 1)[0] if simple else "", found.group(2)))
    return out
