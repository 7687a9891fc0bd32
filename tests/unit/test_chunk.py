import pytest
from coderecalld import parse
from coderecalld.index import chunk
from coderecalld.records import SymbolKind

SOURCE = (b'"""Mod doc."""\nimport os\n\nX = 1\n\nclass A:\n    def m(self):\n'
          b'        return os.path.join(1)\n\n    def m(self):\n        pass\n\n@dec\ndef f():\n    A().m()\n\nf()\n')


def test_symbol_and_module_chunks() -> None:
    parsed = parse.symbols(SOURCE, "python")
    chunks = chunk.chunks("r", "pkg/mod.py", SOURCE, parsed)
    got = [(c.kind, c.qualified_name, c.ordinal, c.start_line, c.end_line) for c in chunks]
    assert got == [
        (SymbolKind.CLASS, "A", 0, 6, 11),
        (SymbolKind.METHOD, "A.m", 0, 7, 8),
        (SymbolKind.METHOD, "A.m", 1, 10, 11),  # a redefinition keeps its own chunk
        (SymbolKind.FUNCTION, "f", 0, 13, 15),
        (SymbolKind.MODULE, "pkg.mod", 0, 1, 17),
    ]
    for c in chunks:
        assert c.text == SOURCE[c.start_byte:c.end_byte].decode()
        assert c.repo == "r" and c.path == "pkg/mod.py" and c.language == "python"
    f = chunks[3]
    assert f.text.startswith("@dec\ndef f():")
    assert f.embed_text.startswith("def f()\n@dec\n")  # no path: a rename re-uses the vector
    module = chunks[-1]
    assert module.docstring == "Mod doc."
    assert [s.name for s in module.call_sites] == ["dec", "f"]  # a decorator is its scope's call
    # Top-level code is embedded; bodies of top-level symbols are not (they have chunks).
    assert "X = 1" in module.embed_text and "import os" in module.embed_text
    assert "class A" not in module.embed_text
    assert "os.path.join" not in module.embed_text and "A().m()" not in module.embed_text


def test_embed_text_is_bounded() -> None:
    body = b"def big():\n" + b"    x = 1\n" * 2000
    chunks = chunk.chunks("r", "big.py", body, parse.symbols(body, "python"), max_chars=500)
    assert all(len(c.embed_text) <= 500 for c in chunks)
    assert chunks[0].end_line == 2001


def test_text_windows_cover_exact_lines() -> None:
    blob = b"\n\n[server]\r\nport = 8080\n\n\n\n\nretries = 3\n"
    chunks = chunk.text_chunks("r", "config/settings.toml", blob, window_lines=4)
    lines = blob.decode().splitlines(keepends=True)
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 4), (9, 9)]
    for c in chunks:
        assert c.text == "".join(lines[c.start_line - 1:c.end_line])
        assert c.text == blob[c.start_byte:c.end_byte].decode()
        assert c.kind == SymbolKind.SECTION


def test_bom_is_outside_every_chunk() -> None:
    blob = b"\xef\xbb\xbfdef first():\n    return 1\n"
    chunks = chunk.chunks("r", "first.py", blob, parse.symbols(blob, "python"))
    assert chunks[0].text == "def first():\n    return 1"
    assert chunks[0].start_byte == 3
    assert all("\ufeff" not in c.text for c in chunks)
    assert chunk.text_chunks("r", "a.md", b"\xef\xbb\xbf# T\n")[0].text == "# T\n"


def test_module_path_name() -> None:
    assert chunk.module_path_name("pkg/sub/mod.py") == "pkg.sub.mod"
    assert chunk.module_path_name("setup.py") == "setup"


def test_module_named_like_a_symbol_gets_its_own_ordinal() -> None:
    blob = b"LIMIT = 3\n\n\ndef broken():\n    return 1\n"
    chunks = chunk.chunks("r", "broken.py", blob, parse.symbols(blob, "python"))
    assert [(c.kind, c.qualified_name, c.ordinal) for c in chunks] == [
        (SymbolKind.CONSTANT, "LIMIT", 0), (SymbolKind.FUNCTION, "broken", 0),
        (SymbolKind.MODULE, "broken", 1)]


def test_module_chunk_is_named_by_its_dotted_path() -> None:
    blob = b"import os\n\n\ndef old_a():\n    return 1\n"
    module = chunk.chunks("r", "legacy/old_a.py", blob, parse.symbols(blob, "python"))[-1]
    assert (module.kind, module.name, module.qualified_name) == (
        SymbolKind.MODULE, "legacy.old_a", "legacy.old_a")


def test_module_chunk_takes_the_import_name_it_is_given() -> None:
    blob = b"import os\n\nTIMEOUT = 3\n"
    *_, module = chunk.chunks("r", "src/requests/adapters.py", blob, parse.symbols(blob, "python"),
                              module_name="requests.adapters")
    assert (module.name, module.qualified_name) == ("requests.adapters", "requests.adapters")


@pytest.mark.parametrize(("path", "blob", "language"), [
    ("pkg/__init__.py", b"", "python"),
    ("pkg/blank.py", b"\n\n   \n\t\n", "python"),
    ("pkg/crlf.py", b"\r\n\r\n", "python"),
    ("pkg/empty.ts", b"", "typescript"),
    ("pkg/one.py", b"\n\ndef one():\n    return 1\n\n\n", "python"),  # a function and blank lines
    ("shop/cart.go", b"package shop\n\nfunc Total() int {\n\treturn 1\n}\n", "go"),
])
def test_a_file_that_says_nothing_outside_its_symbols_has_no_module_chunk(
        path: str, blob: bytes, language: str) -> None:
    chunks = chunk.chunks("r", path, blob, parse.symbols(blob, language))
    assert all(c.kind != SymbolKind.MODULE for c in chunks)
    assert all(c.text.strip() and c.embed_text.strip() for c in chunks)


@pytest.mark.parametrize(("blob", "language"), [
    (b"from ._client import Client\nfrom ._models import (\n    Request,\n)\n", "python"),
    (b"package a;\n\nimport x.Y;\n\nclass A {}\n", "java"),
    (b'export { trim } from "./str";\nexport * from "./num";\n', "typescript"),
])
def test_an_imports_only_module_chunk_is_kept_with_nothing_to_embed(blob: bytes, language: str) -> None:
    """Kept for lookups and re-exports (its ``exports`` come from its imports), but
    ``points.searchable`` is false: its text is all boilerplate."""
    module = chunk.chunks("r", "pkg/m.x", blob, parse.symbols(blob, language))[-1]
    assert module.kind == SymbolKind.MODULE and module.imports
    assert module.embed_text == ""


@pytest.mark.parametrize("blob", [
    b"# placeholder: the parser lands later\n",
    b'"""Module docstring only."""\n',
    b"import os\n\nos.environ.setdefault('A', '1')\n",
    b"import os\n\nBASE = os.getcwd()\n",
])
def test_a_module_with_comments_docs_or_code_outside_symbols_is_searchable(blob: bytes) -> None:
    *_, module = chunk.chunks("r", "pkg/m.py", blob, parse.symbols(blob, "python"))
    assert module.kind == SymbolKind.MODULE and module.embed_text.strip()


def test_module_chunk_leaves_out_methods_declared_outside_their_type() -> None:
    blob = (b"package shop\n\nvar Rate = 2\n\ntype Cart struct{ n int }\n\n"
            b"func (c *Cart) Total() int {\n\treturn c.n * Rate\n}\n")
    parsed = parse.symbols(blob, "go")
    assert [(s.qualified_name, s.parent) for s in parsed.symbols] == [
        ("shop.Rate", ""), ("shop.Cart", ""), ("shop.Cart.Total", "shop.Cart")]
    module = chunk.chunks("r", "shop/cart.go", blob, parsed)[-1]
    assert "var Rate = 2" in module.embed_text
    assert "Total" not in module.embed_text and "c.n * Rate" not in module.embed_text


def test_a_class_chunk_is_read_by_the_lexical_side_as_its_outline() -> None:
    """A class chunk's text is the whole class, its methods' bodies included; its sparse
    text is its own lines and each method's first line, so a word only a method's body says
    scores the method, not the class too (jinja's ``FileSystemLoader`` and ``Macro``
    classes came before the methods a question was about)."""
    from coderecalld.embed import sparse
    from coderecalld.index import points
    blob = (b'class Loader:\n    """Loads templates."""\n    cache = {}\n\n'
            b'    def get_source(self, name):\n        traversal = name.split("/")\n'
            b'        return traversal\n\n    @property\n    def searchpath(self):\n        return self.paths\n')
    cls, method = chunk.chunks("r", "loaders.py", blob, parse.symbols(blob, "python"))[:2]
    assert (cls.qualified_name, method.qualified_name) == ("Loader", "Loader.get_source")
    assert "traversal" in cls.text  # the whole class, for read and exact lookups
    assert cls.lexical_text == ('class Loader:\n    """Loads templates."""\n    cache = {}\n\n'
                                '    def get_source(self, name):\n\n'
                                '    @property\n    def searchpath(self):')  # a decorated member by its name
    assert method.lexical_text == ""  # a method is read whole
    words = set(sparse.tokens(points.sparse_text(cls)))
    assert {"loader", "loads", "templates", "cache", "get_source", "searchpath"} <= words
    assert "traversal" not in words and "split" not in words
    assert "traversal" in sparse.tokens(points.sparse_text(method))


def test_a_long_modules_top_level_code_past_the_lexical_head_is_read() -> None:
    """The sparse side reads a chunk's first ``LEXICAL_HEAD_CHARS``; a module chunk's text is
    its whole file, so top-level code past that point (seaborn's ``histplot.__doc__ = ...``
    after its 60,000-character functions) was in no searchable chunk at all. A long file's
    module chunk reads its head, then the top-level code past it (not the symbols past it:
    they have chunks of their own); a short file's reads its text as before."""
    from coderecalld.embed import sparse
    from coderecalld.index import points
    body = "".join(f"    v{i} = compute_{i}(data)\n" for i in range(1500))
    blob = (f'"""Plots."""\n\ndef histplot(data):\n{body}    return v1\n\n'
            f'def kdeplot(data):\n    bandwidth_heuristic = 1\n{body}\n'
            f'histplot.__doc__ = """Draw bars, with the zanzibarian_binning rule."""\n').encode()
    assert len(blob) > chunk.LEXICAL_HEAD_CHARS * 2
    module = chunk.chunks("r", "distributions.py", blob, parse.symbols(blob, "python"))[-1]
    assert module.kind == SymbolKind.MODULE and module.end_line == blob.count(b"\n")
    words = set(sparse.tokens(points.sparse_text(module)))
    assert {"zanzibarian_binning", "plots", "histplot", "v0"} <= words
    assert "bandwidth_heuristic" not in words  # kdeplot's body, past the head: kdeplot's chunk
    assert module.lexical_text.startswith(blob[:chunk.LEXICAL_HEAD_CHARS].decode())
    assert len(module.lexical_text) < chunk.LEXICAL_HEAD_CHARS + 200
    short = b'"""Doc."""\nX = 1\n\ndef f():\n    return X\n'
    assert chunk.chunks("r", "m.py", short, parse.symbols(short, "python"))[-1].lexical_text == ""


def test_a_docstring_assigned_at_the_top_level_is_read_with_its_definition() -> None:
    """``f.__doc__ = ...`` (seaborn builds every plotting function's docs so, from shared
    parts) is read by the lexical side of ``f``'s chunk, ``+=`` appended, a method's by its
    dotted name; the embedded text is unchanged (no re-embedding), another name's or an
    instance attribute's assignment is ignored, and a file ``ast`` cannot read keeps none."""
    from coderecalld.embed import sparse
    from coderecalld.index import points
    blob = (b'from textwrap import dedent\n\ndef histplot(data):\n    return data\n\n'
            b'class Grid:\n    def map(self, func):\n        return func\n\n'
            b'histplot.__doc__ = dedent("""\\nDraw a histogram.\\n\\nbins : int\\n    Binning rule.\\n""")\n'
            b'histplot.__doc__ += "See the quartile_whiskers option."\n'
            b'Grid.map.__doc__ = "Apply a plotting function to each facet."\n'
            b'other = object()\nother.value.__doc__ = "misattributed"\n'
            b'def later():\n    self.__doc__ = "not top level"\n')
    parsed = parse.symbols(blob, "python")
    assert chunk.assigned_docs(blob) == {
        "histplot": 'histplot.__doc__ = dedent("""\\nDraw a histogram.\\n\\nbins : int\\n    Binning rule.\\n""")\n'
                    'histplot.__doc__ += "See the quartile_whiskers option."',
        "Grid.map": 'Grid.map.__doc__ = "Apply a plotting function to each facet."',
        "other.value": 'other.value.__doc__ = "misattributed"'}
    by_name = {c.qualified_name: c for c in chunk.chunks("r", "distributions.py", blob, parsed)}
    hist = set(sparse.tokens(points.sparse_text(by_name["histplot"])))
    assert {"histogram", "binning", "quartile_whiskers", "data"} <= hist
    assert "histogram" not in by_name["histplot"].embed_text
    assert "facet" in sparse.tokens(points.sparse_text(by_name["Grid.map"]))
    assert "facet" not in sparse.tokens(points.sparse_text(by_name["Grid"]))
    assert "histogram" not in sparse.tokens(points.sparse_text(by_name["later"]))
    assert chunk.assigned_docs(b"def f():\n    pass\nf.__doc__ = 'x' +\n") == {}
    assert chunk.assigned_docs(b"def f(): pass\n") == {}
    # a chain deeper than the recursion limit that the parser still accepts (it raised
    # RecursionError out of chunking); a call in the chain names nothing
    deep = "a" + ".b" * 1500
    assert chunk.assigned_docs(f"{deep}.__doc__ = 'x'\n".encode()) == {deep: f"{deep}.__doc__ = 'x'"}
    assert chunk.assigned_docs(b"f().x.__doc__ = 'y'\n") == {}
