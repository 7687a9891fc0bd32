"""A function the issue's title names, an outer frame of a file whose innermost frame
raised its own check, comes first in that file: "join_segmentations fails with TypeError"
listed ``relabel_sequential`` (the check it called, ``raise TypeError(..)``) first and the
titled function second, though the fix was in the caller handing it a bad dtype (a
newcomer's scikit-image issues). When the innermost frame's line fails by itself (not a
``raise``), it stays first: there the fault is (its ``_disambiguate_shift``). Real git
fixture, real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors
from conformance_cases import indexed

JOIN = '''\
import numpy as np


def join_segmentations(s1, s2):
    """Return the join of the two input segmentations."""
    if s1.shape != s2.shape:
        raise ValueError("Cannot join segmentations of different shape.")
    s1_relabeled, _, backward_map1 = relabel_sequential(s1)
    s2_relabeled, _, backward_map2 = relabel_sequential(s2)
    factor = s2.max() + 1
    j = s1_relabeled * factor + s2_relabeled
    return j


def relabel_sequential(label_field, offset=1):
    """Relabel arbitrary labels to {offset, ... offset + number_of_labels}."""
    if not np.issubdtype(label_field.dtype, np.integer):
        raise TypeError("label_field must have an integer dtype")
    labels = np.unique(label_field)
    for a, b in zip(labels, range(offset, offset + len(labels))):
        label_field[label_field == a] = b
    return label_field, labels, labels
'''

FILES = {"seg/_join.py": JOIN}


def _issue(line: int, code: str) -> str:
    return f"""\
join_segmentations fails with TypeError for uint64 label images

`join_segmentations` works for my int64 label images but fails for uint64 ones:

```python
import numpy as np
from seg import join_segmentations
join_segmentations(np.zeros((4, 4), np.uint64), np.ones((4, 4), np.uint64))
```

```
Traceback (most recent call last):
  File "/home/u/join_test.py", line 3, in <module>
    join_segmentations(np.zeros((4, 4), np.uint64), np.ones((4, 4), np.uint64))
  File "/home/u/.venv/lib/python3.11/site-packages/seg/_join.py", line 8, in join_segmentations
    s1_relabeled, _, backward_map1 = relabel_sequential(s1)
  File "/home/u/.venv/lib/python3.11/site-packages/seg/_join.py", line {line}, in relabel_sequential
    {code}
TypeError: label_field must have an integer dtype
```
"""


RAISED = _issue(18, 'raise TypeError("label_field must have an integer dtype")')
FAILED = _issue(20, "for a, b in zip(labels, range(offset, offset + len(labels))):")


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("titled-frame"), FILES) as running:
        yield running


def _functions(daemon: Daemon, text: str) -> list[str]:
    located = daemon.service.locate(text, limit=2, repo="fx")
    assert located.files[0].path == "seg/_join.py"
    return [f.qualified_name for f in located.files[0].functions]


def test_the_titled_caller_of_a_raising_check_comes_first(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _functions(daemon, RAISED)[:2] == ["join_segmentations", "relabel_sequential"]
    monkeypatch.setattr(anchors, "TITLED_FRAME_FIRST", False)
    assert _functions(daemon, RAISED)[:2] == ["relabel_sequential", "join_segmentations"]


def test_an_innermost_line_failing_by_itself_stays_first(daemon: Daemon) -> None:
    assert _functions(daemon, FAILED)[:2] == ["relabel_sequential", "join_segmentations"]


def test_the_line_tested_is_the_first_resolved_frames(daemon: Daemon) -> None:
    """The raise is read under the frame whose function leads the file, not under an
    innermost frame no definition of the file resolves (a function of another release):
    there ``relabel_sequential`` raised, so the titled caller comes first."""
    gone = RAISED.replace(
        "TypeError: label_field",
        '  File "/home/u/.venv/lib/python3.11/site-packages/seg/_join.py", line 40, in _describe_dtype\n'
        "    name = dtype.name\nTypeError: label_field")
    assert _functions(daemon, gone)[:2] == ["join_segmentations", "relabel_sequential"]
