"""Frames of pasted traces (``query/frames``): where a Rust program panicked."""

from __future__ import annotations

from coderecalld.query import anchors, frames


def test_where_a_program_panicked_is_the_frame_naming_its_function_there() -> None:
    """walkdir: ``panicked at .../walkdir-2.2.8/src/lib.rs:846`` (another release) took the
    function holding line 846 at HEAD, above the frame ``walkdir::IntoIter::push`` at that
    very line; a panic with no frame of its line stays a frame."""
    trace = """thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', /r/walkdir-2.2.8/src/lib.rs:846:45
stack backtrace:
   0: rust_begin_unwind
   4: walkdir::IntoIter::push
             at /r/walkdir-2.2.8/src/lib.rs:846:20
   5: walkdir::IntoIter::handle_entry
             at /r/walkdir-2.2.8/src/lib.rs:805:13
"""
    assert [(f.function, f.line) for f in frames.read(trace)] == [
        ("walkdir.IntoIter.push", 846), ("walkdir.IntoIter.handle_entry", 805)]
    alone = "thread 'main' panicked at src/main.rs:12:9:\nboom\n"
    assert [(f.path, f.function, f.line) for f in frames.read(alone)] == [("src/main.rs", "", 12)]


def test_a_frames_owner_with_its_crate_names_the_definition() -> None:
    """``walkdir::IntoIter::push`` (a line of another release, in neither): of two
    ``push`` definitions, the one whose owner the frame's ends with."""
    from coderecalld.query import anchors
    from coderecalld.records import Hit

    def hit(qn: str, start: int, end: int) -> Hit:
        return Hit(qn, 1.0, {"qualified_name": qn, "start_line": start, "end_line": end, "kind": "method"})
    defined = [hit("DirList::push", 10, 20), hit("IntoIter::push", 900, 930)]
    assert anchors._ran(defined, "walkdir.IntoIter", 846).payload["qualified_name"] == "IntoIter::push"
    assert anchors._ran(defined, "walkdir.Other", 846) is None


def test_swift_crash_report_frames_and_fatal_errors() -> None:
    """Alamofire's crash reports and ``fatalError`` locations were no frames (a newcomer)."""
    text = ("0   libsystem_platform.dylib   _os_unfair_lock_lock_slow + 280\n"
            "2   Alamofire   0x0000000102b5c1e4 UnfairLock.lock() + 20 (Protected.swift:101)\n"
            "4   Alamofire   closure #1 in AuthenticationInterceptor.refresh(_:for:insideLock:) + 120 "
            "(AuthenticationInterceptor.swift:342)\n"
            "5   Alamofire   specialized Protected.write<A>(_:) + 64 (Protected.swift:153)\n"
            "Fatal error: URLSessionDownloadTask finished downloading with no response.: "
            "file Alamofire/SessionDelegate.swift, line 302\n")
    assert frames.read(text) == [
        frames.Frame("Protected.swift", "UnfairLock.lock", 101),
        frames.Frame("AuthenticationInterceptor.swift", "AuthenticationInterceptor.refresh", 342),
        frames.Frame("Protected.swift", "Protected.write", 153),
        frames.Frame("SessionDelegate.swift", "", 302),
    ]
    assert frames.count(text) == 4


def test_swift_frames_of_an_image_named_with_a_space_and_a_protocol_witness() -> None:
    """The image column ends at the address (``My App``); a protocol witness is its
    requirement's function (a review)."""
    text = ("3   My App   0x0000000100a1c2e4 closure #1 in Session.request(_:) + 12 (Session.swift:9)\n"
            "4   Alamofire   0x0000000100a1c2f0 protocol witness for RequestDelegate.retryResult(for:dueTo:) "
            "in conformance Session + 40 (Session.swift:1203)\n")
    assert frames.read(text) == [frames.Frame("Session.swift", "Session.request", 9),
                                 frames.Frame("Session.swift", "RequestDelegate.retryResult", 1203)]
    assert frames.MARKS.search(text) is not None


_CAUSED = '''Traceback (most recent call last):
  File "/s/lib/matplotlib/axes/_axes.py", line 4483, in _parse_scatter_color_args
    colors = mcolors.to_rgba_array(c)
  File "/s/lib/matplotlib/colors.py", line 489, in to_rgba_array
    raise ValueError(f"{c!r} is not a valid color value.")
ValueError: 'tab:red' is not a valid color value.

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/home/lu/two.py", line 4, in <module>
    ax.scatter([1, 2], [3, 4], c=("tab:red", "tab:blue"))
  File "/s/lib/matplotlib/axes/_axes.py", line 4670, in scatter
    self._parse_scatter_color_args(
  File "/s/lib/matplotlib/axes/_axes.py", line 4492, in _parse_scatter_color_args
    raise ValueError(
ValueError: 'c' argument must be a color
'''


def test_a_cause_block_is_the_innermost_part_of_the_stack() -> None:
    """``raise New(..) from err``: the block of ``err`` ran below the frame that caught it,
    so its frames come first, innermost first, then the block raised from it; a handler's
    own failure (``During handling``) keeps the last block first (matplotlib's
    ``to_rgba_array`` was read after ``scatter``'s frames: a newcomer)."""
    read = [(f.function, f.line) for f in frames.read(_CAUSED)]
    assert read == [("to_rgba_array", 489), ("_parse_scatter_color_args", 4483),
                    ("_parse_scatter_color_args", 4492), ("scatter", 4670), ("<module>", 4)]
    handled = _CAUSED.replace("The above exception was the direct cause of the following exception",
                              "During handling of the above exception, another exception occurred")
    assert [(f.function, f.line) for f in frames.read(handled)] == [
        ("_parse_scatter_color_args", 4492), ("scatter", 4670), ("<module>", 4),
        ("to_rgba_array", 489), ("_parse_scatter_color_args", 4483)]


def test_cause_chains_order_each_group_and_the_last_group_first() -> None:
    """Blocks A -cause-> B -handling-> C -cause-> D (as printed): C's then D's frames, then
    A's then B's; a frame before every head (pytest's ``p.py:3: in f``) comes last."""
    def block(name: str) -> str:
        return f'Traceback (most recent call last):\n  File "{name}.py", line 1, in {name}_out\n' \
               f'  File "{name}.py", line 2, in {name}_in\nE: x\n\n'
    cause = "The above exception was the direct cause of the following exception:\n\n"
    handling = "During handling of the above exception, another exception occurred:\n\n"
    text = "p.py:3: in first\n" + block("a") + cause + block("b") + handling + block("c") + cause + block("d")
    starts = [m.start() for m in frames.PYTHON.finditer(text)] + [0]
    starts.sort()
    order = frames.innermost_first(text, starts)
    names = ["first", "a_out", "a_in", "b_out", "b_in", "c_out", "c_in", "d_out", "d_in"]
    assert [names[i] for i in order] == ["c_in", "c_out", "d_in", "d_out", "a_in", "a_out",
                                         "b_in", "b_out", "first"]


PYTEST_FAILURE = """\
______________________ test_approx_dict ______________________

    def test_approx_dict():
>       assert {"a": [1]} == approx({"a": [1.0]})
E       AssertionError: assert {'a': [1]} == approx({'a': [1.0]})
E         (pytest_assertion plugin: representation of details failed: \
/usr/lib/python3.9/site-packages/_pytest/python_api.py:269: TypeError: unsupported operand type(s).
E          Probably an object has a faulty __repr__.)

test_approx.py:4: AssertionError
"""


def test_a_pytest_failure_s_location_lines_are_frames_of_no_function() -> None:
    """pytest prints where a failure raised (``test_approx.py:4: AssertionError``), also
    inside a message (``.../_pytest/python_api.py:269: TypeError: ..``): frames of that
    path and line, no function, innermost last printed; a line that names no exception
    (``x.py:3: note``) is none."""
    assert frames.read(PYTEST_FAILURE) == [
        frames.Frame("test_approx.py", "", 4),
        frames.Frame("/usr/lib/python3.9/site-packages/_pytest/python_api.py", "", 269)]
    # a warning's location is none (pytest prints its summary after the failures); a log
    # line naming an error in prose is none; a code span's or a Windows path is one
    warned = "/venv/lib/site-packages/pkg/io/mod.py:71: FutureWarning: use g()\n  warnings.warn(msg)\n"
    assert frames.read(warned) == []
    assert frames.read("see x.py:3: note, and (y.py:5: pytest.fail.Exception: boom) or z.pyc:2: ValueError\n"
                       "app.py:45: Error connecting to db\nsetup.py:12: Failed to build\n") == [
        frames.Frame("y.py", "", 5)]
    assert frames.read("the output: `src/pkg/mod.py:4: AssertionError` and\n"
                       "C:\\proj\\tests\\test_x.py:9: AssertionError\n") == [
        frames.Frame("C:\\proj\\tests\\test_x.py", "", 9), frames.Frame("src/pkg/mod.py", "", 4)]


def test_a_crash_line_at_a_named_frame_s_line_is_that_frame() -> None:
    """pytest's long form ends an entry with ``p.py:12: in f`` and the last with ``p.py:12:
    TypeError``; a location a named frame already has adds nothing (as Rust's panic line)."""
    trace = ("src/pkg/a.py:30: in outer\n    return inner(x)\n"
             "src/pkg/b.py:12: in inner\n    raise TypeError(x)\nE   TypeError: x\n\n"
             "src/pkg/b.py:12: TypeError\n")
    assert frames.read(trace) == [frames.Frame("src/pkg/b.py", "inner", 12),
                                  frames.Frame("src/pkg/a.py", "outer", 30)]
    monkeypatched = frames.CRASH_LINES
    try:
        frames.CRASH_LINES = False
        assert frames.read(PYTEST_FAILURE) == []
    finally:
        frames.CRASH_LINES = monkeypatched


IPYTHON_ISSUE = '''\
%rerun -l last fails with a ValueError

```
ValueError                                Traceback (most recent call last)
Cell In[3], line 1
----> 1 get_ipython().run_line_magic('rerun', '-l last')

File ~/envs/x/lib/python3.11/site-packages/IPython/core/interactiveshell.py:2480, in InteractiveShell.run_line_magic(self, magic_name, line, _stack_depth)
   2478     kwargs['local_ns'] = self.get_local_scope(stack_depth)
   2479 with self.builtin_trap:
-> 2480     result = fn(*args, **kwargs)

File ~/envs/x/lib/python3.11/site-packages/IPython/core/magics/history.py:301, in HistoryMagics.rerun(self, parameter_s)
--> 301     n = int(opts['l'])
ValueError: invalid literal for int() with base 10: 'last'
```
On IPython 7 too:
```
/usr/lib/python3/site-packages/IPython/core/interactiveshell.py in run_cell_magic(self, magic_name, line, cell)
   2325                 kwargs['local_ns'] = self.get_local_scope(stack_depth)
-> 2326             with self.builtin_trap:
<ipython-input-2-0f3a> in <module>
----> 1 rows = fetch_rows()
Input In [4], in <cell line: 1>()
```
I expected the last line to run again.
'''


def test_ipython_frames_and_their_numbered_lines_are_no_words_the_reporter_wrote() -> None:
    """IPython 8's and 7's frame headers, a cell's header and the numbered source lines
    under them are trace, as Python's: an outer frame's function (every magic's dispatcher,
    ``run_line_magic``) is no name the reporter gave."""
    words = anchors._words_outside_trace(IPYTHON_ISSUE)
    gone = {"run_line_magic", "run_cell_magic", "interactiveshell", "historymagics", "builtin_trap",
            "get_local_scope", "fetch_rows", "opts", "kwargs", "stack_depth", "envs", "cell"}
    assert not words & gone
    assert {"rerun", "fails", "expected", "valueerror", "invalid", "literal", "again"} <= words
    # Python's and pytest's forms as before
    assert anchors._words_outside_trace(
        'it fails\nFile "pkg/a.py", line 3, in load_rows\n    rows = read_all()\n'
        "pkg/b.py:7: in parse_cell\nboom\n") == {"it", "fails", "boom"}
