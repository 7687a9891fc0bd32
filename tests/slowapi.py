"""An in-test api behind the daemon's real gRPC server whose ``find_callers`` runs until
released or stopped, as an expensive request does: for the tests of deadlines, cancels
and admission (tests/integration/test_bounded_requests.py, test_mcp_bridge.py,
tests/unit/test_cancel.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from coderecalld import deadline
from coderecalld.server import build_server


class SlowApi:
    """``find_callers`` works in small steps, checking its deadline between them, until
    ``release`` is set; ``find_symbols`` answers at once. Records how each call ended."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        self.ended: list[str] = []
        self.ended_event = threading.Event()
        self.remaining: list[float | None] = []

    def find_callers(self, name, repo="", limit=100, *, principal, omitted=None):
        self.started.set()
        try:
            while not self.release.wait(0.01):
                deadline.check("the next step")
            self.ended.append("done")
            return []
        except Exception as exc:
            self.ended.append(type(exc).__name__)
            raise
        finally:
            self.ended_event.set()

    def find_symbols(self, name, repo="", prefix=False, limit=50, *, fuzzy=False, session="",
                     principal):
        self.remaining.append(deadline.remaining())
        return []

    def search(self, query, limit=10, repo="", language="", path_prefix="", *, principal, **options):
        return []


@contextmanager
def serving(api: SlowApi, max_workers: int = 2) -> Iterator[str]:
    """``api`` served on a free loopback port (2 workers: 1 expensive slot); its address.
    On leaving, ``release`` is set and the server stopped."""
    server, port = build_server(api, "127.0.0.1:0", max_workers=max_workers)
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        api.release.set()
        server.stop(0).wait()
