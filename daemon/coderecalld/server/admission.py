"""Bounded work per request: every query RPC runs under a deadline and stops when its
client goes away, and the expensive kinds run only as many at once as the server admits.

* **Deadline.** The client's (``context.time_remaining()``), capped at ``MAX_REQUEST_S``
  (a client without a deadline still cannot hold a worker for longer). It is set for the
  domain code through ``coderecalld.deadline``; the store checks it before every engine
  call and each engine call is bounded, so the work stops within one call of the deadline
  (``DEADLINE_EXCEEDED``) or of a cancel (``CANCELLED``). ``SyncRepo`` and
  ``IndexOverlay`` write the index and are not cut (a sync outlives an impatient client
  by design); streams are not either (a stream lives as long as its client).
* **Admission.** ``EXPENSIVE`` methods (and ``FindSymbols`` with ``fuzzy``; ``Search``
  only of a query over ``CHEAP_SEARCH_CHARS`` or ``CHEAP_SEARCH_LINES``, a page over
  ``CHEAP_SEARCH_LIMIT`` or a path glob) take one of
  ``slots`` permits, ``SyncRepo`` one of ``sync_slots``, waiting at most
  ``ADMISSION_WAIT_S`` (a waiting request holds a worker thread, so the wait is short);
  none free answers ``RESOURCE_EXHAUSTED`` naming the limit. The server runs
  ``max_workers`` threads for the queries and ``sync_slots`` more for the syncs; with the
  progress streams' own limit (``stream_slots``) the expensive kinds leave at least a
  quarter of the queries' workers to the cheap kinds (exact symbol lookup, ``ReadSymbol``,
  ``ListRepos``, ``Status``), which a burst of expensive ones never queues behind. Before,
  a sync took no permit: eight ``sync`` calls of one repo (its run holds the repo's lock,
  the others wait for it, each in a worker, after their clients gave up too) left
  ``repos`` waiting 30 s; so did eight 1 MB overlays, which took no permit either, and
  four progress streams beside four impacts (a newcomer's stall trial).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import grpc

from coderecalld import deadline
from coderecalld.errors import ResourceExhausted
from coderecalld.query import shape as shapes
from coderecalld.server.intercept import Behaviour, MethodInterceptor

#: Longest a query RPC may run, whatever deadline its client set (or none).
MAX_REQUEST_S = 60.0
#: Longest an expensive RPC waits for a permit before RESOURCE_EXHAUSTED.
ADMISSION_WAIT_S = 0.25
#: Methods whose cost grows with their arguments or the index (fan-out, graph walks,
#: ranking); ``FindSymbols`` is one only with ``fuzzy``. ``Locate`` is a search and more
#: (40 parallel 200 KB issues held every worker: an exact ``FindSymbols`` waited 7 s).
#: ``IndexOverlay`` indexes a whole file (a 1 MB one of 27k functions: 34 s).
EXPENSIVE = frozenset({"Search", "Locate", "FindCallers", "FindCallees", "GetCard", "AnalyzeImpact", "Ask",
                       "IndexOverlay"})
#: Methods that write the index: no deadline of ours cuts them.
UNBOUNDED = frozenset({"SyncRepo", "IndexOverlay"})
#: Methods taking a ``sync_slots`` permit (a sync runs for minutes).
SYNCS = frozenset({"SyncRepo"})
#: Methods bounded by their client's deadline only (they wait on a chat model with its own
#: timeout, ``[ask]``).
CLIENT_DEADLINE_ONLY = frozenset({"Ask"})


def expensive_slots(max_workers: int) -> int:
    """Permits for expensive RPCs out of ``max_workers`` threads: half, at least 1."""
    return max(1, max_workers // 2)


def stream_slots(max_workers: int) -> int:
    """Progress streams (``WatchProgress``) open at once out of ``max_workers`` threads: a
    quarter, at least 1 (each holds a thread while it is open)."""
    return max(1, max_workers // 4)


def sync_slots(max_workers: int) -> int:
    """``SyncRepo`` calls running at once: a quarter of ``max_workers``, at least 2 (two
    repos synced at once, a review: one sync refused every other repo's). Their threads
    come on top of the queries' ``max_workers``, so a sync never takes a query's worker."""
    return max(2, max_workers // 4)


class AdmissionInterceptor(MethodInterceptor):
    """Sets each unary RPC's deadline (``coderecalld.deadline``) and admits at most
    ``slots`` expensive ones at once; innermost, after authentication, so an
    unauthenticated call never takes a permit."""

    def __init__(self, service_prefix: str, slots: int, syncs: int = 1) -> None:
        super().__init__(service_prefix)
        self.slots = slots
        self.syncs = syncs
        self._permits = threading.BoundedSemaphore(slots)
        self._sync_permits = threading.BoundedSemaphore(syncs)

    def unary(self, method: str, behaviour: Behaviour) -> Behaviour:
        name = method.rsplit("/", 1)[-1]
        if name in UNBOUNDED:  # no deadline of ours; a permit all the same
            if name in SYNCS:
                return lambda request, context: self._admitted(
                    name, None, lambda: behaviour(request, context), self._sync_permits,
                    f"{name}: the server is running its limit of {self.syncs} sync requests (a "
                    "quarter of server.max_workers, at least 2); every repo also syncs on its own every "
                    "index.sync_interval_s: `coderecall status` shows the runs; retry when one ends")
            if name in EXPENSIVE:
                return lambda request, context: self._admitted(
                    name, None, lambda: behaviour(request, context))
            return behaviour
        cap = None if name in CLIENT_DEADLINE_ONLY else MAX_REQUEST_S

        def call(request: Any, context: grpc.ServicerContext) -> Any:
            seconds = _seconds(context.time_remaining(), cap)
            with deadline.bounded(seconds, context.is_active, name):
                if not _is_expensive(name, request):
                    return behaviour(request, context)
                return self._admitted(name, seconds, lambda: behaviour(request, context))

        return call

    def _admitted(self, name: str, seconds: float | None, run: Callable[[], Any],
                  permits: threading.BoundedSemaphore | None = None, refusal: str = "") -> Any:
        permits = self._permits if permits is None else permits
        wait = ADMISSION_WAIT_S if seconds is None else min(ADMISSION_WAIT_S, seconds)
        if not permits.acquire(timeout=wait):
            raise ResourceExhausted(refusal or (
                f"{name}: the server is running its limit of {self.slots} expensive requests "
                "(a long or globbed search, locate, fuzzy symbols, callers, callees, card, impact, ask, "
                "overlay; half of server.max_workers); retry after a short backoff"))
        try:
            deadline.check(name)
            return run()
        finally:
            permits.release()


#: A ``Search`` of a query this long or shorter, with no path glob, takes no expensive
#: permit: a question, an identifier or an error line (CoSQA dev's hybrid search p50 32 ms,
#: p95 65 ms on a busy machine) costs about what an exact lookup does. With five or six MCP
#: agents running impacts and cards, a one-word search from another client was refused
#: 52-60 % of the time while the four permits were held (a newcomer's stall trial). A pasted
#: issue or trace (longer), a glob (``MAX_LIMIT`` candidates read) and ``Locate`` still
#: take one.
CHEAP_SEARCH_CHARS = shapes.ISSUE_MIN_CHARS
#: ... of at most two lines (``shape.py`` reads a longer or a three-line query as an issue or
#: a trace, ranked as ``Locate`` ranks: 400 candidates, files; a review), for a page of at
#: most this many hits.
CHEAP_SEARCH_LINES = shapes.ISSUE_MIN_LINES - 1
CHEAP_SEARCH_LIMIT = 50


def _is_expensive(name: str, request: Any) -> bool:
    if name == "Search":
        query = getattr(request, "query", "")
        return (len(query) > CHEAP_SEARCH_CHARS or query.count("\n") >= CHEAP_SEARCH_LINES
                or getattr(request, "limit", 0) > CHEAP_SEARCH_LIMIT or bool(getattr(request, "path_glob", "")))
    return name in EXPENSIVE or (name == "FindSymbols" and bool(getattr(request, "fuzzy", False)))


def _seconds(client_s: float | None, cap: float | None) -> float | None:
    # gRPC reports "no deadline" as None or as a huge number, depending on the version.
    if client_s is None or client_s > 1e9:
        return cap
    return client_s if cap is None else min(client_s, cap)
