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


@pytest.mark.parametrize(("params", "kept"), [
    ("String query, Element root", [0]),       # a declaration pasted from source
    ("java.lang.String,Element", [0]),         # qualified types
    ("final String q, @Nullable Element e", [0]),
    ("String, Iterable<Element>", [1]),
    ("int...", [2]), ("int[] xs", [2]),          # varargs as printed, or as an array
    ("", [0, 1, 2]),                            # "select()" out of habit: no overload takes none
    ("String", []),                             # a list of other types: none
])
def test_a_list_written_otherwise_selects_its_overloads(params: str, kept: list[int]) -> None:
    """A review: these spellings were not found where the base answered every overload."""
    java = [_hit("a.Sel.select(String,Element)"), _hit("a.Sel.select(String,Iterable<Element>)"),
            _hit("a.Sel.select(int[])")]
    assert overloads.pick(java, params) == [java[i] for i in kept]


def test_an_empty_list_selects_the_overload_of_no_parameters() -> None:
    java = [_hit("a.Node.attr()"), _hit("a.Node.attr(String)")]
    assert overloads.pick(java, "") == [java[0]]
