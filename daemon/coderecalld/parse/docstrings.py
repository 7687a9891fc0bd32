"""Turn a ``@doc`` capture's source text into the first paragraph of a docstring.

Each language names its style in the registry (``LanguageSpec.doc_style``).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n")
_PY_PREFIX = re.compile(r"[A-Za-z]*")
# One comment line's marker: "/**", "/*", "*/", a leading "*", "///", "//!", "//", "#".
_COMMENT_OPEN = re.compile(r"^\s*(?:/\*+!?|///?!?|#+|\*(?!/))")
_COMMENT_CLOSE = re.compile(r"\s*\*+/\s*$")
_XML_SUMMARY = re.compile(r"<summary>(.*?)</summary>", re.DOTALL)
_XML_TAG = re.compile(r"</?[A-Za-z][^>]*>")


def first_paragraph(text: str) -> str:
    """Dedent ``text`` (first line and the rest, as ``inspect.cleandoc``) and keep its first paragraph."""
    return _PARAGRAPH_BREAK.split(inspect.cleandoc(text), maxsplit=1)[0].strip()


def python_string(literal: str) -> str:
    """First paragraph of a Python string literal used as a docstring.

    Bytes and f-strings are not docstrings to Python, so they give ``""``. Escapes are
    kept as written (the index shows source, not runtime values).
    """
    prefix = _PY_PREFIX.match(literal).group()
    if set(prefix.lower()) & {"b", "f", "t"}:
        return ""
    body = literal[len(prefix):]
    for quote in ('"""', "'''", '"', "'"):
        if body.startswith(quote):
            # An unterminated literal (in a tree with errors) has no closing quote.
            end = len(body) - len(quote) if len(body) >= 2 * len(quote) and body.endswith(quote) else len(body)
            return first_paragraph(body[len(quote):end])
    return first_paragraph(body)


#: A comment line that is an instruction to a tool, not prose about the code (its marker
#: removed): linters' and formatters' switches (ESLint, Prettier, TypeScript, Istanbul/c8,
#: golangci-lint, clang-tidy, RuboCop, PHP_CodeSniffer, PHPStan, SwiftLint, ktlint, Biome,
#: Deno, Sonar, TSLint, JSHint, Flow, JetBrains' ``noinspection``) by their own syntax (a
#: prose line that starts "eslint plugins .." is kept) and Go's compiler directives (``//go:generate``, ``// +build``). axios's
#: ``AxiosError.from`` had the summary "eslint-disable-next-line func-names".
_DIRECTIVE = re.compile(
    r"^\s*(?:eslint-(?:disable|enable)(?:-next-line|-line)?\b|eslint-env\s|eslint\s+[@\w/-]+\s*:|"
    r"tslint:|jshint\s|jscs:|\$FlowFixMe|@flow\b|noinspection\s|prettier-ignore\b|"
    r"@ts-(?:ignore|expect-error|nocheck|check)\b|(?:istanbul|c8|v8)\s+ignore\b|nolint\b|"
    r"NOLINT(?:NEXTLINE|BEGIN|END)?\b|go:[a-z]+\b|\+build\b|rubocop:(?:disable|enable|todo)\b|"
    r"phpcs:|@phpstan-|@psalm-suppress\b|swiftlint:|ktlint-disable\b|biome-ignore\b|"
    r"deno-lint-ignore\b|NOSONAR\b|clang-format\s+(?:off|on)\b)")


def comment_block_lines(text: str) -> str:
    """Every line of a comment block with its markers removed (no paragraph cut), less the
    lines that are tool directives (``_DIRECTIVE``)."""
    lines = (_COMMENT_OPEN.sub("", _COMMENT_CLOSE.sub("", line), count=1) for line in text.splitlines())
    return "\n".join(line for line in lines if not _DIRECTIVE.match(line))


def comment_block(text: str) -> str:
    """First paragraph of a block of comments (``//``, ``///``, ``#``, ``/* */``, ``/** */``)
    with the comment markers removed."""
    return first_paragraph(comment_block_lines(text))


def xml_doc(text: str) -> str:
    """A C# ``/// <summary>`` comment block: the summary's text without tags (else the whole block)."""
    cleaned = comment_block_lines(text)
    summary = _XML_SUMMARY.search(cleaned)
    return first_paragraph(_XML_TAG.sub("", summary.group(1) if summary else cleaned))


DOC_STYLES: dict[str, Callable[[str], str]] = {
    "plain": first_paragraph,
    "python": python_string,
    "comment": comment_block,
    "xmldoc": xml_doc,
}
#: Styles whose docstring, when the query captured no ``@doc``, is the block of comments
#: directly above the definition (``text.leading_comments``).
COMMENT_STYLES = frozenset({"comment", "xmldoc"})
