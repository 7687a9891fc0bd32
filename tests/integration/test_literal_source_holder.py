"""A literal whose best holders are tests still puts the source chunk holding it on the page
(``service._source_holders``): marshmallow's ``"Invalid fields for"`` answered five tests
at ``--limit 5`` (a newcomer). The page's depth no longer depends on its limit either
(``service.PAGE_FLOOR``): measured on marshmallow's index, not here (a lexical fixture ranks
the source first by its own score). Real git fixture, real embedded store (lexical)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

# The source raises the message once, in a long method; 30 short tests repeat its words.
SOURCE = "class Schema:\n    def _init_fields(self, names):\n" + "".join(
    f"        step_{i} = self.prepare_option_number_{i}(names)\n" for i in range(60)) + (
    "        if names:\n"
    "            raise ValueError(f\"Invalid fields for {self}: {names}.\")\n")
TESTS = "".join(
    f"def test_invalid_fields_case_{i}():\n"
    f"    assert 'Invalid fields for' in message_{i}  # invalid fields for schema {i}\n\n"
    for i in range(30))


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("page-prefix"),
                 {"src/pkg/schema.py": SOURCE, "tests/test_schema.py": TESTS}) as running:
        yield running


def test_the_source_holding_a_literal_is_on_a_short_page(daemon: Daemon) -> None:
    """30 tests hold the literal's words better than the method raising it: the evidence
    read its first 5 holders, all tests, and placed none (``service._source_holders``)."""
    hits = daemon.service.search('"Invalid fields for"', limit=5, repo="fx")
    placed = [(h.qualified_name, h.match) for h in hits if h.path == "src/pkg/schema.py"]
    assert placed == [("Schema._init_fields", "evidence")]
    assert [h.path for h in hits].index("src/pkg/schema.py") < 3
