"""The daemon's Prometheus metrics, all in one place (prefix ``coderecall_``, base units,
counters end in ``_total``, only bounded label values)."""

from __future__ import annotations

from prometheus_client import Counter

SECRETS_REDACTED = Counter(
    "coderecall_secrets_redacted",
    "Secret values replaced by [REDACTED:<type>] in indexed chunk text, by detector type.",
    ["type"],
)
