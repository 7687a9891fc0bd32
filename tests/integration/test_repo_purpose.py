"""A repo's purpose as ``ListRepos`` reports it, over real git repos indexed by the real
daemon: the manifest's own description from the indexed commit (not the working tree) wins
over the README; a malformed manifest is logged and the README serves; a README that opens
with badges, a table row and a release banner yields its description paragraph."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from coderecalld.config import RepoConfig
from conformance_cases import Daemon, daemon, indexed
from gitfixtures import GitRepo

# Shaped like gin's and axios's READMEs (written here): title, HTML logo, badges, a table
# row, a news heading over a release banner, a rule, then the description.
README = """# Relay Web Toolkit

<img align="right" width="159px" src="https://example.invalid/logo.png">

[![Build Status](https://ci.example.invalid/badge.svg)](https://ci.example.invalid)

Latest ✔ | Latest ✔ | Latest ✔ | 11 ✔ |

## 📰 Relay 2.4.0 is now available!

We're excited to announce the release of **[Relay 2.4.0](https://example.invalid/blog)**! It brings faster routing.

---

Relay is a small HTTP toolkit written in [Go](https://go.dev/). It routes requests with no allocations.

**Why choose Relay?**
"""
CODE = {"relay/__init__.py": "def route(path):\n    return path\n"}
REPOS = {
    "relay-js": {**CODE, "README.md": README,
                 "package.json": json.dumps({"name": "relay", "description": "Promise based router for browsers"})},
    "tides": {**CODE, "README.md": README,
              "pyproject.toml": '[project]\nname = "tides"\ndescription = "Predicts tides from harmonics."\n'},
    "relay-go": {**CODE, "README.md": README, "go.mod": "module example.invalid/relay\n"},
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("purpose")
    configs = []
    for name, files in REPOS.items():
        repo = GitRepo(tmp / "src" / name)
        repo.commit(files, "initial")
        configs.append(RepoConfig(name, str(repo.path), "main"))
    # Uncommitted: the index reads the commit's tree, never the working tree on disk.
    (tmp / "src" / "relay-js" / "package.json").write_text('{"description": "Working-tree draft"}')
    with daemon(tmp, *configs) as d:
        for name in REPOS:
            d.jobs.run_now(name, with_dense=False)
        yield d


def purposes(d: Daemon) -> dict[str, str]:
    return {r.name: r.purpose for r in d.service.list_repos()}


def test_package_json_description_wins_over_the_readme(running: Daemon) -> None:
    assert purposes(running)["relay-js"] == "Promise based router for browsers"


def test_pyproject_description_wins_over_the_readme(running: Daemon) -> None:
    assert purposes(running)["tides"] == "Predicts tides from harmonics."


def test_badges_table_row_and_release_banner_yield_the_description(running: Daemon) -> None:
    assert purposes(running)["relay-go"] == ("Relay is a small HTTP toolkit written in Go. "
                                             "It routes requests with no allocations.")


def test_malformed_package_json_falls_back_to_the_readme(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    files = {**CODE, "README.md": README, "package.json": '{"name": "relay", "description": '}
    with caplog.at_level(logging.WARNING, logger="coderecalld"), indexed(tmp_path, files, "broken") as d:
        assert purposes(d)["broken"] == ("Relay is a small HTTP toolkit written in Go. "
                                         "It routes requests with no allocations.")
        assert d.service.list_repos()[0].state == "ready"
    [record] = [r for r in caplog.records if r.getMessage() == "index.manifest_unreadable"]
    assert record.fields["repo"] == "broken" and record.fields["path"] == "package.json"
    assert "Expecting value" in record.fields["error"]
