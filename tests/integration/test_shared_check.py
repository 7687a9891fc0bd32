"""A Python trace whose innermost frame raised in a shared check (a validation helper
called from many files) under a caller the title names: the caller takes the innermost
frame's weight, as past a guard. scikit-learn's ``permutation_importance`` came second to
``utils/validation.py``'s ``check_consistent_length``, called from 23 files (a newcomer's
issues). A check of few callers keeps the innermost weight: it may be the fault. Real git
fixture, real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors
from conformance_cases import indexed

VALIDATION = '''\
def check_consistent_length(*arrays):
    """Check that all arrays have consistent first dimensions."""
    lengths = [len(x) for x in arrays if x is not None]
    if len(set(lengths)) > 1:
        raise ValueError("Found input variables with inconsistent numbers of samples: %r" % lengths)
'''

IMPORTANCE = '''\
from pkg.utils.validation import check_consistent_length


def permutation_importance(estimator, X, y, sample_weight=None, max_samples=1.0):
    """Permutation importance for feature evaluation."""
    n = int(max_samples * len(X))
    rows = list(range(n))
    X_used = [X[i] for i in rows]
    y_used = [y[i] for i in rows]
    check_consistent_length(X_used, y_used, sample_weight)
    return [estimator(x) for x in X_used]
'''


def _caller(i: int) -> str:
    return f'''\
from pkg.utils.validation import check_consistent_length


def fit_model_{i}(X, y):
    """Fit model {i} on X and y."""
    check_consistent_length(X, y)
    return len(X)
'''


def _files(callers: int) -> dict[str, str]:
    files = {"pkg/utils/validation.py": VALIDATION, "pkg/inspection/importance.py": IMPORTANCE,
             # namesakes share the title's definition weight (a benchmark's, a legacy copy's)
             "benchmarks/bench_importance.py": "def permutation_importance(model):\n    return model\n",
             "pkg/legacy/importance.py": "def permutation_importance(model, X):\n    return [model(x) for x in X]\n"}
    files.update({f"pkg/models/m{i}.py": _caller(i) for i in range(callers)})
    return files


ISSUE = """\
permutation_importance with sample_weight fails when max_samples < 1.0

The check says the input variables have inconsistent numbers of samples, yet my arrays
and my weights all have 100 samples: the check should see consistent lengths.

```
Traceback (most recent call last):
  File "/home/u/perm.py", line 9, in <module>
    r = permutation_importance(clf, X, y, sample_weight=w, max_samples=0.5)
  File "/home/u/.venv/lib/python3.11/site-packages/pkg/inspection/importance.py", line 10, in permutation_importance
    check_consistent_length(X_used, y_used, sample_weight)
  File "/home/u/.venv/lib/python3.11/site-packages/pkg/utils/validation.py", line 5, in check_consistent_length
    raise ValueError("Found input variables with inconsistent numbers of samples: %r" % lengths)
ValueError: Found input variables with inconsistent numbers of samples: [50, 50, 100]
```
"""


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("shared-check"), _files(anchors.SHARED_CHECK_FILES)) as running:
        yield running


@pytest.fixture(scope="module")
def few(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("few-callers"), _files(2)) as running:
        yield running


def _scores(daemon: Daemon) -> dict[str, float]:
    """Each located file's first function's score, by path."""
    located = daemon.service.locate(ISSUE, limit=3, repo="fx")
    return {f.path: f.functions[0].score for f in located.files}


CHECK, CALLER = "pkg/utils/validation.py", "pkg/inspection/importance.py"


def test_the_innermost_weight_moves_from_a_shared_check_to_the_titled_caller(
        shared: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the check, the titled caller is the innermost frame (``FRAME_WEIGHTS[0]``
    instead of ``[1]``) and the check's file keeps its path weight only."""
    passed = _scores(shared)
    monkeypatch.setattr(anchors, "SHARED_CHECKS", False)
    kept = _scores(shared)
    inner, next_ = anchors.FRAME_WEIGHTS
    assert passed[CHECK] == pytest.approx(kept[CHECK] - inner, abs=1e-3)
    assert passed[CALLER] == pytest.approx(kept[CALLER] + inner - next_, abs=1e-3)


def test_a_check_of_few_callers_keeps_the_innermost_weight(few: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = _scores(few)
    monkeypatch.setattr(anchors, "SHARED_CHECKS", False)
    assert _scores(few) == kept
    monkeypatch.setattr(anchors, "SHARED_CHECK_FILES", 2)  # two callers make it shared
    monkeypatch.setattr(anchors, "SHARED_CHECKS", True)
    assert _scores(few)[CHECK] < kept[CHECK]


CHAINED = ISSUE.replace("```\n\"\"\"", "").replace(
    "ValueError: Found input variables with inconsistent numbers of samples: [50, 50, 100]\n```\n",
    """ValueError: Found input variables with inconsistent numbers of samples: [50, 50, 100]

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/home/u/perm.py", line 9, in <module>
    r = permutation_importance(clf, X, y, sample_weight=w, max_samples=0.5)
  File "/home/u/.venv/lib/python3.11/site-packages/pkg/inspection/importance.py", line 10, in permutation_importance
    check_consistent_length(X_used, y_used, sample_weight)
ValueError: sample_weight does not match the samples drawn
```
""")


def test_a_chained_traces_check_keeps_the_innermost_weight(shared: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller that caught the check's error and raised its own showed the cause on
    purpose (matplotlib's ``to_rgba_array`` under ``scatter`` was itself too strict)."""
    assert "direct cause" in CHAINED
    located = shared.service.locate(CHAINED, limit=3, repo="fx")
    kept = {f.path: f.functions[0].score for f in located.files}
    monkeypatch.setattr(anchors, "SHARED_CHECKS", False)
    located = shared.service.locate(CHAINED, limit=3, repo="fx")
    assert {f.path: f.functions[0].score for f in located.files} == kept


UNTITLED = ISSUE.replace("permutation_importance with sample_weight fails when max_samples < 1.0",
                         "Half of the samples with weights fails: inconsistent numbers of samples")
CHECK_TITLED = ISSUE.replace("permutation_importance with sample_weight fails when max_samples < 1.0",
                             "check_consistent_length counts the weights as a third array")


def test_an_untitled_trace_s_shared_check_passes_its_weight_to_the_caller(
        shared: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A title naming no definition of an outer frame's file: past the shared check, the
    first frame of another file is the innermost (astroid's ``extract_node`` ->
    ``_data_build`` under the brain that built the bad source; a newcomer). A title
    naming the check's own function keeps the innermost weight on it."""
    def scores(text: str) -> dict[str, float]:
        return {f.path: f.functions[0].score for f in shared.service.locate(text, limit=3, repo="fx").files}
    passed, named = scores(UNTITLED), scores(CHECK_TITLED)
    monkeypatch.setattr(anchors, "SHARED_CHECKS_UNTITLED", False)
    kept = scores(UNTITLED)
    inner = anchors.FRAME_WEIGHTS[0]
    assert passed[CHECK] == pytest.approx(kept[CHECK] - inner, abs=1e-3)
    assert passed[CALLER] == pytest.approx(kept[CALLER] + inner, abs=1e-3)  # the innermost's, whole
    assert scores(CHECK_TITLED) == named
    monkeypatch.setattr(anchors, "SHARED_CHECKS", False)
    assert scores(CHECK_TITLED) == named


MISSING_CASE = UNTITLED.replace(
    'raise ValueError("Found input variables with inconsistent numbers of samples: %r" % lengths)\n'
    "ValueError: Found input variables with inconsistent numbers of samples: [50, 50, 100]",
    'raise NotImplementedError("Found input variables with inconsistent numbers of samples: %r" % lengths)\n'
    "NotImplementedError: Found input variables with inconsistent numbers of samples: [50, 50, 100]")


def test_an_untitled_trace_raising_not_implemented_keeps_the_innermost_weight(
        shared: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """``NotImplementedError``: the raising function lacks a case, and is where it goes
    (sqlfluff's lexer under the widely called ``Lexer.lex``; a newcomer's issue)."""
    assert "NotImplementedError: Found" in MISSING_CASE
    kept = {f.path: f.functions[0].score for f in shared.service.locate(MISSING_CASE, limit=3, repo="fx").files}
    monkeypatch.setattr(anchors, "SHARED_CHECKS_UNTITLED", False)
    assert {f.path: f.functions[0].score for f in shared.service.locate(MISSING_CASE, limit=3, repo="fx").files} == kept
