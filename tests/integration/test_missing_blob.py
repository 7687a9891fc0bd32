"""A blob the mirror lacks fails its file alone (issue 21's newcomer on
django-rest-framework: a snapshot without its 4 MiB ``docs/img/api-docs.gif`` stopped the
whole repo in state ``error`` at 71 files, "blob 6da560b7.. missing", no path named). The
file is recorded ``missing_blob`` with no blob, so the next sync tries it again and indexes
it once the blob is there. Real git fixture (the blob's object deleted), real daemon."""

from __future__ import annotations

import os
from pathlib import Path

import pygit2
import pytest

from coderecalld.config import RepoConfig
from coderecalld.errors import NotFound
from coderecalld.records import FileState, RepoState
from conformance_cases import daemon, indexed_paths, symbols
from gitfixtures import GitRepo

FILES = {"pkg/a.py": "def alpha():\n    return 1\n",
         "docs/img/big.txt": "a large asset the snapshot left out\n",
         "pkg/b.py": "def beta():\n    return alpha()\n"}


def test_a_missing_blob_fails_its_file_alone_and_is_retried(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(FILES, "initial")
    git = pygit2.Repository(str(repo.path))
    blob = str(git.revparse_single("HEAD:docs/img/big.txt").id)
    loose = Path(git.path) / "objects" / blob[:2] / blob[2:]
    os.chmod(loose, 0o644)
    loose.unlink()
    with daemon(tmp_path, RepoConfig("fx", str(repo.path), "main")) as running:
        report = running.jobs.run_now("fx")
        assert (report.state, report.error) == (RepoState.READY, "")
        assert (report.files_indexed, report.files_failed, dict(report.skipped_reasons)) == (2, 1, {"missing_blob": 1})
        assert indexed_paths(running, "fx") == {"pkg/a.py", "pkg/b.py"}
        row = running.ledger.file("fx", "docs/img/big.txt")
        assert (row.state, row.reason, row.blob_id) == (FileState.FAILED, "missing_blob", "")
        assert blob in row.detail
        status = next(r for r in running.service.list_repos() if r.name == "fx")
        assert (status.files, status.files_failed) == (2, 1)  # `repos` says so (a review)
        assert [s[1] for s in symbols(running, "fx", "alpha")] == ["alpha"]
        with pytest.raises(NotFound) as missing:  # said so, no internal error (a review)
            running.service.read_symbol("fx", "docs/img/big.txt", 1, 1)
        assert "the mirror lacks this file's blob" in str(missing.value)
        # the blob arrives: the next sync indexes the file
        assert str(git.create_blob(FILES["docs/img/big.txt"].encode())) == blob
        report = running.jobs.run_now("fx")
        assert (report.state, report.files_failed) == (RepoState.READY, 0)
        assert running.ledger.file("fx", "docs/img/big.txt").state is FileState.INDEXED
        assert next(r for r in running.service.list_repos() if r.name == "fx").files_failed == 0
