"""A Python function answered by an ``@overload`` stub alone is answered at its
implementation: arrow's ``api.get`` was listed by ``locate`` at a stub's lines (41-58) in 22
of 28 answers and shown so by ``search``, its implementation (83-86) nowhere (a newcomer).
The stubs' annotations hold the words a question shares with the function; the
implementation is ``*args, **kwargs``. A real git fixture and the real embedded store,
sparse side only."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import indexed

FILES = {
    "moment/api.py": '''\
from typing import overload


@overload
def get(value: Date, zone: TimeZone) -> Moment: ...
@overload
def get(value: Calendar, zone: TimeZone) -> Moment: ...
@overload
def get(value: str) -> Moment: ...
def get(*args, **kwargs):
    """Build one from anything."""
    return _factory.build(*args, **kwargs)


def utcnow():
    return _factory.build()
''',
    "moment/factory.py": '''\
def build(*args, **kwargs):
    """Build a value."""
    return args, kwargs
''',
}
#: Lines of the implementation of ``get`` in moment/api.py.
IMPLEMENTATION = (10, 12)
QUESTION = "get a Calendar in a TimeZone"


def test_search_and_locate_answer_a_stub_by_its_implementation(tmp_path: Path) -> None:
    with indexed(tmp_path, FILES) as d:
        hits = d.service.search(QUESTION, limit=5, repo="fx")
        gets = [(h.path, h.start_line, h.end_line) for h in hits if h.qualified_name == "get"]
        assert gets == [("moment/api.py", *IMPLEMENTATION)]  # once, at the implementation
        assert hits[0].qualified_name == "get"
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        located = d.service.locate(QUESTION, limit=3, repo="fx")
        first = located.files[0]
        assert first.path == "moment/api.py"
        assert [(f.qualified_name, f.start_line, f.end_line) for f in first.functions
                if f.qualified_name == "get"] == [("get", *IMPLEMENTATION)]
