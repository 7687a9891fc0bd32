"""JVM stack traces and Rust backtraces as agents paste them, end to end on real git
fixtures and the real embedded store (sparse side only): ``frames.read`` reads their
frames innermost first (a JVM trace's last ``Caused by:`` first), a JVM frame's package
path names the file by its class's qualified name (``anchors._qualified_frames``: the
repository keeps it under ``core/src/main/java/``), a Rust toolchain or registry frame
names nothing of the repository, and a frame's function is told from its same-named
siblings by the line it printed, else by its owner (``anchors._ran``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors, shape
from coderecalld.query.shape import Shape
from conformance_cases import indexed

JAVA = {
    "settings.gradle": "include 'core'\n",
    # The root cause: a reader refusing a number.
    "core/src/main/java/com/acme/json/Reader.java": '''\
package com.acme.json;

public final class Reader {
  private final String text;

  public Reader(String text) {
    this.text = text;
  }

  public int nextInt() {
    long value = Long.parseLong(text);
    if (value > Integer.MAX_VALUE) {
      throw new NumberFormatException("Expected an int but was " + value);
    }
    return (int) value;
  }
}
''',
    # Two same-named ``read`` methods, every word of the binding of fields: without the
    # frames it is the trace's best file.
    "core/src/main/java/com/acme/json/Binder.java": '''\
package com.acme.json;

/** Binds fields: reads each field of a bound object, binds the field, reads the value. */
public final class Binder {
  /** The adapter that reads a bound object's fields: it binds each field it reads. */
  static final class Adapter {
    Object read(Reader reader) {
      // read the field, bind the field, read the bound value of the field; a value that
      // is no int: the reader's nextInt refuses it ("Expected an int but was")
      return reader.nextInt();
    }
  }

  /** Another adapter: reads a bound field, binds the field it reads. */
  static final class Other {
    Object read(Reader reader) {
      // read the bound field, bind it, read the field's value
      return null;
    }
  }
}
''',
}

JAVA_TRACE = """\
Exception in thread "main" com.acme.json.BindException: java.lang.NumberFormatException: Expected an int but was 3000000000
\tat com.acme.json.Binder$Adapter.read(Binder.java:310)
\tat com.acme.app.Main.main(Main.java:15)
Caused by: java.lang.NumberFormatException: Expected an int but was 3000000000
\tat com.acme.json.Reader.nextInt(Reader.java:13)
\tat com.acme.json.Binder$Adapter.read(Binder.java:305)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:568)
\t... 1 more
"""


@pytest.fixture(scope="module")
def java(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("java"), JAVA) as running:
        yield running


def _flat(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """``monkeypatch`` with every path and frame weight off."""
    monkeypatch.setattr(anchors, "PATH_WEIGHT", 0.0)
    monkeypatch.setattr(anchors, "FRAME_WEIGHTS", ())
    monkeypatch.setattr(anchors, "TRACE_FRAME_WEIGHTS", ())
    return monkeypatch


def test_a_jvm_traces_root_cause_is_its_innermost_frame() -> None:
    q = shape.analyze(JAVA_TRACE)
    assert q.shape is Shape.TRACE
    assert [(f.path, f.function, f.line) for f in q.frames] == [
        ("com/acme/json/Reader.java", "com.acme.json.Reader.nextInt", 13),
        ("com/acme/json/Binder.java", "com.acme.json.Binder.Adapter.read", 305),
        ("com/acme/json/Binder.java", "com.acme.json.Binder.Adapter.read", 310),
        ("com/acme/app/Main.java", "com.acme.app.Main.main", 15)]  # java.lang: the runtime's
    assert "invoke" not in q.names


def test_a_jvm_frame_names_its_file_by_the_classs_qualified_name(
        java: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """``com/acme/json/Reader.java`` is no suffix of ``core/src/main/java/com/acme/json/
    Reader.java``; the class ``com.acme.json.Reader`` is defined there. The root cause's
    file comes first with ``nextInt``; ``Binder``'s frames name ``Adapter.read``, not
    ``Other.read``, though their lines (305, 310: an older version) are in neither."""
    with monkeypatch.context() as m:
        _flat(m)
        flat = {f.path: f.score for f in java.service.locate(JAVA_TRACE, limit=2, repo="fx").files}
    located = java.service.locate(JAVA_TRACE, limit=2, repo="fx").files
    assert [f.path for f in located] == ["core/src/main/java/com/acme/json/Reader.java",
                                         "core/src/main/java/com/acme/json/Binder.java"]
    gained = [round(f.score - flat[f.path], 6) for f in located]
    assert gained == [anchors.PATH_WEIGHT + anchors.TRACE_FRAME_WEIGHTS[0],
                      anchors.PATH_WEIGHT + anchors.TRACE_FRAME_WEIGHTS[1]]
    assert located[0].functions[0].qualified_name == "com.acme.json.Reader.nextInt()"
    assert located[1].functions[0].qualified_name == "com.acme.json.Binder.Adapter.read(Reader)"


RUST = {
    "Cargo.toml": '[package]\nname = "jsonish"\nversion = "0.1.0"\n',
    "src/de.rs": '''\
use serde::de;

pub struct Deserializer {
    input: Vec<u8>,
    index: usize,
}

pub struct MapKey<'a> {
    de: &'a mut Deserializer,
}

impl Deserializer {
    fn parse_whitespace(&mut self) -> Option<u8> {
        while self.index < self.input.len() {
            self.index += 1;
        }
        None
    }
}

impl<'de, 'a> de::Deserializer<'de> for &'a mut Deserializer {
    fn deserialize_any(self, visitor: usize) -> usize {
        self.parse_whitespace();
        visitor
    }
}

impl<'de, 'a> de::Deserializer<'de> for MapKey<'a> {
    fn deserialize_any(self, visitor: usize) -> usize {
        let key = self.de.parse_whitespace().expect("a map key");
        visitor + key as usize
    }
}
''',
    # What std's own io frames are called: a crate's io module full of the trace's words.
    "src/io/mod.rs": '''\
/// Reads bytes for a map key: read, expect a key, read the map's bytes.
pub fn read_map_key(bytes: &[u8]) -> Option<u8> {
    bytes.first().copied()
}
''',
}

RUST_TRACE = """\
thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/jsonish-0.1.0/src/de.rs:41:50:
a map key
stack backtrace:
   0: rust_begin_unwind
             at /rustc/79e9716c980570bfd1f666e3b16ac583f0168962/library/std/src/panicking.rs:597:5
   1: core::option::expect_failed
             at /rustc/79e9716c980570bfd1f666e3b16ac583f0168962/library/core/src/option.rs:1988:5
   2: std::io::read_to_end
             at /rustc/79e9716c980570bfd1f666e3b16ac583f0168962/library/std/src/io/mod.rs:412:17
   3: <jsonish::de::MapKey as serde::de::Deserializer>::deserialize_any
             at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/jsonish-0.1.0/src/de.rs:41:50
   4: app::main
             at ./src/main.rs:9:5
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
"""


@pytest.fixture(scope="module")
def rust(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("rust"), RUST) as running:
        yield running


def test_a_rust_backtraces_frames_innermost_first_without_the_toolchain() -> None:
    q = shape.analyze(RUST_TRACE)
    assert q.shape is Shape.TRACE
    # where it panicked (de.rs:41) is the frame naming its function at that line: that one
    assert [(f.path, f.function, f.line) for f in q.frames] == [
        ("jsonish-0.1.0/src/de.rs", "jsonish.de.MapKey.deserialize_any", 41),
        ("src/main.rs", "app.main", 9)]
    assert not {"rustc", "cargo", "registry", "crates"} & {t for t, _ in q.terms}
    assert {"expect_failed", "read_to_end"}.isdisjoint(q.names)


def test_a_rust_frame_names_the_impl_it_ran_in(rust: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """``de.rs`` defines ``deserialize_any`` twice; the frame's owner ``MapKey`` (its line,
    41, is past the file: another version) tells which. std's ``library/std/src/io/mod.rs``
    names nothing: the crate's ``src/io/mod.rs`` gains no path weight."""
    with monkeypatch.context() as m:
        _flat(m)
        flat = {f.path: f.score for f in rust.service.locate(RUST_TRACE, limit=3, repo="fx").files}
    located = rust.service.locate(RUST_TRACE, limit=3, repo="fx").files
    assert located[0].path == "src/de.rs"
    assert located[0].functions[0].qualified_name == "<MapKey as de::Deserializer<'de>>::deserialize_any"
    scores = {f.path: f.score for f in located}
    assert scores.get("src/io/mod.rs") == flat.get("src/io/mod.rs")


@pytest.mark.parametrize("name", ["MapKey::deserialize_any", "MapKey.deserialize_any",
                                  "jsonish::de::MapKey::deserialize_any"])
def test_a_rust_trait_impls_method_is_found_as_type_and_method(rust: Daemon, name: str) -> None:
    """The index names a trait impl's method ``<MapKey as de::Deserializer<'de>>::
    deserialize_any``; an agent writes ``MapKey::deserialize_any`` (or with the crate's
    path, as a backtrace prints it): ``symbols`` and ``card`` find that impl's, not the
    other type's."""
    found = [(h.qualified_name, h.match) for h in rust.service.find_symbols(name, repo="fx")]
    assert found == [("<MapKey as de::Deserializer<'de>>::deserialize_any", "exact")]
    assert rust.service.get_card(name, repo="fx").qualified_name == found[0][0]


def test_a_java_name_as_a_trace_prints_it_is_found(java: Daemon) -> None:
    found = [(h.qualified_name, h.match) for h in java.service.find_symbols("Binder$Adapter.read", repo="fx")]
    assert found == [("com.acme.json.Binder.Adapter.read(Reader)", "exact")]


def test_a_rust_methods_card_counts_its_callers(rust: Daemon) -> None:
    """The card calls ``callers`` with the definition's own name (``Deserializer::
    parse_whitespace``); its short name is the last ``::`` segment, the one the call sites
    are stored under (it counted none)."""
    sites = [(c.path, c.line) for c in rust.service.find_callers("Deserializer::parse_whitespace", repo="fx")]
    assert sites == [("src/de.rs", 23), ("src/de.rs", 30)]
    card = rust.service.get_card("parse_whitespace", repo="fx")
    assert (card.callers_total, [(c.path, c.line) for c in card.callers]) == (2, sites)


def test_a_suppressed_exceptions_frames_and_cause_are_not_the_traces() -> None:
    """``Suppressed:`` blocks are indented one level under the frames they interrupt, and
    so is a ``Caused by:`` of theirs: the root cause is the last ``Caused by:`` at a
    line's start. Frames pasted without their indentation are frames too."""
    trace = ("Exception in thread \"main\" com.acme.json.BindException: boom\n"
             "\tat com.acme.json.Binder$Adapter.read(Binder.java:7)\n"
             "\tSuppressed: java.io.IOException: close failed\n"
             "\t\tat com.acme.json.Writer.close(Writer.java:60)\n"
             "\tCaused by: java.io.IOException: inner\n"
             "\t\tat com.acme.json.Writer.flush(Writer.java:80)\n"
             "Caused by: java.lang.NumberFormatException: root\n"
             "\tat com.acme.json.Reader.nextInt(Reader.java:13)\n"
             "\t... 1 more\n")
    assert [(f.function, f.line) for f in shape.analyze(trace).frames] == [
        ("com.acme.json.Reader.nextInt", 13), ("com.acme.json.Binder.Adapter.read", 7)]
    flat = shape.analyze(trace.replace("\tat ", "at "))
    assert [(f.function, f.line) for f in flat.frames][:1] == [("com.acme.json.Reader.nextInt", 13)]


NAMES = {
    "src/main/java/com/acme/Policy.java": '''\
package com.acme;

public enum Policy implements Reading {
  DOUBLE {
    @Override
    public Number read(String text) {
      return Double.parseDouble(text);
    }
  },
  LONG {
    @Override
    public Number read(String text) {
      return Long.parseLong(text);
    }
  }
}
''',
    "src/main/java/com/acme/Filter.java": '''\
package com.acme;

public interface Filter {
  boolean check(String name);

  Filter BLOCK_ALL = new Filter() {
    @Override
    public boolean check(String name) {
      return false;
    }
  };
}
''',
    "src/macros.rs": '''\
/// Returns early with the error of a result.
#[macro_export]
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}
''',
}


@pytest.fixture(scope="module")
def names(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("names"), NAMES) as running:
        yield running


@pytest.mark.parametrize(("name", "found"), [
    # an enum constant's body is named by the constant; its owner's name finds each
    ("Policy.read", ["com.acme.Policy.DOUBLE.read(String)", "com.acme.Policy.LONG.read(String)"]),
    ("Policy.LONG.read", ["com.acme.Policy.LONG.read(String)"]),
    # an interface's constant holding an anonymous class names it
    ("Filter.BLOCK_ALL.check", ["com.acme.Filter.BLOCK_ALL.check(String)"]),
    # a Rust macro as it is invoked
    ("tri!", ["tri"]),
    # a generic type as written, with its parameters or .NET's arity
    ("Filter<T>", ["com.acme.Filter"]),
    ("Filter`1", ["com.acme.Filter"]),
])
def test_names_as_agents_write_them(names: Daemon, name: str, found: list[str]) -> None:
    assert sorted(h.qualified_name for h in names.service.find_symbols(name, repo="fx")) == found
    assert names.service.get_card(name, repo="fx").qualified_name in found


def test_a_rust_panic_without_a_backtrace_names_the_function_by_its_line(rust: Daemon) -> None:
    """``panicked at src/de.rs:30:24`` names no function; line 30 is in ``MapKey``'s
    ``deserialize_any`` (29-32): it leads its file (``anchors._at_line``), where the
    message's words listed ``parse_whitespace`` first."""
    panic = ("thread 'main' panicked at src/de.rs:30:24:\n"
             "called `Option::unwrap()` on a `None` value\n"
             "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n")
    located = rust.service.locate(panic, limit=2, repo="fx").files
    assert located[0].path == "src/de.rs"
    assert located[0].functions[0].qualified_name == "<MapKey as de::Deserializer<'de>>::deserialize_any"


def test_a_class_members_prefix_without_its_package(names: Daemon) -> None:
    """``symbols Filter. --prefix`` lists ``Filter``'s members (Java's qualified names carry
    the package: the prefix ``filter.`` matched none of ``com.acme.Filter.*``)."""
    found = sorted(h.qualified_name for h in names.service.find_symbols("Filter.", repo="fx", prefix=True))
    assert found == ["com.acme.Filter.BLOCK_ALL", "com.acme.Filter.BLOCK_ALL.check(String)",
                     "com.acme.Filter.check(String)"]
    assert sorted(h.qualified_name for h in names.service.find_symbols("Policy.L", repo="fx", prefix=True)) == [
        "com.acme.Policy.LONG", "com.acme.Policy.LONG.read(String)"]


def test_a_trace_of_another_projects_code_is_flagged(java: Daemon) -> None:
    """``com.acme.app`` frames only (the fixture holds ``com.acme.json``): no frame is in an
    indexed file, the answer says so; the fixture's own trace is not flagged so."""
    other = ("Exception in thread \"main\" java.lang.IllegalStateException: closed\n"
             "\tat com.acme.app.Reader.read(Reader.java:13)\n"
             "\tat com.acme.app.Main.main(Main.java:5)\n")
    hits = java.service.search(other, limit=3, repo="fx")
    assert hits.low_confidence and hits.confidence_reason.startswith("none of the trace's 2 frames")
    located = java.service.locate(other, limit=3, repo="fx")
    assert located.low_confidence and located.confidence_reason.startswith("none of the trace's 2 frames")
    assert not java.service.search(JAVA_TRACE, limit=3, repo="fx").confidence_reason.startswith("none")
