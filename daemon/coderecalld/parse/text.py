"""Byte-exact text helpers: every offset is over the raw blob, text is sliced as bytes then decoded."""

from __future__ import annotations

import re

from tree_sitter import Node

from coderecalld.errors import ParseError

_OPEN_SPACE = re.compile(r"([(\[{])\s+")
_SPACE_CLOSE = re.compile(r"\s+([)\]}])")
_SPACES = re.compile(r"\s+")
_CONTINUATION = re.compile(r"[\s\\]+")
# A `.` or `::` with the space and continuations around it: what joins a dotted callee.
_AROUND_DOT = re.compile(r"(?:\\\r?\n|\s)*(?:\.|::)(?:\\\r?\n|\s)*")


def check_utf8(blob: bytes) -> None:
    """Raise ``ParseError`` naming the first bad byte offset if ``blob`` is not UTF-8."""
    try:
        blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(f"blob is not valid UTF-8 at byte {exc.start}: {exc.reason}") from exc


def text(blob: bytes, node: Node) -> str:
    """The node's source text (nodes always start and end on code-point boundaries)."""
    return blob[node.start_byte : node.end_byte].decode("utf-8")


def start_line(node: Node) -> int:
    """1-based line of the node's first byte (tree-sitter rows count ``\\n`` only, like ours)."""
    return node.start_point.row + 1


def end_line(node: Node) -> int:
    """1-based line of the node's last byte (not the line after it)."""
    row, column = node.end_point
    # An end at column 0 means the last byte was the previous line's "\n".
    return max(row + 1 if column else row, start_line(node))


def line_count(blob: bytes) -> int:
    """Lines in ``blob``; a trailing newline does not start another line, ``b""`` has 0."""
    return blob.count(b"\n") + (1 if blob and not blob.endswith(b"\n") else 0)


def signature(blob: bytes, header: Node, body: Node | None) -> str:
    """The header from ``header``'s start up to ``body`` on one line, comments and a trailing ``:``
    or ``;`` (a declaration without body) removed.

    ``"def f(\\n    a,  # x\\n) -> int:"`` becomes ``"def f(a,) -> int"``.
    """
    end = body.start_byte if body is not None else header.end_byte
    pieces, cursor = [], header.start_byte
    for comment in _extras_before(header, end):
        pieces.append(blob[cursor : comment.start_byte])
        cursor = comment.end_byte
    pieces.append(blob[cursor:end])
    flat = _SPACES.sub(" ", b"".join(pieces).decode("utf-8")).strip()
    flat = flat.removesuffix(":").removesuffix(";").rstrip()
    return _SPACE_CLOSE.sub(r"\1", _OPEN_SPACE.sub(r"\1", flat))


def _extras_before(node: Node, end: int) -> list[Node]:
    """Comment-like (extra) nodes under ``node`` that end by ``end``, in source order."""
    found: list[Node] = []
    for child in node.children:
        if child.start_byte >= end:
            break
        if child.is_extra:
            found.append(child)
        elif child.child_count:
            found.extend(_extras_before(child, end))
    return found


def compact(blob: bytes, node: Node) -> str:
    """The node's text without whitespace or line continuations (``"a . b"`` -> ``"a.b"``)."""
    return _CONTINUATION.sub("", text(blob, node))


def callee(blob: bytes, node: Node) -> str:
    """The callee as written when it is a dotted name, else its last identifier, else ``""``.

    ``os.path.join`` -> ``"os.path.join"``; ``handlers[key]`` -> ``"key"``; ``a.b().c`` -> ``"c"``.
    A ``::`` path is dotted too: ``Beta::default`` -> ``"Beta.default"``. Space elsewhere
    separates words: TypeScript's ``await a.b<T>()`` has callee ``await a.b``, giving ``"b"``.
    """
    written = _AROUND_DOT.sub(".", text(blob, node))
    if all(part.isidentifier() for part in written.split(".")):
        return written
    last = _last_identifier(node)
    return text(blob, last) if last is not None else ""


def _last_identifier(node: Node) -> Node | None:
    # Grammars name identifier-like leaves "*identifier" (identifier, property_identifier, ...).
    for child in reversed(node.children):
        found = _last_identifier(child)
        if found is not None:
            return found
    return node if node.type.endswith("identifier") else None


def leading_comments(blob: bytes, node: Node) -> str:
    """The comments directly above ``node``: adjacent comment siblings, each on the line
    right above the next (or ending on ``node``'s first line), each alone on its lines
    (not trailing code). A ``#!`` shebang is never part of it. Joined with ``"\\n"``."""
    run: list[Node] = []
    below = start_line(node)
    sibling = node.prev_sibling
    while sibling is not None and _is_comment(sibling) and end_line(sibling) >= below - 1:
        if not _starts_line(blob, sibling) or text(blob, sibling).startswith("#!"):
            break
        run.append(sibling)
        below = start_line(sibling)
        sibling = sibling.prev_sibling
    return "\n".join(text(blob, comment) for comment in reversed(run))


def _is_comment(node: Node) -> bool:
    # Grammars name comments "comment", "line_comment", "block_comment", "multiline_comment".
    return node.is_extra and "comment" in node.type


def _starts_line(blob: bytes, node: Node) -> bool:
    line_start = blob.rfind(b"\n", 0, node.start_byte) + 1
    return not blob[line_start : node.start_byte].removeprefix(b"\xef\xbb\xbf").strip(b" \t")


def param_types(blob: bytes, params: Node) -> str:
    """``"(T1,T2)"``: the declared type of each parameter in a list, whitespace removed.

    ``(List<String> names, int limit)`` -> ``"(List<String>,int)"``; ``String... args`` ->
    ``"String..."``. Without a ``type`` field (Java's spread parameter) the first named child
    that is not ``modifiers`` is the type, else the whole parameter.
    """
    types = []
    for param in params.named_children:
        if param.is_extra:
            continue
        declared = param.child_by_field_name("type")
        spread = "..." if param.type == "spread_parameter" else ""
        if declared is None:
            declared = next((c for c in param.named_children if c.type != "modifiers"), param)
        types.append(compact(blob, declared) + spread)
    return f"({','.join(types)})"
