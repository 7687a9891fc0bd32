"""The overlay store's bookkeeping against the real embedded Qdrant engine: tenants, views,
replacement, bounds, expiry and the background purge (a fake parser stands in for the
pipeline; the daemon's real one is exercised in tests/integration/test_agent_features.py)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from coderecalld.embed import sparse
from coderecalld.errors import EmbedError, InvalidArgument, ResourceExhausted
from coderecalld.files.classify import Verdict
from coderecalld.query import overlay
from coderecalld.records import Hit, PointRecord
from coderecalld.store import EdgeStore, StoreFilter


def loose_file(tenant: str, path: str, blob: bytes):
    """One point per line ``def NAME``; ``skip`` content is unsupported."""
    if blob == b"skip":
        return [], [], Verdict("skip", reason="unsupported"), 0
    names = [line.split()[1] for line in blob.decode().splitlines()]
    points = [PointRecord(str(uuid.uuid5(uuid.NAMESPACE_URL, f"{tenant}/{path}/{n}")),
                          {"repo": tenant, "path": path, "name": n, "qualified_name": n, "kind": "function"},
                          sparse.vector(n)) for n in names]
    return points, [(p.id, p.payload["name"]) for p in points], Verdict("code", language="python"), len(names)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def layer(tmp_path: Path) -> Iterator[overlay.Overlay]:
    like = EdgeStore(tmp_path / "main", 2, "m", sparse.TOKENIZER_VERSION)
    embedded: list[str] = []

    def embed(texts):
        embedded.extend(texts)
        return [np.array([1.0, 0.0], dtype=np.float32) for _ in texts]

    made = overlay.Overlay(overlay.open_store(tmp_path / "overlay", like), loose_file, embed, 100, Clock())
    made.embedded = embedded  # type: ignore[attr-defined]
    try:
        yield made
    finally:
        made.close()
        like.close()


def names(layer: overlay.Overlay, view: overlay.View) -> list[tuple[str, str]]:
    hits = layer.store.find(view.flt, "kind", "function", limit=100)
    return sorted((overlay.restore(h).payload["repo"], h.payload["name"]) for h in hits)


SCOPE = StoreFilter(repos=("alpha", "beta"))


def test_sessions_are_tenants_of_their_principal(layer: overlay.Overlay) -> None:
    status = layer.put("ann", "s1", "alpha", "a.py", b"def one\ndef two")
    assert (status.symbols, status.chunks, status.expires_unix_s, status.skipped) == (2, 2, 4_600.0, "")
    assert layer.embedded == ["one", "two"]  # type: ignore[attr-defined]
    layer.put("ann", "s2", "alpha", "a.py", b"def other")
    layer.put("bob", "s1", "beta", "b.py", b"def bobs")
    view = layer.view("ann", "s1", SCOPE, lambda repo, path: 7)
    assert names(layer, view) == [("alpha", "one"), ("alpha", "two")]
    assert (view.shadowed, view.shadow_points) == (frozenset({("alpha", "a.py")}), 7)
    assert view.hides(Hit("x", 1.0, {"repo": "alpha", "path": "a.py"}))
    assert not view.hides(Hit("x", 1.0, {"repo": "beta", "path": "a.py"}))
    assert names(layer, layer.view("bob", "s1", SCOPE, lambda r, p: 0)) == [("beta", "bobs")]
    # Out of the caller's scope, or another repo asked for: nothing of the session.
    assert layer.view("ann", "s1", StoreFilter(repos=("beta",)), lambda r, p: 0) is overlay.NO_VIEW
    assert layer.view("ann", "s1", StoreFilter(repo="beta", repos=("alpha", "beta")),
                      lambda r, p: 0) is overlay.NO_VIEW
    assert layer.view("ann", "", SCOPE, lambda r, p: 0) is overlay.NO_VIEW
    assert layer.store.count() == 4
    stored = layer.store.find(StoreFilter(), "kind", "function", limit=10)
    assert all(h.payload["repo"].split("|")[0] != "s1" for h in stored)  # never the raw session id


def test_replace_remove_and_skip(layer: overlay.Overlay) -> None:
    layer.put("ann", "s", "alpha", "a.py", b"def one\ndef two")
    layer.put("ann", "s", "alpha", "a.py", b"def three")
    assert names(layer, layer.view("ann", "s", SCOPE, lambda r, p: 0)) == [("alpha", "three")]
    skipped = layer.put("ann", "s", "alpha", "a.py", b"skip")
    assert (skipped.skipped, skipped.chunks) == ("unsupported", 0)
    assert layer.view("ann", "s", SCOPE, lambda r, p: 0) is overlay.NO_VIEW  # a skip shadows nothing
    layer.put("ann", "s", "alpha", "a.py", b"def four")
    assert layer.put("ann", "s", "alpha", "a.py", b"").skipped == "removed"
    assert (layer.files(), layer.store.count()) == (0, 0)


def test_bounds(layer: overlay.Overlay, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(overlay, "MAX_FILES_PER_SESSION", 2)
    monkeypatch.setattr(overlay, "MAX_FILES", 3)
    layer.put("ann", "s", "alpha", "1.py", b"def a")
    layer.put("ann", "s", "alpha", "2.py", b"def b")
    with pytest.raises(ResourceExhausted, match="session holds at most 2"):
        layer.put("ann", "s", "alpha", "3.py", b"def c")
    layer.put("ann", "t", "alpha", "3.py", b"def c")
    with pytest.raises(ResourceExhausted, match="daemon holds at most 3"):
        layer.put("bob", "s", "alpha", "4.py", b"def d")
    for bad in (dict(session="a b"), dict(session="x" * 129), dict(ttl_s=-1), dict(ttl_s=86_401),
                dict(content=b"#" * 101)):
        args = {"principal": "ann", "session": "u", "repo": "alpha", "path": "5.py",
                "content": b"def e", **bad}
        with pytest.raises(InvalidArgument):
            layer.put(**args)


def test_a_file_of_too_many_chunks_is_refused_before_any_is_embedded(
        layer: overlay.Overlay, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(overlay, "MAX_CHUNKS_PER_FILE", 3)
    layer.put("ann", "s", "alpha", "a.py", b"def one")
    embedded = len(layer.embedded)  # type: ignore[attr-defined]
    with pytest.raises(ResourceExhausted, match="b.py makes 4 chunks, over the 3"):
        layer.put("ann", "s", "alpha", "b.py", b"def w\ndef x\ndef y\ndef z")
    # nothing embedded, stored or counted for it; the earlier file is untouched
    assert len(layer.embedded) == embedded  # type: ignore[attr-defined]
    assert (layer.files(), layer.store.count()) == (1, 1)
    assert layer.put("ann", "s", "alpha", "b.py", b"def w\ndef x\ndef y").chunks == 3  # at the bound


def test_expiry_is_lazy_and_periodic(layer: overlay.Overlay) -> None:
    clock = layer.clock
    layer.put("ann", "s", "alpha", "a.py", b"def one", ttl_s=10)
    layer.put("ann", "s", "alpha", "b.py", b"def two", ttl_s=20)
    clock.now += 10  # type: ignore[attr-defined]
    assert names(layer, layer.view("ann", "s", SCOPE, lambda r, p: 0)) == [("alpha", "two")]
    clock.now += 10  # type: ignore[attr-defined]
    layer.start(interval_s=0.01)
    deadline = time.monotonic() + 10
    while layer.files() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (layer.files(), layer.store.count()) == (0, 0)


def test_a_failing_model_leaves_the_file_lexical(tmp_path: Path) -> None:
    def broken(texts):
        raise EmbedError("model gone")

    like = EdgeStore(tmp_path / "main", 2, "m", sparse.TOKENIZER_VERSION)
    layer = overlay.Overlay(overlay.open_store(tmp_path / "overlay", like), loose_file, broken, 100)
    try:
        status = layer.put("ann", "s", "alpha", "a.py", b"def one\ndef two")
        assert (status.chunks, status.skipped) == (2, "")
        assert (layer.store.count(), layer.store.count_missing_dense()) == (2, 2)
    finally:
        layer.close()
        like.close()
