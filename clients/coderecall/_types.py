"""Plain result types returned by ``Client`` (never protobuf messages).

Lines are 1-based and inclusive; byte offsets are 0-based, end-exclusive, over the raw
git blob; ``path`` is repository-relative with ``/`` separators; ``commit`` is the hex id
of the indexed commit an answer comes from.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SymbolHit:
    """One symbol answered by ``Client.search`` or ``Client.find_symbols``.

    ``kind`` is one of function, method, class, interface, struct, enum, trait,
    type_alias, constant, variable, module, section. ``score`` is unitless, higher is better: a fused
    score for search (cosine plus a weighted, saturated BM25 score), 1.0 for exact lookups. ``match`` says how
    the hit was found (server-defined, may be ``""``). ``snippet`` previews a search hit:
    its first few non-blank lines (at most 300 characters). ``source`` is ``"index"``
    or ``"overlay"`` (a session's uncommitted file); ``id`` is the chunk's point id.
    ``role`` is its file's role: source, test, docs, example, generated, vendored, config
    (``""`` from a daemon that predates roles).
    """

    repo: str
    path: str
    language: str
    kind: str
    name: str
    qualified_name: str
    parent: str
    signature: str
    docstring: str
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    commit: str
    score: float
    match: str
    snippet: str = ""
    source: str = "index"
    id: str = ""
    role: str = ""


@dataclass(frozen=True, slots=True)
class CallSite:
    """One call of a callee: ``caller`` (qualified name, ``""`` for top-level code) calls
    ``callee`` (as written, dotted) at ``line`` of ``path``.

    ``text`` is the call's source line (stripped, at most 200 characters); ``target`` the
    module-qualified name the call resolves to (``""`` if unresolved); ``confidence`` is
    ``"resolved"`` when the call was tied to the definition through imports, its module,
    its class or its receiver's type, ``"inherited"`` when the receiver is a subclass that
    inherits it, ``"override"`` when the call names a base-class method it overrides (it may
    dispatch here), ``"reference"`` when no call but a value names the definition there
    (a callback passed or stored: ``Thread(target=self.run)``), ``"name_only"`` when only
    the name matched (the receiver's type unknown). ``role`` is the calling file's
    (``"source"``, ``"test"``, ``"docs"``, ``"example"``, ``"generated"``, ``"vendored"``,
    ``"config"``; ``""`` from a daemon older than the field).
    """

    repo: str
    path: str
    line: int
    caller: str
    callee: str
    commit: str
    text: str = ""
    confidence: str = ""
    target: str = ""
    role: str = ""


@dataclass(frozen=True, slots=True)
class SourceText:
    """Lines ``start_line..end_line`` of ``path`` at ``commit``; ``text`` keeps the ``\\n``s."""

    repo: str
    path: str
    commit: str
    start_line: int
    end_line: int
    text: str


@dataclass(frozen=True, slots=True)
class RepoInfo:
    """One configured repository and its index.

    ``state`` is one of pending, syncing, indexing, ready, empty, error; ``error`` holds
    the last error when ``state == "error"``, or why a ``pending`` run did not end
    ("interrupted by shutdown"). ``last_sync_unix_s`` is seconds since the
    Unix epoch of the last finished sync (0.0 if never). ``files``, ``symbols`` and
    ``chunks`` are counts in the index at ``indexed_commit``. ``purpose`` is one line
    (README or packaging description), ``languages`` (language, file count) pairs, most
    files first, ``packages`` the top-level import names the repository provides.
    ``pending_vectors`` counts points still waiting for a dense vector (already findable by
    name and by sparse search; 0 with embeddings disabled). ``lag_s`` is seconds since a
    fetch found a branch head the index does not reflect yet (0 when caught up).
    ``files_failed`` counts files the index could not read or parse, retried on change.
    """

    name: str
    url: str
    branch: str
    indexed_commit: str
    files: int
    symbols: int
    chunks: int
    last_sync_unix_s: float
    state: str
    error: str
    purpose: str = ""
    languages: tuple[tuple[str, int], ...] = ()
    packages: tuple[str, ...] = ()
    pending_vectors: int = 0
    lag_s: float = 0.0
    files_failed: int = 0


@dataclass(frozen=True, slots=True)
class Card:
    """A compact profile of one symbol (``Client.get_card``).

    ``summary`` is the docstring's first line. Classes have ``bases``, ``init_params``
    (constructor parameters as written, defaults included) and ``methods`` (public
    methods' signatures). ``raises`` are exception names raised in the body or documented
    under ``Raises:``; ``siblings`` the other members of its class; ``callers`` real call
    sites, resolved first, from diverse repos. ``truncated`` is true when the token
    budget cut something. ``callers_total`` counts every call site the daemon found
    (``callers`` shows at most 5; ``Client.find_callers`` pages through them all).
    ``definitions_total`` counts the definitions the asked name means (this one
    included); ``others`` names up to 10 of the rest as ``repo:path:line qualified_name``.
    ``siblings_total`` counts every other member of its class (``siblings`` lists at most
    12, public ones first).
    """

    repo: str
    path: str
    kind: str
    qualified_name: str
    module: str
    signature: str
    summary: str
    start_line: int
    end_line: int
    commit: str
    bases: tuple[str, ...] = ()
    init_params: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    raises: tuple[str, ...] = ()
    siblings: tuple[str, ...] = ()
    callers: tuple[CallSite, ...] = ()
    file_purpose: str = ""
    repo_purpose: str = ""
    truncated: bool = False
    callers_total: int = 0
    others: tuple[str, ...] = ()
    definitions_total: int = 1
    siblings_total: int = 0


@dataclass(frozen=True, slots=True)
class IndexProgress:
    """One repository's index run as ``Client.watch_progress`` reports it.

    ``phase`` is one of starting (the daemon is loading its model and store), queued
    (waiting for its first run since the daemon started), idle (no run since the daemon
    started), fetching, diffing, indexing, embedding, done, error; ``state`` is as
    ``RepoInfo.state``. ``files_done`` of ``files_total`` counts the changed files of the
    current (or last) run, ``chunks_done`` the chunks it wrote (the repository's totals are
    ``RepoInfo.files``/``chunks``); ``pending_vectors`` the repository's points still
    waiting for a dense vector, ``vectors_done`` those added since the current embedding
    pass began; ``eta_s`` the estimated seconds left in ``phase`` (0: no estimate). Times
    are seconds since the Unix epoch (``started_unix_s`` 0 before any run); ``error`` is the
    last error when ``phase == "error"``.
    """

    repo: str
    state: str
    phase: str
    commit: str
    files_done: int
    files_total: int
    chunks_done: int
    pending_vectors: int
    started_unix_s: float
    updated_unix_s: float
    error: str
    vectors_done: int = 0
    eta_s: float = 0.0
    phase_started_unix_s: float = 0.0

    @property
    def settled(self) -> bool:
        """No run in progress and no vector waiting (an ``error`` counts as settled)."""
        running = self.phase in ("starting", "queued", "fetching", "diffing", "indexing",
                                 "embedding")
        return not running and (self.pending_vectors == 0 or self.phase == "error")


class SearchResults(list):  # type: ignore[type-arg]
    """``Client.search``'s answer: a list of ``SymbolHit`` (best first), as before, that
    also says whether the evidence is weak.

    ``low_confidence`` is true when the daemon judged the hits weak (no result, a low top
    score, or retrievers that disagree on a near tie): say "not found" rather than trust
    the first hit. ``confidence_reason`` says why (``""`` otherwise).
    """

    def __init__(self, hits: Iterable[SymbolHit] = (), low_confidence: bool = False,
                 confidence_reason: str = "") -> None:
        super().__init__(hits)
        self.low_confidence = low_confidence
        self.confidence_reason = confidence_reason


class Page(list):  # type: ignore[type-arg]
    """One page of an ordered answer (``Client.find_callers``, ``find_callees``,
    ``find_symbols``): a list of its items, as before, that also says how much there is.

    ``total`` is how many items the whole answer holds, ``offset`` how many came before
    this page; ``truncated`` is true when more follow (ask again with ``offset=
    page.next_offset``). ``omitted_other_type`` (``find_callers`` only): calls of the same
    short name left out because their receiver is known to be another type, or because
    their repository calls nothing of the (Python) definition's package;
    ``hierarchy_cut`` (``find_callers`` only): the aliases and class hierarchy were not
    followed whole (the daemon's lookup budget ran out): calls on the classes not reached
    are ``name_only``, calls of the methods it overrides may be missing.
    ``by_confidence`` (``find_callers`` only): how many items of the whole answer (every
    page) have each confidence, most certain first (``{"resolved": 22, "name_only": 43}``;
    empty from a daemon older than the count).
    ``total_is_lower_bound`` (``find_symbols`` only): the daemon's lookup read its limit,
    so more names match than ``total`` counts, on no page (a longer name or prefix lists
    them).
    """

    def __init__(self, items: Iterable[object] = (), total: int | None = None, offset: int = 0,
                 omitted_other_type: int = 0, hierarchy_cut: bool = False,
                 total_is_lower_bound: bool = False, by_confidence: dict[str, int] | None = None) -> None:
        super().__init__(items)
        self.offset = offset
        self.total = offset + len(self) if total is None else total
        self.omitted_other_type = omitted_other_type
        self.hierarchy_cut = hierarchy_cut
        self.total_is_lower_bound = total_is_lower_bound
        self.by_confidence = dict(by_confidence or {})

    @property
    def next_offset(self) -> int:
        """The ``offset`` that asks for the next page."""
        return self.offset + len(self)

    @property
    def truncated(self) -> bool:
        """More items exist after this page."""
        return self.next_offset < self.total


@dataclass(frozen=True, slots=True)
class LocatedFunction:
    """One function of a located file: qualified name, 1-based inclusive lines, and the
    score of its best chunk."""

    qualified_name: str
    start_line: int
    end_line: int
    score: float


@dataclass(frozen=True, slots=True)
class LocatedFile:
    """One file answered by ``Client.locate``: ``score`` (unitless, higher is better)
    aggregates its chunks'; ``functions`` its best functions, best first."""

    repo: str
    path: str
    role: str
    score: float
    functions: tuple[LocatedFunction, ...]
    commit: str

    def as_dict(self) -> dict:
        """JSON-ready: ``repo``, ``path``, ``role``, ``score``, ``commit`` and ``functions``
        (each ``qualified_name``, ``start_line``, ``end_line``, ``score``)."""
        return {"repo": self.repo, "path": self.path, "role": self.role, "score": self.score,
                "commit": self.commit,
                "functions": [{"qualified_name": f.qualified_name, "start_line": f.start_line,
                               "end_line": f.end_line, "score": f.score} for f in self.functions]}


class LocatedFiles(list):  # type: ignore[type-arg]
    """``Client.locate``'s answer: a list of ``LocatedFile`` (best first) with
    ``low_confidence``, ``confidence_reason`` (as ``SearchResults``) and ``shape``, how
    the daemon read the query (text, identifier, literal, trace, issue)."""

    def __init__(self, files: Iterable[LocatedFile] = (), low_confidence: bool = False,
                 confidence_reason: str = "", shape: str = "") -> None:
        super().__init__(files)
        self.low_confidence = low_confidence
        self.confidence_reason = confidence_reason
        self.shape = shape


@dataclass(frozen=True, slots=True)
class ImpactNode:
    """One caller in an impact tree: ``site`` (its ``caller`` is this node's symbol, with
    the call's line and ``confidence``), ``depth`` (1 = calls the analysed symbol directly)
    and ``children``, the callers of this caller."""

    site: CallSite
    depth: int
    children: tuple[ImpactNode, ...] = ()


@dataclass(frozen=True, slots=True)
class Impact:
    """``Client.analyze_impact``'s answer: the transitive callers of ``name`` as a tree.

    ``nodes`` counts the nodes, ``repos_touched`` / ``files_touched`` the distinct repos
    and (repo, path) among them; ``truncated`` is true when the depth or node limit cut
    callers off, or the daemon's lookups or time for one tree ran out; ``cut`` says which
    (``"depth"``, ``"limit"``, ``"hierarchy"``, ``"time"``, in that order). A caller
    already on the path from the root (recursion) is a leaf.
    """

    name: str
    callers: tuple[ImpactNode, ...]
    nodes: int
    repos_touched: int
    files_touched: int
    truncated: bool
    cut: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OverlayStatus:
    """``Client.index_overlay``'s answer for one uncommitted file of a session.

    ``expires_unix_s``: seconds since the epoch when it expires (0 when nothing is
    stored); ``skipped``: why nothing was indexed (``binary``, ``unsupported``, ...;
    ``removed`` for empty content), ``""`` when indexed.
    """

    repo: str
    path: str
    session: str
    symbols: int
    chunks: int
    expires_unix_s: float
    skipped: str = ""


@dataclass(frozen=True, slots=True)
class Citation:
    """A chunk an answer cites: its ``id`` (``SymbolHit.id`` of the evidence) and location."""

    id: str
    repo: str
    path: str
    start_line: int
    end_line: int
    qualified_name: str


@dataclass(frozen=True, slots=True)
class Answer:
    """``Client.ask``'s answer. ``status``: ``answered``, ``insufficient_evidence``,
    ``no_model`` (no chat endpoint configured: ``evidence`` alone) or ``model_error``.
    ``answer`` is ``""`` unless answered; ``citations`` only ids that were in ``evidence``;
    ``dropped_citations`` counts cited ids that were not; ``model`` the configured model."""

    status: str
    answer: str
    citations: tuple[Citation, ...]
    evidence: tuple[SymbolHit, ...]
    dropped_citations: int
    model: str
