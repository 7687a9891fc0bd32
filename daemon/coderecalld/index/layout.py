"""A repository's layout: the import names its files provide and a one-line description.

Computed from the commit's tree (paths) and a few small files (package.json, go.mod; the
purpose line from index/purpose.py), so a call in repo B that imports ``httpcore`` reaches
repo A's ``httpcore/_models.py`` definitions by their module-qualified names.

Python module names: a file's name counts from the topmost directory of its unbroken chain
of packages (directories with ``__init__.py``); a file outside any package counts from the
repo root, less a leading ``src/`` or ``lib/``. A Go package is named by its import path:
the nearest ``go.mod``'s ``module`` line plus the directory below it (no ``go.mod``: no
name). Java files are named by their package clause (index/resolve.py); the layout only lists
which type names each directory's ``.java`` files are named after. A JavaScript/TypeScript
module is named by its path less suffix; under a ``package.json`` with a ``name`` it is also
named by the package specifiers that reach it (``js_aliases``).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from coderecalld.files import classify
from coderecalld.index import purpose
from coderecalld.parse.registry import resolver_extensions

_SOURCE_ROOTS = ("src", "lib")
#: Suffixes of JavaScript/TypeScript modules (an import names them without one).
JS_SUFFIXES = resolver_extensions("js")
_GO_MODULE = re.compile(rb"^\s*module\s+\"?([^\s\"]+)", re.M)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a repo's Python packages are, what it is for and which languages it holds.

    ``packages`` are top-level import names; ``languages`` (language, file count) pairs,
    most files first; ``purpose`` one line (``""`` if nothing describes the repo);
    ``go_modules`` (directory of a ``go.mod``, its module path), deepest first;
    ``java_dirs`` directory -> stems of its ``.java`` files; ``test_suites`` the
    directories holding files named as tests (``classify.test_suites``, for roles);
    ``vendored`` the bundled copies of other distributions (``classify.vendored_packages``,
    likewise); ``rust_crates`` (directory of a ``Cargo.toml``, its crate name as code
    writes it, ``-`` as ``_``), deepest first.
    """

    package_dirs: frozenset[str]
    packages: tuple[str, ...] = ()
    purpose: str = ""
    languages: tuple[tuple[str, int], ...] = ()
    go_modules: tuple[tuple[str, str], ...] = ()
    java_dirs: dict[str, frozenset[str]] = field(default_factory=dict)
    js_packages: tuple[tuple[str, str, str], ...] = ()
    js_modules: frozenset[str] = frozenset()
    test_suites: frozenset[str] = frozenset()
    vendored: frozenset[str] = frozenset()
    rust_crates: tuple[tuple[str, str], ...] = ()

    def module(self, path: str) -> str:
        """Dotted import name of a Python file (``src/pkg/sub/m.py`` -> ``pkg.sub.m``; a
        Cython ``.pyx`` compiles to one); a
        JavaScript/TypeScript file's path without suffix (``src/util/index.ts`` ->
        ``src/util``, what a relative import resolves to); ``""`` for other files."""
        pure = PurePosixPath(path)
        if pure.suffix in JS_SUFFIXES:
            return js_module(path)
        if pure.suffix == ".go":
            return self.go_package(path)
        if pure.suffix not in (".py", ".pyi", ".pyx"):
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
        # a hidden directory's or file's leading dots (``.github/actions/people/people.py``)
        # are no part of a dotted name: `.github.actions..` read as empty segments, and
        # every impact tree reaching it failed (pydantic's ``impact model_validate``; a
        # newcomer). An underscore stands for them: ``github/x.py`` beside it keeps its name
        # (a review: both were ``github.x``)
        return ".".join(n for n in (f"_{name.lstrip('.')}" if name.startswith(".") else name
                                    for name in names) if n.strip("_"))

    def rust_crate(self, path: str) -> str:
        """The name of the crate a Rust file is in: the nearest ``Cargo.toml``'s; ``""``
        outside any."""
        folder = posixpath.dirname(path)
        return next((name for root, name in self.rust_crates
                     if not root or folder == root or folder.startswith(root + "/")), "")

    def go_package(self, path: str) -> str:
        """Import path of a Go file's package: ``example.com/a/util`` for ``util/x.go`` under
        ``module example.com/a``; ``""`` outside any module."""
        folder = posixpath.dirname(path)
        for root, name in self.go_modules:
            if not root or folder == root or folder.startswith(root + "/"):
                rest = folder[len(root):].strip("/")
                return f"{name}/{rest}" if rest else name
        return ""

    def js_aliases(self, path: str) -> tuple[str, ...]:
        """The package specifiers that name a JavaScript/TypeScript file's module, from the
        nearest ``package.json`` with a ``name`` N: ``N`` for its entry, ``N/x/y`` for
        ``x/y`` below the package directory, or for ``src/x/y`` / ``lib/x/y`` when ``N/x/y``
        does not reach a file directly (that order). ``()`` outside any named package."""
        if PurePosixPath(path).suffix not in JS_SUFFIXES:
            return ()
        mod = js_module(path)
        for root, name, entry in self.js_packages:
            if root and mod != root and not mod.startswith(root + "/"):
                continue
            rel = mod[len(root):].strip("/") if root else mod
            out = [name] if mod == entry else []
            if rel:
                out.append(f"{name}/{rel}")
            for i, prefix in enumerate(_SOURCE_ROOTS):
                shorter = rel.removeprefix(prefix + "/")
                if shorter != rel and not any(
                        posixpath.join(root, *_SOURCE_ROOTS[:j], shorter) in self.js_modules
                        for j in range(i + 1)):
                    out.append(f"{name}/{shorter}")
            return tuple(out)
        return ()


def js_module(path: str) -> str:
    """``src/a/b.d.ts`` -> ``src/a/b``; ``src/a/index.js`` -> ``src/a`` (``./a`` imports it)."""
    stem = path
    for suffix in JS_SUFFIXES:
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)].removesuffix(".d")
            break
    return stem.removesuffix("/index") if stem != "index" else stem


def layout(paths: Iterable[str], read: Callable[[str], bytes],
           language_of: Callable[[str], str | None], repo: str = "") -> Layout:
    """The layout of a tree given its ``paths``; ``read(path)`` returns a blob's bytes and
    ``language_of(path)`` a language id or ``None``; ``repo`` names the repo in log lines.
    The purpose comes from ``purpose.purpose`` (root manifest description, else README)."""
    paths = list(paths)
    dirs = frozenset(str(PurePosixPath(p).parent) for p in paths if PurePosixPath(p).name == "__init__.py")
    shape = Layout(dirs)
    packages = {shape.module(p).split(".", 1)[0] for p in paths if _importable(p, dirs)}
    languages = Counter(lang for lang in map(language_of, paths) if lang)
    ranked = tuple(sorted(languages.items(), key=lambda kv: (-kv[1], kv[0])))
    described = purpose.purpose(set(paths), read, [lang for lang, _ in ranked], repo)
    return Layout(dirs, tuple(sorted(packages - {""})), described, ranked,
                  _go_modules(paths, read), _java_dirs(paths), _js_packages(paths, read),
                  frozenset(js_module(p) for p in paths if PurePosixPath(p).suffix in JS_SUFFIXES),
                  classify.test_suites(paths), classify.vendored_packages(paths, read), _rust_crates(paths, read))


def _js_packages(paths: list[str], read: Callable[[str], bytes]) -> tuple[tuple[str, str, str], ...]:
    """(directory, package name, entry module) of each named ``package.json``, deepest first;
    the entry is ``main``, else ``module``, else ``types``, else ``index``, as a module name."""
    found = []
    for path in paths:
        if posixpath.basename(path) != "package.json" or "node_modules/" in path:
            continue
        try:
            data = json.loads(read(path))
        except ValueError:
            continue  # a malformed package.json names nothing
        name = data.get("name") if isinstance(data, dict) else None
        if not isinstance(name, str) or not name:
            continue
        root = posixpath.dirname(path)
        entry = next((v for k in ("main", "module", "types") if isinstance(v := data.get(k), str) and v), "index")
        entry = posixpath.normpath(posixpath.join(root, entry))
        found.append((root, name, js_module(entry if PurePosixPath(entry).suffix in JS_SUFFIXES else entry + ".js")))
    return tuple(sorted(found, key=lambda kv: (-len(kv[0]), kv[0])))


def _rust_crates(paths: list[str], read: Callable[[str], bytes]) -> tuple[tuple[str, str], ...]:
    found = []
    for path in paths:
        if posixpath.basename(path) == "Cargo.toml":
            name = purpose.cargo_crate(read(path))
            if name:
                found.append((posixpath.dirname(path), name.replace("-", "_")))
    return tuple(sorted(found, key=lambda kv: (-len(kv[0]), kv[0])))


def _go_modules(paths: list[str], read: Callable[[str], bytes]) -> tuple[tuple[str, str], ...]:
    found = []
    for path in paths:
        if posixpath.basename(path) == "go.mod":
            match = _GO_MODULE.search(read(path))
            if match:
                found.append((posixpath.dirname(path), match.group(1).decode("utf-8", errors="replace")))
    return tuple(sorted(found, key=lambda kv: (-len(kv[0]), kv[0])))


def _java_dirs(paths: list[str]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for path in paths:
        if path.endswith(".java"):
            out.setdefault(posixpath.dirname(path), set()).add(posixpath.basename(path)[:-5])
    return {d: frozenset(names) for d, names in out.items()}


def _importable(path: str, package_dirs: frozenset[str]) -> bool:
    """A package's file, or a top-level module at the root or under ``src/``."""
    pure = PurePosixPath(path)
    if pure.suffix != ".py":
        return False
    if str(pure.parent) in package_dirs:
        return True
    parts = pure.parent.parts
    return (not parts or parts == ("src",)) and pure.stem not in ("setup", "conftest", "noxfile")
