"""The one table from ``coderecalld.errors`` classes to gRPC status codes, and the
interceptor that applies it to every ``coderecall.v1.CodeRecall`` method.

A domain error keeps its message (domain messages are written for the caller). Any other
error, including the ``CodeRecallError`` subclasses not in the table, becomes ``INTERNAL``
with a fixed message naming only the error class; the traceback goes to the log, never
to the client.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import grpc

from coderecalld import errors
from coderecalld.server.intercept import Behaviour, MethodInterceptor

LOGGER = logging.getLogger("coderecalld.server")

# Looked up along the exception's MRO, so a subclass inherits its base's code unless it
# has its own row (StoreUnavailable is a StoreError but answers UNAVAILABLE).
STATUS_CODES: dict[type[BaseException], grpc.StatusCode] = {
    errors.InvalidArgument: grpc.StatusCode.INVALID_ARGUMENT,
    errors.NotFound: grpc.StatusCode.NOT_FOUND,
    errors.Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
    errors.PermissionDenied: grpc.StatusCode.PERMISSION_DENIED,
    errors.ResourceExhausted: grpc.StatusCode.RESOURCE_EXHAUSTED,
    errors.DeadlineExceeded: grpc.StatusCode.DEADLINE_EXCEEDED,
    errors.Cancelled: grpc.StatusCode.CANCELLED,
    errors.StoreUnavailable: grpc.StatusCode.UNAVAILABLE,
    errors.ConfigError: grpc.StatusCode.FAILED_PRECONDITION,
}


def status_for(exc: BaseException) -> tuple[grpc.StatusCode, str]:
    """The status code and the client-safe details string for ``exc``."""
    for cls in type(exc).__mro__:
        code = STATUS_CODES.get(cls)
        if code is not None:
            return code, str(exc) or cls.__name__
    return grpc.StatusCode.INTERNAL, f"internal error ({type(exc).__name__}); see the daemon log"


class ErrorInterceptor(MethodInterceptor):
    """Maps exceptions raised by unary-unary and unary-stream handlers under
    ``service_prefix`` to statuses (a stream's, also while it is being iterated).

    Other services (health, reflection) pass through untouched.
    """

    def unary(self, method: str, behaviour: Behaviour) -> Behaviour:
        return _guarded(method, behaviour)

    def stream(self, method: str, behaviour: Behaviour) -> Behaviour:
        return _guarded_stream(method, behaviour)


def _guarded(method: str, behaviour: Callable[[Any, grpc.ServicerContext], Any]) -> Callable:
    def call(request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return behaviour(request, context)
        except Exception as exc:
            _abort(method, exc, context)

    return call


def _guarded_stream(method: str, behaviour: Callable[[Any, grpc.ServicerContext], Any]) -> Callable:
    def call(request: Any, context: grpc.ServicerContext) -> Any:
        try:
            yield from behaviour(request, context)
        except Exception as exc:
            _abort(method, exc, context)

    return call


def _abort(method: str, exc: Exception, context: grpc.ServicerContext) -> None:
    if context.code() is not None:
        raise exc  # the handler already aborted with a status of its own choosing
    code, details = status_for(exc)
    if code is grpc.StatusCode.INTERNAL:
        LOGGER.error("rpc.failed", exc_info=exc, extra={"fields": {"method": method, "error": repr(exc)}})
    else:
        LOGGER.info(
            "rpc.rejected",
            extra={"fields": {"method": method, "code": code.name, "error": details}},
        )
    context.abort(code, details)
