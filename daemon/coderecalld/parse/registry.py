"""The languages the parse stage understands, as data.

Adding a language is one ``queries/<language>/tags.scm`` and one line in ``LANGUAGES``.
The query follows tree-sitter's tags convention (``@definition.<kind>``, ``@name``,
``@reference.call``) plus a few captures of our own, documented in the Python query:
``@body``, ``@decorator``, ``@async``, ``@doc``, ``@doc.module``, ``@reference.import``.
``<kind>`` must be a ``SymbolKind`` value; definitions of other kinds are ignored.
"""

from __future__ import annotations

import functools
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
    """

    name: str
    grammar: str
    extensions: tuple[str, ...]
    tags_path: str
    filenames: tuple[str, ...] = ()
    doc_style: str = "plain"
    separator: str = "."


LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec("python", "python", (".py", ".pyi", ".pyw"), "queries/python/tags.scm", doc_style="python"),
    LanguageSpec("javascript", "javascript", (".js", ".mjs", ".cjs", ".jsx"), "queries/javascript/tags.scm",
                 doc_style="comment"),
    # .ts must get the TypeScript grammar (`<T>x` casts) and .tsx the TSX one (JSX): one query.
    LanguageSpec("typescript", "typescript", (".ts", ".mts", ".cts"), "queries/typescript/tags.scm",
                 doc_style="comment"),
    LanguageSpec("tsx", "tsx", (".tsx",), "queries/typescript/tags.scm", doc_style="comment"),
    LanguageSpec("go", "go", (".go",), "queries/go/tags.scm", doc_style="comment"),
    LanguageSpec("java", "java", (".java",), "queries/java/tags.scm", doc_style="comment"),
    LanguageSpec("rust", "rust", (".rs",), "queries/rust/tags.scm", doc_style="comment", separator="::"),
)

_BY_NAME = {spec.name: spec for spec in LANGUAGES}
_BY_FILENAME = {filename: spec.name for spec in LANGUAGES for filename in spec.filenames}
_BY_EXTENSION = {ext.lower(): spec.name for spec in LANGUAGES for ext in spec.extensions}


def spec_for(language: str) -> LanguageSpec:
    """The spec of ``language``; raises ``ParseError`` when it is not supported."""
    try:
        return _BY_NAME[language]
    except KeyError:
        raise ParseError(f"unsupported language {language!r}; supported: {sorted(_BY_NAME)}") from None


def language_for(path: str) -> str | None:
    """Language id for a repository path (``/`` separators), or ``None`` if unsupported."""
    base = path.rsplit("/", 1)[-1]
    if base in _BY_FILENAME:
        return _BY_FILENAME[base]
    dot = base.rfind(".")
    # A leading dot names a hidden file (".py" alone), not a suffix.
    if dot <= 0:
        return None
    return _BY_EXTENSION.get(base[dot:].lower())


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
    source = resources.files("coderecalld.parse").joinpath(spec.tags_path).read_text("utf-8")
    return Query(language(name), source)
