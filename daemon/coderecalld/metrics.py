"""The daemon's Prometheus metrics, all in one place (prefix ``coderecall_``, base units,
counters end in ``_total``, only bounded label values)."""

from __future__ import annotations

from prometheus_client import Counter

SECRETS_REDACTED = Counter(
    "coderecall_secrets_redacted",
    "Secret values replaced by [REDACTED:<type>] in indexed chunk text, by detector type.",
    ["type"],
)

#: Why a file was not indexed: classify.py's reasons, and ``parse_error`` (the parser raised).
#: The only label values of ``FILES_SKIPPED``; any other reason is counted as ``other``.
SKIP_REASONS = ("binary", "encoding", "too_large", "lfs_pointer", "unsupported", "excluded",
                "sensitive", "lockfile", "generated", "minified", "parse_error", "other")

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
