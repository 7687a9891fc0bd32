"""Shared fixtures: a clean environment and real git repositories built with pygit2."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitfixtures import GitRepo


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite tests/golden/* from the current code (review the diff!)")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No CODERECALL_* variable from the developer's shell leaks into a test."""
    for key in list(os.environ):
        if key.startswith("CODERECALL_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    yield


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """An empty repo on branch ``main`` under tmp_path/src."""
    return GitRepo(tmp_path / "src")
