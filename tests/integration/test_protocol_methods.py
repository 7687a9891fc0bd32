"""An issue that exercises a protocol of a Python class it names (``str(x)``, "comparing",
"pickling") passes the class's name bonus to the special methods Python runs for it
(``anchors.PROTOCOL_METHODS``): xarray's "center kwarg ignored when manually iterating over
DataArrayRolling" was fixed in ``DataArrayRolling.__iter__``, listed nowhere in its file's
first eight. Real git fixture, real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors, shape
from conformance_cases import indexed

HEADERS = '''\
class Headers:
    """An ordered multi-dict of HTTP headers."""

    def __init__(self, items=None):
        self._list = list(items or [])

    def get(self, key, default=None):
        """The first value of a header, its name compared case-insensitively."""
        for name, value in self._list:
            if name.lower() == key.lower():
                return value
        return default

    def items(self):
        """The headers' names and values, in the order they were added."""
        return list(self._list)

    def to_wsgi_list(self):
        """The header lines a WSGI server sends, as a string each."""
        return [f"{name}: {value}" for name, value in self._list]

    def __str__(self):
        return ""

    def __eq__(self, other):
        return isinstance(other, Headers) and self._list == other._list

    def __iter__(self):
        return iter(self._list)


class Cookies:
    """The cookies of a request."""

    def __str__(self):
        return "; ".join(self.names())

    def names(self):
        return []
'''

FILES = {"web/headers.py": HEADERS}

# the string form of a named class, by ``str(..)``
STRING = """\
str(request.headers) returns an empty string

```python
>>> from web.headers import Headers
>>> h = Headers([("Content-Type", "text/html")])
>>> str(h)
''
```
Expected `Content-Type: text/html`, as it was in the last release.
"""
# the same class named, no protocol exercised: its methods keep their scores
PLAIN = """\
Headers.get returns the wrong value for a repeated header name

```python
>>> from web.headers import Headers
>>> Headers([("A", "1"), ("a", "2")]).get("A")
'2'
```
The first value of the header name should be returned, in the order they were added.
"""
# a protocol's words only inside the reproducer (a comment) are no evidence of it
CODE_WORDS = """\
Headers.get returns the wrong value for a repeated header name

```python
>>> from web.headers import Headers
>>> # comparing header names, iterating over the items
>>> Headers([("A", "1"), ("a", "2")]).get("A")
'2'
```
The first value of the header name should be returned, in the order they were added.
"""


@pytest.fixture(scope="module")
def headers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("protocols"), FILES) as running:
        yield running


def _functions(daemon: Daemon, text: str) -> dict[str, float]:
    """The functions ``locate`` lists for the headers module, with their scores."""
    located = daemon.service.locate(text, limit=10, repo="fx", functions=50)
    return {f.qualified_name: f.score for f in located.files if f.path == "web/headers.py" for f in f.functions}


def test_the_protocols_an_issue_exercises_are_read_from_calls_names_and_prose() -> None:
    assert anchors.protocols_spoken(STRING) == ("__str__",)
    assert anchors.protocols_spoken("Requirement objects do not deduplicate in a set") == ("__hash__",)
    assert anchors.protocols_spoken("Comparing models raises TypeError") == ("__eq__", "__ne__")
    assert anchors.protocols_spoken("Can't pickle local object") == (
        "__getstate__", "__setstate__", "__reduce__", "__reduce_ex__")
    assert anchors.protocols_spoken("x.__iter__ skips the center") == ("__iter__",)
    # builtins every reproducer calls, an assert's operator, a protocol's words inside code
    assert anchors.protocols_spoken("Wrong length\n\n```python\nassert len(x) == 2  # iterating\nprint(x)\n```\n") == ()
    assert anchors.protocols_spoken(CODE_WORDS) == ()
    assert anchors.protocols_spoken(PLAIN) == ()


def test_a_named_class_passes_its_bonus_to_the_special_method_the_issue_exercises(
        headers: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = shape.analyze(STRING)
    assert "headers" in [n.lower() for n in asked.names]
    on = _functions(headers, STRING)
    monkeypatch.setattr(anchors, "PROTOCOL_METHODS", False)
    off = _functions(headers, STRING)
    titled = [n.lower() for n in asked.names].index("headers") < asked.title_names
    bonus = anchors.DEFINITION_WEIGHT * (anchors.TITLE_FACTOR if titled else 1.0)
    assert on["Headers.__str__"] == pytest.approx(off["Headers.__str__"] + bonus, abs=1e-3)
    assert list(on)[0] == "Headers.__str__"
    # the protocol's method of a class the issue does not name, and the named class's
    # methods of protocols not exercised, gain nothing
    assert on["Cookies.__str__"] == pytest.approx(off["Cookies.__str__"], abs=1e-6)
    assert on["Headers.__eq__"] == pytest.approx(off["Headers.__eq__"], abs=1e-6)
    assert on["Headers.to_wsgi_list"] == pytest.approx(off["Headers.to_wsgi_list"], abs=1e-6)


@pytest.mark.parametrize("text", [PLAIN, CODE_WORDS])
def test_a_named_class_exercised_by_no_protocol_keeps_its_methods_scores(
        headers: Daemon, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    on = _functions(headers, text)
    monkeypatch.setattr(anchors, "PROTOCOL_METHODS", False)
    assert _functions(headers, text) == on
