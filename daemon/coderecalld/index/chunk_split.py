"""Where an oversized symbol may be cut into parts: only where a statement of its body starts.

``part_starts`` gets the symbol's lines (whole lines, from the start of its first line) and
returns the 0-based rows where parts 2, 3, ... begin. Cut points are found per language:

* Python: the tokenizer's logical lines (so never inside a bracket, a string or a
  backslash continuation), less those continuing a compound statement (``else``, ``elif``,
  ``except``, ``finally``) or following a decorator;
* anything else: a small lexer tracks brackets, strings and comments; a line can start a part
  when it is directly inside a ``{}`` block (``BRACE_LANGUAGES``; elsewhere: outside every
  bracket and indented past the first line),
  does not close or continue something (``}``, ``else``, ``.method()``), and the line before it
  does not end in ``,``, an operator or an open bracket, nor is an annotation.

Comment lines right above a cut go with the statement below them. The packer prefers the
shallowest cuts: a part ends at the last body-level statement that keeps it within budget, and
only a body-level statement bigger than the budget is cut at its own nested statements.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable

#: A Python logical line starting with one of these continues the statement above it.
_PY_CONTINUATIONS = frozenset({"else", "elif", "except", "finally"})
_CLOSERS = re.compile(r"^(?:[)\]}.?:]|&&|\|\||(?:else|catch|finally|except|elif|where|end|elsif|rescue"
                      r"|ensure|when|fi|done|esac|then|do)\b)")
_OPEN_ENDS = (",", "(", "[", "=", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">", "?", ":", ".", "\\")
_BRACKETS = {"(": ")", "[": "]", "{": "}"}
#: Languages whose bodies are ``{}`` blocks; the others (Ruby's ``def ... end``) are cut by
#: indentation, outside every bracket.
BRACE_LANGUAGES = frozenset({"bash", "c", "cpp", "csharp", "go", "java", "javascript", "kotlin",
                             "php", "rust", "scala", "swift", "tsx", "typescript"})
#: Languages where ``#`` starts a line comment (in Rust and C it starts an attribute or a directive).
HASH_COMMENTS = frozenset({"python", "ruby", "bash"})


def part_starts(lines: list[str], language: str, max_lines: int, max_chars: int) -> list[int]:
    """Rows (0-based, into ``lines``) where parts 2, 3, ... of a symbol begin; ``[]`` when
    the symbol fits ``max_lines`` lines and ``max_chars`` characters or has no cut point."""
    sizes = [len(line) + 1 for line in lines]
    if len(lines) <= max_lines and sum(sizes) <= max_chars:
        return []
    cuts = _python_cuts(lines) if language == "python" else None
    if cuts is None:
        cuts = _brace_cuts(lines, language)
    if cuts:  # the first part keeps the header and at least the body's first statement
        del cuts[min(cuts)]
    return _pack(sizes, _with_comments(lines, cuts, language), max_lines, max_chars)


def _pack(sizes: list[int], cuts: dict[int, tuple[int, ...]], max_lines: int, max_chars: int) -> list[int]:
    prefix = [0]
    for size in sizes:
        prefix.append(prefix[-1] + size)
    rows = sorted(cuts)
    out: list[int] = []
    start = 0

    def fits(a: int, b: int) -> bool:
        return b - a <= max_lines and prefix[b] - prefix[a] <= max_chars

    while not fits(start, len(sizes)):
        window = [r for r in rows if r > start and fits(start, r)]
        if window:
            best = min(cuts[r] for r in window)
            start = max(r for r in window if cuts[r] == best)
        else:  # one statement bigger than the budget: never cut inside it
            start = next((r for r in rows if r > start), -1)
            if start < 0:
                break
        out.append(start)
    return _without_short_tail(out, rows, cuts, len(sizes), fits, prefix, max_chars)


#: A last part shorter than this many lines is no part of its own (a function's closing
#: ``return x`` and ``}``: cobra's ``getCompletions#part3`` was two lines, ranked third for
#: a question; 61 of the standard library's 1,534 parts were 1-3 lines).
TAIL_MIN_LINES = 4


def _without_short_tail(out: list[int], rows: list[int], cuts: dict[int, tuple[int, ...]], total: int,
                        fits: Callable[[int, int], bool], prefix: list[int], max_chars: int) -> list[int]:
    """``out`` (the packer's part starts) with a last part of fewer than ``TAIL_MIN_LINES``
    lines started at an earlier cut that leaves both parts in budget and at least that
    long (the shallowest, then the latest), else joined to the part before it when the two
    keep to ``max_chars`` and a quarter characters (a part may then run a few lines and a
    quarter of its characters over budget: the model reads its first 2,000 characters, the
    lexical side its first 20,000)."""
    if not out or total - out[-1] >= TAIL_MIN_LINES:
        return out
    before = out[-2] if len(out) > 1 else 0
    moved = [r for r in rows if before + TAIL_MIN_LINES <= r < out[-1] and total - r >= TAIL_MIN_LINES
             and fits(r, total)]
    if moved:
        best = min(cuts[r] for r in moved)
        return [*out[:-1], max(r for r in moved if cuts[r] == best)]
    if prefix[total] - prefix[before] <= max_chars + max_chars // 4:
        return out[:-1]
    return out


def _with_comments(lines: list[str], cuts: dict[int, tuple[int, ...]],
                   language: str) -> dict[int, tuple[int, ...]]:
    """Move each cut up over the comment lines directly above it (no blank line between)."""
    marker = "#" if language in HASH_COMMENTS else "//"
    moved: dict[int, tuple[int, ...]] = {}
    floor = 0
    for row in sorted(cuts):
        top = row
        while top - 1 > floor and lines[top - 1].strip().startswith(marker) and (top - 1) not in cuts:
            top -= 1
        moved[top] = cuts[row]
        floor = row
    return moved


def _python_cuts(lines: list[str]) -> dict[int, tuple[int, ...]] | None:
    """Logical-line starts after the first line, keyed by row, valued by indentation;
    ``None`` when the tokenizer rejects the text."""
    cuts: dict[int, tuple[int, ...]] = {}
    at_start, previous = True, ""
    base = len(lines[0]) - len(lines[0].lstrip())
    skip = {tokenize.INDENT, tokenize.DEDENT, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER}
    try:
        for tok in tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline):
            if tok.type == tokenize.NEWLINE:
                at_start = True
            elif tok.type not in skip and at_start:
                at_start = False
                row, col = tok.start[0] - 1, tok.start[1]
                if row > 0 and col > base and previous != "@" and tok.string not in _PY_CONTINUATIONS:
                    cuts[row] = (col,)
                previous = tok.string
    except (tokenize.TokenError, SyntaxError):
        return None
    return cuts


def _brace_cuts(lines: list[str], language: str) -> dict[int, tuple[int, ...]]:
    """Rows directly inside a ``{}`` block that can start a statement, valued by
    (brace depth, indentation)."""
    braces = language in BRACE_LANGUAGES
    base = len(lines[0]) - len(lines[0].lstrip())
    lexer = _Lexer(language)
    cuts: dict[int, tuple[int, ...]] = {}
    previous = ""
    for row, line in enumerate(lines):
        stripped = line.strip()
        state_ok = not lexer.in_comment and not lexer.in_string and (
            not lexer.stack or lexer.stack[-1] == "{")
        depth = lexer.stack.count("{")
        indent = len(line) - len(line.lstrip())
        inside = depth >= 1 if braces else indent > base and not lexer.stack
        if (row > 0 and stripped and state_ok and inside and not _CLOSERS.match(stripped)
                and not stripped.startswith(("//", "/*", "*", lexer.hash))
                and not previous.endswith(_OPEN_ENDS)
                and not previous.startswith("@")):
            cuts[row] = (depth, indent)
        lexer.feed(line)
        if stripped and not stripped.startswith(("//", "/*", "*", lexer.hash)) and not lexer.in_comment:
            previous = _code_part(stripped)
    return cuts


def _code_part(stripped: str) -> str:
    """The line without a trailing ``//`` comment (roughly: good enough to see its last token)."""
    at = stripped.find(" //")
    return stripped[:at].rstrip() if at >= 0 else stripped


class _Lexer:
    """Brackets, strings and comments of C-family text, one line at a time."""

    def __init__(self, language: str) -> None:
        self.stack: list[str] = []
        self.in_comment = False
        self.in_string = ""  # the open quote of a string that spans lines (`...` only)
        self.rust = language == "rust"
        self.hash = "#" if language in HASH_COMMENTS else "//"  # "//" again: no extra marker

    def feed(self, line: str) -> None:
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if self.in_comment:
                end = line.find("*/", i)
                if end < 0:
                    return
                self.in_comment, i = False, end + 2
            elif self.in_string:
                i = self._skip_string(line, i, self.in_string)
            elif line.startswith("//", i) or line.startswith(self.hash, i):
                return
            elif line.startswith("/*", i):
                self.in_comment, i = True, i + 2
            elif ch == "'" and self.rust:
                i = self._rust_quote(line, i)
            elif ch in "\"'`":
                self.in_string = ch
                i = self._skip_string(line, i + 1, ch)
                if self.in_string and ch != "`":
                    self.in_string = ""  # an unterminated one-line string ends with its line
            elif ch in _BRACKETS:
                self.stack.append(ch)
                i += 1
            else:
                if ch in ")]}" and self.stack and _BRACKETS[self.stack[-1]] == ch:
                    self.stack.pop()
                i += 1

    def _skip_string(self, line: str, i: int, quote: str) -> int:
        while i < len(line):
            if line[i] == "\\":
                i += 2
            elif line[i] == quote:
                self.in_string = ""
                return i + 1
            else:
                i += 1
        return i

    @staticmethod
    def _rust_quote(line: str, i: int) -> int:
        """Skip a char literal (``'a'``, ``'\\n'``, ``'{'``); a lifetime (``'a``) is one char."""
        if line.startswith("\\", i + 1):
            end = line.find("'", i + 2)
            return end + 1 if end > 0 else i + 1
        return i + 3 if line.startswith("'", i + 2) else i + 1
