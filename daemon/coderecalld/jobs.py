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
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from coderecalld import logs
from coderecalld.config import Config
from coderecalld.errors import CodeRecallError
from coderecalld.pipeline import IndexReport, Pipeline
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
    to whatever the lexical index holds without them. ``sync`` is what ``SyncRepo`` calls."""

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

    def start(self, run_first_now: bool = False) -> None:
        """Start the dense-vector worker and one interval job per repo (first run now, or
        after one interval)."""
        self._embed_worker = threading.Thread(target=self._embed_loop, name="embed-worker")
        self._embed_worker.start()
        self._embed_wanted.set()  # whatever a previous run left without vectors
        for repo in self.cfg.repos:
            first = datetime.now(timezone.utc) if run_first_now else None
            self._scheduler.add_job(
                self.sync, "interval", args=[repo.name], id=f"sync:{repo.name}",
                seconds=self.cfg.index.sync_interval_s, jitter=self.cfg.index.sync_jitter_s or None,
                **({"next_run_time": first} if first else {}))
        self._scheduler.start()

    def sync(self, name: str) -> IndexReport | None:
        """Lexical sync of ``name`` now; its dense vectors follow in the background worker,
        so the caller (a scheduled job or ``SyncRepo``) never waits on the model."""
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
        ``with_dense`` also embeds every point still missing a vector before returning."""
        repo = self.cfg.repo(name)
        if repo is None:
            return None
        with self._locks[name]:
            report = self.pipeline.index_repo(repo, with_dense=False)
            self._failures[name] = self._failures[name] + 1 if report.state is RepoState.ERROR else 0
        if with_dense:
            report.embedded += self.pipeline.embed_backlog()
        self._after_run()
        return report

    def _after_run(self) -> None:
        if self.after_run is not None:
            self.after_run()

    def _embed_loop(self) -> None:
        while not self._stopping.is_set():
            self._embed_wanted.wait()
            self._embed_wanted.clear()
            if not self._stopping.is_set():
                try:
                    embedded = self.pipeline.embed_backlog()
                except CodeRecallError as exc:
                    # The model or a remote endpoint failed (after its own retries): the
                    # points stay lexical-only and the next sync wakes this loop again.
                    logs.error("embed.backlog_failed", error=str(exc))
                    embedded = 0
                if embedded:
                    logs.event("embed.backlog_done", embedded=embedded)
                self._after_run()

    def shutdown(self) -> None:
        """Stop scheduling, stop the dense worker after its current group, wait for both."""
        self._stopping.set()
        self.pipeline.stop()
        self._embed_wanted.set()
        if self._scheduler.running:
            self._scheduler.shutdown(wait=True)
        if self._embed_worker is not None:
            self._embed_worker.join()
        logs.event("jobs.stopped")
