"""A name written as its call (``Element.text()``) is looked up as the name: jsoup's
``Element.text()`` pinned nothing, and ``Element.val()``, whose words say "text" more
often, came first (a newcomer). A call with arguments is a text naming the function. A
method the class inherits is pinned as ``symbols`` finds it. Real daemon, real store,
model off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "dom/element.py": '''\
from dom.node import Node


class Element(Node):
    def text(self):
        """The combined text of this element and its children, whitespace normalised."""
        return "".join(self.children)

    def val(self):
        """The text value of a form element: the text of a textarea, the text value
        attribute of an input; text, text, text."""
        return self.attrs.get("value", "")

    def html(self, inner=None):
        """The inner HTML of the element, or set it from a string."""
        return inner
''',
    "dom/node.py": '''\
class Node:
    def remove(self):
        """Remove this node from the tree; its children go with it."""
        self.parent.children.remove(self)


class Nodes(list):
    def remove(self, index):
        """Remove the element at index of this list of nodes."""
        del self[index]
''',
    "dom/text_node.py": '''\
class TextNode:
    def text(self):
        """This node's text."""
        return self.value

    def get_whole_text(self):
        """The text of this text node, text as it was in the source text."""
        return self.value
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("called"), FILES) as running:
        yield running


@pytest.mark.parametrize(("query", "first"), [
    ("Element.text()", "Element.text"),
    ("Element.text", "Element.text"),
    ("get_whole_text()", "TextNode.get_whole_text"),
])
def test_a_name_written_as_a_call_pins_its_definition(daemon: Daemon, query: str, first: str) -> None:
    hits = daemon.service.search(query, limit=5, repo="fx")
    assert (hits[0].qualified_name, hits[0].match) == (first, "exact")
    # the other definitions of a bare name come after it, pinned too
    assert [h.qualified_name for h in hits if h.match == "exact"] == [first]


@pytest.mark.parametrize("query", ["Element.html(String)", "Element.html(inner=None)"])
def test_a_call_with_arguments_answers_its_definition_first(daemon: Daemon, query: str) -> None:
    """A call with arguments is a text naming the function (``Query.symbols``), not pinned."""
    assert daemon.service.search(query, limit=5, repo="fx")[0].qualified_name == "Element.html"


def test_a_bare_call_pins_every_definition_of_its_name(daemon: Daemon) -> None:
    hits = daemon.service.search("text()", limit=5, repo="fx")
    assert sorted(h.qualified_name for h in hits if h.match == "exact") == ["Element.text", "TextNode.text"]
    assert [h.match for h in hits[:2]] == ["exact", "exact"]


def test_a_method_the_class_inherits_is_pinned_as_symbols_finds_it(daemon: Daemon) -> None:
    """jsoup's ``Element.remove`` is ``Node.remove``: ``symbols`` resolved it (match
    ``inherited``), search pinned nothing and ``Elements.remove(int)`` came first."""
    (found,) = daemon.service.find_symbols("Element.remove", repo="fx")
    assert (found.qualified_name, found.match) == ("Node.remove", "inherited")
    for query in ("Element.remove", "Element.remove()"):
        hits = daemon.service.search(query, limit=5, repo="fx")
        assert (hits[0].qualified_name, hits[0].match) == ("Node.remove", "exact"), query
