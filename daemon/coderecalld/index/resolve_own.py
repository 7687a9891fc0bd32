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
from dataclasses import replace

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


def fq(language: str, qualified_name: str) -> str:
    """The name a call target gives a definition: C#'s parameter lists dropped."""
    return _PARAMS.sub("", qualified_name) if language == "csharp" else qualified_name


class Own:
    """The target hook of one file (``target(site, owner)``; ``""`` when not known)."""

    def __init__(self, parsed: ParsedFile, lines: Mapping[int, str]) -> None:
        self.language = parsed.language
        self.lines = lines
        self.selves = SELVES.get(parsed.language, frozenset())
        # keyed by qualified name: one of none would be every top-level symbol's parent
        self.symbols: dict[str, Symbol] = {s.qualified_name: s for s in parsed.symbols if s.qualified_name}
        self.methods: dict[tuple[str, str], str] = {}
        self.functions: dict[str, str] = {}  # a top-level function's name -> its name
        self.nested: dict[tuple[str, str], str] = {}  # (enclosing function, name) -> function
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
        #: simple name -> qualified, when the file has one type so named
        self.types: dict[str, str] = {name: next(iter(q)) for name, q in seen.items() if len(q) == 1}
        # a Swift type this file only extends is declared in another file, members and all
        self.based |= {q for q in {s.qualified_name for s in parsed.symbols if s.kind in _TYPES}
                       if parsed.language == "swift"
                       and all(_SWIFT_EXTENSION.match(s.signature) for s in parsed.symbols
                               if s.qualified_name == q and s.kind in _TYPES)}
        self.parts: dict[str, list[Symbol]] = {}  # a qualified name -> its symbols (Swift's extensions)
        self.children: dict[str, list[Symbol]] = {}
        for s in parsed.symbols:
            self.parts.setdefault(s.qualified_name, []).append(s)
            if s.parent:
                self.children.setdefault(s.parent, []).append(s)
        self._scopes: dict[tuple[str, int], dict[str, str]] = {}
        #: names the file declares as aliases of a type (C#'s `using P = ...;`, C++'s local
        #: `using`/`typedef`): a receiver declared with one judges nothing
        self.aliases = {m.group(1) or m.group(2) for text in lines.values() for m in [_ALIAS_LINE.match(text)] if m}
        #: a type's bases as its header writes them (``ResiliencePipelineProvider``,
        #: ``detail::buffer``), its ``base_targets``: the query side finds the definitions
        #: they name, so a call of a base's method may dispatch to an override (``override``)
        #: a type alias's is the type it names (C++'s ``using memory_buffer =
        #: basic_memory_buffer<char>``); each with its last segment too, which a declared
        #: receiver's type and a subclass's header may write alone
        mixins = {s.qualified_name: found for s in parsed.symbols if s.kind in _TYPES and (found := self._mixins(s))}
        self.bases: dict[str, tuple[str, ...]] = {
            s.qualified_name: _with_simple(found) for s in parsed.symbols
            if (s.kind in _TYPES and (s.kind is not SymbolKind.MODULE or parsed.language == "ruby")
                and (found := headers.bases(s.signature, parsed.language) + mixins.get(s.qualified_name, ())))
            or (s.kind is SymbolKind.TYPE_ALIAS and (found := _aliased(s.signature)))}
        # an alias symbol with the type it names is a subclass of it: judged through the hierarchy
        self.aliases -= {s.name for s in parsed.symbols if s.kind is SymbolKind.TYPE_ALIAS
                         and s.qualified_name in self.bases}
        # a type with a mixed-in trait or module may call its members bare (Ruby's `include`)
        self.based |= {q for q in self.bases if q in mixins}

    def site(self, site: CallSite, owner: str) -> CallSite:
        """``site`` with its target (``target``), else, in C# and Swift, the type its
        receiver is declared with here (``receiver_type``, ``declared``)."""
        found = self.target(site, owner)
        if found or self.language not in DECLARING:
            return replace(site, target=found)
        return replace(site, target="", receiver_type=self.declared(site, unparted(owner)))

    def declared(self, site: CallSite, owner: str) -> str:
        """The type the receiver of ``site`` (``x.m()``, ``this.x.m()``, ``self.x.m()``) is
        declared with in this file, less type arguments and optionality: a parameter or a
        local of the calling function (``Pool p``, ``var p = new Pool()``, ``let p: Pool``,
        ``let p = Pool()``), else a field or property of its type (``private readonly Pool
        _pool;``, ``let pool: Pool``). ``""`` when unknown: not declared, declared twice with
        different types (or once untyped: ``var p = make()``), a closure's parameter, or a
        type parameter (``<T>``; C#'s ``TResult``)."""
        head, _, _ = site.name.rpartition(".")
        parts = head.split(".") if head else []
        if len(parts) == 2 and parts[0] in self.selves:
            name, own = parts[1], True
        elif len(parts) == 1 and parts[0] not in self.selves:
            name, own = parts[0], False
        else:
            return ""
        if self.language == "cpp" and re.search(rf"\b{re.escape(name)}\s*::", self.lines.get(site.line, "")):
            return ""  # `fmt::format_to(..)` beside a parameter `fmt`: a namespace
        found = ""
        # the overload the call is in (overloads share a qualified name)
        sym = next((s for s in self.parts.get(owner, ()) if s.start_line <= site.line <= s.end_line),
                   self.symbols.get(owner))
        if sym is not None and not own and sym.kind in _CALLABLE:
            found = self._bindings(sym, True).get(name, "")
        cls = self._type_of(owner)
        if not found and cls:
            for part in (s for s in self.parts.get(cls, ()) if s.kind in _TYPES):
                typed = self._bindings(part, False).get(name, "")
                if typed:
                    found = typed if not found or found == typed else UNKNOWN
        simple = re.split(r"::|\.", found)[-1] if found else ""
        if not simple or found == UNKNOWN or simple in self.aliases or self._type_parameter(found, sym):
            return ""  # an alias the file declares (C#'s `using P = Acme.Pool;`) names no class here
        return found

    def _bindings(self, sym: Symbol, is_function: bool) -> dict[str, str]:
        """Names declared in ``sym``'s own lines (a function's: its header too; a type's:
        outside its members) -> their types (``UNKNOWN`` when untyped or declared twice)."""
        key = (sym.qualified_name, sym.start_line)
        if key not in self._scopes:
            out: dict[str, str] = {}
            read = _READERS[self.language]
            if is_function:
                read(sym.signature, out)
            inner = set() if is_function else {i for c in self.children.get(sym.qualified_name, ())
                                                for i in range(c.start_line, c.end_line + 1)}
            for i in range(sym.start_line + (1 if is_function else 0), sym.end_line + 1):
                if i not in inner:
                    read(self.lines.get(i, ""), out)
            self._scopes[key] = out
        return self._scopes[key]

    def _type_parameter(self, type_: str, sym: Symbol | None) -> bool:
        """Whether ``type_`` is a type parameter around ``sym`` (``<T>`` in its or an
        enclosing header) or, in C#, named as one (``T``, ``TResult``)."""
        if self.language == "csharp" and _CSHARP_TYPE_PARAMETER.match(type_):
            return True
        seen: set[str] = set()  # a parent chain never loops, whatever the parse gave
        while sym is not None and sym.qualified_name not in seen:
            seen.add(sym.qualified_name)
            header = sym.signature
            if self.language == "cpp":  # `template <typename Buffer>` opens the symbol's range
                header = " ".join(self.lines.get(i, "") for i in range(sym.start_line, sym.start_line + 3))
                template = _CPP_TEMPLATE.match(header)
                if template and type_ in _CPP_TEMPLATE_PARAM.findall(template.group(1)):
                    return True
                sym = self.symbols.get(sym.parent)
                continue  # its other angle brackets are type arguments (`static_cast<T&>`)
            for params in _ANGLES.findall(header):
                if type_ in re.findall(r"\b[A-Za-z_]\w*\b", params):
                    return True
            sym = self.symbols.get(sym.parent)
        return False

    def target(self, site: CallSite, owner: str) -> str:
        head, dot, name = site.name.rpartition(".")
        if head and "." in head:
            return ""  # `a.b.m()`: a member's member
        receiver = head if dot else self._receiver(site.line, name)
        if receiver is None:
            return ""
        owner = unparted(owner)
        if site.other_self:
            return ""  # in a block that may run with another self (`mock_app { stream { } }`)
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
        inner = {i for c in self.children.get(sym.qualified_name, ()) for i in range(c.start_line, c.end_line + 1)}
        out: list[str] = []
        for i in range(sym.start_line + 1, sym.end_line + 1):
            if i not in inner and (m := found.match(self.lines.get(i, ""))):
                out += [n.strip().lstrip("\\") for n in m.group(1).split(",") if n.strip()]
        return tuple(out)

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


#: A name declared twice with different types, or once without one: no type.
UNKNOWN = "?"
#: Languages whose declarations ``Own.declared`` reads.
DECLARING = frozenset({"csharp", "swift", "cpp"})
_SWIFT_EXTENSION = re.compile(r"^\s*(?:(?:public|internal|private|fileprivate|open|@\w+)\s+)*extension\b")
_ALIAS_LINE = re.compile(r"^\s*(?:global\s+)?using\s+(\w+)\s*=|^\s*typedef\b.*?\b(\w+)\s*;")
_ANGLES = re.compile(r"<([^<>()]*)>")
_CSHARP_TYPE_PARAMETER = re.compile(r"^T(?:[A-Z]\w*)?$")
#: C#'s types no repository defines a method of, and the ones every class derives from.
_CSHARP_OPAQUE = frozenset({"object", "Object", "dynamic"})
_CSHARP_KEYWORDS = frozenset("var return new throw else case await yield goto typeof is as in out ref using "
                             "namespace class struct interface enum record delegate event operator "
                             "implicit explicit checked unchecked lock fixed sizeof stackalloc default "
                             "when where select from group orderby let join on equals by".split())
_CS_TYPE = r"(?P<type>[A-Za-z_][\w.]*(?:<[^;=()]*>)?(?:\[[,\s]*\])*\??)"
_CS_DECLARE = re.compile(
    r"(?:^|[;{(,]|\bforeach\s*\(|\bis|\busing\s*\()\s*"
    r"(?:(?:public|private|protected|internal|static|readonly|const|volatile|required|new|unsafe|await|using"
    r"|ref|out|in|params|this|scoped|override|virtual|sealed|abstract|partial|extern|async)\s+)*"
    + _CS_TYPE + r"\s+(?P<name>[a-z_]\w*)\s*(?==(?!>)|[;,)]|\bin\b|$)")
_CS_VAR = re.compile(r"\bvar\s+(?P<name>[a-z_]\w*)\s*=\s*(?P<value>.*)$")
_CS_NEW = re.compile(r"^new\s+(?P<type>[A-Za-z_][\w.]*)\s*(?:<[^;=()]*>)?\s*[({]")
_SWIFT_TYPED = re.compile(r"\b(?:let|var)\s+(?P<name>[a-z_]\w*)\s*:\s*(?P<type>[A-Z][\w.]*)")
_SWIFT_VALUE = re.compile(r"\b(?:let|var)\s+(?P<name>[a-z_]\w*)\s*=\s*(?P<value>.*)$")
_SWIFT_INIT = re.compile(r"^(?:try[?!]?\s+|await\s+)*(?P<type>[A-Z]\w*)\s*(?:<[^()]*>)?\s*(?:\.init)?\s*\(")
_SWIFT_PARAM = re.compile(r"(?:^|[(,])\s*(?:[a-z_]\w*\s+)?(?P<name>[a-z_]\w*)\s*:\s*(?:inout\s+|@\w+\s+)*"
                          r"(?P<type>[A-Z][\w.]*)")
_SWIFT_CLOSURE = re.compile(r"\{\s*(?:\[[^\]]*\]\s*)?\(?\s*(?P<names>[a-z_]\w*(?:\s*,\s*[a-z_]\w*)*)\s*\)?"
                            r"\s*(?:->\s*[\w<>?,\s]+)?\s*in\b")


def _bind(out: dict[str, str], name: str, type_: str) -> None:
    """Record ``name: type_`` (``UNKNOWN`` for no type); a second, different one unknows it."""
    if type_.endswith(("...", ".Type", ".Protocol")):  # Swift's variadic (an array), a metatype
        type_ = UNKNOWN
    type_ = re.sub(r"<.*>|\[.*\]|[?!]+$", "", type_).strip() or UNKNOWN
    out[name] = type_ if out.get(name, type_) == type_ else UNKNOWN


def _whole(value: str, start: int) -> bool:
    """Whether the call whose ``(`` is at ``start`` in ``value`` is the whole expression
    (``new Pool(1);``, not ``new Builder().Build();``)."""
    depth = 0
    for i in range(start, len(value)):
        depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(value[i], 0)
        if depth == 0:
            return value[i + 1:].strip().rstrip(";").strip() == ""
    return False


def _read_csharp(line: str, out: dict[str, str]) -> None:
    _read_braced(line, out, _CS_DECLARE, _CSHARP_KEYWORDS, _CSHARP_OPAQUE, _CS_VAR, _CS_NEW.match)


def _read_braced(line: str, out: dict[str, str], declare: re.Pattern[str], keywords: frozenset[str],
                 opaque: frozenset[str], inferred: re.Pattern[str],
                 construct: Callable[[str], re.Match[str] | None]) -> None:
    """C#'s and C++'s declarations in ``line``: ``Type name`` (``declare``; a keyword read
    as a type is none, an ``opaque`` type is unknown) and ``var``/``auto name = value``
    (``inferred``), typed when the value is one whole construction (``construct``: its
    match, its type in group ``type``)."""
    code = line.split("//", 1)[0]
    if not code.strip() or code.lstrip().startswith(("*", "/*", "#")):
        return
    for m in declare.finditer(code):
        type_ = m.group("type")
        if type_ not in keywords:
            _bind(out, m.group("name"), UNKNOWN if type_ in opaque else type_)
    for m in inferred.finditer(code):
        value = m.group("value").strip()
        made = construct(value)
        opening = min((i for i in (value.find("("), value.find("{")) if i >= 0), default=-1)
        typed = made is not None and opening >= 0 and _whole(value, opening)
        _bind(out, m.group("name"), made.group("type") if typed else UNKNOWN)


def _read_swift(line: str, out: dict[str, str]) -> None:
    code = line.split("//", 1)[0]
    if not code.strip():
        return
    for m in _SWIFT_TYPED.finditer(code):
        _bind(out, m.group("name"), m.group("type"))
    for m in _SWIFT_VALUE.finditer(code):
        if m.group("name") in out and out[m.group("name")] != UNKNOWN and ":" in code[m.start():m.end()]:
            continue
        value = m.group("value").strip()
        init = _SWIFT_INIT.match(value)
        typed = init is not None and _whole(value, value.find("("))
        _bind(out, m.group("name"), init.group("type") if typed else UNKNOWN)
    for m in _SWIFT_PARAM.finditer(code):
        if re.search(r"\b(?:let|var)\s*$", code[:m.start("name")]) is None:
            _bind(out, m.group("name"), m.group("type"))
    for m in _SWIFT_CLOSURE.finditer(code):
        for name in re.findall(r"[a-z_]\w*", m.group("names")):
            _bind(out, name, UNKNOWN)


_CPP_TEMPLATE = re.compile(r"\s*template\s*<([^<>]*(?:<[^<>]*>[^<>]*)*)>")
_CPP_TEMPLATE_PARAM = re.compile(r"\b(?:typename|class)\s*(?:\.\.\.\s*)?([A-Za-z_]\w*)")
_CPP_KEYWORDS = frozenset("auto return new delete throw else case default goto if for while switch do typename "
                          "using namespace co_return co_await co_yield operator template friend public private "
                          "protected virtual explicit sizeof decltype typedef static_assert".split())
_CPP_OPAQUE = frozenset({"void", "decltype"})
_CPP_DECLARE = re.compile(
    r"(?:^|[;{])\s*(?:(?:const|static|constexpr|inline|volatile|mutable|register|thread_local|extern|struct|class"
    r"|enum|unsigned|signed|long|short|FMT_CONSTEXPR\w*)\s+)*"
    r"(?P<type>(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*(?:<[^;=(){}]*>)?)(?:\s*(?:const\s*)?[*&]+\s*|\s+(?:const\s+)?)"
    r"(?P<name>[a-z_]\w*)\s*(?=[=;,){(\[:]|$)")
_CPP_PARAMETER = re.compile(r"(?:^|[;{(,])" + _CPP_DECLARE.pattern.removeprefix(r"(?:^|[;{])"))
#: A function's header as its signature writes it: a name, then its parameters.
_CPP_HEADER = re.compile(r"^[^=;{}]*\b[A-Za-z_~][\w:~<>]*\s*\([^;{}]*\)[^;{}=]*$")
_CPP_CAST = re.compile(r"^(?:static|dynamic|reinterpret|const)_cast\s*<\s*(?:const\s+)?(?P<type>[A-Za-z_][\w:]*)"
                       r"[^>]*>\s*\(")
_CPP_AUTO = re.compile(r"\bauto\s*[*&]*\s*(?P<name>[a-z_]\w*)\s*=\s*(?P<value>.*)$")
_CPP_CONSTRUCT = re.compile(r"^(?:new\s+)?(?P<type>(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)\s*(?:<[^;=()]*>)?\s*[({]")
_ALIASED = re.compile(r"^\s*(?:using\s+\w+\s*=|typealias\s+\w+\s*(?:<[^>]*>)?\s*=)\s*(?:typename\s+)?"
                      r"([A-Za-z_][\w.:]*)|^\s*typedef\s+(?:typename\s+)?([A-Za-z_][\w:]*)")


def _cpp_construction(value: str) -> re.Match[str] | None:
    """``value``'s construction when its callee is written as a type: with type arguments
    (``basic_memory_buffer<int>()``), CapWords, after ``new``, or a cast's target
    (``static_cast<basic_memory_buffer&>(buf)``); a function's call (``make_conn()``,
    ``fmt::format(..)``, ``std::make_unique<T>()``) is none."""
    cast = _CPP_CAST.match(value)
    if cast:
        return cast
    made = _CPP_CONSTRUCT.match(value)
    if made is None:
        return None
    simple = re.split(r"::", made.group("type"))[-1]
    typed = (value.startswith("new ") or simple[:1].isupper()
             or re.match(r"[\w:]+\s*<", value) is not None) and not simple.startswith("make_")
    return made if typed else None


def _read_cpp(line: str, out: dict[str, str]) -> None:
    """A C++ line's declarations at a statement's start (``memory_buffer out;``), or a
    header's parameters (its ``(`` and ``,`` too): inside an expression ``(upper * bigits_[i]``
    is a product, no pointer named ``bigits_`` (fmt's ``bigint`` field was read so)."""
    declare = _CPP_PARAMETER if _CPP_HEADER.match(line) else _CPP_DECLARE
    _read_braced(line, out, declare, _CPP_KEYWORDS, _CPP_OPAQUE, _CPP_AUTO, _cpp_construction)


def _aliased(signature: str) -> tuple[str, ...]:
    """The type a type alias names (``using A = B<T>``, ``typedef B<T> A``, Swift's
    ``typealias A = B``), type arguments dropped; ``()`` for another signature."""
    m = _ALIASED.match(signature)
    return (m.group(1) or m.group(2),) if m else ()


def _with_simple(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` and each one's last segment (``detail::buffer``, ``buffer``), once each."""
    return tuple(dict.fromkeys(n for name in names for n in (name, re.split(r"::|\.|\\", name)[-1]) if n))


_READERS = {"csharp": _read_csharp, "swift": _read_swift, "cpp": _read_cpp}
