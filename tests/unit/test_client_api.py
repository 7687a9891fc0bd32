"""The client's public surface: a curated, complete ``__all__``."""

from __future__ import annotations

import inspect

import grpc
import pytest

import coderecall
from coderecall import _errors


def test_every_export_exists():
    missing = [name for name in coderecall.__all__ if not hasattr(coderecall, name)]
    assert missing == []


def test_every_public_name_is_exported():
    public = {
        name
        for name, value in vars(coderecall).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert public == set(coderecall.__all__)


def test_no_duplicates():
    assert len(coderecall.__all__) == len(set(coderecall.__all__))


def test_documented_names_are_there():
    for name in ("Client", "SymbolHit", "CallSite", "SourceText", "RepoInfo", "CodeRecallError",
                 "NotFoundError", "InvalidArgumentError", "UnavailableError"):
        assert name in coderecall.__all__


def test_every_error_class_is_exported():
    errors = {name for name, value in vars(_errors).items()
              if inspect.isclass(value) and issubclass(value, coderecall.CodeRecallError)}
    assert errors <= set(coderecall.__all__)


def test_result_types_are_plain_frozen_dataclasses():
    hit = coderecall.CallSite(repo="r", path="p", line=1, caller="", callee="f", commit="c")
    with pytest.raises(AttributeError):
        hit.line = 2  # type: ignore[misc]
    assert not hasattr(hit, "__dict__")  # slotted
    assert not hasattr(coderecall.CallSite, "SerializeToString")


@pytest.mark.parametrize(
    "code, cls",
    [
        (grpc.StatusCode.NOT_FOUND, coderecall.NotFoundError),
        (grpc.StatusCode.INVALID_ARGUMENT, coderecall.InvalidArgumentError),
        (grpc.StatusCode.UNAVAILABLE, coderecall.UnavailableError),
        (grpc.StatusCode.PERMISSION_DENIED, coderecall.PermissionDeniedError),
        (grpc.StatusCode.DEADLINE_EXCEEDED, coderecall.DeadlineExceededError),
        (grpc.StatusCode.FAILED_PRECONDITION, coderecall.FailedPreconditionError),
        (grpc.StatusCode.CANCELLED, coderecall.CancelledError),  # a cancel, a closed client
        (grpc.StatusCode.DATA_LOSS, coderecall.InternalError),
    ],
)
def test_status_codes_map_to_error_classes(code, cls):
    class Failed(grpc.RpcError, grpc.Call):  # the shape grpc raises: an RpcError that is a Call
        def code(self):
            return code

        def details(self):
            return "boom"

        initial_metadata = trailing_metadata = is_active = time_remaining = cancel = None
        add_callback = None

    error = _errors.from_rpc_error(Failed(), "127.0.0.1:1")
    assert type(error) is cls
    assert (error.code, error.details, error.addr) == (code.name, "boom", "127.0.0.1:1")


@pytest.mark.parametrize(("details", "message"), [
    ("SERVER: Received message larger than max (3000016 vs. 2065536)",
     "the request is 3,000,016 bytes, over the 2,065,536 a coderecalld message may hold (a query is read "
     "up to 500,000 characters: send the issue's text, not whole logs)"),
    # the answer over this client's receive bound: no request of the caller's was too large (a review)
    ("Stream removed (CLIENT: Received message larger than max (5242880 vs. 4194304))",
     "the answer is 5,242,880 bytes, over the 4,194,304 this client accepts: ask for fewer results "
     "(a smaller limit)"),
])
def test_a_message_over_a_size_bound_is_an_invalid_argument_saying_which(details: str, message: str) -> None:
    class TooLarge(grpc.RpcError, grpc.Call):
        def code(self):
            return grpc.StatusCode.RESOURCE_EXHAUSTED

        def details(self):
            return details

        initial_metadata = trailing_metadata = is_active = time_remaining = cancel = None
        add_callback = None

    error = _errors.from_rpc_error(TooLarge(), "127.0.0.1:1")
    assert (type(error), error.details) == (coderecall.InvalidArgumentError, message)


def test_an_unreachable_daemon_is_a_retry_status_not_nothing_found(capsys) -> None:
    import socket

    from coderecall import cli
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert cli.main(["--addr", f"127.0.0.1:{port}", "--timeout", "2", "symbols", "x"]) == 3
    assert capsys.readouterr().err.strip()
