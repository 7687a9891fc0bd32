"""Progress of index runs, per repo: a thread-safe registry the pipeline and the job runner
update, and watches that stream its changes (``WatchProgress``).

The pipeline moves a repo through phases ``fetching -> diffing -> indexing [-> embedding]
-> done`` (or ``error``; ``idle`` before the first run since start, and after a run
interrupted by shutdown). ``serve`` shows ``starting`` while it opens the store and the
model, and ``queued`` for a repo waiting for its first run since start; the job runner's
dense worker shows ``embedding`` while it adds a repo's dense vectors behind its lexical
index, and keeps ``pending_vectors`` current. ``eta_s`` estimates the seconds left in the
current phase from the rate measured in it (files per second while indexing, vectors per
second while embedding; 0 when there is no estimate yet or nothing is running). A watch yields
the current state of every repo in its scope, then each change, at most one message per
repo per ``min_interval_s`` (the latest state wins; the last one is never dropped).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from coderecalld.errors import ResourceExhausted

PHASES = ("starting", "queued", "idle", "fetching", "diffing", "indexing", "embedding", "done",
          "error")
#: Phases of a run in progress (or about to start); the others are at rest.
RUNNING = frozenset({"starting", "queued", "fetching", "diffing", "indexing", "embedding"})
#: Phases of a lexical run (the pipeline's); the dense worker never overwrites them.
LEXICAL = frozenset({"fetching", "diffing", "indexing"})
#: At most this many messages per repo per second reach one watcher (10/s: smooth for a
#: progress bar, and a 10,000-file run costs a watcher at most a few hundred messages).
MIN_INTERVAL_S = 0.1
#: A watch re-checks its ``alive`` callback at least this often (seconds), in case the
#: transport's cancel notification was lost.
ALIVE_POLL_S = 5.0


@dataclass(frozen=True, slots=True)
class Progress:
    """One repo's index run as last reported (fields as ``coderecall.v1.IndexProgress``).

    ``state`` is the repo's ``RepoState`` value; ``files_done``/``files_total`` count the
    changed files of the current (or last) run, ``chunks_done`` the chunks it wrote (not the
    repo's totals: ``ListRepos`` has those); ``pending_vectors`` the repo's points still
    waiting for a dense vector; ``vectors_done`` the dense vectors added since the current
    embedding pass began. ``eta_s`` is the estimated seconds left in ``phase`` (0: no
    estimate). Times are Unix seconds (``started_unix_s`` 0 before any run since start;
    ``phase_started_unix_s`` when ``phase`` was entered).
    """

    repo: str
    state: str = "pending"
    phase: str = "idle"
    commit: str = ""
    files_done: int = 0
    files_total: int = 0
    chunks_done: int = 0
    pending_vectors: int = 0
    started_unix_s: float = 0.0
    updated_unix_s: float = 0.0
    error: str = ""
    vectors_done: int = 0
    eta_s: float = 0.0
    phase_started_unix_s: float = 0.0

    @property
    def settled(self) -> bool:
        """No run in progress and no vector waiting (an ``error`` is settled too)."""
        return self.phase not in RUNNING and (self.pending_vectors == 0 or self.phase == "error")


class Registry:
    """The latest ``Progress`` per repo. Thread-safe; updates never block on watchers.

    Args:
        initial: the state of a repo nothing reported yet (e.g. from the ledger).
        clock: Unix time for ``updated_unix_s``/``started_unix_s``.
        monotonic: the clock that paces watchers.
        min_interval_s: see ``MIN_INTERVAL_S``.
        max_watches: open watches allowed at once (each holds a server thread);
            ``watch`` raises ``ResourceExhausted`` beyond it. 0 = unlimited.
    """

    def __init__(self, initial: Callable[[str], Progress] = Progress,
                 clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic,
                 min_interval_s: float = MIN_INTERVAL_S, max_watches: int = 0) -> None:
        self._initial = initial
        self._clock = clock
        self._monotonic = monotonic
        self._min_interval_s = min_interval_s
        self._max_watches = max_watches
        self._cond = threading.Condition()
        self._states: dict[str, Progress] = {}
        self._versions: dict[str, int] = {}
        self._watches: set[Watch] = set()
        self._pending_at_start: dict[str, int] = {}
        self._phase_base: dict[str, int] = {}
        self._closed = False

    # --- updates (pipeline, jobs) ---------------------------------------------------------

    def set_initial(self, initial: Callable[[str], Progress]) -> None:
        """Replace the state shown for repos nothing reported yet (``serve`` starts with
        phase ``starting``, then reads the ledger once the daemon is open)."""
        with self._cond:
            self._initial = initial

    def update(self, repo: str, **changes: Any) -> None:
        """Set ``changes`` (``Progress`` fields) on ``repo``'s state, re-estimate ``eta_s``,
        and wake its watchers."""
        with self._cond:
            old = self._states.get(repo) or self._initial(repo)
            now = self._clock()
            new = replace(old, updated_unix_s=now, **changes)
            if new.phase != old.phase or not new.phase_started_unix_s:
                new = replace(new, phase_started_unix_s=now)
                # The phase's rate counts from here: the dense worker's vectors_done runs on
                # across a sync that interrupts its phase, and must not count twice.
                self._phase_base[repo] = _measure(new)
            self._states[repo] = replace(new, eta_s=eta_s(new, now, self._phase_base.get(repo, 0)))
            self._versions[repo] = self._versions.get(repo, 0) + 1
            for watch in self._watches:
                watch.mark(repo)
            self._cond.notify_all()

    def start(self, repo: str) -> None:
        """A run of ``repo`` begins: phase ``fetching``, counters back to 0."""
        with self._cond:
            self._pending_at_start[repo] = (self._states.get(repo) or self._initial(repo)).pending_vectors
        self.update(repo, state="syncing", phase="fetching", commit="", files_done=0, files_total=0,
                    chunks_done=0, vectors_done=0, started_unix_s=self._clock(), error="")

    def queue(self, repos: Iterable[str]) -> None:
        """``repos`` wait for their first run since start (phase ``queued``)."""
        for repo in repos:
            self.update(repo, phase="queued")

    def embedding(self, repo: str, vectors_done: int, pending_vectors: int) -> None:
        """The dense worker added ``vectors_done`` vectors to ``repo`` in its current pass,
        ``pending_vectors`` still wait. Phase ``embedding`` unless a lexical run of the repo
        is in progress (that run's phases win; only the counts change)."""
        with self._cond:
            phase = (self._states.get(repo) or self._initial(repo)).phase
            changes: dict[str, Any] = {"vectors_done": vectors_done, "pending_vectors": pending_vectors}
            if phase not in LEXICAL:
                changes["phase"] = "embedding"
            self.update(repo, **changes)

    def embedded(self, repo: str, pending_vectors: int) -> None:
        """The dense worker's pass over ``repo`` ended (done, or stopped by shutdown) with
        ``pending_vectors`` left: phase ``done`` if it was ``embedding`` (``idle`` when some
        are left: the next start resumes them)."""
        with self._cond:
            phase = (self._states.get(repo) or self._initial(repo)).phase
            changes: dict[str, Any] = {"pending_vectors": pending_vectors}
            if phase == "embedding":
                changes["phase"] = "done" if pending_vectors == 0 else "idle"
            self.update(repo, **changes)

    def files(self, report: Any) -> None:
        """After one file of a run: ``report`` is the run's ``pipeline.IndexReport``.
        ``pending_vectors`` grows by the chunks written without a dense vector (an upper
        bound while the run replaces files; the job runner recounts it exactly after)."""
        with self._cond:
            base = self._pending_at_start.get(report.repo, 0)
        self.update(report.repo, files_done=report.files_changed + report.files_deleted,
                    chunks_done=report.chunks,
                    pending_vectors=base + getattr(report, "vectors_missing", 0))

    def finish(self, report: Any) -> None:
        """A run ended (``report.state`` ready, empty, error, or pending when interrupted)."""
        state = str(report.state)
        phase = {"error": "error", "pending": "idle"}.get(state, "done")
        self.update(report.repo, state=state, phase=phase, commit=report.commit, error=report.error,
                    files_done=report.files_changed + report.files_deleted, chunks_done=report.chunks)

    # --- reads ----------------------------------------------------------------------------

    def get(self, repo: str) -> Progress:
        """``repo``'s latest state (``initial(repo)`` if nothing reported yet)."""
        with self._cond:
            return self._states.get(repo) or self._initial(repo)

    def phase(self, repo: str) -> str:
        """``repo``'s current phase; ``idle`` if nothing reported yet (no ledger read:
        ``/metrics`` asks this for every repo on every scrape)."""
        with self._cond:
            state = self._states.get(repo)
        return state.phase if state is not None else "idle"

    def watch(self, repos: Iterable[str], once: bool = False,
              alive: Callable[[], bool] = lambda: True) -> Watch:
        """A stream of ``Progress`` for ``repos`` (see ``Watch``). Raises
        ``ResourceExhausted`` when ``max_watches`` streams are open already."""
        watch = Watch(self, tuple(dict.fromkeys(repos)), once, alive)
        if once:
            return watch
        with self._cond:
            if self._max_watches and len(self._watches) >= self._max_watches:
                raise ResourceExhausted(f"WatchProgress: {self._max_watches} streams open already")
            self._watches.add(watch)
        return watch

    def close(self) -> None:
        """End every watch (server shutdown); later watches end after their first states."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _forget(self, watch: Watch) -> None:
        with self._cond:
            self._watches.discard(watch)


class Watch:
    """Iterate for ``Progress`` messages: first the current state of every repo in scope (in
    scope order), then each change until ``cancel()``, ``Registry.close()`` or ``alive()``
    turns false; with ``once`` only the first part. Iterate it once, from one thread."""

    def __init__(self, registry: Registry, repos: tuple[str, ...], once: bool,
                 alive: Callable[[], bool]) -> None:
        self._registry = registry
        self._repos = repos
        self._scope = frozenset(repos)
        self._once = once
        self._alive = alive
        self._dirty: set[str] = set()
        self._sent_at: dict[str, float] = {}
        self._cancelled = False

    def mark(self, repo: str) -> None:
        """Called by the registry, under its lock, when ``repo`` changed."""
        if repo in self._scope:
            self._dirty.add(repo)

    def cancel(self) -> None:
        """End the stream (the client went away); safe from any thread."""
        with self._registry._cond:
            self._cancelled = True
            self._registry._watches.discard(self)
            self._registry._cond.notify_all()

    def __iter__(self) -> Iterator[Progress]:
        reg = self._registry
        try:
            with reg._cond:
                first = [reg._states.get(r) or reg._initial(r) for r in self._repos]
                self._dirty.clear()
            now = reg._monotonic()
            for item in first:
                self._sent_at[item.repo] = now
                yield item
            while not self._once:
                batch = self._next_batch()
                if batch is None:
                    return
                yield from batch
        finally:
            reg._forget(self)

    def _next_batch(self) -> list[Progress] | None:
        """The repos due now (changed, and not sent within ``min_interval_s``), waiting
        until there is one; ``None`` when the watch ends."""
        reg = self._registry
        with reg._cond:
            while True:
                if self._cancelled or reg._closed or not self._alive():
                    return None
                now = reg._monotonic()
                due, wait_s = [], ALIVE_POLL_S
                for repo in self._dirty:
                    left = self._sent_at.get(repo, -1e18) + reg._min_interval_s - now
                    if left <= 0:
                        due.append(repo)
                    else:
                        wait_s = min(wait_s, left)
                if due:
                    self._dirty.difference_update(due)
                    for repo in due:
                        self._sent_at[repo] = now
                    return [reg._states[r] for r in sorted(due)]
                reg._cond.wait(timeout=wait_s)


def _measure(p: Progress) -> int:
    """What ``p.phase`` counts: files while indexing, vectors while embedding, else 0."""
    return {"indexing": p.files_done, "embedding": p.vectors_done}.get(p.phase, 0)


def eta_s(p: Progress, now: float, base: int = 0) -> float:
    """Seconds left in ``p.phase`` at the rate measured since the phase began (``base``:
    the phase's count then): files while ``indexing`` (``files_total - files_done`` left),
    dense vectors while ``embedding`` (``pending_vectors`` left). 0 when nothing was
    measured yet or the phase has no measure; at least 1 while work is left (a rounding
    to 0 would read as "done")."""
    elapsed = now - p.phase_started_unix_s
    if p.phase == "indexing":
        left = p.files_total - p.files_done
    elif p.phase == "embedding":
        left = p.pending_vectors
    else:
        return 0.0
    done = _measure(p) - base
    if done <= 0 or left <= 0 or elapsed <= 0:
        return 0.0
    return max(1.0, left * elapsed / done)


#: The registry of a ``Pipeline`` or ``Service`` built outside ``Daemon.open`` (nobody
#: watches it; it holds one small record per repo).
DETACHED = Registry()
