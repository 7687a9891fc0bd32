"""Uncommitted files for one session (IndexOverlay): their own store, bounds and expiry.

An agent editing a working tree sends a file's current bytes; they are classified, parsed,
chunked, redacted and given sparse (and, with the model on, dense) vectors exactly as a
sync would (``Pipeline.loose_file``), and stored in the **overlay store**: a second Qdrant
Edge shard of the same vector space under ``data_dir/overlay``, emptied at every start
(overlays are ephemeral). The committed collection is never written.

Isolation: a session belongs to the principal that names it. Its points carry the tenant
``<key>|<repo>`` in their ``repo`` field, ``key`` = 16 hex digits of sha256(principal name,
session), and the only way to reach them is a store filter over the session's tenants: a
request without a session never queries the overlay store, another session (or another
principal using the same session id) has other tenants. The caller's repo scope applies
as to the committed index: tenants are built only for repos in scope, and writing needs
the repo in scope (any role: an overlay changes nothing that anyone else sees).

Shadowing: for its session, an overlay file replaces the committed points of the same
repo and path; Search and FindSymbols drop committed hits of those paths, over-fetching by
the number of points the ledger records for them so a page is still filled.

Bounds: content up to ``index.max_file_bytes`` (``InvalidArgument`` beyond) and
``MAX_CHUNKS_PER_FILE`` chunks (``ResourceExhausted`` beyond, before any is embedded);
``MAX_FILES_PER_SESSION`` files per session and ``MAX_FILES`` in all
(``ResourceExhausted`` beyond); TTL 1..``MAX_TTL_S`` seconds, 0 = ``DEFAULT_TTL_S``.
Expiry: every call purges expired files first (lazy), and a background thread purges
every ``PURGE_INTERVAL_S`` seconds so an idle daemon frees them too.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from coderecalld import logs
from coderecalld.errors import EmbedError, InvalidArgument, ResourceExhausted
from coderecalld.records import Hit, OverlayStatus
from coderecalld.store import EdgeStore, StoreFilter

#: Session ids: what IndexOverlayRequest.session documents.
SESSION = re.compile(r"^[A-Za-z0-9._-]{1,128}$")
DEFAULT_TTL_S = 3600
MAX_TTL_S = 86_400
#: A session is one agent's working tree: a hundred edited files is a large change.
MAX_FILES_PER_SESSION = 100
#: Every session together (at most this many times index.max_file_bytes of source).
MAX_FILES = 5000
#: Chunks one overlay file may make: a generated 1 MB file of 27k functions made 23,209
#: and took 34 s to index with the model off (at ~17 chunks/s, 23 minutes to embed),
#: holding a worker all along (a newcomer's stall trial). A real source file makes a few
#: hundred at most; a larger one is committed and synced instead.
MAX_CHUNKS_PER_FILE = 2000
PURGE_INTERVAL_S = 60.0
_TENANT_SEP = "|"  # never in a session key (hex), so the first one splits key and repo


@dataclass(frozen=True, slots=True)
class OverlayFile:
    """One stored overlay file: its tenant, expiry and the points written for it."""

    tenant: str
    expires_unix_s: float
    point_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What one request carrying a session sees of the overlay.

    ``flt`` selects the session's points in scope (``None``: the session holds none);
    ``shadowed`` are the (repo, path) pairs whose committed points it hides, and
    ``shadow_points`` how many committed points those hold (the over-fetch).
    """

    flt: StoreFilter | None
    shadowed: frozenset[tuple[str, str]] = frozenset()
    shadow_points: int = 0

    def hides(self, hit: Hit) -> bool:
        """True for a committed hit of a shadowed file."""
        return (hit.payload["repo"], hit.payload["path"]) in self.shadowed


NO_VIEW = View(None)


def session_key(principal: str, session: str) -> str:
    """16 hex digits naming ``session`` of ``principal`` (never the session id itself)."""
    return hashlib.sha256(f"{principal}\0{session}".encode()).hexdigest()[:16]


def check_session(session: str) -> str:
    """``session`` if it matches ``SESSION``; ``InvalidArgument`` otherwise."""
    if not isinstance(session, str) or not SESSION.match(session):
        raise InvalidArgument("session: expected 1..128 characters of [A-Za-z0-9._-]")
    return session


def restore(hit: Hit) -> Hit:
    """An overlay hit with its real repo name in the payload instead of its tenant."""
    repo = hit.payload["repo"].split(_TENANT_SEP, 1)[1]
    return Hit(hit.id, hit.score, {**hit.payload, "repo": repo})


def open_store(root: Path, like: Any) -> EdgeStore:
    """An empty overlay store under ``root`` with the vector space of store ``like``."""
    shutil.rmtree(root, ignore_errors=True)  # overlays never outlive the process
    identity = like.identity
    return EdgeStore(root, identity.dense_dim, identity.model_id, identity.sparse_version)


class Overlay:
    """The sessions' uncommitted files over one overlay ``store``.

    Args:
        store: the overlay store (``open_store``), never the committed one.
        loose_file: ``Pipeline.loose_file``: (points, (id, text) pairs to embed, verdict,
            symbol count) of one blob.
        embed: document embedder (``Embedder.embed``), or ``None`` for sparse only.
        max_file_bytes: ``index.max_file_bytes``.
        clock: seconds since the epoch (tests pass a controllable one).
    """

    def __init__(self, store: Any, loose_file: Callable[..., Any], embed: Callable[..., Any] | None,
                 max_file_bytes: int, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self._loose_file = loose_file
        self._embed = embed
        self._max_file_bytes = max_file_bytes
        self.clock = clock  # public: tests replace it to expire files without sleeping
        self._files: dict[tuple[str, str, str], OverlayFile] = {}  # (key, repo, path)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- writes -----------------------------------------------------------------------

    def put(self, principal: str, session: str, repo: str, path: str, content: bytes,
            ttl_s: int = 0) -> OverlayStatus:
        """Index ``content`` as ``repo``/``path`` for ``session`` of ``principal`` (replacing
        an earlier version); empty content removes it. The caller checks scope and path."""
        check_session(session)
        if not 0 <= ttl_s <= MAX_TTL_S:
            raise InvalidArgument(f"ttl_s: {ttl_s} > {MAX_TTL_S} (the maximum)" if ttl_s > 0
                                  else f"ttl_s: {ttl_s} < 0 (0 means the default, {DEFAULT_TTL_S})")
        if len(content) > self._max_file_bytes:
            raise InvalidArgument(f"content: {len(content)} bytes, over index.max_file_bytes "
                                  f"({self._max_file_bytes})")
        key = session_key(principal, session)
        file_key = (key, repo, path)
        with self._lock:
            self.purge()
            if not content:
                self._remove(file_key)
                return OverlayStatus(repo, path, session, 0, 0, 0.0, "removed")
            self._check_room(file_key)
        # Parse and embed outside the lock: other sessions' searches never wait on the model.
        tenant = f"{key}{_TENANT_SEP}{repo}"
        points, pending, verdict, symbols = self._loose_file(tenant, path, content)
        if len(points) > MAX_CHUNKS_PER_FILE:
            raise ResourceExhausted(
                f"overlay: {path} makes {len(points)} chunks, over the {MAX_CHUNKS_PER_FILE} an "
                "overlay file may hold; commit it and sync instead")
        if self._embed is not None and pending:
            points = self._with_dense(points, pending, repo, path)
        with self._lock:
            if verdict.reason:
                self._remove(file_key)
                return OverlayStatus(repo, path, session, 0, 0, 0.0, verdict.reason)
            self._check_room(file_key)  # again: another call may have taken the room meanwhile
            ids = [p.id for p in points]
            self.store.upsert(points)
            self.store.delete_file_except(tenant, path, ids)
            expires = self.clock() + (ttl_s or DEFAULT_TTL_S)
            self._files[file_key] = OverlayFile(tenant, expires, tuple(ids))
        logs.event("overlay.indexed", repo=repo, path=path, chunks=len(ids))
        return OverlayStatus(repo, path, session, symbols, len(ids), expires, "")

    def _with_dense(self, points: list[Any], pending: list[tuple[str, str]], repo: str,
                    path: str) -> list[Any]:
        """``points`` with the dense vectors of ``pending``; unchanged (lexical only, as in a
        sync whose model fails) when the model fails."""
        try:
            vectors = dict(zip((pid for pid, _ in pending), self._embed([t for _, t in pending])))
        except EmbedError as exc:
            logs.warn("overlay.embed_failed", repo=repo, path=path, error=str(exc))
            return points
        return [replace(p, dense=tuple(vectors[p.id].tolist())) if p.id in vectors else p for p in points]

    def _check_room(self, file_key: tuple[str, str, str]) -> None:
        if file_key in self._files:
            return  # a replacement takes no new room
        if sum(1 for k in self._files if k[0] == file_key[0]) >= MAX_FILES_PER_SESSION:
            raise ResourceExhausted(f"overlay: a session holds at most {MAX_FILES_PER_SESSION} files")
        if len(self._files) >= MAX_FILES:
            raise ResourceExhausted(f"overlay: the daemon holds at most {MAX_FILES} overlay files")

    def _remove(self, file_key: tuple[str, str, str]) -> None:
        found = self._files.pop(file_key, None)
        if found is not None:
            self.store.delete_file_except(found.tenant, file_key[2], ())

    def purge(self, now: float | None = None) -> int:
        """Delete every overlay file expired at ``now`` (default: the clock); returns how many."""
        with self._lock:
            now = self.clock() if now is None else now
            expired = [k for k, f in self._files.items() if f.expires_unix_s <= now]
            for file_key in expired:
                self._remove(file_key)
        return len(expired)

    # --- reads ------------------------------------------------------------------------

    def view(self, principal: str, session: str, flt: StoreFilter,
             committed_points: Callable[[str, str], int]) -> View:
        """What ``session`` of ``principal`` sees within ``flt`` (the caller's scope and
        filters); ``committed_points(repo, path)`` counts the points a shadowed file holds."""
        if not session:
            return NO_VIEW
        check_session(session)
        key = session_key(principal, session)
        with self._lock:
            self.purge()
            mine = [(repo, path, f.tenant) for (k, repo, path), f in self._files.items()
                    if k == key and (not flt.repos or repo in flt.repos)
                    and (not flt.repo or repo == flt.repo)]
        if not mine:
            return NO_VIEW
        shadowed = frozenset((repo, path) for repo, path, _ in mine)
        tenants = tuple(sorted({tenant for _, _, tenant in mine}))
        return View(replace(flt, repo="", repos=tenants), shadowed,
                    sum(committed_points(repo, path) for repo, path in shadowed))

    def files(self) -> int:
        """Overlay files held now (all sessions)."""
        with self._lock:
            return len(self._files)

    # --- lifecycle --------------------------------------------------------------------

    def start(self, interval_s: float = PURGE_INTERVAL_S) -> None:
        """Purge expired files every ``interval_s`` seconds in a background thread."""
        self._thread = threading.Thread(target=self._purge_loop, args=(interval_s,),
                                        name="overlay-purge", daemon=True)
        self._thread.start()

    def _purge_loop(self, interval_s: float) -> None:
        while not self._stop.wait(interval_s):
            purged = self.purge()
            if purged:
                logs.event("overlay.purged", files=purged)

    def close(self) -> None:
        """Stop the purge thread and close the overlay store."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.store.close()
