"""The daemon's HTTP side doors, next to gRPC: Prometheus ``/metrics`` (``[metrics] listen``)
and the push webhooks (``[webhook] listen``), each on its own port, each off when its
``listen`` is empty. ``start`` binds both (a bad or busy address is a ``ConfigError`` at
start), ``Ops.close`` stops them and waits for their threads.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prometheus_client import start_http_server

from coderecalld import logs
from coderecalld.config import Config
from coderecalld.errors import ConfigError


@dataclass
class Ops:
    """The running HTTP servers; ``metrics_port``/``webhook_port`` are 0 when disabled."""

    metrics_port: int = 0
    webhook_port: int = 0
    _servers: list[tuple[object, threading.Thread]] = field(default_factory=list)

    def close(self) -> None:
        """Stop every server (in-flight requests finish first) and join its thread. Idempotent."""
        while self._servers:
            server, thread = self._servers.pop()
            server.shutdown()  # type: ignore[attr-defined]
            server.server_close()  # type: ignore[attr-defined]
            thread.join()


def start(cfg: Config, trigger: Callable[[str], bool]) -> Ops:
    """Start ``/metrics`` and the webhook endpoint as configured; ``trigger(repo)`` queues
    a sync (``Jobs.trigger``). Raises ``ConfigError`` when an address cannot be bound."""
    ops = Ops()
    try:
        if cfg.metrics.listen:
            host, port = split_listen("metrics.listen", cfg.metrics.listen)
            server, thread = _bind("metrics.listen", cfg.metrics.listen,
                                   lambda: start_http_server(port, host))
            ops._servers.append((server, thread))
            ops.metrics_port = server.server_port
            logs.event("metrics.listening", listen=cfg.metrics.listen, port=ops.metrics_port)
        if cfg.webhook.listen:
            from coderecalld.ops.webhook import handler_class

            server, thread = _bind("webhook.listen", cfg.webhook.listen,
                                   lambda: serve(cfg.webhook.listen, handler_class(cfg, trigger)))
            ops._servers.append((server, thread))
            ops.webhook_port = server.server_port
            logs.event("webhook.listening", listen=cfg.webhook.listen, port=ops.webhook_port)
    except BaseException:
        ops.close()
        raise
    return ops


def split_listen(key: str, listen: str) -> tuple[str, int]:
    """``"HOST:PORT"`` (``[::1]:9464`` for IPv6) -> ``(host, port)``; ``ConfigError`` otherwise."""
    host, sep, port = listen.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ConfigError(f"{key}: expected HOST:PORT, got {listen!r}")
    return host.strip("[]"), int(port)


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a stuck client never blocks shutdown


class _Server6(_Server):
    address_family = socket.AF_INET6


def serve(listen: str, handler: type[BaseHTTPRequestHandler]) -> tuple[ThreadingHTTPServer, threading.Thread]:
    """Bind a threading HTTP server for ``handler`` on ``listen`` and serve it from a
    background thread; returns the server and the thread."""
    host, port = split_listen("listen", listen)
    server = (_Server6 if ":" in host else _Server)((host, port), handler)
    thread = threading.Thread(target=server.serve_forever, name=f"http-{port}", daemon=True)
    thread.start()
    return server, thread


def _bind(key: str, listen: str, make: Callable[[], tuple]) -> tuple:
    try:
        return make()
    except OSError as exc:
        raise ConfigError(f"{key}: cannot bind {listen!r}: {exc.strerror or exc}") from exc
