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


class Clock:
    """A settable Unix clock for ``Registry(clock=...)``."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_eta_is_the_phase_rate_applied_to_what_is_left():
    clock = Clock()
    reg = Registry(clock=clock, min_interval_s=0.0)
    reg.start("a")
    reg.update("a", state="indexing", phase="indexing", files_total=100)
    assert (reg.get("a").phase_started_unix_s, reg.get("a").eta_s) == (1000.0, 0.0)  # nothing measured
    clock.now = 1010.0
    reg.files(SimpleNamespace(repo="a", files_changed=20, files_deleted=5, chunks=300, vectors_missing=250))
    # 25 files in 10 s: 75 left at 2.5 files/s = 30 s; 250 chunks now wait for vectors.
    assert (reg.get("a").eta_s, reg.get("a").pending_vectors) == (30.0, 250)
    reg.finish(SimpleNamespace(repo="a", state="ready", commit="c", error="", files_changed=100,
                               files_deleted=0, chunks=900))
    assert (reg.get("a").phase, reg.get("a").eta_s) == ("done", 0.0)
    clock.now = 1020.0
    reg.embedding("a", 0, 400)  # a new phase: its own clock and rate
    assert (reg.get("a").phase, reg.get("a").phase_started_unix_s, reg.get("a").eta_s) == ("embedding", 1020.0, 0.0)
    clock.now = 1028.0
    reg.embedding("a", 64, 336)  # 8 vectors/s, 336 left: 42 s
    assert (reg.get("a").vectors_done, reg.get("a").eta_s, reg.get("a").settled) == (64, 42.0, False)
    clock.now = 1028.5
    reg.embedding("a", 398, 2)  # 2 left at ~46/s: under a second, shown as 1 s, never 0
    assert reg.get("a").eta_s == 1.0
    reg.embedded("a", 0)
    assert (reg.get("a").phase, reg.get("a").eta_s, reg.get("a").settled) == ("done", 0.0, True)


def test_eta_counts_only_what_the_phase_did_since_it_began():
    clock = Clock()
    reg = Registry(clock=clock, min_interval_s=0.0)
    reg.embedding("a", 0, 500)
    clock.now = 1100.0
    reg.embedding("a", 500, 300)  # 5 vectors/s
    reg.start("a")  # a sync interrupts the pass: its phases win, the worker's count runs on
    reg.finish(SimpleNamespace(repo="a", state="ready", commit="c", error="", files_changed=0,
                               files_deleted=0, chunks=0))
    reg.embedding("a", 500, 300)  # back to embedding at 1100: a new phase clock
    clock.now = 1110.0
    reg.embedding("a", 550, 250)  # 50 in 10 s since re-entering: 50 s left, not 5 s
    assert reg.get("a").eta_s == 50.0


def test_starting_and_queued_are_running_and_the_dense_worker_never_hides_a_lexical_run():
    reg = Registry(initial=lambda name: Progress(name, phase="starting"), min_interval_s=0.0)
    assert (reg.get("a").phase, reg.get("a").settled) == ("starting", False)
    assert reg.phase("a") == "idle"  # nothing reported: /metrics reads no ledger
    reg.set_initial(lambda name: Progress(name, state="ready"))
    reg.queue(["a"])
    assert (reg.get("a").phase, reg.get("a").settled, reg.phase("a")) == ("queued", False, "queued")
    reg.start("a")
    reg.update("a", phase="indexing")
    reg.embedding("a", 10, 5)  # the worker embeds what an earlier run left: counts only
    assert (reg.get("a").phase, reg.get("a").vectors_done, reg.get("a").pending_vectors) == ("indexing", 10, 5)
    reg.embedded("a", 5)
    assert reg.get("a").phase == "indexing"
    reg.update("a", phase="done")
    reg.embedding("a", 0, 5)
    reg.embedded("a", 3)  # stopped by shutdown with vectors left: at rest, not done
    assert (reg.get("a").phase, reg.get("a").pending_vectors) == ("idle", 3)
