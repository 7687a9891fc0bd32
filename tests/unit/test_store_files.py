"""The file index (``Store.upsert_files`` / ``delete_files`` / ``file_search`` /
``count_files``), the same scenarios against EdgeStore and ServerStore's local mode."""

from __future__ import annotations

import math
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from coderecalld.embed import sparse
from coderecalld.errors import StoreUnavailable
from coderecalld.records import FileTerms, SparseVector
from coderecalld.store import EdgeStore, StoreFilter
from coderecalld.store.base import FILE_FIELDS, file_point_id
from coderecalld.store.edge import FILES_DIR
from coderecalld.store.server import ServerStore
from coderecalld.store.timed import TimedStore
from prometheus_client import REGISTRY
from qdrant_client import QdrantClient
from storepoints import make_point

DIM = 4
MODEL = "test-model@1"
TV = sparse.TOKENIZER_VERSION
COMMON, RARE, PAIR, OTHER = 1, 2, 3, 4
"""Term ids: COMMON is in every file, RARE in one, PAIR in two; OTHER in none at first."""


def terms(**weights: float) -> SparseVector:
    ids = {"common": COMMON, "rare": RARE, "pair": PAIR, "other": OTHER}
    pairs = sorted((ids[name], w) for name, w in weights.items())
    return SparseVector(tuple(i for i, _ in pairs), tuple(w for _, w in pairs))


APP = FileTerms("org/a", "src/app.py", "source", "python", terms(common=1.0, rare=1.0))
TEST = FileTerms("org/a", "tests/test_app.py", "test", "python", terms(common=2.0, pair=1.0))
GUIDE = FileTerms("org/b", "docs/guide.md", "docs", "markdown", terms(common=2.0, pair=1.0))
FILES = [APP, TEST, GUIDE]


def idf(n: int, total: int) -> float:
    """Qdrant's IDF modifier: ``ln(1 + (N - n + 0.5) / (n + 0.5))``, N = points with terms."""
    return math.log(1 + (total - n + 0.5) / (n + 0.5))


def fid(f: FileTerms) -> str:
    return file_point_id(f.repo, f.path)


def paths(hits: list) -> list[str]:
    return [h.payload["path"] for h in hits]


def open_edge(root: Path) -> EdgeStore:
    return EdgeStore(root, DIM, MODEL, TV)


@pytest.fixture(params=["edge", "server"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "edge":
        st: Any = open_edge(tmp_path / "store")
    else:
        st = ServerStore(DIM, MODEL, TV, location=":memory:")
    with st:
        yield st


def test_file_point_id_is_deterministic_and_distinct() -> None:
    assert file_point_id("org/a", "x.py") == file_point_id("org/a", "x.py")
    assert len({file_point_id("org/a", "x.py"), file_point_id("org/b", "x.py"),
                file_point_id("org/a", "y.py"), file_point_id("org/a/x", ".py")}) == 4


def test_idf_is_over_files_and_orders_rare_terms_first(store: Any) -> None:
    # Chunks full of RARE must not change the file index's IDF (a separate index).
    store.upsert([make_point(f"f{i}") for i in range(5)])
    store.upsert_files(FILES)
    hits = store.file_search(terms(common=1.0, rare=1.0), StoreFilter(), 10)
    assert paths(hits)[0] == "src/app.py"
    assert sorted(paths(hits)[1:]) == ["docs/guide.md", "tests/test_app.py"]
    scores = {h.payload["path"]: h.score for h in hits}
    # APP: one COMMON + one RARE; TEST and GUIDE: twice COMMON. A plain dot product ties
    # them (2 = 2); IDF over 3 files puts the rare term far ahead.
    assert scores["src/app.py"] == pytest.approx(idf(3, 3) + idf(1, 3), rel=1e-4)
    assert scores["tests/test_app.py"] == pytest.approx(2 * idf(3, 3), rel=1e-4)
    assert scores["docs/guide.md"] == pytest.approx(2 * idf(3, 3), rel=1e-4)
    assert scores["src/app.py"] > 3 * scores["tests/test_app.py"]
    # The term in two files outranks the term in all three (weights equal).
    hits = store.file_search(terms(common=1.0, pair=1.0), StoreFilter(), 10)
    assert sorted(paths(hits[:2])) == ["docs/guide.md", "tests/test_app.py"]
    assert paths(hits[2:]) == ["src/app.py"]
    assert hits[0].score == pytest.approx(2 * idf(3, 3) + idf(2, 3), rel=1e-4)
    assert hits[2].score == pytest.approx(idf(3, 3), rel=1e-4)


def test_hits_carry_the_file_id_and_exactly_the_file_fields(store: Any) -> None:
    store.upsert_files(FILES)
    [hit] = store.file_search(terms(rare=1.0), StoreFilter(), 10)
    assert hit.id == fid(APP)
    assert hit.payload == {"repo": "org/a", "path": "src/app.py", "role": "source",
                           "language": "python"}
    assert tuple(sorted(hit.payload)) == tuple(sorted(FILE_FIELDS))


def test_filters(store: Any) -> None:
    store.upsert_files(FILES)
    query = terms(common=1.0)

    def found(**kw: Any) -> list[str]:
        return sorted(paths(store.file_search(query, StoreFilter(**kw), 10)))

    assert found() == ["docs/guide.md", "src/app.py", "tests/test_app.py"]
    assert found(repo="org/b") == ["docs/guide.md"]
    assert found(repos=("org/a",)) == ["src/app.py", "tests/test_app.py"]
    assert found(repos=("org/a",), repo="org/b") == []  # repo narrows within repos
    assert found(roles=("test", "docs")) == ["docs/guide.md", "tests/test_app.py"]
    assert found(path_prefix="src/") == ["src/app.py"]
    assert found(path_prefix="tests/test_") == ["tests/test_app.py"]
    assert found(path="tests/test_app.py") == ["tests/test_app.py"]
    assert found(path="tests") == []
    assert found(language="markdown") == ["docs/guide.md"]
    assert found(kind="function") == found()  # a file has no kind: ignored
    assert len(store.file_search(query, StoreFilter(), 2)) == 2


def test_empty_query_and_limit(store: Any) -> None:
    store.upsert_files(FILES)
    assert store.file_search(SparseVector((), ()), StoreFilter(), 10) == []
    assert store.file_search(terms(common=1.0), StoreFilter(), 0) == []
    assert store.file_search(terms(other=1.0), StoreFilter(), 10) == []


def test_upsert_replaces_a_files_terms(store: Any) -> None:
    store.upsert_files(FILES)
    store.upsert_files([FileTerms("org/a", "src/app.py", "source", "python", terms(other=3.0))])
    assert store.count_files() == 3
    assert store.file_search(terms(rare=1.0), StoreFilter(), 10) == []
    [hit] = store.file_search(terms(other=1.0), StoreFilter(), 10)
    assert (hit.id, hit.payload["path"]) == (fid(APP), "src/app.py")
    # COMMON is now in two files of three
    hits = store.file_search(terms(common=1.0), StoreFilter(), 10)
    assert sorted(paths(hits)) == ["docs/guide.md", "tests/test_app.py"]
    assert hits[0].score == pytest.approx(2 * idf(2, 3), rel=1e-4)


def test_a_file_without_terms_is_counted_never_found_and_out_of_idf(store: Any) -> None:
    store.upsert_files(FILES)
    before = store.file_search(terms(common=1.0), StoreFilter(), 10)
    store.upsert_files([FileTerms("org/a", "empty.py", "source", "python", SparseVector((), ()))])
    assert store.count_files() == 4
    assert store.count_files("org/a") == 3
    after = store.file_search(terms(common=1.0), StoreFilter(), 10)
    assert [(h.id, h.score) for h in after] == [(h.id, pytest.approx(h.score)) for h in before]
    # a file that had terms loses them
    store.upsert_files([FileTerms("org/a", "src/app.py", "source", "python", SparseVector((), ()))])
    assert store.file_search(terms(rare=1.0), StoreFilter(), 10) == []
    assert store.count_files() == 4


def test_delete_files(store: Any) -> None:
    store.upsert_files(FILES)
    assert store.delete_files("org/a", ()) == 0
    assert store.delete_files("org/a", ["docs/guide.md"]) == 0  # that path is org/b's
    assert store.delete_files("org/a", ["src/app.py", "nope.py"]) == 1
    assert store.delete_files("org/a", ["src/app.py"]) == 0
    assert store.count_files() == 2
    assert store.file_search(terms(rare=1.0), StoreFilter(), 10) == []
    assert sorted(paths(store.file_search(terms(common=1.0), StoreFilter(), 10))) == [
        "docs/guide.md", "tests/test_app.py"]
    assert store.delete_files("org/b", {"docs/guide.md"}) == 1
    assert store.count_files() == 1


def test_delete_repo_removes_that_repos_files_and_counts_chunks(store: Any) -> None:
    store.upsert([make_point("a1", repo="org/a"), make_point("a2", repo="org/a"),
                  make_point("b1", repo="org/b")])
    store.upsert_files(FILES)
    assert (store.count_files(), store.count_files("org/a"), store.count_files("org/b")) == (3, 2, 1)
    assert store.delete_repo("org/a") == 2
    assert (store.count_files(), store.count_files("org/a"), store.count_files("org/b")) == (1, 0, 1)
    assert paths(store.file_search(terms(common=1.0), StoreFilter(), 10)) == ["docs/guide.md"]
    assert store.count() == 1
    assert store.delete_repo("org/b") == 1
    assert store.count_files() == 0
    # a repo with files but no chunks: its files go, the chunk count is 0
    store.upsert_files([FileTerms("org/c", "c.py", "source", "python", terms(common=1.0))])
    assert store.delete_repo("org/c") == 0
    assert store.count_files() == 0
    assert store.count_files("org/none") == 0


def test_chunk_methods_never_see_file_points(store: Any) -> None:
    chunk = make_point("validate", "token", repo="org/a", path="src/app.py")
    store.upsert([chunk])
    store.upsert_files([FileTerms("org/a", "src/app.py", "source", "python",
                                  sparse.vector("validate token")),
                        FileTerms("org/c", "only/files.py", "source", "python",
                                  sparse.vector("validate"))])
    everywhere = StoreFilter()
    assert store.count() == 1
    assert store.count(StoreFilter(repo="org/c")) == 0
    assert [h.id for h in store.sparse_search(sparse.vector("validate"), everywhere, 10)] == [chunk.id]
    assert [h.id for h in store.find(everywhere, "path", "src/app.py")] == [chunk.id]
    assert [h.id for h in store.find(everywhere, "repo", "org/c")] == []
    assert store.retrieve([fid(FILES[0])]) == []
    assert [p.id for p in store.all_points("org/a")] == [chunk.id]
    assert store.repos() in ({"org/a"}, None)  # Edge knows; a server store never does
    file_ids = {h.id for h in store.file_search(sparse.vector("validate"), everywhere, 10)}
    assert file_ids == {file_point_id("org/a", "src/app.py"), file_point_id("org/c", "only/files.py")}
    assert store.delete_file_except("org/a", "src/app.py", ()) == 1  # the chunk only
    assert store.count_files() == 2


def test_flush_optimize_and_closed(store: Any) -> None:
    store.upsert_files(FILES)
    store.flush()
    assert isinstance(store.optimize(), bool)
    assert store.count_files() == 3
    store.close()
    for call in (lambda: store.count_files(), lambda: store.upsert_files(FILES),
                 lambda: store.delete_files("org/a", ["src/app.py"]),
                 lambda: store.file_search(terms(common=1.0), StoreFilter(), 1)):
        with pytest.raises(StoreUnavailable, match="closed"):
            call()


def test_timed_store_times_the_file_methods(store: Any) -> None:
    timed = TimedStore(store)

    def observed(op: str) -> float:
        return REGISTRY.get_sample_value("coderecall_store_operation_duration_seconds_count",
                                         {"op": op}) or 0.0

    ops = ("upsert_files", "file_search", "count_files", "delete_files")
    before = {op: observed(op) for op in ops}
    timed.upsert_files(FILES)
    assert paths(timed.file_search(terms(rare=1.0), StoreFilter(), 5)) == ["src/app.py"]
    assert timed.count_files("org/a") == 2
    assert timed.delete_files("org/a", ["src/app.py"]) == 1
    assert {op: observed(op) - before[op] for op in ops} == dict.fromkeys(ops, 1.0)


# --- Edge: reopen, and a store built before the file index existed -------------------------


def test_edge_file_index_persists_across_reopen(tmp_path: Path) -> None:
    with open_edge(tmp_path / "s") as st:
        st.upsert([make_point("a1", repo="org/a")])
        st.upsert_files(FILES)
        assert (st.root / st.collection / FILES_DIR).is_dir()
    with open_edge(tmp_path / "s") as st:
        assert st.count_files() == 3
        assert paths(st.file_search(terms(rare=1.0), StoreFilter(), 5)) == ["src/app.py"]
        assert st.count() == 1
        # optimize covers the file index: afterwards it still answers the same
        st.optimize()
        assert paths(st.file_search(terms(rare=1.0), StoreFilter(path_prefix="src/"), 5)) == [
            "src/app.py"]


def test_edge_store_without_file_index_opens_with_an_empty_one(tmp_path: Path) -> None:
    with open_edge(tmp_path / "s") as st:
        st.upsert([make_point("a1", repo="org/a"), make_point("b1", repo="org/b")])
        st.upsert_files(FILES)
        files_dir = st.root / st.collection / FILES_DIR
    shutil.rmtree(files_dir)  # as a store written before the file index existed
    with open_edge(tmp_path / "s") as st:
        assert st.count_files() == 0
        assert st.count() == 2
        assert st.file_search(terms(common=1.0), StoreFilter(), 5) == []
        st.upsert_files([GUIDE])
        assert paths(st.file_search(terms(common=1.0), StoreFilter(), 5)) == ["docs/guide.md"]
    with open_edge(tmp_path / "s") as st:
        assert (st.count_files(), st.count()) == (1, 2)


def test_edge_second_open_is_refused_and_leaves_the_first_working(tmp_path: Path) -> None:
    with open_edge(tmp_path / "s") as st:
        with pytest.raises(StoreUnavailable, match="another process"):
            open_edge(tmp_path / "s")
        st.upsert_files([APP])
        assert st.count_files() == 1


# --- Server: a chunk collection built before the file index existed ------------------------


def test_server_creates_a_missing_files_collection() -> None:
    client = QdrantClient(location=":memory:")
    first = ServerStore(DIM, MODEL, TV, client=client)
    first.upsert([make_point("a1", repo="org/a")])
    first.upsert_files(FILES)
    assert first.files_collection == first.collection + "-files"
    assert client.collection_exists(first.files_collection)
    config = client.get_collection(first.files_collection).config.params
    assert config.vectors in ({}, None)
    assert list(config.sparse_vectors or {}) == ["terms"]
    first.close()
    client.delete_collection(first.files_collection)
    with ServerStore(DIM, MODEL, TV, client=client) as again:
        assert again.count_files() == 0
        assert again.count() == 1
        again.upsert_files([APP])
        assert paths(again.file_search(terms(rare=1.0), StoreFilter(), 5)) == ["src/app.py"]
    client.close()
