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


def test_an_unreachable_daemon_is_a_retry_status_not_nothing_found(capsys) -> None:
    import socket

    from coderecall import cli
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert cli.main(["--addr", f"127.0.0.1:{port}", "--timeout", "2", "symbols", "x"]) == 3
    assert capsys.readouterr().err.strip()
