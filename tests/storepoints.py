"""Store points for tests, built as the pipeline builds them: payload, lookup copies, real
sparse vector (``coderecalld.embed.sparse``), an optional dense vector."""

from __future__ import annotations

import uuid

from coderecalld.embed import sparse
from coderecalld.records import PointRecord


def make_point(
    name: str,
    text: str = "",
    *,
    repo: str = "org/app",
    path: str = "app/main.py",
    qualified_name: str = "",
    dense: tuple[float, ...] | None = None,
    language: str = "python",
    kind: str = "function",
    calls: tuple[str, ...] = (),
) -> PointRecord:
    """One chunk's point; the id is UUIDv5 of repo, path and qualified name (DESIGN.md)."""
    qualified_name = qualified_name or name
    payload = {
        "repo": repo, "path": path, "language": language, "kind": kind,
        "name": name, "qualified_name": qualified_name,
        "name_lc": name.lower(), "qualified_name_lc": qualified_name.lower(),
        "name_tokens": " ".join(sparse.tokens(qualified_name)),
        "calls": list(calls), "embed_text": f"{name}\n{text}", "text_hash": f"h-{name}",
    }  # fmt: skip
    pid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{repo}\0{path}\0{qualified_name}"))
    return PointRecord(pid, payload, sparse.vector(f"{name} {text}"), dense)
