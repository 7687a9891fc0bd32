"""Errors raised by ``Client``, one class per gRPC status code that callers act on.

::

    CodeRecallError                 base; .code (status name), .details, .addr
    ├── InvalidArgumentError        INVALID_ARGUMENT: the request can never succeed as written
    ├── NotFoundError               NOT_FOUND: unknown repo, path or symbol
    ├── PermissionDeniedError       PERMISSION_DENIED
    ├── UnauthenticatedError        UNAUTHENTICATED
    ├── FailedPreconditionError     FAILED_PRECONDITION: daemon misconfigured
    ├── ResourceExhaustedError      RESOURCE_EXHAUSTED: rate limit or server capacity; retry later
    ├── UnavailableError            UNAVAILABLE: daemon unreachable, or its store is down
    ├── DeadlineExceededError       DEADLINE_EXCEEDED: no answer within the client's timeout
    ├── CancelledError              CANCELLED: the caller cancelled the call (Cancellation) or closed the client
    └── InternalError               INTERNAL, UNKNOWN and every other code
"""

from __future__ import annotations

import re

import grpc


class CodeRecallError(Exception):
    """A call to coderecalld failed.

    Attributes:
        code: the gRPC status name, e.g. ``"NOT_FOUND"``.
        details: the server's (or the transport's) message.
        addr: the ``host:port`` the client talked to.
    """

    def __init__(self, code: str, details: str, addr: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details
        self.addr = addr


class InvalidArgumentError(CodeRecallError):
    """The request is malformed (empty query, negative limit, bad line range, ...)."""


class NotFoundError(CodeRecallError):
    """The repository, path or symbol is unknown to the index."""


class PermissionDeniedError(CodeRecallError):
    """The caller's token does not grant access."""


class UnauthenticatedError(CodeRecallError):
    """The request carried no valid credentials."""


class FailedPreconditionError(CodeRecallError):
    """The daemon cannot answer in its current configuration or state."""


class ResourceExhaustedError(CodeRecallError):
    """The caller exceeded its request rate (or the daemon its capacity); back off and retry."""


class UnavailableError(CodeRecallError):
    """The daemon cannot be reached at ``addr``, or its vector store is down."""

    def __str__(self) -> str:
        # Name the address: "connection refused" alone does not say where.
        return f"coderecalld at {self.addr} is unavailable: {self.details}"


class DeadlineExceededError(CodeRecallError):
    """No answer arrived within the client's ``timeout_s``."""


class CancelledError(CodeRecallError):
    """The caller gave the call up: its ``Cancellation`` was cancelled (the daemon stops
    the call's work), or the client was closed under it. Not ``asyncio.CancelledError``."""


class InternalError(CodeRecallError):
    """The daemon failed unexpectedly (details are in its log)."""


_BY_CODE: dict[grpc.StatusCode, type[CodeRecallError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgumentError,
    grpc.StatusCode.OUT_OF_RANGE: InvalidArgumentError,
    grpc.StatusCode.NOT_FOUND: NotFoundError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.UNAUTHENTICATED: UnauthenticatedError,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPreconditionError,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhaustedError,
    grpc.StatusCode.UNAVAILABLE: UnavailableError,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceededError,
    # only the client's side ends a call so: a cancel, a closed channel (the daemon's
    # own CANCELLED goes to a client that is gone)
    grpc.StatusCode.CANCELLED: CancelledError,
}


#: How the details of a request refused for its size begin (``from_rpc_error``).
TOO_LARGE_PREFIX = "the request is "
#: gRPC's refusal of a message over a channel's size bound (either side's): its details.
_TOO_LARGE = re.compile(r"(?:Received|Sent) message larger than max \((\d+) vs\. (\d+)\)")


def from_rpc_error(exc: grpc.RpcError, addr: str) -> CodeRecallError:
    """The ``CodeRecallError`` subclass for a failed call's status code. A request over
    the daemon's message bound (gRPC's ``RESOURCE_EXHAUSTED``, "Received message larger
    than max") is an ``InvalidArgumentError`` that says so: no retry can pass it (a 3 MB
    paste was answered "SERVER: Received message larger than max (3000016 vs. 2065536)",
    exit 3, "worth retrying"; a newcomer)."""
    code = exc.code() if isinstance(exc, grpc.Call) else grpc.StatusCode.UNKNOWN
    details = (exc.details() if isinstance(exc, grpc.Call) else "") or str(code.name)
    too_large = _TOO_LARGE.search(details) if code is grpc.StatusCode.RESOURCE_EXHAUSTED else None
    if too_large and "CLIENT: Received" in details:
        # the answer was over this client's receive bound, not the request: a smaller page
        return InvalidArgumentError(
            "INVALID_ARGUMENT", f"the answer is {int(too_large.group(1)):,} bytes, over the {int(too_large.group(2)):,} "
            "this client accepts: ask for fewer results (a smaller limit)", addr)
    if too_large:
        return InvalidArgumentError(
            "INVALID_ARGUMENT", f"{TOO_LARGE_PREFIX}{int(too_large.group(1)):,} bytes, over the {int(too_large.group(2)):,} "
            "a coderecalld message may hold (a query is read up to 500,000 characters: send the issue's "
            "text, not whole logs)", addr)
    return _BY_CODE.get(code, InternalError)(code.name, details, addr)
