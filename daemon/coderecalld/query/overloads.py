"""A name with a parameter list names overloads: ``Selector.select(String,Iterable<Element>)``.

Java's and C#'s qualified names carry their parameter types as the tools print them
(``org.jsoup.select.Selector.select(String,Iterable<Element>)``; ``points.fq_name`` drops
them, so every overload has one module-qualified name). A name written with such a list
selects the overloads whose printed list is the same, compared without whitespace
(``(String, Iterable<Element>)`` is ``(String,Iterable<Element>)``; generic arguments as
printed), else those whose types it writes otherwise (a pasted declaration ``(String query,
Element root)``, qualified types ``java.lang.String``, varargs ``int...`` for ``int[]``); an
empty list with no overload of no parameters is the name (``Sel.select()``). A list after a name no definition prints one for (Python, Go, Kotlin, C++:
their qualified names have none) is a call as code writes it (``parse(css, root)``,
``Element.text()``) and selects nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from coderecalld.errors import NotFound
from coderecalld.records import Hit

#: The printed overloads a not-found message lists at most.
LISTED_OVERLOADS = 12


def split(name: str) -> tuple[str, str | None]:
    """``name`` less a closing parameter list, and the list's text inside its parentheses
    (``("Selector.select", "String,Iterable<Element>")``, ``("Element.text", "")``);
    ``(name, None)`` when it does not end in one (nested parentheses count: C#'s tuple
    type ``M((int,int))``)."""
    if not name.endswith(")"):
        return name, None
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(name[i], 0)
        if depth == 0:
            base = name[:i].rstrip()
            return (base, name[i + 1:-1]) if base else (name, None)
    return name, None


def _key(params: str) -> str:
    return "".join(params.split())


#: A qualified type's package or outer parts (``java.lang.String`` -> ``String``), an
#: annotation or modifier before a parameter, and a parameter's trailing name
#: (``String query`` -> ``String``): what a pasted declaration or a fully qualified list
#: adds to the printed one.
_QUALIFIER = re.compile(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])")
_MODIFIER = re.compile(r"@\w+(?:\([^()]*\))?\s*|\b(?:final|in|out|ref|params|this|scoped)\s+")
_PARAMETER_NAME = re.compile(r"(?<=[\w>\]?.])\s+[A-Za-z_]\w*\s*$")


def _loose(params: str) -> tuple[str, ...]:
    """``params`` as comparable types: each top-level parameter without modifiers,
    annotations, its name or its types' qualifiers, varargs ``...`` as ``[]``, whitespace
    aside (``final java.lang.String query, int... n`` -> ``("String", "int[]")``)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(params + ","):
        depth += {"<": 1, "(": 1, "[": 1, ">": -1, ")": -1, "]": -1}.get(c, 0)
        if c == "," and depth <= 0:
            part = _MODIFIER.sub("", params[start:i].strip())
            part = _PARAMETER_NAME.sub("", part)
            out.append("".join(_QUALIFIER.sub("", part).replace("...", "[]").split()))
            start = i + 1
    return tuple(p for p in out if p) if params.strip() else ()


def pick(hits: Sequence[Hit], params: str | None) -> list[Hit]:
    """The ``hits`` whose qualified name prints the parameter list ``params`` (``split``'s,
    whitespace aside), else those whose types ``params`` writes otherwise (``_loose``: a
    pasted declaration's names, qualified types, varargs as an array); all of ``hits`` when
    ``params`` is None or empty with no overload of no parameters (``Selector.select()``,
    a call written out of habit), or none of them prints a list (a call written so); ``[]``
    when some print one and none this one."""
    if params is None:
        return list(hits)
    printed = [(h, split(str(h.payload.get("qualified_name", "")))[1]) for h in hits]
    if all(p is None for _, p in printed):
        return list(hits)
    exact = [h for h, p in printed if p is not None and _key(p) == _key(params)]
    if exact:
        return exact
    loose = [h for h, p in printed if p is not None and _loose(p) == _loose(params)]
    if loose or params.strip():
        return loose
    return list(hits)


def select(hits: Sequence[Hit], name: str, params: str | None) -> list[Hit]:
    """``pick``, raising ``NotFound`` when ``name``'s parameter list ``params`` matches none of
    the overloads ``hits`` print, the message listing them (their qualified names, at most
    ``LISTED_OVERLOADS``): ``no overload of 'Selector.select' takes (int); its overloads:
    org.jsoup.select.Selector.select(String,Element), ...``."""
    kept = pick(hits, params)
    if kept or not hits:
        return kept
    names = list(dict.fromkeys(str(h.payload.get("qualified_name", "")) for h in hits))
    more = f" and {len(names) - LISTED_OVERLOADS} more" if len(names) > LISTED_OVERLOADS else ""
    raise NotFound(f"no overload of {split(name)[0]!r} takes ({params}); its overloads: "
                   f"{', '.join(names[:LISTED_OVERLOADS])}{more}")
