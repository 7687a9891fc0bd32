"""A traceback's path that the repository keeps deeper than the trace prints it, end to end
on a real git fixture and the real embedded store (sparse side only): an installed
package's ``site-packages/flasky/app.py`` is the repository's ``src/flasky/app.py`` (a
``src/`` layout), a Ruby gem's ``gems/guard-2.1.0/lib/guard/check.rb`` its
``guard/lib/guard/check.rb`` (a gem in a subfolder of a monorepo); ``anchors._named_files``
finds each by its longest suffix one indexed path ends with (``anchors.PathSuffixes``),
unless several do.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors, service
from conformance_cases import indexed

FILES = {
    "pyproject.toml": '[project]\nname = "flasky"\n',
    "src/flasky/app.py": '''\
def dispatch(request):
    view = request.view
    return view(request)


def full_dispatch(request):
    return dispatch(request)
''',
    # The trace's words: a request dispatched to a view.
    "src/flasky/views.py": '''\
def render_view(request):
    """Render the view of a dispatched request: the request's view, dispatched."""
    return request.view.render(request)
''',
    # Another app.py, two levels from the traced one: ``app.py`` alone names neither.
    "examples/app.py": 'def main():\n    return 0\n',
    "guard/lib/guard/check.rb": '''\
module Guard
  class Check
    def run(request)
      request.fetch(:token)
    end
  end
end
''',
    "lib/guard/words.rb": '''\
module Guard
  # Checks a request's token: fetch the token of the request, check it, run the check.
  def self.check_token(request)
    request.fetch(:token)
  end
end
''',
}

PYTHON_TRACE = """\
Traceback (most recent call last):
  File "/srv/venv/lib/python3.11/site-packages/flasky/app.py", line 6, in full_dispatch
    return dispatch(request)
  File "/srv/venv/lib/python3.11/site-packages/flasky/app.py", line 3, in dispatch
    return view(request)
TypeError: 'NoneType' object is not callable: the view of a dispatched request
"""

RUBY_TRACE = """\
/usr/lib/ruby/gems/3.2.0/gems/guard-2.1.0/lib/guard/check.rb:4:in 'Guard::Check#run': key not found: :token (KeyError)
\tfrom /app/check_token_request.rb:9:in '<main>'
"""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("deeper"), FILES) as running:
        yield running


@pytest.mark.parametrize(("trace", "path", "function"), [
    (PYTHON_TRACE, "src/flasky/app.py", "dispatch"),
    (RUBY_TRACE, "guard/lib/guard/check.rb", "Guard.Check.run"),
])
def test_a_trace_names_the_file_the_repository_keeps_deeper(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch, trace: str, path: str, function: str) -> None:
    with monkeypatch.context() as m:
        m.setattr(anchors, "PATH_WEIGHT", 0.0)
        m.setattr(anchors, "FRAME_WEIGHTS", ())
        m.setattr(anchors, "TRACE_FRAME_WEIGHTS", ())
        flat = {f.path: f.score for f in daemon.service.locate(trace, limit=5, repo="fx").files}
    located = daemon.service.locate(trace, limit=5, repo="fx").files
    assert located[0].path == path
    assert located[0].functions[0].qualified_name == function
    assert round(located[0].score - flat.get(path, 0.0), 6) >= anchors.PATH_WEIGHT + anchors.TRACE_FRAME_WEIGHTS[0]


def test_a_suffix_several_files_end_with_names_none() -> None:
    suffixes = anchors.PathSuffixes(["src/flasky/app.py", "examples/app.py", "a/b/app.py", "c/b/app.py"])
    assert suffixes.find("site-packages/flasky/app.py") == "src/flasky/app.py"
    assert suffixes.find("x/b/app.py") == ""  # b/app.py: a/b/app.py and c/b/app.py
    assert suffixes.find("app.py") == ""      # a bare name is never a suffix here
    assert suffixes.find("nowhere/else.py") == ""


MIDDLEWARE = {
    "app/routing.py": '''\
def process_route(request):
    return request.params["format"].lower()
''',
    **{f"app/middleware/{name}.py": f'''\
def call(request, app):
    """The {name} middleware: call the app with the request, the request's route, format."""
    return app(request)
''' for name in ("xss", "csrf", "traversal", "session")},
}

MIDDLEWARE_TRACE = "Request crashes on a route without a format\\n" + "".join(
    f'  File "/srv/app/middleware/{name}.py", line 3, in call\\n    return app(request)\\n'
    for name in ("session", "traversal", "csrf", "xss")) + (
    '  File "/srv/app/routing.py", line 2, in process_route\\n'
    '    return request.params["format"].lower()\\n'
    "AttributeError: 'NoneType' object has no attribute 'lower'\\n")


@pytest.fixture(scope="module")
def middleware(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("middleware"), MIDDLEWARE) as running:
        yield running


def test_a_traces_outer_frames_files_weigh_less(middleware: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A request's trace runs through every middleware: the files of frames beyond the
    innermost ``INNER_FRAME_FILES`` gain ``OUTER_FRAME_PATH_WEIGHT``, not ``PATH_WEIGHT``."""
    monkeypatch.setattr(service, "LEXICAL_FILES_DEPTH", 0)  # the chunk-side file scores: no fused score
    def outer_gain() -> float:
        located = {f.path: f.score for f in middleware.service.locate(MIDDLEWARE_TRACE, limit=6, repo="fx").files}
        with monkeypatch.context() as m:
            m.setattr(anchors, "PATH_WEIGHT", 0.0)
            m.setattr(anchors, "OUTER_FRAME_PATH_WEIGHT", 0.0)
            m.setattr(anchors, "FRAME_WEIGHTS", ())
            flat = {f.path: f.score for f in middleware.service.locate(MIDDLEWARE_TRACE, limit=6, repo="fx").files}
        return round(located["app/middleware/session.py"] - flat["app/middleware/session.py"], 6)

    assert outer_gain() == anchors.OUTER_FRAME_PATH_WEIGHT < anchors.PATH_WEIGHT
    hits = middleware.service.search(MIDDLEWARE_TRACE, limit=3, repo="fx")
    assert hits[0].qualified_name == "process_route"
