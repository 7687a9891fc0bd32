"""A pasted traceback's frames (``shape.Query.frames``, ``anchors.FRAME_WEIGHTS``), end to
end on a real git fixture and the real embedded store (sparse side only).

The entry point of the trace repeats the issue's words; the code that failed, two frames
down, shares few of them. Each case first asserts the order without the frame evidence.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors
from coderecalld.query import locate as locating
from coderecalld.query import frames, service, shape
from conformance_cases import indexed

FILES = {
    # The entry point: the issue's words (import, rows, report, spreadsheet) all over it.
    "ledger/cli.py": '''\
from ledger.pipeline import run_pipeline


def import_report(spreadsheet):
    """Import the rows of a spreadsheet report; print the imported rows of the report."""
    rows = run_pipeline(spreadsheet)
    print(f"imported {len(rows)} rows of the spreadsheet report")
    return rows


def import_spreadsheet_rows(spreadsheet):
    """Import spreadsheet rows for a report: the rows of the imported spreadsheet."""
    return import_report(spreadsheet)
''',
    "ledger/pipeline.py": '''\
from ledger.steps import normalise_amounts


def run_pipeline(sheet):
    """Run each step over a sheet."""
    return normalise_amounts(sheet)
''',
    # Where the trace failed: a nested _f (a name too short to search by its words),
    # beside a helper with more of the issue's words.
    "ledger/steps.py": '''\
def normalise_amounts(sheet):
    """Each cell's amount as a number."""
    def _f(cell):
        return float(cell.replace(",", ""))
    return [_f(cell) for cell in sheet]


def import_rows(spreadsheet):
    """Import the rows of a spreadsheet for the report: each row's cells as float amounts."""
    rows = [[float(cell.replace(",", "")) for cell in row] for row in spreadsheet]
    print(f"imported {len(rows)} rows of the spreadsheet for the report")
    return rows
''',
}

PYTHON_TRACE = """\
Importing a spreadsheet report with an empty row fails
Importing the rows of a spreadsheet report fails when the spreadsheet has an empty row:
the import of the report stops and no rows of the spreadsheet are imported.

Traceback (most recent call last):
  File "/home/me/ledger/cli.py", line 6, in import_report
    rows = run_pipeline(spreadsheet)
  File "/home/me/ledger/pipeline.py", line 6, in run_pipeline
    return normalise_amounts(sheet)
  File "/home/me/ledger/steps.py", line 5, in normalise_amounts
    return [_f(cell) for cell in sheet]
  File "/home/me/ledger/steps.py", line 4, in _f
    return float(cell.replace(",", ""))
ValueError: could not convert string to float: ''
"""

# The same failure as pytest (``--tb=short``) and IPython print their frames.
PYTEST_TRACE = PYTHON_TRACE.split("Traceback")[0] + """\
ledger/cli.py:6: in import_report
    rows = run_pipeline(spreadsheet)
ledger/pipeline.py:6: in run_pipeline
    return normalise_amounts(sheet)
ledger/steps.py:5: in normalise_amounts
    return [_f(cell) for cell in sheet]
ledger/steps.py:4: in _f
    return float(cell.replace(",", ""))
E   ValueError: could not convert string to float: ''
"""

IPYTHON_TRACE = PYTHON_TRACE.split("Traceback")[0] + """\
~/ledger/cli.py in import_report(spreadsheet)
----> 6     rows = run_pipeline(spreadsheet)

~/ledger/pipeline.py in run_pipeline(sheet)
----> 6     return normalise_amounts(sheet)

~/ledger/steps.py in normalise_amounts(sheet)
----> 5     return [_f(cell) for cell in sheet]

~/ledger/steps.py in _f(cell)
----> 4         return float(cell.replace(",", ""))

ValueError: could not convert string to float: ''
"""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("frames"), FILES) as running:
        yield running


# The same trace without its innermost frame: the innermost two are in two files.
SHALLOW_TRACE = PYTHON_TRACE.replace(
    '  File "/home/me/ledger/steps.py", line 4, in _f\n    return float(cell.replace(",", ""))\n', "")


@pytest.mark.parametrize(("issue", "weighs"), [
    (PYTHON_TRACE, {"ledger/steps.py": 0}), (PYTEST_TRACE, {"ledger/steps.py": 0}),
    (IPYTHON_TRACE, {"ledger/steps.py": 0}),
    (SHALLOW_TRACE, {"ledger/steps.py": 0, "ledger/pipeline.py": 1})],
    ids=["python", "pytest", "ipython", "shallow"])
def test_the_files_of_the_two_innermost_frames_gain_their_frame_weight(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch, issue: str, weighs: dict[str, int]) -> None:
    """The two innermost frames are both steps.py's (``_f`` in ``normalise_amounts``): it
    gains the first weight, pipeline.py and the entry point nothing; without ``_f``'s
    frame, pipeline.py is the second frame's file and gains the second weight."""
    monkeypatch.setattr(service, "LEXICAL_FILES_DEPTH", 0)  # the chunk-side file scores: no fused score
    assert "in _f" not in SHALLOW_TRACE and SHALLOW_TRACE.count("File ") == 3
    with monkeypatch.context() as m:
        m.setattr(anchors, "FRAME_WEIGHTS", ())
        flat = {f.path: f.score for f in daemon.service.locate(issue, limit=3, repo="fx").files}
    framed = {f.path: f.score for f in daemon.service.locate(issue, limit=3, repo="fx").files}
    assert set(flat) == set(framed) == set(FILES)
    gained = {path: round(framed[path] - flat[path], 6) for path in FILES}
    assert gained == {path: anchors.FRAME_WEIGHTS[weighs[path]] if path in weighs else 0.0
                      for path in FILES}
    assert anchors.FRAME_WEIGHTS[0] > 0 and anchors.FRAME_WEIGHTS[1] > 0


@pytest.mark.parametrize("issue", [PYTHON_TRACE, PYTEST_TRACE, IPYTHON_TRACE],
                         ids=["python", "pytest", "ipython"])
def test_the_function_the_trace_ran_is_listed_first_in_its_file(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch, issue: str) -> None:
    """steps.py's best chunk by the issue's words is not ``_f`` (import_rows with every
    frame weighed alike, as pytest and IPython print them; normalise_amounts when the outer
    frames of a Python traceback weigh less: the trace ran it); the trace failed in the nested ``_f``, whose name the lexical side cannot
    read."""
    def steps() -> tuple[float, list[tuple[str, int, int]]]:
        found = {f.path: f for f in daemon.service.locate(issue, limit=3, repo="fx").files}
        listed = found["ledger/steps.py"]
        return listed.score, [(f.qualified_name, f.start_line, f.end_line) for f in listed.functions]

    with monkeypatch.context() as m:
        m.setattr(anchors, "FRAME_DEFINITIONS", 0)
        unlooked_score, unlooked = steps()
    assert unlooked[0][0] == ("normalise_amounts" if issue is PYTHON_TRACE else "import_rows")
    with monkeypatch.context() as m:
        m.setattr(anchors, "FRAME_DEFINITIONS", 0)
        m.setattr(shape, "OUTER_FRAME_WEIGHT", shape.WEIGHT_FRAME)
        assert steps()[1][0][0] == "import_rows"
    score, listed = steps()
    assert listed[0] == ("normalise_amounts._f", 3, 4)
    assert {name for name, _, _ in listed} == {"normalise_amounts._f", "normalise_amounts", "import_rows"}
    assert score >= unlooked_score - 1e-6  # the file keeps its place: the frame's chunk takes the best's


def test_an_issues_flat_top_compares_the_first_file_with_another(daemon: Daemon) -> None:
    """An issue asks which file: two chunks of one file at the top are no flat top
    (``confidence`` rule 4 reads the best hit of another file as the second)."""
    issue = ("import_rows and normalise_amounts parse a cell's amount differently\n"
             "import_rows strips the thousands separator of every cell, normalise_amounts too,\n"
             "but a cell with spaces fails in normalise_amounts and passes in import_rows.\n")
    hits = daemon.service.search(issue, limit=5, repo="fx")
    assert hits.features.shape == "issue"
    assert hits[0].path == hits[1].path == "ledger/steps.py"
    other = next(h for h in hits if h.path != "ledger/steps.py")
    assert hits.features.second_score == other.score < hits[1].score


# A trace whose last frames are all in one file, under a generator expression: the
# function that failed, the two frames that called it, and a helper with the issue's words.
TOTALS = {
    "ledger/totals.py": '''\
def total_report(report):
    """Sum a report's lines."""
    return sum(_line_total(line) for line in report)


def _line_total(line):
    _, _, amount = line.partition("=")
    return _to_cents(amount)


def _to_cents(amount):
    return int(round(float(amount) * 100))


def report_totals_summary(report):
    """The totals summary of a report: each report line's totals, summed for the summary."""
    return {"totals": [line for line in report], "summary": len(report)}
''',
}

TOTALS_TRACE = """\
report_totals_summary fails on a report line without an amount
The report totals summary fails when a report line has no amount: no totals summary for
the report at all, and report_totals_summary is what we call.

Traceback (most recent call last):
  File "/srv/app/ledger/totals.py", line 3, in total_report
    return sum(_line_total(line) for line in report)
  File "/srv/app/ledger/totals.py", line 3, in <genexpr>
    return sum(_line_total(line) for line in report)
  File "/srv/app/ledger/totals.py", line 8, in _line_total
    return _to_cents(amount)
  File "/srv/app/ledger/totals.py", line 12, in _to_cents
    return int(round(float(amount) * 100))
ValueError: could not convert string to float: ''
"""

# The same failure one frame shallower: the innermost frame is the generator expression's.
GENEXPR_TRACE = TOTALS_TRACE.split("Traceback")[0] + """\
Traceback (most recent call last):
  File "/srv/app/ledger/totals.py", line 3, in total_report
    return sum(float(line) for line in report)
  File "/srv/app/ledger/totals.py", line 3, in <genexpr>
    return sum(float(line) for line in report)
ValueError: could not convert string to float: ''
"""


@pytest.fixture(scope="module")
def totals(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("totals"), TOTALS) as running:
        yield running


def _listed(daemon: Daemon, issue: str) -> list[str]:
    (found,) = daemon.service.locate(issue, limit=1, repo="fx", functions=4).files
    return [f.qualified_name for f in found.functions]


def test_the_outer_frames_of_one_file_follow_its_innermost_in_frame_order(
        totals: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """``_to_cents`` failed, called by ``_line_total`` from ``total_report``: the three
    frames' functions lead the file's list in that order, before the function the title
    names (``report_totals_summary``), which came second with the innermost frame's alone."""
    with monkeypatch.context() as m:
        m.setattr(anchors, "FRAME_DEFINITIONS", 0)
        m.setattr(locating, "CALLEE_CHAIN", 0)
        m.setattr(shape, "OUTER_FRAME_WEIGHT", shape.WEIGHT_FRAME)  # the words alone, every frame alike
        assert _listed(totals, TOTALS_TRACE)[:2] == ["total_report", "report_totals_summary"]
        # the first function's callee follows it (locate.with_callees): a frame's order too
        m.setattr(locating, "CALLEE_CHAIN", 2)
        assert _listed(totals, TOTALS_TRACE)[:3] == ["total_report", "_line_total", "_to_cents"]
    with monkeypatch.context() as m:
        m.setattr(anchors, "FRAME_FUNCTIONS", 1)
        m.setattr(locating, "CALLEE_CHAIN", 0)
        assert _listed(totals, TOTALS_TRACE)[:2] == ["_to_cents", "report_totals_summary"]
    assert anchors.FRAME_FUNCTIONS == 3
    assert _listed(totals, TOTALS_TRACE) == ["_to_cents", "_line_total", "total_report",
                                              "report_totals_summary"]
    hits = totals.service.search(TOTALS_TRACE, limit=4, repo="fx")
    assert [h.qualified_name for h in hits] == ["_to_cents", "_line_total", "total_report",
                                                "report_totals_summary"]
    assert hits[1].score - hits[2].score == pytest.approx(anchors.FRAME_STEP, abs=2e-6)


def test_a_pseudo_frame_innermost_gives_the_place_to_the_function_that_ran_it(
        totals: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The innermost frame is ``<genexpr>`` (no definition to look up): the function whose
    line ran it, ``total_report``, takes the file's first place from the function the
    title names, which leads by the issue's words."""
    with monkeypatch.context() as m:
        m.setattr(locating, "CALLEE_CHAIN", 0)
        assert _listed(totals, GENEXPR_TRACE)[:2] == ["total_report", "report_totals_summary"]
        m.setattr(anchors, "FRAME_DEFINITIONS", 0)
        assert _listed(totals, GENEXPR_TRACE)[:2] == ["report_totals_summary", "total_report"]
    # and the helpers total_report calls follow it, two deep (locate.with_callees)
    assert _listed(totals, GENEXPR_TRACE) == ["total_report", "_line_total", "_to_cents",
                                              "report_totals_summary"]


# A file defining one name forty times (gunicorn's ``http/errors.py``: twenty ``__str__``),
# each class's method at its own lines; the caller beside it.
ERROR_CLASSES = 40
ERRORS = "".join(f'''
class ParseError{k}(Exception):
    def __init__(self, value):
        self.value = value

    def __str__(self):
        return "bad value {k}: %r" % self.value
''' for k in range(ERROR_CLASSES))
STR_LINES = [i + 1 for i, line in enumerate(ERRORS.splitlines()) if "def __str__" in line]


def _error_trace(line: int) -> str:
    return f'''Worker crashes while formatting a parse error

Traceback (most recent call last):
  File "/srv/app/wire/worker.py", line 6, in handle
    message = "failed: %s" % str(exc)
  File "/srv/app/wire/errors.py", line {line + 1}, in __str__
    return "bad value: %r" % self.value
TypeError: not all arguments converted during string formatting
'''


@pytest.fixture(scope="module")
def namesakes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    worker = '''\
from wire.errors import ParseError0


def handle(data):
    try:
        message = "failed: %s" % str(ParseError0(data))
    except TypeError as exc:
        message = "failed: %s" % str(exc)
    return message
'''
    with indexed(tmp_path_factory.mktemp("namesakes"), {"wire/errors.py": ERRORS, "wire/worker.py": worker}) as running:
        yield running


def test_a_frame_stands_for_the_namesake_holding_its_line_among_any_number_of_them(
        namesakes: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of forty ``__str__`` frames stands for the one holding its line: listed first
    in ``errors.py`` and search's first hit of that file. Reading the file's first 16 namesakes (as
    before) missed at least the 24 others."""
    assert len(STR_LINES) == ERROR_CLASSES

    def first(line: int) -> tuple[str, str]:
        located = {f.path: f for f in namesakes.service.locate(_error_trace(line), limit=2, repo="fx").files}
        hits = namesakes.service.search(_error_trace(line), limit=3, repo="fx")
        return (located["wire/errors.py"].functions[0].qualified_name,
                next(h.qualified_name for h in hits if h.path == "wire/errors.py"))

    wanted = [(f"ParseError{k}.__str__",) * 2 for k in range(ERROR_CLASSES)]
    with monkeypatch.context() as m:
        m.setattr(anchors, "FRAME_DEFINITIONS", 16)
        cut = [first(line) for line in STR_LINES]
    assert sum(got != want for got, want in zip(cut, wanted)) >= ERROR_CLASSES - 16
    assert [first(line) for line in STR_LINES] == wanted


# A report builder with a closure it calls per row, and a helper it calls after.
ROWS = {"ledger/__init__.py": "", "ledger/rows.py": '''
def render_rows_table(rows):
    """Render the ledger rows as a table, one line per row."""
    def append_row(row):
        cells.append(" | ".join(str(v) for v in row))

    cells = []
    for row in rows:
        append_row(row)
    return _joined_table(cells)


def _joined_table(cells):
    width = max((len(c) for c in cells), default=0)
    header = "-" * width
    return "\\n".join([header, *cells, header])


def unrelated(x):
    return x
'''}
ROWS_ISSUE = ("render_rows_table drops the last ledger row\n\n"
              "`render_rows_table(rows)` renders every row of the ledger table but the last one.\n")


def test_a_closure_of_the_first_function_is_no_callee_listed_after_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``append_row`` is nested in ``render_rows_table``: its lines are the caller's, so the
    callee chain lists the helper it hands the cells to, ``_joined_table`` (a Sphinx newcomer:
    ``Autosummary.get_table.append_row`` took the first file's second place)."""
    with indexed(tmp_path, ROWS) as running:
        listed = _listed(running, ROWS_ISSUE)
        assert listed[:2] == ["render_rows_table", "_joined_table"]
        monkeypatch.setattr(service, "NESTED_CALLEES", True)
        assert _listed(running, ROWS_ISSUE)[:2] == ["render_rows_table", "render_rows_table.append_row"]


@pytest.mark.parametrize(("named", "path", "factor"), [
    ("import_report", "ledger/cli.py", 1.0),  # the entry point the reporter called: outer
    ("normalise_amounts", "ledger/steps.py", anchors.TITLE_FACTOR)],  # where it failed
    ids=["entry", "inner"])
def test_a_title_naming_the_entry_point_of_its_trace_weighs_it_as_a_body_name(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch, named: str, path: str, factor: float) -> None:
    """"open_mfdataset fails on cftime coordinates" over a trace down to combine.py: the
    title's entry point (an outer frame's function, outside the innermost
    ``INNER_FRAME_FILES`` files) took twice a name's weight and its file led (a newcomer).
    It weighs as a body's name; a title naming an inner frame's function keeps the factor."""
    monkeypatch.setattr(service, "LEXICAL_FILES_DEPTH", 0)  # the chunk-side file scores
    issue = f"{named} fails on an empty row\n" + PYTHON_TRACE.split("\n", 1)[1]

    def score() -> float:
        return {f.path: f.score for f in daemon.service.locate(issue, limit=3, repo="fx").files}[path]
    plain = score()
    with monkeypatch.context() as m:
        m.setattr(anchors, "TITLE_ENTRY_PLAIN", False)
        titled = score()
    with monkeypatch.context() as m:
        m.setattr(anchors, "DEFINITION_WEIGHT", 0.0)
        unnamed = score()
    # the definition's bonus, in its file's score (its chunks' aggregate), scaled by the factor
    assert titled - unnamed >= anchors.DEFINITION_WEIGHT * anchors.TITLE_FACTOR
    assert (plain - unnamed) / (titled - unnamed) == pytest.approx(factor / anchors.TITLE_FACTOR, abs=1e-5)


def test_a_pytest_failure_location_is_a_frame_of_its_file_and_line(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest's ``--tb=line`` (and the last line of each failure) prints where it raised,
    ``path.py:4: ValueError``, with no function: a frame of that line (``frames.CRASH``),
    and the function holding the line leads its file; without it the function with the
    issue's words led (the path alone names the file)."""
    issue = PYTHON_TRACE.split("Traceback")[0] + (
        "$ pytest --tb=line\n"
        "/home/me/venv/lib/python3.11/site-packages/ledger/steps.py:4: ValueError: could not convert "
        "string to float: ''\n")
    located = daemon.service.locate(issue, limit=3, repo="fx")
    assert located.files[0].path == "ledger/steps.py"
    assert located.files[0].functions[0].qualified_name == "normalise_amounts._f"
    monkeypatch.setattr(frames, "CRASH_LINES", False)
    # the path alone still names the file; its function with the issue's words led
    first = daemon.service.locate(issue, limit=3, repo="fx").files[0]
    assert first.path == "ledger/steps.py" and first.functions[0].qualified_name == "import_rows"


RERAISE_FILES = {
    "cache/fscache.py": '''\
import os


def listdir(path):
    """A directory's entries, cached."""
    try:
        return os.listdir(path)
    except OSError as err:
        raise err
''',
    "cache/update.py": '''\
from cache.fscache import listdir


def refresh_submodules(paths):
    """Refresh the submodules found under each path."""
    for p in paths:
        listdir(p)
''',
    # the entry point: the issue's words (daemon, recheck, package, deleted) all over it
    "cache/server.py": '''\
from cache.update import refresh_submodules


def recheck_packages(paths):
    """Recheck each package of the daemon; a deleted package directory is dropped."""
    return refresh_submodules(paths)


def cmd_recheck(paths):
    """The daemon's recheck command: recheck the packages after a directory is deleted."""
    return recheck_packages(paths)


def run_command(command, paths):
    """Run one daemon command (recheck) over package directories."""
    return cmd_recheck(paths)


def serve(request):
    """Serve one daemon request: recheck, a package directory deleted, the daemon crashes."""
    return run_command("recheck", request)
''',
}
# as a compiled program prints it: no source lines, so no re-raise to read
RERAISE_ISSUE = '''\
The daemon crashes on recheck after a package directory is deleted
After deleting a package directory, the next recheck of the daemon crashes.

Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/cache/server.py", line 21, in serve
  File "/usr/lib/python3/site-packages/cache/server.py", line 16, in run_command
  File "/usr/lib/python3/site-packages/cache/server.py", line 11, in cmd_recheck
  File "/usr/lib/python3/site-packages/cache/server.py", line 6, in recheck_packages
  File "/usr/lib/python3/site-packages/cache/update.py", line 6, in refresh_submodules
  File "/usr/lib/python3/site-packages/cache/fscache.py", line 9, in listdir
  File "/usr/lib/python3/site-packages/cache/fscache.py", line 7, in listdir
FileNotFoundError: [Errno 2] No such file or directory: 'pkg/sub'
'''


def test_a_function_s_consecutive_frames_are_one_depth(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``listdir`` re-raised what it caught, printing two frames: counted as two depths,
    both frame weights (``FRAME_WEIGHTS``) went to ``fscache.py``; as one depth, its
    caller's ``update.py`` takes the second, and no file of the outer frames any."""
    with indexed(tmp_path, RERAISE_FILES) as d:
        def files() -> dict[str, float]:
            return {f.path: f.score for f in d.service.locate(RERAISE_ISSUE, limit=3, repo="fx").files}

        with monkeypatch.context() as m:
            m.setattr(anchors, "DEPTH_BY_FUNCTION", False)
            by_frames = files()
        by_functions = files()
        assert list(by_functions) == list(by_frames)[:1] + ["cache/update.py", "cache/server.py"]
        assert by_functions["cache/fscache.py"] == by_frames["cache/fscache.py"]
        assert by_functions["cache/update.py"] - by_frames["cache/update.py"] == pytest.approx(
            anchors.FRAME_WEIGHTS[1], abs=1e-5)
        assert by_functions["cache/server.py"] == by_frames["cache/server.py"]
