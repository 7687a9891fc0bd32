"""The nested-function rule (``service._with_enclosing``) asks the store only for hits that
may be nested (``_may_be_nested``): a page of 300 classes' methods asked 300 lookups, one
per file, 42 ms against 13 ms (a review). Real git fixture, real embedded store."""
from __future__ import annotations

import time

import pytest

from conformance_cases import indexed

FILES = {f"pkg/mod{i}.py": f'''\
class Handler{i}:
    def handle_request(self, request):
        """Handle the incoming request and send the response back to the client."""
        return self.send_response(request, {i})
''' for i in range(300)}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    with indexed(tmp_path_factory.mktemp("rev17cost"), FILES) as running:
        yield running


def _lookups(daemon, monkeypatch):
    calls = []
    real = daemon.service.store.find_any
    monkeypatch.setattr(daemon.service.store, "find_any",
                        lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    t = time.perf_counter()
    hits = daemon.service.search("how is the incoming request handled and the response sent", limit=300, repo="fx")
    return len(hits), calls.count("qualified_name"), time.perf_counter() - t


def test_no_lookup_without_a_nested_function(daemon, monkeypatch):
    hits, lookups, _ = _lookups(daemon, monkeypatch)
    assert hits == 300
    assert lookups == 0
