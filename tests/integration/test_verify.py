"""The verification job against the real embedded Qdrant: corrupt an indexed store behind
the ledger's back, find exactly that drift, repair it, and end with the store a
from-scratch index builds, point by point; the CLI; the nightly schedule."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import livedaemon
import pytest
from gitfixtures import GitRepo

from coderecalld import cli
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, MetricsConfig, RepoConfig
from coderecalld.daemon import Daemon

REPO = "audit"
#: Payload fields that differ between an incremental and a from-scratch index (the wall
#: clock of the write), as in test_crash_convergence.
VOLATILE = ("indexed_at",)
FILES = {
    "pay/ledger.py": "class Ledger:\n    def post(self, entry):\n        return entry\n\n"
                     "    def balance(self):\n        return 0\n\n\ndef audit(ledger):\n    return ledger.balance()\n",
    "pay/fx.py": "def convert(amount, rate):\n    return amount * rate\n",
    "README.md": "# Audit\n\nBooks that balance.\n",
}


def config(root: Path, src: Path, **kw) -> Config:
    return Config(data_dir=root / "data", repos=(RepoConfig(REPO, str(src), "main"),),
                  embedding=EmbeddingConfig(enabled=False),
                  index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0), **kw)


def points(daemon: Daemon) -> dict[str, tuple]:
    return {p.id: ({k: v for k, v in p.payload.items() if k not in VOLATILE}, p.sparse, p.dense)
            for p in daemon.store.all_points(REPO)}


def corrupt(daemon: Daemon) -> tuple[list[str], str]:
    """Drop two of pay/ledger.py's points and add two orphans (one for a path the ledger
    does not know, one with an unknown id under pay/fx.py); returns the dropped ids."""
    row = daemon.ledger.file(REPO, "pay/ledger.py")
    dropped = sorted(row.point_ids)[:2]
    daemon.store.delete_file_except(REPO, "pay/ledger.py", [i for i in row.point_ids if i not in dropped])
    (model,) = [p for p in daemon.store.all_points(REPO) if p.payload["path"] == "pay/fx.py"
                and p.payload["kind"] == "function"]
    ghost = replace(model, id=str(uuid.uuid4()), payload={**model.payload, "path": "gone/ghost.py"})
    stray = replace(model, id=str(uuid.uuid4()))
    daemon.store.upsert([ghost, stray])
    return dropped, stray.id


def test_verify_finds_the_exact_drift_and_repair_equals_a_from_scratch_index(tmp_path: Path) -> None:
    git = GitRepo(tmp_path / "src")
    git.commit(FILES)
    fresh = Daemon.open(config(tmp_path / "fresh", git.path))
    try:
        fresh.jobs.run_now(REPO)
        want = points(fresh)
    finally:
        fresh.close()

    live = livedaemon.start(config(tmp_path / "live", git.path, metrics=MetricsConfig(listen="127.0.0.1:0")))
    try:
        daemon = live.daemon
        assert points(daemon) == want  # the same index, before anything breaks
        dropped, stray = corrupt(daemon)
        before = livedaemon.scrape(live.ops.metrics_port)

        drift, fixed = daemon.jobs.verify(REPO, repair=False)
        assert fixed is None
        assert drift.counts == {"orphan_point": 2, "missing_point": 2, "count_mismatch": 0,
                                "file_index_short": 0}
        assert drift.missing == {"pay/ledger.py": tuple(dropped)}
        assert set(drift.orphans) == {"gone/ghost.py", "pay/fx.py"} and drift.orphans["pay/fx.py"] == (stray,)
        assert (drift.files, drift.points) == (3, len(want) - 2 + 2)
        assert len(points(daemon)) == len(want)  # check alone changes nothing

        drift, fixed = daemon.jobs.verify(REPO, repair=True)  # repairs, then syncs
        assert drift.counts == {"orphan_point": 2, "missing_point": 2, "count_mismatch": 0,
                                "file_index_short": 0}
        assert fixed.forgotten == ("pay/ledger.py",)
        assert fixed.deleted == 2 + len(want_for(want, "pay/ledger.py")) - 2  # orphans + the file's rest
        assert points(daemon) == want  # point by point: ids, payloads, vectors
        assert daemon.jobs.verify(REPO, repair=False)[0].clean
        after = livedaemon.scrape(live.ops.metrics_port)
        for kind, found in (("orphan_point", 4), ("missing_point", 4), ("count_mismatch", 0),
                            ("file_index_short", 0)):
            assert (livedaemon.value(after, "coderecall_verify_drift_total", kind=kind)
                    - livedaemon.value(before, "coderecall_verify_drift_total", kind=kind)) == found
        assert [h.qualified_name for h in live.client.find_symbols("Ledger", prefix=True)] == [
            "Ledger", "Ledger.post", "Ledger.balance"]
    finally:
        live.close()


def test_a_short_file_index_is_drift_and_its_repair_reindexes_the_repo(tmp_path: Path) -> None:
    """File-index points lost (deleted behind the pipeline's back) are drift of their own
    kind; the repair has every file re-indexed, after which the index is whole again."""
    git = GitRepo(tmp_path / "src")
    git.commit(FILES)
    daemon = Daemon.open(config(tmp_path, git.path))
    try:
        daemon.jobs.run_now(REPO)
        store = daemon.jobs.pipeline.store
        assert store.count_files(REPO) == 3
        assert store.delete_files(REPO, ["pay/fx.py", "pay/ledger.py"]) == 2
        drift, fixed = daemon.jobs.verify(REPO, repair=False)
        assert drift.counts == {"orphan_point": 0, "missing_point": 0, "count_mismatch": 0,
                                "file_index_short": 2}
        assert not drift.clean and fixed is None and store.count_files(REPO) == 1
        drift, fixed = daemon.jobs.verify(REPO, repair=True)  # repairs, then syncs
        assert fixed is not None and fixed.forgotten == () and store.count_files(REPO) == 3
        assert daemon.jobs.verify(REPO, repair=False)[0].clean
    finally:
        daemon.close()


def want_for(want: dict[str, tuple], path: str) -> list[str]:
    return [pid for pid, (payload, _, _) in want.items() if payload["path"] == path]


def test_cli_verify_exit_status_and_repair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    git = GitRepo(tmp_path / "src")
    git.commit(FILES)
    cfg_file = tmp_path / "coderecall.toml"
    cfg_file.write_text(f'data_dir = "{tmp_path / "data"}"\n[[repos]]\nname = "{REPO}"\nurl = "{git.path}"\n',
                        encoding="utf-8")
    daemon = Daemon.open(config(tmp_path, git.path))
    try:
        daemon.jobs.run_now(REPO)
        corrupt(daemon)
    finally:
        daemon.close()
    args = ["verify", "--config", str(cfg_file), "--no-embed"]
    assert cli.main(args) == 1  # drift found, left in place
    head = f"repo {REPO}  ledger_files=3 (indexed=3) points=6 pending_vectors=0"
    assert capsys.readouterr().out == f"{head}  orphan_point=2  missing_point=2  count_mismatch=0  file_index_short=0\n"
    assert cli.main([*args, "--repair"]) == 0
    assert capsys.readouterr().out == (f"{head}  orphan_point=2  missing_point=2  "
                                       f"count_mismatch=0  file_index_short=0  repaired: deleted=4 reindexed=1\n")
    assert cli.main(args) == 0
    assert capsys.readouterr().out == f"{head}  orphan_point=0  missing_point=0  count_mismatch=0  file_index_short=0\n"


def test_nightly_job_is_scheduled_from_the_cron_expression(tmp_path: Path) -> None:
    git = GitRepo(tmp_path / "src")
    git.commit(FILES)
    daemon = Daemon.open(config(tmp_path, git.path))
    try:
        daemon.jobs.start()
        job = daemon.jobs._scheduler.get_job("verify")
        now = datetime.now(timezone.utc)
        three = now.replace(hour=3, minute=0, second=0, microsecond=0)
        assert job.next_run_time == (three if three > now else three + timedelta(days=1))
    finally:
        daemon.close()
    off = Daemon.open(replace(config(tmp_path, git.path), verify=replace(config(tmp_path, git.path).verify, cron="")))
    try:
        off.jobs.start()
        assert off.jobs._scheduler.get_job("verify") is None
    finally:
        off.close()
