"""Chunks: one per symbol (oversized ones also in parts), one per module for its top-level
code, and sections of text files.

A chunk's ``text`` is the exact source it covers (decoded from the raw blob bytes, never by
slicing decoded text with byte offsets); ``embed_text`` is what the dense model sees: a short
header (a method's class, the signature, the docstring), then the source, cut to ``max_chars``. Lines end at ``\\n`` only (records.py), so a lone ``\\r`` or a form
feed never shifts a line number.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections import Counter, defaultdict
from dataclasses import replace
from itertools import accumulate
from pathlib import PurePosixPath

from coderecalld.index import chunk_split
from coderecalld.index.chunk_sections import Heading, headings
from coderecalld.records import VALUE_KINDS, Chunk, ParsedFile, Symbol, SymbolKind

#: Characters of source in ``embed_text``. all-MiniLM-L6-v2 reads 256 tokens; code runs
#: ~3-4 characters per token, so 2,000 characters covers the model's whole window.
DEFAULT_MAX_CHARS = 2000
#: Lines per window chunk of a text file (README, JSON, Dockerfile, ...).
WINDOW_LINES = 40
#: A symbol or section longer than this many lines (or ``DEFAULT_MAX_CHUNK_CHARS``
#: characters) is oversized: symbols get parts, sections line windows (``index.max_chunk_lines``).
DEFAULT_MAX_LINES = 150
DEFAULT_MAX_CHUNK_CHARS = 8000
_BOM = b"\xef\xbb\xbf"
_CLASS_KINDS = frozenset({SymbolKind.CLASS, SymbolKind.STRUCT, SymbolKind.INTERFACE,
                          SymbolKind.TRAIT, SymbolKind.ENUM})


#: Characters of a chunk's text the sparse tokenizer reads (``points.sparse_text``):
#: bounded so a huge symbol costs O(1).
LEXICAL_HEAD_CHARS = 20_000
#: Characters of a long file's top-level code past its first ``LEXICAL_HEAD_CHARS`` that
#: its module chunk's lexical side reads as well: that code is in no other chunk, and
#: search could not find it at all (seaborn's function docs are module-level
#: ``histplot.__doc__ = ...`` assignments, 60,000-90,000 characters into files 80 of its 86
#: release notes' gold files are; docs/retrieval.md "Module-level code past the head").
MODULE_TAIL_CHARS = 60_000


def chunks(repo: str, path: str, blob: bytes, parsed: ParsedFile, max_chars: int = DEFAULT_MAX_CHARS,
           max_lines: int = DEFAULT_MAX_LINES, max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
           module_name: str = "") -> list[Chunk]:
    """Chunks of one parsed source file: each symbol (and the parts of an oversized one),
    then one module chunk, named ``module_name`` (the import name the repo layout gives,
    ``requests.adapters`` for ``src/requests/adapters.py``), else after the path
    (``module_path_name``).

    A file with nothing outside its symbols but blank lines (an empty ``__init__.py``, a
    whitespace-only file, one function and nothing else) has no module chunk: it would be a
    blank document that length normalisation floats up (conformance case 37). One whose
    only other content is imports or a package clause keeps a module chunk for lookups and
    re-exports (``exports``; ``export default f`` counts), with an empty ``embed_text``:
    nothing to search (``points.searchable``).

    A symbol whose own code (less its nested symbols, which have chunks of their own, and
    less blank and comment lines) is longer than ``max_lines`` lines or ``max_chunk_chars``
    bytes keeps its chunk (its whole range, so exact lookups answer the whole symbol; its
    ``embed_text`` holds the first part) and gets parts ``name#part2``, ``name#part3``, ...
    cut only where a statement of its body starts (``chunk_split``). A class that is long
    only because of its methods is not split: parts would repeat the methods' chunks.
    Ordinals number chunks that share a qualified name (overloads, redefinitions) in source
    order, so every chunk gets a distinct point id. A class with members has a
    ``lexical_text``, its outline (``_outline``).

    A constant or variable (``records.VALUE_KINDS``) has one chunk, never parts, with an
    empty ``embed_text``: found by name (``symbols``, ``card``, the definitions a query
    names), never searched itself; its lines stay in its module's chunk and its class's
    (neither counts it as a nested symbol), so search reads them there as before.
    """
    by_name = {s.qualified_name: s for s in parsed.symbols}
    tests = test_symbols(parsed)
    starts = line_starts(blob)
    children: dict[str, list[Symbol]] = defaultdict(list)
    for s in parsed.symbols:
        if s.kind not in VALUE_KINDS:  # a constant's line is its owner's own code
            children[s.parent].append(s)
    seen: Counter[str] = Counter()
    out = []
    docs = assigned_docs(blob) if parsed.language == "python" else {}
    for sym in parsed.symbols:
        context = _class_context(by_name.get(sym.parent)) if sym.parent else ""
        oversized = sym.kind not in VALUE_KINDS and _oversized(
            blob, starts, sym, children[sym.qualified_name], max_lines, max_chunk_chars)
        budget = (max_chars, max_lines, max_chunk_chars) if oversized else (max_chars, 0, 0)
        wrapper = _wrapper(blob, starts, sym, children[sym.qualified_name])
        own = (_outline(blob, starts, sym, children[sym.qualified_name])
               if sym.kind in _CLASS_KINDS and children[sym.qualified_name] else "")
        for c in _symbol_chunks(repo, path, blob, starts, parsed, sym, context, budget):
            if wrapper or sym.kind in VALUE_KINDS:
                # kept for lookups, not searched: a wrapper's text is its children's, a
                # constant's line is in its module's or class's chunk
                c = replace(c, embed_text="")
            if own and c.qualified_name == sym.qualified_name:
                c = replace(c, lexical_text=own)
            if sym.qualified_name in docs and c.qualified_name == sym.qualified_name:
                read = c.lexical_text or c.text[:LEXICAL_HEAD_CHARS]
                c = replace(c, lexical_text=f"{read}\n{docs[sym.qualified_name]}")
            if (sym.qualified_name, sym.start_byte) in tests:
                c = replace(c, test_code=True)
            out.append(replace(c, ordinal=seen[c.qualified_name]) if seen[c.qualified_name] else c)
            seen[c.qualified_name] += 1
    module = _module_chunk(repo, path, blob, parsed, max_chars, module_name)
    if module is not None:
        # The module may share its name with a symbol (def broken() in broken.py): ordinals
        # count over every chunk of the file so point ids never collide.
        out.append(replace(module, ordinal=seen[module.qualified_name]))
    if declares_only(parsed):
        out = [replace(c, declares=True) for c in out]
    return out


#: Languages whose files may declare shapes only (``declares_only``).
_DECLARING_LANGUAGES = frozenset({"typescript", "tsx"})
#: Symbol kinds that declare a shape; constants are allowed beside them.
_SHAPE_KINDS = frozenset({SymbolKind.INTERFACE, SymbolKind.TYPE_ALIAS})


def declares_only(parsed: ParsedFile) -> bool:
    """Whether a file only declares shapes: a TypeScript file whose symbols are interfaces
    and type aliases (constants too), at least one of them, and no function, method or
    class (ky's ``types/options.ts``: its documented options matched every issue's words
    and led ``locate``, the code reading them below it)."""
    kinds = {s.kind for s in parsed.symbols}
    return (parsed.language in _DECLARING_LANGUAGES and bool(kinds & _SHAPE_KINDS)
            and kinds <= _SHAPE_KINDS | VALUE_KINDS)


#: Characters of a docstring assigned to a definition (``assigned_docs``) its chunk reads.
ASSIGNED_DOC_MAX_CHARS = 20_000


def assigned_docs(blob: bytes) -> dict[str, str]:
    """Docstrings a Python module assigns to its definitions at its top level, by qualified
    name: the source of each ``name.__doc__ = ...`` or ``name.__doc__ += ...`` statement
    (``Class.method.__doc__`` too), joined in order, at most ``ASSIGNED_DOC_MAX_CHARS``
    characters each. Read by ``ast`` only when the file says ``__doc__`` ({} when it is no
    Python ``ast`` parses). A library that builds its docs from shared parts (seaborn's
    ``histplot.__doc__ = dedent(...).format(**_param_docs)``, 80 of its 86 release
    notes' gold files) had those words in its module chunk only, past its lexical head:
    its functions matched a question by their names alone (``chunks`` adds the docs to the
    definition's ``lexical_text``; docs/retrieval.md "Module-level code past the head")."""
    if b"__doc__" not in blob:
        return {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes in the file's strings
            tree = ast.parse(blob)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    lines = blob.decode("utf-8", errors="replace").split("\n")
    out: dict[str, str] = {}
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AugAssign) else [])
        for target in targets:
            name = _dotted(target.value) if (isinstance(target, ast.Attribute)
                                             and target.attr == "__doc__") else ""
            if name and node.end_lineno is not None:
                text = "\n".join(lines[node.lineno - 1:node.end_lineno])
                out[name] = f"{out[name]}\n{text}" if name in out else text
    return {name: text[:ASSIGNED_DOC_MAX_CHARS] for name, text in out.items()}


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` for a chain of names and attributes, else ``""``. A loop: a chain the
    parser accepts may be deeper than the interpreter's recursion limit (1,100 parts)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


#: A Rust attribute that makes an item test code: ``#[cfg(test)]`` and a condition
#: requiring or allowing ``test`` (``cfg(all(test, feature = "x"))``, ``cfg(any(test,
#: fuzzing))``; not ``cfg(not(test))``), or a test function's (``#[test]``,
#: ``#[tokio::test]``, ``#[rstest]``, ``#[test_case(..)]``).
_RUST_TEST_ATTRIBUTE = re.compile(
    r"^#\[\s*(?:cfg\(\s*(?:(?:all|any)\(\s*)?test\b|(?:\w+::)*(?:test|rstest|test_case)\b)")


def test_symbols(parsed: ParsedFile) -> frozenset[tuple[str, int]]:
    """``(qualified name, start byte)`` of ``parsed``'s symbols that are tests in a file of
    other code: in Rust, an item carrying a test attribute (``_RUST_TEST_ATTRIBUTE``) and
    every item inside its lines. A crate's unit tests live in its source files
    (``#[cfg(test)] mod tests``); by its path such a file is source, and its tests ranked
    above the code for a question (axum: 22 of a newcomer's 120 hits, first on three
    questions) and were missing under ``--role test``. By position, not name: the
    ``#[cfg(not(test))]`` twin of a ``#[cfg(test)]`` item has its name and is the real code
    (a review). Other languages keep tests in files of their own: none."""
    if parsed.language != "rust":
        return frozenset()
    marked = [(s.start_byte, s.end_byte) for s in parsed.symbols
              if any(_RUST_TEST_ATTRIBUTE.match(d) for d in s.decorators)]
    return frozenset((s.qualified_name, s.start_byte) for s in parsed.symbols
                     if any(start <= s.start_byte and s.end_byte <= end for start, end in marked))


def _line(blob: bytes, starts: list[int], no: int) -> bytes:
    """Line ``no`` (1-based) of ``blob`` with its ``\\n`` (``starts``: ``line_starts``)."""
    return blob[starts[no - 1]:starts[no] if no < len(starts) else len(blob)]


def line_starts(blob: bytes) -> list[int]:
    """Byte offset where each line starts (a trailing ``\\n`` does not start a line)."""
    starts = [0, *accumulate(len(line) + 1 for line in blob.split(b"\n"))]
    starts.pop()  # one past the end
    if len(starts) > 1 and starts[-1] == len(blob):  # after a final newline
        starts.pop()
    return starts


def _wrapper(blob: bytes, starts: list[int], sym: Symbol, children: list[Symbol]) -> bool:
    """Whether ``sym`` is a module or namespace that only wraps other definitions (Ruby's
    ``module Sinatra`` ... ``end`` around a file's classes, a Rust ``mod`` of functions):
    at most ``WRAPPER_LINES`` lines of its own code (its header and end) besides its
    children's, blank and comment lines. Such a chunk's text is its children's, which
    have chunks of their own: sinatra's 30 ``Sinatra`` and 20 ``Rack`` wrappers took 4 of
    5 places of a search for a message one of their classes prints."""
    if sym.kind is not SymbolKind.MODULE or not children:
        return False
    covered: set[int] = set()
    for child in children:
        covered.update(range(child.start_line, child.end_line + 1))
    own = 0
    for no in range(sym.start_line, sym.end_line + 1):
        if no in covered:
            continue
        code = _line(blob, starts, no).strip()
        if code and not code.startswith((b"#", b"//", b"/*", b"*")):
            own += 1
            if own > WRAPPER_LINES:
                return False
    return True


#: Lines of a wrapping module's own code: ``module X`` and ``end`` (``_wrapper``).
WRAPPER_LINES = 2


def _outline(blob: bytes, starts: list[int], sym: Symbol, children: list[Symbol]) -> str:
    """A class's lines less its members' bodies, each member kept by its lines down to the
    first naming it (its decorators and its ``def``): what the lexical side reads of a class
    chunk (``Chunk.lexical_text``). The whole class text made a class score every word its
    methods say, so the class came before the method a question or a message was about
    (jinja's ``FileSystemLoader``, ``Macro``). swe-lite-dev (``issue_lab.py --snapshot``,
    89 issues) locate file@1/5/10 and function@10 62.9/82.0/85.4, 56.4 -> 61.8/80.9/86.5,
    57.7; search function@10 52.6 -> 53.8 (members by their first line alone: 82.0 file@5,
    55.1 search; no members: 80.9, 56.4 function@10: one or two issues either way)."""
    covered: set[int] = set()
    for child in children:
        # a member is kept by its lines down to the one naming it (its decorators, then
        # its ``def``: ``@property`` alone named nothing)
        named = next((no for no in range(child.start_line, child.end_line + 1)
                      if child.name.encode() in _line(blob, starts, no)),
                     child.start_line)
        covered.update(range(named + 1, child.end_line + 1))
    lines = []
    for no in range(sym.start_line, sym.end_line + 1):
        if no in covered:
            continue
        lines.append(_line(blob, starts, no).decode("utf-8", errors="replace").rstrip("\n"))
    return "\n".join(lines)


def _oversized(blob: bytes, starts: list[int], sym: Symbol, children: list[Symbol],
               max_lines: int, max_chars: int) -> bool:
    """Whether the symbol's own code -- its lines less its children's, blank lines and comment
    lines -- is over ``max_lines`` lines or ``max_chars`` bytes."""
    if sym.end_line - sym.start_line < max_lines and sym.end_byte - sym.start_byte <= max_chars:
        return False
    covered: set[int] = set()
    for child in children:
        if sym.start_byte <= child.start_byte < sym.end_byte:
            covered.update(range(child.start_line, child.end_line + 1))
    lines = size = 0
    for no in range(sym.start_line, sym.end_line + 1):
        line = _line(blob, starts, no)
        code = line.strip()
        if no not in covered and code and not code.startswith((b"#", b"//", b"/*", b"*")):
            lines, size = lines + 1, size + len(line)
    return lines > max_lines or size > max_chars


def _class_context(parent: Symbol | None) -> str:
    """``class Invoice(Base): A customer invoice.`` for a method's embed text, or ``""``."""
    if parent is None or parent.kind not in _CLASS_KINDS:
        return ""
    doc = parent.docstring.strip().split("\n", 1)[0].strip()
    return f"{parent.signature}: {doc}" if doc else parent.signature


def _symbol_chunks(repo: str, path: str, blob: bytes, starts: list[int], parsed: ParsedFile,
                   sym: Symbol, context: str, budget: tuple[int, int, int]) -> list[Chunk]:
    """The symbol's chunk, then its parts when ``budget`` (max_chars, max_lines,
    max_chunk_chars) has a line budget (0: not oversized)."""
    max_chars, max_lines, max_chunk_chars = budget
    cuts: list[int] = []
    if max_lines:
        full = blob[starts[sym.start_line - 1]:sym.end_byte].decode("utf-8", errors="replace")
        cuts = chunk_split.part_starts(full.split("\n"), parsed.language, max_lines, max_chunk_chars)
    bounds = [sym.start_byte, *(starts[sym.start_line - 1 + row] for row in cuts), sym.end_byte]
    text = blob[sym.start_byte:sym.end_byte].decode("utf-8", errors="replace")
    head = blob[bounds[0]:bounds[1]].decode("utf-8", errors="replace") if cuts else text
    header = _header(path, sym.kind, sym.qualified_name, sym.signature, sym.docstring, context)
    whole = Chunk(
        repo=repo, path=path, language=parsed.language, kind=sym.kind, name=sym.name,
        qualified_name=sym.qualified_name, parent=sym.parent, signature=sym.signature,
        docstring=sym.docstring, start_line=sym.start_line, end_line=sym.end_line,
        start_byte=sym.start_byte, end_byte=sym.end_byte, text=text,
        embed_text=(header + head)[:max_chars], call_sites=sym.call_sites, references=sym.references,
        imports=parsed.imports)
    out = [whole]
    for number, row in enumerate(cuts, 2):
        start, end = bounds[number - 1], bounds[number]
        part_text = blob[start:end].decode("utf-8", errors="replace")
        suffix = f"#part{number}"
        end_line = sym.end_line if number == len(bounds) - 1 else sym.start_line + cuts[number - 1] - 1
        part_header = _header(path, sym.kind, sym.qualified_name + suffix, sym.signature, "", context)
        # Call sites stay on the whole symbol: callers name it, never one of its parts.
        out.append(replace(whole, name=sym.name + suffix, qualified_name=sym.qualified_name + suffix,
                           docstring="", start_line=sym.start_line + row, end_line=end_line,
                           start_byte=start, end_byte=end, text=part_text,
                           embed_text=(part_header + part_text)[:max_chars], call_sites=(),
                           references=()))
    return out


#: A string literal in any language's quotes (``prose_share``): triple-quoted (Python's,
#: a docstring too), double-quoted (across lines too: Rust's and C's multi-line help
#: text), backquoted (a JavaScript template, Go's raw string), single-quoted on one line;
#: one the text cuts runs to its end. Possessive, so linear in the text.
_LITERAL = re.compile(r'"""[\s\S]*?(?:"""|\Z)|\'\'\'[\s\S]*?(?:\'\'\'|\Z)|"(?:[^"\\]|\\[\s\S])*+(?:"|\Z)'
                      r"|`(?:[^`\\]|\\[\s\S])*+(?:`|\Z)|'(?:[^'\\\n]|\\.)*+'")


def prose_share(text: str) -> float:
    """The share of ``text``'s characters inside string literals (``_LITERAL``), 0..1; 0.0
    for no text. Read without a parse: a quote in a comment can pair wrongly, a share of
    noise. A help text (ripgrep's ``flag_json``: 0.93), a message catalogue or an entry
    point documented at length (loguru's ``Logger.add``: a 45 kB docstring) is mostly
    prose; code doing the work is mostly not (0.0-0.3)."""
    if not text:
        return 0.0
    return sum(len(m.group()) for m in _LITERAL.finditer(text)) / len(text)


def module_path_name(path: str) -> str:
    """Dotted module name of a path: ``pkg/sub/mod.py`` -> ``pkg.sub.mod``."""
    pure = PurePosixPath(path)
    parts = [*pure.parent.parts, pure.stem] if pure.parent.parts else [pure.stem]
    return ".".join(p for p in parts if p not in ("", "."))


#: Languages whose docstrings are inside the definition (Python's): the comments above one
#: are the module's.
_DOCS_INSIDE = frozenset({"python"})
#: A line comment's line (``// ..``, ``# ..``, ``-- ..``).
_COMMENT_LINE = re.compile(r"^\s*(?://|#|--|;)")
#: Lines a doc comment's block is read up for at most (``_doc_comment_lines``).
DOC_COMMENT_MAX_LINES = 200


def _doc_comment_lines(lines: list[str], start_line: int) -> range:
    """The lines of the comment right above line ``start_line`` (1-based): a block comment
    ending on the line above (``/** .. */``, its lines with or without ``*``), else the
    line comments above it: a definition's doc comment (Javadoc, GoDoc, JSDoc), which its
    chunk's docstring holds. jsoup's module chunks held a file's imports and its class's
    Javadoc, and came near their class in search (``src.main.java.org.jsoup.nodes.Document``
    beside ``Document``)."""
    above = start_line - 1
    if above >= 1 and lines[above - 1].rstrip().endswith("*/"):
        first = above
        while first > max(1, above - DOC_COMMENT_MAX_LINES) and "/*" not in lines[first - 1]:
            first -= 1
        return range(first, start_line) if "/*" in lines[first - 1] else range(start_line, start_line)
    first = start_line
    while first > 1 and _COMMENT_LINE.match(lines[first - 2]):
        first -= 1
    return range(first, start_line)


def _module_chunk(repo: str, path: str, blob: bytes, parsed: ParsedFile, max_chars: int,
                  module_name: str = "") -> Chunk | None:
    """The whole file as one chunk; its embed text keeps only the docstring and top-level
    code. Symbols are left out entirely: they have chunks of their own, and an outline of
    them made module chunks outrank the very symbols a query was about. That includes symbols
    with a parent declared elsewhere (Go methods, Rust impl items, C++ ``A::f``), which are
    top-level code in the file. ``None`` when the file says nothing outside its symbols
    (see ``chunks``). The lexical side reads the whole file up to ``LEXICAL_HEAD_CHARS``;
    a longer file's module chunk has a ``lexical_text``: that head, then the top-level code
    past it (at most ``MODULE_TAIL_CHARS``)."""
    start = 3 if blob.startswith(_BOM) else 0
    lines = blob[start:].decode("utf-8", errors="replace").split("\n")
    covered: set[int] = set()
    for sym in parsed.symbols:
        if sym.kind not in VALUE_KINDS:
            covered.update(range(sym.start_line, sym.end_line + 1))
            if sym.docstring and parsed.language not in _DOCS_INSIDE:
                covered.update(_doc_comment_lines(lines, sym.start_line))
    top = [(no, line.removesuffix("\r")) for no, line in enumerate(lines, 1) if no not in covered]
    top_level = "\n".join(line for _, line in top)
    text = blob[start:].decode("utf-8", errors="replace")
    lexical = ""
    if len(text) > LEXICAL_HEAD_CHARS:
        # the top-level code past the head is in no other chunk: read it too (``MODULE_TAIL_CHARS``)
        cut = text.count("\n", 0, LEXICAL_HEAD_CHARS) + 1  # the line the head ends in
        tail = "\n".join(line for no, line in top if no >= cut)
        lexical = f"{text[:LEXICAL_HEAD_CHARS]}\n{tail[:MODULE_TAIL_CHARS]}"
    # a call on an import's line is the import (Ruby's ``require``), not code the file runs
    says = parsed.module_docstring.strip() or any(
        c.line not in parsed.boilerplate_lines for c in parsed.module_call_sites) or any(
        line.strip() for no, line in top if no not in parsed.boilerplate_lines)
    if not says and not parsed.imports and not parsed.import_aliases:
        return None  # no import table either (``export default f`` is one), so no re-exports
    name = module_name or module_path_name(path)
    header = _header(path, SymbolKind.MODULE, name, "", parsed.module_docstring)
    return Chunk(
        repo=repo, path=path, language=parsed.language, kind=SymbolKind.MODULE,
        # The dotted module name, not the bare stem: a lookup of function `old_a` must not
        # also return module `legacy/old_a.py`; `legacy.old_a` finds the module.
        name=name, qualified_name=name, parent="", signature="",
        docstring=parsed.module_docstring, start_line=1, end_line=max(parsed.line_count, 1),
        start_byte=start, end_byte=len(blob), text=text,
        embed_text=(header + top_level)[:max_chars] if says else "",
        call_sites=parsed.module_call_sites, references=parsed.module_references, imports=parsed.imports,
        lexical_text=lexical)


# --- text files ------------------------------------------------------------------------


def sections(repo: str, path: str, blob: bytes, language: str = "text",
             max_lines: int = DEFAULT_MAX_LINES, max_chars: int = DEFAULT_MAX_CHARS,
             max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS) -> list[Chunk]:
    """Sections of a text file (kind ``section``), each a run of whole lines.

    Markdown and reStructuredText split at headings (``qualified_name`` is
    ``path#Heading/Subheading``), TOML at ``[table]`` headers (``path#tool.poetry``), YAML at
    top-level keys (``path#services``); comments right above a TOML/YAML header belong to it.
    Lines before the first heading, and other text files, become ``WINDOW_LINES`` windows
    (``path:41-80``); so does a section longer than ``max_lines`` lines or ``max_chunk_chars``
    characters (``path#Install:41-80``). Each chunk's ``text`` equals its lines joined with
    their endings and ``blob[start_byte:end_byte]`` decoded (a BOM is never inside).
    """
    starts = line_starts(blob) if blob else []
    marks = headings(path, blob.removeprefix(_BOM).decode("utf-8", errors="replace"))
    spans: list[tuple[int, int, Heading | None]] = []
    first = marks[0].line if marks else len(starts) + 1
    if first > 1:
        spans.append((1, first - 1, None))
    for mark, after in zip(marks, [*marks[1:], None]):
        spans.append((mark.line, after.line - 1 if after else len(starts), mark))
    out: list[Chunk] = []
    for first_line, last_line, mark in spans:
        size = _span_bytes(blob, starts, first_line, last_line)
        if mark and last_line - first_line < max_lines and size <= max_chunk_chars:
            out += _line_chunks(repo, path, blob, starts, language, [(first_line, last_line)],
                                mark.name, f"{path}#{mark.qualified}", max_chars)
            continue
        windows = [(a, min(a + WINDOW_LINES - 1, last_line))
                   for a in range(first_line, last_line + 1, WINDOW_LINES)]
        base = f"{path}#{mark.qualified}" if mark else path
        out += _line_chunks(repo, path, blob, starts, language, windows,
                            mark.name if mark else PurePosixPath(path).name, base, max_chars, ranged=True)
    seen: Counter[str] = Counter()
    numbered = []
    for c in out:
        numbered.append(replace(c, ordinal=seen[c.qualified_name]))
        seen[c.qualified_name] += 1
    return numbered


def text_chunks(repo: str, path: str, blob: bytes, language: str = "text",
                window_lines: int = WINDOW_LINES, max_chars: int = DEFAULT_MAX_CHARS) -> list[Chunk]:
    """Fixed windows of ``window_lines`` lines over a UTF-8 text file (kind ``section``).

    Each window's ``text`` equals ``lines[start_line-1:end_line]`` joined with their line
    endings, and its byte range covers exactly those lines.
    """
    starts = line_starts(blob) if blob else []
    windows = [(a, min(a + window_lines - 1, len(starts)))
               for a in range(1, len(starts) + 1, window_lines)]
    return _line_chunks(repo, path, blob, starts, language, windows, PurePosixPath(path).name, path,
                        max_chars, ranged=True)


def _span_bytes(blob: bytes, starts: list[int], first_line: int, last_line: int) -> int:
    return (starts[last_line] if last_line < len(starts) else len(blob)) - starts[first_line - 1]


def _line_chunks(repo: str, path: str, blob: bytes, starts: list[int], language: str,
                 spans: list[tuple[int, int]], name: str, qualified: str, max_chars: int,
                 ranged: bool = False) -> list[Chunk]:
    """One ``section`` chunk per (first, last) line span; whitespace-only spans are dropped.
    ``ranged`` appends ``:first-last`` to ``qualified``; the embed text starts with
    ``qualified`` (windows: the path)."""
    out = []
    for first, last in spans:
        start_byte = starts[first - 1] + (3 if first == 1 and blob.startswith(_BOM) else 0)
        end_byte = starts[last] if last < len(starts) else len(blob)
        text = blob[start_byte:end_byte].decode("utf-8", errors="replace")
        if not text.strip():
            continue
        title = qualified if "#" in qualified else path
        out.append(Chunk(
            repo=repo, path=path, language=language, kind=SymbolKind.SECTION, name=name,
            qualified_name=f"{qualified}:{first}-{last}" if ranged else qualified, parent="",
            signature="", docstring="", start_line=first, end_line=last, start_byte=start_byte,
            end_byte=end_byte, text=text, embed_text=(f"{title}\n{text}")[:max_chars]))
    return out


def _header(path: str, kind: str, qualified_name: str, signature: str, docstring: str,
            context: str = "") -> str:
    """The lines before a symbol's source in its embed text: the class context of a method,
    the signature (``kind qualified_name`` when there is none) and the docstring.

    A module chunk's header is its docstring alone. The path (and the module name made
    from it) is left out on purpose: a renamed or moved file then re-uses every vector,
    its module chunk's included (DESIGN.md decision 3), and on CoSQA dev
    dense nDCG@10 went from 58.1 to 58.8 without the path and ``kind name`` lines
    (docs/retrieval.md). The sparse vector still reads the path (``points.sparse_text``).
    """
    if kind == SymbolKind.MODULE:
        parts = [docstring]
    else:
        parts = [context, signature or f"{kind} {qualified_name}", docstring]
    return "\n".join(p for p in parts if p) + "\n"
