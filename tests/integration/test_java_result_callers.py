"""A Java call on the result of a method declared in another file of the project runs a
method of the class that method declares it returns: gson's ``gson.toJsonTree(x)
.getAsJsonObject()``, ``JsonParser.parseString(..).getAsJsonObject()`` and ``json.get("k")
.getAsJsonObject()`` were 36 name-only callers of ``JsonElement.getAsJsonObject`` and its
kin. A static call, a call on a receiver of a known type (a parameter, a field, ``this.f``)
and a ``var`` local holding such a call's result are typed by the method's declared result
(generics dropped); a ``void``/primitive result, a type parameter and overloads declaring
different results type nothing. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import caller_rows, indexed

FILES = {
    "src/main/java/com/acme/Element.java": """\
package com.acme;

public abstract class Element {
  public Obj asObj() { return (Obj) this; }
  public abstract Element copy();
}
""",
    "src/main/java/com/acme/Obj.java": """\
package com.acme;

public final class Obj extends Element {
  public Element get(String key) { return null; }
  @Override
  public Obj copy() { return this; }
}
""",
    "src/main/java/com/acme/Parser.java": """\
package com.acme;

public final class Parser {
  public static Element parse(String s) { return null; }
  public static <T> T read(String s) { return null; }
  public static Element pick(int i) { return null; }
  public static String pick(String s) { return s; }
}
""",
    "src/main/java/com/acme/Adapter.java": """\
package com.acme;

public abstract class Adapter<T> {
  public final Adapter<T> nullSafe() { return this; }
}
""",
    "src/main/java/com/acme/Maker.java": """\
package com.acme;

public interface Maker<T> {
  T make();
}
""",
    "src/main/java/com/acme/Factory.java": """\
package com.acme;

public class Factory {
  public <T> Maker<T> get(Class<T> type) { return null; }
}
""",
    "src/test/java/com/acme/app/UseTest.java": """\
package com.acme.app;

import com.acme.Adapter;
import com.acme.Factory;
import com.acme.Obj;
import com.acme.Parser;

public class UseTest {
  private final Factory factory = new Factory();

  public void run(Obj json, Adapter<String> adapter) {
    Parser.parse("x").asObj();
    json.get("k").asObj();
    this.factory.get(String.class).make();
    factory.get(String.class).make();
    adapter.nullSafe().nullSafe();
    var made = factory.get(String.class);
    made.make();
    json.copy().asObj();
    Parser.read("x").asObj();
    Parser.pick(1).asObj();
    Parser.parse("y").copy();
  }
}
""",
}
TEST = "src/test/java/com/acme/app/UseTest.java"
RUN = "com.acme.app.UseTest.run(Obj,Adapter<String>)"


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("results"), FILES) as running:
        yield running


def test_a_call_on_another_files_result_is_its_declared_class_method(daemon: Daemon) -> None:
    # `Obj.copy()` returns an Obj: Element's `asObj` inherited; `<T> T read(..)` and the
    # overloads of `pick` (an Element, a String) type nothing: name-only
    assert caller_rows(daemon, "com.acme.Element.asObj") == [
        (TEST, 12, RUN, "resolved"),
        (TEST, 13, RUN, "resolved"),
        (TEST, 19, RUN, "inherited"),
        (TEST, 20, RUN, "name_only"),
        (TEST, 21, RUN, "name_only"),
    ]


def test_a_fields_and_a_var_locals_results_are_typed(daemon: Daemon) -> None:
    assert caller_rows(daemon, "com.acme.Maker.make") == [
        (TEST, 14, RUN, "resolved"),
        (TEST, 15, RUN, "resolved"),
        (TEST, 18, RUN, "resolved"),
    ]


def test_a_generic_result_is_its_class_without_arguments(daemon: Daemon) -> None:
    assert caller_rows(daemon, "com.acme.Adapter.nullSafe") == [
        (TEST, 16, RUN, "resolved"),  # the receiver's `adapter.nullSafe()` and its result's
        (TEST, 16, RUN, "resolved"),
    ]


def test_a_call_on_a_bases_result_may_run_an_override(daemon: Daemon) -> None:
    # an Element's `copy()` may be an Obj's: as on an Element-typed local
    assert caller_rows(daemon, "com.acme.Obj.copy") == [
        (TEST, 19, RUN, "resolved"),
        (TEST, 22, RUN, "override"),
    ]
