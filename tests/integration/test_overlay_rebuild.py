"""While the index is rebuilt for a new vector space there is no overlay: writing one is
refused as unavailable, worth retrying (gRPC UNAVAILABLE, the CLI's exit 3), not as an
invalid argument (exit 2: "retrying changes nothing"; a review)."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from coderecalld import errors
from coderecalld.server.errors import STATUS_CODES
from conformance_cases import indexed


def test_an_overlay_during_a_rebuild_is_worth_retrying(tmp_path: Path) -> None:
    with indexed(tmp_path, {"pkg/a.py": "def f():\n    return 1\n"}) as daemon:
        daemon.service.overlay = None
        with pytest.raises(errors.StoreUnavailable, match="retry after the switch"):
            daemon.service.index_overlay("fx", "pkg/a.py", b"def g():\n    pass\n", "s1")
    assert STATUS_CODES[errors.StoreUnavailable] is grpc.StatusCode.UNAVAILABLE
