"""The shape every interceptor of ``coderecall.v1.CodeRecall`` shares: wrap the behaviour of
each unary-unary and unary-stream method under one service prefix, pass others through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

Behaviour = Callable[[Any, grpc.ServicerContext], Any]


class MethodInterceptor(grpc.ServerInterceptor):
    """Base class: override ``unary`` and/or ``stream`` to return a wrapped behaviour for
    ``method`` (the full ``/package.Service/Method`` path). Handlers of other services
    (health, reflection) and other call shapes pass untouched."""

    def __init__(self, service_prefix: str) -> None:
        self._prefix = service_prefix

    def unary(self, method: str, behaviour: Behaviour) -> Behaviour:
        """The behaviour to serve a unary-unary ``method`` with (default: unchanged)."""
        return behaviour

    def stream(self, method: str, behaviour: Behaviour) -> Behaviour:
        """The behaviour to serve a unary-stream ``method`` with (default: unchanged)."""
        return behaviour

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        handler = continuation(handler_call_details)
        method = handler_call_details.method
        if handler is None or not method.startswith(self._prefix):
            return handler
        if handler.unary_unary is not None:
            make, behaviour = grpc.unary_unary_rpc_method_handler, self.unary(method, handler.unary_unary)
        elif handler.unary_stream is not None:
            make, behaviour = grpc.unary_stream_rpc_method_handler, self.stream(method, handler.unary_stream)
        else:
            return handler
        return make(behaviour, request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer)
