"""Connecting ``qdrant-client`` to a server (or its local mode) and naming its failures.

Used by ``store.server``: ``connect`` builds the client, ``store_error`` turns whatever the
client raised (REST, gRPC or local mode each raise their own types) into ``StoreUnavailable``
("cannot reach it, try later": the gRPC layer answers UNAVAILABLE) or ``StoreError``.
"""

from __future__ import annotations

import math
import ssl
from pathlib import Path
from typing import Any

import httpx
from qdrant_client import QdrantClient
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from coderecalld.errors import StoreError, StoreUnavailable

UNAVAILABLE_STATUS = frozenset({429, 502, 503, 504})
"""HTTP statuses that say "try again later" (overloaded, proxy or peer down), not "wrong"."""
UNAVAILABLE_RPC = frozenset({"UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"})
"""gRPC status codes with the same meaning (grpc's ``StatusCode`` names)."""


def connect(where: str, *, url: str = "", api_key: str = "", ca_file: str = "",
            prefer_grpc: bool = False, timeout_s: float = 30.0, location: str = "",
            path: str = "") -> QdrantClient:
    """A client for a server at ``url``, else local mode at ``location`` / ``path``.

    ``ca_file`` (PEM) is trusted for both REST (an ``ssl`` context for httpx) and gRPC
    (``root_certificates``). ``check_compatibility`` is off: its version probe runs in a
    thread and only warns; the store's first call reports an unreachable server instead.

    Raises:
        StoreUnavailable: unreadable ``ca_file``, a malformed URL, or a local-mode directory
            locked by another client (``where`` names the store in the message).
    """
    try:
        if not url:
            return QdrantClient(location=location or None, path=path or None)
        tls: dict[str, Any] = {}
        if ca_file:
            pem = Path(ca_file).read_bytes()
            tls = {"verify": ssl.create_default_context(cadata=pem.decode("ascii")),
                   "grpc_options": {"root_certificates": pem}}
        return QdrantClient(url=url, api_key=api_key or None, prefer_grpc=prefer_grpc,
                            timeout=max(1, math.ceil(timeout_s)), check_compatibility=False,
                            **tls)
    except (OSError, ValueError, RuntimeError) as exc:
        # RuntimeError: local mode's directory is locked by another client (like Edge's WAL).
        raise StoreUnavailable(f"store {where}: cannot open: {exc}") from exc


def store_error(context: str, exc: Exception) -> StoreError:
    """``StoreUnavailable`` for "cannot reach / try later", ``StoreError`` for the rest; the
    message is ``context: <what the server said>``."""
    unavailable = (
        isinstance(exc, (ConnectionError, TimeoutError))
        or (isinstance(exc, ResponseHandlingException)
            and isinstance(exc.source, OSError | httpx.TransportError))
        or (isinstance(exc, UnexpectedResponse) and exc.status_code in UNAVAILABLE_STATUS)
        # gRPC errors carry code(); matched by name so the store does not import grpc.
        or getattr(_rpc_code(exc), "name", "") in UNAVAILABLE_RPC
    )
    cls = StoreUnavailable if unavailable else StoreError
    return cls(f"{context}: {_message(exc)}")


def without_userinfo(url: str) -> str:
    """``url`` less any ``user:password@`` (it goes into errors and logs)."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme}{sep}{host.rsplit('@', 1)[-1]}{slash}{path}"


def _rpc_code(exc: Exception) -> Any:
    code = getattr(exc, "code", None)
    try:
        return code() if callable(code) else None
    except Exception:  # a code() that is not grpc.RpcError's
        return None


def _message(exc: Exception) -> str:
    if isinstance(exc, UnexpectedResponse):
        body = exc.content[:300].decode(errors="replace")
        return f"HTTP {exc.status_code} {exc.reason_phrase}: {body}"
    if isinstance(exc, ResponseHandlingException):
        return f"{type(exc.source).__name__}: {exc.source}"
    details = getattr(exc, "details", None)  # grpc.RpcError's server message
    return str(details() if callable(details) else exc) or type(exc).__name__
