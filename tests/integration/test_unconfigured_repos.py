"""Issue 19, no hidden work: a repo dropped from the config keeps its points in the store
but costs no model time (the dense worker, ``index``, ``verify`` never embed it), is never
searched, and is not counted as pending; ``verify`` compares only unless asked to embed,
names the unconfigured repo, and ``--drop-unconfigured`` deletes it. Real model, real store."""

from __future__ import annotations

from pathlib import Path

import pytest
from coderecalld import cli
from coderecalld.config import Config, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.store import StoreFilter
from gitfixtures import GitRepo

KEPT = {"kept/tax.py": "def vat(amount):\n    \"\"\"Value added tax of an amount.\"\"\"\n    return amount * 0.2\n",
        "kept/util.py": "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n"}
DROPPED = {"dropped/geo.py": "def haversine(a, b):\n    \"\"\"Great-circle distance.\"\"\"\n    return 0.0\n\n\n"
                             "def bearing(a, b):\n    return 0.0\n"}


def _config(data: Path, *repos: GitRepo) -> Config:
    return Config(data_dir=data, repos=tuple(RepoConfig(r.path.name, str(r.path)) for r in repos),
                  index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))


@pytest.mark.slow
def test_a_dropped_repo_is_never_embedded_searched_or_counted(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    kept, dropped = GitRepo(tmp_path / "kept"), GitRepo(tmp_path / "dropped")
    kept.commit(KEPT)
    dropped.commit(DROPPED)
    data = tmp_path / "data"
    daemon = Daemon.open(_config(data, kept, dropped))
    try:  # lexical only: both repos' points wait for dense vectors
        for name in ("kept", "dropped"):
            daemon.jobs.run_now(name, with_dense=False)
        waiting = {n: daemon.store.count_missing_dense(n) for n in ("kept", "dropped")}
        # One chunk per function (definitions-only files have no module chunk).
        assert waiting == {"kept": 2, "dropped": 2}
    finally:
        daemon.close()

    daemon = Daemon.open(_config(data, kept))  # restarted with `dropped` gone from the config
    try:
        assert daemon.service.pending_vectors() == waiting["kept"]  # /metrics, status: configured only
        assert daemon.pipeline.backlog_repos == ("kept",)
        assert daemon.jobs._embed_backlog() == waiting["kept"]  # the dense worker's whole pass
        assert daemon.pipeline.embed_backlog() == 0  # nothing left that it may embed
        assert daemon.store.count_missing_dense("kept") == 0
        assert daemon.store.count_missing_dense("dropped") == waiting["dropped"]  # no model time
        assert daemon.service.pending_vectors() == 0
        assert daemon.progress.get("kept").phase == "done"
        hits = daemon.service.search("great-circle distance haversine", limit=10)
        assert hits and {h.repo for h in hits} == {"kept"}  # its points are never served
        assert daemon.store.count(StoreFilter(repo="dropped")) > 0  # but kept in the store
    finally:
        daemon.close()

    base = ["verify", "--repo", str(kept.path), "--data-dir", str(data)]
    assert cli.main(base) == 0
    out = capsys.readouterr().out
    assert f"unconfigured repo dropped: {waiting['dropped']} of its points lack a dense vector" in out
    assert "repo kept  ledger_files=2 (indexed=2) points=" in out and "pending_vectors=0" in out
    assert cli.main([*base, "--drop-unconfigured"]) == 0
    assert "unconfigured repo dropped: deleted" in capsys.readouterr().out
    daemon = Daemon.open(_config(data, kept))
    try:
        assert daemon.store.count(StoreFilter(repo="dropped")) == 0
        assert daemon.ledger.repo("dropped") is None
        assert daemon.store.count(StoreFilter(repo="kept")) == waiting["kept"]
    finally:
        daemon.close()


@pytest.mark.slow
def test_verify_compares_only_unless_asked_to_embed(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    kept = GitRepo(tmp_path / "kept")
    kept.commit(KEPT)
    data = tmp_path / "data"
    daemon = Daemon.open(_config(data, kept))
    try:
        daemon.jobs.run_now("kept", with_dense=False)
        waiting = daemon.store.count_missing_dense("kept")
    finally:
        daemon.close()
    base = ["verify", "--repo", str(kept.path), "--data-dir", str(data)]
    assert cli.main(base) == 0
    captured = capsys.readouterr()
    assert f"pending_vectors={waiting}" in captured.out
    assert f"{waiting} points still wait for a dense vector" in captured.out
    assert "repo kept: comparing ledger and store" in captured.err
    assert cli.main([*base, "--embed"]) == 0
    captured = capsys.readouterr()
    assert f"embedding kept: {waiting}/{waiting}" in captured.err  # progress, to the end
    assert cli.main(base) == 0
    assert "pending_vectors=0" in capsys.readouterr().out
