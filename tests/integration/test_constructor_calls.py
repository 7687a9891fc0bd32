"""Constructors in a class hierarchy (requests' exceptions, a callers audit): a class that
only inherits its constructor is asked about by its own constructions, never its base's
other callers; ``Base.__init__(self, ..)`` runs that base's, never an override of it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, indexed

EXCEPTIONS = '''\
from json import JSONDecodeError as CompatJSONDecodeError


class RequestException(IOError):
    def __init__(self, *args, **kwargs):
        self.response = kwargs.pop("response", None)
        super().__init__(*args, **kwargs)


class InvalidJSONError(RequestException):
    pass


class JSONDecodeError(InvalidJSONError, CompatJSONDecodeError):
    def __init__(self, *args, **kwargs):
        CompatJSONDecodeError.__init__(self, *args)
        InvalidJSONError.__init__(self, *self.args, **kwargs)


class ConnectionError(RequestException):
    pass
'''
MODELS = '''\
from .exceptions import ConnectionError, RequestException


def send(url):
    if not url:
        raise ConnectionError("no url")
    raise RequestException("failed")
'''


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    files = {"requests/__init__.py": "", "requests/exceptions.py": EXCEPTIONS, "requests/models.py": MODELS}
    with indexed(tmp_path_factory.mktemp("constructors"), files) as d:
        yield d


def _sites(d: Daemon, name: str) -> list[tuple[str, int, str]]:
    return [(s.path, s.line, s.confidence) for s in d.service.find_callers(name, limit=100)]


def test_an_inherited_constructor_is_asked_about_by_its_class(running: Daemon) -> None:
    assert _sites(running, "ConnectionError.__init__") == [("requests/models.py", 6, "resolved")]
    # the base's: its own construction, a subclass's explicit chaining
    # (`InvalidJSONError.__init__(self, ..)`), and a subclass's construction, which
    # inherits the constructor
    assert _sites(running, "RequestException.__init__") == [
        ("requests/models.py", 7, "resolved"), ("requests/exceptions.py", 17, "inherited"),
        ("requests/models.py", 6, "inherited")]


def test_an_explicit_base_call_is_no_override_caller(running: Daemon) -> None:
    # `InvalidJSONError.__init__(self, ..)` runs RequestException's, never JSONDecodeError's
    assert _sites(running, "JSONDecodeError.__init__") == []
