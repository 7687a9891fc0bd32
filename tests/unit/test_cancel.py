"""``Cancellation``: another thread ends the daemon calls a block of client code makes
(the MCP bridge's cancelled tool calls), over the daemon's gRPC server on loopback with a
``find_callers`` that runs until released."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from slowapi import SlowApi, serving

import coderecall
from coderecall import _cancel


@pytest.fixture
def slow() -> Iterator[tuple[SlowApi, coderecall.Client]]:
    api = SlowApi()
    with serving(api) as addr, coderecall.Client(addr, timeout_s=20) as client:
        yield api, client


def test_a_call_cancelled_from_another_thread_ends_on_the_daemon(slow: tuple[SlowApi, coderecall.Client]) -> None:
    api, client = slow
    cancellation = coderecall.Cancellation()
    with ThreadPoolExecutor(1) as pool:
        sites = pool.submit(cancellation.run, client.find_callers, "x")
        assert api.started.wait(10)
        cancellation.cancel()
        with pytest.raises(coderecall.CancelledError) as info:
            sites.result(10)
    assert (info.value.code, info.value.addr) == ("CANCELLED", client.addr)
    assert api.ended_event.wait(5)
    assert api.ended == ["Cancelled"]  # not "done": the daemon stopped its work
    assert cancellation.cancelled


def test_a_call_after_the_cancel_never_reaches_the_daemon(slow: tuple[SlowApi, coderecall.Client]) -> None:
    api, client = slow
    cancellation = coderecall.Cancellation()
    cancellation.cancel()
    with pytest.raises(coderecall.CancelledError):
        cancellation.run(client.find_symbols, "x")
    with pytest.raises(coderecall.CancelledError):
        cancellation.run(client.find_callers, "x")
    assert api.remaining == [] and not api.started.is_set()
    assert client.find_symbols("x") == []  # the client itself is not cancelled


def test_calls_under_no_cancellation_are_not_touched(slow: tuple[SlowApi, coderecall.Client]) -> None:
    api, client = slow
    cancellation = coderecall.Cancellation()
    assert cancellation.run(client.find_symbols, "x") == []  # a call under it answers as ever
    assert _cancel.current() is None  # run() leaves it current for fn alone
    with ThreadPoolExecutor(1) as pool:
        sites = pool.submit(client.find_callers, "x")  # under none
        assert api.started.wait(10)
        cancellation.cancel()
        assert not api.ended_event.wait(0.3)
        api.release.set()
        assert sites.result(10) == []
    assert api.ended == ["done"]


def test_closing_the_client_under_a_call_is_a_cancel(slow: tuple[SlowApi, coderecall.Client]) -> None:
    # a CANCELLED status comes only from the client's side; it was an InternalError
    api, client = slow
    with ThreadPoolExecutor(1) as pool:
        sites = pool.submit(client.find_callers, "x")
        assert api.started.wait(10)
        client.close()
        with pytest.raises(coderecall.CancelledError, match="Channel closed"):
            sites.result(10)
    assert api.ended_event.wait(5)
    assert api.ended == ["Cancelled"]


def test_wait_ends_at_the_cancel() -> None:
    cancellation = coderecall.Cancellation()
    assert cancellation.wait(0.01) is False
    threading.Timer(0.05, cancellation.cancel).start()
    assert cancellation.wait(30) is True
    assert cancellation.wait(30) is True  # cancelled stays so
