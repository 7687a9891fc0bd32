"""The languages the parse stage understands, as data.

Adding a language is one ``queries/<language>/tags.scm`` and one line in ``LANGUAGES``.
The query follows tree-sitter's tags convention (``@definition.<kind>``, ``@name``,
``@reference.call``) plus a few captures of our own, documented in the Python query:
``@body``, ``@decorator``, ``@async``, ``@doc``, ``@doc.module``, ``@reference.import``,
``@reference.value`` (a function named as a value, not called).
``<kind>`` must be a ``SymbolKind`` value; definitions of other kinds are ignored.

Qualified names join a symbol to its enclosing ones with the language's ``separator``:
``geo::Circle::area`` in C++ (an out-of-class ``Circle::area`` is named after its class),
dots elsewhere: ``Geometry.Shapes.Circle.Area(double)`` in C# (namespaces included, method
parameter types appended as in Java), ``Geometry.Circle.area`` in Ruby (modules included,
``def self.x`` too), ``App\\Models.User.name`` in PHP (the file's namespace as written),
``Circle.area`` in Kotlin, Scala and Swift (file-relative; a Kotlin extension
``fun Shape.f`` is ``Shape.f``, a Swift ``extension Circle`` adds to ``Circle``). C and Bash
names are plain (C: a typedef never nests the struct it names).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

from tree_sitter import Language, Query
from tree_sitter_language_pack import get_language

from coderecalld.errors import ParseError


@dataclass(frozen=True, slots=True)
class LanguageSpec:
    """One supported language.

    Attributes:
        name: our language id, stored in the chunk payload (``"python"``).
        grammar: grammar name in ``tree_sitter_language_pack`` 0.13.0.
        extensions: file suffixes including the dot, matched case-insensitively.
        tags_path: the tags query, relative to the ``coderecalld.parse`` package.
        filenames: exact base names that select this language regardless of suffix.
        doc_style: how a ``@doc`` capture becomes text; a key of ``docstrings.DOC_STYLES``.
        separator: joins the segments of a qualified name (``"::"`` for Rust).
        interpreters: ``#!`` interpreter names (version suffix ignored) that select this
            language for a file whose name does not.
        extra_tags: more queries appended to ``tags_path`` (JSX references, shared by the
            JavaScript and TSX queries; ``queries/javascript/stored.scm``).
        resolver: how ``resolve`` ties its call sites to definitions (``"python"``, ``"js"``,
            ``"go"``, ``"java"``, ``"kotlin"``, ``"rust"``, ``"own"``: within the file, no
            receiver types (``index/resolve_own``); ``""``: by name only). Python, JS, Go, Java
            and Kotlin need an ``imports.scm``; Rust's and ``own`` resolve within a file.
    """

    name: str
    grammar: str
    extensions: tuple[str, ...]
    tags_path: str
    filenames: tuple[str, ...] = ()
    doc_style: str = "plain"
    separator: str = "."
    interpreters: tuple[str, ...] = ()
    extra_tags: tuple[str, ...] = ()
    resolver: str = ""


#: JS/TS functions named after where they are stored (default exports, object members,
#: ``A.x = () => {}``), shared by the JavaScript, TypeScript and TSX queries.
_STORED = "queries/javascript/stored.scm"

LANGUAGES: tuple[LanguageSpec, ...] = (
    # Cython is read as Python from a masked copy (parse.cython)
    LanguageSpec("python", "python", (".py", ".pyi", ".pyw", ".pyx", ".pxd", ".pxi"), "queries/python/tags.scm",
                 doc_style="python",
                 interpreters=("python",), resolver="python"),
    LanguageSpec("javascript", "javascript", (".js", ".mjs", ".cjs", ".jsx"), "queries/javascript/tags.scm",
                 doc_style="comment", extra_tags=(_STORED, "queries/jsx/tags.scm"), resolver="js"),
    # .ts must get the TypeScript grammar (`<T>x` casts) and .tsx the TSX one (JSX): one query.
    LanguageSpec("typescript", "typescript", (".ts", ".mts", ".cts"), "queries/typescript/tags.scm",
                 doc_style="comment", extra_tags=(_STORED,), resolver="js"),
    LanguageSpec("tsx", "tsx", (".tsx",), "queries/typescript/tags.scm", doc_style="comment",
                 extra_tags=(_STORED, "queries/jsx/tags.scm"), resolver="js"),
    LanguageSpec("go", "go", (".go",), "queries/go/tags.scm", doc_style="comment", resolver="go"),
    LanguageSpec("java", "java", (".java",), "queries/java/tags.scm", doc_style="comment",
                 resolver="java"),
    LanguageSpec("rust", "rust", (".rs",), "queries/rust/tags.scm", doc_style="comment", separator="::",
                 resolver="rust"),
    # .h is C: most headers are, and the C++ grammar would misread a C header's `new` or `class`.
    LanguageSpec("c", "c", (".c", ".h"), "queries/c/tags.scm", doc_style="comment", resolver="own"),
    LanguageSpec("cpp", "cpp", (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx"), "queries/cpp/tags.scm",
                 doc_style="comment", separator="::", resolver="own"),
    LanguageSpec("csharp", "csharp", (".cs",), "queries/csharp/tags.scm", doc_style="xmldoc",
                 resolver="own"),
    LanguageSpec("ruby", "ruby", (".rb", ".rake", ".gemspec", ".ru"), "queries/ruby/tags.scm",
                 filenames=("Rakefile", "Gemfile"), doc_style="comment", interpreters=("ruby",),
                 resolver="own"),
    LanguageSpec("php", "php", (".php",), "queries/php/tags.scm", doc_style="comment", interpreters=("php",),
                 resolver="own"),
    LanguageSpec("kotlin", "kotlin", (".kt", ".kts"), "queries/kotlin/tags.scm", doc_style="comment",
                 resolver="kotlin"),
    LanguageSpec("scala", "scala", (".scala", ".sc"), "queries/scala/tags.scm", doc_style="comment",
                 resolver="own"),
    LanguageSpec("swift", "swift", (".swift",), "queries/swift/tags.scm", doc_style="comment",
                 resolver="own"),
    LanguageSpec("bash", "bash", (".sh", ".bash"), "queries/bash/tags.scm", doc_style="comment",
                 interpreters=("bash", "sh")),
)

_BY_NAME = {spec.name: spec for spec in LANGUAGES}
_BY_FILENAME = {filename: spec.name for spec in LANGUAGES for filename in spec.filenames}
_BY_EXTENSION = {ext.lower(): spec.name for spec in LANGUAGES for ext in spec.extensions}
_BY_INTERPRETER = {name: spec.name for spec in LANGUAGES for name in spec.interpreters}
_VERSION = re.compile(r"[\d.]+$")


def resolver_extensions(resolver: str) -> tuple[str, ...]:
    """The file extensions of the languages whose specs name ``resolver``, in ``LANGUAGES``
    order (``"js"``: ``.js .mjs .cjs .jsx .ts .mts .cts .tsx``); empty for an unknown one."""
    return tuple(ext for spec in LANGUAGES if spec.resolver == resolver for ext in spec.extensions)


def spec_for(language: str) -> LanguageSpec:
    """The spec of ``language``; raises ``ParseError`` when it is not supported."""
    try:
        return _BY_NAME[language]
    except KeyError:
        raise ParseError(f"unsupported language {language!r}; supported: {sorted(_BY_NAME)}") from None


def language_for(path: str, head: bytes = b"") -> str | None:
    """Language id for a repository path (``/`` separators), or ``None`` if unsupported.

    The base name decides first; a file it does not place is read by its ``#!`` line,
    given as ``head`` (the blob's first bytes): ``#!/usr/bin/env bash`` selects bash.
    """
    base = path.rsplit("/", 1)[-1]
    if base in _BY_FILENAME:
        return _BY_FILENAME[base]
    dot = base.rfind(".")
    # A leading dot names a hidden file (".py" alone), not a suffix.
    found = _BY_EXTENSION.get(base[dot:].lower()) if dot > 0 else None
    return found or _BY_INTERPRETER.get(interpreter(head))


def interpreter(head: bytes) -> str:
    """The interpreter a ``#!`` first line names, without path or version, else ``""``.

    ``#!/usr/bin/env -S python3.11 -u`` -> ``"python"``; ``#!/bin/sh -e`` -> ``"sh"``.
    """
    if not head.startswith(b"#!"):
        return ""
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    if words and words[0].rsplit("/", 1)[-1] == "env":
        words = [word for word in words[1:] if not word.startswith("-")]
    return _VERSION.sub("", words[0].rsplit("/", 1)[-1]) if words else ""


def supported_languages() -> list[str]:
    """Sorted language ids."""
    return sorted(_BY_NAME)


@functools.lru_cache(maxsize=None)
def language(name: str) -> Language:
    """The tree-sitter ``Language`` of a supported language id (cached)."""
    return get_language(spec_for(name).grammar)


@functools.lru_cache(maxsize=None)
def tags_query(name: str) -> Query:
    """The compiled tags query of a supported language id (cached; compiling takes ms)."""
    spec = spec_for(name)
    package = resources.files("coderecalld.parse")
    source = "\n".join(package.joinpath(path).read_text("utf-8") for path in (spec.tags_path, *spec.extra_tags))
    return Query(language(name), source)
