"""coderecalld.deadline: the current request's deadline and liveness, as domain code and
the store see them."""

from __future__ import annotations

import threading
import time

import pytest
from coderecalld import deadline
from coderecalld.errors import Cancelled, DeadlineExceeded


def test_outside_a_request_nothing_is_bounded() -> None:
    assert deadline.remaining() is None
    deadline.check("anything")  # no raise
    lock = threading.Lock()
    with deadline.holding(lock):
        assert lock.locked()
    assert not lock.locked()


def test_a_passed_deadline_and_a_cancel_raise_naming_the_method() -> None:
    with deadline.bounded(10.0, method="FindSymbols"):
        assert 9.0 < deadline.remaining() <= 10.0
        deadline.check()
    with deadline.bounded(0.0, method="FindSymbols"):
        with pytest.raises(DeadlineExceeded, match="FindSymbols: deadline passed before find"):
            deadline.check("find")
    with deadline.bounded(None, alive=lambda: False, method="Search"):
        assert deadline.remaining() is None
        with pytest.raises(Cancelled, match="Search: the client cancelled"):
            deadline.check()
    assert deadline.remaining() is None  # reset after the block


def test_waiting_for_a_held_lock_stops_at_the_deadline() -> None:
    lock = threading.RLock()
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        with lock:
            held.set()
            done.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    try:
        started = time.monotonic()
        with deadline.bounded(0.3), pytest.raises(DeadlineExceeded):
            with deadline.holding(lock, "a store call"):
                pytest.fail("got a lock that another thread holds")
        assert time.monotonic() - started < 5  # it gave up, it did not wait for the holder
    finally:
        done.set()
        holder.join(5)
    with deadline.bounded(5.0), deadline.holding(lock):  # free again: no wait, no raise
        pass


def test_a_null_context_lock_is_just_entered() -> None:
    import contextlib
    with deadline.bounded(5.0), deadline.holding(contextlib.nullcontext()):
        pass
