"""Shared fixtures: a clean environment and real git repositories built with pygit2."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

import pygit2
import pytest

#: Fixed author and time so commit ids are reproducible across runs.
AUTHOR = pygit2.Signature("Fixture Author", "fixture@example.invalid", 1_700_000_000, 0)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No CODERECALL_* variable from the developer's shell leaks into a test."""
    for key in list(os.environ):
        if key.startswith("CODERECALL_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    yield


class GitRepo:
    """A non-bare git repository on disk that tests commit file trees into."""

    def __init__(self, path: Path, branch: str = "main") -> None:
        self.path = path
        self.branch = branch
        self.repo = pygit2.init_repository(str(path), bare=False, initial_head=branch)
        self._tick = 0

    def commit(self, files: Mapping[str, bytes | str | None], message: str = "change") -> str:
        """Write (bytes/str) or delete (None) files, commit all, return the commit id."""
        for rel, content in files.items():
            target = self.path / rel
            if content is None:
                target.unlink()
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content.encode() if isinstance(content, str) else content)
        index = self.repo.index
        index.add_all()
        index.update_all()  # stage deletions too
        index.write()
        tree = index.write_tree()
        self._tick += 1
        sig = pygit2.Signature(AUTHOR.name, AUTHOR.email, AUTHOR.time + self._tick * 60, 0)
        parents = [] if self.repo.head_is_unborn else [self.repo.head.target]
        return str(self.repo.create_commit("HEAD", sig, sig, message, tree, parents))


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """An empty repo on branch ``main`` under tmp_path/src."""
    return GitRepo(tmp_path / "src")
