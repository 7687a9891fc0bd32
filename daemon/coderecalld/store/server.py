"""The scale-out store: a Qdrant server or cluster through ``qdrant-client`` (DESIGN.md decision 6).

Collections are named ``StoreIdentity.collection_name``, as the Edge store names its shard
directories, and each records its identity in the collection metadata (key
``IDENTITY_KEY``). An alias (``DEFAULT_ALIAS``, configurable) names the active collection:
it is the server-side twin of Edge's ``current`` file (decision 7).

* ``ServerStore(...)``: no alias yet -> create this identity's collection and point the
  alias at it; the alias names another collection -> ``StoreMismatch`` naming both
  identities.
* ``ServerStore(..., staging=True)``: create or open this identity's collection without
  reading or changing the alias. ``activate()`` then moves the alias with one
  ``update_collection_aliases`` call (delete + create), which Qdrant applies atomically:
  whoever reads through the alias sees the old collection or the new one, never neither.

An open store reads and writes its own collection by name, exactly as an ``EdgeStore``
keeps using its shard after another store is activated: this process's dense queries
come from one model, and following an alias that another replica swapped to a new model
would put those vectors into the wrong vector space (decision 7), silently when the two
models share a dimension. The alias is what a store opening next, an operator or another
tool resolves.

The file index (``base`` docstring) is a second collection, ``<collection>-files``, created
beside the chunk collection when missing (also for a chunk collection built before it
existed); it follows its chunk collection by name, so staging and ``activate`` need nothing
more.

For tests, ``location=":memory:"`` or ``path=DIR`` runs qdrant-client's local mode (the
server's API in-process; far too slow to serve, decision 6). Aliases, collection metadata,
RRF/DBSF fusion and formula queries work there as on a server, so the same code runs. Three
differences, handled here and only in local mode: payload indexes are not created (local
mode has none and warns); text ``find`` is re-checked client-side, because local mode
tokenizes ``MatchText`` with the word tokenizer where the server uses the whitespace text
index; and every call holds one lock, because the local engine is plain Python state.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from qdrant_client import QdrantClient
from qdrant_client import models as qm
from qdrant_client.local.qdrant_local import QdrantLocal

from coderecalld import deadline
from coderecalld.errors import (
    CodeRecallError,
    InvalidArgument,
    StoreError,
    StoreMismatch,
    StoreUnavailable,
)
from coderecalld.records import FileTerms, Hit, PointRecord, SparseVector
from coderecalld.store.remote import connect, store_error, without_userinfo
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

if TYPE_CHECKING:
    from coderecalld.config import StoreConfig

DEFAULT_ALIAS = "coderecall-current"
IDENTITY_KEY = "coderecall_identity"
"""Collection metadata key holding ``StoreIdentity.to_json()``."""
QUANTIZATIONS = ("", "int8")
"""``quantization`` values: none, or scalar int8 (4x smaller dense vectors kept in RAM)."""
UPSERT_BATCH = 256
"""Points per upsert request (one round trip each)."""
ALL_POINTS_PAGE = 512
"""Points per page of ``all_points``' scroll (and of local mode's text re-check)."""
FILES_SUFFIX = "-files"
"""``ServerStore.files_collection`` is the chunk collection's name plus this."""

_T = TypeVar("_T")


class ServerStore:
    """``store.base.Store`` over a Qdrant server or cluster (or qdrant-client's local mode).

    Args:
        dense_dim: size of the dense vectors (cosine distance).
        model_id: embedding model name and revision.
        sparse_version: ``sparse.TOKENIZER_VERSION``.
        url: server URL, ``http(s)://host:6333``; ``https`` turns on TLS.
        api_key: the server's API key (sent as the ``api-key`` header / gRPC metadata).
        ca_file: PEM bundle of the CA that signed the server's certificate (private PKI).
        prefer_grpc: talk gRPC (port 6334) instead of REST where the client can.
        timeout_s: per-request timeout in seconds (qdrant-client rounds it up to whole seconds).
        location: ``":memory:"`` for an in-memory local-mode instance (tests).
        path: a directory for a persistent local-mode instance (tests).
        client: an existing client, e.g. shared by a staging and an active store; left open
            by ``close``. Exactly one of ``url``, ``location``, ``path``, ``client``.
        alias: the alias naming the active collection.
        quantization: ``""`` or ``"int8"`` (scalar quantization of the dense vectors, kept
            in RAM; queries rescore with the originals). Applies when a collection is created.
        on_disk: keep original dense vectors and the sparse index on disk (memory ``cold``),
            for collections larger than RAM. Applies when a collection is created.
        staging: open (or create) this identity's collection without reading or moving the
            alias; see ``activate``.

    Raises:
        InvalidArgument: not exactly one connection, or an unknown ``quantization``.
        StoreMismatch: the alias names a collection of another identity, or this
            collection's metadata records another identity.
        StoreUnavailable: the server cannot be reached (refused, timed out, 429/502/503/504,
            ``remote.store_error``), or a local-mode directory is locked by another client.
        StoreError: the server rejected a request (bad API key, bad request, ...).

    Thread safety: ``QdrantClient`` is safe to share between the gRPC worker threads and the
    indexing thread against a server; local mode serializes every call (module docstring).
    The read-then-write pairs (count then delete, retrieve then update) are not atomic across
    processes; replicas own disjoint repos (decision 9), so no two processes write one file.
    """

    def __init__(
        self,
        dense_dim: int,
        model_id: str,
        sparse_version: str,
        *,
        url: str = "",
        api_key: str = "",
        ca_file: str = "",
        prefer_grpc: bool = False,
        timeout_s: float = 30.0,
        location: str = "",
        path: str | Path = "",
        client: QdrantClient | None = None,
        alias: str = DEFAULT_ALIAS,
        quantization: str = "",
        on_disk: bool = False,
        staging: bool = False,
    ) -> None:
        self.identity = StoreIdentity(model_id, int(dense_dim), sparse_version)
        self.collection = self.identity.collection_name
        #: The file index's collection (module docstring).
        self.files_collection = self.collection + FILES_SUFFIX
        self.alias = alias
        if quantization not in QUANTIZATIONS:
            raise InvalidArgument(
                f"store quantization: expected one of {QUANTIZATIONS}, got {quantization!r}")
        if sum(map(bool, (url, location, path, client))) != 1:
            raise InvalidArgument("store: give exactly one of url, location, path or client")
        self.where = (without_userinfo(url) if url else "client" if client
                      else f"local:{location or path}")
        self._quantization, self._on_disk = quantization, on_disk
        self._owns_client = client is None
        self._client: QdrantClient | None = client or connect(
            self.where, url=url, api_key=api_key, ca_file=ca_file, prefer_grpc=prefer_grpc,
            timeout_s=timeout_s, location=location, path=str(path or ""))
        self._local = isinstance(getattr(self._client, "_client", None), QdrantLocal)
        self._lock: Any = threading.RLock() if self._local else contextlib.nullcontext()
        try:
            self._open(staging)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, cfg: StoreConfig, dense_dim: int, model_id: str, sparse_version: str,
                    *, staging: bool = False) -> ServerStore:
        """A store for the ``[store]`` config section (``backend = "server"``)."""
        return cls(dense_dim, model_id, sparse_version, url=cfg.url, api_key=str(cfg.api_key),
                   ca_file=cfg.ca_file, prefer_grpc=cfg.prefer_grpc, timeout_s=cfg.timeout_s,
                   alias=cfg.alias, quantization=cfg.quantization, on_disk=cfg.on_disk,
                   staging=staging)

    # --- lifecycle ---------------------------------------------------------------------

    def activate(self) -> None:
        """Point the alias at this collection: delete + create in one atomic alias update."""
        def swap(client: QdrantClient) -> None:
            ops: list[Any] = []
            if _alias_target(client, self.alias) is not None:
                ops.append(qm.DeleteAliasOperation(
                    delete_alias=qm.DeleteAlias(alias_name=self.alias)))
            ops.append(qm.CreateAliasOperation(create_alias=qm.CreateAlias(
                collection_name=self.collection, alias_name=self.alias)))
            client.update_collection_aliases(change_aliases_operations=ops)

        self._run(f"activate alias {self.alias}", swap)

    def flush(self) -> None:
        """Every write already waited for the server to apply it (``wait=True``): nothing to do
        but check that the store is open."""
        self._run("flush", lambda client: None)

    def close(self) -> None:
        """Close the client (unless it was passed in); later calls raise ``StoreUnavailable``.
        Idempotent."""
        with self._lock:
            client, self._client = self._client, None
            if client is None or not self._owns_client:
                return
            try:
                client.close()
            except Exception as exc:  # the client's close raises whatever its transport does
                raise StoreError(f"store {self.where}/{self.collection}: close: {exc}") from exc

    def __enter__(self) -> ServerStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- writes ----------------------------------------------------------------------

    def upsert(self, points: Sequence[PointRecord]) -> None:
        """Insert or replace ``points`` in batches of ``UPSERT_BATCH``, each acknowledged
        once applied (``wait=True``)."""
        for start in range(0, len(points), UPSERT_BATCH):
            batch = [self._point(p) for p in points[start : start + UPSERT_BATCH]]
            self._run(f"upsert {len(batch)} points",
                      lambda c: c.upsert(self.collection, points=batch, wait=True))

    def set_dense(self, vectors: Mapping[str, Sequence[float]]) -> int:
        """Add dense vectors to existing points; ids deleted meanwhile are skipped.

        Returns:
            How many points got a vector.
        """
        done = 0
        items = list(vectors.items())
        for start in range(0, len(items), UPSERT_BATCH):
            batch = dict(items[start : start + UPSERT_BATCH])
            for vec in batch.values():
                self._check_dim(vec)
            done += self._run(f"set_dense {len(batch)} points",
                              lambda c: _set_dense(c, self.collection, batch))
        return done

    def delete_file_except(self, repo: str, path: str, keep_ids: Collection[str]) -> int:
        """Delete ``repo``/``path`` points whose id is not in ``keep_ids``; returns the count."""
        must = [_match("repo", repo), _match("path", path)]
        must_not = [qm.HasIdCondition(has_id=list(keep_ids))] if keep_ids else None
        return self._delete(f"delete {repo}:{path}", qm.Filter(must=must, must_not=must_not))

    def delete_repo(self, repo: str) -> int:
        """Delete every point of ``repo`` and its file-index points; returns the chunk count."""
        qfilter = qm.Filter(must=[_match("repo", repo)])
        deleted = self._delete(f"delete repo {repo}", qfilter)
        self._delete(f"delete repo {repo} files", qfilter, self.files_collection)
        return deleted

    # --- the file index ----------------------------------------------------------------

    def upsert_files(self, files: Sequence[FileTerms]) -> None:
        """Insert or replace one point per file in batches of ``UPSERT_BATCH`` (id
        ``file_point_id``, ``wait=True``); a file with an empty sparse vector is stored
        without terms."""
        for start in range(0, len(files), UPSERT_BATCH):
            batch = [_file_point(f) for f in files[start : start + UPSERT_BATCH]]
            self._run(f"upsert {len(batch)} files",
                      lambda c: c.upsert(self.files_collection, points=batch, wait=True))

    def delete_files(self, repo: str, paths: Collection[str]) -> int:
        """Delete the file points of ``repo`` whose path is one of ``paths`` (exact);
        returns the count (``0`` for ``()``)."""
        if not paths:
            return 0
        qfilter = qm.Filter(must=[_match("repo", repo), qm.FieldCondition(
            key="path", match=qm.MatchAny(any=list(paths)))])
        return self._delete(f"delete {len(paths)} files of {repo}", qfilter,
                            self.files_collection)

    def file_search(self, sparse: SparseVector, flt: StoreFilter, limit: int) -> list[Hit]:
        """Best files by IDF-weighted sparse dot product on ``FILE_SPARSE`` (as
        ``EdgeStore.file_search``); ``flt.kind`` ignored."""
        if not sparse.indices or limit <= 0:
            return []
        qfilter = _to_filter(replace(flt, kind=""))  # a file has no kind
        response = self._run("file_search", lambda c: c.query_points(
            self.files_collection, query=_sparse(sparse), using=FILE_SPARSE,
            query_filter=qfilter, limit=limit,
            with_payload=list(FILE_FIELDS)))
        return ranked_hits(response.points)

    def count_files(self, repo: str = "") -> int:
        """Exact number of file points (of ``repo`` when given)."""
        qfilter = qm.Filter(must=[_match("repo", repo)]) if repo else None
        return self._count("count_files", qfilter, self.files_collection)

    def repos(self) -> set[str] | None:
        """None: unknown. Other processes (replicas, other deployments) may write this
        collection at any time, so no answer here could justify dropping a scope filter."""
        return None

    def settle(self, now: bool = False) -> Settled:
        """Nothing to do here: a Qdrant server's optimizers (its vacuum of deleted points)
        run on their own. Always ``Settled(0, 0)``."""
        return Settled()

    def optimize(self) -> bool:
        """Nothing to do: a Qdrant server runs its optimizers on its own (``optimizer_config``
        of the collection). Always False."""
        return False

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
        """One ``query_points``: dense + sparse prefetches fused by ``method``.

        The same fusions and scores as ``EdgeStore.hybrid`` (see there): weighted
        ``RrfQuery`` (``sum_i 1 / (rrf_k - 1 + (rank_i + 1) / weights[i])``), DBSF
        (``FusionQuery``, weights ignored), or ``"linear"`` as a ``FormulaQuery``
        ``weights[0] * $score[0] + weights[1] * $score[1] / ($score[1] + sparse_half)``
        with absent scores 0. The filter applies inside both prefetches. ``fields``: the
        payload keys to return (None: all).
        """
        qfilter = _to_filter(flt)
        prefetches, used = [], []
        if dense is not None:
            self._check_dim(dense)
            prefetches.append(qm.Prefetch(query=list(dense), using=DENSE, filter=qfilter,
                                          limit=prefetch_limit))
            used.append((weights[0], False))
        if sparse.indices:
            prefetches.append(qm.Prefetch(query=_sparse(sparse), using=SPARSE, filter=qfilter,
                                          limit=prefetch_limit))
            used.append((weights[1], True))
        if not prefetches or limit <= 0:
            return []
        if method == "linear":
            query: Any = _linear_formula(used, sparse_half)
        elif method == "dbsf":
            query = qm.FusionQuery(fusion=qm.Fusion.DBSF)
        else:
            query = qm.RrfQuery(rrf=qm.Rrf(k=rrf_k, weights=[w for w, _ in used]))
        return self._query("hybrid", query=query, prefetch=prefetches, query_filter=qfilter,
                           limit=limit, with_payload=_with_payload(fields))

    def dense_search(self, dense: Sequence[float], flt: StoreFilter, limit: int,
                     fields: Sequence[str] | None = None) -> list[Hit]:
        """Nearest points by cosine similarity; points without a dense vector never appear.
        ``fields``: the payload keys to return (None: all; ``()``: none, ids and scores)."""
        self._check_dim(dense)
        if limit <= 0:
            return []
        return self._query("dense_search", query=list(dense), using=DENSE,
                           query_filter=_to_filter(flt), limit=limit,
                           with_payload=_with_payload(fields))

    def sparse_search(self, sparse: SparseVector, flt: StoreFilter, limit: int,
                      fields: Sequence[str] | None = None) -> list[Hit]:
        """Best points by IDF-weighted sparse dot product; ``[]`` for an empty vector.
        ``fields`` as in ``dense_search``."""
        if not sparse.indices or limit <= 0:
            return []
        return self._query("sparse_search", query=_sparse(sparse), using=SPARSE,
                           query_filter=_to_filter(flt), limit=limit,
                           with_payload=_with_payload(fields))

    def sparse_scores(self, sparse: SparseVector, ids: Collection[str]) -> dict[str, float]:
        """The sparse score of each point of ``ids`` that shares a term with ``sparse``
        (as ``EdgeStore.sparse_scores``): one ``query_points`` filtered to ``ids``."""
        if not sparse.indices or not ids:
            return {}
        response = self._run("sparse_scores", lambda c: c.query_points(
            self.collection, query=_sparse(sparse), using=SPARSE, limit=len(ids),
            query_filter=qm.Filter(must=[qm.HasIdCondition(has_id=list(ids))]),
            with_payload=False))
        return {str(p.id): p.score for p in response.points}

    def dense_scores(self, dense: Sequence[float], ids: Collection[str]) -> dict[str, float]:
        """The cosine of each point of ``ids`` that has a dense vector (as
        ``EdgeStore.dense_scores``): one ``query_points`` filtered to ``ids``."""
        if not ids:
            return {}
        self._check_dim(dense)
        response = self._run("dense_scores", lambda c: c.query_points(
            self.collection, query=list(dense), using=DENSE, limit=len(ids),
            query_filter=qm.Filter(must=[qm.HasIdCondition(has_id=list(ids))]),
            with_payload=False))
        return {str(p.id): p.score for p in response.points}

    def retrieve(self, ids: Sequence[str], fields: Sequence[str] | None = None) -> list[Hit]:
        """The points of ``ids`` that exist, in the order of ``ids``, score 1.0; ``fields``
        as in ``dense_search``."""
        if not ids:
            return []
        records = self._run("retrieve", lambda c: c.retrieve(
            self.collection, ids=list(ids), with_payload=_with_payload(fields),
            with_vectors=False))
        found = {str(r.id): r for r in records}
        return [to_hit(found[i], 1.0) for i in ids if i in found]

    def find(
        self, flt: StoreFilter, field: str, value: str, prefix: bool = False, limit: int = 100
    ) -> list[Hit]:
        """Exact (or prefix) match on a keyword field, all-tokens match on a text field, in
        id order. Raises ``InvalidArgument`` as ``base.find_match`` says."""
        kind = find_match(field, value, prefix)
        cond = qm.FieldCondition(key=field, match=_MATCH[kind](value))
        wanted = set(value.lower().split())

        def has_tokens(hit: Hit) -> bool:  # the whitespace text index's rule, in local mode
            return wanted <= set(str(hit.payload.get(field, "")).lower().split())

        keep = has_tokens if kind == "text" and self._local else None
        return self._scroll(f"find {field}", flt, cond, limit, keep)

    def find_any(
        self, flt: StoreFilter, field: str, values: Collection[str], limit: int = 100,
        fields: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Points whose keyword ``field`` (a value or an array such as ``calls``) holds any
        of ``values``, in id order; ``[]`` when ``values`` is empty. ``fields``: the payload
        keys to return (None: all). Raises ``InvalidArgument`` for a field without a
        keyword index."""
        if field not in KEYWORD_FIELDS:
            raise InvalidArgument(f"find_any: {field!r} is not an indexed keyword field")
        if not values:
            return []
        cond = qm.FieldCondition(key=field, match=qm.MatchAny(any=list(values)))
        return self._scroll(f"find_any {field}", flt, cond, limit, fields=fields)

    def facet_any(self, flt: StoreFilter, key: str, field: str, values: Collection[str],
                  limit: int = FACET_LIMIT) -> set[str]:
        """The distinct values of keyword ``key`` over the points whose keyword ``field``
        holds any of ``values``: one exact ``facet`` call (as ``EdgeStore.facet_any``). At
        most ``limit`` values; ``set()`` when ``values`` is empty. Raises
        ``InvalidArgument`` for a ``key`` or ``field`` without a keyword index."""
        for name in (key, field):
            if name not in KEYWORD_FIELDS:
                raise InvalidArgument(f"facet_any: {name!r} is not an indexed keyword field")
        if not values:
            return set()
        cond = qm.FieldCondition(key=field, match=qm.MatchAny(any=list(values)))
        qfilter = qm.Filter(must=[cond, *_must(flt)])
        answer = self._run(f"facet {key}", lambda c: c.facet(
            self.collection, key=key, facet_filter=qfilter, limit=limit, exact=True))
        return {str(hit.value) for hit in answer.hits}

    def find_overlap(
        self, flt: StoreFilter, field: str, values: Collection[str], min_count: int, limit: int = 100,
        fields: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Points whose keyword array ``field`` holds at least ``min_count`` of the distinct
        ``values`` (one ``min_should`` filter, as ``EdgeStore.find_overlap``), in id order;
        ``[]`` when ``values`` is empty; ``fields``: the payload keys (None: all). Raises
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
        conditions = [qm.FieldCondition(key=field, match=qm.MatchValue(value=v)) for v in distinct]
        qfilter = qm.Filter(must=_must(flt) or None,
                            min_should=qm.MinShould(conditions=conditions, min_count=min_count))
        records, _ = self._run(f"find_overlap {field}", lambda c: c.scroll(
            self.collection, scroll_filter=qfilter, limit=limit,
            with_payload=_with_payload(fields)))
        return [to_hit(r, 1.0) for r in records]

    def missing_dense(self, limit: int, repos: Collection[str] = ()) -> list[Hit]:
        """Up to ``limit`` points without a dense vector (id order), payload limited to
        ``MISSING_DENSE_FIELDS``; only of ``repos`` when given."""
        if limit <= 0:
            return []
        qfilter = qm.Filter(must=_must(StoreFilter(repos=tuple(repos))) or None,
                            # a chunk with nothing to embed (chunk.chunks) never gets a vector
                            must_not=[qm.HasVectorCondition(has_vector=DENSE), _match("embed_text", "")])
        records, _ = self._run("missing_dense", lambda c: c.scroll(
            self.collection, scroll_filter=qfilter, limit=limit,
            with_payload=list(MISSING_DENSE_FIELDS)))
        return [to_hit(r, 1.0) for r in records]

    def all_points(self, repo: str) -> list[PointRecord]:
        """Every point of ``repo`` with its payload and vectors, in id order (paged scroll)."""
        qfilter = qm.Filter(must=[_match("repo", repo)])
        out: list[PointRecord] = []
        offset: Any = None
        while True:
            records, offset = self._run("all_points", lambda c: c.scroll(
                self.collection, scroll_filter=qfilter, limit=ALL_POINTS_PAGE, offset=offset,
                with_payload=True, with_vectors=True))
            out += [to_record(r) for r in records]
            if offset is None:
                return out

    def count(self, flt: StoreFilter | None = None) -> int:
        """Exact number of points matching ``flt`` (all points when None)."""
        qfilter = _to_filter(flt) if flt else None
        return self._count("count", qfilter)

    def count_missing_dense(self, repo: str = "", flt: StoreFilter | None = None, upper: bool = False) -> int:
        """Exact number of points of ``repo`` (every repo when ``""``), within ``flt`` when
        given, without a dense vector (``upper``: the never-embedded too; ``Store``)."""
        must = [*([_match("repo", repo)] if repo else []), *_must(flt or StoreFilter())] or None
        return self._count("count_missing_dense", qm.Filter(
            must=must, must_not=[qm.HasVectorCondition(has_vector=DENSE),
                                 *(() if upper else (_match("embed_text", ""),))]))

    # --- internals -------------------------------------------------------------------

    def _run(self, what: str, call: Callable[[QdrantClient], _T]) -> _T:
        """Run one client call (under the local-mode lock), mapping its errors. Within a
        request, neither the wait for the lock nor the call starts past its deadline."""
        with deadline.holding(self._lock, what):
            if self._client is None:
                raise StoreUnavailable(f"store {self.where}/{self.collection}: {what}: closed")
            try:
                return call(self._client)
            except CodeRecallError:
                raise
            except Exception as exc:  # REST, gRPC and local mode each raise their own types
                raise store_error(f"store {self.where}/{self.collection}: {what}", exc) from exc

    def _open(self, staging: bool) -> None:
        active = None
        if not staging:
            active = self._run("read alias", lambda c: _alias_target(c, self.alias))
        if active is not None and active != self.collection:
            found = self._run("read identity", lambda c: _describe(c, active))
            raise StoreMismatch(
                f"store {self.where}: alias {self.alias!r} names collection {active!r}, built for "
                f"{found}; requested {self.identity}")
        self._run(f"open collection {self.collection}", self._ensure_collection)
        if active is None and not staging:
            self.activate()

    def _ensure_collection(self, client: QdrantClient) -> None:
        if not client.collection_exists(self.collection):
            try:
                client.create_collection(self.collection, **self._collection_config())
            except Exception:
                if not client.collection_exists(self.collection):
                    raise
                # else another replica created it between our check and our create
        found = _stored_identity(client, self.collection)
        if found is None:
            client.update_collection(self.collection,
                                     metadata={IDENTITY_KEY: self.identity.to_json()})
        elif found != self.identity:
            raise StoreMismatch(f"store {self.where}/{self.collection}: built for {found}; "
                                f"requested {self.identity}")
        if not self._local:
            _ensure_indexes(client, self.collection, _index_schemas())
        self._ensure_files_collection(client)

    def _ensure_files_collection(self, client: QdrantClient) -> None:
        if not client.collection_exists(self.files_collection):
            cold = qm.SparseIndexParams(memory=qm.Memory.COLD) if self._on_disk else None
            sparse = qm.SparseVectorParams(modifier=qm.Modifier.IDF, index=cold)
            try:
                client.create_collection(self.files_collection, vectors_config={},
                                         sparse_vectors_config={FILE_SPARSE: sparse})
            except Exception:
                if not client.collection_exists(self.files_collection):
                    raise
                # else another replica created it between our check and our create
        if not self._local:
            _ensure_indexes(client, self.files_collection, _file_index_schemas())

    def _collection_config(self) -> dict[str, Any]:
        cold = qm.Memory.COLD if self._on_disk else None
        quantization = None
        if self._quantization == "int8":
            quantization = qm.ScalarQuantization(scalar=qm.ScalarQuantizationConfig(
                type=qm.ScalarType.INT8, memory=qm.Memory.PINNED))
        dense = qm.VectorParams(size=self.identity.dense_dim, distance=qm.Distance.COSINE,
                                memory=cold, quantization_config=quantization)
        sparse = qm.SparseVectorParams(modifier=qm.Modifier.IDF,
                                       index=qm.SparseIndexParams(memory=cold) if cold else None)
        return {"vectors_config": {DENSE: dense}, "sparse_vectors_config": {SPARSE: sparse},
                "metadata": {IDENTITY_KEY: self.identity.to_json()}}

    def _point(self, record: PointRecord) -> qm.PointStruct:
        # An empty sparse vector is left out (the point then has no sparse vector): the engine
        # (Edge, server) keeps an empty one out of the IDF statistics, local mode would not.
        vector: dict[str, Any] = {SPARSE: _sparse(record.sparse)} if record.sparse.indices else {}
        if record.dense is not None:
            self._check_dim(record.dense)
            vector[DENSE] = list(record.dense)
        return qm.PointStruct(id=record.id, vector=vector, payload=record.payload)

    def _check_dim(self, dense: Sequence[float]) -> None:
        check_dim(f"store {self.where}/{self.collection}", dense, self.identity.dense_dim)

    def _count(self, what: str, qfilter: qm.Filter | None, collection: str = "") -> int:
        """Exact count in ``collection`` (the chunk collection when ``""``)."""
        name = collection or self.collection
        return self._run(what, lambda c: c.count(name, count_filter=qfilter, exact=True).count)

    def _delete(self, what: str, qfilter: qm.Filter, collection: str = "") -> int:
        """Count, then delete, the points of ``collection`` (chunks when ``""``) matching
        ``qfilter``; returns the count."""
        name = collection or self.collection

        def count_then_delete(client: QdrantClient) -> int:
            doomed = client.count(name, count_filter=qfilter, exact=True).count
            if doomed:
                client.delete(name, points_selector=qm.FilterSelector(filter=qfilter), wait=True)
            return doomed

        return self._run(what, count_then_delete)

    def _query(self, what: str, **request: Any) -> list[Hit]:
        request.setdefault("with_payload", True)
        response = self._run(what, lambda c: c.query_points(self.collection, **request))
        return ranked_hits(response.points)

    def _scroll(self, what: str, flt: StoreFilter, cond: Any, limit: int,
                keep: Callable[[Hit], bool] | None = None,
                fields: Sequence[str] | None = None) -> list[Hit]:
        """Points matching ``cond`` and ``flt`` in id order; with ``keep``, only those it
        accepts, paging on until ``limit`` are found."""
        if limit <= 0:
            return []
        qfilter = qm.Filter(must=[cond, *_must(flt)])
        out: list[Hit] = []
        offset: Any = None
        while True:
            page = limit if keep is None else ALL_POINTS_PAGE
            records, offset = self._run(what, lambda c: c.scroll(
                self.collection, scroll_filter=qfilter, limit=page, offset=offset,
                with_payload=_with_payload(fields)))
            hits = [to_hit(r, 1.0) for r in records]
            out += hits if keep is None else [h for h in hits if keep(h)]
            if keep is None or offset is None or len(out) >= limit:
                return out[:limit]


# --- module helpers -----------------------------------------------------------------------


_MATCH: dict[str, Callable[[Any], Any]] = {
    "value": lambda v: qm.MatchValue(value=v), "prefix": lambda v: qm.MatchPrefix(prefix=v),
    "text": lambda v: qm.MatchText(text=v), "any": lambda v: qm.MatchAny(any=list(v)),
}  # fmt: skip
"""``base.find_match`` / ``base.filter_conditions`` match kinds -> qdrant-client match."""


def _match(key: str, value: str) -> qm.FieldCondition:
    return qm.FieldCondition(key=key, match=qm.MatchValue(value=value))


def _must(flt: StoreFilter) -> list[Any]:
    """``flt``'s conditions as ``models.FieldCondition``s, all of which must hold."""
    return [qm.FieldCondition(key=key, match=_MATCH[kind](operand))
            for key, kind, operand in filter_conditions(flt)]



def _file_point(terms: FileTerms) -> qm.PointStruct:
    # An empty vector is left out, as ``_point`` does: the point has no terms, so no search
    # finds it and it stays out of the IDF statistics.
    vector = {FILE_SPARSE: _sparse(terms.sparse)} if terms.sparse.indices else {}
    return qm.PointStruct(id=file_point_id(terms.repo, terms.path), vector=vector,
                          payload=file_payload(terms))


def _with_payload(fields: Sequence[str] | None) -> bool | list[str]:
    """None: the whole payload; ``()``: none; else only those keys."""
    return True if fields is None else (list(fields) or False)


def _to_filter(flt: StoreFilter) -> qm.Filter | None:
    """``StoreFilter`` -> ``models.Filter`` (all conditions in ``must``); None when empty."""
    must = _must(flt)
    return qm.Filter(must=must) if must else None


def _linear_formula(used: list[tuple[float, bool]], sparse_half: float) -> qm.FormulaQuery:
    """``sum_i w_i * $score[i]``, a sparse score saturated as ``s / (s + half)`` (as Edge's)."""
    terms: list[Any] = []
    for i, (weight, is_sparse) in enumerate(used):
        score: Any = f"$score[{i}]"
        if is_sparse:
            score = qm.DivExpression(div=qm.DivParams(
                left=score, right=qm.SumExpression(sum=[score, sparse_half]), by_zero_default=0.0))
        terms.append(qm.MultExpression(mult=[weight, score]))
    return qm.FormulaQuery(formula=qm.SumExpression(sum=terms),
                           defaults={f"$score[{i}]": 0.0 for i in range(len(used))})


def _sparse(vec: SparseVector) -> qm.SparseVector:
    return qm.SparseVector(indices=list(vec.indices), values=list(vec.values))


def _set_dense(client: QdrantClient, collection: str, batch: Mapping[str, Sequence[float]]) -> int:
    present = [str(r.id) for r in client.retrieve(collection, list(batch), with_payload=False,
                                                  with_vectors=False)]
    if present:
        updates = [qm.PointVectors(id=pid, vector={DENSE: list(batch[pid])}) for pid in present]
        client.update_vectors(collection, points=updates, wait=True)
    return len(present)


def _index_schemas() -> dict[str, Any]:
    """Payload indexes of a new collection (DESIGN.md "Chunk payload"), as Edge's."""
    keyword = qm.KeywordIndexType.KEYWORD
    schemas: dict[str, Any] = {f: qm.PayloadSchemaType.KEYWORD for f in KEYWORD_FIELDS}
    # is_tenant lets Qdrant co-locate a repo's points: most queries are repo-scoped.
    schemas["repo"] = qm.KeywordIndexParams(type=keyword, is_tenant=True)
    for field in PREFIX_FIELDS:
        schemas[field] = qm.KeywordIndexParams(type=keyword, prefix=True)
    for field in TEXT_FIELDS:
        schemas[field] = qm.TextIndexParams(type=qm.TextIndexType.TEXT,
                                            tokenizer=qm.TokenizerType.WHITESPACE, lowercase=True)
    return schemas


def _file_index_schemas() -> dict[str, Any]:
    """Payload indexes of the file index, as Edge's: every ``FILE_FIELDS`` keyword, ``path``
    also by prefix, ``repo`` as the tenant."""
    keyword = qm.KeywordIndexType.KEYWORD
    schemas: dict[str, Any] = {f: qm.PayloadSchemaType.KEYWORD for f in FILE_FIELDS}
    schemas["repo"] = qm.KeywordIndexParams(type=keyword, is_tenant=True)
    schemas["path"] = qm.KeywordIndexParams(type=keyword, prefix=True)
    return schemas


def _ensure_indexes(client: QdrantClient, collection: str, schemas: Mapping[str, Any]) -> None:
    """Create missing payload indexes (also heals a collection whose creation was cut short)."""
    existing = client.get_collection(collection).payload_schema or {}
    for field, schema in schemas.items():
        if field not in existing:
            client.create_payload_index(collection, field, field_schema=schema, wait=True)


def active_identity(cfg: StoreConfig) -> StoreIdentity | None:
    """The identity of the collection ``cfg.alias`` names on the server, None when there is
    no alias yet (the server counterpart of ``edge.active_identity``).

    Raises:
        StoreUnavailable: the server cannot be reached.
        StoreError: the collection's identity metadata is unreadable.
    """
    where = without_userinfo(cfg.url)
    client = connect(where, url=cfg.url, api_key=str(cfg.api_key), ca_file=cfg.ca_file,
                     prefer_grpc=cfg.prefer_grpc, timeout_s=cfg.timeout_s, location="", path="")
    try:
        target = _alias_target(client, cfg.alias)
        return None if target is None else _stored_identity(client, target)
    except StoreError:
        raise
    except Exception as exc:  # qdrant-client raises transport-specific errors
        raise store_error(f"store {where}: read alias {cfg.alias}", exc) from exc
    finally:
        client.close()


def _alias_target(client: QdrantClient, alias: str) -> str | None:
    found = [a.collection_name for a in client.get_aliases().aliases if a.alias_name == alias]
    return found[0] if found else None


def _stored_identity(client: QdrantClient, collection: str) -> StoreIdentity | None:
    """The identity in ``collection``'s metadata; None when it has none.

    Raises:
        StoreError: the metadata holds something that is not an identity.
    """
    metadata = client.get_collection(collection).config.metadata or {}
    if IDENTITY_KEY not in metadata:
        return None
    try:
        return StoreIdentity.from_json(str(metadata[IDENTITY_KEY]))
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"collection {collection}: unreadable {IDENTITY_KEY}: {exc}") from exc


def _describe(client: QdrantClient, collection: str) -> str:
    try:
        return str(_stored_identity(client, collection) or "an unknown identity (no metadata)")
    except StoreError as exc:
        return f"an unknown identity ({exc})"
