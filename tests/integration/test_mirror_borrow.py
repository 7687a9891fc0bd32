"""A local repository whose refs name objects it does not hold (a ``git clone --mirror`` of
a host whose ``refs/pull/*`` point at objects it never sent): libgit2's local fetch reads
every ref's object and failed, so the repository was never indexed (a newcomer's
``/work/.mirror/psf+requests/repo``). The mirror borrows its objects instead
(``files.mirror._borrow``) and follows its branches."""

from __future__ import annotations

from pathlib import Path

import pygit2
from conformance_cases import daemon, indexed_paths
from gitfixtures import GitRepo

from coderecalld.config import RepoConfig
from coderecalld.records import RepoState

MISSING = "968094c367bb87b3bc9f7bb3a1d5148063c9bed0"


def _dangling_pull_ref(src: GitRepo) -> None:
    refs = Path(pygit2.Repository(str(src.path)).path) / "refs" / "pull" / "1"
    refs.mkdir(parents=True)
    (refs / "head").write_text(MISSING + "\n")


def test_a_local_repository_with_a_ref_to_a_missing_object_is_indexed(tmp_path: Path) -> None:
    src = GitRepo(tmp_path / "src")
    first = src.commit({"a.py": "def alpha():\n    pass\n"})
    src.repo.branches.local.create("topic", src.repo[src.repo.head.target])
    _dangling_pull_ref(src)
    with daemon(tmp_path, RepoConfig("x", str(src.path))) as running:
        done = running.jobs.run_now("x")
        assert (done.state, done.commit) == (RepoState.READY, first)
        assert indexed_paths(running, "x") == {"a.py"}
        assert [h.qualified_name for h in running.service.find_symbols("alpha", repo="x")] == ["alpha"]
        mirrored = pygit2.Repository(str(next((tmp_path / "data").rglob("x-*.git"))))
        assert {"refs/heads/main", "refs/heads/topic"} <= set(mirrored.references)
        # the next commit is followed, a branch deleted upstream is pruned
        second = src.commit({"b.py": "def beta():\n    pass\n"})
        src.repo.branches.local.delete("topic")
        done = running.jobs.run_now("x")
        assert (done.state, done.commit) == (RepoState.READY, second)
        assert indexed_paths(running, "x") == {"a.py", "b.py"}
        mirrored = pygit2.Repository(mirrored.path)
        assert "refs/heads/topic" not in set(mirrored.references)
