"""Cython sources (``.pyx``, ``.pxd``, ``.pxi``) read by the Python grammar.

tree-sitter-language-pack 0.13.0 bundles no Cython grammar, and Cython's own syntax
(``cdef``/``cpdef`` functions with C return types and typed parameters, ``cdef class``,
``cdef:`` declaration blocks, ``cimport``, casts) breaks the Python grammar's reading of
most definitions: parsed as Python, scikit-learn's ``tree/_tree.pyx`` yields 27 of its
195 definitions. ``masked`` rewrites a Cython blob into Python the grammar reads, byte for
byte the same length and with every name at its own offset, so the tree's positions and
the names read from the original blob are the Cython file's own (the same way the C
front end parses a masked copy: ``parse._first_branches``):

- ``cdef``/``cpdef`` functions: the keyword, modifiers and return type become ``def``;
  each typed parameter keeps its name and default (``double* x`` -> ``x``,
  ``float64_t[:, ::1] X not None`` -> ``X``); the clauses after the parameters
  (``except -1 nogil``, ``noexcept``, ``with gil``) are blanked. A ``def``'s typed
  parameters are read the same way.
- ``cdef class``, and named ``struct``/``union``/``enum``/``cppclass`` blocks, are classes.
- declarations keep their names and values (``cdef intp_t n = X.shape[0]`` ->
  ``...;        n = ..``: blanked, the type would indent the statement deeper),
  also inside ``cdef:`` blocks, struct bodies and ``cdef extern from`` blocks (whose
  headers become ``if 1:``); a declaration without a body (a ``.pxd`` prototype,
  ``ctypedef``, ``include``, a forward ``cdef class X``) becomes an ``...`` statement
  with the rest of it a comment.
- ``cimport`` is ``import``; ``DEF X = 1`` is ``...;X = 1``; ``IF``/``ELIF``/``ELSE`` are
  lower case; casts (``<double*> p``) and address-of (``&x``) are blanked.

What the grammar still cannot read (old ``for i from 0 <= i < n`` loops, ``property x:``
blocks) stays an error in that statement only. Cython reference: "Language basics" and
"Extension types" (cython.readthedocs.io).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["EXTENSIONS", "masked"]

#: The suffixes read as Cython: implementation, declaration and include files.
EXTENSIONS = (".pyx", ".pxd", ".pxi")

#: Words that qualify a ``cdef`` declaration before its type.
_MODIFIERS = frozenset({b"public", b"readonly", b"inline", b"api", b"packed", b"final", b"noexcept", b"const",
                        b"volatile"})
#: Named blocks read as classes: ``cdef struct Node:``, ``ctypedef struct X:``, ...
_TYPE_BLOCKS = frozenset({b"struct", b"union", b"enum", b"cppclass", b"class"})
_IDENT = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*")
_OPEN = {ord("("): ord(")"), ord("["): ord("]"), ord("{"): ord("}")}
_CLOSE = frozenset(_OPEN.values())
_INDENT = re.compile(rb"[ \t]*")
#: What a declaration's type becomes: an ``...`` statement before its names on the same
#: line, so the statement keeps its column (``cdef intp_t n = 0`` -> ``...;        n = 0``).
_SPACER = b"...;"


@dataclass(slots=True)
class _Tok:
    """A token of a statement at bracket depth 0: an identifier (``kind`` ``"id"``), a
    bracketed group (``"("``, ``"["``, ``"{"``, from its opening to past its closing
    bracket) or one other character (``"op"``)."""

    kind: str
    start: int
    end: int


def masked(blob: bytes) -> bytes:
    """``blob`` (a Cython source, UTF-8) rewritten as Python of the same byte length,
    each line at its own offsets (see the module docstring). Never raises: what no rule
    reads is left as it is."""
    buf = bytearray(blob)
    lines = _lines(blob)
    starts = _statements(blob, lines)
    blocks: list[tuple[int, bool]] = []  # open blocks: (indent, of declarations)
    for first, last in starts.items():  # in line order
        start, _ = lines[first]
        _, end = lines[last]
        indent = len(_INDENT.match(blob, start).group())
        while blocks and indent <= blocks[-1][0]:  # a statement as far out ends the block
            blocks.pop()
        opened = _statement(buf, blob, start + indent, end, bool(blocks) and blocks[-1][1], lines, first, last,
                            starts)
        if opened is not None:
            blocks.append((indent, opened))
    _casts(buf)
    return bytes(buf)


def _lines(blob: bytes) -> list[tuple[int, int]]:
    """Each line's (start, end) offsets, its newline excluded."""
    out: list[tuple[int, int]] = []
    pos = 0
    while pos <= len(blob):
        nl = blob.find(b"\n", pos)
        if nl < 0:
            out.append((pos, len(blob)))
            break
        out.append((pos, nl))
        pos = nl + 1
    return out


def _statements(blob: bytes, lines: list[tuple[int, int]]) -> dict[int, int]:
    """Line index of each logical statement's first line -> its last line's: lines in an
    open bracket, a string or after a backslash continue the statement; blank and
    comment-only lines start none."""
    out: dict[int, int] = {}
    depth = 0
    quote = b""  # an open triple-quoted string's delimiter
    current = -1
    for k, (start, end) in enumerate(lines):
        line = blob[start:end]
        fresh = depth == 0 and not quote and current < 0
        if fresh:
            body = line.strip()
            if not body or body.startswith(b"#"):
                continue
            current = k
        depth, quote, continued = _scan(line, depth, quote)
        if current >= 0:
            out[current] = k
        if depth <= 0 and not quote and not continued:
            depth = 0
            current = -1
    return out


def _scan(line: bytes, depth: int, quote: bytes) -> tuple[int, bytes, bool]:
    """Bracket depth and open triple quote after ``line``, and whether it ends in a
    backslash continuation."""
    i, n = 0, len(line)
    while i < n:
        if quote:
            j = line.find(quote, i)
            if j < 0:
                return depth, quote, False
            i, quote = j + 3, b""
            continue
        c = line[i]
        if c == ord("#"):
            return depth, quote, False
        if c in (ord('"'), ord("'")):
            q = line[i:i + 3]
            if q in (b'"""', b"'''"):
                quote, i = q, i + 3
                continue
            i = _string_end(line, i)
            continue
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
        i += 1
    return depth, quote, line.rstrip().endswith(b"\\")


def _string_end(text: bytes, i: int) -> int:
    """The offset past the one-line string literal opening at ``text[i]``."""
    q = text[i]
    j = i + 1
    while j < len(text):
        if text[j] == ord("\\"):
            j += 2
            continue
        if text[j] == q or text[j] == ord("\n"):
            return j + 1
        j += 1
    return j


def _tokens(blob: bytes, start: int, end: int) -> list[_Tok]:
    """The depth-0 tokens of ``blob[start:end]`` (strings and comments skipped)."""
    out: list[_Tok] = []
    i = start
    while i < end:
        c = blob[i]
        if c in b" \t\r\n\\":
            i += 1
        elif c in b"#'\"":
            i = _past_literal(blob, i, end)
        elif c in _OPEN:
            j = _group_end(blob, i, end)
            out.append(_Tok(chr(c), i, j))
            i = j
        elif m := _IDENT.match(blob, i, end):
            out.append(_Tok("id", i, m.end()))
            i = m.end()
        else:
            out.append(_Tok("op", i, i + 1))
            i += 1
    return out


def _past_literal(blob: bytes, i: int, end: int) -> int:
    """The offset past the comment or string literal opening at ``blob[i]`` (a comment
    stops before its newline; ``end`` at most)."""
    if blob[i] == ord("#"):
        nl = blob.find(b"\n", i, end)
        return end if nl < 0 else nl
    q = blob[i:i + 3]
    if q in (b'"""', b"'''"):
        j = blob.find(q, i + 3, end)
        return end if j < 0 else j + 3
    return min(_string_end(blob, i), end)


def _group_end(blob: bytes, i: int, end: int) -> int:
    """The offset past the bracket closing the one at ``blob[i]`` (``end`` if none)."""
    depth = 0
    while i < end:
        c = blob[i]
        if c in b"#'\"":
            i = _past_literal(blob, i, end)
            continue
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return end


def _word(blob: bytes, tok: _Tok) -> bytes:
    return blob[tok.start:tok.end] if tok.kind == "id" else b""


def _blank(buf: bytearray, start: int, end: int) -> None:
    """Spaces over ``buf[start:end]``, its newlines kept."""
    buf[start:end] = _NOT_NEWLINE.sub(b" ", bytes(buf[start:end]))


def _put(buf: bytearray, start: int, end: int, text: bytes) -> None:
    """``text`` at ``start``, the rest of ``buf[start:end]`` blanked."""
    _blank(buf, start, end)
    buf[start:start + len(text)] = text


def _statement(buf: bytearray, blob: bytes, start: int, end: int, in_block: bool,
               lines: list[tuple[int, int]], first: int, last: int, starts: dict[int, int]) -> bool | None:
    """Rewrite the statement ``blob[start:end]`` (from its first non-blank byte) in
    ``buf``; ``in_block``: a declaration block's body, whose declarations have no
    ``cdef``. Whether the block it opens holds declarations (``None``: it opens none)."""
    toks = _tokens(blob, start, end)
    if not toks:
        return None
    opens = False if _block_header(blob, toks) else None
    if in_block and toks[0].kind == "id" and _word(blob, toks[0]) not in (b"cdef", b"cpdef", b"ctypedef"):
        k = 1 if _word(blob, toks[0]) == b"packed" else 0
        if k < len(toks) and _word(blob, toks[k]) in _TYPE_BLOCKS:  # struct sockaddr: in an extern block
            read, opened = _type_block(buf, blob, toks, k, lines, first, last)
            if read:
                return opened
        _declaration(buf, blob, toks, toks[0].start, lines, first, last)
        return None
    head = _word(blob, toks[0])
    if head == b"cimport":
        _put(buf, toks[0].start, toks[0].end, b"import ")
        return opens
    if head == b"from":
        for t in toks[1:]:
            if _word(blob, t) == b"cimport":
                _put(buf, t.start, t.end, b" import")
        return opens
    if head == b"DEF" and len(toks) > 1 and toks[1].start - toks[0].start >= len(_SPACER):
        _put(buf, toks[0].start, toks[1].start, _SPACER)
        return opens
    if head in (b"IF", b"ELIF", b"ELSE"):
        buf[toks[0].start:toks[0].end] = head.lower()
        return opens
    if head == b"include":
        _dropped(buf, lines, first, last)
        return opens
    if head == b"async" and len(toks) > 3 and _word(blob, toks[1]) == b"def" and toks[3].kind == "(":
        _parameters(buf, blob, toks[3])
        return opens
    if head == b"def" and len(toks) > 2 and toks[2].kind == "(":
        _parameters(buf, blob, toks[2])
        return opens
    if head == b"property" and len(toks) == 3 and toks[1].kind == "id" and _block_header(blob, toks):
        _put(buf, toks[0].start, toks[1].start, b"class")  # property x: __get__, __set__
        return opens
    if head == b"for" and len(toks) > 2 and _word(blob, toks[2]) == b"from":
        _put(buf, toks[2].start, toks[2].end, b"in")  # for i from 0 <= i < n:
        return opens
    if head == b"ctypedef":
        return _typedef(buf, blob, toks, lines, first, last, starts)
    if head in (b"cdef", b"cpdef"):
        return _cdef(buf, blob, toks, lines, first, last)
    return opens


def _block_header(blob: bytes, toks: list[_Tok]) -> bool:
    """Whether the statement ends with ``:`` (a block follows)."""
    return toks[-1].kind == "op" and blob[toks[-1].start] == ord(":")


def _typedef(buf: bytearray, blob: bytes, toks: list[_Tok], lines: list[tuple[int, int]],
             first: int, last: int, starts: dict[int, int]) -> bool | None:
    """``ctypedef struct X:``, ``ctypedef class numpy.dtype [object ..]:`` and the like are
    classes; a fused type's block (a list of C types) and other ``ctypedef``s are dropped."""
    k = 2 if len(toks) > 1 and _word(blob, toks[1]) == b"packed" else 1
    if k < len(toks) and _word(blob, toks[k]) in _TYPE_BLOCKS:
        read, opened = _type_block(buf, blob, toks, k, lines, first, last)
        if read:
            return opened
    end = _block_end(blob, lines, starts, first) if _block_header(blob, toks) else last
    _dropped(buf, lines, first, end)
    return None


def _cdef(buf: bytearray, blob: bytes, toks: list[_Tok], lines: list[tuple[int, int]],
          first: int, last: int) -> bool | None:
    """A ``cdef``/``cpdef`` statement; whether the block it opens holds declarations
    (``None``: it opens none)."""
    k = 1
    if k < len(toks) and toks[k].kind == "op" and blob[toks[k].start] == ord(":"):
        _as_if(buf, toks)  # cdef:
        return True
    while k < len(toks) and _word(blob, toks[k]) in _MODIFIERS:
        k += 1
    if k == len(toks) - 1 and _block_header(blob, toks):
        _as_if(buf, toks)  # cdef public:
        return True
    word = _word(blob, toks[k]) if k < len(toks) else b""
    if word in _TYPE_BLOCKS:
        read, opened = _type_block(buf, blob, toks, k, lines, first, last)
        if read:
            return opened
    if word == b"extern" or word in _TYPE_BLOCKS:
        if not _block_header(blob, toks):
            _dropped(buf, lines, first, last)  # cdef extern int x; cdef class X (forward)
            return None
        _as_if(buf, toks)  # cdef extern from "x.h":, cdef enum:
        return True
    return _declaration(buf, blob, toks[k:], toks[0].start, lines, first, last)


def _colon(blob: bytes, toks: list[_Tok], n: int) -> int | None:
    """The index of the first depth-0 ``:`` among ``toks[n:]``."""
    return next((j for j in range(n, len(toks)) if toks[j].kind == "op" and blob[toks[j].start] == ord(":")), None)


def _type_block(buf: bytearray, blob: bytes, toks: list[_Tok], k: int, lines: list[tuple[int, int]],
                first: int, last: int) -> tuple[bool, bool | None]:
    """``toks[k]`` a block word (``class``, ``struct`` ..) followed by a name, maybe dotted
    (``numpy.dtype``: the class is ``dtype``), and a ``:`` (the body maybe on the same
    line: ``cdef class B: pass``): a class from ``toks[0]`` to its name, its ``[object ..]``
    groups blanked; a forward declaration is dropped. Whether it was read (not when no name
    follows: ``cdef enum:`` is the caller's), and whether the block it opens holds
    declarations (a struct's; ``None``: it opens none, its body on its line)."""
    j = k + 1
    while j + 2 < len(toks) and toks[j].kind == "id" and _word(blob, toks[j + 1]) == b"" and \
            blob[toks[j + 1].start] == ord(".") and toks[j + 2].kind == "id":
        j += 2  # numpy.dtype
    if j >= len(toks) or toks[j].kind != "id":
        return False, None
    colon = _colon(blob, toks, j + 1)
    if colon is None:
        _dropped(buf, lines, first, last)  # cdef class X (forward)
        return True, None
    _as_class(buf, toks[0].start, toks[j])
    for t in toks[j + 1:colon]:  # [object XObject, type XType]
        if t.kind == "[":
            _blank(buf, t.start, t.end)
    return True, (_word(blob, toks[k]) != b"class" if colon == len(toks) - 1 else None)


def _as_if(buf: bytearray, toks: list[_Tok]) -> None:
    """A block header (``cdef:``, ``cdef extern from "x.h":``) as ``if 1:`` padded."""
    colon = toks[-1].start
    _put(buf, toks[0].start, colon, b"if 1")


def _as_class(buf: bytearray, start: int, name: _Tok) -> None:
    """``buf[start:name.start]`` (``cdef public struct``) as ``class`` padded."""
    _put(buf, start, name.start, b"class")


def _dropped(buf: bytearray, lines: list[tuple[int, int]], first: int, last: int) -> None:
    """Lines ``first..last``, one statement, as ``...`` and comments."""
    for k in range(first, last + 1):
        start, end = lines[k]
        at = start + len(_INDENT.match(buf, start, end).group())
        if at >= end:
            continue
        if k == first and end - at >= 4:
            buf[at:at + 4] = b"...#"
        else:
            buf[at] = ord("#")


def _declaration(buf: bytearray, blob: bytes, toks: list[_Tok], keyword: int,
                 lines: list[tuple[int, int]], first: int, last: int) -> bool | None:
    """A C declaration from ``keyword`` (the ``cdef``, or its type's first byte in a
    block): a function with a body becomes a ``def``, a variable its names and value,
    anything else (a prototype) is dropped. False when it opens a function's body, else
    ``None``."""
    eq = next((n for n, t in enumerate(toks) if t.kind == "op" and blob[t.start] == ord("=")), len(toks))
    left = toks[:eq]
    for n, t in enumerate(left):
        if (t.kind == "id" and t.start > keyword and n + 1 < len(left) and left[n + 1].kind == "("
                and _word(blob, t) not in _MODIFIERS):
            colon = _colon(blob, toks, n + 2)
            if colon is None:
                _dropped(buf, lines, first, last)  # a prototype
                return None
            _put(buf, keyword, t.start, b"def")
            group = left[n + 1]
            _parameters(buf, blob, group)
            _blank(buf, group.end, toks[colon].start)  # except -1 nogil
            return False if colon == len(toks) - 1 else None
    if any(t.kind == "(" for t in left):  # a template's or a function pointer's declaration
        _dropped(buf, lines, first, last)
        return None
    # a variable: the first declarator's name is its last identifier
    declarators: list[list[_Tok]] = [[]]
    for t in left:
        if t.kind == "op" and blob[t.start] == ord(","):
            declarators.append([])
        else:
            declarators[-1].append(t)
    names = [t for t in declarators[0] if t.kind == "id" and _word(blob, t) not in _MODIFIERS]
    typed = len(names) > 1 or len(names) < len([t for t in declarators[0] if t.kind == "id"])
    if not typed and keyword == toks[0].start:  # a bare word in a block: a value
        return None
    if not names or names[-1].start - keyword < len(_SPACER):
        _dropped(buf, lines, first, last)
        return None
    # the statement keeps its first column (blanked, it would be indented deeper)
    _put(buf, keyword, names[-1].start, _SPACER)
    for d in declarators[1:]:  # cdef double *a, *b
        for t in d:
            if t.kind == "op" and blob[t.start] == ord("*"):
                _blank(buf, t.start, t.end)
    assigned = [t for t in toks if t.kind == "op" and blob[t.start] == ord("=")]
    if len(assigned) > 1:  # int start = 0, end = 0: two statements
        for t in toks:
            if t.kind == "op" and blob[t.start] == ord(","):
                buf[t.start] = ord(";")
    return None


def _parameters(buf: bytearray, blob: bytes, group: _Tok) -> None:
    """Each typed parameter in the group ``(..)`` as its name and default."""
    params: list[list[_Tok]] = [[]]
    for t in _tokens(blob, group.start + 1, group.end - 1):
        if t.kind == "op" and blob[t.start] == ord(","):
            params.append([])
        else:
            params[-1].append(t)
    for p in params:
        if any(t.kind == "op" and blob[t.start] == ord(":") for t in p):
            continue  # annotated Python style
        eq = next((n for n, t in enumerate(p) if t.kind == "op" and blob[t.start] == ord("=")), len(p))
        left = p[:eq]
        words = [n for n, t in enumerate(left) if t.kind == "id"]
        # ``X not None`` / ``X or None``
        while len(words) >= 3 and _word(blob, left[words[-1]]) == b"None" and _word(
                blob, left[words[-2]]) in (b"not", b"or"):
            _blank(buf, left[words[-2]].start, left[words[-1]].end)
            words = words[:-2]
        if not words and p and all(t.kind == "op" and blob[t.start] == ord(".") for t in p):
            _blank(buf, p[0].start, p[-1].end)  # C varargs: ``char* fmt, ...``
            continue
        if len(words) < 2:
            continue  # a plain name, ``*args``
        _blank(buf, left[0].start, left[words[-1]].start)


def _block_end(blob: bytes, lines: list[tuple[int, int]], starts: dict[int, int], header: int) -> int:
    """The last line index of the block whose header statement starts on line ``header``:
    up to the next statement (``starts``: lines in a string or a bracket start none) no
    deeper than the header."""
    indent = len(_INDENT.match(blob, lines[header][0]).group())
    end = starts[header]
    for k in range(end + 1, len(lines)):
        if k in starts:
            if len(_INDENT.match(blob, lines[k][0]).group()) <= indent:
                break
            end = starts[k]
    return end


#: A cast: ``<`` a C type ``>`` (``<double*>``, ``<float64_t[:n]>``, ``<object>``).
_CAST = re.compile(rb"<[A-Za-z_][\w.]*(?:\s+[A-Za-z_][\w.]*)*(?:\s*\[[^\]\n]*\])?(?:\s*\*)*\s*\??>")
#: Keywords after which an operand starts (a ``<`` there opens a cast, not a comparison).
_BEFORE_OPERAND = frozenset({b"return", b"yield", b"if", b"elif", b"while", b"not", b"and", b"or", b"in",
                             b"else", b"is", b"assert", b"del", b"lambda", b"await"})
#: ``sizeof`` of a C type of several words or a pointer (``sizeof(unsigned int)``).
_SIZEOF = re.compile(rb"(?<![\w.])(?<!def )sizeof\(\s*((?:(?:unsigned|signed|long|short|const|struct|union|enum"
                     rb"|volatile)\s+)*)[A-Za-z_]\w*(\s*\**\s*)\)")
#: An address-of: ``&`` right after a place an operand starts.
_ADDRESS = re.compile(rb"&(?=[A-Za-z_(])")
#: A C char literal's prefix: ``c'\\0'`` (``_code_only`` has made its quotes ``"``).
_CHAR_LITERAL = re.compile(rb"(?<![\w.])c(?=\")")


def _casts(buf: bytearray) -> None:
    """Casts, ``sizeof``'s C types and address-ofs blanked in code (not in strings or
    comments)."""
    code = _code_only(bytes(buf))
    for m in _CAST.finditer(code):
        if _operand_starts(code, m.start()):
            _blank(buf, m.start(), m.end())
    for m in _SIZEOF.finditer(code):
        _blank(buf, m.start(1), m.end(1))
        _blank(buf, m.start(2), m.end(2))
    code = _code_only(bytes(buf))  # a cast's operand: ``<char*> &x[0]``
    for m in _ADDRESS.finditer(code):
        if _operand_starts(code, m.start()):
            _blank(buf, m.start(), m.start() + 1)
    for m in _CHAR_LITERAL.finditer(code):
        _blank(buf, m.start(), m.end())


def _operand_starts(code: bytes, at: int) -> bool:
    """Whether an operand starts at ``code[at]``: after an operator, an opening bracket, a
    separator or a keyword, not after an operand (``a < b``)."""
    k = at - 1
    while k >= 0 and code[k] in b" \t\r\n\\":
        k -= 1
    if k < 0:
        return True
    c = code[k]
    if c in b")]}\"'" or not (chr(c).isalnum() or c == ord("_")):
        return c not in b")]}\"'"
    j = k
    while j >= 0 and (chr(code[j]).isalnum() or code[j] == ord("_")):
        j -= 1
    return code[j + 1:k + 1] in _BEFORE_OPERAND


#: A comment or a string literal (an unclosed one to its line's end).
_LITERAL = re.compile(rb"#[^\n]*|\"\"\"[\s\S]*?(?:\"\"\"|\Z)|'''[\s\S]*?(?:'''|\Z)"
                      rb"|\"(?:\\.|[^\"\\\n])*\"?|'(?:\\.|[^'\\\n])*'?")
_NOT_NEWLINE = re.compile(rb"[^\n]")


def _code_only(text: bytes) -> bytes:
    """``text`` with its strings' and comments' bytes replaced by ``"`` (same length,
    newlines kept)."""
    return _LITERAL.sub(lambda m: _NOT_NEWLINE.sub(b'"', m.group()), text)
