"""A card's constructor parameters and methods where the constructor is named after its
class (Java: jsoup's ``card Element`` had ``init_params: []`` for four constructors) and
where a JS constructor function stores its methods on its prototype (express's ``card
View``: ``methods: []``, ``init_params: []``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, indexed

FILES = {
    "src/main/java/org/jsoup/nodes/Element.java": """package org.jsoup.nodes;

public class Element {
    static final String BaseUriKey = "/baseUri";

    public Element(String tag) {
        this(tag, "");
    }

    public Element(String tag, String namespace) {
    }

    public String text() {
        return "";
    }
}
""",
    "lib/view.js": """/**
 * Initialize a new `View` with the given `name`.
 */
function View(name, options) {
  this.name = name;
}

View.prototype.lookup = function lookup(name) {
  return name;
};

View.prototype.render = function render(options, callback) {
  callback(null, this.lookup(options));
};

module.exports = View;
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("cardctors"), FILES) as d:
        yield d


def test_a_java_class_lists_its_longest_constructors_parameters(running: Daemon) -> None:
    # its methods: a constant is none (`BaseUriKey` was listed among them)
    card = running.service.get_card("org.jsoup.nodes.Element")
    assert card.init_params == ("String tag", "String namespace")
    assert [m.split("(")[0] for m in card.methods] == [
        "public Element", "public Element", "public String text"]


def test_a_js_constructor_function_lists_its_prototype_methods(running: Daemon) -> None:
    card = running.service.get_card("View")
    assert (card.kind, card.init_params) == ("function", ("name", "options"))
    assert [m.split("(")[0] for m in card.methods] == ["function lookup", "function render"]
