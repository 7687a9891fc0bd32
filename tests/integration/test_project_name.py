"""A question that names the repository it is asked in ("how does widget draw a frame")
is answered as if it did not: within its own repository the project's name tells no code
apart, and the chunks that say it (every module of a package named after the project, its
main class) outranked the code asked about (starlette's ``Starlette`` class, cobra's module
chunks; ``shape.without_project``). Real git fixture, real embedded store (sparse side)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import shape
from conformance_cases import indexed

FILES = {
    "widget/app.py": '''\
"""The widget application: a widget holds widget state for the widget toolkit."""


class Widget:
    """A widget of the widget toolkit; widget options, widget state."""

    def widget_state(self):
        """The widget's widget state."""
        return self.state

    def widget_frame(self):
        """The widget's frame: the widget frame of a widget window, widget borders."""
        return self.frame
''',
    "widget/render.py": '''\
def paint_frame(canvas):
    """Draw one frame on the canvas: clear, draw each layer, flip."""
    canvas.clear()
    for layer in canvas.layers:
        layer.draw(canvas)
    canvas.flip()
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("project"), FILES, name="widget") as running:
        yield running


def test_the_repositorys_own_name_in_a_question_picks_no_code(daemon: Daemon) -> None:
    hits = daemon.service.search("how does widget draw a frame", limit=3, repo="widget")
    assert (hits[0].path, hits[0].qualified_name) == ("widget/render.py", "paint_frame")
    located = daemon.service.locate("how does widget draw a frame", limit=2, repo="widget")
    assert located.files[0].path == "widget/render.py"


@pytest.mark.parametrize(("question", "left"), [
    ("how does widget draw a frame", "how does draw a frame"),
    ("where is widget's frame drawn", "where is frame drawn"),
    ("how do I make a Widget", "how do I make a Widget"),          # capitalised: the class
    ("what does widget.paint_frame draw", "what does widget.paint_frame draw"),  # code
    ("widget frames", "widget frames"),                            # one word would be left
    ("what is widget", "what is widget"),                          # nothing else is asked
    ("how is the widget configured", "how is the widget configured"),  # the thing asked about
    ("where are widget frames retried", "where are frames retried"),
])
def test_only_the_project_name_said_in_lower_case_is_dropped(question: str, left: str) -> None:
    assert shape.without_project(shape.analyze(question), ("widget",)).text == left
    assert shape.without_project(shape.analyze(question), ("gadget",)).text == question
    assert shape.without_project(shape.analyze(question), ("wid",)).text == question  # too short
