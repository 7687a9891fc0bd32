"""Call sites over the store: which definitions a name means, which targets reach them,
which calls hit them (the query side of ``resolve``).

A definition is identified by repo + qualified name; across repos by its module-qualified
name (``fq_name``, ``httpx._client.Client.send``). A call reaches it when its resolved
``target`` is that name or an alias made by a re-export (``httpx/__init__.py`` doing
``from ._client import Client`` makes ``httpx.Client.send`` an alias). No grpc here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from coderecalld.records import CallerHit, Hit
from coderecalld.store import StoreFilter

RESOLVED = "resolved"
NAME_ONLY = "name_only"
#: Points read per keyword lookup (every definition of a common name, every caller of it).
FETCH_LIMIT = 2000
#: Payload a calling point must carry for ``sites``, ``caller_hit`` and ``impact``: less to
#: convert to Python than the whole payload (``to_hit`` time -25% at 100k points here); the
#: engine's own read, ~0.1 ms a point whatever the fields, stays (docs/performance.md).
SITE_FIELDS = ("repo", "path", "kind", "qualified_name", "fq_name", "call_sites")
#: Rounds of re-export following (``pkg/__init__`` re-exporting ``pkg/_sub/__init__``'s
#: re-export of ``pkg/_sub/impl.py``'s class is two).
ALIAS_ROUNDS = 3
_NOT_DEFINITIONS = ("module", "section")


@dataclass(frozen=True, slots=True)
class Site:
    """One call site as read from a point: who calls, where, what is written and reached."""

    hit: Hit
    name: str
    line: int
    text: str
    target: str

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def definitions(store: Any, flt: StoreFilter, name: str, depth: int = ALIAS_ROUNDS) -> list[Hit]:
    """Definitions ``name`` may mean: a bare name, a qualified name (``Class.method``) or a
    module-qualified one (``pkg.mod.Class.method``, or a re-exported alias of it such as
    ``httpcore.ConnectionPool``), matched exactly (case matters). Failing those, a dotted
    name may be the tail of a module-qualified one: ``Strings.trim`` is Java's
    ``com.acme.Strings.trim(String)``, ``Server.Run`` Go's ``example.com/a/util.Server.Run``."""
    found = _named(store, flt, name)
    if not found and "." in name and depth:
        for target in _unalias(store, flt, name):
            found = definitions(store, flt, target, depth - 1)
            if found:
                break
    if not found and "." in name and depth == ALIAS_ROUNDS:
        found = [h for h in _named(store, flt, name.rsplit(".", 1)[-1])
                 if (h.payload.get("fq_name") or "").endswith("." + name)]
    return found


def reexported(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    """Definitions a dotted ``name`` reaches only through re-exports and import aliases,
    up to ``ALIAS_ROUNDS`` deep: ``httpcore.ConnectionPool`` (``httpcore/__init__.py``
    imports it from ``httpcore._sync.connection_pool``), ``httpx.get`` (a star import).
    ``[]`` for a bare name or one nothing re-exports."""
    if "." not in name:
        return []
    for target in _unalias(store, flt, name):
        found = definitions(store, flt, target, ALIAS_ROUNDS - 1)
        if found:
            return found
    return []


def _unalias(store: Any, flt: StoreFilter, name: str) -> list[str]:
    """What ``pkg.alias.rest`` may stand for when module ``pkg`` imports ``alias`` (or
    star-imports a module that may define it), longest module first."""
    parts = name.split(".")
    out = []
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        for hit in store.find(flt, "fq_name", module, limit=FETCH_LIMIT):
            if hit.payload.get("kind") == "module":
                table = dict(hit.payload.get("exports", []))
                if parts[cut] in table:
                    out.append(".".join([table[parts[cut]], *parts[cut + 1:]]))
                out += [".".join([t, *parts[cut:]]) for local, t in table.items() if local.startswith("*")]
    return out


def _named(store: Any, flt: StoreFilter, name: str) -> list[Hit]:
    fields = ("fq_name", "fq_aliases", "qualified_name") if "." in name else ("name",)
    hits: dict[str, Hit] = {}
    for field in fields:
        for hit in store.find(flt, field, name, limit=FETCH_LIMIT):
            if hit.payload.get("kind") not in _NOT_DEFINITIONS and "#" not in hit.payload["qualified_name"]:
                hits.setdefault(hit.id, hit)
    return sorted(hits.values(), key=lambda h: (h.payload["repo"], h.payload["path"], h.payload["start_line"]))


def fq_names(defs: Iterable[Hit]) -> set[str]:
    """Module-qualified names of ``defs`` (their qualified names when no module is known) and
    their aliases (``fq_aliases``: a JS package's ``@acme/util/str.trim``); a Java
    constructor (``pkg.C.C``) also stands for its class, which ``new C()`` targets."""
    out = set()
    for hit in defs:
        p = hit.payload
        fq = p.get("fq_name") or p["qualified_name"]
        out.add(fq)
        out.update(p.get("fq_aliases") or ())
        if p.get("language") == "java" and fq.endswith(f".{p['name']}.{p['name']}"):
            out.add(fq[: -len(p["name"]) - 1])
    return out


def aliases(store: Any, flt: StoreFilter, names: set[str]) -> set[str]:
    """``names`` and every name re-exports give them, followed ``ALIAS_ROUNDS`` deep.

    Reads each round's re-export edges (``points.export_edges``) with one facet over the
    keyword indexes: no module payload is decoded, so a name that thousands of modules
    import (every copy of a vendored library) costs index reads, not ~0.2 ms a module."""
    found = set(names)
    frontier = set(names)
    for _ in range(ALIAS_ROUNDS):
        prefixes = {p for n in frontier for p in _prefixes(n)}
        if not prefixes:
            break
        new: set[str] = set()
        # n is reached through an export of target when target is n or a dotted prefix of it:
        # index the frontier by those prefixes (one dict lookup per edge, not a scan).
        under: dict[str, list[str]] = {}
        for n in frontier:
            parts = n.split(".")
            for i in range(1, len(parts) + 1):
                under.setdefault(".".join(parts[:i]), []).append(n)
        for edge in store.facet_any(flt, "export_edges", "export_targets", sorted(prefixes)):
            target, _, alias = edge.partition(" ")
            for n in under.get(target, ()):
                if not alias.startswith("*"):
                    new.add(f"{alias}{n[len(target):]}")
                elif n != target:  # `from m import *` re-exports m's names, not m
                    new.add(f"{alias[1:]}{n[len(target):]}")
        frontier = new - found
        found |= new
        if not frontier:
            break
    return found


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(2, len(parts) + 1)]


def sites(hits: Iterable[Hit], keep: Callable[[dict], bool] | None = None) -> list[Site]:
    """Every call site held by ``hits`` (deduplicated by point); with ``keep``, only those
    whose stored record (``{"name", "line", "text", "target"}``) it accepts: a module
    point can hold hundreds of call sites, of which one is wanted."""
    seen: set[str] = set()
    out = []
    for hit in hits:
        if hit.id in seen:
            continue
        seen.add(hit.id)
        for s in hit.payload.get("call_sites", []):
            if keep is None or keep(s):
                out.append(Site(hit, s["name"], int(s["line"]), s.get("text", ""), s.get("target", "")))
    return out


def caller_hit(site: Site, confidence: str, commit: str) -> CallerHit:
    """The answer record of ``site``; the caller is ``""`` for top-level code."""
    p = site.hit.payload
    caller = "" if p.get("kind") in _NOT_DEFINITIONS else p["qualified_name"]
    return CallerHit(p["repo"], p["path"], site.line, caller, site.name, commit,
                     text=site.text, confidence=confidence, target=site.target)


def callers(store: Any, flt: StoreFilter, name: str) -> list[tuple[Site, str]]:
    """(site, confidence) of every call ``name`` may be meant by, resolved ones first.

    ``resolved``: the call's target is one of the named definitions (or an alias of one).
    ``name_only``: the call's last segment equals ``name``'s and the call was not resolved
    to another definition of that short name (``B.save`` never counts as ``A.save``).
    With no definition in scope, a dotted ``name`` counts as its own target
    (``os.path.join``)."""
    short = name.rsplit(".", 1)[-1]
    chosen = definitions(store, flt, name)
    wanted = aliases(store, flt, fq_names(chosen)) if chosen else {name}
    same_short = definitions(store, flt, short) if "." in name else chosen
    others = fq_names(same_short) - fq_names(chosen)
    other_targets = aliases(store, flt, others) - wanted if others else set()
    hits = store.find_any(flt, "call_targets", sorted(wanted), limit=FETCH_LIMIT, fields=SITE_FIELDS)
    hits += store.find_any(flt, "calls", sorted({short, name}), limit=FETCH_LIMIT, fields=SITE_FIELDS)
    def may_match(s: dict) -> bool:
        written = s["name"]
        return s.get("target", "") in wanted or written == name or written.rsplit(".", 1)[-1] == short

    out = []
    for site in sites(hits, may_match):
        if site.target and site.target in wanted:
            out.append((site, RESOLVED))
        elif (site.short == short or site.name == name) and site.target not in other_targets:
            out.append((site, NAME_ONLY))
    return out
