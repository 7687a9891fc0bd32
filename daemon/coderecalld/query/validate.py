"""Limits on every request field: hostile input is refused with ``InvalidArgument`` before it
reaches the store, the embedder or git.

The limits are generous for real use and small enough that one request costs bounded work:
a query longer than ``MAX_QUERY_CHARS`` is not a question any more (the model reads 256
tokens), and no git path is longer than Linux's ``PATH_MAX`` (4,096 bytes).
"""

from __future__ import annotations

from coderecalld.errors import InvalidArgument

MAX_QUERY_CHARS = 10_000
#: A search or locate query: a pasted issue with its tracebacks and logs is a real query
#: (``query/shape.py`` reads a bounded part of it); the server's request bound holds
#: 500,000 characters at 4 UTF-8 bytes each (``server/app.request_limit_bytes``).
MAX_SEARCH_QUERY_CHARS = 500_000
MAX_NAME_CHARS = 1_000
#: Dotted (or ``::``) segments a symbol name may have: a lookup drops them one at a time,
#: a few store calls each, with no other bound (a name of 499 ``a.a.a..`` segments held a
#: worker 3.5 s; 12 such lookups at once stalled ``status`` 24 s; a newcomer). Real names
#: have ~10 (``com.google.gson.internal.bind.TypeAdapters.X``: 7).
MAX_NAME_SEGMENTS = 64
MAX_REPO_CHARS = 200
MAX_LANGUAGE_CHARS = 64
MAX_PATH_CHARS = 4_096
#: Line numbers are int32 on the wire; no source file has ten million lines.
MAX_LINE = 10_000_000


def text(field: str, value: str, max_chars: int) -> str:
    """``value`` if it is a string of at most ``max_chars`` characters without NUL."""
    if not isinstance(value, str):
        raise InvalidArgument(f"{field}: expected a string")
    if len(value) > max_chars:
        raise InvalidArgument(f"{field}: {len(value)} characters, longer than {max_chars} "
                              "(the maximum)")
    if "\0" in value:
        raise InvalidArgument(f"{field}: must not contain NUL characters")
    return value


def repo_path(field: str, value: str) -> str:
    """A repository-relative git path: ``a/b.py``; never absolute, never ``.``/``..``/empty
    segments. Percent escapes are not decoded and a backslash is no separator (``%2e%2e``
    and ``..\\x`` are literal file names that git resolves like any other, in the tree of
    a commit, never on a filesystem): git accepts ``src/dir\\like.py``, and every path the
    index returns must be readable (conformance case 40)."""
    text(field, value, MAX_PATH_CHARS)
    if not value:
        raise InvalidArgument(f"{field}: required")
    parts = value.split("/")
    if value.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise InvalidArgument(f"{field}: must be a relative path inside the repository "
                              "without '.', '..' or empty segments")
    return value


def line_range(start_line: int, end_line: int) -> None:
    """One rule for every line range: ``start_line`` in 1..MAX_LINE, ``end_line`` 0 (to the
    end) or start_line..MAX_LINE; the reader then stops at the file's last line (an
    ``end_line`` past it reads to the end). ``InvalidArgument`` naming the bound otherwise."""
    for field, value in (("start_line", start_line), ("end_line", end_line)):
        if value > MAX_LINE:
            raise InvalidArgument(f"lines: {field} {value} > {MAX_LINE} (the maximum line number)")
    if start_line < 1:
        raise InvalidArgument(f"lines: start_line {start_line} < 1 (lines are 1-based)")
    if end_line < 0:
        raise InvalidArgument(f"lines: end_line {end_line} < 0 (0 reads to the end of the file)")
    if end_line and end_line < start_line:
        raise InvalidArgument(f"lines: end_line {end_line} < start_line {start_line}")
