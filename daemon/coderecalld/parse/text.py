"""Byte-exact text helpers: every offset is over the raw blob, text is sliced as bytes then decoded."""

from __future__ import annotations

import re

from tree_sitter import Node

from coderecalld.errors import ParseError

_OPEN_SPACE = re.compile(r"([(\[{])\s+")
_SPACE_CLOSE = re.compile(r"\s+([)\]}])")
_SPACES = re.compile(r"\s+")
# Whitespace and line continuations (a backslash before a newline); PHP's `App\Models` keeps its.
_CONTINUATION = re.compile(r"(?:\\\r?\n|\s)+")
# A `.` or `::` with the space and continuations around it: what joins a dotted callee.
_AROUND_DOT = re.compile(r"(?:\\\r?\n|\s)*(?:\.|::)(?:\\\r?\n|\s)*")
#: A type argument list of a generic call (C#'s ``FromException<T>``, Java's ``.<String>``,
#: Rust's turbofish ``::<u8>``), innermost first.
_TYPE_ARGUMENTS = re.compile(r"<[^<>]*>")
#: Separators left side by side where type arguments were (``Vec::<u8>::new`` -> ``Vec::::new``).
_SEPARATOR_RUN = re.compile(r"(\.|::){2,}")


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


def callee_line(node: Node) -> int:
    """1-based line of the name a call calls (``node``: its callee node, or the whole call
    where the grammar has no callee node, as for ``callee``): where a chain wraps,
    ``builder\n    .create()`` and Java's ``new Adapter() { ... }.nullSafe()``, the call is
    on the name's line, not on the line its receiver starts (``start_line(node)``: 18 lines
    above gson's ``.nullSafe()``: a newcomer)."""
    args = node.child_by_field_name("arguments")
    if args is not None:  # a whole call: its name, else the last token before its arguments
        name = node.child_by_field_name("name")
        before = name if name is not None else args.prev_sibling
        return (before if before is not None else node).start_point.row + 1
    return node.end_point.row + 1


def end_line(node: Node) -> int:
    """1-based line of the node's last byte (not the line after it)."""
    row, column = node.end_point
    # An end at column 0 means the last byte was the previous line's "\n".
    return max(row + 1 if column else row, start_line(node))


def trimmed_end(blob: bytes, node: Node, column: int = -1) -> tuple[int, int]:
    """``(end_byte, end_line)`` of ``node`` without trailing whitespace, which some grammars
    count in a block (Scala's indented body swallows the newline after it), nor, given the
    definition's ``column``, the comments that end it starting at or left of that column:
    an indented block swallows the next member's doc comment (ox's ``ExitCode`` ran on
    over ``OxApp``'s 21-line Scaladoc), which no body indented under the definition holds."""
    cut = _before_trailing_comments(node, column) if column >= 0 else node.end_byte
    end = len(blob[node.start_byte : cut].rstrip())
    if end == node.end_byte - node.start_byte:
        return node.end_byte, end_line(node)
    end += node.start_byte
    return end, node.end_point.row + 1 - blob.count(b"\n", end, node.end_byte)


def _before_trailing_comments(node: Node, column: int) -> int:
    """Where ``node`` ends without the comments, at or left of ``column`` and on lines of
    their own, that end its last descendants (the chain of last children)."""
    current = node
    while current.child_count:
        kids = current.children
        i = len(kids)
        while (i > 1 and "comment" in kids[i - 1].type and kids[i - 1].start_point.column <= column
               and kids[i - 2].end_point.row < kids[i - 1].start_point.row):
            i -= 1
        if i < len(kids):
            return kids[i - 1].end_byte
        current = kids[-1]
    return node.end_byte


def line_count(blob: bytes) -> int:
    """Lines in ``blob``; a trailing newline does not start another line, ``b""`` has 0."""
    return blob.count(b"\n") + (1 if blob and not blob.endswith(b"\n") else 0)


def signature(blob: bytes, header: Node, body: Node | None, start: int = -1) -> str:
    """The header from ``header``'s start up to ``body`` on one line, comments and a trailing ``:``
    or ``;`` (a declaration without body) removed.

    ``"def f(\\n    a,  # x\\n) -> int:"`` becomes ``"def f(a,) -> int"``. A ``start`` past the
    header's own start (the end of attributes inside it) moves the beginning there.
    """
    end = body.start_byte if body is not None else header.end_byte
    pieces, cursor = [], max(start, header.start_byte)
    for comment in (c for c in _extras_before(header, end) if c.start_byte >= cursor):
        pieces.append(blob[cursor : comment.start_byte])
        cursor = comment.end_byte
    pieces.append(blob[cursor:end])
    flat = _SPACES.sub(" ", b"".join(pieces).decode("utf-8")).strip()
    # The "=" before an expression body (Scala, Ruby `def f(x) = x`) is not part of the header.
    flat = flat.removesuffix(":").removesuffix(";").removesuffix("=").rstrip()
    return _SPACE_CLOSE.sub(r"\1", _OPEN_SPACE.sub(r"\1", flat))


def _extras_before(node: Node, end: int) -> list[Node]:
    """Comment-like (extra) nodes under ``node`` that end by ``end``, in source order.

    An explicit stack, not recursion: a generated file nests tens of thousands of levels
    (conformance case 33: 2,000 nested TypeScript generics), past Python's recursion limit."""
    found: list[Node] = []
    stack = [iter(node.children)]
    while stack:
        child = next(stack[-1], None)
        if child is None or child.start_byte >= end:
            stack.pop()
        elif child.is_extra:
            found.append(child)
        elif child.child_count:
            stack.append(iter(child.children))
    return found


def compact(blob: bytes, node: Node) -> str:
    """The node's text without whitespace or line continuations (``"a . b"`` -> ``"a.b"``)."""
    return _CONTINUATION.sub("", text(blob, node))


def callee(blob: bytes, node: Node) -> str:
    """The callee as written when it is a dotted name, else its last identifier, else ``""``.

    ``os.path.join`` -> ``"os.path.join"``; ``handlers[key]`` -> ``"key"``; ``a.b().c`` -> ``"c"``.
    A ``::`` path is dotted too: ``Beta::default`` -> ``"Beta.default"``. Space elsewhere
    separates words: TypeScript's ``await a.b<T>()`` has callee ``await a.b``, giving ``"b"``.
    A node that is a whole call (Java's ``method_invocation`` has no callee node; ``f(x)(y)``)
    is named by its text before the ``arguments``, else by its ``name`` field:
    ``Optional.empty()`` -> ``"Optional.empty"``, ``names.stream().filter(p)`` -> ``"filter"``.
    A JS private member keeps its ``#``: ``this.#dispatch`` -> ``"this.#dispatch"``.
    A PHP namespace path is dotted: ``new \\GuzzleHttp\\Client()`` -> ``"GuzzleHttp.Client"``
    (it was no call at all).
    A Ruby method called on a class or module is named with it (``_ruby_scoped``):
    ``Helpers::Stream.new(app)`` -> ``"Helpers.Stream.new"``.
    """
    scoped = _ruby_scoped(blob, node)
    if scoped:
        return scoped
    args = node.child_by_field_name("arguments")
    end = args.start_byte if args is not None else node.end_byte
    written = _AROUND_DOT.sub(".", _without_type_arguments(blob[node.start_byte : end].decode("utf-8")))
    if node.type == "qualified_name":  # PHP's `new Psr7\Request(..)`, `\GuzzleHttp\choose()`
        written = written.replace("\\", ".").lstrip(".")
    head, *rest = written.split(".")
    # a JS private member keeps its ``#`` (``this.#dispatch``: a bare ``#dispatch`` read as
    # a function of that name, called with no receiver)
    # JS's, TS's and PHP's identifiers may hold ``$`` (zod's ``core.$constructor(...)``:
    # 249 calls named ``""`` and ``$ZodType.init`` named ``init``)
    if (_identifier(head) and all(_identifier(part.removeprefix("#")) for part in rest)
            and (rest or not head.startswith("$"))):  # PHP's `$callback(..)` calls a variable
        return written
    literal = _literal_receiver(blob, node)
    if literal:  # ``"".join(parts)``: str's join, never a definition named join
        return literal
    last = node.child_by_field_name("name") if args is not None else None
    last = last if last is not None else _last_identifier(node)
    return text(blob, last) if last is not None else ""


def _identifier(part: str) -> bool:
    """Whether ``part`` is an identifier, ``$`` counted as a letter (JS, TS, PHP)."""
    return part.replace("$", "_").isidentifier()


def _without_type_arguments(written: str) -> str:
    """``written`` (a callee) less its type argument lists: ``Outcome.FromException<T>`` ->
    ``Outcome.FromException``, ``Collections.<String>emptyList`` -> ``Collections.emptyList``,
    ``Vec::<u8>::new`` -> ``Vec::new``. Polly's ``FromException<T>(e)`` was a call of ``T``
    (234 "callers" of ``TResult``); a callee holds no other ``<``."""
    if "<" not in written:
        return written
    while "<" in written:
        shorter = _TYPE_ARGUMENTS.sub("", written)
        if shorter == written:
            break
        written = shorter
    return _SEPARATOR_RUN.sub(lambda m: m.group(1), written).rstrip(".:")


def _ruby_scoped(blob: bytes, node: Node) -> str:
    """``Scope.method`` when ``node`` is the method of a Ruby call on a constant
    (``Stream.new``, ``Sinatra::Base.set``, ``::Rack::Utils.escape``), else ``""``: the
    grammar's callee is the method alone, and ``Stream.new(self)`` was a call of ``new``,
    found by no ``callers`` of ``Stream``."""
    call = node.parent
    if call is None or call.type != "call" or call.child_by_field_name("method") != node:
        return ""
    receiver = call.child_by_field_name("receiver")
    if receiver is None or receiver.type not in ("constant", "scope_resolution"):
        return ""
    scope = ".".join(part for part in text(blob, receiver).replace("::", ".").split(".") if part)
    name = text(blob, node)
    return f"{scope}.{name}" if scope and all(p.isidentifier() for p in scope.split(".")) else ""


#: The type of a literal a member is called on: Python's and JS/TS's literal nodes.
_LITERAL_TYPES = {
    "string": "str", "concatenated_string": "str", "list": "list", "dictionary": "dict",
    "tuple": "tuple", "set": "set", "integer": "int", "float": "float",
    "list_comprehension": "list", "dictionary_comprehension": "dict", "set_comprehension": "set",
    "template_string": "String", "array": "Array", "object": "Object", "number": "Number",
    "regex": "RegExp",
}


def _literal_receiver(blob: bytes, node: Node) -> str:
    """``<type>.<member>`` when ``node`` (a callee) is a member of a literal (``"".join``
    -> ``str.join``, ``b":".join`` -> ``bytes.join``, ``[].concat`` -> ``Array.concat``),
    else ``""``: httpx's ``callers URL.join`` listed 85 ``"".join(...)`` calls."""
    if node.type not in ("attribute", "member_expression"):
        return ""
    receiver = node.child_by_field_name("object")
    member = node.child_by_field_name("attribute") or node.child_by_field_name("property")
    if receiver is None or member is None or receiver.type not in _LITERAL_TYPES:
        return ""
    kind = _LITERAL_TYPES[receiver.type]
    if receiver.type == "string":
        quoted = text(blob, receiver).lstrip("rRuUfF")
        if node.type == "member_expression":
            kind = "String"
        elif quoted[:1] in "bB":
            kind = "bytes"
    return f"{kind}.{text(blob, member)}"


def _last_identifier(node: Node) -> Node | None:
    """The last identifier-like node under ``node``, deepest first (a ``scoped_identifier``
    counts only when none of its descendants is one). Iterative for the reason given in
    ``_extras_before``."""
    # Grammars name identifier-like leaves "*identifier" (identifier, property_identifier, ...).
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        current, expanded = stack.pop()
        if expanded:
            if current.type.endswith("identifier"):
                return current
            continue
        stack.append((current, True))  # after its children, which are searched last first
        stack.extend((child, False) for child in current.children)
    return None


def leading_comments(blob: bytes, node: Node) -> str:
    """The comments directly above ``node``: adjacent comment siblings, each on the line
    right above the next (or ending on ``node``'s first line), each alone on its lines
    (not trailing code); the last may instead be a ``/** */`` doc block up to
    ``DOC_BLOCK_GAP`` blank lines above. A ``#!`` shebang is never part of it. Joined with
    ``"\\n"``."""
    run: list[Node] = []
    below = start_line(node)
    # A first statement's comments can sit before its block (Ruby: `class A\n  # doc\n  class B`).
    while node.prev_sibling is None and node.parent is not None and node.parent.start_byte == node.start_byte:
        node = node.parent
    sibling = _last_descendant(node.prev_sibling)
    if (sibling is not None and _is_comment(sibling) and below - 1 > end_line(sibling) >= below - 1 - DOC_BLOCK_GAP
            and blob[sibling.start_byte:sibling.start_byte + 3] == b"/**" and sibling.prev_sibling is not None
            and not _FILE_BLOCK.search(blob, sibling.start_byte, sibling.end_byte)):
        below = end_line(sibling) + 1  # express's JSDoc: a blank line between it and the function
    while sibling is not None and _is_comment(sibling) and end_line(sibling) >= below - 1:
        if not _starts_line(blob, sibling) or text(blob, sibling).startswith("#!"):
            break
        run.append(sibling)
        below = start_line(sibling)
        sibling = _last_descendant(sibling.prev_sibling)
    return "\n".join(text(blob, comment) for comment in reversed(run))


#: Blank lines a ``/** */`` doc block may leave above the definition it documents:
#: express writes one below every JSDoc block of ``lib/``, whose ~60 public functions had
#: no docstring, so their chunks held no prose (a newcomer's questions answered by
#: whole-file chunks, the only ones still holding the words). A ``//`` or ``#`` comment
#: still has to touch the definition: one above a blank line is a note on the code around.
DOC_BLOCK_GAP = 2
#: What a ``/** */`` block about the file or a type says (a licence header, ``@file``,
#: ``@typedef``): such a block a blank line above a definition does not document it; nor
#: does the file's first block.
_FILE_BLOCK = re.compile(rb"(?i)copyright|spdx-license|@license|@file|@fileoverview|@module|@typedef|@callback")


def _last_descendant(node: Node | None) -> Node | None:
    """``node`` or, if it is no comment, its last descendant: some grammars keep the comments
    after a node inside it (Kotlin's import list holds the next declaration's ``/** */``)."""
    while node is not None and not _is_comment(node) and node.child_count:
        node = node.children[-1]
    return node


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
    for index, param in enumerate(params.children):
        # C# `params object[] rest` puts the type and name fields on the list itself.
        field = params.field_name_for_child(index)
        if not param.is_named or param.is_extra or field == "name":
            continue
        declared = param.child_by_field_name("type") if field != "type" else param
        spread = "..." if param.type == "spread_parameter" else ""
        if declared is None:
            declared = next((c for c in param.named_children if c.type != "modifiers"), param)
        types.append(compact(blob, declared) + spread)
    return f"({','.join(types)})"


def java_arity(qualified: str, name: str) -> tuple[int, float] | None:
    """(fewest, most) arguments a Java method takes, from its qualified name's parameter
    types (``Node.attr(String,String)``: (2, 2); ``error(String,Object...)``: (1, inf));
    None when the name carries no parameter list."""
    at = qualified.rfind(name + "(")
    if at < 0 or not qualified.endswith(")"):
        return None
    params = _top_level_split(qualified[at + len(name) + 1:-1], "<", ">")
    if params and params[-1].endswith("..."):
        return len(params) - 1, float("inf")
    return len(params), len(params)


def _top_level_split(text: str, opening: str, closing: str) -> list[str]:
    """``text`` split at commas outside ``opening``/``closing`` pairs; ``[]`` for blank."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    return out + [last] if out or last else []


#: Opens a string or character literal in a C-family line (``call_arity`` skips its text).
_QUOTES = "\"'"


def call_arity(line: str, name: str) -> int | None:
    """Arguments of the one call of ``name`` the source ``line`` writes (``el.attr("x")``:
    1), counted at the top level of its parentheses, strings and characters skipped; None
    when the line writes no such call or several, the call goes on past the line, or the
    line after its name holds a ``<`` or a comment (a type argument's commas are none)."""
    calls = list(re.finditer(rf"(?<![\w$]){re.escape(name)}\s*\(", line))
    if len(calls) != 1:
        return None
    if "<" in line[calls[0].end():] or "/*" in line or "//" in line[calls[0].end():]:
        # type arguments (`new HashMap<String, Integer>()`), a comparison or a comment:
        # their commas are no argument's (gson's `fromJson(.., new TypeToken<Map<String,
        # Boolean>>() {})` was counted 3 and left out; a review)
        return None
    depth, commas, quote, escaped, empty = 0, 0, "", False, True
    for ch in line[calls[0].end() - 1:]:
        if quote:
            escaped, quote = (not escaped and ch == "\\"), ("" if ch == quote and not escaped else quote)
            continue
        if ch in _QUOTES:
            quote, empty = ch, False
        elif ch in "([{":
            depth += 1
            empty = empty and depth == 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return 0 if empty else commas + 1
        elif ch == "," and depth == 1:
            commas += 1
        elif not ch.isspace():
            empty = False
    return None
