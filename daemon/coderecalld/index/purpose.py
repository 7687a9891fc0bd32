"""A repository's purpose: one line, at most ``PURPOSE_MAX_CHARS`` characters, saying what it is for.

Sources, first non-empty wins (``purpose``):

1. The project's own one-line description in a root manifest of the indexed tree:
   ``package.json`` ``description``, ``pyproject.toml`` ``[project].description`` or
   ``[tool.poetry].description``, ``Cargo.toml`` ``[package].description`` (or
   ``[workspace.package]``), ``setup.cfg`` ``[metadata].description``. With several, the one
   of the repo's most common language goes first. A malformed or oversized manifest is
   logged (``index.manifest_unreadable``) and passed over.
2. The README's best prose paragraph (``readme_purpose``): badges, images, HTML, tables,
   headings, lists, link-only lines, code and reST directives are not prose; announcement
   banners, sponsor notes, blockquotes and emphasis-only lines only serve when nothing better
   is near the top.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from coderecalld import logs

#: Characters of a purpose line.
PURPOSE_MAX_CHARS = 200
#: Bytes of a manifest parsed; a larger one is passed over (a truncated JSON/TOML would not parse).
MANIFEST_MAX_BYTES = 256 * 1024
#: Bytes of a README parsed for its purpose (axios opens with ~10 KB of sponsor HTML).
README_MAX_BYTES = 64 * 1024
#: Prose paragraphs of a README weighed; the best of these is its purpose.
README_PARAGRAPHS = 6
READMES = ("README.md", "README.rst", "README.txt", "README", "readme.md")
#: Descriptions that tools write before anyone describes the project (``uv init``'s default).
_PLACEHOLDERS = frozenset({"add your description here", "todo", "tbd", "description"})


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a root packaging file says about its project: ``path`` repo-relative,
    ``languages`` the language ids it packages, ``name`` and ``description`` (``""`` if absent)."""

    path: str
    languages: tuple[str, ...]
    name: str = ""
    description: str = ""


def purpose(present: Collection[str], read: Callable[[str], bytes],
            languages: Sequence[str] = (), repo: str = "") -> str:
    """The purpose of a tree whose file paths are ``present``; ``read(path)`` returns a blob's
    bytes; ``languages`` are language ids, most files first (they order the manifests);
    ``repo`` names the repo in log lines. ``""`` when nothing describes it."""
    found = manifests(present, read, languages, repo)
    described = next((m.description for m in found if m.description), "")
    if described:
        return clip(described)
    names = [m.name for m in found if m.name]
    for name in READMES:
        if name in present:
            line = readme_purpose(read(name)[:README_MAX_BYTES].decode("utf-8", errors="replace"), names)
            if line:
                return line
    return ""


def manifests(present: Collection[str], read: Callable[[str], bytes],
              languages: Sequence[str] = (), repo: str = "") -> list[Manifest]:
    """The root manifests among ``present``, parsed, those of the earliest language in
    ``languages`` first (then this module's order). Never raises on a manifest's content."""
    found = []
    for path, packaged, parse in _MANIFESTS:
        if path not in present:
            continue
        blob = read(path)
        if len(blob) > MANIFEST_MAX_BYTES:
            logs.warn("index.manifest_unreadable", repo=repo, path=path,
                      error=f"{len(blob)} bytes, over {MANIFEST_MAX_BYTES}")
            continue
        try:
            name, description = parse(blob)
        except (ValueError, TypeError, configparser.Error, RecursionError) as exc:
            # A malformed manifest describes nothing; the README still may.
            logs.warn("index.manifest_unreadable", repo=repo, path=path, error=str(exc)[:200])
            continue
        found.append(Manifest(path, packaged, name, "" if description.lower() in _PLACEHOLDERS else description))
    rank = {lang: i for i, lang in enumerate(languages)}
    return sorted(found, key=lambda m: min(rank.get(lang, len(rank)) for lang in m.languages))


def _text(value: object) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _table(data: dict, *keys: str) -> dict:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _toml(blob: bytes) -> dict:
    return tomllib.loads(blob.decode("utf-8-sig", errors="replace"))


def _pyproject(blob: bytes) -> tuple[str, str]:
    data = _toml(blob)
    project, poetry = _table(data, "project"), _table(data, "tool", "poetry")
    return (_text(project.get("name")) or _text(poetry.get("name")),
            _text(project.get("description")) or _text(poetry.get("description")))


def _cargo(blob: bytes) -> tuple[str, str]:
    data = _toml(blob)
    package, shared = _table(data, "package"), _table(data, "workspace", "package")
    return _text(package.get("name")), _text(package.get("description")) or _text(shared.get("description"))


def cargo_crate(blob: bytes) -> str:
    """The crate name a ``Cargo.toml`` gives its code: its ``[lib]`` table's ``name``, else
    its ``[package]``'s, as written (``-`` not yet ``_``); ``""`` when it names none or is no
    TOML (cargo refuses such a manifest)."""
    try:
        data = _toml(blob)
    except ValueError:  # tomllib.TOMLDecodeError
        return ""
    return _text(_table(data, "lib").get("name")) or _text(_table(data, "package").get("name"))


def _setup_cfg(blob: bytes) -> tuple[str, str]:
    cfg = configparser.ConfigParser(interpolation=None)
    cfg.read_string(blob.decode("utf-8", errors="replace"))
    return _text(cfg.get("metadata", "name", fallback="")), _text(cfg.get("metadata", "description", fallback=""))


def _package_json(blob: bytes) -> tuple[str, str]:
    data = json.loads(blob.decode("utf-8-sig", errors="replace"))
    if not isinstance(data, dict):
        raise TypeError("not a JSON object")
    return _text(data.get("name")).rsplit("/", 1)[-1], _text(data.get("description"))


#: (root path, language ids it packages, parser -> (name, description)), in default order.
_MANIFESTS: tuple[tuple[str, tuple[str, ...], Callable[[bytes], tuple[str, str]]], ...] = (
    ("package.json", ("javascript", "typescript"), _package_json),
    ("pyproject.toml", ("python",), _pyproject),
    ("Cargo.toml", ("rust",), _cargo),
    ("setup.cfg", ("python",), _setup_cfg),
)


def clip(text: str, max_chars: int = PURPOSE_MAX_CHARS) -> str:
    """``text`` on one line, at most ``max_chars`` characters: a longer one is cut at the
    last word boundary that leaves room for ``…`` (mid-word only for a single huge word)."""
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    head = text[: max_chars - 1]
    if text[max_chars - 1] != " " and " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(" ,;:-") + "…"


# --- README ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Paragraph:
    """One prose paragraph of a README: ``text`` plain (markup removed, one line), ``raw``
    as written (lines joined by spaces), ``quoted`` when a blockquote, ``heading`` the plain
    text of the heading it sits under (``""`` above any, or after a thematic break)."""

    text: str
    raw: str
    quoted: bool = False
    heading: str = ""


_NEWS = re.compile(
    r"\b(excited|pleased|happy|proud|thrilled|glad) to (announce|share|introduce)|\bannounc(ing|ement)"
    r"|\b(is|are) now (available|out|live)\b|\bnew (major )?(release|version)\b|\brelease (of|notes)\b"
    r"|\breleased?\b[^.]*\bv?\d+\.\d+|\bv?\d+\.\d+(\.\d+)?\b[^.]*\breleased?\b|[📰📢📣🎉]"
    r"|\bsponsor(ed|s|ship)?\b|\bsupported by\b|\bspecial thanks\b"
    r"|\b(deprecated|unmaintained|archived|no longer maintained)\b", re.IGNORECASE)
#: A heading over news (its text alone need not say so).
_NEWS_HEADING = re.compile(r"\bnews\b|\bwhat'?s new\b|\bchangelog\b", re.IGNORECASE)
_ADMONITION = re.compile(r"(note|warning|important|caution|tip|attention|notice)\s*:", re.IGNORECASE)
_EMPHASIS_ONLY = re.compile(r"(\*\*|__|\*|_)(?:(?!\1).)+\1[.:!?]?")
_LIST_ITEM = re.compile(r"([-*+]|\d+[.)])(\s|$)")
_ADORNMENT = re.compile(r"([=\-~^*#+`'\":.])\1+")
_REFERENCE_DEF = re.compile(r"\[[^\]]+\]:\s")
_ALERT = re.compile(r"\[!\w+\]\\?")
_INLINE_CODE = re.compile(r"`[^`]*`")
_LINKS = (re.compile(r"!\[[^\]]*\]\([^)]*\)"), re.compile(r"\[[^\]]*\]\([^)]*\)|<[^>]*>|https?://\S+"))
_MARKUP = (
    (re.compile(r"`([^`<]*?)\s*<[^>]*>`_{1,2}"), r"\1"),  # reST `text <url>`_
    (re.compile(r":[\w:-]+:`([^`]*)`"), r"\1"),  # reST :role:`text`
    (re.compile(r"`([^`]+)`_{1,2}"), r"\1"),  # reST `text`_
    (re.compile(r"\|[^|\s][^|]*\|_{0,2}"), ""),  # reST |substitution|
    (re.compile(r"!\[[^\]]*\]\([^)]*\)"), ""),  # image
    (re.compile(r"\[([^\]]*)\]\([^)]*\)"), r"\1"),  # inline link -> its text
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # reference link
    (re.compile(r"\[([^\]!][^\]]*)\]"), r"\1"),  # shortcut reference [WSGI]
    (re.compile(r"<[^>]+>"), ""),  # HTML tag or autolink
    (re.compile(r"\\(.)"), r"\1"),  # backslash escape
    (re.compile(r"[*`]|(?<!\w)_+|_+(?!\w)"), ""),  # emphasis and code marks (not snake_case)
)


def readme_purpose(text: str, names: Iterable[str] = ()) -> str:
    """The purpose line of a README: of its first ``README_PARAGRAPHS`` prose paragraphs, the
    first that describes the project, else the first plain one, else the first weak one,
    else the first news one (``_rank``); clipped to ``PURPOSE_MAX_CHARS``. ``names`` are the
    project's names (e.g. the manifest's package name); the README's title and its first
    word count too. ``""`` when the README has no prose."""
    title = _title(text)
    word = re.search(r"\w+(?:[.+-]\w+)*", title)
    known = [n.lower() for n in (*names, title, word.group() if word else "") if n]
    best = min(paragraphs(text)[:README_PARAGRAPHS], key=lambda p: _rank(p, known, title), default=None)
    return clip(best.text) if best else ""


def _rank(paragraph: Paragraph, names: list[str], title: str) -> int:
    """0 describes the project: starts with one of ``names`` (optionally after "The"), or
    with "A"/"An" above the README's first section; 1 plain prose; 2 weak: a blockquote, an
    emphasis-only line, a "Note:"/"Warning:" aside, or one sentence ending in ":" (it
    introduces what follows); 3 news: a release announcement, a sponsor note, a deprecation,
    or anything under a news heading. ``min`` keeps the first paragraph of the best rank."""
    heading = paragraph.heading
    if _NEWS.search(paragraph.text) or _NEWS.search(heading) or _NEWS_HEADING.search(heading):
        return 3
    lowered = paragraph.text.lower()
    aside = (lowered.endswith(":") and not re.search(r"[.!?]\s", lowered)) or _ADMONITION.match(lowered)
    if any(re.match(rf"(the )?{re.escape(name)}(?![\w-])", lowered) for name in names):
        return 0
    if not aside and heading in ("", title) and re.match(r"an? \w", lowered):
        return 0
    return 2 if paragraph.quoted or aside or _EMPHASIS_ONLY.fullmatch(paragraph.raw) else 1


def _title(text: str) -> str:
    """The README's document title: its first level-1 heading (``# X``, or a line
    underlined with ``=``), as plain text."""
    previous = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("# "):
            return plain(line[2:])
        if previous and _ADORNMENT.fullmatch(line) and line[0] == "=":
            return plain(previous)
        previous = line
    return ""


def plain(text: str) -> str:
    """Markdown/reST inline markup removed (links keep their text), whitespace collapsed."""
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


def _link_only(line: str) -> bool:
    """True for a line of links, images, HTML, URLs and separators, and no words of its own."""
    for pattern in _LINKS:
        line = pattern.sub("", line)
    return not re.search(r"[^\W\d_]", line)


class _Reader:
    """Splits a README into prose paragraphs (``Paragraph``) line by line."""

    def __init__(self) -> None:
        self.out: list[Paragraph] = []
        self.lines: list[str] = []
        self.quoted = False
        self.heading = ""
        self.fence = ""  # the fence that opened a code block
        self.comment = False  # inside a multi-line HTML comment
        self.block = False  # inside a list item or reST directive (with its indented body)
        self.gap = False  # a blank line was seen since the block began

    def flush(self) -> None:
        raw = " ".join(self.lines)
        text = plain(raw)
        if re.search(r"[^\W\d_]", text):
            self.out.append(Paragraph(text, raw, self.quoted, self.heading))
        self.lines, self.quoted = [], False

    def feed(self, raw: str) -> None:
        line = raw.strip()
        if self._hidden(raw, line):
            return
        if not line:
            self.flush()
        elif _ADORNMENT.fullmatch(line):
            self._adornment()
        elif re.match(r"#+(\s|$)", line):
            self.flush()
            self.heading = plain(line.lstrip("#"))
        elif line.startswith((".. ", ":")) or _LIST_ITEM.match(line):  # directive, field, list
            self.flush()
            self.block, self.gap = True, False
        elif self._noise(raw, line):
            self.flush()
        else:
            self._prose(line)

    def _hidden(self, raw: str, line: str) -> bool:
        """Lines inside a code fence, an HTML comment or a skipped block (consumed here)."""
        if self.fence:
            self.fence = "" if line.startswith(self.fence) else self.fence
            return True
        if line.startswith(("```", "~~~")):
            self.flush()
            self.fence = line[:3]
            return True
        if self.comment or (line.startswith("<!--") and "-->" not in line):
            self.comment = "-->" not in line
            return True
        if self.block:
            self.gap = self.gap or not line
            if not line or raw[:1] in " \t" or not self.gap:
                return True
            self.block = False
        return False

    def _adornment(self) -> None:
        """A setext/reST underline makes a one-line paragraph a heading; otherwise it is a
        thematic break (or an overline), which ends the heading's section."""
        if len(self.lines) == 1 and not self.quoted:
            self.heading, self.lines = plain(self.lines[0]), []
        else:
            self.flush()
            self.heading = ""

    def _noise(self, raw: str, line: str) -> bool:
        """HTML, tables, badges and images, link definitions, link-only lines, indented code."""
        return (line.startswith(("<", "|", "![", "[![")) or "|" in _INLINE_CODE.sub("", line)
                or _REFERENCE_DEF.match(line) is not None or _link_only(line)
                or (not self.lines and raw.startswith(("    ", "\t"))))  # indented code

    def _prose(self, line: str) -> None:
        quoted = line.startswith(">")
        if quoted:
            line = _ALERT.sub("", line.lstrip("> ")).strip()
            if not line:
                return
        if self.lines and quoted != self.quoted:
            self.flush()
        self.quoted = quoted
        self.lines.append(line)


def paragraphs(text: str) -> list[Paragraph]:
    """The prose paragraphs of a README (Markdown or reStructuredText), in order."""
    reader = _Reader()
    for raw in text.splitlines():
        reader.feed(raw)
    reader.flush()
    return reader.out
