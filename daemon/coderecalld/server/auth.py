"""Authentication on the wire: ``authorization: Bearer <token>`` metadata -> ``Principal``.

``AuthInterceptor`` authenticates and rate-limits every ``coderecall.v1.CodeRecall`` call
(health checking and reflection stay open, so probes and tooling need no token) and hands
the principal to the servicer through a context variable that lives for one call; the
servicer passes it to the domain as an ordinary argument.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc

from coderecalld.auth import Authenticator, Principal
from coderecalld.errors import Unauthenticated
from coderecalld.server.intercept import Behaviour, MethodInterceptor

_PRINCIPAL: contextvars.ContextVar[Principal | None] = contextvars.ContextVar(
    "coderecall_principal", default=None)


def current_principal() -> Principal:
    """The principal of the call being served. Raises ``Unauthenticated`` outside one."""
    principal = _PRINCIPAL.get()
    if principal is None:
        raise Unauthenticated("no authenticated principal for this call")
    return principal


@contextmanager
def as_principal(principal: Principal) -> Iterator[None]:
    """Serve calls made inside the block as ``principal`` (the interceptor's job; tests)."""
    token = _PRINCIPAL.set(principal)
    try:
        yield
    finally:
        _PRINCIPAL.reset(token)


class AuthInterceptor(MethodInterceptor):
    """Authenticates unary-unary and unary-stream calls under ``service_prefix``; others
    pass untouched. A stream's handler must read its principal before it returns the
    response iterator (the principal is current only during the call)."""

    def __init__(self, authenticator: Authenticator, service_prefix: str) -> None:
        super().__init__(service_prefix)
        self._auth = authenticator

    def unary(self, method: str, behaviour: Behaviour) -> Behaviour:
        return self._authenticated(behaviour)

    stream = unary

    def _authenticated(self, behaviour: Callable[[Any, grpc.ServicerContext], Any]) -> Callable:
        def call(request: Any, context: grpc.ServicerContext) -> Any:
            metadata = dict(context.invocation_metadata() or ())
            principal = self._auth.authenticate(metadata.get("authorization"))
            self._auth.admit(principal)
            with as_principal(principal):
                return behaviour(request, context)

        return call
