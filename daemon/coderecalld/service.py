"""The query path: plan each question, ask the store, enrich with the indexed commit.

Implements ``api.CodeRecallApi`` over the ledger, the store, the embedder and the mirrors.
No grpc here: the servicer decodes requests, calls these methods and encodes the results.

Every method takes the caller's ``principal`` (``auth.LOCAL``, everything, for in-process
callers). Its repo scope goes into every store filter; a repo named in a request narrows
it and a repo outside it answers exactly like an unknown one (DESIGN.md decision 10).
An empty scope answers empty without asking the store (``StoreFilter(repos=())`` means
"no restriction" there).
"""

from __future__ import annotations

import fnmatch
import re
import time
from collections.abc import Callable
from typing import Any

from coderecalld import callgraph, card, classify, credentials, mirror, redact, sparse, validate
from coderecalld.auth import LOCAL, Principal
from coderecalld.config import Config
from coderecalld.embed import Embedder
from coderecalld.errors import InvalidArgument, NotFound, PermissionDenied
from coderecalld.ledger import Ledger
from coderecalld.records import CallerHit, Card, Hit, RepoStatus, SourceText, SymbolHit
from coderecalld.store import StoreFilter
from coderecalld.progress import DETACHED, Registry, Watch

#: Largest page any query returns; larger requests are refused, not silently cut.
MAX_LIMIT = 500
#: Largest card budget (tokens); a card is meant to be a small part of a prompt.
MAX_CARD_TOKENS = 8000
#: Fusion of the two prefetches (docs/retrieval.md has every variant measured on CoSQA dev):
#: one Qdrant score formula, ``cosine + w * s / (s + SPARSE_HALF)`` with ``s`` the sparse
#: (BM25) score. The saturation puts BM25 on the cosine's 0..1 scale, so a lexical match
#: moves the dense order by a bounded amount instead of outvoting it by rank. 59.5 nDCG@10
#: vs 55.9 for the former weighted RRF (3:1, k=60), 59.2 for the best RRF (5:1, k=10).
FUSION = "linear"
SPARSE_HALF = 20.0
#: ``w`` for a natural-language query (best on CoSQA dev) and for a query made only of
#: identifiers (``HTTPServer.serve``, ``parse_qsl(``), where the names are the question:
#: there the lexical side gets the dense side's weight. Mixed queries interpolate.
SPARSE_WEIGHT_TEXT = 0.1
SPARSE_WEIGHT_CODE = 1.0
#: Candidates each prefetch hands to the fusion (20, 50, 100, 200 measured; flat from 50).
PREFETCH_LIMIT = 100
# A word that only code writes: snake_case, camelCase, an acronym hump, a dotted or ::
# path, a call's parenthesis.
_CODE_WORD = re.compile(r"[^\W\d_]_|_[^\W\d_]|[a-z][A-Z]|[A-Z]{2,}[a-z]|\w(?:\.|::)\w|\w\(")
_IDENTIFIER = re.compile(r"^[^\W\d][\w]*(?:(?:\.|::)[^\W\d][\w]*)*$")
_HIDDEN_KINDS = ("section",)
#: ``search`` modes: both retrievers fused, or one alone.
SEARCH_MODES = ("hybrid", "dense", "sparse")
_WILDCARDS = "*?["


class Service:
    """Answers queries. ``sync`` runs one repo's sync now (the daemon's job runner)."""

    progress: Registry = DETACHED  # Daemon.open sets the daemon's (WatchProgress)

    def __init__(self, cfg: Config, ledger: Ledger, store: Any, embedder: Embedder | None,
                 sync: Callable[[str], None] | None = None) -> None:
        self.cfg = cfg
        self.ledger = ledger
        self.store = store
        self.embedder = embedder
        self._sync = sync

    # --- search ---------------------------------------------------------------------

    def search(self, query: str, limit: int = 10, repo: str = "", language: str = "",
               path_prefix: str = "", *, path_glob: str = "", kind: str = "", mode: str = "",
               principal: Principal = LOCAL) -> list[SymbolHit]:
        """Search chunks by meaning and by identifiers, best first.

        ``mode`` is ``hybrid`` (default, also ``""``): both retrievers fused, and a query
        that exactly names a symbol gets that symbol pinned first; ``dense`` or ``sparse``:
        that retriever alone, nothing pinned (for measurement). ``repo``, ``language``,
        ``kind`` match exactly, ``path_prefix`` is a string prefix and ``path_glob`` an
        fnmatch glob over the whole path (``*`` spans ``/``). Raises ``InvalidArgument``
        for an empty or oversized query, a bad limit or an unknown mode.
        """
        query = validate.text("query", query, validate.MAX_QUERY_CHARS).strip()
        if not query:
            raise InvalidArgument("query: must not be empty")
        limit = _limit(limit, 10)
        mode = mode or "hybrid"
        if mode not in SEARCH_MODES:
            raise InvalidArgument(f"mode: must be one of {', '.join(SEARCH_MODES)}, got {mode!r}")
        validate.text("language", language, validate.MAX_LANGUAGE_CHARS)
        validate.text("path_prefix", path_prefix, validate.MAX_PATH_CHARS)
        validate.text("path_glob", path_glob, validate.MAX_PATH_CHARS)
        validate.text("kind", kind, validate.MAX_LANGUAGE_CHARS)
        flt = self._filter(principal, repo, language=language, kind=kind,
                           path_prefix=path_prefix or _literal_prefix(path_glob))
        if flt is None:
            return []
        # A glob is checked here, after the store's prefix filter: over-fetch so it still fills a page.
        fetch = MAX_LIMIT if _has_wildcard(path_glob) else limit
        keep = (lambda h: fnmatch.fnmatchcase(h.payload["path"], path_glob)) if path_glob else None
        ranked = self._ranked(query, flt, fetch, mode)
        commits: dict[str, str] = {}  # one ledger read per repo, not per hit (~3 ms each)
        return [self._hit(h, match, commits=commits) for h, match in ranked
                if keep is None or keep(h)][:limit]

    def _ranked(self, query: str, flt: StoreFilter, limit: int, mode: str) -> list[tuple[Hit, str]]:
        if mode == "sparse":
            return [(h, "sparse") for h in self.store.sparse_search(sparse.query_vector(query), flt, limit)]
        dense = self.embedder.embed_query(query).tolist() if self.embedder else None
        if mode == "dense":
            return [(h, "dense") for h in self.store.dense_search(dense, flt, limit)] if dense else []
        pinned = self._exact(query, flt, limit) if _IDENTIFIER.match(query) else []
        weight = SPARSE_WEIGHT_TEXT + (SPARSE_WEIGHT_CODE - SPARSE_WEIGHT_TEXT) * code_share(query)
        hits = self.store.hybrid(dense, sparse.query_vector(query), flt, limit=limit + len(pinned),
                                 prefetch_limit=PREFETCH_LIMIT, weights=(1.0, weight),
                                 method=FUSION, sparse_half=SPARSE_HALF)
        pinned_ids = {h.id for h in pinned}
        ranked = [(h, "exact") for h in pinned]
        ranked += [(h, "hybrid") for h in hits if h.id not in pinned_ids]
        return ranked[:limit]

    def _exact(self, query: str, flt: StoreFilter, limit: int) -> list[Hit]:
        lowered = query.lower().replace("::", ".")
        hits = self.store.find(flt, "qualified_name_lc", lowered, limit=limit)
        hits += self.store.find(flt, "name_lc", lowered, limit=limit)
        return _dedupe([h for h in hits if h.payload.get("kind") not in _HIDDEN_KINDS])

    # --- symbols --------------------------------------------------------------------

    def find_symbols(self, name: str, repo: str = "", prefix: bool = False,
                     limit: int = 50, *, principal: Principal = LOCAL) -> list[SymbolHit]:
        """Symbols whose name or qualified name equals ``name`` ignoring case (or starts with
        it when ``prefix``), ranked: exact case > case-insensitive > prefix, then by path."""
        name = _symbol_name(name)
        limit = _limit(limit, 50)
        flt = self._filter(principal, repo)
        if flt is None:
            return []
        lowered = name.lower()
        hits = []
        for field in ("qualified_name_lc", "name_lc"):
            hits += self.store.find(flt, field, lowered, prefix=prefix, limit=MAX_LIMIT)
        hits = [h for h in _dedupe(hits) if h.payload.get("kind") not in _HIDDEN_KINDS]
        scored = sorted(((_match_kind(name, h.payload), h) for h in hits),
                        key=lambda mh: (_MATCH_ORDER[mh[0]], mh[1].payload["repo"],
                                        mh[1].payload["path"], mh[1].payload["start_line"]))
        commits: dict[str, str] = {}
        return [self._hit(h, match, score=1.0, commits=commits) for match, h in scored[:limit]]

    # --- callers --------------------------------------------------------------------

    def find_callers(self, name: str, repo: str = "", limit: int = 100, *,
                     principal: Principal = LOCAL) -> list[CallerHit]:
        """Call sites of ``name`` (bare, ``Class.method`` or module-qualified), ``resolved``
        ones first (tied to the definition through imports, its module or its class), then
        ``name_only`` ones (the last dotted segment matched); each by repo, path, line."""
        name = _symbol_name(name)
        limit = _limit(limit, 100)
        flt = self._filter(principal, repo)
        if flt is None:
            return []
        commits: dict[str, str] = {}
        found = [callgraph.caller_hit(site, confidence, self._commit(site.hit.payload["repo"], commits))
                 for site, confidence in callgraph.callers(self.store, flt, name)]
        found.sort(key=lambda s: (s.confidence != callgraph.RESOLVED, s.repo, s.path, s.line, s.caller))
        return found[:limit]

    def find_callees(self, name: str, repo: str = "", limit: int = 100, *,
                     principal: Principal = LOCAL) -> list[CallerHit]:
        """Calls made by the definitions ``name`` means (as in ``find_callers``), in source
        order: ``callee`` as written, ``target`` resolved where possible (``resolved``), else
        ``name_only``."""
        name = _symbol_name(name)
        limit = _limit(limit, 100)
        flt = self._filter(principal, repo)
        if flt is None:
            return []
        commits: dict[str, str] = {}
        return [callgraph.caller_hit(site, callgraph.RESOLVED if site.target else callgraph.NAME_ONLY,
                                     self._commit(site.hit.payload["repo"], commits))
                for site in callgraph.sites(callgraph.definitions(self.store, flt, name))][:limit]

    def get_card(self, name: str, repo: str = "", budget_tokens: int = 800, *,
                 principal: Principal = LOCAL) -> Card:
        """The developer card of the definition ``name`` means (the first by repo and path
        when several do; a class or function before other kinds; of overloads the longest),
        trimmed to ``budget_tokens``
        (``card.CHARS_PER_TOKEN`` characters each). Raises ``NotFound`` when nothing in the
        caller's scope is named so."""
        name = _symbol_name(name)
        if not 0 <= budget_tokens <= MAX_CARD_TOKENS:
            raise InvalidArgument(f"budget_tokens: must be 0..{MAX_CARD_TOKENS}, got {budget_tokens}")
        flt = self._filter(principal, repo)
        defs = callgraph.definitions(self.store, flt, name) if flt is not None else []
        if not defs:
            raise NotFound(f"symbol {name!r} not found")
        # Overloads share a name: the longest definition is the implementation.
        best = min(defs, key=lambda h: (h.payload["kind"] not in ("class", "function", "method"),
                                        "test" in h.payload["path"], h.payload["repo"], h.payload["path"],
                                        h.payload["start_line"] - h.payload["end_line"])).payload
        fq = best.get("fq_name") or best["qualified_name"]
        file_flt = StoreFilter(repos=(best["repo"],), path=best["path"])
        file_points = [h.payload for h in self.store.find(file_flt, "path", best["path"], limit=MAX_LIMIT)]
        callers = self.find_callers(fq, limit=MAX_LIMIT, principal=principal)
        purpose = str(self.ledger.repo_meta(best["repo"]).get("purpose", ""))
        built = card.build(best, file_points, callers, self._commit(best["repo"], {}), purpose)
        return card.fit(built, budget_tokens or 800)

    # --- source ---------------------------------------------------------------------

    def read_symbol(self, repo: str, path: str, start_line: int, end_line: int, *,
                    principal: Principal = LOCAL) -> SourceText:
        """Lines ``start_line..end_line`` (1-based, inclusive; ``end_line`` 0 = to the end) of
        ``path`` at the indexed commit, read from the mirror's git objects, with secrets
        redacted exactly as in the index.

        Only a path the ledger knows and that is neither sensitive nor excluded is read; any
        other answers like a missing file."""
        validate.text("repo", repo, validate.MAX_REPO_CHARS)
        validate.repo_path("path", path)
        validate.line_range(start_line, end_line)
        commit = self._indexed_commit(principal, repo)
        repository = mirror.open_repo(str(mirror.mirror_dir(self.cfg.data_dir / "mirrors", repo)))
        blob = mirror.read_path(repository, commit, path)
        row = self.ledger.file(repo, path)
        if (row is None or row.reason in ("sensitive", "excluded") or classify.sensitive(path)
                or classify.path_excluded(path, self.cfg.index, self.cfg.repo(repo))):
            raise NotFound(f"{path}: no such file at {commit[:12]}")  # as mirror.read_path says
        if len(blob) > self.cfg.index.max_file_bytes:  # bounds the decode + redaction work
            raise InvalidArgument(f"{path}: {len(blob)} bytes, over index.max_file_bytes")
        source = blob.decode("utf-8", errors="replace").removeprefix("\ufeff")
        lines = redact.split_lines(redact.text(source, path)[0])
        if start_line > len(lines):
            raise InvalidArgument(f"lines: {path} has {len(lines)} lines, asked from {start_line}")
        end = min(end_line or len(lines), len(lines))
        return SourceText(repo, path, commit, start_line, end, "".join(lines[start_line - 1:end]))

    # --- repos ----------------------------------------------------------------------

    def list_repos(self, *, principal: Principal = LOCAL) -> list[RepoStatus]:
        """Every configured repo in the caller's scope with its ledger state."""
        return [self._status(r.name) for r in self.cfg.repos if principal.allows(r.name)]

    def sync_repo(self, name: str, *, principal: Principal = LOCAL) -> RepoStatus:
        """Sync ``name`` now (blocking) and return its status. Needs the ``admin`` role."""
        if not principal.is_admin:
            raise PermissionDenied("sync: needs the 'admin' role")
        validate.text("name", name, validate.MAX_REPO_CHARS)
        if self.cfg.repo(name) is None or not principal.allows(name):
            raise NotFound(f"repo {name!r} is not configured")
        if self._sync is None:
            raise InvalidArgument("sync: this daemon was started without a sync runner")
        self._sync(name)
        return self._status(name)

    def watch_progress(self, repo: str = "", once: bool = False, *, principal: Principal = LOCAL,
                       alive: Callable[[], bool] = lambda: True) -> Watch:
        """A stream of ``progress.Progress`` for ``repo`` (every configured repo in the
        caller's scope when ``""``, in config order): current states, then each change
        until cancelled (``Watch.cancel``), ``alive()`` is false or the daemon stops;
        ``once`` ends after the current states. ``NotFound`` for a repo outside the scope
        (like an unknown one); ``ResourceExhausted`` when too many streams are open."""
        validate.text("repo", repo, validate.MAX_REPO_CHARS)
        scope = [r.name for r in self.cfg.repos if principal.allows(r.name)]
        if repo and repo not in scope:
            raise NotFound(f"repo {repo!r} is not configured")
        return self.progress.watch([repo] if repo else scope, once=once, alive=alive)

    def _status(self, name: str) -> RepoStatus:
        repo_cfg = self.cfg.repo(name)
        row = self.ledger.repo(name)
        if row is None:
            return RepoStatus(name, credentials.redact_url(repo_cfg.url) if repo_cfg else "",
                              repo_cfg.branch if repo_cfg else "", "", 0, 0, 0, 0.0, "pending", "")
        meta = self.ledger.repo_meta(name)
        return RepoStatus(row.name, credentials.redact_url(repo_cfg.url if repo_cfg else row.url), row.branch,
                          row.indexed_commit, row.files, row.symbols, row.chunks,
                          row.last_sync_unix_s, str(row.state), credentials.redact_url(row.error),
                          purpose=str(meta.get("purpose", "")),
                          languages=tuple((str(k), int(v)) for k, v in meta.get("languages", [])),
                          packages=tuple(str(p) for p in meta.get("packages", [])),
                          pending_vectors=self.pending_vectors(name), lag_s=row.lag_s(time.time()))

    def lag_s(self, name: str) -> float:
        """Seconds repo ``name``'s index has been behind its fetched head (0 when caught up
        or never fetched)."""
        row = self.ledger.repo(name)
        return row.lag_s(time.time()) if row else 0.0

    def pending_vectors(self, name: str = "") -> int:
        """Points of repo ``name`` (all repos when ``""``) still waiting for a dense vector;
        0 with embeddings disabled (no point ever gets one, so none waits)."""
        return self.store.count_missing_dense(name) if self.embedder else 0

    # --- helpers --------------------------------------------------------------------

    def _filter(self, principal: Principal, repo: str, **kwargs: str) -> StoreFilter | None:
        """The store filter of the caller's scope narrowed to ``repo``; ``None`` when the
        scope is empty (the caller may see nothing)."""
        validate.text("repo", repo, validate.MAX_REPO_CHARS)
        scope = principal.scope(r.name for r in self.cfg.repos)
        if repo and repo not in scope:
            raise NotFound(f"repo {repo!r} is not configured")  # out of scope == unknown
        if not scope:
            return None
        return StoreFilter(repos=(repo,) if repo else scope, **kwargs)

    def _indexed_commit(self, principal: Principal, repo: str) -> str:
        if self.cfg.repo(repo) is None or not principal.allows(repo):
            raise NotFound(f"repo {repo!r} is not configured")
        row = self.ledger.repo(repo)
        if row is None or not row.indexed_commit:
            raise NotFound(f"repo {repo!r} has no indexed commit yet")
        return row.indexed_commit

    def _commit(self, repo: str, memo: dict[str, str]) -> str:
        if repo not in memo:
            row = self.ledger.repo(repo)
            memo[repo] = row.indexed_commit if row else ""
        return memo[repo]

    def _hit(self, hit: Hit, match: str, score: float | None = None,
             commits: dict[str, str] | None = None) -> SymbolHit:
        p = hit.payload
        return SymbolHit(
            repo=p["repo"], path=p["path"], language=p.get("language", ""), kind=p["kind"],
            name=p["name"], qualified_name=p["qualified_name"], parent=p.get("parent", ""),
            signature=p.get("signature", ""), docstring=p.get("docstring", ""),
            start_line=int(p["start_line"]), end_line=int(p["end_line"]),
            start_byte=int(p["start_byte"]), end_byte=int(p["end_byte"]),
            commit=self._commit(p["repo"], {} if commits is None else commits),
            score=hit.score if score is None else score,
            match=match, snippet=p.get("snippet", ""), id=str(hit.id))


_MATCH_ORDER = {"exact": 0, "case_insensitive": 1, "prefix": 2}


def _match_kind(name: str, payload: dict) -> str:
    if name in (payload["name"], payload["qualified_name"]):
        return "exact"
    lowered = name.lower()
    if lowered in (payload["name_lc"], payload["qualified_name_lc"]):
        return "case_insensitive"
    return "prefix"


def _dedupe(hits: list[Hit]) -> list[Hit]:
    seen: dict[str, Hit] = {}
    for hit in hits:
        seen.setdefault(hit.id, hit)
    return list(seen.values())


def code_share(query: str) -> float:
    """Share (0..1) of the query's whitespace-separated words that look like code."""
    words = query.split()
    return sum(1 for w in words if _CODE_WORD.search(w)) / len(words) if words else 0.0


def _has_wildcard(glob: str) -> bool:
    return any(c in glob for c in _WILDCARDS)


def _literal_prefix(glob: str) -> str:
    """The part of ``glob`` before its first wildcard: a store-side prefix filter."""
    cut = min((glob.index(c) for c in _WILDCARDS if c in glob), default=len(glob))
    return glob[:cut]


def _symbol_name(name: str) -> str:
    """``name`` validated (length, no NUL) and stripped; ``InvalidArgument`` if empty."""
    name = validate.text("name", name, validate.MAX_NAME_CHARS).strip()
    if not name:
        raise InvalidArgument("name: must not be empty")
    return name


def _limit(limit: int, default: int) -> int:
    if limit < 0 or limit > MAX_LIMIT:
        raise InvalidArgument(f"limit: must be 0..{MAX_LIMIT}, got {limit}")
    return limit or default
