"""EdgeStore against the real embedded Qdrant engine (qdrant-edge-py) in tmp_path."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from coderecalld.embed import sparse
from coderecalld.errors import InvalidArgument, StoreError, StoreMismatch, StoreUnavailable
from coderecalld.records import FileTerms, PointRecord
from coderecalld.store import EdgeStore, StoreFilter, StoreIdentity
from coderecalld.store import edge as edge_module
from coderecalld.store.base import Settled
from storepoints import make_point

DIM = 4
MODEL = "test-model@1"
DEEP_PATH = "src/tiefe Ordner/ünïcödé dir/日本語/with space/file name.py"
X = (1.0, 0.0, 0.0, 0.0)  # the dense query direction used throughout


def open_store(root: Path, dim: int = DIM, model: str = MODEL, **kw: bool) -> EdgeStore:
    return EdgeStore(root, dim, model, sparse.TOKENIZER_VERSION, **kw)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EdgeStore]:
    with open_store(tmp_path / "store") as st:
        yield st


def names(hits: list) -> list[str]:
    return [h.payload["name"] for h in hits]


def test_find_exact_prefix_text_and_calls(store: EdgeStore) -> None:
    store.upsert([
        make_point("HMACValidator", qualified_name="auth.HMACValidator", kind="class"),
        make_point("validate", qualified_name="auth.HMACValidator.validate",
                   calls=("hmac.compare_digest", "compare_digest")),
        make_point("validate_token", qualified_name="tokens.validate_token", calls=("decode",)),
    ])  # fmt: skip
    everywhere = StoreFilter()
    assert names(store.find(everywhere, "name_lc", "hmacvalidator")) == ["HMACValidator"]
    assert names(store.find(everywhere, "name", "HMACValidator")) == ["HMACValidator"]
    assert sorted(names(store.find(everywhere, "name_lc", "valid", prefix=True))) == [
        "validate", "validate_token",
    ]  # fmt: skip
    in_auth = store.find(everywhere, "qualified_name_lc", "auth.hmac", prefix=True)
    assert sorted(names(in_auth)) == ["HMACValidator", "validate"]
    assert names(store.find(everywhere, "name_tokens", "validator validate")) == ["validate"]
    assert names(store.find_any(everywhere, "calls", ["compare_digest", "nope"])) == ["validate"]
    assert store.find_any(everywhere, "calls", []) == []
    assert store.find(StoreFilter(repo="other/repo"), "name_lc", "hmacvalidator") == []
    with pytest.raises(InvalidArgument):
        store.find(everywhere, "calls", "dec", prefix=True)
    with pytest.raises(InvalidArgument):
        store.find(everywhere, "signature", "x")
    with pytest.raises(InvalidArgument):
        store.find(everywhere, "name_lc", "")


def test_delete_file_except_on_deep_non_ascii_path(store: EdgeStore) -> None:
    keep = make_point("keep_me", path=DEEP_PATH)
    stale = [make_point(f"stale_{i}", path=DEEP_PATH) for i in range(3)]
    sibling = make_point("sibling", path=DEEP_PATH + "x")  # shares the path as a prefix
    other_repo = make_point("keep_me", repo="org/other", path=DEEP_PATH)
    store.upsert([keep, *stale, sibling, other_repo])

    assert store.delete_file_except("org/app", DEEP_PATH, {keep.id}) == 3
    assert store.count(StoreFilter(repo="org/app", path=DEEP_PATH)) == 1
    assert store.delete_file_except("org/app", DEEP_PATH, ()) == 1
    assert store.count(StoreFilter(repo="org/app", path=DEEP_PATH)) == 0
    assert store.count(StoreFilter(repo="org/app", path=DEEP_PATH + "x")) == 1
    assert store.count(StoreFilter(repo="org/other", path=DEEP_PATH)) == 1
    assert store.delete_file_except("org/app", DEEP_PATH, ()) == 0
    assert store.delete_repo("org/other") == 1
    assert store.count() == 1


def _ranking_corpus() -> list[PointRecord]:
    return [
        # Both halves agree on "both": second by sparse and second by dense.
        make_point("both", "parse json config", dense=(0.8, 0.6, 0.0, 0.0)),
        # Best sparse match (repeated terms, short), no dense vector yet.
        make_point("lexical", "parse json parse json"),
        # Best dense match, no shared terms.
        make_point("semantic", "decode payload", dense=X),
        *(make_point(f"filler{i}", f"render widget {i}", dense=(0.0, 0.0, 1.0, 0.0))
          for i in range(4)),
    ]  # fmt: skip


def test_hybrid_ranks_agreement_of_both_prefetches_first(store: EdgeStore) -> None:
    store.upsert(_ranking_corpus())
    query_sparse = sparse.query_vector("parse json")
    query_dense = X
    assert names(store.sparse_search(query_sparse, StoreFilter(), 3))[:2] == ["lexical", "both"]
    assert names(store.dense_search(query_dense, StoreFilter(), 2)) == ["semantic", "both"]

    hits = store.hybrid(query_dense, query_sparse, StoreFilter(), limit=3)
    assert names(hits)[0] == "both"
    assert hits[0].score == pytest.approx(2 / 61)  # 0-based rank 1 in each prefetch, k=60
    assert set(names(hits)[1:]) == {"lexical", "semantic"}
    # weights are (dense, sparse): silencing one half leaves the other's order.
    hits = store.hybrid(query_dense, query_sparse, StoreFilter(), limit=1, weights=(0.0, 1.0))
    assert names(hits) == ["lexical"]
    hits = store.hybrid(query_dense, query_sparse, StoreFilter(), limit=1, weights=(1.0, 0.0))
    assert names(hits) == ["semantic"]
    assert names(store.hybrid(None, query_sparse, StoreFilter(), limit=2)) == ["lexical", "both"]
    assert store.hybrid(None, sparse.query_vector("!!"), StoreFilter(), limit=2) == []


def test_sparse_only_point_gets_dense_later(store: EdgeStore) -> None:
    point = make_point("lonely", "unique marker term")
    store.upsert([point, make_point("dense", "other", dense=(0.0, 1.0, 0.0, 0.0))])
    assert names(store.sparse_search(sparse.query_vector("marker"), StoreFilter(), 5)) == ["lonely"]
    assert "lonely" not in names(store.dense_search(X, StoreFilter(), 5))

    missing = store.missing_dense(10)
    assert [h.id for h in missing] == [point.id]
    assert missing[0].payload["embed_text"] == "lonely\nunique marker term"
    assert missing[0].payload["text_hash"] == "h-lonely"

    gone = str(uuid.uuid4())  # deleted meanwhile: skipped, not an error
    assert store.set_dense({point.id: X, gone: X}) == 1
    assert names(store.dense_search(X, StoreFilter(), 1)) == ["lonely"]
    assert store.missing_dense(10) == []
    with pytest.raises(StoreError, match="3 dimensions"):
        store.set_dense({point.id: (1.0, 0.0, 0.0)})


def test_filters_by_repo_scope_language_kind_and_path_prefix(store: EdgeStore) -> None:
    store.upsert([
        make_point("alpha", "shared", repo="org/a", path="src/pkg/a.py", dense=X),
        make_point("beta", "shared", repo="org/b", path="src/pkg/b.go", language="go", dense=X),
        make_point("gamma", "shared", repo="org/c", path="srcx/c.py", kind="class", dense=X),
        # "-" has no terms at all: the point is stored with an empty sparse vector.
        make_point("-", "", repo="org/c", path="srcx/c.py"),
    ])  # fmt: skip
    q, d = sparse.query_vector("shared"), X

    def hybrid_names(flt: StoreFilter) -> list[str]:
        return sorted(names(store.hybrid(d, q, flt, limit=10)))

    assert hybrid_names(StoreFilter(repo="org/a")) == ["alpha"]
    assert hybrid_names(StoreFilter(repos=("org/a", "org/b"))) == ["alpha", "beta"]
    assert hybrid_names(StoreFilter(repo="org/c", repos=("org/a", "org/b"))) == []  # never widens
    assert hybrid_names(StoreFilter(language="go")) == ["beta"]
    assert hybrid_names(StoreFilter(kind="class")) == ["gamma"]
    assert hybrid_names(StoreFilter(path_prefix="src/")) == ["alpha", "beta"]
    assert names(store.dense_search(d, StoreFilter(path_prefix="srcx"), 10)) == ["gamma"]
    assert store.count(StoreFilter(path_prefix="src")) == 4
    assert store.count(StoreFilter(repos=("org/c",), path="srcx/c.py")) == 2


def test_persistence_across_close_and_reopen(tmp_path: Path) -> None:
    root = tmp_path / "store"
    with open_store(root) as st:
        st.upsert(_ranking_corpus())
        collection = st.collection
    assert (root / "current").read_text().strip() == collection
    identity = StoreIdentity.from_json((root / collection / "identity.json").read_text())
    assert identity == StoreIdentity(MODEL, DIM, sparse.TOKENIZER_VERSION)
    with open_store(root) as st:
        assert st.count() == 7
        assert names(st.find(StoreFilter(), "name_lc", "both")) == ["both"]
        assert names(st.dense_search(X, StoreFilter(), 1)) == ["semantic"]


@pytest.mark.parametrize(("dim", "model"), [(8, MODEL), (DIM, "other-model@2")])
def test_other_identity_is_refused_and_built_separately(
    tmp_path: Path, dim: int, model: str
) -> None:
    root = tmp_path / "store"
    with open_store(root) as st:
        st.upsert([make_point("old", "x", dense=X)])
    with pytest.raises(StoreMismatch) as info:
        open_store(root, dim, model)
    assert f"model={MODEL!r} dim={DIM}" in str(info.value)
    assert f"model={model!r} dim={dim}" in str(info.value)

    # The daemon's rebuild: a staging collection beside the active one, then a pointer swap.
    with open_store(root, dim, model, staging=True) as new:
        assert new.count() == 0
        new.activate()
    with open_store(root, dim, model) as st:
        assert st.count() == 0
    with pytest.raises(StoreMismatch):
        open_store(root)


def test_closed_or_doubly_opened_store_is_unavailable(tmp_path: Path) -> None:
    st = open_store(tmp_path / "store")
    with pytest.raises(StoreUnavailable):
        open_store(tmp_path / "store")  # the engine locks the shard's WAL
    st.close()
    st.close()  # idempotent
    with pytest.raises(StoreUnavailable, match="closed"):
        st.count()


def test_wrong_dimension_is_a_store_error(store: EdgeStore) -> None:
    with pytest.raises(StoreError, match="5 dimensions"):
        store.upsert([make_point("bad", dense=(1.0, 0.0, 0.0, 0.0, 0.0))])
    with pytest.raises(StoreError):
        store.dense_search((1.0,), StoreFilter(), 1)
    assert store.count() == 0


def test_queries_and_writes_from_several_threads(store: EdgeStore) -> None:
    corpus = _ranking_corpus()
    store.upsert(corpus)
    errors: list[BaseException] = []

    def reader() -> None:
        try:
            for _ in range(40):
                assert store.hybrid(X, sparse.query_vector("parse json"), StoreFilter(), 3)
        except BaseException as exc:  # collected and asserted in the main thread
            errors.append(exc)

    def writer() -> None:
        try:
            for i in range(20):
                store.upsert([make_point(f"churn{i}", "parse", path="churn.py", dense=X)])
                store.delete_file_except("org/app", "churn.py", ())
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(3)] + [threading.Thread(target=writer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.count() == len(corpus)


def test_linear_formula_adds_cosine_and_saturated_sparse_score(store: EdgeStore) -> None:
    store.upsert(_ranking_corpus())
    query_sparse = sparse.query_vector("parse json")
    raw = {h.payload["name"]: h.score for h in store.sparse_search(query_sparse, StoreFilter(), 10)}
    cosine = {h.payload["name"]: h.score for h in store.dense_search(X, StoreFilter(), 10)}
    hits = store.hybrid(X, query_sparse, StoreFilter(), limit=10, weights=(1.0, 0.5),
                        method="linear", sparse_half=2.0)
    scores = {h.payload["name"]: h.score for h in hits}
    # A point seen by both prefetches gets both terms; one seen by one gets that term alone.
    assert scores["both"] == pytest.approx(cosine["both"] + 0.5 * raw["both"] / (raw["both"] + 2.0))
    assert scores["lexical"] == pytest.approx(0.5 * raw["lexical"] / (raw["lexical"] + 2.0))
    assert scores["semantic"] == pytest.approx(cosine["semantic"])
    assert [h.score for h in hits] == sorted(scores.values(), reverse=True)
    light = store.hybrid(X, query_sparse, StoreFilter(), limit=1, weights=(1.0, 0.1), method="linear")
    assert names(light) == ["semantic"]  # cosine 1.0 beats 0.8 + a lexical bonus under 0.1
    lexical_first = store.hybrid(X, query_sparse, StoreFilter(), limit=1, weights=(0.0, 1.0),
                                 method="linear")
    assert names(lexical_first) == ["lexical"]
    assert names(store.hybrid(None, query_sparse, StoreFilter(), limit=2, method="linear")) == [
        "lexical", "both"]
    assert len(store.hybrid(X, query_sparse, StoreFilter(), limit=3, method="dbsf")) == 3


def test_all_points_pages_through_one_repo_with_vectors(
    store: EdgeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every point of the repo, across several scroll pages, with payload and both vectors;
    other repos' points are left out."""
    from coderecalld.store import edge

    monkeypatch.setattr(edge, "ALL_POINTS_PAGE", 3)  # 7 points: three pages
    mine = [make_point(f"f{i}", f"text {i}", dense=X if i % 2 else None) for i in range(7)]
    store.upsert([*mine, make_point("other", repo="org/other")])
    got = {p.id: p for p in store.all_points("org/app")}
    assert set(got) == {p.id for p in mine}
    for want in mine:
        point = got[want.id]
        assert point.payload == want.payload
        assert point.dense == want.dense
        assert dict(zip(point.sparse.indices, point.sparse.values)) == pytest.approx(
            dict(zip(want.sparse.indices, want.sparse.values)))
    assert store.all_points("org/none") == []


def test_a_tie_orders_by_id_whatever_order_the_points_were_written_in(tmp_path: Path) -> None:
    # five chunks of one text tie on every retriever; the engine ordered a tie by where it
    # keeps the points, so writing them in another order answered in another order
    def answers(order: list[str], root: Path) -> tuple[list[str], ...]:
        with open_store(root) as st:
            for n in order:  # one write each: the engine keeps them in this order
                st.upsert([make_point("handler", "parse the json body", path=f"app/{n}.py", dense=X)])
            vector = sparse.query_vector("parse json body")
            # (the engine's own rank fusion, ``hybrid``, ranks its prefetches' ties before
            # fusing: the service fuses these two lists itself, ``query/fusion.py``)
            got = (st.sparse_search(vector, StoreFilter(), 10), st.dense_search(X, StoreFilter(), 10))
            assert all(len({h.score for h in hits}) == 1 for hits in got)  # ties throughout
            return tuple([h.id for h in hits] for hits in got)

    forward = answers(list("abcde"), tmp_path / "forward")
    assert answers(list("edcba"), tmp_path / "backward") == forward
    assert all(ids == sorted(ids) for ids in forward)


def test_settle_takes_deleted_points_out_of_the_idf_statistics(tmp_path: Path) -> None:
    """The engine counts a deleted point in its sparse IDF statistics until the shard is
    loaded again: 200 deleted chunks holding "alpha" left the word as common as in 240
    points, and a search for "alpha gamma" ranked the "gamma" chunks first. ``settle``
    loads the shard again once deletions reach ``SETTLE_DELETED_SHARE`` of its points:
    the scores are a store built with the remaining points only."""
    live = [make_point(f"f{i}", "alpha beta" if i < 5 else "gamma delta", path=f"a{i}.py", dense=X)
            for i in range(40)]
    gone = [make_point(f"g{i}", "alpha omega", path=f"b{i}.py", dense=X) for i in range(200)]
    query = sparse.query_vector("alpha gamma")

    def scored(st: EdgeStore) -> list[tuple[str, float]]:
        return sorted((h.payload["name"], round(h.score, 5)) for h in st.sparse_search(query, StoreFilter(), 40))
    with open_store(tmp_path / "fresh") as st:
        st.upsert(live)
        fresh = scored(st)
    assert [name for name, _ in sorted(fresh, key=lambda f: -f[1])[:5]] == sorted(
        [f"f{i}" for i in range(5)], key=lambda n: -dict(fresh)[n])  # "alpha" is the rarer word
    with open_store(tmp_path / "synced") as st:
        st.upsert(live + gone)
        assert st.settle() == Settled(0, 0)  # nothing deleted
        st.delete_file_except("org/app", "b0.py", [])
        assert st.settle() == Settled(0, 0)  # 1 of 239: under the share
        for p in gone[1:]:
            st.delete_file_except("org/app", p.payload["path"], [])
        assert st.count() == 40
        assert scored(st) != fresh  # the engine's statistics still count the 200
        assert st.settle(now=True) == Settled(reloaded=1)  # 40 points: well under the bound
        assert scored(st) == fresh
        assert st.settle() == Settled(0, 0) and st.count() == 40
        st.upsert([make_point("h", "alpha", path="c.py", dense=X)])  # still writable
        assert st.count() == 41


def test_settle_now_defers_a_shard_too_large_to_load_while_requests_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shard over ``SETTLE_NOW_MAX_POINTS`` is not loaded again by ``settle(now=True)``
    (requests would wait ~15 s at 1M points): it is reported deferred, its statistics stay
    as they were, and the next ``settle()`` loads it; the file index, under the bound, is
    loaded at once."""
    monkeypatch.setattr(edge_module, "SETTLE_NOW_MAX_POINTS", 30)
    live = [make_point(f"f{i}", "alpha beta" if i < 5 else "gamma delta", path=f"a{i}.py", dense=X)
            for i in range(40)]
    gone = [make_point(f"g{i}", "alpha omega", path=f"b{i}.py", dense=X) for i in range(20)]
    query = sparse.query_vector("alpha gamma")
    with open_store(tmp_path / "s") as st:
        st.upsert(live + gone)
        st.upsert_files([FileTerms("org/app", f"b{i}.py", "source", "python", sparse.vector("alpha"))
                         for i in range(20)] + [FileTerms("org/app", "a0.py", "source", "python",
                                                          sparse.vector("gamma"))])
        for p in gone:
            st.delete_file_except("org/app", p.payload["path"], [])
        st.delete_files("org/app", [f"b{i}.py" for i in range(20)])
        stale = [(h.id, h.score) for h in st.sparse_search(query, StoreFilter(), 40)]
        assert st.settle(now=True) == Settled(reloaded=1, deferred=1)  # files: 1 point; chunks: 40
        assert [(h.id, h.score) for h in st.sparse_search(query, StoreFilter(), 40)] == stale
        assert st.settle(now=True) == Settled(reloaded=0, deferred=1)  # still pending
        assert st.settle() == Settled(reloaded=1)
        assert [(h.id, h.score) for h in st.sparse_search(query, StoreFilter(), 40)] != stale
        assert st.settle(now=True) == Settled(0, 0)
