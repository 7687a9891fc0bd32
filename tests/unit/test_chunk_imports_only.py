"""A file whose only top-level code is its imports keeps a module chunk for lookups and
re-exports, never searched (``chunk._module_chunk``, ``parse.extract._boilerplate``), in
every language's import form: Rust's ``use``, C's ``#include``, Ruby's ``require`` (a call
on an import's line), as Python's and Go's were."""

from __future__ import annotations

import pytest

from coderecalld import parse
from coderecalld.index import chunk


@pytest.mark.parametrize(("path", "language", "source"), [
    ("lib/host.rb", "ruby", b"require 'rack/protection'\nrequire 'ipaddr'\n\nmodule Rack\n  class Host\n"
                            b"    def call(env)\n      env\n    end\n  end\nend\n"),
    ("src/lib.rs", "rust", b"use std::io;\nuse crate::de;\n\npub fn f() {}\n"),
    ("src/m.c", "c", b"#include <stdio.h>\n\nint f(void) { return 0; }\n"),
    ("app/a.py", "python", b"import os\n\ndef f():\n    pass\n"),
    # a definition's doc comment is its chunk's docstring, not the module's code (jsoup's
    # module chunks of imports and their class's Javadoc came beside the class in search)
    ("src/main/java/org/jsoup/nodes/Document.java", "java",
     b"package org.jsoup.nodes;\n\nimport java.util.List;\n\n/**\n A HTML Document.\n\n @author J */\n"
     b"public class Document {\n    List<String> x;\n}\n"),
    ("mux.go", "go", b"package chi\n\nimport \"net/http\"\n\n// NewMux returns a new router.\n// It is empty.\n"
                     b"func NewMux() *http.ServeMux {\n\treturn nil\n}\n"),
    ("lib/view.js", "javascript", b"import path from 'path';\n\n/**\n * View.\n * @public\n */\n"
                                  b"function View(name) {\n  this.name = name;\n}\n"),
])
def test_a_module_of_imports_only_is_not_searched(path: str, language: str, source: bytes) -> None:
    chunks = chunk.chunks("r", path, source, parse.symbols(source, language))
    modules = [c for c in chunks if c.kind == "module" and c.path == path and c.start_line == 1
               and c.end_line == source.count(b"\n")]
    assert len(modules) == 1 and modules[0].embed_text == ""


def test_a_module_with_code_of_its_own_is_searched() -> None:
    source = b"require 'json'\nputs JSON.generate({})\n"
    (module,) = chunk.chunks("r", "bin/run.rb", source, parse.symbols(source, "ruby"))
    assert "puts JSON.generate" in module.embed_text


def test_a_python_modules_comments_above_a_definition_stay_its_own() -> None:
    """Python's docstrings are inside its definitions: a comment above one is the module's."""
    source = b"import os\n\n# The registry of handlers, filled at import.\ndef f():\n    \"\"\"Doc.\"\"\"\n"
    modules = [c for c in chunk.chunks("r", "app/b.py", source, parse.symbols(source, "python")) if c.kind == "module"]
    assert "The registry of handlers" in modules[0].embed_text
