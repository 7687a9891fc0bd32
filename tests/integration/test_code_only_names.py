"""A name an issue writes only inside its fenced code blocks, the reporter's program
calling the public API, takes ``anchors.CODE_ONLY_NAME_FACTOR`` of a name's definition
bonus; a name its title, a sentence, an inline code span or a traceback's frame writes
keeps all of it. A newcomer's rich issue about traceback frames was led by
``Console.print_exception``, the reproducer's last call, above the renderer fixed. Real git
fixture, real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors, shape
from conformance_cases import indexed

CONSOLE = '''\
class Console:
    """A terminal console."""

    def print_exception(self, width=100):
        """Print the exception being handled, with its frames."""
        from pkg.traceback import StackRenderer
        self.print(StackRenderer(width=width))

    def print(self, renderable):
        """Print a renderable object to the terminal."""
        return str(renderable)
'''

TRACEBACK = '''\
class StackRenderer:
    """A rendered traceback: its frames and their source lines."""

    def __init__(self, width=100):
        self.width = width

    def _render_stack(self, stack):
        """Render each frame of a stack: its file name, its line number and its source."""
        for frame in stack:
            yield f"{frame.filename}:{frame.lineno}"

    def install(self):
        """Install the traceback handler."""
        return self
'''

FILES = {"pkg/console.py": CONSOLE, "pkg/traceback.py": TRACEBACK}

ISSUE = """\
Frames of a StackRenderer from code without a source file show no line number

When the exception comes from code compiled from a string, the rendered frames have no
file name and no line number at all.

```python
from pkg.console import Console
console = Console()
try:
    exec(compile("1/0", "<string>", "exec"))
except Exception:
    console.print_exception()
```
"""
# the same report, the prose naming the call too
SAID = ISSUE.replace("at all.", "at all when printed by `print_exception`.")
# the same call, as a traceback's frame
FRAMED = ISSUE + """
```
Traceback (most recent call last):
  File "/app/pkg/console.py", line 6, in print_exception
    self.print(StackRenderer(width=width))
ZeroDivisionError: division by zero
```
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("code-only"), FILES) as running:
        yield running


def _functions(daemon: Daemon, text: str, path: str) -> dict[str, float]:
    """The functions ``locate`` lists for ``path``, by qualified name, with their scores."""
    located = daemon.service.locate(text, limit=10, repo="fx", functions=50)
    return {f.qualified_name: f.score for f in located.files if f.path == path for f in f.functions}


def test_a_name_only_the_reproducer_writes_takes_a_share_of_its_bonus(
        repo: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = shape.analyze(ISSUE)
    assert "print_exception" in asked.names[asked.title_names:]
    assert "print_exception" not in anchors._said(asked)
    on = _functions(repo, ISSUE, "pkg/console.py")
    titled = _functions(repo, ISSUE, "pkg/traceback.py")
    monkeypatch.setattr(anchors, "CODE_ONLY_NAME_FACTOR", 1.0)
    off = _functions(repo, ISSUE, "pkg/console.py")
    # one file defines the name: the whole bonus, less the factor's share
    lost = anchors.DEFINITION_WEIGHT * (1.0 - 0.75)
    assert on["Console.print_exception"] == pytest.approx(off["Console.print_exception"] - lost, abs=1e-3)
    assert on["Console.print"] == pytest.approx(off["Console.print"], abs=1e-9)
    # the title's name (``StackRenderer``) keeps its bonus: its file reads the same
    assert "StackRenderer" in asked.names[:asked.title_names]
    assert _functions(repo, ISSUE, "pkg/traceback.py") == pytest.approx(titled, abs=1e-9)


@pytest.mark.parametrize("text", [SAID, FRAMED], ids=["inline-span", "frame"])
def test_a_name_the_prose_or_a_frame_writes_keeps_its_bonus(
        repo: Daemon, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    assert "print_exception" in anchors._said(shape.analyze(text))
    on = _functions(repo, text, "pkg/console.py")
    monkeypatch.setattr(anchors, "CODE_ONLY_NAME_FACTOR", 1.0)
    assert _functions(repo, text, "pkg/console.py") == pytest.approx(on, abs=1e-9)


def test_the_title_s_names_are_said() -> None:
    asked = shape.analyze(ISSUE)
    said = anchors._said(asked)
    assert {"stackrenderer", "frames", "string"} <= said
    assert not {"console", "exec", "compile", "print_exception"} & said  # the block's alone
