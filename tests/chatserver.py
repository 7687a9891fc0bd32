"""A real local HTTP server speaking OpenAI-style ``POST /v1/chat/completions``, for Ask tests.

Each test queues what the "model" answers (``reply``: a message content, ``fail``: an HTTP
status) and reads back every request it received (path, headers, JSON body).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class ChatServer:
    url: str  # the endpoint to configure: http://127.0.0.1:PORT/v1
    received: list[Received] = field(default_factory=list)
    replies: list[tuple[int, bytes]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    stalled: bool = False

    def reply(self, content: str) -> None:
        """The next request is answered 200 with ``content`` as the message."""
        body = {"id": "chatcmpl-1", "object": "chat.completion",
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content}}]}
        self.replies.append((200, json.dumps(body).encode()))

    def stall(self) -> None:
        """Requests are held until ``release`` is set (a model that never answers in time)."""
        self.stalled = True

    def fail(self, status: int, body: bytes = b'{"error": {"message": "boom"}}') -> None:
        """The next request is answered ``status`` with ``body``."""
        self.replies.append((status, body))


@contextmanager
def chat_server() -> Iterator[ChatServer]:
    """A ``ChatServer`` listening on a free loopback port for the block."""
    state = ChatServer("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            state.received.append(Received(self.path, dict(self.headers), body))
            if state.stalled:
                state.release.wait(30)
            status, payload = state.replies.pop(0) if state.replies else (500, b"{}")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()
        thread.join()
