"""Java calls across a package's files and source roots, as jsoup lays them out (Maven's
``src/main/java`` and ``src/test/java``): a test calling its package's class unimported
was left out of ``callers`` (19 of ``Entities.unescape``'s), and a static call on another
class of a package of many files (``TokenQueue.unescape(..)``) was a name-only caller of
``Entities.unescape``: the package's module chunks filled the lookup that tells a class
from a value. Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

MAIN = "src/main/java/org/jsoup/parser"
FILES = {
    f"{MAIN}/TokenQueue.java": """package org.jsoup.parser;

public class TokenQueue {
    public static String unescape(String in) {
        return in;
    }
}
""",
    f"{MAIN}/Entities.java": """package org.jsoup.parser;

public class Entities {
    public static String unescape(String in) {
        return in;
    }
}
""",
    f"{MAIN}/QueryParser.java": """package org.jsoup.parser;

public class QueryParser {
    String contains(String text) {
        String a = TokenQueue.unescape(text);
        return Entities.unescape(a);
    }
}
""",
    f"{MAIN}/TokeniserState.java": """package org.jsoup.parser;

enum TokeniserState {
    Data {
        void read(Tokeniser t, CharacterReader r) {
            t.advance();
        }
    },
    Rcdata {
        void read(Tokeniser t, CharacterReader r) {
        }
    };

    abstract void read(Tokeniser t, CharacterReader r);
}
""",
    f"{MAIN}/Tokeniser.java": """package org.jsoup.parser;

final class Tokeniser {
    private TokeniserState state = TokeniserState.Data;

    void advance() {
    }

    Token read(CharacterReader reader) {
        state.read(this, reader);
        return null;
    }
}
""",
    "src/test/java/org/jsoup/parser/EntitiesTest.java": """package org.jsoup.parser;

public class EntitiesTest {
    void unescapes() {
        Entities.unescape("&amp;");
    }
}
""",
    # a package of many files: each one's module chunk is named by the package
    **{f"{MAIN}/Part{i}.java": (f"/*\n * Part {i} of the parser: a licence header, as jsoup's files have.\n */\n"
                               f"package org.jsoup.parser;\n\nimport java.util.List;\n\n"
                               f"public class Part{i} {{\n    void run() {{}}\n}}\n")
       for i in range(12)},
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("javapackages"), FILES) as d:
        yield d


def test_a_packages_class_is_called_from_another_source_root_and_never_for_its_namesake(running: Daemon) -> None:
    assert caller_rows(running, "Entities.unescape") == [
        (f"{MAIN}/QueryParser.java", 6, "org.jsoup.parser.QueryParser.contains(String)", "resolved"),
        ("src/test/java/org/jsoup/parser/EntitiesTest.java", 5, "org.jsoup.parser.EntitiesTest.unescapes()",
         "resolved"),
    ]
    assert caller_rows(running, "TokenQueue.unescape") == [
        (f"{MAIN}/QueryParser.java", 5, "org.jsoup.parser.QueryParser.contains(String)", "resolved")]


def test_an_enum_constants_body_overrides_its_enums_method(running: Daemon) -> None:
    """jsoup's ``state.read(this, reader)`` on a ``TokeniserState`` runs the constant's
    ``read``: ``callers TokeniserState$38.read`` listed five ``InputStream.read`` calls and
    missed it (a constant's body had no base)."""
    assert caller_rows(running, "TokeniserState.Data.read") == [
        (f"{MAIN}/Tokeniser.java", 10, "org.jsoup.parser.Tokeniser.read(CharacterReader)", "override")]
    assert caller_rows(running, "TokeniserState.read") == [
        (f"{MAIN}/Tokeniser.java", 10, "org.jsoup.parser.Tokeniser.read(CharacterReader)", "resolved")]
