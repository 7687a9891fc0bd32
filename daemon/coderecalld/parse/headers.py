"""What a definition's header (its one-line signature) says beyond its name: the bases a
class names, the parameters inside its parentheses. Shared by the index (``base_targets``
of the languages resolved within a file) and the query side (cards)."""

from __future__ import annotations

import re
from collections.abc import Iterator


def top_level(text: str) -> Iterator[int]:
    """The index of each character of ``text`` outside brackets and quotes, in order (in a
    quote, a backslash escapes the character after it)."""
    depth, quote, i, n = 0, "", 0, len(text)
    while i < n:
        ch = text[i]
        if quote:
            i += 2 if ch == "\\" else 1
            quote = "" if ch == quote else quote
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0:
            yield i
        i += 1


def split_top(text: str) -> list[str]:
    """``text`` split at commas outside brackets and quotes, each part stripped."""
    cuts = [i for i in top_level(text) if text[i] == ","]
    parts = (text[start + 1:end].strip() for start, end in zip([-1, *cuts], [*cuts, len(text)]))
    return [p for p in parts if p]


def inside_parens(signature: str) -> str:
    start = signature.find("(")
    if start < 0:
        return ""
    depth = 0
    for i in range(start, len(signature)):
        depth += {"(": 1, ")": -1}.get(signature[i], 0)
        if depth == 0:
            return signature[start + 1:i]
    return signature[start + 1:]


def bases(signature: str, language: str = "python") -> tuple[str, ...]:
    """Base classes and interfaces a class's signature names, as written less generic
    arguments: Python's ``class X(A, b.B, metaclass=M)`` -> ``("A", "b.B")``; ``extends``
    and ``implements`` (Java, JS/TS, PHP, Scala, Groovy: ``class R extends JsonReader
    implements Closeable``; a gson newcomer's cards said ``bases: []``); the list after
    the class head's ``:`` (Kotlin ``class P(s: S) : Base(s), I``, C# ``class C : B, I``,
    Swift, C++ ``class D : public B``); Ruby's ``class X < Base``; Scala's type arguments
    (``extends Source[T] with Sink[T]``) dropped too."""
    if language in _PAREN_BASES:
        return tuple(p for p in split_top(inside_parens(signature)) if "=" not in p)
    if language == "ruby":
        head, sep, base = signature.partition("<")
        return (base.split()[0],) if sep and base.split() else ()
    found: list[str] = []
    signature = _GENERIC_ARGS.sub("", signature)
    if language == "scala":  # type arguments in brackets: `extends Source[T] with Sink[T]`
        signature = _SCALA_TYPE_ARGS.sub("", signature)
    extends = _EXTENDS.search(signature)
    if extends:
        for part in _CLAUSE.split(signature[extends.start():]):
            found += split_top(part.strip())
    elif language in _COLON_BASES:
        found = split_top(_after_head_colon(signature))
    names = (_ACCESS.sub("", _ATTRIBUTES.sub("", p)).strip().split("(")[0].strip() for p in found)
    return tuple(dict.fromkeys(n for n in names if n and n not in _CLAUSE_WORDS))


_PAREN_BASES = frozenset({"python", ""})
_COLON_BASES = frozenset({"kotlin", "csharp", "swift", "cpp"})
_EXTENDS = re.compile(r"\b(?:extends|implements)\b")
_CLAUSE = re.compile(r"\b(?:extends|implements|with)\b")
_CLAUSE_WORDS = frozenset({"extends", "implements", "with", "where"})
#: Swift attributes before a conformance (``@unchecked Sendable``).
_ATTRIBUTES = re.compile(r"^\s*(?:@\w+\s+)+")
_ACCESS = re.compile(r"^\s*(?:(?:public|protected|private|virtual|internal)\s+)+")
_GENERIC_ARGS = re.compile(r"<[^<>]*(?:<[^<>]*>[^<>]*)*>")
_SCALA_TYPE_ARGS = re.compile(r"\[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\]")


def _after_head_colon(signature: str) -> str:
    """What follows the first ``:`` outside brackets of a class head (Kotlin's primary
    constructor's parameters hold colons of their own), up to a ``where`` clause or body."""
    depth = 0
    for i, ch in enumerate(signature):
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif ch == ":" and depth == 0 and signature[i + 1:i + 2] != ":" and signature[i - 1:i] != ":":
            rest = signature[i + 1:]
            return re.split(r"\bwhere\b|\{", rest, maxsplit=1)[0]
    return ""


#: Method names that build an object of their class, per language: a call of the class
#: (``MockHandler(..)``, ``new MockHandler(..)``, Ruby's ``Stream.new``) runs them. Java,
#: C# and C++ name a constructor after its class (``NAMED_CONSTRUCTORS``); a Kotlin
#: class's constructors are no symbols of their own (the class is).
CONSTRUCTOR_NAMES = {"python": ("__init__", "__new__"), "php": ("__construct",), "ruby": ("initialize",),
                     "swift": ("init",), "javascript": ("constructor",), "typescript": ("constructor",),
                     "tsx": ("constructor",), "scala": ("this",)}
NAMED_CONSTRUCTORS = frozenset({"java", "csharp", "cpp"})


def is_constructor(name: str, parent: str, language: str) -> bool:
    """Whether a method ``name`` of the class ``parent`` (its qualified name) constructs it."""
    owner = re.split(r"::|\.", parent)[-1] if parent else ""
    return bool(owner) and (name in CONSTRUCTOR_NAMES.get(language, ())
                            or (language in NAMED_CONSTRUCTORS and name == owner))


def constructed_base(signature: str, language: str) -> str:
    """The base class whose constructor a subclass's constructor chains to (``super(..)``,
    C#'s ``: base(..)``), as its class head writes it: the ``extends`` type (Java, JS, TS,
    PHP: an ``implements`` list names none), Ruby's ``< Base``, the first type after the
    head's ``:`` (C#, whose class base comes first; Kotlin, preferring the one called
    with arguments). ``""`` when the head names none or an expression (JS's ``extends
    mixin(Base)``). A PHP namespace path is dotted, as its calls are (``\\A\\Base``:
    ``A.Base``)."""
    if language in ("java", "javascript", "typescript", "tsx", "php"):
        found = _EXTENDS_ONE.search(_GENERIC_ARGS.sub("", signature))
        return found.group(1).replace("\\", ".").lstrip(".") if found else ""
    if language == "kotlin":
        listed = split_top(_after_head_colon(_GENERIC_ARGS.sub("", signature)))
        called = [p for p in listed if p.endswith(")")]
        first = (called or listed or [""])[0].split("(")[0].strip()
        return first if _TYPE_NAME.fullmatch(first) else ""
    if language in ("ruby", "csharp"):
        found = bases(signature, language)
        return found[0] if found and _TYPE_NAME.fullmatch(found[0]) else ""
    return ""


_EXTENDS_ONE = re.compile(r"\bextends\s+([A-Za-z_$\\][\w$.\\]*)\s*(?=\{|\bimplements\b|$)")
_TYPE_NAME = re.compile(r"[A-Za-z_][\w.:]*")
