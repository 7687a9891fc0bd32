"""Frames of pasted traces (``query/frames``): where a Rust program panicked."""

from __future__ import annotations

from coderecalld.query import frames


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
