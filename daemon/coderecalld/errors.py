"""The one error hierarchy of the daemon.

::

    CodeRecallError
    ├── ConfigError            bad config file, key or value (fails at start)
    ├── InvalidArgument        a request that can never succeed as written
    ├── NotFound               unknown repo, path or symbol (or one outside the caller's scope)
    ├── Unauthenticated        missing or unknown bearer token
    ├── PermissionDenied       the caller's role does not allow the operation
    ├── ResourceExhausted      the caller exceeded its request rate, or the server is saturated
    ├── DeadlineExceeded       the request's deadline passed; its work was stopped
    ├── Cancelled              the client cancelled or went away; its work was stopped
    ├── MirrorError            clone / fetch / object lookup failed for one repo
    ├── ParseError             one file could not be parsed
    ├── EmbedError             the dense model could not be loaded or run
    ├── ModelError             Ask's chat endpoint failed (caught in Ask: status model_error)
    └── StoreError             the vector store rejected an operation
        ├── StoreUnavailable   the store cannot be reached or opened
        └── StoreMismatch      the store was built for another model / vector space

The gRPC layer maps each class to a status code in one table (``server/errors.py``);
domain code raises these and never imports grpc.
"""

from __future__ import annotations


class CodeRecallError(Exception):
    """Base of every error the daemon raises on purpose."""


class ConfigError(CodeRecallError):
    """A configuration key has a bad value; the message names the key and value."""


class InvalidArgument(CodeRecallError):
    """A request argument is malformed (empty query, bad line range, ...)."""


class NotFound(CodeRecallError):
    """A repository, path or symbol that the index does not know."""


class Unauthenticated(CodeRecallError):
    """The request carried no bearer token, or one that matches no configured principal."""


class PermissionDenied(CodeRecallError):
    """The caller is authenticated but its role does not allow this operation."""


class ResourceExhausted(CodeRecallError):
    """The caller has used up its request budget (per-principal rate limit), or the server
    runs as many expensive requests as it admits (``server/admission.py``)."""


class DeadlineExceeded(CodeRecallError):
    """The request's deadline (the client's, capped by the server's) passed before its work
    was done; the work was stopped (``coderecalld.deadline``)."""


class Cancelled(CodeRecallError):
    """The client cancelled the request or went away; its work was stopped."""


class MirrorError(CodeRecallError):
    """Cloning, fetching or reading git objects of one repository failed."""


class ParseError(CodeRecallError):
    """One file could not be parsed into symbols."""


class EmbedError(CodeRecallError):
    """The dense embedding model could not be assembled, loaded or run."""


class ModelError(CodeRecallError):
    """The chat endpoint behind ``Ask`` failed, timed out or answered nonsense. ``Ask``
    catches it and answers ``model_error``; it never reaches a client as a status."""


class StoreError(CodeRecallError):
    """The vector store rejected an operation."""


class StoreUnavailable(StoreError):
    """The vector store cannot be opened or reached."""


class StoreMismatch(StoreError):
    """The store on disk was built with another embedding model or dimension."""
