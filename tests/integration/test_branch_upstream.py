"""A branch deleted or renamed upstream (issue 4 item 2): a repo pinned to that branch keeps
its last good index and reports the error; a repo following the remote's default branch
follows the rename; a force-push to an unrelated history converges to the new tree."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import daemon, indexed_paths
from gitfixtures import GitRepo

from coderecalld.config import RepoConfig
from coderecalld.records import RepoState


def _rename_branch(src: GitRepo, new: str) -> None:
    repo = src.repo
    target = repo.head.target
    repo.branches.local.create(new, repo[target])
    repo.set_head(f"refs/heads/{new}")
    repo.branches.local.delete(src.branch)
    src.branch = new


def test_branch_renamed_upstream(tmp_path: Path) -> None:
    src = GitRepo(tmp_path / "src")
    first = src.commit({"a.py": "def alpha():\n    pass\n"})
    repos = (RepoConfig("pinned", str(src.path), branch="main"), RepoConfig("default", str(src.path)))
    with daemon(tmp_path, *repos) as running:
        for r in repos:
            assert running.jobs.run_now(r.name).commit == first
        _rename_branch(src, "trunk")
        second = src.commit({"b.py": "def beta():\n    pass\n"})

        pinned = running.jobs.run_now("pinned")
        assert pinned.state is RepoState.ERROR and "main" in pinned.error
        row = running.ledger.repo("pinned")
        assert (row.state, row.indexed_commit) == (RepoState.ERROR, first)
        assert indexed_paths(running, "pinned") == {"a.py"}  # last good index kept
        assert [h.repo for h in running.service.find_symbols("alpha")] == ["default", "pinned"]

        followed = running.jobs.run_now("default")
        assert (followed.state, followed.commit) == (RepoState.READY, second)
        assert indexed_paths(running, "default") == {"a.py", "b.py"}


def test_force_push_to_unrelated_history(tmp_path: Path) -> None:
    src = GitRepo(tmp_path / "src")
    src.commit({"a.py": "def alpha():\n    pass\n", "keep.py": "def keep():\n    pass\n"})
    with daemon(tmp_path, RepoConfig("r", str(src.path))) as running:
        running.jobs.run_now("r")
        # An orphan commit (no common ancestor) replaces the branch, as `git push --force` would.
        other = GitRepo(tmp_path / "other")
        orphan = other.commit({"keep.py": "def keep():\n    pass\n", "z.py": "def zeta():\n    pass\n"})
        src.repo.remotes.create("other", str(other.path)).fetch(["+refs/heads/main:refs/remotes/other/main"])
        src.repo.references.create("refs/heads/main", orphan, force=True)
        report = running.jobs.run_now("r")
        assert (report.state, report.commit) == (RepoState.READY, orphan)
        assert (report.files_changed, report.files_deleted) == (1, 1)  # keep.py: same blob
        assert indexed_paths(running, "r") == {"keep.py", "z.py"}
        assert running.service.find_symbols("alpha") == []
