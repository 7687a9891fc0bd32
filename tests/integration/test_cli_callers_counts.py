"""``coderecall callers`` shows what the MCP answer does: the whole answer's count of
call sites per confidence (on stderr, also under ``--json``, whose list keeps its shape) and each
site's file role unless source (it showed neither: a test's call read as the library's
own use). Live gRPC server on loopback, the real CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import livedaemon
from conformance_cases import config
from coderecall import cli
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "class Calc:\n    def compute(self, x):\n        return x * 2\n",
    "pkg/use.py": "from pkg.core import Calc\n\n\ndef run(x):\n    return Calc().compute(x)\n",
    "tests/test_core.py": "from pkg.core import Calc\n\n\ndef test_compute():\n    assert Calc().compute(2) == 4\n",
    "pkg/other.py": "def go(obj):\n    return obj.compute(1)\n",
}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[livedaemon.Live]:
    tmp = tmp_path_factory.mktemp("counts")
    repo = GitRepo(tmp / "r")
    repo.commit(FILES, "initial")
    served = livedaemon.start(config(tmp, RepoConfig("r", str(repo.path), "main")))
    yield served
    served.close()


def test_callers_prints_counts_per_confidence_and_roles(live: livedaemon.Live,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--addr", live.addr, "callers", "Calc.compute"]) == 0
    out, err = capsys.readouterr()
    assert [line.split()[1:4] for line in out.splitlines()] == [
        ["pkg/use.py:5", "run", "resolved"],
        ["tests/test_core.py:5", "test_compute", "resolved[test]"],  # one column: fields stay put
        ["pkg/other.py:2", "go", "name_only"]]
    assert "[source]" not in out
    assert err == "coderecall: 3 call sites: 2 resolved, 1 name_only\n"
    # a page of one: the counts are the whole answer's
    assert cli.main(["--addr", live.addr, "callers", "Calc.compute", "--limit", "1"]) == 0
    assert capsys.readouterr().err.startswith("coderecall: 3 call sites: 2 resolved, 1 name_only\n")


def test_callers_json_stays_a_list_with_counts_on_stderr(live: livedaemon.Live,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` is a list of sites as every list command prints (scripts read it so); the
    counts go to stderr as in text."""
    assert cli.main(["--addr", live.addr, "callers", "Calc.compute", "--resolved", "--json"]) == 0
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert [(s["path"], s["line"], s["confidence"], s["role"]) for s in answer] == [
        ("pkg/use.py", 5, "resolved", "source"), ("tests/test_core.py", 5, "resolved", "test")]
    assert err == "coderecall: 3 call sites: 2 resolved, 1 name_only\n"
