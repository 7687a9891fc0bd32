"""Query shapes and what each retriever reads of a query (``query/shape.py``)."""

from __future__ import annotations

import re
import time

import hypothesis

import pytest

from coderecalld.embed import sparse
from coderecalld.query import anchors, frames, shape
from coderecalld.query.shape import Shape

ISSUE = """Latex printer does not support full inverse trig function names for acsc and asec
For example
`latex(asin(x), inv_trig_style="full")` works as expected returning `'\\\\arcsin{\\\\left (x \\\\right )}'`
But `latex(acsc(x), inv_trig_style="full")` gives `'\\\\operatorname{acsc}{\\\\left (x \\\\right )}'`

A fix seems to be to change line 743 of sympy/printing/latex.py from
`inv_trig_table = ["asin", "acos", "atan", "acot"]` to
`inv_trig_table = ["asin", "acos", "atan", "acsc", "asec", "acot"]`
"""

TRACE = """Traceback (most recent call last):
  File "/app/src/flask/app.py", line 1498, in wsgi_app
    response = self.full_dispatch_request()
  File "/app/src/flask/ctx.py", line 412, in push
    self.session = session_interface.open_session(self.app, self.request)
KeyError: 'SECRET_KEY'
"""


@pytest.mark.parametrize(("text", "expected"), [
    ("how do I construct a Flask app", Shape.TEXT),
    ("implementation of the flask run command", Shape.TEXT),
    ("proxy_set_header", Shape.IDENTIFIER),
    ("HTTPServer.serve", Shape.IDENTIFIER),
    ("parse_qsl HTTPServer.serve", Shape.IDENTIFIER),
    ("parse_qsl urlsplit", Shape.TEXT),  # one plain word: could be prose, hybrid interpolates
    ('"X-Request-Id"', Shape.LITERAL),
    ("Content-Type", Shape.LITERAL),
    ("KeyError: 'SECRET_KEY'", Shape.TRACE),
    (TRACE, Shape.TRACE),
    (ISSUE, Shape.ISSUE),
    # a link to lines of a file of code is an issue's, however short (seaborn's)
    ("heatmap ignores vmin when norm=None\n\nI think the check at "
     "https://github.com/mwaskom/seaborn/blob/master/seaborn/matrix.py#L299-L303 is wrong.", Shape.ISSUE),
    ("what does https://github.com/o/r/blob/main/docs/index.html do", Shape.TEXT),  # no lines, no code
])
def test_detect(text: str, expected: Shape) -> None:
    assert shape.detect(text.strip()) is expected


def test_issue_terms_weigh_code_and_paths_over_prose_and_drop_chatter() -> None:
    q = shape.analyze(ISSUE.strip())
    weights = dict(q.terms)
    assert weights["inv_trig_table"] > weights["printer"]  # an identifier over a prose word
    assert weights["latex"] > weights["support"]           # a path segment, repeated, over prose
    for chatter in ("seems", "example", "expected", "but"):
        assert chatter not in weights
    assert q.roles == frozenset()  # an issue asks for no role


def test_a_shell_command_line_in_an_issue_weighs_as_prose() -> None:
    """black's issues ran ``$ black --preview --enable-unstable-feature string_processing
    --diff c5.py``: its flags, read as code, put ``mode.py`` (where they are declared) above
    the fixed file; the command is how the reporter ran the tool."""
    issue = ("Long string with a trailing comma is not equivalent after split\n\n"
             "```python\nsplitter_match = StringSplitter()\n```\n\n"
             "```\n$ black --preview --enable-unstable-feature string_processing c5.py\n"
             "error: cannot format: INTERNAL ERROR\n```\n")
    weights = dict(shape.analyze(issue).terms)
    assert weights["splitter_match"] == shape.WEIGHT_CODE  # the reproducer's code
    assert weights["enable-unstable-feature"] == shape.WEIGHT_PROSE  # the command line's flag
    assert weights["string_processing"] == shape.WEIGHT_PROSE
    assert weights["c5"] < shape.WEIGHT_FRAME  # the reporter's file: no path of the repo


def test_long_query_terms_are_capped_and_dense_text_fits_the_window() -> None:
    words = " ".join(f"word{i}x" for i in range(5000))
    text = "Crash in parse_header when the header is empty\n" + words + "\n" + "x = 1\n" * 20000
    q = shape.analyze(text)
    assert q.shape is Shape.ISSUE
    assert len(q.terms) == shape.MAX_TERMS
    assert len(q.dense_text) <= shape.DENSE_MAX_CHARS
    assert q.dense_text.startswith("Crash in parse_header")
    assert "parse_header" in [t for t, _ in q.terms[:3]]  # the title's identifier leads


def test_trace_terms_name_the_frames() -> None:
    weights = dict(shape.analyze(TRACE.strip()).terms)
    assert weights["wsgi_app"] >= shape.WEIGHT_FRAME
    assert weights["ctx"] >= shape.WEIGHT_FRAME   # the frame's path
    assert "keyerror" in weights


def test_short_text_terms_are_the_plain_query_terms() -> None:
    q = shape.analyze("how do I parse a query header")
    assert shape.sparse_vector(q) == sparse.query_vector("how do I parse a query header")
    assert q.dense_text == "how do I parse a query header"


@pytest.mark.parametrize(("text", "added"), [
    # a word adds the abbreviations code writes for it, an abbreviation its words
    ("how are converter arguments parsed", [("args", 0.5)]),
    ("how does the reloader poll modification times", [("mtime", 0.5)]),
    ("where is the cfg file read", [("configuration", 0.5)]),
    ("how do I parse a query string", [("str", 0.5)]),
    ("how is the session cookie signed", []),
    # a message's words are the code's own, as written: none added
    ("Could not parse the configuration file", []),
])
def test_a_questions_terms_add_abbreviations(text: str, added: list[tuple[str, float]]) -> None:
    terms = shape.analyze(text).terms
    own = [(t, 1.0) for t in dict.fromkeys(t for t in sparse.tokens(text) if t not in sparse.QUERY_STOP_WORDS)]
    assert list(terms) == own + added


@pytest.mark.parametrize(("text", "evidence"), [
    ("proxy_set_header", ("proxy_set_header",)),
    ('"X-Request-Id"', ("X-Request-Id",)),
    ('where is the "max_content_length" check', ("max_content_length",)),
    ("how do I construct a Flask app", ()),
    ("KeyError: 'SECRET_KEY'", ("SECRET_KEY", "KeyError")),
    # RST double backticks pair with each other, not across the text between two spans.
    ("``Cache.get()``, ``Cache.set()`` and ``--cache-show`` reject keys",
     ("Cache.get()", "Cache.set()", "--cache-show")),
    # An RST role's target, its ~ prefix and a reference's shown text; no role debris.
    (":func:`pytest.approx` now compares :class:`~decimal.Decimal` values",
     ("pytest.approx", "decimal.Decimal")),
    ("Added :func:`ExceptionInfo.group_contains() <pytest.ExceptionInfo.group_contains>`",
     ("ExceptionInfo.group_contains()",)),
    ("why is `a` ``b`` and `c` slow", ("a", "b", "c")),
    # a call's arguments cut by a space leave its name, not "Queue.get(timeout=0"
    ("Queue.get(timeout=0, block=True) waits forever", ("Queue.get",)),
    # A node id is held by no chunk; its test's name is. A Rust path stays as written.
    ("why does `tests/test_a.py::TestX::test_y[1-2]` fail", ("test_y",)),
    ("where is `app::Router::route` called", ("app::Router::route",)),
    # a header's name unquoted (drf's Retry-After, a newcomer); no number range, no word
    ("where is the Retry-After header set when a request is throttled", ("Retry-After",)),
    ("which proxies may set X-Forwarded-For", ("X-Forwarded-For",)),
    ("is the Python 3-12 release supported by the well-known decoder", ()),
    ("Non-ASCII characters in a header value raise an error", ()),  # a sentence's first word
    ("Read-Only file system error when saving the instance folder", ()),
    ("why does a Read-Only field fail", ()),  # no header spoken of
    ("how is a UTF-8 header value decoded", ()),  # a number part
    # a product's camel-case name is prose (a review: GitHub drew .github/workflows/)
    ("GitHub: the workflow fails on macOS", ()),
    ("why does the PyCharm debugger break on getValue", ("getValue",)),
])
def test_evidence(text: str, evidence: tuple[str, ...]) -> None:
    assert shape.analyze(text).evidence == evidence


def test_evidence_vector_is_the_whole_identifier_term() -> None:
    vector = shape.evidence_vector("proxy_set_header")
    assert vector is not None and vector.indices == (sparse.term_index("proxy_set_header"),)
    assert shape.evidence_vector("()") is None


@pytest.mark.parametrize(("text", "roles"), [
    ("where are the tests for the session cookie", {"test"}),
    ("where does the test client store cookies between requests", set()),
    ("which test runner option sets the verbosity", set()),
    ("where is the test for the session cookie", {"test"}),
    ("find test files for the session cookie", {"test"}),
    ("show test cases of the url map", {"test"}),
    ("docs about deploying behind nginx", {"docs"}),
    ("example of a blueprint", {"example"}),
    ("how is the session cookie signed", set()),
    ("session cookie tests", {"test"}),
    ("how is the request context tested", {"test"}),
    ("which tests cover the url map converters in the werkzeug routing module", {"test"}),
    # prose that says "test" of the fault it describes asks for no role
    (("Fixed regression where the importlib import mode used with PYTHONPATH would cause"
      " import errors in test suites"), set()),
    ("pytest fixture scope resolution", set()),
    ("the traceback is not dumped when run with python -X dev, for example", set()),
    # a sentence opening with an article or "all" is prose, not a request
    ("The importlib import mode used with PYTHONPATH would cause import errors in test suites",
     set()),
    ("All tests fail when the cache directory is read-only", set()),
    # 8 words ask, 9 (counted before "for example" is dropped, punctuation not) do not
    ("unit tests of the session cookie serializer, please", {"test"}),
    ("the session cookie serializer fails in unit tests - sometimes", set()),
    # a role word in the middle of a question describes, it does not ask
    ("where does caplog restore the log level after a test", set()),
    ("how are parametrize ids generated for test names", set()),
    ("where is the session cookie signing tested in the flask suite", {"test"}),
    ("docs", {"docs"}),
    ("session cookie tests fail, for example with large values", set()),
    # a description of a change names what it changes: docs and examples are often the
    # source's docstrings (seaborn's "Fix documentation on distplot bins"), tests are tests
    ("Fix documentation on distplot bins", set()),
    ("Remove examples that illustrate JointGrid annotate", set()),
    ("Add tests for the session cookie serializer.", {"test"}),
    ("docs for the session cookie serializer", {"docs"}),  # a request, not a description
    # the subject of a report: what a test framework does with tests (pytest's issue titles)
    ("Test method with positional-only `self` doesn't get its fixtures", set()),
    ("Test class with __init__ is not collected and no warning is shown", set()),
    ("Test function marked async def is silently skipped", set()),
    ("Test module with syntax error gives INTERNALERROR", set()),
    ("Fix flaky test of `Session.get`", {"test"}),
    ("test functions that use tmp_path", {"test"}),  # a request: no report
    # a config file the code finds or reads asks for the code
    ("where is the configuration file (pytest.ini, pyproject.toml, tox.ini, setup.cfg) found and read?",
     set()),
    ("where is the config file parsed", set()),
    ("which config files set the line length", {"config"}),
    ("which config file is read by codecov", {"config"}),
    ("where is the config file read by codecov", {"config"}),
    # "example" before a noun names a thing, unless a part of examples
    ("where are the example datasets downloaded and cached on disk", set()),
    ("where are the example files for the blueprint", {"example"}),
    ("example of a blueprint", {"example"}),
    # the asker's own files: the library's code that serves them (structlog's capture_logs)
    ("capture log output in my unit tests", set()),
    ("how do I freeze time in my own tests", set()),
    ("where are our unit tests for Schema.load", {"test"}),  # a maintainer's: the repository's
    ("add my docs to the sidebar", set()),
    ("where are your tests for the router", {"test"}),  # asked of the project: its own
    ("tests for the router", {"test"}),
    # tests as what a test framework's code handles (pytest's questions)
    ("how are xfail tests reported", set()),
    # ... but tests a question selects, or that act, are asked for (a review)
    ("tests related to blueprints", {"test"}),
    ("where are the tests related to sessions", {"test"}),
    ("tests marked slow", {"test"}),
    ("which tests need an app context", {"test"}),
    ("how do the tests check redirects", {"test"}),
    ("how do I run the tests", {"test"}),
    ("find the tests called test_json", {"test"}),
    ("where are deselected tests removed", set()),
    ("how are tests reordered by fixture scope", set()),
    ("where are the tests defined for the router", {"test"}),
    ("Where are the tests checking that a HEAD request is answered", {"test"}),
    ("how is the session cookie tested", {"test"}),
])
def test_roles_asked(text: str, roles: set[str]) -> None:
    assert shape.analyze(text).roles == roles


@pytest.mark.parametrize(("text", "read", "terms"), [
    ("Fixed a bug in :func:`histplot` with log scale", "Fixed a bug in `histplot` with log scale",
     ["fixed", "bug", "histplot", "log", "scale"]),
    (":class:`objects.Plot` now accepts data", "`objects.Plot` now accepts data",
     ["objects", "plot", "now", "accepts", "data"]),
    ("use :py:meth:`Plot.add` instead", "use `Plot.add` instead", ["use", "plot", "add", "instead"]),
    # not a role: a mapping's colon, C++'s scope, a role name with no code span after it
    ("the key:value pair and std::map:`x`", "the key:value pair and std::map:`x`", None),
    ("set the role :func: to none", "set the role :func: to none", None),
])
def test_a_text_role_is_markup_not_words(text: str, read: str, terms: list[str] | None) -> None:
    # "class" and "func" were terms: "class" matched every class chunk's keyword
    query = shape.analyze(text)
    assert query.text == read
    if terms is not None:
        assert [t for t, _ in query.terms] == terms


def test_a_huge_paste_is_read_at_its_head_and_tail() -> None:
    text = ("Crash in load_config\n" + "noise line\n" * 200_000
            + "ValueError: bad_option_name in settings\n")
    q = shape.analyze(text)
    assert len(q.text) <= shape.READ_HEAD_CHARS + shape.READ_TAIL_CHARS + 1
    terms = [t for t, _ in q.terms]
    assert "load_config" in terms and "bad_option_name" in terms


def test_environment_path_prefixes_weigh_nothing() -> None:
    """``/usr/lib/python3.11/site-packages/`` names no code of the repo: its words are not
    terms; the package path after it is (with the frame weight)."""
    trace = ('Traceback (most recent call last):\n'
             '  File "/usr/lib/python3.11/site-packages/requests/sessions.py", line 703, in send\n'
             '    adapter = self.get_adapter(url=request.url)\n'
             '  File "C:\\Python311\\Lib\\site-packages\\requests\\adapters.py", line 9, in get_adapter\n'
             'requests.exceptions.InvalidSchema: No connection adapters were found\n')
    terms = dict(shape.analyze(trace).terms)
    assert not {"usr", "lib", "python3", "site", "packages", "site-packages"} & set(terms)
    assert {"sessions", "adapters", "get_adapter", "requests"} <= set(terms)
    assert terms["sessions"] >= shape.WEIGHT_FRAME


BANNER_SESSION = """Wrong result with apart
```
Python 3.6.0 |Continuum Analytics, Inc.| (default, Dec 23 2016, 12:22:00)
[GCC 4.4.7 20120313 (Red Hat 4.4.7-1)] on linux
Type "copyright", "credits" or "license" for more information.

IPython 5.1.0 -- An enhanced Interactive Python.
?         -> Introduction and overview of IPython's features.
%quickref -> Quick reference.
help      -> Python's own help system.
object?   -> Details about 'object', use 'object??' for extra details.

In [1]: from sympy import apart_list
In [2]: apart_list(t)
```
"""


def test_an_interpreter_banner_is_not_read_as_the_issue() -> None:
    q = shape.analyze(BANNER_SESSION)
    terms = {t for t, _ in q.terms}
    assert {"apart_list", "apart", "wrong"} <= terms
    banner = {"copyright", "credits", "license", "continuum", "analytics", "gcc", "ipython",
              "enhanced", "interactive", "quickref", "introduction", "default", "dec", "linux"}
    assert not terms & banner
    assert "apart_list" in q.names and not {"IPython", "Python", "Continuum"} & set(q.names)
    assert "copyright" not in q.dense_text.lower()


def test_names_of_an_issue_title_first_then_by_mentions() -> None:
    q = shape.analyze(ISSUE)
    # The title has no code word; the body's, most mentioned first (asin and acsc 3
    # times each, asin first; latex twice: the path sympy/printing/latex.py is no name).
    assert q.names[:4] == ("asin", "acsc", "latex", "inv_trig_style")
    assert {"inv_trig_table", "acot", "asec", "operatorname"} <= set(q.names)
    assert q.paths == ("sympy/printing/latex.py",)
    assert not {"def", "self", "import", "True", "x"} & set(q.names)


def test_names_and_paths_of_a_trace_drop_the_environment() -> None:
    q = shape.analyze(TRACE + "\n  File \"/usr/lib/python3.11/site-packages/werkzeug/serving.py\", line 3, in run_wsgi\n")
    assert q.shape is Shape.TRACE
    # Innermost frame first (a Python trace ends at the failing call).
    assert q.paths == ("werkzeug/serving.py", "app/src/flask/ctx.py", "app/src/flask/app.py")
    assert {"wsgi_app", "push", "full_dispatch_request", "open_session", "run_wsgi"} <= set(q.names)
    assert not {"ctx", "serving", "usr", "site"} & set(q.names)  # words of paths
    assert len(q.names) <= shape.MAX_NAMES


@pytest.mark.parametrize(("text", "spans"), [
    ("``x`` and `y` and ```z```", ["x", "y", "z"]),
    ("``a`b`` then `c`", ["a`b", "c"]),        # a shorter run inside a span is its text
    ("`open and ``closed``", ["closed"]),       # an unclosed run is no span
    (":meth:`!Node.get` and :class:`~pkg.Thing`", ["Node.get", "pkg.Thing"]),
])
def test_code_spans(text: str, spans: list[str]) -> None:
    assert shape.code_spans(text) == spans


@pytest.mark.parametrize(("text", "symbols"), [
    ("``Cache.get()``, ``Cache.set()`` and ``--cache-show`` reject keys",
     ("Cache.get", "Cache.set")),                               # an option is no symbol
    ("why does Session.request drop the proxies", ("Session.request",)),
    ("where does `app::Router::route` match a path", ("app.Router.route",)),
    ("Added :func:`group_contains() <pytest.ExceptionInfo.group_contains>` helper",
     ("group_contains",)),
    ("is `self` or `None` or `x` a name", ()),                  # not names, too short
    ("how do I construct a Flask app", ()),
    ("`a1b` `b2c` `c3d` `d4e` `e5f`", ("a1b", "b2c", "c3d", "d4e")),  # MAX_SYMBOLS
    # A pytest node id names its test.
    ("testing/test_cache.py::test_cache_reportheader fails", ("test_cache_reportheader",)),
    ("why does `tests/test_a.py::TestX::test_y[1-2]` fail", ("TestX.test_y",)),
    # A call written with its arguments names what it calls (tornado: "Queue.get(timeout=0)
    # waits forever" named no symbol, and its file was located without it).
    ("Queue.get(timeout=0) waits forever instead of timing out", ("Queue.get",)),
    ("`Session.request(url, timeout=(1, 2))` ignores the tuple", ("Session.request",)),
    # a plural in parentheses is prose (a review: `request(s)` named `request`)
    ("cookie(s) lost after request(s) follow redirect(s) over HTTP(S)", ()),
])
def test_symbols_of_a_short_question(text: str, symbols: tuple[str, ...]) -> None:
    assert shape.analyze(text).symbols == symbols


def test_only_a_short_question_has_symbols() -> None:
    issue = "Cache.get() fails\n" + "The `Cache.get` call fails on a corrupt file.\n" * 30
    assert shape.analyze(issue).shape is Shape.ISSUE and shape.analyze(issue).symbols == ()
    assert shape.analyze("Cache.get").symbols == ()  # an identifier is pinned by its own lookup


def test_short_queries_have_no_names_or_paths() -> None:
    q = shape.analyze("where is parse_qsl defined in web/urlparse.py")
    assert q.shape is not Shape.ISSUE and q.names == () and q.paths == ()


def test_names_are_capped_title_first() -> None:
    body = "\n".join(f"call `helper_{i}(x)` twice: helper_{i}" for i in range(60))
    q = shape.analyze("TitleName breaks\n" + body)
    assert len(q.names) == shape.MAX_NAMES
    assert q.names[0] == "TitleName"


STDLIB_TRACE = """rgx option with a Han class throws
```shell
Traceback (most recent call last):
  File "/home/u/venv/lib/python3.9/site-packages/pylint/config/arguments_manager.py", line 244, in _parse_configuration_file
    self.config, parsed_args = self._arg_parser.parse_known_args(
  File "/usr/local/lib/python3.9/argparse.py", line 1858, in parse_known_args
    namespace, args = self._parse_known_args(args, namespace)
  File "C:\\Python39\\Lib\\sre_parse.py", line 552, in _parse
    raise source.error(msg, len(this) + 1 + len(that))
re.error: bad escape \\p at position 1
```
"""


def test_standard_library_frames_and_fence_languages_are_not_names() -> None:
    q = shape.analyze(STDLIB_TRACE)
    assert "_parse_configuration_file" in q.names and "_arg_parser" in q.names
    # parse_known_args stays: the repository's own frame calls it.
    assert not {"_parse_known_args", "_parse", "shell", "source", "namespace"} & set(q.names)
    assert q.paths == ("pylint/config/arguments_manager.py",)
    terms = {t for t, _ in q.terms}
    assert {"parse_known_args", "argparse"} <= terms  # still words of the trace


def test_title_names_are_counted_and_dunders_are_names() -> None:
    q = shape.analyze("@ (__matmul__) should fail for a non-Matrix operand\n"
                      "`Matrix.__matmul__` accepts scalars; `MatrixArithmetic` too. " * 2)
    assert q.names[:q.title_names] == ("__matmul__",)
    assert {"MatrixArithmetic", "Matrix"} <= set(q.names[q.title_names:])
    assert shape.analyze("where is __matmul__").title_names == 0  # a short question: no names


def test_exception_classes_are_not_names() -> None:
    q = shape.analyze("InvalidMessageError: Message W1234 is not defined in the registry")
    assert q.shape is Shape.TRACE
    assert "InvalidMessageError" not in q.names
    assert "invalidmessageerror" in {t for t, _ in q.terms}  # still a term


PAD = "\n" + "More words about the problem here. " * 8


def test_environment_prefixes_drop_in_linear_time_and_relative_venvs_too() -> None:
    import time
    text = ('File "/home/u/venv/lib/python3.9/site-packages/pkg/mod.py", line 3; '
            "venv/lib/python3.11/site-packages/pkg/other.py and "
            ".tox/py39/lib/python3.9/site-packages/pkg/loader.py; C:\\Py\\Lib\\site-packages\\pkg\\w.py")
    assert shape.drop_environment(text) == ('File "pkg/mod.py", line 3; pkg/other.py and '
                                            "pkg/loader.py; pkg\\w.py")
    started = time.perf_counter()
    shape.analyze("title\n" + "/a" * 100_000)  # was quadratic: minutes
    assert time.perf_counter() - started < 5


def test_paths_keep_dot_directories_and_banners_need_their_build_line() -> None:
    assert shape.analyze("CI fails\nsee .github/workflows/ci.yml and ./src/a/b.py" + PAD).paths == (
        ".github/workflows/ci.yml", "src/a/b.py")
    q = shape.analyze("Python 3.11: parse_qsl drops the port 8080 from urls\nWhen calling `parse_qsl` it fails" + PAD)
    assert (q.names, q.title_names) == (("parse_qsl",), 1)


def test_names_one_spelling_no_pseudo_names_no_stdlib_subpackages() -> None:
    q = shape.analyze("Matrix.det returns the wrong sign\nCalling `matrix.det()` on a 3x3 `Matrix` fails" + PAD)
    assert (q.names, q.title_names) == (("Matrix", "det"), 2)
    trace = ('Crash\nTraceback (most recent call last):\n  File "/app/pkg/run.py", line 3, in run\n'
             '    json.loads(x)\n  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode\n'
             '    obj, end = self.raw_decode(s, idx=_w(s, 0).end())\n'
             '  File "<stdin>", line 1, in <module>\nValueError: x\n')
    q = shape.analyze(trace)
    assert q.names == ("run", "json", "loads") and q.paths == ("app/pkg/run.py",)


def test_names_file_by_path_suffix_at_a_slash() -> None:
    q = shape.analyze(TRACE)
    assert shape.names_file(q, "src/flask/app.py") and shape.names_file(q, "flask/ctx.py")
    assert not shape.names_file(q, "k/app.py") and not shape.names_file(q, "flask/cli.py")


def test_a_callable_an_error_line_names_counts_as_the_titles() -> None:
    body = ("Writing with header rows fails:\n\n```python\n>>> tbl.write(out, format='ascii.rst',"
            " header_rows=['name', 'unit'])\nTraceback (most recent call last):\n"
            '  File "/usr/lib/python3/dist-packages/astropy/io/ascii/ui.py", line 856, in write\n'
            "    writer = get_writer(Writer=Writer, **kwargs)\n" * 3
            + "TypeError: RST.__init__() got an unexpected keyword argument 'header_rows'\n```\n")
    q = shape.analyze("Please support header rows in RestructuredText output\n" + body)
    # the refusing callable is named with the title's names, before the much-mentioned frames
    assert set(q.names[:q.title_names]) == {"RST", "RestructuredText", "__init__"}
    assert q.names.index("get_writer") >= q.title_names
    # a call in the prose is no error line's
    prose = shape.analyze("Header rows are ignored\nCalling `tbl.write()` drops them silently"
                          " in every writer we tried, again and again.\n")
    assert prose.title_names == 0


PYTEST_FRAMES = """\
Equality with an unknown object evaluates its repr
Comparing a Symbol with any object whose repr is code runs that code.

sympy/core/expr.py:124: in __eq__
    other = sympify(other)
sympy/core/sympify.py:385: in sympify
    expr = parse_expr(a, local_dict=locals)
E   AttributeError: 'Symbol' object has no attribute 'y'
"""

IPYTHON_FRAMES = """\
vel of a point fails
Asking a point's velocity raises although its position is set.

~/miniconda3/lib/python3.6/site-packages/sympy/physics/vector/frame.py in express(self, vec)
----> 12     return vec.express(self)

~/miniconda3/lib/python3.6/site-packages/sympy/physics/vector/point.py in vel(self, frame)
--> 454             raise ValueError('Velocity of point Q has not been defined')

File ~/src/sympy/core/cache.py:72, in __cacheit.<locals>.wrapper(*args)
     70 def wrapper(*args):
---> 72     return func(*args)

ValueError: Velocity of point Q has not been defined
"""


def test_frames_as_pytest_and_ipython_print_them_innermost_first() -> None:
    q = shape.analyze(PYTEST_FRAMES)
    assert q.frames == (("sympy/core/sympify.py", "sympify", 385), ("sympy/core/expr.py", "__eq__", 124))
    assert q.paths[:2] == ("sympy/core/sympify.py", "sympy/core/expr.py")
    assert "__eq__" in q.names and "sympify" in q.names
    q = shape.analyze(IPYTHON_FRAMES)
    assert [f[:2] for f in q.frames] == [("~/src/sympy/core/cache.py", "__cacheit.wrapper"),
                                         ("sympy/physics/vector/point.py", "vel"),
                                         ("sympy/physics/vector/frame.py", "express")]
    assert "vel" in q.names and "express" in q.names


def test_interpreter_frames_innermost_first() -> None:
    q = shape.analyze('Crash on load\nLoading crashes.\nTraceback (most recent call last):\n'
                      '  File "/srv/app/pkg/a.py", line 3, in outer\n    inner()\n'
                      '  File "/srv/app/pkg/b.py", line 9, in inner\n    helper()\n'
                      '  File "/srv/app/pkg/a.py", line 20, in helper\n    raise KeyError(k)\n'
                      'KeyError: 3\n')
    assert q.frames == (("srv/app/pkg/a.py", "helper", 20), ("srv/app/pkg/b.py", "inner", 9),
                        ("srv/app/pkg/a.py", "outer", 3))
    assert shape.analyze("where is the velocity of a point set").frames == ()
    # prose naming a file before "in" is no frame
    assert shape.analyze("Bug report\nThe code in pkg/mod.py in function f is slow.\n"
                         "It takes seconds, see above, for every call made.\n").frames == ()


def test_a_frames_pseudo_name_is_no_function() -> None:
    q = shape.analyze('Crash on import\nImporting crashes.\nTraceback (most recent call last):\n'
                      '  File "/srv/pkg/a.py", line 3, in <module>\n    f()\n'
                      '  File "/srv/pkg/b.py", line 9, in <listcomp>\n    g(x)\n'
                      '  File "/srv/pkg/b.py", line 2, in g\n    raise KeyError(x)\nKeyError: 3\n')
    assert q.frames == (("srv/pkg/b.py", "g", 2), ("srv/pkg/b.py", "", 9), ("srv/pkg/a.py", "", 3))


GO_PANIC = """\
panic: invalid node type

goroutine 21 [running]:
github.com/gin-gonic/gin.(*node).getValue(0xc000136a80, {0xc00001e1a8, 0x9}, 0x0)
\t/go/pkg/mod/github.com/gin-gonic/gin@v1.10.0/tree.go:582 +0x8d6
github.com/gin-gonic/gin.(*Engine).handleHTTPRequest(0xc0000a8b60, 0xc0000d6100)
\t/go/pkg/mod/github.com/gin-gonic/gin@v1.10.0/gin.go:715 +0x245
github.com/gin-gonic/gin.(*RouterGroup).GET(...)
\t/go/pkg/mod/github.com/gin-gonic/gin@v1.10.0/routergroup.go:117
main.main()
\t/home/me/app/main.go:15 +0x1d
created by net/http.(*Server).Serve in goroutine 1
\t/usr/local/go/src/net/http/server.go:3285 +0x4b4
"""


def test_a_go_panics_frames_innermost_first_without_the_module_path() -> None:
    """Go prints the innermost frame first, each as the function (import path, receiver
    in parentheses) and its file on the next line; the module cache's ``pkg/mod/`` is the
    environment, the ``module@version`` directory kept (``anchors`` reads it as the
    module's root), its words and the import paths' words no terms."""
    q = shape.analyze(GO_PANIC)
    assert q.shape is Shape.TRACE
    assert q.frames == (
        ("github.com/gin-gonic/gin@v1.10.0/tree.go", "github.com/gin-gonic/gin.node.getValue", 582),
        ("github.com/gin-gonic/gin@v1.10.0/gin.go", "github.com/gin-gonic/gin.Engine.handleHTTPRequest", 715),
        ("github.com/gin-gonic/gin@v1.10.0/routergroup.go", "github.com/gin-gonic/gin.RouterGroup.GET", 117),
        ("home/me/app/main.go", "main.main", 15),
        ("usr/local/go/src/net/http/server.go", "net/http.Server.Serve", 3285))
    assert {"getValue", "handleHTTPRequest"} <= set(q.names)
    assert not {"github", "com", "gonic", "v1", "pkg", "mod"} & set(q.names)
    terms = {t for t, _ in q.terms}
    assert {"getvalue", "node", "invalid", "tree"} <= terms
    assert not {"github", "com", "gonic", "v1", "mod"} & terms


def test_v8_frames_innermost_first() -> None:
    """Node's frames: named (``Class.method``, an ``[as alias]``, ``async``, ``new``),
    anonymous (a path only) and ``<anonymous>`` (no function); ``node:internal`` frames
    name no file; ``node_modules/`` is the environment."""
    q = shape.analyze(
        "TypeError: Cannot read properties of undefined (reading 'toUpperCase')\n"
        "    at AxiosHeaders.normalize (/app/node_modules/axios/lib/core/AxiosHeaders.js:200:30)\n"
        "    at async Axios.request [as get] (file:///app/node_modules/axios/lib/core/Axios.js:45:12)\n"
        "    at new Client (/app/src/client.ts:9:3)\n"
        "    at /app/src/helpers/retry.mjs:3:1\n"
        "    at Object.<anonymous> (/app/index.js:3:7)\n"
        "    at node:internal/main/run_main_module:28:49\n")
    assert q.shape is Shape.TRACE
    assert q.frames == (("axios/lib/core/AxiosHeaders.js", "AxiosHeaders.normalize", 200),
                        ("axios/lib/core/Axios.js", "Axios.request", 45),
                        ("app/src/client.ts", "Client", 9),
                        ("app/src/helpers/retry.mjs", "", 3),
                        ("app/index.js", "", 3))
    assert not {"node_modules", "modules"} & {t for t, _ in q.terms}


@pytest.mark.parametrize(("written", "read"), [
    ("gin.(*Engine).ServeHTTP", "gin.Engine.ServeHTTP"),
    ("(*node).getValue", "node.getValue"),
    ("(*List[T]).Push", "List.Push"),
    ("github.com/gin-gonic/gin.(*Context).Next", "github.com/gin-gonic/gin.Context.Next"),
    ("f(x).y", "f(x).y"),  # a call's result: no receiver
    ("(a + b).real", "(a + b).real"),
])
def test_go_receivers_are_read_as_the_index_names_methods(written: str, read: str) -> None:
    assert shape.go_receivers(written) == read
    assert shape.analyze(written).text == read


def test_line_start_patterns_never_span_blank_lines() -> None:
    """A line-start ``\\s*`` spans the newlines of the blank lines after it and backtracks
    over them at every line start: a paste of 600 lines of spaces took 16 s to analyse
    (``_ERROR_LINE``), one line of 200,000 spaces 400 s (``_BANNER``). Line-start
    whitespace is ``[ \\t]``, and a pasted log's padding analyses like any text."""
    import re
    for name, pattern in vars(shape).items():
        if isinstance(pattern, re.Pattern) and pattern.flags & re.MULTILINE:
            assert not re.search(r"(?<![\[\\])\^\\s", pattern.pattern), name  # not [^\s...]
    padded = "Slow log\n" + (" " * 299 + "\n") * 600 + "ValueError: bad\n"
    q = shape.analyze(padded)
    assert q.shape is Shape.TRACE or q.shape is Shape.ISSUE
    assert "bad" in {t for t, _ in q.terms}


@pytest.mark.parametrize("text", [
    "title\n" + " " * 100_000 + "\nb",                      # _BANNER: 400 s before
    "title\n" + (" " * 299 + "\n") * 330 + "ValueError: end",  # line-start \s*: 16 s
    "title\n" + "a-" * 50_000,                               # _PATH: minutes
    "title\nTypeError: " + "a." * 50_000,                    # _ERROR_CALL
    "title\n" + "AA" * 50_000,                               # the acronym hump: 25 s at 60k
    "title\n`" + " " * 100_000 + "<a>`",                     # an RST reference's pattern
    "title\n" + "main.f(0x1)\n\t/go/pkg/mod/x.com/m@v1.2.3/a.go:12 +0x1d\n" * 1_500,
    "title\n" + "Caused by: x\n\tat a.B.c(B.java:1)\n" * 3_000,   # a cause count per frame
    "title\n#0 " + "a(" * 50_000,                              # PHP's frame
    "title\n   at " + "x in " * 20_000,                         # .NET's frame
    "title\n" + ("a" * 299 + ".py:1: ") * 300 + "\n" + "x.py:" * 40_000,  # a crash line
    "title\n\nprose.\n" + " " * 100_000 + "x\nINSTALLED VERSIONS\n" + "a: None\n" * 6,  # a report's heading: 10 s
], ids=["spaces", "space-lines", "a-", "a.", "AA", "span", "go-frames", "caused-by", "php", "dotnet",
        "crash-line", "report-heading"])
def test_hostile_pastes_are_analysed_like_any_text(text: str) -> None:
    """Each of these held ``analyze`` (and a daemon thread: a deadline cannot stop it) for
    seconds to minutes; analysis is linear in the paste now (~0.1 s each here; figures in
    ``tests/bench/bench_hostile_queries.py``). A regression is a test that runs into the
    suite's timeout."""
    q = shape.analyze(text)
    assert q.shape in (Shape.ISSUE, Shape.TRACE)
    assert len(q.terms) <= shape.MAX_TERMS


@pytest.mark.parametrize(("printed", "written"), [
    ("<serde_json::de::Deserializer<R> as serde::de::Deserializer>::deserialize_any::h0123456789abcdef",
     "serde_json.de.Deserializer.deserialize_any"),
    ("serde_json::de::from_trait::{{closure}}", "serde_json.de.from_trait"),
    ("<Deserializer as de::Deserializer<'de>>::deserialize_string", "Deserializer.deserialize_string"),
    ("<&mut serde_json::de::Deserializer<R> as serde::de::Deserializer>::deserialize_struct",
     "serde_json.de.Deserializer.deserialize_struct"),  # an impl for a reference
    ("com.acme.Foo$Bar.lambda$baz$0", "com.acme.Foo.Bar.baz"),
    ("com.acme.Foo$Bar.<init>", "com.acme.Foo.Bar.Bar"),
    ("com.acme.Strings.trim(String,int)", "com.acme.Strings.trim"),  # the index's Java names
    ("Acme.Orders.OrderService.<PlaceAsync>d__5.MoveNext", "Acme.Orders.OrderService.PlaceAsync"),
    ("Acme.Cache`1.Get[TKey]", "Acme.Cache.Get"),
    ("Polly.ResiliencePipeline.<>c__DisplayClass4_0`1.<<ExecuteAsync>b__0>d.MoveNext",
     "Polly.ResiliencePipeline.ExecuteAsync"),  # an async lambda's state machine in a closure class
    ("block (2 levels) in Acme::Runner#run", "Acme.Runner.run"),
    ("App\\Repo\\UserRepo->find", "App.Repo.UserRepo.find"),
    ("__cacheit.<locals>.wrapper", "__cacheit.wrapper"),
    ("<module>", "<module>"),  # a pseudo-name stays one (``_frames`` drops it)
])
def test_a_frames_function_is_written_as_the_index_qualifies_names(printed: str, written: str) -> None:
    assert frames.callable_name(printed) == written


def test_dotnet_ruby_and_php_frames_innermost_first() -> None:
    dotnet = shape.analyze(
        "Unhandled exception. System.InvalidOperationException: Sequence contains no elements\n"
        "   at System.Linq.ThrowHelper.ThrowNoElementsException()\n"
        "   at Acme.Orders.OrderService.<PlaceAsync>d__5.MoveNext() in /_/src/Acme.Orders/OrderService.cs:line 42\n"
        "   at Acme.Api.Program.Main(String[] args) in C:\\src\\Acme.Api\\Program.cs:line 12\n")
    assert dotnet.shape is Shape.TRACE
    assert dotnet.frames == (("_/src/Acme.Orders/OrderService.cs", "Acme.Orders.OrderService.PlaceAsync", 42),
                             ("C:/src/Acme.Api/Program.cs", "Acme.Api.Program.Main", 12))
    ruby = shape.analyze(
        "/app/lib/acme/parser.rb:42:in `block in parse': undefined method `x' for nil (NoMethodError)\n"
        "\tfrom /app/lib/acme/runner.rb:12:in 'Acme::Runner#run'\n"
        "\tfrom bin/run:3:in `<main>'\n")
    assert ruby.shape is Shape.TRACE
    assert ruby.frames == (("app/lib/acme/parser.rb", "parse", 42),
                           ("app/lib/acme/runner.rb", "Acme.Runner.run", 12))
    bang = shape.analyze("/app/lib/sinatra/base.rb:1809:in 'block in compile!': undefined method (NoMethodError)\n"
                         "\tfrom /app/lib/sinatra/base.rb:1121:in 'block in process_route'\n")
    assert [f.function for f in bang.frames] == ["compile!", "process_route"]  # a bang is a name's
    # PHP: frame k names the function called from its file; it ran in frame k-1's file
    php = shape.analyze(
        "PHP Fatal error:  Uncaught InvalidArgumentException: bad id in /var/www/src/Repo/UserRepo.php:55\n"
        "Stack trace:\n"
        "#0 /var/www/src/Service/UserService.php(34): App\\Repo\\UserRepo->find('x')\n"
        "#1 /var/www/public/index.php(12): App\\Service\\UserService->load('x')\n"
        "#2 {main}\n"
        "  thrown in /var/www/src/Repo/UserRepo.php on line 55\n")
    assert php.frames == (("var/www/src/Repo/UserRepo.php", "App.Repo.UserRepo.find", 55),
                          ("var/www/src/Service/UserService.php", "App.Service.UserService.load", 34),
                          ("var/www/public/index.php", "", 12))


def test_a_php_internal_function_frame_keeps_the_pairing() -> None:
    """``#1 [internal function]: f()``: the runtime called ``f`` (a callback), which ran where
    the frame before called it; the next frame's function was called from the runtime, in
    no file. Skipped, it shifted every pairing below it: guzzle's progress closure at
    ``StreamHandler.php:520`` was read as ``fread`` there (a newcomer). A closure has no
    name of its own: its line says which function holds it."""
    trace = (
        "PHP Fatal error:  Uncaught TypeError: {closure}(): Argument #3 must be of type int, null given,"
        " called in /app/src/Handler/Stream.php on line 520 and defined in /app/run.php:9\n"
        "Stack trace:\n"
        "#0 /app/src/Handler/Stream.php(520): {closure}(10, 8, NULL, NULL)\n"
        "#1 [internal function]: App\\Handler\\Stream::App\\Handler\\{closure}(7, 0, NULL, 0)\n"
        "#2 /app/src/Handler/Stream.php(213): fread(Resource id #21, 8192)\n"
        "#3 /app/src/Handler/Stream.php(131): App\\Handler\\Stream->drain(Object(Stream))\n"
        "#4 {main}\n")
    assert frames.read(trace) == [
        ("/app/src/Handler/Stream.php", "", 520), ("/app/src/Handler/Stream.php", "", 520),
        ("/app/src/Handler/Stream.php", "App.Handler.Stream.drain", 213),
        ("/app/src/Handler/Stream.php", "", 131)]


def test_native_frames_of_gdb_asan_and_valgrind_innermost_first() -> None:
    """A C program's crash as gdb, AddressSanitizer and valgrind print it: each frame's
    function and file (gdb's often bare, as compiled: a path of its own for native code),
    glibc's and the sanitizer's own frames left out. hiredis's gdb backtrace was read as
    prose: its crashing ``createStringObject`` ranked 6th (a newcomer)."""
    gdb = shape.analyze(
        "Program received signal SIGSEGV, Segmentation fault.\n"
        "(gdb) bt\n"
        "#0  0x00007ffff7e3c9d5 in __memmove_avx_unaligned_erms () from /lib/x86_64-linux-gnu/libc.so.6\n"
        '#1  0x000055555555c8a1 in createStringObject (task=0x5555555a32c0, str=0x55 "txt:", len=18) at hiredis.c:147\n'
        "#2  0x0000555555561f3c in processBulkItem (r=0x5555555a3010) at read.c:501\n"
        "#3  0x00007ffff7c42476 in __GI_raise (sig=sig@entry=6) at ../sysdeps/posix/raise.c:26\n"
        "#4  main (argc=1, argv=0x7fffffffe0b8) at examples/example.c:12\n")
    assert gdb.shape is Shape.TRACE
    assert gdb.frames == (("hiredis.c", "createStringObject", 147), ("read.c", "processBulkItem", 501),
                          ("examples/example.c", "main", 12))
    assert gdb.paths[:3] == ("hiredis.c", "read.c", "examples/example.c")
    # without the prompt line: gdb pads frame numbers 0-9 with two spaces (a review)
    bare = shape.analyze(gdb.text.replace("(gdb) bt\n", ""))
    assert (bare.shape, bare.frames) == (Shape.TRACE, gdb.frames)
    # a numbered list of changes is no backtrace
    assert shape.analyze("#4512 Refactor (parser)\n#4513 Fix crash (reader)\n#4514 Docs (readme)\n"
                         "#4515 Bump (deps)\n").shape is not Shape.TRACE
    asan = shape.analyze(
        "==1234==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011\n"
        "READ of size 18 at 0x602000000011 thread T0\n"
        "    #0 0x4c5e1a in __asan_memcpy (/app/test+0x4c5e1a)\n"
        "    #1 0x4f6a2b in createStringObject /src/hiredis/hiredis.c:147:9\n"
        "    #2 0x4f9c3d in redis::Reader::feed(char const*, unsigned long) /src/hiredis/reader.cc:501:17\n")
    assert asan.shape is Shape.TRACE
    assert asan.frames == (("src/hiredis/hiredis.c", "createStringObject", 147),
                           ("src/hiredis/reader.cc", "redis.Reader.feed", 501))
    valgrind = shape.analyze(
        "==12== Invalid read of size 1\n"
        "==12==    at 0x4C2E: createStringObject (hiredis.c:147)\n"
        "==12==    by 0x4C3F: processItem (src/read.c:723)\n"
        "==12==    by 0x4C40: main (example.c:12)\n")
    assert valgrind.shape is Shape.TRACE
    assert valgrind.frames == (("hiredis.c", "createStringObject", 147), ("src/read.c", "processItem", 723),
                               ("example.c", "main", 12))
    # a bare file name printed in prose is still no path: any directory may hold one
    assert shape.analyze("the bug is in read.c somewhere, see createStringObject").paths == ()


def test_a_python_trace_alone_with_carets_and_a_chain_is_a_trace() -> None:
    """Python 3.11 prints ``^^^^`` under a frame's source line; a chained traceback adds a
    header and a separator; the last line names what was raised whatever its name
    (``click.exceptions.BadParameter``): none of them made a trace alone an issue."""
    frame = ('  File "/srv/venv/lib/python3.11/site-packages/click/core.py", line {0}, in f{0}\n'
             '    return self.f{0}(value)\n'
             '           ^^^^^^^^^^^^^^^^\n')
    trace = ("Traceback (most recent call last):\n" + frame.format(1) +
             "FileNotFoundError: [Errno 2] No such file or directory: 'a.toml'\n\n"
             "During handling of the above exception, another exception occurred:\n\n"
             "Traceback (most recent call last):\n" + "".join(frame.format(i) for i in range(2, 8)) +
             "click.exceptions.BadParameter: File 'a.toml' does not exist.\n")
    assert shape.analyze(trace).shape is Shape.TRACE
    assert shape.analyze("Title\nSome prose about it.\n" + trace).shape is Shape.TRACE
    assert shape.analyze("A title\nA paragraph of prose explaining what happened, and why it matters"
                         " to us.\nAnother line of prose.\nAnd a third one.\n" + frame.format(9)).shape is Shape.ISSUE


def test_a_js_template_literal_is_a_message_template() -> None:
    """hono: ``throw new Error(`Path ${path} is not registered`)`` printed ``Path /users/:id
    is not registered``; its thrower was below 200 hits."""
    source = "if (!data) {\n  throw new Error(`Path ${path} is not registered`)\n}"
    assert shape.template_words(source, "Path /users/:id is not registered") == 3
    assert shape.template_words(source, "Path /users/:id is registered") == 0


@pytest.mark.parametrize(("source", "message", "words"), [
    # between two literals, after the last, before the first; Java's call on a value
    ('panic("wildcard route \'" + wildcard + "\' conflicts with path \'" + fullPath + "\'")',
     "wildcard route ':id' conflicts with path '/user/:id'", 4),
    ("throw new AxiosError(`no suitable adapter for the request ` + s, code)",
     "no suitable adapter for the request since : xhr", 6),
    ('throw new Error(name + " is not a registered route");', "users is not a registered route", 5),
    ('  return name + " is not a registered route"', "users is not a registered route", 5),
    ('  returned + " is not a registered route"', "users is not a registered route", 0),  # no keyword
    ('throw new IllegalStateException("Cannot parse the header " + h.name() + " of " + req);',
     "Cannot parse the header Accept of GET /", 5),
    # over lines, the plus at a line's end or at the next one's start (gin's addRoute)
    ('panic("\'" + pathSeg +\n\t"\' in new path \'" + fullPath +\n\t"\' conflicts with existing wildcard \'"'
     ' + n.path +\n\t"\' in existing prefix \'" + prefix +\n\t"\'")',
     "':name' in new path '/user/:name' conflicts with existing wildcard ':id' in existing prefix '/user/:id'", 7),
    ('throw new IllegalStateException("Cannot parse the header "\n    + h.name()\n    + " of the request");',
     "Cannot parse the header Accept of the request", 7),
    # literals joined to literals only, or a value joined by no plus: no template
    ('msg = "handlers are already " + "registered for path"', "handlers are already registered for path x", 0),
    ('panic("handlers are already registered for path", fullPath)', "handlers are already registered for path x", 0),
    # a value joined to a literal of too few words
    ('raise KeyError(name + " missing")', "users missing", 0),
])
def test_a_value_joined_with_plus_makes_a_template(source: str, message: str, words: int) -> None:
    """``"..." + value + "..."`` prints as a template with a placeholder where the value is
    joined (``shape._joined``)."""
    assert shape.template_words(source, message) == words


def test_joining_values_is_linear_in_the_source() -> None:
    """Possessive patterns: a long run of joins that never closes costs one pass."""
    for source in ('"a" + ' * 20000, '"ab" + f(' * 20000, '= a.b.c.d' * 20000 + '+ "'):
        assert shape.template_words(source, "a b c d e f") == 0


def test_a_programs_error_prefix_is_neither_message_nor_terms() -> None:
    """jq prints ``jq: error (at <stdin>:0): `` before every message: its words drew the
    ``jq_exit`` macro first."""
    asked = shape.analyze("jq: error (at <stdin>:0): Cannot use number (1) as object key")
    assert asked.sentence == "Cannot use number (1) as object key"
    assert {t for t, _ in asked.terms} & {"jq", "stdin", "error"} == set()
    assert asked.dense_text == asked.sentence
    # without a prefix the text is read as written
    plain = shape.analyze("Cannot use number (1) as object key")
    assert plain.terms == asked.terms and plain.dense_text == plain.text


def test_a_node_deprecations_namespace_and_caller_are_neither_message_nor_terms() -> None:
    """``depd`` prints ``express deprecated <message> routes/auth.js:42:9``: the namespace
    and the caller's file drew express's changelog sections before ``res.redirect``'s
    ``deprecate('Url must be a string')``."""
    asked = shape.analyze("express deprecated Url must be a string routes/auth.js:42:9")
    assert asked.sentence == "Url must be a string"
    assert {t for t, _ in asked.terms} == {"url", "must", "string"}
    at = shape.analyze("body-parser deprecated undefined extended: provide extended option at index.js:3:9")
    assert at.sentence == "undefined extended: provide extended option"
    for line in ("Wed, 02 Dec 2026 14:00:00 GMT express deprecated Url must be a string at routes/auth.js:42:9",
                 "express deprecated Url must be a string C:\\Users\\me\\auth.js:42:9",
                 "express deprecated Url must be a string bin/www:42:9",
                 "express deprecated Url must be a string <anonymous>:1:1"):
        assert shape.analyze(line).sentence == "Url must be a string", line
    # without the caller's location it is no deprecation line
    assert shape.analyze("express deprecated methods list").sentence == "express deprecated methods list"


def test_an_error_lines_exception_module_is_no_term() -> None:
    """``jinja2.exceptions.TemplateAssertionError: ...``: the module names where the
    exception is defined, not where it is raised (it drew the exception class and the
    package's ``__init__`` first); the exception's own name and the message stay."""
    terms = dict(shape.analyze("jinja2.exceptions.TemplateAssertionError: No filter named 'datetimeformat'.").terms)
    assert "jinja2" not in terms and "exceptions" not in terms
    assert {"templateassertionerror", "filter", "named", "datetimeformat"} <= set(terms)
    issue = ("Error pretty printing\n```\nTraceback (most recent call last):\n  File \"a.py\", line 1, in f\n"
             "sympy.core.sympify.SympifyError: could not parse\n```\n")
    assert "sympifyerror" in dict(shape.analyze(issue).terms)
    assert "core" not in dict(shape.analyze(issue).terms)


@pytest.mark.parametrize(("line", "refused"), [
    ("TypeError: RST.__init__() got an unexpected keyword argument 'header_rows'", ("RST.__init__",)),
    ("TypeError: f() missing 1 required positional argument: 'x'", ("f",)),
    ("TypeError: Foo.bar() takes 2 positional arguments but 3 were given", ("Foo.bar",)),
    ("TypeError: g() got multiple values for argument 'y'", ("g",)),
    ("TypeError: h() takes no keyword arguments", ("h",)),
    ("TypeError: Jinja2Templates.__init__() takes from 1 to 2 positional arguments but 3 were given",
     ("Jinja2Templates.__init__",)),
    ("TypeError: len() takes exactly one argument (2 given)", ("len",)),
    ("TypeError: C.url_for() got some positional-only arguments passed as keyword arguments: 'name'",
     ("C.url_for",)),
    ("ValueError: invalid literal for int() with base 10: 'x'", ()),  # int() refused a value
])
def test_a_callable_refusing_a_calls_arguments_is_read(line: str, refused: tuple[str, ...]) -> None:
    issue = f"Calling it fails\nIt fails whenever it is called from the report.\n\n{line}\n"
    assert shape.analyze(issue).refused == refused
    assert shape.analyze("how do I parse a date").refused == ()


def test_a_traces_exception_classes_are_read() -> None:
    assert shape.analyze("jinja2.exceptions.TemplateSyntaxError: unexpected ')'").raised == ("TemplateSyntaxError",)
    assert shape.analyze("panic: runtime error: index out of range").raised == ()
    assert shape.analyze("TemplateSyntaxError: where is this exception class defined?").raised == ()
    # a module-qualified name without an exception's suffix, followed by a message
    redirects = shape.analyze("requests.exceptions.TooManyRedirects: Exceeded 30 redirects.")
    assert (redirects.shape, redirects.raised) == (shape.Shape.TRACE, ("TooManyRedirects",))
    assert "TooManyRedirects" not in redirects.names  # no definition to pin either
    for prose in ("e.g. Flask: how do I register a blueprint", "how do I use flask.Flask: the app object"):
        assert shape.analyze(prose).shape is shape.Shape.TEXT, prose
    issue = "Lexer fails\nThe lexer fails on brackets in every template we tried.\n\nTemplateSyntaxError: unexpected ')'\n"
    assert shape.analyze(issue).raised == ()  # an issue may be about the class itself


@pytest.mark.parametrize("text", [
    "Fix rendering of annotated inherited members for Python 3.9.",
    "autodoc: Use an overriden ``__repr__()`` function in an enum, if defined.",
    "linkcheck: added a distinct ``timeout`` reporting status code.",
    "[pylint] Drop support for Python 3.7",
    ", Add a :rst:dir:`py:type` directive for documenting type aliases.",
    "Latex printer does not support full inverse trig function names for acsc and asec",
    "pytest should no longer crash on AST with pathological position attributes.",
    "The manpage builder now adds anchors to hyperlinks.",
    "Don't warn when a potential ambiguity is detected during resolution.",
    "Deprecate `isolated_filesystem` and document its limits",
    "fix profiler example import",                   # a commit subject, lower case
    "fixed parsing error in FileStorage.content_length",
])
def test_a_text_describing_a_change_or_a_fault_describes(text: str) -> None:
    asked = shape.analyze(text)
    assert asked.shape is Shape.TEXT
    assert asked.describes and shape.describes(text)


@pytest.mark.parametrize("text", [
    "how does cobra pick the command to run from os.Args",
    "where are blueprints registered on the app",
    "Where is the session cookie signed?",
    "Fix the crash when the cache is full?",         # it asks
    "implementation of the flask run command",
    "find the application object from FLASK_APP import string",
    "Explain how a failed request is retried.",
    "remove zeros from a list in python",            # a search box's request, not a sentence
    "fixtures for the database session",             # no repair word: a request
    "fix the crash when the cache is full?",         # it asks
    "python check if object has attribute and if it is not none",
    "tests for mutually exclusive and required-together flag groups",
    "documentation explaining how a program adds Active Help messages",
    "Error: unknown command \"sevre\" for \"myapp\"",
    "JSON decoding",
    "Sum of the elements of an identity matrix",
    "Session cookie signing",
    # a newcomer's searches: docstring words, nouns, relative clauses, messages
    "Returns the default value of an option",
    "Raises an exception when the response status is an error",
    "Use of the trust_env setting",
    "Support for HTTP/2 in the client",
    "Code that should run when the application shuts down",
    "Options that are not shown in the help page",
    "Now, which function parses the command line arguments",
    "No such command",
    "",
])
def test_a_question_or_a_request_does_not_describe(text: str) -> None:
    assert not shape.describes(text)


def test_only_a_short_text_describes() -> None:
    issue = "Fix the decoder\n\nIt does not accept a trailing comma:\n\n    json.loads('[1,]')\n"
    assert shape.analyze(issue).shape is Shape.ISSUE and not shape.analyze(issue).describes
    assert not shape.analyze("parse_qsl").describes  # identifiers


@pytest.mark.parametrize("text", [
    "how does the lexer detect unbalanced brackets, e.g. a missing parenthesis",
    "where are options parsed (i.e. the command line)",
    "how are cookies quoted, cf. the RFC",
])
def test_latin_abbreviations_are_prose_not_names(text: str) -> None:
    asked = shape.analyze(text)
    assert asked.evidence == () and asked.symbols == ()
    terms = {t for t, _ in asked.terms}
    assert not terms & {"e", "g", "i", "cf", "e.g", "i.e"}
    assert {"brackets", "options", "cookies"} & terms


def test_a_name_holding_an_abbreviation_stays_a_name() -> None:
    assert shape.analyze("etc_dir setting").evidence == ("etc_dir",)
    assert "etc" in {t for t, _ in shape.analyze("where is cfg.etc read").terms}


@pytest.mark.parametrize(("text", "callers"), [
    ("what calls `merge_environment_settings`", ("merge_environment_settings",)),
    ("who calls Session.send()", ("Session.send",)),
    ("which functions call `Map.bind`", ("Map.bind",)),
    ("callers of the function url_for", ("url_for",)),
    ("find the call sites of render_template", ("render_template",)),
    ("where is render_template called", ("render_template",)),
    ("where does parse_expr get used", ("parse_expr",)),
    ("what uses `Cache::get`", ("Cache.get",)),
    # a question asking for tests asks for its first symbol's callers among the tests
    ("where are the tests for the ProxyFix middleware", ("ProxyFix",)),
    ("how is Map.bind_to_environ tested", ("Map.bind_to_environ",)),
    ("tests for decoding invalid JSON", ()),
    ("Fixed a crash in Session.send in the test suites", ()),  # asks for no role
    ("fix flaky test in `Session.request`", ()),  # describes a change: no tests asked
    ("which of these functions call `parse_url`", ("parse_url",)),
    ("which one to use `json.dumps` or `simplejson.dumps`?", ()),  # a choice, no callers
    # a plain word last in the question names a function by that name, if any is defined
    ("what calls settle", ("settle",)),
    ("where is settle called?", ("settle",)),
    ("what uses the cache", ("cache",)),
    # an exception's raise sites are its callers (its constructions)
    ("where does requests raise MissingSchema", ("MissingSchema",)),
    ("where is TooManyRedirects raised and how many redirects are followed", ("TooManyRedirects",)),
    ("what raises `ConnectTimeout`", ("ConnectTimeout",)),
    ("which function throws InvalidURL", ("InvalidURL",)),
    ("when is CookieConflictError raised", ("CookieConflictError",)),
    ("where is the error raised when the url has no scheme", ()),
    ("where does flask raise an error when the app is not found", ()),
    # the functions a decorator registers, not the decorator's uses
    ("where are after_request functions called and the session saved", ()),
    ("where are teardown_request callbacks invoked", ()),
    # ... a singular names the function itself (a review)
    ("where is the url_for function called", ("url_for",)),
    ("where is the teardown_request handler used", ("teardown_request",)),
    # not a callers question, or no symbol named
    ("how is merge_environment_settings used", ()),
    ("where is the session created", ()),
    ("what calls the server when a request times out", ()),  # a plain word not last
    ("what calls this", ()),  # a stop word
    ("who calls it", ()),
])
def test_a_question_asking_for_callers_names_its_symbol(text: str, callers: tuple[str, ...]) -> None:
    asked = shape.analyze(text)
    assert asked.callers == callers
    assert all(c in asked.symbols or c.islower() for c in asked.callers)


def test_only_a_short_text_asks_for_callers() -> None:
    issue = "what calls `merge_environment_settings`\n\n" + "The proxies are lost. " * 80
    assert shape.analyze(issue).shape is not shape.Shape.TEXT
    assert shape.analyze(issue).callers == ()


def test_a_message_split_over_prefixed_literals_is_held_verbatim() -> None:
    # requests' _validate_header_part: an f-string continued by another f-string
    source = ('raise InvalidHeader(\n'
              '    f"Invalid leading whitespace, reserved character(s), or return "\n'
              '    f"character(s) in header {header_kind}: {header_part!r}"\n)')
    message = "Invalid leading whitespace, reserved character(s), or return character(s) in header"
    assert shape.sentence_patterns(message)[0].search(source)
    # the words in another order, or another word between them, are not held
    assert shape.sentence_patterns("or character return")[0].search(source) is None
    assert shape.sentence_patterns("return reserved character")[0].search(source) is None


@pytest.mark.parametrize(("text", "shape_", "sentence"), [
    # an error line pasted alone is a trace however long, its message up to the value
    ("ValueError: No mandatory attributes allowed after an attribute with a default value or factory.  "
     "Attribute in question: Attribute(name='y', default=NOTHING, validator=None, repr=True, eq=True, "
     "eq_key=None, order=True, order_key=None, hash=None, init=True)", Shape.TRACE,
     "No mandatory attributes allowed after an attribute with a default value or factory.  Attribute in question:"),
    # a value without spaces: cut before it; no sentence-length message: none
    ("ValueError: Could not decode the response body: {" + ",".join(f'"key{i}":{i}' for i in range(100)) + "}",
     Shape.TRACE, "Could not decode the response body:"),
    ("ValueError: bad value for the field of the form: '" + "a'" * 900, Shape.TRACE,
     "bad value for the field of the form:"),
    ("ValueError: " + "the value was not accepted by the parser " * 6, Shape.TRACE, ""),
    # a contraction is no value: the message is cut at the repr after it
    ("ValueError: The loader doesn't accept a section without a name and the file you passed holds "
     "one, so it stops: Section(name=None, keys=3, values=[1, 2, 3], order=None, source='setup.cfg', "
     "line=12, column=4)", Shape.TRACE,
     "The loader doesn't accept a section without a name and the file you passed holds one, so it stops:"),
    # prose about an exception is an issue, not an error line
    ("TypeError when passing a dict subclass to json: the provider checks type(obj) is dict and "
     "fails later on when the subclass is serialized by the default function of the provider, "
     "which was never meant to see one", Shape.ISSUE, ""),
    ("Error handling in async views swallows the original exception: the handler sees only a "
     "RuntimeError raised by the event loop when the view is cancelled by the client before the "
     "response is sent to it at all", Shape.ISSUE, ""),
])
def test_a_long_error_line_alone(text: str, shape_: Shape, sentence: str) -> None:
    assert len(text) > shape.ISSUE_MIN_CHARS
    asked = shape.analyze(text)
    assert (asked.shape, asked.sentence) == (shape_, sentence)


def _template_regex(words: list[list[str]]) -> re.Pattern[str]:
    """The one regular expression a template stood for before ``shape.Printed`` (the
    reference: exact, and exponential on a crafted message)."""
    parts = [r"\W+".join(map(re.escape, w)) for w in words]
    body = (r"\W*.{1,120}?\W*").join(parts)
    return re.compile(r"(?<!\w)" + body + (r"(?!\w)" if parts[-1] else ""), re.IGNORECASE)


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    words=hypothesis.strategies.lists(hypothesis.strategies.lists(
        hypothesis.strategies.sampled_from(["a", "b", "not", "valid"]), max_size=2), min_size=2, max_size=4),
    message=hypothesis.strategies.text(alphabet="ab not valid'.:\n", max_size=40))
def test_a_printed_template_matches_as_its_regular_expression(words: list[list[str]], message: str) -> None:
    """``Printed.search`` answers as the template's regular expression on short messages
    (where backtracking is cheap), without its exponential cost on long ones."""
    if not any(words) or any(not w for w in words[1:-1]):
        return  # adjacent placeholders are read as one value (``Printed``), not compared
    assert shape.Printed(words).search(message) == bool(_template_regex(words).search(message)), (words, message)


def test_a_printed_template_reads_a_long_message_in_time_linear_in_it() -> None:
    # a four-placeholder template against 5,000 characters of its pieces' word: answered
    # (the regular expression backtracked for minutes at a few hundred characters)
    printed = shape.Printed([[], ["a"], ["a"], ["a"], ["b"]])
    assert not printed.search("b w w " + "a." * 2500)
    assert printed.search("x a " + "a." * 50 + " a y a z b")


@pytest.mark.parametrize(("text", "evidence"), [
    # a pasted message's quoted parts are the values it printed: no evidence
    ("wildcards must be named with a non-empty name in path '/user/:'", ()),
    ("handlers are already registered for path '/ping'", ()),
    # a quoted name in a message is the code's: it stays
    ("Invalid value for '--count': 'abc' is not a valid integer", ("--count", "abc")),
    ("missing environment variable 'DATABASE_URL' for the worker", ("DATABASE_URL",)),
    ("template 'index.html' not found in 'templates/site'", ("index.html",)),
    # a question's quoted text is what the code holds; an error line keeps its key
    ("where is 'X-Forwarded-For' read", ("X-Forwarded-For",)),
    ("KeyError: 'SECRET_KEY'", ("SECRET_KEY", "KeyError")),
    # a code span's printed value likewise (axum's route in a panic), its type name stays
    ("Overlapping method route. Handler for `GET /users` already exists", ()),
    ("error: `Json<_>` consumes the request body and thus must be the last argument", ("Json",)),
])
def test_a_messages_printed_values_are_no_evidence(text: str, evidence: tuple[str, ...]) -> None:
    """gin's ``'/user/:'`` drew ``auth.go`` (``AuthUserKey = "user"``) as evidence, and
    located it first, for a route tree's panic (a newcomer)."""
    assert shape.analyze(text).evidence == evidence


@pytest.mark.parametrize(("text", "expected"), [
    ("thread 'main' panicked at src/de.rs:12:9:\nexplicit panic", [("src/de.rs", 12)]),
    ("thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', src/main.rs:2:37",
     [("src/main.rs", 2)]),
    # a message up to 1,000 characters, quotes and commas in it
    ("thread 'main' panicked at 'bad: ', ', x " + "m" * 900 + "', src/lib.rs:7:1", [("src/lib.rs", 7)]),
    # repeated openings with no end: none, in one pass (5.6 s at 200,000 characters before)
    ("title\n" + "panicked at '" * 2000, []),
])
def test_rust_panic_lines_are_read_with_a_bounded_message(text: str, expected: list[tuple[str, int]]) -> None:
    assert [(f.path, f.line) for f in frames.read(text)] == expected


def test_a_path_deeper_than_any_indexed_one_finds_its_suffix() -> None:
    """``PathSuffixes.find`` tries suffixes only as deep as the deepest indexed path (a
    pasted path of 90,000 components built every suffix: 28 s)."""
    index = anchors.PathSuffixes(["src/flask/app.py", "a/b/c/d.py"])
    assert index.find("x/" * 5000 + "src/flask/app.py") == "src/flask/app.py"
    assert index.find("/home/u/a/b/c/d.py") == "a/b/c/d.py"
    assert index.find("a/" * 5000 + "x.py") == ""
    assert anchors.PathSuffixes([]).find("src/app.py") == ""


@pytest.mark.parametrize(("text", "sentence"), [
    # code spans in a text of several sentences, or after a compiler's severity: a message
    ("Overlapping method route. Handler for `GET /users` already exists",
     "Overlapping method route. Handler for `GET /users` already exists"),
    ("error: `Json<_>` consumes the request body and thus must be the last argument",
     "`Json<_>` consumes the request body and thus must be the last argument"),
    ("error[E0277]: the trait bound `fn() {handler}: Handler<_, _>` is not satisfied",
     "the trait bound `fn() {handler}: Handler<_, _>` is not satisfied"),
    # one sentence with a code span is a question or a title, as before
    ("how does `Router::nest` strip the prefix", ""),
    ("Fix duplicated methods in the `Allow` header after merging", ""),
    ("the `Allow` header lists a method twice after merging routers", ""),
])
def test_code_spans_in_a_message(text: str, sentence: str) -> None:
    """axum's panics quote with code spans; they were read as questions and their
    ``format!`` templates never looked for (a newcomer's ``Overlapping method route``)."""
    asked = shape.analyze(text)
    assert (asked.shape, asked.sentence) == (Shape.TEXT, sentence)


def test_a_literal_continued_over_lines_is_a_template() -> None:
    """Rust's ``\\`` at a line's end continues a string literal (axum-macros' message)."""
    source = ('let error = format!(\n    "`{type_name}` consumes the request body and thus must be \\\n'
              '     the last argument to the handler function"\n);')
    message = "`Json<_>` consumes the request body and thus must be the last argument to the handler function"
    assert shape.template_words(source, message) == 15


def test_a_kotlin_frame_of_a_quoted_class_name_is_read() -> None:
    """moshi's reader class is `-JsonUtf8Reader`: its frames were skipped, and locate ranked
    the file 4th for a trace whose innermost frame it is."""
    text = ("com.squareup.moshi.JsonDataException: Expected BEGIN_OBJECT but was STRING at path $.user\n"
            "\tat com.squareup.moshi.-JsonUtf8Reader.beginObject(-JsonUtf8Reader.kt:108)\n"
            "\tat com.squareup.moshi.internal.NullSafeJsonAdapter.fromJson(NullSafeJsonAdapter.kt:27)\n")
    assert [(f.path, f.function, f.line) for f in frames.read(text)] == [
        ("com/squareup/moshi/-JsonUtf8Reader.kt", "com.squareup.moshi.-JsonUtf8Reader.beginObject", 108),
        ("com/squareup/moshi/internal/NullSafeJsonAdapter.kt", "com.squareup.moshi.internal.NullSafeJsonAdapter.fromJson",
         27)]


@pytest.mark.parametrize(("source", "message", "words"), [
    # Kotlin's $name: moshi's ClassJsonAdapter prefixes "Platform $rawType" in a builder
    ('throw IllegalArgumentException(\n  "$messagePrefix requires explicit JsonAdapter to be registered"\n)\n',
     "Platform class java.util.Date requires explicit JsonAdapter to be registered", 6),
    ('throw JsonDataException("Nesting too deep at $path: circular reference?")\n',
     "Nesting too deep at $.child.child.child.child: circular reference?", 5),
    # Swift's \(x), a call inside it too
    ('return "Request retry failed with retry error: \\(retryError.localizedDescription), original"\n',
     "Request retry failed with retry error: The request timed out., original", 7),
    ('fatalError("Unexpected \\(String(describing: value)) in the response body")\n',
     "Unexpected Optional(42) in the response body", 4),
    # PHP's "$name" in a double-quoted string
    ('throw new \\InvalidArgumentException("Invalid option $name passed to the handler");\n',
     "Invalid option verify_peer passed to the handler", 6),
])
def test_kotlin_swift_and_php_interpolations_make_templates(source: str, message: str, words: int) -> None:
    """moshi's "Nesting too deep at $path: circular reference?" was third for its message,
    and a message built by "$messagePrefix requires ..." was not on the first page."""
    assert shape.template_words(source, message) == words
    assert shape.template_words(source, "An unrelated message about something else entirely") == 0


@pytest.mark.parametrize(("text", "sentence"), [
    # a value the message printed, then a colon: the question mark is the message's
    ("Nesting too deep at $.child.child.child.child: circular reference?",
     "Nesting too deep at $.child.child.child.child: circular reference?"),
    ("Expected a list at path /items/0: got a string?", "Expected a list at path /items/0: got a string?"),
    # a question stays a question
    ("how do I handle flask.app: errors?", ""),
    ("where is the config read?", ""),
    ("circular reference at the child: why?", ""),
])
def test_a_message_printing_a_value_before_a_colon_may_end_with_a_question_mark(text: str, sentence: str) -> None:
    """moshi's "Nesting too deep at $path: circular reference?" was read as a question: its
    thrower, JsonWriter.checkStack, was fourth for the message pasted."""
    assert shape.analyze(text).sentence == sentence


@pytest.mark.parametrize("text", [
    "Step 1: what should happen when the token expires?",
    "Python 3.11: is asyncio.run deprecated?",
    "config.yaml: where do I set the port?",
    "app/main.py: why is the router empty?",
    "v2.0: does the client retry on 503?",
])
def test_a_question_after_a_value_and_a_colon_stays_a_question(text: str) -> None:
    """A review: each was read as a message once a value before a colon could make one."""
    assert shape.analyze(text).sentence == ""


@pytest.mark.parametrize(("text", "expected"), [
    ("$ZodObject", Shape.IDENTIFIER), ("core.$constructor", Shape.IDENTIFIER),
    ("$1", Shape.TEXT),  # a positional parameter, no name (a review)
])
def test_a_dollar_starts_an_identifier_only_before_a_letter(text: str, expected: Shape) -> None:
    assert shape.analyze(text).shape is expected


def test_a_lower_case_repair_is_a_description_and_asks_for_no_example() -> None:
    # werkzeug's "fix profiler example import" fixed the example in profiler.py's
    # docstring: every located file was an example while it read as a request for one.
    assert shape.analyze("fix profiler example import").roles == frozenset()
    assert shape.analyze("profiler example import").roles == frozenset({"example"})
    assert shape.analyze("fix profiler example import").describes
    assert not shape.analyze("profiler example import").describes


@pytest.mark.parametrize(("text", "read"), [
    # a code host's link to a file: the file's path
    ("see https://github.com/pallets/flask/blob/main/src/flask/app.py#L120 there",
     "see src/flask/app.py there"),
    ("at https://gitlab.com/o/r/-/blob/v1.2/lib/x.rb.", "at lib/x.rb."),
    # a code host's docs page: its name's and its anchor's words (gson's messages link them)
    ("See https://github.com/google/gson/blob/main/Troubleshooting.md#duplicate-fields",
     "See Troubleshooting duplicate fields"),
    # any other code host link (an issue, a pull request, a commit): nothing
    ("Fixed `url_for` (https://github.com/pallets/flask/pull/2017).", "Fixed `url_for` ()."),
    # a link ending in a file of code (a browser trace's frame): its path, no host
    ("at foo (http://localhost:3000/static/js/main.js:12:34)", "at foo (static/js/main.js:12:34)"),
    # another link: its last segment's words, page suffix dropped, and its fragment
    ("read https://docs.python.org/3/library/functools.html#functools.lru_cache first",
     "read functools functools.lru_cache first"),
    ("as www.stackoverflow.com/questions/123/how-to-save-a-figure says", "as how to save a figure says"),
    ("no link here: example.com or a.b", "no link here: example.com or a.b"),
])
def test_a_link_is_read_for_what_it_says_of_the_code(text: str, read: str) -> None:
    assert shape._delinked(text) == read


def test_a_links_host_is_no_code_name_and_a_linked_file_is_a_path() -> None:
    issue = ("Default host is wrong\nThe default in https://github.com/pallets/flask/blob/main/src/flask/app.py#L120"
             " differs from https://stackoverflow.com/questions/1/why-flask-default-host\n\nmore text")
    asked = shape.analyze(issue)
    assert asked.shape is Shape.ISSUE
    assert asked.paths == ("src/flask/app.py",)
    terms = {t for t, _ in asked.terms}
    assert {"github", "com", "https", "stackoverflow", "www", "pallets", "blob"}.isdisjoint(terms)
    assert {"default", "host", "flask", "app"} <= terms
    assert not {"github", "com", "stackoverflow"} & set(asked.names)
    # a browser trace's frames keep their files' paths, without the dev server's host
    trace = shape.analyze("TypeError: x is undefined\n    at foo (http://localhost:3000/static/js/main.js:12:34)")
    assert [(f.path, f.function, f.line) for f in trace.frames] == [("static/js/main.js", "foo", 12)]
    # a query that is one link asks for it verbatim
    assert shape.analyze("https://example.com/api/v1").text == "https://example.com/api/v1"
    with pytest.MonkeyPatch.context() as m:  # before: the hosts were code names
        m.setattr(shape, "DELINK", False)
        assert {"github", "stackoverflow"} <= {t for t, _ in shape.analyze(issue).terms}


def test_links_are_read_in_time_linear_in_the_text() -> None:
    import time
    text = "title\n" + "https://a" + "/a" * 100_000 + " " + "http://x.y/" * 20_000
    started = time.perf_counter()
    shape.analyze(text)
    assert time.perf_counter() - started < 5


REPORTED = '''caplog.get_records and caplog.clear conflict
`caplog.get_records()` gets decoupled from actual caplog records when `caplog.clear()` is called.

```
============================= test session starts ==============================
platform linux -- Python 3.8.10, pytest-7.1.2, pluggy-1.0.0
rootdir: /home/user/proj, configfile: pyproject.toml
plugins: cov-3.0.0, xdist-2.5.0
collected 1 item
```

```
attrs      21.4.0
iniconfig  1.1.1
numpy==1.21.0
scipy: 1.7.1
python: 3.8.5 (default, Sep  4 2020, 07:30:14)  [GCC 7.3.0]
* Matplotlib version: 3.5.1
```
'''


def test_an_environment_report_in_an_issue_is_no_code() -> None:
    """A test runner's session header and package version lines (``_REPORT``) are
    dropped from a long query: their words (``session``, ``platform``, ``rootdir``,
    ``plugins``, ``pyproject``, package names) were code terms and names to look up."""
    asked = shape.analyze(REPORTED)
    terms = {t for t, _ in asked.terms}
    assert {"caplog", "get_records", "clear", "records", "conflict"} <= terms
    noise = {"session", "platform", "rootdir", "plugins", "pyproject", "toml", "pluggy", "xdist",
             "attrs", "iniconfig", "numpy", "scipy", "matplotlib", "gcc", "linux"}
    assert noise.isdisjoint(terms)
    assert noise.isdisjoint(n.lower() for n in asked.names)
    assert asked.paths == ()
    with pytest.MonkeyPatch.context() as m:  # before: the report was code
        m.setattr(shape, "DROP_REPORTS", False)
        before = shape.analyze(REPORTED)
        assert {"session", "rootdir", "pyproject", "numpy"} <= {t for t, _ in before.terms}


@pytest.mark.parametrize("line", [
    "x = compute(1.5)", "assert version == 2.0", "Expected 3.0 but got 2.5", "numpy.array([1.0, 2.0])",
    "def parse_version(v): return v", "result: 1.5 seconds too slow, see parser.py",
])
def test_code_and_sentences_with_numbers_are_no_report_lines(line: str) -> None:
    assert not shape._REPORT.fullmatch(line)


FENCED_TRACE = """\
validate.Email raises TypeError for bytes values

Loading a contact with a bytes email fails inside the validator:

```
Traceback (most recent call last):
  File "app/contacts.py", line 30, in import_row
    ContactSchema().load(legacy)
  File ".../marshmallow/schema.py", line 722, in load
    return self._do_load(
  File ".../marshmallow/schema.py", line 861, in _do_load
    result = self._deserialize(
  File ".../marshmallow/fields.py", line 372, in deserialize
    self._validate(output)
  File ".../marshmallow/validate.py", line 78, in __call__
    r = validator(value)
  File ".../marshmallow/validate.py", line 261, in __call__
    if not value or "@" not in value:
TypeError: a bytes-like object is required, not 'str'
```
"""


def test_an_issues_outer_frames_weigh_less_than_its_innermost() -> None:
    """A fenced traceback's text weighed as code, every frame alike: five pass-through
    frames of marshmallow's ``schema.py`` put it above the ``validate.py`` that raised (a
    newcomer). The innermost ``INNER_FRAMES`` keep ``WEIGHT_FRAME``; the outer frames' names
    weigh ``OUTER_FRAME_WEIGHT`` and their source lines are not read as code."""
    weights = dict(shape.analyze(FENCED_TRACE).terms)
    assert weights["do_load"] < weights["validator"] and weights["import_row"] < weights["validator"]
    assert "legacy" not in weights  # ``ContactSchema().load(legacy)``: an outer frame's source line
    body = FENCED_TRACE.partition("\n")[2]
    python = list(frames.PYTHON.finditer(body))
    kept = shape._without_outer_frames(body, python, shape._innermost(body, python))
    assert "in _do_load" not in kept and "result = self._deserialize(" not in kept
    assert "in deserialize" in kept and 'if not value or "@" not in value:' in kept


def test_outer_frames_weigh_as_before_when_the_switch_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shape, "OUTER_FRAME_WEIGHT", shape.WEIGHT_FRAME)
    weights = dict(shape.analyze(FENCED_TRACE).terms)
    assert weights["do_load"] >= weights["validator"] and "legacy" in weights


def test_a_short_message_after_an_exceptions_name_is_looked_for_verbatim() -> None:
    # a bare text needs SENTENCE_MIN_WORDS words to read as a message; after an exception's
    # name or a log prefix, two do (starlette's three-word message was read by its words)
    assert shape.analyze("RuntimeError: No response returned.").sentence == "No response returned."
    assert shape.analyze("ERROR [app.db] connection lost").sentence == "connection lost"
    assert shape.analyze("No response returned.").sentence == ""
    assert shape.analyze("KeyError: 'SECRET_KEY'").sentence == ""


@pytest.mark.parametrize(("query", "roles"), [
    ("where are markdown docs generated for a typer app", []),  # the code making them
    ("how does cobra generate man docs", []),
    ("where is the documentation built", []),
    ("docs on adding middleware to just one Mount", ["docs"]),
    ("tests for the session cookie", ["test"]),
])
def test_a_role_word_that_code_makes_asks_for_the_code(query: str, roles: list[str]) -> None:
    assert sorted(shape.analyze(query).roles) == roles


def test_a_cli_error_line_and_its_usage_hint_are_a_trace_of_the_first_line() -> None:
    # cobra's output for a mistyped command was one two-line sentence, never found
    pasted = "Error: unknown command \"stauts\" for \"app\"\nRun 'app --help' for usage.\n"
    got = shape.analyze(pasted)
    assert (got.shape, got.sentence) == (shape.Shape.TRACE, 'unknown command "stauts" for "app"')
    assert "app --help" not in got.evidence and "--help" not in got.evidence
    # a second line that is no hint keeps the text a text
    assert shape.analyze("Error: it broke\nand then what do I do with the cache").shape is not shape.Shape.TRACE


@pytest.mark.parametrize(("text", "sentence"), [
    # a question quoting one message: the message is looked for verbatim
    ('where does the "Missing argument" error message come from', "Missing argument"),
    ("why is 'nargs=-1 is not supported for options' raised", "nargs=-1 is not supported for options"),
    ('where is "Aborted!" printed', "Aborted!"),  # one word a sentence's stop ends
    # a quoted name, a path, or two quoted parts: no message
    ('how does "invoke" work', ""),
    ('where is "config.yaml" read', ""),
    ('what is the difference between "show_default" and "default"', ""),
])
def test_a_question_quoting_one_message_looks_for_it(text: str, sentence: str) -> None:
    """click: 'where does the "Missing argument" error message come from' ranked
    ``MissingParameter.__str__`` (it says "Missing parameter") first, the message's line
    second, no flag; 'where is "Aborted!" printed' had ``Command.main`` off the page."""
    found = shape.analyze(text)
    assert (found.shape, found.sentence) == (Shape.TEXT, sentence)


@pytest.mark.parametrize(("text", "refused"), [
    ("3.20.0: TypeError get_declared_fields() missing 1 required positional argument: 'dict_cls'",
     ("get_declared_fields",)),
    ("TypeError when Schema.load() got an unexpected keyword argument 'many'", ("Schema.load",)),
])
def test_a_refused_call_written_in_a_title_is_a_trace(text: str, refused: tuple[str, ...]) -> None:
    """marshmallow's "3.20.0: TypeError get_declared_fields() missing 1 required positional
    argument" (no colon after the exception's name) read as a message: ``locate`` put a
    helper raising a TypeError first, the refusing function's file second."""
    found = shape.analyze(text)
    assert (found.shape, found.refused) == (Shape.TRACE, refused)


def test_a_question_about_a_signature_without_typeerror_stays_a_question() -> None:
    assert shape.analyze("why does parse() take 2 positional arguments").shape is Shape.TEXT


@pytest.mark.parametrize(("text", "sentence"), [
    # a negated statement opens as messages do, not as a question (requests: the unquoted
    # "Could not find a suitable TLS CA certificate bundle, invalid path" came 3rd; a newcomer)
    ("Could not find a suitable TLS CA certificate bundle, invalid path",
     "Could not find a suitable TLS CA certificate bundle, invalid path"),
    ("Cannot open the file for reading in binary mode", "Cannot open the file for reading in binary mode"),
    ("Can't pickle local object 'outer.inner'", "Can't pickle local object 'outer.inner'"),
    ("Does not match the expected schema at all", "Does not match the expected schema at all"),
    # questions stay questions
    ("could I find where the session cookie is signed", ""),
    ("how does the session cookie get signed", ""),
    ("does the client retry a request on a timeout", ""),
    ("can not be used twice? why not", ""),
])
def test_a_negated_statement_is_a_message_not_a_question(text: str, sentence: str) -> None:
    assert shape.analyze(text).sentence == sentence


@pytest.mark.parametrize(("text", "evidence"), [
    # a language's own exception beside other code words is no verbatim evidence
    ("IndexError from generic_tags() when EXT_SUFFIX is an empty string", ("generic_tags", "EXT_SUFFIX")),
    ("NullPointerException in RouteBuilder.build when the path is null", ("RouteBuilder.build",)),
    # alone, it is the one token there is; a project's own exception always is one
    ("why do I get a KeyError in the session", ("KeyError",)),
    ("MissingSchema raised by prepare_url", ("MissingSchema", "prepare_url")),
])
def test_a_builtin_exception_beside_other_tokens_is_no_evidence(text: str, evidence: tuple[str, ...]) -> None:
    assert shape.analyze(text).evidence == evidence
    assert "IndexError" in shape.BUILTIN_EXCEPTIONS and "MissingSchema" not in shape.BUILTIN_EXCEPTIONS


@pytest.mark.parametrize(("text", "shape_", "raised", "sentence"), [
    # an exception's bare CamelCase name opening a pasted line is an error line, as it is
    # with its module (requests: ``prepare_url`` was off the first 10; a newcomer)
    ("MissingSchema: Invalid URL 'x': No scheme supplied. Perhaps you meant https://x?",
     Shape.TRACE, ("MissingSchema",), "Invalid URL 'x': No scheme supplied. Perhaps you meant ?"),
    ("TooManyRedirects: Exceeded 30 redirects.", Shape.TRACE, ("TooManyRedirects",), "Exceeded 30 redirects."),
    # a product's name, or a question after the name, is no error line
    ("GitHub: the action fails on windows runners", Shape.TEXT, (), "GitHub: the action fails on windows runners"),
    ("ValueMapper: how does it map values", Shape.TEXT, (), "ValueMapper: how does it map values"),
])
def test_a_bare_exception_name_opens_an_error_line(text: str, shape_: Shape, raised: tuple[str, ...],
                                                   sentence: str) -> None:
    asked = shape.analyze(text)
    assert (asked.shape, asked.raised, asked.sentence) == (shape_, raised, sentence)
    if raised:  # the message is the evidence, not the class's name
        assert not set(raised) & {e.rpartition(".")[2] for e in asked.evidence}


def test_an_error_line_alone_names_neither_its_exception_nor_its_module() -> None:
    """``requests.exceptions.TooManyRedirects: ..`` named the module ``exceptions``, and
    ``locate`` led with the file defining the exception (a newcomer); an issue's text keeps
    the names its prose writes."""
    assert shape.analyze("requests.exceptions.TooManyRedirects: Exceeded 30 redirects.").names == ()
    issue = ("Redirect loop in sessions\n\nCalling requests.exceptions handling in sessions.resolve_redirects "
             "loops forever.\nrequests.exceptions.TooManyRedirects: Exceeded 30 redirects.\n" + "More words. " * 30)
    assert "exceptions" in [n.lower() for n in shape.analyze(issue).names]


@pytest.mark.parametrize(("text", "symbols", "evidence"), [
    # a special method named alone is every class's: no symbol, no evidence (a review:
    # pytest's "Test class with __init__ .." pinned an unrelated two-line `__init__`)
    ("Test class with __init__ is not collected and no warning is shown", (), ()),
    ("where is __repr__ of Response defined", (), ()),
    # qualified, or written in a code span, it is named
    ("what does `Cache.__init__` set", ("Cache.__init__",), ("Cache.__init__",)),
    ("why does `__init__` of Session fail", (), ("__init__",)),
])
def test_a_bare_special_method_names_no_symbol(text: str, symbols: tuple[str, ...], evidence: tuple[str, ...]) -> None:
    asked = shape.analyze(text)
    assert (asked.symbols, asked.evidence) == (symbols, evidence)


def test_a_comprehensions_frame_inside_its_functions_frame_is_that_function() -> None:
    """xarray's ``<listcomp>`` frame, under the ``map`` frame of the same file, was placed
    by its line alone (from an older release) in another function (a newcomer)."""
    text = '''Dataset.map fails when the function returns a scalar

```
Traceback (most recent call last):
  File "/home/kim/repro.py", line 3, in <module>
    ds.map(lambda v: 1)
  File "/home/kim/.venv/lib/python3.11/site-packages/xarray/core/dataset.py", line 6939, in map
    variables = {
  File "/home/kim/.venv/lib/python3.11/site-packages/xarray/core/dataset.py", line 6939, in <dictcomp>
    k: maybe_wrap_array(v, func(v, *args, **kwargs))
  File "/home/kim/.venv/lib/python3.11/site-packages/xarray/core/util.py", line 12, in helper
    return [x for x in y]
  File "/home/kim/.venv/lib/python3.11/site-packages/xarray/core/util.py", line 12, in <listcomp>
    return [x for x in y]
  File "/home/kim/.venv/lib/python3.11/site-packages/xarray/core/other.py", line 40, in <genexpr>
    raise TypeError("no scalar")
TypeError: no scalar
```
'''
    got = [(f.path, f.function, f.line) for f in shape.analyze(text).frames]
    # innermost first; a comprehension with no frame of its file around it stays, unnamed
    assert got == [("xarray/core/other.py", "", 40), ("xarray/core/util.py", "helper", 12),
                   ("xarray/core/dataset.py", "map", 6939), ("home/kim/repro.py", "", 3)]


def test_a_logging_error_report_points_at_the_call_that_logged() -> None:
    """Python's ``--- Logging error ---`` report: the handler's traceback and the call
    stack's innermost frames in logging files are the logging machinery; the frame that
    logged is sphinx's ``_determine_py_coverage_modules`` (a newcomer: ``sphinx/util/
    logging.py`` was located first)."""
    text = '''Logging error when coverage_modules lists an undocumented module

```
--- Logging error ---
Traceback (most recent call last):
  File "/usr/lib/python3.11/logging/__init__.py", line 1110, in emit
    msg = self.format(record)
  File "/home/dana/.venv/lib/python3.11/site-packages/sphinx/util/logging.py", line 567, in format
    message = super().format(record)
  File "/home/dana/.venv/lib/python3.11/site-packages/sphinx/util/logging.py", line 100, in getMessage
    message = super().getMessage()
TypeError: not all arguments converted during string formatting
Call stack:
  File "/home/dana/.venv/lib/python3.11/site-packages/sphinx/ext/coverage.py", line 283, in build_py_coverage
    modules = _determine_py_coverage_modules(
  File "/home/dana/.venv/lib/python3.11/site-packages/sphinx/ext/coverage.py", line 156, in _determine_py_coverage_modules
    logger.warning(
  File "/home/dana/.venv/lib/python3.11/site-packages/sphinx/util/logging.py", line 191, in warning
    return super().warning(
  File "/usr/lib/python3.11/logging/__init__.py", line 1855, in warning
    self.log(WARNING, msg, *args, **kwargs)
  File "/home/dana/.venv/lib/python3.11/site-packages/sphinx/util/logging.py", line 138, in log
    super().log(level, msg, *args, **kwargs)
Message: 'the following modules are specified in coverage_modules but were not documented'
Arguments: ('mypkg.extra',)
```
'''
    asked = shape.analyze(text)
    # the handler's traceback stays, outermost (a project's handler may be at fault)
    assert [(f.path, f.function, f.line) for f in asked.frames] == [
        ("sphinx/ext/coverage.py", "_determine_py_coverage_modules", 156),
        ("sphinx/ext/coverage.py", "build_py_coverage", 283),
        ("sphinx/util/logging.py", "getMessage", 100), ("sphinx/util/logging.py", "format", 567)]
    assert asked.paths == ("sphinx/ext/coverage.py", "sphinx/util/logging.py")
    # no report: a traceback through a project's logging module keeps its frames
    plain = text.replace("--- Logging error ---\n", "")
    assert shape.analyze(plain).frames[0] == frames.Frame("sphinx/util/logging.py", "log", 138)
    # rich's handler failing in its own console (a review): its frame stays, after the
    # call stack's (here the user's own file, which no index holds)
    handler = text.replace("/home/dana/.venv/lib/python3.11/site-packages/sphinx/util/logging.py\", line 100, "
                           "in getMessage", "/home/dana/.venv/lib/python3.11/site-packages/rich/_win32_console.py"
                                            "\", line 402, in write_text")
    handler = handler.replace("sphinx/ext/coverage.py", "app/run.py")
    assert shape.analyze(handler).frames[2] == frames.Frame("rich/_win32_console.py", "write_text", 402)


def test_values_spelled_in_camel_case_are_no_evidence() -> None:
    """"polyval NaN": ``NaN`` was verbatim evidence, and xarray's ``polyval`` left the page
    for the functions whose docs say NaN (a newcomer); still a name a definition may have
    (sympy's ``class NaN``; a review); a code word beside it still is evidence."""
    for text, name in (("polyval NaN", "NaN"), ("why is NaT returned here", "NaT")):
        asked = shape.analyze(text)
        assert asked.evidence == () and asked.symbols == (name,)
    asked = shape.analyze("why does to_datetime return NaT")
    assert asked.evidence == ("to_datetime",) and asked.symbols == ("to_datetime", "NaT")


@pytest.mark.parametrize(("text", "evidence"), [
    # Django: "5.1" pinned a GIS test's JSON coordinates ("5,1") as evidence (a newcomer)
    ("index_together crash on 5.1", ("index_together",)),
    ("IPv6Address TypeError in 5.1.5 and v5.1.6rc1", ("IPv6Address",)),
    ("is np.float64 on Python 3.13 slower", ("np.float64",)),  # a dotted name stays
    ("DeprecationWarning since 3.12 and v2.0", ("DeprecationWarning",)),
    # a value, not a release: gson's JsonPrimitive comments say "42.0" and "-0.0"
    ("numbers that compare equal (42 vs 42.0, -0.0 vs 0) hash differently", ("42.0", "-0.0")),
    # a review: a default's value and an address are the code's text
    ("why is the default timeout 0.5", ("0.5",)),
    ("server binds to 0.0.0.0 instead of 127.0.0.1", ("0.0.0.0", "127.0.0.1")),
    ('why is the default timeout "0.25"', ("0.25",)),  # quoted: a literal the code may hold
])
def test_a_version_or_number_written_in_prose_is_no_evidence(text: str, evidence: tuple[str, ...]) -> None:
    assert shape.analyze(text).evidence == evidence


def test_pythons_own_message_about_a_builtin_value_is_no_message_of_the_project() -> None:
    """"'NoneType' object has no attribute 'index'": the interpreter's words, which no code
    of the project holds (xarray placed a ``__getattr__`` raising its own "object has no
    attribute" first; a newcomer). The name it could not find stays; a project's class in
    the same message is the project's message."""
    title = "groupby then .map() fails with AttributeError: 'NoneType' object has no attribute 'index'"
    asked = shape.analyze(title)
    assert asked.sentence == "" and "NoneType" not in asked.evidence and "index" in asked.evidence
    assert not {"nonetype", "object", "has"} & {t for t, _ in asked.terms}
    assert {"groupby", "index", "map"} <= {t for t, _ in asked.terms}
    trace = shape.analyze("TypeError: 'int' object is not subscriptable")
    assert trace.sentence == "" and trace.evidence == () and trace.raised == ("TypeError",)
    own = shape.analyze("AttributeError: 'Dataset' object has no attribute 'foo'")
    assert own.sentence == "'Dataset' object has no attribute 'foo'"


def test_a_module_python_says_lacks_a_name_is_read() -> None:
    """``AttributeError: module 'matplotlib.cm' has no attribute 'get_cmap'``: the module
    should hold it (matplotlib's ``colors.py`` was located first on the words "module" and
    "attribute"; a newcomer). Its name, not a path: ``anchors`` finds the index's module
    of that name (a review: ``pandas/core/common.py`` named xarray's ``core/common.py``)."""
    text = '''plt.get_cmap works but cm.get_cmap is gone in 3.9

```
Traceback (most recent call last):
  File "/home/u/plot.py", line 3, in <module>
    cmap = matplotlib.cm.get_cmap("viridis")
AttributeError: module 'matplotlib.cm' has no attribute 'get_cmap'
```
'''
    asked = shape.analyze(text)
    assert asked.lacking == ("matplotlib.cm",) and asked.paths == ("home/u/plot.py",)
    assert shape.analyze(text.replace("'matplotlib.cm'", "'six'")).lacking == ()


@pytest.mark.parametrize(("text", "sentence"), [
    # an exception's message after its name, no colon: a capitalised message of 4+ words
    ("why do I get ValueError The data_key argument for one or more fields collides with another field's name",
     "The data_key argument for one or more fields collides with another field's name"),
    # the asker's own phrase after the name, or too short: no message
    ("how to catch ImportError In Python for optional deps", ""),
    ("why do I get ValueError when I pass a list", ""),
    ("why is KeyError Raised Twice here", ""),
])
def test_an_exception_message_asked_without_a_colon(text: str, sentence: str) -> None:
    assert shape.analyze(text).sentence == sentence


JINJA_TRACE = """NameError when a template whose name has braces imports a macro
```
Traceback (most recent call last):
  File "/srv/app/site/views.py", line 6, in page
    env.get_template("pages/{slug}.html").render()
  File "/venv/lib/python3.10/site-packages/jinja2/environment.py", line 1292, in render
    self.environment.handle_exception()
  File "/venv/lib/python3.10/site-packages/jinja2/environment.py", line 939, in handle_exception
    raise rewrite_traceback_stack(source=source)
  File "<template>", line 1, in top-level template code
NameError: name 'slug' is not defined
```
"""
# Django's wrap_database_errors re-raises the driver's error with its traceback: the frames
# outside it are the call that failed (a review)
DJANGO_TRACE = """Window query crashes
```
Traceback (most recent call last):
  File "/app/shop/views.py", line 41, in report
    rows = list(qs)
  File "/venv/lib/python3.11/site-packages/django/db/backends/utils.py", line 84, in _execute
    with self.db.wrap_database_errors:
  File "/venv/lib/python3.11/site-packages/django/db/utils.py", line 91, in __exit__
    raise dj_exc_value.with_traceback(traceback) from exc_value
  File "/venv/lib/python3.11/site-packages/django/db/backends/utils.py", line 89, in _execute
    return self.cursor.execute(sql, params)
django.db.utils.ProgrammingError: column must appear in the GROUP BY clause
```
"""
# a new exception whose message holds a traceback is raised where it happened
FORMATTED_TRACE = """Job fails
```
Traceback (most recent call last):
  File "/app/taskq/worker.py", line 112, in run_job
    self._call(job)
  File "/app/taskq/worker.py", line 140, in _call
    raise JobFailed(traceback.format_exc())
taskq.errors.JobFailed: boom
```
"""
# a logger's prefix before the second traceback's header: the first stays whole, and so
# does the application's own frame outside jinja's
LOGGED_TRACES = """Two errors in the worker log
```
Traceback (most recent call last):
  File "/app/worker/boot.py", line 12, in load_plugins
    plugin = registry.resolve(name)
  File "/app/worker/registry.py", line 44, in resolve
    return self._entries[name]
KeyError: 'exporter'
ERROR:root:Traceback (most recent call last):
  File "/app/worker/handler.py", line 30, in handle
    out = template.render(ctx)
  File "/venv/lib/python3.11/site-packages/jinja2/environment.py", line 1301, in render
    self.environment.handle_exception()
  File "/venv/lib/python3.11/site-packages/jinja2/environment.py", line 936, in handle_exception
    raise rewrite_traceback_stack(source=source)
  File "<template>", line 1, in top-level template code
jinja2.exceptions.UndefinedError: 'user' is undefined
```
"""


@pytest.mark.parametrize(("text", "functions"), [
    (JINJA_TRACE, ["page"]),  # jinja's render and handle_exception: the path handed back along
    (DJANGO_TRACE, ["_execute", "__exit__", "_execute", "report"]),
    (FORMATTED_TRACE, ["_call", "run_job"]),
    (LOGGED_TRACES, ["handle", "resolve", "load_plugins"]),
])
def test_frames_an_error_was_handed_back_along_are_left_out(text: str, functions: list[str]) -> None:
    assert [f.function for f in shape.analyze(text).frames] == functions


def test_a_frames_printed_line_is_found_by_its_longest_path() -> None:
    # two files of one name at one line: the name alone took click's line for the project's (a review)
    text = ('Traceback (most recent call last):\n'
            '  File "/venv/site-packages/click/decorators.py", line 33, in new_func\n'
            '    return f(get_current_context(), *args, **kwargs)\n'
            '  File "/home/u/proj/src/mycli/decorators.py", line 33, in wrapper\n'
            '    raise value.with_traceback(tb)\n')
    assert frames.printed_code(text, frames.Frame("src/mycli/decorators.py", "wrapper", 33)) == \
        "raise value.with_traceback(tb)"
    # an indexed path the trace prints under another root: its trailing parts
    assert frames.printed_code(text, frames.Frame("lib/click/decorators.py", "new_func", 33)) == \
        "return f(get_current_context(), *args, **kwargs)"
    assert frames.printed_code(text, frames.Frame("src/mycli/decorators.py", "wrapper", 34)) == ""


def test_an_http_status_code_adds_its_code_names() -> None:
    """gin's "what happens on a 404" missed ``createStaticHandler``, which writes
    ``http.StatusNotFound``: a question's status code adds its reason's code names."""
    terms = dict(shape.analyze("how are static files served and what happens on a 404").terms)
    assert {t: terms[t] for t in ("404", "notfound", "not_found", "statusnotfound")} == {
        "404": 1.0, "notfound": shape.ABBREVIATION_WEIGHT, "not_found": shape.ABBREVIATION_WEIGHT,
        "statusnotfound": shape.ABBREVIATION_WEIGHT}
    # a one-word reason is a word of any text; a number no status has adds nothing
    assert set(dict(shape.analyze("what does the handler send with a 200 or a 410").terms)) == {
        "handler", "send", "200", "410"}
    assert set(dict(shape.analyze("why is the port 8080 by default").terms)) == {"port", "8080", "default"}
    # a count or a position is no status (a review)
    for question in ("how does the lru cache evict after 500 entries", "what does the code at line 404 do",
                     "why are 404 files skipped when packing"):
        assert "notfound" not in dict(shape.analyze(question).terms) and not any(
            "internal" in t for t, _ in shape.analyze(question).terms), question
    assert shape.http_statuses("which handler returns a 500 error, or a 404?") == ("500", "404")
    # gin's question as a newcomer wrote it
    assert shape.http_statuses("where are static files served from a directory and a 404 returned "
                               "for a missing file") == ("404",)
    assert shape.http_statuses("keep the 500 entries") == ()


def test_a_code_host_link_names_its_file_and_lines() -> None:
    text = ("isFlagArg treats -- as a flag\n\nThe check at https://github.com/spf13/cobra/blob/bf11ab6/"
            "command.go#L629-L632 looks wrong; see https://github.com/spf13/cobra/blob/main/doc/man_docs.go.\n"
            "and https://github.com/spf13/cobra/issues/12 and https://go.dev/play/p/UxqRkMcEX2a\n")
    asked = shape.analyze(text)
    assert asked.shape is shape.Shape.ISSUE
    # a file at the root is no path: a link's owner may be another repository's (a review)
    assert asked.paths == ("doc/man_docs.go",)
    assert asked.linked == (("command.go", 629),)


@pytest.mark.parametrize("link", ["https://go.dev/play/p/UxqRkMcEX2a", "https://play.golang.org/p/UxqRkMcEX2a",
                                  "https://jsfiddle.net/u/UxqRkMcEX2a/", "https://codesandbox.io/s/UxqRkMcEX2a"])
def test_a_paste_or_playground_link_adds_no_terms(link: str) -> None:
    """cobra's issue linking ``go.dev/play/p/UxqRkMcEX2a`` had the terms ``uxq``, ``rk``,
    ``mc`` at 3.4 each; a docs page's name still counts."""
    text = f"isFlagArg bug\n\nsee {link} for a repro, and https://go.dev/doc/effective_go.html\nmore\n"
    assert [t for t, _ in shape.analyze(text).terms] == ["isflagarg", "flag", "arg", "repro", "effective", "go"]


def test_a_name_the_prose_writes_as_code_outlasts_the_names_pasted_output_repeats() -> None:
    """cobra's `legacyArgs`, written once in a code span, was cut by the 24-name cap under
    the words its pasted completion output repeated (``prog``, ``arg1``, ``Completion``)."""
    output = "\n".join(f"prog arg{i} Completion{i} directive{i} " * 2 for i in range(12))
    text = f"completion of subcommand args is wrong\n\nThe check in `legacyArgs` is wrong.\n```\n{output}\n```\n"
    names = shape.analyze(text).names
    assert len(names) == shape.MAX_NAMES and names[0] == "legacyArgs"
    # without the span it is a word of the prose, counted by its mentions: cut
    assert "legacyArgs" not in shape.analyze(text.replace("`legacyArgs`", "legacyArgs")).names


_ARROW_RAISE = ('        raise ParserMatchError(\n'
                '            f"Could not match input {string!r} to any of the following formats: {\', \'.join(formats)}."\n'
                '        )')


@pytest.mark.parametrize(("message", "words"), [
    # the value left out, the end cut (arrow: a newcomer's question quoted this)
    ("Could not match input to any of", 7),
    # the value kept, the end cut
    ("Could not match input '2021-13' to any of", 7),
    # a value opening or closing the run where the template goes on: a guess
    ("'2021-13' to any of the following", 0),
    ("Could not match input to all of", 0),
    ("Could not match input x", 0),
    # a run of one piece crosses no placeholder: the verbatim patterns read it
    ("Could not match input", 0),
    ("to any of the following formats", 0),
    # a literal word skipped is no print of the template
    ("Could not match any of", 0),
    # more of the message is value than literal
    ("match input x y z w v u t to", 0),
])
def test_a_quoted_part_of_a_message_template_is_held_by_it(message: str, words: int) -> None:
    """``template_words`` reads a message that quotes a run of a template's words across a
    placeholder (``fragment_words``) when no whole print of it matches."""
    assert shape.template_words(_ARROW_RAISE, message) == words


@pytest.mark.parametrize(("source", "message"), [
    # runs of function words only: no message of these templates (a review)
    ('raise TypeError(f"{value!r} is not a {kind.__name__}")', "is not a valid JSON"),
    ('raise LookupError(f"Could not find {name} in the {where} of the {thing}")', "in the middle of the night"),
    ('raise TypeError(f"expected {n} arguments, got {m}")', "expected arguments got"),
])
def test_a_fragment_of_function_words_is_no_quote(source: str, message: str) -> None:
    assert shape.template_words(source, message) == 0


def test_a_fragment_reads_a_bounded_number_of_templates() -> None:
    """Many templates of common words against a long message of them: few are read."""
    source = "\n".join(f'log(f"the {{a}} the {{b}} the the {i}")' for i in range(200))
    started = time.perf_counter()
    assert shape.template_words(source, " ".join(["the"] * 40)) == 0
    assert shape.fragment_words([["a"]], []) == 0
    assert time.perf_counter() - started < 5.0  # a guard against a blow-up, not a benchmark


def test_a_fragment_is_bounded_and_needs_three_literal_words() -> None:
    """Two literal words around a value are too few; a long message costs one pass per start."""
    assert shape.fragment_words([["duplicate", "key"], []], ["duplicate", "key", "a"]) == 0
    assert shape.fragment_words([["abc", "bcd", "cde"], ["def"]], ["abc", "bcd", "cde", "x", "def"]) == 4
    # a value at the template's own ends
    assert shape.fragment_words([[], ["is", "not", "valid", "key"]], ["x", "is", "not", "valid", "key"]) == 4
    assert shape.fragment_words([["no", "valid", "key"], []], ["no", "valid", "key", "x"]) == 3
    pieces = [["aaa"] * 30, ["aaa"] * 30]
    assert shape.fragment_words(pieces, ["aaa"] * 40) == 40  # template_words asks for two distinct
    pieces = [["abc", "def", "ghi"] * 10, ["abc", "def", "ghi"] * 10]
    assert shape.fragment_words(pieces, ["abc", "def", "ghi"] * 13) == 39


_RICH_RAISE = ('                        raise MarkupError(\n'
               '                            f"closing tag \'{tag.markup}\' at position {position} doesn\'t match any open tag"\n'
               '                        ) from None')


@pytest.mark.parametrize(("message", "words"), [
    # the asker's ellipsis stands for the literal words and values it left out (rich: a
    # newcomer's question quoted this); the words either side match the template
    ("closing tag ... doesn't match any open tag", 8),
    ("closing tag \u2026 doesn't match any open tag", 8),
    ("closing tag [...] doesn't match any open tag", 8),
    # without the ellipsis the left-out literal words break the run
    ("closing tag doesn't match any open tag", 0),
    # too few words either side: no quote of this template
    ("tag ... open", 0),
    # the words after the ellipsis must follow in the template's order
    ("any open tag ... closing tag at position", 0),
    # an ellipsis at the ends elides nothing between words: a run of one piece, which the
    # verbatim patterns read
    ("... doesn't match any open tag", 0),
])
def test_an_ellipsis_in_a_quoted_message_stands_for_what_the_asker_left_out(message: str, words: int) -> None:
    assert shape.template_words(_RICH_RAISE, message) == words


@pytest.mark.parametrize(("source", "message"), [
    # an ellipsis over literal words alone: a guess at a generic template (a review)
    ('log.warning("Failed to load config file %s: %s", path, exc)', "Failed ... config file"),
    ('raise ValueError(f"Failed to parse the main config file: {path}")', "Failed to parse ... config file"),
    # dots between words are code, no ellipsis
    ('raise ValueError(f"range 1 to {hi} is empty")', "range 1...5 is empty"),
])
def test_an_ellipsis_must_leave_a_value_out(source: str, message: str) -> None:
    assert shape.template_words(source, message) == 0


def test_an_ellipsis_stands_for_a_bounded_number_of_template_words() -> None:
    """More left out than ``FRAGMENT_ELIDED_TOKENS`` is no quote of one template."""
    pieces = [["alpha", "beta"] + ["gap"] * (shape.FRAGMENT_ELIDED_TOKENS - 1), ["gamma", "delta"]]
    assert shape.fragment_words(pieces, ["alpha", "beta", shape.ELIDED, "gamma", "delta"]) == 4
    pieces = [["alpha", "beta"] + ["gap"] * shape.FRAGMENT_ELIDED_TOKENS, ["gamma", "delta"]]
    assert shape.fragment_words(pieces, ["alpha", "beta", shape.ELIDED, "gamma", "delta"]) == 0


_HANDED_BACK = """\
Loading fails

Traceback (most recent call last):
  File "/srv/app/run.py", line 3, in <module>
    s.load(data)
  File "/srv/app/pkg/schema.py", line 10, in _do_load
    {code}
pkg.errors.ValidationError: bad
"""


def test_a_trace_handed_back_by_a_reraise_weighs_its_frames_as_outer_ones() -> None:
    """A trace whose innermost frame re-raises (``raise exc``) shows where the error was
    handed back: its frames' functions weigh ``OUTER_FRAME_WEIGHT``, not ``WEIGHT_FRAME``."""
    raised = dict(shape._long_terms(_HANDED_BACK.format(code="raise ValueError(value)")))
    handed = dict(shape._long_terms(_HANDED_BACK.format(code="raise exc")))
    assert raised["do_load"] == pytest.approx(handed["do_load"] * shape.WEIGHT_FRAME / shape.OUTER_FRAME_WEIGHT, abs=1e-3)
    assert handed["do_load"] < raised["do_load"]


def test_a_sentence_in_a_code_span_names_only_its_code_words() -> None:
    """httparty's issue quoted Tomcat's exception in a code span: its English words (`the`,
    `are`, `defined`, `found`) were names, spanned ones first, and filled the 24 before the
    snippet's ``HashConversions.to_params`` was read (a newcomer). A fenced block is code:
    its import lines' plain words stay names (a review)."""
    prose = " ".join(f"word{i} is here and there" for i in range(8))
    text = ("Keys are not encoded\n\nTomcat rejects them (`java.lang.IllegalArgumentException: Invalid "
            "character found in the request target. The valid characters are defined in RFC 7230`), "
            f"see `{prose}`.\n\n```ruby\nHTTParty::HashConversions.to_params(name: 'bob')\n```\n"
            "```python\nfrom pydantic import BaseModel, Field, validator\n```\n")
    names = shape.analyze(text).names
    assert {"HashConversions", "to_params", "validator", "BaseModel"} <= set(names)
    assert {"the", "are", "defined", "found", "character", "valid"}.isdisjoint(n.lower() for n in names)
    with_prose = shape._code_words_of_prose
    assert with_prose("Invalid character found in the request target") == ""
    assert with_prose("java.lang.IllegalArgumentException: Invalid character found in the target") == \
        "java.lang.IllegalArgumentException:"
    # no sentence: plain words without English function words, code, or too short
    assert with_prose("from flask import Flask, request, jsonify") == "from flask import Flask, request, jsonify"
    assert with_prose("HTTParty.post(url, body: { 'user name' => 'x' })") == "HTTParty.post(url, body: { 'user name' => 'x' })"
    assert with_prose("parse the config") == "parse the config"


def test_an_error_line_in_a_code_span_names_no_definition_by_its_message() -> None:
    """A terse message in backticks (one English function word, under the sentence rule's
    two) named its words: ``Cannot``, ``resolve``, ``keyword``, ``Choices`` were looked up
    as definitions (a newcomer's Django ticket). An error line's span gives its code words
    only; a span that is no error line is read as before."""
    text = ("Adding a GeneratedField fails\n\nRunning migrate fails with `FieldError: Cannot resolve "
            "keyword 'width' into field. Choices are: area, id, name` when `Rectangle.area` is built.\n\n"
            "Nothing else.")
    names = shape.analyze(text).names
    assert names == ("GeneratedField", "Rectangle", "area")
    with_prose = shape._code_words_of_prose
    assert with_prose("FieldError: Cannot resolve keyword 'width' into field. Choices are: id") == "FieldError:"
    assert with_prose("django.core.exceptions.FieldError: Unknown field(s) (foo_bar)") == \
        "django.core.exceptions.FieldError: field(s) (foo_bar)"
    assert with_prose("Field: Cannot resolve keyword") == "Field: Cannot resolve keyword"
    shape.ERROR_SPAN_CODE_WORDS = False
    try:
        assert "Choices" in shape.analyze(text).names
    finally:
        shape.ERROR_SPAN_CODE_WORDS = True


@pytest.mark.parametrize(("printed", "cleaned", "kept"), [
    # a Rust backtrace's registry source: the index directory and (for the terms) the
    # crate's versioned one
    ("at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.31/src/de.rs:250:13",
     "at src/de.rs:250:13", "at serde_json-1.0.31/src/de.rs:250:13"),
    ("at /home/u/.cargo/registry/src/github.com-1ecc6299db9ec823/tokio-util-0.7.1/src/codec.rs:1",
     "at src/codec.rs:1", "at tokio-util-0.7.1/src/codec.rs:1"),
    # Ruby's installed gem: the gems directory and the gem's versioned one
    ("/usr/lib/ruby/gems/3.2.0/gems/httparty-0.21.0/lib/httparty/request.rb:154:in `perform'",
     "lib/httparty/request.rb:154:in `perform'", "httparty-0.21.0/lib/httparty/request.rb:154:in `perform'"),
    # a package directory without a version stays: it is the package's name
    ("/srv/app/node_modules/axios/lib/core/settle.js:19:12", "axios/lib/core/settle.js:19:12",
     "axios/lib/core/settle.js:19:12"),
    ("/usr/lib/python3.11/site-packages/jinja2/lexer.py", "jinja2/lexer.py", "jinja2/lexer.py"),
])
def test_environment_prefixes_and_versioned_package_directories_are_dropped(printed: str, cleaned: str,
                                                                            kept: str) -> None:
    """A backtrace's ``serde_json-1.0.31/`` put ``serde``, ``json`` among every pasted Rust
    issue's heaviest terms, as a frame's path weighs (a newcomer on serde_json): dropped for
    the terms; a frame's path keeps it (``anchors`` reads a monorepo's
    ``rack-protection-4.0.0/`` as its ``rack-protection/``)."""
    assert shape.drop_environment(printed, versioned=True) == cleaned
    assert shape.drop_environment(printed) == kept


def test_a_crates_versioned_directory_weighs_no_term() -> None:
    text = ("Panic in from_slice\n\nIt panics:\n\n```\nstack backtrace:\n   4: serde_json::read::end\n"
            "             at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.63/src/read.rs:590:19\n```\n")
    q = shape.analyze(text)
    bare = shape.analyze(text.replace("serde_json-1.0.63/", ""))
    assert q.terms == bare.terms  # the directory adds no term and no weight
    assert q.frames[0].path == "serde_json-1.0.63/src/read.rs"


def test_a_cause_blocks_frames_weigh_as_the_innermost() -> None:
    """``raise New(..) from err``: the cause's block holds the stack's innermost frames
    (``frames.innermost_first``), so its functions weigh ``WEIGHT_FRAME`` and its source
    lines are read as code; the last block's outer frames weigh ``OUTER_FRAME_WEIGHT`` (matplotlib's
    ``to_rgba_array`` weighed as an outer frame: a newcomer). A handler's own failure keeps
    the last block's frames the innermost."""
    from test_frames import _CAUSED
    issue = "scatter with two colors fails\n\nI ran this:\n\n```\n" + _CAUSED + "```\n"
    caused = dict(shape._long_terms(issue))
    assert caused["to_rgba_array"] >= shape.WEIGHT_FRAME
    assert caused["mcolors"] == pytest.approx(shape.WEIGHT_CODE)  # the cause's source line
    assert caused["home"] == pytest.approx(shape.OUTER_FRAME_WEIGHT)  # ``/home/lu/two.py``: outer
    handled = dict(shape._long_terms(issue.replace(
        "The above exception was the direct cause of the following exception",
        "During handling of the above exception, another exception occurred")))
    assert handled["to_rgba_array"] == pytest.approx(shape.OUTER_FRAME_WEIGHT)
    assert "mcolors" not in handled and handled["home"] > shape.OUTER_FRAME_WEIGHT


def test_a_titles_leading_class_name_is_its_subject_not_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    """``VotingClassifier: misleading error ..`` with a body: the class is the issue's
    subject, a title name (it was dropped as the exception raised); an error line pasted
    alone and a title opening with an exception's name still name the exception."""
    issue = ("VotingClassifier: misleading error when y is a multilabel DataFrame\n\n"
             "Fitting a `VotingClassifier` on a DataFrame fails:\n\n```python\nclf.fit(X, y)\n```\n")
    asked = shape.analyze(issue)
    assert "VotingClassifier" in asked.names[:asked.title_names]
    alone = shape.analyze("MissingSchema: Invalid URL 'x': No schema supplied")
    assert alone.raised == ("MissingSchema",) and "MissingSchema" not in alone.names
    titled = shape.analyze("LookupError: Opening paren not found with a comment inside a lambda\n\n"
                           "Formatting this fails:\n\n```python\nf = lambda: (  # c\n  1)\n```\n")
    assert "LookupError" not in titled.names
    monkeypatch.setattr(shape, "BARE_TITLE_SUBJECT", False)
    assert "VotingClassifier" not in shape.analyze(issue).names


def test_a_hex_digests_parts_are_no_terms(monkeypatch: pytest.MonkeyPatch) -> None:
    """An md5 in a pasted output gave the tokenizer's parts of it as terms (``bd``,
    ``adf``, ``ebd``: a newcomer's scikit-learn issue); a word with a non-hex letter stays."""
    text = "Pickle differs\n\nmd5 9bd4f3adf1e0c2b8ebd7cfc05bfe1a2d at 0x7ffe12ab, see abcdefg12"
    terms = dict(shape._long_terms(text))
    assert not {"bd", "adf", "ebd", "cfc", "bfe", "ffe"} & set(terms)
    assert "abcdefg12" in terms and "pickle" in terms
    monkeypatch.setattr(shape, "HEX_PARTS_DROPPED", False)
    assert {"bd", "adf", "ebd"} <= set(dict(shape._long_terms(text)))


SPHINX_ISSUE = """Napoleon renders multiple parameters on one line badly

### Describe the bug

With Sphinx 4.0 and `sphinx.ext.napoleon`, a docstring with `x1, x2 : array_like` renders
the two parameters as one. Run `sphinx-build` on this project:

```python
# conf.py
extensions = ["sphinx.ext.napoleon"]
```

```rst
.. autofunction:: example.f
```

### Your project

_No response_

### Environment info

- OS: macOS 10.15
- Python version: 3.9.1
"""


def test_an_issues_project_name_written_as_the_package_or_product_names_no_class() -> None:
    """``sphinx`` (the package in ``sphinx.ext.napoleon``) and "Sphinx" (the product, in
    prose) named the class ``Sphinx`` (a case-insensitive lookup): every Sphinx issue's
    answer held ``sphinx/application.py`` (a newcomer). A capitalised name the issue calls,
    constructs or writes in code is the class, and stays."""
    asked = shape.analyze(SPHINX_ISSUE)
    assert "sphinx" in {n.lower() for n in asked.names}
    kept = shape.without_project(asked, ("sphinx",))
    assert "sphinx" not in {n.lower() for n in kept.names}
    assert [n for n in asked.names if n.lower() != "sphinx"] == list(kept.names)
    assert kept.terms == asked.terms  # its words still count
    for code in ("app = Sphinx(srcdir, confdir)", "```python\nfrom sphinx.application import Sphinx\n```",
                 "`Sphinx.add_js_file` adds nothing", "new Sphinx()"):
        written = shape.analyze(SPHINX_ISSUE + "\n" + code + "\n")
        assert "sphinx" in {n.lower() for n in shape.without_project(written, ("sphinx",)).names}, code
    shape.PROJECT_NAME_ISSUES = False
    try:
        assert shape.without_project(asked, ("sphinx",)).names == asked.names
    finally:
        shape.PROJECT_NAME_ISSUES = True


def test_a_bare_file_name_fence_tags_and_form_placeholders_are_no_heavy_terms() -> None:
    """The reporter's ``conf.py`` and ``example.py`` (no directory) weigh their stems as
    prose, and no suffix; a fence's ``python``/``rst`` tag is no term; an issue form's
    ``_No response_`` and an OS line are dropped. A path with a directory keeps the path
    weight."""
    terms = dict(shape.analyze(SPHINX_ISSUE).terms)
    assert "rst" not in terms and "response" not in terms and "macos" not in terms
    assert terms["conf"] < terms["napoleon"]
    with_dir = dict(shape.analyze(SPHINX_ISSUE + "\nSee sphinx/ext/napoleon/docstring.py.\n").terms)
    assert with_dir["docstring"] >= shape.WEIGHT_FRAME
    before = {}
    for flag in ("BARE_FILES_PROSE", "FENCE_TAGS_DROPPED", "FORM_PLACEHOLDERS_DROPPED", "SETUP_LINES_DROPPED"):
        setattr(shape, flag, False)
    try:
        before = dict(shape.analyze(SPHINX_ISSUE).terms)
    finally:
        for flag in ("BARE_FILES_PROSE", "FENCE_TAGS_DROPPED", "FORM_PLACEHOLDERS_DROPPED", "SETUP_LINES_DROPPED"):
            setattr(shape, flag, True)
    assert {"rst", "response", "macos"} <= set(before) and before["conf"] > terms["conf"]


#: A Django ticket as its page shows it (and SWE-bench's django problem statements read):
#: the summary, ``Description``, an editor's line, code without markup, indented by tabs.
TRAC_TICKET = (
    "Admin inlines crash with a GenericRelation on a proxy model\n"
    "Description\n\t \n\t\t(last modified by Tim Graham)\n\t \n"
    "Consider the following models:\n"
    "class Bookmark(models.Model):\n\ttags = GenericRelation(TaggedItem)\n"
    "Opening the change page raises an AttributeError in get_formset.\n")


def test_a_trac_ticket_s_description_line_and_editor_are_no_words_or_names(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = shape.analyze(TRAC_TICKET)
    assert asked.shape is Shape.ISSUE
    terms = dict(asked.terms)
    assert not {"description", "modified", "tim", "graham"} & set(terms)
    assert not {"Tim", "Graham"} & set(asked.names)
    assert {"GenericRelation", "get_formset", "Bookmark"} <= set(asked.names)
    # a 'Description' anywhere but under the summary, and prose about a description, stay
    later = shape.analyze(TRAC_TICKET + "Description\nThe field's description is lost.\n")
    assert "description" in dict(later.terms)
    monkeypatch.setattr(shape, "TICKET_HEADER_DROPPED", False)
    before = shape.analyze(TRAC_TICKET)
    assert {"description", "modified", "tim", "graham"} <= set(dict(before.terms))
    assert {"Tim", "Graham"} <= set(before.names)


XR_REPORT = """\
#### Output of ``xr.show_versions()``

<details>
INSTALLED VERSIONS
------------------
commit: None
python: 3.7.6 | packaged by conda-forge | (default, Jan  7 2020, 22:33:48)
[GCC 7.3.0]
python-bits: 64
OS: Linux
machine: x86_64
LC_ALL: None
LANG: en_US.UTF-8

xarray: 0.15.0
pandas: 1.0.1
pydap: None
nc_time_axis: None
setuptools: 45.2.0.post20200209
</details>
"""
SK_REPORT = """\
### Versions

```
System:
    python: 3.9.7 (default, Sep 16 2021, 13:09:58)  [GCC 7.5.0]
executable: /opt/conda/bin/python
   machine: Linux-5.4.0-88-generic-x86_64-with-glibc2.31

Python dependencies:
          pip: 21.2.4
      sklearn: 1.0
       Cython: None
threadpoolctl: 2.2.0

Built with OpenMP: True
```
"""
CONFIG = """\
My settings:

```yaml
server:
  host: localhost
  port: 8080
  timeout_keep_alive: 5
  lifespan: on
  proxy_headers: true
  forwarded_allow_ips: "*"
```
"""


@pytest.mark.parametrize("report", [XR_REPORT, SK_REPORT], ids=["xarray", "scikit-learn"])
def test_a_pasted_environment_report_is_dropped_with_its_heading(report: str) -> None:
    """xarray's ``show_versions()`` left ``commit: None``, ``machine: x86_64``, ``LC_ALL:
    None``, ``INSTALLED VERSIONS`` and its heading's ``show_versions`` (a code name) in the
    query: the keys the project's own report printer writes led its answer (a newcomer)."""
    issue = "interp broadcasts instead of interpolating pointwise\n\nda.interp(lat=track) is wrong.\n\n" + report
    kept = shape._without_report_blocks(issue)
    assert kept.split("\n")[:3] == issue.split("\n")[:3]
    assert len(kept.split("\n")) == len(issue.split("\n"))  # lines blanked, not removed
    gone = {"versions", "show_versions", "x86_64", "lc_all", "installed", "commit", "machine", "executable",
            "dependencies", "openmp", "none", "pydap", "nc_time_axis", "cython", "python"}
    q = shape.analyze(issue)
    assert not {t for t, _ in q.terms} & gone
    assert {"interp", "broadcasts", "interpolating", "pointwise", "track"} <= {t for t, _ in q.terms}
    assert "show_versions" not in q.names
    off = shape.REPORT_BLOCKS_DROPPED, shape.FORM_PROMPTS_DROPPED
    try:  # (scikit-learn's short report under "### Versions" is a setup answer too)
        shape.REPORT_BLOCKS_DROPPED = shape.FORM_PROMPTS_DROPPED = False
        assert {t for t, _ in shape.analyze(issue).terms} & gone  # the report's words, before
    finally:
        shape.REPORT_BLOCKS_DROPPED, shape.FORM_PROMPTS_DROPPED = off


PD_REPORT = """\
<details><summary>pd.show_versions()</summary>

INSTALLED VERSIONS
------------------
commit           : db08276bc116c438d3fdee492026f8223584c477
python           : 3.8.5.final.0
python-bits      : 64
OS               : Linux
byteorder        : little
LC_ALL           : None
pandas           : 1.1.3
numpy            : 1.19.2
</details>
"""
HYPERPARAMETERS = """\
Training with this config in `build_optimizer` gives a learning rate of zero after the first epoch:

```yaml
optimizer:
  name: AdamW
  lr: 0.001
  weight_decay: 0.0005
scheduler:
  name: CosineWarmup
  warmup_steps: 500
  min_lr: 1.0e-6
  resume: null
```
"""
ATTRIBUTES = """\
After `xr.merge([a, b])` the attributes printed are:

    units: None
    long_name: None
    standard_name: air_temperature
    valid_min: 0.5
    valid_max: 1.5
    scale_factor: 1.0
"""


def test_a_pandas_report_aligned_on_its_colons_is_dropped() -> None:
    """pandas aligns its keys (``pandas           : 1.1.3``): a review found its report kept."""
    issue = "groupby drops the index name\n\ndf.groupby('a').sum() loses it.\n\n" + PD_REPORT
    terms = {t for t, _ in shape.analyze(issue).terms}
    assert {"groupby", "index", "loses"} <= terms
    assert not terms & {"lc_all", "byteorder", "installed", "show_versions", "python-bits", "bits"}


@pytest.mark.parametrize("printed", [CONFIG, HYPERPARAMETERS, ATTRIBUTES], ids=["config", "hyper", "attrs"])
def test_a_pasted_config_or_printout_is_no_environment_report(printed: str) -> None:
    """``key: value`` lines, versions and ``None`` among them, without a line only a report
    prints (``_REPORT_MARK``): the keys are what the bug may be about, and the sentence above
    them is the bug's (a review: these were dropped, the sentence with them)."""
    issue = "a title\n\n" + printed
    assert shape._without_report_blocks(issue) == issue
    short = "title\n\nINSTALLED VERSIONS\nOS: Linux\nPython: 3.9.1\npython-bits: 64\nbar: 1.2\n"
    assert shape._without_report_blocks(short) == short  # 5 lines: under REPORT_BLOCK_LINES


def test_a_pytest_error_line_s_exception_is_read_without_its_module() -> None:
    """pytest prefixes an error line with ``E``: its exception's module is left out of the
    terms as on any error line (``jinja2.exceptions.`` named where the class is defined)."""
    issue = ("filter lookup fails in a sandboxed template\n\n"
             "Rendering a template that uses a custom filter fails under the sandbox:\n\n"
             "    def test_render():\n>       env.from_string('{{ 1|x }}').render()\n"
             "E   jinja2.exceptions.TemplateAssertionError: No filter named 'x'.\n")
    terms = dict(shape.analyze(issue).terms)
    assert "templateassertionerror" in terms and "filter" in terms
    assert {"exceptions", "jinja2"}.isdisjoint(terms)


RG_FORM = """\
Search becomes extremely slow after a file with a very long line

#### What version of ripgrep are you using?

ripgrep 11.0.1
-SIMD -AVX (compiled)
+SIMD +AVX (runtime)

#### How did you install ripgrep?

brew install ripgrep

#### What operating system are you using ripgrep on?

Linux (CentOS 7)

#### Describe your bug.

With one file of a single 7.5 MB line in the tree, every small file after it is searched slowly.

#### What is the expected behavior?

Roughly the time of reading the files.
"""
BOLD_FORM = """\
histplot ignores weights with bins as an array

**Describe the bug**
`histplot(x, weights=w, bins=edges)` draws unweighted counts.

**Expected behavior**
Weighted counts.

**Environment info**
- Sphinx extensions: sphinx.ext.autodoc
"""


def test_an_issue_template_s_prompts_and_setup_answers_are_no_words_of_the_bug() -> None:
    """ripgrep's form asks for the version, the installation and the system under headings
    in every issue: ``behavior`` (three headings) weighed among the heaviest terms, and the
    answers' ``simd``, ``avx``, ``brew``, ``centos`` led four issues to build and packaging
    scripts (a newcomer). Prompts are blanked with the short answers to setup questions;
    the bug's own words, and an answer under another prompt, stay."""
    kept = shape._without_form_prompts(RG_FORM)
    lines, was = kept.split("\n"), RG_FORM.split("\n")
    assert len(lines) == len(was)  # blanked, not removed
    assert [line for line in lines if line.strip()] == [was[0], was[18], was[22]]
    terms = {t for t, _ in shape.analyze(RG_FORM).terms}
    assert {"slow", "line", "small", "searched", "reading"} <= terms
    assert not terms & {"behavior", "simd", "avx", "brew", "centos", "ripgrep", "install", "operating",
                        "describe", "runtime", "compiled", "linux"}
    bold = shape._without_form_prompts(BOLD_FORM).split("\n")
    assert [line for line in bold if line.strip()] == [
        BOLD_FORM.split("\n")[0], BOLD_FORM.split("\n")[3], "Weighted counts.",
        "- Sphinx extensions: sphinx.ext.autodoc"]  # "Environment info" is no setup prompt
    off = shape.FORM_PROMPTS_DROPPED
    try:
        shape.FORM_PROMPTS_DROPPED = False
        assert {"behavior", "simd", "brew", "centos"} <= {t for t, _ in shape.analyze(RG_FORM).terms}
    finally:
        shape.FORM_PROMPTS_DROPPED = off


@pytest.mark.parametrize("kept", [
    "### Bug in histplot\n\nit fails",  # names the code: no prompt
    "## groupby drops keys?\n\nit does",  # a question of two words of its own
    "```python\n# Describe the bug\nx = 1\n```",  # a comment in a fence
    "import numpy as np\n# check the version\nprint(np.__version__)",  # unfenced code's comment
    "# Expected '916 минути назад'",  # words of its own, in any script
    "### Install hangs\n\n`poetry install` waits forever in `Chooser.choose_for` when offline",
    "### Installation\n\nTraceback (most recent call last):\n  File \"setup.py\", line 3, in find_compiler\n"
    "mypkg._build.CompilerNotFound: gcc",
    "### OS\n\nWindows: joining a drive letter path fails in our code since the last release of it",
    "- [ ] `DataFrame.fillna`\n- [x] `DataFrame.set_index`",  # a task list of the code's names
], ids=["named", "question", "fenced", "comment", "script", "own-heading", "traceback", "prose", "tasks"])
def test_a_heading_of_the_bug_or_an_answer_holding_it_stays(kept: str) -> None:
    """Only a heading of prompt words (one other word when it asks or asks for the setup)
    is a prompt, never a comment of code; a setup answer holding a failure, a code name in
    a sentence or a sentence stays (its heading still goes); a checklist naming code stays
    (a review). Each text follows a prompt that is dropped."""
    text = "title\n\n**Describe the bug**\n\n" + kept + "\n"
    out = shape._without_form_prompts(text).split("\n")
    assert out[2] == ""  # the prompt before it
    heading = kept.split("\n")[0]
    own = kept.split("\n")[1:] if heading in ("### Install hangs", "### Installation", "### OS") else kept.split("\n")
    assert [line for line in out[3:] if line.strip()] == [line for line in own if line.strip()]


def test_a_setup_answer_ends_at_the_next_heading_or_its_first_block() -> None:
    """With no heading after it, a setup prompt's answer is its first block only (a review:
    the rest of the text, a repro and its names, was blanked as the answer); a one-line
    fence (```` ```cmd``` ````) opens nothing; a long answer is kept."""
    text = ("title\n\n**Version**\npandas 2.1.0\n\n"
            "Calling `pd.read_csv(...)` returns an int64 index;\n`_set_index_dtype` skips it.\n")
    assert [line for line in shape._without_form_prompts(text).split("\n") if line.strip()] == [
        "title", "Calling `pd.read_csv(...)` returns an int64 index;", "`_set_index_dtype` skips it."]
    fenced = "title\n\n### Version\n\n```\nripgrep 13.0.0\n```\n\nIt crashes in `normalize`.\n"
    assert [line for line in shape._without_form_prompts(fenced).split("\n") if line.strip()] == [
        "title", "It crashes in `normalize`."]
    inline = "title\n\n```black --preview x.py```\n\n### Describe the bug\n\nIt crashes in `fstring`.\n"
    assert [line for line in shape._without_form_prompts(inline).split("\n") if line.strip()] == [
        "title", "```black --preview x.py```", "It crashes in `fstring`."]
    long = "title\n\n### Sphinx version\n\n" + "\n".join(f"line {i}" for i in range(9)) + "\n\n### Next?\n"
    assert shape._without_form_prompts(long) == long.replace("### Sphinx version", "").replace("### Next?", "")


def test_go_s_version_prompt_is_read_past_its_aside() -> None:
    """"What version of Go are you using (`go version`)?": a parenthesis and a code span
    are left out before the words are counted (``go`` twice was two other words: a review)."""
    text = ("x: panic on nil map\n\n### What version of Go are you using (`go version`)?\n\n"
            "<pre>\n$ go version\ngo version go1.21.0 linux/amd64\n</pre>\n\n### What did you do?\n\nran it\n")
    assert [line for line in shape._without_form_prompts(text).split("\n") if line.strip()] == [
        "x: panic on nil map", "ran it"]


def test_a_setting_of_the_setup_given_as_label_and_value_is_no_words_of_the_bug(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """gin's form lists ``- go version: go1.13`` under "Environment", a heading that asks
    for nothing; guzzle's opens with ``**PHP version**: 7.3.9``: their ``go1``, ``v1``,
    ``php``, ``version`` weighed as the reporter's words (a review). A line past the title
    whose label asks for the setup, with a value holding no evidence, is blanked; a title,
    a label of other words, a value naming code in a sentence and a fenced line stay."""
    issue = ("Version: 1.2 breaks the router\n\n"
             "**Guzzle version(s) affected**: 6.4.1\n**PHP version**: 7.3.9\n**OS:** macOS 12\n\n"
             "The router panics on a trailing slash.\n\n## Environment\n\n- go version: go1.13\n"
             "- gin version (or commit ref): v1.5.0\n- operating system: linux/amd64\n"
             "- Sphinx extensions: sphinx.ext.autodoc\n"
             "- Version: 2.0 makes `Router.handle()` fail on every call\n"
             "```yaml\nos: linux\n```\n")
    kept = [line for line in shape._without_form_prompts(issue).split("\n") if line.strip()]
    assert kept == ["Version: 1.2 breaks the router", "The router panics on a trailing slash.",
                    "- Sphinx extensions: sphinx.ext.autodoc",
                    "- Version: 2.0 makes `Router.handle()` fail on every call", "```yaml", "os: linux", "```"]
    terms = {t for t, _ in shape.analyze(issue).terms}
    assert {"router", "panics", "trailing", "slash"} <= terms
    assert not terms & {"go1", "php", "affected", "macos", "amd64", "commit"}
    monkeypatch.setattr(shape, "SETUP_LINES_DROPPED", False)
    assert {"go1", "php", "macos", "amd64"} <= {t for t, _ in shape.analyze(issue).terms}


def test_a_template_s_ticked_checklist_is_no_words_of_the_bug() -> None:
    """xarray's form has the reporter tick four boxes in every issue (``- [X] Minimal
    example — the example is as focused as reasonably possible ..``): their words
    (``focused``, ``verifiable``, ``pastes``, ``binder``) are the form's; a task list in a
    fence is code and stays."""
    issue = ("to_zarr with region raises ReadOnlyError\n\n### What happened?\n\nThe region write fails.\n\n"
             "### MVCE confirmation\n\n"
             "- [X] Minimal example — the example is as focused as reasonably possible.\n"
             "- [x] Verifiable example — the example copy & pastes into an IPython prompt or Binder notebook.\n"
             "* [ ] New issue — a search of GitHub Issues did not find your issue.\n\n"
             "```markdown\n- [x] rendered task\n```\n")
    kept = [line for line in shape._without_form_prompts(issue).split("\n") if line.strip()]
    assert kept == ["to_zarr with region raises ReadOnlyError", "The region write fails.",
                    "```markdown", "- [x] rendered task", "```"]
    terms = {t for t, _ in shape.analyze(issue).terms}
    assert {"region", "write", "fails", "readonlyerror"} <= terms
    assert not terms & {"focused", "verifiable", "pastes", "binder", "notebook", "ipython", "confirmation"}


@pytest.mark.parametrize(("message", "kept"), [
    ("TypeError: Cannot read properties of undefined (reading '_zod')", "'_zod')"),
    ("TypeError: Cannot read property 'shape' of null", "'shape'"),
    ("TypeError: schema.pick is not a function", "schema.pick"),
    ("ReferenceError: Cannot access 'T' before initialization", "'T'"),
    ("TypeError: undefined is not an object (evaluating 'a.b')", "'a.b')"),
])
def test_a_javascript_engine_s_words_are_no_words_of_the_project(message: str, kept: str) -> None:
    """V8's "Cannot read properties of undefined (reading '_zod')": its ``cannot`` and
    ``read`` matched zod's "NaN cannot be represented" and ``case "readonly"`` and led an
    issue elsewhere (a newcomer); the name it quotes stays."""
    out = shape._without_engine_messages(message)
    assert kept in out and not {"Cannot", "properties", "reading", "function", "evaluating"} & set(out.split())
    issue = f"parse crashes\n\nCalling it fails:\n\n```\n{message}\n```\n"
    terms = {t for t, _ in shape.analyze(issue).terms}
    assert not terms & {"cannot", "properties", "reading", "evaluating", "initialization"}
    off = shape.ENGINE_MESSAGES_DROPPED
    try:
        shape.ENGINE_MESSAGES_DROPPED = False
        assert {t for t, _ in shape.analyze(issue).terms} & {"cannot", "function", "evaluating", "initialization"}
    finally:
        shape.ENGINE_MESSAGES_DROPPED = off


def test_a_class_named_like_a_runtime_global_is_a_name() -> None:
    """``Console`` is rich's class, the subject of its issues: a rule reading ``console``
    as no name (for JavaScript's ``console.log``) lost it (found before it shipped)."""
    issue = ("Console.print drops markup when soft_wrap is set\n\n```python\nfrom rich.console import Console\n"
             "c = Console()\nc.print(\"[bold]x[/]\", soft_wrap=True)\n```\nThe markup is printed raw.\n")
    assert "Console" in shape.analyze(issue).names


def test_a_compiler_s_absolute_paths_are_named_and_an_included_header_is_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """GCC's ``/opt/../include/fmt/core.h:2658:8: error:`` and MSVC's
    ``C:\\src\\..\\xchar.h(1066): error`` name their files (before, only a bare ``core.h``
    was read: no path); a reproducer's ``#include <fmt/format.h>`` names the API's entry,
    no file of the fault (fmt's newcomer: its path bonus led three issues to format.h)."""
    issue = ("FMT_STRING with a named argument fails to compile\n\n```c++\n#include <fmt/format.h>\n"
             "int main() { fmt::print(FMT_STRING(\"{x}\"), fmt::arg(\"x\", 1)); }\n```\n\n```\n"
             "/opt/compiler-explorer/libs/fmt/8.1.1/include/fmt/core.h:2658:8: error: static assertion failed\n"
             "C:\\src\\fmt\\include\\fmt\\xchar.h(1066): error C2338: oops\n```\nSee also src/os.cc.\n")
    assert shape.analyze(issue).paths == (
        "src/os.cc", "opt/compiler-explorer/libs/fmt/8.1.1/include/fmt/core.h", "src/fmt/include/fmt/xchar.h")
    monkeypatch.setattr(shape, "ABSOLUTE_PATHS_NAMED", False)
    monkeypatch.setattr(shape, "INCLUDED_PATHS_UNNAMED", False)
    assert shape.analyze(issue).paths == ("fmt/format.h", "src/os.cc")


def test_a_reporter_s_own_definitions_are_no_names_and_weigh_as_prose(monkeypatch: pytest.MonkeyPatch) -> None:
    """An astroid reporter's reproducer defined ``Config`` with a ``host`` property: looked
    up as the project's definitions and weighed as code, they drew five chunks tied at one
    score (a newcomer). A name its code blocks define and no sentence writes is the
    reporter's own; one the prose writes (sympy 24152's copy of
    ``TensorProduct._eval_expand_tensorproduct``, named in its sentences) is the project's."""
    issue = ("no-member false positive on a property with a setter\n\n"
             "```python\nclass Config:\n    def __init__(self, host):\n        self._host = host\n\n"
             "    @property\n    def host(self):\n        return self._host\n\n"
             "async def fetch_all(session):\n    pass\n\n"
             ">>> def helper(x): return x\n"
             "cfg = Config('localhost')\nprint(cfg.host.upper())\n```\n\n"
             "```go\nfunc (s *Server) ServeStatic(w http.ResponseWriter) {}\n```\n\n"
             "`Config('x').host` is inferred as `Config` itself, yet the fix belongs in ServeStatic or "
             "in the inference of properties.\n")
    assert shape.own_definitions(issue) == {"Config", "__init__", "host", "fetch_all", "helper"}
    asked = shape.analyze(issue)
    assert not {"Config", "host", "fetch_all", "helper"} & set(asked.names)
    assert "ServeStatic" in asked.names  # the prose writes it: the project's
    terms = dict(asked.terms)
    monkeypatch.setattr(shape, "OWN_DEFINITIONS_PROSE", False)
    assert shape.own_definitions(issue) == frozenset()
    plain = shape.analyze(issue)
    assert {"Config", "host", "fetch_all"} <= set(plain.names)
    plain_terms = dict(plain.terms)
    # ``fetch_all`` is written once, in code: weighed as prose, half its code weight
    assert terms["fetch"] == pytest.approx(plain_terms["fetch"] / 2)
    assert terms["servestatic"] == plain_terms["servestatic"]


def test_own_definitions_is_linear_on_a_hostile_paste() -> None:
    paste = "t\n\n```\n" + ">>> " * 20_000 + "\n" + "class " * 20_000 + "\n" + "def x():\n" * 5_000 + "```\n"
    started = time.perf_counter()
    shape.own_definitions(paste)
    shape.analyze(paste)
    assert time.perf_counter() - started < 5.0


def test_a_sentence_a_program_printed_in_a_fence_names_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pip's resolver output (``ERROR: Could not find a version that satisfies the
    requirement acme-sdk==2.0``) named ``find``, ``version``, ``that``, ``satisfies`` and
    as definitions (a newcomer). A fenced line that reads as a sentence keeps its code words
    as names (``PackageFinder.find_all_candidates``); a code line keeps them all."""
    issue = ("pip lists yanked releases as available\n\n"
             "```console\n$ pip install acme-sdk==2.0\n"
             "ERROR: Could not find a version that satisfies the requirement acme-sdk==2.0 (from versions: 1.0)\n"
             "The candidates were collected by PackageFinder.find_all_candidates before the yank check ran\n"
             "```\n\n```python\nfinder = make_finder(index_urls)\nprint(finder.find_best_candidate('acme-sdk'))\n```\n")
    asked = shape.analyze(issue)
    assert not {"find", "that", "satisfies", "requirement", "candidates", "collected"} & {n.lower() for n in asked.names}
    assert {"find_all_candidates", "make_finder", "find_best_candidate"} <= set(asked.names)
    terms = dict(asked.terms)
    monkeypatch.setattr(shape, "FENCED_PROSE_LINES", False)
    plain = shape.analyze(issue)
    assert {"find", "that", "satisfies", "requirement"} <= {n.lower() for n in plain.names}
    # its words weigh as code still: the sentence is often the program's own string
    assert terms == dict(plain.terms)


def test_an_outer_frame_s_path_weighs_with_its_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """A path was read from the whole text, so an outer frame's weighed as a path the
    reporter wrote (``WEIGHT_FRAME``), above its frame's ``OUTER_FRAME_WEIGHT``: pip's
    ``resolution/resolvelib/factory.py`` frames weighed as the innermost's
    ``JSONDecodeError`` (a newcomer). The innermost frames' paths keep the frame weight."""
    outer = "".join(f'  File "/venv/lib/python3.11/site-packages/pip/_internal/resolution/resolvelib/step{i}.py", '
                    f"line {i + 1}, in step{i}\n    step{i + 1}()\n" for i in range(6))
    inner = "".join(f'  File "/venv/lib/python3.11/site-packages/pip/_internal/cache.py", line {9 + i}, in {f}\n'
                    f"    {f}_next()\n" for i, f in enumerate(("get", "load", "__init__")))
    assert shape.INNER_FRAMES == 3
    issue = ("pip install crashes on a corrupt cache entry\n\nTraceback (most recent call last):\n" + outer + inner
             + "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n")
    terms = dict(shape.analyze(issue).terms)
    monkeypatch.setattr(shape, "OUTER_FRAME_PATHS_OUTER", False)
    plain = dict(shape.analyze(issue).terms)
    assert plain["resolvelib"] == pytest.approx(plain["cache"])  # the outer frames' words as the innermost's
    assert terms["resolvelib"] == pytest.approx(plain["resolvelib"] * shape.OUTER_FRAME_WEIGHT / shape.WEIGHT_FRAME, abs=1e-3)
    assert terms["cache"] == plain["cache"]


def test_versions_protocols_and_a_url_s_route_are_no_paths() -> None:
    """``3.11.17/3.11.18`` (two versions), ``HTTP/1.1``, ``curl/7.68.0`` and
    ``localhost:8080/static/app.js`` (a route) were paths of an issue (an aiohttp newcomer);
    a path with a letter in its extension stays one."""
    issue = ("Static files 404 since 3.11.17/3.11.18\n\n"
             "GET localhost:8080/static/app.js HTTP/1.1 with curl/7.68.0 gives a 404.\n"
             "The route is added in aiohttp/web_urldispatcher.py and docs/man/aiohttp.1 says nothing.\n")
    assert shape.analyze(issue).paths == ("aiohttp/web_urldispatcher.py",)


RICH_DIAGNOSE = """\
**Platform**
<details>
<summary>Click to expand</summary>

```
$ python -m rich.diagnose
╭──────────── <class 'rich.console.Console'> ────────────╮
│ A high level console interface.                        │
│                                                        │
│     color_system = 'truecolor'                         │
│         encoding = 'utf-8'                             │
│           height = 25                                  │
│      is_terminal = True                                │
│   legacy_windows = False                               │
│          options = ConsoleOptions(                     │
│                        size=ConsoleDimensions(         │
│                            width=80, height=25),       │
│                        max_width=80,                   │
│                    )                                   │
│             size = ConsoleDimensions(width=80, height=25) │
╰────────────────────────────────────────────────────────╯
╭── <class 'rich._windows.WindowsConsoleFeatures'> ──╮
│ truecolor = False                                  │
│        vt = False                                  │
╰────────────────────────────────────────────────────╯
```
</details>
"""
ENVINFO = """\
Output of `npx envinfo --system --binaries`:

  System:
    OS: macOS 14.2
    CPU: (10) arm64 Apple M1 Pro
    Memory: 1.20 GB / 16.00 GB
    Shell: 5.9 - /bin/zsh
  Binaries:
    Node: 20.10.0 - /usr/local/bin/node
    npm: 10.2.3 - /usr/local/bin/npm
"""


@pytest.mark.parametrize("dump", [RICH_DIAGNOSE, ENVINFO], ids=["rich.diagnose", "envinfo"])
def test_a_project_s_diagnostic_dump_is_dropped_with_its_command(dump: str) -> None:
    """``python -m rich.diagnose`` draws the console's attributes in a box, no line of it
    one only a report prints: its keys (``color_system``, ``is_terminal``,
    ``ConsoleDimensions``) are the repository's identifiers, and as names they led a
    wrapping bug's answer with ``console.py`` (a newcomer's rich issues)."""
    issue = "Long word is glued onto the previous word\n\nText wrapping folds a long word onto the line before.\n\n" + dump
    kept = shape._without_diagnostic_dumps(issue)
    assert len(kept.split("\n")) == len(issue.split("\n"))  # lines blanked, not removed
    assert kept.split("\n")[:3] == issue.split("\n")[:3]
    gone = {"color_system", "is_terminal", "legacy_windows", "consoledimensions", "windowsconsolefeatures",
            "truecolor", "diagnose", "envinfo", "arm64", "zsh", "memory", "binaries"}
    q = shape.analyze(issue)
    assert not {t for t, _ in q.terms} & gone
    assert not {n.lower() for n in q.names} & gone
    assert {"wrapping", "folds", "glued", "word"} <= {t for t, _ in q.terms}
    off = shape.DIAGNOSTIC_REPORTS_DROPPED
    try:
        shape.DIAGNOSTIC_REPORTS_DROPPED = False
        assert shape._without_diagnostic_dumps(issue) == issue
        before = shape.analyze(issue)
        assert ({t for t, _ in before.terms} | {n.lower() for n in before.names}) & gone
    finally:
        shape.DIAGNOSTIC_REPORTS_DROPPED = off


def test_a_box_drawn_output_or_a_short_dump_under_a_diagnostic_is_kept() -> None:
    """A table the bug is about is drawn with box characters too, and a diagnostic's name
    may head a few lines only: neither is a diagnostic dump (no attributes; under
    ``REPORT_BLOCK_LINES``)."""
    table = ("Table borders are misaligned\n\nAfter running the diagnose step the table prints:\n\n"
             "┏━━━━━━┳━━━━━━━┓\n┃ Name ┃ Value ┃\n┡━━━━━━╇━━━━━━━┩\n│ a    │ 1     │\n│ b    │ 2     │\n"
             "│ c    │ 3     │\n└──────┴───────┘\n")
    assert shape._without_diagnostic_dumps(table) == table
    short = "title\n\n$ mytool doctor\nok = 1\nfast = True\nmode = 'x'\n\nand then it fails\n"
    assert shape._without_diagnostic_dumps(short) == short


JSON_TRACE = '''scrapy settings --get FEEDS fails with a TypeError

Running the settings command on a project with a dict setting fails:

```
Traceback (most recent call last):
  File "/home/u/venv/bin/scrapy", line 8, in <module>
    sys.exit(execute())
  File "/home/u/venv/lib/python3.9/site-packages/scrapy/cmdline.py", line 145, in execute
    _run_print_help(parser, _run_command, cmd, args, opts)
  File "/home/u/venv/lib/python3.9/site-packages/scrapy/commands/settings.py", line 38, in run
    print(json.dumps(s.copy_to_dict()))
  File "/usr/lib/python3.9/json/__init__.py", line 231, in dumps
    return _default_encoder.encode(obj)
  File "/usr/lib/python3.9/json/encoder.py", line 199, in encode
    chunks = self.iterencode(o, _one_shot=True)
  File "/usr/lib/python3.9/json/encoder.py", line 257, in iterencode
    return _iterencode(o, 0)
TypeError: Object of type BaseSettings is not JSON serializable
```
'''


def test_a_trace_s_library_frames_are_no_innermost_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """A trace failing inside ``json.dumps``: the library's frames weigh as outer frames,
    the project's own three innermost (``settings.py``'s ``run``, the source line calling
    ``copy_to_dict``) as the innermost (a newcomer's scrapy issue: ``json``, ``encoder``,
    ``iterencode`` weighed as much as the title's words, and the exporter came first)."""
    on = dict(shape.analyze(JSON_TRACE).terms)
    assert on["run"] > on["json"] > on["iterencode"] and on["execute"] > on["iterencode"]
    assert "copy_to_dict" in on  # the source line under the project's innermost frame
    monkeypatch.setattr(shape, "STDLIB_FRAMES_OUTER", False)
    off = dict(shape.analyze(JSON_TRACE).terms)
    assert off["iterencode"] == off["encoder"] > off["run"] and off["execute"] < off["iterencode"]
    assert "copy_to_dict" not in off
    # a trace only in the library keeps its innermost frames
    monkeypatch.setattr(shape, "STDLIB_FRAMES_OUTER", True)
    alone = JSON_TRACE.replace("/home/u/venv/lib/python3.9/site-packages/scrapy/", "/usr/lib/python3.9/scrapy/")
    alone = alone.replace("/home/u/venv/bin/scrapy", "/usr/lib/python3.9/runpy.py")
    assert dict(shape.analyze(alone).terms)["iterencode"] == off["iterencode"]


SCRAPY_VERSIONS = """\
### Versions

```
Scrapy       : 2.5.0
lxml         : 4.6.3.0
libxml2      : 2.9.10
cssselect    : 1.1.0
parsel       : 1.6.0
w3lib        : 1.22.0
Twisted      : 21.2.0
Python       : 3.8.10 (default, Jun  2 2021, 10:49:15) - [GCC 9.4.0]
pyOpenSSL    : 20.0.1 (OpenSSL 1.1.1k  25 Mar 2021)
cryptography : 3.4.7
```
"""


def test_versions_aligned_on_their_colons_are_report_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """``scrapy version --verbose`` pads each package's name before its colon: its words
    (``open``, ``ssl``, ``lxml``, ``parsel``) led two issues to the module printing them."""
    issue = "FormRequest.from_response sends the form with the wrong method\n\nThe request goes out as PUT.\n\n"
    issue += SCRAPY_VERSIONS
    gone = {"lxml", "libxml2", "cssselect", "parsel", "w3lib", "twisted", "pyopenssl", "openssl", "cryptography"}
    terms = {t for t, _ in shape.analyze(issue).terms}
    assert not terms & gone
    assert {"formrequest", "from_response", "method", "put"} <= terms
    assert shape._REPORT_ALIGNED.fullmatch("pyOpenSSL    : 20.0.1 (OpenSSL 1.1.1k  25 Mar 2021)")
    assert not shape._REPORT_ALIGNED.fullmatch("timeout      : 30 seconds is too short")
    assert not shape._REPORT_ALIGNED.fullmatch("x = 1.5")  # code: no padding before `=`
    monkeypatch.setattr(shape, "ALIGNED_REPORT_LINES", False)
    assert {t for t, _ in shape.analyze(issue).terms} & gone


UNTRACED_TITLE = "Session.merge loses the pending state of a relationship"
UNTRACED_BODY = ("\n\n### Describe the bug\n\nAfter `merge`, the collection was loaded but the flush emits"
                 " nothing for it. The collection, loaded, flushed: nothing. Loaded again, flushed again.\n"
                 "```python\nobj = s.merge(obj)\ns.flush()\n```\n")


def test_an_untraced_issue_s_title_words_weigh_as_its_code_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """An issue printing no frame: each title word weighs at least ``UNTRACED_TITLE_WEIGHT``
    (a title's code word's weight, ``WEIGHT_CODE * TITLE_BOOST``), so ``pending`` and
    ``relationship`` weigh over the body's thrice-read ``loaded``; the title's code word
    ``merge`` weighs as before, and the body's words too."""
    terms = dict(shape.analyze(UNTRACED_TITLE + UNTRACED_BODY).terms)
    assert shape.UNTRACED_TITLE_WEIGHT == shape.WEIGHT_CODE * shape.TITLE_BOOST == 3.0
    assert terms["pending"] == terms["relationship"] == terms["state"] == 3.0
    assert terms["loaded"] < terms["pending"]
    with monkeypatch.context() as m:
        m.setattr(shape, "UNTRACED_TITLE_WEIGHT", 0.0)
        before = dict(shape.analyze(UNTRACED_TITLE + UNTRACED_BODY).terms)
    assert before["pending"] == before["relationship"] == shape.WEIGHT_PROSE * shape.TITLE_BOOST
    assert before["loaded"] > before["pending"]  # the body's repeated word led the title's
    for kept in ("merge", "session", "loaded", "flush", "collection"):
        assert terms[kept] == before[kept], kept


@pytest.mark.parametrize("trace", [
    '\nTraceback (most recent call last):\n  File "lib/orm/session.py", line 10, in merge\n'
    '    self._merge(obj)\nKeyError: \'state\'\n',
    "\n```\npanic: runtime error: invalid memory address\n\ngoroutine 1 [running]:\n"
    "orm.(*Session).merge(0x0)\n\t/src/orm/session.go:10 +0x1d\n```\n",
], ids=["python", "go"])
def test_a_traced_issue_s_title_keeps_its_boost_alone(trace: str) -> None:
    """A printed frame of any runtime keeps the title at ``TITLE_BOOST`` alone: the frames
    lead the title's words (``test_issue_frames``)."""
    asked = shape.analyze(UNTRACED_TITLE + UNTRACED_BODY + trace)
    assert asked.shape is Shape.ISSUE and asked.frames
    terms = dict(asked.terms)
    assert terms["pending"] == terms["relationship"] == shape.WEIGHT_PROSE * shape.TITLE_BOOST


def test_a_trace_alone_s_first_line_is_no_floored_title() -> None:
    """A trace pasted alone has no title: its first line's words weigh as before."""
    trace = ("while saving the pending state\n"
             'Traceback (most recent call last):\n  File "lib/orm/session.py", line 10, in merge\n'
             "    self._merge(obj)\nKeyError: 'state'\n")
    asked = shape.analyze(trace)
    assert asked.shape is Shape.TRACE
    assert dict(asked.terms)["pending"] < shape.UNTRACED_TITLE_WEIGHT


LINTED_TITLE = "`--recursive=y` ignores `ignore-paths`\n"
LINTED_BODY = """\
When running recursively, `ignore-paths` in my settings is ignored.

```shell
pylint --recursive=y src/
```

```
************* Module region_selection
src/region_selection.py:170:0: R0914: Too many local variables (17/15) (too-many-locals)
************* Module about
src/gen/about.py:2:0: R2044: Line with empty comment (empty-comment)
src/gen/about.py:57:0: C0301: Line too long (504/120) (line-too-long)
src/gen/about.py:12:0: C0103: Class name "Ui_About" doesn't conform to snake_case naming style (invalid-name)
************* Module design
src/gen/design.py:24:8: W0201: Attribute 'ok_button' defined outside __init__ (attribute-defined-outside-init)
src/gen/design.py:30:0: R0205: Class 'Ui_Design' inherits from object (useless-object-inheritance)
```

Expected: src/gen/* is not checked.
"""


def test_a_run_of_diagnostics_is_read_to_its_first_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """A linter's output on the reporter's files is a sample: its first
    ``DIAGNOSTIC_RUN_LINES`` diagnostics are read, the rest (module banners among them) are
    not, and the title's and prose's words keep their weights."""
    assert shape.DIAGNOSTIC_RUN_LINES == 3
    terms = dict(shape.analyze(LINTED_TITLE + LINTED_BODY).terms)
    with monkeypatch.context() as m:
        m.setattr(shape, "DIAGNOSTIC_RUN_LINES", 0)
        before = dict(shape.analyze(LINTED_TITLE + LINTED_BODY).terms)
    for gone in ("naming", "snake_case", "ok_button", "inherits", "useless-object-inheritance", "design",
                 "invalid-name"):
        assert gone in before and gone not in terms, gone
    for kept in ("too-many-locals", "empty-comment", "line-too-long", "ignore-paths", "recursive"):
        assert terms[kept] == before[kept], kept
    # the blanked lines keep their places: the fence after them still closes the block
    assert terms["checked"] == before["checked"]


def test_a_short_run_of_diagnostics_is_read_whole() -> None:
    """Three diagnostics or fewer (a false positive's report) are read whole, and a line of
    prose ends a run: the next run counts from one again."""
    text = ("False positive no-member on Registry.load\n\n```\n"
            "test.py:11:0: E1101: Method 'load' has no 'cache_clear' member (no-member)\n"
            "test.py:12:0: E1101: Method 'save' has no 'cache_clear' member (no-member)\n"
            "```\nand in the other module\n```\n"
            "other.py:3:0: E1120: No value for argument 'a' in constructor call (no-value-for-parameter)\n"
            "mypy_case.py:8: error: Unpacking **kwargs in \"field()\" is not supported\n```\n")
    assert shape._without_diagnostic_tail(text) == text


def test_windows_line_breaks_read_as_the_same_issue(monkeypatch: pytest.MonkeyPatch) -> None:
    """An issue typed in a browser arrives with ``\\r\\n`` (81 of swe-lite-dev's 89): it
    reads as the same issue with ``\\n``; with the switch off the diagnostics' lines and
    the banners were no lines at all."""
    text = LINTED_TITLE + LINTED_BODY
    crlf = text.replace("\n", "\r\n")
    lf = shape.analyze(text)
    assert shape.analyze(crlf).terms == lf.terms
    assert shape.analyze(crlf).names == lf.names
    assert shape.analyze(text.replace("\n", "\r")).terms == lf.terms
    with monkeypatch.context() as m:
        m.setattr(shape, "LINE_BREAKS_NORMALISED", False)
        assert "naming" in dict(shape.analyze(crlf).terms)


PIPE_REPORT = """\
codify writes AT values as tuples

```python
from pydicom.util.codify import code_dataset
print(code_dataset(ds))
```

**Your environment**

```
module       | version
------       | -------
platform     | Linux-6.1.12-arch1-1-x86_64-with-glibc2.37
Python       | 3.10.9 (main, Dec  7 2022, 13:47:07) [GCC 12.2.0]
pydicom      | 2.4.0.dev0
gdcm         | _module not found_
numpy        | 1.24.2
PIL          | _module not found_
pylibjpeg    | _module not found_
```
"""


def test_a_pipe_drawn_version_table_is_an_environment_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """``env_info``'s ``module | version`` rows are a report: their words are no terms or
    names; the issue's own words keep their weights."""
    asked = shape.analyze(PIPE_REPORT)
    terms = dict(asked.terms)
    with monkeypatch.context() as m:
        m.setattr(shape, "PIPE_REPORTS_DROPPED", False)
        before = shape.analyze(PIPE_REPORT)
    for gone in ("platform", "pylibjpeg", "gdcm", "module"):
        assert gone in dict(before.terms) and gone not in terms, gone
    assert "pylibjpeg" in before.names and "pylibjpeg" not in asked.names
    for kept in ("codify", "code_dataset", "tuples"):
        assert terms[kept] == dict(before.terms)[kept], kept


@pytest.mark.parametrize("table", [
    # a markdown table of results, no versions in it
    "| input | output |\n|---|---|\n| a | 1 |\n| b | 2 |\n| c | 3 |\n| d | 4 |\n| e | 5 |\n",
    # versions, but fewer rows than a report's
    "| package | version |\n|---|---|\n| numpy | 1.24.2 |\n| scipy | 1.10 |\n",
    # rows that say versions under a header that does not
    "| name | value |\n|---|---|\n| numpy | 1.24.2 |\n| scipy | 1.10.1 |\n| pandas | 2.0.0 |\n| dask | 2023.1 |\n",
], ids=["results", "short", "no-version-header"])
def test_other_pipe_tables_are_kept(table: str) -> None:
    text = "Wrong values in the merge\n\n" + table
    assert shape._without_pipe_reports(text) == text


def test_a_markdown_package_version_table_is_dropped_whole() -> None:
    table = ("| Package | Version |\n|---|---|\n| numpy | 1.26.4 |\n| scipy | 1.13.0 |\n"
             "| pandas | 2.2.1 |\n| dask | not installed |\n| zarr | N/A |\n")
    text = "Wrong values in the merge\n\n" + table + "\nThe merge drops rows.\n"
    kept = shape._without_pipe_reports(text).split("\n")
    assert kept[0] == "Wrong values in the merge" and kept[-2] == "The merge drops rows."
    assert not any("|" in line for line in kept)
    assert len(kept) == len(text.split("\n"))  # blanked, not removed
