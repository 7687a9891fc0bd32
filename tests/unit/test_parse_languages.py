"""Languages beyond Python: selection by name and ``#!``, and the naming, range and doc rules
each one needs (the golden tables cover the rest, see test_golden_symbols.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from coderecalld.parse import language_for, symbols
from coderecalld.parse.registry import interpreter
from coderecalld.records import ParsedFile, Symbol

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "conformance"


def parse(language: str, source: str) -> tuple[bytes, ParsedFile]:
    blob = source.encode("utf-8")
    return blob, symbols(blob, language)


def table(parsed: ParsedFile) -> dict[str, Symbol]:
    return {s.qualified_name: s for s in parsed.symbols}


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("src/list.c", "c"), ("inc/list.h", "c"), ("a.cc", "cpp"), ("a.CPP", "cpp"), ("a.cxx", "cpp"),
        ("a.hpp", "cpp"), ("a.hh", "cpp"), ("a.hxx", "cpp"), ("App.cs", "csharp"), ("a.rb", "ruby"),
        ("Rakefile", "ruby"), ("sub/Gemfile", "ruby"), ("a.php", "php"), ("a.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"), ("a.scala", "scala"), ("a.swift", "swift"), ("a.sh", "bash"),
        ("a.bash", "bash"), ("Rakefile.txt", None), ("notes.c.orig", None),
    ],
)
def test_language_for_names(path: str, language: str | None) -> None:
    assert language_for(path) == language


@pytest.mark.parametrize(
    ("head", "language"),
    [
        (b"#!/bin/bash", "bash"), (b"#!/usr/bin/env bash", "bash"), (b"#!/bin/sh -e", "bash"),
        (b"#!/usr/bin/env python3", "python"), (b"#!/usr/bin/python3.11 -u", "python"),
        (b"#!/usr/bin/env -S ruby -w", "ruby"), (b"#!/usr/bin/env perl", None), (b"# bash", None),
        (b"", None), (b"#!", None),
    ],
)
def test_language_for_reads_the_shebang_of_a_file_without_known_name(head: bytes, language: str | None) -> None:
    assert language_for("bin/deploy", head) == language


def test_a_known_name_wins_over_the_shebang() -> None:
    assert language_for("tool.py", b"#!/bin/bash") == "python"
    assert language_for("Rakefile", b"#!/usr/bin/env python3") == "ruby"
    assert interpreter(b"#!/usr/bin/env -S python3.11 -u\nprint()") == "python"


def test_csharp_bom_case_04() -> None:
    """Conformance case 04's Program.cs: names, kinds and lines, offsets over the raw blob."""
    root = CASES / "04-utf8-bom"
    blob = (root / "repo" / "bom" / "Program.cs").read_bytes()
    assert blob.startswith(b"\xef\xbb\xbf") and b"\r\n" in blob
    parsed = symbols(blob, language_for("bom/Program.cs"))
    by_name = table(parsed)
    wanted = [w for w in json.loads((root / "expected.json").read_text())["expect"]["symbols"]
              if w["path"] == "bom/Program.cs"]
    assert len(wanted) == 2
    for want in wanted:
        # Methods carry their parameter types, like Java's: Main() for the case's Fixture.Program.Main.
        sym = by_name.get(want["qualified_name"]) or by_name[want["qualified_name"] + "()"]
        assert (sym.kind.value, sym.start_line, sym.end_line) == (want["kind"], want["start_line"], want["end_line"])
    program = by_name["Fixture.Program"]
    assert blob[program.start_byte:program.end_byte].decode().startswith("public class Program\r\n")
    assert program.start_byte == blob.index(b"public class")
    assert all("\ufeff" not in s.name + s.signature for s in parsed.symbols)
    assert not parsed.has_errors


def test_cpp_operator_case_26() -> None:
    root = CASES / "26-query-special-chars"
    parsed = symbols((root / "repo" / "src" / "ops.cpp").read_bytes(), "cpp")
    op = table(parsed)["Scale::operator()"]
    assert (op.kind.value, op.name, op.parent, op.start_line, op.end_line) == ("method", "operator()", "Scale", 4, 4)
    assert table(parsed)["make_values"].signature == "std::vector<int> make_values()"


CSHARP = """\
namespace App.Core;

public class Repo
{
    int count; // not a doc: it ends a line of code
    /// <summary>
    /// Finds one.
    /// </summary>
    /// <param name="id">The id.</param>
    [Obsolete]
    [Pure]
    public User Find(int id) { return Load(id); }

    // Blank line below: not a doc.

    public User Find(string name, params object[] rest) => new User(name);
}
"""


def test_csharp_overloads_attributes_and_docs() -> None:
    blob, parsed = parse("csharp", CSHARP)
    by_name = table(parsed)
    assert list(by_name) == ["App.Core.Repo", "App.Core.Repo.Find(int)", "App.Core.Repo.Find(string,object[])"]
    find = by_name["App.Core.Repo.Find(int)"]
    # The range starts at the first attribute; the doc comment above it stays outside.
    assert (find.start_line, find.end_line, find.docstring) == (10, 12, "Finds one.")
    assert blob[find.start_byte:find.end_byte].decode().startswith("[Obsolete]\n    [Pure]\n    public User Find")
    assert find.signature == "public User Find(int id)"
    assert find.decorators == ("[Obsolete]", "[Pure]")
    assert find.call_sites[0].name == "Load"
    assert by_name["App.Core.Repo.Find(string,object[])"].docstring == ""
    assert by_name["App.Core.Repo"].docstring == ""


CPP = """\
namespace a {
namespace b {
/** Makes one. */
template <typename T>
T *make(int n) { return new T(n); }
}
void Widget::draw() const { paint(); }
Widget::~Widget() {}
}
const std::string &name_of(int) { return names[0]; }
"""


def test_cpp_scopes_out_of_class_methods_and_templates() -> None:
    blob, parsed = parse("cpp", CPP)
    got = [(s.kind.value, s.qualified_name, s.parent, s.start_line) for s in parsed.symbols]
    assert got == [
        ("module", "a", "", 1),
        ("module", "a::b", "a", 2),
        ("function", "a::b::make", "a::b", 4),
        ("method", "a::Widget::draw", "a::Widget", 7),
        ("method", "a::Widget::~Widget", "a::Widget", 8),
        ("function", "name_of", "", 10),
    ]
    make = table(parsed)["a::b::make"]
    assert (make.docstring, make.signature) == ("Makes one.", "T *make(int n)")
    assert [c.name for c in make.call_sites] == ["T"]


C = """\
int z; // trailing, not a doc
typedef struct {
    int x;
} point;

#define X 1
/* Splits. */
static char **split(char *s) { return 0; }
"""


def test_c_declarators_and_anonymous_typedef() -> None:
    _, parsed = parse("c", C)
    by_name = table(parsed)
    assert list(by_name) == ["point", "X", "split"]
    assert (by_name["X"].kind.value, by_name["X"].signature) == ("constant", "#define X 1")
    assert (by_name["point"].kind.value, by_name["point"].docstring) == ("type_alias", "")
    assert (by_name["split"].docstring, by_name["split"].signature) == ("Splits.", "static char **split(char *s)")


def test_ruby_scala_and_bash_shapes() -> None:
    _, ruby = parse("ruby", "module M\n  # Doc.\n  class K\n    def self.make = new\n  end\nend\n")
    assert [(s.kind.value, s.qualified_name, s.docstring) for s in ruby.symbols] == [
        ("module", "M", ""), ("class", "M.K", "Doc."), ("method", "M.K.make", "")]
    assert ruby.symbols[2].signature == "def self.make"
    # Scala's indented body ends with the newline after it; the range must not.
    blob, scala = parse("scala", "object O:\n  def run(): Unit =\n    go()\n\n")
    run = table(scala)["O.run"]
    assert (run.end_line, blob[run.end_byte - 4:run.end_byte]) == (3, b"go()")
    _, bash = parse("bash", "#!/bin/bash\nf() { g; }\n")
    assert [(s.name, s.docstring, [c.name for c in s.call_sites]) for s in bash.symbols] == [("f", "", ["g"])]
