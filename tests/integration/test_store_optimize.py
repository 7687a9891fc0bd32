"""Building the embedded store's search indexes (``EdgeStore.optimize``) and when the
daemon does it: at the end of ``coderecalld index``, on ``coderecalld optimize``, and on the
``store.optimize_cron`` schedule in ``serve``. Real Edge store, real pipeline."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from gitfixtures import GitRepo

from coderecalld import cli
from coderecalld.config import Config, ConfigError, EmbeddingConfig, IndexConfig, RepoConfig, StoreConfig
from coderecalld.config import load as load_config
from coderecalld.daemon import Daemon
from coderecalld.errors import StoreError
from coderecalld.records import PointRecord, SparseVector
from coderecalld.store import EdgeStore, StoreFilter

#: Enough 384-d points that the engine's default indexing threshold is crossed (3,000 are not:
#: ``optimize`` returns False there and builds nothing).
POINTS = 12_000


def unit_vectors(n: int, dim: int = 384, family: int = 5, seed: int = 7) -> np.ndarray:
    """``n`` unit vectors in families of ``family`` near-duplicates (a random direction plus
    small noise: cosine ~0.99 within a family, ~0 across), so each point's exact top
    ``family`` is its own family and an approximate index has no near-ties to get wrong."""
    rng = np.random.default_rng(seed)
    centres = np.repeat(rng.standard_normal((n // family, dim)), family, axis=0)
    vectors = (centres + 0.1 * rng.standard_normal((n, dim))).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_optimize_builds_the_dense_index_and_search_answers_the_same(tmp_path: Path) -> None:
    vectors = unit_vectors(POINTS)
    ids = [str(uuid.UUID(int=i + 1)) for i in range(POINTS)]
    store = EdgeStore(tmp_path / "store", 384, "test-model", "v1")
    try:
        store.upsert([PointRecord(id=ids[i], payload={"repo": "r", "path": f"f{i % 97}.py", "name": f"n{i}"},
                                  sparse=SparseVector((i % 50,), (1.0,)), dense=tuple(vectors[i].tolist()))
                      for i in range(POINTS)])
        store.flush()
        before = store.info()
        probes = [3, 4_000, 11_999]
        exact = [{h.id for h in store.dense_search(vectors[i].tolist(), StoreFilter(), 5)} for i in probes]
        assert exact == [{ids[j] for j in range(i - i % 5, i - i % 5 + 5)} for i in probes]  # its family
        assert before == {"points": POINTS, "segments": 1, "indexed_vectors": POINTS}  # sparse only
        assert store.optimize() is True
        after = store.info()
        assert after["points"] == POINTS
        assert after["indexed_vectors"] == 2 * POINTS  # every dense vector is now in a graph
        for i, want in zip(probes, exact):
            hits = store.dense_search(vectors[i].tolist(), StoreFilter(), 5)
            assert hits[0].id == ids[i] and hits[0].score == pytest.approx(1.0, abs=1e-4)
            assert {h.id for h in hits} == want  # the graph finds the exact top 5
        assert store.optimize() is False  # nothing left to do
    finally:
        store.close()
    reopened = EdgeStore(tmp_path / "store", 384, "test-model", "v1")
    try:
        assert reopened.info()["indexed_vectors"] == 2 * POINTS  # persisted, not rebuilt at open
    finally:
        reopened.close()


FILES = {"pay/fx.py": "def convert(amount, rate):\n    return amount * rate\n",
         "pay/tax.py": "def vat(amount):\n    return amount * 0.2\n"}


def config(root: Path, src: Path, **kw) -> Config:
    return Config(data_dir=root / "data", repos=(RepoConfig("pay", str(src), "main"),),
                  embedding=EmbeddingConfig(enabled=False),
                  index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0), **kw)


def test_index_and_optimize_commands_run_the_optimizers(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    git = GitRepo(tmp_path / "src")
    git.commit(FILES)
    cfg_file = tmp_path / "coderecall.toml"
    cfg_file.write_text(f'data_dir = "{tmp_path / "data"}"\n[[repos]]\nname = "pay"\nurl = "{git.path}"\n',
                        encoding="utf-8")
    assert cli.main(["index", "--config", str(cfg_file), "--no-embed"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "store already optimized"  # 4 points: under the indexing threshold
    assert cli.main(["index", "--config", str(cfg_file), "--no-embed", "--no-optimize"]) == 0
    assert "optimized" not in capsys.readouterr().out
    assert cli.main(["optimize", "--config", str(cfg_file), "--no-embed"]) == 0
    assert capsys.readouterr().out == "store already optimized\n"


def test_optimize_job_is_scheduled_and_a_failure_is_logged_not_raised(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git = GitRepo(tmp_path / "src")
    git.commit(FILES)
    daemon = Daemon.open(config(tmp_path, git.path))
    try:
        daemon.jobs.start()
        job = daemon.jobs._scheduler.get_job("optimize")
        now = datetime.now(timezone.utc)
        due = now.replace(hour=3, minute=30, second=0, microsecond=0)
        assert job.next_run_time == (due if due > now else due + timedelta(days=1))

        def broken() -> bool:
            raise StoreError("store x: optimize: disk full")

        monkeypatch.setattr(daemon.pipeline.store, "optimize", broken)
        assert daemon.jobs.optimize() is False  # logged; the daemon keeps serving
    finally:
        daemon.close()
    base = config(tmp_path, git.path)
    off = Daemon.open(replace(base, store=replace(base.store, optimize_cron="")))
    try:
        off.jobs.start()
        assert off.jobs._scheduler.get_job("optimize") is None
    finally:
        off.close()


def test_bad_optimize_cron_is_a_config_error(tmp_path: Path) -> None:
    cfg_file = tmp_path / "c.toml"
    cfg_file.write_text(f'data_dir = "{tmp_path}"\n[store]\noptimize_cron = "every night"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"store.optimize_cron: expected a 5-field crontab expression, "
                                          r"got 'every night'"):
        load_config(str(cfg_file))
    assert StoreConfig().optimize_cron == "30 3 * * *"
