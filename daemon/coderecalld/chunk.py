"""Chunks: one per symbol, one per module for its top-level code, line windows for text files.

A chunk's ``text`` is the exact source it covers (decoded from the raw blob bytes, never by
slicing decoded text with byte offsets); ``embed_text`` is what the models see: a short
header naming the path, kind, qualified name, signature and docstring, then the source,
cut to ``max_chars``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import PurePosixPath

from coderecalld.records import Chunk, ParsedFile, Symbol, SymbolKind

#: Characters of source in ``embed_text``. all-MiniLM-L6-v2 reads 256 tokens; code runs
#: ~3-4 characters per token, so 2,000 characters covers the model's whole window.
DEFAULT_MAX_CHARS = 2000
#: Lines per window chunk of a text file (README, TOML, YAML, ...).
WINDOW_LINES = 40


def chunks(repo: str, path: str, blob: bytes, parsed: ParsedFile,
           max_chars: int = DEFAULT_MAX_CHARS) -> list[Chunk]:
    """Chunks of one parsed source file: its symbols, then one module chunk.

    Ordinals number chunks that share a qualified name (overloads, redefinitions) in
    source order, so every chunk gets a distinct point id.
    """
    seen: Counter[str] = Counter()
    out = []
    for sym in parsed.symbols:
        out.append(_symbol_chunk(repo, path, blob, parsed, sym, seen[sym.qualified_name], max_chars))
        seen[sym.qualified_name] += 1
    module = _module_chunk(repo, path, blob, parsed, max_chars)
    # The module may share its name with a symbol (def broken() in broken.py): ordinals
    # count over every chunk of the file so point ids never collide.
    out.append(replace(module, ordinal=seen[module.qualified_name]))
    return out


def _symbol_chunk(repo: str, path: str, blob: bytes, parsed: ParsedFile, sym: Symbol,
                  ordinal: int, max_chars: int) -> Chunk:
    text = blob[sym.start_byte:sym.end_byte].decode("utf-8", errors="replace")
    header = _header(path, sym.kind, sym.qualified_name, sym.signature, sym.docstring)
    return Chunk(
        repo=repo, path=path, language=parsed.language, kind=sym.kind, name=sym.name,
        qualified_name=sym.qualified_name, parent=sym.parent, signature=sym.signature,
        docstring=sym.docstring, start_line=sym.start_line, end_line=sym.end_line,
        start_byte=sym.start_byte, end_byte=sym.end_byte, text=text,
        embed_text=(header + text)[:max_chars], ordinal=ordinal, call_sites=sym.call_sites,
        imports=parsed.imports)


def module_name(path: str) -> str:
    """Dotted module name of a path: ``pkg/sub/mod.py`` -> ``pkg.sub.mod``."""
    pure = PurePosixPath(path)
    parts = [*pure.parent.parts, pure.stem] if pure.parent.parts else [pure.stem]
    return ".".join(p for p in parts if p not in ("", "."))


def _module_chunk(repo: str, path: str, blob: bytes, parsed: ParsedFile, max_chars: int) -> Chunk:
    """The whole file as one chunk; its embed text keeps only the docstring and top-level
    code. Top-level symbols are left out entirely: they have chunks of their own, and an
    outline of them made module chunks outrank the very symbols a query was about."""
    lines = blob.decode("utf-8", errors="replace").removeprefix("\ufeff").splitlines()
    covered: set[int] = set()
    for sym in parsed.symbols:
        if not sym.parent:
            covered.update(range(sym.start_line, sym.end_line + 1))
    top_level = "\n".join(line for no, line in enumerate(lines, 1) if no not in covered)
    name = module_name(path)
    header = _header(path, SymbolKind.MODULE, name, "", parsed.module_docstring)
    start = 3 if blob.startswith(b"\xef\xbb\xbf") else 0
    return Chunk(
        repo=repo, path=path, language=parsed.language, kind=SymbolKind.MODULE,
        # The dotted module name, not the bare stem: a lookup of function `old_a` must not
        # also return module `legacy/old_a.py`; `legacy.old_a` finds the module.
        name=name, qualified_name=name, parent="", signature="",
        docstring=parsed.module_docstring, start_line=1, end_line=max(parsed.line_count, 1),
        start_byte=start, end_byte=len(blob), text=blob[start:].decode("utf-8", errors="replace"),
        embed_text=(header + top_level)[:max_chars], call_sites=parsed.module_call_sites,
        imports=parsed.imports)


def text_chunks(repo: str, path: str, blob: bytes, language: str = "text",
                window_lines: int = WINDOW_LINES, max_chars: int = DEFAULT_MAX_CHARS) -> list[Chunk]:
    """Fixed windows of ``window_lines`` lines over a UTF-8 text file (kind ``section``).

    Each window's ``text`` equals ``lines[start_line-1:end_line]`` joined with their line
    endings, and its byte range covers exactly those lines.
    """
    raw_lines = blob.splitlines(keepends=True)
    out: list[Chunk] = []
    offset = 0
    for first in range(0, len(raw_lines), window_lines):
        window = raw_lines[first:first + window_lines]
        size = sum(len(line) for line in window)
        start_byte = offset + (3 if first == 0 and blob.startswith(b"\xef\xbb\xbf") else 0)
        text = blob[start_byte:offset + size].decode("utf-8", errors="replace")
        offset += size
        if not text.strip():
            continue
        start_line, end_line = first + 1, first + len(window)
        qualified = f"{path}:{start_line}-{end_line}"
        out.append(Chunk(
            repo=repo, path=path, language=language, kind=SymbolKind.SECTION,
            name=PurePosixPath(path).name, qualified_name=qualified, parent="", signature="",
            docstring="", start_line=start_line, end_line=end_line, start_byte=start_byte,
            end_byte=offset, text=text, embed_text=(f"{path}\n" + text)[:max_chars]))
    return out


def _header(path: str, kind: str, qualified_name: str, signature: str, docstring: str) -> str:
    title = f"{kind} {qualified_name}"
    parts = [path, title, signature if signature != title else "", docstring]
    return "\n".join(p for p in parts if p) + "\n"
