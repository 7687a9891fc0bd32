"""A question asking for a symbol's callers ("what calls `X`") answers with the chunks
that call it (``Service._with_callers``), ahead of the definition and of namesakes that
merely share its words; the code's callers before a test's unless the question asks for
tests; ``locate`` leads with the calling file. Real git fixture, real embedded store,
sparse side."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderecalld.query import service
from conformance_cases import indexed

FILES = {
    "pkg/settings.py": '''\
def merge_environment_settings(url, proxies, stream, verify, cert):
    """Merge the environment's proxy settings into the request's settings."""
    return {"proxies": proxies, "stream": stream, "verify": verify, "cert": cert}


def merge_setting(request_setting, session_setting):
    """Merge a request setting with a session setting: environment settings merged."""
    return request_setting or session_setting


def merge_hooks(request_hooks, session_hooks):
    """Merge environment hooks and settings of the session and the request."""
    return request_hooks or session_hooks
''',
    "pkg/sessions.py": '''\
from pkg.settings import merge_environment_settings


class Session:
    def request(self, method, url):
        settings = merge_environment_settings(url, {}, False, True, None)
        return self.send(method, url, **settings)

    def send(self, method, url, **kwargs):
        return (method, url, kwargs)
''',
    "pkg/adapters.py": '''\
import pkg.settings


def prepare(url):
    return pkg.settings.merge_environment_settings(url, None, True, True, None)
''',
    # a function named by a plain word, its one caller, and namesakes by words
    "pkg/settle.py": '''\
def settle(response):
    """Settle a response: resolve it or reject it."""
    return response
''',
    "pkg/dispatch.py": '''\
from pkg.settle import settle


def dispatch(response):
    return settle(response)
''',
    "pkg/settlement.py": '''\
def settlement_terms(calls):
    """What calls settle: the terms of a settlement, settled calls, settle calls."""
    return calls
''',
    # an exception, the one function raising it, a test asserting it and one building it
    "pkg/errors.py": '''\
class MissingSchema(ValueError):
    """The URL's schema (http or https) is missing: requests raise it."""
''',
    "pkg/models.py": '''\
from pkg.errors import MissingSchema


def prepare_url(url):
    if "://" not in url:
        raise MissingSchema(f"Invalid URL {url!r}: No scheme supplied")
    return url
''',
    "tests/test_models.py": '''\
import pytest

from pkg.errors import MissingSchema
from pkg.models import prepare_url


def test_prepare_url_raises_missing_schema():
    with pytest.raises(MissingSchema):
        prepare_url("example.com")
    assert str(MissingSchema("raise requests")) == "raise requests"
''',
    # a function the code only registers (a reference) and tests call
    "pkg/flashing.py": '''\
def get_flashed_messages(with_categories=False):
    """The messages flashed so far."""
    return []


def create_environment(env):
    env.globals.update(get_flashed_messages=get_flashed_messages)
    return env
''',
    "tests/test_flashing.py": '''\
from pkg.flashing import get_flashed_messages


def test_flashed_messages_are_empty():
    assert get_flashed_messages() == []
    assert get_flashed_messages(with_categories=True) == []
''',
    "tests/test_settings.py": '''\
from pkg.settings import merge_environment_settings


def test_merge_environment_settings_keeps_proxies():
    assert merge_environment_settings("u", {"a": 1}, False, True, None)["proxies"] == {"a": 1}
''',
}


def _placed(hits) -> list[tuple[str, str]]:
    return [(h.path, h.qualified_name) for h in hits]


def test_a_callers_question_answers_with_the_calling_chunks(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    question = "what calls `merge_environment_settings`"
    with indexed(tmp_path, FILES) as d:
        hits = d.service.search(question, limit=6, repo="fx")
        tests = d.service.search("which tests call `merge_environment_settings`", limit=6, repo="fx")
        tests_for = d.service.search("where are the tests for merge_environment_settings",
                                     limit=6, repo="fx")
        located = d.service.locate(question, limit=3, repo="fx")
        one = d.service.search(question, limit=1, repo="fx")
        monkeypatch.setattr(service, "CALLER_INSERTS", 0)
        by_words = d.service.search(question, limit=6, repo="fx")
    callers = {("pkg/sessions.py", "Session.request"), ("pkg/adapters.py", "prepare")}
    # the two source callers first (resolved: through the import and the module path),
    # then the rest by their words: the test's call is not placed, the code has calls
    assert set(_placed(hits[:2])) == callers
    assert [h.match for h in hits[:2]] == ["caller"] * 2
    assert [h.path for h in hits if h.match == "caller"] == [h.path for h in hits[:2]]
    # a page shorter than the callers keeps the best of them, not the last placed
    assert [(h.path, h.match) for h in one] == [(hits[0].path, "caller")]
    assert ("pkg/settings.py", "merge_environment_settings") in _placed(hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    # asking for tests puts the test's call first
    assert _placed(tests[:1]) == [("tests/test_settings.py", "test_merge_environment_settings_keeps_proxies")]
    # "tests for X": the tests' calls only are placed, first
    assert [(h.path, h.match) for h in tests_for if h.match == "caller"] == [
        ("tests/test_settings.py", "caller")]
    assert tests_for[0].path == "tests/test_settings.py"
    # ranked by its words alone the definition and its namesakes lead
    assert not callers <= set(_placed(by_words[:2]))
    assert located.files[0].path in {"pkg/sessions.py", "pkg/adapters.py"}
    assert {f.path for f in located.files[:2]} == {"pkg/sessions.py", "pkg/adapters.py"}


@pytest.mark.parametrize("question", ["what calls settle", "where is settle called?"])
def test_a_plain_word_last_in_a_callers_question_names_a_function(tmp_path: Path, question: str) -> None:
    """``settle`` is no code word (no capital, underscore or call), yet the question asks
    for the callers of the function by that name (a newcomer on axios got the definition
    and a namesake by words, none of the call sites)."""
    with indexed(tmp_path, FILES) as d:
        hits = d.service.search(question, limit=3, repo="fx")
    assert [(h.path, h.qualified_name, h.match) for h in hits[:1]] == [("pkg/dispatch.py", "dispatch", "caller")]


def test_a_callers_answer_is_pinned_for_the_confidence(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The call sites placed first are the structural answer, whatever the fused scores
    of their chunks: a gson newcomer's "what calls getDelegateAdapter" had its five callers
    first and was flagged low (dense and sparse disagreed on the first chunk)."""
    judged: list[object] = []
    real = service.confidence.confidence

    def spy(features: object, **kwargs: object) -> tuple[bool, str]:
        judged.append(features)
        return real(features, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service.confidence, "confidence", spy)
    with indexed(tmp_path, FILES) as d:
        hits = d.service.search("what calls `merge_environment_settings`", limit=6, repo="fx")
        plain = d.service.search("how are environment settings merged", limit=6, repo="fx")
    assert hits[0].match == "caller"
    assert [f.pinned for f in judged] == [True, plain[0].match in ("exact", "evidence")]


def test_a_question_asking_where_an_exception_is_raised_answers_with_the_raise_site(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"where does requests raise MissingSchema" answered the exception's class, and
    ``PreparedRequest.prepare_url`` raising it 8th (a newcomer): the raise sites are the
    class's callers, the code's first (the test building it is not placed)."""
    question = "where does requests raise MissingSchema"
    with indexed(tmp_path, FILES) as d:
        hits = d.service.search(question, limit=4, repo="fx")
        monkeypatch.setattr(service, "CALLER_INSERTS", 0)
        by_words = d.service.search(question, limit=4, repo="fx")
    assert [(h.path, h.qualified_name, h.match) for h in hits[:1]] == [
        ("pkg/models.py", "prepare_url", "caller")]
    assert [h.path for h in hits if h.match == "caller"] == ["pkg/models.py"]
    assert _placed(by_words[:1]) != [("pkg/models.py", "prepare_url")]


def test_a_function_the_code_only_references_keeps_its_tests_calls(tmp_path: Path) -> None:
    """flask's ``get_flashed_messages`` is registered as a Jinja global (a ``reference``) and
    called by tests only: "where is get_flashed_messages called" placed no call site once
    the tests' were dropped for the code's (a review)."""
    with indexed(tmp_path, FILES) as d:
        hits = d.service.search("where is get_flashed_messages called", limit=4, repo="fx")
    assert [(h.path, h.match) for h in hits[:1]] == [("tests/test_flashing.py", "caller")]


MANY = {
    "plot/base.py": '''\
class Plotter:
    def iter_data(self, grouping):
        """Yield the data of each group."""
        yield from grouping
''',
    **{f"plot/kind{i}.py": f'''\
from plot.base import Plotter


class Kind{i}(Plotter):
    def draw_{i}(self, groups):
        for sub in self.iter_data(groups):
            print(sub)
''' for i in range(7)},
    "plot/docs.py": '''\
class Docs:
    def __iter__(self):
        """Iterate the parsed data of the docs."""
        return iter(self.parsed_data)
''',
}


def test_a_callers_question_lists_the_callers_a_page_holds(tmp_path: Path) -> None:
    """seaborn's "who calls iter_data" listed 4 of its 16 calling functions, then a chunk
    saying ``iter(..)`` (a newcomer): a page of ten lists up to eight callers."""
    with indexed(tmp_path, MANY) as d:
        hits = d.service.search("who calls iter_data", limit=10, repo="fx")
    assert sorted(h.qualified_name for h in hits[:7]) == [f"Kind{i}.draw_{i}" for i in range(7)]
    assert all(h.match == "caller" for h in hits[:7])
