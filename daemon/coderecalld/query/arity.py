"""How many arguments a definition takes, read from its signature, for ``callgraph``: a
name-only call passing a count no definition of the asked name takes is no call of it
(hono's 30 ``str.match(/re/)`` and ``cache.match(key)`` were name-only callers of
``Router.match(method, path)``; a callers trial).

Read for the languages whose compiler or runtime refuses another count: Go, TypeScript and
Python (Java's overloads: ``callgraph._overload_verdicts``). JavaScript calls a function
with any count. A signature this reads no parameter list from takes any count (``None``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: The languages ``taken`` reads, and those whose calls it judges (a JavaScript file's
#: call of a TypeScript definition is checked by nothing).
LANGUAGES = frozenset({"go", "typescript", "tsx", "python"})
#: Python decorators that keep a function's parameters (any other may wrap it in another).
_PYTHON_KEEPING = frozenset({"staticmethod", "classmethod", "abstractmethod", "override", "overload",
                             "typing.overload", "abc.abstractmethod", "typing.override"})
_PYTHON_DECORATOR = re.compile(r"^[ \t]*@([\w.]+)", re.MULTILINE)
#: Occurrences of the name read in a signature (a Go receiver or a type may spell it first).
NAME_OCCURRENCES = 4
#: What may stand between a TypeScript property's name and its function's parameter list:
#: ``= (..) =>``, ``= async (..)``, ``= function (..)``, ``: (..) => T = ..`` (its type's).
_TS_VALUE = re.compile(r"\??\s*[:=]\s*(?:async\s+)?(?:function\b\s*\*?\s*[\w$]*\s*)?")
_OPEN = "([{<"
_CLOSE = ")]}>"


def taken(payload: dict) -> tuple[int, float] | None:
    """(fewest, most) arguments the definition of ``payload`` takes (``inf``: variadic),
    ``None`` when unknown: another language, no parameter list found in its signature, a
    Python function wrapped by a decorator."""
    language = str(payload.get("language") or "")
    if language not in LANGUAGES or payload.get("kind") not in ("method", "function"):
        return None
    params = _parameters(str(payload.get("signature") or ""), str(payload.get("name") or ""), language)
    if params is None:
        return None
    if language == "go":
        return _go(params)
    if language == "python":
        return _python(params, payload)
    return _typescript(params)


def accepts(arities: Iterable[tuple[int, float] | None], count: int) -> bool:
    """Whether a call passing ``count`` arguments may call one of the definitions whose
    ``taken`` are ``arities``: yes when ``count`` is unknown (negative), any is unknown,
    or one's range holds it."""
    return count < 0 or any(a is None or a[0] <= count <= a[1] for a in arities)


def _parameters(signature: str, name: str, language: str) -> list[str] | None:
    """The parameter list following ``name`` in ``signature``, split at its top-level
    commas; ``None`` when none follows it."""
    if not name:
        return None
    start = 0
    for _ in range(NAME_OCCURRENCES):
        at = signature.find(name, start)
        if at < 0:
            return None
        start = at + len(name)
        if at and (signature[at - 1].isalnum() or signature[at - 1] in "_$"):
            continue
        i = _skip_space(signature, start)
        if language in ("typescript", "tsx"):
            value = _TS_VALUE.match(signature, i)
            i = value.end() if value and value.end() > i else i
        if i < len(signature) and signature[i] in "<[":
            i = _skip_space(signature, _group_end(signature, i))
        if i < len(signature) and signature[i] == "(":
            end = _group_end(signature, i)
            if end > i:
                return _split(signature[i + 1:end - 1])
    return None


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _group_end(text: str, i: int) -> int:
    """The index past the bracket group opening at ``i`` (``=>``'s ``>`` closes none);
    ``i`` when it does not close."""
    depth = 0
    for j in range(i, len(text)):
        ch = text[j]
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and not (ch == ">" and j and text[j - 1] == "="):
            depth -= 1
            if depth == 0:
                return j + 1
    return i


def _split(text: str) -> list[str]:
    """``text`` split at commas outside brackets (``=>`` aside), blanks dropped."""
    out, depth, start = [], 0, 0
    for j, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and not (ch == ">" and j and text[j - 1] == "="):
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:j].strip())
            start = j + 1
    out.append(text[start:].strip())
    return [p for p in out if p]


def _go(params: list[str]) -> tuple[int, float]:
    """``(a, b int, rest ...string)``: each name is one argument, a ``...`` one any number."""
    if params and "..." in params[-1]:
        return len(params) - 1, float("inf")
    return len(params), len(params)


def _typescript(params: list[str]) -> tuple[int, float]:
    """``(this: T, a: A, b?: B, c = 1, ...rest: R[])``: ``this`` is no argument, ``?`` and a
    default make one optional, a rest parameter any number."""
    if params and re.match(r"this\s*:", params[0]):
        params = params[1:]
    most: float = len(params)
    if params and params[-1].startswith("..."):
        params, most = params[:-1], float("inf")
    required = sum(1 for p in params if not _optional(p))
    return required, most


def _optional(param: str) -> bool:
    """A TypeScript parameter with ``?`` after its name or a default (a top-level ``=``)."""
    depth, typed = 0, False
    for j, ch in enumerate(param):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and not (ch == ">" and j and param[j - 1] == "="):
            depth -= 1
        elif depth == 0 and ch == "?" and not typed and param[j + 1:j + 2] in (":", ""):
            return True
        elif depth == 0 and ch == "=" and param[j + 1:j + 2] != ">":
            return True
        elif depth == 0 and ch == ":":
            typed = True
    return False


def _python(params: list[str], payload: dict) -> tuple[int, float] | None:
    """``(self, a, b=1, *args, c, **kw)``: the bound first parameter of a method is no
    argument (a ``@staticmethod``'s is), a default makes one optional, ``*args`` any
    number, and those after a ``*`` are keyword-only; ``None`` under another decorator."""
    decorators = set(_PYTHON_DECORATOR.findall(str(payload.get("snippet") or "").split("def ", 1)[0]))
    if decorators - _PYTHON_KEEPING:
        return None
    if payload.get("kind") == "method" and "staticmethod" not in decorators and params:
        params = params[1:]
    lo, hi = 0, 0
    for p in params:
        if p == "/":
            continue
        if p.startswith("*"):
            return lo, float("inf") if p != "*" and not p.startswith("**") else hi
        hi += 1
        lo += "=" not in p
    return lo, hi
