"""coderecall: client library for the coderecalld code index.

Example::

    from coderecall import Client

    with Client("127.0.0.1:50551") as client:
        for hit in client.search("verify an HMAC signature", limit=5):
            print(hit.repo, hit.path, hit.start_line, hit.qualified_name)

Results are plain frozen dataclasses; failures raise ``CodeRecallError`` subclasses.
A ``Cancellation`` cancels, from another thread, the calls a block of code makes.
The generated protobuf stubs live in ``coderecall.v1`` and are not part of this API.
"""

from coderecall._cancel import Cancellation
from coderecall._client import DEFAULT_ADDR, Client
from coderecall._errors import (
    CancelledError,
    CodeRecallError,
    DeadlineExceededError,
    FailedPreconditionError,
    InternalError,
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
    ResourceExhaustedError,
    UnauthenticatedError,
    UnavailableError,
)
from coderecall._types import (
    Answer,
    CallSite,
    Card,
    Citation,
    Impact,
    ImpactNode,
    IndexProgress,
    LocatedFile,
    LocatedFiles,
    LocatedFunction,
    OverlayStatus,
    Page,
    RepoInfo,
    SearchResults,
    SourceText,
    SymbolHit,
)

__all__ = [
    "DEFAULT_ADDR",
    "Answer",
    "CallSite",
    "Cancellation",
    "CancelledError",
    "Card",
    "Citation",
    "Client",
    "CodeRecallError",
    "DeadlineExceededError",
    "FailedPreconditionError",
    "IndexProgress",
    "Impact",
    "ImpactNode",
    "InternalError",
    "InvalidArgumentError",
    "LocatedFile",
    "LocatedFiles",
    "LocatedFunction",
    "NotFoundError",
    "OverlayStatus",
    "Page",
    "PermissionDeniedError",
    "RepoInfo",
    "ResourceExhaustedError",
    "SearchResults",
    "SourceText",
    "SymbolHit",
    "UnauthenticatedError",
    "UnavailableError",
]
