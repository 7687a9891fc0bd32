"""What ``coderecalld serve`` answers before its daemon is open: the port is bound and
started first (health NOT_SERVING), so probes, ``WatchProgress`` and ``ListRepos`` answer from
the first second while the model loads (~5 s on a fresh data dir) and the store opens.

Kept free of the daemon's heavy imports (the model runtime, the store engine): it is imported
before them.
"""

from __future__ import annotations

from typing import Any

from coderecalld import credentials
from coderecalld.config import Config
from coderecalld.errors import NotFound, StoreUnavailable
from coderecalld.progress import Progress, Registry
from coderecalld.records import RepoStatus
from coderecalld.server.admission import stream_slots


def starting_registry(cfg: Config) -> Registry:
    """The progress registry of a daemon not open yet: every repo in phase ``starting``
    (``serve`` streams it while it loads the model and opens the store); at most a quarter
    of the gRPC workers may hold a WatchProgress stream (``admission.stream_slots``), so
    queries always have threads."""
    return Registry(lambda name: Progress(name, phase="starting"),
                    max_watches=stream_slots(cfg.server.max_workers))



class Starting:
    """What the gRPC server answers while ``Daemon.open`` runs (``serve`` binds its port
    first, so health checks and WatchProgress answer from the first second): ListRepos and
    WatchProgress from the config and ``progress`` (phase ``starting``), every other RPC
    ``StoreUnavailable`` (gRPC UNAVAILABLE, which clients retry) naming the cause.
    ``ready(api)`` hands every later call to the open daemon's api.
    """

    def __init__(self, cfg: Config, progress: Registry) -> None:
        self._cfg = cfg
        self._progress = progress
        self._api: Any = None

    def ready(self, api: Any) -> None:
        """From now on, every call goes to ``api``."""
        self._api = api

    def watch_progress(self, repo: str = "", once: bool = False, *, principal: Any = None,
                       alive: Any = lambda: True) -> Any:
        if self._api is not None:
            return self._api.watch_progress(repo, once, principal=principal, alive=alive)
        scope = [r.name for r in self._cfg.repos if principal is None or principal.allows(r.name)]
        if repo and repo not in scope:
            raise NotFound(f"repo {repo!r} is not configured")
        return self._progress.watch([repo] if repo else scope, once=once, alive=alive)

    def list_repos(self, *, principal: Any = None) -> list[RepoStatus]:
        if self._api is not None:
            return self._api.list_repos(principal=principal)
        return [RepoStatus(r.name, credentials.redact_url(r.url), r.branch, "", 0, 0, 0, 0.0,
                           "pending", "") for r in self._cfg.repos
                if principal is None or principal.allows(r.name)]

    def __getattr__(self, name: str) -> Any:
        api = self.__dict__.get("_api")
        if api is not None:
            return getattr(api, name)

        def starting(*_: Any, **__: Any) -> Any:
            raise StoreUnavailable("the daemon is starting (loading the model, opening the "
                                   "store); retry in a few seconds")
        return starting
