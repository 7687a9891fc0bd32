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
