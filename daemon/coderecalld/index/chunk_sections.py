"""Where the sections of a text file begin: headings of Markdown and reStructuredText, ``[table]``
headers of TOML, top-level keys of YAML.

``headings(path, text)`` returns ``Heading`` marks in line order; a section runs from its
mark's line to the line before the next mark. Other formats have no marks (line windows).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath


@dataclass(frozen=True, slots=True)
class Heading:
    """A section start: 1-based ``line``, the heading's ``name`` and its ``qualified`` path
    (Markdown ``Install/From source``, TOML ``tool.poetry``)."""

    line: int
    name: str
    qualified: str


# CommonMark: up to 3 spaces, 1-6 '#', then a space or the end; an optional closing run of '#'.
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# reStructuredText adornment: one punctuation character repeated (docutils' list).
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")
_TOML_TABLE = re.compile(r"^\[\[?[ \t]*([A-Za-z0-9_\-.\"' \t]+?)[ \t]*\]\]?[ \t]*(?:#.*)?$")
_YAML_KEY = re.compile(r"""^("[^"]*"|'[^']*'|[^\s#\-?:\[\]{},&*!|>'"%@`][^#]*?)[ \t]*:(?:[ \t]|$)""")
_YAML_LEADING = re.compile(r"^(?:#|---|\.\.\.|%)")

MARKDOWN = frozenset({".md", ".markdown", ".mdown", ".mkd"})


def headings(path: str, text: str) -> list[Heading]:
    """Section starts of ``text`` (the decoded blob, BOM removed) chosen by ``path``'s suffix."""
    suffix = PurePosixPath(path).suffix.lower()
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if suffix in MARKDOWN:
        return _nest(path, _markdown(lines))
    if suffix == ".rst":
        return _nest(path, _rst(lines))
    if suffix == ".toml":
        return _keyed(lines, _TOML_TABLE, re.compile(r"^#"), _toml_strings(lines))
    if suffix in (".yaml", ".yml"):
        return _keyed(lines, _YAML_KEY, _YAML_LEADING, set())
    return []


def _nest(path: str, marks: list[tuple[int, int, str]]) -> list[Heading]:
    """(line, level, title) -> Headings qualified by their enclosing headings."""
    stack: list[tuple[int, str]] = []
    out = []
    for line, level, title in marks:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        out.append(Heading(line, title, "/".join(t for _, t in stack)))
    return out


def _markdown(lines: list[str]) -> list[tuple[int, int, str]]:
    marks: list[tuple[int, int, str]] = []
    fence = ""
    start = _front_matter_end(lines)
    for no in range(start, len(lines)):
        line = lines[no]
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence) \
                    and not line.strip()[len(opened.group(1)):].strip():
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        atx = _ATX.match(line)
        if atx:
            marks.append((no + 1, len(atx.group(1)), (atx.group(2) or "").strip()))
        elif _SETEXT.match(line) and no > start and _paragraph(lines[no - 1]) \
                and not (marks and marks[-1][0] == no):
            marks.append((no, 1 if line.strip()[0] == "=" else 2, lines[no - 1].strip()))
    return marks


def _paragraph(line: str) -> bool:
    """A line that can be the text of a setext heading (not blank, a list item, a quote...)."""
    stripped = line.strip()
    return bool(stripped) and not line.startswith("    ") and not _ATX.match(line) \
        and not re.match(r"^(?:[-*+>|]|\d+[.)])(?:\s|$)", stripped) and not _SETEXT.match(line)


def _front_matter_end(lines: list[str]) -> int:
    """Index of the first line after a ``---`` YAML front matter block (0 if none)."""
    if lines and lines[0].strip() == "---":
        for no in range(1, len(lines)):
            if lines[no].strip() in ("---", "..."):
                return no + 1
    return 0


def _rst(lines: list[str]) -> list[tuple[int, int, str]]:
    """Titles underlined (and optionally overlined) by a punctuation run at least as long;
    levels follow the order in which adornment styles first appear (docutils)."""
    styles: list[tuple[str, bool]] = []
    marks: list[tuple[int, int, str]] = []
    for no in range(1, len(lines)):
        under, title = lines[no], lines[no - 1]
        if not _RST_ADORNMENT.match(under) or not title.strip() or title[0].isspace() \
                or _RST_ADORNMENT.match(title) or len(under.rstrip()) < len(title.strip()):
            continue
        over = no >= 2 and lines[no - 2].rstrip() == under.rstrip()
        style = (under[0], over)
        if style not in styles:
            styles.append(style)
        marks.append((no - 1 if over else no, styles.index(style) + 1, title.strip()))
    return marks


def _toml_strings(lines: list[str]) -> set[int]:
    """Rows inside multi-line strings (``\"\"\"`` or ``'''``), where a ``[x]`` is text."""
    inside, quote, rows = False, "", set()
    for no, line in enumerate(lines):
        if inside:
            rows.add(no)
        for q in ('"""', "'''"):
            if (not inside or quote == q) and line.count(q) % 2:
                inside, quote = not inside, q
    return rows


def _keyed(lines: list[str], header: re.Pattern[str], leading: re.Pattern[str],
           skip: set[int]) -> list[Heading]:
    """One mark per ``header`` line at column 0, moved up over comment lines right above it."""
    out = []
    for no, line in enumerate(lines):
        found = None if no in skip else header.match(line)
        if not found:
            continue
        name = re.sub(r"[ \t]*\.[ \t]*", ".", found.group(1).strip()).strip("\"'")
        top = no
        while top > 0 and leading.match(lines[top - 1]) and top - 1 not in skip and \
                (not out or top - 1 >= out[-1].line):
            top -= 1
        out.append(Heading(top + 1, name, name))
    return out
