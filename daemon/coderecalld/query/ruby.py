"""How Ruby names its methods where a query meets them: a module is a definition as a class
is, a call on a constant calls that constant's own method, and ``Parser#parse`` /
``Parser.parse`` tell an instance method from a singleton one (``callgraph``, ``service``).
Cases from rack (a newcomer's audit)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from coderecalld.records import Hit

#: A Ruby instance method as its docs write it: ``Parser#parse``.
_INSTANCE = re.compile(r"[\w!?]#[^\W\d][\w!?=]*$")
#: A Ruby singleton method as called on its class: ``Parser.parse``, ``Rack::Parser::parse``.
_SINGLETON = re.compile(r"(?:^|[.:])[A-Z]\w*(?:\.|::)[a-z_][\w!?=]*$")
#: A singleton method's header: ``def self.parse(..)``, ``def Parser.parse``.
_SINGLETON_DEF = re.compile(r"\s*def\s+(?:self|[A-Z]\w*)\s*\.")
_CALLABLE = ("method", "function")


def is_module(payload: dict) -> bool:
    """Whether a point is a Ruby ``module Name`` (a definition, as a class is; a file's
    module chunk is none): rack's ``symbols Rack::Utils`` and ``card Rack.Utils`` found no
    such symbol, ``symbols Rack.Utils`` did."""
    return (payload.get("kind") == "module" and payload.get("language") == "ruby"
            and str(payload.get("signature", "")).startswith("module"))


def holders(chosen: Iterable[Hit]) -> set[str] | None:
    """The modules and classes (qualified names) that hold the Ruby methods and functions of
    ``chosen``, whose own methods a call on a constant reaches (``""`` for a top-level
    ``def``: no constant holds it); ``None`` when ``chosen`` holds no Ruby callable."""
    found = [str(h.payload.get("qualified_name", "")).rpartition(".")[0] for h in chosen
             if h.payload.get("language") == "ruby" and h.payload.get("kind") in _CALLABLE]
    return set(found) if found else None


def constant(language: str, written: str) -> str:
    """The constant a Ruby call (named ``written`` as ``parse.text.callee`` names it) is
    made on, dotted (``Rack.Utils`` for ``Rack::Utils.parse_query(..)``), else ``""``: a
    value's call, or a constant named as a value is (``DEFAULT_SEP.x``, capitals and an
    underscore: an object of unknown class; ``CGI.escape`` is a module's). rack's
    ``callers Rack::Utils.parse_query`` had its 19 spec calls as name-only rows (none
    resolved), and the same 19 as callers of ``QueryParser#parse_query``."""
    if language != "ruby":
        return ""
    head = written.rpartition(".")[0]
    parts = head.split(".") if head else []
    if not parts or not all(p[:1].isupper() and p.isidentifier() for p in parts) or (
            parts[-1].isupper() and "_" in parts[-1]):
        return ""
    return head


def instance_spelling(name: str) -> bool:
    """Whether ``name`` names a Ruby instance method as its docs write it (``Parser#parse``)."""
    return _INSTANCE.search(name) is not None


def singleton(payload: dict) -> bool:
    """Whether a point is a Ruby ``def self.m`` (a ``class << self`` one's header does not
    say so: read as an instance method's)."""
    return payload.get("language") == "ruby" and _SINGLETON_DEF.match(str(payload.get("signature", ""))) is not None


def spelled(name: str, hits: list[Hit]) -> list[Hit]:
    """``hits`` less the Ruby definitions ``name``'s spelling rules out where a class
    defines a method twice, ``def self.parse`` and ``def parse`` (both stored as
    ``Parser.parse``): ``Parser#parse`` is the instance method, ``Parser.parse`` and
    ``Parser::parse`` the singleton one (rack's ``Multipart::Parser``: both were exact for
    either spelling, and ``callees`` merged both bodies). A name one definition holds (a
    ``module_function``'s ``def escape``, called ``Utils.escape``) keeps it."""
    def key(h: Hit) -> tuple[str, str]:
        return str(h.payload.get("repo")), str(h.payload.get("qualified_name"))

    ruby = [h for h in hits if h.payload.get("language") == "ruby" and h.payload.get("kind") in _CALLABLE]
    singles = {key(h) for h in ruby if singleton(h.payload)}
    paired = {key(h) for h in ruby if not singleton(h.payload) and key(h) in singles}
    instance = instance_spelling(name)
    if not paired or not (instance or _SINGLETON.search(name)):
        return hits
    return [h for h in hits if key(h) not in paired or singleton(h.payload) != instance]
