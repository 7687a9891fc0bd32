"""Conformance cases run through the real daemon: build the case's git repository with its own
script, index it with ``Daemon.open`` (sparse only, for speed), and read back what was stored.

The cases live in ``tests/fixtures/conformance/<case>/`` byte for byte as in the shared suite,
its helper scripts in ``tests/fixtures/conformance/tools/``. A case's ``build.sh`` sources
``../../tools/fixture_lib.sh``, so each build runs from a copy laid out like the suite
(``cases/<case>`` next to ``tools``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.records import FileState, Hit
from coderecalld.store import StoreFilter
from gitfixtures import GitRepo

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "conformance"


def expected(case: str) -> dict:
    """The case's ``expected.json``."""
    return json.loads((FIXTURES / case / "expected.json").read_text("utf-8"))


def make_repo(case: str, out: Path) -> str:
    """A one-commit repository of the case's ``repo/`` folder at ``out``; its commit id."""
    suite = _suite(case, out.parent / f"{out.name}-suite")
    done = _bash(suite / "tools" / "make_repo.sh", suite / "cases" / case, out)
    return done.stdout.split()[-1]


def build(case: str, out: Path, *args: str) -> dict[str, str]:
    """Run the case's ``build.sh [args] out``; the ``NAME -> commit`` lines of ``out/STATES``."""
    suite = _suite(case, out.parent / f"{out.name}-suite")
    _bash(suite / "cases" / case / "build.sh", *args, out)
    states = out / "STATES"
    lines = states.read_text().split() if states.exists() else []
    return dict(line.split("=", 1) for line in lines)


def commit_all(repo_dir: Path, message: str) -> str:
    """Commit every change in ``repo_dir`` with the suite's fixed identity; the new commit id."""
    lib = FIXTURES / "tools" / "fixture_lib.sh"
    script = 'source "$1"; commit_all "$2" "$3"; git -C "$2" rev-parse HEAD'
    done = subprocess.run(["bash", "-c", script, "bash", lib, repo_dir, message],
                          check=True, capture_output=True, text=True)
    return done.stdout.split()[-1]


def point_branch(repo_dir: Path, commit: str, branch: str = "main") -> None:
    """Move ``branch`` of the source repository to ``commit`` (the next sync indexes it)."""
    subprocess.run(["git", "-C", str(repo_dir), "update-ref", f"refs/heads/{branch}", commit],
                   check=True, capture_output=True)


@contextmanager
def daemon(tmp_path: Path, *repos: RepoConfig, exclude: tuple[str, ...] = (),
           skip_vendored: bool = False) -> Iterator[Daemon]:
    """A real daemon over ``repos`` with its data dir in ``tmp_path/data``; dense vectors off."""
    with reopen(config(tmp_path, *repos, exclude=exclude, skip_vendored=skip_vendored)) as running:
        yield running


@contextmanager
def indexed(tmp_path: Path, files: dict[str, str], name: str = "fx") -> Iterator[Daemon]:
    """A real daemon (``daemon``) over one git repo ``name`` holding ``files`` (path -> text)
    in one commit, synced once."""
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(files, "initial")
    with daemon(tmp_path, RepoConfig(name, str(repo.path), "main")) as running:
        running.jobs.run_now(name)
        yield running


def config(tmp_path: Path, *repos: RepoConfig, exclude: tuple[str, ...] = (),
           skip_vendored: bool = False) -> Config:
    """Dense vectors off; the vendored-tree default off unless asked: the cases' fixtures
    put files under ``vendor/`` that they expect indexed (e.g. case 18)."""
    return Config(data_dir=tmp_path / "data", repos=repos, embedding=EmbeddingConfig(enabled=False),
                  index=IndexConfig(exclude=exclude, sync_interval_s=3600, sync_jitter_s=0,
                                    skip_vendored=skip_vendored))


@contextmanager
def reopen(cfg: Config) -> Iterator[Daemon]:
    """Open a daemon on ``cfg`` (a restart when its data dir exists); closed on exit."""
    running = Daemon.open(cfg)
    try:
        yield running
    finally:
        running.close()


def points(running: Daemon, repo: str) -> list[Hit]:
    """Every point the store holds for ``repo`` (read from the store, not through search)."""
    return running.store.find(StoreFilter(repo=repo), "repo", repo, limit=10_000)


def stored_paths(running: Daemon, repo: str) -> set[str]:
    """Paths with at least one point in the store."""
    return {h.payload["path"] for h in points(running, repo)}


def indexed_paths(running: Daemon, repo: str) -> set[str]:
    """Paths the ledger records as indexed."""
    return {row.path for row in running.ledger.files(repo, FileState.INDEXED)}


def caller_rows(running: Daemon, name: str) -> list[tuple[str, int, str, str]]:
    """``(path, line, caller, confidence)`` of every call site ``callers NAME`` answers (up
    to 500), sorted: the order of a set of sites, not the answer's."""
    return sorted((s.path, s.line, s.caller, s.confidence) for s in running.service.find_callers(name, limit=500))


def symbols(running: Daemon, repo: str, name: str) -> list[tuple[str, str, str, int, int]]:
    """``(path, qualified_name, kind, start_line, end_line)`` of each symbol called ``name``.

    Module chunks are left out: lookup also finds a module by its file's stem
    (``old_a`` -> ``legacy.old_a``), and the cases' symbols are the definitions in files.
    """
    return [(h.path, h.qualified_name, h.kind, h.start_line, h.end_line)
            for h in running.service.find_symbols(name, repo=repo) if h.kind != "module"]


def _suite(case: str, root: Path) -> Path:
    """A copy of the case and the tools laid out as the shared suite (``cases/``, ``tools/``)."""
    if not root.exists():
        shutil.copytree(FIXTURES / case, root / "cases" / case)
        shutil.copytree(FIXTURES / "tools", root / "tools")
    return root


def _bash(script: Path, *args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(script), *map(str, args)], check=True,
                          capture_output=True, text=True)
