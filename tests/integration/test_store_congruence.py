"""Congruence: the same store scenarios against the Edge adapter and the server adapter.

``EdgeStore`` runs the real embedded engine in tmp_path; ``ServerStore`` runs qdrant-client's
local mode (the server API in-process) on a directory. Each scenario asserts exact values
computed here from the definitions (cosine, BM25 with Qdrant's IDF, weighted RRF, DBSF, the
linear formula, the filters as predicates) and returns its outcomes; ``test_adapters_agree``
runs it on both adapters and requires the same ids in the same order and scores within
1e-4. Points with equal scores may come in either order (neither engine promises one), so
equal-score runs compare as sets.

Not compared: sparse scores after a delete. The engine keeps counting a deleted point in its
IDF statistics until the segment is optimized; local mode drops it at once. Scenarios
that delete check counts and ids only.
"""

from __future__ import annotations

import hashlib
import math
import random
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from coderecalld.config import Config, EmbeddingConfig, RepoConfig
from coderecalld.embed import sparse
from coderecalld.errors import InvalidArgument, StoreError, StoreMismatch, StoreUnavailable
from coderecalld.index.pipeline import Pipeline
from coderecalld.query import fusion
from coderecalld.query.service import Service
from coderecalld.records import Hit, PointRecord, SparseVector
from coderecalld.store import EdgeStore, StoreFilter, edge
from coderecalld.store import server as server_module
from coderecalld.store.base import MISSING_DENSE_FIELDS
from coderecalld.store.ledger import Ledger
from coderecalld.store.server import ServerStore
from gitfixtures import GitRepo
from qdrant_client import QdrantClient
from storepoints import make_point

DIM = 8
MODEL = "congruence-model@1"
ADAPTERS = ("edge", "server")
DEEP_PATH = "src/tiefe Ordner/ünïcödé dir/日本語/with space/file name.py"
TV = sparse.TOKENIZER_VERSION


# --- the two adapters ----------------------------------------------------------------------


class Backend:
    """Opens stores of one adapter under ``root``; closes them all at the end.

    The server adapter's stores share one in-memory local-mode client, as replicas share
    one server (persistence across clients is tests/unit/test_store_server.py's).
    """

    def __init__(self, kind: str, root: Path) -> None:
        self.kind, self.root = kind, root
        self.client = QdrantClient(location=":memory:") if kind == "server" else None
        self.stores: list[Any] = []

    def open(self, model: str = MODEL, dim: int = DIM, staging: bool = False) -> Any:
        if self.client is None:
            store: Any = EdgeStore(self.root / "store", dim, model, TV, staging=staging)
        else:
            store = ServerStore(dim, model, TV, client=self.client, staging=staging)
        self.stores.append(store)
        return store

    def close(self) -> None:
        for store in self.stores:
            store.close()
        if self.client is not None:
            self.client.close()


@contextmanager
def backend(kind: str, root: Path) -> Iterator[Backend]:
    root.mkdir(parents=True, exist_ok=True)
    b = Backend(kind, root)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(autouse=True)
def _small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages of 3 points, so ``all_points`` and local mode's text re-check page for real."""
    monkeypatch.setattr(edge, "ALL_POINTS_PAGE", 3)
    monkeypatch.setattr(server_module, "ALL_POINTS_PAGE", 3)


# --- data ----------------------------------------------------------------------------------


def unit_vector(seed: str, dim: int = DIM) -> tuple[float, ...]:
    """A deterministic random unit vector (seeded by a stable digest of ``seed``)."""
    rng = random.Random(hashlib.sha256(seed.encode()).digest())
    raw = [rng.gauss(0.0, 1.0) for _ in range(dim)]
    norm = math.sqrt(sum(x * x for x in raw))
    return tuple(x / norm for x in raw)


def point(qualified_name: str, text: str, *, dense: bool = True, repo: str = "org/a",
          **fields: Any) -> PointRecord:
    """A point named by the last segment of ``qualified_name``, with a seeded dense vector
    unless ``dense`` is False."""
    vector = unit_vector(f"{repo}/{qualified_name}") if dense else None
    return make_point(qualified_name.rsplit(".", 1)[-1], text, qualified_name=qualified_name,
                      repo=repo, dense=vector, **fields)


def corpus() -> list[PointRecord]:
    """Two repos, two languages, several kinds; a third of the points without a dense vector."""
    return [
        point("config.parse_json", "parse json text into a config mapping"),
        point("config.load_config", "read the config file then parse json", calls=("parse_json", "open")),
        point("config.ConfigError", "raised when a config value is bad", kind="class"),
        point("http.HTTPServer", "serve http requests on a socket", kind="class", path="app/http.py"),
        point("http.HTTPServer.serve", "accept connections and parse each request",
              kind="method", path="app/http.py", calls=("accept", "parse_request")),
        point("http.parse_request", "parse an http request line and headers", path="app/http.py",
              dense=False),
        point("cache.Entry.read", "read a cache entry from disk", kind="method", path="app/cache.py",
              dense=False),
        point("cache.evict", "evict the oldest cache entries", path="app/cache.py"),
        point("tokens.validate_token", "validate a bearer token signature", path=DEEP_PATH,
              calls=("hmac.compare_digest", "decode")),
        point("tokens.HMACValidator", "hmac validator for webhook signatures", kind="class",
              path=DEEP_PATH, dense=False),
        point("main.go.ParseFlags", "parse command line flags", repo="org/b", path="cmd/main.go",
              language="go"),
        point("main.go.Serve", "serve json over http", repo="org/b", path="cmd/serve.go",
              language="go", calls=("json.Marshal", "ListenAndServe")),
        point("main.go.retryBackoff", "retry with exponential backoff", repo="org/b",
              path="cmd/retry.go", language="go", dense=False),
        point("widgets.render", "render widget tree to html", repo="org/b", path="web/render.py"),
        point("widgets.Widget", "a widget with children", repo="org/b", path="web/render.py",
              kind="class"),
        # No terms at all: stored with an empty sparse vector, found by dense only.
        point("-", "", repo="org/b", path="web/empty.py"),
    ]  # fmt: skip


# --- expected values, from the definitions -----------------------------------------------


def matches(payload: dict, flt: StoreFilter) -> bool:
    """``StoreFilter`` as a predicate (base.StoreFilter's docstring)."""
    exact = (("repo", flt.repo), ("path", flt.path), ("language", flt.language), ("kind", flt.kind))
    return (all(payload[k] == v for k, v in exact if v)
            and (not flt.repos or payload["repo"] in flt.repos)
            and payload["path"].startswith(flt.path_prefix))


def expected_dense(points: list[PointRecord], query: tuple[float, ...], flt: StoreFilter
                   ) -> list[tuple[str, float]]:
    """Cosine similarity (vectors are unit length) of every matching point with a vector."""
    scored = [(p.id, sum(a * b for a, b in zip(p.dense, query)))
              for p in points if p.dense is not None and matches(p.payload, flt)]
    return sorted(scored, key=lambda s: -s[1])


def expected_sparse(points: list[PointRecord], query: SparseVector, flt: StoreFilter
                    ) -> list[tuple[str, float]]:
    """Dot product with the query weighted by Qdrant's IDF, ``ln(1 + (N - n + 0.5) / (n + 0.5))``,
    N = points with a non-empty sparse vector, n = those holding the term (collection-wide:
    the filter does not change the statistics)."""
    corpus_vectors = [dict(zip(p.sparse.indices, p.sparse.values)) for p in points if p.sparse.indices]
    total = len(corpus_vectors)
    idf = {t: math.log(1 + (total - n + 0.5) / (n + 0.5))
           for t in query.indices for n in [sum(t in v for v in corpus_vectors)]}
    scored = []
    for p in points:
        doc = dict(zip(p.sparse.indices, p.sparse.values))
        shared = [t for t in query.indices if t in doc]
        if shared and matches(p.payload, flt):
            q = dict(zip(query.indices, query.values))
            scored.append((p.id, sum(q[t] * idf[t] * doc[t] for t in shared)))
    return sorted(scored, key=lambda s: -s[1])


def expected_rrf(rankings: list[list[tuple[str, float]]], weights: list[float], k: int
                 ) -> dict[str, float]:
    """Qdrant's weighted RRF: ``sum_i 1 / (k - 1 + (rank_i + 1) / w_i)``, rank 0-based; so
    ``1 / (k + rank)`` at weight 1, and nothing at weight 0."""
    out: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, (pid, _) in enumerate(ranking):
            out[pid] = out.get(pid, 0.0) + (1 / (k - 1 + (rank + 1) / weight) if weight > 0 else 0.0)
    return out


def expected_dbsf(rankings: list[list[tuple[str, float]]]) -> dict[str, float]:
    """Distribution-based score fusion: each list's scores mapped by ``(s - (mu - 3 sd)) / 6 sd``
    (sample standard deviation; 0.5 for a list of one or of equal scores), then summed."""
    out: dict[str, float] = {}
    for ranking in rankings:
        scores = [s for _, s in ranking]
        mean = sum(scores) / len(scores)
        sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1)) if len(scores) > 1 else 0
        for pid, s in ranking:
            norm = 0.5 if sd == 0 else (s - (mean - 3 * sd)) / (6 * sd)
            out[pid] = out.get(pid, 0.0) + norm
    return out


def expected_linear(dense: list[tuple[str, float]], sparse_: list[tuple[str, float]],
                    weights: tuple[float, float], half: float) -> dict[str, float]:
    """``w_dense * cosine + w_sparse * s / (s + half)``; an absent score adds 0."""
    out = {pid: weights[0] * s for pid, s in dense}
    for pid, s in sparse_:
        out[pid] = out.get(pid, 0.0) + weights[1] * s / (s + half)
    return out


def pairs(hits: list[Hit]) -> list[tuple[str, float]]:
    return [(h.id, h.score) for h in hits]


def assert_ranked(hits: list[Hit], expected: dict[str, float] | list[tuple[str, float]],
                  limit: int) -> None:
    """``hits`` are the best ``limit`` of ``expected`` (id -> score), best first; ties in any order."""
    ranked = sorted(dict(expected).items(), key=lambda s: -s[1])
    want = ranked[:limit]
    # A limit inside a run of equal scores may keep either member: the test must not ask.
    assert len(ranked) <= limit or ranked[limit - 1][1] - ranked[limit][1] > 1e-4, "limit cuts a tie"
    assert len(hits) == len(want)
    for hit, (_, score) in zip(hits, want):
        assert hit.score == pytest.approx(score, abs=1e-4)
    assert canonical(pairs(hits)) == canonical(want)


def canonical(ranked: list[tuple[str, float]]) -> list[tuple[float, list[str]]]:
    """Runs of equal scores (within 1e-4) as (score, sorted ids): the order ties may not fix."""
    runs: list[tuple[float, list[str]]] = []
    for pid, score in ranked:
        if runs and abs(runs[-1][0] - score) <= 1e-4:
            runs[-1][1].append(pid)
        else:
            runs.append((score, [pid]))
    return [(round(score, 4), sorted(ids)) for score, ids in runs]


def in_id_order(ids: list[str]) -> list[str]:
    return sorted(ids, key=lambda pid: uuid.UUID(pid).int)


def ids_of(points: list[PointRecord], keep: Callable[[PointRecord], bool]) -> list[str]:
    return in_id_order([p.id for p in points if keep(p)])


# --- scenarios -----------------------------------------------------------------------------

Scenario = Callable[[Backend], dict[str, Any]]
SCENARIOS: dict[str, Scenario] = {}


def scenario(fn: Scenario) -> Scenario:
    SCENARIOS[fn.__name__] = fn
    return fn


@scenario
def writes_and_counts(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    out = {
        "all": store.count(), "org/a": store.count(StoreFilter(repo="org/a")),
        "go": store.count(StoreFilter(language="go")),
        "missing": store.count_missing_dense(), "missing org/b": store.count_missing_dense("org/b"),
    }  # fmt: skip
    out["missing in scope"] = store.count_missing_dense(flt=StoreFilter(repos=("org/a", "org/b")))
    out["missing org/b in scope"] = store.count_missing_dense("org/b", flt=StoreFilter(repos=("org/a",)))
    out["missing go"] = store.count_missing_dense(flt=StoreFilter(language="go"))
    assert out == {"all": 16, "org/a": 10, "go": 3, "missing": 4, "missing org/b": 1,
                   "missing in scope": 4, "missing org/b in scope": 0,
                   "missing go": sum(1 for p in points if p.dense is None and p.payload["language"] == "go")}
    # Upserting the same id replaces the point: payload and vectors, no second copy.
    replaced = point("config.parse_json", "now about yaml", dense=False)
    store.upsert([replaced])
    assert store.count() == 16 and store.count_missing_dense("org/a") == 4
    hit = store.find(StoreFilter(), "qualified_name", "config.parse_json")
    assert [(h.id, h.payload["embed_text"]) for h in hit] == [(replaced.id, "parse_json\nnow about yaml")]
    out["after replace"] = pairs(hit)
    return out


@scenario
def nothing_to_embed_never_waits(b: Backend) -> dict[str, Any]:
    """A point with a blank ``embed_text`` (an imports-only module chunk: ``points.searchable``)
    is stored and found by name, but never waits for a dense vector."""
    store, points = b.open(), corpus()
    blank = point("pkg", "", dense=False, kind="module")
    blank = PointRecord(blank.id, {**blank.payload, "embed_text": ""}, SparseVector((), ()), None)
    store.upsert([*points, blank])
    waiting = [p.id for p in points if p.dense is None]
    assert sorted(h.id for h in store.missing_dense(100)) == sorted(waiting)
    assert store.count_missing_dense() == store.count_missing_dense("org/a") + 1 == len(waiting)
    assert [h.id for h in store.find(StoreFilter(), "qualified_name", "pkg")] == [blank.id]
    assert blank.id not in {h.id for h in store.sparse_search(sparse.query_vector("pkg"), StoreFilter(), 100)}
    return {"missing": store.count_missing_dense(), "found": [blank.id]}


@scenario
def dense_vectors_later(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    missing = store.missing_dense(100)
    assert [h.id for h in missing] == ids_of(points, lambda p: p.dense is None)
    assert all(set(h.payload) == set(MISSING_DENSE_FIELDS) for h in missing)
    assert missing[0].payload["embed_text"] == next(
        p.payload["embed_text"] for p in points if p.id == missing[0].id)
    assert [h.id for h in store.missing_dense(2)] == [h.id for h in missing[:2]]
    only_b = store.missing_dense(100, repos=("org/b",))
    assert [h.id for h in only_b] == ids_of(points, lambda p: p.dense is None and p.payload["repo"] == "org/b")
    assert len(only_b) == 1 and store.missing_dense(100, repos=("org/zzz",)) == []
    lonely = next(p for p in points if p.payload["qualified_name"] == "cache.Entry.read")
    assert lonely.id not in {h.id for h in store.dense_search(unit_vector("q"), StoreFilter(), 100)}
    direction = unit_vector("cache direction")
    gone = str(uuid.uuid4())  # deleted meanwhile: skipped, not an error
    assert store.set_dense({lonely.id: direction, gone: direction}) == 1
    top = store.dense_search(direction, StoreFilter(), 1)
    assert [h.id for h in top] == [lonely.id] and top[0].score == pytest.approx(1.0, abs=1e-5)
    assert store.count_missing_dense() == 3
    with pytest.raises(StoreError, match="3 dimensions"):
        store.set_dense({lonely.id: (1.0, 0.0, 0.0)})
    with pytest.raises(StoreError, match="9 dimensions"):
        store.upsert([PointRecord(str(uuid.uuid4()), {"repo": "org/a"}, SparseVector((), ()), (0.1,) * 9)])
    with pytest.raises(StoreError, match="2 dimensions"):
        store.dense_search((1.0, 0.0), StoreFilter(), 1)
    assert store.count() == 16
    return {"missing": pairs(missing), "top": pairs(top), "missing after": store.count_missing_dense()}


@scenario
def deletes(b: Backend) -> dict[str, Any]:
    store = b.open()
    keep = point("keep_me", "x", path=DEEP_PATH)
    stale = [point(f"stale_{i}", "x", path=DEEP_PATH) for i in range(3)]
    sibling = point("sibling", "x", path=DEEP_PATH + "x")  # shares the path as a prefix
    other_repo = point("keep_me", "x", repo="org/other", path=DEEP_PATH)
    store.upsert([keep, *stale, sibling, other_repo])
    out = [store.delete_file_except("org/a", DEEP_PATH, {keep.id}),
           store.count(StoreFilter(repo="org/a", path=DEEP_PATH)),
           store.delete_file_except("org/a", DEEP_PATH, ()),
           store.count(StoreFilter(repo="org/a", path=DEEP_PATH)),
           store.count(StoreFilter(repo="org/a", path=DEEP_PATH + "x")),
           store.count(StoreFilter(repo="org/other")),
           store.delete_file_except("org/a", DEEP_PATH, ()),
           store.delete_repo("org/other"), store.delete_repo("org/other"), store.count()]
    assert out == [3, 1, 1, 0, 1, 1, 0, 1, 0, 1]
    assert [p.id for p in store.all_points("org/a")] == [sibling.id]
    return {"counts": out}


@scenario
def lookups(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    every = StoreFilter()

    def qnames(hits: list[Hit]) -> list[str]:
        by_id = {p.id: p.payload["qualified_name"] for p in points}
        assert [h.id for h in hits] == in_id_order([h.id for h in hits])  # scroll: id order
        assert all(h.score == 1.0 for h in hits)
        return sorted(by_id[h.id] for h in hits)

    out = {
        "exact": qnames(store.find(every, "name", "HTTPServer")),
        "lowercase": qnames(store.find(every, "name_lc", "httpserver")),
        "prefix name": qnames(store.find(every, "name_lc", "parse", prefix=True)),
        "prefix qualified": qnames(store.find(every, "qualified_name_lc", "http.httpserver", prefix=True)),
        "prefix path": qnames(store.find(every, "path", "src/tiefe", prefix=True)),
        "text": qnames(store.find(every, "name_tokens", "HTTP server")),
        # Whitespace tokens: "entry_read" is no token of "cache entry read" (a word
        # tokenizer would split it and match).
        "text whole token": qnames(store.find(every, "name_tokens", "entry_read")),
        "text identifier": qnames(store.find(every, "name_tokens", "validate_token")),
        "calls": qnames(store.find_any(every, "calls", ["parse_json", "decode", "nope"])),
        "calls go": qnames(store.find_any(StoreFilter(language="go"), "calls", ["json.Marshal", "decode"])),
        "scoped": qnames(store.find(StoreFilter(repo="org/b"), "name_lc", "parse", prefix=True)),
        "limited": qnames(store.find(every, "path", "app/", prefix=True, limit=4)),
    }
    assert out == {
        "exact": ["http.HTTPServer"], "lowercase": ["http.HTTPServer"],
        "prefix name": ["config.parse_json", "http.parse_request", "main.go.ParseFlags"],
        "prefix qualified": ["http.HTTPServer", "http.HTTPServer.serve"],
        "prefix path": ["tokens.HMACValidator", "tokens.validate_token"],
        "text": ["http.HTTPServer", "http.HTTPServer.serve"],
        "text whole token": [],
        "text identifier": ["tokens.validate_token"],
        "calls": ["config.load_config", "tokens.validate_token"],
        "calls go": ["main.go.Serve"],
        "scoped": ["main.go.ParseFlags"],
        "limited": qnames([Hit(pid, 1.0) for pid in ids_of(
            points, lambda p: p.payload["path"].startswith("app/"))[:4]]),
    }  # fmt: skip
    # find_overlap (fuzzy symbol search's trigram index): at least m of the values.
    wanted = ["parse_json", "decode", "json.Marshal", "read", "nope"]
    for m in (1, 2):
        expect = sorted(p.payload["qualified_name"] for p in points
                        if len(set(p.payload.get("calls", [])) & set(wanted)) >= m)
        assert qnames(store.find_overlap(every, "calls", wanted, m)) == expect
        out[f"overlap {m}"] = expect
    assert out["overlap 1"] == sorted(qnames(store.find_any(every, "calls", wanted)))
    assert store.find_overlap(every, "calls", [], 1) == []
    with pytest.raises(InvalidArgument):
        store.find_overlap(every, "calls", wanted, len(wanted) + 1)
    assert store.find_any(every, "calls", []) == []
    assert store.find(every, "name", "HTTPServer", limit=0) == []
    for bad in [lambda: store.find(every, "calls", "dec", prefix=True),
                lambda: store.find(every, "signature", "x"),
                lambda: store.find(every, "name_lc", ""),
                lambda: store.find_any(every, "embed_text", ["x"])]:
        with pytest.raises(InvalidArgument):
            bad()
    return out


@scenario
def facets(b: Backend) -> dict[str, Any]:
    """``facet_any``: distinct values of one keyword field over the points another holds
    any of the values of (what ``callgraph.aliases`` reads re-export edges with)."""
    store, points = b.open(), corpus()
    store.upsert(points)

    def values(payload: dict, key: str) -> set[str]:
        v = payload.get(key)
        return set(v) if isinstance(v, list) else {v} if v else set()

    def expect(flt: StoreFilter, key: str, field: str, wanted: list[str]) -> set[str]:
        return {v for p in points if matches(p.payload, flt) and values(p.payload, field) & set(wanted)
                for v in values(p.payload, key)}

    cases = {
        "calls by path": (StoreFilter(), "calls", "path", ["app/http.py", "cmd/serve.go"]),
        "names by calls": (StoreFilter(), "name", "calls", ["decode", "open", "nope"]),
        "scoped": (StoreFilter(repo="org/b"), "calls", "language", ["go", "python"]),
        "nothing": (StoreFilter(), "calls", "calls", ["nope"]),
    }
    out = {}
    for label, (flt, key, field, wanted) in cases.items():
        got = store.facet_any(flt, key, field, wanted)
        assert got == expect(flt, key, field, wanted), label
        out[label] = sorted(got)
    assert out["names by calls"] == ["load_config", "validate_token"]
    assert out["scoped"] == ["ListenAndServe", "json.Marshal"]
    assert store.facet_any(StoreFilter(), "calls", "calls", []) == set()
    for key, field in (("embed_text", "calls"), ("calls", "signature")):
        with pytest.raises(InvalidArgument):
            store.facet_any(StoreFilter(), key, field, ["x"])
    return out


FILTERS = {
    "repo": StoreFilter(repo="org/b"),
    "repos": StoreFilter(repos=("org/a", "org/b")),
    "repo within repos": StoreFilter(repo="org/a", repos=("org/a", "org/x")),
    "repo outside repos": StoreFilter(repo="org/b", repos=("org/a",)),  # narrows, never widens
    "path": StoreFilter(path="app/http.py"),
    "path_prefix": StoreFilter(path_prefix="app/c"),
    "deep path_prefix": StoreFilter(path_prefix="src/tiefe Ordner/ünïcödé"),
    "language": StoreFilter(language="go"),
    "kind": StoreFilter(kind="class"),
    "everything": StoreFilter(repos=("org/a",), language="python", kind="method", path_prefix="app/"),
}


@scenario
def filters(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    q_dense, q_sparse = unit_vector("query"), sparse.query_vector("parse http request json")
    out: dict[str, Any] = {}
    for label, flt in FILTERS.items():
        want = ids_of(points, lambda p: matches(p.payload, flt))
        assert store.count(flt) == len(want), label
        hits = store.hybrid(q_dense, q_sparse, flt, limit=100)
        reachable = {p.id for p in points if matches(p.payload, flt) and (
            p.dense is not None or set(p.sparse.indices) & set(q_sparse.indices))}
        assert {h.id for h in hits} == reachable, label
        assert_ranked(store.dense_search(q_dense, flt, 100), expected_dense(points, q_dense, flt), 100)
        assert_ranked(store.sparse_search(q_sparse, flt, 100), expected_sparse(points, q_sparse, flt), 100)
        out[label] = (store.count(flt), pairs(hits))
    assert [out[k][0] for k in FILTERS] == [6, 16, 10, 0, 3, 2, 2, 3, 4, 2]
    return out


@scenario
def dense_and_sparse_ranking(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    q_dense = unit_vector("org/a/config.parse_json")  # that point's own vector
    q_sparse = sparse.query_vector("parse json config")
    dense_hits = store.dense_search(q_dense, StoreFilter(), 5)
    sparse_hits = store.sparse_search(q_sparse, StoreFilter(), 4)
    assert_ranked(dense_hits, expected_dense(points, q_dense, StoreFilter()), 5)
    assert_ranked(sparse_hits, expected_sparse(points, q_sparse, StoreFilter()), 4)
    assert dense_hits[0].payload["qualified_name"] == "config.parse_json"  # its own vector
    assert dense_hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert sparse_hits[0].payload["qualified_name"] == "config.parse_json"
    # IDF is collection-wide: a filter removes points, not statistics.
    scoped = store.sparse_search(q_sparse, StoreFilter(repo="org/b"), 5)
    assert_ranked(scoped, expected_sparse(points, q_sparse, StoreFilter(repo="org/b")), 5)
    assert store.sparse_search(sparse.query_vector("!!"), StoreFilter(), 5) == []
    assert store.dense_search(q_dense, StoreFilter(), 0) == []
    return {"dense": pairs(dense_hits), "sparse": pairs(sparse_hits), "scoped": pairs(scoped)}


def _prefetches(points: list[PointRecord], flt: StoreFilter = StoreFilter()
                ) -> tuple[tuple[float, ...], SparseVector, list[tuple[str, float]], list[tuple[str, float]]]:
    q_dense = unit_vector("serve http")
    q_sparse = sparse.query_vector("serve http json request")
    return q_dense, q_sparse, expected_dense(points, q_dense, flt), expected_sparse(points, q_sparse, flt)


@scenario
def hybrid_rrf(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    q_dense, q_sparse, dense, sparse_ = _prefetches(points)
    every = StoreFilter()
    equal = store.hybrid(q_dense, q_sparse, every, limit=100)
    assert_ranked(equal, expected_rrf([dense, sparse_], [1.0, 1.0], 60), 100)
    weighted = store.hybrid(q_dense, q_sparse, every, limit=5, rrf_k=10, weights=(1.0, 0.3))
    assert_ranked(weighted, expected_rrf([dense, sparse_], [1.0, 0.3], 10), 5)
    # A prefetch limit cuts each list before fusion.
    short = store.hybrid(q_dense, q_sparse, every, limit=100, prefetch_limit=2)
    assert_ranked(short, expected_rrf([dense[:2], sparse_[:2]], [1.0, 1.0], 60), 100)
    sparse_only = store.hybrid(None, q_sparse, every, limit=3)
    assert_ranked(sparse_only, expected_rrf([sparse_], [1.0], 60), 3)
    dense_only = store.hybrid(q_dense, sparse.query_vector("!!"), every, limit=3)
    assert_ranked(dense_only, expected_rrf([dense], [1.0], 60), 3)
    assert store.hybrid(None, sparse.query_vector("!!"), every, limit=3) == []
    assert store.hybrid(q_dense, q_sparse, every, limit=0) == []
    scoped = store.hybrid(q_dense, q_sparse, StoreFilter(repo="org/b"), limit=100)
    _, _, dense_b, sparse_b = _prefetches(points, StoreFilter(repo="org/b"))
    assert_ranked(scoped, expected_rrf([dense_b, sparse_b], [1.0, 1.0], 60), 100)
    return {k: pairs(v) for k, v in {"equal": equal, "weighted": weighted, "short": short,
                                    "sparse_only": sparse_only, "dense_only": dense_only,
                                    "scoped": scoped}.items()}


@scenario
def hybrid_dbsf(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    q_dense, q_sparse, dense, sparse_ = _prefetches(points)
    hits = store.hybrid(q_dense, q_sparse, StoreFilter(), limit=6, method="dbsf")
    assert_ranked(hits, expected_dbsf([dense, sparse_]), 6)
    sparse_only = store.hybrid(None, q_sparse, StoreFilter(), limit=100, method="dbsf")
    assert_ranked(sparse_only, expected_dbsf([sparse_]), 100)
    return {"both": pairs(hits), "sparse_only": pairs(sparse_only)}


@scenario
def hybrid_linear(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    q_dense, q_sparse, dense, sparse_ = _prefetches(points)
    out = {}
    for weights, half in [((1.0, 0.5), 2.0), ((1.0, 0.1), 20.0), ((0.0, 1.0), 1.0)]:
        hits = store.hybrid(q_dense, q_sparse, StoreFilter(), limit=5, weights=weights,
                            method="linear", sparse_half=half)
        assert_ranked(hits, expected_linear(dense, sparse_, weights, half), 5)
        out[f"{weights} {half}"] = pairs(hits)
    lexical = store.hybrid(None, q_sparse, StoreFilter(), limit=100, method="linear", sparse_half=3.0)
    assert_ranked(lexical, expected_linear([], sparse_, (1.0, 1.0), 3.0), 100)
    out["sparse only"] = pairs(lexical)
    return out


@scenario
def retrievers_and_fields(b: Backend) -> dict[str, Any]:
    """Each retriever with ``fields=()``: its own ranking, ids and scores, no payload;
    ``sparse_scores``: the sparse score of exactly the ids asked that share a term;
    ``retrieve``: the points asked, in that order, unknown ids skipped; ``fields``: a hit
    carries exactly the payload keys asked for, nothing else."""
    store, points = b.open(), corpus()
    store.upsert(points)
    q_dense, q_sparse, dense, sparse_ = _prefetches(points)
    top_dense = store.dense_search(q_dense, StoreFilter(), 3, fields=())
    top_sparse = store.sparse_search(q_sparse, StoreFilter(), 3, fields=())
    assert_ranked(top_dense, dense, 3)
    assert_ranked(top_sparse, sparse_, 3)
    assert all(h.payload == {} for h in top_dense + top_sparse)
    scoped = store.sparse_search(q_sparse, StoreFilter(repo="org/b"), 2, fields=())
    _, _, _, sparse_b = _prefetches(points, StoreFilter(repo="org/b"))
    assert_ranked(scoped, sparse_b, 2)
    every_id = [p.id for p in points]
    scores = store.sparse_scores(q_sparse, every_id)
    assert scores.keys() == {pid for pid, _ in sparse_}
    assert all(scores[pid] == pytest.approx(s, abs=1e-4) for pid, s in sparse_)
    some = [pid for pid, _ in sparse_[1:4]] + [dense[-1][0]]  # three that share a term, one maybe not
    picked = store.sparse_scores(q_sparse, some)
    assert picked == {pid: scores[pid] for pid in some if pid in scores}
    assert store.sparse_scores(sparse.query_vector("!!"), every_id) == {}
    assert store.sparse_scores(q_sparse, []) == {}
    # ``dense_scores``: the cosine of exactly the ids asked that have a vector
    cosines = store.dense_scores(q_dense, every_id)
    assert cosines.keys() == {pid for pid, _ in dense}
    assert all(cosines[pid] == pytest.approx(c, abs=1e-4) for pid, c in dense)
    vectorless = next(p.id for p in points if p.dense is None)
    assert store.dense_scores(q_dense, [dense[-1][0], vectorless]) == {dense[-1][0]: cosines[dense[-1][0]]}
    assert store.dense_scores(q_dense, []) == {}
    unknown = str(uuid.UUID(int=7))
    by_id = {p.id: p.payload for p in points}
    asked = [every_id[5], unknown, every_id[0], every_id[11]]
    got = store.retrieve(asked, ("repo", "path"))
    assert [h.id for h in got] == [every_id[5], every_id[0], every_id[11]]
    assert all(h.score == 1.0 and h.payload == {"repo": by_id[h.id]["repo"], "path": by_id[h.id]["path"]}
               for h in got)
    assert [h.payload for h in store.retrieve(asked[:1])] == [by_id[every_id[5]]]
    assert [h.payload for h in store.retrieve(asked[:1], ())] == [{}]
    assert store.retrieve([]) == []
    slim = store.hybrid(q_dense, q_sparse, StoreFilter(), limit=4, fields=("repo", "path"))
    full = store.hybrid(q_dense, q_sparse, StoreFilter(), limit=4)
    assert [(h.id, h.score) for h in slim] == [(h.id, h.score) for h in full]
    assert all(h.payload == {"repo": by_id[h.id]["repo"], "path": by_id[h.id]["path"]} for h in slim)
    assert all(h.payload == by_id[h.id] for h in full)
    callers = store.find_any(StoreFilter(), "calls", ["parse_json", "decode"], fields=("repo", "qualified_name"))
    assert callers and [h.id for h in callers] == [
        h.id for h in store.find_any(StoreFilter(), "calls", ["parse_json", "decode"])]
    assert all(h.payload == {k: by_id[h.id][k] for k in ("repo", "qualified_name")} for h in callers)
    return {"dense": pairs(top_dense), "sparse": pairs(top_sparse), "scoped_sparse": pairs(scoped),
            "sparse_scores": sorted(scores.items()), "retrieved": [h.id for h in got],
            "slim": pairs(slim)}


@scenario
def candidate_fusion(b: Backend) -> dict[str, Any]:
    """``fusion.hybrid``: the linear formula over the dense candidates, each with its exact
    sparse term, plus the sparse retriever's own candidates, each with its exact cosine,
    only while one of them could still reach the page; ``fusion.agreement`` as each retriever's own top k would judge."""
    store, points = b.open(), corpus()
    store.upsert(points)
    q_dense, q_sparse, dense, sparse_ = _prefetches(points)
    every = StoreFilter()
    out = {}
    # A big sparse weight: sparse-only points (no dense vector) can reach the page.
    wide = fusion.hybrid(store, q_dense, q_sparse, every, 100, weight=1.0, half=2.0,
                         prefetch=100, fields=None)
    assert_ranked(wide.hits, expected_linear(dense, sparse_, (1.0, 1.0), 2.0), 100)
    assert wide.sparse_ranked == pytest.approx([s for _, s in sparse_], abs=1e-4)
    by_id = {p.id: p.payload for p in points}
    assert all(h.payload == by_id[h.id] for h in wide.hits)
    # A natural-language weight and a page the dense candidates settle: the sparse
    # retriever's own top is never asked, and the page is the formula's over all points.
    dense_ids = {pid for pid, _ in dense}
    settled = fusion.hybrid(store, q_dense, q_sparse, every, 3, weight=0.1, half=20.0,
                            prefetch=100, fields=("path",))
    assert settled.sparse_ranked is None
    assert_ranked(settled.hits, expected_linear(dense, sparse_, (1.0, 0.1), 20.0), 3)
    assert settled.sparse == {pid: pytest.approx(s, abs=1e-4) for pid, s in sparse_ if pid in dense_ids}
    # Prefetch 2: the two best cosines and the two best sparse scores are candidates, each
    # with both its exact terms (a sparse candidate outside the dense two gets its cosine:
    # a point the dense side ranks 3rd or lower may still lead the page on both).
    short = fusion.hybrid(store, q_dense, q_sparse, every, 2, weight=0.1, half=20.0,
                          prefetch=2, fields=())
    assert short.sparse_ranked == pytest.approx([s for _, s in sparse_[:2]], abs=1e-4)
    candidates = {pid for pid, _ in dense[:2]} | {pid for pid, _ in sparse_[:2]}
    assert_ranked(short.hits, {pid: v for pid, v in expected_linear(dense, sparse_, (1.0, 0.1), 20.0).items()
                               if pid in candidates}, 2)
    assert short.dense == {pid: pytest.approx(c, abs=1e-4) for pid, c in dense if pid in candidates}
    # keep: the page is the formula's ranking restricted to the points it accepts.
    in_app = fusion.hybrid(store, q_dense, q_sparse, every, 2, weight=1.0, half=2.0, prefetch=100,
                           fields=("path",), keep=lambda h: h.payload["path"].startswith("app/"))
    by_path = {p.id: p.payload["path"] for p in points}
    assert_ranked(in_app.hits, {pid: v for pid, v in expected_linear(dense, sparse_, (1.0, 1.0), 2.0).items()
                                if by_path[pid].startswith("app/")}, 2)
    out["in_app"] = pairs(in_app.hits)
    lexical = fusion.hybrid(store, None, q_sparse, every, 100, weight=1.0, half=3.0,
                            prefetch=100, fields=())
    assert_ranked(lexical.hits, expected_linear([], sparse_, (1.0, 1.0), 3.0), 100)
    assert fusion.hybrid(store, q_dense, q_sparse, every, 0, weight=1.0, half=2.0,
                         prefetch=100, fields=()).hits == []
    # Agreement: the first hit of the dense and of the sparse ranking.
    for name, pid in (("dense first", dense[0][0]), ("sparse first", sparse_[0][0]),
                      ("last", dense[-1][0])):
        agree, dense_top, sparse_top = fusion.agreement(store, settled, pid, q_sparse, every, 3)
        want = (pid in {p for p, _ in dense[:3]} and pid in {p for p, _ in sparse_[:3]})
        assert agree == want, name
        assert dense_top == pytest.approx(dense[0][1], abs=1e-4)
        out[name] = (agree, round(dense_top, 4))
    out["wide"], out["lexical"] = pairs(wide.hits), pairs(lexical.hits)
    out["settled"], out["short"] = pairs(settled.hits), pairs(short.hits)
    assert [out[k][0] for k in ("dense first", "sparse first", "last")] == [False, True, False]
    return out


@scenario
def all_points(b: Backend) -> dict[str, Any]:
    store, points = b.open(), corpus()
    store.upsert(points)
    mine = [p for p in points if p.payload["repo"] == "org/a"]
    got = store.all_points("org/a")  # 10 points in pages of 3
    assert [p.id for p in got] == in_id_order([p.id for p in mine])
    for want in mine:
        found = next(p for p in got if p.id == want.id)
        assert found.payload == want.payload
        assert found.dense == pytest.approx(want.dense) if want.dense else found.dense is None
        assert dict(zip(found.sparse.indices, found.sparse.values)) == pytest.approx(
            dict(zip(want.sparse.indices, want.sparse.values)))
    empty = next(p for p in store.all_points("org/b") if p.payload["name"] == "-")
    assert empty.sparse == SparseVector((), ())
    assert store.all_points("org/none") == []
    return {"ids": [p.id for p in got], "payloads": [p.payload for p in got]}


@scenario
def identity_switch(b: Backend) -> dict[str, Any]:
    old = b.open()
    old.upsert(corpus())
    old.close()
    for model, dim in [("other-model@2", DIM), (MODEL, 16)]:
        with pytest.raises(StoreMismatch) as info:
            b.open(model, dim)
        assert f"model={MODEL!r} dim={DIM}" in str(info.value)
        assert f"model={model!r} dim={dim}" in str(info.value)
    # The daemon's rebuild: a staging collection beside the active one, then the switch.
    new = b.open("other-model@2", staging=True)
    assert new.count() == 0 and new.collection != old.collection
    new.upsert([point("fresh", "fresh start")])
    still_old = b.open()  # the switch has not happened: the old identity still opens
    assert still_old.count() == 16
    new.activate()
    new.close()
    assert b.open("other-model@2").count() == 1
    with pytest.raises(StoreMismatch):
        b.open()
    assert still_old.count() == 16  # an open store keeps its own collection, untouched
    return {"counts": [still_old.count()]}


@scenario
def closed_store(b: Backend) -> dict[str, Any]:
    store = b.open()
    store.upsert(corpus()[:2])
    store.flush()
    store.close()
    store.close()  # idempotent
    for call in [store.count, store.flush, lambda: store.upsert(corpus()[:1]),
                 lambda: store.find(StoreFilter(), "name", "x")]:
        with pytest.raises(StoreUnavailable, match="closed"):
            call()
    return {"reopened": b.open().count()}


# --- tests ---------------------------------------------------------------------------------


_OUTCOMES: dict[tuple[str, str], dict[str, Any]] = {}
"""Outcomes of scenarios that passed, so ``test_adapters_agree`` need not run them again."""


def outcome(kind: str, name: str, root: Path) -> dict[str, Any]:
    """Run scenario ``name`` on adapter ``kind`` (its own assertions included), once per session."""
    if (kind, name) not in _OUTCOMES:
        with backend(kind, root) as b:
            _OUTCOMES[kind, name] = SCENARIOS[name](b)
    return _OUTCOMES[kind, name]


@pytest.mark.parametrize("kind", ADAPTERS)
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario(kind: str, name: str, tmp_path: Path) -> None:
    outcome(kind, name, tmp_path)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_adapters_agree(name: str, tmp_path: Path) -> None:
    assert_same(outcome("edge", name, tmp_path / "edge"), outcome("server", name, tmp_path / "server"))


def assert_same(edge_out: Any, server_out: Any, where: str = "") -> None:
    """Equal outcomes; ranked (id, score) lists: same order (up to ties), scores within 1e-4."""
    if isinstance(edge_out, dict):
        assert edge_out.keys() == server_out.keys(), where
        for key in edge_out:
            assert_same(edge_out[key], server_out[key], f"{where}/{key}")
    elif isinstance(edge_out, tuple):
        assert len(edge_out) == len(server_out), where
        for i, (a, b) in enumerate(zip(edge_out, server_out)):
            assert_same(a, b, f"{where}[{i}]")
    elif _is_ranking(edge_out):
        assert len(edge_out) == len(server_out), where
        assert canonical(edge_out) == canonical(server_out), where
        for (_, a), (_, b) in zip(edge_out, server_out):
            assert a == pytest.approx(b, abs=1e-4), where
    else:
        assert edge_out == server_out, where


def _is_ranking(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], float) for v in value)


# --- the whole pipeline over both stores ----------------------------------------------------

SHOP = {
    "shop/money.py": '"""Money helpers."""\n\n\ndef round_money(amount):\n    """Round to cents."""\n'
                     "    return round(amount, 2)\n",
    "shop/billing.py": "from shop.money import round_money\n\n\nclass Invoice:\n"
                       '    """A customer invoice."""\n\n    def total(self):\n'
                       "        return round_money(sum(self.lines))\n\n\n"
                       "def compute_refund(invoice, percent):\n"
                       '    """Refund a percentage of an invoice total."""\n'
                       "    return round_money(invoice.total() * percent / 100)\n",
    "README.md": "# Shop\n\nBilling and refunds for the shop.\n",
}


ISSUE = """compute_refund returns too much for partial refunds
A 50 % refund of an invoice pays back more than half of it:

Traceback (most recent call last):
  File "/srv/app/venv/lib/python3.12/site-packages/shop/billing.py", line 13, in compute_refund
    return round_money(invoice.total() * percent / 100)
AssertionError: refund larger than expected
"""


def test_pipeline_and_service_answer_alike(tmp_path: Path, git_repo: GitRepo) -> None:
    """A real repo indexed by the real Pipeline (embeddings off) into each store; the
    Service answers search, symbol and caller queries identically."""
    git_repo.commit(SHOP, "initial")
    answers = {}
    for kind in ADAPTERS:
        cfg = Config(data_dir=tmp_path / kind, embedding=EmbeddingConfig(enabled=False),
                     repos=(RepoConfig("shop", str(git_repo.path), "main"),))
        with backend(kind, tmp_path / kind) as b:
            store = b.open("none", 384)
            ledger = Ledger(tmp_path / kind / "ledger.sqlite")
            try:
                report = Pipeline(cfg, ledger, store, None).index_repo(cfg.repos[0])
                assert report.error == ""
                service = Service(cfg, ledger, store, None)
                answers[kind] = {
                    "search": [(h.path, h.qualified_name, h.match, round(h.score, 4))
                               for h in service.search("refund invoice total", limit=5)],
                    "exact": [(h.qualified_name, h.match) for h in service.search("round_money")],
                    "symbols": [h.qualified_name for h in service.find_symbols("invoice", prefix=True)],
                    "callers": [(c.path, c.line, c.caller) for c in service.find_callers("round_money")],
                    "points": store.count(),
                    # An issue: definitions, a traceback path (the structural evidence's
                    # keyword lookups and facets) and locate's files.
                    "issue": [(h.path, h.qualified_name, round(h.score, 4))
                              for h in service.search(ISSUE, limit=5)],
                    "locate": [(f.path, f.score, [x.qualified_name for x in f.functions])
                               for f in service.locate(ISSUE, limit=3).files],
                    "literal": [(h.path, h.qualified_name) for h in service.search('"shop"', limit=3)],
                    # the file-level index: one point per indexed file, fused by locate
                    "files": store.count_files("shop"),
                    "text_locate": [(f.path, f.score) for f in
                                    service.locate("refund a share of the invoice", limit=3).files],
                }
            finally:
                ledger.close()
    assert answers["edge"] == answers["server"]
    got = answers["server"]
    assert got["search"][0][:3] == ("shop/billing.py", "compute_refund", "hybrid")
    assert got["exact"][0] == ("round_money", "exact")
    assert got["symbols"] == ["Invoice", "Invoice.total"]
    assert got["callers"] == [("shop/billing.py", 8, "Invoice.total"),
                              ("shop/billing.py", 13, "compute_refund")]
    assert got["issue"][0][:2] == ("shop/billing.py", "compute_refund")
    assert got["locate"][0][0] == "shop/billing.py" and got["locate"][0][2][0] == "compute_refund"
    assert got["files"] == len(SHOP)
    assert got["text_locate"][0][0] == "shop/billing.py"
