"""Records passed between pipeline stages and the query path.

All records are frozen, slotted dataclasses. Conventions shared by every record:

* lines are 1-based and inclusive, counted over the blob's lines (``\\n`` ends a line);
* ``*_byte`` offsets are 0-based, end-exclusive, over the raw git blob bytes (a BOM and
  CR bytes count);
* ``path`` is the repository-relative path exactly as stored in git (``/`` separators).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any


#: The suffix of a long function's part chunk (``index/chunk.py``: ``name#part2``). A JS
#: private name's ``#`` is no part (``Hono.#dispatch``).
PART = re.compile(r"#part\d+$")


def is_part(qualified_name: str) -> bool:
    """Whether ``qualified_name`` names a part of a long function's (``name#part2``), not
    a symbol (JS's private ``Context.#status`` is one)."""
    return bool(PART.search(qualified_name))


def unparted(qualified_name: str) -> str:
    """``qualified_name`` without a long function's part suffix (``name#part2`` -> ``name``)."""
    return PART.sub("", qualified_name)


class SymbolKind(StrEnum):
    """What a chunk describes; reused as a payload value and a metric label."""

    FUNCTION = "function"
    METHOD = "method"
    CLASS = "class"
    INTERFACE = "interface"
    STRUCT = "struct"
    ENUM = "enum"
    TRAIT = "trait"
    TYPE_ALIAS = "type_alias"
    CONSTANT = "constant"
    VARIABLE = "variable"
    MODULE = "module"
    SECTION = "section"


#: Kinds of a named value (a module's, a class's or a namespace's constant, a Go ``var``):
#: symbols for lookups (``symbols``, ``card``, a query's definitions), never searched on their
#: own (their lines stay in their module's or class's chunk: ``index.chunk``).
VALUE_KINDS = frozenset({SymbolKind.CONSTANT, SymbolKind.VARIABLE})
#: Ends the type of a value another file's function returned, in a call site's target or
#: receiver type: ``<function target>()`` (Go's ``example.com/m.NewRouter()`` for ``m :=
#: NewRouter()``, Rust's ``Bytes::copy_from_slice()``): the index writes it
#: (``index/receivers_go``, ``index/resolve_rust``), the query side reads the function's
#: declared result (payload ``returns``) to know which type's method a call on it is.
RETURNED = "()"
#: Names a result after the first in such a marker (``<module>.F#1()``: ``F``'s second result).
POSITION = "#"


class RepoState(StrEnum):
    """Lifecycle of one configured repository (a log field and a metric label)."""

    PENDING = "pending"
    SYNCING = "syncing"
    INDEXING = "indexing"
    READY = "ready"
    EMPTY = "empty"
    ERROR = "error"


class ChangeStatus(StrEnum):
    """How a path differs between the commit's tree and the ledger."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"


class FileState(StrEnum):
    """Outcome of indexing one file, kept in the ledger."""

    INDEXED = "indexed"
    SKIPPED = "skipped"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class CallSite:
    """One call expression inside a symbol.

    Attributes:
        name: the callee as written, dotted (``self.save``, ``os.path.join``, ``helper``).
        line: 1-based line of the call expression's start.
        target: the module-qualified name the call resolves to through the file's imports,
            its own module or its class (``httpcore.ConnectionPool``,
            ``httpx._client.Client.send``); ``""`` when only the name is known.
        via_attribute: the target names an attribute of another file's class as receiver
            (``flask.ctx.AppContext.app.ensure_sync``): what type it holds is unknown here.
        receiver_type: for a call left without a target, the type its receiver is declared
            with in the file, as written less type arguments (C#'s ``Pool _pool;`` or
            ``var p = new Pool()``, Swift's ``let p: Pool``: ``Pool``); ``""`` when unknown.
        reference: no call: the callee is named as a value (passed, assigned, returned,
            listed: ``Thread(target=self.run)``, ``self.dispatch_func = self.dispatch``).
            The resolve stage keeps one only when its target is a function or method
            (Python); the payload keeps them apart from calls (``references``).
        exact: the receiver's class is exactly the target's (a local or field only ever
            assigned a construction of its declared type, ``JsonReader r = new
            JsonReader(..)``; a construction's own call, ``new C(..).m()``): the call runs
            that class's method, never a subclass's override of it.
        other_self: Ruby: the call is written in a block that may run with another ``self``
            than its method's (a DSL's ``instance_eval``: ``parse.ruby_calls.in_other_self``);
            its method resolves no bare call there. Not stored.
        indexed: Go: the callee is written indexed, ``getTyped[string](c, key)`` or
            ``c.handlers[c.index](c)``, which the parser cannot tell apart: a generic
            function's instantiation or a call of a table's element; ``name`` is the indexed
            operand's, and the resolve stage keeps the site only where that names a
            function (``index/resolve._go_instantiation``). Not stored.
        arguments: how many arguments the call passes as the parser sees them (``f(a, b)``:
            2); ``-1`` when that is not known: a spread or splat, a keyword argument, a Go
            call passing another call's results (``f(g())``), no argument list
            (``extract.argument_count``). The payload's ``"args"`` when known.
        chain: JS/TS: the receiver when it is another call's result, written with its
            arguments dropped (``new Hono().basePath()`` of ``new Hono().basePath('/v').route(..)``,
            ``app.route()``, ``c.req`` of ``x.c.req.m(..)`` never: that is a dotted name),
            for the resolve stage to type by declared results (``extract.receiver_chain``);
            ``""`` when the receiver is a name. Not stored.
    """

    name: str
    line: int
    target: str = ""
    via_attribute: bool = False
    receiver_type: str = ""
    reference: bool = False
    other_self: bool = False
    exact: bool = False
    indexed: bool = False
    chain: str = field(default="", compare=False)
    arguments: int = field(default=-1, compare=False)  # a count, no part of where and what is called

    @property
    def short_name(self) -> str:
        """Last dotted segment: ``os.path.join`` -> ``join``."""
        return self.name.rsplit(".", 1)[-1]


@dataclass(frozen=True, slots=True)
class Symbol:
    """One definition parsed from a file.

    ``start_line``/``start_byte`` include decorators; ``end_*`` is the end of the body.
    ``qualified_name`` is file-relative and dotted for Python (``Class.method``,
    ``outer.inner``); ``parent`` is the enclosing symbol's qualified name or ``""``.
    ``call_sites`` are the calls whose nearest enclosing symbol is this one, ``references``
    its values that may name a function (``CallSite.reference``: Python).
    """

    kind: SymbolKind
    name: str
    qualified_name: str
    parent: str
    signature: str
    docstring: str
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    decorators: tuple[str, ...] = ()
    is_async: bool = False
    call_sites: tuple[CallSite, ...] = ()
    references: tuple[CallSite, ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """Everything ``parse.symbols`` extracts from one blob.

    ``module_call_sites`` are calls made by top-level code (outside every symbol),
    ``module_references`` its values that may name a function (``CallSite.reference``).
    ``import_aliases`` are (local name, imported dotted name) pairs: ``import a.b as c`` ->
    ``("c", "a.b")``; relative imports keep their dots (``from .m import f`` -> ``("f", ".m.f")``).
    ``local_imports`` are a Python function's own imports, (1-based line, local name,
    imported dotted name): they bind the name in that function only.
    ``line_count`` is the number of lines of the blob (a trailing newline does not
    start a new line). ``has_errors`` is true when tree-sitter produced ERROR nodes.
    ``instances`` are module-level ``name = Callee(...)`` bindings (Python): (name, the
    called dotted name as written), e.g. ``("_default_decoder", "JSONDecoder")``.
    ``boilerplate_lines`` are the 1-based lines of top-level import statements and the
    package clause: a module chunk with nothing else outside its symbols says nothing.
    ``unbound`` are names of top-level symbols (and qualified names of nested ones: an
    object literal's property functions) that the file's own code cannot call by that
    name: a JS anonymous default export named after its file (``fetch`` for
    ``export default ok && (async () => {...})`` in ``fetch.js``, whose ``fetch()`` calls
    are the global one's), ``exports.x = () => {}``. ``titled`` are the qualified names of
    test blocks named by their title (JS/TS ``describe('app.route', ..)``): no code calls
    one by any name (express's ``app.route(..)`` in it resolved to the block).
    """

    language: str
    symbols: tuple[Symbol, ...]
    imports: tuple[str, ...]
    module_call_sites: tuple[CallSite, ...]
    module_docstring: str
    line_count: int
    has_errors: bool = False
    import_aliases: tuple[tuple[str, str], ...] = ()
    instances: tuple[tuple[str, str], ...] = ()
    boilerplate_lines: frozenset[int] = frozenset()
    unbound: frozenset[str] = frozenset()
    module_references: tuple[CallSite, ...] = ()
    local_imports: tuple[tuple[int, str, str], ...] = ()
    titled: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Chunk:
    """The unit that becomes one point in the vector store.

    ``text`` is the exact source of lines ``start_line..end_line`` (raw blob decoded as
    UTF-8); ``embed_text`` is what the dense model and the sparse tokenizer see (a short
    header plus the source, truncated to the model's budget).
    ``ordinal`` disambiguates chunks that share a qualified name in one file.
    ``module`` is the import name of the file (``httpx._client``, ``""`` if unknown),
    ``raises`` the exception names raised or documented (``Raises:``), ``exports`` the
    module chunk's import table (local name, module-qualified target), so re-exports
    (``httpx.Client`` for ``httpx._client.Client``) can be followed; ``module_aliases`` other
    names of the module (a JS file's package specifiers, ``@acme/util/str`` for ``lib/str``);
    ``bases`` a Python class's module-qualified base classes, in order (``resolve.class_bases``);
    ``instances`` a Python module chunk's module-level names and class attributes of a known
    class (name, class), e.g. ``("current_app", "flask.globals.FlaskProxy")``,
    ``("AppContext.app", "flask.app.Flask")``. ``lexical_text``, when set, is what the
    sparse tokenizer reads instead of ``text`` (a class's outline: ``chunk._outline``).
    ``test_code``: the symbol is a test in a file of other code (``chunk.test_symbols``: a
    Rust ``#[cfg(test)] mod tests``), role ``test`` when the file's is ``source``.
    ``declares``: the chunk's file only declares shapes (``chunk.declares_only``: a
    TypeScript file of interfaces and types, no function or class).
    ``returns``: the concrete type a Go function or method returns, target-style
    (``example.com/m.Mux`` for ``func NewRouter() *Mux``), ``""`` when unknown: calls on
    its result in other files name it (``records.RETURNED``); of a Python
    ``conftest.py``'s pytest fixture, the class of the value it produces (the tests that
    request it name it ``conftest.<fixture>()``, ``receivers.CONFTEST``).
    ``results``: a Go function's or method's result types by position, target-style
    (``""`` for one not concrete), when it has two or more: another file's ``c, r :=
    CreateTestContext(w)`` names ``r``'s type ``<module>.CreateTestContext#1()``
    (``records.POSITION``).
    """

    repo: str
    path: str
    language: str
    kind: SymbolKind
    name: str
    qualified_name: str
    parent: str
    signature: str
    docstring: str
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    text: str
    embed_text: str
    ordinal: int = 0
    call_sites: tuple[CallSite, ...] = ()
    references: tuple[CallSite, ...] = ()
    imports: tuple[str, ...] = ()
    module: str = ""
    raises: tuple[str, ...] = ()
    exports: tuple[tuple[str, str], ...] = ()
    module_aliases: tuple[str, ...] = ()
    bases: tuple[str, ...] = ()
    instances: tuple[tuple[str, str], ...] = ()
    lexical_text: str = ""
    test_code: bool = False
    declares: bool = False
    returns: str = ""
    results: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileChange:
    """One path whose blob differs between the commit's tree and the ledger.

    ``blob_id`` is the new blob (``""`` when deleted); ``old_blob_id`` the ledger's
    (``""`` when added).
    """

    path: str
    status: ChangeStatus
    blob_id: str
    old_blob_id: str = ""


@dataclass(frozen=True, slots=True)
class MirrorResult:
    """Outcome of ``mirror.sync``: where the bare mirror lives and what the branch points at.

    ``commit`` is ``""`` when the branch is unborn (an empty repository).
    """

    name: str
    git_dir: str
    branch: str
    commit: str
    fetched: bool
    duration_s: float


@dataclass(frozen=True, slots=True)
class SparseVector:
    """A sparse vector: parallel lists of dimension ids (uint32) and weights."""

    indices: tuple[int, ...]
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class PointRecord:
    """A point as the store sees it: id, payload and vectors.

    ``dense`` is ``None`` when the embedder has not reached this chunk yet (DESIGN.md
    decision 4: lexical first, dense behind).
    """

    id: str
    payload: dict
    sparse: SparseVector
    dense: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class FileTerms:
    """One indexed file's terms for the file-level lexical index (``Store.upsert_files``).

    ``role`` is ``files.classify``'s (source, test, docs, ...); ``sparse`` holds the
    document-side BM25 term-frequency weights of the whole file's text (the engine applies
    IDF over files at query time).
    """

    repo: str
    path: str
    role: str
    language: str
    sparse: SparseVector


@dataclass(frozen=True, slots=True)
class Hit:
    """One point returned by a store query, with its payload and score."""

    id: str
    score: float
    payload: dict = field(default_factory=dict)

    def keep(self, fields: Iterable[str] | None) -> Hit:
        """This hit with its payload cut to ``fields`` (None: all of it), as a store query
        with those ``fields`` would have returned it."""
        if fields is None:
            return self
        wanted = set(fields)
        return replace(self, payload={k: v for k, v in self.payload.items() if k in wanted})


# --- query path -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SymbolHit:
    """One symbol answered by search or symbol lookup.

    ``score`` is the fused score for hybrid search (higher is better: cosine plus a
    weighted, saturated BM25 score, about 0..2), the cosine or the BM25 score for a
    ``dense`` or ``sparse`` search, and 1.0 for exact lookups. ``commit`` is the indexed commit
    the answer comes from. ``snippet`` is the chunk's first few non-blank lines (at most
    300 characters; ``""`` for points indexed before snippets existed). ``source`` is
    ``"index"`` for the committed index, ``"overlay"`` for a session's uncommitted file;
    ``id`` is the chunk's point id (UUID string), what ``Ask`` citations refer to.
    ``role`` is its file's role (``files.classify.Role``: source, test, docs, ...).
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
    score: float = 1.0
    match: str = ""
    snippet: str = ""
    source: str = "index"
    id: str = ""
    role: str = ""


@dataclass(frozen=True, slots=True)
class CallerHit:
    """One call site of a callee: where it is and which symbol makes the call.

    ``caller`` is the calling symbol's qualified name, ``""`` for top-level code.
    ``callee`` is the call as written (dotted). ``text`` is the call's source line
    (stripped, at most 200 characters). ``target`` is the module-qualified name the call
    resolves to (``""`` if unresolved); ``confidence`` is ``resolved`` when the call was
    tied to the asked definition through imports, its module or its class, ``name_only``
    when only the name matched. ``role`` is the calling file's (``files.classify.Role``:
    ``source``, ``test``, ...; ``""`` from a daemon older than the field).
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
    """Source lines read from the mirror's git objects at the indexed commit."""

    repo: str
    path: str
    commit: str
    start_line: int
    end_line: int
    text: str


@dataclass(frozen=True, slots=True)
class RepoStatus:
    """What ``ListRepos`` reports for one configured repository.

    ``last_sync_unix_s`` is seconds since the epoch of the last finished sync (0 if never).
    ``purpose`` is one line (README's first paragraph or the packaging description),
    ``languages`` (language, file count) pairs, most files first, ``packages`` the
    top-level import names the repo provides. ``pending_vectors`` counts the repo's points
    still waiting for a dense vector (findable by name and sparse search already; 0 with
    embeddings disabled, where none ever gets one). ``lag_s`` is seconds since a fetch found a
    branch head the index does not reflect yet (0 when the indexed commit is the fetched head).
    ``files_failed`` counts the files the index could not read or parse (``parse_error``,
    ``missing_blob``: the ledger says which), tried again when they change.
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
    """A compact profile of one symbol: what it is, how to call it, who calls it.

    ``summary`` is the docstring's first line. For a class: ``bases``, ``init_params``
    (the constructor's parameters as written, defaults included) and ``methods`` (public
    methods' signatures). ``raises`` lists exception names from ``raise``/``throw`` in
    its body and a documented ``Raises:`` section. ``siblings`` are the other members of
    its class. ``callers`` are real call sites (resolved first, then diverse repos).
    ``file_purpose``/``repo_purpose`` are one line each. ``truncated`` is true when the
    token budget cut something. ``callers_total`` counts every call site found (``callers``
    shows a few; FindCallers pages through all of them). ``definitions_total`` counts the
    definitions the asked name means (this one included); ``others`` names up to
    ``card.MAX_OTHERS`` of the rest as ``repo:path:line qualified_name``, in the order the
    card was chosen by: a card of one of several never passes for the only one.
    ``siblings_total`` counts every other member of its class (or function of its file):
    ``siblings`` lists at most ``card.MAX_SIBLINGS``, public ones first.
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
    callers: tuple[CallerHit, ...] = ()
    file_purpose: str = ""
    repo_purpose: str = ""
    truncated: bool = False
    callers_total: int = 0
    others: tuple[str, ...] = ()
    definitions_total: int = 1
    siblings_total: int = 0


class SearchHits(list):  # type: ignore[type-arg]
    """What ``search`` answers: its ``SymbolHit``s, best first (a plain list to every caller
    that only iterates), plus whether the evidence is weak.

    ``low_confidence`` is true when an agent should rather say "not found" than trust the
    first hit; ``confidence_reason`` says why (``""`` otherwise); ``features`` holds the
    measurements the rule looked at (``confidence.Features``, ``None`` if not computed).
    A list subclass rather than a frozen record so that existing callers keep working.
    """

    def __init__(self, hits: Iterable[SymbolHit] = (), low_confidence: bool = False,
                 confidence_reason: str = "", features: Any = None) -> None:
        super().__init__(hits)
        self.low_confidence = low_confidence
        self.confidence_reason = confidence_reason
        self.features = features


class Page(list):  # type: ignore[type-arg]
    """One page of an ordered answer (``find_callers``, ``find_callees``, ``find_symbols``):
    its items (a plain list to every caller that only iterates), plus ``total``, how many
    items the whole answer holds, and ``offset``, how many came before this page.
    ``truncated`` is true when more items follow this page (ask again from ``next_offset``).
    ``lower_bound`` (``find_symbols``): a store lookup read its limit, so more items match
    than ``total`` counts, on no page. ``by_confidence`` (``find_callers``): the whole
    answer's items per confidence, most certain first, as ``(confidence, count)`` pairs.
    A list subclass, as ``SearchHits``, so that existing callers keep working.
    """

    def __init__(self, items: Iterable[Any] = (), total: int | None = None, offset: int = 0,
                 lower_bound: bool = False, by_confidence: tuple[tuple[str, int], ...] = ()) -> None:
        super().__init__(items)
        self.offset = offset
        self.total = offset + len(self) if total is None else total
        self.lower_bound = lower_bound
        self.by_confidence = by_confidence

    @property
    def next_offset(self) -> int:
        """The offset of the next page."""
        return self.offset + len(self)

    @property
    def truncated(self) -> bool:
        """More items exist after this page."""
        return self.next_offset < self.total

    @classmethod
    def cut(cls, items: list[Any], offset: int, limit: int) -> Page:
        """``items[offset:offset + limit]`` as a page of ``len(items)``."""
        return cls(items[offset:offset + limit], len(items), offset)


@dataclass(frozen=True, slots=True)
class FunctionHit:
    """One function or method of a located file: its qualified name, 1-based inclusive
    lines and the score of its best chunk (the search's own scale)."""

    qualified_name: str
    start_line: int
    end_line: int
    score: float


@dataclass(frozen=True, slots=True)
class FileHit:
    """One file answered by ``locate``, best first: ``score`` aggregates its chunks'
    (``query/locate.py``), ``functions`` its best functions, best first; ``commit`` the
    indexed commit the answer comes from."""

    repo: str
    path: str
    role: str
    score: float
    functions: tuple[FunctionHit, ...] = ()
    commit: str = ""


@dataclass(frozen=True, slots=True)
class Located:
    """What ``locate`` answers: files best first, whether the evidence is weak (as
    ``SearchHits``), and the query's shape (``query.shape.Shape``)."""

    files: tuple[FileHit, ...]
    low_confidence: bool = False
    confidence_reason: str = ""
    shape: str = ""


@dataclass(frozen=True, slots=True)
class ImpactNode:
    """One caller in an impact tree: the call site (``site.caller`` is this node's symbol),
    its ``depth`` (1 = a direct caller of the analysed symbol) and its own callers."""

    site: CallerHit
    depth: int
    children: tuple[ImpactNode, ...] = ()


class ImpactCut(StrEnum):
    """What cut an impact tree (``Impact.cut``; a log field)."""

    DEPTH = "depth"  # a node at the depth limit has callers of its own
    LIMIT = "limit"  # the node limit dropped a caller
    HIERARCHY = "hierarchy"  # the request's alias and class-hierarchy lookups ran out
    TIME = "time"  # the request's time for the walk ran out (``impact.WALK_SECONDS``)


@dataclass(frozen=True, slots=True)
class Impact:
    """``AnalyzeImpact``'s answer: the tree of transitive callers of ``name``.

    ``nodes`` counts the tree's nodes, ``repos_touched`` the distinct repos and
    ``files_touched`` the distinct (repo, path) among them; ``truncated`` is true when the
    depth or the node limit cut callers off, or the lookups one request may spend on
    aliases and class hierarchies ran out (``callgraph.HIERARCHY_LOOKUPS``), or its time
    did (a cycle cut is not a truncation); ``cut`` says which (``ImpactCut`` values, in
    that order), empty when not truncated.
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
    """``IndexOverlay``'s answer for one uncommitted file of a session.

    ``expires_unix_s`` is seconds since the epoch when the overlay file expires (0 when
    nothing is stored); ``skipped`` why nothing was indexed (a classify reason such as
    ``binary`` or ``unsupported``, ``removed`` for empty content), ``""`` when indexed.
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
    """A chunk an ``Ask`` answer cites: its point ``id`` (``SymbolHit.id``) and where it is."""

    id: str
    repo: str
    path: str
    start_line: int
    end_line: int
    qualified_name: str


@dataclass(frozen=True, slots=True)
class Answer:
    """``Ask``'s answer. ``status``: ``answered`` (at least one valid citation),
    ``insufficient_evidence`` (the model cited nothing it was shown, or nothing was found),
    ``no_model`` (no ``[ask]`` endpoint configured) or ``model_error`` (the endpoint failed
    or timed out). ``answer`` is ``""`` unless answered; ``citations`` only ids that were in
    ``evidence``; ``dropped_citations`` counts the distinct cited ids that were not."""

    status: str
    answer: str
    citations: tuple[Citation, ...]
    evidence: tuple[SymbolHit, ...]
    dropped_citations: int
    model: str
