"""A real HTTP embedding service on loopback for tests: speaks OpenAI's ``/v1/embeddings`` and
text-embeddings-inference's ``/embed``, returns deterministic vectors, records every request,
and can be scripted to fail (``fail_next``)."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

DIM = 32


def bag_of_words(text: str, dim: int = DIM) -> list[float]:
    """Deterministic unnormalised vector: component ``sha256(word) % dim`` counts each
    lowercase word of ``text`` (texts sharing words point the same way); ``[1, 0, ...]``
    for a text without words."""
    vec = np.zeros(dim)
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        vec[int(hashlib.sha256(word.encode()).hexdigest(), 16) % dim] += 1.0
    if not vec.any():
        vec[0] = 1.0
    return vec.tolist()


@dataclass
class Seen:
    """One request as the server received it."""

    path: str
    headers: dict[str, str]
    body: dict


@dataclass
class EmbedServer:
    """``with EmbedServer() as srv: srv.url``. ``vector(text)`` makes each answer row;
    ``fail_next`` holds (status, body, headers) answers given before any normal one;
    ``reverse`` answers OpenAI rows in reverse ``index`` order (clients must sort)."""

    vector: object = bag_of_words
    fail_next: list[tuple[int, str, dict]] = field(default_factory=list)
    reverse: bool = False
    seen: list[Seen] = field(default_factory=list)

    def __enter__(self) -> EmbedServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.seen.append(Seen(self.path, dict(self.headers), body))
                if owner.fail_next:
                    status, text, headers = owner.fail_next.pop(0)
                    return self._send(status, text.encode(), headers)
                if self.path == "/embed":
                    answer: object = [owner.vector(t) for t in body["inputs"]]
                else:
                    rows = [{"object": "embedding", "index": i, "embedding": owner.vector(t)}
                            for i, t in enumerate(body["input"])]
                    answer = {"object": "list", "model": body["model"],
                              "data": rows[::-1] if owner.reverse else rows}
                self._send(200, json.dumps(answer).encode(), {"Content-Type": "application/json"})

            def _send(self, status: int, data: bytes, headers: dict) -> None:
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
