"""Verification: does the store hold exactly what the ledger says, per repo? And repair.

The ledger lists, per file, the point ids its last index wrote (DESIGN.md decision 2).
Drift is anything else, by kind:

* ``orphan_point``: a store point whose id the ledger does not list for its path (its
  file is not in the ledger at all, or was re-indexed without it);
* ``missing_point``: an id the ledger lists that the store does not hold;
* ``count_mismatch``: a ledger row whose ``chunks`` differs from its number of ids;
* ``file_index_short``: fewer points in the file-level index (``Store.count_files``, one
  per indexed file) than the ledger's indexed files (its shard lost or not copied).

Repair deletes orphan points, and for every file with a missing point or a bad count
deletes the file's remaining points and forgets its ledger row, so that the next sync sees
the file as new and indexes it from its blob: the store then equals a from-scratch index;
a short file-level index has every file of the repo re-indexed (``Ledger.invalidate_files``).
Nothing here takes locks: the caller (``Jobs.verify``) keeps syncs of the repo out.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from coderecalld import logs, metrics
from coderecalld.store.ledger import Ledger


class DriftKind(StrEnum):
    """What disagrees (a log field and the ``kind`` label of ``coderecall_verify_drift_total``)."""

    ORPHAN_POINT = "orphan_point"
    MISSING_POINT = "missing_point"
    COUNT_MISMATCH = "count_mismatch"
    FILE_INDEX_SHORT = "file_index_short"


@dataclass(frozen=True, slots=True)
class Drift:
    """What ``check`` found for one repo.

    ``orphans`` and ``missing`` map a path to the point ids of that kind (sorted);
    ``miscounted`` lists paths whose ledger ``chunks`` is not ``len(point_ids)``.
    ``files`` and ``points`` are how many ledger rows and store points were compared;
    ``files_short``: how many of the ledger's indexed files the file-level index lacks.
    """

    repo: str
    files: int
    points: int
    orphans: dict[str, tuple[str, ...]]
    missing: dict[str, tuple[str, ...]]
    miscounted: tuple[str, ...]
    files_short: int = 0

    @property
    def counts(self) -> dict[str, int]:
        """Drift per ``DriftKind`` value: orphan and missing points, miscounted files."""
        return {DriftKind.ORPHAN_POINT.value: sum(len(v) for v in self.orphans.values()),
                DriftKind.MISSING_POINT.value: sum(len(v) for v in self.missing.values()),
                DriftKind.COUNT_MISMATCH.value: len(self.miscounted),
                DriftKind.FILE_INDEX_SHORT.value: self.files_short}

    @property
    def clean(self) -> bool:
        """True when the store holds exactly the ledger's points."""
        return not (self.orphans or self.missing or self.miscounted or self.files_short)

    @property
    def reindex(self) -> tuple[str, ...]:
        """Paths a repair forgets so the next sync indexes them again."""
        return tuple(sorted(set(self.missing) | set(self.miscounted)))


@dataclass(frozen=True, slots=True)
class Repair:
    """What ``repair`` did: points deleted (orphans and the rest of re-indexed files) and
    the paths whose ledger rows were forgotten."""

    deleted: int
    forgotten: tuple[str, ...]


def check(ledger: Ledger, store: Any, repo: str) -> Drift:
    """Compare ``repo``'s ledger rows with its store points (``store.all_points``: every
    point of the repo is read once). Raises ``StoreError`` if the store cannot answer."""
    rows = ledger.files(repo)
    listed = {row.path: set(row.point_ids) for row in rows}
    stored: dict[str, set[str]] = defaultdict(set)
    points = store.all_points(repo)
    for point in points:
        stored[str(point.payload.get("path", ""))].add(point.id)
    orphans = {path: tuple(sorted(ids - listed.get(path, set())))
               for path, ids in stored.items() if ids - listed.get(path, set())}
    missing = {path: tuple(sorted(ids - stored.get(path, set())))
               for path, ids in listed.items() if ids - stored.get(path, set())}
    miscounted = tuple(row.path for row in rows if row.chunks != len(set(row.point_ids)))
    row = ledger.repo(repo)
    short = max(0, (row.files if row else 0) - store.count_files(repo))
    return Drift(repo, len(rows), len(points), dict(sorted(orphans.items())),
                 dict(sorted(missing.items())), miscounted, short)


def repair(ledger: Ledger, store: Any, drift: Drift) -> Repair:
    """Delete ``drift``'s orphan points; for each path in ``drift.reindex`` delete its
    remaining points and forget its ledger row (the next sync re-indexes it); a short
    file-level index has every file of the repo re-indexed by the next sync."""
    deleted = 0
    for path in drift.orphans:
        if path not in drift.reindex:
            row = ledger.file(drift.repo, path)
            deleted += store.delete_file_except(drift.repo, path, row.point_ids if row else ())
    for path in drift.reindex:
        deleted += store.delete_file_except(drift.repo, path, ())
        ledger.forget_file(drift.repo, path)
    if drift.files_short:
        ledger.invalidate_files(drift.repo)
    return Repair(deleted, drift.reindex)


def run(ledger: Ledger, store: Any, repo: str, fix: bool) -> tuple[Drift, Repair | None]:
    """``check`` one repo, count its drift in ``coderecall_verify_drift_total``, log
    ``verify.done`` (or ``verify.drift`` at WARNING), and ``repair`` when ``fix`` and
    there is drift."""
    started = time.monotonic()
    drift = check(ledger, store, repo)
    for kind, count in drift.counts.items():
        if count:
            metrics.VERIFY_DRIFT.labels(kind=kind).inc(count)
    fixed = repair(ledger, store, drift) if fix and not drift.clean else None
    fields: dict[str, Any] = {"repo": repo, "files": drift.files, "points": drift.points,
                              **drift.counts, "duration_s": round(time.monotonic() - started, 3)}
    if fixed is not None:
        fields |= {"deleted": fixed.deleted, "reindex": len(fixed.forgotten)}
    if drift.clean:
        logs.event("verify.done", **fields)
    else:
        logs.warn("verify.drift", **fields, paths=sorted(set(drift.orphans) | set(drift.reindex))[:20])
    return drift, fixed
