"""Rust calls on a receiver of a known type (``Site.type``: index/resolve_rust names a
value's type when its file cannot place the method) judged against the asked methods, for
``callgraph._calls``.

The index names a Rust method ``T::m`` (inherent), ``<T as Tr>::m`` (a trait impl) or
``Tr::m`` (a trait's own, provided or required). A call on a value of type ``U``:

- ``U`` is the asked method's type (or, for a trait's own method, the trait itself:
  ``Buf::chain(a, b)``, a trait object, an ``impl Tr`` or a type parameter bounded by it):
  ``OWN``, unless the trait is generic (``From<Bytes>``): which impl the argument picks is
  unknown.
- ``U`` is the trait an asked impl implements: ``DISPATCH``, it may run the impl.
- ``U`` defines a method of the name itself (inherent or any trait's): ``ELSEWHERE``, the
  call is that type's (``Bytes::from(..).split_to(..)`` is no call of
  ``BytesMut::split_to``; a concrete type's own impl of a trait method stays its own).
- ``U`` implements the asked trait's own method's trait without defining the method:
  ``INHERITS``, it runs the provided method (``bytes_mut.put_u8(..)`` of
  ``BufMut::put_u8``); it implements an asked impl's trait: ``ELSEWHERE``, it runs its
  own impl's or the provided method, never another type's impl.

A receiver type ``T::f()`` (``RETURNED``: ``let a = Bytes::copy_from_slice(..)``, whose
file does not define ``f``) is the type ``T::f`` declares it returns (payload ``returns``),
when its definitions agree on one. Anything else is left to the caller (a name-only
candidate)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from coderecalld.records import RETURNED, Hit
from coderecalld.store import StoreFilter

OWN = "own"
DISPATCH = "dispatch"
ELSEWHERE = "elsewhere"
INHERITS = "inherits"
#: A trait impl's method as the index names it: ``<&'a mut BytesMut as Buf>::advance``
#: (group 1: the type's last segment, 2: the trait's, 3: the trait's type arguments).
_IMPL = re.compile(r"^<\s*&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:\w+::)*(\w+)[^>]*?\s+as\s+(?:\w+::)*(\w+)(<.*>)?>::\w+$")
#: Definitions one lookup reads at most (a trait's methods; the definitions of their names).
LOOKUP_LIMIT = 2000
#: A trait's methods read for its implementers at most.
TRAIT_METHODS = 200


@dataclass(frozen=True, slots=True)
class Asked:
    """One asked Rust method: ``owner`` its type's (or, a trait's own method, the trait's)
    last segment, ``trait`` the trait it is of (``""`` inherent), ``generic`` when that trait
    takes type arguments (``From<Bytes>``)."""

    owner: str
    trait: str
    generic: bool = False


def verdicts(store: Any, flt: StoreFilter, chosen: Sequence[Hit], found: Sequence[Any]) -> dict[int, str]:
    """``id(site)`` -> ``OWN``, ``DISPATCH``, ``ELSEWHERE`` or ``INHERITS`` (the module's
    docstring) for each Rust site of ``found`` with a receiver type and no target, when
    every definition of ``chosen`` is a Rust method; a site its file resolved to the
    trait's own method an asked impl implements (``buf.copy_to_bytes(1)`` on a ``&mut dyn
    Buf`` in the trait's file) is ``DISPATCH``; other sites are absent. Up to four keyword
    lookups (the traits asked, functions' results, the name's definitions, a trait's
    implementers)."""
    rust = [s for s in found if s.hit.payload.get("language") == "rust"]
    if not rust or not chosen or any(h.payload.get("language") != "rust" or h.payload.get("kind") != "method"
                                     for h in chosen):
        return {}
    asked = _asked(store, flt, chosen)
    short = str(chosen[0].payload.get("name") or "")
    dispatched = {f"{a.trait}::{short}" for a in asked if a.trait and a.owner != a.trait}
    out = {id(s): DISPATCH for s in rust if s.target and "::".join(s.target.split("::")[-2:]) in dispatched}
    typed = [s for s in rust if s.type and not s.target]
    if not typed:
        return out
    made = _results(store, flt, {s.type[: -len(RETURNED)] for s in typed if s.type.endswith(RETURNED)})
    definers = _definers(store, flt, short)
    own_traits = {a.trait for a in asked if a.owner == a.trait}
    traits = {a.trait for a in asked if a.trait and not a.generic}
    implementers: set[str] | None = None
    for site in typed:
        kind = made.get(site.type[: -len(RETURNED)], "") if site.type.endswith(RETURNED) else site.type
        if not kind:
            continue
        if any(kind == a.owner for a in asked):
            if not any(kind == a.owner and a.generic for a in asked):
                out[id(site)] = OWN
        elif any(kind == a.trait for a in asked):
            out[id(site)] = DISPATCH
        elif kind in definers:
            out[id(site)] = ELSEWHERE
        elif traits:
            if implementers is None:
                implementers = _implementers(store, flt, traits)
            if kind in implementers:
                out[id(site)] = INHERITS if own_traits else ELSEWHERE
    return out


def _asked(store: Any, flt: StoreFilter, chosen: Sequence[Hit]) -> list[Asked]:
    """The ``Asked`` of each definition of ``chosen`` (one lookup: which owners are traits)."""
    out: list[Asked] = []
    owners: dict[str, str] = {}  # an inherent or trait's own method's parent -> its last segment
    for h in chosen:
        qualified = str(h.payload.get("qualified_name") or "")
        impl = _IMPL.match(qualified)
        if impl is not None:
            out.append(Asked(impl.group(1), impl.group(2), bool(impl.group(3))))
        else:
            parent = qualified.rpartition("::")[0]
            owners[parent] = parent.rpartition("::")[2]
    traits = {str(h.payload.get("qualified_name")) for h in store.find_any(
        flt, "qualified_name", sorted(owners), limit=LOOKUP_LIMIT, fields=("qualified_name", "kind", "language"))
        if h.payload.get("kind") == "trait" and h.payload.get("language") == "rust"} if owners else set()
    out += [Asked(simple, simple if parent in traits else "") for parent, simple in owners.items()]
    return out


def _results(store: Any, flt: StoreFilter, functions: set[str]) -> dict[str, str]:
    """Function (``Bytes::copy_from_slice``) -> the type its Rust definitions declare they
    return, when they agree on one (one lookup; none for no function)."""
    if not functions:
        return {}
    found: dict[str, set[str]] = {}
    for h in store.find_any(flt, "fq_name", sorted(functions), limit=LOOKUP_LIMIT,
                            fields=("fq_name", "returns", "language")):
        if h.payload.get("language") == "rust":
            found.setdefault(str(h.payload.get("fq_name")), set()).add(str(h.payload.get("returns") or ""))
    return {fn: next(iter(kinds)) for fn, kinds in found.items() if len(kinds) == 1 and next(iter(kinds))}


def _owner(qualified: str) -> str:
    """The type (or trait) a Rust method's qualified name defines it for, its last segment;
    ``""`` for a type parameter's impl (``<&mut T as Buf>::m``) or a free function."""
    impl = _IMPL.match(qualified)
    found = impl.group(1) if impl is not None else qualified.rpartition("::")[0].rpartition("::")[2]
    return "" if re.fullmatch(r"[A-Z]\d*", found) else found


def _definers(store: Any, flt: StoreFilter, name: str) -> set[str]:
    """The types and traits that define a Rust method ``name`` (one lookup)."""
    return {_owner(str(h.payload.get("qualified_name") or ""))
            for h in store.find(flt, "name", name, limit=LOOKUP_LIMIT)
            if h.payload.get("language") == "rust" and h.payload.get("kind") == "method"} - {""}


def _implementers(store: Any, flt: StoreFilter, traits: set[str]) -> set[str]:
    """The types with an impl of one of ``traits`` the index defines a method of (every
    impl defines the trait's required methods): their methods named as the traits' are,
    ``<T as Tr>::m``. Two lookups: the traits' methods (``TRAIT_METHODS`` at most), then the
    definitions of their names."""
    names: set[str] = set()
    for trait in sorted(traits):
        for h in store.find(flt, "qualified_name_lc", f"{trait.lower()}::", prefix=True, limit=LOOKUP_LIMIT):
            p = h.payload
            if p.get("language") == "rust" and str(p.get("qualified_name", "")).startswith(f"{trait}::"):
                names.add(str(p.get("name") or ""))
    names = set(sorted(names - {""})[:TRAIT_METHODS])
    if not names:
        return set()
    out: set[str] = set()
    for h in store.find_any(flt, "name", sorted(names), limit=LOOKUP_LIMIT, fields=("qualified_name", "language")):
        impl = _IMPL.match(str(h.payload.get("qualified_name") or ""))
        if impl is not None and impl.group(2) in traits and h.payload.get("language") == "rust":
            out.add(impl.group(1))
    return out - {""}
