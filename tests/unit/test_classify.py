import pytest
from coderecalld.files.classify import classify, excluded

LFS = (b"version https://git-lfs.github.com/spec/v1\n"
       b"oid sha256:" + b"a" * 64 + b"\nsize 12345\n")


@pytest.mark.parametrize("path, blob, language, expected", [
    ("a.py", b"def f(): pass\n", "python", ("code", "python", "")),
    ("README.md", b"# Title\n", None, ("text", "text", "")),
    ("Dockerfile", b"FROM x\n", None, ("text", "text", "")),
    ("logo.png", b"\x89PNG\r\n\x1a\n\0\0", None, ("skip", "", "binary")),
    ("a.py", b"\xff\xfed\0e\0f\0", "python", ("skip", "", "encoding")),
    ("a.py", "caf\u00e9 = 1\n".encode("latin-1"), "python", ("skip", "", "encoding")),
    ("big.py", b"x = 1\n" * 10, "python", ("skip", "", "too_large")),
    ("tool.exe", b"MZ", None, ("skip", "", "unsupported")),
    # Source no grammar parses is searchable text (jq: its grammar, lexer and jq-defined builtins)
    ("src/parser.y", b"%{\n#include <x.h>\n%}\n%%\nExp: Term ;\n", None, ("text", "text", "")),
    ("src/lexer.l", b"%%\n\"if\" { return IF; }\n", None, ("text", "text", "")),
    ("src/builtin.jq", b"def walk(f): .;\n", None, ("text", "text", "")),
    ("CMakeLists.txt", b"project(x)\n", None, ("text", "text", "")),
    # Cython is code (parsed as Python, parse.cython); its Tempita templates (scikit-learn),
    # Fortran and CUDA are text
    ("sklearn/utils/sparsefuncs_fast.pyx", b"def csr_mean_variance_axis0(X):\n    pass\n", "python",
     ("code", "python", "")),
    ("sklearn/utils/_seq_dataset.pyx.tp", b"{{py: dtypes = [1]}}\n", None, ("text", "text", "")),
    ("sklearn/tree/_tree.pxd", b"cdef class Tree:\n    pass\n", "python", ("code", "python", "")),
    ("scipy/linalg/src/id_dist.f90", b"subroutine f()\nend\n", None, ("text", "text", "")),
    ("data/table.csv", b"a,b\n1,2\n", None, ("skip", "", "unsupported")),
    # ... and the C Bison writes from a grammar is generated, as flex's is
    ("src/parser.c", b"/* A Bison parser, made by GNU Bison 3.8.2.  */\n\nint yyparse(void);\n", "c",
     ("skip", "", "generated")),
])
def test_classify(path: str, blob: bytes, language: str | None, expected: tuple) -> None:
    verdict = classify(path, blob, language, max_file_bytes=200 if path != "big.py" else 50)
    assert (verdict.kind, verdict.language, verdict.reason) == expected


def test_lfs_pointer_needs_both_filter_and_format() -> None:
    tracked = classify("model.bin.py", LFS, "python", max_file_bytes=200, lfs_tracked=True)
    assert (tracked.kind, tracked.reason, tracked.detail) == (
        "skip", "lfs_pointer", "oid sha256:" + "a" * 64 + " size 12345")
    # The pointer format alone is not enough: the path must be LFS-tracked, and vice versa.
    assert classify("model.bin.py", LFS, "python", max_file_bytes=200).kind == "code"
    code = classify("gen.py", b"def f(): pass\n", "python", max_file_bytes=200, lfs_tracked=True)
    assert (code.kind, code.reason) == ("code", "")


def test_encoding_detail() -> None:
    assert classify("a.py", b"ok = 1\ncaf\xe9\n", "python", 200).detail == "not UTF-8 at byte 10"
    assert classify("a.py", b"\xff\xfed\0", "python", 200).detail == "utf-16 byte order mark"


def test_excluded_globs() -> None:
    assert excluded("archive/old/a.py", ("archive/**",))
    assert excluded("src/vendor/x.js", ("**/vendor/**",))
    assert not excluded("src/archive.py", ("archive/**",))
