"""The progress registry and its watches, without a server: snapshot, coalescing, pacing,
cancel, close, the stream limit."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from coderecalld.errors import ResourceExhausted
from coderecalld.progress import Progress, Registry


def registry(**kw) -> Registry:
    return Registry(clock=lambda: 1000.0, min_interval_s=0.0, **kw)


def test_once_answers_current_states_in_scope_order_and_ends():
    reg = registry(initial=lambda name: Progress(name, state="ready"))
    reg.update("b", phase="indexing", files_total=3)
    got = list(reg.watch(["b", "a", "b"], once=True))
    assert [(p.repo, p.state, p.phase, p.files_total) for p in got] == [
        ("b", "ready", "indexing", 3), ("a", "ready", "idle", 0)]


def test_changes_between_reads_coalesce_to_the_latest_state():
    reg = registry()
    stream = iter(reg.watch(["a", "b"]))
    assert [next(stream).repo, next(stream).repo] == ["a", "b"]
    reg.update("a", phase="fetching")
    reg.update("a", phase="indexing", files_total=5)
    reg.update("a", files_done=2)
    reg.update("zzz", phase="fetching")  # out of scope: never sent
    item = next(stream)
    assert (item.repo, item.phase, item.files_done, item.files_total) == ("a", "indexing", 2, 5)
    reg.update("b", phase="done")
    reg.update("a", phase="done")
    assert [(p.repo, p.phase) for p in (next(stream), next(stream))] == [("a", "done"), ("b", "done")]


def test_a_second_change_within_the_interval_waits_for_it():
    ticks = iter([0.0, 0.03, 0.2, 0.2, 0.2])
    reads = []

    def monotonic() -> float:
        reads.append(1)
        return next(ticks)

    reg = Registry(monotonic=monotonic, min_interval_s=0.1)
    stream = iter(reg.watch(["a"]))
    next(stream)  # sent at 0.0
    reg.update("a", files_done=1)
    item = next(stream)  # at 0.03 not due (0.07 left): waits, then due at 0.2
    assert item.files_done == 1
    assert len(reads) == 3


def test_cancel_from_another_thread_ends_the_stream_and_frees_its_slot():
    reg = registry(max_watches=1)
    watch = reg.watch(["a"])
    with pytest.raises(ResourceExhausted):
        reg.watch(["a"])
    stream = iter(watch)
    next(stream)
    threading.Timer(0.05, watch.cancel).start()
    assert list(stream) == []
    reg.watch(["a"]).cancel()  # the slot is free again


def test_close_ends_every_stream_and_alive_false_ends_one():
    reg = registry()
    stream = iter(reg.watch(["a"]))
    next(stream)
    threading.Timer(0.05, reg.close).start()
    assert list(stream) == []
    alive = iter(registry().watch(["a"], alive=lambda: False))
    assert [p.repo for p in alive] == ["a"]  # the current state, then the end


def test_runs_map_to_phases():
    reg = registry()
    report = SimpleNamespace(repo="a", state="ready", commit="c1", error="", files_changed=4,
                             files_deleted=1, chunks=9)
    reg.start("a")
    assert (reg.get("a").phase, reg.get("a").state, reg.get("a").started_unix_s) == ("fetching", "syncing", 1000.0)
    reg.files(report)
    assert (reg.get("a").files_done, reg.get("a").chunks_done) == (5, 9)
    reg.finish(report)
    assert (reg.get("a").phase, reg.get("a").commit, reg.get("a").settled) == ("done", "c1", True)
    reg.finish(SimpleNamespace(**{**vars(report), "state": "pending"}))
    assert reg.get("a").phase == "idle"
    reg.finish(SimpleNamespace(**{**vars(report), "state": "error", "error": "boom"}))
    assert (reg.get("a").phase, reg.get("a").error, reg.get("a").settled) == ("error", "boom", True)
    reg.update("a", phase="done", pending_vectors=3)
    assert not reg.get("a").settled
