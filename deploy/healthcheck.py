#!/usr/bin/env python3
"""Container health check for coderecalld: exit 0 when its gRPC health service answers SERVING.

    coderecall-healthcheck [--config FILE]  # address: server.listen of the daemon's config
    coderecall-healthcheck --addr HOST:PORT  # or given

The address is found as the ``coderecall`` CLI finds it (``coderecall.cli.resolve_addr``):
``--addr``, else ``CODERECALL_ADDR``, else ``server.listen`` of ``--config`` (default
``/etc/coderecall/config.toml``, the image's ENTRYPOINT's) with a wildcard host dialled on
loopback. A ``CODERECALL_SERVER__LISTEN`` override is not read: set ``CODERECALL_ADDR`` with it.

It asks the overall service ``""`` (``grpc.health.v1``), which the daemon reports NOT_SERVING
from its first second until every repo has its first lexical index, then SERVING, and
NOT_SERVING again when it begins a graceful stop. Plaintext only (like
Kubernetes' gRPC probes): with ``server.tls_cert_file`` set, check from a TLS-speaking client.

Exit codes: 0 SERVING; 1 anything else (not serving, unreachable, deadline, unreadable config).
"""

from __future__ import annotations

import argparse
import os
import sys

import grpc
from coderecall.cli import UsageError, resolve_addr
from grpc_health.v1 import health_pb2, health_pb2_grpc

DEFAULT_CONFIG = "/etc/coderecall/config.toml"
#: Seconds to wait for the answer; Docker's HEALTHCHECK ``--timeout`` is 5 s in deploy/Dockerfile.
TIMEOUT_S = 3.0


def check(addr: str, timeout_s: float = TIMEOUT_S) -> tuple[bool, str]:
    """Ask ``addr``'s health service; ``(serving, status or gRPC error code name)``."""
    with grpc.insecure_channel(addr) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=timeout_s)
        except grpc.RpcError as exc:
            return False, exc.code().name
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    return reply.status == health_pb2.HealthCheckResponse.SERVING, status


def main(argv: list[str]) -> int:
    """Check the daemon's address; print the status on failure."""
    parser = argparse.ArgumentParser(prog="coderecall-healthcheck")
    parser.add_argument("--addr", help="HOST:PORT to check (default: the config's server.listen)")
    parser.add_argument("--config", default=DEFAULT_CONFIG, help="the daemon's TOML config")
    args = parser.parse_args(argv)
    try:
        addr = resolve_addr(args.addr, args.config, os.environ)
    except UsageError as exc:
        print(f"coderecall-healthcheck: {exc}", file=sys.stderr)
        return 1
    serving, status = check(addr)
    if not serving:
        print(f"coderecall-healthcheck: {addr}: {status}", file=sys.stderr)
    return 0 if serving else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
