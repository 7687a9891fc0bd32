"""Assemble the gRPC server: servicer + error and auth interceptors + health checking +
reflection, on a plaintext or TLS (optionally mutual TLS) port."""

from __future__ import annotations

from concurrent import futures
from pathlib import Path

import grpc
from coderecall.v1 import coderecall_pb2 as pb
from coderecall.v1 import coderecall_pb2_grpc as pb_grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from coderecalld.auth import Authenticator, AuthMode, is_loopback
from coderecalld.config import IndexConfig, ServerConfig
from coderecalld.errors import ConfigError
from coderecalld.query import validate
from coderecalld.query.api import CodeRecallApi
from coderecalld.server.admission import AdmissionInterceptor, expensive_slots, sync_slots
from coderecalld.server.auth import AuthInterceptor
from coderecalld.server.errors import ErrorInterceptor
from coderecalld.server.rpcmetrics import RpcMetricsInterceptor
from coderecalld.server.servicer import CodeRecallServicer

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["CodeRecall"].full_name
"""``"coderecall.v1.CodeRecall"``: the health-check and reflection name of the service."""

_OPTIONS = [
    # gRPC sets SO_REUSEPORT by default on Linux, which lets a second daemon "bind" a port
    # that is already serving. We want that to fail at start instead.
    ("grpc.so_reuseport", 0),
    # Answers carry source text: up to 16 MiB. (Requests: ``request_limit_bytes``.)
    ("grpc.max_send_message_length", 16 << 20),
    ("grpc.max_metadata_size", 16 << 10),
    # Idle or stalled connections are closed instead of holding a slot forever.
    ("grpc.max_connection_idle_ms", 5 * 60_000),
    ("grpc.keepalive_time_ms", 60_000),
    ("grpc.keepalive_timeout_ms", 20_000),
]
#: RPCs queued or running at once beyond the worker threads; more answer RESOURCE_EXHAUSTED.
MAX_CONCURRENT_RPCS_PER_WORKER = 8
#: Requests are a few strings except a search or locate query (at most
#: ``validate.MAX_SEARCH_QUERY_CHARS`` characters, up to 4 UTF-8 bytes each) and
#: IndexOverlay's file content: the bound holds the larger of the two plus this much for the
#: other fields (a path is at most 4,096 characters), so an oversized query or overlay
#: reaches the daemon's own check, which names the limit, instead of gRPC's "Received
#: message larger than max"; it still bounds what a hostile client can make us buffer.
REQUEST_HEADROOM_BYTES = 64 << 10
#: UTF-8 bytes of the longest character (a query of CJK text or emoji is 3-4 per character).
MAX_UTF8_BYTES_PER_CHAR = 4


def request_limit_bytes(max_file_bytes: int) -> int:
    """The gRPC receive bound, in bytes, for a daemon indexing files up to ``max_file_bytes``:
    a longest query of 4-byte characters or a largest overlay file, plus headroom."""
    longest_query = validate.MAX_SEARCH_QUERY_CHARS * MAX_UTF8_BYTES_PER_CHAR
    return max(1 << 20, longest_query, max_file_bytes) + REQUEST_HEADROOM_BYTES


def build_server(
    api: CodeRecallApi,
    listen: str,
    max_workers: int = 8,
    *,
    health_servicer: health.HealthServicer | None = None,
    authenticator: Authenticator | None = None,
    tls: ServerConfig | None = None,
    max_file_bytes: int = IndexConfig().max_file_bytes,
    serving: bool = True,
) -> tuple[grpc.Server, int]:
    """Build and bind a server answering ``coderecall.v1.CodeRecall`` over ``api``;
    the caller starts it (``server.start()``) and stops it (``stop_server``).

    Health checking reports SERVING for the overall service ``""`` and for
    ``SERVICE_NAME`` (NOT_SERVING with ``serving=False``: ``serve`` answers from its first
    second and reports SERVING once every repo has its first lexical index, see
    ``set_serving``); server reflection lists this service, health and reflection.
    Every ``coderecall.v1.CodeRecall`` call is authenticated by ``authenticator``
    (health and reflection are not), then runs under a deadline, and the expensive kinds
    under admission control (``server/admission.py``). Without an authenticator, auth is
    off, which is allowed only on a loopback ``listen`` address. ``tls`` with ``tls_cert_file``/``tls_key_file`` set
    serves TLS, and with ``tls_client_ca_file`` requires client certificates (mTLS).

    Args:
        api: the domain implementation every RPC calls.
        listen: ``host:port`` to bind; port 0 picks a free port.
        max_workers: size of the thread pool, i.e. RPCs handled concurrently.
        authenticator: maps bearer tokens to principals (``auth.from_config``).
        tls: the ``[server]`` section whose ``tls_*`` files to use; plaintext if unset.
        health_servicer: pass your own to flip it to NOT_SERVING at shutdown
            (``stop_server`` does that); one is created when omitted.
        max_file_bytes: ``index.max_file_bytes``; requests up to ``request_limit_bytes``
            of it are read (larger ones answer RESOURCE_EXHAUSTED unread).

    Returns:
        The bound, not yet started server and its port.

    Raises:
        ConfigError: ``listen`` cannot be bound (bad address, port in use), auth is off on
            a non-loopback address, or a TLS file cannot be read.
    """
    if authenticator is None:
        if not is_loopback(listen):
            raise ConfigError(f"server.listen: {listen!r} is not loopback; pass an authenticator")
        authenticator = Authenticator(AuthMode.OFF)
    prefix = f"/{SERVICE_NAME}/"
    server = grpc.server(
        # a sync's thread is its own, beyond the queries' max_workers (``sync_slots``)
        futures.ThreadPoolExecutor(max_workers=max_workers + sync_slots(max_workers),
                                   thread_name_prefix="coderecall-rpc"),
        interceptors=[RpcMetricsInterceptor(prefix), ErrorInterceptor(prefix),
                      AuthInterceptor(authenticator, prefix),
                      AdmissionInterceptor(prefix, expensive_slots(max_workers), sync_slots(max_workers))],
        options=[*_OPTIONS, ("grpc.max_receive_message_length", request_limit_bytes(max_file_bytes))],
        maximum_concurrent_rpcs=max_workers * MAX_CONCURRENT_RPCS_PER_WORKER,
    )
    pb_grpc.add_CodeRecallServicer_to_server(CodeRecallServicer(api), server)
    health_servicer = health_servicer or health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = _bind(server, listen, _credentials(tls))
    set_serving(health_servicer, serving)
    return server, port


def set_serving(health_servicer: health.HealthServicer, serving: bool = True) -> None:
    """Report SERVING (or NOT_SERVING) for ``""`` and ``SERVICE_NAME`` (gRPC health
    checking protocol: Watch streams see the change)."""
    status = (health_pb2.HealthCheckResponse.SERVING if serving
              else health_pb2.HealthCheckResponse.NOT_SERVING)
    for service in ("", SERVICE_NAME):
        health_servicer.set(service, status)


def stop_server(
    server: grpc.Server, health_servicer: health.HealthServicer | None, grace_s: float = 5.0
) -> None:
    """Report NOT_SERVING on every health service, then stop, letting in-flight RPCs
    finish for up to ``grace_s`` seconds. Blocks until the server has stopped."""
    if health_servicer is not None:
        health_servicer.enter_graceful_shutdown()
    server.stop(grace_s).wait()


def _credentials(tls: ServerConfig | None) -> grpc.ServerCredentials | None:
    if tls is None or not tls.tls_cert_file:
        return None
    try:
        key = Path(tls.tls_key_file).read_bytes()
        cert = Path(tls.tls_cert_file).read_bytes()
        ca = Path(tls.tls_client_ca_file).read_bytes() if tls.tls_client_ca_file else None
    except OSError as exc:
        raise ConfigError(f"server.tls_*: cannot read {exc.filename}: {exc.strerror}") from None
    return grpc.ssl_server_credentials([(key, cert)], root_certificates=ca,
                                       require_client_auth=ca is not None)


def _bind(server: grpc.Server, listen: str, credentials: grpc.ServerCredentials | None) -> int:
    try:
        port = (server.add_secure_port(listen, credentials) if credentials
                else server.add_insecure_port(listen))
    except RuntimeError as exc:
        raise ConfigError(f"server.listen: cannot bind {listen!r}: {exc}") from exc
    if port == 0:  # older grpcio reports failure this way instead of raising
        raise ConfigError(f"server.listen: cannot bind {listen!r}")
    return port
