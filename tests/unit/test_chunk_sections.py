"""Text files as sections: Markdown/reST headings, TOML tables, YAML top-level keys, windows."""

from coderecalld.index import chunk
from coderecalld.records import Chunk, SymbolKind

BOM = b"\xef\xbb\xbf"


def rows(chunks: list[Chunk]) -> list[tuple[str, str, int, int, int]]:
    return [(c.name, c.qualified_name, c.ordinal, c.start_line, c.end_line) for c in chunks]


def assert_exact(blob: bytes, chunks: list[Chunk]) -> None:
    """Each chunk's text is its lines joined with their endings and its raw byte slice."""
    lines = blob.removeprefix(BOM).decode().split("\n")
    lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    for c in chunks:
        assert c.kind == SymbolKind.SECTION
        assert c.text == "".join(lines[c.start_line - 1:c.end_line])
        assert c.text == blob[c.start_byte:c.end_byte].decode()


MARKDOWN = (BOM + b"Intro\r\n\r\n# Guide\n\nText.\n\n## Install\n```sh\n# not a heading\n```\n"
            b"### From source\nmake\n\nUsage\n-----\nrun it\n## Install\nagain\n")


def test_markdown_splits_at_headings_outside_code_fences() -> None:
    chunks = chunk.sections("r", "docs/README.md", MARKDOWN)
    assert rows(chunks) == [
        ("README.md", "docs/README.md:1-2", 0, 1, 2),
        ("Guide", "docs/README.md#Guide", 0, 3, 6),
        ("Install", "docs/README.md#Guide/Install", 0, 7, 10),
        ("From source", "docs/README.md#Guide/Install/From source", 0, 11, 13),
        ("Usage", "docs/README.md#Guide/Usage", 0, 14, 16),  # setext, level 2
        ("Install", "docs/README.md#Guide/Install", 1, 17, 18),  # same path: next ordinal
    ]
    assert_exact(MARKDOWN, chunks)
    assert chunks[0].start_byte == 3 and chunks[0].text == "Intro\r\n\r\n"
    assert chunks[2].embed_text == "docs/README.md#Guide/Install\n## Install\n```sh\n# not a heading\n```\n"


def test_markdown_front_matter_is_not_a_heading() -> None:
    blob = b"---\ntitle: x\n---\n# Real\nbody\n"
    assert rows(chunk.sections("r", "a.md", blob)) == [
        ("a.md", "a.md:1-3", 0, 1, 3), ("Real", "a.md#Real", 0, 4, 5)]


def test_rst_levels_follow_adornment_order() -> None:
    blob = b"=====\nTitle\n=====\n\nIntro.\n\nPart\n----\ntext\n\nOther\n-----\nmore\n"
    chunks = chunk.sections("r", "index.rst", blob)
    assert rows(chunks) == [
        ("Title", "index.rst#Title", 0, 1, 6),
        ("Part", "index.rst#Title/Part", 0, 7, 10),
        ("Other", "index.rst#Title/Other", 0, 11, 13),
    ]
    assert_exact(blob, chunks)


TOML = (b"# project\n\n[project]\nname = \"x\"\ndoc = \"\"\"\n[not.a.table]\n\"\"\"\n\n"
        b"# build settings\n[tool.setuptools]\nzip-safe = false\n[[bin]]\nname = 'a'\n[[bin]]\nname = 'b'\n")


def test_toml_splits_at_tables_with_their_comments() -> None:
    chunks = chunk.sections("r", "pyproject.toml", TOML)
    assert rows(chunks) == [
        ("pyproject.toml", "pyproject.toml:1-2", 0, 1, 2),
        ("project", "pyproject.toml#project", 0, 3, 8),
        ("tool.setuptools", "pyproject.toml#tool.setuptools", 0, 9, 11),
        ("bin", "pyproject.toml#bin", 0, 12, 13),
        ("bin", "pyproject.toml#bin", 1, 14, 15),
    ]
    assert_exact(TOML, chunks)


def test_yaml_splits_at_top_level_keys() -> None:
    blob = (b"# pod\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  notes: |\n"
            b"    key: not top level\n\"spec\":\n  - a\n")
    chunks = chunk.sections("r", "k8s/pod.yaml", blob)
    assert rows(chunks) == [
        ("apiVersion", "k8s/pod.yaml#apiVersion", 0, 1, 3),
        ("kind", "k8s/pod.yaml#kind", 0, 4, 4),
        ("metadata", "k8s/pod.yaml#metadata", 0, 5, 8),
        ("spec", "k8s/pod.yaml#spec", 0, 9, 10),
    ]
    assert_exact(blob, chunks)


def test_oversized_section_falls_back_to_windows() -> None:
    blob = b"# Big\n" + b"line\n" * 99 + b"# Small\nx\n"
    chunks = chunk.sections("r", "a.md", blob, max_lines=50)
    assert rows(chunks) == [
        ("Big", "a.md#Big:1-40", 0, 1, 40), ("Big", "a.md#Big:41-80", 0, 41, 80),
        ("Big", "a.md#Big:81-100", 0, 81, 100), ("Small", "a.md#Small", 0, 101, 102)]
    assert_exact(blob, chunks)
    by_chars = chunk.sections("r", "a.md", blob, max_chunk_chars=400)
    assert [c.qualified_name for c in by_chars][:2] == ["a.md#Big:1-40", "a.md#Big:41-80"]


def test_other_text_files_are_windows() -> None:
    blob = b"FROM python:3.11\r\n" + b"RUN true\n" * 45
    chunks = chunk.sections("r", "Dockerfile", blob)
    assert rows(chunks) == [("Dockerfile", "Dockerfile:1-40", 0, 1, 40),
                            ("Dockerfile", "Dockerfile:41-46", 0, 41, 46)]
    assert_exact(blob, chunks)
    assert chunks[0].embed_text.startswith("Dockerfile\nFROM python:3.11\r\n")


def test_lone_carriage_return_and_form_feed_do_not_start_lines() -> None:
    blob = b"# A\rstill line 1\x0c\n# B\nx\n"
    chunks = chunk.sections("r", "a.md", blob)
    assert rows(chunks) == [("A\rstill line 1", "a.md#A\rstill line 1", 0, 1, 1),
                            ("B", "a.md#B", 0, 2, 3)]
    assert_exact(blob, chunks)


def test_empty_and_blank_files_have_no_sections() -> None:
    assert chunk.sections("r", "a.md", b"") == []
    assert chunk.sections("r", "a.toml", b"\n\n") == []
