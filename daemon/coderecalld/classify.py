"""Decide, per blob, whether and how it is indexed: code, text windows, or skipped with a reason.

Reasons are a small fixed vocabulary (a ledger value and a metric label): ``binary``,
``encoding``, ``too_large``, ``lfs_pointer``, ``unsupported``, ``excluded``, ``sensitive``
(credential and key files, never read past their path: see ``SENSITIVE_NAMES``).
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
#: Git LFS pointer format (git-lfs docs/spec.md): version line first, then sorted keys.
_LFS_POINTER = re.compile(
    rb"^version https://git-lfs\.github\.com/spec/v1\n(?:.*\n)*?oid (sha256:[0-9a-f]{64})\nsize (\d+)\n")
#: A pointer is smaller than this: git-lfs never reads more of a blob when looking for one.
LFS_POINTER_MAX_BYTES = 1024


#: Files that hold credentials by convention, matched against the file name: dotenv files,
#: direnv's ``.envrc`` (it exports variables, typically tokens), keys, certificates and
#: keystores, SSH identities, cloud credential files, netrc-style password files.
SENSITIVE_NAMES = (
    ".env", ".env.*", ".envrc", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore",
    "*.ppk", "*.kdbx", "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", "credentials*.json",
    "*credentials.json", "service-account*.json", "*.tfstate", "*.tfstate.*", ".netrc",
    ".pgpass", ".pypirc", ".git-credentials", ".htpasswd",
)
#: Directories whose every file is sensitive, at any depth.
SENSITIVE_DIRS = frozenset({"secrets", ".secrets", ".ssh", ".aws", ".gnupg"})
#: Templates documenting which variables exist; indexed as text unless inside a
#: sensitive directory (``secrets/.env.example`` stays out).
ENV_TEMPLATES = frozenset({".env.example", ".env.sample", ".env.template", ".env.dist"})


def sensitive(path: str) -> bool:
    """True if ``path`` is a credential/key file by name or lies in a secrets directory."""
    pure = PurePosixPath(path)
    if any(part.lower() in SENSITIVE_DIRS for part in pure.parts[:-1]):
        return True
    name = pure.name
    if name in ENV_TEMPLATES:
        return False
    return any(fnmatch.fnmatchcase(name.lower(), p) for p in SENSITIVE_NAMES)


@dataclass(frozen=True, slots=True)
class Verdict:
    """``kind`` is 'code' (parse with ``language``), 'text' (windows) or 'skip' (see ``reason``).

    ``detail`` says more about a skip for people reading the ledger: an LFS pointer's
    ``oid sha256:<hex> size <bytes>``, or what was wrong with the encoding.
    """

    kind: str
    language: str = ""
    reason: str = ""
    detail: str = ""


def excluded(path: str, patterns: tuple[str, ...]) -> bool:
    """True if ``path`` matches any glob in ``patterns`` (``**`` spans directories)."""
    return any(fnmatch.fnmatchcase(path, p) or fnmatch.fnmatchcase(path, p.replace("**/", ""))
               for p in patterns)


def classify(path: str, blob: bytes, language: str | None, max_file_bytes: int,
             lfs_tracked: bool = False) -> Verdict:
    """Verdict for one blob. ``language`` is the parser registry's answer for ``path``;
    ``lfs_tracked`` is whether the commit's ``.gitattributes`` give ``path`` ``filter=lfs``.

    A blob is an LFS pointer only when its path is tracked *and* it has the pointer format:
    a document quoting the format, or a tracked file committed without LFS, is still indexed.
    """
    if sensitive(path):
        return Verdict("skip", reason="sensitive")
    if len(blob) > max_file_bytes:
        return Verdict("skip", reason="too_large")
    pointer = _LFS_POINTER.match(blob) if lfs_tracked and len(blob) < LFS_POINTER_MAX_BYTES else None
    if pointer:
        oid, size = (g.decode() for g in pointer.groups())
        return Verdict("skip", reason="lfs_pointer", detail=f"oid {oid} size {size}")
    if blob.startswith((b"\xff\xfe", b"\xfe\xff")):
        # UTF-16: offsets would not be over raw bytes
        return Verdict("skip", reason="encoding", detail="utf-16 byte order mark")
    if b"\0" in blob[:BINARY_SNIFF_BYTES]:
        return Verdict("skip", reason="binary")
    try:
        blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Verdict("skip", reason="encoding", detail=f"not UTF-8 at byte {exc.start}")
    if language:
        return Verdict("code", language=language)
    pure = PurePosixPath(path)
    if (pure.suffix.lower() in TEXT_EXTENSIONS or pure.name in TEXT_FILENAMES
            or pure.name in ENV_TEMPLATES):
        return Verdict("text", language="text")
    return Verdict("skip", reason="unsupported")
