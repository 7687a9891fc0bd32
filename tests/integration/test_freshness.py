"""Freshness reporting and failure backoff (issue 4 items 3, 4, 6): ``pending_vectors`` and
``lag_s`` in ``ListRepos``, the freshness and embedding metrics as Prometheus scrapes them,
and a failing repo retried with backoff while the others keep their schedule.

``pending_vectors`` counts the repo's points without a dense vector; with embeddings disabled
no point ever gets one, so nothing waits and it is 0.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.errors import StoreError
from coderecalld.index import pipeline as pipeline_mod
from coderecalld.ops.jobs import Jobs
from gitfixtures import GitRepo
from prometheus_client import REGISTRY, generate_latest
from prometheus_client.parser import text_string_to_metric_families

FILES = {
    "app/__init__.py": "",
    "app/money.py": 'def cents(amount):\n    """Amount in cents."""\n    return round(amount * 100)\n\n\n'
                    'class Wallet:\n    def pay(self, amount):\n        return cents(amount)\n',
    "app/mail.py": "def send(to, body):\n    return (to, body)\n",
}


def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the default registry, as ``generate_latest`` serves it."""
    text = generate_latest(REGISTRY).decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def embeddings(samples: dict, outcome: str) -> float:
    return samples[("coderecall_embeddings_total", (("outcome", outcome),))]


def lag(samples: dict, repo: str) -> float | None:
    return samples.get(("coderecall_index_lag_seconds", (("repo", repo),)))


def config(tmp_path: Path, src: Path, enabled: bool = True) -> Config:
    return Config(data_dir=tmp_path / "data",
                  repos=(RepoConfig("shop", str(src), "main"),
                         RepoConfig("gone", str(tmp_path / "does-not-exist"), "main")),
                  embedding=EmbeddingConfig(enabled=enabled, threads=2),
                  index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))


@pytest.fixture
def shop(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "shop")
    repo.commit(FILES, "initial")
    return repo


@pytest.fixture
def daemon(tmp_path: Path, shop: GitRepo) -> Iterator[Daemon]:
    d = Daemon.open(config(tmp_path, shop.path))
    try:
        yield d
    finally:
        d.close()


def status(d: Daemon, name: str = "shop"):
    return next(r for r in d.service.list_repos() if r.name == name)


def test_pending_vectors_lexical_first_then_zero_and_reuse_is_counted(daemon: Daemon, shop: GitRepo):
    before = scrape()
    report = daemon.jobs.run_now("shop", with_dense=False)  # lexical only, as a scheduled sync
    chunks = report.chunks
    assert chunks == status(daemon).chunks and chunks >= 4
    repo = status(daemon)
    assert (repo.pending_vectors, repo.lag_s) == (chunks, 0.0)
    samples = scrape()
    assert samples[("coderecall_points_pending_vectors", ())] == chunks
    assert lag(samples, "shop") == 0.0 and lag(samples, "gone") == 0.0  # configured repos only
    assert {k[1] for k in samples if k[0] == "coderecall_index_lag_seconds"} == {
        (("repo", "shop"),), (("repo", "gone"),)}

    assert daemon.pipeline.embed_backlog() == chunks
    assert status(daemon).pending_vectors == 0
    samples = scrape()
    assert samples[("coderecall_points_pending_vectors", ())] == 0
    # Each distinct embedded text is computed once. No two chunks here share one: a file
    # of definitions only (``__init__.py``, no docstring) has no blank module chunk.
    distinct = len({p.payload["embed_text"] for p in daemon.store.all_points("shop")})
    assert distinct == chunks
    assert embeddings(samples, "computed") - embeddings(before, "computed") == distinct
    assert embeddings(samples, "reused") - embeddings(before, "reused") == chunks - distinct

    # A change waits for its new vectors only (the file is one function: no module chunk);
    # a revert re-uses every earlier vector: no model work, nothing pending.
    shop.commit({"app/mail.py": "def send(to):\n    return to\n"}, "change")
    changed = daemon.jobs.run_now("shop", with_dense=False).chunks
    after = scrape()
    assert changed == 1 and status(daemon).pending_vectors == 1
    assert embeddings(after, "reused") - embeddings(samples, "reused") == 0
    assert daemon.pipeline.embed_backlog() == 1
    samples = scrape()
    assert embeddings(samples, "computed") - embeddings(after, "computed") == 1
    shop.commit({"app/mail.py": FILES["app/mail.py"]}, "revert")
    reverted = daemon.jobs.run_now("shop", with_dense=False).chunks
    after = scrape()
    assert status(daemon).pending_vectors == 0
    assert embeddings(after, "reused") - embeddings(samples, "reused") == reverted == 1
    assert embeddings(after, "computed") == embeddings(samples, "computed")

def test_lag_counts_from_the_fetch_of_an_unindexed_commit(daemon: Daemon, shop: GitRepo,
                                                          monkeypatch: pytest.MonkeyPatch):
    first = daemon.jobs.run_now("shop").commit
    head = shop.commit({"app/mail.py": "def send(to):\n    return to\n"}, "change")

    def broken(self, report, repository, commit):
        raise StoreError("disk full")

    monkeypatch.setattr(pipeline_mod.Pipeline, "_index_commit", broken)
    fetched_at = time.time()
    assert daemon.jobs.run_now("shop").state == "error"
    time.sleep(0.3)
    repo, samples, now = status(daemon), scrape(), time.time()
    assert (repo.indexed_commit, repo.state) == (first, "error")  # last good index kept
    assert daemon.ledger.repo("shop").fetched_commit == head
    assert 0.3 <= repo.lag_s <= now - fetched_at
    assert 0.3 <= lag(samples, "shop") <= time.time() - fetched_at

    monkeypatch.undo()
    assert daemon.jobs.run_now("shop").commit == head
    assert status(daemon).lag_s == 0.0 and lag(scrape(), "shop") == 0.0
    # Every hit carries the repo's indexed commit.
    assert {h.commit for h in daemon.service.search("send", repo="shop")} == {head}


def test_disabled_embeddings_report_nothing_pending(tmp_path: Path, shop: GitRepo):
    d = Daemon.open(config(tmp_path, shop.path, enabled=False))
    try:
        assert d.jobs.run_now("shop").chunks >= 4
        assert status(d).pending_vectors == 0
        assert scrape()[("coderecall_points_pending_vectors", ())] == 0
    finally:
        d.close()
    assert lag(scrape(), "shop") is None  # a closed daemon's series are gone


def test_failing_repo_backs_off_and_never_delays_the_others(tmp_path: Path, shop: GitRepo):
    cfg = config(tmp_path, shop.path, enabled=False)
    d = Daemon.open(cfg)
    jobs = Jobs(cfg, d.pipeline, retry_base_s=10.0, rand=lambda: 0.5)
    try:
        jobs.start()
        good_next = jobs._scheduler.get_job("sync:shop").next_run_time
        for failures, delay in ((1, 9.0), (2, 18.0), (3, 36.0)):
            asked = datetime.now(timezone.utc)
            assert jobs.sync("gone").state == "error"
            assert jobs.failures("gone") == failures
            due = (jobs._scheduler.get_job("sync:gone").next_run_time - asked).total_seconds()
            assert delay <= due <= delay + 2.0
        assert jobs.sync("shop").state == "ready" and jobs.failures("shop") == 0
        assert jobs._scheduler.get_job("sync:shop").next_run_time == good_next  # interval kept
    finally:
        jobs.shutdown()
        d.close()

    # Live: first runs now, the failing repo retried at 0.25, 0.5, 1 s... , the good one synced once.
    d = Daemon.open(replace(cfg, data_dir=tmp_path / "live"))
    jobs = Jobs(cfg, d.pipeline, retry_base_s=0.25, rand=lambda: 0.0)
    try:
        jobs.start(run_first_now=True)
        time.sleep(2.2)
        assert 3 <= jobs.failures("gone") <= 5  # 0, 0.25, 0.75, 1.75 s: not hammered
        assert d.ledger.repo("shop").state == "ready"
    finally:
        jobs.shutdown()
        d.close()
