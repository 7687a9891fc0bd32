"""The parse stage: one blob in, its symbols, calls and imports out (``symbols``).

Languages and their tree-sitter queries are data in ``registry`` and ``queries/``.
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Parser

from coderecalld.parse import imports, registry
from coderecalld.parse.extract import parsed_file
from coderecalld.parse.registry import language_for, supported_languages
from coderecalld.parse.text import check_utf8
from coderecalld.records import ParsedFile

__all__ = ["language_for", "supported_languages", "symbols"]


def symbols(blob: bytes, language: str, path: str = "") -> ParsedFile:
    """Parse one git blob of ``language`` into symbols, call sites and imports.

    Args:
        blob: the raw blob bytes; a UTF-8 BOM is allowed and counted in every offset.
        language: a language id from ``supported_languages()`` (see ``language_for``).
        path: the blob's repository path; it names a JS/TS file's anonymous default export
            (``export default (config) => {}`` in ``lib/resolveConfig.js`` is ``resolveConfig``,
            ``imports.default_name``), which without it is ``default``.

    Returns:
        A ``ParsedFile`` whose symbols are ordered by ``start_byte``; byte offsets are
        over ``blob`` (end-exclusive), lines 1-based inclusive. Syntax errors do not
        raise: what tree-sitter recovered is returned with ``has_errors=True``.

    Raises:
        ParseError: ``blob`` is not valid UTF-8, or ``language`` is not supported.
    """
    spec = registry.spec_for(language)
    check_utf8(blob)
    # tree-sitter skips a leading BOM but still counts its 3 bytes in every position,
    # so offsets stay over the raw blob and no node text contains U+FEFF.
    tree = Parser(registry.language(spec.name)).parse(blob)
    default = imports.default_name(path)
    return replace(parsed_file(blob, tree, spec, default),
                   import_aliases=imports.aliases(blob, tree, spec, default),
                   instances=imports.instances(blob, tree, spec))
