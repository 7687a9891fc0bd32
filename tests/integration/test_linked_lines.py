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


def test_a_link_to_a_file_at_the_root_names_it(tmp_path) -> None:
    """cobra's ``blob/<sha>/command.go#L629-L632``: a file at the repository's root was a
    bare name once the link was read, which names no path, so neither the file nor its
    lines counted (a newcomer)."""
    files = {"models.py": MODELS,
             "web/charset.py": "def charset_of_content_type_header(header):\n"
                               '    """The charset parameter of a content type header, quoted charset too."""\n'
                               "    return header\n"}
    issue = ISSUE.replace("web/models.py", "models.py")
    with indexed(tmp_path, files) as d:
        (located,) = d.service.locate(issue, limit=1, repo="fx").files
        assert (located.path, located.functions[0].qualified_name) == ("models.py", "Response.text_codec")
        unlinked = issue.replace("https://github.com/acme/web/blob/main/models.py#L13-L15", "")
        assert d.service.locate(unlinked, limit=1, repo="fx").files[0].path == "web/charset.py"
