"""An issue linking lines of a file (``github.com/o/r/blob/main/x.py#L12-L15``) names the
function holding them: it leads that file's functions in ``locate`` (httpx's issue linking
``Response.charset_encoding``'s lines listed it 4th, after functions its words matched)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

MODELS = '''\
def parse_content_type_charset(header):
    """The charset of a content type header: parse the charset parameter."""
    return header.partition("charset=")[2]


def parse_header_links(value):
    """Parse the links of a header value."""
    return value.split(",")


class Response:
    def text_codec(self):
        value = self.headers.get("ct")
        return value.split(";")[-1].strip()
'''

ISSUE = """\
Quoted charset in the content type header is read with its quotes
A response with `Content-Type: text/plain; charset="utf-8"` gets the charset `"utf-8"`
with its quotes, and decoding fails. The charset is parsed here:
https://github.com/acme/web/blob/main/web/models.py#L13-L15
"""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("linked"), {"web/models.py": MODELS}) as d:
        yield d


def test_a_linked_line_leads_its_files_functions(daemon: Daemon) -> None:
    (located,) = daemon.service.locate(ISSUE, limit=1, repo="fx").files
    assert located.path == "web/models.py"
    assert located.functions[0].qualified_name == "Response.text_codec"
    # without the line, the words lead to the other parser
    unlinked = ISSUE.replace("#L13-L15", "")
    assert daemon.service.locate(unlinked, limit=1, repo="fx").files[0].functions[0].qualified_name == (
        "parse_content_type_charset")

