"""JVM frames a review found misread by ``callgraph.anonymous_member``: a proxy's frame
(``Service$$SpringCGLIB$$0.run``) or a Unicode digit raised instead of answering nothing;
two anonymous classes of one type in one method share an indexed name (each frame got both
methods); enum constant bodies are numbered with the anonymous classes; a common inner
class name (``Builder``) in earlier files crowded the right one out. The javac numbers are
javac 17's for these very files. Real git fixture, real embedded store."""
from __future__ import annotations

import pytest

from coderecalld.errors import NotFound
from conformance_cases import indexed

OUTER = '''\
package com.acme;

public class Outer {
  static Runnable A = new Runnable() { public void run() { first(); } };
  void g() {
    Runnable h = new Runnable() { public void run() { fifth(); } };
  }
}
'''

# javac: Panel$1 = the first Runnable (save), Panel$2 = the second (load)
PANEL = '''\
package com.acme;

public class Panel {
  Runnable[] init() {
    Runnable save = new Runnable() {
      public void run() {
        throw new IllegalStateException("save");
      }
    };
    Runnable load = new Runnable() {
      public void run() {
        throw new IllegalStateException("load");
      }
    };
    return new Runnable[] {save, load};
  }
}
'''

# javac: E$1 = constant A's body, E$2 = the Runnable in g()
ENUM = '''\
package com.acme;

public enum E {
  A {
    @Override public String f() { return "a"; }
  },
  B;
  public String f() { return "e"; }
  public Runnable g() {
    return new Runnable() { public void run() { System.out.println("g"); } };
  }
}
'''


def builder(outer: str, body: str = "") -> str:
    return (f"package com.acme;\n\npublic class {outer} {{\n  public static class Builder {{\n"
            f"    public Builder() {{}}\n    public Builder(int size) {{}}\n{body}\n  }}\n}}\n")


ANON = '''    Runnable build() {
      return new Runnable() {
        public void run() {
          throw new IllegalStateException("build");
        }
      };
    }'''

FILES = {"src/main/java/com/acme/Outer.java": OUTER, "src/main/java/com/acme/Panel.java": PANEL,
         "src/main/java/com/acme/E.java": ENUM,
         "src/main/java/com/acme/Alpha.java": builder("Alpha"), "src/main/java/com/acme/Beta.java": builder("Beta"),
         "src/main/java/com/acme/Gamma.java": builder("Gamma", ANON)}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    with indexed(tmp_path_factory.mktemp("rev17jvm"), FILES) as running:
        yield running


def _symbols(daemon, frame):
    return [(h.path.rsplit("/", 1)[-1], h.start_line) for h in daemon.service.find_symbols(frame, repo="fx")]


@pytest.mark.parametrize("frame", [
    "com.acme.OrderService$$SpringCGLIB$$0.placeOrder",             # Spring 6 proxy frame
    "com.acme.Service$$EnhancerBySpringCGLIB$$12345678.process",    # Spring 5, an all-digit hash
    "Outer$\u00b2.run",                                             # a Unicode digit
])
@pytest.mark.parametrize("call", ["find_symbols", "find_callers", "get_card", "analyze_impact"])
def test_odd_frames_do_not_raise(daemon, frame, call):
    try:  # afe4ee8: [] (get_card: NotFound), no other exception
        getattr(daemon.service, call)(frame, repo="fx")
    except NotFound:
        assert call == "get_card"


def test_two_anonymous_classes_of_one_type_in_one_method(daemon):
    assert _symbols(daemon, "Panel$1.run") == [("Panel.java", 6)]
    assert _symbols(daemon, "Panel$2.run") == [("Panel.java", 11)]


def test_enum_constant_bodies_are_numbered_with_anonymous_classes(daemon):
    assert _symbols(daemon, "E$2.run") == [("E.java", 10)]   # javac's E$2 is the Runnable
    assert _symbols(daemon, "E$1.run") == []                 # javac's E$1 (A's body) has no run


def test_a_common_inner_class_name_in_a_later_file(daemon):
    assert _symbols(daemon, "com.acme.Gamma$Builder$1.run") == [("Gamma.java", 9)]
