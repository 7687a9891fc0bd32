"""The daemon's Prometheus metrics, all in one place (prefix ``coderecall_``, base units,
counters end in ``_total``, only bounded label values)."""

from __future__ import annotations

import importlib.metadata
import math
import threading
from collections.abc import Callable, Iterable

from prometheus_client import Counter, Gauge, Histogram

SECRETS_REDACTED = Counter(
    "coderecall_secrets_redacted",
    "Secret values replaced by [REDACTED:<type>] in indexed chunk text, by detector type.",
    ["type"],
)

#: Why a file was not indexed: files/classify.py's reasons, ``parse_error`` (the parser
#: raised) and ``missing_blob`` (the mirror lacks the file's blob; tried again each sync).
#: The only label values of ``FILES_SKIPPED``; any other reason is counted as ``other``.
SKIP_REASONS = ("binary", "encoding", "too_large", "lfs_pointer", "unsupported", "excluded",
                "sensitive", "lockfile", "generated", "minified", "parse_error", "submodule",
                "missing_blob", "other")

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
    "Points of the configured repos still waiting for their dense vector (0 with embeddings "
    "disabled; a repo dropped from the config is never embedded and not counted).",
)

REPO_PHASE = Gauge(
    "coderecall_repo_phase",
    "1 for the phase each configured repo is in (starting, queued, idle, fetching, diffing, "
    "indexing, embedding, done, error; as WatchProgress reports it), 0 for the others: what the "
    "daemon is working on.",
    ["repo", "phase"],
)
#: ``REPO_PHASE`` label values (``progress.PHASES``; listed here because metrics and
#: progress are foundation modules that do not import each other).
REPO_PHASES = ("starting", "queued", "idle", "fetching", "diffing", "indexing", "embedding", "done",
               "error")

_watch_lock = threading.Lock()
_watcher: list[object] = [None]


def watch(owner: object, repos: Iterable[str], lag_s: Callable[[str], float],
          pending_vectors: Callable[[], int], phase: Callable[[str], str] | None = None) -> None:
    """Compute the freshness gauges at scrape time through ``owner``'s callbacks: one
    ``INDEX_LAG`` series per name in ``repos`` (the configured repos: the only label values;
    series of other names are removed), ``POINTS_PENDING_VECTORS``, and with ``phase`` (a
    repo's progress phase) one ``REPO_PHASE`` series per repo and phase. A later ``watch``
    replaces an earlier one (one daemon per process)."""
    with _watch_lock:
        _watcher[0] = owner
        INDEX_LAG.clear()
        REPO_PHASE.clear()
        for name in repos:
            INDEX_LAG.labels(repo=name).set_function(_guarded(lambda n=name: lag_s(n)))
            for value in REPO_PHASES if phase is not None else ():
                REPO_PHASE.labels(repo=name, phase=value).set_function(
                    _guarded(lambda n=name, v=value: float(phase(n) == v)))  # type: ignore[misc]
        POINTS_PENDING_VECTORS.set_function(_guarded(pending_vectors))


def unwatch(owner: object) -> None:
    """Drop the freshness series if ``owner`` set them (its ledger and store are closing)."""
    with _watch_lock:
        if _watcher[0] is owner:
            _watcher[0] = None
            INDEX_LAG.clear()
            REPO_PHASE.clear()
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


# --- RPCs, index runs, queue, store, build (issue 8) ---------------------------------------

#: Latency buckets (seconds) for RPCs and store operations: 1 ms (a lookup) .. 5 min (a
#: SyncRepo of a large repo). A hybrid query is ~5 ms at 100k points (DESIGN.md decision 6).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0, 30.0, 60.0, 300.0)
#: Buckets (seconds) for one index run's time in one stage: 10 ms .. 1 h (a first full
#: index of a large repo embeds for tens of minutes).
STAGE_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0)

RPC_DURATION = Histogram(
    "coderecall_rpc_duration_seconds",
    "Seconds to answer one unary coderecall.v1.CodeRecall call (errors included), by RPC name. "
    "The streaming WatchProgress is not timed (a stream lives as long as its client).",
    ["method"], buckets=LATENCY_BUCKETS,
)
RPC_ERRORS = Counter(
    "coderecall_rpc_errors",
    "coderecall.v1.CodeRecall calls that ended with a status other than OK, by RPC name and "
    "gRPC status code name (CANCELLED by the client is not counted).",
    ["method", "code"],
)

#: Stages an index run is timed in (``pipeline.IndexReport.stages_s`` keys); others count as ``other``.
STAGES = ("mirror", "diff", "layout", "parse", "redact", "vectors", "store", "embed", "other")

STAGE_DURATION = Histogram(
    "coderecall_stage_duration_seconds",
    "Seconds one index run of one repo spent in each stage (mirror fetch, ledger diff, layout, "
    "parse, redact, vectors, store writes, embed).",
    ["stage"], buckets=STAGE_BUCKETS,
)

#: ``FILES_INDEXED`` outcomes: a file's points written, skipped (classify reason), failed
#: (parser raised), or deleted (gone from the tree).
FILE_OUTCOMES = ("indexed", "skipped", "failed", "deleted")

FILES_INDEXED = Counter(
    "coderecall_files_indexed",
    "Files processed by index runs, by outcome: indexed, skipped, failed, deleted.",
    ["state"],
)
for _state in FILE_OUTCOMES:
    FILES_INDEXED.labels(state=_state)

CHUNKS_INDEXED = Counter(
    "coderecall_chunks_indexed",
    "Chunks (store points) written by index runs.",
)

INDEX_QUEUE_DEPTH = Gauge(
    "coderecall_index_queue_depth",
    "Repo syncs waiting for their repo's lock or running, plus webhook-triggered syncs not started yet.",
)

#: Store methods timed by ``STORE_OP_DURATION`` (the ``Store`` protocol's; the only label values).
STORE_OPS = ("upsert", "set_dense", "delete_file_except", "delete_repo", "hybrid", "dense_search",
             "sparse_search", "sparse_scores", "dense_scores", "retrieve", "find", "find_any", "facet_any",
             "missing_dense", "all_points", "count", "count_missing_dense", "flush", "optimize",
             "upsert_files", "delete_files", "file_search", "count_files")

STORE_OP_DURATION = Histogram(
    "coderecall_store_operation_duration_seconds",
    "Seconds one vector-store call took (errors included), by store method.",
    ["op"], buckets=LATENCY_BUCKETS,
)

BUILD_INFO = Gauge(
    "coderecall_build_info",
    "Always 1; the version label is the installed coderecall distribution's version.",
    ["version"],
)

#: ``VERIFY_DRIFT`` kinds (``verify.DriftKind``).
DRIFT_KINDS = ("orphan_point", "missing_point", "count_mismatch", "file_index_short")

VERIFY_DRIFT = Counter(
    "coderecall_verify_drift",
    "Disagreements between the ledger and the store found by the verification job, by kind: "
    "orphan_point (a store point the ledger does not list), missing_point (a ledger point id "
    "absent from the store), count_mismatch (a ledger row whose chunk count is not its id count), "
    "file_index_short (indexed files the file-level index lacks).",
    ["kind"],
)
for _kind in DRIFT_KINDS:
    VERIFY_DRIFT.labels(kind=_kind)

#: ``WEBHOOK_DELIVERIES`` outcomes (``ops/webhook.py``).
WEBHOOK_OUTCOMES = ("synced", "unmatched", "ignored", "ping", "unauthorized", "too_large",
                    "bad_request")

WEBHOOK_DELIVERIES = Counter(
    "coderecall_webhook_deliveries",
    "Webhook deliveries by provider (github, gitlab) and outcome: synced (a configured repo "
    "matched), unmatched, ignored (not a push), ping, unauthorized (bad signature or token), "
    "too_large, bad_request.",
    ["provider", "outcome"],
)


def _version() -> str:
    try:
        return importlib.metadata.version("coderecall")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree, not installed
        return "unknown"


BUILD_INFO.labels(version=_version()).set(1)


def index_run(report: object) -> None:
    """Observe one finished index run: ``report`` is a ``pipeline.IndexReport`` (its
    ``stages_s`` seconds per stage, ``files_indexed``/``files_skipped``/``files_failed``/
    ``files_deleted`` and ``chunks`` counts)."""
    for stage, seconds in getattr(report, "stages_s").items():
        STAGE_DURATION.labels(stage=stage if stage in STAGES else "other").observe(seconds)
    for state in FILE_OUTCOMES:
        count = getattr(report, f"files_{state}")
        if count:
            FILES_INDEXED.labels(state=state).inc(count)
    if getattr(report, "chunks"):
        CHUNKS_INDEXED.inc(getattr(report, "chunks"))
