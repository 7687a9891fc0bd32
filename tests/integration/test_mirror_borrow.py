"""A local repository whose refs name objects it does not hold (a ``git clone --mirror`` of
a host whose ``refs/pull/*`` point at objects it never sent): libgit2's local fetch reads
every ref's object and failed, so the repository was never indexed (a newcomer's
``/work/.mirror/psf+requests/repo``). The mirror borrows its objects instead
(``files.mirror._borrow``) and follows its branches."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest
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


def test_a_local_repository_is_mirrored_without_copying_its_objects(tmp_path: Path) -> None:
    """libgit2's local transport packs every object of the source before a byte moves:
    22 s for axios's 30 MB, minutes for pydantic's 453 MB with the repo shown "fetching"
    and nothing logged (a newcomer). A local repository's objects are borrowed (git
    alternates) and its branches copied: no object is written into the mirror, and a
    force-pushed branch is followed like a fetch with prune."""
    from coderecalld.files import mirror

    src = GitRepo(tmp_path / "src")
    src.commit({"a.py": "def alpha():\n    pass\n"})
    second = src.commit({"b.py": "def beta():\n    pass\n"})
    result = mirror.sync(RepoConfig("x", str(src.path)), tmp_path / "mirrors")
    assert (result.branch, result.commit) == ("main", second)
    objects = Path(result.git_dir) / "objects"
    written = [p for p in objects.rglob("*") if p.is_file() and p.parent.name not in ("info", "pack")]
    assert written == [] and list((objects / "pack").glob("*.pack")) == []
    assert (objects / "info" / "alternates").read_text().split() == [
        str(Path(pygit2.Repository(str(src.path)).path) / "objects")]
    assert mirror.read_path(mirror.open_repo(result.git_dir), second, "b.py") == b"def beta():\n    pass\n"
    # a rewritten branch (``reset`` to the first commit, then a new one) is followed
    src.repo.reset(src.repo[second].parents[0].id, pygit2.enums.ResetMode.HARD)
    third = src.commit({"c.py": "def gamma():\n    pass\n"})
    again = mirror.sync(RepoConfig("x", str(src.path)), tmp_path / "mirrors")
    assert again.commit == third and third != second


def test_a_fetched_mirror_copies_objects_and_follows_a_rewritten_branch(tmp_path: Path, monkeypatch) -> None:
    """The fetch path remote URLs take (``LOCAL_BORROWED`` off makes a local one take it):
    objects are copied, the mirror reads without the source's, a rewrite is followed."""
    from coderecalld.files import mirror

    monkeypatch.setattr(mirror, "LOCAL_BORROWED", False)
    src = GitRepo(tmp_path / "src")
    src.commit({"a.py": "def alpha():\n    pass\n"})
    second = src.commit({"b.py": "def beta():\n    pass\n"})
    result = mirror.sync(RepoConfig("x", str(src.path)), tmp_path / "mirrors")
    assert (result.branch, result.commit) == ("main", second)
    assert not (Path(result.git_dir) / "objects" / "info" / "alternates").exists()
    src.repo.reset(src.repo[second].parents[0].id, pygit2.enums.ResetMode.HARD)
    third = src.commit({"c.py": "def gamma():\n    pass\n"})
    again = mirror.sync(RepoConfig("x", str(src.path)), tmp_path / "mirrors")
    assert again.commit == third
    assert mirror.read_path(mirror.open_repo(again.git_dir), third, "c.py") == b"def gamma():\n    pass\n"


def test_borrowing_from_a_detached_checkout_and_a_linked_work_tree(tmp_path: Path) -> None:
    """A review: a work tree at a detached HEAD (a CI checkout), no branch configured,
    crashed the sync (``AttributeError``); a ``git worktree add`` checkout borrowed from
    ``.git/worktrees/<name>/objects``, which does not exist."""
    from coderecalld.files import mirror

    src = GitRepo(tmp_path / "src")
    first = src.commit({"a.py": "def alpha():\n    pass\n"})
    src.repo.set_head(pygit2.Oid(hex=first))  # detached
    assert src.repo.head_is_detached
    result = mirror.sync(RepoConfig("x", str(src.path)), tmp_path / "mirrors")
    assert (result.branch, result.commit) == ("main", first)
    src.repo.set_head("refs/heads/main")
    src.repo.branches.local.create("side", src.repo[first])
    linked = src.repo.add_worktree("wt", str(tmp_path / "wt"), src.repo.branches.local["side"])
    other = mirror.sync(RepoConfig("y", linked.path), tmp_path / "mirrors")
    assert (other.branch, other.commit) == ("side", first)
    assert mirror.read_path(mirror.open_repo(other.git_dir), first, "a.py") == b"def alpha():\n    pass\n"


def test_a_mirror_fetched_after_borrowing_holds_its_own_objects(tmp_path: Path, monkeypatch) -> None:
    """A review: a repo whose url moved from a local path to a remote kept the stale
    alternates, the fetch copied nothing, and the mirror lost every object with the old
    source. Read from a pruned source, a commit is a ``MirrorError``, not a ``KeyError``."""
    import shutil

    from coderecalld.errors import MirrorError
    from coderecalld.files import mirror

    src = GitRepo(tmp_path / "src")
    commit = src.commit({"a.py": "def alpha():\n    pass\n"})
    borrowed = mirror.sync(RepoConfig("x", str(src.path)), tmp_path / "mirrors")
    shutil.rmtree(src.path)
    with pytest.raises(MirrorError, match="missing from the mirror"):
        mirror.read_path(mirror.open_repo(borrowed.git_dir), commit, "a.py")
    moved = GitRepo(tmp_path / "moved")
    again = moved.commit({"b.py": "def beta():\n    pass\n"})
    monkeypatch.setattr(mirror, "LOCAL_BORROWED", False)  # the fetch path a remote url takes
    fetched = mirror.sync(RepoConfig("x", str(moved.path)), tmp_path / "mirrors")
    assert fetched.commit == again
    assert not (Path(fetched.git_dir) / "objects" / "info" / "alternates").exists()
    shutil.rmtree(moved.path)
    assert mirror.read_path(mirror.open_repo(fetched.git_dir), again, "b.py") == b"def beta():\n    pass\n"
