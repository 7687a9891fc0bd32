"""A message pasted without quotes (an error string, a log line) is exact evidence:
``shape.Query.sentence`` and ``Service._with_sentence`` put a chunk holding it verbatim on
the first page, also where the message lies past the 2,000 characters a chunk's payload
keeps of a long function (its lines are read from git). Real git fixture, real embedded
store (sparse side only: the hybrid page is the lexical ranking here, and the decoys hold
more of the message's words than the long function that holds the message)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import service as service_module
from coderecalld.query import shape
from conformance_cases import indexed

# A long function (over 2,000 characters) whose message comes at its end.
_STEPS = "\n".join(f"    step_{i} = prepare_step({i}, request, offers)  # setup of step {i}"
                   for i in range(40))
NEGOTIATE = f'''\
def negotiate(request, offers):
    """Pick the response format for a request."""
{_STEPS}
    for offer in offers:
        if offer in request.accept:
            return offer
    raise NotAcceptable("the accepted formats are not offered by the server")
'''

FILES = {
    "app/negotiation.py": NEGOTIATE,
    # Decoys: the message's words, many times, never in its order.
    "app/formats.py": '''\
def accepted_formats(server):
    """The formats the server accepted: accepted formats, offered formats, server formats."""
    return [f for f in server.formats if f.accepted and f.offered]


def offered_by_server(server):
    """Formats offered by the server: the server's offered and accepted formats."""
    return [f for f in server.formats if f.offered]
''',
    "app/server.py": '''\
class Server:
    """A server: the formats it offered, the formats clients accepted, the server's state."""

    def formats_offered(self):
        """The server's offered formats; accepted formats are not all offered."""
        return self.offered
''',
    "app/status.py": '''\
def check_status(response):
    if response.status >= 400:
        raise HTTPError("Request failed with status code " + str(response.status))
    return response
''',
    # A message ending in a value's repr (attrs' ``_transform_attrs``), beside the class
    # whose repr's field names the paste repeats.
    "app/fields.py": '''\
class Field:
    """A declared field: name, default, validator, repr, eq, order, hash, init, converter."""

    def __init__(self, name, default=None, validator=None, repr=True, eq=True, order=True,
                 hash=None, init=True, converter=None, kw_only=False, alias=None):
        self.name, self.default, self.validator, self.repr = name, default, validator, repr
        self.eq, self.order, self.hash, self.init = eq, order, hash, init
        self.converter, self.kw_only, self.alias = converter, kw_only, alias

    def __repr__(self):
        return (f"Field(name={self.name!r}, default={self.default!r}, validator={self.validator!r}, "
                f"repr={self.repr!r}, eq={self.eq!r}, order={self.order!r}, hash={self.hash!r}, "
                f"init={self.init!r}, converter={self.converter!r}, kw_only={self.kw_only!r}, "
                f"alias={self.alias!r})")


def check_order(fields):
    had_default = False
    for a in fields:
        if had_default and a.default is None:
            msg = f"No mandatory fields allowed after a field with a default value or factory.  Field in question: {a!r}"
            raise ValueError(msg)
        had_default = had_default or a.default is not None
''',
    # Messages a runtime prints with a location appended (``at line 1 column 0``).
    "app/parse.py": '''\
def parse_value(text):
    if not text:
        raise JSONError("EOF while parsing a value")
    if text.strip() != text:
        raise JSONError("trailing characters")
    return text
''',
    # A message printed from a template: the user sees its values, the code its placeholders.
    "app/numbers.py": '''\
def convert_number(value, kind):
    try:
        return int(value)
    except ValueError:
        raise BadValue("{value!r} is not a valid {kind}.".format(value=value, kind=kind))
''',
    # Decoys: the message's words, never its template.
    "app/validate.py": '''\
def validate_integer(value):
    """Validate an integer value: a valid integer, not an invalid value for a count."""
    return isinstance(value, int)


def invalid_count(count):
    """An invalid count value: a count that is not a valid integer value."""
    return not validate_integer(count)


def count_value(value):
    """A count's integer value: a valid integer count; an invalid value is not a count."""
    return int(value)


def integer_or_none(value):
    """The value as an integer: a valid integer value, else none (not an integer)."""
    return value if validate_integer(value) else None
''',
    # Decoys: the location's words.
    "app/position.py": '''\
def line_column(text, at):
    """The line and column of a position: the line at a column, the column at a line."""
    line = text.count("\\n", 0, at) + 1
    return line, at - text.rfind("\\n", 0, at)


def column_at_line(text, line, column):
    """The column at a line: at line 1 column 0 the position is 0."""
    return sum(len(row) + 1 for row in text.split("\\n")[:line - 1]) + column


def value_position(text, value):
    """While parsing a value: the value's line and column, at the line of the value."""
    return line_column(text, text.index(value))


def eof_position(text):
    """EOF: the line and column at the end of the text, the last line's column."""
    return line_column(text, len(text))


def trailing_position(text):
    """Where the characters trailing a value start: the line and column after it."""
    return line_column(text, len(text.rstrip()))
''',
    # Its test holds the whole message, value and all.
    # A class whose method raises a template message; the class's docstring says the
    # message's words (its chunk holds the method's lines too).
    "app/loaders.py": '''\
class SearchPathLoader:
    """Loads a template found in the search path: not found in the search path, a template
    is searched in the next search path; every path of the search path is searched."""

    def __init__(self, paths):
        self.paths = paths

    def get_source(self, name):
        for path in self.paths:
            if name in path:
                return path
        raise NotFound(f"{name!r} not found in search path: {self.paths!r}")


class Missing:
    """A missing value: an undefined object has no attribute and no element."""

    def message(self, obj, name):
        return (
            f"{type(obj).__name__!r} has no"
            f" attribute {name!r}"
        )
''',
    # Go and JS join a message's value with ``+``; the decoys hold its words, more often.
    "router/tree.go": '''\
package router

// RegisterHandlers registers handlers for a path: the path's handlers, registered already
// for the path, are the registered handlers of that path.
func RegisterHandlers(path string, handlers []func()) {
	routes[path] = handlers
}

func (n *node) addRoute(fullPath string, handlers []func()) {
	if n.handlers != nil {
		panic("handlers are already registered for path '" + fullPath + "'")
	}
	n.handlers = handlers
}

// ModeNames lists every available mode: debug mode, release mode; an unknown mode is no mode.
func ModeNames() []string {
	return []string{"debug", "release"}
}

func SetMode(value string) {
	if value != "debug" && value != "release" {
		panic("router mode unknown: " + value + " (available mode: debug release)")
	}
}
''',
    "lib/adapters.js": '''\
// Dispatch the request to a suitable adapter: the adapter dispatches the request, no
// request is dispatched without an adapter.
export function dispatchRequest(config) {
  return config.adapter(config);
}

export function getAdapter(names) {
  if (!names.length) {
    throw new Error(
      `There is no suitable adapter to dispatch the request ` + reason,
    );
  }
  return names[0];
}
''',
    "tests/test_status.py": '''\
def test_a_failed_request_says_its_status():
    """The failed request's status code is in the message."""
    assert str(check_status_of(500)) == "Request failed with status code 500"
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("sentence"), FILES) as running:
        yield running


MESSAGE = "the accepted formats are not offered by the server"


def test_a_pasted_message_puts_the_chunk_holding_it_on_the_first_page(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(NEGOTIATE) > service_module.EMBED_TEXT_CHARS
    assert NEGOTIATE.index("the accepted formats") > service_module.EMBED_TEXT_CHARS
    with monkeypatch.context() as m:
        m.setattr(shape, "SENTENCE_MIN_WORDS", 100)  # no sentence: the words alone
        plain = [h.qualified_name for h in daemon.service.search(MESSAGE, limit=3, repo="fx")]
    assert "negotiate" not in plain
    with monkeypatch.context() as m:
        m.setattr(service_module, "WHOLE_MESSAGE_FIRST", False)
        hits = daemon.service.search(MESSAGE, limit=3, repo="fx")
    rank = service_module.EVIDENCE_RANK - 1
    assert (hits[rank].path, hits[rank].qualified_name, hits[rank].match) == (
        "app/negotiation.py", "negotiate", "evidence")
    assert [h.qualified_name for i, h in enumerate(hits) if i != rank] == plain[:rank]
    # a source string literal holding the message whole is where it is raised: first, and
    # confident (the retrievers alone disagree: its words are the decoys')
    hits = daemon.service.search(MESSAGE, limit=3, repo="fx")
    assert [(h.path, h.qualified_name, h.match) for h in hits] == [
        ("app/negotiation.py", "negotiate", "evidence"), *[(h.path, h.qualified_name, h.match) for h in plain_hits(
            daemon, monkeypatch)[:2]]]
    assert not hits.low_confidence


def plain_hits(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> list:
    with monkeypatch.context() as m:
        m.setattr(shape, "SENTENCE_MIN_WORDS", 100)
        return list(daemon.service.search(MESSAGE, limit=3, repo="fx"))


def test_a_messages_trailing_value_is_dropped_to_find_how_the_code_builds_it(daemon: Daemon) -> None:
    """``'Request failed with status code ' + str(status)``: the pasted ``... 500`` is
    found without its value."""
    between = shape._BETWEEN_WORDS
    assert [p.pattern for p in shape.sentence_patterns("Request failed with status code 500")][1:] == [
        r"(?<!\w)" + between.join(["Request", "failed", "with", "status", "code"]) + r"(?!\w)",
        r"(?<!\w)" + between.join(["Request", "failed", "with", "status"]) + r"(?!\w)",
    ]  # prefixes down to half its words
    hits = daemon.service.search("Request failed with status code 500", limit=3, repo="fx")
    assert ("app/status.py", "check_status") in {(h.path, h.qualified_name) for h in hits}
    assert [h.path for h in hits if h.match == "evidence"] in ([], ["app/status.py"])


def test_the_source_building_a_message_beats_the_test_holding_it_whole(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test holds ``... status code 500`` whole, the source only its prefix: source
    first, whatever the page held before."""
    monkeypatch.setattr(service_module, "EVIDENCE_RANK", 1)
    hits = daemon.service.search("Request failed with status code 500", limit=2, repo="fx")
    assert (hits[0].path, hits[0].qualified_name) == ("app/status.py", "check_status")


@pytest.mark.parametrize(("text", "sentence"), [
    (MESSAGE, MESSAGE),
    ("which formats are accepted by the server", ""),       # a question
    ("where is the server's accepted format chosen?", ""),
    ("find the formats offered by the server", ""),          # a request
    ("accepted formats", ""),                                # too short
    # a runtime message quotes its values, and may ask
    ("No such option '--colour'. Did you mean '--color'?", "No such option '--colour'. Did you mean '--color'?"),
    ("where is 'accepted' checked?", ""),                    # a question, quote or not
    # a log line's or a warning's prefix is no part of the message
    ("2024-05-01 10:00:01,123 ERROR [app.db] " + MESSAGE, MESSAGE),
    ("WARNING:root:Could not find the configuration file, using the defaults",
     "Could not find the configuration file, using the defaults"),
    ("/srv/app/cli.py:1369: UserWarning: The parameter --name is used more than once.",
     "The parameter --name is used more than once."),
    ("could you find where the formats are offered", ""),     # a question's "could"
    # a command-line program's error prefix (jq's) is no part of the message either
    ("jq: error (at <stdin>:0): Cannot iterate over null", "Cannot iterate over null"),
    ("jq: error: foo/0 is not defined at <top-level>, line 1:", "foo/0 is not defined at <top-level>, line 1:"),
    # a message may ask after a statement, code spans and all (hono's)
    ("Context is not finalized. Did you forget to return a Response object or `await next()`?",
     "Context is not finalized. Did you forget to return a Response object or `await next()`?"),
    ("where is `negotiate` defined", ""),                    # a question with a code span
])
def test_only_a_message_reads_as_a_sentence(text: str, sentence: str) -> None:
    assert shape.analyze(text).sentence == sentence


@pytest.mark.parametrize(("message", "core", "file_rank"), [
    # held whole but the location: first on search's page, its file first in locate
    ("EOF while parsing a value at line 1 column 0", "EOF while parsing a value", 1),
    ("trailing characters at line 3 column 5", "trailing characters", 1),
])
def test_a_location_the_runtime_appended_is_dropped(daemon: Daemon, message: str, core: str,
                                                    file_rank: int) -> None:
    """serde_json's ``Display`` appends ``at line N column M`` to a message: the chunk
    raising the message without it is placed on the first page, and ``locate`` ranks its
    file as the page places it."""
    assert shape.sentence_core(message) == core
    hits = daemon.service.search(message, limit=3, repo="fx")
    assert [(h.path, h.qualified_name, h.match) for h in hits if h.match == "evidence"] == [
        ("app/parse.py", "parse_value", "evidence")]
    assert hits[0].path == "app/parse.py"  # whole but the location: where it is raised
    located = [f.path for f in daemon.service.locate(message, limit=3, repo="fx").files]
    assert located.index("app/parse.py") + 1 == file_rank


@pytest.mark.parametrize("message", [
    "Error: Invalid value for '--count': 'abc' is not a valid integer.",  # click's, an error line
    "'abc' is not a valid integer.",
])
def test_a_message_printed_from_a_template_finds_the_template(daemon: Daemon, message: str) -> None:
    """``"{value!r} is not a valid {kind}."`` prints the message with the user's values in
    its placeholders: no verbatim pattern of the message is in the code; its template is
    (``shape.message_templates``). An error line's message is read after its exception's
    name; its quotes are the values it was given, not a question's."""
    assert shape.analyze(message).sentence == message.removeprefix("Error: ")
    assert shape.template_words('raise BadValue("{value!r} is not a valid {kind}.")', message) == 4
    hits = daemon.service.search(message, limit=3, repo="fx")
    assert [(h.path, h.qualified_name, h.match) for h in hits if h.path == "app/numbers.py"] == [
        ("app/numbers.py", "convert_number", "evidence")]
    # a template of four literal words printing it is where it is raised: first
    assert (hits[0].path, hits.low_confidence) == ("app/numbers.py", False)


@pytest.mark.parametrize(("message", "path", "symbol", "words"), [
    ("handlers are already registered for path '/ping'", "router/tree.go", "node.addRoute", 5),
    ("router mode unknown: prod (available mode: debug release)", "router/tree.go", "SetMode", 7),
    ("There is no suitable adapter to dispatch the request since :", "lib/adapters.js", "getAdapter", 9),
])
def test_a_message_joined_with_its_value_by_plus_is_a_template(
        daemon: Daemon, message: str, path: str, symbol: str, words: int) -> None:
    """Go and JS join a value into a message with ``+`` (gin's ``"... for path '" + fullPath
    + "'"``, ``"gin mode unknown: " + value + " (available ...)"``, axios's template literal
    ``+ s``): the joined literals are one template, a source chunk printing the message is
    first (a newcomer saw these third, fourth and second, below chunks of their words)."""
    source = FILES[path]
    assert shape.template_words(source, message) == words
    hits = daemon.service.search(message, limit=3, repo="fx")
    assert (hits[0].path, hits[0].qualified_name.endswith(symbol), hits[0].match) == (path, True, "evidence")
    assert daemon.service.locate(message, limit=3, repo="fx").files[0].path == path


def test_a_logged_message_is_found_without_its_prefix(daemon: Daemon) -> None:
    hits = daemon.service.search("2024-05-01 10:00:01,123 ERROR [app.http] " + MESSAGE, limit=3, repo="fx")
    assert ("app/negotiation.py", "negotiate") in {(h.path, h.qualified_name) for h in hits}


@pytest.mark.parametrize(("message", "symbol"), [
    ("NotFound: 'index.html' not found in search path: ['templates']", "SearchPathLoader.get_source"),
    # a template split over two adjacent literals is one template of three words
    ("'dict' has no attribute 'name'", "Missing.message"),
])
def test_the_innermost_chunk_printing_a_message_is_first(daemon: Daemon, message: str, symbol: str) -> None:
    """A class chunk holds its methods' lines and so their messages: the method printing
    the message is where it is raised, first, not its class (jinja's ``FileSystemLoader``
    came before its ``get_source``); a message split over adjacent literals
    (``f"{obj!r} has no" f" attribute {name!r}"``) is one template."""
    source = (FILES["app/loaders.py"])
    assert shape.template_words(source, message.split(": ", 1)[-1] if message.startswith("NotFound") else message) >= 3
    hits = daemon.service.search(message, limit=3, repo="fx")
    assert (hits[0].path, hits[0].qualified_name) == ("app/loaders.py", symbol)


REPR_MESSAGE = ("ValueError: No mandatory fields allowed after a field with a default value or factory.  "
                "Field in question: Field(name='y', default=None, validator=None, repr=True, eq=True, "
                "order=True, hash=None, init=True, converter=None, kw_only=False, alias='y')")


def test_an_error_line_ending_in_a_long_repr_finds_its_raise_site(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error line pasted alone is a trace however long its message (up to
    ``ERROR_LINE_MAX_CHARS``), and a message ending in a value's repr is looked for without
    the value: its words before it are what the code holds."""
    assert len(REPR_MESSAGE) > shape.ISSUE_MIN_CHARS
    asked = shape.analyze(REPR_MESSAGE)
    assert (asked.shape, asked.sentence) == (shape.Shape.TRACE, "No mandatory fields allowed after a "
                                             "field with a default value or factory.  Field in question:")
    hits = daemon.service.search(REPR_MESSAGE, limit=3, repo="fx")
    assert (hits[0].path, hits[0].qualified_name, hits[0].match) == ("app/fields.py", "check_order", "evidence")
    located = daemon.service.locate(REPR_MESSAGE, limit=2, repo="fx")
    assert (located.files[0].path, located.files[0].functions[0].qualified_name) == (
        "app/fields.py", "check_order")
    with monkeypatch.context() as m:
        m.setattr(shape, "ERROR_LINE_MAX_CHARS", 0)  # read as an issue: the repr's words lead
        assert shape.analyze(REPR_MESSAGE).shape is shape.Shape.ISSUE
        plain = daemon.service.search(REPR_MESSAGE, limit=3, repo="fx")
    assert (plain[0].qualified_name, plain[0].match) != ("check_order", "evidence")


def test_a_raise_site_first_already_is_said_to_be_the_evidence(tmp_path) -> None:
    """The source printing a pasted message is first by the role order already (a test
    holding the message whole scored above it): it is answered as the evidence would place
    it, match ``evidence``, and the answer is not flagged low (attrs' ``_transform_attrs``
    was, a newcomer: "the second of the top two hits scores as high as the first")."""
    files = {
        "app/order.py": '''\
def check_order(fields):
    for a in fields:
        if a.late:
            raise ValueError(f"No mandatory fields allowed after a field with a default value.  Field in question: {a!r}")
''',
        "tests/test_order.py": '''\
def test_mandatory_after_default():
    message = ("No mandatory fields allowed after a field with a default value.  Field in question: "
               "Field(name='y')")
    assert message == "No mandatory fields allowed after a field with a default value.  Field in question: Field(name='y')"
''',
    }
    query = "ValueError: No mandatory fields allowed after a field with a default value.  Field in question:"
    with indexed(tmp_path, files) as d:
        hits = d.service.search(query, limit=2, repo="fx")
        assert [(h.path, h.match) for h in hits] == [("app/order.py", "evidence"), ("tests/test_order.py", "hybrid")]
        assert not hits.low_confidence



QUOTING = {
    "dates/parser.py": '''\
def parse_multiformat(string, formats):
    for fmt in formats:
        found = match(string, fmt)
        if found:
            return found
    raise ParserMatchError(
        f"Could not match input {string!r} to any of the following formats: {', '.join(formats)}."
    )
''',
    # Decoys: the question's words, never the message.
    "dates/validate.py": "".join(f'''
def validate_{i}(value):
    """Could the input match any of the formats? Match the input to any format of the list."""
    return value
''' for i in range(4)),
}


def test_a_question_quoting_part_of_a_template_finds_it(tmp_path) -> None:
    """A question quotes the part of a message it remembers, without the values the
    template prints (arrow's "Could not match input to any of", from ``f"Could not match
    input {string!r} to any of the following formats: .."``; a newcomer): the template holds
    that run of its words across a placeholder (``shape.fragment_words``), first."""
    question = 'where does the error "Could not match input to any of" come from'
    assert shape.analyze(question).sentence == "Could not match input to any of"
    with indexed(tmp_path, QUOTING) as running:
        hits = running.service.search(question, limit=3, repo="fx")
        assert [(h.path, h.qualified_name, h.match) for h in hits][:1] == [
            ("dates/parser.py", "parse_multiformat", "evidence")]
        assert not hits.low_confidence
