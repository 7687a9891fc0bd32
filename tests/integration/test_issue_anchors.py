"""Structural evidence for pasted issues (query/anchors.py), end to end on a real git
fixture and the real embedded store (sparse side only: issues are ranked lexical-first,
and these cases are about what the lexical side misses).

Each case is built so the plain lexical order is wrong: the test first asserts that (with
the anchor's weight at 0), then that the shipped weights put the right file first.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.config import RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.query import anchors
from conformance_cases import daemon as daemon_over
from gitfixtures import GitRepo

FILES = {
    # The definition of the function an issue names, with few of the issue's words.
    "pkg/ranges.py": '''\
def merge_intervals(spans):
    """Join overlapping spans of a schedule."""
    spans = sorted(spans)
    out = [spans[0]]
    for lo, hi in spans[1:]:
        if lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(hi, out[-1][1]))
        else:
            out.append((lo, hi))
    return out
''',
    # A caller that repeats the issue's words (schedule, overlapping, meetings, calendar).
    "pkg/report.py": '''\
from pkg.ranges import merge_intervals


def calendar_report(meetings, calendar):
    """Report overlapping meetings of a calendar schedule: busy schedule blocks."""
    busy = merge_intervals([(m.start, m.end) for m in meetings])
    schedule = [b for b in busy if calendar.contains(b)]
    overlapping = [m for m in meetings if any(m.start < b[1] for b in schedule)]
    return {"schedule": schedule, "overlapping meetings": overlapping, "calendar": calendar}


def calendar_summary(meetings, calendar):
    """Summarise the calendar schedule and its overlapping meetings."""
    return len(calendar_report(meetings, calendar)["schedule"])
''',
    # Source whose words differ from the issue's; its tests speak the issue's language.
    "pkg/codec.py": '''\
def encode_frame(payload):
    """Length-prefix a payload."""
    return len(payload).to_bytes(4, "big") + payload
''',
    "pkg/tests/test_codec.py": '''\
from pkg.codec import encode_frame


def test_empty_message_roundtrip_header_truncated():
    """An empty message: the header must not be truncated on roundtrip."""
    assert encode_frame(b"")[:4] == b"\\0\\0\\0\\0"


def test_large_message_roundtrip_header():
    """A large message keeps its roundtrip header."""
    assert len(encode_frame(b"x" * 70000)) == 70004
''',
    "pkg/wire.py": '''\
def message_header(message):
    """The header of a message."""
    return message[:4]
''',
    # A file named by a traceback path, whose function shares no word with the issue.
    "pkg/loader.py": '''\
def read_blob(handle):
    """Read everything."""
    return handle.read()
''',
    # The same file name elsewhere, with more of the traceback's words.
    "pkg/legacy/loader.py": '''\
def read_blob(handle):
    """Read a blob from an I/O handle; a closed handle raises ValueError."""
    if handle.closed:
        raise ValueError("I/O operation on closed file")
    return handle.read()
''',
    "pkg/plugins.py": '''\
def plugin_registry_entry(name):
    """Look up a plugin registry entry when loading plugins by name from the registry:
    the plugin entry of the plugins registry, by the plugin's name."""
    return {"plugin": name, "registry": "plugins"}
''',
}

SESSION_BANNER = """\
Python 3.9.6 (default, Jun 28 2021, 15:26:21)
[GCC 9.3.0] on linux
Type "help", "copyright", "credits" or "license" for more information.
"""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("anchors")
    files = dict(FILES)
    # The console entry point whose help text is the banner's words.
    files["pkg/cli.py"] = '''\
def main():
    """Print help: type help for more information, copyright, credits and license."""
    print("help: copyright, credits, license; type help for more information")
'''
    repo = GitRepo(tmp / "fixture")
    repo.commit(files, "initial")
    with daemon_over(tmp, RepoConfig("fx", str(repo.path), "main")) as d:
        d.jobs.run_now("fx")
        yield d


def _files(daemon: Daemon, issue: str) -> list[str]:
    return [f.path for f in daemon.service.locate(issue, limit=5, repo="fx").files]


DEFINITION_ISSUE = """\
merge_intervals drops a meeting in the calendar schedule
With overlapping meetings in a calendar schedule, the calendar report shows a schedule
without one of the overlapping meetings. The calendar schedule should list all meetings.
"""

TEST_ISSUE = """\
Empty message roundtrip: header truncated
An empty message does not survive a roundtrip: the header is truncated. Large message
roundtrip keeps the header. Seen with an empty message in production.
"""

PATH_ISSUE = """\
Crash when loading plugins from the registry
Loading plugins by name from the plugin registry crashes: every plugin registry entry of
the plugins registry fails when loading a plugin by its name, whichever plugin entry.

Traceback (most recent call last):
  File "/home/me/venv/lib/python3.11/site-packages/pkg/loader.py", line 3, in read_blob
    return handle.read()
ValueError: I/O operation on closed file
"""

BANNER_ISSUE = SESSION_BANNER + """\
>>> from pkg.ranges import merge_intervals
>>> merge_intervals([(1, 3), (2, 4)])
[(1, 4)]
Intervals of a schedule that touch are not joined into one
"""


def test_a_definition_the_issue_names_outranks_a_caller_that_repeats_its_words(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(anchors, "DEFINITION_WEIGHT", 0.0)
        assert _files(daemon, DEFINITION_ISSUE)[0] == "pkg/report.py"
    located = daemon.service.locate(DEFINITION_ISSUE, limit=5, repo="fx")
    assert located.files[0].path == "pkg/ranges.py"
    assert [f.qualified_name for f in located.files[0].functions] == ["merge_intervals"]


def test_the_source_a_matching_test_file_tests_is_located(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(anchors, "TEST_WEIGHT", 0.0)
        assert "pkg/codec.py" not in _files(daemon, TEST_ISSUE)[:2]
    files = _files(daemon, TEST_ISSUE)
    # the test second on the chunks; the file index puts wire.py, which repeats the words, before it
    assert files[0] == "pkg/codec.py" and "pkg/tests/test_codec.py" in files[:3]


def test_a_file_a_traceback_names_is_located_whatever_its_prefix(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(anchors, "PATH_WEIGHT", 0.0)
        m.setattr(anchors, "DEFINITION_WEIGHT", 0.0)
        assert _files(daemon, PATH_ISSUE)[0] == "pkg/legacy/loader.py"
    assert _files(daemon, PATH_ISSUE)[:2] == ["pkg/loader.py", "pkg/legacy/loader.py"]


def test_an_interpreter_banner_names_nothing(daemon: Daemon) -> None:
    assert "pkg/cli.py" not in _files(daemon, BANNER_ISSUE)
    assert _files(daemon, BANNER_ISSUE)[0] == "pkg/ranges.py"


def test_search_answers_with_the_anchored_chunk_too(daemon: Daemon) -> None:
    hits = daemon.service.search(DEFINITION_ISSUE, limit=3, repo="fx", mode="hybrid")
    assert hits[0].path == "pkg/ranges.py" and hits[0].qualified_name == "merge_intervals"


TRACE_ALONE = "ValueError: empty message header is truncated on roundtrip"


def test_a_trace_alone_lends_nothing_to_tested_sources(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A trace is answered by the chunk raising it: the source a matching test file tests
    gains nothing (it did for issues above)."""
    with_transfer = [(h.path, h.qualified_name, h.score)
                     for h in daemon.service.search(TRACE_ALONE, limit=5, repo="fx")]
    with monkeypatch.context() as m:
        m.setattr(anchors, "TEST_WEIGHT", 0.0)
        without = [(h.path, h.qualified_name, h.score)
                   for h in daemon.service.search(TRACE_ALONE, limit=5, repo="fx")]
    assert with_transfer == without
    assert "pkg/tests/test_codec.py" in [path for path, _, _ in with_transfer]


def test_file_evidence_raises_one_chunk_of_the_file(daemon: Daemon) -> None:
    """The path-named file's bonus goes to its best chunk, not to each of its chunks."""
    hits = daemon.service.search(DEFINITION_ISSUE + "\n  File \"/src/pkg/report.py\", line 9, in calendar_summary\n",
                                 limit=10, repo="fx")
    report = [h for h in hits if h.path == "pkg/report.py"]
    assert len(report) == 2
    assert report[0].score - report[1].score >= anchors.PATH_WEIGHT


def test_a_title_name_only_the_first_file_defines_vouches_for_it(daemon: Daemon) -> None:
    """``anchors.title_defined_in``: the flat-top flag's exemption (``confidence.flat_files``)."""
    from coderecalld.query import shape
    from coderecalld.store import StoreFilter

    flt = StoreFilter(repos=("fx",))
    asked = shape.analyze(DEFINITION_ISSUE)
    assert asked.names[:asked.title_names] == ("merge_intervals",)
    assert anchors.title_defined_in(daemon.service.store, asked, flt, "pkg/ranges.py")
    assert not anchors.title_defined_in(daemon.service.store, asked, flt, "pkg/report.py")
    # a title name two files define vouches for neither
    twice = shape.analyze("read_blob fails on a closed handle\nThe handle was closed before reading.\n"
                          "Seen in production with every handle we tried, twice a day.\n")
    assert "read_blob" in twice.names[:twice.title_names]
    assert not anchors.title_defined_in(daemon.service.store, twice, flt, "pkg/loader.py")
    # a name only the body says does not count
    assert not anchors.title_defined_in(daemon.service.store, shape.analyze(PATH_ISSUE), flt,
                                        "pkg/loader.py")


FLAT_FILES = {
    "pkg/cache.py": '''\
def evict_stale(entries, now):
    """Drop expired cache entries."""
    return {k: v for k, v in entries.items() if v.deadline > now}
''',
    # Another file the body names, with more of the issue's words.
    "pkg/store.py": '''\
def expire_entries(entries, now):
    """Evict stale entries of the store: expired entries, each entry's timestamp against
    now; stale expired entries are kept until the store compacts."""
    return [e for e in entries if e.timestamp < now]
''',
}

FLAT_ISSUE = """\
evict_stale keeps expired entries
After the time to live, expired entries stay in the cache: expire_entries in the store still
returns expired entries whose timestamp is older than now. Expired entries should be dropped.
"""


def test_a_flat_top_led_by_the_file_defining_a_title_name_is_not_flagged(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance_cases import indexed

    with indexed(tmp_path, FLAT_FILES) as d:
        with monkeypatch.context() as m:
            m.setattr(anchors, "title_defined_in", lambda *args: False)
            located = d.service.locate(FLAT_ISSUE, limit=3, repo="fx")
            hits = d.service.search(FLAT_ISSUE, limit=3, repo="fx")
        # the top two files score within FLAT_LONG_FILES: flagged without the exemption
        assert [f.path for f in located.files] == ["pkg/cache.py", "pkg/store.py"]
        assert located.low_confidence and "none stands out" in located.confidence_reason
        # the answer shows fused scores: the reason says its numbers are the chunks'
        assert located.confidence_reason.startswith("the top two files by their chunks ")
        assert hits.low_confidence
        # the title names evict_stale, which only the first file defines: it stands out
        located = d.service.locate(FLAT_ISSUE, limit=3, repo="fx")
        assert [f.path for f in located.files] == ["pkg/cache.py", "pkg/store.py"]
        assert not located.low_confidence and located.confidence_reason == ""
        assert not d.service.search(FLAT_ISSUE, limit=3, repo="fx").low_confidence


REFUSED_FILES = {
    "fmt/table.py": '''\
class Writer:
    """Writes a table's rows."""

    def __init__(self, delimiter=","):
        self.delimiter = delimiter

    def write(self, table, rows):
        """Write the table rows: each row of the table, header rows first."""
        header = [row for row in rows if row.header]
        return [self.delimiter.join(row) for row in header + rows]
''',
    "fmt/ui.py": '''\
from fmt.table import Writer


def write(table, rows, **kwargs):
    """Write a table's rows with the writer of the table's format."""
    return Writer(**kwargs).write(table, rows)


def _render_cell(cell):
    return str(cell)


def render(table, rows):
    """Render the rows of a table: every cell of every row, padded to the table width."""
    return [[_render_cell(cell, width=table.width) for cell in row] for row in rows]
''',

    "fmt/tests/test_ui.py": '''\
def handle_row(row):
    return row


def test_render():
    assert handle_row(1) == 1
''',
    "fmt/errors.py": '''\
class TemplateSyntaxError(Exception):
    """Raised to tell the user that there is a problem with the template syntax:
    a template syntax error."""
''',
    "fmt/lexer.py": '''\
from fmt.errors import TemplateSyntaxError


def expect(token, wanted):
    if token != wanted:
        raise TemplateSyntaxError(f"unexpected {token!r}, expected {wanted!r}")
    return token
''',
}

REFUSED_KEYWORD = """\
Writing a table with header rows fails
Writing a table with header rows to the table writer fails: the rows are never written.

Traceback (most recent call last):
  File "/home/me/app.py", line 9, in <module>
    write(table, rows, header_rows=["name"])
  File "/home/me/venv/lib/python3.11/site-packages/fmt/ui.py", line 6, in write
    return Writer(**kwargs).write(table, rows)
TypeError: Writer.__init__() got an unexpected keyword argument 'header_rows'
"""

REFUSED_IN_FRAME_FILE = """\
Rendering a table with a width crashes
Rendering the rows of a table pads every cell of every row to the table width, and crashes.

Traceback (most recent call last):
  File "/home/me/venv/lib/python3.11/site-packages/fmt/ui.py", line 15, in render
    return [[_render_cell(cell, width=table.width) for cell in row] for row in rows]
TypeError: _render_cell() got an unexpected keyword argument 'width'
"""


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("refused")
    repo = GitRepo(tmp / "fixture")
    repo.commit(REFUSED_FILES, "initial")
    with daemon_over(tmp, RepoConfig("fx", str(repo.path), "main")) as d:
        d.jobs.run_now("fx")
        yield d


def _functions(daemon: Daemon, issue: str) -> dict[str, list[str]]:
    located = daemon.service.locate(issue, limit=5, repo="fx")
    return {f.path: [x.qualified_name for x in f.functions] for f in located.files}


@pytest.mark.parametrize(("issue", "path", "callee"), [
    (REFUSED_KEYWORD, "fmt/table.py", "Writer.__init__"),  # its own file, by its qualified name
    (REFUSED_IN_FRAME_FILE, "fmt/ui.py", "_render_cell"),  # a frame's file, by its name
])
def test_a_callable_refusing_a_calls_arguments_leads_its_file(
        refusing: Daemon, monkeypatch: pytest.MonkeyPatch, issue: str, path: str, callee: str) -> None:
    """``TypeError: f() got an unexpected keyword argument``: the call failed before ``f``
    ran, so no frame names it; its signature is the edit (astropy's ``RST.__init__``)."""
    with monkeypatch.context() as m:
        m.setattr(anchors, "_refused", lambda *args: None)
        # the frame's line calls ``Writer(..)``: its constructor takes the name's bonus too
        m.setattr(anchors, "CALLED_CLASS_CONSTRUCTORS", False)
        assert _functions(refusing, issue)[path][0] != callee
    got = _functions(refusing, issue)
    assert got[path][0] == callee
    assert list(got)[0] == path


def test_a_traces_exception_class_comes_after_where_it_is_raised(
        refusing: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A trace asks where its exception was raised; the class's own chunk matched the
    exception name's heavy terms best (jinja's ``TemplateSyntaxError``)."""
    from coderecalld.query import service

    trace = "fmt.errors.TemplateSyntaxError: unexpected ')', expected ']'"
    with monkeypatch.context() as m:
        m.setattr(service, "RAISED_CLASS_PENALTY", 0.0)
        m.setattr(service, "PROSE_PENALTY_LONG", 0.0)  # the class is mostly its docstring
        assert refusing.service.search(trace, limit=3, repo="fx")[0].qualified_name == "TemplateSyntaxError"
    hits = refusing.service.search(trace, limit=3, repo="fx")
    assert [(h.path, h.qualified_name) for h in hits[:2]] == [
        ("fmt/lexer.py", "expect"), ("fmt/errors.py", "TemplateSyntaxError")]


NAMESAKE_TRACE = """\
Rendering a table with a row handler crashes
Rendering the rows of a table with my row handler crashes on every row of the table.

Traceback (most recent call last):
  File "/home/me/venv/lib/python3.11/site-packages/fmt/ui.py", line 15, in render
    return [[_render_cell(cell) for cell in row] for row in rows]
TypeError: handle_row() takes 1 positional argument but 2 were given
"""


def test_a_refused_callable_only_a_test_defines_is_the_users_own(refusing: Daemon) -> None:
    """The user's handler refused the call; a test's namesake is no evidence (starlette's
    ``http_exception`` handler promoted ``tests/test_applications.py``), a source file's is."""
    from coderecalld.query import shape
    from coderecalld.store import StoreFilter

    flt = StoreFilter(repos=("fx",))
    asked = shape.analyze(NAMESAKE_TRACE)
    assert asked.refused == ("handle_row",)
    files: dict[str, float] = {}
    named: dict[str, list] = {}
    anchors._refused(refusing.service.store, asked, flt, [], files, named)
    assert (files, named) == ({}, {})
    anchors._refused(refusing.service.store, shape.analyze(REFUSED_KEYWORD), flt, [], files, named)
    assert files == {"fmt/table.py": anchors.PATH_WEIGHT}
    assert [f.function for f in named["fmt/table.py"]] == ["Writer.__init__"]


RETRY_FILES = {
    "net/errors.py": '''\
class TooManyRetries(Exception):
    """Too many retries."""
''',
    "net/retry.py": '''\
from net.errors import TooManyRetries


def call_with_retries(call, limit):
    for _ in range(limit):
        if call():
            return True
    raise TooManyRetries(f"Exceeded {limit} retries.")
''',
}


def test_an_exception_named_without_a_suffix_comes_after_where_it_is_raised(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """requests' ``requests.exceptions.TooManyRedirects: Exceeded 30 redirects.``: a
    module-qualified name and a message make an error line without an Error suffix; the
    class's two lines had come first, ``resolve_redirects`` eighth."""
    from coderecalld.query import service
    from conformance_cases import indexed

    retried = "net.errors.TooManyRetries: Exceeded 3 retries."
    with indexed(tmp_path_factory.mktemp("retry"), RETRY_FILES) as running:
        with monkeypatch.context() as m:
            m.setattr(service, "RAISED_CLASS_PENALTY", 0.0)
            assert running.service.search(retried, limit=3, repo="fx")[0].qualified_name == "TooManyRetries"
        assert running.service.search(retried, limit=3, repo="fx")[0].qualified_name == "call_with_retries"


NAMESAKES = '''\
def list_convertor(kind):
    def internal_convertor(value):
        return [kind(v) for v in value]
    return internal_convertor


def tuple_convertor(kinds):
    def internal_convertor(value):
        return tuple(k(v) for k, v in zip(kinds, value))
    return internal_convertor


class App:
    def __call__(self, *args):
        return self.main(*args)

    def main(self, *args):
        return [self.convert(a) for a in args]

    def convert(self, value):
        return value
'''

NAMESAKES_ISSUE = """\
A tuple option with a default of None crashes when its tuple value is converted

Traceback (most recent call last):
  File "/home/me/venv/lib/python3.11/site-packages/pkg/convert.py", line 14, in __call__
    return self.main(*args)
  File "/home/me/venv/lib/python3.11/site-packages/pkg/convert.py", line 41, in internal_convertor
    return tuple(k(v) for k, v in zip(kinds, value))
TypeError: 'NoneType' object is not iterable
"""


@pytest.fixture(scope="module")
def namesakes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("namesakes")
    repo = GitRepo(tmp / "fixture")
    repo.commit({"pkg/__init__.py": "", "pkg/convert.py": NAMESAKES}, "initial")
    with daemon_over(tmp, RepoConfig("fx", str(repo.path), "main")) as d:
        d.jobs.run_now("fx")
        yield d


def test_a_frame_of_a_name_two_functions_share_and_a_line_neither_holds_is_the_worded_one(
        namesakes: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """typer's trace from an older release (line 654: between the list's and the tuple's
    ``internal_convertor`` at the indexed commit) named neither, and the outermost frame's
    ``Typer.__call__`` took the file's first place (a newcomer). The namesake the issue's
    words score highest stands for the frame."""
    def first_functions() -> list[str]:
        located = namesakes.service.locate(NAMESAKES_ISSUE, limit=1, repo="fx", functions=3)
        return [f.qualified_name for f in located.files[0].functions]
    with monkeypatch.context() as m:
        m.setattr(anchors, "FRAME_NAMESAKES_BY_WORDS", False)
        assert first_functions()[0] == "App.__call__"
    assert first_functions()[0] == "tuple_convertor.internal_convertor"


def test_the_line_a_trace_prints_under_a_frame_names_its_namesake(namesakes: Daemon) -> None:
    """A review: the frame's printed line was ``value = decimal.Decimal(data)``, only
    ``DecimalField``'s, and the title spoke of ``IntegerField``: the words chose the wrong
    namesake. The printed line, held by one of them, chooses first."""
    issue = NAMESAKES_ISSUE.replace("A tuple option with a default of None crashes when its tuple value is converted",
                                    "list_convertor: a list option crashes when each list item is converted "
                                    "from its kind, the list kind of each list value")
    located = namesakes.service.locate(issue, limit=1, repo="fx", functions=3)
    assert located.files[0].functions[0].qualified_name == "tuple_convertor.internal_convertor"
    without_line = issue.replace("    return tuple(k(v) for k, v in zip(kinds, value))\n", "")
    located = namesakes.service.locate(without_line, limit=1, repo="fx", functions=3)
    assert located.files[0].functions[0].qualified_name == "list_convertor.internal_convertor"
