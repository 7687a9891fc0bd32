"""Call resolution for Go and Java: import extraction (parse/imports.py), Go package names
from go.mod (index/layout.py), call targets (index/resolve.py) and the names definitions are found by
(points.fq_name)."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, layout, points, resolve
from coderecalld.parse.imports import go_package_name

GO = b'''package util

import (
\t"fmt"
\tx "example.com/a/util/sub"
\t. "example.com/dot"
\t_ "example.com/blank"
\t"example.com/a/v2"
)
import "gopkg.in/yaml.v3"

type Server struct{ mu sync.Mutex }

func (s *Server) helper() int {
\treturn 1
}

func (s Server) Run() {
\ts.helper()
\tFunc()
\tx.Do(len("a"))
\tfmt.Println(a.New())
\tNewServer().Stop()
\ts.mu.Lock()
\tint64(3)
}

func Func() {}
'''

JAVA = b'''package com.acme.app;

import com.acme.util.Strings;
import com.acme.util.*;
import static com.acme.util.Maths.max;
import static com.acme.util.Maths.*;

public class Service extends Base {
    private final Helper h = new Helper();

    public void run() {
        this.step();
        step();
        Strings.trim("a");
        new Strings();
        Util.go();
        max(1, 2);
        inherited();
        String.valueOf(1);
        LOG.info("x");
        h.work();
        make().step();
    }

    void step() {}

    static Service make() {
        return new Service();
    }

    class Inner {
        void f() {
            step();
            this.g();
        }
    }
}
'''


def targets(blob: bytes, language: str, path: str, module: str = "", **kw) -> dict[str, list[tuple[str, str]]]:
    parsed = parse.symbols(blob, language)
    found = resolve.chunks(chunk.chunks("r", path, blob, parsed), parsed, path, module, **kw)
    return {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found}


def test_go_imports_bind_alias_or_last_element() -> None:
    assert parse.symbols(GO, "go").import_aliases == (
        ("fmt", "fmt"), ("x", "example.com/a/util/sub"), ("*", "example.com/dot"),
        ("a", "example.com/a/v2"), ("yaml", "gopkg.in/yaml.v3"))
    assert [go_package_name(p) for p in ("example.com/go-util", "example.com/m/v10", "a-b")] == [
        "util", "m", "a_b"]


def test_java_imports_bind_simple_names_and_wildcards() -> None:
    assert parse.symbols(JAVA, "java").import_aliases == (
        ("Strings", "com.acme.util.Strings"), ("*", "com.acme.util"), ("max", "com.acme.util.Maths.max"),
        ("*", "com.acme.util.Maths"))


def test_go_package_import_path_from_go_mod() -> None:
    files = {"go.mod": b"module example.com/a\n\ngo 1.21\n", "tools/go.mod": b'module "example.com/tools"\n',
             "util/s.go": b"", "main.go": b"", "tools/gen/g.go": b""}
    shape = layout.layout(files, files.__getitem__, parse.language_for)
    assert [shape.module(p) for p in ("util/s.go", "main.go", "tools/gen/g.go")] == [
        "example.com/a/util", "example.com/a", "example.com/tools/gen"]
    bare = layout.layout({"x/y.go": b""}, lambda p: b"", parse.language_for)
    assert bare.module("x/y.go") == ""  # outside any module: nothing resolves


def test_go_calls_resolve_through_imports_package_and_receiver() -> None:
    sites = targets(GO, "go", "util/s.go", "example.com/a/util")
    assert sites["util.Server.Run"] == [
        ("s.helper", "example.com/a/util.Server.helper"), ("Func", "example.com/a/util.Func"),
        ("x.Do", "example.com/a/util/sub.Do"), ("len", ""), ("fmt.Println", "fmt.Println"),
        ("a.New", "example.com/a/v2.New"),
        ("Stop", "example.com/a/util.NewServer().Stop"),  # on another file's function's result
        ("NewServer", "example.com/a/util.NewServer"),
        # a field of a value type another package names (may be an interface): its type is
        # the query side's to read (``field_types``), the target names the field
        ("s.mu.Lock", "example.com/a/util.Server.mu.Lock"), ("int64", "")]


def test_java_calls_resolve_through_imports_class_and_package() -> None:
    java_dirs = {"src/com/acme/app": frozenset({"Service", "Helper"})}
    sites = targets(JAVA, "java", "src/com/acme/app/Service.java", java_dirs=java_dirs)
    assert sites["com.acme.app.Service"] == [("Helper", "com.acme.app.Helper")]  # same directory
    assert sites["com.acme.app.Service.run()"] == [
        ("this.step", "com.acme.app.Service.step"), ("step", "com.acme.app.Service.step"),
        ("Strings.trim", "com.acme.util.Strings.trim"), ("Strings", "com.acme.util.Strings"),
        # one type wildcard (a static import's `Maths.*` imports members, no types): its Util
        ("Util.go", "com.acme.util.Util.go"),
        ("max", "com.acme.util.Maths.max"),  # static import
        ("inherited", "com.acme.util.Base.inherited"),  # Base: the one wildcard's again
        ("String.valueOf", ""), ("LOG.info", ""),
        ("h.work", "com.acme.app.Helper.work"),  # a typed field (index/receivers_java)
        ("step", "com.acme.app.Service.step"),  # `make().step()`: make returns a Service
        ("make", "com.acme.app.Service.make")]
    assert sites["com.acme.app.Service.make()"] == [("Service", "com.acme.app.Service")]
    # Inside an inner class: a bare call reaches the outer class, this. only the inner one.
    assert sites["com.acme.app.Service.Inner.f()"] == [("step", "com.acme.app.Service.step"), ("this.g", "")]


def test_java_single_wildcard_and_inherited_methods() -> None:
    blob = b"""package p;
import q.*;
class A extends B {
    void f() {
        g();
        Util.h();
        Local.k();
    }
}
"""
    sites = targets(blob, "java", "p/A.java", java_dirs={"p": frozenset({"A"})})
    assert sites["p.A.f()"] == [("g", "q.B.g"), ("Util.h", "q.Util.h"), ("Local.k", "q.Local.k")]
    sites = targets(blob.replace(b"import q.*;\n", b""), "java", "p/A.java")
    assert sites["p.A.f()"] == [("g", "p.B.g"), ("Util.h", "p.Util.h"), ("Local.k", "p.Local.k")]


def test_definitions_are_named_like_targets() -> None:
    go = parse.symbols(GO, "go")
    by_name = {c.qualified_name: c for c in resolve.chunks(
        chunk.chunks("r", "util/s.go", GO, go), go, "util/s.go", "example.com/a/util")}
    assert points.fq_name(by_name["util.Server.Run"]) == "example.com/a/util.Server.Run"
    java = parse.symbols(JAVA, "java")
    by_name = {c.qualified_name: c for c in resolve.chunks(
        chunk.chunks("r", "S.java", JAVA, java), java, "S.java", "")}
    assert points.fq_name(by_name["com.acme.app.Service.run()"]) == "com.acme.app.Service.run"
    assert by_name["com.acme.app.Service.run()"].module == "com.acme.app"
    assert all(c.exports == () for c in by_name.values())  # imports are not re-exports in Java


def test_java_nested_class_bare_calls_chaining_and_a_test_roots_package() -> None:
    """jsoup: ``Response extends HttpConnection.Base<..>`` calling the outer class's static
    ``needsMultipart(req)`` bare resolved to ``Connection.Base.needsMultipart`` (``Base<T
    extends Connection.Base<T>>``'s bound read as its base); ``this(..)``/``super(..)`` were
    unresolved; a test in ``src/test/java`` called its package's ``Entities`` unimported,
    and ``Entities`` is in ``src/main/java`` (another directory, the same package)."""
    blob = b"""package org.jsoup.helper;

import org.jsoup.Connection;

public class HttpConnection {
    private static abstract class Base<T extends Connection.Base<T>> implements Connection.Base<T> {
        Base() {}
    }

    public static class Response extends HttpConnection.Base<Connection.Response> {
        Response() {
            super();
        }

        Response(int code) {
            this();
            if (needsMultipart(code)) {}
            Entities.unescape("x");
        }
    }

    private static boolean needsMultipart(int req) {
        return false;
    }
}
"""
    dirs = {"src/main/java/org/jsoup/helper": frozenset({"HttpConnection", "Entities"}),
            "src/test/java/org/jsoup/helper": frozenset({"HttpConnectionTest"})}
    sites = targets(blob, "java", "src/test/java/org/jsoup/helper/HttpConnectionTest.java", java_dirs=dirs)
    outer = "org.jsoup.helper.HttpConnection"
    assert sites[f"{outer}.Response.Response()"] == [("HttpConnection.Base", f"{outer}.Base")]
    assert sites[f"{outer}.Response.Response(int)"] == [
        ("Response", f"{outer}.Response"), ("needsMultipart", f"{outer}.needsMultipart"),
        ("Entities.unescape", "org.jsoup.helper.Entities.unescape")]


def test_java_a_chains_tail_on_a_result_this_file_declares() -> None:
    """jsoup's ``Parser.htmlParser().unescape(string, inAttribute)`` was a name-only caller
    of ``Entities.unescape`` (a chain's tail, named ``unescape`` alone, stayed unresolved):
    ``htmlParser()`` declares it returns a ``Parser``; ``new Element(..).text(..)`` is an
    ``Element``'s; a result of no class (``void``, ``int``) types nothing."""
    blob = b"""package org.jsoup.parser;

public class Parser {
    public static Parser htmlParser() {
        return new Parser();
    }

    public String unescape(String in, boolean attr) {
        return in;
    }

    static int count() {
        return 1;
    }

    public static String unescapeEntities(String string, boolean inAttribute) {
        String a = Parser.htmlParser().unescape(string, inAttribute);
        String b = new Parser().unescape(a, false);
        String c = htmlParser().unescape(b, true);
        return count().toString() + c;
    }
}
"""
    sites = targets(blob, "java", "src/main/java/org/jsoup/parser/Parser.java")
    unescape = "org.jsoup.parser.Parser.unescape"
    assert [s for s in sites["org.jsoup.parser.Parser.unescapeEntities(String,boolean)"] if s[0] in ("unescape", "toString")] == [
        ("unescape", unescape), ("unescape", unescape), ("unescape", unescape), ("toString", "")]


def test_java_a_static_imports_wildcard_imports_no_types() -> None:
    """jsoup's tests import ``java.io.*`` and ``static org.junit.jupiter.api.Assertions.*``:
    read as two type wildcards, no type was known, and ``in.read()`` on an ``InputStream``
    field was a name-only caller of every ``read`` (``TokeniserState$38.read``'s)."""
    blob = b"""package org.jsoup.helper;

import java.io.*;

import static org.junit.jupiter.api.Assertions.*;

public class DataUtilTest {
    static class VaryingReadInputStream extends InputStream {
        final InputStream in;

        public int read() throws IOException {
            return in.read();
        }
    }
}
"""
    sites = targets(blob, "java", "src/test/java/org/jsoup/helper/DataUtilTest.java")
    assert sites["org.jsoup.helper.DataUtilTest.VaryingReadInputStream.read()"] == [
        ("in.read", "java.io.InputStream.read")]
