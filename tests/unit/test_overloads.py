"""``query.overloads``: a name's closing parameter list, and the overloads printing it."""

from __future__ import annotations

import pytest

from coderecalld.errors import NotFound
from coderecalld.query import overloads
from coderecalld.records import Hit


@pytest.mark.parametrize(("name", "split"), [
    ("Selector.select(String,Iterable<Element>)", ("Selector.select", "String,Iterable<Element>")),
    ("Element.text()", ("Element.text", "")),
    ("Pair.M((int,int), string)", ("Pair.M", "(int,int), string")),  # C#'s tuple type
    ("Selector.select", ("Selector.select", None)),
    ("f(x) + g(y)", ("f(x) + g", "y")),
    ("(a)", ("(a)", None)),  # no name before it
    ("broken)", ("broken)", None)),
])
def test_split(name: str, split: tuple[str, str | None]) -> None:
    assert overloads.split(name) == split


def _hit(qualified_name: str) -> Hit:
    return Hit(qualified_name, 1.0, {"qualified_name": qualified_name})


def test_pick_and_select() -> None:
    java = [_hit("a.C.m(String,Map<String, Integer>)"), _hit("a.C.m(int)")]
    assert overloads.pick(java, "String, Map<String,Integer>") == [java[0]]
    assert overloads.pick(java, None) == java
    python = [_hit("parse")]
    assert overloads.pick(python, "css, root") == python  # a call written so
    with pytest.raises(NotFound, match=r"^no overload of 'C\.m' takes \(long\); its overloads: "
                                       r"a\.C\.m\(String,Map<String, Integer>\), a\.C\.m\(int\)$"):
        overloads.select(java, "C.m(long)", "long")
    assert overloads.select([], "C.m(long)", "long") == []
