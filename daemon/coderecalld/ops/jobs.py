"""Scheduling only: re-sync every repo on an interval with jitter, never two runs of one repo at once.

Uses APScheduler 3.11 (the stable line). A run is: lexical index of what changed, then the
dense backlog (DESIGN.md decision 4: freshness of the lexical index never waits on the model).

A repo whose sync fails (state ``error``: auth, network, a corrupt object) keeps its last good
index and is retried with exponential backoff (``retry_delay``: 30 s doubling up to the sync
interval, jittered) by moving its own job's next run; other repos' jobs are untouched.
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from coderecalld import logs, metrics
from coderecalld.config import Config
from coderecalld.errors import CodeRecallError, InvalidArgument, StoreError
from coderecalld.index import verify
from coderecalld.index.pipeline import IndexReport, Pipeline
from coderecalld.ops.cluster import Shard, shard_of
from coderecalld.records import RepoState

#: First retry after a failed sync, in seconds; each further failure doubles it, up to the
#: sync interval.
RETRY_BASE_S = 30.0
#: Up to this fraction of a retry delay is taken off at random, so repos failing together
#: (one network outage) do not retry in lockstep.
RETRY_JITTER = 0.2


def retry_delay(failures: int, interval_s: float, base_s: float = RETRY_BASE_S,
                jitter: float = RETRY_JITTER, rand: float = 0.0) -> float:
    """Seconds until the next sync of a repo after ``failures`` consecutive failed syncs:
    ``min(interval_s, base_s * 2 ** (failures - 1)) * (1 - jitter * rand)`` with ``rand`` in
    [0, 1); ``interval_s`` when ``failures`` is 0 (the normal schedule)."""
    if failures <= 0:
        return interval_s
    delay = min(interval_s, base_s * 2.0 ** min(failures - 1, 60))
    return delay * (1.0 - jitter * rand)


class Jobs:
    """Runs syncs for the configured repos, and one background worker that adds dense vectors
    to whatever the lexical index holds without them. ``sync`` is what ``SyncRepo`` calls.

    With ``cluster.replicas`` > 1 only the repos this replica owns (``shard``, DESIGN.md
    decision 9) are scheduled or synced; the others belong to another replica.

    Raises:
        ConfigError: the ordinal derived from the host name is not below ``cluster.replicas``.
    """

    def __init__(self, cfg: Config, pipeline: Pipeline, workers: int = 2,
                 retry_base_s: float = RETRY_BASE_S,
                 rand: Callable[[], float] = random.random) -> None:
        self.cfg = cfg
        self.pipeline = pipeline
        self.retry_base_s = retry_base_s
        self._rand = rand
        self._failures: defaultdict[str, int] = defaultdict(int)
        self._locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        self._scheduler = BackgroundScheduler(
            executors={"default": ThreadPoolExecutor(max_workers=workers)},
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
            timezone=timezone.utc)
        self._embed_wanted = threading.Event()
        self._stopping = threading.Event()
        self._embed_worker: threading.Thread | None = None
        #: Called (no arguments) after every sync and every dense-backlog pass; the daemon
        #: sets it during a rebuild to switch generations once the new one is complete.
        self.after_run: Callable[[], object] | None = None
        self.shard = Shard.resolve(cfg.cluster.replicas, cfg.cluster.ordinal)
        if self.shard.replicas > 1:  # the other replicas embed their own repos' points
            pipeline.backlog_repos = tuple(r.name for r in cfg.repos if self.shard.owns(r.name))
        self._trigger_lock = threading.Lock()
        self._triggered: set[str] = set()

    def start(self, run_first_now: bool = False) -> None:
        """Start the dense-vector worker and one interval job per repo (first run now, or
        after one interval)."""
        self._embed_worker = threading.Thread(target=self._embed_loop, name="embed-worker")
        self._embed_worker.start()
        self._embed_wanted.set()  # whatever a previous run left without vectors
        owned = [r for r in self.cfg.repos if self.shard.owns(r.name)]
        logs.event("jobs.shard", replicas=self.shard.replicas, ordinal=self.shard.ordinal,
                   repos=len(owned))
        metrics.reset_sync_failures(r.name for r in owned)
        for repo in owned:
            first = datetime.now(timezone.utc) if run_first_now else None
            self._scheduler.add_job(
                self.sync, "interval", args=[repo.name], id=f"sync:{repo.name}",
                seconds=self.cfg.index.sync_interval_s, jitter=self.cfg.index.sync_jitter_s or None,
                **({"next_run_time": first} if first else {}))
        self._add_verify_job()
        self._scheduler.start()

    def sync(self, name: str) -> IndexReport | None:
        """Lexical sync of ``name`` now; its dense vectors follow in the background worker,
        so the caller (a scheduled job or ``SyncRepo``) never waits on the model.

        Raises:
            InvalidArgument: another replica owns ``name``.
        """
        if self.cfg.repo(name) is not None and not self.shard.owns(name):
            raise InvalidArgument(f"sync: repo {name!r} is indexed by replica "
                                  f"{shard_of(name, self.shard.replicas)}, this is replica {self.shard.ordinal}")
        report = self.run_now(name, with_dense=False)
        self._embed_wanted.set()
        if report is not None:
            self._reschedule(name)
        return report

    def failures(self, name: str) -> int:
        """Consecutive failed syncs of ``name`` (0 after a good one)."""
        return self._failures[name]

    def _reschedule(self, name: str) -> None:
        """After a failed sync, move the repo's job to ``retry_delay`` from now; after a good
        one leave it on its interval (which runs from the previous scheduled run)."""
        failures = self._failures[name]
        job = self._scheduler.get_job(f"sync:{name}") if self._scheduler.running else None
        if not failures or job is None:
            return
        delay = retry_delay(failures, self.cfg.index.sync_interval_s, self.retry_base_s,
                            rand=self._rand())
        job.modify(next_run_time=datetime.now(timezone.utc) + timedelta(seconds=delay))
        logs.event("jobs.retry_scheduled", repo=name, failures=failures, delay_s=round(delay, 3))

    def run_now(self, name: str, with_dense: bool = True) -> IndexReport | None:
        """Sync repo ``name`` now; waits if a run of that repo is in progress. With
        ``with_dense`` also embeds every point still missing a vector before returning.
        ``None`` for a repo that is not configured or that another replica owns."""
        repo = self.cfg.repo(name)
        if repo is None or not self.shard.owns(name):
            return None
        with metrics.INDEX_QUEUE_DEPTH.track_inprogress(), self._locks[name]:
            report = self.pipeline.index_repo(repo, with_dense=False)
            self._failures[name] = self._failures[name] + 1 if report.state is RepoState.ERROR else 0
            metrics.sync_failures(name, self._failures[name])
            self._settle(name)
        if with_dense and self.pipeline.embedder is not None:
            report.embedded += self.pipeline.embed_repo(name)
        self.refresh_pending((name,))
        self._after_run()
        return report

    def _settle(self, name: str = "", now: bool = True) -> None:
        """The store's ``settle`` after a sync of ``name`` (its deletions leave the IDF
        statistics), ``now`` while serving (a large shard is deferred to ``optimize``); a
        failure is logged, never the sync's."""
        scope = {"repo": name} if name else {}
        try:
            settled = self.pipeline.store.settle(now=now)
        except CodeRecallError as exc:
            logs.error("store.settle_failed", error=str(exc), **scope)
            return
        if settled.reloaded:
            logs.event("store.settled", shards=settled.reloaded, **scope)
        if settled.deferred:
            logs.event("store.settle_deferred", shards=settled.deferred, **scope)

    def _after_run(self) -> None:
        if self.after_run is not None:
            self.after_run()

    def _embed_loop(self) -> None:
        while not self._stopping.is_set():
            self._embed_wanted.wait()
            self._embed_wanted.clear()
            if not self._stopping.is_set():
                try:
                    embedded = self._embed_backlog()
                except CodeRecallError as exc:
                    # The model or a remote endpoint failed (after its own retries): the
                    # points stay lexical-only and the next sync wakes this loop again.
                    logs.error("embed.backlog_failed", error=str(exc))
                    embedded = 0
                if embedded:
                    logs.event("embed.backlog_done", embedded=embedded)
                self._after_run()

    def shutdown(self) -> None:
        """Stop scheduling, stop a running sync after its current file and the dense worker
        after its current model batch, wait for both. A second call does nothing."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        self.pipeline.stop()
        self._embed_wanted.set()
        if self._scheduler.running:
            self._scheduler.shutdown(wait=True)
        if self._embed_worker is not None:
            self._embed_worker.join()
        logs.event("jobs.stopped")

    # --- webhooks, verification, progress (issue 8) ------------------------------------

    def trigger(self, name: str) -> bool:
        """Queue a sync of ``name`` to start now, without waiting for it (webhooks).
        A trigger while an earlier one has not started yet joins it. False when ``name``
        is not configured."""
        if self.cfg.repo(name) is None:
            return False
        with self._trigger_lock:
            if name in self._triggered:
                return True
            self._triggered.add(name)
            metrics.INDEX_QUEUE_DEPTH.inc()
        self._scheduler.add_job(self._run_triggered, args=[name], id=f"hook:{name}",
                                replace_existing=True, next_run_time=datetime.now(timezone.utc))
        return True

    def _run_triggered(self, name: str) -> None:
        with self._trigger_lock:
            self._triggered.discard(name)
            metrics.INDEX_QUEUE_DEPTH.dec()  # run_now counts it from here
        self.sync(name)

    def verify(self, name: str, repair: bool) -> tuple[verify.Drift, verify.Repair | None]:
        """Compare repo ``name``'s ledger and store (no sync of it runs meanwhile); with
        ``repair``, fix the drift and sync the repo so forgotten files are indexed again."""
        with self._locks[name]:
            drift, fixed = verify.run(self.pipeline.ledger, self.pipeline.store, name, repair)
        if fixed is not None:
            self.sync(name)
        return drift, fixed

    def verify_all(self) -> None:
        """``verify`` every configured repo this replica owns (the nightly job); one repo's
        failure is logged and never stops the others."""
        for repo in self.cfg.repos:
            if self._stopping.is_set():
                return
            if not self.shard.owns(repo.name):
                continue
            try:
                self.verify(repo.name, self.cfg.verify.repair)
            except Exception as exc:  # noqa: BLE001 - a store error in one repo: log, go on
                logs.error("verify.failed", repo=repo.name, error=str(exc))

    def optimize(self) -> bool:
        """Run the store's optimizers (``store.optimize_cron``, ``coderecalld index`` and
        ``optimize``), then settle it without a bound (the shards a sync deferred: the
        process is held anyway); True when any segment was rewritten. Errors are logged,
        not raised: an unoptimized store still answers, only slower."""
        started = time.monotonic()
        try:
            changed = bool(self.pipeline.store.optimize())
        except StoreError as exc:
            logs.error("store.optimize_failed", error=str(exc))
            return False
        logs.event("store.optimized", changed=changed, duration_s=round(time.monotonic() - started, 2))
        self._settle(now=False)
        return changed

    def _add_verify_job(self) -> None:
        from apscheduler.triggers.cron import CronTrigger

        if self.cfg.verify.cron:
            self._scheduler.add_job(self.verify_all, CronTrigger.from_crontab(
                self.cfg.verify.cron, timezone=timezone.utc), id="verify")
        if self.cfg.store.optimize_cron:
            self._scheduler.add_job(self.optimize, CronTrigger.from_crontab(
                self.cfg.store.optimize_cron, timezone=timezone.utc), id="optimize")

    def refresh_pending(self, names: tuple[str, ...] | None = None) -> None:
        """Report the points still waiting for a dense vector of ``names`` (every
        configured repo when None) to the progress registry."""
        if self.pipeline.embedder is None:
            return
        for name in names if names is not None else [r.name for r in self.cfg.repos]:
            count = self.pipeline.store.count_missing_dense(name)
            if self.pipeline.progress.get(name).pending_vectors != count:
                self.pipeline.progress.update(name, pending_vectors=count)

    def _embed_backlog(self) -> int:
        """The backlog of every configured repo this replica owns, one repo at a time (its
        progress shows phase ``embedding`` with ``vectors_done`` and ``eta_s``); never a
        repo that is not configured (its points stay lexical-only, costing no model time)."""
        if self.pipeline.embedder is None:
            return 0
        total = 0
        for name in self.pipeline.backlog_repos:
            if self._stopping.is_set():
                break
            total += self.pipeline.embed_repo(name)
        return total
