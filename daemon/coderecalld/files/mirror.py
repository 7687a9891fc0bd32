"""Bare git mirrors with pygit2: clone once, fetch on each sync, read objects by commit.

Every source read goes through git objects at a commit, never a work tree, so no path or
symlink in a repository can make the daemon read outside it (DESIGN.md decision 10).
"""

from __future__ import annotations

import hashlib
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pygit2

from coderecalld import credentials, logs
from coderecalld.config import RepoConfig
from coderecalld.errors import MirrorError, NotFound
from coderecalld.records import MirrorResult

#: Whether a repository on this machine (a path or ``file://`` URL) is mirrored by
#: borrowing its objects (git alternates) and copying its branches, rather than fetched.
LOCAL_BORROWED = True
#: Mirror every branch as a local branch of the bare repo; '+' allows force-pushes.
MIRROR_REFSPEC = "+refs/heads/*:refs/heads/*"
_MODE_BLOB = (pygit2.enums.FileMode.BLOB, pygit2.enums.FileMode.BLOB_EXECUTABLE)
#: Attributes come from the commit's own .gitattributes files, never the host's system file.
_ATTR_FLAGS = pygit2.enums.AttrCheck.NO_SYSTEM | pygit2.enums.AttrCheck.INCLUDE_COMMIT


def mirror_dir(mirrors_root: Path, name: str) -> Path:
    """Directory of ``name``'s bare mirror: a readable slug plus a short hash (names may hold '/')."""
    slug = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:60]
    digest = hashlib.sha1(name.encode()).hexdigest()[:8]
    return mirrors_root / f"{slug}-{digest}.git"


def sync(repo: RepoConfig, mirrors_root: Path) -> MirrorResult:
    """Create the bare mirror if missing, fetch every branch, resolve the branch head.

    Returns a ``MirrorResult`` whose ``commit`` is ``""`` for an empty repository or an
    unborn default branch (a normal state, not an error). The default branch is the one
    the remote's HEAD names; when HEAD is unborn there is none (``branch`` is ``""``),
    even if other branches exist.

    Raises:
        MirrorError: the URL cannot be reached or is not a git repository, or the
            configured branch does not exist on a non-empty remote.
    """
    started = time.monotonic()
    if _is_path(repo.url) and not Path(repo.url).exists():
        raise MirrorError(f"{repo.name}: {repo.url!r} does not exist (expected a git repository path or URL)")
    git_dir = mirror_dir(mirrors_root, repo.name)
    try:
        repository = _open_or_init(git_dir, repo.url)
        remote = repository.remotes["origin"]
        callbacks = credentials.callbacks(repo)
        local = _local_source(repo.url) if LOCAL_BORROWED else None
        if local is None and (git_dir / "objects" / "info" / "alternates").exists():
            # borrowed from a local source before, fetched now (its url changed): a fetch
            # would copy nothing the borrowed objects already answer, and the mirror would
            # lose them with that source (a review); it starts again, whole
            shutil.rmtree(git_dir)
            repository = _open_or_init(git_dir, repo.url)
            remote = repository.remotes["origin"]
        if local is not None:
            # a repository on this machine: its objects are read where they are, no pack
            # built and copied (libgit2's local transport packs every object first: 22 s
            # for axios's 30 MB, minutes for pydantic's 453 MB with no byte shown; a
            # newcomer waited 4 minutes at "fetching")
            repository, branch = _borrow(git_dir, local, repo.branch)
            commit = _branch_commit(repository, branch, repo.name)
            return MirrorResult(name=repo.name, git_dir=str(git_dir), branch=branch, commit=commit,
                                fetched=True, duration_s=time.monotonic() - started)
        try:
            remote.fetch(prune=pygit2.enums.FetchPrune.PRUNE, callbacks=callbacks)
            branch = repo.branch or _default_branch(remote, repository, callbacks)
        except pygit2.GitError as exc:
            source = _local_source(repo.url)
            if source is None or "not found" not in str(exc):
                raise
            repository, branch = _borrow(git_dir, source, repo.branch)
            logs.event("mirror.borrowed", repo=repo.name, reason=str(exc))
    except (pygit2.GitError, KeyError, OSError, ValueError) as exc:
        # libgit2's message may quote the URL: neither may show a password written into it.
        raise MirrorError(credentials.redact_url(
            f"{repo.name}: cannot fetch {repo.url!r}: {exc}")) from None
    commit = _branch_commit(repository, branch, repo.name)
    return MirrorResult(name=repo.name, git_dir=str(git_dir), branch=branch, commit=commit,
                        fetched=True, duration_s=time.monotonic() - started)


def _open_or_init(git_dir: Path, url: str) -> pygit2.Repository:
    if git_dir.exists():
        repository = pygit2.Repository(str(git_dir))
        if repository.remotes["origin"].url != url:
            repository.remotes.set_url("origin", url)
        return repository
    git_dir.parent.mkdir(parents=True, exist_ok=True)
    repository = pygit2.init_repository(str(git_dir), bare=True)
    repository.remotes.create("origin", url, MIRROR_REFSPEC)
    return repository


def _is_path(url: str) -> bool:
    """Whether ``url`` is a filesystem path: no scheme (``https://``), no scp-like host
    (``git@host:org/repo``)."""
    return "://" not in url and ":" not in url.split("/", 1)[0]


def _local_source(url: str) -> pygit2.Repository | None:
    """The repository a local path or ``file://`` URL names, or None (a remote URL, or
    nothing openable there)."""
    path = url.removeprefix("file://")
    if not _is_path(path):
        return None
    try:
        return pygit2.Repository(path)
    except (pygit2.GitError, OSError):
        return None


def _borrow(git_dir: Path, source: pygit2.Repository, branch: str) -> tuple[pygit2.Repository, str]:
    """Mirror a local ``source`` (``LOCAL_BORROWED``; before, only one whose fetch failed on
    an object missing behind a ref the mirror does not want: a mirror made by ``git clone
    --mirror`` of a host whose ``refs/pull/*`` name objects it never sent, as libgit2's
    local transport reads every ref's object and gives up): the mirror borrows the
    source's objects (git alternates,
    nothing copied) and its branches are set to the source's, those gone from the source
    deleted, as a fetch with prune would. Returns the reopened mirror and the branch to
    index: ``branch``, else the source's HEAD branch (``""`` when unborn). Raises
    ``pygit2.GitError``/``OSError`` as the store of the refs does."""
    objects = str(_common_dir(source) / "objects")
    alternates = git_dir / "objects" / "info" / "alternates"
    alternates.parent.mkdir(parents=True, exist_ok=True)
    listed = alternates.read_text().splitlines() if alternates.exists() else []
    if objects not in listed:
        alternates.write_text("".join(f"{line}\n" for line in [*listed, objects]))
    repository = pygit2.Repository(str(git_dir))  # reopened: the alternates take effect
    heads: dict[str, pygit2.Oid] = {}
    for name in source.references:
        if name.startswith("refs/heads/"):
            try:
                heads[name] = source.references[name].peel(pygit2.Commit).id
            except (pygit2.GitError, KeyError, ValueError):
                continue  # a broken branch is not mirrored, as a fetch would refuse it
    for name, oid in heads.items():
        repository.references.create(name, oid, force=True)
    for name in list(repository.references):
        if name.startswith("refs/heads/") and name not in heads:
            repository.references.delete(name)
    if not branch and not source.head_is_unborn:
        if source.head_is_detached:  # a CI checkout or a bisect: no branch named by HEAD
            names = sorted(name.removeprefix("refs/heads/") for name in heads)
            branch = next((b for b in ("main", "master") if b in names), names[0] if names else "")
        else:
            branch = str(source.references["HEAD"].target).removeprefix("refs/heads/")
    return repository, branch


def _common_dir(source: pygit2.Repository) -> Path:
    """The git directory holding ``source``'s objects: its own, or for a linked work tree
    (``git worktree add``, whose git directory is ``.git/worktrees/<name>``) the main one
    its ``commondir`` file names."""
    own = Path(source.path)
    common = own / "commondir"
    if common.is_file():
        return (own / common.read_text().strip()).resolve()
    return own


def _default_branch(remote: pygit2.Remote, repository: pygit2.Repository,
                    callbacks: pygit2.RemoteCallbacks | None = None) -> str:
    """The remote HEAD's branch; if HEAD comes without its target (a server that does not
    send the ``symref`` capability), main, master, or the only branch. ``""`` when the
    remote does not advertise HEAD at all: it is unborn (or the repository is empty), so
    there is no default branch to index -- guessing one would index a branch nobody chose."""
    for head in remote.list_heads(callbacks=callbacks):
        if head.name != "HEAD":
            continue
        if head.symref_target:
            return head.symref_target.removeprefix("refs/heads/")
        branches = list(repository.branches.local)
        for candidate in ("main", "master"):
            if candidate in branches:
                return candidate
        return branches[0] if len(branches) == 1 else "main"
    return ""


def _branch_commit(repository: pygit2.Repository, branch: str, name: str) -> str:
    if not branch:
        return ""  # the remote's HEAD is unborn: nothing on the default branch yet
    ref = repository.references.get(f"refs/heads/{branch}")
    if ref is not None:
        return str(ref.peel(pygit2.Commit).id)
    if not list(repository.branches.local):
        return ""  # empty repository: nothing pushed yet
    raise MirrorError(f"{name}: branch {branch!r} not found; branches: "
                      f"{sorted(repository.branches.local)}")


def open_repo(git_dir: str) -> pygit2.Repository:
    """Open a mirror. Raises MirrorError if it is missing or corrupt."""
    try:
        return pygit2.Repository(git_dir)
    except (pygit2.GitError, OSError) as exc:
        raise MirrorError(f"cannot open mirror {git_dir}: {exc}") from exc


def tree_blobs(repository: pygit2.Repository, commit: str) -> Iterator[tuple[str, str]]:
    """Yield ``(path, blob_id)`` for every regular file in ``commit``'s tree.

    Symlinks and submodules are not files of this repository and are skipped.
    """
    if not commit:
        return
    tree = repository[commit].peel(pygit2.Tree)
    yield from _walk(tree, "")


def _walk(tree: pygit2.Tree, prefix: str) -> Iterator[tuple[str, str]]:
    for entry in tree:
        path = f"{prefix}{entry.name}"
        if not utf8_path(path):
            continue
        if entry.type_str == "tree":
            yield from _walk(tree[entry.name].peel(pygit2.Tree), f"{path}/")
        elif entry.type_str == "blob" and entry.filemode in _MODE_BLOB:
            yield path, str(entry.id)


def tree_submodules(repository: pygit2.Repository, commit: str) -> dict[str, tuple[str, str]]:
    """Submodules (gitlinks) of ``commit``'s tree: ``path -> (pinned commit id, url)``.

    ``url`` comes from the commit's ``.gitmodules`` (``""`` when it has no entry for the
    path: a submodule whose configuration is missing). Submodules are recorded, never
    followed: their code belongs to another repository.
    """
    if not commit:
        return {}
    tree = repository[commit].peel(pygit2.Tree)
    links = dict(_walk_links(tree, ""))
    if not links:
        return {}
    urls: dict[str, str] = {}
    try:
        text = read_path(repository, commit, ".gitmodules").decode("utf-8", errors="replace")
    except (MirrorError, NotFound):
        text = ""
    for block in re.split(r"^\s*\[submodule\b[^\]]*\]\s*$", text, flags=re.M)[1:]:
        keys = dict(re.findall(r"^\s*(path|url)\s*=\s*(.*?)\s*$", block, flags=re.M))
        if "path" in keys:
            urls[keys["path"].strip("/")] = keys.get("url", "")
    return {path: (target, urls.get(path, "")) for path, target in links.items()}


def _walk_links(tree: pygit2.Tree, prefix: str) -> Iterator[tuple[str, str]]:
    for entry in tree:
        path = f"{prefix}{entry.name}"
        if not utf8_path(path, log=False):
            continue
        if entry.type_str == "tree":
            yield from _walk_links(tree[entry.name].peel(pygit2.Tree), f"{path}/")
        elif entry.filemode == pygit2.enums.FileMode.COMMIT:
            yield path, str(entry.id)


def utf8_path(path: str, log: bool = True) -> bool:
    """Whether a tree path is UTF-8. Git accepts any bytes but NUL and ``/`` in a name, and
    pygit2 decodes the others as lone surrogates (``caf\\udce9.py`` for Latin-1 ``café``);
    the ledger, the payloads and the API hold UTF-8 text, so such a file (or directory) is
    left out, with a ``mirror.path_skipped`` event naming it byte-escaped (``caf\\xe9.py``)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        if log:
            logs.event("mirror.path_skipped", path=escaped(path), reason="path_encoding")
        return False
    return True


def escaped(text: str) -> str:
    """``text`` with its undecodable bytes (lone surrogates) written as ``\\xNN``: printable,
    storable UTF-8 for a message or a log field."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def attribute(repository: pygit2.Repository, commit: str, path: str, name: str) -> str | bool | None:
    """Git attribute ``name`` of ``path`` as the ``.gitattributes`` files of ``commit`` set it:
    a string value, ``True``/``False`` when set/unset, ``None`` when unspecified.

    Raises:
        MirrorError: the attribute files cannot be read.
    """
    try:
        return repository.get_attr(path, name, _ATTR_FLAGS, commit)
    except (pygit2.GitError, ValueError) as exc:
        raise MirrorError(f"{path}: cannot read attribute {name!r} at {commit[:12]}: {exc}") from exc


def read_blob(repository: pygit2.Repository, blob_id: str) -> bytes:
    """Raw bytes of a blob. Raises MirrorError if the object is missing."""
    try:
        return repository[blob_id].read_raw()
    except (KeyError, ValueError, pygit2.GitError) as exc:
        raise MirrorError(f"blob {blob_id} missing: {exc}") from exc


def read_path(repository: pygit2.Repository, commit: str, path: str) -> bytes:
    """Raw bytes of ``path`` at ``commit``.

    Raises:
        NotFound: no such regular file at that commit.
    """
    if not commit:
        raise NotFound(f"{path}: repository has no indexed commit")
    try:
        tree = repository[commit].peel(pygit2.Tree)
    except (KeyError, ValueError, pygit2.GitError) as exc:
        # a local source's objects are borrowed (``LOCAL_BORROWED``): pruned or deleted
        # there, they are gone here too until the next sync (a review: a bare KeyError)
        raise MirrorError(f"commit {commit[:12]} missing from the mirror ({exc}); a local source "
                          "may have been pruned or moved: sync the repository") from exc
    try:
        entry = tree[path]
    except (KeyError, ValueError):
        raise NotFound(f"{path}: no such file at {commit[:12]}") from None
    if entry.type_str != "blob" or entry.filemode not in _MODE_BLOB:
        raise NotFound(f"{path}: not a regular file at {commit[:12]}")
    return read_blob(repository, str(entry.id))
