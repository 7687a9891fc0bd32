"""Receiver types of Go method calls, read from one file's source at index time.

``GoReceivers.target(site, owner)`` answers ``x.M()`` or ``s.f.M()`` inside function or
method ``owner`` with ``<type>.M``, the type named like every Go target
(``example.com/a/db.DB.Query``), or ``""``. What types a name, in the calling function:

* the method's receiver and its parameters (``func f(s *Server)``; ``a, b *T`` share a
  type), and those of a function literal in its body (``go func(w *Worker) {...}``);
* ``x := T{}``, ``x := &T{...}``, ``x := new(T)``, ``var x T``, ``var x = &T{}``, and
  ``x := NewT(...)`` / ``x, err := NewT(...)`` where ``NewT`` is a function of this file
  whose (first) result is ``*T``;
* a field of a struct of this file (``s.db.Query()`` with ``db *DB`` in ``Server``);
* a package-level variable of this file (``var X = T{..}``, a ``var (..)`` block's ``X =
  &T{..}``: ``package_values``). A name nothing in the file binds is another file's
  package-level name: ``X.M()`` targets ``<module>.X.M``, which the query side types from
  that file's ``instance_edges`` (``value_types``).

A composite literal types a call on it too: ``T{..}.M()``, ``(&pkg.T{..}).M()``, written
on one line or over several (``chain_target``).

Only a type known to be concrete types anything: a pointer ``*T``, a composite literal or
``new(T)``, or a name this file declares as a struct. A value of another file's named type
(``opts Options``, ``c Cache``) may be an interface, whose method a call does not pin, so
it keeps no type. A struct's embedded types (``Base``, ``*pkg.Mixin``) are its bases: the
query side follows them (``base_targets``) to a promoted method. Names declared twice with
different types (in two blocks) have none.
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass

from coderecalld.index.receivers import ATTRIBUTE, UNKNOWN, children, split_params
from coderecalld.index.receivers import bind as _bind
from coderecalld.records import POSITION, RETURNED, CallSite, Symbol, SymbolKind

#: Go's predeclared functions and types: a bare call of one never means the package's own,
#: and no value of one has a method of a package.
GO_BUILTINS = frozenset(
    "append cap clear close complex copy delete imag len make max min new panic print println real recover "
    "any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune "
    "string uint uint8 uint16 uint32 uint64 uintptr".split())
#: Go's predeclared values (and the blank identifier): no package's variable.
_PREDECLARED_VALUES = frozenset({"nil", "true", "false", "iota", "_"})
_ID = r"[A-Za-z_]\w*"
_RECEIVER = re.compile(rf"^func\s*\(\s*({_ID})?\s*(\*?\s*{_ID})")
_SHORT = re.compile(rf"(?:^|[;{{]|\bif\s|\bswitch\s|\bfor\s)\s*({_ID}(?:\s*,\s*{_ID})*)\s*:=\s*(.*)$")
#: A variable spec's names, declared type and value (``a, b *T = ..``).
_SPEC_BODY = rf"({_ID}(?:\s*,\s*{_ID})*)\s*([^=]*?)\s*(?:=\s*(.*))?$"
_VAR = re.compile(rf"^\s*var\s+{_SPEC_BODY}")
#: A package-level variable's spec: ``var X = T{..}``, or a ``var (..)`` block's ``X = T{..}``,
#: its lines joined (a value may go on below: ``jsoniter.Config{`` .. ``}.Froze()``).
_SPEC = re.compile(rf"^\s*(?:var\s+)?{_SPEC_BODY}", re.DOTALL)
_RANGE = re.compile(rf"\bfor\s+({_ID}(?:\s*,\s*{_ID})*)\s*:=\s*range\b")
_LITERAL = re.compile(rf"^(&)?({_ID}(?:\.{_ID})?)\s*\{{")
_NEW = re.compile(rf"^new\(\s*({_ID}(?:\.{_ID})?)\s*\)")
#: A generic function's or receiver's type parameter list (``func F[T any, K comparable]``,
#: ``func (s *Set[T]) Add``): a value of one has no method of a package.
_TYPE_PARAMETERS = re.compile(rf"(?:^func\s*(?:\([^()]*\)\s*)?{_ID}|\*?\s*{_ID})\s*\[([^\[\]]+)\]\s*[()]")
_FUNC_LITERAL = re.compile(r"\bfunc\s*(\([^()]*\))")
_FIELD = re.compile(rf"^\s*({_ID}(?:\s*,\s*{_ID})*)\s+([^`/]+?)\s*(?:`.*)?(?://.*)?$")
_EMBEDDED = re.compile(rf"^\s*(\*?\s*{_ID}(?:\.{_ID})?)\s*(?:`.*)?(?://.*)?$")
_FUNCTIONS = (SymbolKind.FUNCTION, SymbolKind.METHOD)
#: Kinds of a Go type whose values have methods of their own (a named slice or func type
#: is a ``type_alias`` symbol).
_NAMED_TYPES = frozenset({SymbolKind.STRUCT, SymbolKind.INTERFACE, SymbolKind.TYPE_ALIAS})
#: The prefix of a slice type's binding (``[]*T``, a variadic ``...*T``): ``[]`` and the
#: element's target-style name; ranging over one binds the element's type.
SLICE = "[]"
#: A Go string or rune literal, read as empty when braces are counted.
_CODE_ONLY = re.compile(r'"(?:[^"\\]|\\.)*"|`[^`]*`|\'(?:[^\'\\]|\\.)*\'')
#: Steps of one expression's chain read for its type (``c.Root().Parent().Flags()``).
_CHAIN_MAX = 8
#: Occurrences of one chain tail on a line read at most (``chain_target``); more: untyped.
#: A line of 1,000 ``n.children[0].find()`` took 183 s to index, each tail's chain read
#: back to its start for every site (a review of session 36).
CHAIN_TAILS_MAX = 16
#: Lines above a chain's tail (``}).Methods(..)``) read for where the chain opens.
_ABOVE_MAX = 40
#: Parentheses around an operand read through at most (``((&T{..})).M()``); deeper: untyped.
_PARENS_MAX = 4
# ``records.RETURNED`` ends the type of a value another file's function returned
# (``example.com/m.NewRouter()`` for ``m := NewRouter()`` or ``chi.NewRouter()``), so a call
# on it is ``example.com/m.NewRouter().Mount``; a function of the calling file is read here
# (``returns``). ``records.POSITION`` names a result after the first (``<module>.F#1()``).


@dataclass(frozen=True, slots=True)
class _Literal:
    """A function literal in a function: its parameters (``bound``: name -> type) are names
    from its ``func`` (``start``, column of line ``first``) to its body's closing brace
    (``end``, the column past it on line ``last``)."""

    first: int
    start: int
    last: int
    end: int
    bound: dict[str, str]

    def holds(self, line: int, column: int | None) -> bool:
        """Whether the literal holds ``line`` (at ``column``, when known)."""
        if not self.first <= line <= self.last:
            return False
        if column is None:
            return True
        return not ((line == self.first and column < self.start) or (line == self.last and column >= self.end))


class GoReceivers:
    """Receiver types of one Go file: ``module`` its package's import path, ``table`` its
    imports (local name -> path), ``lines`` line number -> source text."""

    def __init__(self, module: str, table: Mapping[str, str], symbols: Mapping[str, Symbol],
                 lines: Mapping[int, str]) -> None:
        self.module, self.table, self.symbols, self.lines = module, table, symbols, lines
        self._children = children(symbols)
        # The package clause every qualified name starts with (``util`` of ``util.Server``).
        self._package = next((s.qualified_name.split(".", 1)[0] for s in symbols.values()
                              if "." in s.qualified_name), "")
        self._scopes: dict[str, dict[str, str]] = {}
        # function -> its function literals (``_Literal``)
        self._literals: dict[str, list[_Literal]] = {}
        # function -> its names and every literal's parameters (``scope_at`` with no line)
        self._merged: dict[str, dict[str, str]] = {}
        self._fields: dict[str, dict[str, str]] = {}
        self._values: dict[str, str] | None = None  # ``package_values``, read once
        self._typed: dict[str, str] | None = None  # those of a known type
        # every type parameter the file declares (`[K comparable, V any]`): no type of the package
        self._type_parameters = frozenset(part.split()[0] for sym in symbols.values()
                                          for found in _TYPE_PARAMETERS.findall(sym.signature)
                                          for part in found.split(",") if part.split())

    def type_of(self, expr: str, concrete: bool = False, named: bool = True) -> str:
        """The target-style name of a type expression (``*Server``, ``db.DB``), ``""`` when
        it names no type of a package, or the standard library's value type (unless
        ``concrete``: a composite literal or ``new``). A value type is a struct, an interface
        or another named type of the package or of another module (what a value declared
        with it calls is that type's method); with ``named`` False (a function's result,
        which the query side reads as a concrete type) only a struct of this file."""
        expr = expr.strip()
        if expr.startswith(("[]", "...")):  # a slice (or variadic) of a concrete type: ranged over
            element = self.type_of(expr[2:] if expr.startswith("[]") else expr[3:], concrete, named)
            return f"{SLICE}{element}" if element and not element.startswith(SLICE) else ""
        pointer = expr.startswith("*")
        name = expr.lstrip("*").strip()
        if not re.fullmatch(rf"{_ID}(?:\.{_ID})?", name) or name in GO_BUILTINS:
            return ""  # a slice, map, channel, func or generic type
        head, dot, rest = name.partition(".")
        if dot:
            fq = f"{self.table[head]}.{rest}" if head in self.table else ""
            # another module's named type (a struct, an interface, a named slice): its own
            # methods; the standard library's values stay untyped (an `http.ResponseWriter`
            # may be a project's type)
            struct = named and "." in self.table.get(head, "").split("/", 1)[0]
        else:
            sym = self.symbols.get(f"{self._package}.{name}")
            # a composite literal's or new's type is a type whatever its case (another
            # file's `node`: chi's `tr := &node{}` typed nothing)
            fq = f"{self.module}.{name}" if sym is not None or name[:1].isupper() or pointer or concrete else ""
            # a type of the package: this file's struct, interface or named type (gin's `b
            # Binding` param: the interface's own `Name`, 9 name-only callers), or another
            # file's exported one (no one-letter name: a type parameter, `T`)
            struct = (sym is not None and sym.kind is SymbolKind.STRUCT) or named and (
                sym.kind in _NAMED_TYPES if sym is not None
                else name[:1].isupper() and len(name) > 1 and name not in self._type_parameters)
        return fq if fq and (pointer or concrete or struct) else ""

    def struct_of(self, fq: str) -> Symbol | None:
        """The struct symbol of this file a target-style type name is, else ``None``."""
        prefix = self.module + "."
        sym = self.symbols.get(f"{self._package}.{fq[len(prefix):]}") if fq.startswith(prefix) else None
        return sym if sym is not None and sym.kind is SymbolKind.STRUCT else None

    def expression_type(self, expr: str, scope: Mapping[str, str], depth: int = 0) -> str:
        """The target-style type of a Go expression in a function whose names ``scope``
        types, ``""`` when unknown: a composite literal (``&T{..}``), ``new(T)``, an operand
        in parentheses (``(&T{..})``, ``depth`` of them read so far), a name, a
        field of a struct of this file (``s.db``), a call of a function or method of this file
        by its declared (first) result (``NewT(..)``, ``c.Root()``, ``c.Root().Parent()``), a
        type assertion (``in.(*T)``), and chains of those: a chain's type is its last step's.
        A call this file cannot type is named by what it calls (``RETURNED``): another
        package's function (``template.New()``), another file's (``<module>.NewRouter()``),
        a method this file does not define on a type it knows (``<module>.Route.Host()``),
        and any further call on such a result (``<module>.Route.Host().Subrouter()``); the
        query side reads their declared results (``returns``). A field of such a result is
        unknown. (mux's ``new(Route).Host(..).Subrouter()`` was typed ``Route``, the
        chain's start: its ``Path`` calls resolved to ``Route.Path``, not ``Router.Path``.)"""
        expr = _CODE_ONLY.sub('""', expr.strip())  # a string's brackets are no brackets
        literal = _LITERAL.match(expr)
        new = _NEW.match(expr) if literal is None else None
        head = re.match(_ID, expr) if literal is None and new is None else None
        if expr.startswith("("):  # `(T{..}).M()`, `(&pkg.T{..}).M()`
            close = _closing(expr, 0)
            if close < 0 or depth >= _PARENS_MAX:
                return ""
            fq, pos = self.expression_type(expr[1:close], scope, depth + 1), close + 1
        elif literal:  # `&T{..}`, its body maybe continued on the next lines
            close = _closing(expr, literal.end() - 1)
            fq, pos = self.type_of(literal.group(2), True), (close + 1 if close >= 0 else len(expr))
        elif new:
            fq, pos = self.type_of(new.group(1), True), new.end()
        elif head is None:
            return ""
        elif expr[head.end():head.end() + 1] == "(" and head.group() == "make":  # make([]*T, n): a slice
            pos = head.end()
            close = _closing(expr, pos)
            made = split_params(expr[pos:close + 1])
            fq, pos = (self.type_of(made[0]) if made and close > 0 else ""), close + 1
        elif expr[head.end():head.end() + 1] == "(":
            pos = head.end()
            close = _closing(expr, pos)
            fn = self.symbols.get(f"{self._package}.{head.group()}")
            if close < 0 or head.group() in GO_BUILTINS or head.group() in scope:
                return ""
            if fn is None:  # another file's function of the package, or a conversion
                fq = f"{self.module}.{head.group()}{RETURNED}"
            elif fn.kind in _NAMED_TYPES:  # a conversion, `ResponseWriter(w)`: a value of the type
                fq = self.type_of(head.group(), True)
            elif fn.kind is not SymbolKind.FUNCTION:
                return ""
            else:
                fq = self.returns(fn)
            pos = close + 1
        elif head.group() in self.table:
            # a package's function (`chi.NewRouter(..)`): its result, named by it
            pos = head.end()
            called = re.match(rf"\.\s*({_ID})\s*\(", expr[pos:])
            close = _closing(expr, pos + called.end() - 1) if called else -1
            if close < 0:
                return ""  # a package's value
            fq, pos = f"{self.table[head.group()]}.{called.group(1)}{RETURNED}", close + 1
        elif head.group() not in scope and head.end() == len(expr.rstrip()) and (
                head.group()[:1].isupper() or head.group() in self.package_values()):
            # a package-level variable alone, of no type this file knows (gin's `b := Form`,
            # `Form` another file's): the value is named by it, as a call on it is (``target``).
            # Another file's only when exported: a function literal's parameter list this
            # file cannot read (`func(h func(int)) {`) binds lowercase names it misses
            return self._package_name(head.group())
        else:
            fq, pos = scope.get(head.group(), ""), head.end()
        steps = 0
        while pos < len(expr) and steps < _CHAIN_MAX:
            steps += 1
            rest = expr[pos:]
            if rest.startswith(".("):  # a type assertion types the value whatever it was
                close = _closing(expr, pos + 1)
                if close < 0:
                    return ""
                fq, pos = self.type_of(expr[pos + 2:close], True), close + 1
                continue
            if rest.startswith("["):  # an element of a slice of a known type: `n.children[i]`
                close = _closing(expr, pos)
                if close < 0 or not fq.startswith(SLICE):
                    return ""
                fq, pos = fq[len(SLICE):], close + 1
                continue
            step = re.match(rf"\.\s*({_ID})", rest)
            if not fq or fq == UNKNOWN or fq.startswith(SLICE) or step is None:
                return ""
            pos += step.end()
            if expr[pos:pos + 1] == "(":
                close = _closing(expr, pos)
                if close < 0:
                    return ""
                fq, pos = self._called(fq, step.group(1)), close + 1
            elif fq.endswith(RETURNED):
                return ""  # a field of another file's result: its type unknown here
            else:
                struct = self.struct_of(fq)
                fq = self.fields(struct).get(step.group(1), "") if struct is not None else ""
        return "" if fq == UNKNOWN or pos < len(expr.rstrip()) else fq

    def result_type(self, value: str, scope: Mapping[str, str], position: int) -> str:
        """The type of result ``position`` (from 0) of ``value`` when it is one call: of a
        function of this file (``F(..)``) or a method of a type this file knows, by its
        declared results; another file's or package's function, or a method this file does
        not define, named with the position (``<module>.F#1()``, ``POSITION``) for the query
        side to read its ``results``. ``""`` otherwise (a value of several expressions, a
        type assertion's or a map read's ``ok``)."""
        expr = _CODE_ONLY.sub('""', value.strip())
        opened = _call_open(expr) if expr.endswith(")") else -1
        if opened <= 0:
            return ""
        callee = expr[:opened].rstrip()
        on, dot, name = callee.rpartition(".")
        if not re.fullmatch(_ID, name) or name in GO_BUILTINS or (not dot and name in scope):
            return ""
        if not dot:
            fn = self.symbols.get(f"{self._package}.{name}")
            if fn is not None:
                return self._result_at(fn, position) if fn.kind is SymbolKind.FUNCTION else ""
            return f"{self.module}.{name}{POSITION}{position}{RETURNED}"
        if on in self.table:
            return f"{self.table[on]}.{name}{POSITION}{position}{RETURNED}"
        fq = self.expression_type(on, scope)
        if not fq or fq == UNKNOWN or fq.startswith(SLICE):
            return ""
        method = self._method(fq, name)
        return self._result_at(method, position) if method is not None else f"{fq}.{name}{POSITION}{position}{RETURNED}"

    def _result_at(self, fn: Symbol, position: int) -> str:
        """The type of result ``position`` of this file's ``fn``, ``""`` when not concrete."""
        found = results(fn.signature)
        return self.type_of(found[position][1], named=False) if position < len(found) else ""

    def result_types(self, fn: Symbol) -> tuple[str, ...]:
        """Each result's type of ``fn`` (``Chunk.results``), target-style, when it has two or
        more (``""`` for one not concrete)."""
        found = results(fn.signature)
        return tuple(self.type_of(t, named=False) for _, t in found) if len(found) > 1 else ()

    def _called(self, fq: str, name: str) -> str:
        """The type a call of method ``name`` on a value of type ``fq`` returns: this file's
        method's declared result, else the call named (``<fq>.<name>()``, ``RETURNED``)."""
        method = self._method(fq, name)
        return self.returns(method) if method is not None else f"{fq}.{name}{RETURNED}"

    def _method(self, fq: str, name: str) -> Symbol | None:
        """The method ``name`` of this file's type ``fq`` (target-style), else ``None``."""
        prefix = self.module + "."
        if not fq.startswith(prefix):
            return None
        sym = self.symbols.get(f"{self._package}.{fq[len(prefix):]}.{name}")
        return sym if sym is not None and sym.kind is SymbolKind.METHOD else None

    def returns(self, fn: Symbol) -> str:
        """The type of a function's or method's (first) result, target-style
        (``Chunk.returns``), ``""`` when not concrete."""
        found = results(fn.signature)
        return self.type_of(found[0][1], named=False) if found else ""

    def chain_target(self, site: CallSite, owner: str) -> str:
        """The target of a chain's tail ``x.f().M()`` (a site named ``M`` alone, not written
        bare) from the type ``x.f()`` returns (``expression_type``), and of a call on a
        composite literal (``T{..}.M()``, ``(&pkg.T{..}).M()``); ``""`` when unknown or
        when its occurrences on the line disagree. At the top level (``owner`` ``""``: a
        package variable's value, mux's ``var tests = []T{{route: new(Route).Path(..)}}``)
        no local names a value. A chain opened on a line above (``r.HandleFunc("/", func(..)
        {`` .. ``}).Methods(..)``: ``_opened_above``), or continued from lines ending with
        its ``.`` (``r.Host(..).`` then ``Path(..)``: ``_continued``), is read from there."""
        fn = self._function(owner)
        line = self._code(site.line)  # (a string's `//` or brace is none: `T{URL: "http://x"}.M()`)
        if (fn is None and owner) or ("." not in line and not self.continues(site)):
            return ""
        found = set()
        # after a call, an index or a composite literal (`T{..}.M()`)
        ends = [tail.start() + 1 for tail in re.finditer(rf"[)\]}}]\s*\.\s*{re.escape(site.name)}\s*\(", line)]
        if len(ends) > CHAIN_TAILS_MAX:
            return ""  # a generated line of a thousand tails: each read back to its start was cubic
        for end in ends or ([len(line) - len(line.lstrip())] if self.continues(site) else []):
            start = _expression_start(line, end)
            expr, first = line[start:end], site.line
            if fn is not None and expr.lstrip().startswith(("}", ")")):
                expr, first, start = self._opened_above(fn, site.line, end)
            elif fn is not None:
                expr, first, start = self._continued(fn, site.line, expr, start)
                expr = expr[:-1] if expr.endswith(".") else expr  # (the site opens its line)
            scope = self._typing(self.scope_at(fn, first, start) if fn is not None else {})
            fq = self.expression_type(expr, scope) if expr else ""
            found.add(f"{fq}.{site.name}" if fq and not fq.startswith(SLICE) else "")
        return found.pop() if len(found) == 1 else ""

    def continues(self, site: CallSite) -> bool:
        """Whether ``site`` (a name alone) opens its line continuing a chain the line above
        ends with a ``.`` on (``r.Host(..).`` then ``Path(..)``): no bare call (mux's
        ``Path`` so written targeted a package function ``Path``)."""
        line = self.lines.get(site.line, "")
        return (re.match(rf"\s*{re.escape(site.name)}\s*\(", line) is not None
                and self._code(site.line - 1).rstrip().endswith("."))

    def _code(self, line: int) -> str:
        """Line ``line`` with its strings blanked (their length kept) and its comment dropped."""
        return _CODE_ONLY.sub(lambda m: " " * len(m.group()), self.lines.get(line, "")).split("//", 1)[0]

    def _continued(self, fn: Symbol, line: int, expr: str, start: int) -> tuple[str, int, int]:
        """``expr`` (at column ``start`` of ``line``), with the chain the lines above it end
        with a ``.`` on before it when it opens its line: (expression, its first line, its
        column there), up to ``_ABOVE_MAX`` lines within ``fn``."""
        for _ in range(_ABOVE_MAX):
            above = self._code(line - 1).rstrip()
            if self._code(line)[:start].strip() or not above.endswith(".") or line - 1 <= fn.start_line:
                break
            opened = _expression_start(above, len(above) - 1)
            expr, line, start = above[opened:] + expr.lstrip(), line - 1, opened
        return expr, line, start

    def _opened_above(self, fn: Symbol, line: int, end: int) -> tuple[str, int, int]:
        """(expression, its first line, its column there) of the operand chain ending at
        column ``end`` of ``line`` that opens on a line above it in ``fn`` (at most
        ``_ABOVE_MAX`` lines; strings blanked, comments dropped); ``("", line, 0)`` when
        it does not open within them."""
        first = max(fn.start_line + 1, line - _ABOVE_MAX)
        rows = [self._code(i) for i in range(first, line + 1)]
        text = "\n".join([*rows[:-1], rows[-1][:end]])
        start = _expression_start(text, len(text))
        expr = text[start:]
        if _depth(expr) or not expr.strip():
            return "", line, 0
        return expr, first + text.count("\n", 0, start), start - (text.rfind("\n", 0, start) + 1)

    def _bindings(self, fn: Symbol) -> dict[str, str]:
        if fn.qualified_name not in self._scopes:
            out: dict[str, str] = {}
            self._scopes[fn.qualified_name] = out
            receiver = _RECEIVER.match(fn.signature)
            if receiver and receiver.group(1):  # a method's receiver: always a concrete type
                _bind(out, receiver.group(1), self.type_of(receiver.group(2), True))
            header = fn.signature[receiver.end():] if receiver else fn.signature
            generic = {part.split()[0] for found in _TYPE_PARAMETERS.findall(fn.signature)
                       for part in found.split(",") if part.split()}
            for name, type_ in params(header[header.find("("):]) + [r for r in results(fn.signature) if r[0]]:
                _bind(out, name, "" if type_.lstrip("*").strip() in generic else self.type_of(type_))
            literals: list[_Literal] = []
            self._literals[fn.qualified_name] = literals
            for i in range(fn.start_line + 1, fn.end_line + 1):
                line = self.lines.get(i, "").split("//", 1)[0]
                self._read_line(line, out, i, fn.end_line)
                for literal in _FUNC_LITERAL.finditer(line) if "func" in line else ():
                    bound: dict[str, str] = {}
                    for name, type_ in params(literal.group(1)):
                        _bind(bound, name, self.type_of(type_))
                    last, end = self._literal_end(i, literal.end(), fn.end_line)
                    if last:  # its parameters are its body's names, not the function's
                        literals.append(_Literal(i, literal.start(), last, end, bound))
                    else:
                        for name, fq in bound.items():
                            _bind(out, name, fq)
        return self._scopes[fn.qualified_name]

    def scope_at(self, fn: Symbol, line: int | None, column: int | None = None) -> dict[str, str]:
        """The names typed at ``line`` of ``fn``: its own bindings, and the parameters of
        each function literal holding ``line`` over them (chi's handlers' ``r
        *http.Request`` beside the test's ``r := NewRouter()``: the name had two types in
        the function, so none, and 21 of ``Mux.Mount``'s 22 callers were name-only). With
        ``column`` (0-based, of the raw line), a literal holds only what lies from its
        ``func`` to its closing brace: mux's ``r.HandleFunc("/", func(w .., r
        *http.Request) {`` calls the router ``r``, not the request. No ``line``: every
        literal's parameters too, two types of one name making none."""
        own = self._bindings(fn)
        literals = self._literals.get(fn.qualified_name, [])
        if line is None:
            if fn.qualified_name not in self._merged:  # read for every bare call: once
                merged = dict(own)
                for literal in literals:
                    for name, fq in literal.bound.items():
                        _bind(merged, name, fq)
                self._merged[fn.qualified_name] = merged
            return self._merged[fn.qualified_name]
        holding = [literal.bound for literal in literals if literal.holds(line, column)]
        if not holding:
            return own
        scoped = dict(own)
        for bound in holding:  # outer literals first: they start earlier
            scoped.update(bound)
        return scoped

    def _literal_end(self, first: int, column: int, last: int) -> tuple[int, int]:
        """(line, column past the brace) closing the body of a function literal whose
        parameters end at ``column`` of line ``first`` (braces counted outside strings and
        comments, up to line ``last``), ``(0, 0)`` when its body does not open on that line."""
        depth, opened = 0, False
        for i in range(first, last + 1):
            # strings blanked, their length kept: ``column`` is the raw line's
            text = _CODE_ONLY.sub(lambda m: " " * len(m.group()), self.lines.get(i, "").split("//", 1)[0])
            start = 0
            if i == first:
                start = text.find("{", column) if column <= len(text) else -1
                if start < 0:
                    return 0, 0
            for j in range(start, len(text)):
                if text[j] == "{":
                    depth, opened = depth + 1, True
                elif text[j] == "}":
                    depth -= 1
                    if opened and depth == 0:
                        return i, j + 1
        return 0, 0

    def _read_line(self, line: str, out: dict[str, str], number: int, last: int) -> None:
        """Bind the names ``line`` (line ``number`` of a function ending at line ``last``)
        declares in ``out``."""
        typing = self._typing(out)
        if ":=" in line:
            loop = _RANGE.search(line)
            short = _SHORT.search(line) if not loop else None
            names = re.findall(_ID, (loop or short).group(1)) if loop or short else []
            if loop:  # `for i, x := range s`: x an element of a slice of a known type
                ranged = self.expression_type(_ranged(line[loop.end():]), typing)
                element = ranged[len(SLICE):] if ranged.startswith(SLICE) else ""
                for i, name in enumerate(names):
                    _bind(out, name, element if i == 1 else "")
            else:
                # a statement ends at `;` (`for p := c; p != nil; p = p.Parent() {`)
                value = self._whole(short.group(2), number, last).split(";", 1)[0] if short else ""
                typed = self.expression_type(value, typing) if short else ""
                for i, name in enumerate(names):
                    # `c, r := CreateTestContext(w)`: each the call's result at its position
                    _bind(out, name, typed if i == 0 else self.result_type(value, typing, i))
        var = _VAR.match(line) if "var " in line else None
        if var:
            names, type_, value = var.groups()
            typed = self.type_of(type_) if type_ else self.expression_type(
                self._whole(value or "", number, last), typing)
            for i, name in enumerate(re.findall(_ID, names)):
                _bind(out, name, typed if i == 0 or type_ else "")

    def _whole(self, value: str, line: int, last: int) -> str:
        """``value``, written on ``line``, with the lines below it up to where its brackets
        close (to line ``last``, at most ``_ABOVE_MAX`` lines) when it opens a composite
        literal left open there: ``c := jsoniter.Config{`` .. ``}.Froze()`` is what
        ``Froze`` returns, no ``Config``."""
        if not _LITERAL.match(value.strip()):
            return value
        rows, depth = [value], _depth(value)
        for i in range(line + 1, min(last, line + _ABOVE_MAX) + 1):
            if depth <= 0:
                break
            rows.append(self._code(i))
            depth += _depth(rows[-1])
        return "\n".join(rows)

    def _typing(self, scope: dict[str, str]) -> Mapping[str, str]:
        """The names typed in a function: ``scope``'s, then the package-level variables of
        this file no local shadows (``package_values``)."""
        if self._typed is None:
            self._typed = {name: fq for name, fq in self.package_values().items() if fq != UNKNOWN}
        return ChainMap(scope, self._typed) if self._typed else scope

    def package_values(self) -> dict[str, str]:
        """Name -> type (target-style, ``UNKNOWN`` when not known) of each package-level
        variable this file declares: its declared type when it has one (``var X *T``; one
        this file does not know to be concrete, ``var X Binding = impl{}``, types nothing: a
        value of an interface type may be set to another), else its value's
        (``expression_type`` with no local names: ``var X = T{..}``, a ``var (..)`` block's
        ``X = &pkg.T{..}``, ``new(T)``, ``NewT()``), read over its lines (at most
        ``_ABOVE_MAX`` below its first): gin's ``customConfig = jsoniter.Config{`` ..
        ``}.Froze()`` is what ``Froze`` returns, no ``Config``."""
        if self._values is None:
            self._values = {}
            specs = {(s.start_line, min(s.end_line, s.start_line + _ABOVE_MAX)) for s in self.symbols.values()
                     if s.kind is SymbolKind.VARIABLE and not s.parent}
            for first, last in sorted(specs):
                spec = _SPEC.match("\n".join(self._code(i) for i in range(first, last + 1)))
                if spec is None:
                    continue
                names, type_, value = spec.groups()
                typed = self.type_of(type_) if type_ else self.expression_type(value or "", {})
                for i, name in enumerate(re.findall(_ID, names)):
                    _bind(self._values, name, typed if i == 0 or type_ else "")
        return self._values

    def _package_name(self, name: str) -> str:
        """``<module>.<name>`` for a name no local binds, a package-level variable (or type)
        of any file of the package; ``""`` for a predeclared name or a function of this file."""
        sym = self.symbols.get(f"{self._package}.{name}")
        function = sym is not None and sym.kind is SymbolKind.FUNCTION
        return "" if function or name in GO_BUILTINS or name in _PREDECLARED_VALUES else f"{self.module}.{name}"

    def value_types(self) -> tuple[tuple[str, str], ...]:
        """``(name, type)`` of each package-level variable of this file of a known type
        (``package_values``; slices left out), for the query side to type ``X.M()`` in the
        package's other files (``instance_edges`` of the file's module chunk)."""
        return tuple(sorted((name, fq) for name, fq in self.package_values().items()
                            if fq != UNKNOWN and name != "_" and not fq.startswith(SLICE)))

    def fields(self, struct: Symbol) -> dict[str, str]:
        """Field name -> type of a struct of this file; an embedded type is keyed by its name,
        and the fields of an embedded struct of this file are the struct's too where it
        declares none of that name (Go's promoted fields: mux's ``r.regexp.setMatch(..)``
        with ``regexp`` a field of the embedded ``routeConf``; two embedded structs with a
        field of one name and two types give it none)."""
        if struct.qualified_name not in self._fields:
            out = self._declared(struct)
            self._fields[struct.qualified_name] = out  # (before the embedded: a cycle ends here)
            promoted: dict[str, str] = {}
            for fq in self.embedded(struct):
                inner = self.struct_of(fq)
                for name, type_ in self.fields(inner).items() if inner is not None else ():
                    _bind(promoted, name, type_)
            for name, type_ in promoted.items():
                out.setdefault(name, type_)
        return self._fields[struct.qualified_name]

    def _declared(self, struct: Symbol) -> dict[str, str]:
        """Field name -> type of the fields ``struct`` declares (``fields``)."""
        out: dict[str, str] = {}
        for i in range(struct.start_line + 1, struct.end_line):
            line = self.lines.get(i, "")
            field = _FIELD.match(line)
            embedded = _EMBEDDED.match(line) if not field else None
            if field:
                for name in re.findall(_ID, field.group(1)):
                    _bind(out, name, self.type_of(field.group(2)))
            elif embedded:  # `*T` or a struct of this file; `http.ResponseWriter` may be an interface
                name = embedded.group(1).strip()
                _bind(out, name.lstrip("*").strip().rsplit(".", 1)[-1], self.type_of(name))
        return out

    def field_types(self) -> dict[str, tuple[tuple[str, str], ...]]:
        """Qualified name of each top-level struct of this file -> ``(Struct.field, type)``
        of the fields it declares whose type names a type (target-style, a value of another
        file's type too: a field declared ``routeRegexpGroup`` holds one, whatever kind of
        type that is), for the query side to type ``x.field.M()`` in other files
        (``instance_edges``). Slices, maps, funcs and embedded types are left out."""
        out: dict[str, tuple[tuple[str, str], ...]] = {}
        for struct in self.symbols.values():
            if struct.kind is not SymbolKind.STRUCT or struct.parent or "." not in struct.qualified_name:
                continue
            own = struct.qualified_name.split(".", 1)[1]
            found = []
            for i in range(struct.start_line + 1, struct.end_line):
                field = _FIELD.match(self.lines.get(i, ""))
                fq = self.type_of(field.group(2), True) if field else ""
                if fq and not fq.startswith(SLICE):
                    found += [(f"{own}.{name}", fq) for name in re.findall(_ID, field.group(1))]
            if found:
                out[struct.qualified_name] = tuple(found)
        return out

    def embedded(self, struct: Symbol) -> tuple[str, ...]:
        """The types ``struct`` embeds, target-style (its bases for promoted methods)."""
        out = []
        for i in range(struct.start_line + 1, struct.end_line):
            line = self.lines.get(i, "")
            found = _EMBEDDED.match(line) if not _FIELD.match(line) else None
            fq = self.type_of(found.group(1).lstrip("*").strip(), True) if found else ""
            if fq:
                out.append(fq)
        return tuple(out)

    def _function(self, owner: str) -> Symbol | None:
        """The function or method symbol ``owner`` (a chunk's qualified name, a part of a
        long function standing for it) names, else ``None``."""
        fn = self.symbols.get(owner.split("#", 1)[0]) if owner else None
        return fn if fn is not None and fn.kind in _FUNCTIONS else None

    def rebound(self, name: str, owner: str, line: int | None = None, column: int | None = None) -> bool:
        """Whether ``name`` (a method's receiver) is bound again in function ``owner`` to
        another type (``engine := makeGroup()``), or at ``line`` by a function literal's
        parameter (a closure's ``func(c *Engine)``): its calls are then not surely the
        receiver's (a probe of gin's `Engine.Use` resolved a shadowing local's call to the
        receiver's type). ``column``: as ``scope_at``'s."""
        fn = self._function(owner)
        if fn is None:
            return False
        scope = self.scope_at(fn, line)  # (reads the literals first)
        if line is not None and any(literal.holds(line, column) and name in literal.bound
                                    for literal in self._literals[fn.qualified_name]):
            return True
        return scope.get(name) == UNKNOWN

    def column(self, site: CallSite) -> int | None:
        """The column (0-based) where ``site``'s dotted name (``r.HandleFunc``) is first
        written on its line, ``None`` when it is not found there."""
        pattern = r"\s*\.\s*".join(re.escape(part) for part in site.name.split("."))
        found = re.search(rf"(?<![\w.]){pattern}\s*[(\[]", self.lines.get(site.line, ""))
        return found.start() if found else None

    def local(self, name: str, owner: str) -> bool:
        """Whether ``name`` is a parameter or local variable of function ``owner`` (a call
        ``f()`` of a closure ``f := func(..)`` is no call of the package's ``f``)."""
        fn = self._function(owner)
        return fn is not None and name in self.scope_at(fn, None)

    def target(self, site: CallSite, owner: str) -> str:
        """The target of ``site`` in ``owner`` from its receiver's type, ``""`` if unknown."""
        parts = site.name.split(".")
        fn = self._function(owner)
        if len(parts) < 2 or fn is None:
            return ""
        scope = self._typing(self.scope_at(fn, site.line, self.column(site)))
        if parts[0] not in scope:
            # no local: a package-level variable (or a type: `T.M(v)`, a method expression).
            # Another file's, or one of no type here, is named by the package for the query
            # side to type (its file's `value_types`): gin's `FormPost.Bind(..)` in
            # binding_test.go, `FormPost = formPostBinding{}` in binding_nomsgpack.go
            named = self._package_name(parts[0])
            return f"{named}.{parts[1]}" if named and len(parts) == 2 else ""
        found = scope.get(parts[0], "")
        fq = "" if found == UNKNOWN else found
        for i, attr in enumerate(parts[1:-1], 2):
            if fq.endswith(RETURNED) and i == len(parts) - 1:
                # a field of another file's result (`c.Writer.M()` of `c, _ :=
                # CreateTestContext(w)`): the query side types the result, then the field
                return f"{ATTRIBUTE}{fq}.{attr}.{parts[-1]}"
            if not fq or fq.startswith(SLICE) or fq.endswith(RETURNED):
                return ""
            struct = self.struct_of(fq)
            found = self.fields(struct).get(attr, "") if struct is not None else ""
            if found in ("", UNKNOWN) and i == len(parts) - 1:
                # a field this file types not: another file's struct's, maybe promoted from
                # an embedded struct of another file (mux's `r.regexp.setMatch(..)` in route.go,
                # `regexp` a field of mux.go's `routeConf`): the query side reads the
                # declaring struct's ``field_types`` and who embeds it
                return f"{ATTRIBUTE}{fq}.{attr}.{parts[-1]}"
            fq = "" if found == UNKNOWN else found
        return f"{fq}.{parts[-1]}" if fq and not fq.startswith(SLICE) else ""


def params(group: str) -> list[tuple[str, str]]:
    """(name, type) of a Go parameter list ``(a, b *T, c int, d ...X)``: names without a
    type of their own take the next one's; unnamed parameters are left out; a variadic one
    keeps its ``...`` (``type_of`` reads it as a slice)."""
    out: list[tuple[str, str]] = []
    pending: list[str] = []
    for part in split_params(group or "()"):
        name, _, type_ = part.strip().partition(" ")
        if not re.fullmatch(_ID, name):
            continue
        if not type_.strip():
            pending.append(name)
            continue
        type_ = type_.strip()
        out += [(n, type_) for n in [*pending, name]]
        pending = []
    return out


def results(signature: str) -> list[tuple[str, str]]:
    """(name, type) of a Go function's or method's results, read from its signature:
    ``func (c *C) F(a int) (cmd *C, err error)`` -> ``[("cmd", "*C"), ("err", "error")]``,
    an unnamed result (``func F() *C``) has name ``""``."""
    start = signature.find("(")
    if start < 0:
        return []
    close = _closing(signature, start)
    if signature[:start].strip() == "func":
        start = signature.find("(", close)  # past a method's receiver to its parameters
        close = _closing(signature, start) if start >= 0 else -1
    if close < 0:
        return []
    rest = signature[close + 1:].strip().rstrip("{").strip()
    if not rest:
        return []
    if not rest.startswith("("):
        return [("", rest)]
    out: list[tuple[str, str]] = []
    pending: list[str] = []
    for part in split_params(rest):
        words = part.split(None, 1)
        if len(words) == 1 and re.fullmatch(_ID, words[0]) and words[0] not in GO_BUILTINS and len(out) == 0:
            pending.append(words[0])  # `(a, b T)`: a name, unless every part is a bare type
            continue
        if len(words) == 2 and re.fullmatch(_ID, words[0]):
            out += [(n, words[1].strip()) for n in [*pending, words[0]]]
            pending = []
        else:
            out += [("", n) for n in pending] + [("", part.strip())]
            pending = []
    return out + [("", n) for n in pending]


def _closing(text: str, opening: int) -> int:
    """The index of the bracket closing the one at ``opening`` (``(`` or ``[``), -1 when it
    does not close in ``text``."""
    depth = 0
    for i in range(opening, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _depth(text: str) -> int:
    """Brackets ``text`` opens less those it closes, outside its strings."""
    code = _CODE_ONLY.sub('""', text)
    return sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")


def _expression_start(line: str, end: int) -> int:
    """Where the operand chain ending at ``end`` (exclusive) starts: back over names, dots
    and balanced brackets (``c.Root()`` of ``x := c.Root().Find(..)``)."""
    i, depth = end, 0
    while i > 0:
        ch = line[i - 1]
        if ch in ")]}":
            depth += 1
        elif ch in "([{":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and not (ch.isalnum() or ch in "_.*&"):
            break
        i -= 1
    return i


def _ranged(text: str) -> str:
    """The expression a ``range`` clause ranges over: ``text`` up to the loop's ``{``."""
    return text.split("{", 1)[0].strip()


def _call_open(expr: str) -> int:
    """The index of the ``(`` opening the argument list ``expr``'s last character closes
    (matched backward, brackets nesting), else -1."""
    depth = 0
    for i in range(len(expr) - 1, -1, -1):
        if expr[i] in ")]}":
            depth += 1
        elif expr[i] in "([{":
            depth -= 1
            if not depth:
                return i if expr[i] == "(" else -1
    return -1
