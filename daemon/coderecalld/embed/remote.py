"""Dense embeddings from a remote HTTP service instead of the local model (DESIGN.md decision 8:
"a remote embedding endpoint is a config change").

Two protocols, chosen by ``embedding.endpoint_kind``:

``openai``  ``POST {"model": M, "input": [texts]}`` -> ``{"data": [{"index": i, "embedding": [..]}]}``
            (OpenAI's ``/v1/embeddings``; also vLLM, Ollama, LiteLLM, llama.cpp's server and
            text-embeddings-inference's OpenAI route).
``tei``     ``POST {"inputs": [texts]}`` -> ``[[..], ..]`` (Hugging Face
            text-embeddings-inference's native ``/embed``).

``embedding.endpoint`` is the service's URL: with no path (``http://tei:8080``) the kind's
path (``ENDPOINT_PATHS``) is appended, a URL with a path is used as given.

The vector space is ``remote:<kind>:<model>@<host[:port]>`` (``remote_model_id``), so switching
to, from or between endpoints builds a new collection (DESIGN.md decision 7). Vectors go through
the same cache as the local model's (``embed.VectorCache``, keyed by ``sha256(model_id, text)``).

Failures: 429, any 5xx, a refused connection and a timeout are retried ``MAX_ATTEMPTS`` times in
all, ``BACKOFF_BASE_S`` doubling up to ``BACKOFF_MAX_S`` between attempts (a ``Retry-After`` in
seconds is honoured up to the same cap); anything else (401, 404, 413, a malformed answer)
fails at once. Every failure is an ``EmbedError`` naming the URL (credentials removed), the
status and the start of the answer, never the API key.
"""

from __future__ import annotations

import hashlib
import json
import queue
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from coderecalld.config import EmbeddingConfig
from coderecalld.credentials import redact_url
from coderecalld.embed.local import Embedder, VectorCache
from coderecalld.errors import EmbedError

QUERY_CONCURRENCY = 8
"""Queries embedded at once through the endpoint (the daemon's gRPC workers, ``server.max_workers``)."""
#: Path appended to an ``embedding.endpoint`` that has none, per ``endpoint_kind``.
ENDPOINT_PATHS = {"openai": "/v1/embeddings", "tei": "/embed"}
#: Requests per batch in all, the first included (so at most 4 retries).
MAX_ATTEMPTS = 5
#: Seconds before the first retry; doubled before each further one, capped at ``BACKOFF_MAX_S``
#: (0.5 + 1 + 2 + 4 = 7.5 s of waiting before a batch is given up).
BACKOFF_BASE_S = 0.5
BACKOFF_MAX_S = 8.0
#: Characters of an error answer quoted in an ``EmbedError``.
ERROR_BODY_CHARS = 200


def endpoint_url(endpoint: str, kind: str) -> str:
    """The URL requests go to: ``endpoint`` plus ``ENDPOINT_PATHS[kind]`` when it has no path."""
    parts = urlsplit(endpoint)
    if parts.path in ("", "/"):
        return endpoint.rstrip("/") + ENDPOINT_PATHS[kind]
    return endpoint


def remote_model_id(cfg: EmbeddingConfig) -> str:
    """``remote:<kind>:<model>@<host[:port]>`` (+ ``#dim<N>`` when ``cfg.dimensions`` cuts,
    + ``#doc<first 8 hex of sha256(document_prefix)>`` with a document prefix: documents
    embedded with another instruction are another vector space)."""
    parts = urlsplit(cfg.endpoint)
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    host += f":{parts.port}" if parts.port else ""
    suffix = f"#dim{cfg.dimensions}" if cfg.dimensions else ""
    if cfg.document_prefix:
        suffix += "#doc" + hashlib.sha256(cfg.document_prefix.encode()).hexdigest()[:8]
    return f"remote:{cfg.endpoint_kind}:{cfg.model}@{host}{suffix}"


class RemoteEmbedder(Embedder):
    """``embed.Embedder`` over a remote endpoint: same methods, cache and truncation; only the
    fastembed sessions are replaced by ``_RemoteModel`` (stateless: a long document batch and
    up to ``QUERY_CONCURRENCY`` queries are in flight at once).

    Construction sends one probe request to learn the dimension.

    Raises:
        EmbedError: the endpoint cannot be reached or refuses the probe (after the retries),
            or ``cfg.dimensions`` exceeds what it returns.
    """

    def __init__(self, cfg: EmbeddingConfig, cache_dir: Path, *, backoff_base_s: float = BACKOFF_BASE_S,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        model = _RemoteModel(cfg, backoff_base_s, sleep)
        self._model = model
        self._query_pool: queue.SimpleQueue[Any] = queue.SimpleQueue()
        for _ in range(QUERY_CONCURRENCY):
            self._query_pool.put(model)
        native = len(self._query_vector("probe"))
        if cfg.dimensions > native:
            raise EmbedError(f"embedding.dimensions: {cfg.dimensions} exceeds the endpoint's "
                             f"{native} dimensions")
        self._keep = self.dim = cfg.dimensions or native
        self.model_id = remote_model_id(cfg)
        self.batch_size = cfg.batch_size
        self._lock = threading.Lock()
        self._cache = VectorCache(cache_dir / "vectors.sqlite")


class _RemoteModel:
    """The part of fastembed's ``TextEmbedding`` that ``Embedder`` calls, over HTTP."""

    def __init__(self, cfg: EmbeddingConfig, backoff_base_s: float,
                 sleep: Callable[[float], None]) -> None:
        self.url = endpoint_url(cfg.endpoint, cfg.endpoint_kind)
        self.shown_url = redact_url(self.url)
        self.kind = cfg.endpoint_kind
        self.model = cfg.model
        self.timeout_s = cfg.timeout_s
        self.query_prefix, self.document_prefix = cfg.query_prefix, cfg.document_prefix
        self.backoff_base_s = backoff_base_s
        self._sleep = sleep
        self._headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if cfg.api_key:
            self._headers["Authorization"] = f"Bearer {cfg.api_key}"

    def embed(self, texts: Sequence[str], batch_size: int) -> Iterator[np.ndarray]:
        """Vectors of ``texts`` in order (each after ``document_prefix``), one request per
        ``batch_size`` texts."""
        for start in range(0, len(texts), batch_size):
            yield from self._vectors([self.document_prefix + t for t in texts[start:start + batch_size]])

    def query_embed(self, texts: Sequence[str]) -> Iterator[np.ndarray]:
        """Vectors of ``texts`` (each after ``query_prefix``: the service itself makes no
        query/document difference) in one request."""
        return iter(self._vectors([self.query_prefix + t for t in texts]))

    def _vectors(self, texts: list[str]) -> list[np.ndarray]:
        if self.kind == "tei":
            answer = self._post({"inputs": texts})
            rows = answer if isinstance(answer, list) else None
        else:
            answer = self._post({"model": self.model, "input": texts})
            data = answer.get("data") if isinstance(answer, dict) else None
            rows = _openai_rows(data, len(texts))
        return self._checked(rows, len(texts))

    def _checked(self, rows: object, n: int) -> list[np.ndarray]:
        """float32 L2-normalised vectors from ``rows``, or ``EmbedError`` for a bad shape."""
        try:
            vectors = [np.asarray(r, dtype=np.float32) for r in rows]  # type: ignore[union-attr]
        except (TypeError, ValueError):
            vectors = []
        dims = {v.shape for v in vectors}
        if len(vectors) != n or len(dims) != 1 or len(next(iter(dims))) != 1 or not vectors[0].size:
            raise EmbedError(f"embedding.endpoint {self.shown_url}: expected {n} vectors of one "
                             f"size, got {_describe(rows)}")
        norms = [float(np.linalg.norm(v)) for v in vectors]
        return [v / norm if norm else v for v, norm in zip(vectors, norms)]

    def _post(self, body: dict) -> object:
        """POST ``body`` as JSON and return the decoded answer, retrying as the module says."""
        data = json.dumps(body).encode()
        for attempt in range(1, MAX_ATTEMPTS + 1):
            request = urllib.request.Request(self.url, data=data, headers=self._headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                    raw = response.read()
            except urllib.error.HTTPError as exc:
                reason = f"HTTP {exc.code} {exc.reason}: {_snippet(exc.read())}"
                if exc.code != 429 and exc.code < 500:
                    raise EmbedError(self._refused(exc.code, reason)) from exc
                delay = _retry_after(exc.headers.get("Retry-After"))
            except (urllib.error.URLError, OSError) as exc:  # refused, reset, DNS, timeout (an OSError)
                reason, delay = f"{getattr(exc, 'reason', None) or exc}", None
            else:
                return self._decoded(raw)
            if attempt == MAX_ATTEMPTS:
                break
            backoff = min(BACKOFF_MAX_S, self.backoff_base_s * 2 ** (attempt - 1))
            self._sleep(backoff if delay is None else min(BACKOFF_MAX_S, delay))
        raise EmbedError(f"embedding.endpoint {self.shown_url}: {reason} "
                         f"(gave up after {MAX_ATTEMPTS} attempts)")

    def _refused(self, code: int, reason: str) -> str:
        hint = {401: "check embedding.api_key", 403: "check embedding.api_key",
                404: "check embedding.endpoint and embedding.endpoint_kind",
                413: "lower embedding.batch_size"}.get(code, "")
        return f"embedding.endpoint {self.shown_url}: {reason}" + (f" ({hint})" if hint else "")

    def _decoded(self, raw: bytes) -> object:
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise EmbedError(f"embedding.endpoint {self.shown_url}: answer is not JSON: "
                             f"{_snippet(raw)}") from exc


def _openai_rows(data: object, n: int) -> object:
    """The ``embedding`` lists of an OpenAI ``data`` array, ordered by their ``index``."""
    if not isinstance(data, list) or not all(isinstance(d, dict) and "embedding" in d for d in data):
        return data
    if all(isinstance(d.get("index"), int) for d in data):
        data = sorted(data, key=lambda d: d["index"])
        if [d["index"] for d in data] != list(range(n)):
            return data
    return [d["embedding"] for d in data]


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header in seconds; None when absent or an HTTP date."""
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


def _snippet(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace").strip().replace("\n", " ")
    return text[:ERROR_BODY_CHARS] + ("..." if len(text) > ERROR_BODY_CHARS else "")


def _describe(rows: object) -> str:
    if not isinstance(rows, list):
        return f"{type(rows).__name__}"
    sizes = sorted({len(r) if isinstance(r, list) else -1 for r in rows})
    return f"{len(rows)} rows of sizes {sizes[:5]}"
