"""A test module's fixture named as the text names a thing (structlog's fixture
``exc_info``) is no file the text names: it put ``tests/test_frames.py`` first in
``locate`` for "ProcessorFormatter loses the traceback ..; exc_info is cleared before the
last processor runs", above the ``stdlib.py`` to fix (a newcomer). A test named as a test
(``test_x``) still is. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "logs/__init__.py": "",
    "logs/stdlib.py": '''\
import logging


class ProcessorFormatter(logging.Formatter):
    """Formats foreign log records with the configured processors."""

    def __init__(self, processors, keep_exc_info=False):
        super().__init__()
        self.processors = processors
        self.keep_exc_info = keep_exc_info

    def format(self, record):
        event = {"event": record.getMessage()}
        if record.exc_info:
            event["exc_info"] = record.exc_info
        if not self.keep_exc_info:
            record.exc_info = None
        for proc in self.processors:
            event = proc(None, record.levelname, event)
        return str(event)
''',
    "tests/__init__.py": "",
    "tests/test_frames.py": '''\
import sys

import pytest


@pytest.fixture
def exc_info():
    try:
        raise ValueError("boom")
    except ValueError:
        return sys.exc_info()


def test_formats_traceback(exc_info):
    assert exc_info[0] is ValueError


def test_no_trailing_newline(exc_info):
    assert exc_info[1].args == ("boom",)
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("namedfixture"), FILES) as running:
        yield running


def test_a_tests_fixture_named_by_the_text_does_not_lead_locate(daemon: Daemon) -> None:
    text = ("ProcessorFormatter loses the traceback of foreign log records; exc_info is "
            "cleared before the last processor runs")
    located = daemon.service.locate(text, limit=2, repo="fx")
    assert [(f.path, f.role) for f in located.files] == [("logs/stdlib.py", "source"),
                                                         ("tests/test_frames.py", "test")]
    # the fixture's file is ranked by its chunks alone, not kept as a named file (it tied
    # the source file's fused score)
    assert located.files[1].score < located.files[0].score
    assert [f.qualified_name for f in located.files[0].functions][:2] == [
        "ProcessorFormatter.format", "ProcessorFormatter.__init__"]


def test_a_test_named_as_a_test_still_names_its_file(daemon: Daemon) -> None:
    located = daemon.service.locate("test_no_trailing_newline fails on Windows", limit=2, repo="fx")
    assert located.files[0].path == "tests/test_frames.py"
    assert located.files[0].functions[0].qualified_name == "test_no_trailing_newline"


@pytest.mark.parametrize(("text", "named"), [
    ("`exc_info` fixture returns the wrong exception type in the formatter tests", True),
    ("the exc_info fixture returns the wrong exception type in the formatter tests", True),
    ("fixture exc_info returns the wrong exception type", True),
    ("exc_info is cleared before the last processor runs", False),
])
def test_a_fixture_the_text_calls_one_is_named(text: str, named: bool) -> None:
    """pytest's "`mock_timing` fixture does not patch time.perf_counter" lost
    ``testing/conftest.py`` (a review): a fixture named as code is named; a word that only
    shares a fixture's name is not."""
    from coderecalld.query import service
    from coderecalld.query import shape

    fixture = {"repo": "fx", "path": "tests/test_frames.py", "qualified_name": "exc_info",
               "role": "test", "kind": "function"}
    assert service._named_in_role(fixture, shape.analyze(text)) is named
