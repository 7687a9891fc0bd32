"""``Cancellation``: ends, from another thread, the daemon calls a block of client code makes.

``Client``'s calls block their thread; a caller that gives up on one (an MCP tool call
its agent cancelled) cannot interrupt the thread, but it can cancel the gRPC call the
thread waits on, and the daemon stops the call's work when it is cancelled.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

import grpc

_P = ParamSpec("_P")
_T = TypeVar("_T")


class Cancellation:
    """A cancel, from any thread, of the calls made under ``run`` (on any ``Client``)::

        cancellation = Cancellation()
        tree = pool.submit(cancellation.run, client.analyze_impact, "send")  # a thread pool
        ...
        cancellation.cancel()  # the call ends now, on the daemon too
        tree.result()  # raises CancelledError

    Once cancelled it stays so: a call under it raises ``CancelledError`` without reaching
    the daemon. A call under no cancellation is as it always was (a ``watch_progress``
    stream is under none: its ``close()`` ends it). Thread-safe.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: set[grpc.Future] = set()
        self._cancelled = threading.Event()

    @property
    def cancelled(self) -> bool:
        """Whether ``cancel`` was called."""
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Cancel the calls in flight under this cancellation and refuse any later one."""
        with self._lock:
            self._cancelled.set()
            calls, self._calls = self._calls, set()
        for call in calls:
            call.cancel()

    def wait(self, timeout_s: float) -> bool:
        """Sleep up to ``timeout_s`` seconds, less when cancelled meanwhile; whether it was."""
        return self._cancelled.wait(timeout_s)

    def run(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """``fn(*args, **kwargs)``, its ``Client`` calls under this cancellation (threads
        it starts are not: they do not share its ``contextvars`` context)."""
        token = _CURRENT.set(self)
        try:
            return fn(*args, **kwargs)
        finally:
            _CURRENT.reset(token)

    def result(self, start: Callable[[], grpc.Future]) -> Any:
        """The response of the call ``start`` begins (how ``Client`` calls under a
        cancellation), unless cancelled first. Raises ``grpc.FutureCancelledError`` when
        cancelled (``start`` not called when it was already), the call's ``grpc.RpcError``
        when it fails."""
        with self._lock:  # a cancel either finds the call registered or comes before it
            if self._cancelled.is_set():
                raise grpc.FutureCancelledError()
            call = start()
            self._calls.add(call)
        try:
            return call.result()
        finally:
            with self._lock:
                self._calls.discard(call)


_CURRENT: ContextVar[Cancellation | None] = ContextVar("coderecall_cancellation", default=None)


def current() -> Cancellation | None:
    """The cancellation the calling code runs under (``Cancellation.run``), if any."""
    return _CURRENT.get()
