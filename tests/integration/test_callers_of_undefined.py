"""``callers`` of a name nothing indexed defines answers the calls of that name, on
receivers of any type, and says so: structlog's ``callers get`` printed 29 ``dict.get``
and ``ContextVar.get`` calls as if they were some ``get``'s callers (a reviewer). Live
gRPC server on loopback, the real CLI."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import livedaemon
from conformance_cases import config
from coderecall import cli
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo

SOURCE = '''import os


def lookup(table, key):
    return table.get(key) or os.environ.get(key)


def parse(text):
    return text.split()


class Console:
    @property
    def width(self) -> int:
        return 80

    def render(self):
        return self.width
'''


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[livedaemon.Live]:
    tmp = tmp_path_factory.mktemp("undefined")
    repo = GitRepo(tmp / "r")
    repo.commit({"pkg/__init__.py": "", "pkg/lookup.py": SOURCE}, "initial")
    served = livedaemon.start(config(tmp, RepoConfig("r", str(repo.path), "main")))
    yield served
    served.close()


def test_calls_of_a_name_no_symbol_has_say_so(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--addr", live.addr, "callers", "get"]) == 0
    out, err = capsys.readouterr()
    assert [line.split()[1] for line in out.splitlines()] == ["pkg/lookup.py:5", "pkg/lookup.py:5"]
    assert err == ("coderecall: 2 call sites: 2 name_only\n"
                   "coderecall: no symbol named 'get' is indexed: these are calls of the name, "
                   "on receivers of any type\n")
    # a defined name's callers carry no such note
    assert cli.main(["--addr", live.addr, "callers", "parse"]) == 1
    assert "no symbol named" not in capsys.readouterr().err


def test_no_callers_of_a_property_says_it_is_read(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    """rich's ``callers Console.width``: "no call sites", read as unused; its 15 reads
    (``self.width``) are no calls. The note says so and how to find them; a method that
    nothing calls gets no such note."""
    assert cli.main(["--addr", live.addr, "callers", "Console.width"]) == 1
    assert capsys.readouterr().err == (
        "coderecall: no call sites of 'Console.width': it is a property, read and not called "
        "(its reads: coderecall search '\".width\"')\n")
    assert cli.main(["--addr", live.addr, "callers", "Console.render"]) == 1
    assert capsys.readouterr().err == "coderecall: no call sites of 'Console.render'\n"


def test_calls_of_an_undefined_qualified_name_are_in_its_modules_language(tmp_path_factory: pytest.TempPathFactory,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """typer re-exports click's ``echo`` (``from click.utils import echo``): no symbol, so
    ``callers typer.echo`` listed every call named ``echo``, a shell script's too (a
    newcomer), and another repo's own ``cls.echo(..)`` (a review). The module its qualifier
    names is Python's, in one repo: the calls are that repo's Python calls."""
    tmp = tmp_path_factory.mktemp("reexport")
    repo = GitRepo(tmp / "r")
    repo.commit({"typer/__init__.py": "from click.utils import echo as echo\n",
                 "app/main.py": "import typer\n\n\ndef main():\n    typer.echo('hi')\n",
                 "scripts/check.sh": "#!/bin/sh\nif grep -q x y; then\n  echo \"bad demo\"\nfi\n"}, "initial")
    other = GitRepo(tmp / "other")  # another repo's own echo (attrs' tests: a review)
    other.commit({"tests/test_make.py": "class C:\n    @classmethod\n    def echo(cls, *a):\n        return a\n\n\n"
                                        "def test_echo():\n    C.echo('a')\n"}, "initial")
    served = livedaemon.start(config(tmp, RepoConfig("r", str(repo.path), "main"),
                                     RepoConfig("other", str(other.path), "main")))
    try:
        assert cli.main(["--addr", served.addr, "callers", "typer.echo"]) == 0
        out = capsys.readouterr().out
        assert [line.split()[1] for line in out.splitlines()] == ["app/main.py:5"]
        assert cli.main(["--addr", served.addr, "callers", "echo", "--repo", "r"]) == 0  # a bare name: every language
        assert sorted(line.split()[1] for line in capsys.readouterr().out.splitlines()) == [
            "app/main.py:5", "scripts/check.sh:3"]
    finally:
        served.close()
