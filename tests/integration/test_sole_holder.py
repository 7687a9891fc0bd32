"""An identifier a question writes that one source chunk alone uses as code, and that no
definition is named, is answered by that chunk first (``service.SOLE_HOLDER_FIRST``): "where
is the FORCE_COLOR environment variable read" had rich's ``Console.is_terminal``, its one
reader, third under two chunks of the question's other words (a newcomer). Real git
fixture, real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import service
from conformance_cases import indexed

WORDY = "".join(f'''\
def read_setting_{i}(name):
    """Read an environment variable: where the environment variable is read, and how an
    environment variable read from the environment is parsed."""
    return name


''' for i in range(4))

FILES = {
    "pkg/settings.py": WORDY,
    "pkg/console.py": '''\
import os


class Console:
    def __init__(self, file):
        self.file = file

    def is_terminal(self):
        if os.environ.get("FORCE_COLOR"):
            return True
        return self.file.isatty()
''',
    "pkg/style.py": '''\
def paint(text):
    """Paint text; FORCE_COLOR is honoured by the console."""
    return text
''',
    "tests/test_console.py": '''\
import os

from pkg.console import Console


def test_force_color(monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert Console(None).is_terminal()
''',
}

QUESTION = "where is the FORCE_COLOR environment variable read"


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("sole"), FILES) as running:
        yield running


def _page(daemon: Daemon, question: str) -> list[tuple[str, str, str]]:
    return [(h.path, h.qualified_name, h.match) for h in daemon.service.search(question, limit=5, repo="fx")]


def test_the_one_source_chunk_using_a_token_as_code_comes_first(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(service, "SOLE_HOLDER_FIRST", False)
        before = _page(daemon, QUESTION)
    assert before[0][0] == "pkg/settings.py"
    assert ("pkg/console.py", "Console.is_terminal", "evidence") in before[1:service.EVIDENCE_RANK]
    assert _page(daemon, QUESTION)[0] == ("pkg/console.py", "Console.is_terminal", "evidence")


def test_a_token_two_source_chunks_use_keeps_the_evidence_rank(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    files = {**FILES, "pkg/legacy.py": 'import os\n\n\ndef colored():\n    return bool(os.environ.get("FORCE_COLOR"))\n'}
    with indexed(tmp_path_factory.mktemp("two"), files) as running:
        page = _page(running, QUESTION)
    assert page[0][0] == "pkg/settings.py"


def test_a_defined_name_is_no_sole_holder(tmp_path_factory: pytest.TempPathFactory) -> None:
    files = {**FILES, "pkg/flags.py": "FORCE_COLOR = 'FORCE_COLOR'\n\n\ndef flag():\n    return FORCE_COLOR\n"}
    with indexed(tmp_path_factory.mktemp("defined"), files) as running:
        page = _page(running, QUESTION)
    assert page[0] != ("pkg/console.py", "Console.is_terminal", "evidence")
