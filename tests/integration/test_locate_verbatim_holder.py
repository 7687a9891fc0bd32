"""The chunk holding the message a query quotes is listed first in its file by
``locate``, whatever its kind: werkzeug's ``BadRequest``, a class whose ``description``
holds "sent a request that this server could not understand", is no function, and
``exceptions.py`` listed eight others (a newcomer). Real git fixture, real embedded
store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "web/__init__.py": "",
    "web/exceptions.py": '''\
class HTTPException(Exception):
    code = 500
    description = "An error occurred."

    def __init__(self, description=None, response=None):
        super().__init__()
        if description is not None:
            self.description = description
        self.response = response

    def get_description(self, request=None):
        """The description of the error the server could not handle for this request."""
        return f"<p>{self.description}</p>"

    def get_response(self, request=None):
        """A response for the request the server could not handle."""
        return self.get_description(request)


class BadRequest(HTTPException):
    code = 400
    description = (
        "The browser (or proxy) sent a request that this server could not understand."
    )


class InternalServerError(HTTPException):
    code = 500

    def __init__(self, description=None, response=None, original_exception=None):
        """The server could not complete the request: an internal error."""
        self.original_exception = original_exception
        super().__init__(description=description, response=response)
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("holder"), FILES) as running:
        yield running


def test_the_chunk_holding_a_quoted_message_is_listed_first(daemon: Daemon) -> None:
    question = 'where does the "sent a request that this server could not understand" message come from'
    (first,) = daemon.service.locate(question, limit=1, repo="fx").files
    assert first.path == "web/exceptions.py"
    assert [(f.qualified_name, f.start_line, f.end_line) for f in first.functions][:1] == [("BadRequest", 20, 24)]
    # a question quoting nothing lists functions before types, as before
    (plain,) = daemon.service.locate("where is the error description of a bad request rendered",
                                     limit=1, repo="fx").files
    assert plain.functions[0].qualified_name != "BadRequest"
