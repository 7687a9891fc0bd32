"""A literal of several words in quotes (``"Unknown field."``) is looked for verbatim, as
a message is: its words alone were taken for it, and every chunk saying "unknown" and
"field" held it, while the one holding the string (marshmallow's ``Schema``, its error
table 300 lines into the class) was 39th by the words and never read (a newcomer). The
chunks a verbatim check reads whole are bounded per file read, not per chunk: six long
methods of the same file had taken every read. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import service, shape
from conformance_cases import indexed


def _method(i: int) -> str:
    """A long method that says "unknown" and "field" often (never the message's run of
    words), past its first 2,000 characters: a verbatim check must read it whole."""
    lines = [f"    def handle_unknown_{i}(self, data, fields):",
             f'        """Handle the names of batch {i}: each field that is unknown is checked."""']
    for k in range(60):
        lines.append(f"        unknown_{k} = [name for name in fields if name not in data]  # field {k} unknown")
    lines.append("        return data")
    return "\n".join(lines) + "\n\n"


DOCS = "\n".join(f"    Paragraph {k} of the schema's long documentation about loading data." for k in range(60))
SCHEMA = (f'class Schema:\n    """A schema.\n\n{DOCS}\n    """\n\n'
          '    error_messages = {}\n\n'
          '    _default_error_messages = {\n        "type": "Invalid input type.",\n'
          '        "unknown": "Unknown field.",\n    }\n\n'
          + "".join(_method(i) for i in range(8)))
FILES = {
    "pkg/schema.py": SCHEMA,
    "tests/test_schema.py": ("def test_unknown_field_message():\n    errors = {'x': ['Unknown field.']}\n"
                             "    assert errors['x'] == ['Unknown field.']\n"),
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("quoted"), FILES) as running:
        yield running


def _first(daemon: Daemon, query: str) -> tuple[str, str]:
    hits = daemon.service.search(query, limit=10, repo="fx")
    return hits[0].path, hits[0].qualified_name


def test_a_quoted_message_finds_the_class_holding_it(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    assert shape.analyze('"Unknown field."').sentence == "Unknown field."
    assert _first(daemon, '"Unknown field."') == ("pkg/schema.py", "Schema")
    with monkeypatch.context() as m:  # the words alone: a method saying them more
        m.setattr(shape, "QUOTED_MESSAGES", False)
        m.setattr(service, "LITERAL_HOLDERS_FIRST", False)  # which finds its holder too
        assert _first(daemon, '"Unknown field."') != ("pkg/schema.py", "Schema")


def test_the_reads_are_counted_by_file(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight long methods of the class's file come first by the message's words: counted
    by chunk, one read ran out before the class; one file read holds them all."""
    monkeypatch.setattr(service, "VERBATIM_READS", 1)
    assert _first(daemon, '"Unknown field."') == ("pkg/schema.py", "Schema")


def test_one_quoted_word_is_no_message() -> None:
    assert shape.analyze('"unknown"').sentence == ""


def test_a_question_quoting_the_message_finds_the_class_holding_it(daemon: Daemon,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """click's 'where does the "Missing argument" error message come from' and
    marshmallow's 'where does the "Missing data for required field." error come from'
    ranked the message's words, the class holding it off the page (newcomers)."""
    query = 'where is the "Unknown field." error raised'
    assert shape.analyze(query).sentence == "Unknown field."
    assert _first(daemon, query) == ("pkg/schema.py", "Schema")
    with monkeypatch.context() as m:  # the question's words alone: a method saying them more
        m.setattr(shape, "QUOTED_MESSAGES", False)
        assert _first(daemon, query) != ("pkg/schema.py", "Schema")


NAMED = {
    "pkg/exceptions.py": ('class RequestException(IOError):\n    """A request failed."""\n\n\n'
                          'class InvalidURL(RequestException, ValueError):\n'
                          '    """The url provided was somehow invalid: the url has no host, or the host '
                          'supplied in the url is not valid. Why you get it: see the url."""\n'),
    "pkg/models.py": ('from pkg.exceptions import InvalidURL\n\n\n'
                      'class PreparedRequest:\n'
                      '    def prepare_url(self, url, params):\n'
                      '        """Prepares the given HTTP URL."""\n'
                      '        scheme, auth, netloc, port, path, query, fragment = parse_url(url)\n'
                      + "".join(f'        part_{k} = split_part(path, {k})  # the path, part {k}\n' for k in range(30)) +
                      '        if not scheme:\n'
                      '            raise MissingSchema(f"Invalid URL {url!r}: No scheme supplied.")\n'
                      '        if not host:\n'
                      '            raise InvalidURL(f"Invalid URL {url!r}: No host supplied")\n'
                      '        self.url = url\n\n'
                      '    def prepare_headers(self, headers):\n'
                      '        """Why a URL is invalid: the headers do not say."""\n'
                      '        self.headers = dict(headers or {})\n'),
}


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("named"), NAMED) as running:
        yield running


def test_a_question_naming_an_exception_and_its_message_finds_the_raise(named: Daemon,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """requests' "why do I get InvalidURL: No host supplied" answered the class
    ``InvalidURL`` first and never ``prepare_url`` raising it; quoted, or pasted alone,
    the raise was first (a newcomer). The message after an exception's name is looked for
    as a quoted one is, the asker's own clause after it ("when ...") left out."""
    query = "why do I get InvalidURL: No host supplied when the url has no host"
    assert shape.analyze(query).sentence == "No host supplied"
    assert shape._asked_message("why does the page say Note: the URL has no host") == ""  # no exception's name
    assert _first(named, query) == ("pkg/models.py", "PreparedRequest.prepare_url")
    with monkeypatch.context() as m:
        m.setattr(shape, "QUOTED_MESSAGES", False)
        assert _first(named, query) != ("pkg/models.py", "PreparedRequest.prepare_url")
