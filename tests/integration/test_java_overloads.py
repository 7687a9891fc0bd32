"""Java picks an overload by its arguments: a call names every overload of ``pkg.C.m``
alike, so its argument count decides which ones it may run (``parse.text.call_arity``).
jsoup's ``el.attr("x")`` on an ``Element``, which declares only ``attr(String,String)``
and ``attr(String,boolean)``, runs ``Node.attr(String)``: ``callers Node.attr`` missed 19
such calls and ``callers Element.attr`` listed 80 as resolved (a newcomer). Real git
fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.parse import text as tx
from conformance_cases import indexed

FILES = {
    "src/main/java/org/demo/Node.java": '''\
package org.demo;

public class Node {
    public String attr(String key) {
        return key;
    }

    public Node attr(String key, String value) {
        return this;
    }
}
''',
    "src/main/java/org/demo/Element.java": '''\
package org.demo;

public class Element extends Node {
    public Element attr(String key, String value) {
        return this;
    }

    public Element attr(String key, boolean value) {
        return this;
    }

    public String className() {
        return attr("class");
    }
}
''',
    "src/main/java/org/demo/Use.java": '''\
package org.demo;

public class Use {
    public String run(Element el, Object other) {
        el.attr("k", "v");
        other.attr();
        return el.attr("x");
    }
}
''',
    # an overload between the asked class and the receiver's runs instead (a review)
    "src/main/java/org/demo/Mid.java": '''\
package org.demo;

public class Mid extends Node {
    public String attr(String key) {
        return key;
    }
}
''',
    "src/main/java/org/demo/Leaf.java": '''\
package org.demo;

public class Leaf extends Mid {
    public Leaf attr(String key, int value) {
        return this;
    }

    public String run(Leaf other) {
        return other.attr("y");
    }
}
''',
    "src/main/java/org/demo/UseLeaf.java": '''\
package org.demo;

public class UseLeaf {
    public String run(Leaf leaf) {
        return leaf.attr("z");
    }
}
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("overloads"), FILES) as running:
        yield running


def rows(daemon: Daemon, name: str) -> tuple[list[tuple[str, int, str]], int]:
    omitted: dict[str, int] = {}
    found = [(s.path.rpartition("/")[2], s.line, s.confidence)
             for s in daemon.service.find_callers(name, repo="fx", omitted=omitted)]
    return found, omitted.get("other_type", 0)


def test_a_call_runs_the_overload_its_arguments_fit(daemon: Daemon) -> None:
    # the one-argument calls: Node's attr(String), inherited by Element (written in
    # Element itself, bare: resolved to Node's when indexed); no call takes none
    assert rows(daemon, "org.demo.Node.attr") == (
        [("Element.java", 13, "resolved"), ("Use.java", 7, "inherited")], 4)
    # `other.attr("y")` on a Leaf runs Mid's attr(String): Mid's, not Node's
    # (written in Leaf, resolved to Mid's when indexed; from another file, judged by count)
    assert [r for r in rows(daemon, "org.demo.Mid.attr")[0] if r[0] in ("Leaf.java", "UseLeaf.java")] == [
        ("Leaf.java", 9, "resolved"), ("UseLeaf.java", 5, "inherited")]
    # the two-argument call on an Element is Element's; the others fit none of its overloads
    assert rows(daemon, "org.demo.Element.attr") == ([("Use.java", 5, "resolved")], 5)


@pytest.mark.parametrize(("line", "name", "count"), [
    ('return attr("class");', "attr", 1),
    ('el.attr("a", b.get("x, y"))', "attr", 2),
    ("x.attr()", "attr", 0),
    ("f(',', 'x')", "f", 2),
    ('f("a\\"b", c)', "f", 2),  # an escaped quote in a string
    ("map.put(k, new int[]{1, 2})", "put", 2),
    ("f(x -> { a(); b(); }, y)", "f", 2),
    ("x.attr(", "attr", None),  # goes on past the line
    ("a.attr(1).attr(2)", "attr", None),  # two calls of the name: which one is not known
    ("nothing here", "attr", None),
    # type arguments' commas and a comment's are none: not counted (gson's TypeToken calls)
    ("put(new HashMap<String, Integer>());", "put", None),
    ('gson.fromJson("{}", new TypeToken<Map<String, Boolean>>() {}.getType());', "fromJson", None),
    ("b.m(1 /* , two */)", "m", None),
])
def test_call_arity(line: str, name: str, count: int | None) -> None:
    assert tx.call_arity(line, name) == count


def test_java_arity() -> None:
    assert tx.java_arity("org.demo.Node.attr(String,String)", "attr") == (2, 2)
    assert tx.java_arity("T.error(String,Object...)", "error") == (1, float("inf"))
    assert tx.java_arity("A.m(Map<K,V>,int)", "m") == (2, 2)
    assert tx.java_arity("A.m()", "m") == (0, 0)
    assert tx.java_arity("A.m", "m") is None


INHERITED = {
    "src/main/java/org/demo/Tokeniser.java": '''\
package org.demo;

public class Tokeniser {
    public void transition(String state) {
    }
}
''',
    "src/main/java/org/demo/Other.java": '''\
package org.demo;

public class Other {
    public void transition(String state) {
    }
}
''',
    "src/main/java/org/demo/TreeBuilder.java": '''\
package org.demo;

public abstract class TreeBuilder {
    protected Tokeniser tokeniser;
    protected Other other;
}
''',
    "src/main/java/org/demo/HtmlTreeBuilder.java": '''\
package org.demo;

public class HtmlTreeBuilder extends TreeBuilder {
    public void process() {
        tokeniser.transition("data");
        other.transition("data");
    }
}
''',
    "src/main/java/org/demo/State.java": '''\
package org.demo;

public class State {
    public void step(HtmlTreeBuilder tb) {
        tb.tokeniser.transition("rawtext");
    }
}
''',
}


@pytest.fixture(scope="module")
def fields(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("fields"), INHERITED) as running:
        yield running


def test_a_field_a_base_of_another_file_declares_types_its_calls(fields: Daemon) -> None:
    """jsoup's ``tokeniser.transition(..)`` in ``HtmlTreeBuilder`` and ``tb.tokeniser
    .transition(..)`` were name-only callers of ``Tokeniser.transition``, the field declared
    on ``TreeBuilder`` in another file (a newcomer)."""
    # a call through a field is judged for the class asked about: another class's field
    # stays a candidate of a method of its name
    assert rows(fields, "org.demo.Tokeniser.transition") == (
        [("HtmlTreeBuilder.java", 5, "resolved"), ("State.java", 5, "resolved"),
         ("HtmlTreeBuilder.java", 6, "name_only")], 0)
    assert rows(fields, "org.demo.Other.transition") == (
        [("HtmlTreeBuilder.java", 6, "resolved"), ("HtmlTreeBuilder.java", 5, "name_only"),
         ("State.java", 5, "name_only")], 0)
