"""The domain interface the gRPC servicer calls (no grpc, no protobuf here).

``service.Service`` implements it over the ledger, the store and the mirrors; tests may
implement it with canned data to exercise the transport alone.
"""

from __future__ import annotations

from typing import Protocol

from coderecalld.records import CallerHit, RepoStatus, SourceText, SymbolHit


class CodeRecallApi(Protocol):
    """What the daemon answers. Every method raises ``coderecalld.errors`` classes only:
    ``InvalidArgument`` for malformed input, ``NotFound`` for an unknown repo/path/symbol,
    ``StoreUnavailable`` when the store cannot answer."""

    def search(
        self,
        query: str,
        limit: int = 10,
        repo: str = "",
        language: str = "",
        path_prefix: str = "",
    ) -> list[SymbolHit]:
        """Hybrid (dense + sparse, RRF) search; exact symbol-name matches are pinned first."""
        ...

    def find_symbols(
        self, name: str, repo: str = "", prefix: bool = False, limit: int = 50
    ) -> list[SymbolHit]:
        """Symbols whose name or qualified name equals ``name`` (case-insensitive), or
        starts with it when ``prefix``."""
        ...

    def find_callers(self, name: str, repo: str = "", limit: int = 100) -> list[CallerHit]:
        """Call sites whose callee (as written, or its last dotted segment) is ``name``."""
        ...

    def read_symbol(self, repo: str, path: str, start_line: int, end_line: int) -> SourceText:
        """Lines ``start_line..end_line`` (1-based, inclusive) of ``path`` at the indexed commit.
        ``end_line`` 0 means to the end of the file."""
        ...

    def list_repos(self) -> list[RepoStatus]:
        """Every configured repository with its index state."""
        ...

    def sync_repo(self, name: str) -> RepoStatus:
        """Fetch and re-index one repository now; returns its status afterwards."""
        ...
