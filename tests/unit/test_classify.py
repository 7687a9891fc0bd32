import pytest

from coderecalld.classify import classify, excluded

LFS = (b"version https://git-lfs.github.com/spec/v1\n"
       b"oid sha256:" + b"a" * 64 + b"\nsize 12345\n")


@pytest.mark.parametrize("path, blob, language, expected", [
    ("a.py", b"def f(): pass\n", "python", ("code", "python", "")),
    ("README.md", b"# Title\n", None, ("text", "text", "")),
    ("Dockerfile", b"FROM x\n", None, ("text", "text", "")),
    ("logo.png", b"\x89PNG\r\n\x1a\n\0\0", None, ("skip", "", "binary")),
    ("a.py", b"\xff\xfed\0e\0f\0", "python", ("skip", "", "encoding")),
    ("a.py", "caf\u00e9 = 1\n".encode("latin-1"), "python", ("skip", "", "encoding")),
    ("model.bin.py", LFS, "python", ("skip", "", "lfs_pointer")),
    ("big.py", b"x = 1\n" * 10, "python", ("skip", "", "too_large")),
    ("tool.exe", b"MZ", None, ("skip", "", "unsupported")),
])
def test_classify(path: str, blob: bytes, language: str | None, expected: tuple) -> None:
    verdict = classify(path, blob, language, max_file_bytes=200 if path != "big.py" else 50)
    assert (verdict.kind, verdict.language, verdict.reason) == expected


def test_excluded_globs() -> None:
    assert excluded("archive/old/a.py", ("archive/**",))
    assert excluded("src/vendor/x.js", ("**/vendor/**",))
    assert not excluded("src/archive.py", ("archive/**",))
