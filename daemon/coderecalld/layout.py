"""A repository's layout: the import names its files provide and a one-line description.

Computed from the commit's tree (paths) and a few small files (README, pyproject.toml,
setup.cfg, package.json), so a call in repo B that imports ``httpcore`` reaches repo A's
``httpcore/_models.py`` definitions by their module-qualified names.

Python module names: a file's name counts from the topmost directory of its unbroken chain
of packages (directories with ``__init__.py``); a file outside any package counts from the
repo root, less a leading ``src/`` or ``lib/``.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

_SOURCE_ROOTS = ("src", "lib")
#: Suffixes of JavaScript/TypeScript modules (an import names them without one).
JS_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
_READMES = ("README.md", "README.rst", "README.txt", "README", "readme.md")
_MARKUP = re.compile(r"!\[[^\]]*\]\([^)]*\)|<[^>]+>|\[([^\]]*)\]\([^)]*\)|[*_`]")
#: Characters of a purpose line.
PURPOSE_MAX_CHARS = 200


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a repo's Python packages are, what it is for and which languages it holds.

    ``packages`` are top-level import names; ``languages`` (language, file count) pairs,
    most files first; ``purpose`` one line (``""`` if nothing describes the repo).
    """

    package_dirs: frozenset[str]
    packages: tuple[str, ...] = ()
    purpose: str = ""
    languages: tuple[tuple[str, int], ...] = ()

    def module(self, path: str) -> str:
        """Dotted import name of a Python file (``src/pkg/sub/m.py`` -> ``pkg.sub.m``); a
        JavaScript/TypeScript file's path without suffix (``src/util/index.ts`` ->
        ``src/util``, what a relative import resolves to); ``""`` for other files."""
        pure = PurePosixPath(path)
        if pure.suffix in JS_SUFFIXES:
            return js_module(path)
        if pure.suffix not in (".py", ".pyi"):
            return ""
        dirs = list(pure.parent.parts)
        top = len(dirs)
        while top > 0 and "/".join(dirs[:top]) in self.package_dirs:
            top -= 1
        if top == len(dirs) and dirs and dirs[0] in _SOURCE_ROOTS:
            top = 1
        elif top == len(dirs):
            top = 0
        names = dirs[top:] + ([] if pure.stem == "__init__" else [pure.stem])
        return ".".join(names)


def js_module(path: str) -> str:
    """``src/a/b.d.ts`` -> ``src/a/b``; ``src/a/index.js`` -> ``src/a`` (``./a`` imports it)."""
    stem = path
    for suffix in JS_SUFFIXES:
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)].removesuffix(".d")
            break
    return stem.removesuffix("/index") if stem != "index" else stem


def layout(paths: Iterable[str], read: Callable[[str], bytes],
           language_of: Callable[[str], str | None]) -> Layout:
    """The layout of a tree given its ``paths``; ``read(path)`` returns a blob's bytes and
    ``language_of(path)`` a language id or ``None``."""
    paths = list(paths)
    dirs = frozenset(str(PurePosixPath(p).parent) for p in paths if PurePosixPath(p).name == "__init__.py")
    shape = Layout(dirs)
    packages = {shape.module(p).split(".", 1)[0] for p in paths if _importable(p, dirs)}
    languages = Counter(lang for lang in map(language_of, paths) if lang)
    present = set(paths)
    return Layout(dirs, tuple(sorted(packages - {""})), _purpose(present, read),
                  tuple(sorted(languages.items(), key=lambda kv: (-kv[1], kv[0]))))


def _importable(path: str, package_dirs: frozenset[str]) -> bool:
    """A package's file, or a top-level module at the root or under ``src/``."""
    pure = PurePosixPath(path)
    if pure.suffix != ".py":
        return False
    if str(pure.parent) in package_dirs:
        return True
    parts = pure.parent.parts
    return (not parts or parts == ("src",)) and pure.stem not in ("setup", "conftest", "noxfile")


def _purpose(present: set[str], read: Callable[[str], bytes]) -> str:
    for name in _READMES:
        if name in present:
            line = readme_purpose(read(name).decode("utf-8", errors="replace"))
            if line:
                return line
    return _packaging_description(present, read)


def readme_purpose(text: str) -> str:
    """The first prose paragraph of a README, as one line: headings, badges, HTML, code
    fences and reST directives are skipped; markup is removed."""
    paragraph: list[str] = []
    fenced = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        skip = (fenced or line.startswith(("#", "..", ":", "|", "[!", "<", "!", "=", "-", "*", ">"))
                or set(line) <= set("=-~^*#+"))
        if not line or skip:
            if paragraph:
                break
            continue
        paragraph.append(line)
    plain = re.sub(r"\s+", " ", _MARKUP.sub(lambda m: m.group(1) or "", " ".join(paragraph))).strip()
    return plain[:PURPOSE_MAX_CHARS]


def _packaging_description(present: set[str], read: Callable[[str], bytes]) -> str:
    try:
        if "pyproject.toml" in present:
            data = tomllib.loads(read("pyproject.toml").decode("utf-8", errors="replace"))
            described = data.get("project", {}).get("description", "")
            if described:
                return str(described)[:PURPOSE_MAX_CHARS]
        if "setup.cfg" in present:
            cfg = configparser.ConfigParser(interpolation=None)
            cfg.read_string(read("setup.cfg").decode("utf-8", errors="replace"))
            if cfg.get("metadata", "description", fallback=""):
                return cfg.get("metadata", "description")[:PURPOSE_MAX_CHARS]
        if "package.json" in present:
            return str(json.loads(read("package.json")).get("description", ""))[:PURPOSE_MAX_CHARS]
    except (ValueError, configparser.Error, AttributeError):
        return ""  # a malformed packaging file describes nothing
    return ""
