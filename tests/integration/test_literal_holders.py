"""A quoted literal query lists the chunks holding it verbatim first, source before tests
(``service._literal_holders_first``): cobra's ``"unknown command"`` answered one source
function and nine tests (the function printing it for a mistyped subcommand absent), and
starlette's ``"starlette.exception_handlers"`` ranked chunks without the string above the
one holding it (newcomers). Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import service
from conformance_cases import indexed

ARGS = '''def no_args(cmd, args):
    """Fail when a command that takes no arguments gets one."""
    if args:
        raise ValueError("unknown command %r for %r" % (args[0], cmd.path))


def legacy_args(cmd, args):
    """Validate the arguments of a command in the old way: a root command with
    subcommands rejects a word it does not know, suggesting the commands that are close
    to it, and a command without subcommands accepts any words. The arguments are read
    one by one; flags were stripped before, so what is left are the positional words a
    user typed after the command path, and a root command may have aliases, hidden
    commands and deprecated ones, each of which is looked at when suggesting."""
    if not cmd.subcommands:
        return None
    if not cmd.parent and args:
        hint = cmd.suggestions_for(args[0])
        message = "unknown command %r for %r%s" % (args[0], cmd.path, hint)
        raise ValueError(message)
    return None
'''
TESTS = {f"tests/test_cmd_{i}.py": (
    f"def test_unknown_command_{i}(run):\n"
    f"    out = run('app', 'stauts{i}')\n"
    f"    assert 'unknown command' in out\n"
    f"    assert out.startswith('Error: unknown command')\n"
    f"    # unknown command: the command suggests, unknown command again\n"
    f"    assert out.count('unknown command') == 1, 'unknown command once'\n") for i in range(12)}
HANDLERS = '''class ExceptionMiddleware:
    """Handle exceptions raised by the app: the exception handlers are looked up by type."""

    def __init__(self, app, handlers=None):
        self.app = app
        self.exception_handlers = dict(handlers or {})

    def __call__(self, scope):
        scope["pkg.exception_handlers"] = (self.exception_handlers, {})
        return self.app(scope)


def build_middleware_stack(app, exception_handlers, handlers_by_status):
    """Build the stack: exception handlers for exceptions, and handlers by status code."""
    for key, value in exception_handlers.items():
        handlers_by_status[key] = value
    return ExceptionMiddleware(app, exception_handlers)


def add_exception_handler(app, exc_class, handler):
    """Register one of the exception handlers of the app, for ``exc_class``."""
    app.exception_handlers[exc_class] = handler
'''
ROUTING = ('''class Router:
    def __init__(self, routes=None, redirect_slashes=True):
        self.routes = list(routes or [])
        self.redirect_slashes = redirect_slashes

    def app(self, scope):
        """Dispatch a request to the first route matching its path."""
''' + "".join(f"        partial_{k} = self.routes[{k}] if len(self.routes) > {k} else None\n" for k in range(40))
           + '''        if scope["type"] == "http" and self.redirect_slashes and scope["path"] != "/":
            return scope["path"].rstrip("/")
        return None
''')
REDIRECTS = "".join(f'''
def redirect_{k}(url, slashes=2):
    """Redirect to ``url``: a redirect with slashes, redirect slashes kept, slashes redirect."""
    return ("redirect", url, "/" * slashes)
''' for k in range(6))
FILES = {"pkg/args.py": ARGS, "pkg/exceptions.py": HANDLERS, "pkg/routing.py": ROUTING,
         "pkg/redirects.py": REDIRECTS, **TESTS}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("literal"), FILES) as running:
        yield running


def _page(daemon: Daemon, query: str) -> list[tuple[str, str]]:
    return [(h.path, h.qualified_name) for h in daemon.service.search(query, limit=6, repo="fx")]


def test_source_holders_of_a_quoted_message_come_before_tests(daemon: Daemon,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    page = _page(daemon, '"unknown command"')
    assert sorted(page[:2]) == [("pkg/args.py", "legacy_args"), ("pkg/args.py", "no_args")]
    assert all(path.startswith("tests/") for path, _ in page[2:]) and len(page) == 6
    monkeypatch.setattr(service, "LITERAL_HOLDERS_FIRST", False)
    assert ("pkg/args.py", "legacy_args") not in _page(daemon, '"unknown command"')[:2]


def test_a_quoted_key_puts_its_holder_above_chunks_of_its_words(daemon: Daemon,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert _page(daemon, '"pkg.exception_handlers"')[0] == ("pkg/exceptions.py", "ExceptionMiddleware.__call__")
    monkeypatch.setattr(service, "LITERAL_HOLDERS_FIRST", False)
    assert _page(daemon, '"pkg.exception_handlers"')[0] != ("pkg/exceptions.py", "ExceptionMiddleware.__call__")


def test_an_unquoted_query_keeps_its_order(daemon: Daemon) -> None:
    assert service._unquoted("unknown command") == "" and service._unquoted('"a b"') == "a b"
    assert service._unquoted("''") == "" and service._unquoted("`pkg.key`") == "pkg.key"


def test_an_identifiers_source_readers_off_the_page_join_its_holders(daemon: Daemon,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    page = _page(daemon, "redirect_slashes")
    assert page[:2] == [("pkg/routing.py", "Router.__init__"), ("pkg/routing.py", "Router.app")]
    monkeypatch.setattr(service, "HOLDERS_JOINING", 0)
    assert ("pkg/routing.py", "Router.app") not in _page(daemon, "redirect_slashes")[:2]


LOCALES = "".join(f'''
def locale_{k}():
    return {{"2 days": "2 days", "ago": "{{0}} ago", "days ago": "days ago, 2 days"}}
''' for k in range(20))
MOMENT = '''class Moment:
    def dehumanize(self, text, locale="en"):
        """Returns a new Moment that represents
        the time difference relative to this one.

        Usage::

            >>> m.dehumanize("2 days ago")
        """
        parts = text.split()
        return self.shift(int(parts[0]))
'''
HUMANIZE_TESTS = {f"tests/test_humanize_{k}.py": (
    f"def test_days_{k}(moment):\n"
    f"    assert moment.humanize({k}) == '2 days ago'\n"
    f"    assert moment.humanize({k} + 1) != 'days ago'\n") for k in range(12)}


URLS = '''def prepare_url(url):
    if "://" not in url:
        raise ValueError(f"Invalid URL {url!r}: No scheme supplied")
    return url
'''


def test_a_quoted_phrase_in_a_docstring_is_found_and_an_unheld_one_is_flagged(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """arrow (a newcomer): ``"2 days ago"``, written in ``Arrow.dehumanize``'s docstring,
    was absent from 30 places of tests and locale classes full of its words; ``"represents
    the time difference relative"`` wraps a docstring line; ``"frobnicate the widget
    cache"``, held nowhere, answered a constructor at 1.0 with no note."""
    files = {"pkg/moment.py": MOMENT, "pkg/locales.py": LOCALES, "pkg/urls.py": URLS, **HUMANIZE_TESTS}
    with indexed(tmp_path, files) as d:
        days = d.service.search('"2 days ago"', limit=6, repo="fx")
        wrapped = d.service.search('"represents the time difference relative"', limit=6, repo="fx")
        nowhere = d.service.search('"frobnicate the days cache"', limit=6, repo="fx")
        # a pasted message with the value it printed is held by its template (a review)
        printed = d.service.search('"Invalid URL \'foo\': No scheme supplied"', limit=3, repo="fx")
        monkeypatch.setattr(service, "LITERAL_HOLDER_DEPTH", service.EVIDENCE_DEPTH)
        shallow = d.service.search('"2 days ago"', limit=6, repo="fx")
    assert (days[0].path, days[0].qualified_name) == ("pkg/moment.py", "Moment.dehumanize")
    assert ("pkg/moment.py", "Moment.dehumanize") not in [(h.path, h.qualified_name) for h in shallow]
    assert (wrapped[0].qualified_name, wrapped.low_confidence) == ("Moment.dehumanize", False)
    assert nowhere and nowhere.low_confidence
    assert nowhere.confidence_reason == (
        "no hit holds 'frobnicate the days cache' verbatim: these hits match its words")
    assert days.low_confidence is False
    assert (printed[0].qualified_name, printed.low_confidence) == ("prepare_url", False)
