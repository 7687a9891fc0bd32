"""Property: over random sources (line endings, BOM, multi-byte text, decorators, comments),
every symbol's and every chunk's byte range decodes and agrees with its line range."""

from __future__ import annotations

import pytest
from coderecalld import parse
from coderecalld.index import chunk
from hypothesis import given, settings
from hypothesis import strategies as st

NAMES = st.sampled_from(["f", "g_1", "données", "名前", "ñandú", "x"])
STRINGS = st.sampled_from(['"plain"', '"héllo wörld"', '"日本語"', '"emoji \U0001f600"', "'a\\'b'"])
ENDINGS = st.sampled_from(["\n", "\r\n"])


@st.composite
def python_lines(draw: st.DrawFn, depth: int = 0) -> list[str]:
    """Lines (without endings) of a small Python module: defs, classes, decorators, comments."""
    pad = "    " * depth
    out: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["def", "class", "comment", "blank", "assign"] if depth < 2
                                    else ["def", "comment", "blank", "assign"]))
        name = draw(NAMES)
        if kind == "comment":
            out.append(f"{pad}# note {draw(STRINGS)}")
        elif kind == "blank":
            out.append("")
        elif kind == "assign":
            out.append(f"{pad}{name} = {draw(STRINGS)}")
        else:
            out += [f"{pad}@{d}" for d in draw(st.lists(NAMES, max_size=2))]
            out.append(f"{pad}def {name}(a, b={draw(STRINGS)}):" if kind == "def" else f"{pad}class {name}:")
            body = draw(python_lines(depth + 1)) if depth < 2 and draw(st.booleans()) else []
            out += body or [f"{pad}    return {draw(STRINGS)}"]
    return out


@st.composite
def javascript_lines(draw: st.DrawFn, depth: int = 0) -> list[str]:
    pad = "  " * depth
    out: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["function", "class", "comment", "blank"] if depth == 0
                                    else ["method", "comment", "blank"]))
        name = draw(NAMES)
        if kind == "comment":
            out.append(f"{pad}// note {draw(STRINGS)}")
        elif kind == "blank":
            out.append("")
        elif kind == "function":
            out += [f"function {name}(a) {{", f"  return {draw(STRINGS)};", "}"]
        elif kind == "class":
            out.append(f"class {name} {{")
            out += draw(javascript_lines(depth + 1))
            out.append("}")
        else:
            out += [f"{pad}{name}(a) {{", f"{pad}  return {draw(STRINGS)};", f"{pad}}}"]
    return out


def blob_of(draw: st.DrawFn, lines: list[str]) -> bytes:
    text = "".join(line + draw(ENDINGS) for line in lines)  # mixed endings, line by line
    if draw(st.booleans()):
        text = text.rstrip("\r\n")  # no final newline
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode()


def check_range(blob: bytes, start_byte: int, end_byte: int, start_line: int, end_line: int) -> str:
    """The range's text; asserts it decodes and matches its lines (a range may end with its
    last line's ``\\n``)."""
    assert 0 <= start_byte <= end_byte <= len(blob)
    text = blob[start_byte:end_byte].decode("utf-8")
    assert "\ufeff" not in text
    assert start_line == 1 + blob[:start_byte].count(b"\n")
    assert end_line - start_line == blob[start_byte:end_byte].removesuffix(b"\n").count(b"\n")
    return text


def check_file(blob: bytes, language: str, path: str) -> None:
    parsed = parse.symbols(blob, language)
    for sym in parsed.symbols:
        check_range(blob, sym.start_byte, sym.end_byte, sym.start_line, sym.end_line)
    # A tiny budget so that parts are cut too.
    for c in chunk.chunks("r", path, blob, parsed, max_lines=3, max_chunk_chars=120):
        assert c.text == check_range(blob, c.start_byte, c.end_byte, c.start_line, c.end_line)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_python_ranges(data: st.DataObject) -> None:
    check_file(blob_of(data.draw, data.draw(python_lines())), "python", "m.py")


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_javascript_ranges(data: st.DataObject) -> None:
    language = parse.language_for("x.js")
    if language is None:
        pytest.skip("JavaScript is not a supported language yet")
    check_file(blob_of(data.draw, data.draw(javascript_lines())), language, "m.js")


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_section_ranges(data: st.DataObject) -> None:
    heading = st.sampled_from(["# Título", "## 名前", "### x", "```", "[table]", "key: 1", "plain 😀", ""])
    lines = data.draw(st.lists(heading, max_size=12))
    blob = blob_of(data.draw, lines)
    for path in ("a.md", "a.toml", "a.yaml", "a.txt"):
        for c in chunk.sections("r", path, blob, max_lines=3):
            assert c.text == check_range(blob, c.start_byte, c.end_byte, c.start_line, c.end_line)
