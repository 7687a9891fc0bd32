"""Fields the golden tables do not show, pinned here: decorators, annotations, attributes and
the async flag in JavaScript, TypeScript, Java and Rust; Go's package doc."""

from __future__ import annotations

import pytest

from coderecalld.parse import symbols


def flags(language: str, source: str) -> dict[str, tuple[tuple[str, ...], bool, int]]:
    """``{qualified name: (decorators, is_async, start_line)}``."""
    parsed = symbols(source.encode("utf-8"), language)
    assert not parsed.has_errors
    return {s.qualified_name: (s.decorators, s.is_async, s.start_line) for s in parsed.symbols}


@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_typescript_member_decorators_are_siblings_that_start_the_range(language: str) -> None:
    got = flags(language, (
        "@Entity()\n"
        "export class A {\n"
        "  @Input() name = '';\n"
        "  @HostListener('click')\n"
        "  @Debounce(10)\n"
        "  async onClick(): Promise<void> {}\n"
        "  save = async (): Promise<void> => {};\n"
        "  plain() {}\n"
        "}\n"
    ))
    assert got == {
        "A": (("@Entity()",), False, 1),
        "A.onClick": (("@HostListener('click')", "@Debounce(10)"), True, 4),
        "A.save": ((), True, 7),
        "A.plain": ((), False, 8),
    }


def test_javascript_decorators_and_async() -> None:
    got = flags("javascript", (
        "@sealed class B {\n"
        "  @log m() {}\n"
        "}\n"
        "export const f = async () => 1;\n"
        "async function* g() {}\n"
    ))
    assert got == {
        "B": (("@sealed",), False, 1),
        "B.m": (("@log",), False, 2),
        "f": ((), True, 4),
        "g": ((), True, 5),
    }


def test_java_annotations_are_decorators() -> None:
    got = flags("java", (
        "@RestController\n"
        "@RequestMapping(\"/x\")\n"
        "class C {\n"
        "    @GetMapping @Deprecated\n"
        "    String get(@PathVariable String id) { return id; }\n"
        "}\n"
    ))
    assert got == {
        "C": (("@RestController", "@RequestMapping(\"/x\")"), False, 1),
        "C.get(String)": (("@GetMapping", "@Deprecated"), False, 4),
    }


def test_rust_attributes_start_the_range_and_async_is_flagged() -> None:
    got = flags("rust", (
        "/// Docs come before attributes.\n"
        "#[derive(Debug)]\n"
        "#[non_exhaustive]\n"
        "pub struct S;\n"
        "\n"
        "impl S {\n"
        "    #[inline]\n"
        "    pub async fn run(&self) {}\n"
        "}\n"
        "\n"
        "#[cfg(test)]\n"
        "mod tests {\n"
        "    #[test]\n"
        "    fn t() {}\n"
        "}\n"
    ))
    assert got == {
        "S": (("#[derive(Debug)]", "#[non_exhaustive]"), False, 2),
        "S::run": (("#[inline]",), True, 7),
        "tests": (("#[cfg(test)]",), False, 11),
        "tests::t": (("#[test]",), False, 13),
    }
    assert symbols(b"/// Docs.\n#[derive(Debug)]\npub struct S;\n", "rust").symbols[0].docstring == "Docs."


@pytest.mark.parametrize(("source", "doc"), [
    (b"// Package shop sells.\n// It ships too.\n//\n// Details.\npackage shop\n", "Package shop sells.\nIt ships too."),
    (b"/* Package shop sells. */\npackage shop\n", "Package shop sells."),
    (b"// Copyright 2024 (a licence header, not the package doc)\n\npackage shop\n", ""),
])
def test_go_package_doc_is_the_comment_above_package(source: bytes, doc: str) -> None:
    assert symbols(source, "go").module_docstring == doc
