"""Rust calls on a receiver of a known type (``Site.type``: index/resolve_rust names a
value's type when its file cannot place the method) judged against the asked methods, for
``callgraph._calls``.

The index names a Rust method ``T::m`` (inherent), ``<T as Tr>::m`` (a trait impl) or
``Tr::m`` (a trait's own, provided or required). A call on a value of type ``U``:

- ``U`` is the asked method's type (or, for a trait's own method, the trait itself:
  ``Buf::chain(a, b)``): ``OWN``, unless the trait is generic (``From<Bytes>``): which impl
  the argument picks is unknown.

A receiver type ``T::f()`` (``RETURNED``: ``let a = Bytes::copy_from_slice(..)``, whose
file does not define ``f``) is the type ``T::f`` declares it returns (payload ``returns``),
when its definitions agree on one. Anything else is left to the caller (a name-only
candidate)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from coderecalld.records import Hit
from coderecalld.store import StoreFilter

OWN = "own"
#: A trait impl's method as the index names it: ``<&'a mut BytesMut as Buf>::advance``
#: (group 1: the type's last segment, 2: the trait's, 3: the trait's type arguments).
_IMPL = re.compile(r"^<\s*&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:\w+::)*(\w+)[^>]*?\s+as\s+(?:\w+::)*(\w+)(<.*>)?>::\w+$")
#: Definitions one lookup reads at most (a trait's methods; the definitions of their names).
LOOKUP_LIMIT = 2000
#: Ends a receiver type that is a function's result (``index/receivers_go.RETURNED``).
RETURNED = "()"


@dataclass(frozen=True, slots=True)
class Asked:
    """One asked Rust method: ``owner`` its type's (or, a trait's own method, the trait's)
    last segment, ``trait`` the trait it is of (``""`` inherent), ``generic`` when that trait
    takes type arguments (``From<Bytes>``)."""

    owner: str
    trait: str
    generic: bool = False


def verdicts(store: Any, flt: StoreFilter, chosen: Sequence[Hit], found: Sequence[Any]) -> dict[int, str]:
    """``id(site)`` -> ``OWN`` (the module's docstring) for each Rust site of ``found``
    with a receiver type and no target, when every definition of ``chosen`` is a Rust
    method; other sites are absent. Up to two keyword lookups (the traits asked, functions'
    results)."""
    rust = [s for s in found if s.hit.payload.get("language") == "rust"]
    if not rust or not chosen or any(h.payload.get("language") != "rust" or h.payload.get("kind") != "method"
                                     for h in chosen):
        return {}
    asked = _asked(store, flt, chosen)
    out: dict[int, str] = {}
    typed = [s for s in rust if s.type and not s.target]
    if not typed:
        return out
    made = _results(store, flt, {s.type[: -len(RETURNED)] for s in typed if s.type.endswith(RETURNED)})
    for site in typed:
        kind = made.get(site.type[: -len(RETURNED)], "") if site.type.endswith(RETURNED) else site.type
        if not kind:
            continue
        if any(kind == a.owner for a in asked) and not any(kind == a.owner and a.generic for a in asked):
            out[id(site)] = OWN
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
