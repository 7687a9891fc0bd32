"""The index path, composed: mirror -> ledger diff -> classify/parse -> chunk -> redact -> points -> store
-> ledger, then dense vectors behind (DESIGN.md decisions 1-4).

Stages never import each other; this module wires them. One file failing is recorded in the
ledger with its reason and never stops the others; one repo failing records its state and
error and keeps serving its last good index.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygit2

from coderecalld import logs, metrics, parse
from coderecalld.config import Config, RepoConfig
from coderecalld.embed import local as embed
from coderecalld.embed import sparse
from coderecalld.errors import CodeRecallError, MirrorError, StoreError
from coderecalld.files import classify, mirror, redact
from coderecalld.index import chunk, layout, points, resolve
from coderecalld.progress import DETACHED, Registry
from coderecalld.records import (ChangeStatus, FileChange, FileState, FileTerms, RepoState,
                                 SparseVector)
from coderecalld.store.ledger import FileRow, Ledger

#: Chunks embedded per store update: large enough to amortise the upsert, small enough that
#: progress is saved often (~5 s at 13 chunks/s). A shutdown waits for one model batch only.
EMBED_GROUP = 64
#: Skip reasons logged per file (``index.file_skipped``, level info): text a reader may
#: expect to find. Binary, unsupported, lock, excluded and vendored files are only counted
#: (``coderecall_files_skipped_total``, the ``index`` summary, the ledger).
#: Reasons a file is recorded as failed, not skipped: the parser raised, the mirror lacks
#: its blob.
FAILED_REASONS = frozenset({"parse_error", "missing_blob"})
NOTABLE_SKIPS = frozenset({"encoding", "too_large", "generated", "minified", "sensitive", "lfs_pointer"})
#: Points read from the store per ``embed_backlog`` round and sorted by length before
#: batching: most of the 2.8x of a whole-run sort (embed/local.py) at a bounded memory cost
#: (1,024 texts of at most ``chunk.DEFAULT_MAX_CHARS`` characters).
BACKLOG_WINDOW = 1024


@dataclass(slots=True)
class IndexReport:
    """What one ``index_repo`` run did. ``stages_s`` maps stage name to seconds."""

    repo: str
    commit: str = ""
    state: RepoState = RepoState.PENDING
    error: str = ""
    files_seen: int = 0
    files_changed: int = 0
    files_deleted: int = 0
    files_indexed: int = 0
    files_skipped: int = 0
    files_failed: int = 0
    symbols: int = 0
    chunks: int = 0
    #: Chunks this run wrote without a dense vector (the vector cache did not have it):
    #: the ones the dense worker will embed.
    vectors_missing: int = 0
    embedded: int = 0
    skipped_reasons: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    stages_s: dict[str, float] = field(default_factory=lambda: defaultdict(float))


@dataclass(frozen=True, slots=True)
class _Pending:
    point_id: str
    text: str


def _redacted(chunks: list[chunk.Chunk]) -> list[chunk.Chunk]:
    """Chunks with secrets replaced (before any vector, payload or log sees them)."""
    clean, counts = redact.chunks(chunks)
    for kind, n in counts.items():
        metrics.SECRETS_REDACTED.labels(type=kind).inc(n)
    return clean


def _file_terms(repo: str, path: str, blob: bytes, pts: list[Any], role: str,
                language: str) -> FileTerms:
    """The file-level index's record of one indexed file: ``sparse.file_vector`` of its
    text (secrets replaced as in its chunks), or no terms when no chunk of it is
    searchable (a blank or imports-only module: nothing a query may find, conformance case
    37). Every indexed file has one, so the index's count is the ledger's
    (``Pipeline._file_index_short``)."""
    if not any(p.sparse.indices for p in pts):
        return FileTerms(repo=repo, path=path, role=role, language=language,
                         sparse=SparseVector((), ()))
    text = redact.text(blob.decode("utf-8", "replace"), path)[0]
    return FileTerms(repo=repo, path=path, role=role, language=language,
                     sparse=sparse.file_vector(path, text))


class Pipeline:
    """Indexes configured repos into ``store``, recording progress in ``ledger``.

    ``embedder`` may be None (dense vectors disabled): points are then sparse-only.
    """

    progress: Registry = DETACHED  # Daemon.open sets the daemon's (WatchProgress)

    def __init__(self, cfg: Config, ledger: Ledger, store: Any, embedder: embed.Embedder | None):
        self.cfg = cfg
        self.ledger = ledger
        self.store = store
        self.embedder = embedder
        self.model_id = embedder.model_id if embedder else "none"
        self.mirrors_root = cfg.data_dir / "mirrors"
        #: Repos whose points ``embed_backlog`` embeds: the configured ones only, so a repo
        #: dropped from the config costs no model time (its points stay in the store,
        #: unsearched, until ``coderecalld verify --drop-unconfigured``). ``Jobs`` narrows
        #: it to this replica's repos when several replicas share one server store.
        self.backlog_repos: tuple[str, ...] = tuple(r.name for r in cfg.repos)
        self._stopping = threading.Event()

    def stop(self) -> None:
        """Ask a running index to return after its current file, and ``embed_backlog``
        after its current model batch (``embedding.batch_size`` texts: about a second on 2
        cores; shutdown)."""
        self._stopping.set()

    # --- one repo -------------------------------------------------------------------

    def index_repo(self, repo: RepoConfig, with_dense: bool = True) -> IndexReport:
        """Mirror ``repo``, index what changed since the ledger, then (optionally) embed.

        Never raises for repo-level faults: they land in the report and the ledger.
        """
        report = IndexReport(repo=repo.name)
        self.progress.start(repo.name)
        self.ledger.set_repo(repo.name, url=repo.url, branch=repo.branch, state=RepoState.SYNCING)
        try:
            result = self._timed(report, "mirror", mirror.sync, repo, self.mirrors_root)
        except MirrorError as exc:
            return self._fail(report, exc)
        report.commit = result.commit
        self.progress.update(repo.name, phase="diffing", commit=result.commit)
        self.ledger.set_repo(repo.name, branch=result.branch)
        self.ledger.note_fetched(repo.name, result.commit)  # starts the lag clock if behind
        if not result.commit:
            return self._finish(report, RepoState.EMPTY, "")
        self.ledger.set_repo(repo.name, state=RepoState.INDEXING)
        held_version = self.ledger.payload_version(repo.name)
        if held_version and held_version != points.PAYLOAD_VERSION:
            # Every point of the repo is rewritten, and an embedded store scans rewritten
            # points until its optimizers run (store.optimize_cron; ~3.5x slower queries
            # measured after a payload-16 re-index): docs/operations.md, "Upgrades".
            logs.warn("index.payload_upgrade", repo=repo.name, held=held_version,
                      current=points.PAYLOAD_VERSION,
                      advice="every file is re-indexed; `coderecalld index` optimizes at its "
                             "end, a serving daemon's queries scan the rewritten points until "
                             "`coderecalld optimize` or store.optimize_cron")
        if held_version != points.PAYLOAD_VERSION or self._file_index_short(repo.name):
            self.ledger.invalidate_files(repo.name)  # older payload: re-index every file once
            # Recorded now, not when the run ends: every file recorded from here on carries
            # this version and the others were just invalidated, so a run interrupted
            # (SIGTERM, a crash) resumes with the files it did instead of starting over.
            self.ledger.set_payload_version(repo.name, points.PAYLOAD_VERSION)
        try:
            self._index_commit(report, mirror.open_repo(result.git_dir), result.commit)
        except (MirrorError, StoreError) as exc:
            return self._fail(report, exc)
        if self._stopping.is_set():  # interrupted: the ledger holds what is done, the rest waits
            report.state = RepoState.PENDING
            self.ledger.set_repo(repo.name, state=RepoState.PENDING, error="interrupted by shutdown")
            self.progress.finish(report)
            return report
        if with_dense and self.embedder:
            report.embedded += self._timed(report, "embed", self.embed_repo, repo.name)
        return self._finish(report, RepoState.READY, result.commit)

    def _role(self, repo: str, path: str, imports: tuple[str, ...] | None = None,
              shape: layout.Layout | None = None) -> str:
        """``path``'s role (``classify.role``, with ``shape``'s test suites and bundled
        copies when the tree is known) under ``repo``'s configured overrides."""
        repo_cfg = self.cfg.repo(repo)
        return classify.role(path, repo_cfg.roles if repo_cfg else (), imports=imports,
                             suites=shape.test_suites if shape else (),
                             vendored=shape.vendored if shape else ())

    def _file_index_short(self, repo: str) -> bool:
        """Whether the file-level index holds fewer of ``repo``'s files than the ledger
        records as indexed (its shard lost, or a store copied without it): logged, and the
        caller re-indexes every file once (parse only: dense vectors come from the cache).
        A ledger count and an exact store count per sync."""
        row = self.ledger.repo(repo)
        indexed = row.files if row else 0
        held = self.store.count_files(repo)
        if held >= indexed:
            return False
        logs.warn("index.file_index_short", repo=repo, indexed=indexed, held=held)
        return True

    def _index_commit(self, report: IndexReport, repository: pygit2.Repository,
                      commit: str) -> None:
        """The lexical pass over what changed: parse, chunk, sparse vectors, store, ledger.
        Nothing of it is kept in memory past its file (dense vectors are found again in the
        store by ``embed_backlog``), so memory is bounded by the largest file, not the repo."""
        started = time.monotonic()
        repo_cfg = self.cfg.repo(report.repo)
        tree = list(mirror.tree_blobs(repository, commit))
        translations = classify.translation_dirs(path for path, _ in tree) if self.cfg.index.skip_translations else ()
        blobs = {path: blob for path, blob in tree
                 if not classify.path_excluded(path, self.cfg.index, repo_cfg, translations)}
        links = {path: link for path, link in mirror.tree_submodules(repository, commit).items()
                 if not classify.path_excluded(path, self.cfg.index, repo_cfg, translations)}
        changes = self.ledger.diff(report.repo, {**blobs, **{p: t for p, (t, _) in links.items()}})
        report.stages_s["diff"] += time.monotonic() - started
        report.files_seen = len(blobs)
        self.progress.update(report.repo, state="indexing", phase="indexing", files_total=len(changes))
        meta = self.ledger.repo_meta(report.repo)
        shape = self._timed(report, "layout", self._layout, report.repo, repository, blobs)
        changes = _rerolled(changes, blobs, meta.get("test_suites"), shape.test_suites)
        changes = _rerolled(changes, blobs, meta.get("vendored"), shape.vendored)
        # the files re-roled count in the total too (a newcomer saw "874/871 changed files")
        self.progress.update(report.repo, files_total=len(changes))
        for change in changes:
            if self._stopping.is_set():
                break
            if change.path in links and change.status is not ChangeStatus.DELETED:
                self._submodule(report, change, links[change.path][1])
            else:
                self._apply(report, repository, commit, change, shape)
            self.progress.files(report)

    def _submodule(self, report: IndexReport, change: FileChange, url: str) -> None:
        """Record a submodule (not followed: its code is another repository's) with the
        commit it pins as its blob id and its ``.gitmodules`` URL as the detail."""
        self._timed(report, "store", self.store.delete_file_except, report.repo, change.path, ())
        detail = f"url={url}" if url else "no .gitmodules entry"
        self.ledger.record_file(report.repo, FileRow(change.path, change.blob_id, FileState.SKIPPED,
                                                     "submodule", 0, 0, (), detail))
        report.files_skipped += 1
        report.skipped_reasons["submodule"] += 1
        metrics.file_skipped("submodule")

    def _layout(self, repo: str, repository: pygit2.Repository, blobs: dict[str, str]) -> layout.Layout:
        """The tree's layout (module names for call resolution), kept in the ledger for ListRepos."""
        shape = layout.layout(blobs, lambda path: _blob_or_empty(repository, blobs[path]),
                              lambda path: parse.language_for(path), repo)
        purpose = redact.text(shape.purpose, "README.md")[0]  # never store a secret, even here
        self.ledger.set_repo_meta(repo, {"purpose": purpose, "packages": list(shape.packages),
                                         "languages": [list(kv) for kv in shape.languages],
                                         "test_suites": sorted(shape.test_suites),
                                         "vendored": sorted(shape.vendored)})
        return shape

    def _apply(self, report: IndexReport, repository: pygit2.Repository, commit: str,
               change: FileChange, shape: layout.Layout | None = None) -> None:
        if change.status is ChangeStatus.DELETED:
            self._timed(report, "store", self.store.delete_file_except, report.repo, change.path, ())
            self._timed(report, "store", self.store.delete_files, report.repo, (change.path,))
            self.ledger.forget_file(report.repo, change.path)
            report.files_deleted += 1
            return
        report.files_changed += 1
        try:
            blob = mirror.read_blob(repository, change.blob_id)
        except MirrorError as exc:
            # a blob the mirror lacks (a partial clone, a snapshot without its largest
            # files): this file fails alone, recorded with no blob so the next sync tries
            # it again (drf's one missing 4 MiB gif had stopped the whole repo at 71 files)
            logs.error("index.file_failed", repo=report.repo, path=change.path, error=str(exc))
            report.files_failed += 1
            self._unindexed(report, change.path, "", classify.Verdict("skip", reason="missing_blob", detail=str(exc)))
            return
        lfs_tracked = mirror.attribute(repository, commit, change.path, "filter") == "lfs"
        try:
            chunks, verdict, symbols = self._timed(report, "parse", self._chunks, report.repo,
                                                   change.path, blob, lfs_tracked, shape)
        except (CodeRecallError, ValueError, RuntimeError, RecursionError) as exc:
            # One bad file never stops the rest: recorded as failed, retried when its blob changes.
            logs.error("index.file_failed", repo=report.repo, path=change.path, error=str(exc))
            chunks, symbols = [], 0
            verdict = classify.Verdict("skip", reason="parse_error", detail=str(exc))
            report.files_failed += 1
        if verdict.reason:
            self._unindexed(report, change.path, change.blob_id, verdict)
            return
        chunks = self._timed(report, "redact", _redacted, chunks)
        pts = self._timed(report, "vectors", self._points, chunks, commit, change.blob_id, shape)
        ids = [p.id for p in pts]
        self._timed(report, "store", self.store.upsert, pts)
        self._timed(report, "store", self.store.delete_file_except, report.repo, change.path, ids)
        # the file's role: a point of its own code (a Rust file's tests are role test)
        role = next((str(p.payload.get("role", "")) for p, c in zip(pts, chunks) if not c.test_code),
                    "") or self._role(report.repo, change.path, shape=shape)
        language = str(pts[0].payload.get("language", "")) if pts else verdict.language
        terms = self._timed(report, "vectors", _file_terms, report.repo, change.path, blob, pts,
                            role, language)
        self._timed(report, "store", self.store.upsert_files, (terms,))
        self.ledger.record_file(report.repo, FileRow(change.path, change.blob_id, FileState.INDEXED,
                                                     "", symbols, len(pts), tuple(ids)))
        report.files_indexed += 1
        report.symbols += symbols
        report.chunks += len(pts)
        report.vectors_missing += sum(p.dense is None for p in pts) if self.embedder else 0

    def _unindexed(self, report: IndexReport, path: str, blob_id: str, verdict: classify.Verdict) -> None:
        """Record ``path`` as not indexed for ``verdict.reason`` (its points dropped): failed
        (``FAILED_REASONS``, tried again when its blob changes; ``blob_id`` ``""``: at every
        sync) or skipped."""
        self._timed(report, "store", self.store.delete_file_except, report.repo, path, ())
        self._timed(report, "store", self.store.delete_files, report.repo, (path,))
        state = FileState.FAILED if verdict.reason in FAILED_REASONS else FileState.SKIPPED
        self.ledger.record_file(report.repo, FileRow(path, blob_id, state, verdict.reason, 0, 0, (), verdict.detail))
        report.files_skipped += state is FileState.SKIPPED
        report.skipped_reasons[verdict.reason] += 1
        metrics.file_skipped(verdict.reason)
        if verdict.reason in NOTABLE_SKIPS:  # text a reader may expect indexed: say which and why
            logs.event("index.file_skipped", repo=report.repo, path=path,
                       reason=verdict.reason, detail=verdict.detail)

    def loose_file(self, repo: str, path: str,
                   blob: bytes) -> tuple[list[Any], list[tuple[str, str]], classify.Verdict, int]:
        """One blob outside any commit (an IndexOverlay file) as a sync would store it:
        (points, with dense vectors where the cache has them; (point id, text) pairs still
        to embed; verdict; symbol count). No layout, so module names and call targets stay
        unresolved. An excluded path, a skip or a parse failure is a verdict with a reason."""
        if classify.path_excluded(path, self.cfg.index, self.cfg.repo(repo)):
            return [], [], classify.Verdict("skip", reason="excluded"), 0
        try:
            chunks, verdict, symbols = self._chunks(repo, path, blob, False)
        except (CodeRecallError, ValueError, RuntimeError, RecursionError) as exc:
            return [], [], classify.Verdict("skip", reason="parse_error", detail=str(exc)), 0
        if verdict.reason:
            return [], [], verdict, 0
        pts = self._points(_redacted(chunks), "", "")
        pending = [(p.id, p.payload["embed_text"]) for p in pts
                   if p.dense is None and self.embedder and p.payload["embed_text"].strip()]
        return pts, pending, verdict, symbols

    def _chunks(self, repo: str, path: str, blob: bytes, lfs_tracked: bool,
                shape: layout.Layout | None = None) -> tuple[list[chunk.Chunk], classify.Verdict, int]:
        """(chunks, verdict, symbol count) for one blob; the verdict has a reason if skipped."""
        first_line = blob[:256].split(b"\n", 1)[0]  # enough for any #! line
        verdict = classify.classify(path, blob, parse.language_for(path, first_line),
                                    self.cfg.index.max_file_bytes, lfs_tracked)
        if verdict.kind == "skip":
            return [], verdict, 0
        budget = {"max_lines": self.cfg.index.max_chunk_lines,
                  "max_chunk_chars": self.cfg.index.max_chunk_chars}
        if verdict.kind == "text":
            return chunk.sections(repo, path, blob, **budget), verdict, 0
        parsed = parse.symbols(blob, verdict.language, path)
        module = shape.module(path) if shape else ""
        # A module chunk is named by its import path where the language has one that names
        # a file (Python: `requests.adapters`, what a card's `import:` line says); a JS module
        # (`src/util`) or a Go package (one per directory) keeps its path-based name.
        named = module if parse.registry.spec_for(parsed.language).resolver == "python" else ""
        found = chunk.chunks(repo, path, blob, parsed, **budget, module_name=named)
        java_dirs = shape.java_dirs if shape else None
        aliases = shape.js_aliases(path) if shape else ()
        crate = shape.rust_crate(path) if shape else ""
        return (resolve.chunks(found, parsed, path, module, java_dirs, aliases, crate), verdict,
                len(parsed.symbols))

    def _points(self, chunks: list[chunk.Chunk], commit: str,
                blob_id: str, shape: layout.Layout | None = None) -> list[Any]:
        """Store points of one file's chunks; a dense vector is attached when the vector
        cache has it (a rename, a revert, a copy: DESIGN.md decision 3), else left to
        ``embed_backlog``. ``shape``: the tree's layout, for roles (``_role``)."""
        hashes = [embed.text_hash(self.model_id, c.embed_text) for c in chunks]
        cached = self.embedder.cached(hashes) if self.embedder else {}
        pts, missing = [], 0
        for c, h in zip(chunks, hashes):
            # A chunk with nothing to search never gets a vector, even one the cache holds
            # for its blank text (the backlog never embeds it: ``store.missing_dense``).
            dense = cached.get(h) if points.searchable(c) else None
            point = points.to_point(c, commit=commit, blob_id=blob_id, model_id=self.model_id,
                                    text_hash=h, dense=None if dense is None else tuple(dense.tolist()),
                                    role=self._role(c.repo, c.path,
                                                    c.imports if c.language == "python" else None,
                                                    shape))
            pts.append(point)
            if dense is None and self.embedder and points.searchable(c):  # else nothing to embed
                missing += 1
        if self.embedder:
            metrics.embeddings("reused", len(pts) - missing)
        return pts

    # --- dense vectors, behind the lexical index ------------------------------------------

    def _embed(self, pending: list[_Pending], on_group: Callable[[int], None] | None = None) -> int:
        """Embed ``pending`` and write the vectors, ``EMBED_GROUP`` points per store update;
        ``stop()`` is checked before every model batch (``embedder.batch_size`` texts), so a
        shutdown waits for one batch, not a group. What was embedded before a stop is
        written (and cached): nothing is computed twice. ``on_group(n)`` after each write."""
        if not self.embedder:
            return 0
        done = 0
        batch = max(1, int(getattr(self.embedder, "batch_size", 8) or 8))
        # Sorted by length across the whole run, not just within a group: batches of
        # similar length pad less (measured 2.8x faster than file order, see embed/local.py).
        pending = sorted(pending, key=lambda p: len(p.text))
        for start in range(0, len(pending), EMBED_GROUP):
            group = pending[start:start + EMBED_GROUP]
            vectors: list[Any] = []
            for at in range(0, len(group), batch):
                if self._stopping.is_set():
                    break
                vectors += self.embedder.embed([p.text for p in group[at:at + batch]])
            if vectors:
                self.store.set_dense({p.point_id: v.tolist() for p, v in zip(group, vectors)})
                done += len(vectors)
                if on_group is not None:
                    on_group(len(vectors))
            if self._stopping.is_set():
                break
        return done

    def embed_repo(self, name: str) -> int:
        """``embed_backlog`` of repo ``name`` alone, its progress reported per group
        (phase ``embedding``, ``vectors_done``, ``pending_vectors``); returns how many
        vectors were added."""
        left = self.store.count_missing_dense(name) if self.embedder else 0
        if not left:  # nothing to do: no phase change to show
            if self.progress.get(name).pending_vectors:
                self.progress.update(name, pending_vectors=0)
            return 0
        done = 0

        def on_group(n: int) -> None:
            nonlocal done
            done += n
            self.progress.embedding(name, done, max(0, left - done))

        self.progress.embedding(name, 0, left)
        total = self.embed_backlog(repos=(name,), on_group=on_group)
        self.progress.embedded(name, self.store.count_missing_dense(name))
        return total

    def embed_backlog(self, max_points: int = 1_000_000, repos: tuple[str, ...] | None = None,
                      on_group: Callable[[int], None] | None = None) -> int:
        """Embed points that the store holds without a dense vector (after a crash, or after
        lexical-first indexing) of ``repos`` (default ``backlog_repos``: the configured
        ones; none when empty), until none is left, ``max_points`` were embedded, or
        ``stop()`` is called. ``on_group(n)`` after each store update. Returns how many
        were embedded."""
        repos = self.backlog_repos if repos is None else repos
        if not self.embedder or not repos:
            return 0
        total = 0
        while total < max_points and not self._stopping.is_set():
            hits = self.store.missing_dense(limit=min(BACKLOG_WINDOW, max_points - total),
                                            repos=repos)
            if not hits:
                break
            total += self._embed([_Pending(h.id, h.payload.get("embed_text", "")) for h in hits],
                                 on_group)
        return total

    # --- bookkeeping ----------------------------------------------------------------

    @staticmethod
    def _timed(report: IndexReport, stage: str, fn: Any, *args: Any) -> Any:
        started = time.monotonic()
        try:
            return fn(*args)
        finally:
            report.stages_s[stage] += time.monotonic() - started

    def _fail(self, report: IndexReport, exc: Exception) -> IndexReport:
        error = mirror.escaped(str(exc))  # a message may quote a name that is not UTF-8
        logs.error("index.repo_failed", repo=report.repo, error=error)
        report.state, report.error = RepoState.ERROR, error
        self.ledger.set_repo(report.repo, state=RepoState.ERROR, error=error, synced=True)
        metrics.index_run(report)
        self.progress.finish(report)
        return report

    def _finish(self, report: IndexReport, state: RepoState, commit: str, error: str = "") -> IndexReport:
        report.state, report.error = state, error
        kwargs: dict[str, Any] = {"state": state, "error": error, "synced": True}
        if commit or state is RepoState.EMPTY:
            kwargs["indexed_commit"] = commit
            self.ledger.set_payload_version(report.repo, points.PAYLOAD_VERSION)
        self.ledger.set_repo(report.repo, **kwargs)
        metrics.index_run(report)
        self.progress.finish(report)
        logs.event("index.repo_done", repo=report.repo, commit=report.commit, state=str(state),
                   files=report.files_indexed, chunks=report.chunks, embedded=report.embedded,
                   duration_s=sum(report.stages_s.values()))
        return report


def _blob_or_empty(repository: pygit2.Repository, blob_id: str) -> bytes:
    """A blob's bytes for the layout (a manifest, a README), ``b""`` when the mirror lacks
    it: one missing file describes nothing, and stops nothing."""
    try:
        return mirror.read_blob(repository, blob_id)
    except MirrorError:
        return b""


def _rerolled(changes: list[FileChange], blobs: dict[str, str], before: list[str] | None,
              after: frozenset[str]) -> list[FileChange]:
    """``changes`` with every unchanged file at or under a path that became or stopped
    being a test suite or a bundled copy (``before``, the last sync's
    ``Layout.test_suites`` or ``Layout.vendored``, ``after`` this one's; None: never
    recorded, nothing to compare) re-indexed too: a file's role reads its tree's suites
    and bundled copies (``classify.role``), and an incremental sync re-roles only what it
    re-indexes (a review: a helper kept its role after a test file was added beside it).
    Its blob is unchanged: its dense vectors come from the cache."""
    if before is None:
        return changes
    moved = set(before) ^ set(after)
    if not moved:
        return changes
    held = {c.path for c in changes}
    extra = [FileChange(path, ChangeStatus.MODIFIED, blob, blob) for path, blob in sorted(blobs.items())
             if path not in held and any(path == d or path.startswith(d + "/") for d in moved)]
    return changes + extra
