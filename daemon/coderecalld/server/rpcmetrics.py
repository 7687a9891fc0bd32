"""RPC metrics: ``coderecall_rpc_duration_seconds{method}`` and
``coderecall_rpc_errors_total{method,code}`` for every ``coderecall.v1.CodeRecall`` call.

The interceptor is the outermost one, so it sees the status the error and auth
interceptors chose (``context.code()`` after an abort). ``method`` is the RPC's name
(``Search``), only for this service's methods (bounded by the proto); health checking and
reflection are not observed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc

from coderecalld import metrics
from coderecalld.server.intercept import Behaviour, MethodInterceptor


class RpcMetricsInterceptor(MethodInterceptor):
    """Times unary calls under ``service_prefix`` and counts every non-OK status (unary
    and streaming; a stream the client cancelled is not an error)."""

    def unary(self, method: str, behaviour: Behaviour) -> Behaviour:
        return _timed(method[len(self._prefix):], behaviour)

    def stream(self, method: str, behaviour: Behaviour) -> Behaviour:
        return _counted_stream(method[len(self._prefix):], behaviour)


def _timed(name: str, behaviour: Callable[[Any, grpc.ServicerContext], Any]) -> Callable:
    histogram = metrics.RPC_DURATION.labels(method=name)

    def call(request: Any, context: grpc.ServicerContext) -> Any:
        started = time.perf_counter()
        try:
            return behaviour(request, context)
        except Exception:
            _count_error(name, context)
            raise
        finally:
            histogram.observe(time.perf_counter() - started)

    return call


def _counted_stream(name: str, behaviour: Callable[[Any, grpc.ServicerContext], Any]) -> Callable:
    def call(request: Any, context: grpc.ServicerContext) -> Any:
        try:
            yield from behaviour(request, context)
        except Exception:
            _count_error(name, context)
            raise

    return call


def _count_error(name: str, context: grpc.ServicerContext) -> None:
    code = context.code() or grpc.StatusCode.UNKNOWN  # an exception no interceptor mapped
    if code is not grpc.StatusCode.CANCELLED:
        metrics.RPC_ERRORS.labels(method=name, code=code.name).inc()
