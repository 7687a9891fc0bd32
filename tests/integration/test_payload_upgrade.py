"""A store indexed under an older payload (no ``name_trigrams``) is re-indexed once on the
next sync, so fuzzy lookup works without a rebuild; after that, syncs touch only changes."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest

from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.index import points
from coderecalld.store import StoreFilter
from gitfixtures import GitRepo


def test_old_payload_is_reindexed_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    repo = GitRepo(tmp_path / "src")
    repo.commit({"a.py": "def isEligibleForRefund(order):\n    return order\n",
                 "b.py": "def other():\n    return 2\n", "README.md": "# x\n"})
    cfg = Config(data_dir=tmp_path / "data", repos=(RepoConfig("x", str(repo.path), "main"),),
                 embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    try:
        with caplog.at_level(logging.INFO):
            first = daemon.jobs.run_now("x")
        assert "index.payload_upgrade" not in caplog.text  # a first index is no upgrade
        assert (first.files_changed, daemon.ledger.payload_version("x")) == (3, points.PAYLOAD_VERSION)
        # Make it look like an index written before name_trigrams existed (payload version 1).
        old = [replace(p, payload={k: v for k, v in p.payload.items() if k != "name_trigrams"})
               for p in daemon.store.all_points("x")]
        daemon.store.upsert(old)
        daemon.ledger.set_payload_version("x", 1)
        assert daemon.service.find_symbols("isEligableForRefund", fuzzy=True) == []

        caplog.clear()
        with caplog.at_level(logging.INFO):
            upgraded = daemon.jobs.run_now("x")
        # The operator is told once, at WARNING, that queries scan until an optimize.
        warned = [r for r in caplog.records if r.getMessage() == "index.payload_upgrade"]
        assert [r.levelno for r in warned] == [logging.WARNING]
        fields = warned[0].fields  # type: ignore[attr-defined]
        assert (fields["repo"], fields["held"], fields["current"]) == ("x", 1, points.PAYLOAD_VERSION)
        assert "coderecalld optimize" in fields["advice"]
        assert (upgraded.files_changed, upgraded.embedded) == (3, 0)
        assert daemon.ledger.payload_version("x") == points.PAYLOAD_VERSION
        assert [(h.qualified_name, h.match) for h in
                daemon.service.find_symbols("isEligableForRefund", fuzzy=True)] == [
            ("isEligibleForRefund", "fuzzy")]
        assert daemon.store.count(StoreFilter(repo="x")) == len(old)  # same points, new payload

        caplog.clear()
        with caplog.at_level(logging.INFO):
            again = daemon.jobs.run_now("x")
        assert "index.payload_upgrade" not in caplog.text
        assert (again.files_changed, again.files_deleted) == (0, 0)
    finally:
        daemon.close()
