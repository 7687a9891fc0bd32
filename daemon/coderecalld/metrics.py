"""The daemon's Prometheus metrics, all in one place (prefix ``coderecall_``, base units,
counters end in ``_total``, only bounded label values)."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable

from prometheus_client import Counter, Gauge

SECRETS_REDACTED = Counter(
    "coderecall_secrets_redacted",
    "Secret values replaced by [REDACTED:<type>] in indexed chunk text, by detector type.",
    ["type"],
)

#: Why a file was not indexed: classify.py's reasons, and ``parse_error`` (the parser raised).
#: The only label values of ``FILES_SKIPPED``; any other reason is counted as ``other``.
SKIP_REASONS = ("binary", "encoding", "too_large", "lfs_pointer", "unsupported", "excluded",
                "sensitive", "lockfile", "generated", "minified", "parse_error", "submodule",
                "other")

FILES_SKIPPED = Counter(
    "coderecall_files_skipped",
    "Files recorded in the ledger without points (skipped or failed), by reason.",
    ["reason"],
)
for _reason in SKIP_REASONS:  # every series exists from the start, at 0
    FILES_SKIPPED.labels(reason=_reason)


def file_skipped(reason: str) -> None:
    """Count one file not indexed for ``reason`` (a ``SKIP_REASONS`` value, else ``other``)."""
    FILES_SKIPPED.labels(reason=reason if reason in SKIP_REASONS else "other").inc()


#: ``EMBEDDINGS`` outcomes: a vector the model computed, or one served from the vector cache
#: (a rename, a revert, a fork's identical text, a crash's re-run: zero model work).
EMBEDDING_OUTCOMES = ("computed", "reused")

EMBEDDINGS = Counter(
    "coderecall_embeddings",
    "Dense vectors given to points, by outcome: computed by the model, or reused from the vector cache.",
    ["outcome"],
)
for _outcome in EMBEDDING_OUTCOMES:
    EMBEDDINGS.labels(outcome=_outcome)


def embeddings(outcome: str, n: int) -> None:
    """Count ``n`` points that got a vector by ``outcome`` (``computed`` or ``reused``)."""
    if n > 0:
        EMBEDDINGS.labels(outcome=outcome).inc(n)


INDEX_LAG = Gauge(
    "coderecall_index_lag_seconds",
    "Seconds since a fetch found a branch head the index does not reflect yet; 0 when caught up. "
    "One series per configured repo.",
    ["repo"],
)

POINTS_PENDING_VECTORS = Gauge(
    "coderecall_points_pending_vectors",
    "Points in the store still waiting for their dense vector (0 with embeddings disabled).",
)

_watch_lock = threading.Lock()
_watcher: list[object] = [None]


def watch(owner: object, repos: Iterable[str], lag_s: Callable[[str], float],
          pending_vectors: Callable[[], int]) -> None:
    """Compute the freshness gauges at scrape time through ``owner``'s callbacks: one
    ``INDEX_LAG`` series per name in ``repos`` (the configured repos: the only label values;
    series of other names are removed) and ``POINTS_PENDING_VECTORS``. A later ``watch``
    replaces an earlier one (one daemon per process)."""
    with _watch_lock:
        _watcher[0] = owner
        INDEX_LAG.clear()
        for name in repos:
            INDEX_LAG.labels(repo=name).set_function(_guarded(lambda n=name: lag_s(n)))
        POINTS_PENDING_VECTORS.set_function(_guarded(pending_vectors))


def unwatch(owner: object) -> None:
    """Drop the freshness series if ``owner`` set them (its ledger and store are closing)."""
    with _watch_lock:
        if _watcher[0] is owner:
            _watcher[0] = None
            INDEX_LAG.clear()
            POINTS_PENDING_VECTORS.set_function(lambda: 0.0)


def _guarded(fn: Callable[[], float]) -> Callable[[], float]:
    """A scrape never fails because one source is unavailable: NaN instead."""
    def value() -> float:
        try:
            return float(fn())
        except Exception:  # noqa: BLE001 - a closed store or ledger must not break /metrics
            return math.nan
    return value


SYNC_FAILURES = Gauge(
    "coderecall_repo_sync_failures",
    "Consecutive failed syncs of a repo this replica indexes; 0 after a good sync. While above 0 "
    "the repo keeps its last good index and is retried with backoff (jobs.retry_delay).",
    ["repo"],
)


def sync_failures(repo: str, failures: int) -> None:
    """Record ``repo``'s consecutive failed syncs (a configured repo: a bounded label)."""
    SYNC_FAILURES.labels(repo=repo).set(failures)


def reset_sync_failures(repos: Iterable[str]) -> None:
    """Start the series over: one per repo in ``repos`` (the ones this replica owns), at 0."""
    SYNC_FAILURES.clear()
    for repo in repos:
        SYNC_FAILURES.labels(repo=repo).set(0)
