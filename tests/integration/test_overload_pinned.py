"""A method a question names with its owner is pinned when it is overloaded
(``service._one_method``): jsoup's "`Element.text()`" has ``text()`` and ``text(String)``,
two definitions, which named nothing in particular, and neither was in the first ten (a
newcomer). Written with empty parentheses, the overload without parameters is the one.
Real git fixture (Java), real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import service
from conformance_cases import indexed

WORDY = "".join(f'''\
    /** Returns the combined text of the nested elements and their children, normalised. */
    public String combinedText{i}(Node node) {{
        return node.toString();
    }}

''' for i in range(8))

FILES = {
    "src/main/java/org/acme/Element.java": '''\
package org.acme;

public class Element {
    private String own;

    public String text() {
        StringBuilder accum = new StringBuilder();
        traverse(accum);
        return accum.toString().trim();
    }

    public Element text(String value) {
        own = value;
        return this;
    }

    private void traverse(StringBuilder accum) {
        accum.append(own);
    }
}
''',
    "src/main/java/org/acme/TextUtil.java": "package org.acme;\n\npublic class TextUtil {\n" + WORDY + "}\n",
}

QUESTION = "what does `Element.text()` return for nested elements and their children"


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("overloads"), FILES) as running:
        yield running


def _page(daemon: Daemon) -> list[str]:
    return [h.qualified_name for h in daemon.service.search(QUESTION, limit=5, repo="fx")]


def test_an_overloaded_method_named_in_a_question_is_pinned(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(service, "_one_method", lambda defs: False)
        before = _page(daemon)
    assert before[0].startswith("org.acme.TextUtil.combinedText")  # the wordy helpers (tied)
    assert not any(name.startswith("org.acme.Element.text") for name in before)
    after = _page(daemon)
    # first (``MEMBER_RANK``), and the overload the parentheses name, not the setter
    assert after[0] == "org.acme.Element.text()"
    assert "org.acme.Element.text(String)" not in after
