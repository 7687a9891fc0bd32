"""The parse stage: one blob in, its symbols, calls and imports out (``symbols``).

Languages and their tree-sitter queries are data in ``registry`` and ``queries/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from tree_sitter import Node, Parser, Tree

from coderecalld.parse import cython, headers, imports, registry
from coderecalld.parse.extract import parsed_file
from coderecalld.parse.registry import language_for, supported_languages
from coderecalld.parse.text import check_utf8
from coderecalld.records import CallSite, ParsedFile, SymbolKind

__all__ = ["language_for", "supported_languages", "symbols"]


def symbols(blob: bytes, language: str, path: str = "") -> ParsedFile:
    """Parse one git blob of ``language`` into symbols, call sites and imports.

    Args:
        blob: the raw blob bytes; a UTF-8 BOM is allowed and counted in every offset.
        language: a language id from ``supported_languages()`` (see ``language_for``).
        path: the blob's repository path; it names a JS/TS file's anonymous default export
            (``export default (config) => {}`` in ``lib/resolveConfig.js`` is ``resolveConfig``,
            ``imports.default_name``), which without it is ``default``; a ``.pyx``, ``.pxd``
            or ``.pxi`` suffix reads a ``python`` blob as Cython (``cython.masked``).

    Returns:
        A ``ParsedFile`` whose symbols are ordered by ``start_byte``; byte offsets are
        over ``blob`` (end-exclusive), lines 1-based inclusive. Syntax errors do not
        raise: what tree-sitter recovered is returned with ``has_errors=True``.

    Raises:
        ParseError: ``blob`` is not valid UTF-8, or ``language`` is not supported.
    """
    spec = registry.spec_for(language)
    check_utf8(blob)
    if spec.name == "python" and path.lower().endswith(cython.EXTENSIONS):
        # parsed from a masked copy, same offsets: names and text are read from the blob
        parser, tree = _parse(spec, cython.masked(blob))
    else:
        parser, tree = _parse(spec, blob)
    if (spec.name == "c" and tree.root_node.has_error and path.lower().endswith(".h")
            and _CPP_ONLY.search(blob)):
        # A .h file is C or C++ (fmt's include/fmt/base.h: 2,023 syntax errors read as C);
        # C++ when it holds syntax only C++ has and that grammar reads it with fewer errors
        # (glibc's pthread.h has fewer as C++ too, by noise: a review). Its chunks say "cpp".
        cpp = registry.spec_for("cpp")
        cpp_parser, cpp_tree = _parse(cpp, blob)
        if _errors(cpp_tree.root_node) < _errors(tree.root_node):
            spec, parser, tree = cpp, cpp_parser, cpp_tree
    default = imports.default_name(path)
    aliases, local_imports = imports.scoped_aliases(blob, tree, spec, default)
    parsed = replace(parsed_file(blob, tree, spec, default),
                     import_aliases=aliases, local_imports=local_imports,
                     instances=imports.instances(blob, tree, spec))
    if spec.name in _CHAINING:
        parsed = _chains(parsed)
    if spec.name in _PIECEWISE:
        parsed = _constructor_members(parsed, blob)
    if spec.name not in PREPROCESSED:
        return parsed
    return _macro_calls(_without_keywords(parsed) if parsed.has_errors else parsed, blob)


#: Syntax only C++ has, at a line's start: a namespace, a template, a class with a body
#: or bases, an access specifier, ``using namespace``.
_CPP_ONLY = re.compile(rb"(?m)^[ \t]*(?:namespace[ \t]+\w+[ \t]*\{|template[ \t]*<|class[ \t]+\w+[^;()\n]*[{:]"
                       rb"|(?:public|private|protected)[ \t]*:|using[ \t]+namespace\b)")


def _parse(spec: registry.LanguageSpec, blob: bytes) -> tuple[Parser, Tree]:
    """``blob``'s parser and tree under ``spec``, with the repairs its language needs
    (``_first_branches``, ``_own_line_constructors``, ``_SCALA_MODIFIERS``). tree-sitter skips a leading BOM but
    still counts its 3 bytes in every position, so offsets stay over the raw blob and no
    node text contains U+FEFF."""
    parser = Parser(registry.language(spec.name))
    tree = parser.parse(blob)
    source = blob  # what the tree was parsed from: the blob, or a masked copy of it
    if spec.name in PREPROCESSED and tree.root_node.has_error and b"#" in blob:
        tree, source = _first_branches(parser, blob, tree)
    if spec.name in PREPROCESSED and tree.root_node.has_error:
        tree = _macros_blanked(parser, source, tree)
    elif spec.name == "kotlin" and tree.root_node.has_error and b"constructor" in blob:
        tree = _own_line_constructors(parser, blob, tree)
    elif spec.name == "swift" and tree.root_node.has_error and b"#if" in blob:
        tree = _swift_first_branches(parser, blob, tree)
    elif spec.name == "scala" and tree.root_node.has_error:
        tree = _fewer_errors(parser, tree, blob, _SCALA_MODIFIERS.sub(_as_annotation, blob))
    elif spec.name in _PIECEWISE and tree.root_node.has_error:
        tree = _broken_pieces_blanked(parser, blob, tree, spec)
    return parser, tree


def _constructor_members(parsed: ParsedFile, blob: bytes) -> ParsedFile:
    """A JS/TS class's members its constructor assigns (``this.use = (..) => {..}``,
    queries/javascript/stored.scm) named in the class: ``Hono.use``, a method, not
    ``Hono.constructor.use`` (hono's ``app.use(..)`` and ``app.on(..)`` had no definition,
    so ``callers Hono.use`` listed every ``use(..)``); the definitions nested in one follow.
    A member the class defines itself keeps its own name."""
    renamed: dict[str, str] = {}
    names = {s.qualified_name for s in parsed.symbols}
    for s in parsed.symbols:
        cls, _, ctor = s.parent.rpartition(".")
        if (ctor == "constructor" and cls and blob[s.start_byte:s.start_byte + 5] == b"this."
                and f"{cls}.{s.name}" not in names):
            renamed[s.qualified_name] = f"{cls}.{s.name}"
    if not renamed:
        return parsed

    def moved(name: str) -> str:
        for old, new in renamed.items():
            if name == old or name.startswith(old + "."):
                return new + name[len(old):]
        return name

    symbols = tuple(replace(s, qualified_name=moved(s.qualified_name), parent=moved(s.parent),
                            kind=SymbolKind.METHOD if s.qualified_name in renamed else s.kind)
                    for s in parsed.symbols)
    return replace(parsed, symbols=symbols)


#: Words of JavaScript and TypeScript no definition is named (a broken reading's
#: ``if (this.initApp)`` read as a function ``if``).
_JS_KEYWORDS = frozenset("""
break case catch class const continue debugger default delete do else export extends false
finally for function if import in instanceof let new null return super switch this throw true
try typeof var void while with yield await""".split())


#: Languages whose broken top-level declaration is blanked when its error swallows the
#: rest of the file (``_broken_pieces_blanked``).
_PIECEWISE = frozenset({"javascript", "typescript", "tsx"})
#: Lines one top-level ERROR node spans before its piece is blanked and the file read again.
PIECE_SWALLOWED_LINES = 20
#: Pieces blanked at most per file (each a parse of the file again).
PIECES_MAX = 8
#: A line opening a top-level piece: at column 0, neither a closing bracket (a generic
#: parameter list's ``>`` too) nor a continuation (``|``, ``&``, ``.``, ``,``, ``?``, ``:``)
#: nor a comment.
_PIECE_START = re.compile(rb"^(?![}\])\]>|&.,?:]|//|/\*|\*|\s|$)")


def _broken_pieces_blanked(parser: Parser, blob: bytes, tree: Tree, spec: registry.LanguageSpec) -> Tree:
    """The tree of ``blob`` with the top-level piece holding each swallowing error blanked
    (spaces; line breaks and byte offsets kept): a piece runs from a line at column 0
    (``_PIECE_START``) to the next; the piece of the file's first error is blanked if an
    erroneous node of ``PIECE_SWALLOWED_LINES`` lines or more ran past it (swallowed the
    next) or its declaration was read as several top-level nodes, errors among them; at
    most ``PIECES_MAX`` times, and the reading of the most definitions wins (hono's
    ``context.ts`` keeps its call-signature interface ``Get``, read in part, whose piece
    blanked would read one fewer). The TypeScript grammar reads no multi-line
    generic call signature in an interface (hono's ``CreateHandlersInterface``): its error
    swallowed the rest of ``helper/factory/index.ts``, whose ``Factory``, ``createFactory``
    and ``createMiddleware`` were lost and ``if``, ``return`` and ``const`` became
    functions. The broken declaration's own symbols are lost; the rest are its file's."""
    lines = blob.split(b"\n")
    starts = [i for i, line in enumerate(lines) if _PIECE_START.match(line)]
    blanked: set[int] = set()
    best, found = tree, -1  # the reading of the most definitions; counted once one is made
    for _ in range(PIECES_MAX):
        if not tree.root_node.has_error:
            break
        root = tree.root_node  # an ERROR itself when the grammar gave up on the whole file
        row = min((n for n in _error_nodes(root) if n != root), key=lambda n: n.start_byte,
                  default=root).start_point[0]
        first = max((i for i in starts if i <= row), default=0)
        end = min((i for i in starts if i > row and i not in blanked), default=len(lines))
        top = tree.root_node.children
        inside = [n for n in top if first <= n.start_point[0] < end and n.type != "comment"]
        swallowing = any(n.has_error and n.start_point[0] < end <= n.end_point[0]
                         and n.end_point[0] - n.start_point[0] + 1 >= PIECE_SWALLOWED_LINES for n in top)
        # or the piece's declaration read as several top-level nodes, errors among them
        # (hono's types.ts: `HandlerInterface` became 300 small errors, 34 declarations lost)
        shattered = len(inside) >= 2 and any(n.is_error for n in inside)
        if not (swallowing or shattered):
            break  # the error stays inside its declaration (a class with one bad line)
        blanked |= set(range(first, end))
        tree = parser.parse(b"\n".join(line.translate(_BLANK) if i in blanked else line
                                       for i, line in enumerate(lines)))
        # (one blanked piece may read worse than before, the next well: hono's three
        # call-signature interfaces in types.ts); a file whose error stays in its
        # declaration, most of them, is extracted once, by the caller
        if found < 0:
            found = _definitions(blob, best, spec)
        if (count := _definitions(blob, tree, spec)) > found:
            best, found = tree, count
    return best


def _definitions(blob: bytes, tree: Tree, spec: registry.LanguageSpec) -> int:
    """How many definitions ``tree`` reads from ``blob``, less those named as a keyword
    (a broken reading's ``if``, ``return``, ``const``)."""
    return sum(1 for s in parsed_file(blob, tree, spec).symbols if s.name not in _JS_KEYWORDS)


#: Modifiers the Scala grammar reads before no ``enum`` (``private[resilience] enum
#: CircuitBreakerState:``): two such enums made ox's ``CircuitBreaker.scala`` one syntax
#: error, its class and 10 more definitions lost. Blanking them would move the ``enum``
#: right, into the indented body above it; one annotation of the same length keeps its
#: column and is read (``_as_annotation``).
_SCALA_MODIFIERS = re.compile(
    rb"(?m)^([ \t]*)((?:(?:(?:private|protected)(?:[ \t]*\[[\w.]*\])?|final|sealed|abstract|open|implicit"
    rb"|@\w+(?:\([^()\n]*\))?)[ \t]+)+)(?=enum\b)")


def _as_annotation(match: re.Match[bytes]) -> bytes:
    """``match``'s modifiers (its second group) as one annotation of their length
    (``private[x] `` -> ``@_________ ``): offsets and columns kept."""
    modifiers = match.group(2)
    words = modifiers.rstrip()
    return match.group(1) + b"@" + b"_" * (len(words) - 1) + modifiers[len(words):]


#: A Swift conditional compilation line (``#if canImport(Security)``, ``#elseif``,
#: ``#else``, ``#endif``).
_SWIFT_CONDITIONAL = re.compile(rb"^[ \t]*#(if|elseif|else|endif)\b")


def _swift_first_branches(parser: Parser, blob: bytes, tree: Tree) -> Tree:
    """The tree of ``blob`` with its ``#if`` directives blanked, or its groups read as
    their first branch (later branches blanked too; spaces, line breaks and byte offsets
    kept), whichever has the fewest syntax errors if fewer than ``tree``'s (else
    ``tree``). The Swift grammar reads no ``#if`` among a type's members: Alamofire's
    ``Protected`` (a class of 40 lines) became one line and its methods top-level
    functions; 9 of its 43 source files had errors.
    Every branch is read first (directive lines alone blanked: a branch may hold the main
    platform's definition, as Alamofire's ``#else`` ``evaluate`` does); the first branch
    alone when that has fewer errors, its later branches' definitions then lost."""
    lines = blob.split(b"\n")
    directives: set[int] = set()
    later: set[int] = set()  # the lines of every branch after a group's first
    open_groups: list[int] = []  # per open #if: the first directive line after its first branch
    for i, line in enumerate(lines):
        match = _SWIFT_CONDITIONAL.match(line)
        if not match:
            continue
        directives.add(i)
        kind = match.group(1)
        if kind == b"if":
            open_groups.append(-1)
        elif open_groups:
            if kind in (b"elseif", b"else") and open_groups[-1] < 0:
                open_groups[-1] = i
            elif kind == b"endif":
                first_end = open_groups.pop()
                if first_end >= 0:
                    later.update(range(first_end, i))
    if not directives:
        return tree
    best, errors = tree, _errors(tree.root_node)
    for masking in (directives, directives | later):  # every branch kept first; then the first only
        masked = b"\n".join(line.translate(_BLANK) if i in masking else line for i, line in enumerate(lines))
        alternative = parser.parse(masked)
        if (found := _errors(alternative.root_node)) < errors:
            best, errors = alternative, found
    return best


#: Languages whose conditional compilation (``#if`` ... ``#else`` ... ``#endif``) may
#: split braces between branches, which no grammar of the language parses: jq's
#: ``jv_dump_term`` opens an ``else {`` under ``#ifdef USE_DECNUM`` and closes it under
#: the next one, and tree-sitter's recovery swallowed the rest of the file into it (13 of
#: jq's 576 functions lost, 3 nested in another).
PREPROCESSED = frozenset({"c", "cpp"})
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
_IN_INITIALIZER = re.compile(rb"^[ \t]*#[ \t]*(?:include|define|undef)\b")
_BRACE = re.compile(rb"(=\s*)?(\{)|\}")
_BLANK = bytes.maketrans(bytes(range(256)), b" " * 10 + b"\n" + b" " * 2 + b"\r" + b" " * 242)


def _first_branches(parser: Parser, blob: bytes, tree: Tree) -> tuple[Tree, bytes]:
    """The tree of ``blob`` with its conditionals read as their first branch compiled, as
    ctags reads C, when that has fewer syntax errors than ``tree`` (else ``tree``), and the
    bytes it was parsed from (``_macros_blanked`` blanks on top of them): the
    groups a branch of which opens or closes more braces than it closes or opens
    (``_masked``), which keeps a group whose branches each balance whole (its variants are
    all definitions: jq's three ``f_gmtime``); when one error still spans
    ``SWALLOWED_LINES``, every group, if that error then shrinks (a branch may continue a
    statement across its directive: jv_dtoa.c's ``#ifndef X`` / ``else if (...) {`` made
    one error of the whole file, its functions lost)."""
    lines = blob.split(b"\n")
    groups: list[list[int]] = []  # each group's directive line numbers, #if to #endif
    nested: list[list[int]] = []
    for i, line in enumerate(lines):
        match = _CONDITIONAL.match(line)
        if not match:
            continue
        kind = match.group(1)
        if kind.startswith(b"if"):
            nested.append([i])
        elif nested:
            nested[-1].append(i)
            if kind == b"endif":
                groups.append(nested.pop())
    code = _code_lines(lines)
    braces = [c.count(b"{") - c.count(b"}") for c in code]
    unbalanced = [marks for marks in groups
                  if any(sum(braces[start + 1:end]) for start, end in zip(marks, marks[1:]))]
    best, errors, source = tree, _errors(tree.root_node), blob
    masked = _masked(lines, code, unbalanced)
    if masked != blob:
        alternative = parser.parse(masked)
        found = _errors(alternative.root_node)
        if found < errors:
            best, errors, source = alternative, found, masked
    if errors and _swallowed(best.root_node) >= SWALLOWED_LINES:
        # one error holds a run of lines: a balanced group broke a statement too; every
        # group's first branch (its other branches' definitions lost) beats losing them all
        every = _masked(lines, code, groups)
        alternative = parser.parse(every)
        if _swallowed(alternative.root_node) < _swallowed(best.root_node):
            best, source = alternative, every
    return best, source


#: A macro name by convention: upper case, digits and at least one underscore
#: (``FMT_CONSTEXPR``, ``Q_OBJECT``), so no plain type like ``FILE`` or ``DWORD``.
_MACRO = rb"\b[A-Z][A-Z0-9]*_[A-Z0-9_]*\b"
#: Macros the grammar cannot read, each blanked by ``_macros_blanked``: one that is a
#: line of its own (``FMT_BEGIN_NAMESPACE``, ``FMT_PRAGMA_GCC(push_options)``,
#: ``Q_OBJECT``); one that stands before a declaration's next word (``FMT_CONSTEXPR auto
#: f()``, ``FMT_API void g()``; not a scope: ``IO_UTIL::read_all``); one after a parameter
#: list before a body or a trailing return type (``f() const FMT_NOEXCEPT {``; not a
#: declarator: ``typedef STACK_OF(X) NAMES;``); one that stands for ``constexpr`` (``if
#: FMT_CONSTEXPR20 (...)``).
_UNREAD_MACROS = re.compile(
    rb"(?m)^[ \t]*(" + _MACRO + rb"[ \t]*(?:\([^;{}\n]*\))?)[ \t]*\r?$"
    rb"|(?<![\w#.>:])(" + _MACRO + rb")(?=[ \t]*\r?\n?[ \t]*[A-Za-z_~])"
    rb"|\)(?:[ \t]+(?:const|volatile|override|final|noexcept|&&?))*[ \t]+(" + _MACRO + rb")"
    rb"(?=[ \t]*(?:\{|->|\r?$))"
    rb"|(?<=\bif[ \t])[ \t]*(" + _MACRO + rb")(?=[ \t]*\()")


def _macros_blanked(parser: Parser, source: bytes, tree: Tree) -> Tree:
    """The tree of ``source`` (a blob, or ``_first_branches``' masked copy of it) with the
    macros the grammar cannot read blanked (``_UNREAD_MACROS``; spaces, offsets kept), when
    that has fewer syntax errors than ``tree`` (else ``tree``). Left whole: a directive and
    its continued lines (a ``#define``'s last line blanked ran it into the next one: a
    review), a ``typedef``'s names, a line macro the next line opens a body for
    (``TEST_F(Suite, Name)`` / ``{``) or that ends an enumerator list (``PROTO_MAX`` /
    ``};``). fmt's headers open every declaration with one (``FMT_CONSTEXPR``,
    ``FMT_INLINE``, ``FMT_API``): 220 errors in include/fmt/base.h, its functions cut or
    lost. A namespace a macro opens (``FMT_BEGIN_NAMESPACE``) is not seen: its symbols are
    named without it."""
    out = bytearray(source)
    directive_lines = _directive_lines(source)
    for match in _UNREAD_MACROS.finditer(source):
        line_start = source.rfind(b"\n", 0, match.start()) + 1
        if line_start in directive_lines:
            continue
        before = source[line_start:match.start()]
        group = next(i for i in range(1, 5) if match.group(i) is not None)
        if group == 1 and not (_after_statement(source, line_start) and _before_statement(source, match.end())):
            continue  # a line of an expression (an enumerator's `| FFC_PRESET_GENERAL`)
        if group == 2 and re.search(rb"\btypedef\s+$", before):
            continue
        out[match.start(group):match.end(group)] = b" " * (match.end(group) - match.start(group))
    return _fewer_errors(parser, tree, source, bytes(out))


def _fewer_errors(parser: Parser, tree: Tree, source: bytes, repaired: bytes) -> Tree:
    """The tree of ``repaired`` (``source`` with text blanked) when it has fewer syntax
    errors than ``tree`` (``source``'s), else ``tree``; no parse when nothing was blanked."""
    if repaired == source:
        return tree
    alternative = parser.parse(repaired)
    return alternative if _errors(alternative.root_node) < _errors(tree.root_node) else tree


def _directive_lines(source: bytes) -> set[int]:
    """The start offsets of the lines of ``source``'s preprocessor directives, a
    directive's lines continued by a trailing backslash included."""
    out: set[int] = set()
    continued = False
    start = 0
    for line in source.split(b"\n"):
        if continued or line.lstrip().startswith(b"#"):
            out.add(start)
            continued = line.rstrip(b"\r").endswith(b"\\")
        start += len(line) + 1
    return out


_MACRO_LINE = re.compile(_MACRO + rb"[ \t]*(?:\([^;{}\n]*\))?")
_TRAILING_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/$")


def _after_statement(blob: bytes, line_start: int) -> bool:
    """Whether the line starting at ``line_start`` begins a statement or declaration: the
    previous non-blank line is a directive, a comment, a ``template <...>`` head or such a
    macro line, or ends a statement (``;``, ``{``, ``}``, a label's or access specifier's
    ``:``; a trailing comment aside: an enumerator's ``PROTO_TCP = 6, /* ... */`` ends
    with a comma); the file's first line does."""
    previous = _previous_line(blob, line_start)
    if previous.startswith((b"#", b"//", b"/*", b"*", b"template")):
        return True
    if b"//" in previous:
        previous = previous[:previous.find(b"//")].rstrip()  # `}  // namespace detail`
    previous = _TRAILING_BLOCK_COMMENT.sub(b"", previous).rstrip()
    return (not previous or previous.endswith((b";", b"{", b"}"))
            or (previous.endswith(b":") and not previous.endswith(b"::"))
            or _MACRO_LINE.fullmatch(previous) is not None)


def _before_statement(blob: bytes, end: int) -> bool:
    """Whether the next non-blank line after ``end`` (a line macro's end) starts no body
    for it (``{``: ``TEST_F(Suite, Name)`` is a function's head) and ends no list (``}``,
    ``,``: the last enumerator)."""
    after = _SPACES.match(blob, end).end()
    return blob[after:after + 1] not in (b"{", b"}", b",")


_SPACES = re.compile(rb"\s*")


def _previous_line(blob: bytes, pos: int) -> bytes:
    """The last non-blank line before ``pos``, stripped (``b""`` at the file's start). Reads
    back line by line, never the whole prefix: one call per macro of a large header."""
    while pos > 0:
        newline = blob.rfind(b"\n", 0, pos - 1)
        line = blob[newline + 1:pos].strip()
        if line:
            return line
        pos = newline + 1
    return b""


#: An error node spanning this many lines is a parse that lost the definitions in them
#: (``_first_branches``): jv_dtoa.c's was the whole file.
SWALLOWED_LINES = 100


def _swallowed(root: Node) -> int:
    """The most lines one ERROR node under ``root`` spans (0: none)."""
    return max((n.end_point[0] - n.start_point[0] + 1 for n in _error_nodes(root) if n.is_error), default=0)


def _masked(lines: list[bytes], code: list[bytes], groups: list[list[int]]) -> bytes:
    """``lines`` joined with the directive lines of ``groups`` and every branch of theirs
    after the first blanked (spaces; line breaks and byte offsets kept, so the symbols'
    texts and ranges are the blob's), and an ``#include``, ``#define`` or ``#undef``
    inside an initializer's braces too (jq's function table splices a header and defines
    a macro inside its initializer: no grammar parses a directive there)."""
    blank: set[int] = set()
    for marks in groups:
        blank.update(marks)
        blank.update(range(marks[1], marks[-1]))  # every branch after the first
    out = list(lines)
    opened: list[bool] = []  # the braces open in the lines kept: whether an initializer's
    for i, line in enumerate(lines):
        if i in blank or (any(opened) and _IN_INITIALIZER.match(line)):
            out[i] = _continued(lines, i, blank)
        elif not _LINKAGE.search(line):  # extern "C" { holds top-level code
            for brace in _BRACE.finditer(code[i]):
                if brace.group(2):
                    opened.append(bool(brace.group(1)))
                elif opened:
                    opened.pop()
    return b"\n".join(out)


def _code_lines(lines: list[bytes]) -> list[bytes]:
    """Each line's code: without comments, string and character literals and directives
    (a block comment may span lines; a directive too, by trailing backslashes: the ``{``
    of ``#define ASN1_ITEM_start(x) ... = {`` opens nothing where it stands)."""
    out: list[bytes] = []
    in_comment = directive = False
    for line in lines:
        if not in_comment and (directive or line.lstrip().startswith(b"#")):
            directive = line.rstrip(b"\r").endswith(b"\\")
            out.append(b"")
            continue
        code, pos = [], 0
        while pos < len(line):
            if in_comment:
                end = line.find(b"*/", pos)
                if end < 0:
                    break
                in_comment, pos = False, end + 2
                continue
            token = _C_TOKEN.search(line, pos)
            if token is None:
                code.append(line[pos:])
                break
            code.append(line[pos:token.start()])
            text, pos = token.group(), token.end()
            if text == b"/*":
                in_comment = True
            elif text == b"//":
                break
            else:
                code.append(b'""')  # a literal
        out.append(b"".join(code))
    return out


_LINKAGE = re.compile(rb'extern\s+"C(?:\+\+)?"\s*\{')
_C_TOKEN = re.compile(rb'/\*|//|"(?:\\.|[^"\\])*"?|\'(?:\\.|[^\'\\])*\'?')


def _continued(lines: list[bytes], i: int, blank: set[int]) -> bytes:
    """Line ``i`` blanked; a directive continued by a trailing backslash blanks its next
    lines too (added to ``blank``)."""
    j = i
    if lines[i].lstrip().startswith(b"#"):
        while lines[j].rstrip(b"\r").endswith(b"\\") and j + 1 < len(lines):
            j += 1
            blank.add(j)
    return lines[i].translate(_BLANK)


#: A Kotlin primary constructor written on its own line, after its class's name
#: (ktfmt's style: ``class EnumJsonAdapter<T : Enum<T>>`` / ``internal constructor(``):
#: modifiers and annotations (``@JvmOverloads`` may have a line of its own), the keyword,
#: then its parameters' ``(``.
_OWN_LINE_CONSTRUCTOR = re.compile(
    rb"(?m)^[ \t]*((?:(?:public|internal|private|protected)\s+|@[\w.]+(?:\([^)\n]*\))?\s+)*"
    rb"constructor[ \t]*\()")
#: A class head's line: modifiers and annotations, then ``class`` or ``object`` (not a
#: KDoc line that says "class", nor ``Foo::class``).
_CLASS_HEAD = re.compile(rb"^[ \t]*(?:(?:@[\w.]+(?:\([^)\n]*\))?|public|internal|private|protected|open|abstract"
                         rb"|sealed|data|inner|value|annotation|enum|final|expect|actual)[ \t]+)*(?:class|object)\b")
#: A parenthesis, or a Kotlin string or character literal (whose parentheses are none).
_PARENS_OUTSIDE_STRINGS = re.compile(rb'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*'
                                     rb'|/\*[\s\S]*?\*/|[()]')
#: Bytes a primary constructor's parameters may span (moshi's longest, with its KDoc: ~1 KB).
CONSTRUCTOR_MAX_BYTES = 8_000


def _own_line_constructors(parser: Parser, blob: bytes, tree: Tree) -> Tree:
    """The tree of ``blob`` with each primary constructor that starts its own line blanked,
    modifiers to closing ``)`` (spaces; line breaks and byte offsets kept), when that has
    fewer syntax errors than ``tree`` (else ``tree``). The Kotlin grammar reads no line
    break before a primary constructor: moshi's ``EnumJsonAdapter`` became a class of one
    line, and its methods and companion functions top-level functions (7 of moshi's 86
    files). A constructor whose previous non-blank line is no class head (``class`` or
    ``object``, not ending in ``{``, ``}`` or ``;``) is a secondary one, left as is. The
    class's signature is read from the blob, so it still shows the constructor; the calls
    in its parameters' defaults are lost. Comments and strings are skipped when matching
    its parentheses, and one that does not close within ``CONSTRUCTOR_MAX_BYTES`` is left
    whole (a ``(`` in a comment had blanked the rest of the file: a review)."""
    out = bytearray(blob)
    for match in _OWN_LINE_CONSTRUCTOR.finditer(blob):
        head = _previous_line(blob, match.start())
        if not _CLASS_HEAD.match(head) or head.endswith((b"{", b"}", b";")):
            continue
        depth, end = 0, -1
        for token in _PARENS_OUTSIDE_STRINGS.finditer(blob, match.end() - 1, match.end() + CONSTRUCTOR_MAX_BYTES):
            depth += {b"(": 1, b")": -1}.get(token.group(), 0)
            if depth == 0:
                end = token.end()
                break
        if end < 0:
            continue  # unclosed within the bound: blank nothing rather than the rest of the file
        out[match.start(1):end] = blob[match.start(1):end].translate(_BLANK)
    return _fewer_errors(parser, tree, blob, bytes(out))


def _errors(root: Node) -> int:
    """The count of ERROR and missing nodes under ``root``."""
    return sum(1 for _ in _error_nodes(root))


def _error_nodes(root: Node) -> Iterator[Node]:
    """The ERROR and missing nodes under ``root`` (subtrees without errors skipped)."""
    todo = [root]
    while todo:
        node = todo.pop()
        if node.is_error or node.is_missing:
            yield node
        todo.extend(c for c in node.children if c.has_error or c.is_missing)


#: Names no C or C++ function has: a statement tree-sitter's error recovery read as a
#: definition (jq's ``else if (e >= -Ten_pmax) {`` after an ``#endif``: a "function"
#: ``jvp_strtod.if``).
_STATEMENT_WORDS = frozenset({"if", "else", "for", "while", "do", "switch", "case", "return",
                              "goto", "sizeof"})


def _without_keywords(parsed: ParsedFile) -> ParsedFile:
    """``parsed`` without symbols named by a statement keyword (``_STATEMENT_WORDS``);
    their call sites move to the symbol they sit in (by ``parent``), else to the module."""
    bogus = [s for s in parsed.symbols if s.name in _STATEMENT_WORDS]
    if not bogus:
        return parsed
    moved: dict[str, list] = {}
    for s in bogus:
        moved.setdefault(s.parent, []).extend(s.call_sites)
    kept = tuple(replace(s, call_sites=tuple(sorted((*s.call_sites, *moved.get(s.qualified_name, ())),
                                                    key=lambda c: c.line)))
                 if s.qualified_name in moved else s
                 for s in parsed.symbols if s.name not in _STATEMENT_WORDS)
    held = {s.qualified_name for s in kept}
    orphaned = [c for parent, sites in moved.items() if parent not in held for c in sites]
    return replace(parsed, symbols=kept, module_call_sites=tuple(
        sorted((*parsed.module_call_sites, *orphaned), key=lambda c: c.line)))


#: A call in a macro's body: a name, then ``(``, not a member's (``p->f(``, ``s.f(``).
_MACRO_CALL = re.compile(r"(?<![\w.>$])([A-Za-z_]\w*)\s*\(")
_DEFINE_HEAD = re.compile(r"#\s*define\s+(\w+)\(([^)]*)\)")
#: Words followed by ``(`` that call nothing (C and C++ keywords, operators, attributes).
_NOT_CALLS = frozenset({"if", "while", "for", "switch", "return", "sizeof", "defined", "typeof",
                        "__typeof__", "alignof", "_Alignof", "decltype", "static_assert",
                        "_Static_assert", "__attribute__", "__declspec", "do", "case", "else",
                        "_Generic", "offsetof", "va_arg", "__builtin_expect"})


#: Languages whose constructors chain with a keyword (``super(..)``, ``this(..)``, C#'s
#: ``: base(..)``, PHP's ``new self(..)``): ``_chains`` names those calls after the class.
_CHAINING = frozenset({"java", "csharp", "kotlin", "javascript", "typescript", "tsx", "ruby", "php"})
_OWN = frozenset({"this", "self", "static"})
_BASE = frozenset({"super", "base", "parent"})


def _chains(parsed: ParsedFile) -> ParsedFile:
    """``parsed`` with each constructor's chaining call named after the class it
    constructs, as a construction is (``callers`` of a constructor lists its class's
    constructions): ``super(x)`` / C#'s ``: base(x)`` / a bare Ruby ``super`` in
    ``initialize`` after the base the class head names (``headers.constructed_base``; Ruby
    as ``Base.new``), ``this(1)`` (Java, C#, Kotlin) after the class itself; PHP's ``new
    self(..)`` / ``new static(..)`` in any method after its class, ``new parent(..)``
    after the base. A Kotlin class's header and secondary constructors are the class's
    own calls. A keyword whose class is unknown (no base written) stays as written."""
    language = parsed.language
    types = {s.qualified_name: s for s in parsed.symbols if s.kind in _TYPES}
    changed = False
    out = []
    for sym in parsed.symbols:
        cls = sym if sym.kind in _TYPES else types.get(sym.parent)
        if cls is None or not any(c.name in _OWN or c.name in _BASE for c in sym.call_sites):
            out.append(sym)
            continue
        ctor = sym is cls if language == "kotlin" else headers.is_constructor(sym.name, sym.parent, language)
        base = headers.constructed_base(cls.signature, language)
        sites = []
        for c in sym.call_sites:
            name = c.name
            if language == "php" or ctor:
                name = cls.name if c.name in _OWN else base if c.name in _BASE and base else c.name
            if language == "ruby" and name != c.name:
                name = name.replace("::", ".") + ".new"
            sites.append(replace(c, name=name) if name != c.name else c)
        changed = True
        out.append(replace(sym, call_sites=tuple(sites)))
    return replace(parsed, symbols=tuple(out)) if changed else parsed


_TYPES = frozenset({SymbolKind.CLASS, SymbolKind.STRUCT})


def _macro_calls(parsed: ParsedFile, blob: bytes) -> ParsedFile:
    """``parsed`` with the calls a function-like macro's body makes as its call sites (the
    grammar keeps a body as text): jq's ``#define token(p, ch)`` calls ``parse_token``,
    its only caller, which ``callers`` answered with none. The macro's parameters and
    its own name are no calls."""
    changed = False
    symbols = []
    for sym in parsed.symbols:
        head = _DEFINE_HEAD.match(sym.signature) if sym.signature.startswith("#") else None
        if head is None or sym.call_sites:
            symbols.append(sym)
            continue
        text = blob[sym.start_byte:sym.end_byte].decode("utf-8", "replace")
        body_at = _DEFINE_HEAD.match(text.lstrip())
        if body_at is None:
            symbols.append(sym)
            continue
        skip = len(text) - len(text.lstrip()) + body_at.end()
        params = {p.strip() for p in head.group(2).split(",")}
        sites = tuple(CallSite(m.group(1), sym.start_line + text.count("\n", 0, m.start()))
                      for m in _MACRO_CALL.finditer(text, skip)
                      if m.group(1) not in _NOT_CALLS and m.group(1) not in params
                      and m.group(1) != head.group(1))
        if sites:
            changed = True
            sym = replace(sym, call_sites=sites)
        symbols.append(sym)
    return replace(parsed, symbols=tuple(symbols)) if changed else parsed
