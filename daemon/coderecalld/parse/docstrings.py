"""Turn a ``@doc`` capture's source text into the first paragraph of a docstring.

Each language names its style in the registry (``LanguageSpec.doc_style``).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n")
_PY_PREFIX = re.compile(r"[A-Za-z]*")


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


DOC_STYLES: dict[str, Callable[[str], str]] = {
    "plain": first_paragraph,
    "python": python_string,
}
