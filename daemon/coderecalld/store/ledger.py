"""The ledger: SQLite record of what was indexed from which blob, per repo and path.

The diff of a sync is the commit's tree against this ledger (DESIGN.md decision 1): a path
is changed when its blob id differs from the ledger's or is missing there, and deleted when
the ledger has it and the tree does not. A file is recorded only after its points were
written, so a crash at any instant re-runs exactly the unfinished files. Skipped files are
recorded too (with their blob id), so they are re-examined only when their blob changes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from coderecalld.records import ChangeStatus, FileChange, FileState, RepoState

_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    repo TEXT NOT NULL, path TEXT NOT NULL, blob_id TEXT NOT NULL,
    state TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '',
    symbols INTEGER NOT NULL DEFAULT 0, chunks INTEGER NOT NULL DEFAULT 0,
    point_ids TEXT NOT NULL DEFAULT '[]', detail TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (repo, path)
);
CREATE TABLE IF NOT EXISTS repos (
    name TEXT PRIMARY KEY, url TEXT NOT NULL DEFAULT '', branch TEXT NOT NULL DEFAULT '',
    indexed_commit TEXT NOT NULL DEFAULT '', last_sync REAL NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'pending', error TEXT NOT NULL DEFAULT '',
    fetched_commit TEXT NOT NULL DEFAULT '', behind_since REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS repo_meta (
    name TEXT PRIMARY KEY, meta TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS payload_versions (
    name TEXT PRIMARY KEY, version INTEGER NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class RepoRow:
    """The ledger's view of one repo. ``last_sync_unix_s`` is 0 if never synced.

    ``fetched_commit`` is the branch head the last successful fetch found; ``behind_since``
    the unix time at which a fetch first found a head the index did not reflect (kept while
    newer heads arrive before the index catches up; meaningless once it has).
    """

    name: str
    url: str
    branch: str
    indexed_commit: str
    last_sync_unix_s: float
    state: RepoState
    error: str
    files: int
    symbols: int
    chunks: int
    fetched_commit: str = ""
    behind_since: float = 0.0

    def lag_s(self, now: float) -> float:
        """Seconds the index has been behind the fetched head: ``now - behind_since`` while
        ``fetched_commit`` differs from ``indexed_commit``, else 0."""
        if not self.behind_since or self.fetched_commit == self.indexed_commit:
            return 0.0
        return max(0.0, now - self.behind_since)


@dataclass(frozen=True, slots=True)
class FileRow:
    """The ledger's record of one file: its blob, outcome, and the point ids written.

    ``reason`` is the fixed-vocabulary cause of a skip or failure; ``detail`` says more for
    people (an LFS pointer's oid and size, a parse error's message).
    """

    path: str
    blob_id: str
    state: FileState
    reason: str
    symbols: int
    chunks: int
    point_ids: tuple[str, ...]
    detail: str = ""


class Ledger:
    """SQLite-backed ledger; safe to share between threads (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(files)")}
            if "detail" not in columns:  # a ledger written before skips carried a detail
                self._db.execute("ALTER TABLE files ADD COLUMN detail TEXT NOT NULL DEFAULT ''")
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(repos)")}
            if "fetched_commit" not in columns:  # a ledger written before lag was reported
                self._db.execute("ALTER TABLE repos ADD COLUMN fetched_commit TEXT NOT NULL DEFAULT ''")
                self._db.execute("ALTER TABLE repos ADD COLUMN behind_since REAL NOT NULL DEFAULT 0")

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def diff(self, repo: str, blobs: Mapping[str, str]) -> list[FileChange]:
        """Changes between a commit's tree (``path -> blob_id``) and the ledger, sorted by path."""
        known = self._blob_ids(repo)
        changes = [
            FileChange(path, ChangeStatus.MODIFIED if path in known else ChangeStatus.ADDED,
                       blob_id, known.get(path, ""))
            for path, blob_id in blobs.items() if known.get(path) != blob_id
        ]
        changes += [FileChange(path, ChangeStatus.DELETED, "", old)
                    for path, old in known.items() if path not in blobs]
        return sorted(changes, key=lambda c: c.path)

    def _blob_ids(self, repo: str) -> dict[str, str]:
        with self._lock:
            rows = self._db.execute("SELECT path, blob_id FROM files WHERE repo=?", (repo,))
            return dict(rows.fetchall())

    def record_file(self, repo: str, row: FileRow) -> None:
        """Record that ``row.path`` at ``row.blob_id`` is done (indexed, skipped or failed)."""
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO files (repo, path, blob_id, state, reason, symbols, "
                "chunks, point_ids, detail) VALUES (?,?,?,?,?,?,?,?,?)",
                (repo, row.path, row.blob_id, row.state.value, row.reason, row.symbols,
                 row.chunks, json.dumps(list(row.point_ids)), row.detail))

    def forget_file(self, repo: str, path: str) -> None:
        """Drop ``path`` from the ledger (after its points were deleted)."""
        with self._lock:
            self._db.execute("DELETE FROM files WHERE repo=? AND path=?", (repo, path))

    def file(self, repo: str, path: str) -> FileRow | None:
        """The ledger row of one file, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT path, blob_id, state, reason, symbols, chunks, point_ids, detail "
                "FROM files WHERE repo=? AND path=?", (repo, path)).fetchone()
        if row is None:
            return None
        return FileRow(row[0], row[1], FileState(row[2]), row[3], row[4], row[5],
                       tuple(json.loads(row[6])), row[7])

    def paths(self, repo: str) -> list[str]:
        """The paths of ``repo``'s indexed files, sorted (one query: no rows decoded)."""
        with self._lock:
            return [r[0] for r in self._db.execute(
                "SELECT path FROM files WHERE repo=? AND state=? ORDER BY path",
                (repo, FileState.INDEXED.value))]

    def files(self, repo: str, state: FileState | None = None) -> list[FileRow]:
        """Every file row of ``repo`` (optionally of one state), sorted by path."""
        query = "SELECT path FROM files WHERE repo=?" + (" AND state=?" if state else "")
        args = (repo, state.value) if state else (repo,)
        with self._lock:
            paths = [r[0] for r in self._db.execute(query + " ORDER BY path", args)]
        return [row for p in paths if (row := self.file(repo, p)) is not None]

    def set_repo(self, name: str, *, url: str | None = None, branch: str | None = None,
                 indexed_commit: str | None = None, state: RepoState | None = None,
                 error: str | None = None, synced: bool = False) -> None:
        """Update the given fields of repo ``name`` (created if new)."""
        values = {"url": url, "branch": branch, "indexed_commit": indexed_commit,
                  "state": state.value if state else None, "error": error,
                  "last_sync": time.time() if synced else None}
        values = {k: v for k, v in values.items() if v is not None}
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO repos (name) VALUES (?)", (name,))
            for key, value in values.items():
                self._db.execute(f"UPDATE repos SET {key}=? WHERE name=?", (value, name))

    def note_fetched(self, name: str, commit: str, now: float | None = None) -> None:
        """Record that a fetch of repo ``name`` found ``commit`` at its branch head (``""``:
        unborn). Starts the lag clock when the index was caught up and ``commit`` is new to
        it; keeps it running while further heads arrive before the index catches up."""
        now = time.time() if now is None else now
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO repos (name) VALUES (?)", (name,))
            indexed, fetched, since = self._db.execute(
                "SELECT indexed_commit, fetched_commit, behind_since FROM repos WHERE name=?",
                (name,)).fetchone()
            if commit == indexed:
                since = 0.0
            elif not since or fetched == indexed:
                since = now
            self._db.execute("UPDATE repos SET fetched_commit=?, behind_since=? WHERE name=?",
                             (commit, since, name))

    def repo(self, name: str) -> RepoRow | None:
        """The ledger's view of repo ``name`` with file/symbol/chunk totals, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT name, url, branch, indexed_commit, last_sync, state, error, fetched_commit, "
                "behind_since FROM repos "
                "WHERE name=?", (name,)).fetchone()
            totals = self._db.execute(
                "SELECT COUNT(*), COALESCE(SUM(symbols),0), COALESCE(SUM(chunks),0) FROM files "
                "WHERE repo=? AND state='indexed'", (name,)).fetchone()
        if row is None:
            return None
        return RepoRow(row[0], row[1], row[2], row[3], row[4], RepoState(row[5]), row[6],
                       totals[0], totals[1], totals[2], row[7], row[8])

    def set_repo_meta(self, name: str, meta: Mapping[str, object]) -> None:
        """Replace repo ``name``'s description (purpose, languages, packages; JSON-able)."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO repo_meta (name, meta) VALUES (?,?)",
                             (name, json.dumps(dict(meta))))

    def repo_meta(self, name: str) -> dict:
        """Repo ``name``'s description as last set, ``{}`` if never."""
        with self._lock:
            row = self._db.execute("SELECT meta FROM repo_meta WHERE name=?", (name,)).fetchone()
        return json.loads(row[0]) if row else {}

    def repo_names(self) -> list[str]:
        """Names of every repo the ledger knows, sorted."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT name FROM repos ORDER BY name")]

    def forget_repo(self, name: str) -> None:
        """Drop a repo and all its files from the ledger."""
        with self._lock:
            self._db.execute("DELETE FROM files WHERE repo=?", (name,))
            self._db.execute("DELETE FROM repos WHERE name=?", (name,))
            self._db.execute("DELETE FROM repo_meta WHERE name=?", (name,))

    def payload_version(self, name: str) -> int:
        """The ``points.PAYLOAD_VERSION`` repo ``name`` was last fully indexed under; 0 if
        never recorded (a new repo, or a ledger older than the version)."""
        with self._lock:
            row = self._db.execute("SELECT version FROM payload_versions WHERE name=?", (name,)).fetchone()
        return int(row[0]) if row else 0

    def set_payload_version(self, name: str, version: int) -> None:
        """Record that every file of repo ``name`` now carries payload ``version``."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO payload_versions (name, version) VALUES (?,?)",
                             (name, version))

    def invalidate_files(self, name: str) -> int:
        """Forget the blob ids of repo ``name``'s files, so the next diff re-indexes every one
        (a payload upgrade); returns how many rows. Rows stay: deletions are still seen."""
        with self._lock:
            return self._db.execute("UPDATE files SET blob_id='' WHERE repo=?", (name,)).rowcount
