"""Developer cards: a symbol's profile assembled from its file's points and its callers.

Pure functions over payloads (no store, no grpc): ``service`` fetches, this shapes and trims.
"""

from __future__ import annotations

import re

from collections import defaultdict
from dataclasses import replace

from coderecalld.parse.headers import bases, inside_parens, split_top
from coderecalld.records import VALUE_KINDS, CallerHit, Card, is_part

#: Call sites a card shows at most.
MAX_CALLERS = 5
#: Characters per token when fitting a budget (a common rule of thumb for English and code).
CHARS_PER_TOKEN = 4
_CLASS_KINDS = ("class", "struct", "interface", "trait", "enum")
#: Characters of a card's summary line.
SUMMARY_MAX_CHARS = 200
#: Sibling names a card lists at most (public ones first).
MAX_SIBLINGS = 12


def build(definition: dict, file_points: list[dict], callers: list[CallerHit], commit: str,
          repo_purpose: str, inherited: list[tuple[dict, list[dict]]] = ()) -> Card:
    """The card of ``definition`` (a point payload) given every point of its file and, for a
    class, its base classes in method resolution order with the points of their files
    (``inherited``: (base payload, its file's points)); see ``methods``."""
    qn = definition["qualified_name"]
    # the definition's file first, in line order, then members other files define (a Go
    # package's, a Rust impl's elsewhere: ``file_points`` may hold them) by path
    members = sorted((p for p in file_points if p.get("parent") == qn and not is_part(p["qualified_name"])),
                     key=lambda p: (p.get("path") != definition.get("path"), p.get("path", ""), p["start_line"]))
    is_class = definition["kind"] in _CLASS_KINDS
    # a JS constructor function with methods stored on its prototype (express's ``View``:
    # ``methods: []``) is a class; its own parameters are its constructor's
    builds = definition["kind"] == "function" and any(p["kind"] == "method" for p in members)
    # Java's, C#'s and C++'s constructors are named after their class (jsoup's ``Element``'s
    # four had no init_params): the one of the most parameters
    ctors = [p for p in members if p["name"] in ("__init__", "constructor") or p["kind"] == "constructor"
             or (p["name"] == definition["name"] and p["kind"] == "method")]
    init = max(ctors, key=lambda p: (len(params(p["signature"])), -int(p["start_line"]))) if ctors else None
    siblings = _siblings(definition, file_points)
    return Card(
        repo=definition["repo"], path=definition["path"], kind=definition["kind"], qualified_name=qn,
        module=definition.get("module", ""), signature=definition.get("signature", ""),
        summary=summary(definition.get("docstring", "")),
        start_line=int(definition["start_line"]), end_line=int(definition["end_line"]), commit=commit,
        bases=(bases(definition.get("signature", ""), str(definition.get("language", "python")))
               or tuple(definition.get("base_targets") or ())) if is_class else (),
        init_params=((params(init["signature"]) if init else _primary(definition)) if is_class
                     else params(definition.get("signature", "")) if builds else ()),
        # a Go named type of no struct (``type ShellCompDirective int``) has methods too
        # a Ruby module's methods too (rack's ``card Rack::Utils`` found no symbol)
        methods=(methods(members, inherited) if is_class or builds or definition["kind"] == "type_alias"
                 or (definition["kind"] == "module" and definition.get("language") == "ruby") else ()),
        raises=tuple(definition.get("raises", [])),
        siblings=siblings[:MAX_SIBLINGS], siblings_total=len(siblings),
        callers=pick_callers(callers), file_purpose=file_purpose(file_points),
        repo_purpose=repo_purpose)


def methods(members: list[dict], inherited: list[tuple[dict, list[dict]]] = ()) -> tuple[str, ...]:
    """Public method signatures of a class: the constructor, its own in definition order (its
    protocol methods too: ``__call__``, ``__get__``, ``__enter__``, where a middleware's or a
    descriptor's logic lives; werkzeug's ``ProxyFix`` card listed ``__init__`` alone), then
    those it inherits, base by base in resolution order, each marked ``# from <Base>``; a
    name defined nearer (the class itself, an earlier base) hides a later one."""
    seen = {p["name"] for p in members}
    # its methods, not its constants and fields (jsoup's `card Element` listed
    # `static final String BaseUriKey = ..` among them) nor its nested types
    members = [p for p in members if _callable(p)]
    out = [p["signature"] for p in members if p["name"] in _CONSTRUCTORS]
    out += [p["signature"] for p in members if p["name"] not in _CONSTRUCTORS and (
        public(p) or _DUNDER.fullmatch(p["name"]))]  # a TS `constructor` was listed twice
    for base, points in inherited:
        own = sorted((p for p in points if p.get("parent") == base["qualified_name"]
                      and (p["kind"] == "method" or _bound(p)) and not is_part(p["qualified_name"])),
                     key=lambda p: p["start_line"])
        for p in own:
            if p["name"] not in seen and public(p):
                out.append(f"{p['signature']}  # from {base['name']}")
            seen.add(p["name"])
    return tuple(out)


_DUNDER = re.compile(r"__[a-z][a-z0-9_]*[a-z0-9]__")
#: Member kinds a card's ``methods`` lists.
_CALLABLE_KINDS = frozenset({"method", "function", "constructor"})
_CONSTRUCTORS = ("__init__", "constructor")


def _callable(member: dict) -> bool:
    """Whether a card's ``methods`` lists ``member``: a method or function, or a Python
    class body's method bound by assignment (``_bound``)."""
    return member.get("kind") in _CALLABLE_KINDS or _bound(member)


def _bound(member: dict) -> bool:
    """Whether ``member`` is a method a Python class body binds by assignment, ``get =
    _cached_get`` (queries/python/tags.scm: a variable of the class; ``card Sub`` listed no
    ``get`` once it was no longer the base's, a review)."""
    return member.get("kind") == "variable" and member.get("language") == "python" and bool(member.get("parent"))
#: A declaration's access modifier before its parameters (Java, Kotlin, C#, Swift, Scala,
#: PHP, TypeScript): ``private`` (and Swift's ``fileprivate``) keeps a member off the card.
_PRIVATE = re.compile(r"\b(?:file)?private\b")


def public(member: dict) -> bool:
    """Whether a member payload is part of its type's public API: in Go a name starting with
    an upper-case letter (the language's export rule; cobra's ``card Command`` listed
    ``getOut`` and ``execute`` before ``Execute``), elsewhere a name without a leading ``_``
    or ``#`` (an ECMAScript private member: ky's ``card Ky`` listed 33 ``#`` methods) and no
    ``private`` modifier in its signature before its parameters."""
    name = str(member.get("name", ""))
    if member.get("language") == "go":
        return name[:1].isupper()
    head = str(member.get("signature", "")).split("(", 1)[0]
    return not name.startswith(("_", "#")) and _PRIVATE.search(head) is None


#: A line of one punctuation mark repeated: a reST title's over- or underline (``=====``).
_DECORATION = re.compile(r"^\s*([=\-~^*#+`:._\"'])\1{2,}\s*$")


#: A reST directive or comment line (``.. redirect-from:: /x``, ``.. _label:``).
_DIRECTIVE = re.compile(r"^\s*\.\.(?:\s|$)")


def undecorated(text: str) -> str:
    """``text`` without its reST decoration lines (``_DECORATION``) and directives or
    comments (``_DIRECTIVE``, with the lines indented under them), each a blank line: a
    title between ``====`` lines is a paragraph of its own, and matplotlib's
    ``.. redirect-from::`` opening a docstring is no sentence of it (a review)."""
    out: list[str] = []
    inside = -1  # the indent of the directive whose block is being left out
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if inside >= 0 and line.strip() and indent > inside:
            out.append("")
            continue
        inside = indent if _DIRECTIVE.match(line) else -1
        out.append("" if inside >= 0 or _DECORATION.match(line) else line)
    return "\n".join(out)


#: A sentence's end: a full stop, then space and a capital (``e.g. the``, ``Misc. utility``
#: go on), not after an abbreviation (``_ABBREVIATIONS``).
_SENTENCE_END = re.compile(r"\.\s+(?=[A-Z])")
_ABBREVIATIONS = frozenset("e.g i.e etc vs cf al approx misc no fig eq resp mr mrs dr st".split())


def summary(docstring: str) -> str:
    """The docstring's first sentence (its first paragraph up to a full stop before a
    capitalised word, not an abbreviation's: "Misc. utility functions" and "..., e.g. on an
    axis" go on; a review), one line, at most ``SUMMARY_MAX_CHARS`` characters."""
    paragraph = " ".join(docstring.strip().split("\n\n", 1)[0].split())
    end = next((m for m in _SENTENCE_END.finditer(paragraph)
                if paragraph[:m.start()].rsplit(None, 1)[-1].lower().lstrip("(") not in _ABBREVIATIONS), None)
    sentence = paragraph[:m.start() + 1] if (m := end) else paragraph
    return sentence[:SUMMARY_MAX_CHARS]


#: A Kotlin or Scala class header up to its primary constructor's ``(``: ``case class
#: RetryConfig[E, T](``, ``class Channel[T] private (``, ``class A<T> internal constructor(``.
_PRIMARY = re.compile(r"\b(?:class|object)\s+[\w`$-]+\s*(?:\[(?:[^\[\]]|\[[^\[\]]*\])*\]|<(?:[^<>]|<[^<>]*>)*>)?"
                      r"\s*(?:(?:private|protected|internal|public|constructor|@\w+)\s*)*\(")


def _primary(definition: dict) -> tuple[str, ...]:
    """A Kotlin or Scala class's primary constructor parameters, from its signature (it has
    no ``constructor`` member to read them from; ox's ``card RetryConfig`` listed none)."""
    if definition.get("language") not in ("kotlin", "scala"):
        return ()
    signature = str(definition.get("signature", ""))
    found = _PRIMARY.search(signature)
    return params(signature[found.end() - 1:]) if found else ()


_PY_DEF = re.compile(r"^(?:async\s+)?def\s+(\w+)\s*\(")


def _compact(signature: str) -> str:
    """A Python method's signature with its parameters' names alone (``def add_row(self,
    *renderables: Optional[R], style: StyleType = None) -> None`` -> ``def
    add_row(self, *renderables, style)``); any other signature as it is."""
    found = _PY_DEF.match(signature)
    if not found:
        return signature
    names = [p.split("=", 1)[0].split(":", 1)[0].strip() for p in split_top(inside_parens(signature))]
    return f"{signature[:found.end()]}{', '.join(n for n in names if n)})"


def _private(signature: str) -> bool:
    """Whether a method's signature names a private method (``_x``, not a ``__dunder__``)."""
    name = re.search(r"(\w+)\s*[(<]", signature)
    return bool(name) and name.group(1).startswith("_") and not name.group(1).endswith("__")


def params(signature: str) -> tuple[str, ...]:
    """Parameters as written, defaults included, less ``self``/``cls``: ``def __init__(self,
    a, b: int = 2)`` -> ``("a", "b: int = 2")``."""
    return tuple(p for p in split_top(inside_parens(signature)) if p not in ("self", "cls"))


#: Kinds of a top-level definition's siblings (``_siblings``): its file's functions and types.
TOP_LEVEL_KINDS = ("function", "class", "interface", "struct", "enum", "trait")


def _siblings(definition: dict, file_points: list[dict]) -> tuple[str, ...]:
    """Every other member of ``definition``'s class (else top-level function or type of its
    file: FastAPI's ``HTTPBasic`` had none beside ``HTTPBase`` and ``HTTPBearer``), once
    each: public names first, in source order, then private ones (``build`` shows the
    first ``MAX_SIBLINGS`` and counts them all)."""
    parent = definition.get("parent", "")
    kinds = ("method",) if parent else TOP_LEVEL_KINDS
    names = dict.fromkeys(p["name"] for p in sorted(file_points, key=lambda p: p["start_line"])
                          if p.get("parent", "") == parent and p["kind"] in kinds and not is_part(p["qualified_name"])
                          and p["qualified_name"] != definition["qualified_name"])
    # Public names first, in source order; private ones only fill what is left.
    return tuple(sorted(names, key=lambda n: n.startswith("_")))


def file_purpose(file_points: list[dict]) -> str:
    """The module docstring's first sentence (``summary``, its reST title decoration left
    out: scikit-learn's ``_lda.py`` gave its title's overline ``=====``, and a first line
    cut mid-sentence, "... including decision, regression and"; a newcomer), else
    ``defines A, B, C`` from its top-level symbols."""
    module = next((p for p in file_points if p["kind"] == "module"), None)
    line = summary(undecorated(str(module.get("docstring", "")))) if module else ""
    if line:
        return line
    top = [p for p in sorted(file_points, key=lambda p: p["start_line"])
           if not p.get("parent") and p["kind"] not in ("module", "section") and not is_part(p["qualified_name"])]
    # its functions and types before its constants (``MAX_RETRIES``, ``DEFAULT_TIMEOUT``)
    names = [p["name"] for p in top if p["kind"] not in VALUE_KINDS] or [p["name"] for p in top]
    return f"defines {', '.join(names[:5])}{', ...' if len(names) > 5 else ''}" if names else ""


def pick_callers(callers: list[CallerHit], n: int = MAX_CALLERS) -> tuple[CallerHit, ...]:
    """Up to ``n`` call sites: resolved, then inherited, override, reference and name-only ones, and
    within each, one repo at a time (round robin) so a single heavy user does not fill the card."""
    out: list[CallerHit] = []
    for confidence in ("resolved", "inherited", "override", "reference", "name_only"):
        by_repo: dict[str, list[CallerHit]] = defaultdict(list)
        for hit in callers:
            if hit.confidence == confidence:
                by_repo[hit.repo].append(hit)
        queues = list(by_repo.values())
        while queues and len(out) < n:
            for queue in queues:
                if queue and len(out) < n:
                    out.append(queue.pop(0))
            queues = [q for q in queues if q]
    return tuple(out)


def size_chars(card: Card) -> int:
    """Rough rendered size of ``card`` in characters (what the budget is measured against)."""
    fields = [card.repo, card.path, card.kind, card.qualified_name, card.module, card.signature,
              card.summary, card.file_purpose, card.repo_purpose, *card.bases, *card.init_params,
              *card.methods, *card.raises, *card.siblings]
    fields += [f"{c.repo} {c.path}:{c.line} {c.caller} {c.text} {c.confidence}" for c in card.callers]
    return sum(len(f) + 4 for f in fields) + 40


#: Other definitions of the asked name a card names (``Card.others``); it counts them all.
MAX_OTHERS = 10


def fit(card: Card, budget_tokens: int) -> Card:
    """``card`` trimmed to ``budget_tokens`` (``CHARS_PER_TOKEN`` characters each): callers
    drop first (down to one), then siblings, methods, file/repo purposes, raises and bases;
    kind, name, signature and summary always stay."""
    budget = budget_tokens * CHARS_PER_TOKEN
    trimmed = card
    steps = [("callers", 1), ("siblings", 0), ("methods", 0), ("callers", 0), ("init_params", 0),
             ("repo_purpose", None), ("file_purpose", None), ("raises", 0), ("bases", 0)]
    for field, keep in steps:
        if field == "methods" and size_chars(trimmed) > budget:
            # every method's name before any method's annotations: Python signatures lose
            # their annotations and defaults, then private methods go before public ones
            # (rich's `card Table` at 800 tokens dropped add_column and add_row, its API)
            trimmed = replace(trimmed, methods=tuple(_compact(m) for m in trimmed.methods))
            while size_chars(trimmed) > budget and any(_private(m) for m in trimmed.methods):
                last = max(i for i, m in enumerate(trimmed.methods) if _private(m))
                trimmed = replace(trimmed, methods=trimmed.methods[:last] + trimmed.methods[last + 1:])
        while size_chars(trimmed) > budget:
            value = getattr(trimmed, field)
            if keep is None:
                if not value:
                    break
                trimmed = replace(trimmed, **{field: ""})
            elif len(value) > keep:
                trimmed = replace(trimmed, **{field: value[:-1]})
            else:
                break
    return replace(trimmed, truncated=trimmed != card)
