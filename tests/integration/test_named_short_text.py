"""A short text that names a definition in code form (``HTTPServerRequest()``, a call with
its arguments, ``Queue.get(timeout=0)``): ``locate`` puts the definition's file first,
as ``search`` puts the definition, above a file that only uses it with more of the text's
words (tornado's ``wsgi.py`` for "HTTPServerRequest() no longer accepts host="; a
newcomer). End to end on a real git fixture and the real embedded store (sparse side)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "wire/__init__.py": "",
    "wire/request.py": '''\
class ServerRequest:
    """A single HTTP request."""

    def __init__(self, method=None, uri=None, version="HTTP/1.0", headers=None, body=None,
                 connection=None):
        self.method = method
        self.uri = uri
        self.headers = headers or {}
        self.body = body or b""
        self.connection = connection

    def full_url(self):
        return self.uri
''',
    "wire/container.py": '''\
from wire.request import ServerRequest


class Container:
    """Serves a request: accepts the host, the port and the host's name from the request."""

    def environ(self, request: ServerRequest):
        """The environment of a request: the host accepts its host name and its port."""
        host = request.headers.get("Host", "localhost")
        return {"SERVER_NAME": host, "HTTP_HOST": host, "REMOTE_HOST": host, "accepts": host}
''',
    "wire/queue.py": '''\
class Queue:
    """A queue of items."""

    def get(self, timeout=None):
        """Remove and return an item, waiting until one is there."""
        return _wait(self, timeout)

    def put(self, item, timeout=None):
        """Put an item, waiting forever for room unless a timeout is given."""
        return item


def _wait(queue, timeout):
    return queue
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("named"), FILES) as running:
        yield running


def _files(daemon: Daemon, text: str) -> list[str]:
    return [f.path for f in daemon.service.locate(text, limit=3, repo="fx").files]


def test_a_class_a_title_names_puts_its_file_first(daemon: Daemon) -> None:
    text = "6.5.0: ServerRequest() no longer accepts host="
    hits = daemon.service.search(text, limit=3, repo="fx")
    assert "wire/container.py" in {h.path for h in hits}  # the user's words are there
    assert _files(daemon, text)[0] == "wire/request.py"


def test_a_call_written_with_its_arguments_names_the_method(daemon: Daemon) -> None:
    """``Queue.get(timeout=0)`` names ``Queue.get`` (it named nothing): its file is named."""
    located = daemon.service.locate("Queue.get(timeout=0) waits forever", limit=3, repo="fx").files
    assert located[0].path == "wire/queue.py"
    assert "Queue.get" in [f.qualified_name for f in located[0].functions]


def test_a_diagnostics_quoted_name_is_no_named_definition(daemon: Daemon) -> None:
    """"error: `ServerRequest` must be the last argument": a printed value, not the class
    asked about; the container's words keep its file first (axum's ``Json<_>``)."""
    text = "error: `ServerRequest` accepts the host name and port of the container environ"
    assert _files(daemon, text)[0] == "wire/container.py"
    assert _files(daemon, text.removeprefix("error: "))[0] == "wire/request.py"
