"""An issue's traceback through another package's files (matplotlib's, installed beside
the project) names that package's functions; one the project also defines drew its
namesake: seaborn's ``lineplot(.., dashes=..)`` issue through ``matplotlib/lines.py ..
in _get_dash_pattern`` located ``LineStyle._get_dash_pattern``'s file first, above the
``relational.py`` its own frames name (a newcomer). Those frames are left out when the
trace runs through the project's files too. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import shape
from conformance_cases import indexed

FILES = {
    "seaborn/__init__.py": "",
    "seaborn/relational.py": '''\
def lineplot(data=None, dashes=True):
    """Draw a line plot."""
    return _LinePlotter(data, dashes).plot()


class _LinePlotter:
    def __init__(self, data, dashes):
        self.data, self.dashes = data, dashes

    def plot(self):
        return [self.dashes]
''',
    "seaborn/properties.py": '''\
class LineStyle:
    def _get_dash_pattern(self, style):
        """Convert a linestyle argument to a dash pattern: offset and on-off sequence."""
        return (0, style)

    def _get_dash_style(self, style):
        return style
''',
}

ISSUE = """lineplot with wide-form data and a list of dashes raises TypeError

```python
import seaborn as sns
sns.lineplot(data=df, dashes=[(5, 5), (10, 10)])
```

```
Traceback (most recent call last):
  File "repro.py", line 2, in <module>
    sns.lineplot(data=df, dashes=[(5, 5), (10, 10)])
  File "/home/u/.venv/lib/python3.11/site-packages/seaborn/relational.py", line 3, in lineplot
    return _LinePlotter(data, dashes).plot()
  File "/home/u/.venv/lib/python3.11/site-packages/seaborn/relational.py", line 11, in plot
    return [self.dashes]
  File "/home/u/.venv/lib/python3.11/site-packages/matplotlib/lines.py", line 393, in __init__
    self.set_linestyle(linestyle)
  File "/home/u/.venv/lib/python3.11/site-packages/matplotlib/lines.py", line 1187, in set_linestyle
    self._unscaled_dash_pattern = _get_dash_pattern(ls)
  File "/home/u/.venv/lib/python3.11/site-packages/matplotlib/lines.py", line 56, in _get_dash_pattern
    offset, dashes = style
TypeError: cannot unpack non-iterable int object
```
"""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("foreign"), FILES) as running:
        yield running


def test_another_packages_frames_do_not_draw_the_projects_namesakes(daemon: Daemon) -> None:
    located = daemon.service.locate(ISSUE, limit=2, repo="fx")
    assert [f.path for f in located.files] == ["seaborn/relational.py", "seaborn/properties.py"]
    assert located.files[0].functions[0].qualified_name in ("lineplot", "_LinePlotter.plot")


def test_without_frames_leaves_out_the_named_files_frames() -> None:
    asked = shape.analyze(ISSUE.strip())
    assert {f.path for f in asked.frames} == {"seaborn/relational.py", "matplotlib/lines.py"}
    kept = shape.without_frames(asked, ["matplotlib/lines.py"])
    assert [(f.path, f.function) for f in kept.frames] == [
        ("seaborn/relational.py", "plot"), ("seaborn/relational.py", "lineplot")]
    assert "set_linestyle" not in dict(kept.terms)
    assert shape.without_frames(asked, []) is asked
