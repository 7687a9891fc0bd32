"""Assemble the gRPC server: servicer + error interceptor + health checking + reflection."""

from __future__ import annotations

from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from coderecall.v1 import coderecall_pb2 as pb
from coderecall.v1 import coderecall_pb2_grpc as pb_grpc
from coderecalld.api import CodeRecallApi
from coderecalld.errors import ConfigError
from coderecalld.server.errors import ErrorInterceptor
from coderecalld.server.servicer import CodeRecallServicer

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["CodeRecall"].full_name
"""``"coderecall.v1.CodeRecall"``: the health-check and reflection name of the service."""

_OPTIONS = [
    # gRPC sets SO_REUSEPORT by default on Linux, which lets a second daemon "bind" a port
    # that is already serving. We want that to fail at start instead.
    ("grpc.so_reuseport", 0),
]


def build_server(
    api: CodeRecallApi,
    listen: str,
    max_workers: int = 8,
    *,
    health_servicer: health.HealthServicer | None = None,
) -> tuple[grpc.Server, int]:
    """Build and bind a server answering ``coderecall.v1.CodeRecall`` over ``api``;
    the caller starts it (``server.start()``) and stops it (``stop_server``).

    Health checking reports SERVING for the overall service ``""`` and for
    ``SERVICE_NAME``; server reflection lists this service, health and reflection.
    The transport is plaintext (TLS and tokens are not wired yet).

    Args:
        api: the domain implementation every RPC calls.
        listen: ``host:port`` to bind; port 0 picks a free port.
        max_workers: size of the thread pool, i.e. RPCs handled concurrently.
        health_servicer: pass your own to flip it to NOT_SERVING at shutdown
            (``stop_server`` does that); one is created when omitted.

    Returns:
        The bound, not yet started server and its port.

    Raises:
        ConfigError: ``listen`` cannot be bound (bad address, port in use).
    """
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="coderecall-rpc"),
        interceptors=[ErrorInterceptor(f"/{SERVICE_NAME}/")],
        options=_OPTIONS,
    )
    pb_grpc.add_CodeRecallServicer_to_server(CodeRecallServicer(api), server)
    health_servicer = health_servicer or health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = _bind(server, listen)
    for service in ("", SERVICE_NAME):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    return server, port


def stop_server(
    server: grpc.Server, health_servicer: health.HealthServicer | None, grace_s: float = 5.0
) -> None:
    """Report NOT_SERVING on every health service, then stop, letting in-flight RPCs
    finish for up to ``grace_s`` seconds. Blocks until the server has stopped."""
    if health_servicer is not None:
        health_servicer.enter_graceful_shutdown()
    server.stop(grace_s).wait()


def _bind(server: grpc.Server, listen: str) -> int:
    try:
        port = server.add_insecure_port(listen)
    except RuntimeError as exc:
        raise ConfigError(f"server.listen: cannot bind {listen!r}: {exc}") from exc
    if port == 0:  # older grpcio reports failure this way instead of raising
        raise ConfigError(f"server.listen: cannot bind {listen!r}")
    return port
