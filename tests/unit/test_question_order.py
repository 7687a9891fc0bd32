"""A natural-language question's order: a type chunk is ordered lower unless the question
asks which type or names it (query/service.py ``TYPE_PENALTY_TEXT``, query/shape.py
``asks_for_type``); a function nested in a test function is ordered lower unless tests are
asked for (``TEST_CLOSURE_PENALTY``)."""

from __future__ import annotations

import pytest

from coderecalld.query import service, shape
from coderecalld.records import Hit


def _hit(name: str, kind: str, score: float, path: str = "src/adapters.py",
         role: str = "source", language: str = "python") -> Hit:
    return Hit(id=name, score=score, payload={
        "repo": "r", "path": path, "role": role, "kind": kind,
        "name": name.rpartition(".")[2], "qualified_name": name, "language": language})


def _order(query: str, hits: list[Hit]) -> list[str]:
    key = service._ordering(shape.analyze(query), hits)
    return [h.id for h in sorted(hits, key=key)]


HITS = [_hit("HTTPAdapter", "class", 0.77), _hit("HTTPAdapter.__init__", "method", 0.72),
        _hit("CookieConflictError", "class", 0.64), _hit("RequestsCookieJar.get", "method", 0.60)]


def test_a_question_places_methods_above_a_class_scoring_less_than_the_penalty_higher() -> None:
    got = _order("where are the default connection pool size and retry count set", HITS)
    # 0.77 - 0.15 = 0.62 < 0.72: the method first; the exception class (0.64 - 0.15 = 0.49)
    # falls under the method it scored above (0.60), so both classes change places.
    assert got == ["HTTPAdapter.__init__", "HTTPAdapter", "RequestsCookieJar.get", "CookieConflictError"]


def test_a_class_far_above_its_method_stays_first() -> None:
    hits = [_hit("Session", "class", 0.90), _hit("Session.send", "method", 0.70)]
    assert _order("how does a session send a request", hits) == ["Session", "Session.send"]


@pytest.mark.parametrize("query", [
    "which class holds the connection pool",
    "what exception class is raised for conflicting cookies",
    "which struct stores the options",
    "what type does the adapter return",
])
def test_a_question_asking_which_type_keeps_the_fused_order(query: str) -> None:
    assert shape.analyze(query).types
    assert _order(query, HITS) == ["HTTPAdapter", "HTTPAdapter.__init__", "CookieConflictError",
                                   "RequestsCookieJar.get"]


@pytest.mark.parametrize("query", [
    "where is the Config class defined",
    "explain the Router struct",
])
def test_a_question_naming_the_type_it_asks_for_asks_for_a_type(query: str) -> None:
    assert shape.analyze(query).types


@pytest.mark.parametrize("query", [
    "how does a class based view handle HEAD requests",
    "where are low-level errors translated into exception classes",
    "how does a choice match user input against enum members",
])
def test_a_type_word_alone_does_not_ask_for_a_type(query: str) -> None:
    assert not shape.analyze(query).types


def test_other_shapes_are_not_penalised() -> None:
    # an identifier and a pasted issue keep the fused order (the issue's role and module
    # rules apply, no type rule)
    assert not shape.analyze("HTTPAdapter").types
    assert _order("HTTPAdapter", HITS)[0] == "HTTPAdapter"
    issue = "Adapter ignores pool size\n\n" + "Setting pool_maxsize on HTTPAdapter has no effect. " * 40
    assert shape.analyze(issue).long
    assert _order(issue, HITS)[0] == "HTTPAdapter"


def test_a_type_the_question_names_is_spared() -> None:
    hits = [_hit("RemoteProtocolError", "class", 0.70), _hit("map_exceptions", "function", 0.60)]
    assert _order("Fix typo in RemoteProtocolError description", hits)[0] == "RemoteProtocolError"
    assert _order("fix typo in the remote protocol error description", hits)[0] == "map_exceptions"


def test_a_named_type_is_spared_without_a_name_field_as_locate_reads_it() -> None:
    cls = _hit("RemoteProtocolError", "class", 0.70)
    cls.payload.pop("name")
    hits = [cls, _hit("map_exceptions", "function", 0.60)]
    assert _order("Fix typo in RemoteProtocolError description", hits)[0] == "RemoteProtocolError"


def _vary_hits() -> list[Hit]:
    return [_hit("test_session_vary_cookie.vary_cookie_header_set", "function", 0.79,
                 "tests/test_basic.py", "test"),
            _hit("SecureCookieSessionInterface.save_session", "method", 0.56, "src/sessions.py"),
            _hit("TestSession.test_vary_cookie", "method", 0.74, "tests/test_session.py", "test")]


def test_a_closure_inside_a_test_falls_under_the_source_a_test_method_does_not() -> None:
    got = _order("where is the Vary Cookie header added to the response", _vary_hits())
    # closure 0.79 - 0.2 (test) - 0.1 = 0.49 < 0.56; the test method 0.74 - 0.2 = 0.54 stays
    # above the closure and under the source
    assert got == ["SecureCookieSessionInterface.save_session", "TestSession.test_vary_cookie",
                   "test_session_vary_cookie.vary_cookie_header_set"]


def test_a_question_asking_for_tests_keeps_the_closure_first() -> None:
    got = _order("tests for the Vary Cookie header", _vary_hits())
    assert got[0] == "test_session_vary_cookie.vary_cookie_header_set"


def test_what_counts_as_a_test_closure() -> None:
    def closure(payload: dict) -> bool:
        return service._test_closure({"language": "python", **payload})
    assert closure({"kind": "function", "role": "test", "qualified_name": "test_app.index"})
    assert closure({"kind": "function", "role": "test", "qualified_name": "TestApp.test_run.handler"})
    assert closure({"kind": "function", "role": "test", "qualified_name": "test_app.index#part2"})
    assert not closure({"kind": "method", "role": "test", "qualified_name": "TestApp.test_run"})
    assert not closure({"kind": "function", "role": "test", "qualified_name": "test_app"})
    assert not closure({"kind": "class", "role": "test", "qualified_name": "test_app.View"})
    assert not closure({"kind": "function", "role": "source", "qualified_name": "testing.index"})
    # Python's convention only: a Go name carries its package (``package test``)
    assert not closure({"kind": "function", "role": "test", "qualified_name": "test.newServer",
                        "language": "go"})


def test_the_closure_rule_is_a_questions_only() -> None:
    # a pasted trace whose frames run through a test's fake keeps the fused order
    trace = ('Traceback (most recent call last):\n  File "tests/test_basic.py", line 3, in vary_cookie_header_set\n'
             '    raise KeyError("Vary")\nKeyError: \'Vary\'')
    assert not shape.analyze(trace).types
    hits = [_hit("test_session_vary_cookie.vary_cookie_header_set", "function", 0.79, "tests/test_basic.py", "test"),
            _hit("TestSession.test_vary_cookie", "method", 0.74, "tests/test_session.py", "test")]
    assert _order(trace, hits)[0] == "test_session_vary_cookie.vary_cookie_header_set"


def test_a_module_chunk_below_a_hit_of_its_file_is_left_out() -> None:
    """A whole-module chunk answers nothing its file's hit above it does not (axios's
    ``buildFullPath.js`` module right after its one function); above any hit of its file,
    or as an exact match, it stays."""
    def lines(hit: Hit, start: int, end: int) -> Hit:
        hit.payload.update(start_line=start, end_line=end)
        return hit
    rows = [(_hit("lib.core.buildFullPath.buildFullPath", "function", 0.9, path="lib/core/buildFullPath.js"), "hybrid", "index"),
            (lines(_hit("lib.core.buildFullPath", "module", 0.8, path="lib/core/buildFullPath.js"), 1, 22), "hybrid", "index"),
            (lines(_hit("lib.core.Axios", "module", 0.7, path="lib/core/Axios.js"), 1, 30), "hybrid", "index"),
            (_hit("lib.core.Axios.Axios.getUri", "method", 0.6, path="lib/core/Axios.js"), "hybrid", "index"),
            (lines(_hit("lib.helpers", "module", 0.5, path="lib/core/buildFullPath.js"), 1, 22), "exact", "index"),
            (_hit("lib.core.utils.merge", "function", 0.45, path="lib/utils.js"), "hybrid", "index"),
            # a long file's module chunk is its top-level code: kept
            (lines(_hit("lib.utils", "module", 0.4, path="lib/utils.js"), 1, 700), "hybrid", "index")]
    assert [r[0].id for r in service._without_covered_modules(rows)] == [
        "lib.core.buildFullPath.buildFullPath", "lib.core.Axios", "lib.core.Axios.Axios.getUri", "lib.helpers",
        "lib.core.utils.merge", "lib.utils"]
    assert service.MODULE_COVERED_SHAPES == {shape.Shape.TEXT}


def test_an_issues_module_chunk_follows_the_first_symbol_of_its_file() -> None:
    """gson's whole ``RuntimeTypeAdapterFactory.java`` (1-331) was an issue's first hit, its
    class and methods below: the class follows it, the file keeps its rank and its first
    hit (a weak symbol first turned the confidence low: a review)."""
    def row(name: str, kind: str, path: str, match: str = "hybrid") -> tuple:
        return (Hit(id=f"{path}:{name}", score=1.0, payload={
            "repo": "r", "path": path, "kind": kind, "qualified_name": name}), match, service.INDEX)
    rows = [row("rtaf", "module", "R.java"), row("Other.f", "method", "O.java"),
            row("RTAF", "class", "R.java"), row("RTAF.create", "method", "R.java"),
            row("other", "module", "O2.java"), row("x", "module", "X.java", "exact"),
            row("X.f", "method", "X.java")]
    assert [r[0].payload["qualified_name"] for r in service._modules_after_symbols(rows, 6)] == [
        "rtaf", "RTAF", "Other.f", "RTAF.create", "other", "x", "X.f"]
    # a symbol beyond the page's limit moves nothing
    assert [r[0].payload["qualified_name"] for r in service._modules_after_symbols(rows, 2)] == [
        "rtaf", "Other.f", "RTAF", "RTAF.create", "other", "x", "X.f"]


def test_an_issue_page_lists_a_containers_first_function_before_it() -> None:
    """A module's or a type's chunk goes after the first function or method of it on the
    page (a type's: under its qualified name, ``.`` or ``::``), which takes its place, as
    ``locate`` lists a file's functions before its types; an exact name's chunk stays; a
    member past the limit, another type's method and a nested type move nothing."""
    def row(name: str, kind: str, path: str, match: str = "hybrid") -> tuple:
        return (Hit(name, 1.0, {"repo": "r", "path": path, "kind": kind, "qualified_name": name}),
                match, service.INDEX)
    rows = [row("AffineTransform", "class", "t.py"), row("Other.f", "method", "o.py"),
            row("AffineTransform.shear", "method", "t.py"), row("Projective.scale", "method", "t.py"),
            row("src.bytes", "module", "bytes.rs"), row("BytesMut::reserve", "method", "bytes.rs"),
            row("Exact", "class", "e.py", "exact"), row("Exact.m", "method", "e.py"),
            row("Outer", "class", "n.py"), row("Outer.Inner", "class", "n.py")]
    names = [r[0].payload["qualified_name"] for r in service._members_first(rows, 10)]
    assert names == ["AffineTransform.shear", "AffineTransform", "Other.f", "Projective.scale",
                     "BytesMut::reserve", "src.bytes", "Exact", "Exact.m", "Outer", "Outer.Inner"]
    assert [r[0].payload["qualified_name"] for r in service._members_first(rows, 2)] == [
        r[0].payload["qualified_name"] for r in rows]
    assert service._member_of({"repo": "r", "path": "t.py", "kind": "function", "qualified_name": "AffineTransformer"},
                              rows[0][0].payload) is False
