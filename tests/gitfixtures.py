"""Real git repositories for tests, built with pygit2 (fixed author and dates)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pygit2

#: Fixed author and time so commit ids are reproducible across runs.
AUTHOR = pygit2.Signature("Fixture Author", "fixture@example.invalid", 1_700_000_000, 0)


class GitRepo:
    """A non-bare git repository on disk that tests commit file trees into."""

    def __init__(self, path: Path, branch: str = "main") -> None:
        self.path = path
        self.branch = branch
        self.repo = pygit2.init_repository(str(path), bare=False, initial_head=branch)
        self._tick = 0
        self._links: dict[str, str] = {}

    def link_submodule(self, path: str, target: str) -> None:
        """Stage a submodule (gitlink) at ``path`` pinning commit ``target``; the next
        ``commit`` records it. The pinned commit need not exist here (as in a clone made
        without ``--recurse-submodules``)."""
        self._links[path] = target

    def commit(self, files: Mapping[str, bytes | str | None], message: str = "change") -> str:
        """Write (bytes/str) or delete (None) files, commit all, return the commit id."""
        index = self.repo.index
        for rel, content in files.items():
            target = self.path / rel
            if content is None:
                target.unlink()
                index.remove(rel)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content.encode() if isinstance(content, str) else content)
        index.add_all()
        for path, target in self._links.items():  # after add_all, which drops them
            index.add(pygit2.IndexEntry(path, pygit2.Oid(hex=target), pygit2.enums.FileMode.COMMIT))
        index.write()
        tree = index.write_tree()
        self._tick += 1
        sig = pygit2.Signature(AUTHOR.name, AUTHOR.email, AUTHOR.time + self._tick * 60, 0)
        parents = [] if self.repo.head_is_unborn else [self.repo.head.target]
        return str(self.repo.create_commit("HEAD", sig, sig, message, tree, parents))
