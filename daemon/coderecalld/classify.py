"""Decide, per blob, whether and how it is indexed: code, text windows, or skipped with a reason.

Reasons are a small fixed vocabulary (a ledger value and a metric label): ``binary``,
``encoding``, ``too_large``, ``lfs_pointer``, ``unsupported``, ``excluded``.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

#: Bytes inspected for NUL when deciding "binary" (git's own heuristic reads 8,000).
BINARY_SNIFF_BYTES = 8000
#: Extensions indexed as line windows when no grammar claims them.
TEXT_EXTENSIONS = frozenset({
    ".md", ".rst", ".txt", ".toml", ".yaml", ".yml", ".json", ".cfg", ".ini", ".conf",
    ".proto", ".sql", ".graphql", ".gradle", ".properties", ".tf", ".dockerfile",
})
TEXT_FILENAMES = frozenset({"Dockerfile", "Makefile", "README", "LICENSE", "CODEOWNERS"})
_LFS_POINTER = re.compile(rb"^version https://git-lfs\.github\.com/spec/v1\n(.*\n)*?oid sha256:[0-9a-f]{64}\nsize \d+\n")


@dataclass(frozen=True, slots=True)
class Verdict:
    """``kind`` is 'code' (parse with ``language``), 'text' (windows) or 'skip' (see ``reason``)."""

    kind: str
    language: str = ""
    reason: str = ""


def excluded(path: str, patterns: tuple[str, ...]) -> bool:
    """True if ``path`` matches any glob in ``patterns`` (``**`` spans directories)."""
    return any(fnmatch.fnmatchcase(path, p) or fnmatch.fnmatchcase(path, p.replace("**/", ""))
               for p in patterns)


def classify(path: str, blob: bytes, language: str | None, max_file_bytes: int) -> Verdict:
    """Verdict for one blob. ``language`` is the parser registry's answer for ``path``."""
    if len(blob) > max_file_bytes:
        return Verdict("skip", reason="too_large")
    if len(blob) < 1024 and _LFS_POINTER.match(blob):
        return Verdict("skip", reason="lfs_pointer")
    if blob.startswith((b"\xff\xfe", b"\xfe\xff")):
        return Verdict("skip", reason="encoding")  # UTF-16: offsets would not be over raw bytes
    if b"\0" in blob[:BINARY_SNIFF_BYTES]:
        return Verdict("skip", reason="binary")
    try:
        blob.decode("utf-8")
    except UnicodeDecodeError:
        return Verdict("skip", reason="encoding")
    if language:
        return Verdict("code", language=language)
    pure = PurePosixPath(path)
    if pure.suffix.lower() in TEXT_EXTENSIONS or pure.name in TEXT_FILENAMES:
        return Verdict("text", language="text")
    return Verdict("skip", reason="unsupported")
