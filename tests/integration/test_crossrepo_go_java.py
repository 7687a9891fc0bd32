"""Cross-repo call resolution for Go and Java: two Go repos (go.mod module paths, the app
importing the core's package, plainly and under an alias) and two Java repos (explicit,
wildcard and same-package imports), indexed together without embeddings; exact call sites
through ``find_callers``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, daemon
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo

GO_CORE = {
    "go.mod": "module example.com/core\n\ngo 1.21\n",
    "util/strings.go": """package util

// Reverse returns s reversed.
func Reverse(s string) string {
\treturn s
}

type Buffer struct{ data []byte }

func (b *Buffer) Write(s string) {
\tb.flush()
\tb.data = append(b.data, Reverse(s)...)
}
""",
    "util/conn.go": """package util

type Closer struct{}

func (c *Closer) Close() {}

type Conn struct {
\tCloser
\tbuf *Buffer
}

func (c *Conn) Send(s string) {
\tc.buf.Write(s)
}
""",
    "util/flush.go": """package util

func (b *Buffer) flush() {
\tb.data = nil
}

func Pad(s string) string {
\treturn Reverse(s) + " "
}
""",
}

GO_APP = {
    "go.mod": "module example.com/app\n\ngo 1.21\n",
    "main.go": """package main

import (
\t"fmt"

\t"example.com/core/util"
)

func main() {
\tfmt.Println(util.Reverse("abc"))
\tb := &util.Buffer{}
\tb.Write("x")
\tfmt.Println(Reverse("local"))
\tc := &util.Conn{}
\tc.Close()
\tc.Send("y")
\tlg := &Log{}
\tlg.Write("z")
}

type Log struct{}

func (l *Log) Write(s string) {}
""",
    "local.go": """package main

import cu "example.com/core/util"

func Reverse(s string) string {
\treturn cu.Pad(s)
}
""",
}

JAVA_CORE = {
    "src/main/java/com/acme/core/Strings.java": """package com.acme.core;

public class Strings {
    public Strings() {}

    public static String trim(String s) {
        return s.strip();
    }

    public static String trim(String s, int n) {
        return trim(s).substring(n);
    }

    public String pad(String s) {
        return this.wrap(s);
    }

    private String wrap(String s) {
        return s;
    }
}
""",
    "src/main/java/com/acme/core/Shape.java": """package com.acme.core;

public interface Shape {
    double area();
}
""",
    "src/main/java/com/acme/core/Circle.java": """package com.acme.core;

public class Circle extends Base implements Shape {
    public double area() {
        return 3.0;
    }
}
""",
    "src/main/java/com/acme/core/Base.java": """package com.acme.core;

public class Base {
    public String describe() {
        return "base";
    }
}
""",
    "src/main/java/com/acme/core/Text.java": """package com.acme.core;

class Text {
    static String up(String s) {
        return Strings.trim(s).toUpperCase();
    }
}
""",
}

JAVA_APP = {
    "src/main/java/com/acme/app/App.java": """package com.acme.app;

import com.acme.core.Strings;

public class App {
    void run() {
        String a = Strings.trim(" x ");
        Strings s = new Strings();
        s.pad(a);
        helper();
    }

    void helper() {}
}
""",
    "src/main/java/com/acme/app/Geometry.java": """package com.acme.app;

import com.acme.core.Circle;
import com.acme.core.Shape;

public class Geometry {
    private final Circle circle = new Circle();

    double total(Shape shape, Plot plot) {
        var c = new Circle();
        double a = c.area() + shape.area();
        plot.area();
        this.circle.describe();
        return a + circle.area();
    }
}

class Plot {
    double area() {
        return 1.0;
    }
}
""",
    "src/main/java/com/acme/app/Main.java": """package com.acme.app;

import com.acme.core.*;

public class Main {
    public static void main(String[] args) {
        new App().run();
        System.out.println(Strings.trim("y", 1));
    }
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("gojava")
    configs = []
    for name, files in {"gocore": GO_CORE, "goapp": GO_APP, "jcore": JAVA_CORE, "japp": JAVA_APP}.items():
        repo = GitRepo(tmp / "src" / name)
        repo.commit(files, "import")
        configs.append(RepoConfig(name, str(repo.path)))
    with daemon(tmp, *configs) as d:
        for cfg in configs:
            d.pipeline.index_repo(d.cfg.repo(cfg.name), with_dense=False)
        yield d


def sites(running: Daemon, name: str) -> list[tuple[str, str, int, str, str, str]]:
    return sorted((h.repo, h.path, h.line, h.caller, h.target, h.confidence)
                  for h in running.service.find_callers(name, limit=100))


GO_UTIL = "example.com/core/util"
APP = "src/main/java/com/acme/app/App.java"
MAIN = "src/main/java/com/acme/app/Main.java"
STRINGS = "src/main/java/com/acme/core/Strings.java"


def test_go_package_calls_resolve_across_repos_and_files(running: Daemon) -> None:
    reverse = [
        ("goapp", "main.go", 10, "main.main", f"{GO_UTIL}.Reverse", "resolved"),  # util.Reverse via import
        ("gocore", "util/flush.go", 8, "util.Pad", f"{GO_UTIL}.Reverse", "resolved"),  # same package, other file
        ("gocore", "util/strings.go", 12, "util.Buffer.Write", f"{GO_UTIL}.Reverse", "resolved"),
    ]
    assert sites(running, f"{GO_UTIL}.Reverse") == reverse
    assert sites(running, "util.Reverse") == reverse  # the index's qualified name finds the same sites
    # The app's own Reverse (package main) is another definition: its caller is never util's.
    assert ("goapp", "main.go", 13, "main.main", "example.com/app.Reverse", "resolved") in sites(running, "Reverse")
    assert sites(running, "example.com/app.Reverse") == [
        ("goapp", "main.go", 13, "main.main", "example.com/app.Reverse", "resolved")]
    # An aliased import (cu "example.com/core/util").
    assert sites(running, f"{GO_UTIL}.Pad") == [
        ("goapp", "local.go", 6, "main.Reverse", f"{GO_UTIL}.Pad", "resolved")]


def test_go_receiver_methods_and_variables(running: Daemon) -> None:
    # b.flush() on the receiver b *Buffer, defined in another file of the package.
    assert sites(running, f"{GO_UTIL}.Buffer.flush") == [
        ("gocore", "util/strings.go", 11, "util.Buffer.Write", f"{GO_UTIL}.Buffer.flush", "resolved")]
    assert sites(running, "Buffer.flush") == sites(running, f"{GO_UTIL}.Buffer.flush")
    # b.Write on b := &util.Buffer{}; c.buf.Write on a field `buf *Buffer`; lg.Write on the
    # app's own Log is another type's method: left out.
    omitted: dict[str, int] = {}
    found = sorted((h.repo, h.path, h.line, h.caller, h.target, h.confidence)
                   for h in running.service.find_callers(f"{GO_UTIL}.Buffer.Write", limit=100, omitted=omitted))
    assert found == [("goapp", "main.go", 12, "main.main", f"{GO_UTIL}.Buffer.Write", "resolved"),
                     ("gocore", "util/conn.go", 13, "util.Conn.Send", f"{GO_UTIL}.Buffer.Write", "resolved")]
    assert omitted == {"other_type": 1}
    assert sites(running, "example.com/app.Log.Write") == [
        ("goapp", "main.go", 18, "main.main", "example.com/app.Log.Write", "resolved")]


def test_go_promoted_methods_of_embedded_structs(running: Daemon) -> None:
    # c.Close() on a *util.Conn, which embeds Closer: the promoted method.
    assert sites(running, f"{GO_UTIL}.Closer.Close") == [
        ("goapp", "main.go", 15, "main.main", f"{GO_UTIL}.Conn.Close", "inherited")]
    assert sites(running, f"{GO_UTIL}.Conn.Send") == [
        ("goapp", "main.go", 16, "main.main", f"{GO_UTIL}.Conn.Send", "resolved")]


def test_java_static_calls_through_explicit_wildcard_and_same_package(running: Daemon) -> None:
    trim = [
        ("japp", APP, 7, "com.acme.app.App.run()", "com.acme.core.Strings.trim", "resolved"),  # import a.b.C
        ("japp", MAIN, 8, "com.acme.app.Main.main(String[])", "com.acme.core.Strings.trim", "resolved"),  # a.b.*
        ("jcore", STRINGS, 11, "com.acme.core.Strings.trim(String,int)", "com.acme.core.Strings.trim",
         "resolved"),  # bare call inside the class: another overload
        ("jcore", "src/main/java/com/acme/core/Text.java", 5, "com.acme.core.Text.up(String)",
         "com.acme.core.Strings.trim", "resolved"),  # same package, no import
    ]
    assert sites(running, "com.acme.core.Strings.trim") == trim  # every overload, parameters ignored
    assert sites(running, "trim") == trim
    assert sites(running, "Strings.trim") == trim  # the tail of the module-qualified name


def test_java_constructors_this_and_bare_methods(running: Daemon) -> None:
    new = [("japp", APP, 8, "com.acme.app.App.run()", "com.acme.core.Strings", "resolved")]
    assert sites(running, "com.acme.core.Strings") == new
    assert sites(running, "com.acme.core.Strings.Strings") == new  # the constructor stands for its class
    assert sites(running, "com.acme.core.Strings.wrap") == [
        ("jcore", STRINGS, 15, "com.acme.core.Strings.pad(String)", "com.acme.core.Strings.wrap", "resolved")]
    assert sites(running, "com.acme.app.App.helper") == [
        ("japp", APP, 10, "com.acme.app.App.run()", "com.acme.app.App.helper", "resolved")]
    # A call on a construction, `new App().run()`, is the constructed class's.
    assert sites(running, "com.acme.app.App.run") == [
        ("japp", MAIN, 7, "com.acme.app.Main.main(String[])", "com.acme.app.App.run", "resolved")]
    # s.pad() on a local `Strings s = new Strings()`: its type is known.
    assert sites(running, "com.acme.core.Strings.pad") == [
        ("japp", APP, 9, "com.acme.app.App.run()", "com.acme.core.Strings.pad", "resolved")]


GEOMETRY = "src/main/java/com/acme/app/Geometry.java"
TOTAL = "com.acme.app.Geometry.total(Shape,Plot)"


def test_java_typed_receivers_interfaces_and_inherited_methods(running: Daemon) -> None:
    omitted: dict[str, int] = {}
    found = sorted((h.path, h.line, h.caller, h.target, h.confidence)
                   for h in running.service.find_callers("Circle.area", limit=100, omitted=omitted))
    assert found == [
        (GEOMETRY, 11, TOTAL, "com.acme.core.Circle.area", "resolved"),  # var c = new Circle()
        (GEOMETRY, 11, TOTAL, "com.acme.core.Shape.area", "override"),  # a Shape parameter may be a Circle
        (GEOMETRY, 14, TOTAL, "com.acme.core.Circle.area", "resolved"),  # a field
    ]
    assert omitted == {"other_type": 1}  # plot.area() on the app's Plot is left out
    assert sites(running, "com.acme.app.Plot.area") == [
        ("japp", GEOMETRY, 12, TOTAL, "com.acme.app.Plot.area", "resolved")]
    # this.circle.describe(): Circle inherits Base.describe.
    assert sites(running, "com.acme.core.Base.describe") == [
        ("japp", GEOMETRY, 13, TOTAL, "com.acme.core.Circle.describe", "inherited")]
