"""Call targets within one file, for the languages whose receiver types the index does not
read: C#, C++, C, Swift, Scala, Ruby and PHP.

Their definitions are named without a module (``Polly.ResiliencePipeline.Execute(Func<T>)``,
``fmt::buffer::grow``, ``Session.request``): a target is the qualified name of a definition
of the same file, as ``points.fq_name`` names it (C#'s parameter lists dropped, as Java's:
a call reaches every overload). What this file shows is enough for the commonest calls
(``callers`` of a common method name listed every class's ``this.Log()``, a newcomer):

* ``this.m()`` / ``self.m()`` / ``$this->m()`` / ``self::m()`` / ``this->m()`` (the
  language's own-object receivers, ``SELVES``) is the enclosing type's ``m`` when the file
  defines one for that type (Swift's extensions and Scala's companion object included: they
  share the type's name);
* a bare ``m()`` likewise, where the language calls its own methods bare (all but PHP),
  then a function defined in the caller or around it, then a top-level function of the
  file (C, C++, PHP, Swift, Scala), unless the type has bases: an inherited member of that
  name would come first (C++'s name lookup, a Ruby mixin);
* ``T.m()`` / ``T::m()`` for a type ``T`` of this file is ``T``'s ``m``.

Anything else keeps an empty target (``name_only`` on the query side): a receiver of
unknown type, a method the type inherits from another file, ``base.m()``/``super``. The
call's receiver is read from its source line, since the tags queries name some calls
without it (``$this->m()`` and ``this->m()`` are ``m``); a line calling the name twice
with different receivers is not judged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from coderecalld.parse import headers
from coderecalld.records import CallSite, ParsedFile, Symbol, SymbolKind, unparted

#: Receivers naming the calling object (or its class) itself, per language.
SELVES: Mapping[str, frozenset[str]] = {
    "csharp": frozenset({"this"}),
    "cpp": frozenset({"this"}),
    "c": frozenset(),
    "swift": frozenset({"self", "Self"}),
    "scala": frozenset({"this"}),
    "ruby": frozenset({"self"}),
    "php": frozenset({"$this", "self", "static"}),
}
#: Languages where a bare ``m()`` inside a method is no call of a method (PHP: a function).
_BARE_IS_FUNCTION = frozenset({"php", "c"})
#: Languages whose tags queries name a call with its receiver (``this.Log``, ``self.perform``):
#: an undotted site is bare or a chain's tail, never ``x.m()``.
_DOTTED = frozenset({"csharp", "swift", "scala"})
#: Languages where a bare call in a nested type never names an enclosing type's method
#: (Ruby's implicit receiver is the object; Swift asks for ``Outer.m()``).
_OWN_TYPE_ONLY = frozenset({"ruby", "swift"})
_TYPES = (SymbolKind.CLASS, SymbolKind.STRUCT, SymbolKind.INTERFACE, SymbolKind.ENUM, SymbolKind.TRAIT,
          SymbolKind.MODULE)
_CALLABLE = (SymbolKind.FUNCTION, SymbolKind.METHOD)
#: A parameter list in a C# qualified name (``Execute(Func<T>,TState)``).
_PARAMS = re.compile(r"\([^()]*\)")
#: Text before a name that makes it a member access, and the receiver token before that.
_MEMBER = re.compile(r"([$\w]+)\s*(?:\?\.|&\.|->|::|\.)\s*$")
#: A header's base list: ``: A, B`` (C#, Swift, C++), ``extends``/``<`` (Scala, PHP, Ruby).
_BASES = re.compile(r"(?:^[^(]*?[^:]:(?!:)|\bextends\b|\bclass\s+[\w:]+\s*<)")
#: A class-body line that mixes another type in: PHP's ``use A, B;``, Ruby's ``include A``.
_MIXIN = {"php": re.compile(r"^\s*use\s+([\w\\]+(?:\s*,\s*[\w\\]+)*)\s*[;{]"),
          "ruby": re.compile(r"^\s*(?:include|prepend)\s+([A-Z][\w:]*(?:\s*,\s*[A-Z][\w:]*)*)\s*(?:#.*)?$")}
Target = Callable[[CallSite, str], str]


def fq(language: str, qualified_name: str) -> str:
    """The name a call target gives a definition: C#'s parameter lists dropped."""
    return _PARAMS.sub("", qualified_name) if language == "csharp" else qualified_name


class Own:
    """The target hook of one file (``target(site, owner)``; ``""`` when not known)."""

    def __init__(self, parsed: ParsedFile, lines: Mapping[int, str]) -> None:
        self.language = parsed.language
        self.lines = lines
        self.separator = "::" if parsed.language == "cpp" else "."
        self.selves = SELVES.get(parsed.language, frozenset())
        self.symbols: dict[str, Symbol] = {s.qualified_name: s for s in parsed.symbols}
        self.methods: dict[tuple[str, str], str] = {}
        self.functions: dict[str, str] = {}  # a top-level function's name -> its name
        self.nested: dict[tuple[str, str], str] = {}  # (enclosing function, name) -> function
        self.types: dict[str, str] = {}  # simple name -> qualified, when the file has one type so named
        self.based: set[str] = set()  # types whose header names bases
        seen: dict[str, set[str]] = {}
        for s in parsed.symbols:
            parent = self.symbols.get(s.parent)
            if s.kind in _TYPES:
                seen.setdefault(s.name, set()).add(s.qualified_name)
                if s.kind is not SymbolKind.MODULE and _BASES.search(s.signature):
                    self.based.add(s.qualified_name)
            if s.kind not in _CALLABLE:
                continue
            if not s.parent:
                self.functions.setdefault(s.name, s.qualified_name)
            elif parent is not None and parent.kind in _CALLABLE:
                self.nested.setdefault((s.parent, s.name), s.qualified_name)
            else:  # a type's (its parent may be no symbol here: C++'s out-of-line `buffer::grow`)
                self.methods.setdefault((s.parent, s.name), s.qualified_name)
        self.types = {name: next(iter(q)) for name, q in seen.items() if len(q) == 1}
        #: a type's bases as its header writes them (``ResiliencePipelineProvider``,
        #: ``detail::buffer``), its ``base_targets``: the query side finds the definitions
        #: they name, so a call of a base's method may dispatch to an override (``override``)
        self.bases: dict[str, tuple[str, ...]] = {
            s.qualified_name: found for s in parsed.symbols
            if s.kind in _TYPES and (s.kind is not SymbolKind.MODULE or parsed.language == "ruby")
            and (found := tuple(dict.fromkeys(headers.bases(s.signature, parsed.language) + self._mixins(s))))}

    def target(self, site: CallSite, owner: str) -> str:
        head, dot, name = site.name.rpartition(".")
        if head and "." in head:
            return ""  # `a.b.m()`: a member's member
        receiver = head if dot else self._receiver(site.line, name)
        if receiver is None:
            return ""
        owner = unparted(owner)
        if self.language == "ruby" and not self._ruby_direct(site.line, name, owner):
            return ""  # in a block, which may run with another self (`mock_app { stream { } }`)
        if receiver == "":
            return self._bare(name, owner)
        if receiver in self.selves:
            cls = self._type_of(owner)
            return self._method(cls, name) if cls else ""
        typed = self.types.get(receiver)
        return self._method(typed, name) if typed else ""

    def _receiver(self, line: int, name: str) -> str | None:
        """What ``name`` is called on in ``line``'s text: ``""`` bare, the receiver's token,
        or ``None`` when the line does not show one way (its occurrences disagree, or none)."""
        text = self.lines.get(line, "")
        found: set[str] = set()
        for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w!?])", text):
            before = _MEMBER.search(text, 0, m.start())
            if before is not None and self.language in _DOTTED:
                continue  # another call site, named with its receiver
            if before is not None:
                found.add(before.group(1))
            elif text[: m.start()].rstrip().endswith((".", "->", "::")):
                return None  # a chain's tail: `f().m()`
            else:
                found.add("")
        own = found & (self.selves | {""})
        if len(own) == 2 and own == found and self.language not in _BARE_IS_FUNCTION:
            return ""  # `grow(1); this->grow(2)`: both the object's own
        return found.pop() if len(found) == 1 else None

    def _mixins(self, sym: Symbol) -> tuple[str, ...]:
        """The traits a PHP class uses (``use ClientTrait;``) and the modules a Ruby class
        or module includes or prepends (``include Helpers``), as written, from its own lines
        (its members' left out): they are its bases for a call's dispatch (guzzle's
        ``ClientTrait::get`` calls ``$this->request(..)``, its abstract method that
        ``Client`` implements)."""
        found = _MIXIN.get(self.language)
        if found is None:
            return ()
        inner = {i for s in self.symbols.values() if s.parent == sym.qualified_name
                 for i in range(s.start_line, s.end_line + 1)}
        out: list[str] = []
        for i in range(sym.start_line + 1, sym.end_line + 1):
            if i not in inner and (m := found.match(self.lines.get(i, ""))):
                out += [n.strip().lstrip("\\") for n in m.group(1).split(",") if n.strip()]
        return tuple(out)

    def _ruby_direct(self, line: int, name: str, owner: str) -> bool:
        """Whether a Ruby call is written in its method's own body, not in a block: its line
        indented no deeper than the body's first line and opening no block (``{``, ``do``)
        before the name. A block may run with another ``self`` (a DSL's ``instance_eval``:
        sinatra's specs call the app's ``stream`` inside ``mock_app { get('/') { ... } }``
        within a spec group defining a ``stream`` helper of its own)."""
        sym = self.symbols.get(owner)
        text = self.lines.get(line, "")
        if sym is None or re.search(rf"(?:\{{|\bdo\b)[^{{}}]*?(?<![\w$]){re.escape(name)}(?![\w!?])", text):
            return False
        if line == sym.start_line:
            return True
        body = next((self.lines[i] for i in range(sym.start_line + 1, line + 1)
                     if self.lines.get(i, "").strip()), text)
        return _indent(text) <= _indent(body)

    def _bare(self, name: str, owner: str) -> str:
        scope = owner
        while scope:  # a function defined in the caller or a function around it
            found = self.nested.get((scope, name))
            if found:
                return fq(self.language, found)
            sym = self.symbols.get(scope)
            if sym is None or sym.kind not in _CALLABLE:
                break
            scope = sym.parent
        cls = self._type_of(owner)
        if cls and self.language not in _BARE_IS_FUNCTION:
            outer = cls
            while outer:  # the type's own method, then an enclosing type's (or namespace's)
                found = self._method(outer, name)
                if found:
                    return found
                if outer in self.based or outer not in self.symbols:
                    return ""  # an inherited member of that name would come first
                if self.language in _OWN_TYPE_ONLY:
                    break
                sym = self.symbols[outer]
                outer = sym.parent if sym.parent in self.symbols else ""
        top = self.functions.get(name)
        return fq(self.language, top) if top else ""

    def _type_of(self, owner: str) -> str:
        """The type a callable ``owner`` belongs to (its nearest type ancestor, or the
        parent an out-of-line C++ method names), ``""`` for a top-level function."""
        sym = self.symbols.get(owner)
        while sym is not None and sym.kind in _CALLABLE:
            parent = self.symbols.get(sym.parent)
            if parent is None:
                return sym.parent if sym.kind is SymbolKind.METHOD else ""
            sym = parent
        return sym.qualified_name if sym is not None and sym.kind in _TYPES else ""

    def _method(self, cls: str, name: str) -> str:
        found = self.methods.get((cls, name))
        return fq(self.language, found) if found else ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
