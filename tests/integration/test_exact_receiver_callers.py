"""A Java call on a receiver that is exactly a base class (a local or field only ever
assigned ``new Base(..)``, no anonymous body; ``new Base(..).m()``) runs ``Base.m``, never
a subclass's override: gson's ``JsonReader reader = new JsonReader(..); reader.skipValue()``
were 44 of the 74 ``override`` callers of ``JsonTreeReader.skipValue``. They stay
``resolved`` callers of the base's method. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import caller_rows, indexed

FILES = {
    "src/main/java/com/acme/Reader.java": """\
package com.acme;

public class Reader {
  public void skip() {}
}
""",
    "src/main/java/com/acme/TreeReader.java": """\
package com.acme;

public class TreeReader extends Reader {
  @Override
  public void skip() {}
}
""",
    "src/test/java/com/acme/ReaderTest.java": """\
package com.acme;

public class ReaderTest {
  private final Reader fixed = new Reader();
  Reader open = new Reader();

  public void exact(String json) {
    Reader reader =
        new Reader(
            );
    reader.skip();
    reader = new Reader();
    reader.skip();
    var v = new Reader();
    v.skip();
    new Reader().skip();
    fixed.skip();
    this.fixed.skip();
  }

  public void maybeOther(Reader given, boolean flag) {
    given.skip();
    Reader anon = new Reader() {
      @Override
      public void skip() {}
    };
    anon.skip();
    Reader sub = new TreeReader();
    sub.skip();
    Reader either = flag ? new Reader() : new TreeReader();
    either.skip();
    open.skip();
  }
}
""",
}
TEST = "src/test/java/com/acme/ReaderTest.java"
EXACT = "com.acme.ReaderTest.exact(String)"
OTHER = "com.acme.ReaderTest.maybeOther(Reader,boolean)"


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("exact"), FILES) as running:
        yield running


def test_a_receiver_of_exactly_the_base_is_no_override_caller(daemon: Daemon) -> None:
    # the parameter, the anonymous subclass, a subclass's construction, a ternary and a
    # field other files may assign may each be a TreeReader; the exact ones are not listed
    assert caller_rows(daemon, "com.acme.TreeReader.skip") == [
        (TEST, 22, OTHER, "override"),
        (TEST, 27, OTHER, "name_only"),  # the anonymous class's line binds `anon` untyped
        (TEST, 29, OTHER, "override"),
        (TEST, 31, OTHER, "override"),
        (TEST, 32, OTHER, "override"),
    ]


def test_they_stay_resolved_callers_of_the_base(daemon: Daemon) -> None:
    assert caller_rows(daemon, "com.acme.Reader.skip") == [
        (TEST, 11, EXACT, "resolved"),
        (TEST, 13, EXACT, "resolved"),
        (TEST, 15, EXACT, "resolved"),
        (TEST, 16, EXACT, "resolved"),
        (TEST, 17, EXACT, "resolved"),
        (TEST, 18, EXACT, "resolved"),
        (TEST, 22, OTHER, "resolved"),
        (TEST, 27, OTHER, "name_only"),
        (TEST, 29, OTHER, "resolved"),
        (TEST, 31, OTHER, "resolved"),
        (TEST, 32, OTHER, "resolved"),
    ]
