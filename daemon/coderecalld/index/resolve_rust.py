"""Rust's call and value-reference targets, within one file (``index/resolve``'s ``rust``
style). The index names Rust definitions without a module, so a target is a definition's
qualified name as ``fq_name`` writes it (``Bytes::new``, ``<Bytes as Buf>::advance``,
``shared_drop``); what the file cannot place keeps an empty target (its name alone)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from coderecalld.records import CallSite, ParsedFile, Symbol, SymbolKind, unparted

#: A hook: (site, qualified name of the calling chunk) -> target, ``""`` if unknown.
Target = Callable[[CallSite, str], str]

#: A trait impl's method as the index names it: ``<Vec as BufMut>::put`` -> the trait
#: (``BufMut``) and its type arguments, if any (``From<&'a str>``).
_TRAIT_IMPL = re.compile(r"^<.+ as ([\w:]+)(<.*>)?>::\w+$")


class RustNames:
    """The definitions of one Rust file a call or a value may name: its methods by
    (impl type's last segment, name), its functions by name."""

    def __init__(self, parsed: ParsedFile) -> None:
        self.symbols = {s.qualified_name: s for s in parsed.symbols}
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


def calls(parsed: ParsedFile, bare: Callable[[CallSite], bool]) -> Target:
    """Rust, within one file: ``self.m(..)`` and ``Self::m(..)`` in a method are its impl
    type's ``m`` (``RustNames.on_self``); ``T::m(..)`` likewise for a type ``T`` whose
    ``m`` this file implements (``RustNames.method``); a bare ``f(..)`` is the file's one
    function ``f`` of the caller's module or an enclosing one (``mod`` blocks), or one
    defined inside the caller, when its line writes it bare (``bare``: a chain's
    ``.route_layer(..)`` is named ``route_layer`` too, and a test function of that name was
    its target). Calls on anything else (``x.m()``, ``crate::a::f()``, a method of another
    file's impl) keep an empty target: only their name is known (axum: every call was so)."""
    names = RustNames(parsed)

    def target(site: CallSite, owner: str) -> str:
        head, *rest = site.name.split(".")
        if not rest:
            return names.function(owner, head) if bare(site) else ""
        if len(rest) != 1:
            return ""
        if head in ("self", "Self"):
            return names.on_self(owner, rest[0], path=head == "Self")
        if head[:1].isupper():
            return names.method(head, rest[0], path=True)
        return ""
    return target


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
            rf"\bfor\b[^{{;]*?{word}[^{{;]*?\bin\b",  # for x in / for (i, x) in
            rf"\|[^|\n]*{word}[^|\n]*\|",  # |x| / |a, x|
            rf"{word}[^=\n]*=>"))  # Some(x) =>


def module_of(name: str, symbols: Mapping[str, Symbol]) -> str:
    """The ``mod`` that holds the type ``name`` (an impl's type: its methods' parent), ``""``
    for the file's top level."""
    sym = symbols.get(name)
    while sym is not None and sym.kind is not SymbolKind.MODULE:
        sym = symbols.get(sym.parent)
    return sym.qualified_name if sym is not None else ""
