"""A JVM trace names an anonymous class as javac does, ``Outer$2.run``: its immediately
enclosing class (named or anonymous) and its place among that class's anonymous classes in
source order (``callgraph.anonymous_member``). The numbers asserted here are javac 17's for
this very file (``javac Outer.java`` writes ``Outer$1``, ``Outer$2``, ``Outer$3``,
``Outer$Inner$1``, ``Outer$Inner$2``, ``Outer$Inner$2$1``). gson's traces are full of them
(``ReflectiveTypeAdapterFactory$2.readIntoField``) and none could be looked up. Real git
fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

OUTER = '''\
package com.acme;

public class Outer {
  static Runnable A = new Runnable() { public void run() { first(); } };
  class Inner {
    Runnable b = new Runnable() { public void run() { second(); } };
    void f() {
      Runnable c = new Runnable() {
        public void run() {
          Runnable d = new Runnable() { public void run() { third(); } };
        }
      };
    }
  }
  static Runnable E = new Runnable() { public void run() { fourth(); } };
  void g() {
    Runnable h = new Runnable() { public void run() { fifth(); } };
  }
}
'''


#: gson's ``LongSerializationPolicy``: constants with arguments, or with empty parentheses
#: (``DEFAULT() {``), are bodies javac numbers too (``Policy$1``, ``Policy$2``, ``Policy$3``)
POLICY = '''\
package com.acme;

public enum Policy {
  DEFAULT() {
    @Override public String serialize(long value) { return "" + value; }
  },
  QUOTED("q") {
    @Override public String serialize(long value) { return "'" + value + "'"; }
  },
  PLAIN {
    @Override public String serialize(long value) { return String.valueOf(value); }
  };
  Policy() {}
  Policy(String tag) {}
  public abstract String serialize(long value);
}
'''


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("jvm-anonymous"), {"src/main/java/com/acme/Outer.java": OUTER,
                                                             "src/main/java/com/acme/Policy.java": POLICY}) as running:
        yield running


@pytest.mark.parametrize(("frame", "line"), [
    ("Outer$1.run", 4), ("Outer$2.run", 15), ("Outer$3.run", 17),
    ("com.acme.Outer$Inner$1.run", 6), ("Outer$Inner$2.run", 9), ("Outer$Inner$2$1.run", 10),
])
def test_an_anonymous_class_frame_names_its_method(daemon: Daemon, frame: str, line: int) -> None:
    found = daemon.service.find_symbols(frame, repo="fx")
    assert [(h.path, h.start_line, h.name) for h in found] == [("src/main/java/com/acme/Outer.java", line, "run")]


@pytest.mark.parametrize(("frame", "line"), [
    ("Policy$1.serialize", 5), ("com.acme.Policy$2.serialize", 8), ("Policy$3.serialize", 11),
])
def test_an_enum_constant_body_frame_names_its_method(daemon: Daemon, frame: str, line: int) -> None:
    """An enum constant written with arguments or empty parentheses has a body javac
    numbers as it numbers one written bare (gson's ``LongSerializationPolicy$1.serialize``,
    ``DEFAULT() {``, answered no symbol; a newcomer)."""
    found = daemon.service.find_symbols(frame, repo="fx")
    assert [(h.path, h.start_line, h.name) for h in found] == [("src/main/java/com/acme/Policy.java", line, "serialize")]


@pytest.mark.parametrize("frame", ["Policy$4.serialize", "Outer$4.run", "Outer$0.run", "Outer$Inner$3.run", "Other$1.run",
                                   "Outer$1.stop"])
def test_a_place_past_the_anonymous_classes_names_nothing(daemon: Daemon, frame: str) -> None:
    assert daemon.service.find_symbols(frame, repo="fx") == []
