"""Structured logs: a constant event name plus fixed keys (repo, commit, path, duration_s, ...).

``event("index.file_failed", repo=r, path=p, error=str(e))`` logs one record; the formatter
renders ``key=value`` text for people or one JSON object per line for production:
``{"ts": "2025-01-02T03:04:05.678Z", "level": "info", "event": "index.repo_done", "repo": ...,
"commit": ..., "duration_s": ...}`` (the fixed keys ``repo``, ``commit``, ``path``,
``duration_s`` appear whenever the event knows them).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

LOGGER = logging.getLogger("coderecalld")


def event(name: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log event ``name`` with ``fields`` (values must be JSON-serialisable or str()-able)."""
    LOGGER.log(level, name, extra={"fields": fields})


def warn(name: str, **fields: Any) -> None:
    """Log event ``name`` at WARNING."""
    event(name, logging.WARNING, **fields)


def error(name: str, **fields: Any) -> None:
    """Log event ``name`` at ERROR."""
    event(name, logging.ERROR, **fields)


class _Formatter(logging.Formatter):
    def __init__(self, as_json: bool) -> None:
        super().__init__()
        self.as_json = as_json

    def format(self, record: logging.LogRecord) -> str:
        fields = dict(getattr(record, "fields", {}))
        if record.exc_info:
            fields["exc"] = self.formatException(record.exc_info)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        if self.as_json:  # RFC 3339 UTC with milliseconds: what log shippers parse without a hint
            ts = f"{stamp}.{int(record.msecs):03d}Z"
            body = {"ts": ts, "level": record.levelname.lower(), "event": record.getMessage()}
            body.update(fields)
            return json.dumps(body, default=str, ensure_ascii=False)
        pairs = " ".join(f"{k}={_text(v)}" for k, v in fields.items())
        return f"{stamp} {record.levelname:<7} {record.getMessage()} {pairs}".rstrip()


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    text = str(value)
    return json.dumps(text, ensure_ascii=False) if (" " in text or not text) else text


def configure(fmt: str = "text", level: int | str = logging.INFO) -> None:
    """Send daemon logs to stderr in ``fmt`` ('text' or 'json') at ``level`` and above
    (a ``logging`` level or its name: ``"info"``, ``"warning"``, ...); idempotent."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Formatter(as_json=fmt == "json"))
    LOGGER.handlers[:] = [handler]
    LOGGER.setLevel(level.upper() if isinstance(level, str) else level)
    LOGGER.propagate = False
