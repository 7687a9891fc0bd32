"""A multi-repo fixture of real code: installed packages that import one another (httpx ->
httpcore -> h11), each committed as its own git repository, indexed together."""

from __future__ import annotations

import importlib
from pathlib import Path

from gitfixtures import GitRepo

#: Repo name -> import package. httpx imports httpcore; httpcore imports h11.
PACKAGES = {"httpx": "httpx", "httpcore": "httpcore", "h11": "h11"}


def package_dir(package: str) -> Path:
    return Path(importlib.import_module(package).__file__).parent


def sources(package: str) -> dict[str, bytes]:
    """Repo-relative path -> bytes of every ``.py`` file of an installed package (laid out
    as ``<package>/...`` at the repo root, the usual flat layout)."""
    root = package_dir(package)
    return {f"{package}/{p.relative_to(root).as_posix()}": p.read_bytes()
            for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts}


def build(root: Path) -> dict[str, Path]:
    """One git repo per package under ``root``; name -> repo path."""
    out = {}
    for name, package in PACKAGES.items():
        repo = GitRepo(root / name)
        files = sources(package)
        files["README.md"] = f"# {name}\n\nThe {name} package, vendored for the cross-repo fixture.\n"
        repo.commit(files, "import")
        out[name] = repo.path
    return out
