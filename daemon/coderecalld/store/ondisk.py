"""The Edge store's collections on disk: list them, and delete the ones nothing uses.

A model change builds a new collection beside the old one (DESIGN.md decision 7) and the
old one stays on disk: switching back resumes it from its own ledger instead of indexing
from scratch, but at 1M chunks it holds ~4.7 GB. ``coderecalld prune`` lists them and
deletes the ones that are neither ``current`` nor the configured one (which a rebuild may
be filling), nor open in another process.

"Open in another process" is the engine's own lock: an open shard holds an exclusive
``flock`` on its ``shard/wal`` directory (seen in ``/proc/locks``; a second open fails with
``WouldBlock``). ``remove`` takes that lock itself before deleting, so a daemon starting
meanwhile fails to open the collection instead of reading it half-deleted.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from coderecalld.errors import StoreError, StoreUnavailable
from coderecalld.store.edge import IDENTITY_FILE, SHARD_DIR, _describe_identity, _read_pointer

WAL_DIR = "wal"


@dataclass(frozen=True, slots=True)
class CollectionInfo:
    """One collection directory: its name, its identity as text (or why it is unreadable),
    its size on disk in bytes, and whether ``current`` names it."""

    name: str
    identity: str
    bytes: int
    current: bool


def collections(root: str | Path) -> list[CollectionInfo]:
    """Every collection under ``root`` (a directory holding ``identity.json``), by name;
    ``[]`` when ``root`` does not exist. Raises ``StoreError`` for an unreadable ``current``."""
    root = Path(root)
    if not root.is_dir():
        return []
    active = _read_pointer(root)
    return [CollectionInfo(d.name, _describe_identity(d), _size(d), d.name == active)
            for d in sorted(root.iterdir()) if (d / IDENTITY_FILE).is_file()]


def remove(root: str | Path, name: str, keep: set[str]) -> int:
    """Delete collection ``name`` under ``root``; returns the bytes freed.

    Raises:
        StoreError: ``name`` is ``current``, is in ``keep``, or is not a collection under
            ``root``; or the deletion failed (what was deleted stays deleted).
        StoreUnavailable: another process has it open (a running daemon).
    """
    root = Path(root)
    directory = root / name
    if name in keep or name == _read_pointer(root):
        raise StoreError(f"store {directory}: in use by the configuration (current or configured)")
    if "/" in name or name in (".", "..") or not (directory / IDENTITY_FILE).is_file():
        raise StoreError(f"store {root}: no collection named {name!r}")
    size = _size(directory)
    wal = directory / SHARD_DIR / WAL_DIR
    fd = os.open(wal, os.O_RDONLY) if wal.is_dir() else None
    try:
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise StoreUnavailable(f"store {directory}: open in another process "
                                       "(a running coderecalld?); not deleted") from exc
        shutil.rmtree(directory)
    except OSError as exc:
        raise StoreError(f"store {directory}: cannot delete: {exc}") from exc
    finally:
        if fd is not None:
            os.close(fd)
    return size


def _size(directory: Path) -> int:
    total = 0
    for base, _, files in os.walk(directory):
        for name in files:
            try:
                total += os.lstat(os.path.join(base, name)).st_size
            except OSError:
                continue  # removed meanwhile
    return total
