"""The current request's deadline and cancellation, for domain code that never sees grpc.

The server sets one per RPC (``server/admission.py``: the client's deadline from the call
context, capped at a server maximum, and the call's liveness); the store checks it before
every engine call (``EdgeStore._run``, ``ServerStore._run``), and long loops of the query
path may call ``check`` between steps. Every engine call is itself bounded (``query/fuzzy``
caps what it asks for), so a request stops within one engine call of its deadline or of
its client going away. Work outside any request (the job runner, the embedder, tests that
call the service directly) has no deadline: ``check`` does nothing there.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from coderecalld.errors import Cancelled, DeadlineExceeded


@dataclass(frozen=True, slots=True)
class Budget:
    """One request's limits: ``expires_at`` on ``time.monotonic()`` (``None``: none) and
    ``alive()``, false once the client has cancelled or gone away."""

    expires_at: float | None
    alive: Callable[[], bool]
    method: str = ""


#: How far ahead of our deadline a call gRPC ended still counts as ended by the deadline.
_CLOCK_SLACK_S = 0.5

_CURRENT: contextvars.ContextVar[Budget | None] = contextvars.ContextVar(
    "coderecalld_request_budget", default=None)


@contextmanager
def bounded(seconds: float | None, alive: Callable[[], bool] = lambda: True,
            method: str = "") -> Iterator[Budget]:
    """Run the block as one request with ``seconds`` left (``None``: no deadline)."""
    budget = Budget(None if seconds is None else time.monotonic() + seconds, alive, method)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def remaining() -> float | None:
    """Seconds the current request has left (at least 0), ``None`` without a deadline."""
    budget = _CURRENT.get()
    if budget is None or budget.expires_at is None:
        return None
    return max(0.0, budget.expires_at - time.monotonic())


def check(what: str = "") -> None:
    """Raise ``DeadlineExceeded`` when the current request's deadline has passed,
    ``Cancelled`` when its client went away; nothing outside a request."""
    budget = _CURRENT.get()
    if budget is None:
        return
    now = time.monotonic()
    if budget.expires_at is not None and now >= budget.expires_at:
        raise DeadlineExceeded(f"{budget.method or 'request'}: deadline passed"
                               f"{' before ' + what if what else ''}; the work was stopped")
    if not budget.alive():
        # gRPC ends a call whose deadline passed a moment before our clock (taken from
        # time_remaining() at the start) does: that is the deadline, not a cancel.
        if budget.expires_at is not None and now >= budget.expires_at - _CLOCK_SLACK_S:
            raise DeadlineExceeded(f"{budget.method or 'request'}: deadline passed"
                                   f"{' before ' + what if what else ''}; the work was stopped")
        raise Cancelled(f"{budget.method or 'request'}: the client cancelled"
                        f"{' before ' + what if what else ''}; the work was stopped")


#: Seconds between looks at the deadline and the client while waiting for a lock.
_WAIT_SLICE_S = 0.25


@contextmanager
def holding(lock: Any, what: str = "") -> Iterator[None]:
    """Hold ``lock`` (a ``threading`` lock, or any context manager) for the block, waiting for it no longer than the
    current request may (``check`` raises once its deadline passes or its client goes
    away); outside a request, wait as long as it takes."""
    check(what)
    if not hasattr(lock, "acquire"):  # a null context: nothing to wait for
        with lock:
            yield
        return
    if _CURRENT.get() is None:
        lock.acquire()
    else:
        while not lock.acquire(timeout=_WAIT_SLICE_S):
            check(what)
    try:
        yield
    finally:
        lock.release()
