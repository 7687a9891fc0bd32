"""The domain interface the gRPC servicer calls (no grpc, no protobuf here).

``service.Service`` implements it over the ledger, the store and the mirrors; tests may
implement it with canned data to exercise the transport alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from coderecalld.auth import LOCAL, Principal
from coderecalld.progress import Progress
from coderecalld.records import (
    Answer,
    CallerHit,
    Card,
    Impact,
    Located,
    OverlayStatus,
    RepoStatus,
    SourceText,
    SymbolHit,
)


class CodeRecallApi(Protocol):
    """What the daemon answers. Every method raises ``coderecalld.errors`` classes only:
    ``InvalidArgument`` for malformed input, ``NotFound`` for an unknown repo/path/symbol
    (or one outside the caller's scope: the two are indistinguishable),
    ``PermissionDenied`` for a write the caller's role forbids, ``StoreUnavailable`` when
    the store cannot answer.

    Every method takes the caller as keyword ``principal``; its repo globs scope every
    answer. The transport always passes it; ``LOCAL`` (everything) is for in-process use."""

    def search(
        self,
        query: str,
        limit: int = 10,
        repo: str = "",
        language: str = "",
        path_prefix: str = "",
        *,
        path_glob: str = "",
        kind: str = "",
        mode: str = "",
        session: str = "",
        role: str | tuple[str, ...] = "",
        principal: Principal = LOCAL,
    ) -> list[SymbolHit]:
        """Hybrid (dense + sparse) search, exact symbol-name matches pinned first; ``mode``
        ``dense`` or ``sparse`` asks one retriever alone. Filters: repo, language, kind,
        path prefix, path glob (fnmatch), file roles. ``session`` adds its overlay files.
        The list may be a ``records.SearchHits`` carrying ``low_confidence`` and
        ``confidence_reason`` (a plain list means confident). The transport passes
        ``session`` and ``role`` only when set."""
        ...

    def locate(
        self, query: str, limit: int = 10, repo: str = "", *,
        role: str | tuple[str, ...] = "", mode: str = "", functions: int = 5,
        principal: Principal = LOCAL,
    ) -> Located:
        """The files ``query`` is about, best first, each with its best functions
        (``records.Located``). The transport passes ``role`` and ``functions`` only when set."""
        ...

    def find_symbols(
        self, name: str, repo: str = "", prefix: bool = False, limit: int = 50, *,
        fuzzy: bool = False, session: str = "", offset: int = 0, principal: Principal = LOCAL,
    ) -> list[SymbolHit]:
        """Symbols whose name or qualified name equals ``name`` (case-insensitive), or
        starts with it when ``prefix``; ``fuzzy`` adds substrings and small typos. The
        transport passes ``fuzzy``, ``session`` and ``offset`` only when set. The list may
        be a ``records.Page`` (``total``, ``truncated``; a plain list means complete)."""
        ...

    def find_callers(self, name: str, repo: str = "", limit: int = 100, *, offset: int = 0,
                     principal: Principal = LOCAL, omitted: dict[str, int] | None = None) -> list[CallerHit]:
        """Call sites of ``name`` (bare, ``Class.method`` or module-qualified): ``resolved``
        ones (tied to the definition through imports, its module or its class) first, then
        ``inherited``, ``override`` and ``name_only`` ones (only the last dotted segment
        matched, the receiver's type unknown); ``omitted["other_type"]`` counts the calls
        of the short name left out as calls on another type. ``limit`` sites from ``offset``
        on (the transport passes ``offset`` only when set); the list may be a
        ``records.Page`` carrying the ``total``."""
        ...

    def find_callees(self, name: str, repo: str = "", limit: int = 100, *, offset: int = 0,
                     principal: Principal = LOCAL) -> list[CallerHit]:
        """The calls made by the definitions ``name`` means, targets resolved where possible;
        paged as ``find_callers``."""
        ...

    def get_card(self, name: str, repo: str = "", budget_tokens: int = 800, *,
                 principal: Principal = LOCAL) -> Card:
        """The developer card of the symbol ``name`` means, trimmed to ``budget_tokens``.
        ``NotFound`` when no symbol in scope is named so."""
        ...

    def read_symbol(self, repo: str, path: str, start_line: int, end_line: int, *,
                    principal: Principal = LOCAL) -> SourceText:
        """Lines ``start_line..end_line`` (1-based, inclusive) of ``path`` at the indexed commit.
        ``end_line`` 0 means to the end of the file."""
        ...

    def list_repos(self, *, principal: Principal = LOCAL) -> list[RepoStatus]:
        """Every configured repository in the caller's scope with its index state."""
        ...

    def sync_repo(self, name: str, *, principal: Principal = LOCAL) -> RepoStatus:
        """Fetch and re-index one repository now; returns its status afterwards.
        Needs the ``admin`` role (``PermissionDenied`` otherwise)."""
        ...

    def watch_progress(self, repo: str = "", once: bool = False, *, principal: Principal = LOCAL,
                       alive: Callable[[], bool] = lambda: True) -> Iterable[Progress]:
        """Index-run progress per repo in scope: current states, then every change (at most
        ~10 per second per repo) until the returned stream's ``cancel()`` or ``alive()``
        false; ``once``: current states only. ``NotFound`` for a repo outside the scope."""
        ...

    def analyze_impact(self, name: str, repo: str = "", depth: int = 3, limit: int = 200, *,
                       principal: Principal = LOCAL) -> Impact:
        """Transitive callers of ``name`` as a tree, ``depth`` levels (max 10) and at most
        ``limit`` nodes (max 2000); cycles are cut."""
        ...

    def index_overlay(self, repo: str, path: str, content: bytes, session: str, ttl_s: int = 0, *,
                      principal: Principal = LOCAL) -> OverlayStatus:
        """Index one uncommitted file for ``session`` only, until ``ttl_s`` seconds pass;
        empty ``content`` removes it. ``ResourceExhausted`` past the overlay bounds."""
        ...

    def ask(self, question: str, repo: str = "", limit: int = 8, *,
            principal: Principal = LOCAL) -> Answer:
        """Evidence for ``question`` and, if a chat endpoint is configured, an answer citing
        only that evidence. Model failures are a status, never an error."""
        ...
