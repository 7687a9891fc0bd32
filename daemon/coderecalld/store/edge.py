"""The embedded store: one Qdrant Edge shard in-process (``qdrant-edge-py``).

Layout under the store directory ``root``::

    root/current                       name of the active collection (one line)
    root/<collection>/identity.json    StoreIdentity of that collection
    root/<collection>/shard/           the EdgeShard (segments, WAL, edge_config.json)
    root/<collection>/files/           the file index's EdgeShard (``base`` docstring)

``<collection>`` is ``StoreIdentity.collection_name``, so each model / dimension / tokenizer
gets its own shard and vector spaces never mix (DESIGN.md decision 7). A rebuild for a new
model opens ``EdgeStore(..., staging=True)`` (does not touch ``current``), fills it, then
``activate()`` swaps ``current`` with an atomic rename. Each shard directory can be open in
one process only (the engine locks its WAL); a second opener gets ``StoreUnavailable``.
The file index is created empty when missing (a collection built before it existed), and
moves with its collection directory.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import qdrant_edge as qe

from coderecalld import deadline
from coderecalld.errors import ConfigError, InvalidArgument, StoreError, StoreMismatch, StoreUnavailable
from coderecalld.records import FileTerms, Hit, PointRecord, SparseVector
from coderecalld.store.base import (
    DENSE,
    FACET_LIMIT,
    FILE_FIELDS,
    FILE_SPARSE,
    KEYWORD_FIELDS,
    MISSING_DENSE_FIELDS,
    PREFIX_FIELDS,
    SPARSE,
    TEXT_FIELDS,
    Settled,
    StoreFilter,
    StoreIdentity,
    check_dim,
    file_payload,
    file_point_id,
    filter_conditions,
    find_match,
    ranked_hits,
    to_hit,
    to_record,
)

POINTER_FILE = "current"
IDENTITY_FILE = "identity.json"
SHARD_DIR = "shard"
FILES_DIR = "files"
"""The file index's shard directory, inside the collection directory."""

UPSERT_BATCH = 256
"""Points per engine update. The lock is released between batches, so a query waits for
at most one batch of a large write."""
SETTLE_DELETED_SHARE = 0.01
"""Share of a shard's points deleted since it was loaded at which ``settle`` loads it
again (its IDF statistics count them until then). 1 %: a store of 80k points is loaded
again after 800 deletions (a few files moved or deleted), in about 2 s."""
SETTLE_NOW_MAX_POINTS = 250_000
"""Points a shard may hold for ``settle(now=True)`` (after a sync, requests waiting on the
store's lock) to load it again: a load takes about 15 µs a point here, so at most ~4 s.
Measured on synthetic chunks with dense vectors and payloads (``docs/operations.md``),
close + load, two other jobs on the 2 cores: 200k points 2.7-3.6 s, 1M points 17-20 s. A
larger shard is left to the next ``settle()`` without ``now`` (``Jobs.optimize``: the
quiet hour of ``store.optimize_cron``, when the optimizers hold the process anyway) or a
restart."""
FACET_CACHE = 4096
"""``facet_any`` answers kept per store (one per filter, fields and value; a popular
module's re-export edges are a few hundred short strings)."""
ALL_POINTS_PAGE = 512
"""Points per page of ``all_points``' scroll."""

_T = TypeVar("_T")


def _index_schemas() -> dict[str, Any]:
    """Payload indexes of a new shard (DESIGN.md "Chunk payload")."""
    schemas: dict[str, Any] = {f: qe.PayloadSchemaType.Keyword for f in KEYWORD_FIELDS}
    # is_tenant lets the engine co-locate a repo's points: most queries are repo-scoped.
    schemas["repo"] = qe.KeywordIndexParams(is_tenant=True)
    for field in PREFIX_FIELDS:
        schemas[field] = qe.KeywordIndexParams(prefix=True)
    for field in TEXT_FIELDS:
        schemas[field] = qe.TextIndexParams(tokenizer=qe.TokenizerType.Whitespace, lowercase=True)
    return schemas


def _file_index_schemas() -> dict[str, Any]:
    """Payload indexes of the file index: every ``FILE_FIELDS`` keyword, ``path`` also by
    prefix (``StoreFilter.path_prefix``), ``repo`` as the tenant."""
    schemas: dict[str, Any] = {f: qe.PayloadSchemaType.Keyword for f in FILE_FIELDS}
    schemas["repo"] = qe.KeywordIndexParams(is_tenant=True)
    schemas["path"] = qe.KeywordIndexParams(prefix=True)
    return schemas


def _file_index_config() -> qe.EdgeConfig:
    """The file index's shard: no dense vector, one sparse vector with IDF over files."""
    return qe.EdgeConfig(
        vectors={}, sparse_vectors={FILE_SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)})


class EdgeStore:
    """``store.base.Store`` over an embedded Qdrant Edge shard.

    Args:
        path: the store directory (created if missing).
        dense_dim: size of the dense vectors (cosine distance).
        model_id: embedding model name and revision.
        sparse_version: ``sparse.TOKENIZER_VERSION``.
        staging: open (or create) the collection for this identity without reading or
            changing ``current``; see ``activate``.
        quantization: ``""`` (float32 vectors only) or ``"int8"`` (scalar quantization,
            quantile 0.99, quantized copy pinned in RAM; see ``edge_options``).
        on_disk: keep the original dense vectors on disk (mmap, read on demand) instead
            of cached in RAM. Both options are applied at every open (written to the shard's
            ``edge_config.json``) and built by ``optimize``: a segment the optimizer has not
            rewritten is a plain, unquantized one.

    Raises:
        StoreMismatch: ``current`` names a collection built for another identity (the
            message names both), or a collection's ``identity.json`` disagrees with its name.
        StoreUnavailable: the shard cannot be created or loaded (e.g. open in another process).
        StoreError: ``current`` or ``identity.json`` is unreadable.

    Thread safety: one ``EdgeShard`` object is shared by the gRPC worker threads and the
    indexing thread. The binding does not promise safe concurrent use, ``close`` must not
    race an in-flight call, and some operations here are read-then-write pairs (count then
    delete, retrieve then update) that must not interleave with another thread's writes. So
    every shard call holds ``self._lock``. A hybrid query took ~0.4 ms at 3k points here
    (~5 ms at 100k, DESIGN.md) and 4 unlocked threads ran no faster than one, so the lock
    costs little throughput.
    """

    def __init__(
        self,
        path: str | Path,
        dense_dim: int,
        model_id: str,
        sparse_version: str,
        *,
        staging: bool = False,
        quantization: str = "",
        on_disk: bool = False,
    ) -> None:
        self.identity = StoreIdentity(model_id, int(dense_dim), sparse_version)
        self.options = edge_options(quantization, on_disk)
        #: Engine search parameters of the dense retriever (``dense_search`` and the dense
        #: prefetch of ``hybrid``); None = the engine's defaults (HNSW where built, int8 with
        #: rescoring where quantized). Benchmarks set ``qe.SearchParams(exact=True, ...)``.
        self.dense_params: qe.SearchParams | None = None
        self.root = Path(path)
        self._lock = threading.RLock()
        #: ``facet_any`` answers per (filter, key, field, value), dropped by every write
        #: (``_generation``): this process is the store's only writer.
        self._facets: OrderedDict[tuple[Any, ...], frozenset[str]] = OrderedDict()
        self._facets_lock = threading.Lock()
        self._generation = 0
        #: Points deleted from the chunk shard and from the file index since each was loaded
        #: (``settle``).
        self._deleted = [0, 0]
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"store {self.root}: cannot create directory: {exc}") from exc
        active = None if staging else _read_pointer(self.root)
        if active is not None and active != self.identity.collection_name:
            raise StoreMismatch(
                f"store {self.root}: active collection {active!r} was built for "
                f"{_describe_identity(self.root / active)}; requested {self.identity}"
            )
        self.collection = self.identity.collection_name
        self._files: qe.EdgeShard | None = None
        self._shard: qe.EdgeShard | None = self._open_collection(self.root / self.collection)
        try:
            self._files = _open_shard(self.root / self.collection / FILES_DIR,
                                      _file_index_config(), _file_index_schemas())
        except StoreError:
            self.close()  # releases the chunk shard's WAL lock
            raise
        if not staging and active is None:
            try:
                self.activate()
            except StoreError:
                self.close()
                raise

    # --- lifecycle ---------------------------------------------------------------------

    def activate(self) -> None:
        """Point ``current`` at this collection (atomic rename; readers see old or new)."""
        _write_atomic(self.root / POINTER_FILE, self.collection + "\n")

    def flush(self) -> None:
        """Make every acknowledged write durable (the WAL already survives a crash)."""
        self._run("flush", lambda shard: shard.flush())
        self._run("flush files", lambda shard: shard.flush(), files=True)

    def optimize(self) -> bool:
        """Run the engine's segment optimizers until none has work: merge small segments,
        build the HNSW graphs and the int8 copies (``quantization``), move vectors to disk
        (``on_disk``). Edge never does this by itself: without it every point stays in plain
        appendable segments, searched by brute force. Returns True if anything changed.

        Blocks every thread of the process while it runs (the binding holds the GIL;
        measured: no other Python thread ran during a 20k-point optimize): docs/performance.md
        has its cost per size. The daemon calls it where nothing is served (``Jobs.optimize``:
        the end of ``coderecalld index``, ``coderecalld optimize``, ``store.optimize_cron``).
        Optimizes the chunk shard, then the file index.
        """
        chunks = self._run("optimize", lambda shard: shard.optimize())
        files = self._run("optimize files", lambda shard: shard.optimize(), files=True)
        return bool(chunks or files)

    def settle(self, now: bool = False) -> Settled:
        """Load a shard again (the chunks', the file index's) once the points deleted from
        it since it was loaded reach ``SETTLE_DELETED_SHARE`` of the points it holds: the
        engine keeps counting a deleted point in the statistics its sparse IDF is taken
        from until the shard is loaded again (``optimize`` leaves them; measured on
        qdrant-edge-py 0.9.0: 200 deleted points holding "alpha" left "alpha"'s IDF that of
        240 points, not the 40 left, so a search ranked other words' chunks first until a
        reload). An index synced commit by commit answered differently from one built at
        its last commit (two newcomers' repositories moved across years of history). Under
        the store's lock: requests wait for it. With ``now`` (after a sync, while serving)
        a shard of more than ``SETTLE_NOW_MAX_POINTS`` points is deferred, not loaded:
        requests would wait ~15 s at 1M. Returns the shards loaded again and deferred.
        Raises ``StoreUnavailable`` when a shard cannot be loaded again (the store is then
        closed), ``StoreError`` when it cannot be closed."""
        with self._lock:
            reloaded = deferred = 0
            for files, attr in ((False, "_shard"), (True, "_files")):
                shard = getattr(self, attr)
                if shard is None:
                    raise StoreUnavailable(f"store {self.root / self.collection}: settle: closed")
                held = int(shard.info().points_count)
                if self._deleted[files] == 0 or self._deleted[files] < SETTLE_DELETED_SHARE * held:
                    continue
                if now and held > SETTLE_NOW_MAX_POINTS:
                    deferred += 1
                    continue
                directory = self.root / self.collection / (FILES_DIR if files else SHARD_DIR)
                config, schemas = ((_file_index_config(), _file_index_schemas()) if files
                                   else (self._config(), _index_schemas()))
                try:
                    shard.flush()
                    shard.close()
                except Exception as exc:
                    raise StoreError(f"store {directory}: settle: {exc}") from exc
                finally:
                    setattr(self, attr, None)  # closed or not, this handle is no longer used
                setattr(self, attr, _open_shard(directory, config, schemas))
                self._deleted[files] = 0
                reloaded += 1
            return Settled(reloaded, deferred)

    def repos(self) -> set[str] | None:
        """Every ``repo`` value the collection holds (an exact facet over the keyword index:
        ~0.2 s at 1M points here). This process is the store's only writer, so the answer
        stays a superset of what it holds until this process writes another repo."""
        answer = self._run("repos", lambda shard: shard.facet(
            qe.FacetRequest(key="repo", limit=1_000_000, exact=True)))
        return {str(hit.value) for hit in answer.hits}

    def info(self) -> dict[str, int]:
        """``points``, ``segments`` and ``indexed_vectors`` (the engine's count over every
        vector index: each point's sparse vector, plus its dense one once ``optimize`` has
        built a graph over its segment)."""
        info = self._run("info", lambda shard: shard.info())
        return {"points": info.points_count, "segments": info.segments_count,
                "indexed_vectors": info.indexed_vectors_count}

    def close(self) -> None:
        """Flush and close both shards; later calls raise ``StoreUnavailable``. Idempotent."""
        with self._lock:
            shards = [s for s in (self._shard, self._files) if s is not None]
            self._shard = self._files = None
            failed: Exception | None = None
            for shard in shards:  # close each even when another fails
                try:
                    try:
                        shard.flush()
                    finally:
                        shard.close()
                except Exception as exc:  # bare Exception from the binding, as in _run
                    failed = failed or exc
            if failed is not None:
                raise StoreError(f"store {self.root / self.collection}: close: {failed}") from failed

    def __enter__(self) -> EdgeStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- writes ----------------------------------------------------------------------

    def upsert(self, points: Sequence[PointRecord]) -> None:
        """Insert or replace ``points`` in batches of ``UPSERT_BATCH``."""
        for start in range(0, len(points), UPSERT_BATCH):
            batch = [self._point(p) for p in points[start : start + UPSERT_BATCH]]
            op = qe.UpdateOperation.upsert_points(batch)
            try:
                self._run(f"upsert {len(batch)} points", lambda shard: shard.update(op))
            finally:
                self._written()

    def set_dense(self, vectors: Mapping[str, Sequence[float]]) -> int:
        """Add dense vectors to existing points; ids deleted meanwhile are skipped (the
        engine would otherwise reject the batch after applying part of it).

        Returns:
            How many points got a vector.
        """
        done = 0
        items = list(vectors.items())
        for start in range(0, len(items), UPSERT_BATCH):
            batch = dict(items[start : start + UPSERT_BATCH])
            for vec in batch.values():
                self._check_dim(vec)
            done += self._run(f"set_dense {len(batch)} points", lambda s: _set_dense(s, batch))
        return done

    def delete_file_except(self, repo: str, path: str, keep_ids: Collection[str]) -> int:
        """Delete ``repo``/``path`` points whose id is not in ``keep_ids``; returns the count.

        Matches the path exactly (any characters, any depth) on the keyword index.
        """
        must = [_match("repo", repo), _match("path", path)]
        must_not = [qe.HasIdCondition(set(keep_ids))] if keep_ids else None
        return self._delete(f"delete {repo}:{path}", qe.Filter(must=must, must_not=must_not))

    def delete_repo(self, repo: str) -> int:
        """Delete every point of ``repo`` and its file-index points; returns the chunk count."""
        qfilter = qe.Filter(must=[_match("repo", repo)])
        deleted = self._delete(f"delete repo {repo}", qfilter)
        self._delete(f"delete repo {repo} files", qfilter, files=True)
        return deleted

    # --- the file index ----------------------------------------------------------------

    def upsert_files(self, files: Sequence[FileTerms]) -> None:
        """Insert or replace one point per file in batches of ``UPSERT_BATCH`` (id
        ``file_point_id``); a file with an empty sparse vector is stored without terms."""
        for start in range(0, len(files), UPSERT_BATCH):
            batch = [_file_point(f) for f in files[start : start + UPSERT_BATCH]]
            op = qe.UpdateOperation.upsert_points(batch)
            self._run(f"upsert {len(batch)} files", lambda shard: shard.update(op), files=True)

    def delete_files(self, repo: str, paths: Collection[str]) -> int:
        """Delete the file points of ``repo`` whose path is one of ``paths`` (exact);
        returns the count (``0`` for ``()``)."""
        if not paths:
            return 0
        qfilter = qe.Filter(must=[_match("repo", repo), qe.FieldCondition(
            key="path", match=qe.MatchAny(list(paths)))])
        return self._delete(f"delete {len(paths)} files of {repo}", qfilter, files=True)

    def file_search(self, sparse: SparseVector, flt: StoreFilter, limit: int) -> list[Hit]:
        """Best files by IDF-weighted sparse dot product on ``FILE_SPARSE``; payload
        ``FILE_FIELDS``; ``flt.kind`` ignored; ``[]`` for an empty vector or ``limit <= 0``."""
        if not sparse.indices or limit <= 0:
            return []
        request = qe.QueryRequest(
            limit=limit, query=qe.Query.Nearest(_sparse(sparse), using=FILE_SPARSE),
            filter=_to_filter(replace(flt, kind="")),  # a file has no kind
            with_payload=qe.PayloadSelector.Include(list(FILE_FIELDS)))
        points = self._run("file_search", lambda shard: shard.query(request), files=True)
        return ranked_hits(points)

    def count_files(self, repo: str = "") -> int:
        """Exact number of file points (of ``repo`` when given)."""
        qfilter = qe.Filter(must=[_match("repo", repo)]) if repo else None
        request = qe.CountRequest(exact=True, filter=qfilter)
        return self._run("count_files", lambda shard: shard.count(request), files=True)

    # --- queries ---------------------------------------------------------------------

    def hybrid(
        self,
        dense: Sequence[float] | None,
        sparse: SparseVector,
        flt: StoreFilter,
        limit: int,
        prefetch_limit: int = 100,
        rrf_k: int = 60,
        weights: tuple[float, float] = (1.0, 1.0),
        method: str = "rrf",
        sparse_half: float = 1.0,
        fields: Sequence[str] | None = None,
    ) -> list[Hit]:
        """One Qdrant query: dense + sparse prefetches fused by ``method``.

        ``"rrf"``: score = ``sum_i 1 / (rrf_k - 1 + (rank_i + 1) / weights[i])`` over the
        prefetches that returned the point, ``rank_i`` 0-based: Qdrant's weighted RRF, which
        is ``1 / (rrf_k + rank_i)`` at weight 1 (RRF and k=60 from Cormack et al., SIGIR
        2009) and 0 at a weight <= 0 (pinned by tests/integration/test_store_congruence.py).
        ``"dbsf"``: Qdrant's distribution-based score fusion (weights ignored).
        ``"linear"``: a score formula over both prefetches,
        ``weights[0] * cosine + weights[1] * s / (s + sparse_half)`` with ``s`` the sparse
        (BM25) score, saturated into 0..1 so it adds to a cosine on a comparable scale; a
        prefetch that did not return the point adds 0. The filter applies inside both
        prefetches. Sparse only when ``dense`` is None; ``[]`` when ``limit <= 0`` or there
        is nothing to search with. ``fields``: the payload keys to return (None: all).
        """
        qfilter = _to_filter(flt)
        prefetches, used = [], []
        if dense is not None:
            self._check_dim(dense)
            query = qe.Query.Nearest(list(dense), using=DENSE)
            prefetches.append(qe.Prefetch(limit=prefetch_limit, query=query, filter=qfilter,
                                          params=self.dense_params))
            used.append((weights[0], False))
        if sparse.indices:
            query = qe.Query.Nearest(_sparse(sparse), using=SPARSE)
            prefetches.append(qe.Prefetch(limit=prefetch_limit, query=query, filter=qfilter))
            used.append((weights[1], True))
        if not prefetches or limit <= 0:
            return []
        if method == "linear":
            fusion: Any = _linear_formula(used, sparse_half)
        elif method == "dbsf":
            fusion = qe.Fusion.Dbsf()
        else:
            fusion = qe.Fusion.Rrf(k=rrf_k, weights=[w for w, _ in used])
        return self._query(
            "hybrid",
            qe.QueryRequest(
                limit=limit, prefetches=prefetches, query=fusion, filter=qfilter,
                with_payload=_with_payload(fields),
            ),
        )

    def dense_search(self, dense: Sequence[float], flt: StoreFilter, limit: int,
                     fields: Sequence[str] | None = None) -> list[Hit]:
        """Nearest points by cosine similarity; points without a dense vector never appear.
        ``fields``: the payload keys to return (None: all; ``()``: none, ids and scores)."""
        self._check_dim(dense)
        query = qe.Query.Nearest(list(dense), using=DENSE)
        return self._single("dense_search", query, flt, limit, self.dense_params, fields)

    def sparse_search(self, sparse: SparseVector, flt: StoreFilter, limit: int,
                      fields: Sequence[str] | None = None) -> list[Hit]:
        """Best points by IDF-weighted sparse dot product; ``[]`` for an empty vector.
        ``fields`` as in ``dense_search``."""
        if not sparse.indices:
            return []
        query = qe.Query.Nearest(_sparse(sparse), using=SPARSE)
        return self._single("sparse_search", query, flt, limit, fields=fields)

    def sparse_scores(self, sparse: SparseVector, ids: Collection[str]) -> dict[str, float]:
        """The sparse score of each point of ``ids`` that shares a term with ``sparse``
        (the score ``sparse_search`` gives it; a point missing from the answer scores 0 or
        does not exist). One query filtered to ``ids``: the engine scores those points
        alone instead of walking the query terms' posting lists."""
        if not sparse.indices or not ids:
            return {}
        request = qe.QueryRequest(
            limit=len(ids), query=qe.Query.Nearest(_sparse(sparse), using=SPARSE),
            filter=qe.Filter(must=[qe.HasIdCondition(set(ids))]), with_payload=False)
        points = self._run("sparse_scores", lambda shard: shard.query(request))
        return {str(p.id): p.score for p in points}

    def dense_scores(self, dense: Sequence[float], ids: Collection[str]) -> dict[str, float]:
        """The cosine of each point of ``ids`` that has a dense vector (the score
        ``dense_search`` gives it, with its search parameters), in one query filtered to
        ``ids``, as ``sparse_scores``."""
        if not ids:
            return {}
        self._check_dim(dense)
        request = qe.QueryRequest(
            limit=len(ids), query=qe.Query.Nearest(list(dense), using=DENSE),
            filter=qe.Filter(must=[qe.HasIdCondition(set(ids))]), with_payload=False,
            params=self.dense_params)
        points = self._run("dense_scores", lambda shard: shard.query(request))
        return {str(p.id): p.score for p in points}

    def retrieve(self, ids: Sequence[str], fields: Sequence[str] | None = None) -> list[Hit]:
        """The points of ``ids`` that exist, in the order of ``ids``, score 1.0; ``fields``
        as in ``dense_search``."""
        if not ids:
            return []
        records = self._run("retrieve", lambda shard: shard.retrieve(
            list(ids), _with_payload(fields), False))
        found = {str(r.id): r for r in records}
        return [to_hit(found[i], 1.0) for i in ids if i in found]

    def find(
        self, flt: StoreFilter, field: str, value: str, prefix: bool = False, limit: int = 100
    ) -> list[Hit]:
        """Exact (or prefix) match on a keyword field, all-tokens match on a text field.

        Raises:
            InvalidArgument: unknown field, ``prefix`` on a field without a prefix index, or
                an empty ``value`` (it would match everything or nothing useful).
        """
        match = _MATCH[find_match(field, value, prefix)](value)
        return self._scroll(f"find {field}", flt, qe.FieldCondition(key=field, match=match), limit)

    def find_any(
        self, flt: StoreFilter, field: str, values: Collection[str], limit: int = 100,
        fields: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Points whose keyword ``field`` (a value or an array such as ``calls``) holds any
        of ``values``; ``[]`` when ``values`` is empty. ``fields``: the payload keys to
        return (None: all). Raises ``InvalidArgument`` for a field without a keyword index."""
        if field not in KEYWORD_FIELDS:
            raise InvalidArgument(f"find_any: {field!r} is not an indexed keyword field")
        if not values:
            return []
        cond = qe.FieldCondition(key=field, match=qe.MatchAny(list(values)))
        return self._scroll(f"find_any {field}", flt, cond, limit, fields)

    def facet_any(self, flt: StoreFilter, key: str, field: str, values: Collection[str],
                  limit: int = FACET_LIMIT) -> set[str]:
        """The distinct values of keyword ``key`` over the points whose keyword ``field``
        holds any of ``values``: exact facets over the keyword indexes, no payload decoded
        (the engine decodes a point's whole payload to read any field of it: ~0.1 ms for a
        2 KB payload here). One facet per value (the union is the same), each kept until
        this store is next written (up to ``FACET_CACHE`` of them, least recently used
        dropped first): the prefixes ``callgraph.aliases`` asks for (``pkg.mod``) recur
        across lookups, and a popular one costs ~20 µs per importing module (35 ms for
        1,491 modules at 1M points here). At most ``limit`` values per element of
        ``values``; ``set()`` when ``values`` is empty. Raises ``InvalidArgument`` for a
        ``key`` or ``field`` without a keyword index."""
        for name in (key, field):
            if name not in KEYWORD_FIELDS:
                raise InvalidArgument(f"facet_any: {name!r} is not an indexed keyword field")
        base = _must(flt)
        scope = (tuple(filter_conditions(flt)), key, field, limit)
        out: set[str] = set()
        missing = []
        with self._facets_lock:
            generation = self._generation
            for value in sorted(set(values)):
                found = self._facets.get((scope, value))
                if found is None:
                    missing.append(value)
                else:
                    self._facets.move_to_end((scope, value))
                    out |= found
        for value in missing:
            request = qe.FacetRequest(key=key, limit=limit, exact=True, filter=qe.Filter(
                must=[qe.FieldCondition(key=field, match=qe.MatchValue(value)), *base]))
            answer = self._run(f"facet {key}", lambda shard: shard.facet(request))
            found = frozenset(str(hit.value) for hit in answer.hits)
            out |= found
            with self._facets_lock:
                if self._generation == generation:  # no write since: still the answer
                    self._facets[(scope, value)] = found
                    while len(self._facets) > FACET_CACHE:
                        self._facets.popitem(last=False)
        return out

    def _written(self) -> None:
        """Forget every cached facet: the store changed (or may have)."""
        with self._facets_lock:
            self._generation += 1
            self._facets.clear()

    def find_overlap(
        self, flt: StoreFilter, field: str, values: Collection[str], min_count: int, limit: int = 100,
        fields: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Points whose keyword array ``field`` holds at least ``min_count`` of the distinct
        ``values``: one indexed ``min_should`` filter, never a scan. ``[]`` when ``values`` is
        empty. ``fields``: the payload keys to return (None: all). Raises
        ``InvalidArgument`` for a field without a keyword index or a ``min_count`` outside
        1..len(set(values))."""
        if field not in KEYWORD_FIELDS:
            raise InvalidArgument(f"find_overlap: {field!r} is not an indexed keyword field")
        distinct = sorted(set(values))
        if not distinct:
            return []
        if not 1 <= min_count <= len(distinct):
            raise InvalidArgument(f"find_overlap: min_count must be 1..{len(distinct)}, got {min_count}")
        if limit <= 0:
            return []
        conditions = [qe.FieldCondition(key=field, match=qe.MatchValue(v)) for v in distinct]
        qfilter = qe.Filter(must=_must(flt) or None,
                            min_should=qe.MinShould(conditions=conditions, min_count=min_count))
        request = qe.ScrollRequest(limit=limit, filter=qfilter, with_payload=_with_payload(fields))
        records, _ = self._run(f"find_overlap {field}", lambda shard: shard.scroll(request))
        return [to_hit(r, 1.0) for r in records]

    def missing_dense(self, limit: int, repos: Collection[str] = ()) -> list[Hit]:
        """Up to ``limit`` points without a dense vector, payload limited to
        ``MISSING_DENSE_FIELDS`` (the embedder needs nothing else); only of ``repos`` when
        given."""
        if limit <= 0:
            return []
        request = qe.ScrollRequest(
            limit=limit,
            filter=qe.Filter(must=_must(StoreFilter(repos=tuple(repos))) or None,
                             # a chunk with nothing to embed (chunk.chunks) never gets a vector
                             must_not=[qe.HasVectorCondition(DENSE), _match("embed_text", "")]),
            with_payload=qe.PayloadSelector.Include(list(MISSING_DENSE_FIELDS)),
        )
        records, _ = self._run("missing_dense", lambda shard: shard.scroll(request))
        return [to_hit(r, 1.0) for r in records]

    def all_points(self, repo: str) -> list[PointRecord]:
        """Every point of ``repo`` with its payload and vectors, in id order (paged scroll;
        for audits and tests: the crash-convergence test compares whole stores with it)."""
        qfilter = qe.Filter(must=[_match("repo", repo)])
        out: list[PointRecord] = []
        offset: Any = None
        while True:
            request = qe.ScrollRequest(offset=offset, limit=ALL_POINTS_PAGE, filter=qfilter,
                                       with_payload=True, with_vector=True)
            records, offset = self._run("all_points", lambda shard: shard.scroll(request))
            out += [to_record(r) for r in records]
            if offset is None:
                return out

    def count(self, flt: StoreFilter | None = None) -> int:
        """Exact number of points matching ``flt`` (all points when None)."""
        request = qe.CountRequest(exact=True, filter=_to_filter(flt) if flt else None)
        return self._run("count", lambda shard: shard.count(request))

    def count_missing_dense(self, repo: str = "", flt: StoreFilter | None = None, upper: bool = False) -> int:
        """Exact number of points of ``repo`` (every repo when ``""``), within ``flt`` when
        given, without a dense vector (``upper``: the never-embedded too; ``Store``)."""
        must = [*([_match("repo", repo)] if repo else []), *_must(flt or StoreFilter())] or None
        qfilter = qe.Filter(must=must, must_not=[qe.HasVectorCondition(DENSE),
                                                 *(() if upper else (_match("embed_text", ""),))])
        request = qe.CountRequest(exact=True, filter=qfilter)
        return self._run("count_missing_dense", lambda shard: shard.count(request))

    # --- internals -------------------------------------------------------------------

    def _run(self, what: str, call: Callable[[qe.EdgeShard], _T], *, files: bool = False) -> _T:
        """Run one engine call on the chunk shard (the file index's with ``files``) under the
        lock, wrapping its errors with context. Within a request, neither the wait for the
        lock nor the call starts past its deadline."""
        with deadline.holding(self._lock, what):
            shard = self._files if files else self._shard
            if shard is None:
                raise StoreUnavailable(f"store {self.root / self.collection}: {what}: closed")
            try:
                return call(shard)
            except Exception as exc:  # the binding raises bare Exception for engine errors
                raise StoreError(f"store {self.root / self.collection}: {what}: {exc}") from exc

    def _open_collection(self, directory: Path) -> qe.EdgeShard:
        found = _read_identity(directory) if (directory / IDENTITY_FILE).exists() else None
        if found is not None and found != self.identity:
            raise StoreMismatch(f"store {directory}: built for {found}; requested {self.identity}")
        shard_dir = directory / SHARD_DIR
        try:
            directory.mkdir(exist_ok=True)
            if found is None:
                _write_atomic(directory / IDENTITY_FILE, self.identity.to_json() + "\n")
        except (OSError, StoreError) as exc:
            raise StoreUnavailable(f"store {shard_dir}: cannot open: {exc}") from exc
        return _open_shard(shard_dir, self._config(), _index_schemas())

    def _config(self) -> qe.EdgeConfig:
        dense = qe.EdgeVectorParams(size=self.identity.dense_dim, distance=qe.Distance.Cosine,
                                    **self.options)
        return qe.EdgeConfig(
            vectors={DENSE: dense},
            sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        )

    def _point(self, record: PointRecord) -> qe.Point:
        vector: dict[str, Any] = {SPARSE: _sparse(record.sparse)}
        if record.dense is not None:
            self._check_dim(record.dense)
            vector[DENSE] = list(record.dense)
        return qe.Point(id=record.id, vector=vector, payload=record.payload)

    def _check_dim(self, dense: Sequence[float]) -> None:
        check_dim(f"store {self.root / self.collection}", dense, self.identity.dense_dim)

    def _delete(self, what: str, qfilter: qe.Filter, *, files: bool = False) -> int:
        def count_then_delete(shard: qe.EdgeShard) -> int:
            # Under the lock, so no other thread of this process writes in between.
            doomed = shard.count(qe.CountRequest(exact=True, filter=qfilter))
            if doomed:
                try:
                    shard.update(qe.UpdateOperation.delete_points_by_filter(qfilter))
                    self._deleted[files] += doomed
                finally:
                    if not files:  # the facet cache holds chunk answers only
                        self._written()
            return doomed

        return self._run(what, count_then_delete, files=files)

    def _single(self, what: str, query: qe.Query, flt: StoreFilter, limit: int,
                params: qe.SearchParams | None = None,
                fields: Sequence[str] | None = None) -> list[Hit]:
        if limit <= 0:
            return []
        qfilter = _to_filter(flt)
        request = qe.QueryRequest(limit=limit, query=query, filter=qfilter,
                                  with_payload=_with_payload(fields), params=params)
        return self._query(what, request)

    def _query(self, what: str, request: qe.QueryRequest) -> list[Hit]:
        points = self._run(what, lambda shard: shard.query(request))
        return ranked_hits(points)

    def _scroll(self, what: str, flt: StoreFilter, cond: Any, limit: int,
                fields: Sequence[str] | None = None) -> list[Hit]:
        if limit <= 0:
            return []
        qfilter = qe.Filter(must=[cond, *_must(flt)])
        request = qe.ScrollRequest(limit=limit, filter=qfilter, with_payload=_with_payload(fields))
        records, _ = self._run(what, lambda shard: shard.scroll(request))
        return [to_hit(r, 1.0) for r in records]


# --- module helpers -----------------------------------------------------------------------


def _with_payload(fields: Sequence[str] | None) -> Any:
    """None: the whole payload; ``()``: none; else only those keys."""
    if fields is None:
        return True
    return qe.PayloadSelector.Include(list(fields)) if fields else False


def _match(key: str, value: str) -> qe.FieldCondition:
    return qe.FieldCondition(key=key, match=qe.MatchValue(value))


_MATCH: dict[str, Callable[[Any], Any]] = {
    "value": qe.MatchValue, "prefix": qe.MatchPrefix, "text": qe.MatchText,
    "any": lambda values: qe.MatchAny(list(values)),
}  # fmt: skip
"""``base.find_match`` / ``base.filter_conditions`` match kinds -> engine match."""



def _file_point(terms: FileTerms) -> qe.Point:
    # An empty vector is left out: the point then has no terms, so no search finds it and
    # it stays out of the IDF statistics (N counts the points that have the vector).
    vector = {FILE_SPARSE: _sparse(terms.sparse)} if terms.sparse.indices else {}
    return qe.Point(id=file_point_id(terms.repo, terms.path), vector=vector,
                    payload=file_payload(terms))


def _must(flt: StoreFilter) -> list[qe.FieldCondition]:
    """``flt``'s conditions as engine conditions, all of which must hold."""
    return [qe.FieldCondition(key=key, match=_MATCH[kind](operand))
            for key, kind, operand in filter_conditions(flt)]


def _to_filter(flt: StoreFilter) -> qe.Filter | None:
    """``StoreFilter`` -> engine filter (all conditions in ``must``); None when empty."""
    must = _must(flt)
    return qe.Filter(must=must) if must else None


def _linear_formula(used: list[tuple[float, bool]], sparse_half: float) -> qe.Formula:
    """``sum_i w_i * score_i`` over the prefetches, a sparse score saturated as ``s / (s + half)``."""
    E = qe.Expression
    terms = []
    for i, (weight, is_sparse) in enumerate(used):
        score = E.Variable(f"$score[{i}]")
        if is_sparse:
            score = E.Div(score, E.Sum([score, E.Constant(sparse_half)]), 0.0)
        terms.append(E.Mult([E.Constant(weight), score]))
    return qe.Formula(E.Sum(terms), defaults={f"$score[{i}]": 0.0 for i in range(len(used))})


def _sparse(vec: SparseVector) -> qe.SparseVector:
    return qe.SparseVector(indices=list(vec.indices), values=list(vec.values))


def _set_dense(shard: qe.EdgeShard, batch: Mapping[str, Sequence[float]]) -> int:
    present = [str(r.id) for r in shard.retrieve(list(batch), False, False)]
    if present:
        updates = [qe.PointVectors(id=pid, vector={DENSE: list(batch[pid])}) for pid in present]
        shard.update(qe.UpdateOperation.update_vectors(updates))
    return len(present)


def _open_shard(shard_dir: Path, config: qe.EdgeConfig,
                schemas: Mapping[str, Any]) -> qe.EdgeShard:
    """Load the shard in ``shard_dir``, or create it there when it is missing or empty, with
    the payload indexes ``schemas``.

    Raises:
        StoreUnavailable: it cannot be opened (held by another process: its WAL lock).
    """
    try:
        if shard_dir.is_dir() and any(shard_dir.iterdir()):
            shard = qe.EdgeShard.load(str(shard_dir), config)
        else:
            shard = qe.EdgeShard.create(str(shard_dir), config)
    except Exception as exc:
        raise _open_error(shard_dir, exc) from exc
    try:
        _ensure_indexes(shard, schemas)
    except Exception as exc:
        shard.close()  # release the WAL lock: the caller gets no shard to close
        raise _open_error(shard_dir, exc) from exc
    return shard


def _open_error(shard_dir: Path, exc: Exception) -> StoreUnavailable:
    if "WouldBlock" in str(exc):  # the WAL lock: one process per shard directory
        return StoreUnavailable(
            f"store {shard_dir}: in use by another process (a running coderecalld on the "
            "same data_dir?); the embedded store allows one process at a time")
    return StoreUnavailable(f"store {shard_dir}: cannot open: {exc}")


def _ensure_indexes(shard: qe.EdgeShard, schemas: Mapping[str, Any]) -> None:
    """Create missing payload indexes (also heals a shard whose creation was interrupted)."""
    existing = shard.info().payload_schema
    for field, schema in schemas.items():
        if field not in existing:
            shard.update(qe.UpdateOperation.create_field_index(field, schema))


def active_identity(root: str | Path) -> StoreIdentity | None:
    """The identity of the collection ``current`` points at under ``root``, or None when
    there is none yet.

    Raises:
        StoreError: ``current`` or the collection's ``identity.json`` is unreadable.
    """
    name = _read_pointer(Path(root))
    return None if name is None else _read_identity(Path(root) / name)


def _read_pointer(root: Path) -> str | None:
    try:
        name = (root / POINTER_FILE).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"store {root}: cannot read {POINTER_FILE}: {exc}") from exc
    if not name or "/" in name or name in (".", ".."):
        raise StoreError(f"store {root}: {POINTER_FILE} holds an invalid collection name {name!r}")
    return name


def _read_identity(directory: Path) -> StoreIdentity:
    try:
        return StoreIdentity.from_json((directory / IDENTITY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"store {directory}: unreadable {IDENTITY_FILE}: {exc}") from exc


def _describe_identity(directory: Path) -> str:
    try:
        return str(_read_identity(directory))
    except StoreError as exc:
        return f"an unknown identity ({exc})"


def _write_atomic(path: Path, text: str) -> None:
    """Write via a temp file, fsync and rename, so readers see the old or the new file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)  # make the rename itself durable
        finally:
            os.close(dir_fd)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc}") from exc


#: ``quantization`` values ``EdgeStore`` accepts.
QUANTIZATIONS = ("", "int8")


def edge_options(quantization: str = "", on_disk: bool = False) -> dict[str, Any]:
    """``EdgeVectorParams`` keyword arguments of the dense vector for these store options
    (the ``[store]`` keys ``quantization`` and ``on_disk``).

    ``"int8"``: Qdrant scalar quantization with quantile 0.99 (the value Qdrant's
    quantization guide uses: the 1% most extreme component values are clipped, the rest get
    the 256 levels; unset means the whole range), the int8 copy pinned in RAM (its
    ``always_ram``); searches use it and rescore the candidates with the original vectors. ``on_disk``: originals ``Cold``
    (mmap, paged in on demand) instead of the default ``Cached``.

    Raises:
        ConfigError: ``quantization`` is not one of ``QUANTIZATIONS``.
    """
    if quantization not in QUANTIZATIONS:
        raise ConfigError(f"store.quantization: expected '' or 'int8', got {quantization!r}")
    options: dict[str, Any] = {}
    if quantization == "int8":
        options["quantization_config"] = qe.ScalarQuantizationConfig(
            type=qe.ScalarType.Int8, quantile=0.99, memory=qe.Memory.Pinned)
    if on_disk:
        options["memory"] = qe.Memory.Cold
    return options

