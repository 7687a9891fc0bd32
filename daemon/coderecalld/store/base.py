"""The vector store interface shared by the embedded (Edge) and server adapters.

A store holds one point per chunk (``records.PointRecord``): a named dense vector
``"dense"`` (optional, DESIGN.md decision 4), a named sparse vector ``"sparse"`` whose
weights Qdrant multiplies by IDF, and the chunk payload (DESIGN.md "Chunk payload") plus
the lowercased lookup copies ``name_lc`` / ``qualified_name_lc``, the split-identifier
``name_tokens`` and ``embed_text`` that the caller adds.

Beside the chunks, a store keeps a file index: one point per indexed file
(``records.FileTerms``, id ``file_point_id``) with a sparse vector ``FILE_SPARSE`` over
the whole file's terms and the payload ``FILE_FIELDS``, so that ``file_search`` ranks files
by BM25 with IDF taken over files, not chunks. It lives in its own shard / collection (a
chunk collection's vector config cannot change once it has segments) and the chunk methods
never see it.

Every method raises ``coderecalld.errors.StoreError`` (or its subclasses) on failure and
``InvalidArgument`` for a field the store cannot look up; nothing else escapes.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from coderecalld.errors import InvalidArgument, StoreError
from coderecalld.records import FileTerms, Hit, PointRecord, SparseVector

DENSE = "dense"
"""Name of the dense vector in every collection."""
SPARSE = "sparse"
"""Name of the sparse vector in every collection."""
FILE_SPARSE = "terms"
"""Name of the sparse vector of the file index (IDF modifier: IDF over files)."""
FILE_FIELDS = ("repo", "path", "role", "language")
"""The payload of a file point (``records.FileTerms`` without its vector)."""
FILE_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "coderecall.files.v1")
"""UUID namespace of ``file_point_id``; changing it orphans every stored file point."""

KEYWORD_FIELDS = frozenset(
    {
        "repo", "path", "language", "kind", "name", "qualified_name",
        "name_lc", "qualified_name_lc", "calls", "text_hash",
        "fq_name", "fq_aliases", "call_targets", "export_targets",
        "export_edges", "name_trigrams", "base_targets",
        "instance_edges", "instance_types", "role", "reference_targets", "returns",
    }
)
"""Payload fields with a keyword index: exact match (``find``) and ``find_any`` work on them."""
FACET_LIMIT = 100_000
"""Values one ``facet_any`` returns at most (re-export edges of every module importing a
popular module across an org: thousands, not millions)."""
PREFIX_FIELDS = frozenset({"path", "name_lc", "qualified_name_lc"})
"""Keyword fields indexed for prefix match (``find(..., prefix=True)``)."""
TEXT_FIELDS = frozenset({"name_tokens"})
"""Full-text indexed fields (whitespace tokens, lowercased): ``find`` requires every token."""
MISSING_DENSE_FIELDS = ("repo", "path", "embed_text", "text_hash")
"""Payload fields ``missing_dense`` returns (the embedder needs nothing else)."""
HIT_FIELDS = ("repo", "path", "language", "role", "kind", "name", "qualified_name", "parent",
              "signature", "docstring", "start_line", "end_line", "start_byte", "end_byte",
              "snippet", "fq_name", "prose")
"""Payload fields a search hit needs (``fields=HIT_FIELDS``): reading only these instead of
the whole payload (``embed_text``, ``call_sites``, ``imports`` are most of it) took a hybrid
query from 7.5 to 4.7 ms p50 at 100k points here (tests/bench/bench_scale.py store)."""


@dataclass(frozen=True, slots=True)
class Settled:
    """What ``Store.settle`` did: shards loaded again, and shards it left for a later call
    (too large to load again while requests wait)."""

    reloaded: int = 0
    deferred: int = 0


@dataclass(frozen=True, slots=True)
class StoreFilter:
    """Which points a query may see; every non-empty field must match (AND).

    ``repos`` is the caller's scope: ``()`` means *no restriction*, so the authorization
    layer must refuse an empty scope before it reaches the store. ``repo`` narrows within
    ``repos`` (both apply), never widens it. ``path`` is exact; ``path_prefix`` is a plain
    string prefix of the repository-relative path (``"src/"``, not a glob). ``roles``: the
    point's ``role`` is one of them (``files.classify.Role``; ``()``: any).
    """

    repo: str = ""
    repos: tuple[str, ...] = ()
    path: str = ""
    path_prefix: str = ""
    language: str = ""
    kind: str = ""
    roles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StoreIdentity:
    """What makes two collections' vectors comparable (DESIGN.md decision 7).

    ``model_id`` names the embedding model and its revision, ``dense_dim`` its output size,
    ``sparse_version`` the tokenizer (``sparse.TOKENIZER_VERSION``).
    """

    model_id: str
    dense_dim: int
    sparse_version: str

    @property
    def collection_name(self) -> str:
        """``chunks-<model slug>-<dim>-<12 hex of sha256(identity JSON)>``.

        Readable for operators; the digest makes any identity change a new name, so two
        vector spaces never share a collection.
        """
        slug = re.sub(r"[^a-z0-9]+", "-", self.model_id.lower()).strip("-")[:40] or "model"
        digest = hashlib.sha256(self.to_json().encode()).hexdigest()[:12]
        return f"chunks-{slug}-{self.dense_dim}-{digest}"

    def to_json(self) -> str:
        """Canonical JSON (sorted keys) of the three fields."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> StoreIdentity:
        """Inverse of ``to_json``; raises ``ValueError``/``KeyError``/``TypeError`` on bad input."""
        data = json.loads(text)
        return cls(str(data["model_id"]), int(data["dense_dim"]), str(data["sparse_version"]))

    def __str__(self) -> str:
        return f"model={self.model_id!r} dim={self.dense_dim} sparse={self.sparse_version!r}"


def find_match(field: str, value: str, prefix: bool) -> str:
    """How ``Store.find`` matches ``field``: ``"text"`` (every token), ``"prefix"`` or ``"value"``.

    Raises:
        InvalidArgument: an empty ``value`` (it would match everything or nothing useful), an
            unknown field, or ``prefix`` on a field without a prefix index.
    """
    if not value:
        raise InvalidArgument(f"find {field}: empty value")
    if field in TEXT_FIELDS and not prefix:
        return "text"
    if field in PREFIX_FIELDS and prefix:
        return "prefix"
    if field in KEYWORD_FIELDS and not prefix:
        return "value"
    kind = "prefix-indexed" if prefix else "indexed"
    raise InvalidArgument(f"find: {field!r} is not an {kind} payload field")


def filter_conditions(flt: StoreFilter) -> list[tuple[str, str, str | tuple[str, ...]]]:
    """``flt`` as ``(field, match, operand)`` conditions that must all hold; ``match`` is
    ``"value"`` (exact), ``"any"`` (one of a tuple) or ``"prefix"``. Each adapter turns them
    into its engine's conditions, so both read a filter the same way. ``[]`` when empty."""
    exact = (("repo", flt.repo), ("path", flt.path), ("language", flt.language), ("kind", flt.kind))
    out: list[tuple[str, str, str | tuple[str, ...]]] = [
        (key, "value", value) for key, value in exact if value]
    if flt.repos:
        out.append(("repo", "any", tuple(flt.repos)))
    if flt.path_prefix:
        out.append(("path", "prefix", flt.path_prefix))
    if flt.roles:
        out.append(("role", "any", tuple(flt.roles)))
    return out


def file_point_id(repo: str, path: str) -> str:
    """The file index's point id of ``repo``/``path``: ``uuid5(FILE_NAMESPACE, repo NUL
    path)`` as a string (deterministic; NUL appears in neither a repo name nor a git path)."""
    return str(uuid.uuid5(FILE_NAMESPACE, f"{repo}\0{path}"))


def file_payload(terms: FileTerms) -> dict[str, str]:
    """The payload of ``terms``' file point: exactly ``FILE_FIELDS``."""
    return {"repo": terms.repo, "path": terms.path, "role": terms.role,
            "language": terms.language}


def check_dim(where: str, dense: Sequence[float], dim: int) -> None:
    """Raise ``StoreError`` (``"<where>: dense vector has N dimensions, the collection M"``)
    unless ``dense`` has ``dim`` values: a wrong-sized vector is a bug or a model mix-up."""
    if len(dense) != dim:
        raise StoreError(f"{where}: dense vector has {len(dense)} dimensions, the collection {dim}")


def to_hit(point: Any, score: float) -> Hit:
    """A ``Hit`` from an engine's point (anything with ``id`` and ``payload``)."""
    return Hit(id=str(point.id), score=float(score), payload=dict(point.payload or {}))


def ranked_hits(points: Any) -> list[Hit]:
    """``Hit``s of an engine's scored points, best first, points of equal score by id: the
    engine orders a tie by where it keeps the points, which depends on the order they were
    written, so an index built in one pass and one synced commit by commit answered the
    same query in different orders (a newcomer's two runs on one commit disagreed). The
    ids are content keys (``index/points.py``), so a tie now orders the same on any store
    holding the same chunks."""
    return sorted((to_hit(p, p.score) for p in points), key=lambda h: (-h.score, h.id))


def to_record(point: Any) -> PointRecord:
    """A ``PointRecord`` from an engine's point with vectors (``vector`` maps ``DENSE`` to a
    list and ``SPARSE`` to an object with ``indices`` and ``values``; either may be absent)."""
    vectors = dict(point.vector or {})
    sparse, dense = vectors.get(SPARSE), vectors.get(DENSE)
    return PointRecord(
        id=str(point.id), payload=dict(point.payload or {}),
        sparse=SparseVector(tuple(sparse.indices), tuple(sparse.values)) if sparse is not None
        else SparseVector((), ()),
        dense=None if dense is None else tuple(dense))


class Store(Protocol):
    """A collection of chunk points with hybrid search and exact lookups, and beside it the
    file index (module docstring).

    Point ids are UUID strings. Scores: cosine similarity for ``dense_search``, the
    IDF-weighted dot product for ``sparse_search`` and ``file_search``, the fusion's score
    for ``hybrid`` (weighted RRF ``sum 1 / (k - 1 + (rank + 1) / w)``, rank 0-based,
    ``1 / (k + rank)`` at ``w = 1``; DBSF; or a linear formula), and 1.0 for lookups.
    """

    identity: StoreIdentity
    collection: str
    """``identity.collection_name``: the collection this store reads and writes."""

    def activate(self) -> None:
        """Make this collection the active one (what a non-staging open expects); atomic."""
        ...

    def upsert(self, points: Sequence[PointRecord]) -> None:
        """Insert or replace points (a point without ``dense`` is stored sparse-only)."""
        ...

    def set_dense(self, vectors: Mapping[str, Sequence[float]]) -> int:
        """Add dense vectors to existing points; ids no longer present are skipped.
        Returns how many points were updated."""
        ...

    def delete_file_except(self, repo: str, path: str, keep_ids: Collection[str]) -> int:
        """Delete the points of ``repo``/``path`` whose id is not in ``keep_ids``; returns
        how many were deleted (DESIGN.md decision 2: upsert the new set first)."""
        ...

    def delete_repo(self, repo: str) -> int:
        """Delete every point of ``repo``, its file-index points too; returns how many
        chunk points were deleted."""
        ...

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
        """Dense and sparse prefetches (``prefetch_limit`` each) fused in one query by
        ``method``: ``"rrf"`` (weighted), ``"dbsf"`` or ``"linear"`` (``weights[0] * cosine
        + weights[1] * s / (s + sparse_half)``, ``s`` the sparse score); ``weights`` are
        (dense, sparse). Sparse only when ``dense`` is None; ``[]`` when neither has
        content. Best first. ``fields``: the payload keys to return (None: all)."""
        ...

    def dense_search(self, dense: Sequence[float], flt: StoreFilter, limit: int,
                     fields: Sequence[str] | None = None) -> list[Hit]:
        """Nearest points by the dense vector alone (points without one never appear).
        ``fields``: the payload keys to return (None: all; ``()``: none)."""
        ...

    def sparse_search(self, sparse: SparseVector, flt: StoreFilter, limit: int,
                      fields: Sequence[str] | None = None) -> list[Hit]:
        """Best points by the sparse vector alone (BM25-like); ``fields`` as above."""
        ...

    def sparse_scores(self, sparse: SparseVector, ids: Collection[str]) -> dict[str, float]:
        """``sparse_search``'s score of each point of ``ids`` that shares a term with
        ``sparse`` (absent: no shared term, or no such point), scoring only those points."""
        ...

    def dense_scores(self, dense: Sequence[float], ids: Collection[str]) -> dict[str, float]:
        """``dense_search``'s cosine of each point of ``ids`` that has a dense vector
        (absent: no vector yet, or no such point), scoring only those points."""
        ...

    def retrieve(self, ids: Sequence[str], fields: Sequence[str] | None = None) -> list[Hit]:
        """The points of ``ids`` that exist, in that order, score 1.0; ``fields`` as above."""
        ...

    def find(
        self, flt: StoreFilter, field: str, value: str, prefix: bool = False, limit: int = 100
    ) -> list[Hit]:
        """Points whose keyword ``field`` equals ``value`` (or starts with it when ``prefix``,
        allowed on ``PREFIX_FIELDS``), or whose text ``field`` holds every token of ``value``."""
        ...

    def find_any(
        self, flt: StoreFilter, field: str, values: Collection[str], limit: int = 100,
        fields: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Points whose keyword ``field`` (e.g. the ``calls`` array) holds any of ``values``;
        ``fields``: the payload keys to return (None: all)."""
        ...

    def facet_any(self, flt: StoreFilter, key: str, field: str, values: Collection[str],
                  limit: int = FACET_LIMIT) -> set[str]:
        """The distinct values of keyword ``key`` over the points whose keyword ``field``
        holds any of ``values`` (an exact facet: read from the keyword indexes, no payload
        decoded); the most frequent ``limit`` per facet the adapter asks (the embedded store
        asks one per value, a server one for all); ``set()`` when ``values`` is empty.
        Raises ``InvalidArgument`` for a field without a keyword index."""
        ...

    def find_overlap(
        self, flt: StoreFilter, field: str, values: Collection[str], min_count: int, limit: int = 100,
        fields: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Points whose keyword array ``field`` holds at least ``min_count`` (>= 1) of the
        distinct ``values`` (Qdrant's ``min_should``; the trigram index of ``fuzzy``);
        ``fields``: the payload keys to return (None: all)."""
        ...

    def missing_dense(self, limit: int, repos: Collection[str] = ()) -> list[Hit]:
        """Up to ``limit`` points waiting for a dense vector (of ``repos`` only, when given: a
        replica embeds its own repos' points); payload holds ``repo``, ``path``,
        ``embed_text`` and ``text_hash``. A point whose ``embed_text`` is ``""`` (nothing to
        search: ``points.searchable``) never waits."""
        ...

    def all_points(self, repo: str) -> list[PointRecord]:
        """Every point of ``repo`` with payload and vectors (unbounded: audits and tests)."""
        ...

    def count(self, flt: StoreFilter | None = None) -> int:
        """Exact number of points matching ``flt`` (all points when None)."""
        ...

    def count_missing_dense(self, repo: str = "", flt: StoreFilter | None = None, upper: bool = False) -> int:
        """Exact number of points of ``repo`` (every repo when ``""``), within ``flt`` when
        given, waiting for a dense vector (as ``missing_dense`` counts them). ``upper``:
        every point without one, those never embedded (a blank ``embed_text``) too, an upper
        bound read from the vectors alone (the exact count reads every payload's text: 1.6 s
        at 100k points on the embedded engine, 2 ms for the bound)."""
        ...

    def upsert_files(self, files: Sequence[FileTerms]) -> None:
        """Insert or replace one file-index point per element (id ``file_point_id``,
        payload ``FILE_FIELDS``, vector ``FILE_SPARSE``). A file with an empty sparse vector
        is stored without terms: ``count_files`` counts it, ``file_search`` never returns
        it, and it stays out of the IDF statistics."""
        ...

    def delete_files(self, repo: str, paths: Collection[str]) -> int:
        """Delete the file-index points of ``repo`` whose path is one of ``paths`` (exact);
        returns how many were deleted (``0`` for ``()``)."""
        ...

    def file_search(self, sparse: SparseVector, flt: StoreFilter, limit: int) -> list[Hit]:
        """Best files by the IDF-weighted sparse dot product on ``FILE_SPARSE`` (IDF over
        the file points that have terms), best first. ``Hit.id`` is the ``file_point_id``,
        the payload exactly ``FILE_FIELDS``. ``flt``'s ``repo``, ``repos``, ``path``,
        ``path_prefix``, ``language`` and ``roles`` apply; ``kind`` is ignored (a file has
        none). ``[]`` for an empty ``sparse`` or ``limit <= 0``."""
        ...

    def count_files(self, repo: str = "") -> int:
        """Exact number of file-index points (of ``repo`` when given)."""
        ...

    def repos(self) -> set[str] | None:
        """The ``repo`` values the collection holds, when this process can know them for
        sure (it is the only writer); None otherwise."""
        ...

    def optimize(self) -> bool:
        """Run the engine's optimizers (index graphs, merge segments) until none has work,
        over the chunks and the file index; True when anything was rewritten. A server that
        optimizes on its own returns False."""
        ...

    def settle(self, now: bool = False) -> Settled:
        """After a sync: make the deleted points leave the sparse IDF statistics where the
        engine keeps counting them (the embedded engine until a shard is loaded again).
        ``now``: requests are being served, so work that would hold them for seconds is
        deferred to a call without it (``Settled.deferred``)."""
        ...

    def flush(self) -> None:
        """Make every acknowledged write durable (chunks and file index)."""
        ...

    def close(self) -> None:
        """Flush and release the store; later calls raise ``StoreUnavailable``. Idempotent."""
        ...
