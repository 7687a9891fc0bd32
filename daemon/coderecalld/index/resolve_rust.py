"""Rust's call and value-reference targets, within one file (``index/resolve``'s ``rust``
style). The index names Rust definitions without a module, so a target is a definition's
qualified name as ``fq_name`` writes it (``Bytes::new``, ``<Bytes as Buf>::advance``,
``shared_drop``); what the file cannot place keeps an empty target (its name alone)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from coderecalld.index.receivers import TYPED, whole_call
from coderecalld.records import RETURNED, CallSite, ParsedFile, Symbol, SymbolKind, unparted

#: A hook: (site, qualified name of the calling chunk) -> target, ``""`` if unknown.
Target = Callable[[CallSite, str], str]

#: A trait impl's method as the index names it: ``<Vec as BufMut>::put`` -> the trait
#: (``BufMut``) and its type arguments, if any (``From<&'a str>``).
_TRAIT_IMPL = re.compile(r"^<.+ as ([\w:]+)(<.*>)?>::\w+$")
#: A type as a parameter, a ``let``, a cast or a result declares it: a reference's ``&'a
#: mut``, a ``Box<..>`` and a path's modules dropped, ``Take<T>`` -> ``Take`` (group 1); a
#: trait object or an ``impl`` type is its (first) trait (``&mut dyn Buf``, ``Box<dyn
#: BufMut + Send>``, ``impl Buf``: the value is some implementation of it); tuples, slices
#: and arrays are none.
_DECLARED = (r"&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:(?:dyn|impl)\s+)?(?:Box\s*<\s*(?:dyn\s+)?)?(?:[a-z_]\w*::)*"
             r"([A-Z]\w*)(?:\s*<[^;{}()]*>)?(?:\s*\+\s*\??'?\w+)*(?:\s*>)?")
#: A function's declared result (``-> Self``, ``-> Result<..>`` is a ``Result``).
_RESULT = re.compile(rf"\)\s*->\s*{_DECLARED}\s*(?:where\b|\{{|;|$)")
#: ``let [mut] x[: T] = value`` on one line (group 1: the name, 2: the annotation's type,
#: 3: the value).
_LET = re.compile(rf"\blet\s+(?:mut\s+)?([a-z_]\w*)\s*(?::\s*{_DECLARED}\s*)?=(?!=)\s*(.*?)\s*;?\s*$")
#: A path call's head in a value: ``crate::BytesMut::with_capacity(`` (group 1: the type,
#: 2: the function), a turbofish allowed.
_PATH_CALL = re.compile(r"^(?:[a-z_]\w*::)*([A-Z]\w*)\s*::\s*(\w+)\s*(?:::\s*<[^()]*>\s*)?\(")
#: Associated functions whose result is ``Self`` whatever file defines them: ``From::from``
#: and ``Default::default`` by their traits' signatures, ``new`` and ``with_capacity`` by
#: the convention clippy's ``new_ret_no_self`` holds constructors to, and the other
#: constructors the Rust API guidelines name so (C-CTOR, C-CONV: ``new_*``, ``with_*``,
#: ``from_*``: bytes' ``Bytes::from_static(..)``), when the file declares no result of its own.
_CONSTRUCTORS = frozenset({"new", "with_capacity", "from", "default"})
#: Smart pointers, whose value's methods are the pointee's (``Box::new(x).get_u8()``).
_POINTERS = frozenset({"Box", "Rc", "Arc"})
_CONSTRUCTOR = re.compile(r"(?:new|with|from)_\w+")
#: A chain's step before the call named ``{name}``: ``self.split_to(len).`` / ``T::f(..).``
#: (group 1: ``self`` or a type, 2: the function; its arguments nest one level at most).
_CHAINED = r"(?<![\w.])(self|[A-Z]\w*)\s*(?:\.|::)\s*(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*\.\s*{name}\s*\("
#: A chain's step that calls a bare function before the call named ``{name}``:
#: ``make_bytes().`` (group 1: the function).
_CHAINED_FUNCTION = r"(?<![\w.:])([a-z_]\w*)\s*\((?:[^()]|\([^()]*\))*\)\s*\.\s*{name}\s*\("
#: A value cast to a type at its end (``&mut buf as &mut dyn Buf``; group 1: the type).
_CAST = re.compile(rf"\bas\s+{_DECLARED}\s*$")
#: A parenthesized cast a call is made on, before its name: ``(&mut x as &mut dyn Buf).``.
_CAST_CALL = rf"\bas\s+{_DECLARED}\s*\)\s*\.\s*"


class RustNames:
    """The definitions of one Rust file a call or a value may name: its methods by
    (impl type's last segment, name), its functions by name."""

    def __init__(self, parsed: ParsedFile, lines: Mapping[int, str] | None = None, crate: str = "") -> None:
        self.symbols = {s.qualified_name: s for s in parsed.symbols}
        #: the names the file's ``use`` items bind -> the paths they name (``Builder`` ->
        #: ``tokio::runtime::Builder``); ``own`` the first segments of this crate's paths
        self.uses = dict(_uses("\n".join((lines or {}).values())))
        self.own = {"crate", "self", "super", crate.replace("-", "_")} - {""}
        self.own |= {s.name for s in parsed.symbols if s.kind is SymbolKind.MODULE}
        self.methods: dict[tuple[str, str], list[str]] = {}
        self.functions: dict[str, list[str]] = {}
        for s in parsed.symbols:
            if s.kind is SymbolKind.METHOD and s.parent:
                self.methods.setdefault((s.parent.rpartition("::")[2], s.name), []).append(s.qualified_name)
            elif s.kind is SymbolKind.FUNCTION:
                self.functions.setdefault(s.name, []).append(s.qualified_name)

    def impl_method(self, owner: str) -> Symbol | None:
        """The method (of an impl or a trait) ``owner`` is or is nested in."""
        sym, hops = self.symbols.get(unparted(owner)), 0
        while sym is not None and sym.kind is not SymbolKind.METHOD and hops < 32:
            sym, hops = self.symbols.get(sym.parent), hops + 1
        return sym if sym is not None and sym.parent else None

    def method(self, owner_type: str, name: str, path: bool = False) -> str:
        """``owner_type``'s ``name`` this file defines: its inherent ``T::m``, else its one
        trait impl defining it, ``<T as Tr>::m``. Called by its ``path`` (``T::m(x)``), not
        when ``Tr`` takes type arguments: a generic trait (``From<Bytes>``) may be
        implemented for the type several times, in other files too, and the argument's type
        picks one: ``BytesMut::from(slice)`` in bytes.rs (a ``&[u8]``) resolved to the
        file's one ``<BytesMut as From<Bytes>>::from``, and ``callers`` of the ``From<&'a
        str>`` and ``From<&'a [u8]>`` impls listed it as resolved."""
        # one name defined twice under `#[cfg(..)]` (walkdir's `metadata_internal`, unix and
        # not) is one target: such a call was left unresolved
        found = list(dict.fromkeys(self.methods.get((owner_type, name), [])))
        inherent = [q for q in found if not q.startswith("<")]
        if len(inherent) == 1:
            return inherent[0]
        if inherent or len(found) != 1:
            return ""
        trait = _TRAIT_IMPL.match(found[0])
        return "" if path and trait is not None and trait.group(2) else found[0]

    def on_self(self, owner: str, name: str, path: bool = False) -> str:
        """``self.name(..)`` / ``Self::name(..)`` in ``owner``: the impl type's ``name``
        (``method``); in a trait's default method the trait's own. In a trait impl for a
        type this file defines no ``name`` of, when the trait is this file's and declares
        no ``name``, it is the type's own method (``Vec::reserve`` of ``impl BufMut for
        Vec<u8>``: it was a name-only caller of bytes' ``BytesMut::reserve``)."""
        sym = self.impl_method(owner)
        if sym is None:
            return ""
        kind = sym.parent.rpartition("::")[2]
        found = self.method(kind, name, path)
        trait = _TRAIT_IMPL.match(sym.qualified_name)
        if found or trait is None or self.methods.get((kind, name)) or not kind.isidentifier():
            return found  # "" when defined here but which impl's is unknown
        declared = self.symbols.get(trait.group(1).rpartition("::")[2])
        if declared is None or declared.kind is not SymbolKind.TRAIT:
            return ""  # another file's trait: `name` may be its own
        return "" if (declared.name, name) in self.methods else f"{kind}::{name}"

    def foreign(self, stated: str, type_: str) -> bool:
        """Whether the type ``type_``, as the text ``stated`` writes it (a parameter's, a
        ``let``'s annotation, a path call), is another crate's: written on a path, or named
        by a ``use``, whose first segment is none of ``own`` (``use tokio::runtime::Builder;
        fn start(b: Builder)``: a review found ``b.build()`` resolved to the crate's own
        ``rt::Builder::build``). A path's first segment a ``use`` binds counts as that
        ``use``'s (``use crate::rt; rt::Builder``)."""
        written = re.search(rf"((?:\w+\s*::\s*)+){re.escape(type_)}\b", stated)
        path = re.sub(r"\s+", "", written.group(1)) + type_ if written else self.uses.get(type_, "")
        first = path.split("::", 1)[0] if "::" in path else ""
        first = self.uses.get(first, first).split("::", 1)[0] if first not in self.own else first
        return bool(first) and first not in self.own

    def self_type(self, owner: str) -> str:
        """The type ``self`` is in ``owner``: its impl's type (``impl Extend<u8> for
        BytesMut``: ``BytesMut``), ``""`` outside an impl or for a trait's own method."""
        sym = self.impl_method(owner)
        parent = self.symbols.get(sym.parent) if sym is not None else None
        if sym is None or (parent is not None and parent.kind is SymbolKind.TRAIT):
            return ""
        kind = sym.parent.rpartition("::")[2]
        return kind if kind.isidentifier() and kind[:1].isupper() else ""

    def result(self, qualified: str) -> str:
        """The type the file's function or method ``qualified`` declares it returns
        (``Self``: its impl's type), ``""`` when none or not one type."""
        sym = self.symbols.get(qualified)
        found = _RESULT.search(sym.signature) if sym is not None else None
        if found is None:
            return ""
        return self.self_type(qualified) if found.group(1) == "Self" else found.group(1)

    def typed(self, type_: str, name: str) -> str:
        """``name`` called on a value of ``type_``: the file's method (``method``), else the
        type alone (``TYPED``: the query side matches it to the type's method) when the file
        defines no ``name`` for the type (several impls' is no one's). A generic parameter's
        name (``T``, ``B1``: one capital letter and digits) is no type."""
        if not type_ or re.fullmatch(r"[A-Z]\d*", type_):
            return ""
        return self.method(type_, name) or ("" if self.methods.get((type_, name)) else TYPED + type_)

    def function(self, owner: str, name: str) -> str:
        """The file's function ``name`` the caller ``owner`` sees: its own nested ones, then
        its module's, outwards (``mod`` blocks); ``""`` when none."""
        scope = unparted(owner)
        while True:
            candidate = f"{scope}::{name}" if scope else name
            if candidate in self.functions.get(name, ()):
                return candidate
            if not scope:
                return ""
            sym = self.symbols.get(scope)
            scope = sym.parent if sym is not None and sym.kind is not SymbolKind.METHOD else (
                "" if sym is None else module_of(sym.parent, self.symbols))


def calls(parsed: ParsedFile, bare: Callable[[CallSite], bool], lines: Mapping[int, str], crate: str = "") -> Target:
    """Rust, within one file: ``self.m(..)`` and ``Self::m(..)`` in a method are its impl
    type's ``m`` (``RustNames.on_self``); ``T::m(..)`` likewise for a type ``T`` whose
    ``m`` this file implements (``RustNames.method``); ``x.m(..)`` on a value of a known
    type (a parameter's, a ``let``'s: ``local_type``; one step's declared result,
    ``self.split_to(len).freeze()``: ``_chain_type``; ``self`` of a trait impl for a type)
    is that type's ``m`` when this file defines it, else names the type alone
    (``CallSite.receiver_type``, for the query side); a bare ``f(..)`` is the file's one
    function ``f`` of the caller's module or an enclosing one (``mod`` blocks), or one
    defined inside the caller, when its line writes it bare (``bare``: a chain's
    ``.route_layer(..)`` is named ``route_layer`` too, and a test function of that name was
    its target). Calls on anything else (an untyped ``x.m()``, ``crate::a::f()``, a method of another
    file's impl) keep an empty target: only their name is known (axum: every call was so).
    ``lines``: line number -> source text of the file; ``crate``: the name of the crate
    the file is in (``Cargo.toml``'s), whose paths are its own (``RustNames.foreign``)."""
    names = RustNames(parsed, lines, crate)

    def target(site: CallSite, owner: str) -> str:
        head, *rest = site.name.split(".")
        if not rest:
            if bare(site):
                return names.function(owner, head)
            return names.typed(_chain_type(names, owner, head, lines.get(site.line, "")), head)
        if head == "self" and len(rest) == 2:  # `self.a.copy_to_bytes(..)`
            return names.typed(field_type(names, owner, rest[0], lines), rest[1])
        if len(rest) != 1:
            *modules, kind, name = site.name.split(".")
            written = all(m[:1].islower() for m in modules) and kind[:1].isupper()
            return path_call(names, kind, name, lines.get(site.line, "")) if written else ""
        if head in ("self", "Self"):
            found = names.on_self(owner, rest[0], path=head == "Self")
            return found or ("" if head == "Self" or names.methods.get((names.self_type(owner), rest[0]))
                             else names.typed(names.self_type(owner), rest[0]))
        if head[:1].isupper():
            return path_call(names, head, rest[0], lines.get(site.line, ""))
        return names.typed(local_type(names, owner, head, site.line, lines), rest[0])
    return target


#: Lines ``field_type`` reads back from a method for its ``impl`` header, and of the header.
IMPL_LINES = 2000
HEADER_LINES = 12


def field_type(names: RustNames, owner: str, field: str, lines: Mapping[int, str]) -> str:
    """The type of ``self.field`` in the method ``owner``: the field's declared type in the
    file's struct of the method's impl (``pub struct Take<T> { inner: T, .. }``), a type
    parameter of the struct's being the trait the ``impl`` header bounds it by (``impl<T:
    Buf> Buf for Take<T>``, ``where T: Buf``: ``bound``): bytes' ``self.a.copy_to_bytes(..)``
    in ``Chain``'s impl was a name-only caller of ``Buf::copy_to_bytes``. ``""`` when
    unknown (another file's struct, a tuple struct, another crate's type)."""
    sym = names.impl_method(owner)
    struct = names.symbols.get(sym.parent) if sym is not None else None
    if sym is None or struct is None or struct.kind is not SymbolKind.STRUCT:
        return ""
    body = "\n".join(lines.get(n, "") for n in range(struct.start_line, struct.end_line + 1))
    found = re.search(rf"^\s*(?:pub(?:\([^)]*\))?\s+)?{re.escape(field)}\s*:\s*{_DECLARED}\s*,?\s*$", body, re.M)
    if found is None or names.foreign(found.group(0), found.group(1)):
        return ""
    kind = found.group(1)
    if not re.search(rf"[<,]\s*{kind}\b", struct.signature.partition("{")[0]):
        return names.self_type(owner) if kind == "Self" else kind
    start = next((n for n in range(sym.start_line - 1, max(sym.start_line - IMPL_LINES, 0), -1)
                  if re.match(r"\s*(?:unsafe\s+)?impl\b", lines.get(n, ""))), 0)
    if not start:
        return ""
    header = []
    for n in range(start, start + HEADER_LINES):  # to the block's `{`: a `where` clause too
        header.append(lines.get(n, ""))
        if "{" in header[-1]:
            break
    return bound(names, " ".join(header), kind)


def path_call(names: RustNames, kind: str, name: str, line: str) -> str:
    """``kind::name(..)`` (``crate::kind::name(..)``) on ``line``: the file's ``kind::name``
    (``RustNames.method``), else, when the file defines none, the type (or trait) alone as
    the call's receiver type (``TYPED``) for the query side: a test crate's
    ``Bytes::from_static(..)`` and ``Buf::chain(a, b)`` (``use bytes::{Buf, Bytes}``) were
    name-only callers. Not another crate's type (``RustNames.foreign``: ``IoSlice::new``
    of ``use std::io::IoSlice``), a type parameter's (``T::default()``) nor an enum's variant
    (``Token::Bytes(..)``)."""
    found = names.method(kind, name, path=True)
    if (found or names.methods.get((kind, name)) or not name[:1].islower() or re.fullmatch(r"[A-Z]\d*", kind)
            or names.foreign(line, kind) or kind in _POINTERS
            or not re.search(rf"(?<![\w.]){kind}\s*::\s*{name}\b", line)):  # `INPUT.len()`: a constant's
        return found
    return TYPED + kind


def local_type(names: RustNames, owner: str, name: str, line: int, lines: Mapping[int, str]) -> str:
    """The type of ``name`` in the function ``owner`` at ``line``: a parameter's declared
    type (``fn from(src: BytesMut)``; ``Self``: the impl's; a type parameter's: its bound,
    ``bound``) unless a ``let`` before ``line`` shadows it, else the nearest ``let``
    binding it before ``line`` in a block still open there (``_visible``: bytes' tests
    rebind ``let mut a = Bytes::from_static(..)`` and ``let mut a =
    Bytes::copy_from_slice(..)`` in one function, and such names were untyped), by its
    annotation or its value: a path call of a function whose result is the type
    (``crate::BytesMut::with_capacity(..)``: the file's function declaring it, else
    ``_CONSTRUCTORS``; another file's: ``_made``), a cast (``x as &mut dyn Buf``: the
    trait). ``""`` when unknown, when the name is bound by anything but a plain ``let`` in
    the function (a closure's parameter, a ``for``'s or a pattern's, ``Some(buf) =>``, ``if
    let``: ``_bindings``; a review: the call on such a name was typed by the parameter),
    when that ``let``'s value is untyped (``let buf = buf.to_vec();``), or when the type is
    another crate's (``RustNames.foreign``)."""
    holder = names.symbols.get(unparted(owner)) if owner else None
    if holder is None:
        return ""
    word = rf"\b{re.escape(name)}\b"
    param = re.search(rf"[(,]\s*(?:mut\s+)?{word}\s*:\s*{_DECLARED}\s*[,)]", holder.signature)
    body = "\n".join(lines.get(n, "") for n in range(holder.start_line + 1, holder.end_line + 1))
    plain = rf"\blet\s+(?:mut\s+)?{word}\s*[:=]"
    if _bindings(body, word) != len(re.findall(plain, body)):
        return ""  # a pattern, a `for`, a closure or a match arm binds it too
    let = _visible(holder.start_line + 1, min(line, holder.end_line), name, lines)
    if param and let is None:
        generics = holder.signature.split("(", 1)[0]
        if re.search(rf"[<,]\s*{param.group(1)}\b", generics):
            return bound(names, holder.signature, param.group(1))  # `fn f<B: Buf>(buf: &mut B)`
        if names.foreign(param.group(0), param.group(1)):
            return ""  # `b: tokio::runtime::Builder`
        return names.self_type(owner) if param.group(1) == "Self" else param.group(1)
    if let is None:
        return ""
    _, annotated, value = let.groups()
    if annotated:
        if names.foreign(let.group(0), annotated):
            return ""
        return names.self_type(owner) if annotated == "Self" else annotated
    return _value_type(names, owner, value.rstrip(";").rstrip().removesuffix("?").rstrip())


#: Lines ``_visible`` reads back from a call at most.
SCOPE_LINES = 400
#: A string literal, whose braces are no block's.
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _visible(first: int, line: int, name: str, lines: Mapping[int, str]) -> re.Match[str] | None:
    """The nearest ``let`` of ``name`` (``_LET``) from line ``first`` to the one before
    ``line`` that is in scope at ``line`` (its block not closed before it; a ``let``'s own
    line binds after its value: ``let buf = buf.split_to(1)`` calls the earlier ``buf``),
    ``None`` when none. At most ``SCOPE_LINES`` lines back."""
    depth = 0  # blocks closed between the current line and `line`
    for n in range(line - 1, max(first, line - SCOPE_LINES) - 1, -1):
        text = _STRING.sub('""', lines.get(n, ""))
        found = _LET.search(text) if "let" in text else None
        if found is not None and found.group(1) == name and depth <= 0:
            return found
        for brace in reversed(re.sub(r"[^{}]", "", text)):  # `} else {`: a closed block, then this one's
            depth = depth + 1 if brace == "}" else max(depth - 1, 0)
    return None


def bound(names: RustNames, signature: str, parameter: str) -> str:
    """The trait a type parameter of ``signature`` (a function's, an ``impl`` header's) is
    bounded by, its first one (``fn f<B: Buf>``, ``fn f<B>(..) where B: Buf + Send``,
    ``impl<T: Buf> Buf for Take<T>``; ``?Sized`` and lifetimes skipped): a value
    of the parameter's type is some implementation of it, so a call of the trait's method on
    it is a call of that method. ``""`` when unbounded, bounded by another crate's trait
    (``RustNames.foreign``) or by a closure's (``F: Fn(u8)``)."""
    generics, _, rest = signature.partition("(")
    where = rest.rpartition(")")[2].partition("where")[2] if "where" in rest else ""
    word = re.escape(parameter)
    for text in (generics, where):
        found = re.search(rf"(?<![\w'&]){word}\s*:\s*([^,>{{]*)", text)
        traits = [t.strip() for t in found.group(1).split("+")] if found else []
        named = next((t for t in traits if re.fullmatch(r"(?:[a-z_]\w*::)*[A-Z]\w*(?:<.*)?", t)), "")
        if named and _last(named) not in ("Fn", "FnMut", "FnOnce") and not names.foreign(named, _last(named)):
            return _last(named)
    return ""


def _last(path: str) -> str:
    """A path's type or trait, its modules and type arguments dropped (``crate::Buf<T>`` -> ``Buf``)."""
    return path.partition("<")[0].rpartition("::")[2].strip()


def _bindings(body: str, word: str) -> int:
    """How many times a function's ``body`` binds the name ``word`` matches: its ``let``s
    (``if let`` / ``while let`` patterns too), ``for`` variables, closures' parameters and
    match arms' patterns; a doubtful match counts as one (the name then gets no type)."""
    return sum(len(re.findall(pattern, body)) for pattern in (rf"\blet\b[^=;]*?{word}", *_binders(word)))


def _value_type(names: RustNames, owner: str, value: str) -> str:
    """The type of a ``let``'s value that is one path call (``T::f(..)``, ``Self::f(..)``)
    of this crate's type."""
    cast = _CAST.search(value)
    if cast is not None:  # `&mut buf as &mut dyn Buf`
        return "" if names.foreign(cast.group(0), cast.group(1)) else cast.group(1)
    call = _PATH_CALL.match(value)
    if call is None or not whole_call(value, call.end() - 1) or names.foreign(value, call.group(1)):
        return ""
    type_, fn = call.groups()
    type_ = names.self_type(owner) if type_ == "Self" else type_
    return _made(names, type_, fn)


def _made(names: RustNames, type_: str, fn: str) -> str:
    """The type ``type_::fn(..)`` returns: the file's function's declared result, else
    ``type_`` for a constructor's name (``_CONSTRUCTORS``, ``_CONSTRUCTOR``) the file does
    not declare; ``""`` for a type parameter's (``B::new()``)."""
    if re.fullmatch(r"[A-Z]\d*", type_) or type_ in _POINTERS:
        return ""
    declared = names.method(type_, fn, path=True)
    found = names.result(declared) if declared else ""
    if found or declared:
        return found
    if fn in _CONSTRUCTORS or _CONSTRUCTOR.fullmatch(fn):
        return type_  # (several impls' `from` too: each returns `Self`)
    if names.methods.get((type_, fn)):
        return ""
    return f"{type_}::{fn}{RETURNED}"  # another file's: its declared result (payload ``returns``)


def results(parsed: ParsedFile, lines: Mapping[int, str], crate: str = "") -> dict[str, str]:
    """Qualified name -> the type each function or method of the file declares it returns
    (``RustNames.result``: ``-> Self`` is its impl's type), for the payload's ``returns``:
    another file's ``let a = Bytes::copy_from_slice(..)`` is typed by it on the query side
    (``query/rust_receivers``)."""
    names = RustNames(parsed, lines, crate)
    return {s.qualified_name: found for s in parsed.symbols
            if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD) and (found := names.result(s.qualified_name))}


def _chain_type(names: RustNames, owner: str, name: str, line: str) -> str:
    """The type of the value ``name`` is called on when ``line`` writes it on one step's
    result, ``self.split_to(len).freeze()``, ``T::f(..).name(..)`` or ``f(..).name(..)``:
    what the file's method or function declares it returns (``-> BytesMut``, ``-> Self``),
    else what ``_made`` says of ``T::f``; on a parenthesized cast, ``(&mut x as &mut dyn
    Buf).name(..)``, the type cast to."""
    if f".{name}" not in line.replace(" ", ""):
        return ""
    cast = re.search(_CAST_CALL + re.escape(name) + r"\s*\(", line)
    if cast is not None:  # `(&mut x as &mut dyn Buf).name(..)`
        return "" if names.foreign(cast.group(0), cast.group(1)) else cast.group(1)
    found = re.search(_CHAINED.format(name=re.escape(name)), line)
    if found is None:
        bare = re.search(_CHAINED_FUNCTION.format(name=re.escape(name)), line)
        called = names.function(owner, bare.group(1)) if bare is not None else ""
        return names.result(called) if called else ""
    head, step = found.groups()
    if head == "self":
        called = names.on_self(owner, step)
        return names.result(called) if called else ""
    if names.foreign(line, head):
        return ""
    return _made(names, names.self_type(owner) if head == "Self" else head, step)


def references(parsed: ParsedFile, lines: Mapping[int, str]) -> Target:
    """The hook for a Rust value reference (``CallSite.reference``, queries/rust/tags.scm):
    a bare ``f`` is the file's function ``f`` the holder sees (``RustNames.function``) unless
    the holder binds that name itself (``binds``); ``T::m`` / ``Self::m`` the method a call
    of it resolves to. Else ``""`` (the site is dropped: a local, a constant, another file's
    item). bytes' ``SHARED_VTABLE`` holds ``drop: shared_drop``, its only use: ``callers
    shared_drop`` said "no call sites" and ``impact`` found no caller. ``lines``: line
    number -> source text of the file."""
    names = RustNames(parsed)

    def reference(site: CallSite, owner: str) -> str:
        head, *rest = site.name.split(".")
        if not rest:
            holder = names.symbols.get(unparted(owner)) if owner else None
            if holder is not None and binds(holder, head, site.line, lines):
                return ""
            return names.function(owner, head)
        if len(rest) != 1:
            return ""
        if head == "Self":
            return names.on_self(owner, rest[0], path=True)
        return names.method(head, rest[0], path=True) if head[:1].isupper() else ""
    return reference


def binds(holder: Symbol, name: str, line: int, lines: Mapping[int, str]) -> bool:
    """Whether ``holder`` binds ``name`` before ``line`` (its ``line`` too): a parameter, a
    ``let`` (a pattern's too), a ``for`` variable, a closure's parameter or a match arm's
    pattern. bytes' tests' ``for len in 0..=capacity`` and ``let slice = ..`` made a
    test's ``len`` and ``slice`` "references" of the file's test functions ``len`` and
    ``slice``. A doubtful match counts as a binding: the reference is then dropped."""
    word = rf"\b{re.escape(name)}\b"
    text = "\n".join(lines.get(n, "") for n in range(holder.start_line, line + 1))
    return re.search(rf"{word}\s*:(?!:)", holder.signature) is not None or any(
        re.search(pattern, text) is not None for pattern in (
            rf"\blet\b[^=;]*?{word}[^=;]*=",  # let x = / let (a, x) = / let Some(x) = .. else
            *_binders(word)))


def _binders(word: str) -> tuple[str, ...]:
    """The patterns of a binding of ``word`` (a name's regular expression) besides a
    ``let``: a ``for`` variable (``for x in``, ``for (i, x) in``), a closure's parameter
    (``|x|``, ``|a, x|``) and a match arm's pattern (``Some(x) =>``); ``binds`` and
    ``_bindings`` read them."""
    return (rf"\bfor\b[^{{;]*?{word}[^{{;]*?\bin\b", rf"\|[^|\n]*{word}[^|\n]*\|", rf"{word}[^=\n]*=>")


def _uses(text: str) -> Iterator[tuple[str, str]]:
    """(local name, path) of each name the ``use`` items of ``text`` bind, braces expanded:
    ``use a::{b::C, d as E};`` -> ``("C", "a::b::C")``, ``("E", "a::d")``; globs bind none."""
    for item in re.finditer(r"(?<![\w:])use\s+([^;{}]*(?:\{[^;]*\})?)\s*;", text):
        yield from _use_tree("", re.sub(r"\s+", " ", item.group(1)).strip().removeprefix("::"))


def _use_tree(prefix: str, tree: str) -> Iterator[tuple[str, str]]:
    brace = tree.find("{")
    if brace >= 0 and tree.endswith("}"):
        head, depth, part = prefix + tree[:brace].replace(" ", ""), 0, ""
        for ch in tree[brace + 1:-1] + ",":
            depth += (ch == "{") - (ch == "}")
            if ch == "," and depth == 0:
                yield from _use_tree(head, part.strip()) if part.strip() else ()
                part = ""
            else:
                part += ch
        return
    path, _, alias = tree.partition(" as ")
    path = prefix + path.replace(" ", "")
    last = path.rpartition("::")[2]
    if last == "self":
        path = path.rpartition("::")[0]
        last = path.rpartition("::")[2]
    local = alias.strip() or last
    if local and local not in ("*", "_"):
        yield local, path


def module_of(name: str, symbols: Mapping[str, Symbol]) -> str:
    """The ``mod`` that holds the type ``name`` (an impl's type: its methods' parent), ``""``
    for the file's top level."""
    sym = symbols.get(name)
    while sym is not None and sym.kind is not SymbolKind.MODULE:
        sym = symbols.get(sym.parent)
    return sym.qualified_name if sym is not None else ""
