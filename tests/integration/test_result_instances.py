"""A module's name bound to a function's result (``logger = logging.getLogger(__name__)``)
is typed by the function's declared result, in its own module and where another module
imports it (sphinx: 314 ``logger.warning(..)`` and 75 imported ``LOGGER.warning(..)``
calls were name-only callers of ``SphinxLoggerAdapter.warning``; a newcomer). Real git
fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "pkg/log.py": '''\
class Adapter:
    def warning(self, msg):
        return msg


def getLogger(name) -> Adapter:
    return Adapter()
''',
    "pkg/shared.py": '''\
from pkg import log

LOGGER = log.getLogger(__name__)
''',
    "pkg/use.py": '''\
from pkg.shared import LOGGER


def run():
    LOGGER.warning("imported")
''',
    "pkg/own.py": '''\
from pkg import log

logger = log.getLogger(__name__)


def go():
    logger.warning("own")
''',
    "pkg/other.py": '''\
import logging

logger = logging.getLogger(__name__)


def stdlib():
    logger.warning("the standard library's")
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("results"), FILES) as running:
        yield running


def test_a_modules_result_typed_name_is_typed_where_it_is_imported_too(daemon: Daemon) -> None:
    sites = daemon.service.find_callers("Adapter.warning", repo="fx")
    # the standard library's `getLogger(..)` result is a standard library type's (a
    # `logging.Logger`), no project class's: left out (callgraph.standard_library)
    assert sorted((s.path, s.line, s.confidence) for s in sites) == [
        ("pkg/own.py", 7, "resolved"), ("pkg/use.py", 5, "resolved")]
