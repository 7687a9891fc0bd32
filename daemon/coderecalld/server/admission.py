"""Bounded work per request: every query RPC runs under a deadline and stops when its
client goes away, and the expensive kinds run only as many at once as the server admits.

* **Deadline.** The client's (``context.time_remaining()``), capped at ``MAX_REQUEST_S``
  (a client without a deadline still cannot hold a worker for longer). It is set for the
  domain code through ``coderecalld.deadline``; the store checks it before every engine
  call and each engine call is bounded, so the work stops within one call of the deadline
  (``DEADLINE_EXCEEDED``) or of a cancel (``CANCELLED``). ``SyncRepo`` and
  ``IndexOverlay`` write the index and are not cut (a sync outlives an impatient client
  by design); streams are not either (a stream lives as long as its client).
* **Admission.** ``EXPENSIVE`` methods (and ``FindSymbols`` with ``fuzzy``) take one of
  ``slots`` permits, waiting at most ``ADMISSION_WAIT_S`` (a waiting request holds a
  worker thread, so the wait is short); none free answers ``RESOURCE_EXHAUSTED`` naming
  the limit. The other workers stay free for the cheap kinds (exact symbol lookup,
  ``ReadSymbol``, ``ListRepos``), which a burst of expensive ones never queues behind.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import grpc

from coderecalld import deadline
from coderecalld.errors import ResourceExhausted
from coderecalld.server.intercept import Behaviour, MethodInterceptor

#: Longest a query RPC may run, whatever deadline its client set (or none).
MAX_REQUEST_S = 60.0
#: Longest an expensive RPC waits for a permit before RESOURCE_EXHAUSTED.
ADMISSION_WAIT_S = 0.25
#: Methods whose cost grows with their arguments or the index (fan-out, graph walks,
#: ranking); ``FindSymbols`` is one only with ``fuzzy``. ``Locate`` is a search and more
#: (40 parallel 200 KB issues held every worker: an exact ``FindSymbols`` waited 7 s).
EXPENSIVE = frozenset({"Search", "Locate", "FindCallers", "FindCallees", "GetCard", "AnalyzeImpact", "Ask"})
#: Methods that write the index: no deadline of ours cuts them.
UNBOUNDED = frozenset({"SyncRepo", "IndexOverlay"})
#: Methods bounded by their client's deadline only (they wait on a chat model with its own
#: timeout, ``[ask]``).
CLIENT_DEADLINE_ONLY = frozenset({"Ask"})


def expensive_slots(max_workers: int) -> int:
    """Permits for expensive RPCs out of ``max_workers`` threads: half, at least 1, so the
    other half always serves the cheap kinds."""
    return max(1, max_workers // 2)


class AdmissionInterceptor(MethodInterceptor):
    """Sets each unary RPC's deadline (``coderecalld.deadline``) and admits at most
    ``slots`` expensive ones at once; innermost, after authentication, so an
    unauthenticated call never takes a permit."""

    def __init__(self, service_prefix: str, slots: int) -> None:
        super().__init__(service_prefix)
        self.slots = slots
        self._permits = threading.BoundedSemaphore(slots)

    def unary(self, method: str, behaviour: Behaviour) -> Behaviour:
        name = method.rsplit("/", 1)[-1]
        if name in UNBOUNDED:
            return behaviour
        cap = None if name in CLIENT_DEADLINE_ONLY else MAX_REQUEST_S

        def call(request: Any, context: grpc.ServicerContext) -> Any:
            seconds = _seconds(context.time_remaining(), cap)
            with deadline.bounded(seconds, context.is_active, name):
                if not _is_expensive(name, request):
                    return behaviour(request, context)
                return self._admitted(name, seconds, lambda: behaviour(request, context))

        return call

    def _admitted(self, name: str, seconds: float | None, run: Callable[[], Any]) -> Any:
        wait = ADMISSION_WAIT_S if seconds is None else min(ADMISSION_WAIT_S, seconds)
        if not self._permits.acquire(timeout=wait):
            raise ResourceExhausted(
                f"{name}: the server is running its limit of {self.slots} expensive requests "
                "(search, fuzzy symbols, callers, callees, card, impact, ask; half of "
                "server.max_workers); retry after a short backoff")
        try:
            deadline.check(name)
            return run()
        finally:
            self._permits.release()


def _is_expensive(name: str, request: Any) -> bool:
    return name in EXPENSIVE or (name == "FindSymbols" and bool(getattr(request, "fuzzy", False)))


def _seconds(client_s: float | None, cap: float | None) -> float | None:
    # gRPC reports "no deadline" as None or as a huge number, depending on the version.
    if client_s is None or client_s > 1e9:
        return cap
    return client_s if cap is None else min(client_s, cap)
