"""A command-line option a question names (``--lf``) is exact evidence (``shape._OPTION``,
``service._with_evidence``): the chunk whose text registers it comes to the first page,
though the option's word alone (``lf``) is also a part of many identifiers (``LFCache``)
that outscore it. Real store, lexical index only (the rule needs no model)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import service, shape
from conformance_cases import indexed

FILES = {
    "tool/cli.py": '''\
import argparse


def build_parser():
    """The command line of the runner."""
    parser = argparse.ArgumentParser(prog="runner")
    parser.add_argument("--lf", "--last-failed", action="store_true",
                        help="run only what failed the last time")
    parser.add_argument("--verbose", action="store_true")
    return parser
''',
    # The option's word is a part of every name here: the lexical side ranks these first.
    "tool/lastfail.py": '''\
class LFCache:
    """Paths that failed, for the LF plugin."""

    def lf_paths(self):
        return sorted(self.lf_seen)

    def lf_count(self):
        return len(self.lf_paths())

    def lf_clear(self):
        self.lf_seen = set()
''',
    # The question's other words (registers, option) are all over this one.
    "tool/options.py": '''\
REGISTERED = {}


def register_option(name, default=None):
    """Register an option: a registered option has a name and a default option value."""
    REGISTERED[name] = default
    return name


def registered_option_names():
    """Names of every registered option, as registered."""
    return sorted(REGISTERED)
''',
}

QUESTION = "which function registers the --lf option"


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("option"), FILES) as running:
        yield running


def test_the_chunk_registering_an_option_the_question_names_is_on_the_first_page(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    assert shape.analyze(QUESTION).evidence == ("--lf",)
    with monkeypatch.context() as m:
        m.setattr(shape, "_OPTION", shape.re.compile(r"(?!)"))  # no option is evidence
        plain = [(h.path, h.qualified_name) for h in daemon.service.search(QUESTION, limit=3, repo="fx")]
    assert ("tool/cli.py", "build_parser") not in plain
    page = [(h.path, h.qualified_name, h.match) for h in daemon.service.search(QUESTION, limit=3, repo="fx")]
    assert ("tool/cli.py", "build_parser", "evidence") in page
    # the word alone, as an identifier's part, is no evidence: LFCache holds no "--lf"
    assert [p for p in page if p[2] == "evidence"] == [("tool/cli.py", "build_parser", "evidence")]


def test_an_option_with_a_value_is_read_without_it() -> None:
    assert shape.analyze("what does --tb=short print").evidence == ("--tb",)
    assert shape.analyze("run it with --no-header and -q").evidence == ("--no-header",)
    assert shape.analyze("x--y and a --- b differ").evidence == ()


def test_an_option_its_tests_say_more_often_than_its_source_is_found_in_the_source(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """"where is the --tb option read": pytest's tests say ``--tb`` in dozens of chunks, the
    one long ``pytest_addoption`` registering it once; the option's first holders by its
    word were all tests, and the page held neither (a newcomer). Source holders are read
    deeper then."""
    tests = {f"testing/test_tb_{i}.py": "".join(
        f"def test_tb_{i}_{j}(run):\n    run('--tb', 'short')\n    run('--tb=line', 'tb')\n\n\n" for j in range(6))
        for i in range(8)}
    long_body = "".join(f"    group.addoption('--opt{j}', help='option {j}')\n" for j in range(60))
    files = {**tests, "src/terminal.py": (
        "def pytest_addoption(parser):\n    group = parser.getgroup('terminal')\n" + long_body
        + "    group.addoption('--tb', dest='tbstyle', help='traceback print mode')\n" + long_body
        + "    return group\n")}
    question = "where is the --tb option read"
    monkeypatch.setattr(service, "OPTION_DEPTH", 10)  # the tests fill the option's first holders
    with indexed(tmp_path_factory.mktemp("deep"), files) as d:
        page = [(h.path, h.qualified_name, h.match) for h in d.service.search(question, limit=5, repo="fx")]
    assert ("src/terminal.py", "pytest_addoption", "evidence") in page
