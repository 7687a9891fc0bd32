"""Index generations and the background rebuild after a vector-space change (DESIGN.md decision 7).

A *generation* is one store collection with the ledger that records what it holds and the
embedder that produced its vectors. The collection's name is its ``StoreIdentity``
(embedding model, dense dimension, sparse tokenizer version), so a change of any of the
three is a new generation, even at an equal dimension.

When the configured identity differs from the active one (``current`` on Edge), the daemon
keeps answering from the old generation, *with the old embedder for query vectors*, while
``Pipeline``/``Jobs`` index every repo into the new one in the background. ``Rebuild``
switches when every configured repo has a successful run in the new generation and no point
there waits for a dense vector: it takes the write side of ``ReadWriteLock`` (so no query is
in flight), points ``current`` at the new collection (one atomic rename), swaps the service's
store, ledger and embedder together, and closes the old generation. A query therefore sees
the old generation or the new one, never a mix, and never a query vector of one model
against the other's collection. A crash during the rebuild leaves ``current`` on the old
collection; the next start resumes the new one from its own ledger (DESIGN.md decision 1).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from coderecalld import logs
from coderecalld.config import Config, EmbeddingConfig
from coderecalld.embed.local import Embedder
from coderecalld.errors import CodeRecallError, StoreError
from coderecalld.records import RepoState
from coderecalld.store.ledger import Ledger

#: File in a collection directory that records the ``[embedding]`` settings its vectors
#: were made with, so a later start with another model can still embed queries for it.
EMBEDDING_FILE = "embedding.json"
#: A repo state after which the new generation holds that repo completely.
_DONE_STATES = (RepoState.READY, RepoState.EMPTY)


@dataclass
class Generation:
    """One collection, its ledger and the embedder of its vector space (None: sparse only)."""

    store: Any
    ledger: Ledger
    embedder: Embedder | None

    def close(self) -> None:
        """Close the store and the ledger (idempotent)."""
        try:
            self.store.close()
        finally:
            self.ledger.close()


def write_embedding_config(directory: Path, emb: EmbeddingConfig) -> None:
    """Record ``emb`` in ``directory/embedding.json`` (once: an existing file is kept), less
    ``api_key`` (a secret; the daemon takes it from the configuration)."""
    path = directory / EMBEDDING_FILE
    record = {k: v for k, v in asdict(emb).items() if k != "api_key"}
    if directory.is_dir() and not path.exists():
        path.write_text(json.dumps(record, sort_keys=True, indent=1) + "\n", encoding="utf-8")


def read_embedding_config(directory: Path) -> EmbeddingConfig | None:
    """The ``[embedding]`` settings recorded for a collection, or None when there is no
    readable record (a collection made before records existed, or a damaged file)."""
    try:
        data = json.loads((directory / EMBEDDING_FILE).read_text(encoding="utf-8"))
        known = {f.name for f in fields(EmbeddingConfig)}
        return EmbeddingConfig(**{k: v for k, v in data.items() if k in known})
    except (OSError, ValueError, TypeError):
        return None


class ReadWriteLock:
    """Many readers or one writer; a waiting writer blocks new readers (no starvation).

    Queries hold the read side for their whole duration; the generation switch holds the
    write side for the few milliseconds of the pointer rename and attribute swap.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._writer = False
        self._writers_waiting = 0

    def acquire_read(self) -> None:
        with self._cond:
            while self._writer or self._writers_waiting:
                self._cond.wait()
            self._readers += 1

    def release_read(self) -> None:
        with self._cond:
            self._readers -= 1
            if not self._readers:
                self._cond.notify_all()

    def acquire_write(self) -> None:
        with self._cond:
            self._writers_waiting += 1
            while self._writer or self._readers:
                self._cond.wait()
            self._writers_waiting -= 1
            self._writer = True

    def release_write(self) -> None:
        with self._cond:
            self._writer = False
            self._cond.notify_all()


class GuardedApi:
    """Wraps a ``CodeRecallApi``: every method call holds the read side of ``lock``.

    What the gRPC server is given while a rebuild may switch generations under it.
    """

    def __init__(self, api: Any, lock: ReadWriteLock) -> None:
        self._api = api
        self._lock = lock

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._api, name)
        if not callable(target):
            return target

        def guarded(*args: Any, **kwargs: Any) -> Any:
            self._lock.acquire_read()
            try:
                return target(*args, **kwargs)
            finally:
                self._lock.release_read()

        return guarded


class Rebuild:
    """The background build of generation ``new`` while ``service`` answers from ``old``.

    ``maybe_switch`` (called by the jobs after every sync and dense-backlog pass) switches
    once ``blocker()`` is ``""``.
    """

    def __init__(self, cfg: Config, service: Any, old: Generation, new: Generation,
                 lock: ReadWriteLock, owns: Callable[[str], bool] = lambda name: True) -> None:
        self.cfg = cfg
        self.owns = owns  # with several replicas, each waits only for its own repos
        self.service = service
        self.old = old
        self.new = new
        self.lock = lock
        self.switched = False
        #: Called once after the switch (the daemon opens the overlay store of the new space).
        self.on_switch: Callable[[], object] | None = None
        self._guard = threading.Lock()

    def blocker(self) -> str:
        """Why the switch cannot happen yet, ``""`` when it can: the first repo without a
        successful run in the new generation, or the count of points waiting for vectors."""
        for repo in self.cfg.repos:
            if not self.owns(repo.name):
                continue
            row = self.new.ledger.repo(repo.name)
            if row is None or row.state not in _DONE_STATES:
                state = row.state.value if row is not None else "not indexed"
                return f"repo {repo.name!r} is {state} in the new generation"
        if self.new.embedder is not None:
            pending = self.new.store.count_missing_dense()
            if pending:
                return f"{pending} points wait for dense vectors"
        return ""

    def maybe_switch(self) -> bool:
        """Switch to the new generation if it is complete; True once switched.

        Raises nothing: a failed switch (the pointer cannot be written) is logged and
        retried at the next call, with the old generation still serving.
        """
        with self._guard:
            if self.switched:
                return True
            try:
                reason = self.blocker()
            except CodeRecallError as exc:
                reason = f"cannot check the new generation: {exc}"
            if reason:
                logs.event("generation.rebuilding", reason=reason)
                return False
            self.lock.acquire_write()
            try:
                self.new.store.activate()
                svc = self.service
                svc.store, svc.ledger, svc.embedder = (
                    self.new.store, self.new.ledger, self.new.embedder)
                self.switched = True
            except StoreError as exc:
                logs.warn("generation.switch_failed", error=str(exc))
                return False
            finally:
                self.lock.release_write()
            logs.event("generation.switched", collection=getattr(self.new.store, "collection", ""),
                       old=getattr(self.old.store, "collection", ""))
            try:
                self.old.close()
            except CodeRecallError as exc:
                logs.warn("generation.old_close_failed", error=str(exc))
            if self.on_switch is not None:
                self.on_switch()
            return True
