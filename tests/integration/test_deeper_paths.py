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
from coderecalld.query import anchors
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
