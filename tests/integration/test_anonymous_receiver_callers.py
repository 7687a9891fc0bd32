"""A Java call on an anonymous class's instance, ``new TypeAdapter<X>() {..}.nullSafe()``
(its line ``}.nullSafe();``), is the extended type's method, or the anonymous class's own
where it defines one: gson's 14 such calls (TypeAdapters.java, JavaTimeTypeAdapters.java)
were name-only callers of ``TypeAdapter.nullSafe``. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import caller_rows, indexed

FILES = {
    "src/main/java/com/acme/TypeAdapter.java": """\
package com.acme;

public abstract class TypeAdapter<T> {
  public abstract void write(T value);

  public final TypeAdapter<T> nullSafe() {
    return this;
  }
}
""",
    "src/main/java/com/acme/internal/Adapters.java": """\
package com.acme.internal;

import com.acme.TypeAdapter;

public final class Adapters {
  public static final TypeAdapter<String> STRING =
      new TypeAdapter<String>() {
        @Override
        public void write(String value) {}
      }.nullSafe();

  public static TypeAdapter<Long> longAdapter() {
    return new TypeAdapter<Long>() {
      @Override
      public void write(Long value) {}
    }.nullSafe();
  }

  public static TypeAdapter<Integer> own() {
    return new TypeAdapter<Integer>() {
      @Override
      public void write(Integer value) {}

      public TypeAdapter<Integer> nullSafe() {
        return this;
      }
    }.nullSafe();
  }
}
""",
}
ADAPTERS = "src/main/java/com/acme/internal/Adapters.java"


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("anonymous"), FILES) as running:
        yield running


def test_a_call_on_an_anonymous_instance_is_its_base_types(daemon: Daemon) -> None:
    # the third anonymous class defines its own nullSafe: that call is its own method's
    assert caller_rows(daemon, "com.acme.TypeAdapter.nullSafe") == [
        (ADAPTERS, 10, "com.acme.internal.Adapters", "resolved"),
        (ADAPTERS, 16, "com.acme.internal.Adapters.longAdapter()", "resolved"),
    ]
