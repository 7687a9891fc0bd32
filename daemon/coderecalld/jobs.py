"""Scheduling only: re-sync every repo on an interval with jitter, never two runs of one repo at once.

Uses APScheduler 3.11 (the stable line). A run is: lexical index of what changed, then the
dense backlog (DESIGN.md decision 4: freshness of the lexical index never waits on the model).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from datetime import datetime, timezone

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from coderecalld import logs
from coderecalld.config import Config
from coderecalld.pipeline import IndexReport, Pipeline


class Jobs:
    """Runs syncs for the configured repos; ``run_now`` is what ``SyncRepo`` calls."""

    def __init__(self, cfg: Config, pipeline: Pipeline, workers: int = 2) -> None:
        self.cfg = cfg
        self.pipeline = pipeline
        self._locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        self._scheduler = BackgroundScheduler(
            executors={"default": ThreadPoolExecutor(max_workers=workers)},
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
            timezone=timezone.utc)

    def start(self, run_first_now: bool = False) -> None:
        """Schedule one interval job per repo (first run now, or after one interval)."""
        for repo in self.cfg.repos:
            first = datetime.now(timezone.utc) if run_first_now else None
            self._scheduler.add_job(
                self.run_now, "interval", args=[repo.name], id=f"sync:{repo.name}",
                seconds=self.cfg.index.sync_interval_s, jitter=self.cfg.index.sync_jitter_s or None,
                **({"next_run_time": first} if first else {}))
        self._scheduler.start()

    def run_now(self, name: str, with_dense: bool = True) -> IndexReport | None:
        """Sync repo ``name`` now; waits if a run of that repo is in progress."""
        repo = self.cfg.repo(name)
        if repo is None:
            return None
        with self._locks[name]:
            report = self.pipeline.index_repo(repo, with_dense=False)
            if with_dense:
                report.embedded += self.pipeline.embed_backlog()
            return report

    def shutdown(self) -> None:
        """Stop scheduling and wait for running syncs to finish."""
        if self._scheduler.running:
            self._scheduler.shutdown(wait=True)
        logs.event("jobs.stopped")
